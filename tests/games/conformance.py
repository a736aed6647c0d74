"""Conformance over seeded random play, for any game on the engine contract
(after OpenSpiel's ``random_sim_test``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kiosk.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from kiosk.games.errors import IllegalActionError


def play_random_game(
    game: Game, seed: int, *, max_steps: int = 3000, check_every: int = 25
) -> State[Any]:
    """Plays seeded random legal actions and checks the contract along the way.

    Returns the final state (terminal, or after ``max_steps`` actions).
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[Any] = []
    for step in range(max_steps):
        player = state.current_player()
        if state.is_terminal():
            assert player == TERMINAL
            assert state.legal_actions() == []
            with pytest.raises(IllegalActionError):
                state.apply_action(seen[-1] if seen else state.history()[-1])
            break
        if player == CHANCE:
            assert state.legal_actions() == []
            action = state.sample_chance(rng)
        else:
            assert player == SIMULTANEOUS or 0 <= player < game.num_seats
            legal = state.legal_actions()
            assert legal, f"no legal action in a live state: {state.notation()}"
            for a in legal[:8]:
                assert state.parse_action(str(a)) == a, f"notation does not round-trip: {a!r}"
            action = rng.choice(legal)
            stale = [a for a in seen[-40:] if a not in legal]
            if stale and step % 5 == 0:
                bad = rng.choice(stale)
                notation_before = state.notation()
                with pytest.raises(IllegalActionError):
                    state.apply_action(bad)
                assert state.notation() == notation_before, "a rejected action changed the state"
            seen.extend(legal[:20])
        if step % check_every == 0:
            before = state.clone()
            assert before == state
            state.apply_action(action)
            undone = state.clone()
            assert undone.undo() == action
            assert undone == before, "undo did not restore the previous state"
        else:
            state.apply_action(action)
    replayed = type(state).replay(game, state.history())
    assert replayed == state, "replaying the history gave a different state"
    assert replayed.notation() == state.notation()
    assert replayed.returns() == state.returns()
    return state


def check_determinism(game: Game, seed: int, max_steps: int = 500) -> None:
    """Two runs with one seed match, even with the global RNG disturbed."""
    random.seed(1)
    a = _random_history(game, seed, max_steps)
    random.seed(2)
    random.random()
    b = _random_history(game, seed, max_steps)
    assert a == b


def _random_history(game: Game, seed: int, max_steps: int) -> list[str]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return [str(a) for a in state.history()]
