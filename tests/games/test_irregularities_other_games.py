"""Irregularities the overhead camera sees, and the rulings on points the sources leave open, for
Nerts (``rules/nerts.md`` §12, §13), 3-13 Speed (``rules/rummy_3_13.md`` §9, §11) and Gnoming A Round
(``rules/gnoming.md`` §8, §9): small table logs written from the specs and ``docs/table-log.md``, each
outcome worked out by hand from the spec's sentences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.gnoming_logs import HIDDEN, SEATS, fill, opening, pass_turn
from tests.games.gnoming_logs import replay as gnoming_replay
from tests.games.nerts_log import breaches, ev, foundation, header, run, texts
from tests.games.test_nerts_spec_audit import NERTS_12, full_start
from tests.games.test_rummy_blackbox3 import _ev, _kinds, _replay, _round

# -- Nerts §7.1, §12, §13 -----------------------------------------------------------------------------


@pytest.mark.parametrize(("err_lift", "counts"), [("0.02", True), ("0.005", False)])
def test_nerts_a_card_in_the_air_at_the_call_is_judged_by_its_lift_time_and_uncertainty(
        err_lift: str, counts: bool) -> None:
    """§13 ("a card in the air at the call: it finishes if it was lifted before the call") with §12
    (every time carries its uncertainty) and docs/table-log.md (a card goes back only when
    ``t_lift - err_lift`` is at or after the call): Cal's 2♠ lifted 10 ms after Ana's call lands and
    counts when the lift may have been 20 ms earlier, and goes back when it may have been only 5 ms
    earlier."""
    lines = [header(["Ana", "Ben", "Cal"]), ev("0", "hand_start"),
             ev("1", "foundation_play", "Cal", card="AS", pile="S"),
             ev("45.3", "call", "Ana", nerts_left=0),
             ev("45.6", "foundation_play", "Cal", card="2S", pile="S", t_lift="45.31", err_lift=err_lift)]
    report = run(lines)
    assert foundation(report)["Cal"] == (2 if counts else 1)
    assert breaches(report, "after_call") == ([] if counts else
                                              ["Cal's 2♠ was lifted 10 ms after the call: take it back"])
    assert report.hands == [{"Ana": 0, "Ben": -26, "Cal": (2 if counts else 1) - 26}]


@pytest.mark.parametrize(("t_lift", "nerts_left"), [("2.5", 13), ("1.5", 12)])
def test_nerts_a_layout_move_started_after_the_call_goes_back_and_leaves_the_nerts_pile_as_it_was(
        t_lift: str, nerts_left: int) -> None:
    """§7.1 (no move may start at or after the call; a card lifted after it must be put back) and §12
    (a move started after the call is a breach the camera sees): in a full log Ana's 5♠ moved from her
    Nerts pile to a work pile, lifted after Ben's call, goes back, so she keeps 13 Nerts cards (−26);
    lifted before the call it lands, and she keeps 12 (−24)."""
    ana = NERTS_12 + " 5S 6H 8S KD 4D"       # 5♠ on top of the Nerts pile; work piles 6♥ 8♠ K♦ 4♦
    lines = full_start({"Ana": ana}) + [
        ev("2", "call", "Ben", nerts_left=0),
        ev("3", "move", "Ana", card="5S", t_lift=t_lift, **{"from": "nerts", "to": "work1"})]
    report = run(lines)
    assert report.extra["hands"][0]["nerts"]["Ana"] == nerts_left
    assert report.hands[0]["Ana"] == -2 * nerts_left
    assert [i.kind for i in report.infractions] == (["after_call"] if nerts_left == 13 else [])


def test_nerts_a_third_identical_card_ties_only_with_the_earliest_of_the_group() -> None:
    """§6.1 and §13 (two identical cards almost together both stay): a card ties when it lands within
    ``tie_window_ms`` of the *earliest* contender. Ben's, Cal's and Dee's 5♥ land 25 ms apart on a ♥
    pile at 4: Cal's ties with Ben's, Dee's is 50 ms after Ben's and goes back although it is only
    25 ms after Cal's."""
    lines = [header(), ev("0", "hand_start"),
             *[ev(str(1 + i), "foundation_play", "Ana", card=c, pile="H") for i, c in
               enumerate(["AH", "2H", "3H", "4H"])],
             ev("12.450", "foundation_play", "Ben", card="5H", pile="H"),
             ev("12.475", "foundation_play", "Cal", card="5H", pile="H"),
             ev("12.500", "foundation_play", "Dee", card="5H", pile="H"),
             ev("20", "call", "Ana", nerts_left=0)]
    report = run(lines)
    assert texts(report, "tie") == ["tie (25 ms): both stand"]
    assert texts(report, "race") == ["Ben first by 50 ms: Dee, take back 5♥"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 1, "Dee": 0}


