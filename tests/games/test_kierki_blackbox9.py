"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (ninth black-box
round: the seven negative deals under the options that change them), replayed through
``kiosk replay --json``. Every figure below was worked out by hand from the spec; the referee
agreed with all of them, so these guard the behaviour rather than a fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks

Trick = list[tuple[str, str]]


def _deals(options: dict[str, Any], last: int) -> Log:
    """Deals 1 to ``last`` of the worked match (§14), each by its dealer (first dealer N)."""
    log = Log(options)
    for k in range(1, last + 1):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    return log


@pytest.mark.parametrize(("value", "deal6", "deal7"), [
    ("7,13 @ 75", {"N": -75, "E": -75, "S": 0, "W": 0}, {"N": -535, "E": 0, "S": -40, "W": -725}),
    # The last two tricks: N takes 12 and 13 of §14.6; in §14.7 W takes 12 and 13, N loses the 7th.
    ("12,13 @ 75", {"N": -150, "E": 0, "S": 0, "W": 0}, {"N": -460, "E": 0, "S": -40, "W": -800}),
    ("13 @ 150", {"N": -150, "E": 0, "S": 0, "W": 0}, {"N": -460, "E": 0, "S": -40, "W": -800}),
    # Trick 3 is S's in both deals (§14.6 T3 8C, §14.7 T3 8D).
    ("3,7 @ 75", {"N": 0, "E": -75, "S": -75, "W": 0}, {"N": -535, "E": 0, "S": -115, "W": -650}),
    # Trick 8 is W's in both (§14.6 T8 JC, §14.7 T8 AC); nobody pays for trick 13 any more.
    ("3,8 @ 75", {"N": 0, "E": 0, "S": -75, "W": -75}, {"N": -460, "E": 0, "S": -115, "W": -725}),
])
def test_deal6_penalty_tricks_in_deal_6_and_the_robber(
        value: str, deal6: dict[str, int], deal7: dict[str, int], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``deal6_penalty_tricks`` ("which tricks are penalised in deal 6 (and in the
    deal-7 robber)"; every choice keeps the deal total at -150) on the tricks of §14.6 and §14.7."""
    report = _deals({"deal6_penalty_tricks": value}, 7).replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert report["hands"][5] == deal6 and report["hands"][6] == deal7
    assert sum(deal7.values()) == -1300


# Deal 5, dealer N, E leads. E holds KH 5H and eleven spades, so any heart lead by E while
# spades are left breaks an all-hearts ban.
_HANDS5 = {
    "E": "KH 5H AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
    "S": "2H 3S 2S AD KD QD JD 10D 9D 8D 7D 6D 5D",
    "W": "3H 4D 3D 2D AC KC QC JC 10C 9C 8C 7C 6C",
    "N": "AH QH JH 10H 9H 8H 7H 6H 4H 5C 4C 3C 2C",
}


def _deal5(lead: str) -> list[Trick]:
    """E leads ``lead``; then E runs its spades (S and W follow or discard, N discards clubs,
    then hearts), and E leads its last heart at trick 13."""
    other = "5H" if lead == "KH" else "KH"
    s = _HANDS5["S"].split()
    w = _HANDS5["W"].split()
    n = _HANDS5["N"].split()
    tricks: list[Trick] = [[("E", lead), ("S", "2H"), ("W", "3H"), ("N", "4H")]]
    spades = _HANDS5["E"].split()[2:][::-1]  # 4S up to AS
    s_rest = ["3S", "2S"] + s[3:]
    w_rest = w[1:]
    n_rest = ["5C", "4C", "3C", "2C"] + n[1:8][::-1]
    for i, card in enumerate(spades):
        tricks.append([("E", card), ("S", s_rest[i]), ("W", w_rest[i]), ("N", n_rest[i])])
    tricks.append([("E", other), ("S", s_rest[11]), ("W", w_rest[11]), ("N", "AH")])
    return tricks


@pytest.mark.parametrize(("scope", "lead", "illegal"), [
    ("all_hearts", "5H", True), ("all_hearts", "KH", True),
    ("king_of_hearts_only", "5H", False), ("king_of_hearts_only", "KH", True),
])
def test_deal5_lead_ban_scope(scope: str, lead: str, illegal: bool, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``deal5_lead_ban_scope``: with ``king_of_hearts_only`` only a KH lead while
    holding another card is banned in deal 5 (docs/table-log.md: proven by any later card), and
    any other heart may be led; by default every heart lead is banned (§5.2). KH goes to whoever
    wins its trick: E itself when it leads KH, N (AH) when E keeps it to trick 13."""
    log = _deals({"deal5_lead_ban_scope": scope}, 4)
    log.ev("deal", seat="N", deal=5).tricks(_deal5(lead)).ev("deal", seat="E", deal=6)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == (["illegal_lead"] if illegal else [])
    taker = "E" if lead == "KH" else "N"
    assert report["hands"][4] == {s: -150 if s == taker else 0 for s in SEATS}


def test_king_of_hearts_forced_on_a_heart_lead_once_ah_is_in(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``king_of_hearts_forced_discard`` (b): hearts led and AH already in the trick,
    the holder of KH must play it. Deal 5 without the heart-lead ban (``heart_lead_ban_deals`` =
    [2, 7]): E leads AH, S plays 2H, W (holding KH) plays 3H; W's KH later proves the breach
    (§13.3: "P does not play KH when forced"). Had W played KH, nothing is flagged and E, who
    wins with AH, pays 150."""
    def tricks(w_card: str) -> list[Trick]:
        other = "3H" if w_card == "KH" else "KH"
        t: list[Trick] = [[("E", "AH"), ("S", "2H"), ("W", w_card), ("N", "4H")]]
        spades = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS".split()
        s = "2S 4D 5D 6D 7D 8D 9D 10D JD QD KD AD".split()
        w = "3D 2D 6C 7C 8C 9C 10C JC QC KC AC".split() + [other]
        n = "5C 4C 3C 2C 5H 6H 7H 8H 9H 10H JH QH".split()
        for i, card in enumerate(spades):
            t.append([("E", card), ("S", s[i]), ("W", w[i]), ("N", n[i])])
        return t
    opts = {"king_of_hearts_forced_discard": True, "heart_lead_ban_deals": [2, 7]}
    log = _deals(opts, 4).ev("deal", seat="N", deal=5).tricks(tricks("KH")).ev("deal", seat="E", deal=6)
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert report["hands"][4] == {"N": 0, "E": -150, "S": 0, "W": 0}
    log = _deals(opts, 4).ev("deal", seat="N", deal=5).tricks(tricks("3H")).ev("deal", seat="E", deal=6)
    report = log.replay(tmp_path, capsys)
    first = report["infractions"][0]
    assert first["kind"] == "king_of_hearts_not_played"
    assert first["text"].startswith("king of hearts not played by W in trick 1")
    # KH falls at trick 13 on E's AS lead: E takes it.
    assert report["hands"][4] == {"N": 0, "E": -150, "S": 0, "W": 0}


def test_deal2_stops_on_the_trick_that_takes_the_last_heart(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``stop_when_penalties_exhausted``: deal 2 stops as soon as all 13 hearts are
    taken. S leads AS..10S while the others, void in spades, discard hearts; the
    13th heart falls in trick 5, so the deal ends there with S -260, and the next deal follows."""
    tricks: list[Trick] = [
        [("S", "AS"), ("W", "AH"), ("N", "KH"), ("E", "QH")],
        [("S", "KS"), ("W", "JH"), ("N", "10H"), ("E", "9H")],
        [("S", "QS"), ("W", "8H"), ("N", "7H"), ("E", "6H")],
        [("S", "JS"), ("W", "5H"), ("N", "4H"), ("E", "3H")],
        [("S", "10S"), ("W", "2H"), ("N", "2D"), ("E", "2C")],
    ]
    log = _deals({"stop_when_penalties_exhausted": True}, 1).ev("deal", seat="E", deal=2).tricks(tricks)
    report = log.ev("deal", seat="S", deal=3).replay(tmp_path, capsys)
    assert report["hands"][1] == {"N": 0, "E": 0, "S": -260, "W": 0}
    stops = [r["text"] for r in report["rulings"] if r["kind"] == "stopped"]
    assert stops and stops[0].startswith("deal 2:")
    assert report["infractions"] == []
