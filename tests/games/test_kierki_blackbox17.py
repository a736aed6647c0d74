"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (seventeenth black-box
round: deals 1 to 11 checked against an independent reference built from the spec, over thousands
of random and bot-played matches). The referee agreed with the reference throughout; this file pins
one rare path that the random matches reached and no earlier test holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log
from tests.games.test_kierki_blackbox9 import _deals

Trick = list[tuple[str, str]]


def _deal5(w_first: str) -> list[Trick]:
    """Deal 5 (dealer N): E leads AH, S follows 2H, W plays ``w_first``, N 4H; then E leads its
    twelve spades and wins every trick. W holds KH 3H 3D 2D and nine clubs: it plays KH to the
    first spade lead (void in spades, any card is legal), then the rest."""
    w_rest = [c for c in ["KH", "3D", "3H", "2D", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]
              if c != w_first]
    tricks: list[Trick] = [[("E", "AH"), ("S", "2H"), ("W", w_first), ("N", "4H")]]
    spades = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS".split()
    s = "2S 4D 5D 6D 7D 8D 9D 10D JD QD KD AD".split()
    n = "5C 4C 3C 2C 5H 6H 7H 8H 9H 10H JH QH".split()
    for i, card in enumerate(spades):
        tricks.append([("E", card), ("S", s[i]), ("W", w_rest[i]), ("N", n[i])])
    return tricks


@pytest.mark.parametrize(("w_first", "expected"), [
    ("3H", ["king_of_hearts_not_played"]),
    ("3D", ["king_of_hearts_not_played", "revoke"]),
])
def test_12_king_of_hearts_forced_once_ah_is_in_holds_even_when_the_seat_also_revoked(
        w_first: str, expected: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``king_of_hearts_forced_discard`` (b): "when hearts are led and AH is already in
    the trick" the holder of KH must play it. That duty, unlike (a) ("whenever they cannot follow"),
    does not depend on being void: a seat holding KH can always follow a heart lead, so a non-heart
    there breaks both §5.2 (follow suit) and (b). W plays 3D on E's AH lead, then KH on the next
    (spade) lead: KH is a heart, proving the revoke (§13.3), and it is KH, proving the kept king.
    The revoke does not lift the KH breach, as it lifts an (a) duty. With 3H instead (W follows
    suit), only the KH breach is proven. E takes KH in trick 2 and pays 150 (§6.2) either way."""
    opts = {"king_of_hearts_forced_discard": True, "heart_lead_ban_deals": [2, 7]}
    log: Log = _deals(opts, 4).ev("deal", seat="N", deal=5).tricks(_deal5(w_first))
    report = log.ev("deal", seat="E", deal=6).replay(tmp_path, capsys)
    assert sorted(i["kind"] for i in report["infractions"]) == expected
    assert {i["seat"] for i in report["infractions"]} == {"W"}
    kept = next(i for i in report["infractions"] if i["kind"] == "king_of_hearts_not_played")
    assert kept["text"].startswith("king of hearts not played by W in trick 1")
    assert report["hands"][4] == {s: -150 if s == "E" else 0 for s in SEATS}
    assert not [r for r in report["rulings"] if r["kind"] == "withdrawn"]