def test_nerts_a_joker_starting_a_pile_takes_the_suit_of_the_next_card_placed_on_it() -> None:
    """§12: a joker that starts a foundation leaves its suit open until the next card placed on it
    shows the suit. Cal's undeclared joker starts X, Ben's 2♥ makes it a ♥ pile, so Ana's 3♠ is
    refused (wrong suit) and her 3♥ stands; the joker counts for Cal (§9: +1 on a foundation)."""
    lines = [header(jokers=2), ev("0", "hand_start"),
             ev("1", "foundation_play", "Cal", card="JOKER", pile="X"),
             ev("2", "foundation_play", "Ben", card="2H", pile="X"),
             ev("3", "foundation_play", "Ana", card="3S", pile="X"),
             ev("4", "foundation_play", "Ana", card="3H", pile="X"),
             ev("30", "call", "Ana", nerts_left=0)]
    report = run(lines)
    assert [i.kind for i in report.infractions] == ["illegal_play"]
    assert "wrong suit" in report.infractions[0].text
    assert foundation(report) == {"Ana": 1, "Ben": 1, "Cal": 1, "Dee": 0}


# -- 3-13 Speed §6.3, §9, §11 -------------------------------------------------------------------------

RUMMY = ["Ana", "Ben", "Cal"]


def test_rummy_a_matched_seats_pile_is_still_taken_by_its_left_neighbour_in_the_final_round(
        tmp_path: Path) -> None:
    """§6.3 (a matched player's hand stays frozen, but the top card of their pile can still be taken
    by their left neighbour) and §11 (every pile has exactly one reader): Ben matches after the first
    discard; in the final round Cal, his left neighbour, takes Ben's K♣ with no breach, and Ana taking
    from Ben's pile would be ``wrong_pile``."""
    piles = {"Ana": "5C", "Ben": "JD", "Cal": "8H"}
    final = [_ev(6, "call", call="draw"), _ev(7, "draw", "Ana", **{"from": "pool"}),
             _ev(7, "draw", "Cal", **{"from": "Ben"}, card="KC"),
             _ev(8, "hold", "Ana"), _ev(8, "hold", "Cal"),
             _ev(9, "call", call="discard"), _ev(10, "discard", "Ana", card="KC"),
             _ev(10, "discard", "Cal", card="2S"),
             _ev(11, "show", "Ana", cards=["7S", "7D", "4C"]),
             _ev(11, "show", "Cal", cards=["9H", "JH", "KC"])]
    events = [_ev(0, "hand_start", hand=1, piles=piles), *_round(1, RUMMY),
              _ev(5.5, "match", "Ben", cards=["QS", "QH", "3H"]), *final]
    report = _replay(tmp_path, {"hands": [3]}, events, seats=RUMMY)
    assert _kinds(report) == []
    assert report["hands"] == [{"Ana": 18, "Ben": 0, "Cal": 29}]
    wrong: list[dict[str, Any]] = [dict(x) for x in events]
    wrong[wrong.index(final[1])] = _ev(7, "draw", "Ana", **{"from": "Ben"}, card="KC")
    assert "wrong_pile" in _kinds(_replay(tmp_path, {"hands": [3]}, wrong, seats=RUMMY))


@pytest.mark.parametrize(("cards", "cap", "confirmed"), [
    (["3S", "3H", "3D"], 0, True),    # only wild cards: a natural group of the wild rank (§9)
    (["2H", "3H", "4H"], 0, True),    # the wild 3♥ counts as itself in the run
    (["3H", "3S", "KD"], 1, False),   # two wild cards would both have to stand for Kings
    (["3H", "3S", "KD"], 2, True),
])
def test_rummy_wild_cards_counting_as_themselves_are_not_capped_by_max_wilds_per_set(
        tmp_path: Path, cards: list[str], cap: int, confirmed: bool) -> None:
    """§4 and §9 (a set of only wild cards is always valid; ``max_wilds_per_set`` caps the wild cards
    that *stand for other cards*): a setup "match" in hand 1 (3s wild) under the cap."""
    events = [_ev(0, "hand_start", hand=1, piles={"Ana": "5C", "Ben": "JD", "Cal": "8H"}),
              _ev(0.5, "match", "Ana", cards=cards)]
    report = _replay(tmp_path, {"hands": [3], "max_wilds_per_set": cap}, events, seats=RUMMY)
    kinds = [r["kind"] for r in report["rulings"] if r["kind"] in ("match", "failed_match")]
    assert kinds == (["match"] if confirmed else ["failed_match"])


