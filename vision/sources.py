"""Frame sources: the overhead camera behind one narrow interface.

Every source has ``open()``, ``read()`` (the next :class:`~vision.events.Frame`,
or ``None`` when the camera has stopped delivering) and ``close()``; ``name``
says what it is for messages ("usb:0", a file name). The kiosk's camera thread
(``kiosk.app.camera``) drives them, reopens a lost one, and never touches the
game.

- :class:`OpenCVSource`: USB cameras (``usb:0``) and video files or stream
  URLs, through OpenCV's ``VideoCapture``. A live camera's frame gets the host's
  monotonic time at capture; a file's frames get the file's own frame times
  from the moment it was opened, so a recorded table replays at its real pace.
- :class:`Picamera2Source`: the Raspberry Pi camera. ``picamera2`` is imported
  only when this source is opened (it is not a pip dependency); each frame
  carries the sensor's timestamp, which is on the monotonic clock.
- :class:`IterableSource`: any iterable of frames (the table simulator, a test's list).

:func:`open_source` turns a configuration string into a source.

>>> src = IterableSource([Frame(None, 5, 0), Frame(None, 9, 1)], name="list")
>>> src.open(); [f.t_ns for f in (src.read(), src.read())], src.read()
([5, 9], None)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from vision.events import Frame

__all__ = ["FrameSource", "OpenCVSource", "Picamera2Source", "IterableSource", "open_source", "SourceError"]


class SourceError(OSError):
    """A camera that cannot be opened; the message names it and says what to check."""


class FrameSource(Protocol):
    """What the camera thread needs of a camera."""

    name: str

    def open(self) -> None:
        """Starts the camera; raises :class:`SourceError` if it cannot."""

    def read(self) -> Frame | None:
        """The next frame (blocking up to about a frame period), or None if the camera stopped."""

    def close(self) -> None:
        """Releases the camera (safe to call twice)."""


class IterableSource:
    """Frames from any iterable (the simulator's generator, a list in a test)."""

    def __init__(self, frames: Iterable[Frame], *, name: str = "frames") -> None:
        self.name = name
        self._frames = frames
        self._it: Iterator[Frame] | None = None

    def open(self) -> None:
        if self._it is None:
            self._it = iter(self._frames)

    def read(self) -> Frame | None:
        if self._it is None:
            return None
        return next(self._it, None)

    def close(self) -> None:
        self._it = None


class OpenCVSource:
    """A USB camera (an index) or a video file / stream URL through ``cv2.VideoCapture``."""

    def __init__(
        self,
        target: int | str,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.target = target
        self.name = f"usb:{target}" if isinstance(target, int) else Path(str(target)).name
        self.is_file = isinstance(target, str) and "://" not in target
        self._clock = clock
        self._sleep = sleep
        self._cap: Any = None
        self._index = 0
        self._start_ns = 0
        self.finished = False
        """True once a video file has been read to its end (a camera that stops is lost, not finished)."""

    def open(self) -> None:
        import cv2

        if self.is_file and not Path(str(self.target)).exists():
            raise SourceError(f"video file {self.target} does not exist; check --camera")
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            what = "USB camera" if isinstance(self.target, int) else "video"
            raise SourceError(
                f"cannot open {what} {self.name}: is it plugged in, and not used by another program?"
            )
        self._cap = cap
        self._index = 0
        self._start_ns = self._clock()
        self.finished = False

    def read(self) -> Frame | None:
        if self._cap is None:
            return None
        import cv2

        ok, image = self._cap.read()
        if not ok or image is None:
            self.finished = self.is_file
            return None
        if self.is_file:
            # The file's own frame time, replayed at its real pace from when it was opened.
            pos_ms = float(self._cap.get(cv2.CAP_PROP_POS_MSEC))
            t_ns = self._start_ns + int(pos_ms * 1e6)
            wait = (t_ns - self._clock()) / 1e9
            if wait > 0:
                self._sleep(wait)
        else:
            t_ns = self._clock()
        frame = Frame(image, t_ns, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class Picamera2Source:
    """The Raspberry Pi camera through picamera2 (imported only here, when opened)."""

    def __init__(self, *, size: tuple[int, int] = (1280, 720), fps: float = 30.0) -> None:
        self.name = "picamera2"
        self.size = size
        self.fps = fps
        self._cam: Any = None
        self._index = 0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError(
                "picamera2 is not installed: on Raspberry Pi OS, apt install python3-picamera2 "
                "and create the venv with --system-site-packages"
            ) from None
        try:
            cam = Picamera2()
            # libcamera's "RGB888" is B, G, R in memory: OpenCV's order, as Frame expects.
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameDurationLimits": (int(1e6 / self.fps), int(1e6 / self.fps))},
            )
            cam.configure(config)
            cam.start()
        except Exception as exc:  # picamera2 raises several unrelated types for a missing camera
            raise SourceError(f"cannot start the Pi camera: {exc}; check the ribbon cable") from None
        self._cam = cam
        self._index = 0

    def read(self) -> Frame | None:
        if self._cam is None:
            return None
        try:
            request = self._cam.capture_request()
        except Exception:
            return None
        try:
            image = request.make_array("main")
            meta = request.get_metadata()
        finally:
            request.release()
        # SensorTimestamp: start of exposure, nanoseconds, on the monotonic clock.
        t_ns = int(meta.get("SensorTimestamp", time.monotonic_ns()))
        exposure_ns = int(meta.get("ExposureTime", 0)) * 1000
        frame = Frame(image, t_ns, self._index, exposure_ns=exposure_ns)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


def open_source(spec: str) -> FrameSource:
    """The source a configuration string names: ``usb:N``, ``picamera2``, or a file path / URL.

    Raises :class:`SourceError` for an empty or malformed name or a missing file (a camera is
    opened later, by the camera thread, which retries one that is not there yet).

    >>> open_source("usb:1").name, open_source("rtsp://table-cam/stream").name
    ('usb:1', 'stream')
    """
    s = spec.strip()
    if not s:
        raise SourceError("no camera given; use usb:N, picamera2, or a video file")
    if s == "picamera2":
        return Picamera2Source()
    if s.startswith("usb:"):
        n = s.removeprefix("usb:")
        if not n.isdigit():
            raise SourceError(f"camera {spec!r}: usb: needs a camera number, e.g. usb:0")
        return OpenCVSource(int(n))
    if "://" not in s and not Path(s).expanduser().exists():
        raise SourceError(f"camera {spec!r}: no such video file; use usb:N, picamera2, or an existing file")
    return OpenCVSource(str(Path(s).expanduser()) if "://" not in s else s)
