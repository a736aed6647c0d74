"""onnxruntime's layout passes (:class:`vision.session.OnnxSession`'s ``layout``) change the speed of the
shipped networks, not their outputs: the recognizer runs its detector without them."""

from __future__ import annotations

import json

import numpy as np
from numpy.typing import NDArray

from vision.preprocess import detector_input, normalise
from vision.recognizer import DEFAULT_MODEL_DIR, MANIFEST
from vision.session import OnnxSession


def _model(part: str) -> str:
    manifest = json.loads((DEFAULT_MODEL_DIR / MANIFEST).read_text(encoding="utf-8"))
    return str(DEFAULT_MODEL_DIR / manifest[part]["file"])


def _frame(h: int, w: int) -> NDArray[np.uint8]:
    rng = np.random.default_rng(h * w)
    yy, xx = np.mgrid[0:h, 0:w]
    # Card-like light rectangles with dark print on a mid-grey table, plus sensor noise.
    img = np.full((h, w, 3), 90, np.int32)
    for _ in range(12):
        y, x = int(rng.integers(0, h - 60)), int(rng.integers(0, w - 40))
        img[y : y + 60, x : x + 40] = 235
        img[y + 4 : y + 14, x + 3 : x + 9] = 20
    img += ((xx + yy) % 7 - 3)[..., None] + rng.integers(-8, 9, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def test_detector_maps_are_the_same_with_and_without_layout_passes() -> None:
    plain, laid_out = (OnnxSession(_model("detector"), layout=flag) for flag in (False, True))
    for h, w, side in ((720, 1280, None), (300, 410, 224)):
        x, _ = detector_input(_frame(h, w), side)
        assert np.array_equal(plain.run(x).view(np.uint32), laid_out.run(x).view(np.uint32))


def test_classifier_logits_are_the_same_with_and_without_layout_passes() -> None:
    plain, laid_out = (OnnxSession(_model("classifier"), layout=flag) for flag in (False, True))
    crops = normalise(np.random.default_rng(1).integers(0, 256, (37, 32, 32, 3), dtype=np.uint8))
    assert np.array_equal(plain.run(crops).view(np.uint32), laid_out.run(crops).view(np.uint32))
