"""The strict Nerts state: dealing, moves M1-M11, resets and stalemates, scoring, the game end,
variant options, jokers in work piles, and the engine contract over seeded random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.base import CHANCE, SIMULTANEOUS, TERMINAL
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
from kiosk.games.nerts_layout import run_ok
from tests.games.conformance import check_determinism, play_random_game


def deal_with(game: NertsGame, prefixes: dict[int, str]) -> Deal:
    """A deal where each seat's deck starts with the given cards, the rest in a fixed order."""
    orders = []
    for s in range(game.num_seats):
        first = [c.in_deck(s) for c in parse_cards(prefixes.get(s, ""))]
        rest = list((Counter(seat_deck(s, game.options.jokers)) - Counter(first)).elements())
        rest.sort(key=seat_deck(s, game.options.jokers).index)
        orders.append(tuple(first + rest))
    return Deal(tuple(orders))


def dealt(prefixes: dict[int, str], seats: int = 2, **options: object) -> NertsState:
    game = NertsGame(dict(options), seats=seats)
    state = game.new_initial_state()
    state.apply_action(deal_with(game, prefixes))
    return state


# Nerts pile (13, last on top), then 4 work cards, then the stock from the top down.
NERTS_13 = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 5S"
WORK_4 = "9H 8S KD 4D"


def test_deal_builds_the_layout_of_section_4() -> None:
    state = dealt({0: NERTS_13 + " " + WORK_4 + " AS 2S 3S"})
    lay = state.layouts[0]
    assert len(lay.nerts) == 13 and lay.nerts[-1] == Card.parse("5S")
    assert [w[0] for w in lay.work] == parse_cards(WORK_4)
    assert len(lay.stock) == 35 and lay.stock[-1] == Card.parse("AS") and lay.waste == []
    assert state.current_player() == SIMULTANEOUS
    view = state.public_view()
    assert view.nerts_counts == (13, 13) and view.seats[0].nerts_top == Card.parse("5S")


def test_turn_puts_the_third_card_on_top_and_recycle_restores_the_order() -> None:
    state = dealt({0: NERTS_13 + " " + WORK_4 + " AS 2S 3S 4S"})
    order = list(state.layouts[0].stock)
    state.apply_action(Turn(0))
    assert state.layouts[0].waste[-1] == Card.parse("3S")
    for _ in range(11):
        state.apply_action(Turn(0))
    lay = state.layouts[0]
    assert lay.stock == [] and len(lay.waste) == 35
    assert Turn(0) not in state.legal_actions(0) and Recycle(0) in state.legal_actions(0)
    state.apply_action(Recycle(0))
    assert state.layouts[0].stock == order


def test_short_stock_turns_the_remainder_or_recycles_at_once() -> None:
    for mode, expected_stock in (("turn_remainder", 0), ("recycle_immediately", 35)):
        state = dealt({}, short_stock=mode)
        for _ in range(12):
            state.apply_action(Turn(0))
        assert len(state.layouts[0].stock) == expected_stock, mode


def test_foundation_plays_and_a_new_pile_per_ace() -> None:
    state = dealt({0: NERTS_13[:-2] + "AH " + WORK_4, 1: NERTS_13[:-2] + "AH " + WORK_4})
    ace0, ace1 = Card.parse("AH"), Card.parse("AH@1")
    state.apply_action(Play(0, ace0, "N", None))
    state.apply_action(Play(1, ace1, "N", None))
    assert [p.cards for p in state.foundations] == [[ace0], [ace1]]
    assert state.public_view().foundation_counts == (1, 1)
    with pytest.raises(IllegalActionError, match="illegal action: '0:KC N>F1'"):
        state.apply_action(Play(0, Card.parse("KC"), "N", 1))


