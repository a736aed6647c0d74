"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (fourteenth black-box
round: the worked examples of the first half, §14.1 to §14.7 and §14.14, each with one fact changed),
replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import Log, kinds, spec_tricks
from tests.games.test_kierki_blackbox12 import _deals

Trick = list[tuple[str, str]]


def _tricks(text: str) -> list[Trick]:
    """``"W:AS N:2S E:3S S:4S | ..."``: tricks written as in kierki.md §0, split by ``|``."""
    return [[(p.split(":")[0], p.split(":")[1]) for p in t.split()] for t in text.split("|")]


# A deal 7 (dealer S, W leads) that ends with the hypothetical trick 13 of §14.14. W leads and wins
# tricks 1 to 12: three of each black suit and of diamonds, then JC (the others are void in clubs
# and discard hearts), then AH and JH, which W may lead because it holds only hearts by then (§5.2).
LARGEST = _tricks(
    "W:AS N:2S E:3S S:4S | W:KS N:5S E:6S S:7S | W:JS N:8S E:9S S:10S | W:AD N:2D E:3D S:4D |"
    "W:KD N:5D E:6D S:7D | W:JD N:8D E:9D S:10D | W:AC N:2C E:3C S:4C | W:KC N:5C E:6C S:7C |"
    "W:QC N:8C E:9C S:10C | W:JC N:2H E:3H S:4H | W:AH N:5H E:6H S:7H | W:JH N:8H E:9H S:10H |"
    "W:QH N:KH E:QS S:QD")


@pytest.mark.parametrize(("choice", "north"), [
    ("7,13 @ 75", -495), ("12,13 @ 75", -495), ("13 @ 150", -570), ("3,7 @ 75", -420), ("3,8 @ 75", -420)])
