"""Game over: the winner (or the tied winners), the final totals, and the scores by hand.

Select starts a new game (the same game and options are offered first);
Scores shows the full sheet, still correctable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.screens.widgets import score_table, title_bar, touch_bar

__all__ = ["GameOverMode", "winner_line"]


def winner_line(winners: Sequence[str]) -> str:
    """The headline for the winners.

    >>> winner_line(["Ana"]), winner_line(["Ana", "Ben"]), winner_line(["Ana", "Ben", "Cal"]), winner_line([])
    ('Ana wins!', 'Tie: Ana and Ben win!', 'Tie: Ana, Ben and Cal win!', 'Game over')
    """
    if not winners:
        return "Game over"
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return f"Tie: {', '.join(winners[:-1])} and {winners[-1]} win!"


class GameOverMode(Mode):
    """The last screen of a game."""

    name: ClassVar[str] = "game_over"
    title = "Game over"

    def handle(self, command: Command) -> bool:
        app = self.app
        if command.key is Key.SELECT:
            from kiosk.screens.choose_game import ChooseGameMode

            header = app.session.header if app.session is not None else None
            app.set_mode(
                ChooseGameMode(
                    header.game if header else app.config.game, dict(header.options) if header else None
                )
            )
            return True
        if command.key is Key.SCORES:
            from kiosk.screens.score_sheet import ScoreSheetMode

            app.set_mode(ScoreSheetMode())
            return True
        if command.key is Key.UNDO:
            # Undoing the last event of a finished game reopens it.
            app.undo(command.t_ns or app.now())
            report = app.report()
            if report is not None and not report.finished:
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
            [("New", Command(Key.SELECT)), ("Scores", Command(Key.SCORES)), ("Undo", Command(Key.UNDO))],
        )
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        report = app.report()
        if report is None:
            return
        hpx = lay.px("headline")
        head_h = p.fonts.get(hpx).get_linesize()
        p.fit(
            winner_line(report.winners),
            pygame.Rect(area.left, area.top, area.width, head_h),
            hpx,
            pal.accent,
            "center",
            min_px=lay.px("key"),
        )
        rest = pygame.Rect(
            area.left, area.top + head_h + lay.margin, area.width, area.height - head_h - lay.margin
        )
        score_table(p, rest, report.seats, report.hands, report.totals, lay, pal)
