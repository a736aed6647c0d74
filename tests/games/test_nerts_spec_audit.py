"""An audit of the Nerts engine against ``rules/nerts.md``, rule by rule (beyond its worked examples).

Each test pins one rule so that a wrong reading of it fails: the stock packet order (M1), short
stock and ``short_stock``, recycling (M2), the work-pile moves M5-M7 and their variants, the stuck
flag and rotation (M9, M10), progress moves and ``stalemate_after_resets`` (§7.2), compulsory moves,
the call and cards in the air (§7.1), races and ties with uncertainties in whole nanoseconds (§6.1),
a returned card, the one-hand rule and partnerships (§5, §10), scoring and the audit (§8, §12),
the end of the game (§8.1) and jokers (§9). Strict engine first, then the referee.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from kiosk.games.cards import Card, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.nerts import NertsGame, NertsState
from kiosk.games.nerts_actions import (
    Build,
    Call,
    Deal,
    MoveBlock,
    Play,
    Recycle,
    Rotate,
    SlideUnder,
    Stuck,
    Turn,
    seat_deck,
)
from kiosk.games.referee import TableEvent
from tests.games.nerts_log import breaches, ev, foundation, header, plays, run, texts

# -- the strict engine ------------------------------------------------------------------------------

NERTS_12 = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
"""Twelve face-down Nerts cards; a test adds the 13th, the face-up top."""


def deal_with(game: NertsGame, prefixes: dict[int, str], last: str = "") -> Deal:
    """Each seat's deck starts with the given cards (Nerts pile, work piles, stock top down); seat
    0's deck ends with ``last`` (the bottom of its stock); the rest keeps the deck's order."""
    orders = []
    for s in range(game.num_seats):
        first = [c.in_deck(s) for c in parse_cards(prefixes.get(s, ""))]
        end = [c.in_deck(s) for c in parse_cards(last)] if s == 0 else []
        deck = seat_deck(s, game.options.jokers)
        rest = sorted((Counter(deck) - Counter(first) - Counter(end)).elements(), key=deck.index)
        orders.append(tuple(first + rest + end))
    return Deal(tuple(orders))


def dealt(prefixes: dict[int, str], seats: int = 2, last: str = "", **options: object) -> NertsState:
    game = NertsGame(dict(options), seats=seats)
    state = game.new_initial_state()
    state.apply_action(deal_with(game, prefixes, last))
    return state


def c(text: str) -> Card:
    return Card.parse(text)


def test_m1_turns_the_packet_over_so_the_kth_card_from_the_top_is_the_waste_top() -> None:
    prefix = NERTS_12 + " 5S 9H 8S KD 4D AS 2S 3S 4S"
    state = dealt({0: prefix})
    state.apply_action(Turn(0))
    assert state.layouts[0].waste == parse_cards("AS 2S 3S")  # top last: 3♠ is the only playable card
    one = dealt({0: prefix}, stock_turn_count=1)
    one.apply_action(Turn(0))
    one.apply_action(Turn(0))
    assert one.layouts[0].waste == parse_cards("AS 2S")
    assert Play(0, c("2S"), "W", None) not in one.legal_actions(0)  # 2♠ cannot start a pile
    assert Play(0, c("AS"), "W", None) not in one.legal_actions(0)  # the A♠ under it is not available


def test_short_stock_turns_the_last_two_cards_onto_the_waste_and_they_are_playable() -> None:
    state = dealt({0: NERTS_12 + " 5S 9H 8S KD 4D"}, last="AS")
    for _ in range(11):
        state.apply_action(Turn(0))
    lay = state.layouts[0]
    assert len(lay.stock) == 2 and lay.stock[0] == c("AS")  # stock lists keep the top last
    second = lay.stock[1]
    state.apply_action(Turn(0))
    assert lay.stock == [] and lay.waste[-2:] == [second, c("AS")]
    legal = state.legal_actions(0)
    assert Turn(0) not in legal and Recycle(0) in legal
    assert Play(0, c("AS"), "W", None) in legal  # playable before recycling (the default ruling)
    at_once = dealt({0: NERTS_12 + " 5S 9H 8S KD 4D"}, last="AS", short_stock="recycle_immediately")
    for _ in range(12):
        at_once.apply_action(Turn(0))
    assert at_once.layouts[0].waste == [] and Play(0, c("AS"), "W", None) not in at_once.legal_actions(0)


def test_recycle_immediately_turns_the_whole_waste_over_at_once_restoring_the_stock() -> None:
    for count, turns in ((3, 12), (2, 18), (4, 9)):
        state = dealt({}, short_stock="recycle_immediately", stock_turn_count=count)
        original = list(state.layouts[0].stock)
        for _ in range(turns - 1):
            state.apply_action(Turn(0))
        assert len(state.layouts[0].stock) == 35 - count * (turns - 1) < count
        state.apply_action(Turn(0))  # the short packet: onto the waste, then the waste is turned over
        assert state.layouts[0].waste == [] and state.layouts[0].stock == original, count
    exact = dealt({}, short_stock="recycle_immediately", stock_turn_count=5)  # 35 = 7 x 5: never short
    for _ in range(7):
        exact.apply_action(Turn(0))
    assert exact.layouts[0].stock == [] and len(exact.layouts[0].waste) == 35


def test_m2_recycles_only_an_empty_stock_and_the_first_card_turned_comes_back_on_top() -> None:
    state = dealt({0: NERTS_12 + " 5S 9H 8S KD 4D AS 2S 3S"}, stock_turn_count=1)
    assert Recycle(0) not in state.legal_actions(0)
    with pytest.raises(IllegalActionError):
        state.apply_action(Recycle(0))
    for _ in range(35):
        state.apply_action(Turn(0))
    state.apply_action(Recycle(0))
    state.apply_action(Turn(0))
    assert state.layouts[0].waste == [c("AS")]


def test_m5_builds_from_the_nerts_or_waste_top_one_lower_and_of_the_other_colour() -> None:
    state = dealt({0: NERTS_12 + " 7S 8H 8S 8D 2H"})
    legal = state.legal_actions(0)
    assert Build(0, c("7S"), "N", 1) in legal and Build(0, c("7S"), "N", 3) in legal
    assert Build(0, c("7S"), "N", 2) not in legal  # 7♠ on 8♠: same colour
    assert Build(0, c("7S"), "N", 4) not in legal  # 7♠ on 2♥: wrong rank
    with pytest.raises(InvalidActionError, match="a work card moves as a block"):
        state.parse_action("0:2H 4>1")


def test_m6_any_block_may_fill_an_empty_pile_and_whole_piles_only_without_partial_runs() -> None:
    for partial in (True, False):
        state = dealt({0: NERTS_12 + " 8H 9S 10D AC 2S"}, move_partial_runs=partial)
        state.apply_action(Build(0, c("8H"), "N", 1))  # 8♥ onto 9♠
        state.apply_action(Play(0, c("AC"), "3", None))  # work pile 3 is now empty
        whole = MoveBlock(0, c("9S"), 1, 0, 3)
        part = MoveBlock(0, c("8H"), 1, 1, 3)
        assert whole in state.legal_actions(0)
        assert (part in state.legal_actions(0)) is partial
        state.apply_action(whole)
        assert state.layouts[0].work[2] == parse_cards("9S 8H") and state.layouts[0].work[0] == []


def test_m7_slides_under_the_base_one_higher_and_of_the_other_colour() -> None:
    state = dealt({0: NERTS_12 + " JD 10S 10H 9S 2H JS"})
    legal = state.legal_actions(0)
    assert SlideUnder(0, c("JD"), "N", 1) in legal
    assert SlideUnder(0, c("JD"), "N", 2) not in legal  # J♦ under 10♥: same colour
    assert SlideUnder(0, c("JD"), "N", 3) not in legal  # J♦ under 9♠: two ranks
    state.apply_action(SlideUnder(0, c("JD"), "N", 1))
    assert state.layouts[0].work[0] == parse_cards("JD 10S")
    waste = dealt({0: NERTS_12 + " JD 10S 10H 9S 2H JS"}, stock_turn_count=1)
    waste.apply_action(Turn(0))
    assert SlideUnder(0, c("JS"), "W", 2) in waste.legal_actions(0)  # J♠ under 10♥, from the waste
    assert SlideUnder(0, c("JS"), "W", 1) not in waste.legal_actions(0)  # J♠ under 10♠: same colour


def test_m7_is_not_a_way_to_fill_an_empty_pile_and_only_from_the_nerts_or_the_waste() -> None:
    state = dealt({0: NERTS_12 + " 3D AS 9H 8D 2S"})
    state.apply_action(Play(0, c("AS"), "1", None))
    state.apply_action(Play(0, c("2S"), "4", 1))
    assert not [a for a in state.legal_actions(0) if isinstance(a, SlideUnder) and a.work in (1, 4)]
    with pytest.raises(InvalidActionError, match="single card moves onto a work pile only from N or W"):
        state.parse_action("0:9H 2>u3")


def test_the_stuck_flag_is_cleared_by_m3_to_m7_but_not_by_searching_moves() -> None:
    state = dealt({0: NERTS_12 + " 7S 8H 9S 2D 4D"}, seats=3)
    lay = state.layouts[0]
    state.apply_action(Stuck(0))
    for search in (Turn(0), Rotate(0)):
        state.apply_action(search)
        assert lay.stuck, search
    state.apply_action(Build(0, c("7S"), "N", 1))
    assert not lay.stuck
    state.apply_action(Stuck(0))
    state.apply_action(MoveBlock(0, c("8H"), 1, 0, 2))
    assert not lay.stuck
    assert Rotate(0) not in state.legal_actions(0)  # rotation only while stuck


def test_m10_rotates_the_top_stock_card_to_the_bottom_and_needs_a_stock() -> None:
    state = dealt({0: NERTS_12 + " 5S 9H 8S KD 4D AS 2S 3S"}, stock_turn_count=1)
    state.apply_action(Stuck(0))
    state.apply_action(Rotate(0))
    assert state.layouts[0].stock[0] == c("AS") and state.layouts[0].stock[-1] == c("2S")
    for _ in range(35):
        state.apply_action(Turn(0))
    assert Rotate(0) not in state.legal_actions(0) and Recycle(0) in state.legal_actions(0)


def test_a_block_move_is_not_progress_but_a_build_from_the_waste_is() -> None:
    prefix = NERTS_12 + " 5S 9H 8S KD 4S 8D 2H 7H 3D"
    blocked = dealt({0: prefix})
    blocked.apply_action(Stuck(0))
    blocked.apply_action(Stuck(1))  # reset 1: Ana's stock top (8♦) went to the bottom
    blocked.apply_action(MoveBlock(0, c("8S"), 2, 0, 1))  # 8♠ onto 9♥: no card leaves N or W
    blocked.apply_action(Stuck(0))
    blocked.apply_action(Stuck(1))
    assert blocked.hand_scores and blocked.public_view().last_end == "stalemate"
    progress = dealt({0: prefix})
    progress.apply_action(Stuck(0))
    progress.apply_action(Stuck(1))
    progress.apply_action(Turn(0))  # the reset moved 8♦ to the bottom: 2♥ 7♥ 3♦ turn up
    assert progress.layouts[0].waste[-1] == c("3D")
    progress.apply_action(Build(0, c("3D"), "W", 4))  # onto 4♠: a card leaves the waste
    progress.apply_action(Stuck(0))
    progress.apply_action(Stuck(1))
    assert progress.resets == 2 and progress.hand_scores == []


def test_stalemate_after_resets_counts_resets_with_no_progress() -> None:
    state = dealt({}, stalemate_after_resets=2)
    for _ in range(2):
        state.apply_action(Stuck(0))
        state.apply_action(Stuck(1))
    assert state.resets == 2 and state.hand_scores == []
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))
    assert state.hand_scores == [[-26, -26]] and state.public_view().last_end == "stalemate"


def test_must_fill_from_nerts_binds_only_while_the_nerts_pile_has_cards() -> None:
    state = dealt({0: "KC 5S 9H 8S KD AS"}, nerts_pile_size=2, must_fill_from_nerts=True)
    assert Turn(0) in state.legal_actions(0)
    state.apply_action(Play(0, c("AS"), "4", None))
    assert state.legal_actions(0) == [Build(0, c("5S"), "N", 4), Stuck(0)]
    empty = dealt({0: "AC 9H 8S KD AS"}, nerts_pile_size=1, must_fill_from_nerts=True)
    empty.apply_action(Play(0, c("AC"), "N", None))
    empty.apply_action(Play(0, c("AS"), "4", None))
    assert Turn(0) in empty.legal_actions(0) and Call(0) in empty.legal_actions(0)


def test_aces_compulsory_covers_the_waste_top_and_exposed_work_cards() -> None:
    state = dealt({0: NERTS_12 + " 5S 9H 8S KD 4D 2D 3D AH"}, aces_compulsory=True)
    assert Turn(0) in state.legal_actions(0)
    state.apply_action(Turn(0))  # A♥ is now the waste top
    assert state.legal_actions(0) == [Play(0, c("AH"), "W", None), Stuck(0)]
    work = dealt({0: NERTS_12 + " 5S 9H AD 8S KD"}, aces_compulsory=True)
    assert work.legal_actions(0) == [Play(0, c("AD"), "2", None), Stuck(0)]


def test_a_seat_may_keep_playing_after_emptying_its_nerts_pile_and_call_later() -> None:
    state = dealt({0: "AC 9H 8S KD 4D 3C 4C 2C"}, nerts_pile_size=1)
    state.apply_action(Play(0, c("AC"), "N", None))
    assert Call(0) in state.legal_actions(0)
    state.apply_action(Turn(0))  # 2♣ is the third stock card: now the waste top
    state.apply_action(Play(0, c("2C"), "W", 1))
    assert Call(0) in state.legal_actions(0)
    state.apply_action(Call(0))
    assert state.hand_scores == [[2, -2]]


def test_jokers_score_plus_one_on_a_foundation_and_minus_two_in_the_nerts_pile() -> None:
    state = dealt({0: "JOKER " + NERTS_12[:-3] + " JOKER 9H 8S KD 4D"}, jokers=2)
    assert state.layouts[0].nerts[-1].is_joker and state.layouts[0].nerts[0].is_joker
    state.apply_action(Play(0, Card.joker().in_deck(0), "N", None, c("AS")))
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))
    assert state.hand_scores == [[1 - 2 * 12, -26]]  # one joker on a foundation, one left in the pile


def test_a_tie_for_the_lead_plays_on_until_one_seat_alone_leads() -> None:
    game = NertsGame({"target_score": 1, "nerts_pile_size": 1}, seats=3)
    state = game.new_initial_state()
    state.apply_action(deal_with(game, {0: "AH", 1: "AH"}))
    state.apply_action(Play(0, c("AH"), "N", None))
    state.apply_action(Play(1, c("AH@1"), "N", None))
    state.apply_action(Call(0))
    assert state.totals == [1, 1, -2] and not state.is_terminal()
    for _ in range(2):  # Cal alone scores; Ana and Ben are stuck with their Nerts card
        state.apply_action(deal_with(game, {2: "AH"}))
        state.apply_action(Play(2, c("AH@2"), "N", None))
        state.apply_action(Call(2))
    assert state.totals == [-3, -3, 0]
    assert state.is_terminal() and state.winners == [2]


# -- the referee: races (§6.1) --------------------------------------------------------------------

HEARTS_TO_4 = plays("Ana", ["AH", "2H", "3H", "4H"], "H", 2.0)


def race(*contenders: tuple[str, str, str], **options: Any) -> list[str]:
    """A ♥ pile at level 4, then 5♥ from each (seat, landing t, err), all as exact decimals."""
    lines = [header(**options), ev("1", "hand_start"), *HEARTS_TO_4]
    lines += [ev(t, "foundation_play", seat, err=err, card="5H", pile="H") for seat, t, err in contenders]
    return lines + [ev("30", "hand_end")]


def test_a_tie_group_is_measured_from_its_earliest_card_with_only_its_uncertainty() -> None:
    # Dee is 25 ms after Cal, whose uncertainty is 10 ms, but 45 ms after Ben, the earliest (no
    # uncertainty): the window is 30 + 0 + 0 ms, so Dee lost.
    report = run(race(("Ben", "12.000", "0"), ("Cal", "12.020", "0.010"), ("Dee", "12.045", "0")))
    assert texts(report, "tie") == ["tie (20 ms): both stand"]
    assert texts(report, "race") == ["Ben first by 45 ms: Dee, take back 5♥"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 1, "Dee": 0}


def test_the_earliest_cards_uncertainty_widens_the_window() -> None:
    tie = run(race(("Ben", "12.000", "0.010"), ("Cal", "12.040", "0")))
    lost = run(race(("Ben", "12.000", "0.010"), ("Cal", "12.040000001", "0")))
    assert texts(tie, "tie") == ["tie (40 ms): both stand"]
    assert texts(lost, "race") == ["Ben first by 40 ms: Cal, take back 5♥"]


def test_with_a_zero_window_only_the_uncertainties_make_a_tie() -> None:
    tie = run(race(("Ben", "12.000", "0.002"), ("Cal", "12.004", "0.002"), tie_window_ms=0))
    same = run(race(("Ben", "12.000", "0"), ("Cal", "12.000", "0"), tie_window_ms=0))
    lost = run(race(("Ben", "12.000", "0"), ("Cal", "12.000000001", "0"), tie_window_ms=0))
    assert texts(tie, "tie") == ["tie (4 ms): both stand"]
    assert texts(same, "tie") == ["tie (0 ms): both stand"]
    assert texts(lost, "race") == ["Ben first by 0 ms: Cal, take back 5♥"]


def test_first_only_keeps_the_earliest_card_of_three_however_close() -> None:
    report = run(race(("Ben", "12.000", "0.005"), ("Cal", "12.005", "0.005"), ("Dee", "12.010", "0"),
                      tie_policy="first_only"))
    assert texts(report, "tie") == []
    assert texts(report, "race") == ["Ben first by 5 ms: Cal, take back 5♥",
                                     "Ben first by 10 ms: Dee, take back 5♥"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 0, "Dee": 0}


def test_rulings_show_the_measured_gap_and_who_takes_which_card_back() -> None:
    lines = [header(["East", "West"]), ev("1", "hand_start"),
             *plays("East", ["AH", "2H", "3H", "4H", "5H"], "F1", 2.0),
             ev("10.000", "foundation_play", "East", card="6H", pile="F1"),
             ev("10.064", "foundation_play", "West", card="6H", pile="F1"),
             *plays("West", ["AS"], "F2", 11.0),
             ev("12.000", "foundation_play", "West", err="0.001", card="2S", pile="F2"),
             ev("12.012", "foundation_play", "East", err="0.001", card="2S", pile="F2")]
    report = run(lines)
    assert texts(report, "race") == ["East first by 64 ms: West, take back 6♥"]
    assert texts(report, "tie") == ["tie (12 ms): both stand"]
    seats = [r.seats for r in report.rulings if r.kind in ("race", "tie")]
    assert seats == [("East", "West"), ("West", "East")]


# -- the referee: a returned card (§6.1 ruling) -----------------------------------------------------

def _clubs_race(*extra: str) -> list[str]:
    return [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "C1", 2.0),
            *plays("Ben", ["AC"], "C2", 2.5),
            ev("3.0", "foundation_play", "Ana", card="2C", pile="C1"),
            ev("3.2", "foundation_play", "Ben", card="2C", pile="C1", **{"from": "work3"}), *extra,
            ev("9", "hand_end")]


def test_a_returned_card_may_not_be_redirected_straight_to_another_pile() -> None:
    report = run(_clubs_race(ev("3.6", "foundation_play", "Ben", card="2C", pile="C2", **{"from": "C1"})))
    assert texts(report, "race") == ["Ana first by 200 ms: Ben, take back 2♣"]
    assert breaches(report) == ["Ben's 2♣ went from C1 straight to C2: a card sent back must first return "
                                "to where it came from. Ben, take it back"]
    assert report.extra["hands"][0]["foundation"] == {"Ana": 2, "Ben": 1}


def test_a_returned_card_goes_back_to_its_source_and_may_then_be_played_again() -> None:
    report = run(_clubs_race(ev("3.6", "move", "Ben", card="2C", **{"from": "C1", "to": "work3"}),
                             ev("4.0", "foundation_play", "Ben", card="2C", pile="C2", **{"from": "work3"})))
    assert report.infractions == []
    assert report.extra["hands"][0]["foundation"] == {"Ana": 2, "Ben": 2}


def test_no_card_leaves_a_foundation() -> None:
    report = run(_clubs_race(ev("4.0", "foundation_play", "Ana", card="2C", pile="C2", **{"from": "C1"})))
    assert breaches(report) == ["Ana took 2♣ off foundation C1: no card leaves a foundation. Ana, put it "
                                "back on C1"]
    assert report.extra["hands"][0]["foundation"] == {"Ana": 2, "Ben": 1}


# -- the referee: the call and cards in the air (§7.1) ----------------------------------------------

def test_a_card_lifted_exactly_at_the_call_goes_back_and_one_nanosecond_earlier_counts() -> None:
    lines = [header(["Ana", "Ben", "Cal"]), ev("1", "hand_start"), ev("10", "call", "Ana"),
             ev("10.2", "foundation_play", "Ben", card="AS", pile="S", t_lift="9.999999999"),
             ev("10.3", "foundation_play", "Cal", card="AS", pile="S2", t_lift="10")]
    report = run(lines)
    assert texts(report, "air") == ["Ben's A♠ was in the air at the call: it counts if legal"]
    assert breaches(report) == ["Cal's A♠ was lifted 0 ms after the call: take it back"]
    assert report.extra["hands"][0]["foundation"] == {"Ana": 0, "Ben": 1, "Cal": 0}


def test_after_the_call_no_move_may_start_and_an_illegal_card_in_the_air_does_not_count() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ben", ["AS"], "S", 2.0),
             ev("10", "call", "Ana"),
             ev("10.1", "foundation_play", "Ben", card="3S", pile="S", t_lift="9.8"),
             ev("10.4", "move", "Ben", card="7H", t_lift="10.2", **{"from": "waste", "to": "work1"}),
             ev("10.6", "turn", "Ben", t_lift="10.5"),
             ev("11", "call", "Ben")]
    report = run(lines)
    assert breaches(report) == [
        "Ben's 3♠ on S: wrong rank, the pile needs 2♠. Ben, take it back",
        "Ben's 7♥ was lifted 200 ms after the call: take it back",
        "Ben's turn was lifted 500 ms after the call: take it back",
        "Ben called after the hand ended: ignored",
    ]
    assert report.extra["hands"][0]["foundation"] == {"Ana": 0, "Ben": 1}


def test_a_false_call_in_a_tracked_hand_is_void_and_costs_the_penalty() -> None:
    lines = full_start({}, false_call_penalty=3) + [
        ev("5", "call", "Ana"),
        ev("6", "foundation_play", "Ben", card="AD", pile="D", **{"from": "work1"}),
        ev("7", "hand_end")]
    report = run(lines)
    assert texts(report, "false_call") == ["false call: Ana still has 13 Nerts cards: play on (3 points off)"]
    assert report.hands == [{"Ana": -26 - 3, "Ben": 1 - 26}]


def test_the_last_nerts_card_in_the_air_at_the_call_counts_for_a_valid_call() -> None:
    lines = full_start({"Ana": "AH 9H 8S KD 4D"}, nerts_pile_size=1) + [
        ev("10.1", "call", "Ana", nerts_left=0),
        ev("10.3", "foundation_play", "Ana", card="AH", pile="H", t_lift="10.0", **{"from": "nerts"}),
        ev("11", "hand_end")]
    report = run(lines)
    assert texts(report, "false_call") == [] and texts(report, "call") != []
    assert report.hands == [{"Ana": 1, "Ben": -2}]


# -- the referee: stuck, resets and stalemates (§7.2) -----------------------------------------------

def _all_stuck(t: str, seats: tuple[str, ...] = ("Ana", "Ben")) -> list[str]:
    return [ev(t, "stuck", s) for s in seats]


def _reset_kinds(lines: list[str]) -> list[str]:
    return [r.kind for r in run(lines).rulings if r.kind in ("reset", "stalemate")]


def test_stalemate_after_two_resets_without_progress() -> None:
    lines = [header(["Ana", "Ben"], stalemate_after_resets=2), ev("1", "hand_start"),
             *_all_stuck("2"), *_all_stuck("3"), *_all_stuck("4")]
    assert _reset_kinds(lines) == ["reset", "reset", "stalemate"]


def test_only_moves_out_of_the_nerts_pile_or_waste_or_onto_a_foundation_are_progress() -> None:
    start = [header(["Ana", "Ben"]), ev("1", "hand_start"), *_all_stuck("2")]
    block = [ev("3", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"})]
    waste = [ev("3", "move", "Ana", card="8S", **{"from": "waste", "to": "work1"})]
    assert _reset_kinds(start + block + _all_stuck("4")) == ["reset", "stalemate"]
    assert _reset_kinds(start + waste + _all_stuck("4")) == ["reset", "reset"]


def test_searching_moves_keep_the_stuck_flag_and_other_moves_clear_it() -> None:
    start = [header(["Ana", "Ben"]), ev("1", "hand_start"), ev("2", "stuck", "Ana")]
    assert _reset_kinds(start + [ev("3", "turn", "Ana"), ev("4", "stuck", "Ben")]) == ["reset"]
    moved = [ev("3", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"}), ev("4", "stuck", "Ben")]
    assert _reset_kinds(start + moved) == []


def test_no_card_may_land_after_a_stalemate() -> None:
    lines = [header(["Ana", "Ben"], stalemate_after_resets=0), ev("1", "hand_start"), *_all_stuck("2"),
             ev("3", "foundation_play", "Ana", card="AS", pile="S")]
    assert breaches(run(lines)) == ["Ana's A♠ after the hand ended: take it back"]


# -- the referee with a full log: the stock (M1, M2, M10, the reset) --------------------------------

def full_start(prefixes: dict[str, str], seats: tuple[str, ...] = ("Ana", "Ben"),
               **options: Any) -> list[str]:
    """A full log's start: each seat's deck begins with its prefix (Nerts pile, work piles, stock top
    down), the rest in the deck's order."""
    deck = [card.face_str() for card in seat_deck(0, int(options.get("jokers", 0)))]
    deal = {}
    for s in seats:
        first = prefixes.get(s, "").split()
        rest = sorted((Counter(deck) - Counter(first)).elements(), key=deck.index)
        deal[s] = " ".join(first + rest)
    return [header(list(seats), **options), ev("1", "hand_start", deal=deal)]


