"""The Smear strict engine: conformance over seeded random play, notation, views, errors."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.base import CHANCE, TERMINAL
from kiosk.games.cards import Card
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.registry import make_game
from kiosk.games.smear import Bid, Deal, Discard, Pass, Phase, PlayCard, SmearGame, SmearState
from kiosk.games.smear_bots import HeuristicSmearBot, RandomSmearBot, SmearBot, play_bot_game
from kiosk.games.smear_rules import (
    SmearOptions,
    discard_fits_lead,
    discard_is_legal,
    legal_discards,
    smear_deck,
)
from tests.games.conformance import check_determinism, play_random_game
from tests.games.smear_fixtures import EX_13_1, EX_13_6

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"blind_cards": 3},
    {"blind_cards": 2, "follow_rule": "strict", "all_pass": "dealer_must_bid", "target_score": 7},
    {"blind_cards": 1, "trump_discard_rule": "only_if_over_six", "dealer_may_match": True,
     "all_pass": "redeal_next_dealer", "high_low_basis": "ace_and_seven_only", "target_score": 5},
    {"low_credit": "trick_winner", "jack_in_discard": "bidder_team", "win_requires_made_bid": True,
     "nonbidder_score_cap": 14, "both_reach_rule": "bidder_wins", "target_score": 6, "blind_cards": 3},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_play_keeps_the_contract(options: dict[str, Any]) -> None:
    play_random_game(SmearGame(options), seed=11, max_steps=500)


def test_registry_builds_smear() -> None:
    game = make_game("smear", {"blind_cards": 2}, seats=["Ana", "Ben", "Cal", "Dee"])
    assert isinstance(game, SmearGame) and game.options.blind_cards == 2


def test_seeded_play_is_deterministic() -> None:
    check_determinism(SmearGame({"blind_cards": 3}), 5, max_steps=300)


def _conserved(state: SmearState) -> bool:
    """The 32 cards are all somewhere: hands, blind (untaken), discards, tricks."""
    if state.phase in (Phase.DEAL, Phase.GAME_OVER):
        return True
    cards = [c for h in state.hands for c in h] + list(state.discards)
    taken = state.options.blind_cards if state.phase in (Phase.DISCARD, Phase.PLAY) else 0
    cards += list(state.blind[taken:])
    if state.tricks is not None:
        cards += [c for t in state.tricks.completed for c in t.cards] + list(state.tricks.current.cards)
    return Counter(cards) == Counter(smear_deck())


@pytest.mark.parametrize("options", OPTION_SETS[:3])
def test_cards_are_conserved_and_games_end(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    bots: list[SmearBot] = [HeuristicSmearBot(rng), RandomSmearBot(rng)] * 2
    state = SmearGame(options).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            assert state.legal_actions()
            state.apply_action(bots[state.current_player()].choose(state))
        assert _conserved(state), state.notation()
        assert all(len(h) <= 9 for h in state.hands)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.winner is not None
    assert state.returns()[state.winner] >= state.options.target_score or state.options.nonbidder_score_cap


def test_every_hand_awards_two_to_four_points_under_the_defaults() -> None:
    state = play_bot_game(SmearGame({"blind_cards": 2}), [HeuristicSmearBot(s) for s in range(4)], seed=9)
    assert state.is_terminal() and state.results
    for hand in state.results:
        assert 2 <= sum(hand.points) <= 4
        assert sum(hand.card_points) <= 80


def test_heuristic_bots_beat_random_bots() -> None:
    wins = [0, 0]
    for seed in range(12):
        bots: list[SmearBot] = [HeuristicSmearBot(seed), RandomSmearBot(seed), HeuristicSmearBot(seed + 50),
                                RandomSmearBot(seed + 50)]
        state = play_bot_game(SmearGame({"blind_cards": seed % 4}), bots, seed=seed)
        assert state.winner is not None
        wins[state.winner] += 1
    assert wins[0] >= 10


def test_actions_outside_the_legal_list_raise() -> None:
    state = SmearGame({"first_dealer": "N"}).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(Bid(1, 2))  # a chance node: the deal comes first
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal(2, EX_13_1.deal().hands, EX_13_1.deal().blind))  # N must deal
    state.apply_action(EX_13_1.deal())
    before = state.notation()
    for bad in (Bid(2, 2), PlayCard(1, Card.parse("QS")), Discard(1, (Card.parse("QS"),)), EX_13_1.deal()):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    assert state.notation() == before
    state.apply_text("E:bid 3")
    with pytest.raises(IllegalActionError):
        state.apply_text("S:bid 3")  # not higher than the high bid
    for text in ("S:pass", "W:pass", "N:pass"):
        state.apply_text(text)
    with pytest.raises(IllegalActionError):
        state.apply_text("E:AS")  # E does not hold AS
    state.apply_text("E:KC")  # clubs are trump
    with pytest.raises(IllegalActionError):
        state.apply_text("S:9D")  # S holds 8C: a club is due


def test_play_follows_or_trumps_and_void_seats_play_anything() -> None:
    state = SmearGame({"first_dealer": "N"}).new_initial_state()
    state.apply_action(EX_13_1.deal())
    for text in EX_13_1.auction:
        state.apply_text(text)
    for text in ("S:AH", "W:9H", "N:10H", "E:8H", "S:KH", "W:QH", "N:JH"):
        state.apply_text(text)
    assert [str(a) for a in state.legal_actions()] == ["E:QS", "E:JD", "E:10D", "E:AC", "E:KC"]
    state.apply_text("E:QS")
    state.apply_text("S:10S")  # S leads a spade; W holds AS 8S and no trump
    assert [str(a) for a in state.legal_actions()] == ["W:AS", "W:8S"]


def test_undo_restores_and_replay_rebuilds() -> None:
    state = EX_13_6.play()
    history = state.history()
    clone = state.clone()
    last = clone.undo()
    assert last == history[-1]
    assert clone.history() == history[:-1]
    assert clone.phase is Phase.PLAY and clone.results == []
    clone.apply_action(last)
    assert clone == state
    assert SmearState.replay(state.game, history) == state


def test_public_view_shows_the_trick_trump_bids_and_scores() -> None:
    state = SmearGame({"first_dealer": "N"}).new_initial_state()
    state.apply_action(EX_13_1.deal())
    for text in [*EX_13_1.auction, "S:AH", "W:9H", "N:10H", "E:8H", "S:KH"]:
        state.apply_text(text)
    view = state.public_view()
    assert view.phase is Phase.PLAY and view.to_act == 3
    assert view.bids == ((1, None), (2, 3), (3, None), (0, None))
    assert (view.bidder, view.bid) == (2, 3)
    assert view.trump is not None and view.trump.letter == "H"
    assert view.current_trick == ((2, Card.parse("KH")),)
    assert view.trick_number == 2 and view.tricks_won == (1, 0)
    assert view.hand_sizes == (5, 5, 4, 5)
    assert view.scores == (0, 0)
    assert "hands" not in type(view).__dataclass_fields__  # nothing hidden is public
    with pytest.raises(AttributeError):
        view.scores = (1, 1)  # type: ignore[misc]


def test_returns_are_team_scores() -> None:
    state = EX_13_1.play()
    assert state.returns() == [3, 1, 3, 1]


def test_notation_is_one_line_and_names_the_state() -> None:
    state = EX_13_1.play()
    text = state.notation()
    assert "\n" not in text
    assert text == "NS 3 EW 1 | deal 1 | dealer N | next E | deal"
    mid = SmearGame({"first_dealer": "N"}).new_initial_state()
    mid.apply_action(EX_13_1.deal())
    mid.apply_text("E:pass")
    assert "bids E:pass" in mid.notation() and "to S" in mid.notation()


# -- action notation -------------------------------------------------------------

PACK = smear_deck()
seats = st.integers(0, 3)
cards = st.sampled_from(PACK)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    order = draw(st.permutations(PACK))
    hands = tuple(tuple(order[6 * s:6 * s + 6]) for s in range(4))
    return Deal(draw(seats), hands, tuple(order[24:]))


actions = st.one_of(
    st.builds(Bid, seats, st.integers(2, 4)),
    st.builds(Pass, seats),
    st.builds(PlayCard, seats, cards),
    st.builds(Discard, seats, st.lists(cards, min_size=1, max_size=3, unique=True).map(tuple)),
    deals(),
)


@given(actions)
def test_action_notation_round_trips(action: Any) -> None:
    state = SmearGame().new_initial_state()
    assert state.parse_action(str(action)) == action


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_invalid_action(text: str) -> None:
    state = SmearGame({"first_dealer": "N"}).new_initial_state()
    state.apply_action(EX_13_1.deal())
    try:
        action = state.parse_action(text)
    except InvalidActionError:
        return
    assert state.parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["N:bid 5", "N:bid one", "Q:7S", "N:2H", "N:discard", "N:discard 7S 7S",
                                  "deal N | N:AS", "N:discard AS KS QS JS", "", "N"])
def test_malformed_actions_raise_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError):
        SmearGame().new_initial_state().parse_action(text)


def test_the_seat_may_be_left_out_when_a_seat_is_to_act() -> None:
    state = SmearGame({"first_dealer": "N"}).new_initial_state()
    with pytest.raises(InvalidActionError):
        state.parse_action("pass")  # a chance node: nobody is to act
    state.apply_action(EX_13_1.deal())
    assert state.parse_action("pass") == Pass(1)
    assert state.parse_action("bid 3") == Bid(1, 3)
    assert state.parse_action("E play KC") == PlayCard(1, Card.parse("KC"))
    assert state.current_player() != CHANCE


def test_bad_options_are_refused_with_the_allowed_values() -> None:
    with pytest.raises(InvalidActionError, match="blind_cards"):
        SmearGame({"blind_cards": 4})
    with pytest.raises(InvalidActionError, match="target_score"):
        SmearGame({"target_score": 0})
    with pytest.raises(InvalidActionError, match="nonbidder_score_cap"):
        SmearGame({"nonbidder_score_cap": "high"})
    with pytest.raises(InvalidActionError, match="4"):
        SmearGame(seats=3)


@given(st.lists(cards, min_size=7, max_size=9, unique=True),
       st.sampled_from(["keep_max_trumps", "only_if_over_six"]))
def test_legal_discards_are_exactly_the_sets_that_leave_a_suit_to_lead(held: list[Card], rule: str) -> None:
    opts = SmearOptions(blind_cards=len(held) - 6, trump_discard_rule=rule)
    expected = [combo for combo in itertools.combinations(sorted(held), len(held) - 6)
                if any(discard_fits_lead(opts, held, combo, c.suit)
                       for c in held if c not in combo and c.suit is not None)]
    assert legal_discards(opts, held) == expected
    assert all(discard_is_legal(opts, held, combo) for combo in expected)


# -- state notation ----------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
def test_state_notation_rebuilds_an_equivalent_state(options: dict[str, Any]) -> None:
    game = SmearGame(options)
    rng = random.Random(21)
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_terminal():
            break
        rebuilt = SmearState.from_notation(game, state.notation())
        assert rebuilt.notation() == state.notation()
        assert rebuilt.legal_actions() == state.legal_actions()
        assert rebuilt.current_player() == state.current_player()
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
        rebuilt.apply_action(action)
        assert rebuilt.notation() == state.notation()
        assert rebuilt.returns() == state.returns()


# Count table: state strings and their legal actions (smear.md §13.4, trick 3, W to play).
COUNT_TABLE = [
    ("NS 0 EW 0 | deal 1 | dealer W | next W | play | bids N:2 E:pass S:pass W:pass | trump S | "
     "N[AS QH KD] E[AH 10H 10D] S[KH 8D 10C] W[10S JH KC 7D] | blind[9S 8S 9H 8H 7H 9C 8C 7C] | discards[] | "
     "tricks N:7S E:KS S:JS W:QS, E:9D S:QD W:JD N:AD | trick N:JC E:QC S:AC | to W",
     {"follow_or_trump": ["W:10S", "W:KC"], "strict": ["W:KC"]}),
    ("NS 0 EW 0 | deal 1 | dealer N | next N | bidding | bids E:2 S:3 W:pass | trump - | "
     "N[KS JH 10H QD 10C 9C] E[QS 8H JD 10D AC KC] S[10S AH KH 7H 9D 8C] W[AS 8S QH 9H KD 7C] | "
     "blind[AD 9S 7S JS 8D 7D QC JC] | discards[] | tricks - | trick - | to N",
     {"follow_or_trump": ["N:pass", "N:bid 4"], "strict": ["N:pass", "N:bid 4"]}),
]


@pytest.mark.parametrize(("text", "expected"), COUNT_TABLE)
def test_count_table(text: str, expected: dict[str, list[str]]) -> None:
    for rule, legal in expected.items():
        state = SmearState.from_notation(SmearGame({"follow_rule": rule}), text)
        assert [str(a) for a in state.legal_actions()] == legal


@pytest.mark.parametrize("bad", [
    "",
    "NS 0 EW 0 | deal 0 | dealer - | next N | shuffle",
    "NS 0 EW 0 | deal 0 | dealer - | next N | deal | extra",
    COUNT_TABLE[0][0].replace("W[10S JH KC 7D]", "W[10S JH KC 2D]"),
    COUNT_TABLE[0][0].replace("W[10S JH KC 7D]", "W[10S JH KC]"),
    COUNT_TABLE[0][0].replace("to W", "to N"),
    COUNT_TABLE[0][0].replace("trump S", "trump H"),
    COUNT_TABLE[1][0].replace("bids E:2 S:3", "bids S:3 E:2"),
])
def test_bad_state_notation_raises_invalid_action(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        SmearState.from_notation(SmearGame(), bad)
