"""From network outputs to cards: pure numpy, no onnxruntime, no OpenCV.

Steps: find peaks in the detector's heat maps (:func:`peaks`), decode corner
indices (:func:`decode_indices`) and card centres (:func:`decode_cards`) from the
regression maps at those peaks, then :func:`group` joins the indices of one
physical card, so a card whose two corner indices both show is one card, and
combines their classifier votes into one identity and confidence.

Glossary: an **index** is the rank-over-suit print in a card's corner;
**up** is the direction from its suit towards its rank. Coordinates are frame
pixels unless a name says otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from vision.heads import (
    BACK_HEAT,
    CARD_AXIS,
    CARD_FULL,
    CARD_LOGSIZE,
    CARD_SUB,
    FACE_HEAT,
    IDX_HEAT,
    IDX_LOGSIZE,
    IDX_SUB,
    IDX_TO_CARD,
    IDX_UP,
    OFFSET_UNIT,
    STRIDE,
)

__all__ = [
    "sigmoid",
    "peaks",
    "IndexDet",
    "CardDet",
    "decode_indices",
    "decode_cards",
    "Group",
    "group",
    "softmax",
    "quad_contains",
]


def sigmoid(x: NDArray[np.float32]) -> NDArray[np.float32]:
    # np.clip(x, -30, 30), as two ufuncs: numpy's clip wrapper costs more than the work on a map.
    return np.asarray(1.0 / (1.0 + np.exp(-np.minimum(np.maximum(x, -30), 30))), dtype=np.float32)


def softmax(x: NDArray[np.float32], axis: int = -1) -> NDArray[np.float32]:
    """Numerically stable softmax.

    >>> [round(float(v), 3) for v in softmax(np.array([0.0, 0.0], np.float32))]
    [0.5, 0.5]
    """
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return np.asarray(e / e.sum(axis=axis, keepdims=True), dtype=np.float32)


def peaks(prob: NDArray[np.float32], threshold: float, max_n: int = 200) -> list[tuple[int, int, float]]:
    """Returns local maxima (3×3 neighbourhood) above ``threshold`` as (x, y, value), strongest first.

    >>> m = np.zeros((5, 5), np.float32); m[2, 3] = 0.9; m[2, 2] = 0.5
    >>> peaks(m, 0.3)
    [(3, 2, 0.9)]
    """
    xs, ys, vals = _peak_arrays(prob, threshold, max_n)
    return list(zip(xs, ys, vals, strict=True))


def _peak_arrays(
    prob: NDArray[np.float32], threshold: float, max_n: int
) -> tuple[list[int], list[int], list[float]]:
    """:func:`peaks` as three lists (x, y, value), strongest first."""
    # Only cells above the threshold can be peaks (a few hundred of a map's 15,000 on a busy
    # table): each is compared with its eight neighbours, outside the map counting as -1. Testing
    # every cell of the map cost several times as long.
    h, w = prob.shape
    flat = prob.ravel()
    cells = np.flatnonzero(flat > threshold)
    if not len(cells):
        return [], [], []
    ys, xs = cells // w, cells % w
    pad = np.full((h + 2, w + 2), -1.0, prob.dtype)
    pad[1:-1, 1:-1] = prob
    vals = flat[cells]
    # The eight neighbours of every candidate in one gather: cell (y, x) is (y + 1, x + 1) in pad.
    around = pad.ravel()[(ys * (w + 2) + xs)[:, None] + _neighbour_offsets(w + 2)]
    peak = (vals[:, None] >= around).all(axis=1)
    order = np.argsort(-vals[peak])[:max_n]
    xs, ys, vals = xs[peak][order], ys[peak][order], vals[peak][order]
    return xs.tolist(), ys.tolist(), _round6(vals)


def _neighbour_offsets(row: int) -> NDArray[np.intp]:
    """Flat offsets, in an array with rows of ``row`` cells, from a cell's top-left neighbour to its
    eight neighbours."""
    return np.array([dy * row + dx for dy in (0, 1, 2) for dx in (0, 1, 2) if dx != 1 or dy != 1], np.intp)


def _round6(vals: NDArray[np.floating]) -> list[float]:
    """``[round(v, 6) for v in vals.tolist()]``, the same floats, in one numpy pass for float32.

    A float32 times 10**6 is exact in float64 (24 + 14 significant bits), so rounding it to an
    integer half to even, as ``round`` does, and dividing by 10**6 (one correctly rounded
    division) gives the float nearest that decimal, which is ``round``'s result. Python's
    ``round`` took about 0.4 µs a peak.

    >>> v = np.array([0.5, 0.1234565, 0.99999994, 0.3000005], np.float32)
    >>> _round6(v) == [round(x, 6) for x in v.tolist()]
    True
    """
    if vals.dtype != np.float32:
        return [round(v, 6) for v in vals.tolist()]
    out: list[float] = (np.rint(vals.astype(np.float64) * 1e6) / 1e6).tolist()
    return out


def _channels(*parts: slice) -> tuple[int, ...]:
    return tuple(c for part in parts for c in range(part.start, part.stop))


_INDEX_CHANNELS = _channels(IDX_UP, IDX_LOGSIZE, IDX_SUB, IDX_TO_CARD)
_CARD_CHANNELS = _channels(CARD_AXIS, CARD_LOGSIZE, CARD_SUB)


def _at(
    maps: NDArray[np.float32], channels: tuple[int, ...], xs: list[int], ys: list[int]
) -> list[list[float]]:
    """The values of ``channels`` at each (x, y), one row of Python floats per channel: gathered in
    one numpy call, since reading the maps one scalar at a time cost most of the decoding."""
    if not xs:
        return [[] for _ in channels]
    out: list[list[float]] = maps[np.array(channels)[:, None], np.array(ys), np.array(xs)].tolist()
    return out


@dataclass(slots=True)
class IndexDet:
    """A corner index found by the detector."""

    cx: float
    cy: float
    up_x: float
    up_y: float
    width: float
    height: float
    card_cx: float
    """Where the detector thinks this index's card has its centre."""
    card_cy: float
    score: float

    def box(self) -> tuple[float, float, float, float]:
        """The index's axis-aligned box."""
        hw, hh = self.width / 2, self.height / 2
        ux, uy = self.up_x, self.up_y
        rx, ry = -uy, ux
        # The corners are centre ± hw·r ± hh·u; as float addition is monotonic, the extreme ones
        # take both terms with the same sign, so their coordinates are exactly those below.
        ax, bx = abs(hw * rx), abs(hh * ux)
        ay, by = abs(hw * ry), abs(hh * uy)
        return (self.cx - ax - bx, self.cy - ay - by, self.cx + ax + bx, self.cy + ay + by)