ANA = NERTS_12 + " 5S 9H 8S KD 4D"
"""Ana's Nerts pile (5♠ on top) and work piles; her stock follows."""


def _ace_from_waste(t: str) -> str:
    return ev(t, "foundation_play", "Ana", card="AS", pile="S", **{"from": "waste"})


def test_tracked_reset_puts_the_waste_on_the_stock_then_its_top_card_at_the_bottom() -> None:
    lines = full_start({"Ana": ANA + " 8D 2H 7H AS"}) + [
        ev("2", "turn", "Ana"), *_all_stuck("3"), ev("4", "turn", "Ana"), _ace_from_waste("5")]
    report = run(lines)
    assert texts(report, "reset") and report.infractions == []  # 2♥ 7♥ A♠ turned: A♠ on top


def test_tracked_recycle_restores_the_stock_order() -> None:
    lines = full_start({"Ana": ANA + " 8D 2H AS"})
    lines += [ev(f"{2 + i}", "turn", "Ana") for i in range(12)]
    lines += [ev("20", "recycle", "Ana"), ev("21", "turn", "Ana"), _ace_from_waste("22")]
    assert run(lines).infractions == []
    early = full_start({"Ana": ANA + " 8D 2H AS"}) + [ev("2", "turn", "Ana"), ev("3", "recycle", "Ana")]
    assert breaches(run(early)) == ["Ana recycled with cards left in the stock"]


