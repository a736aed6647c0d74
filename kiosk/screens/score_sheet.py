"""The score sheet: every hand's score per seat and the totals, correctable.

Arrows move the cursor over the figures; Select starts a correction, Up/Down
(or the − / + buttons) change the figure, Select logs it as a
``score_correction`` event (the referee reports it as a ruling, and replay
gives the same totals), Back cancels. A tap on a figure picks it.
"""

from __future__ import annotations

from typing import ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Hotspot, Painter
from kiosk.screens.widgets import score_table, title_bar, touch_bar

__all__ = ["ScoreSheetMode"]

CELL = 1000
"""Touch indexes of cells: CELL + hand * 100 + seat."""


class ScoreSheetMode(Mode):
    """Scores hand by hand, with corrections."""

    name: ClassVar[str] = "score_sheet"
    title = "Score sheet"

    def __init__(self) -> None:
        super().__init__()
        self.cursor: tuple[int, int] | None = None
        self.editing: int | None = None

    def _hands(self) -> list[dict[str, int]]:
        report = self.app.report()
        return report.hands if report is not None else []

    def handle(self, command: Command) -> bool:
        app = self.app
        session = app.session
        key = command.key
        if session is None:
            return False
        hands = self._hands()
        seats = list(session.seats)
        if command.index is not None and command.index >= CELL:
            h, s = divmod(command.index - CELL, 100)
            self.cursor, self.editing = (h, s), None
            return True
        if self.editing is not None and self.cursor is not None:
            if key in (Key.UP, Key.RIGHT):
                self.editing += 1
                return True
            if key in (Key.DOWN, Key.LEFT):
                self.editing -= 1
                return True
            if key is Key.SELECT:
                h, s = self.cursor
                app.correct_score(command.t_ns or app.now(), seats[s], h + 1, self.editing)
                self.editing = None
                return True
            if key is Key.BACK:
                self.editing = None
                return True
            return False
        if key is Key.BACK or key is Key.SCORES:
            from kiosk.screens.play import PlayMode

            app.set_mode(PlayMode())
            return True
        if not hands:
            return False
        if self.cursor is None:
            self.cursor = (len(hands) - 1, 0)
            if key in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT):
                return True
        h, s = self.cursor
        if key is Key.UP:
            self.cursor = (max(0, h - 1), s)
        elif key is Key.DOWN:
            self.cursor = (min(len(hands) - 1, h + 1), s)
        elif key is Key.LEFT:
            self.cursor = (h, (s - 1) % len(seats))
        elif key is Key.RIGHT:
            self.cursor = (h, (s + 1) % len(seats))
        elif key is Key.SELECT:
            self.editing = hands[h].get(seats[s], 0)
        else:
            return False
        return True

    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        report = app.report()
        area = title_bar(p, lay, pal, f"{app.game_title()}: {self.title}")
        if self.editing is not None:
            buttons = [
                ("−", Command(Key.DOWN)),
                ("+", Command(Key.UP)),
                ("Save", Command(Key.SELECT)),
                ("Cancel", Command(Key.BACK)),
            ]
        else:
            buttons = [("Correct", Command(Key.SELECT)), ("Back", Command(Key.BACK))]
        area = touch_bar(p, lay, pal, area, buttons)
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        if report is None:
            return
        if not report.hands:
            p.wrap("No hand has been scored yet.", area, lay.px("body"), pal.dim)
            return
        cells = score_table(
            p,
            area,
            report.seats,
            report.hands,
            report.totals,
            lay,
            pal,
            cursor=self.cursor,
            editing=self.editing,
        )
        for rect, h, s in cells:
            p.hotspots.append(Hotspot(pygame.Rect(rect), Command(Key.SELECT, index=CELL + h * 100 + s)))
