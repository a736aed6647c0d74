"""Colours, card palettes and text sizes that stay legible from 1.5 m.

Legibility is set by the visual angle of a capital letter at the viewing
distance (1.5 m, a player leaning back from the table), not by pixels. ISO
9241-303 asks for at least 16 arcminutes for reading; glanced labels get by
with less. The kiosk uses four text roles:

========  ===========  ==============================================
role      arcminutes   used for
========  ===========  ==============================================
label     8            headings, hints, option explanations
body      10           rulings, names, lists
key       14           scores, counts, the latest ruling
headline  20           the screen title, "Nerts!", the winner
========  ===========  ==============================================

A role's pixel size follows from the screen's pixel density, so the 7"
display, a 1080p monitor and the portrait Touch Display 2 each get letters of
the same physical height.

>>> lay = Layout(800, 480)
>>> lay.portrait, lay.px_per_mm
(False, 5.19)
>>> lay.px("label") < lay.px("body") < lay.px("key") < lay.px("headline")
True
>>> round(lay.cap_arcmin(lay.px("label")), 1) >= 8.0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Color",
    "Layout",
    "Palette",
    "TextRole",
    "ROLE_ARCMIN",
    "VIEWING_DISTANCE_MM",
    "CAP_HEIGHT_EM",
    "KNOWN_DENSITIES",
    "palette",
]

Color = tuple[int, int, int]
TextRole = Literal["label", "body", "key", "headline"]

VIEWING_DISTANCE_MM = 1500.0
"""How far the furthest player sits from the screen."""
CAP_HEIGHT_EM = 0.729
"""Capital-letter height of the shipped font (DejaVu Sans Bold) per pixel of font size."""
ROLE_ARCMIN: dict[str, float] = {"label": 8.0, "body": 10.0, "key": 14.0, "headline": 20.0}
"""Capital-letter height of each text role, in arcminutes at the viewing distance."""

KNOWN_DENSITIES: dict[tuple[int, int], float] = {
    (800, 480): 5.19,  # official 7" display: 154.08 x 85.92 mm active area
    (480, 800): 5.19,
    (720, 1280): 8.23,  # Touch Display 2 (7", portrait): 87.5 x 155.5 mm
    (1280, 720): 8.23,
}
MONITOR_PX_PER_MM = 3.62
"""A 24" 1080p monitor (531 mm wide): the assumption for any other size."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The screen's size and density, and the sizes derived from them."""

    width: int
    height: int
    px_per_mm: float = 0.0
    """0 means: the known density of this size, else a 24" monitor's."""

    def __post_init__(self) -> None:
        if self.px_per_mm <= 0:
            density = KNOWN_DENSITIES.get((self.width, self.height), MONITOR_PX_PER_MM)
            object.__setattr__(self, "px_per_mm", density)

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def px(self, role: TextRole) -> int:
        """The font size (pixels) of a text role: at least the role's capital height at 1.5 m,
        and on a screen larger than the 7" display, the 7" size scaled with the screen, so a
        large monitor is filled rather than left empty."""
        return max(_arcmin_px(role, self.px_per_mm), math.ceil(_BASE_PX[role] * self.scale))

    @property
    def scale(self) -> float:
        """How much larger than the 7" display (800x480) this screen is, never below 1."""
        long, short = max(self.width, self.height), min(self.width, self.height)
        return max(1.0, min(long / 800, short / 480))

    def cap_arcmin(self, font_px: int) -> float:
        """The visual angle (arcminutes at 1.5 m) of a capital at this font size."""
        cap_mm = font_px * CAP_HEIGHT_EM / self.px_per_mm
        return math.degrees(math.atan(cap_mm / VIEWING_DISTANCE_MM)) * 60.0

    @property
    def margin(self) -> int:
        """The gap kept around panels: 2 mm."""
        return max(4, round(2.0 * self.px_per_mm))

    def card_size(self, role: TextRole = "key") -> tuple[int, int]:
        """A card glyph (rank and suit) big enough for a text role, in the 5:7 card ratio."""
        # Tall enough for the rank above the suit, each a line of "label" text.
        h = max(round(self.px(role) * 1.45), math.ceil(2.3 * self.px("label")))
        return (round(h * 5 / 7), h)


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of the screen and of the four suits."""

    background: Color = (16, 46, 32)
    panel: Color = (28, 66, 48)
    panel_edge: Color = (70, 120, 95)
    text: Color = (245, 245, 240)
    dim: Color = (175, 200, 185)
    accent: Color = (255, 205, 60)
    good: Color = (110, 220, 120)
    bad: Color = (255, 110, 95)
    banner: Color = (170, 30, 30)
    card_face: Color = (250, 250, 246)
    card_edge: Color = (40, 40, 40)
    card_back: Color = (60, 80, 160)
    spade: Color = (20, 20, 20)
    heart: Color = (200, 20, 30)
    diamond: Color = (200, 20, 30)
    club: Color = (20, 20, 20)
    selected: Color = (60, 110, 190)

    def suit_colour(self, suit_letter: str) -> Color:
        """The ink of a suit letter (``S``, ``H``, ``D``, ``C``)."""
        return {"S": self.spade, "H": self.heart, "D": self.diamond, "C": self.club}.get(
            suit_letter.upper(), self.card_edge
        )


def _arcmin_px(role: str, px_per_mm: float) -> int:
    cap_mm = VIEWING_DISTANCE_MM * math.tan(math.radians(ROLE_ARCMIN[role] / 60.0))
    return math.ceil(cap_mm * px_per_mm / CAP_HEIGHT_EM)


_BASE_PX = {role: _arcmin_px(role, KNOWN_DENSITIES[(800, 480)]) for role in ROLE_ARCMIN}
"""The text sizes on the official 7" display."""

_FOUR_COLOUR = {"diamond": (20, 80, 200), "club": (20, 130, 40)}


def palette(four_colour_deck: bool = False) -> Palette:
    """The screen palette; with ``four_colour_deck`` diamonds are blue and clubs green.

    >>> palette(True).suit_colour("D") != palette(True).suit_colour("H")
    True
    """
    if four_colour_deck:
        return Palette(diamond=_FOUR_COLOUR["diamond"], club=_FOUR_COLOUR["club"])
    return Palette()
