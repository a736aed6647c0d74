"""Gnoming A Round: grid scoring (every worked example of gnoming.md §10), the turn
procedure (bounces, hazards, the end of a round), options and conformance."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.cards import GnomeCard, gnoming_deck
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.gnoming import (
    GnomingGame,
    GnomingOptions,
    GnomingState,
    first_out_adjustment,
    game_winners,
    grid_score,
)
from kiosk.games.gnoming_actions import (
    Deal,
    DeckCard,
    Decline,
    Discard,
    Draw,
    Flip,
    GnomingAction,
    Keep,
    Pass,
    parse_action,
)
from kiosk.games.gnoming_bots import play_bot_game
from kiosk.games.gnoming_scoring import parse_pos, score_grid
from tests.games.conformance import play_random_game


def grid(text: str) -> list[GnomeCard]:
    names = {"M": "MULLIGAN", "H": "HAZARD"}
    return [GnomeCard.parse(names.get(t, "G" + t)) for t in text.split()]


EXAMPLES = {
    1: "8 3 -2  5 H 6  -1 7 4",
    2: "6 6 6  4 -3 8  5 3 -1",
    3: "7 7 7  7 4 -2  7 8 5",
    4: "5 M 5  3 6 -4  8 -1 4",
    5: "4 4 M  3 -2 8  5 6 8",
    6: "H -4 -3  -2 -1 7  3 3 M",
    7: "3 3 3  3 3 3  3 3 3",
    8: "M 6 6  M 5 5  4 7 8",
    9: "5 3 8  4 5 6  7 -1 5",
    10: "-2 -2 -2  M 4 4  6 -1 8",
}


@pytest.mark.parametrize(
    ("example", "options", "score"),
    [
        (1, {}, 40), (2, {}, 10), (3, {}, 1), (3, {"line_sharing": "disjoint"}, 22),
        (4, {}, 11), (5, {}, 0), (5, {"mulligan_dual_value": False}, 12), (6, {}, 4),
        (7, {}, -18), (7, {"line_sharing": "disjoint"}, -9), (8, {}, 23),
        (8, {"wild_mulligans_per_layout": "unlimited"}, 8), (9, {}, 42), (9, {"score_diagonals": True}, 22),
        (10, {}, 3),
    ],
)
def test_worked_grid_examples(example: int, options: dict[str, object], score: int) -> None:
    opts = GnomingOptions(**options)  # type: ignore[arg-type]
    assert grid_score(grid(EXAMPLES[example]), opts).score == score


def test_example_3_names_both_lines() -> None:
    s = score_grid(grid(EXAMPLES[3]))
    assert s.describe() == "row 1 at 7 (-7); column 1 at 7 (-7); score 1"


def test_two_mulligans_in_one_line_only_under_the_variant() -> None:
    g = grid("M M 4  3 -2 8  5 6 7")
    assert score_grid(g, wild_mulligans_per_layout=None).score == 4 + 3 - 2 + 8 + 5 + 6 + 7
    assert score_grid(g, wild_mulligans_per_layout=None, max_mulligans_per_line=2).score == -4 + 27


def test_hazard_penalty_option() -> None:
    assert score_grid(grid(EXAMPLES[1]), hazard_penalty=15).score == 45


def test_example_11_round_with_first_out_adjustment() -> None:
    grids = ["5 5 5  -3 8 -1  4 4 M", "6 -2 6  7 7 7  3 H -4",
             "-1 -2 -3  8 3 3  -4 5 6", "4 4 4  4 M 6  4 5 -2"]
    opts = GnomingOptions()
    r = [grid_score(grid(g), opts).score for g in grids]
    assert r == [-5, 12, 15, 1]
    assert first_out_adjustment(r, 0, opts) == [-10, 12, 15, 1]
    assert first_out_adjustment([3, 12, 15, 1], 0, opts)[0] == 8
    assert first_out_adjustment([1, 12, 15, 1], 0, opts)[0] == -4
    assert first_out_adjustment([1, 12, 15, 1], 0, GnomingOptions(first_out_tie="strict"))[0] == 6
    assert first_out_adjustment([1, 12, 15, 1], None, opts) == [1, 12, 15, 1]


def test_example_12_tie_break_by_round_3() -> None:
    rounds = [[12, 9, 4, 20], [7, 9, 10, -6], [-3, -2, 5, 6]]
    assert game_winners(rounds) == [0]
    assert game_winners([[1, 1], [2, 2]]) == [0, 1]


MARIA = "6 6 3  4 -2 M  H 7 8"
BEN = "5 5 5  7 7 7  8 8 -1"


def _start(**options: object) -> GnomingState:
    game = GnomingGame(dict(options), seats=["Maria", "Ben"])
    state = game.new_initial_state()
    state.apply_action(Deal((tuple(grid(MARIA)), tuple(grid(BEN))), tuple(grid("5 4"))))
    for text in ("0:flip 11", "0:flip 22", "1:flip 11", "1:flip 12"):
        state.apply_text(text)
    return state


def test_example_13_a_turn_with_a_bounce() -> None:
    state = _start()
    assert state.current_player() == 0
    state.apply_text("0:draw deck")
    state.apply_action(DeckCard(0, GnomeCard.of(6)))
    state.apply_text("0:keep 12")
    view = state.public_view()
    assert view.held == GnomeCard.of(6), "the revealed 6 matches and may bounce"
    assert Keep(0, parse_pos("12")) not in state.legal_actions(), "a position is filled once per turn"
    state.apply_text("0:keep 13")
    assert state.public_view().phase == "discard", "the 3 has no face-up match: it must be discarded"
    state.apply_text("0:discard A")
    v = state.public_view()
    assert v.grids[0].cards[:3] == tuple(grid("6 6 6"))
    assert v.grids[0].face_down == 5 and v.pile_a == GnomeCard.of(3)
    assert v.current_seat == 1


def test_example_13_bouncing_onto_a_face_up_card_ends_the_chain() -> None:
    state = _start()
    for text in ("0:draw deck", "0:gets G6", "0:keep 12", "0:keep 22"):
        state.apply_text(text)
    assert state.public_view().phase == "discard"
    assert state.cur is not None and state.cur.to_discard == GnomeCard.of(-2)


def test_face_down_only_bounce_targets() -> None:
    state = _start(bounce_targets="face_down_only")
    for text in ("0:draw deck", "0:gets G6", "0:keep 12"):
        state.apply_text(text)
    targets = {a.pos for a in state.legal_actions() if isinstance(a, Keep)}
    assert parse_pos("22") not in targets and parse_pos("11") not in targets and parse_pos("13") in targets


def test_a_negative_or_face_up_card_never_bounces() -> None:
    state = _start()
    for text in ("0:draw deck", "0:gets G-3", "0:keep 11"):
        state.apply_text(text)
    assert state.public_view().phase == "discard"


def test_example_14_hazard_discard_and_the_flip_limit() -> None:
    game = GnomingGame({"youngest_seat": 1}, seats=["Maria", "Ben", "Cal", "Dee"])
    state = game.new_initial_state()
    state.apply_action(state.sample_chance(14))
    r = state.cur
    assert r is not None
    # Face-down counts as in the example: Maria 5, Cal 1, Dee 3 (set directly).
    r.up = [[True] * 4 + [False] * 5, [True] * 2 + [False] * 7,
            [True] * 8 + [False], [True] * 6 + [False] * 3]
    r.phase = "draw"
    r.deck.append(GnomeCard.parse("HAZARD"))
    state.apply_text("1:draw deck")
    state.apply_action(DeckCard(1, GnomeCard.parse("HAZARD")))
    piles = (list(r.piles["A"]), list(r.piles["B"]))
    state.apply_text("1:pass")
    view = state.public_view()
    assert view.phase == "hazard" and view.hazard_flippers == (0, 3)
    assert view.removed[-1].is_hazard and (r.piles["A"], r.piles["B"]) == piles
    with pytest.raises(IllegalActionError):
        state.apply_action(Flip(2, 8))   # Cal's last face-down card
    state.apply_text("0:flip 33")
    state.apply_action(Decline(3))
    assert state.public_view().current_seat == 2


def test_discard_must_restart_an_empty_pile() -> None:
    state = _start()
    assert state.cur is not None
    state.cur.piles["B"].clear()
    state.cur.piles["A"].insert(0, GnomeCard.of(7))
    state.cur.deck.remove(GnomeCard.of(7))
    state.apply_text("0:draw A")
    assert state.legal_actions() and Pass(0) in state.legal_actions()
    state.apply_text("0:pass")
    assert state.legal_actions() == [Discard(0, "B")]


def test_must_keep_discard_draw_option() -> None:
    state = _start(must_keep_discard_draw=True)
    state.apply_text("0:draw A")
    assert Pass(0) not in state.legal_actions()


def test_finisher_gives_everyone_else_one_final_turn() -> None:
    game = GnomingGame({"rounds": 1}, seats=3)
    state = game.new_initial_state()
    state.apply_action(state.sample_chance(3))
    r = state.cur
    assert r is not None
    r.up = [[True] * 8 + [False], [True] * 2 + [False] * 7, [True] * 2 + [False] * 7]
    r.phase = "draw"
    for text in ("0:draw A", "0:keep 33"):
        state.apply_text(text)
    if state.public_view().phase == "place":
        state.apply_text("0:pass")
    if state.public_view().phase == "discard":
        state.apply_action(state.legal_actions()[0])
    assert state.public_view().finisher == 0 and state.public_view().final_turns_left == 2
    for seat in (1, 2):
        assert state.public_view().current_seat == seat
        state.apply_action(Draw(seat, "A"))
        state.apply_action(Pass(seat))
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert all(g.face_down == 0 for g in state.public_view().grids), "the reveal turns everything up"


def test_first_player_rotates_left_each_round() -> None:
    state = play_bot_game(GnomingGame({"youngest_seat": 2}, seats=4), seed=5)
    firsts = [a for a in state.history() if isinstance(a, Deal)]
    assert len(firsts) == 3
    replay = GnomingGame({"youngest_seat": 2}, seats=4).new_initial_state()
    starts = []
    for a in state.history():
        replay.apply_action(a)
        if isinstance(a, Deal):
            assert replay.cur is not None
            starts.append(replay.cur.first)
    assert starts == [2, 3, 0]


def test_options_are_checked_with_clear_messages() -> None:
    with pytest.raises(InvalidActionError, match="3 to 7 seats"):
        GnomingGame({"players": "3..7"}, seats=2)
    with pytest.raises(InvalidActionError, match="2 to 7"):
        GnomingGame(seats=8)
    with pytest.raises(InvalidActionError, match="unknown card"):
        GnomingGame({"deck": {"9": 3}})
    with pytest.raises(InvalidActionError, match="too few cards"):
        GnomingGame({"deck": {"8": 20}}, seats=3)
    with pytest.raises(InvalidActionError, match="youngest_seat"):
        GnomingGame({"youngest_seat": 4}, seats=3)
    with pytest.raises(InvalidActionError, match="must map cards to copies"):
        GnomingGame({"deck": 5})
    small = GnomingGame({"deck": {"8": 40, "HAZARD": 2}}, seats=2)
    assert len(small.new_initial_state().full_deck) == 42
    again = GnomingGame({"deck": [list(p) for p in small.options.deck]}, seats=2)
    assert again.options == small.options and hash(again.options) == hash(small.options)


def test_bad_action_text_is_rejected() -> None:
    for bad in ["", "0:keep 44", "0:draw C", "9:pass", "0:discard C", "0:gets G9", "deal G3 / G4", "0:jump"]:
        with pytest.raises(InvalidActionError):
            parse_action(bad, 2)


_cards = st.sampled_from(sorted(set(gnoming_deck()), key=str))
_pos = st.integers(0, 8)
_actions = st.one_of(
    st.builds(Flip, st.integers(0, 6), _pos), st.builds(Keep, st.integers(0, 6), _pos),
    st.builds(Decline, st.integers(0, 6)), st.builds(Pass, st.integers(0, 6)),
    st.builds(Draw, st.integers(0, 6), st.sampled_from(["deck", "A", "B"])),
    st.builds(Discard, st.integers(0, 6), st.sampled_from(["A", "B"])),
    st.builds(DeckCard, st.integers(0, 6), _cards),
    st.builds(Deal, st.lists(st.lists(_cards, min_size=9, max_size=9).map(tuple), min_size=7,
                             max_size=7).map(tuple), st.lists(_cards, min_size=2, max_size=4).map(tuple)),
)


@given(_actions)
def test_action_notation_round_trips(action: GnomingAction) -> None:
    assert parse_action(str(action), 7) == action


def _conserved(state: object) -> bool:
    assert isinstance(state, GnomingState)
    r = state.cur
    if r is None:
        return True
    cards = [c for g in r.grids for c in g] + r.deck + r.piles["A"] + r.piles["B"] + r.removed
    cards += [c for c in (r.held, r.to_discard) if c is not None]
    return Counter(map(str, cards)) == Counter(map(str, state.full_deck))


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [
        (2, {}, 21),
        (7, {}, 22),
        (3, {"hazard_on_discard": "to_pile", "bounce_targets": "face_down_only",
             "must_keep_discard_draw": True, "turn_direction": "counterclockwise",
             "first_player": "finisher_starts"}, 23),
        (5, {"draw_pile_empty": "end_round", "hazard_flip_min_facedown": 1, "line_sharing": "disjoint",
             "wild_mulligans_per_layout": "unlimited", "score_diagonals": True}, 24),
    ],
)
def test_random_play_keeps_the_contract_and_conserves_cards(seats: int, options: dict[str, object],
                                                            seed: int) -> None:
    game = GnomingGame(options, seats=seats)
    state = play_random_game(game, seed, max_steps=800)
    history = state.history()
    for n in range(0, len(history), 29):
        assert _conserved(GnomingState.replay(game, history[:n]))
    assert _conserved(state)


@pytest.mark.parametrize("seats", [2, 4, 7])
def test_bot_games_finish(seats: int) -> None:
    state = play_bot_game(GnomingGame(seats=seats), seed=seats)
    assert state.is_terminal() and len(state.scores) == 3
    assert state.public_view().winners
    assert state.returns() == [sum(r[p] for r in state.scores) for p in range(seats)]