@dataclass(slots=True)
class CardDet:
    """A card whose centre the detector sees."""

    cx: float
    cy: float
    long: float
    short: float
    angle: float
    """Direction of the long axis, radians (modulo half a turn)."""
    full: float
    """Probability that the whole outline shows."""
    score: float
    back: bool

    def quad(self) -> list[tuple[float, float]]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        lx, ly = c * self.long / 2, s * self.long / 2
        sx, sy = -s * self.short / 2, c * self.short / 2
        return [
            (self.cx - lx - sx, self.cy - ly - sy),
            (self.cx - lx + sx, self.cy - ly + sy),
            (self.cx + lx + sx, self.cy + ly + sy),
            (self.cx + lx - sx, self.cy + ly - sy),
        ]


MAX_INDICES = 120
"""At most this many index candidates per frame are classified (the strongest): bounds the time per frame."""
MAX_CARDS = 80


def decode_indices(maps: NDArray[np.float32], scale: float, threshold: float) -> list[IndexDet]:
    """Decodes corner indices from detector output ``maps`` (C×H×W) of a frame shrunk by ``scale``."""
    unit = STRIDE / scale
    xs, ys, vals = _peak_arrays(sigmoid(maps[IDX_HEAT]), threshold, MAX_INDICES)
    uxs, uys, lws, lhs, sxs, sys_, oxs, oys = _at(maps, _INDEX_CHANNELS, xs, ys)
    out = []
    for k, v in enumerate(vals):
        ux, uy = uxs[k], uys[k]
        n = math.hypot(ux, uy) or 1.0
        cx, cy = (xs[k] + sxs[k]) * unit, (ys[k] + sys_[k]) * unit
        out.append(
            IndexDet(
                cx,
                cy,
                ux / n,
                uy / n,
                math.exp(min(lws[k], 6.0)) * unit,
                math.exp(min(lhs[k], 6.0)) * unit,
                cx + oxs[k] * OFFSET_UNIT * unit,
                cy + oys[k] * OFFSET_UNIT * unit,
                v,
            )
        )
    return out


