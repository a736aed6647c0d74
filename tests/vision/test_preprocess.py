"""Model inputs (:mod:`vision.preprocess`): the fast paths cut and scale exactly what the networks
were trained and quantized with, bit for bit."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.preprocess import CROP_SIZE, CropSpec, crop_matrix, detector_input, index_crops, normalise


def _frame(h: int = 240, w: int = 320, seed: int = 0) -> NDArray[np.uint8]:
    # Smooth gradients plus noise: interpolation errors of a fraction of a grey level would show.
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    base = np.stack([(xx * 255 // w), (yy * 255 // h), ((xx + yy) * 7) % 256], axis=-1)
    noise = rng.integers(-20, 21, (h, w, 3))
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def _warp_one(image: NDArray[np.uint8], spec: CropSpec) -> NDArray[np.uint8]:
    """The crop as one cv2.warpAffine cuts it (the definition :func:`index_crops` must match)."""
    m = crop_matrix(spec)
    level = 0
    while math.hypot(m[0, 0], m[0, 1]) * 2**level < 0.5 and level < 6:
        level += 1
    src = image
    for _ in range(level):
        src = np.asarray(cv2.pyrDown(src), dtype=np.uint8)
    m[:, :2] *= 2**level
    crop = cv2.warpAffine(
        src, m, (CROP_SIZE, CROP_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(crop, dtype=np.uint8)


def _specs(n: int, h: int, w: int, seed: int) -> list[CropSpec]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        a = rng.uniform(0, 2 * math.pi)
        out.append(
            CropSpec(
                float(rng.uniform(-15, w + 15)),  # some indices at or past the frame's edge
                float(rng.uniform(-15, h + 15)),
                math.cos(a) * float(rng.uniform(0.5, 2.0)),  # up vectors not always unit length
                math.sin(a),
                float(rng.uniform(3, 30)),
                float(rng.uniform(3, 40)),
            )
        )
    return out


def test_index_crops_are_the_crops_warp_affine_cuts() -> None:
    image = _frame()
    specs = _specs(300, image.shape[0], image.shape[1], seed=1)
    specs += [CropSpec(100.0, 80.0, 0.0, 0.0, 12.0, 18.0), CropSpec(0.0, 0.0, 0.0, -1.0, 1.0, 1.0)]
    # Far off the frame: positions beyond int16 saturate, as warpAffine's do.
    specs += [CropSpec(-50000.0, 40.0, 0.0, -1.0, 12.0, 18.0), CropSpec(60.0, 40000.0, 1.0, 0.0, 12.0, 18.0)]
    crops = index_crops(image, specs)
    assert crops.shape == (len(specs), CROP_SIZE, CROP_SIZE, 3) and crops.dtype == np.uint8
    for spec, crop in zip(specs, crops, strict=True):
        assert np.array_equal(crop, _warp_one(image, spec)), spec


def test_large_indices_are_cut_from_the_pyramid_with_the_rest() -> None:
    # A close-up's index, 150 px tall, among ordinary ones: shrinking it 6x in one step would alias.
    image = _frame(480, 640, seed=2)
    specs = [
        CropSpec(200.0, 150.0, 0.3, -1.0, 90.0, 150.0),
        CropSpec(320.0, 240.0, 0.0, -1.0, 10.0, 16.0),
        CropSpec(500.0, 300.0, -1.0, 0.2, 60.0, 70.0),
    ]
    crops = index_crops(image, specs)
    for spec, crop in zip(specs, crops, strict=True):
        assert np.array_equal(crop, _warp_one(image, spec))


def test_no_specs_give_no_crops() -> None:
    assert index_crops(_frame(), []).shape == (0, CROP_SIZE, CROP_SIZE, 3)
    assert normalise(np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)).shape == (0, 3, CROP_SIZE, CROP_SIZE)


@pytest.mark.parametrize("shape", [(4, 32, 32, 3), (45, 70, 3), (2, 3, 5, 7, 3)])
def test_normalise_is_the_training_arithmetic_channels_first(shape: tuple[int, ...]) -> None:
    x = np.random.default_rng(3).integers(0, 256, shape, dtype=np.uint8)
    expected = np.moveaxis(x.astype(np.float32) * np.float32(1 / 127.5) - np.float32(1), -1, -3)
    got = normalise(x)
    assert got.dtype == np.float32 and got.shape == expected.shape
    assert np.array_equal(got.view(np.uint32), np.ascontiguousarray(expected).view(np.uint32))


@pytest.mark.parametrize(("h", "w", "long_side"), [(720, 1280, None), (701, 1013, None), (720, 1280, 300)])
def test_detector_input_is_the_padded_shrunk_frame(h: int, w: int, long_side: int | None) -> None:
    image = _frame(h, w, seed=4)
    x, scale = detector_input(image, long_side)
    nh, nw = round(h * scale), round(w * scale)
    assert x.shape[:2] == (1, 3) and x.shape[2] % 32 == 0 and x.shape[3] % 32 == 0
    padded = np.full((x.shape[2], x.shape[3], 3), 128, np.uint8)
    padded[:nh, :nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    assert np.array_equal(x[0].view(np.uint32), normalise(padded).view(np.uint32))


@pytest.mark.parametrize("shape", [(0, 0, 3), (0, 5, 3), (5, 0, 3)])
def test_an_empty_image_is_refused_with_a_clear_error(shape: tuple[int, ...]) -> None:
    # Not a division by zero or an OpenCV assertion deep in the resize.
    with pytest.raises(ValueError, match="at least 1×1 pixel"):
        detector_input(np.zeros(shape, np.uint8))
