"""From a recorded video to a table log: frames, calibration, recognizer and tracker in one pass.

Glossary:

- **frame times**: a video container keeps frame times rounded to its nominal rate, so a
  recording's real sensor timestamps (and the rolling shutter's row time) travel in a
  ``frames.jsonl`` file beside it (:mod:`vision.simulator.output`). Without one, frame ``k``
  is taken at ``k / fps`` from the container's rate and rows are treated as exposed together
  unless a readout time is given.
- **table file**: ``table.json`` beside the video names the game, the seats in table order
  and the mat; without one, the caller names them.

The table log written starts the hand at the first frame and ends it at the last, so
``kiosk replay`` scores it; "Nerts!" calls and stuck declarations come from buttons, not the
camera, and are not in it.

- **buttons**: what the kiosk knows without the camera (a deal and its number, trumps, passes,
  the caller's words, face-down draws, declines; :func:`is_button`). Given a log of them (the
  simulator's ``truth.jsonl`` holds them), the trackers are told each as its time comes and the
  log written holds them too, so ``kiosk replay`` referees it whole. Without them a Nerts video
  still makes a complete log; the other games' logs then hold only what the camera saw.
"""

from __future__ import annotations

import bisect
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from kiosk.games.referee import LogHeader, TableEvent
from vision.audit import AuditWatcher
from vision.calibration import Calibration, CalibrationError, TableMat, calibrate
from vision.events import CardSighting, Frame
from vision.game_faces import game_faces
from vision.gnoming_tracker import GnomingTracker
from vision.layout import GnomingLayout, NertsLayout, RummyLayout, TrickLayout
from vision.nerts_tracker import NertsTracker
from vision.recognizer import VIDEO_CLOSER_EVERY, Recognizer
from vision.rummy_tracker import RummyTracker
from vision.trick_tracker import TrickTracker, kierki_fan_tan_deals

__all__ = [
    "VideoError",
    "VideoInfo",
    "open_video",
    "find_calibration",
    "track_frames",
    "TrackResult",
    "Recognize",
    "read_table_file",
    "is_button",
    "TRACKED_GAMES",
    "Tracker",
    "tracked_game",
    "new_tracker",
    "FrameTracking",
]

TRACKED_GAMES = ("nerts", "smear", "kierki", "rummy_3_13", "gnoming")
_BUTTONS: dict[str, tuple[str, ...]] = {
    "nerts": ("stuck", "call"),
    "smear": ("deal", "misdeal", "bid", "pass", "trump", "discard", "blind"),
    "kierki": ("deal", "misdeal", "trump", "pass"),
    "rummy_3_13": ("hand_start", "call", "hold", "caller_draw"),
    "gnoming": ("round_start", "decline"),
}


def is_button(game: str, event: TableEvent) -> bool:
    """Whether the kiosk has ``event`` from its buttons (or screen), not from the camera.

    A face-down card drawn (3-13's pool, Gnoming's draw pile) is a button too: the camera sees a
    hand reach, but no face to read.

    >>> is_button("kierki", TableEvent("trump", 0, 0, "N", {"suit": "H"}))
    True
    >>> is_button("rummy_3_13", TableEvent("draw", 0, 0, "N", {"from": "E", "card": "5H"}))
    False
    """
    if event.type == "draw":
        return (game, event.get("from")) in (("rummy_3_13", "pool"), ("gnoming", "deck"))
    return event.type in _BUTTONS.get(game, ())


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class VideoError(ValueError):
    """A video that cannot be read, or that shows no usable table; the message says what to do."""


class Recognize(Protocol):
    def recognize(self, image_bgr: NDArray[np.uint8]) -> list[CardSighting]: ...


@dataclass
class VideoInfo:
    path: Path
    frames: int
    fps: float
    times: list[tuple[int, int, int]] | None = None
    table: dict[str, Any] = field(default_factory=dict)


