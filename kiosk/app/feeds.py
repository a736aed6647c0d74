"""A recorded table replayed at real pace: the stand-in for the camera.

A :class:`LogFeed` holds a table log's events and hands them to the loop
when their time comes (``t / pace`` after the feed started). The events keep
their own recorded times, so races and ties are judged exactly as they were
recorded, whatever the pace. Polling is cheap and needs no thread: the loop
asks :meth:`LogFeed.due` each pass with the injected time.

After a crash, :meth:`LogFeed.skip_recorded` finds how much of the log the
store already holds, and the feed carries on from there.

>>> from kiosk.games.referee import TableEvent
>>> feed = LogFeed([TableEvent("call", 2_000_000_000, seat="A"), TableEvent("call", 3_000_000_000, seat="B")])
>>> feed.start(10_000_000_000)
>>> [e.seat for e in feed.due(11_000_000_000)], [e.seat for e in feed.due(12_000_000_000)]
([], ['A'])
>>> feed.next_due_ns(), feed.done
(13000000000, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.games.referee import TableEvent

__all__ = ["LogFeed"]


def _same(a: TableEvent, b: TableEvent) -> bool:
    return (a.type, a.t_ns, a.seat, dict(a.data)) == (b.type, b.t_ns, b.seat, dict(b.data))


class LogFeed:
    """Replays events at ``pace`` (1.0 is real time) from the moment :meth:`start` is called."""

    def __init__(self, events: Sequence[TableEvent], *, pace: float = 1.0) -> None:
        if pace <= 0:
            raise ValueError(f"pace must be above 0, got {pace}")
        self.events = list(events)
        self.pace = pace
        self.position = 0
        """Index of the next event to hand out."""
        self._origin_ns: int | None = None
        self._base_t = 0

    def start(self, now_ns: int) -> None:
        """Starts (or restarts after :meth:`skip_recorded`) the clock of the replay."""
        self._origin_ns = now_ns
        self._base_t = self.events[self.position].t_ns if 0 < self.position < len(self.events) else 0

    @property
    def started(self) -> bool:
        return self._origin_ns is not None

    @property
    def done(self) -> bool:
        return self.position >= len(self.events)

    def _release_ns(self, event: TableEvent) -> int:
        assert self._origin_ns is not None
        return self._origin_ns + int((event.t_ns - self._base_t) / self.pace)

    def next_due_ns(self) -> int | None:
        """The monotonic time the next event is due, or None (done or not started)."""
        if self.done or self._origin_ns is None:
            return None
        return self._release_ns(self.events[self.position])

    def due(self, now_ns: int) -> list[TableEvent]:
        """The events whose time has come (in log order)."""
        out: list[TableEvent] = []
        if self._origin_ns is None:
            return out
        while not self.done and self._release_ns(self.events[self.position]) <= now_ns:
            out.append(self.events[self.position])
            self.position += 1
        return out

    def skip_recorded(self, stored: Sequence[TableEvent]) -> int:
        """Skips the log events already in ``stored`` (in order; other stored events,
        such as undos and corrections, are passed over). Returns how many were skipped."""
        i = 0
        for event in stored:
            if i < len(self.events) and _same(event, self.events[i]):
                i += 1
        self.position = i
        return i
