"""The camera thread: frames -> recognizer -> tracker -> table events on the app's queue.

All camera work runs here, off the display thread. The thread opens the
source, runs each frame through the vision pipeline (a callable from a frame
to the table events it reveals) and puts each event on the app's queue as a
:class:`~kiosk.app.messages.SeenEvent`; the loop logs and referees it. Every
so often it also sends a :class:`~kiosk.app.messages.CalibrationView` (a small
copy of the picture with the markers found) for the calibrate screen.

A camera that cannot be opened, or stops delivering frames, is reported with
a :class:`~kiosk.app.messages.CameraStatus` (the app shows a banner) and
retried every ``retry_s`` seconds; when frames flow again an ``ok`` status
clears the banner. The pipeline object lives on across reconnects, and the game
lives in the event store, so nothing is lost.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from kiosk.app.messages import CalibrationView, CameraStatus, SeenEvent
from kiosk.games.referee import TableEvent

__all__ = ["CameraWorker", "Pipeline"]

log = logging.getLogger(__name__)

Pipeline = Callable[[Any], Iterable[TableEvent]]
"""One frame in, the table events it completes out (times on the monotonic clock). A pipeline
may also have ``pile_position(pile_id) -> (x_mm, y_mm) | None``, where its tracker found a
foundation pile; each ``foundation_play`` then goes on the queue with that point (for the slap
pads, :mod:`kiosk.app.slap_join`)."""


class CameraWorker:
    """Runs a frame source through the vision pipeline on its own thread."""

    def __init__(
        self,
        source: Any,
        pipeline: Pipeline,
        events: queue.SimpleQueue[Any],
        *,
        retry_s: float = 2.0,
        calibration: Callable[[Any], CalibrationView] | None = None,
        calibration_every: int = 15,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.source = source
        self.pipeline = pipeline
        self.events = events
        self.retry_s = retry_s
        self.calibration = calibration
        self.calibration_every = max(1, calibration_every)
        self.clock = clock
        self.frames = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lost = False

    def start(self) -> None:
        """Starts the thread (a daemon: it never keeps the kiosk from quitting)."""
        self._thread = threading.Thread(target=self.run, name="camera", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        """True while the thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 2.0) -> None:
        """Asks the thread to stop and waits for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _report(self, ok: bool, message: str) -> None:
        if ok == (not self._lost):
            return
        self._lost = not ok
        self.events.put(CameraStatus(ok, message, self.clock()))

    def run(self) -> None:
        """The thread's body: open, read, process; on loss, report and retry until stopped."""
        name = getattr(self.source, "name", "camera")
        while not self._stop.is_set():
            try:
                self.source.open()
            except OSError as exc:
                self._report(False, str(exc))
                self._stop.wait(self.retry_s)
                continue
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    if getattr(self.source, "finished", False):
                        # A source with an end (a simulated hand, a video file) is done, not lost.
                        self._finish()
                        self._stop.set()
                    elif not self._stop.is_set():
                        self._report(False, f"no picture from {name}")
                    break
                self._report(True, f"{name}: picture back")
                self._process(frame)
            self.source.close()
            if not self._stop.is_set():
                self._stop.wait(self.retry_s)

    def _process(self, frame: Any) -> None:
        self.frames += 1
        try:
            for event in self.pipeline(frame):
                self.events.put(SeenEvent(event, self._pile_position(event)))
        except Exception:  # one bad frame must not stop the camera; it is logged with its index
            log.exception("vision pipeline failed on frame %s", getattr(frame, "index", "?"))
        if self.calibration is not None and self.frames % self.calibration_every == 1:
            try:
                self.events.put(self.calibration(frame))
            except Exception:
                log.exception("calibration view failed on frame %s", getattr(frame, "index", "?"))

    def _finish(self) -> None:
        """The source has ended: the events the pipeline still holds back (``flush()``, when it
        has one: the tracker waits a while after a landing) go on the queue."""
        flush = getattr(self.pipeline, "flush", None)
        if flush is None:
            return
        try:
            for event in flush():
                self.events.put(SeenEvent(event, self._pile_position(event)))
        except Exception:
            log.exception("vision pipeline failed at the end of %s", getattr(self.source, "name", "camera"))

    def _pile_position(self, event: TableEvent) -> tuple[float, float] | None:
        """Where a foundation play's pile lies on the table (mm), when the pipeline can say."""
        locate = getattr(self.pipeline, "pile_position", None)
        if locate is None or event.type != "foundation_play":
            return None
        at = locate(event.data.get("pile"))
        return None if at is None else (float(at[0]), float(at[1]))


def marker_view(
    frame: Any, *, seats: Iterable[str] = (), max_width: int = 640, mat: Any = None, game: str | None = None
) -> CalibrationView:
    """What the calibrate screen shows for one frame: a small RGB copy of the picture, the
    mat's markers found on it, and, once the mat is located, its outline and each seat's
    zone (from the layout of ``game``, :func:`vision.layout.layout_for`; Nerts' when no game
    is chosen yet) drawn in picture pixels; ``mat`` is the printed mat
    (:class:`vision.calibration.TableMat`, the default one when None)."""
    from vision.calibration import CalibrationError, TableMat, calibrate, detect_markers

    image = frame.image
    h, w = image.shape[:2]
    step = max(1, -(-w // max_width))
    small = image[::step, ::step, ::-1].copy()  # BGR -> RGB, downscaled by striding
    mat = mat or TableMat()
    found = detect_markers(image)
    markers = {
        int(i): tuple((float(x) / step, float(y) / step) for x, y in corners) for i, corners in found.items()
    }
    zones: dict[str, tuple[tuple[float, float], ...]] = {}
    message = ""
    if found:
        try:
            cal = calibrate(image, mat)
        except CalibrationError as exc:
            message = str(exc)
        else:
            outline = [(0.0, 0.0), (mat.width_mm, 0.0), (mat.width_mm, mat.height_mm), (0.0, mat.height_mm)]
            zones["mat"] = tuple((x / step, y / step) for x, y in cal.to_image(outline))
            zones.update(_seat_zones(cal, list(seats), step, game))
    return CalibrationView(small, markers, tuple(mat.marker_ids), zones, message)


def _seat_zones(
    cal: Any, seats: list[str], step: int, game: str | None = None
) -> dict[str, tuple[tuple[float, float], ...]]:
    """Each seat's zone as the game's layout places it: a box around its slots, in picture pixels."""
    if not seats:
        return {}
    from vision.layout import CARD_H_MM, NertsLayout, layout_for

    try:
        layout = layout_for(game, seats) if game else NertsLayout(seats)
    except ValueError:  # a game without a table layout (or a seat count it has none for)
        layout = NertsLayout(seats)
    out: dict[str, tuple[tuple[float, float], ...]] = {}
    for seat in seats:
        xs: list[float] = []
        ys: list[float] = []
        for slot in layout.slots.values():
            if slot.seat != seat:
                continue
            for x, y in slot.pose.corners():
                xs.append(x)
                ys.append(y)
        if not xs:
            continue
        pad = CARD_H_MM / 4
        box = [
            (min(xs) - pad, min(ys) - pad),
            (max(xs) + pad, min(ys) - pad),
            (max(xs) + pad, max(ys) + pad),
            (min(xs) - pad, max(ys) + pad),
        ]
        out[seat] = tuple((x / step, y / step) for x, y in cal.to_image(box))
    return out
