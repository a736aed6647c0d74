"""The decoding shortcuts of :mod:`vision.postprocess` give exactly what their plain definitions give:
the recognizer's sightings must not change by a bit when its Python work is trimmed."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from vision.postprocess import IndexDet, _round6, peaks, quad_contains


def _plain_peaks(prob: NDArray[np.float32], threshold: float, max_n: int) -> list[tuple[int, int, float]]:
    """Local maxima over the whole map, as first written: each cell against its 3×3 neighbourhood."""
    h, w = prob.shape
    pad = np.pad(prob, 1, constant_values=-1.0)
    best = prob.copy()
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            np.maximum(best, pad[dy : dy + h, dx : dx + w], out=best)
    ys, xs = np.nonzero((prob >= best) & (prob > threshold))
    vals = prob[ys, xs]
    order = np.argsort(-vals)[:max_n]
    return [
        (int(x), int(y), round(float(v), 6))
        for x, y, v in zip(xs[order], ys[order], vals[order], strict=True)
    ]


def test_peaks_are_the_local_maxima_of_the_whole_map() -> None:
    rng = np.random.default_rng(0)
    for k in range(30):
        # Blobs on noise, with plateaus (equal neighbours) and peaks on the map's edges.
        prob = rng.random((24, 40)).astype(np.float32) * 0.5
        for _ in range(12):
            y, x = int(rng.integers(0, 24)), int(rng.integers(0, 40))
            prob[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2] = np.float32(rng.choice([0.7, 0.9, 1.0]))
        prob[0, :3] = prob[-1, -2:] = np.float32(0.95)
        for threshold, max_n in ((0.3, 200), (0.6, 5), (0.99, 200)):
            assert peaks(prob, threshold, max_n) == _plain_peaks(prob, threshold, max_n), (k, threshold)


def test_no_cell_above_the_threshold_gives_no_peak() -> None:
    assert peaks(np.full((8, 8), 0.2, np.float32), 0.3) == []


@given(st.lists(st.floats(0.0, 1.0, width=32), max_size=50))
def test_scores_round_as_python_rounds(values: list[float]) -> None:
    vals = np.array(values, np.float32)
    assert _round6(vals) == [round(v, 6) for v in vals.tolist()]


def test_scores_round_as_python_rounds_near_half_millionths() -> None:
    near = (np.arange(1, 200_001, dtype=np.float64) / 1e6 + 5e-7).astype(np.float32)
    near = np.concatenate([near, np.nextafter(near, np.float32(0)), np.nextafter(near, np.float32(1))])
    assert _round6(near) == [round(v, 6) for v in near.tolist()]


finite = st.floats(-2000.0, 2000.0)


@settings(max_examples=300)
@given(finite, finite, st.floats(0.0, 2 * math.pi), st.floats(0.5, 60.0), st.floats(0.5, 60.0))
def test_index_box_bounds_its_four_corners_exactly(
    cx: float, cy: float, angle: float, width: float, height: float
) -> None:
    idx = IndexDet(cx, cy, math.cos(angle), math.sin(angle), width, height, cx, cy, 0.9)
    hw, hh, ux, uy = width / 2, height / 2, idx.up_x, idx.up_y
    rx, ry = -uy, ux
    xs = [cx + sx * hw * rx + sy * hh * ux for sx in (-1, 1) for sy in (-1, 1)]
    ys = [cy + sx * hw * ry + sy * hh * uy for sx in (-1, 1) for sy in (-1, 1)]
    assert idx.box() == (min(xs), min(ys), max(xs), max(ys))


def test_quad_contains_grows_the_outline_about_its_centre() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert quad_contains(square, 10.5, 5.0, margin=0.05)
    assert not quad_contains(square, 10.5, 5.0)
    assert not quad_contains(square, 11.5, 5.0, margin=0.05)