# -- Gnoming A Round §5.4, §8, §9 ----------------------------------------------------------------------


def test_gnoming_a_last_card_flipped_under_hazard_flip_min_facedown_1_finishes_at_the_flippers_turn(
        tmp_path: Path) -> None:
    """§5.4 and §11 ``hazard_flip_min_facedown = 1``: Bob may flip his last face-down card after Ana's
    Hazard. §5.5 names a finisher only at the end of that player's own turn, so Bob becomes the
    finisher when his next turn ends (not at the flip), and Cy and Ana each get one more turn."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy")
    events += [{"type": "draw", "seat": "Ana", "from": "deck"},
               {"type": "discard", "seat": "Ana", "card": "HAZARD"},
               {"type": "flip", "seat": "Bob", "pos": "33", "card": "G5"}]
    flip_t = len(events)
    events += pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    report = gnoming_replay(tmp_path, events, options={"hazard_flip_min_facedown": 1})
    assert report.infractions == []
    finisher = [r for r in report.rulings if r.kind == "finisher"]
    assert len(finisher) == 1 and finisher[0].seats == ("Bob",)
    assert finisher[0].t_ns == (flip_t + 2) * 10**9     # Bob's discard, two lines after the flip
    assert [r.kind for r in report.rulings][-1] == "round_end"


@pytest.mark.parametrize(("gap", "second_joker_counts"), [("0.02", False), ("0.04", False), ("1", True)])
def test_nerts_a_seats_second_undeclared_joker_on_the_same_pile_is_a_second_card(
        gap: str, second_joker_counts: bool) -> None:
    """§2 and §9 (each deck holds two jokers, each +1 on a foundation) with §12 (on a foundation at level
    L a joker can only be rank L + 1, so no declaration is needed): Ana plays one undeclared joker on her
    ♥ pile at 2 (it is 3♥), then her other one (4♥). docs/table-log.md takes a line logged again "at the
    same time or a frame later" as the same event, and an event a player may really repeat as a repeat
    only within 50 ms: a second joker a second later is a real play and scores (F = 4), not
    ``seen_twice`` credited to nobody (before: F = 3 however late it came)."""
    lines = [header(["Ana", "Ben"], jokers=2), ev("0", "hand_start"),
             ev("1", "foundation_play", "Ana", card="AH", pile="H"),
             ev("2", "foundation_play", "Ana", card="2H", pile="H"),
             ev("3", "foundation_play", "Ana", card="JOKER", pile="H"),
             ev(str(3 + float(gap)), "foundation_play", "Ana", card="JOKER", pile="H"),
             ev("10", "call", "Ana", nerts_left=0)]
    report = run(lines)
    assert foundation(report)["Ana"] == (4 if second_joker_counts else 3)
    assert [i.kind for i in report.infractions] == ([] if second_joker_counts else ["seen_twice"])
    assert report.hands == [{"Ana": 4 if second_joker_counts else 3, "Ben": -26}]


@pytest.mark.parametrize(("t_second", "nerts_left"), [("2.02", 12), ("3", 11)])
def test_nerts_a_seats_second_joker_moved_from_its_nerts_pile_after_the_first_is_a_second_move(
        t_second: str, nerts_left: int) -> None:
    """§2 (two jokers per deck), §6 M5 (the Nerts top onto a work pile) and §9 (a joker goes wherever a
    real card could; one placed on a joker is one rank lower): Ana's Nerts pile has both her jokers on
    top. In a full log she moves one to work pile 1 (onto 9♥), then the other onto it; the tracked
    pile shows the second joker on top, so the same line a second later is that second move (N = 11),
    and only within 50 ms a camera repeat of the first (docs/table-log.md 'Lines logged twice')."""
    ana = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC JOKER JOKER 9H 8S KD 4D"
    lines = full_start({"Ana": ana}, jokers=2) + [
        ev("2", "move", "Ana", card="JOKER", **{"from": "nerts", "to": "work1"}),
        ev(t_second, "move", "Ana", card="JOKER", **{"from": "nerts", "to": "work1"}),
        ev("5", "call", "Ben", nerts_left=0)]
    report = run(lines)
    assert report.infractions == []
    assert report.extra["hands"][0]["nerts"]["Ana"] == nerts_left
    assert report.hands[0]["Ana"] == -2 * nerts_left
