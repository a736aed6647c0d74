"""Vector shapes drawn with OpenCV: suit symbols and text fitted into a box.

Shapes are polygons in a unit box ``[-1, 1]²`` (y down), scaled into the
image with sub-pixel precision (``shift``) and anti-aliasing, so a card drawn
at any height looks like print rather than pixel art.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart.typefaces import SUIT_CHARS, typeface_mask

__all__ = ["suit_polygons", "draw_suit", "draw_text_box", "text_mask"]

_SHIFT = 4
_ONE = 1 << _SHIFT

Color = tuple[int, int, int]


def _heart(n: int = 60, fat: float = 1.0) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x / 17.0 * fat, (y + 2.5) / 15.0], axis=1)
    return pts


def _circle(cx: float, cy: float, r: float, n: int = 40) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


@functools.lru_cache(maxsize=64)
def suit_polygons(suit: str, variant: int = 0) -> tuple[NDArray[np.float64], ...]:
    """Returns the polygons (unit box, y down) that make up a suit symbol.

    ``variant`` (0..2) changes the proportions the way different printers do:
    a slim or wide diamond, a round or pointed heart, a short or long stem.

    >>> [len(suit_polygons(s)) for s in "CDHS"]
    [4, 1, 1, 2]
    """
    fat = (1.0, 0.85, 1.12)[variant % 3]
    if suit == "H":
        return (_heart(fat=fat),)
    if suit == "D":
        w = (0.72, 0.62, 0.82)[variant % 3]
        if variant % 3 == 1:
            # Concave sides, as on many French-pattern decks: each edge bows towards the centre.
            corners = np.array([[0, -1], [w, 0], [0, 1], [-w, 0]], dtype=np.float64)
            t = np.linspace(0, 1, 10, endpoint=False)[:, None]
            edges = []
            for i in range(4):
                p, q = corners[i], corners[(i + 1) % 4]
                mid = (p + q) / 2
                inward = -mid / (np.linalg.norm(mid) + 1e-9)
                edges.append(p + t * (q - p) + 0.14 * np.sin(np.pi * t) * inward)
            return (np.concatenate(edges),)
        return (np.array([[0, -1], [w, 0], [0, 1], [-w, 0]], dtype=np.float64),)
    stem_w = (0.16, 0.1, 0.22)[variant % 3]
    stem = np.array([[0, 0.2], [stem_w + 0.12, 1.0], [-stem_w - 0.12, 1.0]], dtype=np.float64)
    if suit == "S":
        body = _heart(fat=fat)
        body = np.stack([body[:, 0], -body[:, 1] * 0.85 - 0.2], axis=1)
        return (body, stem)
    if suit == "C":
        r = (0.36, 0.33, 0.4)[variant % 3]
        return (
            _circle(0, -0.52, r),
            _circle(-0.46, 0.1, r),
            _circle(0.46, 0.1, r),
            np.concatenate([stem, np.array([[0, -0.1]])]),
        )
    raise ValueError(f"unknown suit {suit!r}; expected one of C, D, H, S")


def draw_suit(
    img: NDArray[np.uint8],
    suit: str,
    center: tuple[float, float],
    size: float,
    color: Color,
    *,
    variant: int = 0,
    filled: bool = True,
    upside_down: bool = False,
    typeface: str = "",
) -> None:
    """Draws a suit symbol ``size`` pixels tall centred on ``center``, in place: the polygons of
    :func:`suit_polygons`, or the symbol of an installed ``typeface`` (a font file's path)."""
    cx, cy = center
    if typeface:
        half = size / 2
        draw_text_box(
            img,
            SUIT_CHARS[suit],
            (cx - half, cy - half, cx + half, cy + half),
            color,
            font=typeface,
            upside_down=upside_down,
        )
        return
    half = size / 2
    sgn = -1.0 if upside_down else 1.0
    thick = max(1, int(round(size * 0.09)))
    for poly in suit_polygons(suit, variant):
        pts = np.stack([cx + sgn * poly[:, 0] * half, cy + sgn * poly[:, 1] * half], axis=1)
        ipts = np.round(pts * _ONE).astype(np.int32).reshape(-1, 1, 2)
        if filled:
            cv2.fillPoly(img, [ipts], color, cv2.LINE_AA, shift=_SHIFT)
        else:
            cv2.polylines(img, [ipts], True, color, thick, cv2.LINE_AA, shift=_SHIFT)
    if not filled and suit == "C":
        # Outline clubs read as three rings; a filled centre keeps them legible.
        cv2.circle(
            img, (int(cx), int(cy - sgn * 0.1 * half)), max(1, int(0.18 * half)), color, -1, cv2.LINE_AA
        )


@functools.lru_cache(maxsize=512)
def text_mask(text: str, font: int | str, thickness_ratio: float) -> NDArray[np.uint8]:
    """Returns ``text`` drawn in a Hershey ``font`` as a tight 0..255 mask; a ``str`` font is the
    path of an installed typeface (:mod:`vision.cardart.typefaces`), whose own weight is kept."""
    if isinstance(font, str):
        return typeface_mask(text, font)
    scale = 4.0
    thick = max(1, int(round(scale * 10 * thickness_ratio)))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    canvas = np.zeros((th + base + 4 * thick, tw + 4 * thick), np.uint8)
    cv2.putText(canvas, text, (2 * thick, th + 2 * thick), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        return canvas
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def draw_text_box(
    img: NDArray[np.uint8],
    text: str,
    box: tuple[float, float, float, float],
    color: Color,
    *,
    font: int | str = cv2.FONT_HERSHEY_SIMPLEX,
    thickness_ratio: float = 0.08,
    keep_aspect: bool = True,
    upside_down: bool = False,
) -> tuple[float, float, float, float]:
    """Draws ``text`` fitted into ``box`` (x0, y0, x1, y1), centred, in place.

    Returns the box the ink actually covers.
    """
    mask = text_mask(text, font, thickness_ratio)
    x0, y0, x1, y1 = box
    bw, bh = max(1.0, x1 - x0), max(1.0, y1 - y0)
    mh, mw = mask.shape
    if keep_aspect:
        s = min(bw / mw, bh / mh)
        tw, th = mw * s, mh * s
    else:
        tw, th = bw, bh
    tw_i, th_i = max(1, int(round(tw))), max(1, int(round(th)))
    m = cv2.resize(mask, (tw_i, th_i), interpolation=cv2.INTER_AREA if tw_i < mw else cv2.INTER_LINEAR)
    if upside_down:
        m = m[::-1, ::-1]
    ox = int(round(x0 + (bw - tw_i) / 2))
    oy = int(round(y0 + (bh - th_i) / 2))
    h, w = img.shape[:2]
    ax0, ay0 = max(ox, 0), max(oy, 0)
    ax1, ay1 = min(ox + tw_i, w), min(oy + th_i, h)
    if ax1 <= ax0 or ay1 <= ay0:
        return (float(ox), float(oy), float(ox + tw_i), float(oy + th_i))
    a = m[ay0 - oy : ay1 - oy, ax0 - ox : ax1 - ox].astype(np.float32)[..., None] / 255.0
    region = img[ay0:ay1, ax0:ax1, :3].astype(np.float32)
    col = np.array(color, np.float32)[None, None, :]
    img[ay0:ay1, ax0:ax1, :3] = (region * (1 - a) + col * a).astype(np.uint8)
    return (float(ox), float(oy), float(ox + tw_i), float(oy + th_i))