def test_build_and_move_blocks() -> None:
    state = dealt({0: "2C 3C 4C 5C 6C 8C 9C 10C JC QC KC AC 7C 8H 9S 10D 6D"})
    seven = Card.parse("7C")
    assert Build(0, seven, "N", 1) in state.legal_actions(0)
    state.apply_action(Build(0, seven, "N", 1))
    assert state.layouts[0].work[0] == parse_cards("8H 7C")
    block = MoveBlock(0, Card.parse("8H"), 1, 0, 2)
    assert block in state.legal_actions(0)
    state.apply_action(block)
    assert state.layouts[0].work[1] == parse_cards("9S 8H 7C") and state.layouts[0].work[0] == []
    state.apply_action(MoveBlock(0, Card.parse("9S"), 2, 0, 3))
    assert state.layouts[0].work[2] == parse_cards("10D 9S 8H 7C")
    # M6: any block, a whole pile included, may move onto an empty work pile.
    assert MoveBlock(0, Card.parse("10D"), 3, 0, 1) in state.legal_actions(0)
    assert Build(0, Card.parse("AC"), "N", 1) in state.legal_actions(0)


def test_slide_under_puts_the_card_below_the_base() -> None:
    prefix = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JD 10S 2H 3H 4H"
    state = dealt({0: prefix})
    slide = SlideUnder(0, Card.parse("JD"), "N", 1)
    assert slide in state.legal_actions(0)
    state.apply_action(slide)
    assert state.layouts[0].work[0] == parse_cards("JD 10S")
    assert slide not in dealt({0: prefix}, allow_slide_under=False).legal_actions(0)


def test_partial_blocks_move_only_with_move_partial_runs() -> None:
    prefix = "2C 3C 4C 5C 6C 8C 9C 10C JC QC KC 7C 8H 9S 10D 6D 2H"
    for partial in (True, False):
        state = dealt({0: prefix}, move_partial_runs=partial)
        state.apply_action(Build(0, Card.parse("8H"), "N", 1))
        state.apply_action(Build(0, Card.parse("7C"), "N", 1))
        whole = MoveBlock(0, Card.parse("9S"), 1, 0, 2)
        assert whole in state.legal_actions(0)
        state.apply_action(whole)
        part = MoveBlock(0, Card.parse("8H"), 2, 2, 1)
        assert (part in state.legal_actions(0)) is partial
        if not partial:
            with pytest.raises(IllegalActionError):
                state.apply_action(part)


def test_aces_compulsory_and_must_fill_from_nerts() -> None:
    state = dealt({0: NERTS_13[:-2] + "AH " + WORK_4}, aces_compulsory=True)
    assert state.legal_actions(0) == [Play(0, Card.parse("AH"), "N", None), Stuck(0)]
    fill = dealt({0: NERTS_13 + " 9H 8S KD AS"}, must_fill_from_nerts=True)
    fill.apply_action(Play(0, Card.parse("AS"), "4", None))
    assert fill.legal_actions(0) == [Build(0, Card.parse("5S"), "N", 4), Stuck(0)]


def test_jokers_in_work_piles_take_their_neighbours_rank() -> None:
    joker = Card.joker()
    assert run_ok([Card.parse("9S"), joker, Card.parse("7C")]) is True  # the joker is a red 8
    assert run_ok([Card.parse("9S"), joker, Card.parse("7H")]) is False
    assert run_ok([joker, Card.parse("KS")]) is False  # nothing ranks above a King
    state = dealt({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JOKER 9S 2H 3H 4H"}, jokers=2)
    state.apply_action(Build(0, joker, "N", 1))
    # On 9♠ the joker is a red 8: it cannot be declared an Ace to start a foundation.
    assert [a for a in state.legal_actions(0) if isinstance(a, Play) and a.source == "1"] == []
    assert Build(0, Card.parse("7C"), "N", 1) not in state.legal_actions(0)  # 7♣ is not the Nerts top
    assert [a for a in state.legal_actions(0) if isinstance(a, Build) and a.work == 1] == []


def test_a_joker_on_a_foundation_must_be_declared_legally() -> None:
    state = dealt({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC JOKER 9S 2H 3H 4H"}, jokers=2)
    joker = Card.joker()
    legal = [a for a in state.legal_actions(0) if isinstance(a, Play) and a.card == joker]
    assert {a.declared for a in legal} == set(parse_cards("AC AD AH AS"))
    state.apply_action(Play(0, joker, "N", None, Card.parse("AH")))
    assert state.foundations[0].faces == [Card.parse("AH")]
    assert state.public_view().foundation_counts == (1, 0)
    assert state.public_view().foundations[0].top == Card.parse("AH")


def test_stuck_reset_and_stalemate_end_the_hand() -> None:
    state = dealt({}, seats=2)
    state.apply_action(Turn(0))
    waste = list(state.layouts[0].waste)
    state.apply_action(Stuck(0))
    assert Rotate(0) in state.legal_actions(0) and Stuck(0) not in state.legal_actions(0)
    state.apply_action(Stuck(1))  # all stuck: reset 1
    lay = state.layouts[0]
    assert state.resets == 1 and not lay.stuck and lay.waste == []
    assert lay.stock[0] == waste[0]  # the top after the reset went to the bottom
    assert lay.stock[-1] == waste[1]
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))  # all stuck again, no progress: stalemate
    assert state.current_player() == CHANCE and state.hand_scores == [[-26, -26]]
    assert state.public_view().last_end == "stalemate"


def test_progress_after_a_reset_earns_another_reset() -> None:
    state = dealt({0: NERTS_13[:-2] + "AH " + WORK_4}, seats=2)
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))
    state.apply_action(Play(0, Card.parse("AH"), "N", None))
    state.apply_action(Stuck(0))
    state.apply_action(Stuck(1))
    assert state.resets == 2 and state.current_player() == SIMULTANEOUS