def test_tracked_recycle_immediately_turns_the_waste_over_with_the_short_packet() -> None:
    lines = full_start({"Ana": ANA + " 8D 2H AS"}, short_stock="recycle_immediately")
    lines += [ev(f"{2 + i}", "turn", "Ana") for i in range(12)]
    # The short turn recycles at once: the next turn shows the first packet again, whether or not the
    # log holds the player's own turning over of the waste (docs/table-log.md, `recycle`).
    assert run(lines + [ev("21", "turn", "Ana"), _ace_from_waste("22")]).infractions == []
    lines += [ev("20", "recycle", "Ana"), ev("21", "turn", "Ana"), _ace_from_waste("22")]
    assert run(lines).infractions == []
    twice = lines[:-2] + [ev("20", "recycle", "Ana")]
    assert breaches(run(twice)) == ["Ana recycled with cards left in the stock"]


def test_tracked_one_card_turns_and_rotation() -> None:
    turned = full_start({"Ana": ANA + " AS"}, stock_turn_count=1) + [
        ev("2", "turn", "Ana"), _ace_from_waste("3")]
    assert run(turned).infractions == []
    rotated = full_start({"Ana": ANA + " 8D AS"}, stock_turn_count=1) + [
        ev("2", "stuck", "Ana"), ev("3", "rotate", "Ana"), ev("4", "turn", "Ana"), _ace_from_waste("5")]
    assert run(rotated).infractions == []
    empty = full_start({"Ana": ANA}, stock_turn_count=35) + [
        ev("2", "turn", "Ana"), ev("3", "stuck", "Ana"), ev("4", "rotate", "Ana")]
    assert breaches(run(empty)) == ["Ana rotated an empty stock: recycle the waste first"]


