"""The end-of-hand audit, counted by the camera (``rules/nerts.md`` §12).

After a Nerts hand the players clear the table; each seat then spreads its foundation cards face down
in a non-overlapping grid in front of it, gathers them, and spreads its remaining Nerts cards the same
way. The camera counts the backs of each grid, and the counts override live tracking
(``attribution_source = audit_if_available``, the default): a play the tracker missed or credited to
the wrong seat, or a Nerts card it did not see leave, no longer changes the score.

Counting does not identify cards. The recognizer finds a face-down card's back less surely than a face
(designs vary; a dark back on a dark cloth), so :class:`BackCounter` measures instead how much of each
seat's zone differs from the empty table, in card areas (the calibration gives a card's area at every
point of the image): cards laid without overlap cover one card area each, and a count of N is N areas
whether or not neighbours touch. :class:`AuditWatcher` finds the audit's phases in the frames: the
empty table (no card seen), the foundation grids (counted once still), the table cleared again, the
Nerts grids; then it writes one ``count`` event per seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.events import BACK, UNKNOWN, CardSighting, Frame
from vision.layout import CARD_H_MM, CARD_W_MM, TableLayout

__all__ = ["BackCounter", "AuditWatcher", "FOREGROUND_LEVEL", "SPREAD_GAIN"]

FOREGROUND_LEVEL = 30
"""A pixel is covered when one of its colour channels differs from the empty table's by more than this
(sensor noise is a few levels; a grey-only difference misses dark backs on a green cloth)."""
SPREAD_GAIN = 1.07
"""A laid card's covered area over its nominal 63 × 88 mm: its rim of drop shadow and blur. Measured on
the simulator's audit frames (1280 × 720, cards about 60 px long); a real table's light may differ,
which a grid of known size under the kiosk's camera checks (see docs/simulator-and-tracker.md)."""
EMPTY_NS = 300_000_000
"""The table is taken as empty (the reference the grids are measured against) once no card has been
seen on it for this long, and nothing card-sized has moved on it meanwhile (an arm clearing it)."""
EMPTY_SIGHTINGS = 1
"""Named cards a frame of the empty table may still show: a card read for a frame where there is none
(the recognizer's ``UNKNOWN`` sightings, a marker's pattern among them, do not count at all)."""
STILL_NS = 400_000_000
"""A phase is counted once every seat's count has held this long (hands have left the grids)."""
STILL_SHARE = 0.8
"""The share of the frames of the last :data:`STILL_NS` that must agree on every seat's count."""
LAID_UNITS = 0.4
"""A patch of change smaller than this many card areas is no card (noise, a shadow, a crumb)."""
GRID_BACKS = 2
"""Backs the recognizer names in a frame of laid grids (it reads only some of them; a single one may be
a misread)."""
REFERENCE_FRAMES = 5
"""Empty frames whose per-pixel median is the reference (their sensor noise averages out)."""


