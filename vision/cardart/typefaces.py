"""Real typefaces for the randomised training designs: the fonts installed on the machine.

The Hershey fonts OpenCV draws with are five stroke alphabets; printed decks use
real typefaces (serif, sans, condensed, bold, old-style figures), and an index
classifier taught on five alphabets reads an unfamiliar one as "not an index".
``vision.training.install_decks`` installs a set of free font packages, and
with ``train --typefaces`` the randomised procedural designs
(:func:`vision.cardart.procedural.random_style`) draw their ranks, and some
their suit symbols, in them. Nothing at run time needs a font: without any,
the designs keep the Hershey fonts.

Fonts are rasterised with pygame's FreeType module (pygame is a runtime
dependency already), imported only when a typeface is drawn.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["FONT_DIRS", "SUIT_CHARS", "typeface_files", "suit_typefaces", "typeface_mask"]

FONT_DIRS: tuple[Path, ...] = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
"""Where Debian's font packages put outline fonts."""

NEEDED = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-!"
"""Every character a card's index or a Gnoming face may print."""

SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
"""The black suit symbols of Unicode (filled spade, heart, diamond, club)."""

_SKIPPED = (
    "d050000l",
    "standardsymbols",
    "dingbat",
    "symbol",
    "wingding",
    "opensymbol",
    "emoji",
    "math",
    "biolinum_k",
)
"""Fonts that map letters to pictures (their "A" is not an A), mathematical ones, and Biolinum
Keyboard (letters on keycaps)."""

_TOO_THIN = ("hairline", "thin", "extralight")
"""Weights no card printer uses: a 12-pixel index in them is a faint scratch."""

_RENDER_SIZE = 96


@functools.lru_cache(maxsize=1)
def _freetype() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype

    pygame.freetype.init()
    return pygame.freetype


@functools.lru_cache(maxsize=256)
def _font(path: str) -> Any:
    font = _freetype().Font(path, _RENDER_SIZE)
    font.antialiased = True
    return font


def _has_glyphs(path: str, chars: str) -> bool:
    try:
        metrics = _font(path).get_metrics(chars)
    except (OSError, RuntimeError, ValueError):
        return False
    # None: no glyph for that character; an empty box (min x = max x): a blank stand-in glyph.
    return all(m is not None and m[1] > m[0] for m in metrics)


@functools.lru_cache(maxsize=1)
def typeface_files() -> tuple[str, ...]:
    """The installed outline fonts (TrueType and OpenType) that print every index character,
    sorted by path so a style seed picks the same font on every machine with the same packages."""
    found: list[str] = []
    for root in FONT_DIRS:
        if not root.is_dir():
            continue
        for p in root.rglob("*"):
            if p.suffix.lower() not in (".ttf", ".otf") or any(
                s in p.name.lower() for s in _SKIPPED + _TOO_THIN
            ):
                continue
            if _has_glyphs(str(p), NEEDED):
                found.append(str(p))
    return tuple(sorted(found))


@functools.lru_cache(maxsize=1)
def suit_typefaces() -> tuple[str, ...]:
    """Those of :func:`typeface_files` that also draw the four suit symbols."""
    return tuple(p for p in typeface_files() if _has_glyphs(p, "".join(SUIT_CHARS.values())))


@functools.lru_cache(maxsize=4096)
def typeface_mask(text: str, path: str) -> NDArray[np.uint8]:
    """Returns ``text`` set in the font at ``path`` as a tight 0..255 mask (white ink on black)."""
    surface, _ = _font(path).render(text, fgcolor=(255, 255, 255), bgcolor=(0, 0, 0))
    import pygame.surfarray

    canvas = np.ascontiguousarray(pygame.surfarray.array_red(surface).T, dtype=np.uint8)
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        return canvas
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()