def read_table_file(path: Path) -> dict[str, Any]:
    """Reads ``table.json``; VideoError naming the file if it is not valid."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise VideoError(f"{path}: not a readable table file ({exc})") from None
    if not isinstance(data, dict):
        raise VideoError(f"{path}: a table file must be a JSON object")
    return data


def open_video(
    path: Path,
    *,
    times_file: Path | None = None,
    fps: float | None = None,
    readout_ms: float = 0.0,
    exposure_ms: float = 0.0,
) -> tuple[VideoInfo, Iterator[Frame]]:
    """Opens a video file or a folder of images; returns its description and its frames.

    Raises VideoError (missing, unreadable, empty, or its frame-times file does not match).
    """
    from vision.simulator.output import FRAMES_FILE, TABLE_FILE, read_frame_times

    if not path.exists():
        raise VideoError(f"{path}: no such file or folder; check the path")
    folder = path if path.is_dir() else path.parent
    images: list[Path] = []
    if path.is_dir():
        sub = path / "frames" if (path / "frames").is_dir() else path
        images = sorted(p for p in sub.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not images:
            videos = sorted(p for p in path.iterdir() if p.suffix.lower() in (".mp4", ".avi", ".mkv", ".mov"))
            if videos:
                return open_video(
                    videos[0], times_file=times_file, fps=fps, readout_ms=readout_ms, exposure_ms=exposure_ms
                )
            raise VideoError(f"{path}: the folder holds no video and no .png/.jpg frames")
        count = len(images)
        rate = fps or 30.0
    else:
        cap = cv2.VideoCapture(str(path))
        if not cap.isOpened():
            raise VideoError(
                f"{path}: cannot be read as a video (OpenCV could not open it); "
                "use an .mp4/.avi file or a folder of .png/.jpg frames"
            )
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        rate = fps or float(cap.get(cv2.CAP_PROP_FPS)) or 30.0
        cap.release()
    table: dict[str, Any] = {}
    if (folder / TABLE_FILE).is_file():
        table = read_table_file(folder / TABLE_FILE)
    tf = times_file or (folder / FRAMES_FILE if (folder / FRAMES_FILE).is_file() else None)
    times = None
    if tf is not None:
        try:
            times = read_frame_times(tf)
        except UnicodeDecodeError:
            raise VideoError(f"{tf}: not a text file (frame times, a JSON object a line, expected)") from None
        except OSError as exc:
            raise VideoError(f"{tf}: cannot read the frame times ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise VideoError(str(exc)) from None
    info = VideoInfo(path, count, rate, times, table)
    row_ns = int(round(readout_ms * 1e6 / 720)) if readout_ms else 0
    exp_ns = int(round(exposure_ms * 1e6))

    def stamp(k: int, image: NDArray[np.uint8]) -> Frame:
        if times is not None:
            if k >= len(times):
                raise VideoError(f"{tf}: lists {len(times)} frame times but the video has more frames")
            t, row, exp = times[k]
            return Frame(image, t, k, row, exp)
        row = int(round(readout_ms * 1e6 / image.shape[0])) if readout_ms else row_ns
        return Frame(image, int(round(k * 1e9 / rate)), k, row, exp_ns)

    def frames() -> Iterator[Frame]:
        if images:
            for k, p in enumerate(images):
                img = cv2.imread(str(p), cv2.IMREAD_COLOR)
                if img is None:
                    raise VideoError(f"{p}: cannot be read as an image")
                yield stamp(k, np.asarray(img, dtype=np.uint8))
            return
        cap = cv2.VideoCapture(str(path))
        k = 0
        try:
            while True:
                ok, img = cap.read()
                if not ok:
                    break
                yield stamp(k, np.asarray(img, dtype=np.uint8))
                k += 1
        finally:
            cap.release()
        if k == 0:
            raise VideoError(f"{path}: no frame could be decoded; the file may be damaged")

    return info, frames()


def find_calibration(frames: Sequence[Frame], mat: TableMat) -> Calibration:
    """The calibration from the first of ``frames`` that shows the mat's markers (all four preferred)."""
    best: Calibration | None = None
    for f in frames:
        try:
            cal = calibrate(f.image, mat)
        except CalibrationError:
            continue
        if len(cal.markers) == 4:
            return cal
        if best is None or len(cal.markers) > len(best.markers):
            best = cal
    if best is None:
        raise VideoError(
            f"no calibration markers seen in the first {len(frames)} frames (ArUco 4x4 ids 0-3 at "
            "the mat's corners); film the whole mat, or print one with its markers"
        )
    return best


def _absolute(event: TableEvent, t0_ns: int) -> TableEvent:
    """A button event on the trackers' clock (the log counts from ``t0_ns``)."""
    return TableEvent(event.type, event.t_ns + t0_ns, event.err_ns, event.seat, event.data)


Tracker = NertsTracker | TrickTracker | RummyTracker | GnomingTracker
"""The table tracker of one game."""


