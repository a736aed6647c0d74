"""The Kierki game object: options, seats, and the two paths (strict state, referee)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kiosk.games.base import Game, Options
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.kierki.referee import KierkiReferee
from kiosk.games.kierki.state import KierkiState

__all__ = ["KierkiGame"]


class KierkiGame(Game):
    """Kierki for four players: 7 negative deals, 4 trump deals and Fan Tan
    (kierki.md). Seats are named clockwise; the default names are N, E, S, W.

    >>> game = KierkiGame()
    >>> game.seats, game.options.revoke_policy
    (('N', 'E', 'S', 'W'), 'flag_only')
    >>> KierkiGame({"fan_tan_start_rank": 8}).options.fan_tan_start_rank
    '8'
    """

    name = "kierki"
    title = "Kierki"
    options_type = KierkiOptions
    min_seats = 4
    max_seats = 4

    def __init__(
        self,
        options: Options | Mapping[str, Any] | None = None,
        /,
        *,
        seats: Sequence[str] | int = ("N", "E", "S", "W"),
    ) -> None:
        if isinstance(options, Mapping):
            options = dict(options)
            # A table log may write the start rank as a number; the option's values are strings.
            start = options.get("fan_tan_start_rank")
            if isinstance(start, int) and not isinstance(start, bool):
                options["fan_tan_start_rank"] = str(start)
        super().__init__(options, seats=seats)
        self.options: KierkiOptions

    def new_initial_state(self) -> KierkiState:
        """The match before the first dealer is drawn (a chance node)."""
        return KierkiState(self)

    def referee(self) -> KierkiReferee:
        """A fresh referee for a Kierki table log."""
        return KierkiReferee(self.seats, self.options)
