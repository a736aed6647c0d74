"""Card faces and backs drawn from scratch with OpenCV: no files, nothing installed.

A :class:`ProceduralStyle` fixes everything a printer chooses (index font and
size, pip shape, colours, paper, back pattern); :func:`draw_face` and
:func:`draw_back` paint a card of any height in that style. Every face has a
real corner index, the rank over the suit symbol, in the top-left corner and,
turned half a turn, in the bottom-right corner. Gnoming A Round cards, whose
real art we do not have, get stand-in faces from the rules (gnoming.md §2): a
large printed value in the corners and the centre.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart.shapes import draw_suit, draw_text_box
from vision.cardart.tokens import index_text, is_gnoming
from vision.cardart.typefaces import suit_typefaces, typeface_files

__all__ = ["ProceduralStyle", "draw_face", "draw_back", "index_boxes", "random_style", "CARD_ASPECT"]

CARD_ASPECT = 63.0 / 88.0
"""Width over height of a poker-size card."""

Color = tuple[int, int, int]

TYPEFACE_SHARE = 0.7
"""Of the random designs asked to use typefaces, the share that print their indices in an installed
typeface rather than a Hershey font (when any is installed): printed decks use real typefaces."""
SUIT_TYPEFACE_SHARE = 0.35
"""Of those designs, the share whose suit symbols are a typeface's rather than our polygons."""

FONTS: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


@dataclass(frozen=True, slots=True)
class ProceduralStyle:
    """What a printer chooses for one deck design. Lengths are fractions of the card height."""

    font: int | str = cv2.FONT_HERSHEY_SIMPLEX
    """Hershey font of the indices and court letters (optionally ``| cv2.FONT_ITALIC``), or the path
    of an installed typeface (:mod:`vision.cardart.typefaces`)."""
    thickness: float = 0.08
    """Stroke weight of the index text relative to its size."""
    index_height: float = 0.2
    """Height of the whole corner index (rank over suit)."""
    index_width: float = 0.1
    """Width of the corner index column."""
    margin: float = 0.03
    """Gap between the card edge and the index."""
    squeeze: bool = False
    """Stretch the rank text to fill its box (condensed look) instead of keeping its aspect."""
    suit_variant: int = 0
    """Proportions of the suit symbols (0..2)."""
    pip_filled: bool = True
    red: Color = (40, 30, 200)
    black: Color = (30, 30, 30)
    four_colour: bool = False
    """Diamonds blue and clubs green, as on four-colour poker decks."""
    paper: Color = (250, 250, 250)
    border: Color | None = None
    """A thin printed frame line, or none."""
    court: int = 0
    """Court-card picture style (0..2)."""
    back_pattern: int = 0
    """Back pattern (0..3): lattice, checks, dots, frames."""
    back_colors: tuple[Color, Color] = ((150, 40, 30), (235, 235, 240))
    corner_radius: float = 0.045
    gnome_palette: int = 0
    suit_typeface: str = ""
    """An installed typeface whose suit symbols are drawn instead of the built-in polygons."""


def suit_color(style: ProceduralStyle, suit: str) -> Color:
    if style.four_colour:
        return {"C": (40, 130, 20), "D": (190, 80, 20), "H": style.red, "S": style.black}[suit]
    return style.red if suit in "DH" else style.black


_GNOME_PALETTES: tuple[dict[str, Color], ...] = (
    {"pos": (40, 120, 30), "neg": (140, 40, 110), "hazard": (0, 110, 230), "mull": (160, 90, 20)},
    {"pos": (150, 60, 20), "neg": (30, 30, 190), "hazard": (20, 20, 20), "mull": (20, 140, 160)},
    {"pos": (20, 90, 160), "neg": (90, 20, 60), "hazard": (0, 60, 200), "mull": (100, 100, 20)},
)


def _gnome_color(style: ProceduralStyle, token: str) -> Color:
    pal = _GNOME_PALETTES[style.gnome_palette % len(_GNOME_PALETTES)]
    if token == "HAZARD":
        return pal["hazard"]
    if token == "MULLIGAN":
        return pal["mull"]
    return pal["neg"] if token.startswith("G-") else pal["pos"]


