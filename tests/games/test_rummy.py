"""3-13 Speed engine (strict path): worked examples, cadence, the pool, options, conformance."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.base import CHANCE, SIMULTANEOUS
from kiosk.games.cards import Card, multi_deck, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.rummy import Rummy313Game, RummyState, winners
from kiosk.games.rummy_actions import (
    Call,
    Deal,
    DrawPile,
    DrawPool,
    Hold,
    Match,
    PoolCard,
    RummyAction,
    parse_action,
)
from kiosk.games.rummy_bots import play_bot_game
from tests.games.conformance import play_random_game

SEATS = ["Ana", "Ben", "Cal", "Dee"]
ANA, BEN, CAL, DEE = range(4)


def _deal(state: RummyState, hands: list[str], piles: str) -> None:
    state.apply_action(Deal(tuple(tuple(parse_cards(h)) for h in hands), tuple(parse_cards(piles))))


def _play(state: RummyState, *texts: str) -> None:
    for t in texts:
        state.apply_text(t)


def _example_12(**options: object) -> RummyState:
    """Hand 2 of rummy_3_13.md example 12, up to Ana's match."""
    state = Rummy313Game({"hands": [4], **options}, seats=SEATS).new_initial_state()
    _deal(state, ["9S 9D 4H JC", "6H 7H KS 3D", "AC AD AS QH", "5S 5H 8C 8D"], "2S 10C 7D 9H")
    assert state.cadence().match_window_open and state.cadence().may_call_draw
    _play(state, "call draw", "0:draw pile", "1:draw pool", "1:gets 8H", "2:draw pile", "3:draw pile",
          "0:hold JC", "1:hold KS", "2:hold 10C", "3:hold 7D", "call discard")
    return state


def test_example_12_whole_hand() -> None:
    state = _example_12()
    view = state.public_view()
    assert [s.pile_top for s in view.seats] == parse_cards("JC KS 10C 7D")
    assert [str(c) for c in state.cur.hands[BEN]] == ["3D", "6H", "7H", "8H"]  # type: ignore[union-attr]
    _play(state, "0:match")
    assert state.public_view().seats[ANA].is_out
    assert state.cadence().final_round
    _play(state, "call draw")
    assert state.cadence().waiting_to_draw == (BEN, CAL, DEE), "Ana is out and does not draw"
    _play(state, "1:draw pool", "1:gets 4S", "2:draw pool", "2:gets 2H", "3:draw pool", "3:gets JD",
          "1:hold 3D", "2:hold QH", "3:hold JD", "call discard")
    assert state.is_terminal()
    assert state.scores == [[0, 0, 2, 26]]
    cal = state.public_view().seats[CAL].shown
    assert cal is not None and [str(c) for c in cal.orphans] == ["2H"]
    assert state.winners() == [ANA, BEN]


def test_example_13_tie_break() -> None:
    totals, last = [87, 64, 64, 120], [3, 0, 12, 30]
    assert winners(totals, last, "shared") == [BEN, CAL]
    assert winners(totals, last, "last_hand") == [BEN]
    assert winners([10, 10], [4, 4], "last_hand") == [0, 1]


def test_setup_match_goes_straight_to_the_final_round() -> None:
    state = Rummy313Game({"hands": [3]}, seats=SEATS).new_initial_state()
    _deal(state, ["7S 7D QC", "3H 3S KD", "9H JH 2C", "AS AH 6C"], "5C JD 8H 2D")
    _play(state, "1:match", "call draw")
    assert state.cadence().final_round and state.cadence().waiting_to_draw == (ANA, CAL, DEE)
    with pytest.raises(IllegalActionError):
        state.apply_text("1:draw pool")
    _play(state, "0:draw pool", "0:gets 3C", "2:draw pool", "2:gets 5S", "3:draw pile",
          "0:hold QC", "2:hold 5S", "3:hold 8H", "call discard")
    assert state.scores == [[0, 0, 21, 8]]


