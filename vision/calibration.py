"""Table calibration: ArUco markers on the mat, and the homography from image pixels to table millimetres.

Glossary:

- **mat**: the printed table surface the camera looks at, ``width_mm`` × ``height_mm``, with its
  origin at the top-left corner as the camera sees it, x to the right, y down (millimetres).
- **marker**: one of four ArUco markers (OpenCV dictionary ``DICT_4X4_50``, ids 0..3) printed
  near the mat's corners, clockwise from the top-left. Their corners are known in table
  millimetres, so one image that shows them fixes the plane-to-plane homography.
- **calibration**: that homography (:class:`Calibration`), with its reprojection error.

OpenCV's ``cv2.aruco.ArucoDetector`` finds the markers (OpenCV 4.7 and later); with all
four markers the 16 corners give a least-squares homography, with at least one marker its
four corners give an exact one.

>>> mat = TableMat()
>>> mat.marker_corners_mm(0)[0]
(20.0, 20.0)
>>> cal = Calibration.from_scale(0.5)
>>> cal.to_table([(100.0, 50.0)])[0]
(50.0, 25.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ARUCO_DICTIONARY",
    "TableMat",
    "Calibration",
    "CalibrationError",
    "marker_image",
    "detect_markers",
    "calibrate",
]

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
"""The ArUco dictionary of the mat's markers: 4×4 bits, robust at 30-40 px per marker."""


class CalibrationError(ValueError):
    """No usable calibration in an image (markers missing or the fit degenerate)."""


@dataclass(frozen=True, slots=True)
class TableMat:
    """The printed mat: its size and where its four markers sit, in millimetres.

    The default is a 16:9 mat of 1560 × 878 mm, the area a 1280×720 camera sees at
    about 0.7-0.8 px/mm, so a poker card (88 mm) is 60-70 px tall.
    """

    width_mm: float = 1560.0
    height_mm: float = 878.0
    marker_mm: float = 50.0
    """Side of each square marker (its black border included)."""
    inset_mm: float = 20.0
    """Distance from the mat's edge to each marker's outer corner."""
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    """Marker ids clockwise from the top-left corner."""

    def marker_corners_mm(self, index: int) -> list[tuple[float, float]]:
        """The four corners (ArUco order: clockwise from the marker's top-left) of marker ``index``."""
        m, i = self.marker_mm, self.inset_mm
        x0 = i if index in (0, 3) else self.width_mm - i - m
        y0 = i if index in (0, 1) else self.height_mm - i - m
        return [(x0, y0), (x0 + m, y0), (x0 + m, y0 + m), (x0, y0 + m)]

    def marker_boxes_mm(self) -> list[tuple[float, float, float, float]]:
        """Each marker's box ``(x0, y0, x1, y1)`` with a white quiet zone of a quarter side."""
        q = self.marker_mm / 4
        out = []
        for k in range(4):
            (x0, y0), _, (x1, y1), _ = self.marker_corners_mm(k)
            out.append((x0 - q, y0 - q, x1 + q, y1 + q))
        return out


def marker_image(marker_id: int, side_px: int) -> NDArray[np.uint8]:
    """The ArUco marker ``marker_id`` as a ``side_px`` square grey image (black border included)."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    img = np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, side_px), dtype=np.uint8)
    return img


def _as_points(points: Sequence[tuple[float, float]] | NDArray[np.float64]) -> NDArray[np.float64]:
    arr = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return arr


@dataclass(frozen=True)
class Calibration:
    """The homography between image pixels and table millimetres.

    ``image_to_table`` is a 3×3 matrix; ``rms_px`` the reprojection error of the markers'
    corners (how far, in pixels, the fit misses them), ``markers`` the ids that were used.
    """

    image_to_table: NDArray[np.float64]
    rms_px: float = 0.0
    markers: tuple[int, ...] = ()
    table_to_image: NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_to_image", np.linalg.inv(self.image_to_table))

    @classmethod
    def from_scale(cls, mm_per_px: float) -> Calibration:
        """A calibration for a camera looking straight down with ``mm_per_px`` everywhere."""
        return cls(np.diag([mm_per_px, mm_per_px, 1.0]))

    def to_table(
        self, points: Sequence[tuple[float, float]] | NDArray[np.float64]
    ) -> list[tuple[float, float]]:
        """Maps image pixels to table millimetres."""
        return _apply(self.image_to_table, _as_points(points))

    def to_image(
        self, points: Sequence[tuple[float, float]] | NDArray[np.float64]
    ) -> list[tuple[float, float]]:
        """Maps table millimetres to image pixels."""
        return _apply(self.table_to_image, _as_points(points))

    def mm_per_px_at(self, x: float, y: float) -> float:
        """The local scale (millimetres per pixel, geometric mean of both axes) at image point (x, y)."""
        (ax, ay), (bx, by), (cx, cy) = self.to_table([(x, y), (x + 1, y), (x, y + 1)])
        return float(np.sqrt(abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))))


def _apply(h: NDArray[np.float64], pts: NDArray[np.float64]) -> list[tuple[float, float]]:
    if len(pts) == 0:
        return []
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    out = homog[:, :2] / homog[:, 2:3]
    return [(float(x), float(y)) for x, y in out]


def detect_markers(image: NDArray[np.uint8]) -> dict[int, NDArray[np.float32]]:
    """Finds the ArUco markers in a BGR or grey image: ``{id: 4×2 corner array}`` in pixels."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, NDArray[np.float32]] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        found[int(i)] = np.asarray(c, dtype=np.float32).reshape(4, 2)
    return found


def calibrate(image: NDArray[np.uint8], mat: TableMat | None = None) -> Calibration:
    """Fits the image-to-table homography from the mat's markers seen in ``image``.

    Raises CalibrationError naming what is missing when no marker of the mat is visible.
    """
    mat = mat or TableMat()
    found = detect_markers(image)
    src: list[tuple[float, float]] = []
    dst: list[tuple[float, float]] = []
    used: list[int] = []
    for k, marker_id in enumerate(mat.marker_ids):
        if marker_id in found:
            used.append(marker_id)
            src.extend((float(x), float(y)) for x, y in found[marker_id])
            dst.extend(mat.marker_corners_mm(k))
    if not used:
        raise CalibrationError(
            f"no calibration marker found (expected ArUco 4x4 ids {list(mat.marker_ids)} at the mat's "
            "corners); make sure the whole mat is in view and lit"
        )
    found_h, _ = cv2.findHomography(np.array(src), np.array(dst), 0)
    if found_h is None:
        raise CalibrationError(f"markers {used} give a degenerate homography; re-aim the camera")
    h: NDArray[np.float64] = np.asarray(found_h, dtype=np.float64)
    inverse: NDArray[np.float64] = np.linalg.inv(h).astype(np.float64)
    back = _apply(inverse, np.array(dst))
    err = np.array(back) - np.array(src)
    rms = float(np.sqrt(np.mean(np.sum(err**2, axis=1))))
    return Calibration(h, rms, tuple(used))