def test_call_needs_an_empty_nerts_pile_and_scores_the_hand() -> None:
    state = dealt({}, nerts_pile_size=1, seats=2)
    assert Call(0) not in state.legal_actions(0)
    state.apply_action(Play(0, Card.parse("AC"), "N", None))
    assert Call(0) in state.legal_actions(0) and Call(1) not in state.legal_actions(1)
    state.apply_action(Call(0))
    assert state.hand_scores == [[1, -2]] and state.current_player() == CHANCE
    assert state.public_view().last_end == "P1 called"


def test_the_game_ends_at_the_target_and_a_tie_plays_on() -> None:
    game = NertsGame({"target_score": 1, "nerts_pile_size": 1}, seats=2)
    state = game.new_initial_state()
    state.apply_action(deal_with(game, {0: "AH", 1: "AH"}))
    state.apply_action(Play(0, Card.parse("AH"), "N", None))
    state.apply_action(Play(1, Card.parse("AH@1"), "N", None))
    state.apply_action(Call(0))
    assert state.totals == [1, 1] and state.current_player() == CHANCE  # tied at the target: play on
    state.apply_action(deal_with(game, {0: "AS", 1: "2D"}))
    state.apply_action(Play(0, Card.parse("AS"), "N", None))
    state.apply_action(Call(0))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [2, -1] and state.public_view().winners == (game.seats[0],)
    assert state.legal_actions() == []


def test_shared_tie_break_ends_with_both_winners() -> None:
    game = NertsGame({"target_score": 1, "nerts_pile_size": 1, "tie_break": "shared"}, seats=2)
    state = game.new_initial_state()
    state.apply_action(deal_with(game, {0: "AH", 1: "AH"}))
    state.apply_action(Play(0, Card.parse("AH"), "N", None))
    state.apply_action(Play(1, Card.parse("AH@1"), "N", None))
    state.apply_action(Call(1))
    assert state.is_terminal() and state.winners == [0, 1]


def test_bad_deals_and_bad_notation() -> None:
    state = NertsGame(seats=2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal((tuple(seat_deck(0, 0)), tuple(seat_deck(0, 0)))))
    with pytest.raises(InvalidActionError, match="no seat 7"):
        state.parse_action("7:turn")
    with pytest.raises(InvalidActionError, match="belongs to deck 1"):
        state.parse_action("0:5H@1 W>F2")
    with pytest.raises(InvalidActionError, match="no work pile 9"):
        state.parse_action("0:5H W>9")
    with pytest.raises(InvalidActionError, match="expected 'SEAT:MOVE'"):
        state.parse_action("turn")
    with pytest.raises(InvalidActionError, match="option 'work_piles' must be at least 1"):
        NertsGame({"work_piles": 0})
    with pytest.raises(InvalidActionError, match="must be one of"):
        NertsGame({"tie_policy": "coin_flip"})


def test_deal_notation_round_trips() -> None:
    game = NertsGame(seats=3)
    state = game.new_initial_state()
    deal = state.sample_chance(5)
    assert state.parse_action(str(deal)) == deal


# -- the contract over seeded random play --------------------------------------------------------

