"""Play: the table as the referee sees it, every ruling as it happens, the totals.

The screen has three parts: the game's own panel (drawn from the referee's
public view by the panel registered for the game in :data:`PANELS`), the
rulings (the newest large, with the measured gap the referee put in its text),
and each seat's running total. Seat buttons log the game's call ("Nerts!")
with the button's own time stamp; Undo takes back the last ruling's event;
Scores and History open those screens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.nerts_referee_view import NertsTableView
from kiosk.games.referee import Referee, RefereeReport, Ruling
from kiosk.screens.widgets import ruling_lines, split, title_bar, touch_bar

__all__ = ["PlayMode", "PANELS", "Panel", "public_view", "SEAT_EVENTS"]

Panel = Callable[[Painter, pygame.Rect, Any, RefereeReport, Layout, Palette], None]
"""Draws a game's table from its public view into a rectangle."""

PANELS: dict[str, Panel] = {}
"""Game name -> its panel; games without one get the seat list."""

TABLE_SHARE: dict[str, float] = {"gnoming": 0.64}
"""Share of a landscape screen's width the game's table takes (the rest shows the rulings)."""

SEAT_EVENTS: dict[str, dict[Key, str]] = {
    "nerts": {Key.CALL: "call", Key.STUCK: "stuck"},
    "rummy_3_13": {Key.CALL: "call"},
}
"""Game name -> which event a seat's button logs (the Nerts call, a stuck declaration, the 3-13
caller's "draw" / "discard")."""


def _rummy_call(referee: Any) -> dict[str, Any]:
    from kiosk.screens.panel_rummy import next_call

    return {"call": next_call(referee.public_view())}


CALL_DATA: dict[str, Callable[[Any], dict[str, Any]]] = {"rummy_3_13": _rummy_call}
"""Game name -> the fields of the event a seat's call button logs (3-13: the caller's next word,
read from the referee's public view)."""


def public_view(referee: Referee) -> object | None:
    """The referee's public view (what everyone at the table can see, ``STYLE.md``), or None
    for a referee that offers none; panels draw only from it, never from the referee."""
    return referee.public_view()


def _load_panels() -> None:
    # Panels import their game's view types; a game missing from this build has no panel.
    import importlib

    for game, module in (
        ("nerts", "kiosk.screens.panel_nerts"),
        ("kierki", "kiosk.screens.panel_tricks"),
        ("smear", "kiosk.screens.panel_tricks"),
        ("rummy_3_13", "kiosk.screens.panel_rummy"),
        ("gnoming", "kiosk.screens.panel_gnoming"),
    ):
        if game in PANELS:
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is not None and exc.name.startswith("kiosk."):
                continue
            raise
        PANELS[game] = mod.draw_panel


class PlayMode(Mode):
    """The screen during play."""

    name: ClassVar[str] = "play"
    title = "Play"

    def enter(self, app: Any) -> None:
        super().enter(app)
        _load_panels()

    def handle(self, command: Command) -> bool:
        app = self.app
        key = command.key
        session = app.session
        if session is None:
            return False
        t = command.t_ns or app.now()
        if key in (Key.CALL, Key.STUCK) and command.seat is not None:
            game = session.header.game
            etype = SEAT_EVENTS.get(game, {}).get(key)
            seat_index = app.button_map.get(command.seat, command.seat)
            if etype is None or seat_index >= len(session.seats):
                return False
            data = CALL_DATA[game](session.referee) if game in CALL_DATA and key is Key.CALL else {}
            app.record(etype, t, seat=session.seats[seat_index], err_ns=command.err_ns, data=data)
            return True
        if key is Key.UNDO:
            app.undo(t)
            return True
        if key is Key.SCORES:
            from kiosk.screens.score_sheet import ScoreSheetMode

            app.set_mode(ScoreSheetMode())
            return True
        if key is Key.HISTORY:
            from kiosk.screens.history import HistoryMode

            app.set_mode(HistoryMode())
            return True
        return False

    def on_rulings(self, rulings: list[Ruling]) -> bool:
        return True

    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        session = app.session
        if session is None:
            title_bar(p, lay, pal, "No game")
            return
        report = session.report()
        title = app.game_title()
        hands = len(report.hands)
        view = session.referee.public_view()
        if isinstance(view, NertsTableView) and view.phase in ("called", "stalemate"):
            # A Nerts hand called but not yet ended (its audit under way) is scored in the report
            # already; it is still the hand at the table.
            hands -= 1
        right = "sound off" if app.sounds.muted else ""
        area = title_bar(p, lay, pal, f"{title}: hand {hands + (0 if report.finished else 1)}", right)
        area = touch_bar(
            p,
            lay,
            pal,
            area,
            [
                ("Undo", Command(Key.UNDO)),
                ("Scores", Command(Key.SCORES)),
                ("History", Command(Key.HISTORY)),
                ("Mute", Command(Key.MUTE)),
            ],
        )
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        if lay.portrait:
            table, side = split(area, 0.62, vertical=False, gap=2 * lay.margin)
        else:
            share = TABLE_SHARE.get(session.header.game, 0.52)
            table, side = split(area, share, vertical=True, gap=2 * lay.margin)
        panel = PANELS.get(session.header.game)
        view = public_view(session.referee)
        if panel is not None and view is not None:
            panel(p, table, view, report, lay, pal)
        else:
            seat_totals(p, table, report, lay, pal)
        self._draw_side(p, side, report)

    def _draw_side(self, p: Painter, rect: pygame.Rect, report: RefereeReport) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.box(rect, pal.panel, 0, radius=8)
        inner = rect.inflate(-2 * lay.margin, -2 * lay.margin)
        p.text("Rulings", inner.topleft, lay.px("label"), pal.dim)
        top = inner.top + p.fonts.get(lay.px("label")).get_linesize()
        rulings = list(app.last_rulings)
        if report.infractions:
            last = report.infractions[-1]
            rulings.append(Ruling(last.t_ns, "infraction", last.text, (last.seat,) if last.seat else ()))
            rulings.sort(key=lambda r: r.t_ns)
        ruling_lines(p, pygame.Rect(inner.left, top, inner.width, inner.bottom - top), rulings[-8:], lay, pal)


def seat_totals(p: Painter, rect: pygame.Rect, report: RefereeReport, lay: Layout, pal: Palette) -> None:
    """Each seat's total, large, one row each (the panel of a game without its own)."""
    px = lay.px("key")
    row_h = min(p.fonts.get(px).get_linesize() + lay.margin, max(1, rect.height // max(1, len(report.seats))))
    for i, seat in enumerate(report.seats):
        r = pygame.Rect(rect.left, rect.top + i * row_h, rect.width, row_h - 2)
        if r.bottom > rect.bottom:
            break
        score = str(report.totals.get(seat, 0))
        w = p.measure(score, px)[0]
        p.fit(
            seat,
            pygame.Rect(r.left, r.top, r.width - w - 2 * lay.margin, r.height),
            lay.px("body"),
            pal.text,
            "midleft",
            min_px=lay.px("label"),
        )
        p.text(score, (r.right, r.centery), px, pal.accent, "midright")
