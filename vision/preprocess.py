"""Turning camera frames into model inputs: pure numpy and OpenCV, shared by the runtime and training.

Two inputs exist. The **detector** sees the whole frame at half resolution
(:func:`detector_input`), padded to a multiple of :data:`PAD_TO`. The
**classifier** sees one corner index at a time (:func:`index_crops`): a square
:data:`CROP_SIZE` pixels wide, cut from the full-resolution frame around the
index, turned so the index stands upright. Training cuts its crops with the
same function, so what the classifier learns is what it is shown at run time.

>>> import numpy as np
>>> x, scale = detector_input(np.zeros((720, 1280, 3), np.uint8))
>>> x.shape, x.dtype.name, scale
((1, 3, 384, 640), 'float32', 0.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "detector_input",
    "index_crops",
    "crop_matrix",
    "CropSpec",
    "CROP_SIZE",
    "CROP_CONTEXT",
    "PAD_TO",
    "DETECTOR_SCALE",
    "normalise",
]

DETECTOR_SCALE = 0.5
"""Frames are shown to the detector at half size (cards 60 px tall become 30 px)."""
MAX_DETECTOR_SIDE = 960
"""Larger frames are shrunk further so the detector's long side is at most this."""
PAD_TO = 32
"""The detector's input sides are multiples of its total stride."""
CROP_SIZE = 32
"""Side of an index crop shown to the classifier, in pixels."""
CROP_CONTEXT = 1.3
"""A crop spans this many times the index's larger side."""


def normalise(x: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Maps uint8 pixels (..., H, W, 3 BGR) to float32 in about [-1, 1], channels first.

    >>> [round(float(v), 3) for v in normalise(np.array([[[0, 255, 51]]], np.uint8)).ravel()]
    [-1.0, 1.0, -0.6]
    """
    # One pass writing straight into the channels-first result: converting, scaling and then
    # transposing as three whole-frame passes cost about 10 times as long (a detector input is
    # 0.7 MB), a few ms of every frame. The arithmetic (float32, times 1/127.5, minus 1) is the
    # same, so the values are bit for bit those the networks were trained and quantized with.
    out = np.empty((*x.shape[:-3], 3, *x.shape[-3:-1]), np.float32)
    np.multiply(np.moveaxis(x, -1, -3), np.float32(1.0 / 127.5), out=out, casting="unsafe")
    out -= np.float32(1.0)
    return out


def detector_scale(height: int, width: int, long_side: int | None = None) -> float:
    """The factor frames of this size are resized by for the detector."""
    if long_side is not None:
        return long_side / max(height, width)
    return min(DETECTOR_SCALE, MAX_DETECTOR_SIDE / max(height, width))


def detector_input(
    image: NDArray[np.uint8], long_side: int | None = None
) -> tuple[NDArray[np.float32], float]:
    """Returns the detector's input (1×3×H×W float32) for a BGR frame, and the scale applied.

    ``long_side`` forces the detector's long side (a coarse pass for close-ups).
    Raises :class:`ValueError` for an array that is not an H×W×3 uint8 image.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an H×W×3 uint8 BGR image, got shape {image.shape} dtype {image.dtype}")
    h, w = image.shape[:2]
    s = detector_scale(h, w, long_side)
    nh, nw = max(1, int(round(h * s))), max(1, int(round(w * s)))
    ph, pw = -(-nh // PAD_TO) * PAD_TO, -(-nw // PAD_TO) * PAD_TO
    # Padding is mid-grey after normalisation, like an empty table far away.
    padded = np.full((ph, pw, 3), 128, np.uint8)
    if nw == pw:
        # Full-width rows are one contiguous block: resize straight into it, without a copy.
        cv2.resize(image, (nw, nh), dst=padded[:nh], interpolation=cv2.INTER_AREA)
    else:
        padded[:nh, :nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    return normalise(padded)[None], s


@dataclass(frozen=True, slots=True)
class CropSpec:
    """Where a corner index is in the full-resolution frame."""

    cx: float
    cy: float
    up_x: float
    """The index's up direction (unit vector, image pixels; y points down)."""
    up_y: float
    width: float
    height: float


def crop_matrix(spec: CropSpec, size: int = CROP_SIZE, context: float = CROP_CONTEXT) -> NDArray[np.float64]:
    """Returns the 2×3 affine map from frame pixels to crop pixels for ``spec``.

    In the crop, the index's up direction points up and its centre is the crop's centre.

    >>> m = crop_matrix(CropSpec(100, 50, 0.0, -1.0, 10, 20))
    >>> [round(float(v), 3) for v in m @ np.array([100, 50, 1])]
    [16.0, 16.0]
    """
    side = context * max(spec.width, spec.height, 4.0)
    k = size / side
    n = math.hypot(spec.up_x, spec.up_y) or 1.0
    ux, uy = spec.up_x / n, spec.up_y / n
    # Crop axes: y_crop runs along -up, x_crop along up turned a quarter clockwise.
    rx, ry = -uy, ux
    return np.array(
        [
            [k * rx, k * ry, size / 2 - k * (rx * spec.cx + ry * spec.cy)],
            [-k * ux, -k * uy, size / 2 + k * (ux * spec.cx + uy * spec.cy)],
        ]
    )


def index_crops(image: NDArray[np.uint8], specs: list[CropSpec], size: int = CROP_SIZE) -> NDArray[np.uint8]:
    """Cuts one upright crop per spec from a BGR frame: N×size×size×3 uint8."""
    out = np.empty((len(specs), size, size, 3), np.uint8)
    pyramid = [image]
    for i, spec in enumerate(specs):
        m = crop_matrix(spec, size)
        # Shrinking a large index (a close-up) by more than 2x in one step aliases: cut it from a
        # pyramid level where the shrink is at most 2x.
        level = 0
        k = math.hypot(m[0, 0], m[0, 1])
        while k * (2**level) < 0.5 and level < 6:
            level += 1
        while len(pyramid) <= level:
            pyramid.append(np.asarray(cv2.pyrDown(pyramid[-1]), dtype=np.uint8))
        if level:
            m = m.copy()
            m[:, :2] *= 2**level
        out[i] = cv2.warpAffine(
            pyramid[level], m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out