def decode_cards(maps: NDArray[np.float32], scale: float, threshold: float) -> list[CardDet]:
    """Decodes face-up and face-down card centres from detector output ``maps``."""
    unit = STRIDE / scale
    out = []
    for ch in (FACE_HEAT, BACK_HEAT):
        xs, ys, vals = _peak_arrays(sigmoid(maps[ch]), threshold, MAX_CARDS)
        c2s, s2s, lls, lss, sxs, sys_ = _at(maps, _CARD_CHANNELS, xs, ys)
        fulls = sigmoid(maps[CARD_FULL, ys, xs]).tolist() if xs else []
        for k, v in enumerate(vals):
            out.append(
                CardDet(
                    (xs[k] + sxs[k]) * unit,
                    (ys[k] + sys_[k]) * unit,
                    math.exp(min(lls[k], 7.0)) * unit,
                    math.exp(min(lss[k], 7.0)) * unit,
                    0.5 * math.atan2(s2s[k], c2s[k]),
                    fulls[k],
                    v,
                    ch == BACK_HEAT,
                )
            )
    return out


def quad_contains(quad: list[tuple[float, float]], x: float, y: float, margin: float = 0.0) -> bool:
    """True when (x, y) lies inside a convex quad grown by ``margin`` times its size.

    >>> quad_contains([(0, 0), (10, 0), (10, 10), (0, 10)], 5, 5)
    True
    >>> quad_contains([(0, 0), (10, 0), (10, 10), (0, 10)], 12, 5, margin=0.1)
    False
    """
    return _inside(_grown(quad, margin), x, y)


def _grown(quad: list[tuple[float, float]], margin: float) -> list[tuple[float, float]]:
    """A convex quad grown about its centre by ``margin`` times its size (:func:`quad_contains`):
    computed once per card, as one card's outline is tested against many indices."""
    cx = sum(p[0] for p in quad) / 4
    cy = sum(p[1] for p in quad) / 4
    return [(cx + (px - cx) * (1 + 2 * margin), cy + (py - cy) * (1 + 2 * margin)) for px, py in quad]


def _inside(grown: list[tuple[float, float]], x: float, y: float) -> bool:
    """True when (x, y) lies inside the convex quad ``grown``: on no edge's outer side, so the
    cross products are not of both signs."""
    sign = 0
    for i in range(4):
        x0, y0 = grown[i]
        x1, y1 = grown[(i + 1) % 4]
        cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        s = 1 if cross > 0 else -1 if cross < 0 else 0
        if s and sign and s != sign:
            return False
        sign = sign or s
    return True


@dataclass(slots=True)
class Group:
    """One physical card: an optional detected centre and the corner indices that belong to it."""

    card: CardDet | None
    indices: list[int] = field(default_factory=list)


def group(cards: list[CardDet], indices: list[IndexDet], labels: NDArray[np.int64]) -> list[Group]:
    """Assigns each index to a detected card centre, or groups centre-less indices that agree on
    their card (same label, predicted centres close together).

    ``labels`` is each index's most likely class (used only for centre-less grouping).
    """
    groups = [Group(c) for c in cards]
    loose: list[int] = []
    near = _near_centres(cards, indices)
    outlines: dict[int, list[tuple[float, float]]] = {}
    for i, idx in enumerate(indices):
        best, best_d = -1, float("inf")
        for g in near[i]:
            c = cards[g]
            d = math.hypot(idx.card_cx - c.cx, idx.card_cy - c.cy)
            if d < 0.3 * c.long and d < best_d:
                outline = outlines.get(g) or outlines.setdefault(g, _grown(c.quad(), 0.05))
                if _inside(outline, idx.cx, idx.cy):
                    best, best_d = g, d
        if best >= 0:
            groups[best].indices.append(i)
        else:
            loose.append(i)
    # Centre-less cards (fans, cascades): join indices whose predicted centres agree, when they read
    # the same face, or when they are the two opposite corners of one card: far apart, turned half a
    # turn to each other, pointing at the same centre (even if one of them was misread).
    clusters: list[list[int]] = []
    for i in loose:
        idx = indices[i]
        size = max(idx.height, idx.width)
        for cl in clusters:
            other = indices[cl[0]]
            d_centre = math.hypot(other.card_cx - idx.card_cx, other.card_cy - idx.card_cy)
            same_face = labels[cl[0]] == labels[i] and d_centre < 1.4 * size
            opposite = (
                other.up_x * idx.up_x + other.up_y * idx.up_y < -0.7
                and math.hypot(other.cx - idx.cx, other.cy - idx.cy) > 2.5 * size
                and d_centre < 0.9 * size
            )
            if same_face or opposite:
                cl.append(i)
                break
        else:
            clusters.append([i])
    loose_groups = [Group(None, cl) for cl in clusters]
    _adopt_loose(groups, loose_groups, indices)
    groups = _drop_duplicate_centres(groups)
    groups.extend(g for g in loose_groups if g.indices)
    return groups


