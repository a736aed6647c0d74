"""A second audit of Smear against ``rules/smear.md``: cases the first audit
(``test_smear_spec_audit.py``) and the worked examples leave open."""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.games.referee import RefereeReport
from kiosk.games.smear import SmearGame
from kiosk.games.smear_rules import SmearOptions, score_hand
from kiosk.games.tricks import ACE_HIGH, ACE_LOW, Trick
from tests.games.smear_fixtures import EX_13_4, EX_13_6, SEATS, EventClock, Example, example_events

NS, EW = 0, 1


def _report(ex: Example, **options: object) -> RefereeReport:
    ref = SmearGame(options, seats=SEATS).referee()
    ref.feed_all(example_events(ex, EventClock()))
    return ref.report()


# -- §7.1, §7.3, §8: a hand is scored with the trump its first lead named ---------------------------


@pytest.mark.parametrize("order", ["plain", "ace_low"])
def test_8_score_hand_judges_every_trick_with_the_trump_of_the_first_lead(order: str) -> None:
    """§7.1: the suit of the first card is trump for the whole hand; §7.3: the highest trump
    wins, cards rank A K Q J 10 9 8 7. ``score_hand`` is given 13.4's tricks as plain trick
    records (no trump, or another rank order) and must still find 13.4's result: at trick 3
    W's 10S ruffs the clubs, so NS 40, EW 40 card points, no Game; NS +2, EW +1."""
    ranks = ACE_LOW if order == "ace_low" else ACE_HIGH
    tricks = [Trick.parse(t.split("->")[0], SEATS, order=ranks) for t in EX_13_4.tricks]
    hand = score_hand(SmearOptions(), bidder=0, bid=2, tricks=tricks)
    assert hand.card_points == (40, 40)
    assert (hand.high, hand.low, hand.jack, hand.game) == (NS, NS, EW, None)
    assert (hand.points, hand.made, hand.deltas) == ((2, 1), True, (2, 1))


# -- §10: an illegal trump discard is handled like a revoke ----------------------------------------

# 13.6 with N discarding 7S (one of its five spades) instead of 10C, then leading spades: with
# T = 5 N had to keep all five, so the discard breaks §6.4 (it is found when the discards are
# turned up after the hand). N still takes five tricks; NS win High (AS), Low (now 9S), Jack
# and Game.
EX_ILLEGAL_DISCARD = dataclasses.replace(
    EX_13_6, discard="N:discard 7S 10D 8H",
    tricks=[*EX_13_6.tricks[:4], "N:10C E:AC S:KC W:JH -> E", "E:AH S:10H W:AD N:9D -> E"],
)


def test_10_an_illegal_trump_discard_is_only_flagged_by_default() -> None:
    """§10: illegal trump discard by the bidder, default handling "flag, pause, show the
    evidence; the table decides" (``revoke_policy = flag_only``): the score stands."""
    report = _report(EX_ILLEGAL_DISCARD, blind_cards=3)
    assert [i.kind for i in report.infractions] == ["illegal_discard"]
    row = report.extra["hands"][0]
    assert (row["change"], row["made"]) == ({"NS": 4, "EW": 0}, True)


def test_10_an_illegal_trump_discard_costs_the_bid_under_bid_setback() -> None:
    """§10: the illegal trump discard row's handling is the "same" as a revoke's, and
    ``revoke_policy = bid_setback`` applies the Auction Pitch penalty to it: the offending
    (bidding) team loses its bid of 3 and scores none of its own Points; the other team
    scores the Points it won (none here)."""
    report = _report(EX_ILLEGAL_DISCARD, blind_cards=3, revoke_policy="bid_setback")
    assert [i.kind for i in report.infractions] == ["illegal_discard"]
    row = report.extra["hands"][0]
    assert (row["change"], row["made"]) == ({"NS": -3, "EW": 0}, False)
    assert report.totals == {"N": -3, "E": 0, "S": -3, "W": 0}
    hand_end = [r for r in report.rulings if r.kind == "hand_end"][0]
    assert "illegal trump discard by NS: NS lose the bid" in hand_end.text


def test_10_a_legal_discard_under_bid_setback_changes_nothing() -> None:
    """§6.4, §10: 13.6's own discard (10C 10D 8H, all five spades kept) is legal, so
    ``bid_setback`` leaves the score of 13.6 as it is: NS +4, EW 0."""
    report = _report(EX_13_6, blind_cards=3, revoke_policy="bid_setback")
    assert report.infractions == []
    assert report.extra["hands"][0]["change"] == {"NS": 4, "EW": 0}
