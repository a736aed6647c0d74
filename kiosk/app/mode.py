"""Screens are modes (after mgedmin/pyspacewar's ``UIMode``).

A mode draws one screen and handles commands. The loop owns exactly one
current mode; a mode switches to another with ``app.set_mode(...)``. Modes
change the game only through the app's session (which logs every event
before the referee sees it), never by touching an engine's state directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from kiosk.app.commands import Command
from kiosk.app.paint import Painter
from kiosk.games.referee import Ruling

if TYPE_CHECKING:
    from kiosk.app.loop import App

__all__ = ["Mode"]


class Mode:
    """One screen. Subclasses override :meth:`draw` and :meth:`handle`."""

    title: ClassVar[str] = ""

    def __init__(self) -> None:
        self._app: App | None = None

    @property
    def app(self) -> App:
        if self._app is None:
            raise RuntimeError(f"{type(self).__name__} is not the current mode of an app")
        return self._app

    def enter(self, app: App) -> None:
        """Called when the mode becomes current."""
        self._app = app

    def leave(self) -> None:
        """Called when another mode replaces this one."""

    def handle(self, command: Command) -> bool:
        """Handles one command; returns True if the screen must be redrawn."""
        return False

    def on_rulings(self, rulings: list[Ruling]) -> bool:
        """Called after events were recorded; returns True to redraw."""
        return bool(rulings)

    def tick(self, now_ns: int) -> bool:
        """Called every loop pass with the injected time; returns True to redraw
        (a highlight that fades, a countdown)."""
        return False

    def draw(self, p: Painter) -> None:
        """Draws the whole screen (the app adds banners on top)."""