def test_the_largest_single_trick_penalty_under_each_deal6_choice(
        choice: str, north: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §14.14 (trick 13 of deal 7, ``W:QH N:KH E:QS S:QD -> N``, costs N 495) and §12
    ``deal6_penalty_tricks`` (which tricks the robber penalises; the deal total stays -1300): the
    last trick costs 75 extra under ``7,13`` and ``12,13``, 150 under ``13 @ 150`` and nothing under
    ``3,7`` and ``3,8``, and W, who took the other twelve tricks, pays the rest of the 1300."""
    log = _deals(Log({"deal6_penalty_tricks": choice}), 6).ev("deal", seat="S", deal=7).tricks(LARGEST)
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == []
    last = [r for r in report["rulings"] if r["kind"] == "trick"][-1]
    assert last["text"] == f"trick 13: N wins with KH ({north})"
    assert last["data"] == {"trick": 13, "cards": "W:QH N:KH E:QS S:QD"}
    assert report["hands"][6] == {"N": north, "E": 0, "S": 0, "W": -1300 - north}


@pytest.mark.parametrize(("options", "flagged"), [
    ({}, True), ({"hearts_broken_lifts_ban": True}, True), ({"heart_lead_ban_deals": [2, 5]}, False)])
def test_a_heart_led_in_the_robber_while_holding_a_club(
        options: dict[str, object], flagged: bool, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §5.2 and §13.3 (a heart led in a banned deal is proven by a later non-heart) with
    §12 ``heart_lead_ban_deals`` and ``hearts_broken_lifts_ban``, on the deal of §14.14: W leads AH
    in trick 10 and JC in trick 11. No heart was played before trick 10, so the ban has not lifted;
    without deal 7 in the list there is no ban. The scores do not change."""
    tricks = [list(t) for t in LARGEST]
    tricks[9], tricks[10] = _tricks("W:AH N:2H E:3H S:4H | W:JC N:5H E:6H S:7H")
    report = _deals(Log(options), 6).ev("deal", seat="S", deal=7).tricks(tricks).replay(tmp_path, capsys)
    assert [i["text"].split(";")[0] for i in report["infractions"]] == (
        ["illegal lead by W in trick 10: hearts may not be led in deal 7 while holding another suit"]
        if flagged else [])
    assert report["hands"][6] == {"N": -495, "E": 0, "S": 0, "W": -805}


def test_the_king_of_hearts_led_in_deal5_then_the_deal_stops(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``deal5_lead_ban_scope = king_of_hearts_only`` (KH may not be led while holding
    another card) with ``stop_when_penalties_exhausted`` (deal 5 stops once KH is taken; the cards
    left are shown so that breaches can still be proven, §13.3), on §14.5: N wins trick 1 and leads
    KH, which W takes with AH. The deal stops there; N's cards shown at the end prove the lead."""
    options = {"deal5_lead_ban_scope": "king_of_hearts_only", "stop_when_penalties_exhausted": True}
    log = _deals(Log(options), 4).ev("deal", seat="N", deal=5)
    log.tricks(_tricks("E:2D S:3D W:4D N:6D | N:KH E:JH S:QH W:AH"))
    log.ev("reveal", seat="N", cards=["10S", "9S", "7S", "5S", "4S", "6H", "3H", "2H", "4C", "3C", "2C"])
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["illegal_lead"]
    assert report["infractions"][0]["text"].startswith("illegal lead by N in trick 2: KH may not be led")
    assert [r["text"].split(":")[0] for r in report["rulings"] if r["kind"] in ("stopped", "flag")][-2:] == [
        "deal 5", "deal 5"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": 0, "W": -150}


@pytest.mark.parametrize("twice", ["QD", "AC"])
def test_a_card_logged_twice_after_an_early_stop_is_not_a_second_card_of_the_hand(
        twice: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``stop_when_penalties_exhausted`` and §13.2 (no card seen twice in one deal),
    docs/table-log.md ``reveal`` (``wrong_count``: a reveal that does not hold the cards the seat
    should have left; after an early stop each ``play`` shows a card). §14.5 stops after trick 3,
    where E played QD. The line of E's QD is logged twice (or E plays out AC and that line is
    logged twice): the card is seen twice, but it is not another card out of E's hand, so E's
    reveal of the cards it still holds is no wrong count."""
    options = {"stop_when_penalties_exhausted": True}
    log = _deals(Log(options), 4).ev("deal", seat="N", deal=5).tricks(spec_tricks(5)[:3])
    left = ["8S", "JD", "8D", "4D", "AC", "10C", "9C", "8C", "JH", "9H"]
    if twice == "AC":
        log.ev("play", seat="E", card="AC")
        left.remove("AC")
    log.ev("play", seat="E", card=twice).ev("reveal", seat="E", cards=left)
    report = log.ev("deal", seat="E", deal=6).replay(tmp_path, capsys)
    assert kinds(report) == ["seen_twice"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": 0, "W": -150}


def test_a_card_shown_after_an_early_stop_that_the_seat_already_played_proves_no_revoke(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.3 (a claim is proven by a card the player plays or shows later: hands only
    shrink, so it was in the hand at the earlier moment) and §13.2 (no card seen twice). §14.3
    stops after trick 10 under ``stop_when_penalties_exhausted``; W, void in spades since it played
    QS to trick 2, discarded QC (trick 5) and AD (trick 8) on spade leads. W's cards shown at the
    end hold QS again: a misread (seen twice, and one card too many), but QS left W's hand in
    trick 2, so it proves neither discard a revoke."""
    log = _deals(Log({"stop_when_penalties_exhausted": True}), 2).ev("deal", seat="S", deal=3)
    log.tricks(spec_tricks(3)[:10]).ev("reveal", seat="W", cards=["10C", "KH", "6D", "QS"])
    report = log.replay(tmp_path, capsys)
    assert sorted(kinds(report)) == ["seen_twice", "wrong_count"]
    assert not [r for r in report["rulings"] if r["kind"] == "flag"]
