"""The simulated overhead camera: optics, shutter, timestamps and sensor.

Glossary:

- **projection**: a pinhole camera above the mat, slightly tilted; for the table plane it is the
  homography ``table_to_image`` (mm to pixels). Lens distortion is not modelled: the kiosk's
  calibration is a homography too.
- **rolling shutter**: rows are exposed one after another; row ``y`` starts its exposure
  ``y * row_time_ns`` after row 0 (:class:`vision.events.Frame`). A global shutter has
  ``row_time_ns = 0``.
- **sensor timestamp**: the start of exposure of row 0, on the host's monotonic clock, as a
  V4L2 or picamera2 buffer carries it: a steady period with small jitter, and now and then a
  dropped frame (the index skips).
- **row time of a point**: the middle of that row's exposure,
  ``t_ns + y * row_time_ns + exposure_ns / 2``; the simulator samples the scene there.

>>> cam = CameraModel(width=640, height=360, fps=60.0, shutter="rolling")
>>> cam.row_time_ns
33333
>>> cam.frame_period_ns
16666667
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

__all__ = ["CameraModel", "FrameTiming", "SensorEffects"]


@dataclass(frozen=True, slots=True)
class FrameTiming:
    """When one frame was exposed."""

    index: int
    t_ns: int
    """Start of exposure of row 0."""
    row_time_ns: int
    exposure_ns: int

    def sample_t_ns(self, y: float) -> int:
        """The time at which the scene is sampled for image row ``y`` (mid-exposure)."""
        return self.t_ns + int(round(y * self.row_time_ns)) + self.exposure_ns // 2


@dataclass(frozen=True)
class CameraModel:
    """An overhead camera: resolution, frame rate, shutter, exposure and where it hangs.

    ``readout_ms`` is the rolling shutter's time from the first row to the last (12 ms is
    typical of a 720p60 sensor mode); ``tilt_deg`` tips the camera off the vertical, so the
    image has a little perspective, as a camera on an arm does.
    """

    width: int = 1280
    height: int = 720
    fps: float = 60.0
    shutter: str = "rolling"
    readout_ms: float = 12.0
    exposure_ms: float = 4.0
    jitter_us: float = 40.0
    """Standard deviation of the timestamp's jitter."""
    drop_rate: float = 0.002
    """Probability that a frame is dropped (its index is skipped)."""
    height_mm: float = 1400.0
    tilt_deg: tuple[float, float] = (2.0, -1.5)
    roll_deg: float = 0.6
    margin: float = 0.01
    """Fraction of the image left around the mat."""
    mat_mm: tuple[float, float] = (1560.0, 878.0)
    table_to_image: NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.shutter not in ("rolling", "global"):
            raise ValueError(f"shutter must be 'rolling' or 'global', got {self.shutter!r}")
        if self.width < 16 or self.height < 16 or self.fps <= 0:
            raise ValueError(f"bad camera mode {self.width}x{self.height} at {self.fps} fps")
        object.__setattr__(self, "table_to_image", self._fit_projection())

    @property
    def frame_period_ns(self) -> int:
        return int(round(1e9 / self.fps))

    @property
    def row_time_ns(self) -> int:
        if self.shutter == "global":
            return 0
        return int(round(self.readout_ms * 1e6 / self.height))

    @property
    def exposure_ns(self) -> int:
        return int(round(self.exposure_ms * 1e6))

    def _raw_projection(self, f: float) -> NDArray[np.float64]:
        w, h = self.mat_mm
        tx, ty = (math.radians(a) for a in self.tilt_deg)
        rz = math.radians(self.roll_deg)
        rx = np.array([[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]])
        ry = np.array([[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]])
        rzm = np.array([[math.cos(rz), -math.sin(rz), 0], [math.sin(rz), math.cos(rz), 0], [0, 0, 1]])
        r = rzm @ ry @ rx
        # Camera coordinates: x right, y down, z toward the table; the mat's centre is below.
        plane = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, self.height_mm]])
        k = np.array([[f, 0.0, self.width / 2], [0.0, f, self.height / 2], [0.0, 0.0, 1.0]])
        m: NDArray[np.float64] = k @ r @ plane
        out: NDArray[np.float64] = m / m[2, 2]
        return out

    def _fit_projection(self) -> NDArray[np.float64]:
        w, h = self.mat_mm
        f = self.height_mm * min(self.width / w, self.height / h)
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64).T
        for _ in range(30):
            m = self._raw_projection(f)
            p = m @ corners
            u, v = p[0] / p[2], p[1] / p[2]
            # Largest excursion from the image centre relative to the allowed half-size.
            ex = max(
                np.max(np.abs(u - self.width / 2)) / (self.width / 2 * (1 - self.margin)),
                np.max(np.abs(v - self.height / 2)) / (self.height / 2 * (1 - self.margin)),
            )
            if abs(ex - 1.0) < 1e-4:
                break
            f /= ex
        return self._raw_projection(f)

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Table millimetres (N×2) to image pixels (N×2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        m = self.table_to_image
        x, y = pts[:, 0], pts[:, 1]
        d = m[2, 0] * x + m[2, 1] * y + m[2, 2]
        out: NDArray[np.float64] = np.empty_like(pts)
        out[:, 0] = (m[0, 0] * x + m[0, 1] * y + m[0, 2]) / d
        out[:, 1] = (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / d
        return out

    def px_per_mm(self) -> float:
        """The mean scale at the mat's centre."""
        cached: float | None = self.__dict__.get("_px_per_mm")
        if cached is not None:
            return cached
        w, h = self.mat_mm
        a, b = self.project(np.array([[w / 2, h / 2], [w / 2 + 10, h / 2]]))
        value = float(np.hypot(*(b - a)) / 10)
        object.__setattr__(self, "_px_per_mm", value)
        return value

    def timings(self, *, start_ns: int = 0, rng: random.Random | None = None) -> Iterator[FrameTiming]:
        """The frames' timings from ``start_ns`` on: a steady period with jitter and rare drops."""
        rng = rng or random.Random(0)
        period = 1e9 / self.fps
        index = 0
        while True:
            if index > 0 and rng.random() < self.drop_rate:
                index += 1
                continue
            jitter = int(round(rng.gauss(0.0, self.jitter_us * 1000)))
            yield FrameTiming(
                index, start_ns + int(round(index * period)) + jitter, self.row_time_ns, self.exposure_ns
            )
            index += 1


@dataclass
class SensorEffects:
    """Lighting and sensor: an uneven light field (vignette, a lamp's gradient, a colour cast)
    and per-frame noise (a bank of noise images, reused at random so that it costs little).
    """

    width: int
    height: int
    rng: random.Random
    noise_sigma: float = 2.5
    gain: NDArray[np.float32] = field(init=False, repr=False)
    _noise: list[tuple[NDArray[np.uint8], NDArray[np.uint8]]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        r = self.rng
        yy, xx = np.mgrid[0 : self.height, 0 : self.width].astype(np.float32)
        nx, ny = xx / self.width - 0.5, yy / self.height - 0.5
        vignette = 1.0 - 0.35 * (nx**2 + ny**2) * 2.0
        lamp_x, lamp_y = r.uniform(-0.4, 0.4), r.uniform(-0.4, 0.4)
        lamp = 1.0 + 0.18 * np.exp(-((nx - lamp_x) ** 2 + (ny - lamp_y) ** 2) / 0.08)
        brightness = r.uniform(0.85, 1.05)
        cast = np.array([r.uniform(0.9, 1.02), 1.0, r.uniform(0.95, 1.1)], dtype=np.float32)  # B, G, R
        g = (vignette * lamp * brightness)[:, :, None] * cast[None, None, :]
        self.gain = g.astype(np.float32)
        nrng = np.random.default_rng(r.getrandbits(32))
        self._noise = []
        for _ in range(6):
            n = nrng.normal(0.0, self.noise_sigma, (self.height, self.width, 3))
            self._noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))

    def light(self, image: NDArray[np.uint8], y0: int = 0, x0: int = 0) -> NDArray[np.uint8]:
        """Applies the light field to an image or to a patch whose top-left is (x0, y0)."""
        h, w = image.shape[:2]
        g = self.gain[y0 : y0 + h, x0 : x0 + w]
        out: NDArray[np.uint8] = np.clip(image.astype(np.float32) * g, 0, 255).astype(np.uint8)
        return out

    def add_noise(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """Adds sensor noise in place (saturating) and returns the image."""
        import cv2

        pos, neg = self._noise[self.rng.randrange(len(self._noise))]
        cv2.add(image, pos, dst=image)
        cv2.subtract(image, neg, dst=image)
        return image