class BackCounter:
    """Counts the cards laid without overlap in each seat's zone, against a frame of the empty table.

    ``layout`` names the seats and where each sits; a point of the table belongs to the seat whose
    layout origin is nearest (the centre too: the grids reach inward past the foundation area's edge).
    """

    def __init__(
        self, layout: TableLayout, cal: Calibration, width: int, height: int, *, step: int = 4
    ) -> None:
        self.layout = layout
        self.seats = tuple(layout.seats)
        ys, xs = np.mgrid[0:height:step, 0:width:step].astype(np.float64)
        xs += step / 2
        ys += step / 2
        pts = np.stack([xs.ravel(), ys.ravel()], 1)
        here = np.asarray(cal.to_table(pts))
        right = np.asarray(cal.to_table(pts + [1.0, 0.0]))
        down = np.asarray(cal.to_table(pts + [0.0, 1.0]))
        a, b = right - here, down - here
        mm2 = np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
        origins = np.array([layout.place_of(s).origin for s in self.seats], dtype=np.float64)
        d = np.hypot(here[:, None, 0] - origins[None, :, 0], here[:, None, 1] - origins[None, :, 1])
        seat = d.argmin(axis=1)
        on_mat = (
            (here[:, 0] >= 0)
            & (here[:, 0] <= layout.width_mm)
            & (here[:, 1] >= 0)
            & (here[:, 1] <= layout.height_mm)
        )
        # A covered pixel's weight in card areas, per seat; 0 off the mat (the markers' frame, the floor).
        unit = (mm2 / (CARD_W_MM * CARD_H_MM * SPREAD_GAIN)) * on_mat
        shape = ys.shape
        seat_map = cv2.resize(
            seat.reshape(shape).astype(np.uint8), (width, height), interpolation=cv2.INTER_NEAREST
        )
        unit_map = cv2.resize(
            unit.reshape(shape).astype(np.float32), (width, height), interpolation=cv2.INTER_NEAREST
        )
        self.seat_of_pixel = np.asarray(seat_map, dtype=np.int64).ravel()
        """Each pixel's seat (its index in :attr:`seats`), row by row."""
        self.unit_of_pixel = np.asarray(unit_map, dtype=np.float64).ravel()
        """Each pixel's share of a laid card's area (0 off the mat), row by row."""
        self.size = (width, height)

    def covered(self, image: NDArray[np.uint8], empty: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """The mask (1 where covered) of what differs from the empty table."""
        if image.shape[:2] != (self.size[1], self.size[0]) or image.shape != empty.shape:
            raise ValueError(
                f"the audit frame is {image.shape[1]}x{image.shape[0]}, the counter was made for "
                f"{self.size[0]}x{self.size[1]} and the empty table is {empty.shape[1]}x{empty.shape[0]}"
            )
        diff = cv2.absdiff(image, empty)
        if diff.ndim == 3:
            # The largest channel's difference (OpenCV's per-pixel max: numpy's is ten times slower).
            diff = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
        diff = cv2.GaussianBlur(diff, (5, 5), 0)
        mask = (diff > FOREGROUND_LEVEL).astype(np.uint8)
        # Specks of noise and a card's own glints are not cards.
        return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), dtype=np.uint8)

    def card_areas(self, image: NDArray[np.uint8], empty: NDArray[np.uint8]) -> dict[str, list[float]]:
        """The covered patches in each seat's zone, each in card areas (a patch is one card, or
        neighbours that touch; a patch lies in the zone that holds most of it)."""
        n, labels = cv2.connectedComponents(self.covered(image, empty))
        at = np.flatnonzero(labels)
        seats = len(self.seats)
        # One pass over the covered pixels: each patch's area per seat.
        per_seat = np.bincount(
            labels.ravel()[at] * seats + self.seat_of_pixel[at],
            weights=self.unit_of_pixel[at],
            minlength=n * seats,
        ).reshape(n, seats)
        out: dict[str, list[float]] = {s: [] for s in self.seats}
        for k in range(1, n):
            row = per_seat[k]
            out[self.seats[int(row.argmax())]].append(float(row.sum()))
        return out

    def count(self, image: NDArray[np.uint8], empty: NDArray[np.uint8]) -> dict[str, int]:
        """The cards laid in each seat's zone: each patch rounded to whole cards on its own (a lone card's
        rim of shadow is a fraction of one card, not of the whole grid), patches under
        :data:`LAID_UNITS` dropped."""
        return {
            s: sum(max(1, round(a)) for a in patches if a >= LAID_UNITS)
            for s, patches in self.card_areas(image, empty).items()
        }


