"""Artist card decks from Debian's ``gnome-cards-data`` and ``kdegames-card-data-kf5``.

Each ``gnome-cards-data`` theme (aisleriot's) is one SVG laid out as a 13×5
grid: clubs, diamonds, hearts and spades from Ace to King, then the jokers and
the back in the last row. A KDE deck is one SVG whose cards are elements named
``1_club`` .. ``king_spade`` and ``back``, placed anywhere: each is rendered
alone into the same 13×5 grid. Sheets are rasterised once with
``rsvg-convert`` (package ``librsvg2-bin``) into a cache folder and sliced
into cards. Only themes whose indices use English
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
    "KDE_THEME_DIR",
    "KDE_THEMES",
    "has_card",
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

KDE_THEME_DIR = Path("/usr/share/carddecks")
"""Where ``kdegames-card-data-kf5`` installs its decks."""

KDE_THEMES: dict[str, str] = {
    "kde_paris": "svg-gm-paris/paris.svgz",
    "kde_jolly_royal": "svg-jolly-royal/jolly-royal.svgz",
    "kde_penguins": "svg-penguins/penguins.svgz",
    "kde_standard": "svg-standard/standard.svgz",
}
"""The KDE decks drawn here, and their files under :data:`KDE_THEME_DIR`. The others are left out:
``nicu-ornamental``, ``nicu-white`` and ``tigullio-international`` share their artists' work with the
held-out ``ornamental`` and ``tigullio`` (training on them would leak the held-out designs);
``dondorf`` repeats the GNOME theme; the three ``oxygen`` decks print rank and suit in opposite top
corners (see :data:`UNRELIABLE_INDEX_THEMES`); ``ancient-egyptians`` prints its bottom index upright,
which the half-turn convention of the index boxes cannot say; ``future`` draws no playing card;
``konqi-modern`` and ``xskat-french`` do not render element by element with ``rsvg-convert``;
``xskat-german`` has German suits."""

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
    *KDE_THEMES,
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
        if _sheet_png(theme).exists() or (have_rsvg and _svg_of(theme).exists()):
            out.append(theme)
    return out


def _svg_of(theme: str) -> Path:
    if theme in KDE_THEMES:
        return KDE_THEME_DIR / KDE_THEMES[theme]
    return THEME_DIR / f"{theme}.svgz"


_KDE_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_KDE_SUITS = ("club", "diamond", "heart", "spade")


def _render_element(svg: Path, element: str, zoom: float, out: Path) -> NDArray[np.uint8] | None:
    """Renders one element of an SVG alone, trimmed to its ink; None when the file has no such element."""
    done = subprocess.run(
        ["rsvg-convert", "-i", element, "-z", f"{zoom:.6f}", str(svg), "-o", str(out)],
        capture_output=True,
    )
    if done.returncode != 0:
        return None
    img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    ys, xs = np.nonzero(img[..., 3] > 20)
    if len(xs) == 0:
        return None
    return np.asarray(img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], dtype=np.uint8)


def _kde_sheet(svg: Path, tmp: Path) -> NDArray[np.uint8]:
    """Renders a KDE deck's cards one by one into a 13×5 sheet laid out as a GNOME theme's."""
    if _render_element(svg, "1_spade", 1.0, tmp) is None:
        raise ValueError(f"{svg} has no element '1_spade': not a KDE card deck")
    # Some decks' elements carry off-card clip paths or their own scale, so each card is measured
    # at its natural size first, rendered at the zoom that makes it SHEET_CARD_HEIGHT tall, trimmed
    # to its own ink and centred in a cell with a margin that keeps neighbours from touching.
    cell_h = SHEET_CARD_HEIGHT + 8
    cell_w = int(SHEET_CARD_HEIGHT * 0.9)
    sheet = np.zeros((cell_h * 5, cell_w * 13, 4), np.uint8)
    cells = [((row, col), f"{r}_{s}") for row, s in enumerate(_KDE_SUITS) for col, r in enumerate(_KDE_RANKS)]
    cells += [((4, 0), "black_joker"), ((4, 2), "back")]
    for (row, col), element in cells:
        natural = _render_element(svg, element, 1.0, tmp)
        card = (
            None
            if natural is None
            else _render_element(svg, element, SHEET_CARD_HEIGHT / natural.shape[0], tmp)
        )
        if card is None:
            if element == "black_joker":
                continue  # most KDE decks have no joker: has_card() says so
            raise ValueError(f"{svg} has no card {element!r}")
        card = card[:cell_h, :cell_w]
        y = row * cell_h + (cell_h - card.shape[0]) // 2
        x = col * cell_w + (cell_w - card.shape[1]) // 2
        sheet[y : y + card.shape[0], x : x + card.shape[1]] = card
    return sheet


@functools.lru_cache(maxsize=16)
def _sheet(theme: str) -> NDArray[np.uint8]:
    png = _sheet_png(theme)
    if not png.exists():
        svg = _svg_of(theme)
        if not svg.exists():
            raise FileNotFoundError(
                f"card theme {theme!r} is not installed ({svg}); "
                "run `python -m vision.training.install_decks`"
            )
        png.parent.mkdir(parents=True, exist_ok=True)
        tmp = png.with_suffix(".tmp.png")
        if theme in KDE_THEMES:
            card_tmp = png.with_suffix(".card.png")
            try:
                cv2.imwrite(str(tmp), _kde_sheet(svg, card_tmp))
            finally:
                card_tmp.unlink(missing_ok=True)
        else:
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


def has_card(theme: str, token: str) -> bool:
    """Whether a theme draws ``token`` (most KDE decks have no joker; the designs draw their own)."""
    try:
        load_cell(theme, token)
    except ValueError:
        return False
    return True


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
    found = index_boxes_from_image(load_cell(theme, token), four=theme in FOUR_INDEX_THEMES)
    if theme not in KDE_THEMES:
        return found
    # A KDE deck prints every index at the same place, but the ink search fails on some court
    # cards whose picture reaches the index (Paris's, the penguins' queens): there the deck's
    # usual boxes stand in, since a wrong box would teach the detector that an index is not one.
    usual = _usual_index_boxes(theme)
    if len(found) == len(usual) and all(_iou(a, b) > 0.4 for a, b in zip(found, usual, strict=True)):
        return found
    return usual


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@functools.lru_cache(maxsize=16)
def _usual_index_boxes(theme: str) -> tuple[tuple[float, float, float, float], ...]:
    """The median top-left and bottom-right index boxes of a theme's pip cards (2 to 9)."""
    boxes = [
        index_boxes_from_image(load_cell(theme, f"{rank}{suit}")) for rank in "23456789" for suit in "CDHS"
    ]
    pairs = np.array([b for b in boxes if len(b) == 2], dtype=np.float64)
    if len(pairs) < 8:
        raise ValueError(f"theme {theme!r}: corner indices not found on its pip cards")
    med = np.median(pairs, axis=0)
    return tuple((float(m[0]), float(m[1]), float(m[2]), float(m[3])) for m in med)


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