def tracked_game(game: str, seats: Sequence[str]) -> str:
    """The name of ``game``'s tracker (``nertz`` is Nerts); VideoError when the game has none, or
    its seats do not fit.

    >>> tracked_game("nertz", ["Ana", "Ben"])
    'nerts'
    """
    game = "nerts" if game == "nertz" else game
    if game not in TRACKED_GAMES:
        raise VideoError(f"no table tracker for {game!r} (tracked: {', '.join(TRACKED_GAMES)})")
    if game in ("smear", "kierki") and len(seats) != 4:
        raise VideoError(f"{game} is played by four seats, got {len(seats)}")
    return game


def new_tracker(
    game: str,
    seats: Sequence[str],
    calibration: Calibration,
    *,
    t0_ns: int = 0,
    options: Mapping[str, Any] | None = None,
    piles: Mapping[str, str] | None = None,
) -> Tracker:
    """A fresh tracker for ``game`` (a name :func:`tracked_game` gave) on the calibrated mat.

    ``options`` are the game's house options where the tracker depends on them: Nerts' jokers
    (a joker is a card of the game), Kierki's deals (which are Fan Tan). ``piles`` are a resumed
    Nerts game's foundation piles (id -> top card), so new plays keep the logged ids.
    """
    opts = dict(options or {})
    if game == "smear":
        return TrickTracker(TrickLayout(list(seats)), calibration, t0_ns=t0_ns)
    if game == "kierki":
        fan_tan = kierki_fan_tan_deals(opts)
        return TrickTracker(TrickLayout(list(seats)), calibration, t0_ns=t0_ns, fan_tan_deals=fan_tan)
    if game == "rummy_3_13":
        return RummyTracker(RummyLayout(list(seats)), calibration, t0_ns=t0_ns)
    if game == "gnoming":
        return GnomingTracker(GnomingLayout(list(seats)), calibration, t0_ns=t0_ns)
    jokers = int(opts.get("jokers", 0) or 0) > 0
    return NertsTracker(NertsLayout(list(seats)), calibration, t0_ns=t0_ns, jokers=jokers, piles=piles)


