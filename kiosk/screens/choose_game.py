"""Choose the game and its house options (the rule sheet's variant options).

Up/Down picks a game; Right (or a tap) moves to its options, where Up/Down
picks an option, Left/Right changes it, and each option shows its one-line
explanation from the engine (``option_help``). Select goes on to seating.
A game whose engine is not in this build is listed greyed out.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.games.base import Game, build_options, option_help
from kiosk.games.errors import GameError
from kiosk.games.registry import GAME_NAMES, find_game
from kiosk.screens.widgets import split, title_bar, touch_bar

__all__ = ["ChooseGameMode", "step_option"]

START = -1
OPTIONAL_NUMBER_START = 10
"""The first value an optional whole-number option takes when turned on from the screen."""


def step_option(value: Any, default: Any, choices: tuple[Any, ...] | None, direction: int) -> Any:
    """The next value of an option when Left (-1) or Right (+1) is pressed.

    >>> step_option(True, False, None, 1), step_option("a", "a", ("a", "b"), 1)
    (False, 'b')
    >>> step_option(100, 100, None, 1), step_option(30, 30, None, -1), step_option(0, 0, None, -1)
    (110, 25, 0)

    An optional whole number (default none, such as Smear's cap on the non-bidders' score) turns
    on at 10 and steps by one; stepping below 1 turns it off again:

    >>> step_option(None, None, None, 1), step_option(14, None, None, 1), step_option(1, None, None, -1)
    (10, 15, None)
    >>> step_option(None, None, None, -1) is None
    True
    """
    if default is None and (value is None or (isinstance(value, int) and not isinstance(value, bool))):
        if value is None:
            return OPTIONAL_NUMBER_START if direction > 0 else None
        return value + direction if value + direction >= 1 else None
    if choices:
        i = choices.index(value) if value in choices else 0
        return choices[(i + direction) % len(choices)]
    if isinstance(default, bool):
        return not value
    if isinstance(default, int):
        step = 10 if abs(default) >= 50 else 5 if abs(default) >= 20 else 1
        return max(0, value + direction * step)
    if isinstance(default, float):
        return max(0.0, round(value + direction * 0.5, 3))
    return value


class ChooseGameMode(Mode):
    """The first screen: which game, and with which house rules."""

    name: ClassVar[str] = "choose_game"
    title = "Choose a game"

    def __init__(self, game: str = "nerts", options: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.games: list[tuple[str, type[Game] | None]] = []
        for name in GAME_NAMES:
            try:
                self.games.append((name, find_game(name)))
            except (GameError, ImportError, AttributeError):
                # An engine that is missing (or half-installed) is listed greyed out.
                self.games.append((name, None))
        names = [g for g, _ in self.games]
        self.cursor = names.index(game) if game in names else 0
        self.in_options = False
        self.option_cursor = 0
        self.values: dict[str, dict[str, Any]] = {}
        if options:
            self.values[names[self.cursor]] = dict(options)

    # -- state ----------------------------------------------------------------------------
    @property
    def game_name(self) -> str:
        return self.games[self.cursor][0]

    @property
    def game_class(self) -> type[Game] | None:
        return self.games[self.cursor][1]

    def option_rows(self) -> list[tuple[str, Any, str, tuple[Any, ...] | None, Any]]:
        """(name, default, help, choices, current value) of the chosen game's options."""
        cls = self.game_class
        if cls is None:
            return []
        chosen = self.values.setdefault(self.game_name, {})
        return [(n, d, h, c, chosen.get(n, d)) for n, d, h, c in option_help(cls.options_type)]

    def options(self) -> dict[str, Any]:
        """The house options chosen so far that differ from the defaults."""
        return {n: v for n, d, _, _, v in self.option_rows() if v != d}

    # -- commands -----------------------------------------------------------------------------
    def handle(self, command: Command) -> bool:
        key, index = command.key, command.index
        if key is Key.SELECT and index == START:
            return self._go()
        if index is not None and key is Key.SELECT and not self.in_options:
            self.cursor = index
            self.option_cursor = 0
            return True
        if index is not None and key in (Key.LEFT, Key.RIGHT):
            self.in_options = True
            self.option_cursor = index
        rows = self.option_rows()
        if key is Key.UP or key is Key.DOWN:
            d = -1 if key is Key.UP else 1
            if self.in_options and rows:
                self.option_cursor = (self.option_cursor + d) % len(rows)
            else:
                self.cursor = (self.cursor + d) % len(self.games)
                self.option_cursor = 0
            return True
        if key is Key.RIGHT and not self.in_options:
            if rows:
                self.in_options = True
                return True
            return False
        if key in (Key.LEFT, Key.RIGHT) and self.in_options and rows:
            name, default, _, choices, value = rows[self.option_cursor]
            stepped = step_option(value, default, choices, -1 if key is Key.LEFT else 1)
            if self._is_allowed(name, stepped):
                self.values[self.game_name][name] = stepped
            return True
        if key is Key.BACK and self.in_options:
            self.in_options = False
            return True
        if key is Key.SELECT:
            return self._go()
        return False

    def _is_allowed(self, name: str, value: Any) -> bool:
        """True if the game accepts ``value`` for option ``name`` (with the other
        options as chosen); a step to a value the game refuses is not taken."""
        cls = self.game_class
        if cls is None:
            return False
        try:
            build_options(cls.options_type, {**self.values.get(self.game_name, {}), name: value},
                          game=self.game_name)
        except GameError:
            return False
        return True

    def _go(self) -> bool:
        cls = self.game_class
        if cls is None:
            self.app.show_banner(f"{self.game_name} is not available in this build")
            return True
        try:
            build_options(cls.options_type, self.options(), game=self.game_name)
        except GameError as exc:
            self.app.show_banner(str(exc))
            return True
        from kiosk.screens.seats import SeatsMode

        self.app.set_mode(SeatsMode(cls, self.options()))
        return True

    # -- drawing --------------------------------------------------------------------------------
    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        area = title_bar(p, lay, pal, self.title, "sound off" if app.sounds.muted else "")
        area = touch_bar(
            p, lay, pal, area, [("Start", Command(Key.SELECT, index=START)), ("Back", Command(Key.BACK))]
        )
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        if lay.portrait:
            games_rect, opts_rect = split(area, 0.38, vertical=False, gap=lay.margin)
        else:
            games_rect, opts_rect = split(area, 0.32, vertical=True, gap=2 * lay.margin)
        self._draw_games(p, games_rect)
        self._draw_options(p, opts_rect)

    def _draw_games(self, p: Painter, rect: pygame.Rect) -> None:
        lay, pal = self.app.layout, self.app.palette
        px = lay.px("body")
        h = p.fonts.get(px).get_linesize() + lay.margin
        # One game a row; two columns only when the rows would not fit.
        cols = 1 if h * len(self.games) <= rect.height else 2
        w = rect.width // cols
        cells = [
            pygame.Rect(
                rect.left + (i % cols) * w,
                rect.top + (i // cols) * h,
                w - (lay.margin if cols > 1 else 0),
                h - 4,
            )
            for i in range(len(self.games))
        ]
        for i, ((name, cls), cell) in enumerate(zip(self.games, cells, strict=True)):
            selected = i == self.cursor
            bg = pal.selected if selected and not self.in_options else pal.panel
            label = cls.title if cls is not None else name
            p.button(
                cell,
                "",
                Command(Key.SELECT, index=i),
                px,
                fg=pal.text,
                bg=bg,
                edge=pal.accent if selected else None,
            )
            p.fit(
                label,
                cell.inflate(-2 * lay.margin, 0),
                px,
                pal.text if cls else pal.dim,
                "midleft",
                min_px=lay.px("label"),
            )

    def _draw_options(self, p: Painter, rect: pygame.Rect) -> None:
        lay, pal = self.app.layout, self.app.palette
        rows = self.option_rows()
        if self.game_class is None:
            p.wrap("This game's rules engine is not in this build.", rect, lay.px("body"), pal.dim)
            return
        if not rows:
            p.wrap("This game has no house options.", rect, lay.px("body"), pal.dim)
            return
        vpx, hpx = lay.px("body"), lay.px("label")
        # The picked option's explanation in full, below the list.
        help_h = 3 * p.fonts.get(hpx).get_linesize()
        current = rows[min(self.option_cursor, len(rows) - 1)]
        p.wrap(
            f"{current[0].replace('_', ' ')}: {current[2]}",
            pygame.Rect(rect.left, rect.bottom - help_h, rect.width, help_h),
            hpx,
            pal.text,
            max_lines=3,
        )
        rect = pygame.Rect(rect.left, rect.top, rect.width, rect.height - help_h - lay.margin)
        row_h = p.fonts.get(vpx).get_linesize() + p.fonts.get(hpx).get_linesize() + lay.margin
        fit = max(1, rect.height // row_h)
        first = min(max(0, self.option_cursor - fit + 1), max(0, len(rows) - fit))
        btn_w = p.measure("−", vpx)[0] + 3 * lay.margin
        for n, i in enumerate(range(first, min(len(rows), first + fit))):
            name, default, help_text, _, value = rows[i]
            r = pygame.Rect(rect.left, rect.top + n * row_h, rect.width, row_h - lay.margin // 2)
            selected = self.in_options and i == self.option_cursor
            p.box(r, pal.selected if selected else pal.panel, 0, radius=6)
            top = pygame.Rect(
                r.left + lay.margin,
                r.top,
                r.width - 2 * btn_w - 3 * lay.margin,
                p.fonts.get(vpx).get_linesize(),
            )
            shown = "on" if value is True else "off" if value is False else str(value)
            p.fit(
                f"{name.replace('_', ' ')}: {shown}",
                top,
                vpx,
                pal.accent if value != default else pal.text,
                "midleft",
                min_px=hpx,
            )
            p.fit(
                help_text,
                pygame.Rect(
                    r.left + lay.margin, top.bottom, r.width - 2 * lay.margin, p.fonts.get(hpx).get_linesize()
                ),
                hpx,
                pal.dim,
                "midleft",
            )
            minus = pygame.Rect(r.right - 2 * btn_w - lay.margin, r.top + 2, btn_w, top.height)
            plus = pygame.Rect(r.right - btn_w, r.top + 2, btn_w, top.height)
            p.button(minus, "−", Command(Key.LEFT, index=i), vpx, fg=pal.text, bg=pal.panel_edge)
            p.button(plus, "+", Command(Key.RIGHT, index=i), vpx, fg=pal.text, bg=pal.panel_edge)


def options_summary(options: dict[str, Any]) -> str:
    """A short line naming the house options that differ from the defaults."""
    if not options:
        return "standard rules"
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in options.items())
