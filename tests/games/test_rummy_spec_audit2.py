"""3-13 Speed, second spec audit: points of ``rules/rummy_3_13.md`` the first audit
(``test_rummy_spec_audit.py``) did not pin down, on the referee path (table-log events).

Each test names the section it checks and fails on the code as it was before the fix.
"""

from __future__ import annotations

from typing import Any

from kiosk.games.cards import parse_cards
from kiosk.games.melds import laid_out_arrangement
from kiosk.games.referee import TableEvent
from kiosk.games.rummy_referee import RummyReferee
from tests.games.test_rummy_spec_audit import _kinds, _referee

SEATS = ["Ana", "Ben", "Cal", "Dee"]
PILES = {"Ana": "2S", "Ben": "10C", "Cal": "7D", "Dee": "9H"}


def _ev(t: float, type_: str, seat: str | None = None, **data: Any) -> TableEvent:
    return TableEvent(type_, int(t * 1e9), seat=seat, data=data)


# -- §2: the caller is chosen once ---------------------------------------------------------

def test_a_late_caller_draw_does_not_replace_the_chosen_caller() -> None:
    """§2: the caller is "chosen once, before the first hand". A second draw for the
    caller, after one was chosen (here after the first hand started), is an infraction
    and does not hand the calls to someone else."""
    ref = _referee(["Ana", "Ben", "Cal"], hands=[3])
    ref.feed(_ev(0, "caller_draw", cards={"Ana": "KS", "Ben": "2C", "Cal": "3C"}))
    ref.feed(_ev(1, "hand_start", piles={"Ana": "5D", "Ben": "6D", "Cal": "4S"}))
    ref.feed(_ev(2, "caller_draw", cards={"Ana": "2S", "Ben": "KC", "Cal": "3H"}))
    ref.feed(_ev(3, "call", "Ana", call="draw"))
    report = ref.report()
    assert report.extra["caller"] == "Ana"
    assert ref.public_view().caller == "Ana"
    assert _kinds(report) == ["late_caller_draw"], "Ana's 'draw' is the caller's own call"


# -- §6.3, §7: the hand scored is the hand after the final round ---------------------------

def _final_round_with_an_early_show() -> RummyReferee:
    """Hand 1 (3 cards): Ana matches in setup; Ben spreads his hand while the final round is
    still being played (after drawing, before the discard), then discards and spreads again."""
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "match", "Ana", cards=["7S", "7D", "3C"]))
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(3.5, "show", "Ben", cards=["9H", "JH", "2C", "KD"]))    # 4 cards: too early
    ref.feed(_ev(4, "hold", "Ben"))
    ref.feed(_ev(5, "call", call="discard"))
    ref.feed(_ev(5.5, "discard", "Ben", card="KD"))
    return ref


def test_a_hand_spread_before_the_final_round_is_over_is_not_the_hand_scored() -> None:
    """§6.3 and §7: after the final round "every hand is now scored", each player showing
    all n cards. A spread made earlier (here with n + 1 cards, before the discard) is an
    infraction and does not count; the hand shown after the final round is scored."""
    ref = _final_round_with_an_early_show()
    assert ref.report().hands == [], "the hand waits for Ben's spread after the final round"
    ref.feed(_ev(6, "show", "Ben", cards=["9H", "JH", "2C"]))
    report = ref.report()
    assert report.hands == [{"Ana": 0, "Ben": 21}]
    assert _kinds(report) == ["early_show"]
    assert report.extra["arrangements"][0]["Ben"]["penalty"] == 21


# -- §7: scoring_mode = as_laid_out --------------------------------------------------------

def _as_laid_out_hand() -> RummyReferee:
    """Example 12 under ``as_laid_out``: Ben lays 6H 7H 8H as a run and leaves 4S out (4,
    though 0 was possible); Cal lays A-A-A and 2H; Dee lays an invalid "set" 5S 5H 8C."""
    ref = _referee(SEATS, hands=[4], scoring_mode="as_laid_out")
    ref.feed(_ev(0, "hand_start", piles=PILES))
    ref.feed(_ev(1, "match", "Ana", sets=[["9S", "9D", "9H", "4H"]]))
    ref.feed(_ev(2, "call", call="draw"))
    for s in ("Ben", "Cal", "Dee"):
        ref.feed(_ev(3, "draw", s, **{"from": "pool"}))
    for s in ("Ben", "Cal", "Dee"):
        ref.feed(_ev(4, "hold", s))
    ref.feed(_ev(5, "call", call="discard"))
    for s, c in (("Ben", "3D"), ("Cal", "QH"), ("Dee", "JD")):
        ref.feed(_ev(5.5, "discard", s, card=c))
    ref.feed(_ev(6, "show", "Ben", sets=[["6H", "7H", "8H"]], orphans=["4S"]))
    ref.feed(_ev(6, "show", "Cal", sets=[["AC", "AD", "AS"]], orphans=["2H"]))
    ref.feed(_ev(6, "show", "Dee", sets=[["5S", "5H", "8C"]], orphans=["8D"]))
    return ref


def test_as_laid_out_rulings_show_the_arrangement_that_is_scored() -> None:
    """§7: under ``scoring_mode = as_laid_out`` "the player's own arrangement is checked and
    scored". The show ruling and the report's arrangements must be that arrangement, with
    the penalty actually scored, not the referee's best one (penalty 0 for Ben)."""
    report = _as_laid_out_hand().report()
    assert report.hands == [{"Ana": 0, "Ben": 4, "Cal": 2, "Dee": 26}]
    shows = {r.seats[0]: r.text for r in report.rulings if r.kind == "show"}
    assert shows["Ben"].endswith("orphans: 4♠; penalty 4"), shows["Ben"]
    assert shows["Dee"].endswith("penalty 26"), shows["Dee"]
    arrangements = report.extra["arrangements"][0]
    assert arrangements["Ben"] == {"sets": [["6H", "7H", "8H"]], "as": [["6H", "7H", "8H"]],
                                   "orphans": ["4S"], "penalty": 4}
    assert arrangements["Dee"]["sets"] == [] and arrangements["Dee"]["penalty"] == 26
    assert {r["penalty"] for r in arrangements.values()} >= {4, 2, 26}


def test_laid_out_arrangement_says_what_each_wild_card_stands_for() -> None:
    """§4: a wild card stands for the card its set needs; the laid-out arrangement names it
    (example 3: 4♦ as 7♣ in 5-6-7-8♣; example 11: J♦ as a King)."""
    a = laid_out_arrangement([parse_cards("5C 6C 8C 4D")], [], 4)
    assert a.is_complete and a.penalty == 0
    assert a.melds[0].display() == "5♣ 6♣ 4♦=7♣ 8♣"
    b = laid_out_arrangement([parse_cards("KS KC JD"), parse_cards("5S 6S 8S")], parse_cards("2C"), 11)
    assert b.penalty == 2 + 5 + 6 + 8, "the invalid 5-6-8♠ counts as orphans"
    assert sorted(str(c) for c in b.melds[0].cards) == ["JD", "KC", "KS"]
    assert "J♦=K♦" in b.melds[0].display()