def _near_centres(cards: list[CardDet], indices: list[IndexDet]) -> list[list[int]]:
    """For each index, the face-up card centres (in order) that its predicted centre may belong to:
    a numpy pre-selection with a little slack, so that :func:`group`'s exact test runs on a few
    candidates instead of every pair (about 50 indices and 25 centres a frame on a busy table)."""
    up = [g for g, c in enumerate(cards) if not c.back]
    if not up or not indices:
        return [[] for _ in indices]
    cx = np.array([cards[g].cx for g in up])
    cy = np.array([cards[g].cy for g in up])
    reach = np.array([0.3 * cards[g].long for g in up]) * (1 + 1e-6) + 1e-6
    px = np.array([i.card_cx for i in indices])[:, None]
    py = np.array([i.card_cy for i in indices])[:, None]
    out: list[list[int]] = [[] for _ in indices]
    rows, cols = np.nonzero(np.hypot(px - cx, py - cy) < reach)
    for i, k in zip(rows.tolist(), cols.tolist(), strict=True):
        out[i].append(up[k])
    return out


def _adopt_loose(groups: list[Group], loose: list[Group], indices: list[IndexDet]) -> None:
    """Gives a face-up card centre that got no index the loose cluster that points at it.

    The first pass asks a lot of an index (its predicted centre within 0.3 of a card length, inside
    the card's outline); a card cut by the frame's edge or seen at a slant often fails it and would
    come out twice, once as an ``UNKNOWN`` centre and once as its indices. A looser second match
    joins them, one cluster per card, nearest first.
    """
    # Where each cluster's indices say their card's centre is (a cluster is only ever emptied).
    centres = [
        (
            sum(indices[i].card_cx for i in lg.indices) / len(lg.indices),
            sum(indices[i].card_cy for i in lg.indices) / len(lg.indices),
        )
        if lg.indices
        else (0.0, 0.0)
        for lg in loose
    ]
    for g in groups:
        c = g.card
        if c is None or c.back or g.indices:
            continue
        outline: list[tuple[float, float]] | None = None
        best: Group | None = None
        best_d = 0.6 * c.long
        for lg, (px, py) in zip(loose, centres, strict=True):
            if not lg.indices:
                continue
            d = math.hypot(px - c.cx, py - c.cy)
            if d < best_d:
                outline = outline or _grown(c.quad(), 0.15)
                if all(_inside(outline, indices[i].cx, indices[i].cy) for i in lg.indices):
                    best, best_d = lg, d
        if best is not None:
            g.indices, best.indices = best.indices, []


def _drop_duplicate_centres(groups: list[Group]) -> list[Group]:
    """Drops a centre-only card peak that sits on the centre of a stronger card: a second peak of
    one card's heat, or its face-up and face-down heats both firing. A card that also has indices
    always wins; otherwise the stronger peak does."""

    def rank(g: Group) -> tuple[int, float]:
        return (1 if g.indices else 0, g.card.score if g.card is not None else 0.0)

    keep: list[Group] = []
    # Centre and reach (0.2 of its length) of each kept group's card.
    kept_centres: list[tuple[float, float, float]] = []
    for g in sorted(groups, key=rank, reverse=True):
        c = g.card
        if c is not None and not g.indices:
            cx, cy = c.cx, c.cy
            if any(math.hypot(kx - cx, ky - cy) < reach for kx, ky, reach in kept_centres):
                continue
        keep.append(g)
        if c is not None:
            kept_centres.append((c.cx, c.cy, 0.2 * c.long))
    return keep