def _token_color(style: ProceduralStyle, token: str) -> Color:
    if is_gnoming(token):
        return _gnome_color(style, token)
    if token == "JOKER":
        return style.red
    return suit_color(style, token[-1])


def index_boxes(token: str, style: ProceduralStyle, aspect: float = CARD_ASPECT) -> list[tuple[float, ...]]:
    """Returns the corner-index boxes of ``token`` as fractions of card width and height.

    Two boxes: the top-left index and its half-turn copy in the bottom-right corner.

    >>> [tuple(round(v, 3) for v in b) for b in index_boxes("QS", ProceduralStyle())]
    [(0.042, 0.03, 0.182, 0.23), (0.818, 0.77, 0.958, 0.97)]
    """
    ih = style.index_height * (1.6 if token == "JOKER" else 1.0)
    iw = style.index_width / aspect
    mx = style.margin / aspect
    if is_gnoming(token):
        iw *= 1.5 if token.startswith("G-") else 1.15
        ih *= 0.8
    x0, y0 = mx, style.margin
    return [(x0, y0, x0 + iw, y0 + ih), (1 - x0 - iw, 1 - y0 - ih, 1 - x0, 1 - y0)]


def _rounded_alpha(h: int, w: int, radius: float) -> NDArray[np.uint8]:
    scale = 4
    big = np.zeros((h * scale, w * scale), np.uint8)
    r = max(1, int(round(radius * scale)))
    cv2.rectangle(big, (r, 0), (w * scale - 1 - r, h * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w * scale - 1, h * scale - 1 - r), 255, -1)
    for cx, cy in (
        (r, r),
        (w * scale - 1 - r, r),
        (r, h * scale - 1 - r),
        (w * scale - 1 - r, h * scale - 1 - r),
    ):
        cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.asarray(cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _blank(h: int, aspect: float, paper: Color) -> NDArray[np.uint8]:
    # Drawn in BGR (OpenCV would write 0 into an alpha channel); the alpha is attached at the end.
    w = max(2, int(round(h * aspect)))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = paper
    return img


def _with_alpha(
    img: NDArray[np.uint8], style: ProceduralStyle, height_px: int, aspect: float
) -> NDArray[np.uint8]:
    h, w = img.shape[:2]
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = img
    out[..., 3] = _rounded_alpha(h, w, style.corner_radius * h)
    if h != height_px:
        out_w = max(2, int(round(height_px * aspect)))
        return np.asarray(cv2.resize(out, (out_w, height_px), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return out


def _suit(
    img: NDArray[np.uint8],
    style: ProceduralStyle,
    suit: str,
    center: tuple[float, float],
    size: float,
    color: Color,
    *,
    filled: bool = True,
    upside_down: bool = False,
) -> None:
    """A suit symbol in the design's style (its polygon variant, or its typeface's symbol)."""
    draw_suit(
        img,
        suit,
        center,
        size,
        color,
        variant=style.suit_variant,
        typeface=style.suit_typeface,
        filled=filled,
        upside_down=upside_down,
    )


def _draw_index(
    img: NDArray[np.uint8], token: str, style: ProceduralStyle, box: tuple[float, ...], upside_down: bool
) -> None:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = box[0] * w, box[1] * h, box[2] * w, box[3] * h
    rank, suit = index_text(token)
    color = _token_color(style, token)
    font = style.font

    def place(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        # The bottom-right index is the top-left one turned half a turn about the card centre.
        if not upside_down:
            return b
        return (w - b[2], h - b[3], w - b[0], h - b[1])

    bw, bh = x1 - x0, y1 - y0
    if token == "JOKER":
        step = bh / 5
        for i, ch in enumerate("JOKER"):
            draw_text_box(
                img,
                ch,
                place((x0, y0 + i * step, x0 + bw, y0 + (i + 0.9) * step)),
                color,
                font=font,
                thickness_ratio=style.thickness,
                upside_down=upside_down,
            )
        return
    if not suit:
        if token == "HAZARD":
            tri = np.array([[x0 + bw / 2, y0], [x0 + bw, y0 + bh], [x0, y0 + bh]])
            if upside_down:
                tri = np.stack([w - tri[:, 0], h - tri[:, 1]], axis=1)
            cv2.fillPoly(img, [np.round(tri * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)
            draw_text_box(
                img,
                "!",
                place((x0 + bw * 0.3, y0 + bh * 0.3, x0 + bw * 0.7, y0 + bh * 0.92)),
                style.paper,
                font=font,
                thickness_ratio=style.thickness * 1.4,
                upside_down=upside_down,
            )
            return
        draw_text_box(
            img,
            rank,
            place((x0, y0, x0 + bw, y0 + bh)),
            color,
            font=font,
            thickness_ratio=style.thickness * 1.2,
            keep_aspect=not style.squeeze,
            upside_down=upside_down,
        )
        return
    rank_h = bh * 0.52
    rb = draw_text_box(
        img,
        rank,
        place((x0, y0, x0 + bw, y0 + rank_h)),
        color,
        font=font,
        thickness_ratio=style.thickness,
        keep_aspect=not style.squeeze or rank == "10",
        upside_down=upside_down,
    )
    del rb
    sy = y0 + rank_h + bh * 0.06
    ssize = min(bh - rank_h - bh * 0.06, bw * 0.95)
    cx, cy = x0 + bw / 2, sy + ssize / 2
    if upside_down:
        cx, cy = w - cx, h - cy
    _suit(
        img,
        style,
        suit,
        (cx, cy),
        ssize,
        color,
        filled=True,
        upside_down=upside_down,
    )


_PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "A": [(0.5, 0.5)],
    "2": [(0.5, 0.0), (0.5, 1.0)],
    "3": [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}


def _draw_centre(img: NDArray[np.uint8], token: str, style: ProceduralStyle, aspect: float) -> None:
    h, w = img.shape[:2]
    color = _token_color(style, token)
    ix = (style.margin + style.index_width) / aspect * w
    left, right = ix + 0.04 * w, w - ix - 0.04 * w
    top, bottom = 0.1 * h, 0.9 * h
    if is_gnoming(token):
        cx, cy = w / 2, h / 2
        r = int(min(right - left, bottom - top) * 0.48)
        cv2.circle(img, (int(cx), int(cy)), r, color, max(2, r // 10), cv2.LINE_AA)
        if token == "HAZARD":
            tri = np.array([[cx, cy - r * 0.7], [cx + r * 0.7, cy + r * 0.5], [cx - r * 0.7, cy + r * 0.5]])
            cv2.fillPoly(img, [np.round(tri * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)
            draw_text_box(img, "HAZARD", (left, cy + r * 0.55, right, cy + r * 0.85), color, font=style.font)
            draw_text_box(
                img,
                "!",
                (cx - r * 0.15, cy - r * 0.35, cx + r * 0.15, cy + r * 0.4),
                style.paper,
                font=style.font,
                thickness_ratio=0.14,
            )
        elif token == "MULLIGAN":
            draw_text_box(
                img, "M", (cx - r * 0.5, cy - r * 0.55, cx + r * 0.5, cy + r * 0.35), color, font=style.font
            )
            draw_text_box(
                img, "MULLIGAN", (left, cy + r * 0.45, right, cy + r * 0.75), color, font=style.font
            )
        else:
            draw_text_box(
                img,
                token[1:],
                (cx - r * 0.65, cy - r * 0.6, cx + r * 0.65, cy + r * 0.6),
                color,
                font=style.font,
                thickness_ratio=style.thickness * 1.3,
            )
        # A gnome's hat: the stand-in deck's motif, so Gnoming faces look unlike standard ones.
        hat = np.array([[cx, cy - r * 1.05], [cx + r * 0.25, cy - r * 0.7], [cx - r * 0.25, cy - r * 0.7]])
        cv2.fillPoly(img, [np.round(hat * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)
        return
    if token == "JOKER":
        cx, cy, rf = w / 2, h / 2, min(right - left, bottom - top) * 0.4
        ang = np.linspace(-np.pi / 2, 3 * np.pi / 2, 11)[:-1]
        rad = np.where(np.arange(10) % 2 == 0, rf, rf * 0.42)
        star = np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], axis=1)
        cv2.fillPoly(img, [np.round(star * 16).astype(np.int32)], style.black, cv2.LINE_AA, shift=4)
        cv2.circle(img, (int(cx), int(cy)), int(rf * 0.25), style.red, -1, cv2.LINE_AA)
        return
    rank, suit = token[:-1], token[-1]
    if rank in ("J", "Q", "K"):
        frame = (int(left), int(top), int(right), int(bottom))
        fill = {0: (200, 225, 245), 1: (230, 215, 200), 2: (215, 240, 215)}[style.court % 3]
        cv2.rectangle(img, frame[:2], frame[2:], fill, -1)
        cv2.rectangle(img, frame[:2], frame[2:], color, max(1, h // 150))
        fw, fh = right - left, bottom - top
        if style.court % 3 == 1:
            for k in range(1, 6):
                y = int(top + fh * k / 6)
                cv2.line(img, (frame[0], y), (frame[2], y), (180, 160, 140), max(1, h // 300))
        elif style.court % 3 == 2:
            crown = np.array(
                [
                    [left + fw * 0.2, top + fh * 0.3],
                    [left + fw * 0.3, top + fh * 0.12],
                    [left + fw * 0.5, top + fh * 0.25],
                    [left + fw * 0.7, top + fh * 0.12],
                    [left + fw * 0.8, top + fh * 0.3],
                ]
            )
            cv2.fillPoly(img, [np.round(crown * 16).astype(np.int32)], (30, 170, 220), cv2.LINE_AA, shift=4)
        draw_text_box(
            img,
            rank,
            (left + fw * 0.2, top + fh * 0.08, right - fw * 0.2, top + fh * 0.45),
            color,
            font=style.font,
            thickness_ratio=style.thickness,
        )
        draw_text_box(
            img,
            rank,
            (left + fw * 0.2, bottom - fh * 0.45, right - fw * 0.2, bottom - fh * 0.08),
            color,
            font=style.font,
            thickness_ratio=style.thickness,
            upside_down=True,
        )
        _suit(
            img,
            style,
            suit,
            (left + fw * 0.22, top + fh * 0.5),
            fw * 0.22,
            color,
        )
        _suit(
            img,
            style,
            suit,
            (right - fw * 0.22, top + fh * 0.5),
            fw * 0.22,
            color,
            upside_down=True,
        )
        return
    layout = _PIP_LAYOUTS[rank]
    if rank == "A":
        size = (right - left) * 0.7
    else:
        size = min((right - left) * 0.42, (bottom - top) / (5.2 if rank in ("9", "10") else 4.4))
    px0, px1 = left + size * 0.55, right - size * 0.55
    py0, py1 = top + size * 0.55, bottom - size * 0.55
    for fx, fy in layout:
        cx, cy = px0 + fx * (px1 - px0), py0 + fy * (py1 - py0)
        _suit(
            img,
            style,
            suit,
            (cx, cy),
            size,
            color,
            filled=style.pip_filled,
            upside_down=fy > 0.55,
        )


def draw_face(
    token: str, style: ProceduralStyle, height_px: int, aspect: float = CARD_ASPECT
) -> NDArray[np.uint8]:
    """Returns the face of ``token`` in ``style``: BGRA, ``height_px`` tall, transparent rounded corners.

    Small cards are drawn four times larger and shrunk, as a printer's fine
    lines blur into a camera's pixels.

    >>> draw_face("10H", ProceduralStyle(), 88).shape
    (88, 63, 4)
    """
    index_text(token)  # validates the token with a clear error
    if height_px < 8:
        raise ValueError(f"card height must be at least 8 px, got {height_px}")
    work_h = height_px if height_px >= 300 else height_px * 4 if height_px < 100 else 400
    img = _blank(work_h, aspect, style.paper)
    h, w = img.shape[:2]
    if style.border is not None:
        r = int(style.corner_radius * h)
        cv2.rectangle(img, (r // 2, r // 2), (w - 1 - r // 2, h - 1 - r // 2), style.border, max(1, h // 200))
    _draw_centre(img, token, style, aspect)
    boxes = index_boxes(token, style, aspect)
    _draw_index(img, token, style, boxes[0], upside_down=False)
    _draw_index(img, token, style, boxes[0], upside_down=True)
    return _with_alpha(img, style, height_px, aspect)


def draw_back(style: ProceduralStyle, height_px: int, aspect: float = CARD_ASPECT) -> NDArray[np.uint8]:
    """Returns the back of a card in ``style``: BGRA, ``height_px`` tall."""
    if height_px < 8:
        raise ValueError(f"card height must be at least 8 px, got {height_px}")
    work_h = max(height_px, 200)
    fg, bg = style.back_colors
    img = _blank(work_h, aspect, (250, 250, 250))
    h, w = img.shape[:2]
    m = int(0.05 * h)
    ih, iw = h - 2 * m, w - 2 * m
    inner = np.empty((ih, iw, 3), np.uint8)
    inner[:] = bg
    step = max(4, h // 18)
    pattern = style.back_pattern % 4
    if pattern == 0:
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), fg, max(1, step // 5), cv2.LINE_AA)
            cv2.line(inner, (k, ih), (k + ih, 0), fg, max(1, step // 5), cv2.LINE_AA)
    elif pattern == 1:
        yy, xx = np.mgrid[0:ih, 0:iw]
        checks = ((yy // step + xx // step) % 2).astype(bool)
        inner[checks] = fg
    elif pattern == 2:
        inner[:] = fg
        for y in range(step // 2, ih, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, iw, step):
                cv2.circle(inner, (x, y), max(1, step // 4), bg, -1, cv2.LINE_AA)
    else:
        inner[:] = fg
        for k in range(0, min(ih, iw) // 2, step):
            cv2.rectangle(inner, (k, k), (iw - 1 - k, ih - 1 - k), bg, max(1, step // 6))
    img[m : h - m, m : w - m] = inner
    return _with_alpha(img, style, height_px, aspect)


def random_style(rng: random.Random, typefaces: bool = False) -> ProceduralStyle:
    """Returns a random printer's choice, for training on designs no one has named; with
    ``typefaces``, some print in the typefaces installed on the machine (if any)."""
    font = rng.choice(FONTS) | (cv2.FONT_ITALIC if rng.random() < 0.15 else 0)
    red = (rng.randint(0, 60), rng.randint(0, 50), rng.randint(150, 230))
    black = (
        (rng.randint(0, 60),) * 3 if rng.random() < 0.8 else (rng.randint(60, 110), rng.randint(20, 60), 10)
    )
    paper_v = rng.randint(225, 255)
    paper = (paper_v - rng.randint(0, 25), paper_v - rng.randint(0, 10), paper_v)
    style = ProceduralStyle(
        font=font,
        thickness=rng.uniform(0.05, 0.13),
        # Mostly the usual 15-25 % of the card; some decks (ornamental) print a large suit under a
        # large rank, up to a third of the card.
        index_height=0.15 + 0.19 * rng.random() ** 1.6,
        index_width=rng.uniform(0.075, 0.12),
        margin=rng.uniform(0.015, 0.045),
        squeeze=rng.random() < 0.3,
        suit_variant=rng.randint(0, 2),
        pip_filled=rng.random() < 0.85,
        red=red,
        black=black,
        four_colour=rng.random() < 0.1,
        paper=paper,
        border=(rng.randint(0, 200),) * 3 if rng.random() < 0.25 else None,
        court=rng.randint(0, 2),
        back_pattern=rng.randint(0, 3),
        back_colors=(
            (rng.randint(0, 200), rng.randint(0, 200), rng.randint(0, 200)),
            (rng.randint(150, 255), rng.randint(150, 255), rng.randint(150, 255)),
        ),
        corner_radius=rng.uniform(0.03, 0.06),
        gnome_palette=rng.randint(0, 2),
    )
    if not typefaces:
        return style
    # Drawn last, and only where fonts are installed, so a seed's other choices stay the same
    # with or without them.
    faces, suit_faces = typeface_files(), suit_typefaces()
    if faces and rng.random() < TYPEFACE_SHARE:
        style = replace(style, font=rng.choice(faces))
    if suit_faces and rng.random() < SUIT_TYPEFACE_SHARE:
        style = replace(style, suit_typeface=rng.choice(suit_faces))
    return style
