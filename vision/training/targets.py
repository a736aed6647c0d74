"""Training targets: what the detector should output for a labelled scene, and the
classifier's crops with their labels. Layout in :mod:`vision.heads`."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.heads import (
    BACK_HEAT,
    CARD_AXIS,
    CARD_FULL,
    CARD_LOGSIZE,
    CARD_SUB,
    CHANNELS,
    CLASSIFIER_LABELS,
    FACE_HEAT,
    IDX_HEAT,
    IDX_LOGSIZE,
    IDX_SUB,
    IDX_TO_CARD,
    IDX_UP,
    NOT_INDEX,
    OFFSET_UNIT,
    STRIDE,
)
from vision.preprocess import CropSpec, index_crops
from vision.training.scenes import INDEX_VISIBLE, CardLabel, Scene

__all__ = ["DetTargets", "detector_targets", "classifier_samples", "CELL"]

CELL = STRIDE / 0.5
"""Frame pixels per output cell (the detector sees frames at half size)."""
_LABEL_OF = {t: i for i, t in enumerate(CLASSIFIER_LABELS)}


@dataclass(slots=True)
class DetTargets:
    heat: NDArray[np.float32]
    """3×H×W heat targets (index, face-up centre, face-down centre)."""
    heat_weight: NDArray[np.float32]
    """3×H×W: 0 where a half-visible index makes the right answer unclear."""
    reg: NDArray[np.float32]
    """CHANNELS×H×W regression targets."""
    reg_weight: NDArray[np.float32]
    """2×H×W weights: index regressions, card regressions."""


def _splat(heat: NDArray[np.float32], cx: float, cy: float, sigma: float) -> tuple[int, int]:
    h, w = heat.shape
    px, py = int(math.floor(cx)), int(math.floor(cy))
    r = int(math.ceil(3 * sigma))
    x0, x1, y0, y1 = max(0, px - r), min(w, px + r + 1), max(0, py - r), min(h, py + r + 1)
    if x1 <= x0 or y1 <= y0:
        return px, py
    ys, xs = np.mgrid[y0:y1, x0:x1]
    g = np.exp(-((xs - px) ** 2 + (ys - py) ** 2) / (2 * sigma * sigma)).astype(np.float32)
    np.maximum(heat[y0:y1, x0:x1], g, out=heat[y0:y1, x0:x1])
    return px, py


def _cells(px: int, py: int, h: int, w: int) -> list[tuple[int, int]]:
    return [
        (px + dx, py + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if 0 <= px + dx < w and 0 <= py + dy < h
    ]


def _card_axis(card: CardLabel) -> tuple[float, float, float]:
    q = card.quad
    down = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
    across = (q[1] + q[2]) / 2 - (q[0] + q[3]) / 2
    long_v, short_len = down, float(np.linalg.norm(across))
    long_len = float(np.linalg.norm(down))
    if short_len > long_len:
        long_v, long_len, short_len = across, short_len, long_len
    theta = math.atan2(float(long_v[1]), float(long_v[0]))
    return theta, long_len, short_len


def detector_targets(scene: Scene, out_h: int, out_w: int) -> DetTargets:
    """Builds the detector's targets for a scene whose frame is ``out_h*CELL`` × ``out_w*CELL``."""
    heat = np.zeros((3, out_h, out_w), np.float32)
    heat_w = np.ones((3, out_h, out_w), np.float32)
    reg = np.zeros((CHANNELS, out_h, out_w), np.float32)
    reg_w = np.zeros((2, out_h, out_w), np.float32)
    for card in scene.cards:
        ccx, ccy = card.center
        if card.token != "BACK":
            for idx in card.indices:
                cx, cy = idx.center
                u, v = cx / CELL, cy / CELL
                iw, ih = idx.size
                if idx.visible < INDEX_VISIBLE:
                    if idx.visible > 0.25:
                        px, py = int(math.floor(u)), int(math.floor(v))
                        for x, y in _cells(px, py, out_h, out_w):
                            heat_w[IDX_HEAT, y, x] = 0.0
                    continue
                sigma = max(0.5, 0.18 * math.sqrt(iw * ih) / CELL)
                px, py = _splat(heat[IDX_HEAT], u, v, sigma)
                if not (0 <= px < out_w and 0 <= py < out_h):
                    continue
                ux, uy = idx.up
                for x, y in _cells(px, py, out_h, out_w):
                    wgt = 1.0 if (x, y) == (px, py) else 0.5
                    if reg_w[0, y, x] >= wgt:
                        continue
                    reg_w[0, y, x] = wgt
                    reg[IDX_UP, y, x] = (ux, uy)
                    reg[IDX_LOGSIZE, y, x] = (math.log(max(iw, 1.0) / CELL), math.log(max(ih, 1.0) / CELL))
                    reg[IDX_TO_CARD, y, x] = (
                        (ccx - cx) / CELL / OFFSET_UNIT,
                        (ccy - cy) / CELL / OFFSET_UNIT,
                    )
                    reg[IDX_SUB, y, x] = (u - x, v - y)
        if not (card.center_visible or card.center_amodal):
            continue
        theta, long_len, short_len = _card_axis(card)
        u, v = ccx / CELL, ccy / CELL
        ch = BACK_HEAT if card.token == "BACK" else FACE_HEAT
        px, py = _splat(heat[ch], u, v, max(0.7, short_len / CELL / 5))
        if not (0 <= px < out_w and 0 <= py < out_h):
            continue
        for x, y in _cells(px, py, out_h, out_w):
            wgt = 1.0 if (x, y) == (px, py) else 0.5
            if reg_w[1, y, x] >= wgt:
                continue
            reg_w[1, y, x] = wgt
            reg[CARD_AXIS, y, x] = (math.cos(2 * theta), math.sin(2 * theta))
            reg[CARD_LOGSIZE, y, x] = (
                math.log(max(long_len, 1.0) / CELL),
                math.log(max(short_len, 1.0) / CELL),
            )
            reg[CARD_SUB, y, x] = (u - x, v - y)
            reg[CARD_FULL, y, x] = 1.0 if card.fully_visible else 0.0
    return DetTargets(heat, heat_w, reg, reg_w)