@pytest.mark.parametrize("seed", [11, 12])
def test_random_play_keeps_the_contract(seed: int) -> None:
    play_random_game(NertsGame(seats=4), seed, max_steps=600)


@pytest.mark.parametrize("options", [
    {"jokers": 2},
    {"stock_turn_count": 1, "move_partial_runs": False},
    {"aces_compulsory": True, "must_fill_from_nerts": True, "work_piles": 3},
])
def test_random_play_keeps_the_contract_with_variants(options: dict[str, object]) -> None:
    play_random_game(NertsGame(options, seats=3), 5, max_steps=400)


def test_every_card_is_in_exactly_one_place_after_every_step() -> None:
    game = NertsGame({"jokers": 2}, seats=3)
    full = Counter(c for s in range(3) for c in seat_deck(s, 2))
    rng = random.Random(3)
    state = game.new_initial_state()
    hands = 0
    for _ in range(2500):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            hands += 1
        else:
            legal = state.legal_actions()
            # Lean towards declaring stuck so that hands finish and new deals are checked too.
            stuck = [a for a in legal if isinstance(a, Stuck)]
            state.apply_action(rng.choice(stuck if stuck and rng.random() < 0.05 else legal))
        assert Counter(state.all_cards()) == full
    assert hands >= 2


def test_seeded_play_is_deterministic() -> None:
    check_determinism(NertsGame(seats=4), 21, max_steps=300)


def test_undo_restores_and_replay_rebuilds() -> None:
    state = dealt({}, seats=2)
    rng = random.Random(9)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.notation()
    action = rng.choice(state.legal_actions())
    state.apply_action(action)
    assert state.undo() == action and state.notation() == before
    assert NertsState.replay(state.game, state.history()) == state


@st.composite
def actions(draw: st.DrawFn) -> object:
    seat = draw(st.integers(0, 3))
    face = draw(st.sampled_from(seat_deck(0, 2)))
    card = face.in_deck(seat)
    src = draw(st.sampled_from(["N", "W", "1", "2", "3", "4"]))
    work = draw(st.integers(1, 4))
    kind = draw(st.integers(0, 8))
    if kind == 0:
        decl = draw(st.sampled_from(seat_deck(0, 0))) if card.is_joker else None
        return Play(seat, card, src, draw(st.none() | st.integers(1, 30)), decl)
    if kind == 1:
        return Build(seat, card, draw(st.sampled_from(["N", "W"])), work)
    if kind == 2:
        return SlideUnder(seat, card, draw(st.sampled_from(["N", "W"])), work)
    if kind == 3:
        return MoveBlock(seat, card, work, draw(st.integers(0, 12)), draw(st.integers(1, 4)))
    return (Turn, Recycle, Stuck, Rotate, Call)[kind - 4](seat)


@settings(max_examples=300, deadline=None)
@given(actions())
def test_action_notation_round_trips(action: object) -> None:
    state = NertsGame({"jokers": 2}, seats=4).new_initial_state()
    assert state.parse_action(str(action)) == action


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123:NWFu+.>= JOKERASHCD1023456789", max_size=16))
def test_any_text_parses_to_a_round_tripping_action_or_raises_invalid(text: str) -> None:
    state = NertsGame({"jokers": 2}, seats=4).new_initial_state()
    try:
        action = state.parse_action(text)
    except InvalidActionError:
        return
    assert state.parse_action(str(action)) == action


def test_fast_move_generator_agrees_with_the_general_one() -> None:
    from kiosk.games.nerts_layout import seat_actions
    from kiosk.games.nerts_options import NertsOptions

    rng = random.Random(4)
    for partial in (True, False):
        plain = NertsOptions(move_partial_runs=partial)
        general = NertsOptions(move_partial_runs=partial, jokers=2)  # forces the joker-aware path
        state = NertsGame(plain, seats=3).new_initial_state()
        checked = 0
        for _ in range(1500):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            for lay in state.layouts:
                assert seat_actions(lay, state.foundations, plain) == \
                    seat_actions(lay, state.foundations, general)
                checked += 1
            legal = state.legal_actions()
            moves = [a for a in legal if not isinstance(a, (Stuck, Turn, Recycle))]
            state.apply_action(rng.choice(moves if moves and rng.random() < 0.7 else legal))
        assert checked > 1000