class AuditWatcher:
    """Follows the audit in the frames after a hand and writes its ``count`` events.

    Feed it every frame from the hand's end on, with the recognizer's sightings (:meth:`feed`); it
    returns the ``count`` events (one per seat, ``foundation`` and ``nerts``) once the Nerts grids have
    been counted, and :meth:`finish` returns the foundation counts alone when the second grids never
    came. ``phase`` says where it is: ``"empty"`` (waiting for the cleared table), ``"foundation"``,
    ``"cleared"``, ``"nerts"``, ``"done"``.
    """

    def __init__(self, layout: TableLayout, cal: Calibration, *, t0_ns: int = 0) -> None:
        self.layout = layout
        self.cal = cal
        self.t0_ns = t0_ns
        self.counter: BackCounter | None = None
        self.phase = "empty"
        self.empty: NDArray[np.uint8] | None = None
        self._empty_frames: list[NDArray[np.uint8]] = []
        self._empty_since: int | None = None
        self._first_empty: NDArray[np.uint8] | None = None
        self._prev: NDArray[np.uint8] | None = None
        self._history: list[tuple[int, tuple[int, ...]]] = []
        self.foundation: dict[str, int] | None = None
        self.nerts: dict[str, int] | None = None
        self._counted_ns = 0
        self._laid_since = 0
        self.grids_seen = 0
        """Grids laid since the table was first seen bare: runs of frames in which the recognizer names a
        few backs, each ended by the table seen bare again (it tells the Nerts grids from the foundation
        grids when the empty table was seen still too late to count the foundation grids)."""
        self._backs_shown = False
        self._bare = False
        self._bare_since: int | None = None

    def _follow_grids(self, t_ns: int, sightings: Sequence[CardSighting]) -> None:
        """Counts the grids laid (:attr:`grids_seen`) from the sightings alone."""
        if sum(c.card != UNKNOWN for c in sightings) <= EMPTY_SIGHTINGS:
            # Bare for a while: the hand's cards are gone (its stock and Nerts piles showed backs too),
            # or a grid was gathered. A frame or two with few cards read within a grid is not that.
            self._bare_since = t_ns if self._bare_since is None else self._bare_since
            if t_ns - self._bare_since >= EMPTY_NS:
                self._bare, self._backs_shown = True, False
            return
        self._bare_since = None
        if self._bare and not self._backs_shown and sum(c.card == BACK for c in sightings) >= GRID_BACKS:
            self._backs_shown = True
            self.grids_seen += 1

    def feed(self, frame: Frame, sightings: Sequence[CardSighting]) -> list[TableEvent]:
        """One frame (its pixels are counted) with the recognizer's sightings of it (they tell the bare
        table and the grids); the ``count`` events once the Nerts grids are counted, else none. Raises
        ValueError for a frame without pixels."""
        image: Any = frame.image
        if image is None:
            raise ValueError("the audit is counted from the frame's pixels: this frame has none")
        if self.phase == "done":
            return []
        self._follow_grids(frame.t_ns, sightings)
        if self.phase == "empty":
            self._watch_empty(frame.t_ns, image, sightings)
            return []
        assert self.counter is not None and self.empty is not None
        counts = self.counter.count(image, self.empty)
        laid = any(counts.values())
        if self.phase == "cleared":
            if not laid:
                self.phase = "nerts"
                self._history = []
            return []
        # The second look (motion since the last frame) only while something is laid: a bare table
        # costs one look a frame.
        moved = laid and self._prev is not None and self._changed(image, self._prev)
        self._prev = image
        if not laid or moved:
            # Nothing laid yet, or something moving (an arm laying cards): the counts can hold by
            # chance while a hand moves over the grid, so motion restarts the wait.
            self._history = []
            return []
        t = frame.t_ns
        self._history = [(tt, k) for tt, k in self._history if t - tt <= STILL_NS]
        if not self._history:
            self._laid_since = t
        self._history.append((t, tuple(counts[s] for s in self.counter.seats)))
        if t - self._laid_since < STILL_NS:
            return []
        # Counts that held through STILL_NS (a frame or two may flicker): the hands are off the grids.
        key, n = Counter(k for _, k in self._history).most_common(1)[0]
        if n < STILL_SHARE * len(self._history):
            return []
        counted = dict(zip(self.counter.seats, key, strict=True))
        self._counted_ns = t
        if self.phase == "foundation" and self.grids_seen >= 2:
            # The foundation grids came and went before the bare table was seen: these are the Nerts
            # grids, and the foundation counts stay unknown (the referee keeps live tracking for them).
            self.nerts = counted
            self.phase = "done"
            return self._events()
        if self.phase == "foundation":
            self.foundation = counted
            self.phase = "cleared"
            return []
        self.nerts = counted
        self.phase = "done"
        return self._events()

    def _changed(self, image: NDArray[np.uint8], before: NDArray[np.uint8]) -> bool:
        """Whether something card-sized changed between two frames (a hand, a card moving)."""
        assert self.counter is not None
        return any(
            a >= LAID_UNITS for patches in self.counter.card_areas(image, before).values() for a in patches
        )

    def finish(self) -> list[TableEvent]:
        """The foundation counts alone when the audit stopped before the Nerts grids were counted."""
        if self.phase in ("cleared", "nerts") and self.foundation is not None:
            self.phase = "done"
            return self._events()
        return []

    def _watch_empty(self, t_ns: int, image: NDArray[np.uint8], sightings: Sequence[CardSighting]) -> None:
        if sum(c.card != UNKNOWN for c in sightings) > EMPTY_SIGHTINGS:
            self._empty_since = None
            self._empty_frames = []
            return
        if self.counter is None:
            h, w = image.shape[:2]
            self.counter = BackCounter(self.layout, self.cal, w, h)
        if self._empty_since is None:
            self._empty_since = t_ns
            self._first_empty = image
        self._empty_frames = (self._empty_frames + [image])[-REFERENCE_FRAMES:]
        if t_ns - self._empty_since < EMPTY_NS or len(self._empty_frames) < 2:
            return
        assert self._first_empty is not None
        if self._changed(image, self._first_empty):
            # No card named, but something card-sized moved (an arm clearing the table, a hand):
            # not yet the empty table. Start again from this frame.
            self._empty_since, self._first_empty, self._empty_frames = t_ns, image, [image]
            return
        self.empty = np.median(np.stack(self._empty_frames), axis=0).astype(np.uint8)
        self.phase = "foundation"
        self._history = []

    def _events(self) -> list[TableEvent]:
        out = []
        for seat in self.layout.seats:
            data: dict[str, Any] = {}
            if self.foundation is not None:
                data["foundation"] = self.foundation[seat]
            if self.nerts is not None:
                data["nerts"] = self.nerts[seat]
            out.append(TableEvent("count", self._counted_ns - self.t0_ns, 0, seat, data))
        return out
