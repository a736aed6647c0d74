"""The drawing surface screens draw on: pygame for real, a recorder for tests.

Screens never call ``pygame.draw`` themselves; they call a :class:`Painter`.
:class:`SurfacePainter` draws on a pygame surface; :class:`RecordingPainter`
(after mgedmin/pyspacewar's surface stub) turns the same calls into text lines
and :class:`Item` values, measured with the real font, so a test can assert a
layout: everything on screen, nothing overlapping, every letter big enough.

A screen that offers something to touch draws it with :meth:`Painter.button`;
the painter remembers the rectangle and the command, and the loop turns a tap
inside it into that command.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from kiosk.app.theme import Color

__all__ = ["Painter", "SurfacePainter", "RecordingPainter", "Item", "Fonts", "Hotspot", "FONT_FILE"]

FONT_FILE = "DejaVuSans-Bold.ttf"
"""The shipped font (it has the suit symbols ♠♥♦♣, which pygame's default font lacks)."""


class Fonts:
    """Font objects by pixel size, loaded from the shipped font file."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._path = str(Path(__file__).resolve().parent.parent / "fonts" / FONT_FILE)
        self._cache: dict[int, pygame.font.Font] = {}

    def get(self, px: int) -> pygame.font.Font:
        if not pygame.font.get_init():
            # pygame.quit() (the end of a run) invalidates every font: start again.
            pygame.font.init()
            self._cache.clear()
        font = self._cache.get(px)
        if font is None:
            font = pygame.font.Font(self._path, px)
            self._cache[px] = font
        return font

    def reset(self) -> None:
        """Forgets every font (call after ``pygame.quit()``, which invalidates them)."""
        self._cache.clear()

    def measure(self, text: str, px: int) -> tuple[int, int]:
        """The width and height of ``text`` rendered at ``px``."""
        w, h = self.get(px).size(text)
        return (w, h)


_SHARED_FONTS: Fonts | None = None


def shared_fonts() -> Fonts:
    """One font cache for the process (fonts are read-only once loaded)."""
    global _SHARED_FONTS
    if _SHARED_FONTS is None:
        _SHARED_FONTS = Fonts()
    return _SHARED_FONTS


@dataclass(frozen=True, slots=True)
class Hotspot:
    """A touchable rectangle and the command a tap on it gives."""

    rect: pygame.Rect
    command: Any


@dataclass(frozen=True, slots=True)
class Item:
    """One recorded draw call (for layout assertions)."""

    kind: str
    rect: pygame.Rect
    text: str = ""
    px: int = 0
    color: Color = (0, 0, 0)


def _anchored(size: tuple[int, int], pos: tuple[int, int], anchor: str) -> pygame.Rect:
    r = pygame.Rect((0, 0), size)
    setattr(r, anchor, pos)
    return r


class Painter(ABC):
    """What screens draw with. Coordinates are pixels; ``anchor`` is a pygame.Rect
    attribute name (``topleft``, ``center``, ``midright``, ...)."""

    def __init__(self, size: tuple[int, int], fonts: Fonts | None = None) -> None:
        self.width, self.height = size
        self.fonts = fonts or shared_fonts()
        self.hotspots: list[Hotspot] = []

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    def begin(self) -> None:
        """Starts a new frame: forgets the last frame's touch targets."""
        self.hotspots = []

    def measure(self, text: str, px: int) -> tuple[int, int]:
        return self.fonts.measure(text, px)

    @abstractmethod
    def fill(self, color: Color) -> None: ...

    @abstractmethod
    def box(self, rect: pygame.Rect, color: Color, width: int = 0, radius: int = 0) -> None:
        """A filled (``width`` 0) or outlined rectangle."""

    @abstractmethod
    def line(self, start: tuple[int, int], end: tuple[int, int], color: Color, width: int = 1) -> None: ...

    @abstractmethod
    def polygon(self, points: Sequence[tuple[float, float]], color: Color, width: int = 0) -> None: ...

    @abstractmethod
    def circle(self, center: tuple[int, int], radius: int, color: Color, width: int = 0) -> None: ...

    @abstractmethod
    def _text(self, text: str, rect: pygame.Rect, px: int, color: Color) -> None: ...

    @abstractmethod
    def image(self, pixels: Any, rect: pygame.Rect) -> None:
        """Draws an RGB ``numpy`` array (H×W×3) scaled into ``rect``."""

    def text(
        self, text: str, pos: tuple[int, int], px: int, color: Color, anchor: str = "topleft"
    ) -> pygame.Rect:
        """Draws one line of text and returns the rectangle it covers."""
        rect = _anchored(self.measure(text, px), pos, anchor)
        if text:
            self._text(text, rect, px, color)
        return rect

    def fit(
        self,
        text: str,
        rect: pygame.Rect,
        px: int,
        color: Color,
        anchor: str = "midleft",
        min_px: int | None = None,
    ) -> pygame.Rect:
        """Draws text inside ``rect``: shrinks it down to ``min_px`` if it is too wide,
        then shortens it with an ellipsis, so it never spills out."""
        size = px
        floor = min_px if min_px is not None else px
        while size > floor and self.measure(text, size)[0] > rect.width:
            size -= 1
        shown = text
        while shown and self.measure(shown, size)[0] > rect.width:
            shown = shown[:-2] + "…" if len(shown) > 1 else ""
        pos = getattr(rect, anchor)
        return self.text(shown, pos, size, color, anchor)

    def wrap(self, text: str, rect: pygame.Rect, px: int, color: Color, max_lines: int = 2) -> int:
        """Draws text word-wrapped into ``rect`` (at most ``max_lines``, the last
        shortened with an ellipsis); returns the height used."""
        words = text.split()
        lines: list[str] = []
        current = ""
        for word in words:
            trial = f"{current} {word}".strip()
            if self.measure(trial, px)[0] <= rect.width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        if current:
            lines.append(current)
        if len(lines) > max_lines:
            lines = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1 :])]
        line_h = self.fonts.get(px).get_linesize()
        y = rect.top
        for line in lines:
            if y + line_h > rect.bottom + 1:
                break
            self.fit(line, pygame.Rect(rect.left, y, rect.width, line_h), px, color, "topleft")
            y += line_h
        return y - rect.top

    def button(
        self,
        rect: pygame.Rect,
        label: str,
        command: Any,
        px: int,
        *,
        fg: Color,
        bg: Color,
        edge: Color | None = None,
    ) -> None:
        """Draws a touch button and registers it as a hotspot for ``command``."""
        self.box(rect, bg, 0, radius=max(4, rect.height // 6))
        if edge is not None:
            self.box(rect, edge, 2, radius=max(4, rect.height // 6))
        self.fit(label, rect.inflate(-8, 0), px, fg, "center", min_px=px)
        self.hotspots.append(Hotspot(pygame.Rect(rect), command))

    def hit(self, pos: tuple[int, int]) -> Any:
        """The command of the touch target under ``pos`` (the topmost), or None."""
        for spot in reversed(self.hotspots):
            if spot.rect.collidepoint(pos):
                return spot.command
        return None


class SurfacePainter(Painter):
    """Draws on a pygame surface (the display, or an off-screen surface for screenshots)."""

    def __init__(self, surface: pygame.Surface, fonts: Fonts | None = None) -> None:
        super().__init__(surface.get_size(), fonts)
        self.surface = surface

    def fill(self, color: Color) -> None:
        self.surface.fill(color)

    def box(self, rect: pygame.Rect, color: Color, width: int = 0, radius: int = 0) -> None:
        pygame.draw.rect(self.surface, color, rect, width, border_radius=radius)

    def line(self, start: tuple[int, int], end: tuple[int, int], color: Color, width: int = 1) -> None:
        pygame.draw.line(self.surface, color, start, end, width)

    def polygon(self, points: Sequence[tuple[float, float]], color: Color, width: int = 0) -> None:
        if len(points) >= 3:
            pygame.draw.polygon(self.surface, color, list(points), width)

    def circle(self, center: tuple[int, int], radius: int, color: Color, width: int = 0) -> None:
        pygame.draw.circle(self.surface, color, center, radius, width)

    def _text(self, text: str, rect: pygame.Rect, px: int, color: Color) -> None:
        self.surface.blit(self.fonts.get(px).render(text, True, color), rect)

    def image(self, pixels: Any, rect: pygame.Rect) -> None:
        # pygame wants (W, H, 3); frames are (H, W, 3).
        surf = pygame.surfarray.make_surface(pixels.swapaxes(0, 1))
        self.surface.blit(pygame.transform.smoothscale(surf, rect.size), rect)


class RecordingPainter(Painter):
    """Records draw calls as text lines and :class:`Item` values (no pixels)."""

    def __init__(self, size: tuple[int, int], fonts: Fonts | None = None) -> None:
        super().__init__(size, fonts)
        self.log: list[str] = []
        self.items: list[Item] = []

    def begin(self) -> None:
        super().begin()
        self.log = []
        self.items = []

    def _record(self, item: Item, line: str) -> None:
        self.items.append(item)
        self.log.append(line)

    def fill(self, color: Color) -> None:
        self._record(Item("fill", self.rect, color=color), f"fill {color}")

    def box(self, rect: pygame.Rect, color: Color, width: int = 0, radius: int = 0) -> None:
        kind = "box" if width == 0 else "frame"
        self._record(Item(kind, pygame.Rect(rect), color=color), f"{kind} {tuple(rect)} {color}")

    def line(self, start: tuple[int, int], end: tuple[int, int], color: Color, width: int = 1) -> None:
        r = pygame.Rect(
            min(start[0], end[0]),
            min(start[1], end[1]),
            abs(end[0] - start[0]) + 1,
            abs(end[1] - start[1]) + 1,
        )
        self._record(Item("line", r, color=color), f"line {start}-{end} {color}")

    def polygon(self, points: Sequence[tuple[float, float]], color: Color, width: int = 0) -> None:
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        r = pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1, int(max(ys) - min(ys)) + 1)
        self._record(Item("polygon", r, color=color), f"polygon {len(points)} points {tuple(r)} {color}")

    def circle(self, center: tuple[int, int], radius: int, color: Color, width: int = 0) -> None:
        r = pygame.Rect(center[0] - radius, center[1] - radius, 2 * radius, 2 * radius)
        self._record(Item("circle", r, color=color), f"circle {center} r={radius} {color}")

    def _text(self, text: str, rect: pygame.Rect, px: int, color: Color) -> None:
        self._record(Item("text", pygame.Rect(rect), text, px, color), f"text {text!r} {tuple(rect)} px={px}")

    def image(self, pixels: Any, rect: pygame.Rect) -> None:
        self._record(Item("image", pygame.Rect(rect)), f"image {getattr(pixels, 'shape', '?')} {tuple(rect)}")

    def texts(self) -> list[str]:
        """Every text drawn in this frame, in order."""
        return [i.text for i in self.items if i.kind == "text"]

    def find(self, fragment: str) -> Item:
        """The first text item containing ``fragment``; AssertionError listing the texts if none."""
        for item in self.items:
            if item.kind == "text" and fragment in item.text:
                return item
        raise AssertionError(f"no text containing {fragment!r}; texts: {self.texts()}")

    def dump(self) -> str:
        return "\n".join(self.log)