class FrameTracking:
    """One table followed frame by frame: recognizer, then tracker, with the kiosk's buttons told to
    the tracker as their time comes. ``kiosk track`` runs it over a video
    (:func:`track_frames`); the kiosk's live pipeline (:mod:`vision.pipeline`) over camera frames.

    Button times are on the log's scale (``t0_ns`` earlier than the frames' clock).
    """

    def __init__(
        self,
        game: str,
        tracker: Tracker,
        recognizer: Recognize,
        *,
        t0_ns: int = 0,
        buttons: Sequence[TableEvent] = (),
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.tracker = tracker
        if isinstance(recognizer, Recognizer):
            # Only the faces of this game's deck (under its house options) can be on the table.
            recognizer = recognizer.only(game_faces(game, options))
            recognizer.closer_every = VIDEO_CLOSER_EVERY
        self.recognizer = recognizer
        self.t0_ns = t0_ns
        self.pressed: list[TableEvent] = sorted((e for e in buttons if is_button(game, e)), key=_time)
        """The buttons pressed, in time order; the first ``told`` have reached the tracker."""
        self.told = 0
        self.frames = 0
        self.last_t_ns = 0
        self.seconds_recognize = 0.0
        self.seconds_track = 0.0
        self.audit: AuditWatcher | None = None
        """Nerts: the watcher of the end-of-hand audit (rules §12), from the call on; None before, and
        always with ``attribution_source = tracking_only`` (no audit is held)."""
        self._audited = isinstance(tracker, NertsTracker) and (options or {}).get(
            "attribution_source", "audit_if_available"
        ) != "tracking_only"
        self._playing = True
        """The tracker follows the play, except from the table cleared for the audit until it is counted."""

    def press(self, event: TableEvent) -> None:
        """Adds a button pressed since (ignored unless it is one of the game's buttons)."""
        if is_button(self.game, event):
            bisect.insort(self.pressed, event, lo=self.told, key=_time)

    def _tell(self, until_ns: int | None) -> None:
        while self.told < len(self.pressed):
            if until_ns is not None and self.pressed[self.told].t_ns > until_ns:
                return
            if not isinstance(self.tracker, NertsTracker):
                self.tracker.button(_absolute(self.pressed[self.told], self.t0_ns))
            elif self.pressed[self.told].type == "call" and self._audited and (
                self.audit is None or self.audit.phase == "done"
            ):
                # After "Nerts!" the players clear the table and spread their cards for the audit.
                t = self.tracker.table
                self.audit = AuditWatcher(t.layout, t.calibration, t0_ns=self.t0_ns)
            self.told += 1

    def step(self, frame: Frame) -> list[TableEvent]:
        """One frame in; the events that became final out (times on the log's scale)."""
        # The kiosk's buttons reach the tracker as their time comes (it learns a deal's kind, a call).
        self._tell(frame.t_ns - self.t0_ns)
        a = time.perf_counter()
        sightings = self.recognizer.recognize(frame.image)
        b = time.perf_counter()
        counted = self.audit.feed(frame, sightings) if self.audit is not None else []
        if self.audit is not None and self.audit.phase not in ("empty", "done"):
            # The table was cleared: the hand's play is over, and the backs spread now are not moves.
            events = self.tracker.flush() + counted if self._playing else counted
            self._playing = False
        else:
            # Play (the audit counted, or not begun): the next hand is followed as before.
            self._playing = True
            events = self.tracker.feed(frame, sightings) + counted
        self.seconds_track += time.perf_counter() - b
        self.seconds_recognize += b - a
        self.last_t_ns = frame.t_ns
        self.frames += 1
        return events

    def finish(self) -> list[TableEvent]:
        """The end of the frames: the remaining buttons told, every event held back released."""
        self._tell(None)
        events = self.tracker.flush() if self._playing else []
        self._playing = False
        return events + (self.audit.finish() if self.audit is not None else [])


def _time(event: TableEvent) -> int:
    return event.t_ns


@dataclass
class TrackResult:
    header: LogHeader
    events: list[TableEvent]
    frames: int
    seconds_recognize: float
    seconds_track: float
    calibration: Calibration
    tracker: Tracker
    interrupted: bool = False
    """Stopped by Ctrl-C: the log holds what was tracked until then, and no ``hand_end``."""


def track_frames(
    frames: Iterator[Frame],
    recognizer: Recognize,
    *,
    game: str,
    seats: Sequence[str],
    mat: TableMat | None = None,
    calibration: Calibration | None = None,
    t0_ns: int = 0,
    progress: Callable[[int], None] | None = None,
    buttons: Sequence[TableEvent] = (),
    options: Mapping[str, Any] | None = None,
) -> TrackResult:
    """Runs recognizer and tracker over frames and returns the table log.

    The log's times count from ``t0_ns`` (a recording's frame times start at its session's
    start, so 0; a live camera's start at the session's monotonic time). ``buttons`` are the
    kiosk's button events (times on the log's scale; other events in it are ignored). ``options``
    are the game's house options (Nerts' jokers, Kierki's deals, a Gnoming deck): they shape the
    tracker and the faces the recognizer may name. Raises VideoError when the video shows no
    calibration markers or the game has no tracker.
    """
    game = tracked_game(game, seats)
    mat = mat or TableMat()
    head: list[Frame] = []
    it = iter(frames)
    if calibration is None:
        for f in it:
            head.append(f)
            if len(head) >= 30:
                break
        if not head:
            raise VideoError("the video has no frames")
        calibration = find_calibration(head, mat)
    tracker = new_tracker(game, seats, calibration, t0_ns=t0_ns, options=options)
    follow = FrameTracking(game, tracker, recognizer, t0_ns=t0_ns, buttons=buttons, options=options)
    events: list[TableEvent] = []

    def all_frames() -> Iterator[Frame]:
        yield from head
        yield from it

    interrupted = False
    try:
        for f in all_frames():
            events.extend(follow.step(f))
            if progress is not None and follow.frames % 100 == 0:
                progress(follow.frames)
    except KeyboardInterrupt:
        # Ctrl-C on a long video: keep what was tracked (the events still held back included).
        if follow.frames == 0:
            raise
        interrupted = True
    if follow.frames == 0:
        raise VideoError("the video has no frames")
    events.extend(follow.finish())
    end = max(follow.last_t_ns - t0_ns, events[-1].t_ns if events else 0)
    from vision.simulator.truth_tracking import merge_buttons

    pressed = follow.pressed
    if isinstance(tracker, NertsTracker):
        played = merge_buttons(pressed, events)
        log = [TableEvent("hand_start", 0, 0, None, {}), *played]
        if not interrupted:
            log.append(TableEvent("hand_end", end, 0, None, {}))
        name = "nerts"
    else:
        # Deals, bids, trumps and calls are entered at the kiosk: without them the log is what the camera saw.
        echoed = set(getattr(tracker, "echoes", ()))
        log = merge_buttons([e for e in pressed if e.type not in echoed], events)
        name = game
    header = LogHeader(name, tuple(seats), dict(options or {}), 1, {"source": "kiosk track"})
    return TrackResult(
        header,
        log,
        follow.frames,
        follow.seconds_recognize,
        follow.seconds_track,
        calibration,
        tracker,
        interrupted,
    )
