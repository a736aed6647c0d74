"""History: every ruling so far, newest first, with undo of the last one.

Undo (the button, or U) logs an ``undo`` event: the referee takes back the
last effective event and re-folds the rest, and the screen shows what was
undone. Up/Down scroll; Back returns to play.
"""

from __future__ import annotations

from typing import ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.games.referee import format_seconds
from kiosk.screens.widgets import RULING_COLOURS, title_bar, touch_bar

__all__ = ["HistoryMode"]


class HistoryMode(Mode):
    """The rulings of the game, with undo."""

    name: ClassVar[str] = "history"
    title = "History"

    def __init__(self) -> None:
        super().__init__()
        self.scroll = 0

    def handle(self, command: Command) -> bool:
        app = self.app
        key = command.key
        if key is Key.UNDO:
            app.undo(command.t_ns or app.now())
            self.scroll = 0
            return True
        if key is Key.UP:
            self.scroll = max(0, self.scroll - 1)
            return True
        if key is Key.DOWN:
            self.scroll += 1
            return True
        if key in (Key.BACK, Key.HISTORY, Key.SELECT):
            from kiosk.screens.play import PlayMode

            app.set_mode(PlayMode())
            return True
        return False

    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        area = title_bar(p, lay, pal, f"{app.game_title()}: {self.title}")
        area = touch_bar(
            p,
            lay,
            pal,
            area,
            [
                ("Undo", Command(Key.UNDO)),
                ("Older", Command(Key.DOWN)),
                ("Newer", Command(Key.UP)),
                ("Back", Command(Key.BACK)),
            ],
        )
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        session = app.session
        rulings = list(session.rulings) if session is not None else []
        if not rulings:
            p.wrap("No rulings yet.", area, lay.px("body"), pal.dim)
            return
        px, tpx = lay.px("body"), lay.px("label")
        row_h = p.fonts.get(px).get_linesize() + lay.margin // 2
        time_w = p.measure("0000.0 s", tpx)[0] + lay.margin
        newest_first = list(reversed(rulings))
        self.scroll = min(self.scroll, max(0, len(newest_first) - 1))
        y = area.top
        for r in newest_first[self.scroll :]:
            if y + row_h > area.bottom:
                break
            t = f"{float(format_seconds(r.t_ns)):.1f} s"
            p.fit(t, pygame.Rect(area.left, y, time_w, row_h), tpx, pal.dim, "midleft")
            colour = getattr(pal, RULING_COLOURS.get(r.kind, "text"))
            # A ruling wraps onto a second line rather than losing its end (who takes what back).
            used = p.wrap(
                r.text,
                pygame.Rect(area.left + time_w, y, area.width - time_w, area.bottom - y),
                px,
                colour,
                max_lines=2,
            )
            y += max(row_h, used + lay.margin // 2)
