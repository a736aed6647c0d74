"""The games by name, as a table log's header names them.

Engines are imported lazily, so listing the games costs nothing and a game
module can be added without touching the others.

>>> sorted(GAME_NAMES)
['gnoming', 'kierki', 'nerts', 'rummy_3_13', 'smear']
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from kiosk.games.base import Game, Options
from kiosk.games.errors import InvalidActionError

__all__ = ["GAME_NAMES", "find_game", "make_game"]

_GAME_CLASSES: dict[str, str] = {
    "nerts": "kiosk.games.nerts:NertsGame",
    "kierki": "kiosk.games.kierki:KierkiGame",
    "smear": "kiosk.games.smear:SmearGame",
    "rummy_3_13": "kiosk.games.rummy:Rummy313Game",
    "gnoming": "kiosk.games.gnoming:GnomingGame",
}
GAME_NAMES: tuple[str, ...] = tuple(_GAME_CLASSES)

_ALIASES = {"3-13": "rummy_3_13", "rummy": "rummy_3_13", "3_13": "rummy_3_13",
            "gnoming_a_round": "gnoming", "nertz": "nerts"}


def find_game(name: str) -> type[Game]:
    """Returns the game class registered under ``name``.

    Raises InvalidActionError listing the known games.
    """
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in _GAME_CLASSES:
        raise InvalidActionError(
            f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})", input=name
        )
    module, _, cls = _GAME_CLASSES[key].partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise InvalidActionError(f"game {key!r} is not available in this build", input=name) from None
        raise
    game_cls: type[Game] = getattr(mod, cls)
    return game_cls


def make_game(
    name: str, options: Options | Mapping[str, Any] | None = None, *, seats: Sequence[str] | int = 4
) -> Game:
    """Builds a game by name with options and seats."""
    return find_game(name)(options, seats=seats)
