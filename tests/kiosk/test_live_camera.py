"""A real camera's recognition: a video file as the camera, through the live pipeline and through
``kiosk run``, gives the table events ``kiosk track`` gives on that video; a missing model is a
banner, not a crash.

The clip: the simulator's Nerts table (seed 2), 4.6 s at 20 fps, 1280x720, written as an MP4 the
way ``kiosk simulate`` does; Cal plays AS and Ana 2H and 3H to the foundations in it (the shipped
model reads Cal's AS in it; the previous one read all three). A camera knows no
frames.jsonl, so the clip's folder holds only the video and its table.json, and ``kiosk track``
times the frames by the container's rate, as OpenCV does for a video camera.
"""

from __future__ import annotations

import os
import queue
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from kiosk.__main__ import main  # noqa: E402
from kiosk.games.referee import LogHeader, TableEvent  # noqa: E402
from kiosk.session import Session  # noqa: E402
from kiosk.store import EventStore  # noqa: E402
from kiosk.tablelog import read_table_log, write_table_log  # noqa: E402

SEATS = ("Ana", "Ben", "Cal", "Dee")


def comparable(events: list[TableEvent]) -> list[tuple[Any, ...]]:
    return [(e.type, e.t_ns, e.err_ns, e.seat, sorted(e.data.items())) for e in events]


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clip's video, in a folder with its table.json and nothing else."""
    pytest.importorskip("onnxruntime")
    from vision.errors import ModelError
    from vision.recognizer import Recognizer

    try:
        Recognizer.load()
    except ModelError:
        pytest.skip("no recognizer model installed")
    sim = tmp_path_factory.mktemp("sim")
    argv = ["simulate", "nerts", "--seed", "2", "--out", str(sim), "--seconds", "4.6", "--fps", "20"]
    assert main([*argv, "--format", "mp4"]) == 0
    camera = tmp_path_factory.mktemp("camera")
    shutil.copy(sim / "table.mp4", camera / "table.mp4")
    shutil.copy(sim / "table.json", camera / "table.json")
    return camera / "table.mp4"


@pytest.fixture(scope="module")
def tracked(clip: Path, tmp_path_factory: pytest.TempPathFactory) -> list[TableEvent]:
    """What ``kiosk track`` makes of the clip: its table events, less the hand's start and end."""
    out = tmp_path_factory.mktemp("track") / "log.jsonl"
    assert main(["track", str(clip), "--out", str(out)]) == 0
    header, events = read_table_log(out)
    assert header.seats == SEATS
    return [e for e in events if e.type not in ("hand_start", "hand_end")]


@pytest.mark.slow
def test_the_video_camera_through_the_live_pipeline_gives_what_kiosk_track_gives(
    clip: Path, tracked: list[TableEvent], tmp_path: Path
) -> None:
    from vision.layout import NertsLayout
    from vision.pipeline import build_pipeline
    from vision.sources import OpenCVSource

    pipeline = build_pipeline("nerts", list(SEATS))
    # The video camera's own frame times from a clock at zero, without waiting for real time.
    camera = OpenCVSource(str(clip), clock=lambda: 0, sleep=lambda s: None)
    camera.open()
    live: list[TableEvent] = []
    while (frame := camera.read()) is not None:
        live.extend(pipeline(frame))
    camera.close()
    released_live = len(live)
    live.extend(pipeline.flush())

    plays = [e for e in tracked if e.type == "foundation_play"]
    assert ("Cal", "AS") in {(e.seat, e.get("card")) for e in plays}
    assert released_live >= 1  # the plays come out while frames still arrive, not only at the end
    out = tmp_path / "live.jsonl"
    with out.open("w", encoding="utf-8") as f:
        write_table_log(f, LogHeader("nerts", SEATS, {}), live)
    assert comparable(read_table_log(out)[1]) == comparable(tracked)
    # The slap pads' join finds each play's pile where the tracker saw it: in the mat's centre.
    layout = NertsLayout(list(SEATS))
    for e in plays:
        at = pipeline.pile_position(e.get("pile"))
        assert at is not None and layout.seat_of_point(*at) is None
    assert pipeline.pile_position("F99") is None


@pytest.mark.slow
def test_kiosk_run_with_the_video_as_camera_logs_the_plays(
    clip: Path, tracked: list[TableEvent], tmp_path: Path
) -> None:
    store = tmp_path / "events.sqlite3"
    # A Nerts game seated earlier and not finished: kiosk run resumes it, and the camera follows it.
    Session.start(store, LogHeader("nerts", SEATS, {})).close()
    rulings = tmp_path / "rulings.txt"
    # Headless, the run ends with the video (--duration only bounds a failure).
    argv = ["run", "--headless", "--camera", str(clip), "--store", str(store), "--duration", "60"]
    started = time.monotonic()
    assert main([*argv, "--text-log", str(rulings), "--screenshot-dir", str(tmp_path / "shots")]) == 0
    assert time.monotonic() - started < 45
    text = rulings.read_text(encoding="utf-8")
    assert "resumed: nerts" in text and "Card recognition" not in text
    # The video plays once: at its end the camera is done (not lost), and nothing held back is lost.
    assert "CAMERA LOST" not in text
    stored = EventStore.open_last_unfinished(store)
    assert stored is not None
    logged = [(e.seat, e.get("card"), e.get("pile")) for e in stored.events() if e.type == "foundation_play"]
    stored.close()
    expected = [(e.seat, e.get("card"), e.get("pile")) for e in tracked if e.type == "foundation_play"]
    assert expected and logged == expected


