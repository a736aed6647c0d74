"""The camera thread: events onto the queue, a lost camera reported and retried, calibration views."""

from __future__ import annotations

import queue
from typing import Any

import numpy as np
import pytest

from kiosk.app.camera import CameraWorker, marker_view
from kiosk.app.messages import CalibrationView, CameraStatus, SeenEvent
from kiosk.games.referee import TableEvent
from vision.events import Frame
from vision.sources import IterableSource, OpenCVSource, SourceError, open_source


class ScriptedCamera:
    """A camera that follows a script: "frame", "lost" (read gives None) or "fail" (open raises)."""

    name = "scripted"

    def __init__(self, script: list[str], worker_box: list[CameraWorker]) -> None:
        self.script = list(script)
        self.box = worker_box
        self.index = 0
        self.opened = 0

    def _next(self) -> str:
        if not self.script:
            self.box[0].stop(timeout=0)
            return "lost"
        return self.script.pop(0)

    def open(self) -> None:
        if self.script and self.script[0] == "fail":
            self.script.pop(0)
            raise SourceError("cannot open scripted camera")
        self.opened += 1

    def read(self) -> Frame | None:
        if self._next() != "frame":
            return None
        self.index += 1
        return Frame(None, self.index * 1_000, self.index)

    def close(self) -> None:
        pass


def run_script(script: list[str]) -> tuple[list[Any], ScriptedCamera]:
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    box: list[CameraWorker] = []
    cam = ScriptedCamera(script, box)

    def pipeline(frame: Frame) -> list[TableEvent]:
        return [
            TableEvent("foundation_play", frame.t_ns, 0, "Ana", {"card": "AS", "pile": f"F{frame.index}"})
        ]

    worker = CameraWorker(cam, pipeline, q, retry_s=0.0)
    box.append(worker)
    worker.run()  # on this thread: the script stops it
    out = []
    while not q.empty():
        out.append(q.get())
    return out, cam


def test_each_frame_s_events_go_on_the_queue_in_order() -> None:
    out, _ = run_script(["frame", "frame", "frame"])
    seen = [m.event.data["pile"] for m in out if isinstance(m, SeenEvent)]
    assert seen == ["F1", "F2", "F3"]


def test_a_lost_camera_is_reported_once_retried_and_reported_back() -> None:
    out, cam = run_script(["frame", "lost", "fail", "fail", "frame", "frame"])
    statuses = [(m.ok, m.message) for m in out if isinstance(m, CameraStatus)]
    assert statuses == [(False, "no picture from scripted"), (True, "scripted: picture back")]
    assert cam.opened == 2  # reopened after the loss, past two failed attempts
    assert [m.event.data["pile"] for m in out if isinstance(m, SeenEvent)] == ["F1", "F2", "F3"]


def test_a_failing_pipeline_frame_does_not_stop_the_camera() -> None:
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    frames = [Frame(None, t, t) for t in range(3)]
    box: list[CameraWorker] = []

    def pipeline(frame: Frame) -> list[TableEvent]:
        if frame.index == 1:
            raise ValueError("bad frame")
        if frame.index == 2:
            box[0].stop(timeout=0)
        return [TableEvent("note", frame.t_ns, data={"text": str(frame.index)})]

    worker = CameraWorker(IterableSource(frames), pipeline, q, retry_s=0.0)
    box.append(worker)
    worker.run()
    texts = []
    while not q.empty():
        item = q.get()
        if isinstance(item, SeenEvent):
            texts.append(item.event.data["text"])
    assert texts == ["0", "2"]


def test_the_worker_runs_on_its_own_thread_and_stops() -> None:
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    frames = (Frame(None, t, t) for t in range(1_000_000))
    worker = CameraWorker(IterableSource(frames), lambda f: [], q, retry_s=0.0)
    worker.start()
    worker.stop(timeout=5)
    assert worker._thread is not None and not worker._thread.is_alive()


def test_marker_view_finds_the_markers_on_a_picture_of_the_mat() -> None:
    from vision.calibration import marker_image

    image = np.full((720, 1280, 3), 230, np.uint8)
    for marker, (y, x) in {0: (30, 30), 1: (30, 1180)}.items():
        m = marker_image(marker, 70)
        image[y : y + 70, x : x + 70] = m[..., None] if m.ndim == 2 else m
    view = marker_view(Frame(image, 0), seats=["Ana", "Ben"])
    assert isinstance(view, CalibrationView)
    assert sorted(view.markers) == [0, 1] and view.missing == (2, 3)
    assert view.image.shape == (360, 640, 3)
    assert "mat" in view.zones and "Ana" in view.zones
    # The zones are the chosen game's: a Gnoming grid is not a Nerts seat's spread of piles.
    gnoming = marker_view(Frame(image, 0), seats=["Ana", "Ben"], game="gnoming")
    assert gnoming.zones["mat"] == view.zones["mat"] and gnoming.zones["Ana"] != view.zones["Ana"]
    # A game with no layout for these seats falls back to Nerts' zones rather than failing.
    assert marker_view(Frame(image, 0), seats=["Ana", "Ben"], game="no-such-game").zones == view.zones


def test_open_source_names_cameras_and_rejects_bad_ones(tmp_path: Any) -> None:
    assert open_source("usb:0").name == "usb:0"
    assert open_source("picamera2").name == "picamera2"
    with pytest.raises(SourceError, match="camera number"):
        open_source("usb:x")
    with pytest.raises(SourceError, match="no such video file"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(SourceError, match="does not exist"):
        OpenCVSource(str(tmp_path / "missing.mp4")).open()


def test_a_video_file_plays_at_its_own_pace(tmp_path: Any) -> None:
    import cv2

    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(3):
        writer.write(np.full((48, 64, 3), i * 50, np.uint8))
    writer.release()
    now = [1_000_000_000]
    slept: list[float] = []
    src = OpenCVSource(str(path), clock=lambda: now[0], sleep=slept.append)
    src.open()
    frames = [src.read() for _ in range(3)]
    assert src.read() is None
    src.close()
    times = [f.t_ns - now[0] for f in frames if f is not None]
    assert len(times) == 3 and times[1] - times[0] == pytest.approx(100_000_000, abs=2_000_000)
    assert slept and slept[-1] == pytest.approx(0.2, abs=0.01)