def test_tracked_compulsory_ace_forbids_a_layout_move() -> None:
    lines = full_start({"Ana": NERTS_12 + " AH 9H 8S KD 4D"}, aces_compulsory=True) + [
        ev("2", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"}),
        ev("3", "foundation_play", "Ana", card="AH", pile="H"),
        ev("4", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"})]
    assert breaches(run(lines)) == ["Ana: A♥ must go to the centre first (aces_compulsory): take it back"]


# -- the referee: scoring and the audit (§8, §12) ---------------------------------------------------

def test_tracked_nerts_count_is_overridden_by_the_audit_and_the_difference_logged() -> None:
    lines = full_start({}) + [ev("2", "call", "Ana", nerts_left=2), ev("3", "count", "Ana", nerts=12),
                              ev("3", "count", "Ben", nerts=13, foundation=2), ev("4", "hand_end")]
    report = run(lines)
    assert texts(report, "audit") == ["audit: Ana counts 12 Nerts cards (tracking saw 13)",
                                      "audit: Ben has 2 cards on the foundations (live tracking saw 0)"]
    assert report.hands == [{"Ana": -24, "Ben": 2 - 26}]


def test_every_card_of_a_tie_and_every_joker_on_a_foundation_scores_for_its_owner() -> None:
    lines = [header(["Ana", "Ben"], jokers=2), ev("1", "hand_start"),
             *plays("Ana", ["AH", "2H"], "H", 2.0),
             ev("5.000", "foundation_play", "Ana", card="3H", pile="H"),
             ev("5.010", "foundation_play", "Ben", card="JOKER", pile="H", **{"as": "3H"}),
             ev("6", "foundation_play", "Ben", card="4H", pile="H"),
             ev("7", "call", "Ana"), ev("8", "count", "Ben", nerts=2), ev("9", "hand_end")]
    report = run(lines)
    assert texts(report, "tie") == ["tie (10 ms): both stand"]
    assert report.hands == [{"Ana": 3, "Ben": 2 - 4}]


# -- the referee: the end of the game (§8.1) --------------------------------------------------------

def _hands(results: list[dict[str, tuple[int, int]]], **options: Any) -> list[str]:
    """Hands given as {seat: (F, N)}, each ended by a call."""
    seats = list(results[0])
    lines = [header(seats, **options)]
    for i, hand in enumerate(results):
        t = 100 * i
        lines += [ev(str(t + 1), "hand_start"), ev(str(t + 2), "call", seats[0])]
        lines += [ev(str(t + 3), "count", s, foundation=f, nerts=n) for s, (f, n) in hand.items()]
        lines += [ev(str(t + 4), "hand_end")]
    return lines


def test_play_on_ends_when_one_seat_alone_leads_even_below_the_target() -> None:
    report = run(_hands([{"Ana": (20, 0), "Ben": (20, 0)}, {"Ana": (0, 2), "Ben": (0, 2)},
                         {"Ana": (0, 3), "Ben": (0, 5)}], target_score=20))
    assert texts(report, "tie_for_win") == ["Ana and Ben tie for the lead on 20: another hand",
                                            "Ana and Ben tie for the lead on 16: another hand"]
    assert report.totals == {"Ana": 10, "Ben": 6} and report.finished and report.winners == ["Ana"]


def test_the_highest_total_wins_even_when_another_seat_also_passed_the_target() -> None:
    report = run(_hands([{"Ana": (21, 0), "Ben": (24, 0), "Cal": (5, 0)}], target_score=20))
    assert report.finished and report.winners == ["Ben"]


# -- the referee: jokers (§9) ------------------------------------------------------------------------

def test_a_joker_leaving_a_work_pile_must_be_declared_as_what_its_neighbours_make_it() -> None:
    lines = full_start({"Ana": NERTS_12 + " JOKER 3S AC 9H 4H"}, jokers=2) + [
        ev("2", "move", "Ana", card="JOKER", **{"from": "nerts", "to": "work1"}),  # on 3♠: a red 2
        ev("3", "foundation_play", "Ana", card="AC", pile="C", **{"from": "work2"}),
        ev("4", "foundation_play", "Ben", card="AD", pile="D", **{"from": "work1"}),
        ev("5", "foundation_play", "Ana", card="JOKER", pile="C", **{"from": "work1", "as": "2C"}),
        ev("6", "foundation_play", "Ana", card="JOKER", pile="D", **{"from": "work1"}),  # inferred 2♦
        ev("7", "hand_end"),
    ]
    report = run(lines)
    assert breaches(report) == ["Ana's joker cannot be 2♣: its work pile makes it a red 2. Ana, take it back"]
    assert foundation(report) == {"Ana": 2, "Ben": 1}


def test_a_second_joker_on_a_pile_with_an_open_suit_must_be_declared() -> None:
    lines = [header(["Ana", "Ben"], jokers=2), ev("1", "hand_start"),
             ev("2", "foundation_play", "Ana", card="JOKER", pile="F1"),
             ev("3", "foundation_play", "Ben", card="JOKER", pile="F1"),
             ev("4", "foundation_play", "Ben", card="JOKER", pile="F1", **{"as": "2D"}),
             ev("5", "foundation_play", "Ana", card="3H", pile="F1"), ev("6", "hand_end")]
    report = run(lines)
    assert breaches(report) == [
        "Ben's joker on F1 needs a declared suit: Ben, say which card it is",
        "Ana's 3♥ on F1: wrong suit, the pile is ♦ (top 2♦). Ana, take it back"]
    assert foundation(report) == {"Ana": 1, "Ben": 1}


# -- the referee: one hand per player, partnerships (§5, §10) ----------------------------------------

def test_a_card_lifted_before_the_players_previous_card_landed_breaks_the_one_hand_rule() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             ev("5.0", "foundation_play", "Ana", card="AS", pile="S"),
             ev("5.1", "foundation_play", "Ana", card="AH", pile="H", t_lift="4.7"),
             ev("5.2", "foundation_play", "Ben", card="AH", pile="H2", t_lift="4.7")]
    assert breaches(run(lines)) == ["Ana had two cards in flight at once (one hand only)"]


def test_a_partnership_move_without_a_named_partner_is_not_a_third_player() -> None:
    lines = [header(["T1", "T2", "T3"]), ev("1", "hand_start"),
             ev("5.0", "foundation_play", "T1", card="AS", pile="S", t_lift="4.6", actor="Ana"),
             ev("5.1", "foundation_play", "T1", card="AH", pile="H", t_lift="4.7", actor="Ben"),
             # Lifted once Ana's and Ben's cards have landed: a third card in the air would be a
             # one-hand breach of its own (§10: two partners, one card each).
             ev("5.2", "foundation_play", "T1", card="AD", pile="D", t_lift="5.15"),
             ev("6.0", "foundation_play", "T1", card="AC", pile="C", t_lift="5.5", actor="Eli")]
    report = run(lines)
    assert breaches(report) == ["three players are moving T1's cards: a seat is one player or a "
                                "partnership of two"]
    assert report.infractions[0].t_ns == 6_000_000_000  # Eli's card, not the unattributed one


def test_with_both_compulsory_options_an_ace_comes_before_filling_on_both_paths() -> None:
    prefix = NERTS_12 + " 5S AS 9H 8S AD"
    state = dealt({0: prefix}, aces_compulsory=True, must_fill_from_nerts=True)
    state.apply_action(Play(0, c("AS"), "1", None))  # work pile 1 is now empty
    assert state.legal_actions(0) == [Play(0, c("AD"), "4", None), Stuck(0)]
    lines = full_start({"Ana": prefix}, aces_compulsory=True, must_fill_from_nerts=True) + [
        ev("2", "foundation_play", "Ana", card="AS", pile="S", **{"from": "work1"}),
        ev("3", "foundation_play", "Ana", card="AD", pile="D", **{"from": "work4"}),
        ev("4", "move", "Ana", card="8S", **{"from": "work3", "to": "work2"}),
        ev("5", "move", "Ana", card="5S", **{"from": "nerts", "to": "work1"})]
    assert breaches(run(lines)) == [
        "Ana: an empty work pile must first be filled from the Nerts pile (must_fill_from_nerts): "
        "take it back"]


def test_a_stuck_seat_may_rotate_a_one_card_stock() -> None:
    state = dealt({}, stock_turn_count=34)
    state.apply_action(Turn(0))  # 35 cards: one is left in the stock
    state.apply_action(Stuck(0))
    assert len(state.layouts[0].stock) == 1 and Rotate(0) in state.legal_actions(0)


def test_a_refused_card_returns_to_the_waste_and_no_other_card_goes_back_there() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "C1", 2.0),
             ev("3.0", "foundation_play", "Ana", card="2C", pile="C1"),
             ev("3.2", "foundation_play", "Ben", card="2C", pile="C1", **{"from": "waste"}),
             ev("3.5", "move", "Ben", card="2C", **{"from": "C1", "to": "waste"}),
             ev("4.0", "move", "Ben", card="9H", **{"from": "work1", "to": "waste"}),
             ev("4.5", "move", "Ben", card="8S", **{"from": "work2", "to": "stock"}),
             ev("5.0", "foundation_play", "Ana", card="3C", pile="C1"),
             ev("5.5", "foundation_play", "Ben", card="3C", pile="C1", **{"from": "nerts"}),
             ev("6.0", "move", "Ben", card="3C", **{"from": "C1", "to": "waste"})]
    assert breaches(run(lines)) == [
        "Ben put 9♥ on the waste: no card goes back to the Nerts pile, the stock or the waste. "
        "Ben, take it back",
        "Ben put 8♠ on the stock: no card goes back to the Nerts pile, the stock or the waste. "
        "Ben, take it back",
        "Ben's 3♣ went from C1 straight to waste: a card sent back must first return to where it came "
        "from. Ben, take it back"]