def _jitter(rng: random.Random, spec: CropSpec, shift: float, scale: float, turn: float) -> CropSpec:
    size = max(spec.width, spec.height)
    a = math.atan2(spec.up_y, spec.up_x) + rng.uniform(-turn, turn)
    s = math.exp(rng.uniform(-scale, scale))
    return CropSpec(
        spec.cx + rng.uniform(-shift, shift) * size,
        spec.cy + rng.uniform(-shift, shift) * size,
        math.cos(a),
        math.sin(a),
        spec.width * s,
        spec.height * s,
    )


TIGHT_JITTER = (0.08, 0.15, 0.15)
"""How far an index crop is moved (fraction of the index's size), rescaled (log) and turned
(radians) at most: a detector's placement of a well-seen index."""
LOOSE_JITTER = (0.15, 0.28, 0.3)
"""The same, as loose as the detector places a small index (cards about 60 px long): measured
errors of a fifth of the index's size, a quarter of its scale and up to 0.25 rad."""


def classifier_samples(
    scene: Scene, rng: random.Random, per_index: int = 2, loose: float = 0.0
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Returns classifier crops (N×32×32×3) and labels for a scene: jittered crops of every visible
    index (a share ``loose`` of them cut with :data:`LOOSE_JITTER`), and crops that are not an upright
    index (card interiors, table, turned or shifted indices)."""
    specs: list[CropSpec] = []
    labels: list[int] = []
    not_index = _LABEL_OF[NOT_INDEX]
    h, w = scene.image.shape[:2]
    sizes: list[tuple[float, float]] = []
    for card in scene.cards:
        if card.token == "BACK":
            continue
        for idx in card.visible_indices():
            cx, cy = idx.center
            iw, ih = idx.size
            ux, uy = idx.up
            base = CropSpec(cx, cy, ux, uy, iw, ih)
            sizes.append((iw, ih))
            for _ in range(per_index):
                spread = LOOSE_JITTER if loose and rng.random() < loose else TIGHT_JITTER
                specs.append(_jitter(rng, base, *spread))
                labels.append(_LABEL_OF[card.token])
            r = rng.random()
            if r < 0.25:
                flipped = _jitter(rng, CropSpec(cx, cy, -ux, -uy, iw, ih), 0.08, 0.15, 0.3)
                specs.append(flipped)
                labels.append(not_index)
            elif r < 0.5:
                a = rng.uniform(0, 2 * math.pi)
                d = rng.uniform(0.65, 1.2) * max(iw, ih)
                specs.append(CropSpec(cx + d * math.cos(a), cy + d * math.sin(a), ux, uy, iw, ih))
                labels.append(not_index)
        if card.visible > 0.3 and rng.random() < 0.7:
            # A pip or a court picture in the middle of the card: ink, but not an index.
            q = card.quad
            a_, b_ = rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75)
            p = (q[0] * (1 - a_) + q[1] * a_) * (1 - b_) + (q[3] * (1 - a_) + q[2] * a_) * b_
            iw, ih = sizes[-1] if sizes else (12.0, 24.0)
            ang = rng.uniform(0, 2 * math.pi)
            specs.append(CropSpec(float(p[0]), float(p[1]), math.cos(ang), math.sin(ang), iw, ih))
            labels.append(not_index)
    for _ in range(2):
        s = rng.uniform(6, 50)
        ang = rng.uniform(0, 2 * math.pi)
        specs.append(CropSpec(rng.uniform(0, w), rng.uniform(0, h), math.cos(ang), math.sin(ang), s * 0.6, s))
        labels.append(not_index)
    crops = index_crops(scene.image, specs)
    return crops, np.array(labels, np.int64)
