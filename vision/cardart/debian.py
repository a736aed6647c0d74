"""Artist card decks from Debian's ``gnome-cards-data`` (aisleriot's SVG themes).

Each theme is one SVG laid out as a 13×5 grid: clubs, diamonds, hearts and
spades from Ace to King, then the jokers and the back in the last row. The
sheet is rasterised once with ``rsvg-convert`` (package ``librsvg2-bin``) into
a cache folder and sliced into cards. Only themes whose indices use English
letters (A, J, Q, K) are listed; German, French and Russian courts read
differently. The decks are GPL/LGPL-licensed artwork: they are used to train
the model and are never shipped (see NOTICE).

``vision/training/install_decks.py`` installs the packages; nothing here needs them.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "THEME_DIR",
    "DISABLE_ENV",
    "ENGLISH_THEMES",
    "HELDOUT_THEMES",
    "available_themes",
    "load_cell",
    "estimate_index_boxes",
    "index_boxes_from_image",
]

THEME_DIR = Path("/usr/share/aisleriot/cards")
"""Where ``gnome-cards-data`` installs its themes."""

DISABLE_ENV = "KIOSK_DEBIAN_DECKS"
"""Set to ``off`` to leave the Debian decks out even where installed. The test suite does, so that what
it measures (held-out designs drawn by the simulator, thresholds on their accuracy) is the same on a
bare machine and on one where the training pipeline installed the decks."""

ENGLISH_THEMES: tuple[str, ...] = (
    "anglo",
    "anglo_bitmap",
    "anglo_poker",
    "dondorf",
    "gnomangelo",
    "gnomangelo_bitmap",
    "neoclassical",
    "neoclassical_4_color",
    "plastic",
    "tango",
    "tango_nuevo",
    "anglo_modern",
    "anglo_modern_4_color",
    "ornamental",
    "simplistic",
    "tigullio",
)
"""Themes with English indices, in listing order."""

FOUR_INDEX_THEMES: frozenset[str] = frozenset({"dondorf"})
"""Themes that print an index in all four corners; the others print two, top-left and bottom-right."""

HELDOUT_THEMES: frozenset[str] = frozenset(
    {"anglo_modern", "anglo_modern_4_color", "ornamental", "simplistic", "tigullio"}
)
"""Whole designs kept out of training (sibling themes share a split)."""

UNRELIABLE_INDEX_THEMES: frozenset[str] = frozenset({"tango", "tango_nuevo"})
"""Themes whose rank and suit marks sit apart (suit in the opposite top corner on some cards, beside the
rank on others), so the automatic index box holds the rank alone: training on them would teach the
classifier to name a suit it cannot see. They are rasterised but not used as designs."""

SHEET_CARD_HEIGHT = 320
"""Rasterised height of one card of the sheet, in pixels."""

_ROW_OF_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}
_COL_OF_RANK = {
    r: i for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
}


def cache_dir() -> Path:
    """The folder rasterised sheets are kept in (``KIOSK_CARDART_CACHE`` overrides it)."""
    env = os.environ.get("KIOSK_CARDART_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "card-table-kiosk" / "cardart"


def _sheet_png(theme: str) -> Path:
    return cache_dir() / f"{theme}-{SHEET_CARD_HEIGHT}.png"


def available_themes() -> list[str]:
    """Returns the English themes that can be drawn here: installed and rasterisable, or already cached.

    None when ``KIOSK_DEBIAN_DECKS=off``.
    """
    if os.environ.get(DISABLE_ENV, "").strip().lower() in ("off", "0", "no", "false"):
        return []
    out = []
    have_rsvg = shutil.which("rsvg-convert") is not None
    for theme in ENGLISH_THEMES:
        if _sheet_png(theme).exists() or (have_rsvg and (THEME_DIR / f"{theme}.svgz").exists()):
            out.append(theme)
    return out


@functools.lru_cache(maxsize=16)
def _sheet(theme: str) -> NDArray[np.uint8]:
    png = _sheet_png(theme)
    if not png.exists():
        svg = THEME_DIR / f"{theme}.svgz"
        if not svg.exists():
            raise FileNotFoundError(
                f"card theme {theme!r} is not installed ({svg}); "
                "run `python -m vision.training.install_decks`"
            )
        png.parent.mkdir(parents=True, exist_ok=True)
        tmp = png.with_suffix(".tmp.png")
        subprocess.run(
            ["rsvg-convert", "-h", str(SHEET_CARD_HEIGHT * 5), str(svg), "-o", str(tmp)], check=True
        )
        tmp.replace(png)
    img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise ValueError(f"cannot read the rasterised card sheet {png}; delete it to rebuild it")
    return np.asarray(img, dtype=np.uint8)


def _cell_of(token: str) -> tuple[int, int]:
    if token == "JOKER":
        return (4, 0)
    if token == "BACK":
        return (4, 2)
    return (_ROW_OF_SUIT[token[-1]], _COL_OF_RANK[token[:-1]])


@functools.lru_cache(maxsize=256)
def load_cell(theme: str, token: str) -> NDArray[np.uint8]:
    """Returns one card of a theme (a standard token, ``"JOKER"`` or ``"BACK"``), BGRA, trimmed."""
    sheet = _sheet(theme)
    h, w = sheet.shape[:2]
    row, col = _cell_of(token)
    ch, cw = h / 5, w / 13
    cell = sheet[
        int(round(row * ch)) : int(round((row + 1) * ch)), int(round(col * cw)) : int(round((col + 1) * cw))
    ]
    ys, xs = np.nonzero(cell[..., 3] > 20)
    if len(xs) == 0:
        raise ValueError(f"theme {theme!r} has no card at {token}")
    out: NDArray[np.uint8] = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()
    out.setflags(write=False)
    return out


def _corner_index_box(card: NDArray[np.uint8]) -> tuple[float, float, float, float] | None:
    """Finds the index in the top-left corner of a card: the cluster of ink nearest the corner."""
    h, w = card.shape[:2]
    rh, rw = int(h * 0.46), int(w * 0.3)
    region = card[:rh, :rw]
    paper = np.median(
        card[int(h * 0.45) : int(h * 0.55), int(w * 0.02) : int(w * 0.08), :3].reshape(-1, 3), axis=0
    )
    diff = np.abs(region[..., :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    ink = ((diff > 60) & (region[..., 3] > 200)).astype(np.uint8)
    # Ignore the rounded edge and a printed frame line hugging it.
    edge = int(0.012 * h) + 1
    ink[:edge, :] = 0
    ink[:, :edge] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    comps = []
    for i in range(1, n):
        x, y, cw, chh, area = stats[i]
        if area < max(4, h * w * 2e-5):
            continue
        if cw > 0.22 * w or chh > 0.22 * h:
            continue  # frame lines and court pictures, not glyphs
        if x + cw >= rw - 1 or y + chh >= rh - 1:
            continue
        comps.append((x, y, x + cw, y + chh))
    if not comps:
        return None
    comps.sort(key=lambda b: b[0] + b[1])
    box = list(comps[0])
    if box[0] > 0.2 * w or box[1] > 0.16 * h:
        return None
    gap = 0.035 * h
    grown = True
    while grown:
        grown = False
        for b in comps:
            inside = b[0] >= box[0] and b[1] >= box[1] and b[2] <= box[2] and b[3] <= box[3]
            if inside:
                continue
            # The suit sits under the rank, sometimes with a wide gap: reach further straight down.
            below = b[0] < box[2] and b[2] > box[0] and box[3] - gap <= b[1] <= box[3] + 2.2 * gap
            near = below or (
                b[0] <= box[2] + gap
                and b[2] >= box[0] - gap
                and b[1] <= box[3] + gap
                and b[3] >= box[1] - gap
            )
            if near and max(box[3], b[3]) - min(box[1], b[1]) < 0.4 * h:
                box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
                grown = True
    pad = 0.008 * h
    return (
        float(max(0.0, (box[0] - pad) / w)),
        float(max(0.0, (box[1] - pad) / h)),
        float(min(1.0, (box[2] + pad) / w)),
        float(min(1.0, (box[3] + pad) / h)),
    )


@functools.lru_cache(maxsize=1024)
def estimate_index_boxes(theme: str, token: str) -> tuple[tuple[float, float, float, float], ...]:
    """Returns the corner-index boxes of a themed card as fractions of its width and height.

    Looks in all four corners (some decks print four indices) and keeps the
    ones that match the top-left index in size.
    """
    return index_boxes_from_image(load_cell(theme, token), four=theme in FOUR_INDEX_THEMES)


def index_boxes_from_image(
    card: NDArray[np.uint8], four: bool = False
) -> tuple[tuple[float, float, float, float], ...]:
    """Returns the corner-index boxes found in an upright card image (BGRA), as fractions of its size.

    Looks at the top-left and bottom-right corners, or all four with ``four``.
    """
    found: list[tuple[float, float, float, float]] = []
    ref = _corner_index_box(card)
    if ref is None:
        return ()
    ref_area = (ref[2] - ref[0]) * (ref[3] - ref[1])
    flips = (
        ((False, False), (True, False), (False, True), (True, True))
        if four
        else ((False, False), (True, True))
    )
    for flip_x, flip_y in flips:
        view = card[:: -1 if flip_y else 1, :: -1 if flip_x else 1]
        b = ref if not (flip_x or flip_y) else _corner_index_box(np.ascontiguousarray(view))
        if b is None:
            continue
        area = (b[2] - b[0]) * (b[3] - b[1])
        if not 0.5 < area / ref_area < 2.0:
            continue
        x0, y0, x1, y1 = b
        if flip_x:
            x0, x1 = 1 - x1, 1 - x0
        if flip_y:
            y0, y1 = 1 - y1, 1 - y0
        found.append((x0, y0, x1, y1))
    return tuple(found)