def test_failed_match_is_void_and_costs_the_penalty() -> None:
    state = Rummy313Game({"hands": [3], "false_match_penalty": 5}, seats=SEATS).new_initial_state()
    _deal(state, ["7S 7D QC", "9S 3S KD", "9H JH 2C", "AS AH 6C"], "5C JD 8H 2D")
    _play(state, "3:match")
    assert not state.cadence().final_round and not state.public_view().seats[DEE].is_out
    with pytest.raises(IllegalActionError):
        state.apply_text("3:match")   # one call per window
    _play(state, "call draw")
    assert not state.cadence().final_round
    assert state.cur is not None and state.cur.penalties[DEE] == 5


def test_cadence_tracks_who_holds_the_table_up() -> None:
    state = Rummy313Game({"hands": [4]}, seats=SEATS).new_initial_state()
    _deal(state, ["9S 9D 4H JC", "6H 7H KS 3D", "AC AD AS QH", "5S 5H 8C 8D"], "2S 10C 7D 9H")
    _play(state, "call draw")
    c = state.cadence()
    assert (c.waiting_to_draw, c.waiting_to_hold, c.may_call_discard) == ((0, 1, 2, 3), (), False)
    assert Call("discard") not in state.legal_actions()
    _play(state, "0:draw pile", "1:draw pool")
    assert state.current_player() == CHANCE
    _play(state, "1:gets 8H")
    assert state.current_player() == SIMULTANEOUS
    c = state.cadence()
    assert (c.waiting_to_draw, c.waiting_to_hold) == ((2, 3), (0, 1))
    _play(state, "2:draw pile", "3:draw pile", "0:hold JC", "1:hold KS", "2:hold 10C")
    assert state.cadence().waiting_to_hold == (3,) and not state.cadence().may_call_discard
    _play(state, "3:hold 7D")
    assert state.cadence().may_call_discard
    assert state.public_view().seats[DEE].is_holding


def test_draw_is_only_from_the_right_hand_neighbour_and_once() -> None:
    state = _example_12()
    _play(state, "call draw", "0:draw pool", "0:gets 5D")
    with pytest.raises(IllegalActionError):
        state.apply_action(DrawPile(ANA))
    with pytest.raises(IllegalActionError):
        state.apply_action(Hold(1, Card.parse("9S")))   # Ben has not drawn and holds no 9S


