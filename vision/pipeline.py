"""The live vision pipeline: camera frames in, the table events they complete out.

It does for the kiosk's camera (``kiosk run --camera usb:0``, ``picamera2``, a video file)
what ``kiosk track`` does for a recorded video, with the same code
(:class:`vision.video_tracking.FrameTracking`): recognizer, then the game's tracker.

Glossary:

- **the mat**: the printed table mat (``kiosk mat``) with ArUco markers 0-3 at its corners
  (:mod:`vision.calibration`). Until the camera sees them the pipeline cannot tell table
  millimetres from pixels, so it **waits for the mat**: frames give no events, and the kiosk's
  calibrate screen says which markers are missing. All four markers calibrate at once; with
  only some in view it waits :data:`CALIBRATION_PATIENCE` frames for the rest, then takes the
  best view it had (as ``kiosk track`` does with a video's first frames).
- **frame time**: each :class:`~vision.events.Frame` carries its own time, on the host's
  monotonic clock for the real sources (:mod:`vision.sources`); the events come out on that
  clock (the kiosk moves them onto the session's).
- **buttons**: what the kiosk knows without the camera (a deal, trumps, the caller's words;
  :func:`vision.video_tracking.is_button`). The kiosk hands them to :meth:`LivePipeline.button`
  (from any thread); the tracker is told each as its frame time comes. A button the tracker
  echoes completed with what it saw (3-13's ``hand_start``, Gnoming's ``round_start``) is
  already in the kiosk's log, so the echo is not passed on.
- :func:`build_pipeline`: loads the recognizer once and makes the pipeline of one game; a
  missing or corrupt model raises :class:`~vision.errors.ModelError`, a game without a
  tracker (or with seats it cannot take) :class:`PipelineError`.

>>> build_pipeline("smear", ["Ana", "Ben", "Cal"])
Traceback (most recent call last):
  ...
vision.pipeline.PipelineError: smear is played by four seats, got 3
"""

from __future__ import annotations

import queue
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration, CalibrationError, TableMat, calibrate
from vision.errors import VisionError
from vision.events import Frame
from vision.nerts_tracker import NertsTracker
from vision.video_tracking import FrameTracking, Recognize, VideoError, new_tracker, tracked_game

__all__ = ["LivePipeline", "PipelineError", "build_pipeline", "CALIBRATION_PATIENCE"]

CALIBRATION_PATIENCE = 30
"""Frames to wait for all four markers once some are seen (``kiosk track`` looks at as many)."""


class PipelineError(VisionError):
    """The pipeline cannot follow this table (a game without a tracker, seats it cannot take)."""


class LivePipeline:
    """One game's table, followed live: a callable from one camera frame to the table events it
    completes (times on the frames' clock), for :class:`kiosk.app.camera.CameraWorker`.

    Frames are handed over from one thread (the camera's); :meth:`button` may be called from
    any thread.
    """

    def __init__(
        self,
        game: str,
        seats: Sequence[str],
        recognizer: Recognize,
        *,
        options: Mapping[str, Any] | None = None,
        mat: TableMat | None = None,
        piles: Mapping[str, str] | None = None,
    ) -> None:
        try:
            self.game = tracked_game(game, seats)
        except VideoError as exc:
            raise PipelineError(str(exc)) from None
        self.seats = tuple(seats)
        self.options = dict(options or {})
        self.piles = dict(piles or {})
        """Foundation piles already logged (a resumed Nerts game): id -> top card."""
        self.recognizer = recognizer
        self.mat = mat or TableMat()
        self.tracking: FrameTracking | None = None
        """Recognizer and tracker, once the mat is calibrated."""
        self._calibration: Calibration | None = None
        self._best: Calibration | None = None
        self._waited = 0
        self._buttons: queue.SimpleQueue[TableEvent] = queue.SimpleQueue()
        self._early: list[TableEvent] = []

    @property
    def calibration(self) -> Calibration | None:
        """The mat's calibration, or None while waiting for its markers."""
        return self._calibration

    def button(self, event: TableEvent) -> None:
        """A kiosk event, on the frames' clock; the game's buttons reach the tracker in time order."""
        self._buttons.put(event)

    def __call__(self, frame: Frame) -> list[TableEvent]:
        """One frame in, the events it completes out, in time order (none while waiting for the mat)."""
        self._take_buttons()
        if self.tracking is None:
            cal = self._calibrate(frame)
            if cal is None:
                return []
            self._calibration = cal
            tracker = new_tracker(self.game, self.seats, cal, options=self.options, piles=self.piles)
            self.tracking = FrameTracking(
                self.game, tracker, self.recognizer, buttons=self._early, options=self.options
            )
            self._early = []
        return self._passed_on(self.tracking.step(frame))

    def flush(self) -> list[TableEvent]:
        """Every event still held back (a source that has ended: the last frames of a video)."""
        if self.tracking is None:
            return []
        self._take_buttons()
        return self._passed_on(self.tracking.finish())

    def pile_position(self, pile: Any) -> tuple[float, float] | None:
        """Where the Nerts tracker found foundation pile ``pile`` (table mm), or None (for the slap
        pads, :mod:`kiosk.app.slap_join`)."""
        tracker = self.tracking.tracker if self.tracking is not None else None
        if not isinstance(tracker, NertsTracker):
            return None
        for p in tracker.piles:
            if p.pid == pile:
                return (float(p.x), float(p.y))
        return None

    def _take_buttons(self) -> None:
        while True:
            try:
                event = self._buttons.get_nowait()
            except queue.Empty:
                return
            if self.tracking is None:
                self._early.append(event)
            else:
                self.tracking.press(event)

    def _calibrate(self, frame: Frame) -> Calibration | None:
        """The mat's calibration once its markers are in view (all four, or the best after a wait)."""
        try:
            cal = calibrate(frame.image, self.mat)
        except CalibrationError:
            cal = None
        if cal is not None and len(cal.markers) == len(self.mat.marker_ids):
            return cal
        if cal is not None and (self._best is None or len(cal.markers) > len(self._best.markers)):
            self._best = cal
        if self._best is None:
            return None
        self._waited += 1
        return self._best if self._waited >= CALIBRATION_PATIENCE else None

    def _passed_on(self, events: list[TableEvent]) -> list[TableEvent]:
        assert self.tracking is not None
        echoed = frozenset(getattr(self.tracking.tracker, "echoes", ()))
        return [e for e in events if e.type not in echoed]


def build_pipeline(
    game: str,
    seats: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    mat: TableMat | None = None,
    recognizer: Recognize | None = None,
    model_dir: str | Path | None = None,
    piles: Mapping[str, str] | None = None,
) -> LivePipeline:
    """The live pipeline of ``game`` played by ``seats`` (table order) under house ``options``.

    The recognizer is loaded from ``model_dir`` (default: the shipped model) unless one is given
    (one loaded model serves game after game). ``piles`` are the foundation piles of a resumed Nerts
    game (id -> top card), so the tracker keeps their ids. Raises :class:`PipelineError` for a game without
    a tracker and :class:`~vision.errors.ModelError` for a missing or corrupt model.
    """
    try:
        tracked_game(game, seats)
    except VideoError as exc:
        raise PipelineError(str(exc)) from None
    if recognizer is None:
        from vision.recognizer import Recognizer

        recognizer = Recognizer.load_for_video(model_dir)
    return LivePipeline(game, seats, recognizer, options=options, mat=mat, piles=piles)
