"""Helpers for the kiosk app tests: headless SDL, a hand-driven clock, apps on a recording painter."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402

from kiosk.app.feeds import LogFeed  # noqa: E402
from kiosk.app.inputs_adapter import command_for_input  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.app.paint import Painter, RecordingPainter, SurfacePainter  # noqa: E402
from kiosk.app.sound import SoundCues  # noqa: E402
from kiosk.config import KioskConfig  # noqa: E402
from kiosk.games.referee import LogHeader, TableEvent  # noqa: E402

SIZES = [(800, 480), (1920, 1080), (720, 1280)]
MS = 1_000_000
S = 1_000_000_000


class FakeClock:
    """A monotonic clock that moves only when told (time is passed in)."""

    def __init__(self, start_ns: int = 1_000 * S) -> None:
        self.t = start_ns

    def __call__(self) -> int:
        return self.t

    def advance(self, ns: int) -> None:
        self.t += ns


def make_app(
    tmp_path: Path,
    size: tuple[int, int] = (800, 480),
    *,
    painter: Painter | None = None,
    clock: FakeClock | None = None,
    config: KioskConfig | None = None,
    store: str = "events.sqlite3",
) -> App:
    """An app on a recording painter (or the given one) with a fake clock and a fresh store."""
    cfg = config or KioskConfig(display=f"{size[0]}x{size[1]}", camera="replay:demo")
    return App(
        cfg,
        painter=painter or RecordingPainter(size),
        clock=clock or FakeClock(),
        sounds=SoundCues(muted=False, enabled=False),
        store_path=tmp_path / store,
        translate=command_for_input,
    )


def surface_painter(size: tuple[int, int]) -> SurfacePainter:
    """A painter on an off-screen surface (for screenshots)."""
    if not pygame.get_init():
        pygame.init()
    return SurfacePainter(pygame.Surface(size))


def feed_until(
    app: App, events: list[TableEvent], clock: FakeClock, *, step_ns: int = 50 * MS, limit_s: float = 2_000.0
) -> None:
    """Replays ``events`` through the app's loop at real pace on the fake clock until all are in."""
    feed = LogFeed(events)
    app.attach_feed(feed)
    end = clock.t + int(limit_s * S)
    while not feed.done and clock.t < end:
        clock.advance(step_ns)
        app.step()
    app.step()


def nerts_header(seats: tuple[str, ...] = ("Ana", "Ben", "Cal", "Dee"), **options: object) -> LogHeader:
    return LogHeader("nerts", seats, dict(options))
