"""A closer look at small cards whose index the detector missed: where to look and what to keep.

The detector sees the frame at half size (:mod:`vision.preprocess`). On a
table seen from far above (a Nerts table from 1.4 m: cards about 63 px long,
their corner indices 12 px tall, so 6 px in the detector's input) it often
finds a card's centre and outline but not the index in its corner, and the card
would be reported ``"UNKNOWN"``. Shown the same card larger, at the size it was
trained on, it finds the index. So the recognizer cuts small tiles around such
cards from the full-resolution frame (:func:`tiles`), runs the detector on each
at a larger scale (:func:`closer_scale`), and keeps the indices that lie on the
card, point along its long axis and sit in a corner it had no index for yet
(:func:`indices_on`, :func:`corner_of`); the classifier then reads them as usual.

A tile costs detector time in proportion to its area: about 0.3 ms for a
63-px card on one core, against 6.5 ms for the whole 1280×720 frame.

Glossary: a card's **corner** is ``(a, b)``: ``a`` the end of its long axis
(−1 or +1, along :attr:`~vision.postprocess.CardDet.angle`), ``b`` the side of
its short axis (the long axis turned a quarter clockwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.postprocess import CardDet, IndexDet, quad_contains
from vision.preprocess import DETECTOR_SCALE

__all__ = ["Corner", "Tile", "CLOSER_CARD", "closer_scale", "corner_of", "tiles", "indices_on"]

CLOSER_CARD = 64.0
"""Length, in detector-input pixels, a card is scaled to for the closer look: inside the range the
detector was trained on (training cards are 55-160 px long at half size, so 27-80 px)."""
MAX_SCALE = 1.25
"""A tile is never enlarged more than this (an enlarged index is blurred, not sharper)."""
MIN_GAIN = 1.2
"""A closer look must show the card at least this many times larger than the first look did."""
MARGIN = 0.15
"""A tile reaches this fraction of the card's length beyond its outline: the detector needs some
table around a card to see its edges."""

Corner = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Tile:
    """A part of the frame to run the detector on again."""

    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 in frame pixels (x1, y1 excluded)."""
    long_side: int
    """The detector input's long side for this tile (see :func:`vision.preprocess.detector_input`)."""


def closer_scale(long: float) -> float | None:
    """The scale to show a card ``long`` frame pixels long at, or ``None`` when a closer look would
    not show it markedly larger than the first look did.

    >>> closer_scale(64.0), closer_scale(40.0), closer_scale(150.0)
    (1.0, 1.25, None)
    """
    scale = min(CLOSER_CARD / max(long, 1.0), MAX_SCALE)
    return scale if scale >= MIN_GAIN * DETECTOR_SCALE else None


def corner_of(card: CardDet, x: float, y: float) -> Corner:
    """The corner of ``card`` that the point (x, y) lies towards.

    >>> card = CardDet(100.0, 100.0, 80.0, 56.0, math.pi / 2, 1.0, 0.9, False)   # upright
    >>> corner_of(card, 80.0, 70.0), corner_of(card, 120.0, 130.0)                # top left, bottom right
    ((-1, 1), (1, -1))
    """
    ex, ey = math.cos(card.angle), math.sin(card.angle)
    dx, dy = x - card.cx, y - card.cy
    return (1 if dx * ex + dy * ey >= 0 else -1, 1 if dy * ex - dx * ey >= 0 else -1)


def tiles(cards: list[CardDet], width: int, height: int) -> list[Tile]:
    """The tiles that cover ``cards`` (each grown by :data:`MARGIN`) in a frame of that size:
    overlapping ones merged, so neighbouring cards share one detector run, each at the scale its
    largest card needs.

    >>> a = CardDet(100.0, 100.0, 64.0, 45.0, math.pi / 2, 1.0, 0.9, False)
    >>> b = CardDet(130.0, 100.0, 64.0, 45.0, math.pi / 2, 1.0, 0.9, False)
    >>> tiles([a, b], 1280, 720)
    [Tile(box=(67, 58, 163, 142), long_side=96)]
    """
    boxes: list[tuple[list[float], float]] = []
    for c in cards:
        scale = closer_scale(c.long)
        if scale is None:
            continue
        q = c.quad()
        m = MARGIN * c.long
        box = [
            max(0.0, min(p[0] for p in q) - m),
            max(0.0, min(p[1] for p in q) - m),
            min(float(width), max(p[0] for p in q) + m),
            min(float(height), max(p[1] for p in q) + m),
        ]
        # Merge with every tile it overlaps, until it overlaps none.
        merged = True
        while merged:
            merged = False
            for other in boxes:
                o = other[0]
                if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
                    boxes.remove(other)
                    box = [min(box[0], o[0]), min(box[1], o[1]), max(box[2], o[2]), max(box[3], o[3])]
                    scale = min(scale, other[1])
                    merged = True
                    break
        boxes.append((box, scale))
    out = []
    for (x0, y0, x1, y1), scale in boxes:
        ix0, iy0, ix1, iy1 = int(x0), int(y0), int(math.ceil(x1)), int(math.ceil(y1))
        if ix1 - ix0 < 8 or iy1 - iy0 < 8:
            continue
        out.append(Tile((ix0, iy0, ix1, iy1), max(8, int(round(max(ix1 - ix0, iy1 - iy0) * scale)))))
    return out


def indices_on(card: CardDet, found: list[IndexDet]) -> list[IndexDet]:
    """The indices of ``found`` that can be ``card``'s own: inside its outline and upright along its
    long axis (a neighbour's index under the same tile, or a pip, is neither)."""
    quad = card.quad()
    ex, ey = math.cos(card.angle), math.sin(card.angle)
    reach = 0.6 * card.long
    return [
        i
        for i in found
        if abs(i.cx - card.cx) < reach
        and abs(i.cy - card.cy) < reach
        and abs(i.up_x * ex + i.up_y * ey) >= 0.8
        and quad_contains(quad, i.cx, i.cy, margin=0.02)
    ]
