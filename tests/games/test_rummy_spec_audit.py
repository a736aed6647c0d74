"""3-13 Speed checked rule by rule against ``rules/rummy_3_13.md``, on the strict path
(:class:`RummyState`) and on the referee path (table-log events -> rulings, scores).

Each test names the section it checks and fails if that rule were implemented
otherwise. The worked examples themselves are in ``test_melds.py`` and ``test_rummy.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kiosk.games.base import options_to_dict
from kiosk.games.cards import Card, Rank, multi_deck, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.melds import best_arrangement, card_points, is_valid_set, min_penalty
from kiosk.games.referee import RefereeReport, TableEvent
from kiosk.games.rummy import Rummy313Game, RummyOptions, RummyState
from kiosk.games.rummy_actions import Deal, DrawPile
from kiosk.games.rummy_bots import table_log
from kiosk.games.rummy_referee import RummyReferee
from tests.games.rummy_brute_force import brute_force_penalty, valid

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _rank(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


def _ev(t: float, type_: str, seat: str | None = None, **data: Any) -> TableEvent:
    return TableEvent(type_, int(t * 1e9), seat=seat, data=data)


def _state(options: dict[str, Any], seats: list[str] | int) -> RummyState:
    state = Rummy313Game(options, seats=seats).new_initial_state()
    assert isinstance(state, RummyState)
    return state


def _deal(state: RummyState, hands: list[str], piles: str) -> None:
    state.apply_action(Deal(tuple(tuple(parse_cards(h)) for h in hands), tuple(parse_cards(piles))))


def _play(state: RummyState, *texts: str) -> None:
    for t in texts:
        state.apply_text(t)


def _referee(seats: list[str], **options: Any) -> RummyReferee:
    ref = Rummy313Game(options, seats=seats).referee()
    assert isinstance(ref, RummyReferee)
    return ref


def _kinds(report: RefereeReport) -> list[str]:
    return [i.kind for i in report.infractions]


# -- §1, §3: eleven hands of 3..13 cards, the wild rank is the hand size -------------

def _complete_and_dead(n: int) -> tuple[list[str], list[str], int]:
    """Seat 0: n-1 Aces and one card of rank n (complete only if rank n is wild).
    Seat 1: pairs of identical cards, even ranks in spades and odd in hearts, never
    rank n: no group, no run and no wild card, so every card is an orphan."""
    aces = [f"A{s}@{d}" for d in range(4) for s in "SHDC"][: n - 1]
    seat0 = [*aces, f"{_rank(n)}C"]
    seat1: list[str] = []
    for r in range(2, 14):
        if r != n:
            suit = "S" if r % 2 == 0 else "H"
            seat1 += [f"{_rank(r)}{suit}@1", f"{_rank(r)}{suit}@2"]
    seat1 = seat1[:n]
    return seat0, seat1, sum(card_points(Card.parse(c)) for c in seat1)


def _full_game(**options: Any) -> tuple[RummyState, list[int]]:
    state = _state(dict(options), ["Ana", "Ben"])
    expected: list[int] = []
    for h, n in enumerate(range(3, 14), start=1):
        seat0, seat1, penalty = _complete_and_dead(n)
        state.apply_action(Deal((tuple(parse_cards(" ".join(seat0))), tuple(parse_cards(" ".join(seat1)))),
                                tuple(parse_cards("5D@3 6D@3"))))
        view = state.public_view()
        assert (view.hand_number, view.hand_size, view.wild_rank) == (h, n, Rank(n))
        assert all(s.cards_in_hand == n for s in view.seats)
        _play(state, "0:match", "call draw", "1:draw pool", "1:gets 7D@3", "1:hold 7D@3", "call discard")
        expected.append(penalty)
    return state, expected


def test_eleven_hands_of_3_to_13_cards_with_the_hand_size_wild() -> None:
    state, expected = _full_game()
    assert state.is_terminal()
    assert state.scores == [[0, p] for p in expected]
    assert state.returns() == [0, sum(expected)]
    assert state.winners() == [0] and state.public_view().winners == ("Ana",)


def test_referee_follows_the_same_eleven_hands() -> None:
    state, expected = _full_game()
    game = state.game
    ref = game.referee()
    rulings = ref.feed_all(table_log(game, state.history()))
    starts = [r.text for r in rulings if r.kind == "hand_start"]
    assert starts[0] == "hand 1: 3 cards each, 3s wild"
    assert starts[8:] == ["hand 9: 11 cards each, Js wild", "hand 10: 12 cards each, Qs wild",
                          "hand 11: 13 cards each, Ks wild"]
    report = ref.report()
    assert [list(h.values()) for h in report.hands] == [[0, p] for p in expected]
    assert report.finished and report.winners == ["Ana"] and report.infractions == []


@pytest.mark.parametrize("n", range(3, 14))
def test_only_the_rank_equal_to_the_hand_size_is_wild(n: int) -> None:
    aces = [f"A{s}@{d}" for d in range(4) for s in "SHDC"][: n - 1]
    ref = _referee(["Ana", "Ben"], hands=[n])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D@3", "Ben": "6D@3"}))
    for t, other in enumerate((n - 1, n + 1), start=1):
        if 2 <= other <= 13:
            ruling = ref.feed(_ev(t, "match", "Ben", cards=[*aces, f"{_rank(other)}C"]))[0]
            assert ruling.kind == "failed_match", f"rank {other} must not be wild in hand of {n}"
        ref.feed(_ev(t + 0.5, "call", call="draw"))
        ref.feed(_ev(t + 0.6, "call", call="discard"))
    assert ref.feed(_ev(9, "match", "Ana", cards=[*aces, f"{_rank(n)}C"]))[0].kind == "match"


@pytest.mark.parametrize("n", [3, 8, 13])
def test_setup_deals_n_cards_and_one_face_up_pile_card_to_every_seat(n: int) -> None:
    state = _state({"hands": [n]}, 12)
    state.apply_action(state.sample_chance(n))
    view = state.public_view()
    assert all(s.cards_in_hand == n and s.pile_size == 1 for s in view.seats)
    assert view.pool_size == 4 * 52 - 12 * (n + 1)


# -- §2: players, decks, the caller ---------------------------------------------------

def test_two_or_more_seats_and_four_decks_by_default() -> None:
    with pytest.raises(InvalidActionError):
        Rummy313Game(seats=1)
    state = _state({}, 2)
    assert len(state.deck) == 208 and len(set(state.deck)) == 208
    assert sum(1 for c in state.deck if c.rank == Rank.KING) == 16
    assert not any(c.is_joker for c in state.deck)
    assert len(_state({"decks": 5}, 14).deck) == 260


def test_caller_is_the_highest_card_with_the_ace_low() -> None:
    ref = _referee(["Ana", "Ben", "Cal"])
    rulings = ref.feed(_ev(0, "caller_draw", cards={"Ana": "AS", "Ben": "2C", "Cal": "AH"}))
    assert rulings[0].kind == "caller" and rulings[0].seats == ("Ben",)


def test_under_caller_kiosk_the_kiosk_calls_without_an_infraction() -> None:
    ref = _referee(["Ana", "Ben"], caller="kiosk", hands=[3])
    ref.feed(_ev(0, "caller_draw", cards={"Ana": "KS", "Ben": "2C"}))
    ref.feed(_ev(1, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "call", "Ben", call="discard"))    # the kiosk speaks; no seat's button is wrong
    assert "not_the_caller" not in _kinds(ref.report())


# -- §4: sets -------------------------------------------------------------------------

def test_aces_are_low_and_runs_never_wrap() -> None:
    assert is_valid_set(parse_cards("AH 2H 3H"), 9)
    assert not is_valid_set(parse_cards("KH AH 2H"), 9)
    # A wild card cannot bridge K to A either: Q-K-A needs ten cards in between.
    assert not is_valid_set(parse_cards("QH KH AH 5C"), 5)
    # ...but it may stand for the J below Q-K.
    assert is_valid_set(parse_cards("QH KH 5C"), 5)
    assert min_penalty(parse_cards("QS KS AS 2S"), 9) == 23   # A-2 with no third card; Q-K alone


def test_a_run_holds_at_most_thirteen_cards() -> None:
    hearts = [Card.parse(f"{_rank(r)}H") for r in range(1, 14)]
    assert is_valid_set(hearts, 13)
    assert best_arrangement(hearts, 13).is_complete
    assert not is_valid_set([*hearts, Card.parse("5C")], 5)


def test_a_run_has_different_ranks_of_one_suit() -> None:
    assert not is_valid_set(parse_cards("2C 3C 3C@1 4C"), 9)
    assert not is_valid_set(parse_cards("2C 3C 4D"), 9)
    assert min_penalty(parse_cards("2C 3C 3C@1 4C"), 9) == 3


def test_a_wild_card_serves_one_set_only() -> None:
    # One wild 5 and two pairs: it completes the 8s (leaving 7 + 7), never both pairs.
    a = best_arrangement(parse_cards("7S 7D 8H 8D 5C"), 5)
    assert a.penalty == 14 and [str(c) for c in a.orphans] == ["7D", "7S"]


def test_a_wild_card_may_count_as_itself() -> None:
    # Under max_wilds_per_set = 0 no wild card stands for another, but 3-4-5 of hearts
    # with the wild 5H as itself is still a run, and three wild cards a group.
    assert min_penalty(parse_cards("3H 4H 5H"), 5, max_wilds_per_set=0) == 0
    assert min_penalty(parse_cards("3H 4H 5S"), 5, max_wilds_per_set=0) == 12
    assert min_penalty(parse_cards("5H 5S 5C"), 5, max_wilds_per_set=0) == 0


def test_the_hand_size_is_the_total_not_a_set_size() -> None:
    assert min_penalty(parse_cards("8S 8H 8D 9C 9D"), 5) == 18     # 3 + 2: the pair is left over
    assert min_penalty(parse_cards("8S 8H 8D 5D 5C"), 5) == 0      # one 5-card group
    assert min_penalty(parse_cards("2S 3S 4S 5S 6S 7S"), 9) == 0   # 6 as one run or 3 + 3


# -- §3, §7: penalty points ------------------------------------------------------------

def test_penalty_points_of_every_rank() -> None:
    cards = [Card.parse(f"{_rank(r)}S") for r in range(1, 14)]
    assert [card_points(c) for c in cards] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert [card_points(c, "rank") for c in cards] == list(range(1, 14))
    # The same values through the scorer: a hand with no set scores every card.
    assert min_penalty(parse_cards("AS 5H 9D"), 3) == 15


def test_no_cap_on_a_hands_penalty() -> None:
    cards = parse_cards("KS KS@1 QH QH@1 JS JS@1 10H 10H@1 9S 9S@1 8H 8H@1 7S")
    assert min_penalty(cards, 4) == 2 * (10 + 10 + 10 + 10 + 9 + 8) + 7
    assert min_penalty(cards, 4, face_card_points="rank") == 2 * (13 + 12 + 11 + 10 + 9 + 8) + 7


def test_an_unused_wild_card_scores_its_face_value() -> None:
    assert min_penalty(parse_cards("QS 2C 7D"), 12) == 19
    assert min_penalty(parse_cards("QS 2C 7D"), 12, face_card_points="rank") == 21


def test_face_card_points_rank_in_the_engine_and_the_referee() -> None:
    for fp, want in (("10", 30), ("rank", 36)):
        state = _state({"hands": [3], "face_card_points": fp}, ["Ana", "Ben"])
        _deal(state, ["7S 7D 3C", "JS QH KD"], "5D 6D")
        _play(state, "0:match", "call draw", "1:draw pool", "1:gets 2C", "1:hold 2C", "call discard")
        assert state.scores == [[0, want]]
        ref = state.game.referee()
        ref.feed_all(table_log(state.game, state.history()))
        assert ref.report().hands == [{"Ana": 0, "Ben": want}]


# -- §5, §6: the table, the piles, the cadence ----------------------------------------

def test_each_seat_draws_from_its_right_hand_neighbours_pile_and_discards_on_its_own() -> None:
    state = _state({"hands": [3]}, ["Ana", "Ben", "Cal"])
    _deal(state, ["7S 7D QC", "8S 8D KC", "2H 5H 9C"], "3D JS 3C")
    _play(state, "call draw")
    # Ana's right-hand neighbour is the seat before her, Cal (the order wraps round).
    assert state.right_of(0) == 2 and state.right_of(1) == 0
    _play(state, "0:draw pile", "1:draw pile", "2:draw pile")
    assert Card.parse("3C") in state.cur.hands[0]   # type: ignore[union-attr]
    assert Card.parse("3D") in state.cur.hands[1]   # type: ignore[union-attr]
    assert Card.parse("JS") in state.cur.hands[2]   # type: ignore[union-attr]
    _play(state, "0:hold QC", "1:hold KC", "2:hold 9C", "call discard")
    assert [str(s.pile_top) for s in state.public_view().seats] == ["QC", "KC", "9C"]
    assert all(s.cards_in_hand == 3 for s in state.public_view().seats)


def test_referee_names_the_right_hand_neighbours_pile() -> None:
    ref = _referee(["Ana", "Ben", "Cal"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "3D", "Ben": "JS", "Cal": "3C"}))
    ref.feed(_ev(1, "call", call="draw"))
    ref.feed(_ev(2, "draw", "Ana", **{"from": "Cal", "card": "3C"}))
    ref.feed(_ev(2, "draw", "Cal", **{"from": "Ana", "card": "3D"}))   # Ana is Cal's left neighbour
    rep = ref.report()
    assert _kinds(rep) == ["wrong_pile"] and "Ben's (the right-hand neighbour)" in rep.infractions[0].text


def test_without_start_pile_each_hand_the_piles_start_empty() -> None:
    state = _state({"hands": [3], "start_pile_each_hand": False}, ["Ana", "Ben"])
    state.apply_action(state.sample_chance(1))
    assert [s.pile_size for s in state.public_view().seats] == [0, 0]
    assert state.public_view().pool_size == 104 - 6 + 104
    _play(state, "call draw")
    with pytest.raises(IllegalActionError):
        state.apply_action(DrawPile(0))
    ref = _referee(["Ana", "Ben"], hands=[3], start_pile_each_hand=False)
    ref.feed(_ev(0, "hand_start"))
    ref.feed(_ev(1, "call", call="draw"))
    ref.feed(_ev(2, "draw", "Ana", **{"from": "Ben"}))
    assert _kinds(ref.report()) == ["empty_pile"]


def test_several_seats_matching_after_one_discard_are_all_out() -> None:
    state = _state({"hands": [3]}, ["Ana", "Ben", "Cal"])
    _deal(state, ["7S 7D QC", "8S 8D KC", "2H 5H 9C"], "3D JS 3C")
    _play(state, "call draw", "0:draw pile", "1:draw pile", "2:draw pool", "2:gets 10D",
          "0:hold QC", "1:hold KC", "2:hold 10D", "call discard")
    assert not state.cadence().final_round
    _play(state, "0:match", "1:match")
    view = state.public_view()
    assert view.seats[0].is_out and view.seats[1].is_out and state.cadence().final_round
    _play(state, "call draw")
    assert state.cadence().waiting_to_draw == (2,)
    _play(state, "2:draw pool", "2:gets 10H", "2:hold 10H", "call discard")
    assert state.scores == [[0, 0, 16]]
    ref = state.game.referee()
    rulings = ref.feed_all(table_log(state.game, state.history()))
    assert [r.kind for r in rulings].count("match") == 2
    assert ref.report().hands == [{"Ana": 0, "Ben": 0, "Cal": 16}]


def test_match_only_in_setup_or_straight_after_a_discard() -> None:
    state = _state({"hands": [3]}, ["Ana", "Ben"])
    _deal(state, ["7S 7D 3C", "9H JH 2C"], "5D 6D")
    _play(state, "call draw")
    with pytest.raises(IllegalActionError):
        state.apply_text("0:match")          # between "draw" and "discard"
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "call", call="draw"))
    rulings = ref.feed(_ev(2, "match", "Ana", cards=["7S", "7D", "3C"]))
    assert rulings == [] and _kinds(ref.report()) == ["match_outside_window"]
    assert not ref.cadence().final_round


def test_failed_claim_is_void_free_by_default_and_the_seat_plays_on() -> None:
    state = _state({"hands": [3]}, ["Ana", "Ben"])
    _deal(state, ["7S 7D QC", "9H JH 2C"], "5D 3C")
    _play(state, "0:match")                               # fails: QC is an orphan
    assert not state.cadence().final_round and not state.public_view().seats[0].is_out
    _play(state, "call draw", "0:draw pile", "1:draw pool", "1:gets 2D",
          "0:hold QC", "1:hold 2D", "call discard", "0:match")   # Ana took 3C: now complete
    assert state.public_view().seats[0].is_out
    _play(state, "call draw", "1:draw pool", "1:gets 2H", "1:hold 2H", "call discard")
    assert state.scores == [[0, 21]], "a failed call costs nothing under the default"


def test_false_match_penalty_is_added_even_for_a_seat_that_goes_out_later() -> None:
    ref = _referee(["Ana", "Ben"], hands=[3], false_match_penalty=7)
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "3C"}))
    assert ref.feed(_ev(1, "match", "Ana", cards=["7S", "7D", "QC"]))[0].kind == "failed_match"
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "draw", "Ana", **{"from": "Ben", "card": "3C"}))
    ref.feed(_ev(3, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(4, "hold", "Ana"))
    ref.feed(_ev(4, "hold", "Ben"))
    ref.feed(_ev(5, "call", call="discard"))
    ref.feed(_ev(5.5, "discard", "Ana", card="QC"))
    ref.feed(_ev(5.5, "discard", "Ben", card="2D"))
    assert ref.feed(_ev(6, "match", "Ana", cards=["7S", "7D", "3C"]))[0].kind == "match"
    ref.feed(_ev(7, "call", call="draw"))
    ref.feed(_ev(8, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(8.5, "hold", "Ben"))
    ref.feed(_ev(9, "call", call="discard"))
    ref.feed(_ev(9.5, "discard", "Ben", card="2H"))
    ref.feed(_ev(10, "show", "Ben", cards=["9H", "JH", "2C"]))
    assert ref.report().hands == [{"Ana": 7, "Ben": 21}]


# -- §6.3: the final round --------------------------------------------------------------

def test_no_match_window_and_no_further_round_after_the_final_round() -> None:
    ref = _referee(["Ana", "Ben", "Cal"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D", "Cal": "4S"}))
    ref.feed(_ev(1, "match", "Ana", cards=["7S", "7D", "3C"]))
    ref.feed(_ev(2, "call", call="draw"))
    for s in ("Ben", "Cal"):
        ref.feed(_ev(3, "draw", s, **{"from": "pool"}))
    for s in ("Ben", "Cal"):
        ref.feed(_ev(3.5, "hold", s))
    ref.feed(_ev(4, "call", call="discard"))
    ref.feed(_ev(4.5, "discard", "Ben", card="KS"))
    cadence = ref.cadence()
    assert not cadence.match_window_open and not cadence.may_call_draw
    ref.feed(_ev(5, "match", "Ben", cards=["8S", "8D", "3D"]))
    ref.feed(_ev(6, "call", call="draw"))       # Cal's discard was never seen turned up
    kinds = _kinds(ref.report())
    assert kinds == ["match_outside_window", "early_call", "no_discard"]
    assert not ref.report().rulings[-1].kind == "call"
    ref.feed(_ev(7, "show", "Ben", cards=["8S", "8D", "3D"]))
    ref.feed(_ev(7, "show", "Cal", cards=["9H", "JH", "2C"]))
    assert ref.report().hands == [{"Ana": 0, "Ben": 0, "Cal": 21}]


def test_a_hand_where_every_seat_matched_is_scored_at_the_final_discard() -> None:
    state = _state({"hands": [3]}, ["Ana", "Ben"])
    _deal(state, ["7S 7D 3C", "3H 3S KD"], "5D 6D")
    _play(state, "0:match", "1:match", "call draw", "call discard")
    assert state.is_terminal() and state.scores == [[0, 0]]
    ref = state.game.referee()
    ref.feed_all(table_log(state.game, state.history()))
    report = ref.report()
    assert report.hands == [{"Ana": 0, "Ben": 0}] and report.finished
    assert report.winners == ["Ana", "Ben"] and report.infractions == []


def test_matcher_plays_final_round_scores_a_matcher_who_breaks_the_hand() -> None:
    state = _state({"hands": [4], "matcher_plays_final_round": True}, ["Ana", "Ben", "Cal", "Dee"])
    _deal(state, ["9S 9D 4H JC", "6H 7H KS 3D", "AC AD AS QH", "5S 5H 8C 8D"], "2S 10C 7D 9H")
    _play(state, "call draw", "0:draw pile", "1:draw pool", "1:gets 8H", "2:draw pile", "3:draw pile",
          "0:hold JC", "1:hold KS", "2:hold 10C", "3:hold 7D", "call discard", "0:match", "call draw")
    _play(state, "0:draw pool", "0:gets 2C", "0:hold 9S", "1:draw pool", "1:gets 4S", "2:draw pool",
          "2:gets 2H", "3:draw pool", "3:gets JD", "1:hold 3D", "2:hold QH", "3:hold JD", "call discard")
    assert state.scores == [[2, 0, 2, 26]]
    ref = state.game.referee()
    ref.feed_all(table_log(state.game, state.history()))
    assert ref.report().hands == [{"Ana": 2, "Ben": 0, "Cal": 2, "Dee": 26}]


def test_a_matched_seat_does_not_draw_in_the_final_round() -> None:
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "match", "Ana", cards=["7S", "7D", "3C"]))
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "draw", "Ana", **{"from": "pool"}))
    assert _kinds(ref.report()) == ["not_in_round"]
    assert ref.cadence().waiting_to_draw == (1,)


# -- §7, §8: scoring and the end of the game ----------------------------------------------

def test_referee_scores_the_best_arrangement_not_the_one_laid_out() -> None:
    ref = _referee(["Ana", "Ben"], hands=[6])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "match", "Ana", sets=[["3H", "3S", "3D", "3C"]], orphans=["2H", "4H"]))
    assert ref.report().rulings[-1].kind == "match", "example 5: the referee finds 3 + 3"


def _tie_game(tie_break: str) -> RefereeReport:
    ref = _referee(["Ana", "Ben", "Cal"], hands=[3, 4], tie_break=tie_break)

    def hand(t: float, piles: dict[str, str], matcher: str, cards: list[str],
             shows: dict[str, list[str]]) -> None:
        ref.feed(_ev(t, "hand_start", piles=piles))
        ref.feed(_ev(t + 1, "match", matcher, cards=cards))
        ref.feed(_ev(t + 2, "call", call="draw"))
        for s in shows:
            ref.feed(_ev(t + 3, "draw", s, **{"from": "pool"}))
        for s in shows:
            ref.feed(_ev(t + 3.5, "hold", s))
        ref.feed(_ev(t + 4, "call", call="discard"))
        for s in shows:
            ref.feed(_ev(t + 4.5, "discard", s, card="10D"))
        for s, c in shows.items():
            ref.feed(_ev(t + 5, "show", s, cards=c))

    piles = {"Ana": "5D", "Ben": "6D", "Cal": "7C"}
    hand(0, piles, "Cal", ["7S", "7D", "3C"], {"Ana": ["AS", "2D", "2C"], "Ben": ["AH", "5D", "5C"]})
    hand(10, piles, "Ben", ["9S", "9D", "9H", "4H"],
         {"Ana": ["AS", "AD", "2C", "2H"], "Cal": ["KS", "KH", "QD", "JC"]})
    return ref.report()


def test_lowest_total_wins_and_a_tie_is_shared_by_default() -> None:
    report = _tie_game("shared")
    assert report.hands == [{"Ana": 5, "Ben": 11, "Cal": 0}, {"Ana": 6, "Ben": 0, "Cal": 40}]
    assert report.totals == {"Ana": 11, "Ben": 11, "Cal": 40}
    assert report.finished and report.winners == ["Ana", "Ben"]


def test_tie_break_last_hand_prefers_the_lower_last_hand() -> None:
    assert _tie_game("last_hand").winners == ["Ben"]


# -- §10: the variant options and their defaults -------------------------------------------

def test_option_defaults_are_the_specs() -> None:
    assert options_to_dict(RummyOptions()) == {
        "decks": 4,
        "hands": list(range(3, 14)),
        "face_card_points": "10",
        "max_wilds_per_set": None,
        "start_pile_each_hand": True,
        "matcher_plays_final_round": False,
        "scoring_mode": "optimal",
        "false_match_penalty": 0,
        "pool_empty": "reform_from_piles",
        "caller": "human",
        "tie_break": "shared",
    }


def test_options_may_be_spelled_as_the_spec_writes_them() -> None:
    game = Rummy313Game({"face_card_points": 10, "max_wilds_per_set": "unlimited", "hands": "3..13"})
    assert game.options == RummyOptions()
    with pytest.raises(InvalidActionError, match="'3..13'"):
        Rummy313Game({"hands": "three to thirteen"})


def test_max_wilds_per_set_caps_the_wild_cards_standing_in_for_others() -> None:
    for cap, kind in ((None, "match"), (2, "match"), (1, "failed_match")):
        ref = _referee(["Ana", "Ben"], hands=[4], max_wilds_per_set=cap)
        ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
        # 5-6 of clubs and two wild 4s standing for 7C and 8C: two free wild cards in one set.
        assert ref.feed(_ev(1, "match", "Ana", cards=["5C", "6C", "4D", "4H"]))[0].kind == kind


def test_a_match_must_lay_out_a_card_seen_taken_from_a_pile() -> None:
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "3C"}))
    ref.feed(_ev(1, "call", call="draw"))
    ref.feed(_ev(2, "draw", "Ana", **{"from": "Ben", "card": "3C"}))
    ref.feed(_ev(2, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(3, "hold", "Ana"))
    ref.feed(_ev(3, "hold", "Ben"))
    ref.feed(_ev(4, "call", call="discard"))
    ref.feed(_ev(4.5, "discard", "Ana", card="QC"))
    ref.feed(_ev(4.5, "discard", "Ben", card="2D"))
    ref.feed(_ev(5, "match", "Ana", cards=["7S", "7D", "7H"]))
    rep = ref.report()
    assert _kinds(rep) == ["missing_card"] and "3C" in rep.infractions[0].text


# -- §6.2: the pool running out ---------------------------------------------------------

def _run_pool_down(ref: RummyReferee, rounds: int) -> list[str]:
    """Three seats, one deck, 13 cards each: 10 cards in the pool, everyone draws from it."""
    ref.feed(_ev(0, "hand_start", piles={"P1": "2C", "P2": "3C", "P3": "4C"}))
    texts: list[str] = []
    for r in range(rounds):
        t = 1.0 + r
        texts += [x.text for x in ref.feed(_ev(t, "call", call="draw"))]
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.1, "draw", s, **{"from": "pool"}))
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.2, "hold", s))
        ref.feed(_ev(t + 0.3, "call", call="discard"))
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.4, "discard", s, card="5D"))
    return texts


def test_pool_is_reformed_from_the_discards_under_each_piles_top() -> None:
    ref = _referee(["P1", "P2", "P3"], hands=[13], decks=1)
    texts = _run_pool_down(ref, 3)
    assert not any("pool" in t for t in texts)
    rulings = ref.feed(_ev(10, "call", call="draw"))
    # 10 - 9 = 1 card left; each pile holds its start card and 3 discards: 3 under each top.
    assert [r.kind for r in rulings] == ["pool_reform", "call"]
    assert "gather the 9 discards" in rulings[0].text
    assert ref.cadence().waiting_to_draw == (0, 1, 2)


def test_pool_empty_end_hand_scores_the_hand_as_it_stands() -> None:
    ref = _referee(["P1", "P2", "P3"], hands=[13], decks=1, pool_empty="end_hand")
    _run_pool_down(ref, 3)
    rulings = ref.feed(_ev(10, "call", call="draw"))
    assert [r.kind for r in rulings] == ["pool_empty"]
    hands = {"P1": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",    # one 13-card run: 0
             "P2": "AH AD 2H 2D 3H 3D 4H 4D 5H 5C 6H 6D 7H",     # A-7 hearts, A-4 diamonds: 5 + 6
             "P3": "8H 8D 9H 9D 10H 10D JH JD QH QD KH KD 7D"}
    for s, cards in hands.items():
        ref.feed(_ev(11, "show", s, cards=cards.split()))
    report = ref.report()
    # P3: Kings are wild (or themselves): 7-8-9-10-J-Q-K of diamonds and 8-9-10-J-Q-K of hearts.
    assert report.finished and report.hands == [{"P1": 0, "P2": 11, "P3": 0}]


def test_winners_follow_a_score_correction() -> None:
    state = _state({"hands": [3], "tie_break": "last_hand"}, ["Ana", "Ben"])
    _deal(state, ["7S 7D 3C", "9H JH 2C"], "5D 6D")
    _play(state, "0:match", "call draw", "1:draw pool", "1:gets 2D", "1:hold 2D", "call discard")
    ref = state.game.referee()
    ref.feed_all(table_log(state.game, state.history()))
    assert ref.report().winners == ["Ana"]
    ref.feed(_ev(100, "score_correction", "Ana", hand=1, score=50))
    report = ref.report()
    assert report.totals == {"Ana": 50, "Ben": 21} and report.winners == ["Ben"]


def test_taking_a_card_below_the_top_of_a_pile_is_an_infraction() -> None:
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "call", call="draw"))
    ref.feed(_ev(2, "draw", "Ana", **{"from": "pool"}))
    ref.feed(_ev(2, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(3, "hold", "Ana"))
    ref.feed(_ev(3, "hold", "Ben"))
    ref.feed(_ev(4, "call", call="discard"))
    ref.feed(_ev(4.5, "discard", "Ana", card="QC"))
    ref.feed(_ev(4.5, "discard", "Ben", card="KC"))
    ref.feed(_ev(5, "call", call="draw"))
    ref.feed(_ev(6, "draw", "Ben", **{"from": "Ana", "card": "5D"}))   # under Ana's QC
    rep = ref.report()
    assert _kinds(rep) == ["below_top"] and "5♦" in rep.infractions[0].text


# -- §7.1: the exact minimum beyond the brute-force test's 8 cards ------------------------

def test_scorer_is_exact_on_larger_hands_with_several_wild_cards() -> None:
    """Hands of 9 to 11 cards, 0 to 5 wild cards, few ranks and suits (so that sets
    compete for cards), every cap: the scorer equals the §7.1 subset search."""
    deck = multi_deck(4)
    rng = random.Random(1313)
    for _ in range(40):
        n = rng.randint(9, 11)
        wild = rng.randint(1, 13)
        wilds = rng.sample([c for c in deck if int(c.rank) == wild], rng.randint(0, 5))
        ranks = set(rng.sample([r for r in range(1, 14) if r != wild], rng.randint(3, 5)))
        suits = set(rng.sample(range(4), rng.randint(2, 3)))
        near = [c for c in deck if int(c.rank) in ranks and int(c.suit or 0) in suits]
        hand = wilds + rng.sample(near, n - len(wilds))
        cap = rng.choice([None, None, 0, 1, 2])
        fp = rng.choice(["10", "rank"])
        a = best_arrangement(hand, wild, max_wilds_per_set=cap, face_card_points=fp)
        assert a.penalty == brute_force_penalty(hand, wild, max_wilds=cap, face_card_points=fp), (
            f"{' '.join(map(str, hand))} wild={wild} cap={cap} points={fp}")
        assert sorted([c for m in a.melds for c in m.cards] + list(a.orphans)) == sorted(hand)
        assert all(valid(m.cards, wild, cap) for m in a.melds)


def test_a_matched_seat_does_not_discard_in_the_final_round() -> None:
    ref = _referee(["Ana", "Ben"], hands=[3])
    ref.feed(_ev(0, "hand_start", piles={"Ana": "5D", "Ben": "6D"}))
    ref.feed(_ev(1, "match", "Ana", cards=["7S", "7D", "3C"]))
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(3.5, "hold", "Ana"))
    ref.feed(_ev(3.5, "hold", "Ben"))
    ref.feed(_ev(4, "call", call="discard"))
    ref.feed(_ev(4.5, "discard", "Ana", card="7S"))
    ref.feed(_ev(4.5, "discard", "Ben", card="KS"))
    ref.feed(_ev(5, "show", "Ben", cards=["9H", "JH", "2C"]))
    report = ref.report()
    assert _kinds(report) == ["not_in_round", "not_in_round"]
    assert report.hands == [{"Ana": 0, "Ben": 21}]
