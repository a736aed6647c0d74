"""One conformance test over all five games (STYLE.md, "Conformance for every game")."""

from __future__ import annotations

import pytest

from kiosk.games.base import option_help
from kiosk.games.registry import GAME_NAMES, find_game, make_game
from tests.games.conformance import check_determinism, play_random_game


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_keeps_the_contract(name: str, seed: int) -> None:
    game_cls = find_game(name)
    game = make_game(name, seats=max(game_cls.min_seats, min(4, game_cls.max_seats)))
    play_random_game(game, seed, max_steps=1500)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_seeded_play_is_deterministic(name: str) -> None:
    game_cls = find_game(name)
    check_determinism(make_game(name, seats=max(game_cls.min_seats, min(4, game_cls.max_seats))), 7)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_option_has_a_default_and_an_explanation(name: str) -> None:
    options = option_help(find_game(name).options_type)
    assert options, f"{name} declares no variant options"
    for opt_name, _default, help_text, _choices in options:
        assert help_text.strip(), f"{name}.{opt_name} has no one-line explanation"