def test_camera_level_moves_are_judged_on_what_the_event_shows() -> None:
    moves = [ev("2", "move", "Ana", card="JD", **{"from": "nerts", "to": "under1"}),
             ev("3", "move", "Ana", card="9S", **{"from": "work2", "to": "under1"}),
             ev("4", "move", "Ana", card="9S", **{"from": "work2", "to": "work2"})]
    on = run([header(["Ana", "Ben"]), ev("1", "hand_start"), *moves])
    off = run([header(["Ana", "Ben"], allow_slide_under=False), ev("1", "hand_start"), *moves[:1]])
    assert breaches(on) == ["Ana: 9♠ is in work pile 2: a block cannot slide under: take it back",
                            "Ana: a block must move to another work pile: take it back"]
    assert breaches(off) == [
        "Ana: sliding under a work pile is not allowed (allow_slide_under is off): take it back"]


# -- both paths agree: strict random play, written as a full log, referees without an infraction -------

def _event(action: Any, t: int, state: NertsState) -> TableEvent:
    seat = state.game.seats[action.seat]

    def place(src: str) -> str:
        return {"N": "nerts", "W": "waste"}.get(src, f"work{src}")

    if isinstance(action, Play):
        pid = f"F{len(state.foundations) + 1}" if action.pile is None else f"F{action.pile}"
        data: dict[str, Any] = {"card": action.card.face_str(), "pile": pid, "from": place(action.source)}
        if action.declared is not None:
            data["as"] = action.declared.face_str()
        return TableEvent("foundation_play", t, seat=seat, data=data)
    if isinstance(action, (Build, SlideUnder)):
        to = f"{'work' if isinstance(action, Build) else 'under'}{action.work}"
        return TableEvent("move", t, seat=seat, data={"card": action.card.face_str(),
                                                      "from": place(action.source), "to": to})
    if isinstance(action, MoveBlock):
        data = {"card": action.card.face_str(), "from": f"work{action.from_work}",
                "to": f"work{action.to_work}"}
        if action.card.is_joker:
            data["index"] = action.index
        return TableEvent("move", t, seat=seat, data=data)
    kind = {Turn: "turn", Recycle: "recycle", Rotate: "rotate", Stuck: "stuck", Call: "call"}[type(action)]
    return TableEvent(kind, t, seat=seat)


