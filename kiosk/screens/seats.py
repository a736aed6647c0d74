"""Seat the players: how many seats, who sits where, and which button is whose.

Rows list the seats in table order (clockwise). Up/Down picks a row,
Left/Right changes the player in that seat (from the configured roster) or,
on the first row, the number of seats. Pressing any seat button ("Nerts!"
pad, key 1-8) while a seat is picked gives that button to that seat. Select
starts the game: the header (game, seats, options, players and buttons) is
written to the event store first.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.games.base import Game
from kiosk.games.referee import LogHeader
from kiosk.screens.widgets import title_bar, touch_bar

__all__ = ["SeatsMode", "DEFAULT_ROSTER"]

DEFAULT_ROSTER = ("North", "East", "South", "West", "Ana", "Ben", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal")
START = -1


class SeatsMode(Mode):
    """The second screen: seats, names, buttons."""

    name: ClassVar[str] = "seats"
    title = "Seat the players"

    def __init__(self, game: type[Game], options: dict[str, Any]) -> None:
        super().__init__()
        self.game = game
        self.options = options
        self.cursor = 0
        """0 is the seat-count row; 1.. are the seats."""
        self.roster: list[str] = []
        self.names: list[str] = []
        self.buttons: dict[int, int] = {}
        """Button number (0-based) -> seat index."""

    def enter(self, app: Any) -> None:
        super().enter(app)
        if not self.roster:
            self.roster = list(dict.fromkeys([*app.config.players, *DEFAULT_ROSTER]))
            count = min(max(len(app.config.players), self.game.min_seats), self.game.max_seats)
            self.names = self.roster[:count]
            self.buttons = {i: i for i in range(count)}

    def handle(self, command: Command) -> bool:
        key = command.key
        if command.index is not None:
            if key is Key.SELECT and command.index == START:
                return self._start()
            self.cursor = command.index
            if key is Key.SELECT:
                return True
        if key in (Key.UP, Key.DOWN):
            self.cursor = (self.cursor + (1 if key is Key.DOWN else -1)) % (len(self.names) + 1)
            return True
        if key in (Key.LEFT, Key.RIGHT):
            d = 1 if key is Key.RIGHT else -1
            if self.cursor == 0:
                return self._resize(len(self.names) + d)
            seat = self.cursor - 1
            free = [n for n in self.roster if n not in self.names or n == self.names[seat]]
            i = free.index(self.names[seat])
            self.names[seat] = free[(i + d) % len(free)]
            return True
        if key in (Key.CALL, Key.STUCK) and command.seat is not None and self.cursor > 0:
            self.buttons = {b: s for b, s in self.buttons.items() if s != self.cursor - 1}
            self.buttons[command.seat] = self.cursor - 1
            return True
        if key is Key.SELECT:
            return self._start()
        if key is Key.BACK:
            from kiosk.screens.choose_game import ChooseGameMode

            self.app.set_mode(ChooseGameMode(self.game.name, self.options))
            return True
        return False

    def _resize(self, n: int) -> bool:
        if not self.game.min_seats <= n <= min(self.game.max_seats, len(self.roster)):
            return False
        if n > len(self.names):
            extra = [r for r in self.roster if r not in self.names][: n - len(self.names)]
            self.names.extend(extra)
            for s in range(len(self.names) - len(extra), len(self.names)):
                if s not in self.buttons:
                    self.buttons[s] = s
        else:
            self.names = self.names[:n]
            self.buttons = {b: s for b, s in self.buttons.items() if s < n}
        return True

    def header(self) -> LogHeader:
        """The table log header this seating gives."""
        return LogHeader(
            self.game.name,
            tuple(self.names),
            dict(self.options),
            meta={"buttons": {str(b + 1): self.names[s] for b, s in sorted(self.buttons.items())}},
        )

    def _start(self) -> bool:
        app = self.app
        app.button_map = dict(self.buttons)
        app.start_session(self.header())
        from kiosk.screens.calibrate import CalibrateMode

        app.set_mode(CalibrateMode())
        return True

    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        area = title_bar(p, lay, pal, f"{self.game.title}: {self.title}")
        area = touch_bar(
            p,
            lay,
            pal,
            area,
            [
                ("Start", Command(Key.SELECT, index=START)),
                ("−", Command(Key.LEFT)),
                ("+", Command(Key.RIGHT)),
                ("Back", Command(Key.BACK)),
            ],
        )
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        px = lay.px("body")
        row_h = p.fonts.get(px).get_linesize() + lay.margin
        hint_px = lay.px("label")
        hint_h = p.fonts.get(hint_px).get_linesize()
        fit = max(2, (area.height - 2 * hint_h) // row_h)
        first = min(max(0, self.cursor - fit + 1), max(0, len(self.names) + 1 - fit))
        for n, i in enumerate(range(first, min(len(self.names) + 1, first + fit))):
            r = pygame.Rect(area.left, area.top + n * row_h, area.width, row_h - 4)
            selected = i == self.cursor
            p.button(
                r,
                "",
                Command(Key.SELECT, index=i),
                px,
                fg=pal.text,
                bg=pal.selected if selected else pal.panel,
            )
            if i == 0:
                text = f"Seats: {len(self.names)}"
                right = f"{self.game.min_seats}–{self.game.max_seats}"
            else:
                s = i - 1
                text = f"{i}. {self.names[s]}"
                owned = [str(b + 1) for b, seat in sorted(self.buttons.items()) if seat == s]
                right = f"button {', '.join(owned)}" if owned else "no button"
            right_w = p.measure(right, hint_px)[0]
            p.fit(
                text,
                pygame.Rect(r.left + lay.margin, r.top, r.width - right_w - 3 * lay.margin, r.height),
                px,
                pal.text,
                "midleft",
                min_px=hint_px,
            )
            p.text(right, (r.right - lay.margin, r.centery), hint_px, pal.dim, "midright")
        hint = "Pick a seat, then press the button of the player sitting there."
        p.wrap(
            hint, pygame.Rect(area.left, area.bottom - 2 * hint_h, area.width, 2 * hint_h), hint_px, pal.dim
        )
