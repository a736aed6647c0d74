"""The tracker for trick-taking tables (Kierki, Smear): cards played to the trick, and tricks swept.

Glossary (``rules/smear.md``, ``rules/kierki.md``; table as in :class:`vision.layout.TrickLayout`):

- **spot**: the place in the middle, in front of each seat, where its card of the current trick
  lies. A card that comes to rest on a spot (see :mod:`vision.tracker` for tracks and landings)
  is a ``play`` by that spot's seat, timed by its landing.
- **sweep**: once the trick is complete, its taker gathers the cards and turns them face down.
  When every card of a complete trick has left its spot (it moved away, or has not been seen
  there for :data:`GONE_NS`), the tracker reports a ``collect``.

>>> from vision.calibration import Calibration
>>> t = TrickTracker(TrickLayout(["Ana", "Ben", "Cal", "Dee"]), Calibration.from_scale(1.0))
>>> t.feed(Frame(None, 0), [])
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.events import CardSighting, Frame
from vision.layout import TrickLayout
from vision.tracker import STANDARD_FACES, TableTracker, Track, TrackerSettings

__all__ = ["TrickTracker", "GONE_NS"]

GONE_NS = 300_000_000
"""How long a trick card must be missing from its spot to count as swept."""
SPOT_MM = 70.0


@dataclass
class _Played:
    track: int
    seat: str
    card: str
    t_ns: int


class TrickTracker:
    """Turns a trick-taking table's frames and sightings into ``play`` and ``collect`` events."""

    def __init__(
        self,
        layout: TrickLayout,
        calibration: Calibration,
        settings: TrackerSettings | None = None,
        *,
        t0_ns: int = 0,
        labels: frozenset[str] | None = None,
    ) -> None:
        self.layout = layout
        self.settings = settings or TrackerSettings()
        labels = labels if labels is not None else frozenset((*STANDARD_FACES, "JOKER"))
        self.table = TableTracker(layout, calibration, self.settings, labels=labels)
        self.table.place_of = self._place_of  # type: ignore[method-assign]
        self.t0_ns = t0_ns
        self.current: list[_Played] = []
        self.seen: set[str] = set()
        self._pending: list[TableEvent] = []
        self._released = -(1 << 62)

    def _place_of(self, x: float, y: float, tr: Track, landing: object = None) -> tuple[str | None, str, int]:
        best, best_d = None, SPOT_MM
        for key, slot in self.layout.slots.items():
            if key[1] not in ("trick", "won"):
                continue
            d = math.hypot(slot.pose.x - x, slot.pose.y - y)
            if d < best_d:
                best, best_d = key, d
        return best if best is not None else (self.layout.seat_of_point(x, y), "zone", 0)

    def feed(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[TableEvent]:
        """Feeds one frame; returns the events that are now final, in time order."""
        for landing in self.table.step(frame, sightings):
            place = self._place_of(landing.x, landing.y, Track(0, landing.card))
            if place[1] != "trick" or place[0] is None or landing.card in self.seen:
                continue
            if self.current and self._all_gone(frame.t_ns, 2 * GONE_NS):
                self._collect()
            self.seen.add(landing.card)
            self.current.append(_Played(landing.track, place[0], landing.card, landing.t_ns))
            self._pending.append(
                TableEvent(
                    "play", landing.t_ns - self.t0_ns, landing.err_ns, place[0], {"card": landing.card}
                )
            )
        if len(self.current) >= len(self.layout.seats) and self._all_gone(frame.t_ns, GONE_NS):
            self._collect()
        return self._release(frame.t_ns - self.settings.latency_ns)

    def flush(self) -> list[TableEvent]:
        """Every event still held back (call at the end of the video)."""
        return self._release(1 << 62)

    def _gone_since(self, p: _Played) -> int | None:
        tr = next((t for t in self.table.tracks if t.tid == p.track), None)
        if tr is None:
            return p.t_ns
        if not tr.resting or tr.place is None or tr.place[1] != "trick":
            return tr.last.t_ns
        return tr.last.t_ns

    def _all_gone(self, now: int, for_ns: int) -> bool:
        for p in self.current:
            since = self._gone_since(p)
            tr = next((t for t in self.table.tracks if t.tid == p.track), None)
            moved = tr is None or not tr.resting
            if not moved and (since is None or now - since < for_ns):
                return False
        return True

    def _collect(self) -> None:
        t = max(p.t_ns for p in self.current)
        last_seen = [s for s in (self._gone_since(p) for p in self.current) if s is not None]
        t_col = max([t, *last_seen])
        self._pending.append(TableEvent("collect", t_col - self.t0_ns, 0, None, {}))
        self.current = []

    def _release(self, before_ns: int) -> list[TableEvent]:
        cut = before_ns - self.t0_ns
        ready = sorted(
            (e for e in self._pending if e.t_ns <= cut), key=lambda e: (e.t_ns, e.type == "collect")
        )
        self._pending = [e for e in self._pending if e.t_ns > cut]
        out = []
        for e in ready:
            if e.t_ns < self._released:
                e = TableEvent(e.type, self._released, e.err_ns + (self._released - e.t_ns), e.seat, e.data)
            self._released = e.t_ns
            out.append(e)
        return out