@pytest.mark.parametrize("options", [
    {}, {"jokers": 2}, {"aces_compulsory": True, "must_fill_from_nerts": True},
    {"stock_turn_count": 1, "move_partial_runs": False}, {"short_stock": "recycle_immediately"},
    {"allow_slide_under": False, "jokers": 2, "work_piles": 3},
])
def test_the_referee_accepts_every_move_the_strict_engine_allows(options: dict[str, Any]) -> None:
    rng = random.Random(7)
    game = NertsGame(dict(options), seats=3)
    state = game.new_initial_state()
    deal = state.sample_chance(rng)
    assert isinstance(deal, Deal)
    state.apply_action(deal)
    referee = game.referee()
    orders = {game.seats[s]: " ".join(card.face_str() for card in order)
              for s, order in enumerate(deal.orders)}
    referee.feed(TableEvent("hand_start", 0, data={"deal": orders}))
    for step in range(1, 400):
        if state.phase != "play":
            break
        legal = state.legal_actions()
        moves = [a for a in legal if not isinstance(a, Stuck)]
        action = rng.choice(moves if moves and rng.random() > 0.03 else legal)
        event = _event(action, step * 1_000_000_000, state)
        state.apply_action(action)
        referee.feed(event)
        assert referee.infractions == [], (str(action), referee.infractions)
        assert referee.hand is not None
        for ref_lay, lay in zip(referee.hand.layouts, state.layouts, strict=True):
            assert (ref_lay.nerts, ref_lay.work, ref_lay.stock, ref_lay.waste) == \
                (lay.nerts, lay.work, lay.stock, lay.waste), str(action)


def test_a_block_starting_at_one_of_two_alike_jokers_is_named_by_its_index() -> None:
    start = full_start({"Ana": NERTS_12 + " JOKER 10D JOKER 10H 7S"}, jokers=2) + [
        ev("2", "move", "Ana", card="JOKER", **{"from": "nerts", "to": "work1"}),  # on 10♦: a black 9
        ev("3", "move", "Ana", card="JOKER", **{"from": "work2", "to": "work1"}),  # then a red 8
        ev("4", "move", "Ana", card="7S", **{"from": "work4", "to": "work1"})]  # 10♦ J J 7♠

    def block(**index: int) -> list[str]:
        return breaches(run(start + [ev("5", "move", "Ana", card="JOKER", **index,
                                        **{"from": "work1", "to": "work3"})]))

    assert block(index=1) == []  # J J 7♠ onto 10♥: the lower joker is a black 9
    assert block(index=2) == ["Ana: JOKER does not fit on 10♥: take it back"]  # J 7♠: a red 8
    assert block(index=3) == ["Ana's JOKER is not card 3 of work pile 1: take it back"]
    assert block() == []  # without an index: the lowest joker block that fits