def grey_video(path: Path, frames: int) -> Path:
    """A short Motion-JPEG video of plain grey frames (no mat in view)."""
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 20.0, (320, 180))
    for k in range(frames):
        writer.write(np.full((180, 320, 3), 40 + k, np.uint8))
    writer.release()
    return path


class HeldBack:
    """A pipeline that holds its one event back until the end of the frames (as a tracker does)."""

    def __init__(self) -> None:
        self.frames = 0

    def __call__(self, frame: Any) -> list[TableEvent]:
        self.frames += 1
        return []

    def flush(self) -> list[TableEvent]:
        return [TableEvent("foundation_play", 5, 1, "Ana", {"card": "AS", "pile": "F1"})]


def test_a_video_file_camera_that_ends_is_done_and_its_pipeline_flushed(tmp_path: Path) -> None:
    from kiosk.app.camera import CameraWorker
    from kiosk.app.messages import CameraStatus, SeenEvent
    from vision.sources import OpenCVSource

    source = OpenCVSource(str(grey_video(tmp_path / "table.avi", 6)), sleep=lambda s: None)
    events: queue.SimpleQueue[Any] = queue.SimpleQueue()
    pipeline = HeldBack()
    worker = CameraWorker(source, pipeline, events, retry_s=0.01)
    worker.run()  # returns by itself: the video has an end
    items = []
    while not events.empty():
        items.append(events.get())
    assert source.finished and pipeline.frames == 6
    assert [i.event.get("card") for i in items if isinstance(i, SeenEvent)] == ["AS"]
    assert not any(isinstance(i, CameraStatus) and not i.ok for i in items)


def test_kiosk_run_without_a_model_says_so_on_a_banner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    video = grey_video(tmp_path / "table.avi", 20)
    monkeypatch.setenv("KIOSK_MODEL_DIR", str(tmp_path / "no-model"))
    store = tmp_path / "events.sqlite3"
    Session.start(store, LogHeader("nerts", SEATS, {})).close()
    rulings = tmp_path / "rulings.txt"
    argv = ["run", "--headless", "--camera", str(video), "--store", str(store), "--duration", "1.5"]
    assert main([*argv, "--text-log", str(rulings), "--screenshot-dir", str(tmp_path / "shots")]) == 0
    text = rulings.read_text(encoding="utf-8")
    assert "banner: Card recognition is off:" in text
    assert "manifest.json is missing; restore it" in text and "The camera serves calibration only." in text


def test_the_camera_follows_the_sessions_game_and_hears_its_buttons_on_the_frames_clock(
    tmp_path: Path,
) -> None:
    pytest.importorskip("onnxruntime")
    from kiosk.app.live_camera import SessionPipeline
    from tests.kiosk.app_support import FakeClock, make_app
    from tests.vision.test_pipeline import table_pictures
    from tests.vision.tiny_models import write_model_dir
    from vision.events import Frame
    from vision.recognizer import Recognizer
    from vision.trick_tracker import TrickTracker

    picture = table_pictures(1)[0]
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    camera = SessionPipeline(app, Recognizer.load(write_model_dir(tmp_path / "model")))
    assert camera(Frame(picture, clock.t, 0)) == [] and camera.pipeline is None  # no game chosen yet
    app.start_session(LogHeader("kierki", ("N", "E", "S", "W"), {}))
    clock.advance(5 * 10**9)
    app.record("deal", clock.t, seat="N", data={"deal": 1})  # logged at 5 s on the session's clock
    assert app.banner is None
    camera(Frame(picture, clock.t - 10**9, 1))
    assert camera.pipeline is not None and camera.pipeline.game == "kierki"
    tracker = camera.pipeline.tracking.tracker
    assert isinstance(tracker, TrickTracker) and tracker.deal_number == 0  # the frame is older
    camera(Frame(picture, clock.t, 2))
    assert tracker.deal_number == 1 and not tracker.fan_tan
    # A new game: a fresh pipeline, for its own game and seats.
    app.start_session(LogHeader("nerts", SEATS, {}))
    camera(Frame(picture, clock.t + 10**8, 3))
    assert camera.pipeline.game == "nerts" and camera.pipeline.seats == SEATS
    assert camera.pile_position("F1") is None and camera.flush() == []


@pytest.mark.slow
def test_ctrl_c_during_tracking_keeps_what_was_tracked(clip: Path, tracked: list[TableEvent]) -> None:
    from vision.recognizer import Recognizer
    from vision.video_tracking import open_video, track_frames

    info, frames = open_video(clip)

    def until_ctrl_c(n: int) -> Any:
        # The user presses Ctrl-C while frame n is read: Python raises KeyboardInterrupt there.
        for k, frame in enumerate(frames):
            if k == n:
                raise KeyboardInterrupt
            yield frame

    result = track_frames(until_ctrl_c(70), Recognizer.load_for_video(), game="nerts", seats=SEATS)
    assert result.interrupted and result.frames == 70
    # Cal's AS landed in the first 70 frames (3.5 s): it is kept, with the events held back then.
    plays = [(e.seat, e.get("card")) for e in result.events if e.type == "foundation_play"]
    assert ("Cal", "AS") in plays
    assert result.events[0].type == "hand_start" and all(e.type != "hand_end" for e in result.events)
    # The whole run's plays hold them, in the same order. It may hold more before them: a card that
    # lands after the interruption can show that a play before it went unseen (Ben's AH, proved by
    # Ana's 3H landing on its pile), which the interrupted run never learnt.
    whole = [(e.seat, e.get("card")) for e in tracked if e.type == "foundation_play"]
    assert [p for p in whole if p in plays] == plays