def test_pool_is_reformed_from_the_piles_when_it_runs_low() -> None:
    game = Rummy313Game({"hands": [13], "decks": 1}, seats=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply_action(state.sample_chance(rng))
    assert state.public_view().pool_size == 52 - 3 * 14
    for _ in range(3):
        _play(state, "call draw")
        for p in range(3):
            state.apply_action(DrawPool(p))
            state.apply_action(state.sample_chance(rng))
            state.apply_action(Hold(p, state.cur.hands[p][0]))  # type: ignore[union-attr]
        _play(state, "call discard")
    assert state.public_view().pool_size == 1
    piles_before = sum(v.pile_size for v in state.public_view().seats)
    _play(state, "call draw")
    view = state.public_view()
    assert view.pool_size == 1 + piles_before - 3
    assert all(v.pile_size == 1 for v in view.seats)


def test_pool_running_out_ends_the_hand_under_end_hand() -> None:
    game = Rummy313Game({"hands": [13], "decks": 1, "pool_empty": "end_hand"}, seats=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply_action(state.sample_chance(rng))
    for _ in range(3):
        _play(state, "call draw")
        for p in range(3):
            state.apply_action(DrawPool(p))
            state.apply_action(state.sample_chance(rng))
            state.apply_action(Hold(p, state.cur.hands[p][0]))  # type: ignore[union-attr]
        _play(state, "call discard")
    _play(state, "call draw")
    assert state.is_terminal() and len(state.scores) == 1


def test_matcher_plays_final_round_option() -> None:
    state = _example_12(matcher_plays_final_round=True)
    _play(state, "0:match", "call draw")
    assert ANA in state.cadence().waiting_to_draw
    _play(state, "0:draw pool", "0:gets 2C", "0:hold 2C", "1:draw pool", "1:gets 4S", "2:draw pool",
          "2:gets 2H", "3:draw pool", "3:gets JD", "1:hold 3D", "2:hold QH", "3:hold JD", "call discard")
    assert state.scores == [[0, 0, 2, 26]]


def test_options_are_checked_with_clear_messages() -> None:
    with pytest.raises(InvalidActionError, match="increasing sizes"):
        Rummy313Game({"hands": [3, 3]})
    with pytest.raises(InvalidActionError, match="add a deck"):
        Rummy313Game(seats=15)
    with pytest.raises(InvalidActionError, match="max_wilds_per_set"):
        Rummy313Game({"max_wilds_per_set": -1})
    with pytest.raises(InvalidActionError, match="no option"):
        Rummy313Game({"wilds": 2})
    Rummy313Game(seats=12)
    Rummy313Game({"decks": 5}, seats=14)


def test_bad_action_text_is_rejected() -> None:
    for bad in ["", "call dance", "9:draw pool", "1:hold", "1:hold XX", "1:fly", "deal 7S | 8S"]:
        with pytest.raises(InvalidActionError):
            parse_action(bad, 4)


_cards = st.sampled_from(multi_deck(4))
_actions = st.one_of(
    st.builds(DrawPool, st.integers(0, 11)),
    st.builds(DrawPile, st.integers(0, 11)),
    st.builds(Match, st.integers(0, 11)),
    st.builds(Hold, st.integers(0, 11), _cards),
    st.builds(PoolCard, st.integers(0, 11), _cards),
    st.builds(Call, st.sampled_from(["draw", "discard"])),
    st.builds(Deal, st.lists(st.lists(_cards, min_size=3, max_size=13).map(tuple), min_size=12,
                             max_size=12).map(tuple),
              st.one_of(st.just(()), st.lists(_cards, min_size=12, max_size=12).map(tuple))),
)


@given(_actions)
def test_action_notation_round_trips(action: RummyAction) -> None:
    assert parse_action(str(action), 12) == action


def _conserved(state: object) -> bool:
    assert isinstance(state, RummyState)
    h = state.cur
    if h is None:
        return True
    held = [c for c in h.held if c is not None]
    everything = h.pool + held + [c for x in h.hands for c in x] + [c for x in h.piles for c in x]
    return Counter(everything) == Counter(state.deck)


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [
        (2, {}, 11),
        (5, {"matcher_plays_final_round": True, "false_match_penalty": 3}, 12),
        (3, {"start_pile_each_hand": False, "pool_empty": "end_hand", "decks": 1}, 13),
        (12, {"max_wilds_per_set": 1, "face_card_points": "rank"}, 14),
    ],
)
def test_random_play_keeps_the_contract_and_conserves_cards(seats: int, options: dict[str, object],
                                                            seed: int) -> None:
    game = Rummy313Game(options, seats=seats)
    state = play_random_game(game, seed, max_steps=500)
    assert _conserved(state)
    replay = RummyState.replay(game, state.history())
    for n in range(0, len(state.history()), 37):
        partial = RummyState.replay(game, state.history()[:n])
        assert _conserved(partial)
    assert replay == state


@pytest.mark.parametrize("seats", [2, 4, 12])
def test_bot_games_finish_with_every_hand_scored(seats: int) -> None:
    state = play_bot_game(Rummy313Game(seats=seats), seed=seats)
    assert state.is_terminal()
    assert len(state.scores) == 11
    assert state.returns() == [sum(r[p] for r in state.scores) for p in range(seats)]
    assert any(0 in row for row in state.scores), "someone matches in every hand"
    assert all(0 in row for row in state.scores)
    assert state.public_view().winners
