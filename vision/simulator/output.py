"""Writing a simulated hand to disk, and streaming it live as a camera.

A simulation folder holds:

- ``table.mp4`` (MPEG-4, or ``table.avi`` Motion-JPEG, or ``frames/NNNNNN.png|jpg``): the video;
- ``frames.jsonl``: one line per frame with its sensor timestamp, rolling-shutter row time and
  exposure (``{"index": 0, "t_ns": ..., "row_time_ns": ..., "exposure_ns": ...}``), what a
  picamera2 or V4L2 recording keeps beside its video, since a video file's own frame times are
  rounded to its nominal rate;
- ``table.json``: the game, the seats in table order, its house options, the camera mode and the mat;
- ``truth.jsonl``: the ground-truth table log (what really happened, exact times).

``kiosk track`` reads the video with ``frames.jsonl`` and ``table.json`` beside it.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2

from kiosk.tablelog import write_table_log
from vision.cardart import CardDesign
from vision.events import Frame
from vision.layout import TableLayout
from vision.simulator.camera import CameraModel
from vision.simulator.render import TableRenderer
from vision.simulator.scene import TableScene

__all__ = [
    "VIDEO_FORMATS",
    "SimulationFiles",
    "Filmed",
    "write_simulation",
    "live_frames",
    "read_frame_times",
    "camera_to_json",
    "FRAMES_FILE",
    "TABLE_FILE",
    "TRUTH_FILE",
]

VIDEO_FORMATS = ("mp4", "avi", "png", "jpg")
FRAMES_FILE = "frames.jsonl"
TABLE_FILE = "table.json"
TRUTH_FILE = "truth.jsonl"


class Filmed(Protocol):
    """What :func:`write_simulation` films: a :class:`TableScene`, or a hand with its audit
    (:class:`vision.simulator.audit.FilmedHand`)."""

    layout: TableLayout
    designs: Mapping[str, CardDesign]

    @property
    def end_ns(self) -> int: ...

    def frames(
        self,
        renderer: TableRenderer,
        *,
        start_ns: int = 0,
        end_ns: int | None = None,
        rng: random.Random | None = None,
    ) -> Iterator[Frame]: ...


@dataclass(frozen=True, slots=True)
class SimulationFiles:
    folder: Path
    video: Path
    frames: Path
    table: Path
    truth: Path
    count: int
    interrupted: bool = False
    """Ctrl-C stopped the rendering early: ``count`` frames, each with its time, and the table
    and ground truth are written all the same."""


def camera_to_json(camera: CameraModel) -> dict[str, Any]:
    return {
        "width": camera.width,
        "height": camera.height,
        "fps": camera.fps,
        "shutter": camera.shutter,
        "readout_ms": camera.readout_ms,
        "exposure_ms": camera.exposure_ms,
        "row_time_ns": camera.row_time_ns,
        "table_to_image": camera.table_to_image.tolist(),
    }


class _Sink:
    def __init__(self, folder: Path, fmt: str, camera: CameraModel) -> None:
        self.fmt = fmt
        self.writer: Any = None
        if fmt in ("mp4", "avi"):
            self.path = folder / f"table.{fmt}"
            fourcc = cv2.VideoWriter.fourcc(*("mp4v" if fmt == "mp4" else "MJPG"))
            self.writer = cv2.VideoWriter(str(self.path), fourcc, camera.fps, (camera.width, camera.height))
            if not self.writer.isOpened():
                raise OSError(f"OpenCV cannot write {fmt} video to {self.path}; try --format png")
            if fmt == "avi":
                self.writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
        else:
            self.path = folder / "frames"
            self.path.mkdir(exist_ok=True)

    def write(self, n: int, frame: Frame) -> None:
        if self.writer is not None:
            self.writer.write(frame.image)
        elif self.fmt == "png":
            cv2.imwrite(str(self.path / f"{n:06d}.png"), frame.image)
        else:
            cv2.imwrite(str(self.path / f"{n:06d}.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])

    def close(self) -> None:
        if self.writer is not None:
            self.writer.release()


def write_simulation(
    folder: Path,
    scene: Filmed,
    renderer: TableRenderer,
    *,
    game: str,
    truth: tuple[Any, Any],
    fmt: str = "mp4",
    seconds: float | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationFiles:
    """Renders the scene into ``folder`` (created if needed) with its timestamps, table and truth."""
    if fmt not in VIDEO_FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(VIDEO_FORMATS)}")
    folder.mkdir(parents=True, exist_ok=True)
    cam = renderer.camera
    end = scene.end_ns if seconds is None else int(seconds * 1e9)
    total = int(end * cam.fps / 1e9) + 1
    sink = _Sink(folder, fmt, cam)
    frames_path = folder / FRAMES_FILE
    n = 0
    try:
        with _stop_at_frame_end() as stop, frames_path.open("w", encoding="utf-8") as ft:
            for frame in scene.frames(renderer, end_ns=end, rng=random.Random(seed)):
                sink.write(n, frame)
                ft.write(
                    json.dumps(
                        {
                            "index": frame.index,
                            "t_ns": frame.t_ns,
                            "row_time_ns": frame.row_time_ns,
                            "exposure_ns": frame.exposure_ns,
                        }
                    )
                    + "\n"
                )
                n += 1
                if progress is not None and n % 60 == 0:
                    progress(n, total)
                if stop:
                    break
    finally:
        sink.close()
    header, events = truth
    table = {
        "game": game,
        "seats": list(scene.layout.seats),
        "options": dict(header.options),
        "camera": camera_to_json(cam),
        "mat": {
            "width_mm": renderer.mat.width_mm,
            "height_mm": renderer.mat.height_mm,
            "marker_mm": renderer.mat.marker_mm,
            "inset_mm": renderer.mat.inset_mm,
        },
        "designs": {s: d.name for s, d in scene.designs.items()},
        "seed": seed,
    }
    (folder / TABLE_FILE).write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    truth_path = folder / TRUTH_FILE
    with truth_path.open("w", encoding="utf-8") as f:
        write_table_log(f, header, events)
    return SimulationFiles(folder, sink.path, frames_path, folder / TABLE_FILE, truth_path, n, bool(stop))


@contextmanager
def _stop_at_frame_end() -> Iterator[list[bool]]:
    """Ctrl-C while frames are written is held until the frame in hand is in both the video and
    ``frames.jsonl``: the yielded list becomes non-empty and the caller stops there, so what is on
    disk stays consistent (a KeyboardInterrupt could land between the two writes)."""
    stop: list[bool] = []
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(
        signal.SIGINT
    ) is not signal.default_int_handler:
        yield stop
        return

    def hold(signum: int, frame: Any) -> None:
        stop.append(True)

    signal.signal(signal.SIGINT, hold)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def read_frame_times(path: Path) -> list[tuple[int, int, int]]:
    """Reads ``frames.jsonl``: (t_ns, row_time_ns, exposure_ns) per frame, in order.

    Raises ValueError naming the line of a malformed entry.
    """
    out = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                out.append((int(d["t_ns"]), int(d.get("row_time_ns", 0)), int(d.get("exposure_ns", 0))))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}: line {n}: not a frame time entry ({exc})") from None
    return out


def live_frames(
    scene: TableScene,
    renderer: TableRenderer,
    *,
    realtime: bool = True,
    clock: Callable[[], int] = time.monotonic_ns,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> Iterator[Frame]:
    """The scene as a live camera: frames stamped on the host's monotonic clock from now on.

    With ``realtime`` each frame is held back until its time comes, as a camera delivers it,
    and a frame whose time has already passed by more than a period is skipped unrendered, as a
    camera's full queue drops it (the index then skips).
    """
    start = clock()
    scene.reset()
    cam = renderer.camera
    for timing in cam.timings(rng=rng or random.Random(1)):
        if timing.t_ns > scene.end_ns:
            return
        t = start + timing.t_ns
        if realtime:
            now = clock()
            if now - t > cam.frame_period_ns:
                scene.advance(cam, timing)
                continue
            if t > now:
                sleep((t - now) / 1e9)
        frame = scene.render(renderer, timing)
        yield Frame(frame.image, t, frame.index, frame.row_time_ns, frame.exposure_ns)
