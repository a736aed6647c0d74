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
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "detector_input",
    "index_crops",
    "crop_matrix",
    "CropSpec",
    "IndexPlace",
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
    out = np.empty((*x.shape[:-3], 3, *x.shape[-3:-1]), np.float32)
    _widen(x, out)
    return _scale(out)


def _widen(x: NDArray[np.uint8], out: NDArray[np.float32]) -> None:
    """Writes uint8 pixels (..., H, W, 3) as float32 into the channels-first ``out`` (..., 3, H, W)."""
    # The channels are split apart in uint8 (OpenCV, one fast pass) and each is widened into its
    # plane: reading through a transposed view instead cost about twice as long, a detector
    # input being 0.7 MB.
    if x.size == 0:
        return
    h, w = x.shape[-3:-1]
    for c, plane in enumerate(cv2.split(np.ascontiguousarray(x).reshape(-1, w, 3))):
        np.copyto(out[..., c, :, :], plane.reshape(*x.shape[:-3], h, w), casting="unsafe")


def _scale(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """Pixel values (float32) to about [-1, 1], in place. The arithmetic (float32, times 1/127.5,
    minus 1) is the one the networks were trained and quantized with, bit for bit."""
    x *= np.float32(1.0 / 127.5)
    x -= np.float32(1.0)
    return x


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
    Raises :class:`ValueError` for an array that is not an H×W×3 uint8 image, or is empty.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an H×W×3 uint8 BGR image, got shape {image.shape} dtype {image.dtype}")
    if image.size == 0:
        raise ValueError(f"expected an image at least 1×1 pixel, got shape {image.shape}")
    h, w = image.shape[:2]
    s = detector_scale(h, w, long_side)
    nh, nw = max(1, int(round(h * s))), max(1, int(round(w * s)))
    ph, pw = -(-nh // PAD_TO) * PAD_TO, -(-nw // PAD_TO) * PAD_TO
    out = np.empty((1, 3, ph, pw), np.float32)
    # Padding is mid-grey after normalisation, like an empty table far away: pixel value 128,
    # scaled with the rest.
    out[0, :, nh:, :] = 128.0
    out[0, :, :nh, nw:] = 128.0
    small = np.asarray(cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    _widen(small, out[0, :, :nh, :nw])
    _scale(out)
    return out, s


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


class IndexPlace(Protocol):
    """What :func:`index_crops` needs to know of an index: a :class:`CropSpec`, or a detection with
    the same fields (:class:`vision.postprocess.IndexDet`), which is then cut without a copy."""

    @property
    def cx(self) -> float: ...
    @property
    def cy(self) -> float: ...
    @property
    def up_x(self) -> float: ...
    @property
    def up_y(self) -> float: ...
    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...


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


def index_crops(
    image: NDArray[np.uint8], specs: Sequence[IndexPlace], size: int = CROP_SIZE
) -> NDArray[np.uint8]:
    """Cuts one upright crop per spec (:class:`CropSpec`, or an :class:`IndexPlace`) from a BGR
    frame: N×size×size×3 uint8.

    Each crop is bit for bit what ``cv2.warpAffine(frame, crop_matrix(spec), (size, size),
    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)`` cuts: the networks were trained
    on such crops.
    """
    out = np.empty((len(specs), size, size, 3), np.uint8)
    if not specs:
        return out
    matrices = _crop_matrices(specs, size, CROP_CONTEXT)
    # Shrinking a large index (a close-up) by more than 2x in one step aliases: cut it from a
    # pyramid level where the shrink is at most 2x.
    levels = [_pyramid_level(math.hypot(m[0], m[1])) for m in matrices[:, 0].tolist()]
    direct = [i for i, level in enumerate(levels) if level == 0]
    if len(direct) == len(specs):
        _warp_batch(image, matrices, out)
    elif direct:
        out[direct] = _warp_batch(image, matrices[direct], np.empty((len(direct), size, size, 3), np.uint8))
    pyramid = [image]
    for i, level in enumerate(levels):
        if not level:
            continue
        while len(pyramid) <= level:
            pyramid.append(np.asarray(cv2.pyrDown(pyramid[-1]), dtype=np.uint8))
        m = matrices[i].copy()
        m[:, :2] *= 2**level
        out[i] = cv2.warpAffine(
            pyramid[level], m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out


def _pyramid_level(k: float) -> int:
    """The pyramid level (each half the size of the one before) to cut a crop shrunk by ``k`` from."""
    level = 0
    while k * (2**level) < 0.5 and level < 6:
        level += 1
    return level


def _crop_matrices(specs: Sequence[IndexPlace], size: int, context: float) -> NDArray[np.float64]:
    """:func:`crop_matrix` for every spec at once (N×2×3), with the same arithmetic in the same
    order, so each matrix is bit for bit the one :func:`crop_matrix` returns."""
    cx, cy, up_x, up_y, big, norm = np.array(
        [
            (s.cx, s.cy, s.up_x, s.up_y, max(s.width, s.height, 4.0), math.hypot(s.up_x, s.up_y) or 1.0)
            for s in specs
        ],
        np.float64,
    ).T
    k = size / (context * big)
    ux, uy = up_x / norm, up_y / norm
    rx, ry = -uy, ux
    m = np.empty((len(specs), 2, 3))
    m[:, 0, 0] = k * rx
    m[:, 0, 1] = k * ry
    m[:, 0, 2] = size / 2 - k * (rx * cx + ry * cy)
    m[:, 1, 0] = -k * ux
    m[:, 1, 1] = -k * uy
    m[:, 1, 2] = size / 2 + k * (ux * cx + uy * cy)
    return m


_AB_BITS = 10
"""OpenCV's warpAffine steps through the source in fixed point with this many fractional bits..."""
_INTER_BITS = 5
"""...and interpolates between pixels at 1/2**this steps."""


def _warp_batch(
    image: NDArray[np.uint8], matrices: NDArray[np.float64], out: NDArray[np.uint8]
) -> NDArray[np.uint8]:
    """``cv2.warpAffine`` (bilinear, border replicated) of ``image`` by each 2×3 matrix into the
    N×S×S×3 ``out``, in one ``cv2.remap`` per thousand crops instead of one warp per crop.

    A warp of a whole frame into a 32×32 crop costs about 15 µs, most of it the call: a busy table
    has about 60 indices a frame. The source position of each crop pixel is computed as
    warpAffine computes it (the matrix inverted in double, positions rounded to 1/1024 pixel
    along each row, then to the 1/32 pixel of its interpolation tables), and ``cv2.remap`` with
    those fixed-point maps is the very routine warpAffine hands them to: the crops are bit for bit
    the same.
    """
    n, size = len(matrices), out.shape[1]
    m0, m1, m2 = matrices[:, 0, 0], matrices[:, 0, 1], matrices[:, 0, 2]
    m3, m4, m5 = matrices[:, 1, 0], matrices[:, 1, 1], matrices[:, 1, 2]
    det = m0 * m4 - m1 * m3
    inv = np.divide(1.0, det, out=np.zeros_like(det), where=det != 0)
    a0, a1, a3, a4 = m4 * inv, m1 * -inv, m3 * -inv, m0 * inv
    b0, b1 = -a0 * m2 - a1 * m5, -a3 * m2 - a4 * m5
    # Per crop, in 1/1024 pixel: where each row starts in the source (x, y), and the step along
    # the row to each column (x, y); warpAffine rounds these four separately, then adds them.
    steps = np.arange(size, dtype=np.float64)
    fixed = np.empty((4, n, size))
    np.multiply(a1[:, None], steps, out=fixed[0])
    fixed[0] += b0[:, None]
    np.multiply(a4[:, None], steps, out=fixed[1])
    fixed[1] += b1[:, None]
    np.multiply(a0[:, None], steps, out=fixed[2])
    np.multiply(a3[:, None], steps, out=fixed[3])
    fixed *= float(1 << _AB_BITS)
    np.rint(fixed, out=fixed)
    _clamp(fixed, -(2**31), 2**31 - 1)
    row, col = fixed[:2].astype(np.int32), fixed[2:].astype(np.int32)
    row += (1 << _AB_BITS) >> _INTER_BITS >> 1
    # Source positions in 1/32 pixel: whole pixels for the map, fractions for the table index.
    x = row[0][:, :, None] + col[0][:, None, :]
    y = row[1][:, :, None] + col[1][:, None, :]
    x >>= _AB_BITS - _INTER_BITS
    y >>= _AB_BITS - _INTER_BITS
    tab = (1 << _INTER_BITS) - 1
    tables = (y & tab).astype(np.uint16)
    tables <<= _INTER_BITS
    tables |= (x & tab).astype(np.uint16)
    x >>= _INTER_BITS
    y >>= _INTER_BITS
    # Saturated to int16 as warpAffine does; only a crop thousands of pixels off the frame needs it.
    for v in (x, y):
        if v.min() < -32768 or v.max() > 32767:
            _clamp(v, -32768, 32767)
    # Both int16 coordinates of a pixel packed in one int32, x first in memory: a view of it is
    # the interleaved x, y map remap takes, without a strided copy.
    first, second = (x, y) if sys.byteorder == "little" else (y, x)
    first &= 0xFFFF
    second <<= 16
    second |= first
    xy = second.view(np.int16)
    # cv2.remap takes maps under 32767 rows: a thousand 32-pixel crops a call.
    per_call = max(1, 32767 // size - 1)
    for i in range(0, n, per_call):
        j = min(n, i + per_call)
        cv2.remap(
            image,
            xy[i:j].reshape((j - i) * size, size, 2),
            tables[i:j].reshape((j - i) * size, size),
            cv2.INTER_LINEAR,
            dst=out[i:j].reshape((j - i) * size, size, 3),
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out


def _clamp(a: NDArray[np.generic], low: int, high: int) -> None:
    """``np.clip(a, low, high, out=a)`` as two ufuncs: numpy's clip wrapper costs more than the
    work on arrays this small (OpenCV's saturating casts)."""
    np.maximum(a, low, out=a)
    np.minimum(a, high, out=a)
