"""A game's tracker fed the simulator's exact sightings (with faults injected), and its log scored.

Glossary:

- **truth sightings**: what a perfect recognizer would report for each frame
  (:meth:`vision.simulator.scene.TableScene.ground_truth_sightings`), computed from the scene's
  geometry without rendering a pixel, then given the faults of :func:`vision.simulator.noise.perturb`
  (box jitter, cards unseen for a frame, rare misreads). They measure the tracker on its own.
- **buttons**: the events of the truth a camera cannot make (a deal, trumps named, a pass, a
  caller's "draw", a pool draw of a face-down card): the kiosk has them from its buttons. They
  are given to the tracker as their time comes (:meth:`GameTracker.button`) and merged into its log.
- **camera events**: every other event. A tracked camera event is **right** when a true one of
  the same type, seat and content lies within :data:`MATCH_NS`; a tracked one with no partner
  is **false**, a true one with none is **missed**.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.events import CardSighting, Frame
from vision.simulator.camera import CameraModel
from vision.simulator.noise import FACES, perturb
from vision.simulator.render import TableRenderer
from vision.simulator.scene import TableScene

__all__ = [
    "GameTracker",
    "TrackedRun",
    "EventScore",
    "MATCH_NS",
    "camera_calibration",
    "track_truth_sightings",
    "merge_buttons",
    "score_events",
]

MATCH_NS = 1_000_000_000
"""How far apart in time a tracked and a true camera event may be and still be the same event."""
TIME_FIELDS = ("t_lift",)


class GameTracker(Protocol):
    """What a game's tracker offers: frames in, events out, and the kiosk's buttons."""

    def feed(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[TableEvent]: ...

    def flush(self) -> list[TableEvent]: ...

    def button(self, event: TableEvent) -> None: ...


@dataclass
class TrackedRun:
    """A tracker's output over a stretch of a simulated table."""

    events: list[TableEvent]
    """The tracker's own (camera) events."""
    log: list[TableEvent]
    """Those merged with the buttons: the table log the kiosk would keep."""
    frames: int
    tracker_s: float


@dataclass
class EventScore:
    """Camera events tracked against the truth."""

    true: int = 0
    right: int = 0
    false: int = 0
    missed: int = 0
    misses: list[str] = field(default_factory=list)
    falses: list[str] = field(default_factory=list)
    time_errors_ns: list[int] = field(default_factory=list)
    within_err: int = 0
    """Right events whose time error is within the ``err_ns`` the tracker stated."""


def camera_calibration(camera: CameraModel) -> Calibration:
    """The simulated camera's exact calibration (what the mat's markers give, without rendering)."""
    inverse = np.linalg.inv(camera.table_to_image).astype(np.float64)
    return Calibration(inverse)


def merge_buttons(buttons: Sequence[TableEvent], tracked: Sequence[TableEvent]) -> list[TableEvent]:
    """The tracker's events with the buttons, in time order (a button first at equal times)."""
    keyed = [(e.t_ns, 0, k, e) for k, e in enumerate(buttons)]
    keyed += [(e.t_ns, 1, k, e) for k, e in enumerate(tracked)]
    return [e for *_, e in sorted(keyed, key=lambda x: (x[0], x[1], x[2]))]


def track_truth_sightings(
    scene: TableScene,
    tracker: GameTracker,
    camera: CameraModel,
    buttons: Sequence[TableEvent],
    *,
    start_ns: int = 0,
    end_ns: int | None = None,
    seed: int = 0,
    drop: float = 0.05,
    misread: float = 0.005,
    faces: Sequence[str] = FACES,
    progress: Callable[[int], None] | None = None,
) -> TrackedRun:
    """Feeds the tracker every frame from ``start_ns`` to ``end_ns`` (default: the scene's end)
    with perturbed truth sightings, and each button as its time comes. No pixel is rendered."""
    renderer = TableRenderer(camera, rng=random.Random(seed + 1))
    rng = random.Random(seed + 2)
    end = scene.end_ns if end_ns is None else end_ns
    pending = sorted(buttons, key=lambda e: e.t_ns)
    k = 0
    events: list[TableEvent] = []
    frames = 0
    spent = 0.0
    scene.reset()
    for timing in camera.timings(start_ns=start_ns, rng=random.Random(seed + 3)):
        if timing.t_ns > end:
            break
        while k < len(pending) and pending[k].t_ns <= timing.t_ns:
            tracker.button(pending[k])
            k += 1
        scene.advance(camera, timing)
        exact = scene.ground_truth_sightings(renderer, timing)
        seen = perturb(exact, rng, drop=drop, misread=misread, faces=faces)
        frame = Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)
        a = time.perf_counter()
        events.extend(tracker.feed(frame, seen))
        spent += time.perf_counter() - a
        frames += 1
        if progress is not None and frames % 500 == 0:
            progress(frames)
    for e in pending[k:]:
        tracker.button(e)
    events.extend(tracker.flush())
    # A button the tracker completes with what it saw (a hand's start with its face-up piles) is in
    # its own events already.
    echoed = set(getattr(tracker, "echoes", ()))
    kept = [e for e in pending if e.type not in echoed]
    return TrackedRun(events, merge_buttons(kept, events), frames, spent)


def _content(e: TableEvent) -> str:
    data: dict[str, Any] = {}
    for key, value in e.data.items():
        if key in TIME_FIELDS:
            continue
        # A hand shown or revealed is a set of cards; the order they were laid in does not count.
        data[key] = sorted(value) if key == "cards" and isinstance(value, list) else value
    # A sweep is seen, not who swept it (cards turn face down as they go): the referee knows the taker.
    seat = None if e.type == "collect" else e.seat
    return json.dumps([e.type, seat, data], sort_keys=True)


def score_events(truth: Sequence[TableEvent], tracked: Sequence[TableEvent]) -> EventScore:
    """Pairs each true camera event with the nearest tracked one of the same content within
    :data:`MATCH_NS` (``truth`` and ``tracked`` hold camera events only)."""
    sc = EventScore(true=len(truth))
    used: set[int] = set()
    keys = [_content(e) for e in tracked]
    for e in truth:
        want = _content(e)
        best, best_dt = None, MATCH_NS + 1
        for i, k in enumerate(tracked):
            if i in used or keys[i] != want:
                continue
            dt = abs(k.t_ns - e.t_ns)
            if dt < best_dt:
                best, best_dt = i, dt
        if best is None:
            sc.missed += 1
            sc.misses.append(f"missed {want} at {e.t_ns / 1e9:.3f}")
            continue
        used.add(best)
        sc.right += 1
        sc.time_errors_ns.append(tracked[best].t_ns - e.t_ns)
        sc.within_err += best_dt <= tracked[best].err_ns
    for i, k in enumerate(tracked):
        if i not in used:
            sc.false += 1
            sc.falses.append(f"false {keys[i]} at {k.t_ns / 1e9:.3f}")
    return sc
