"""The tracker for trick-taking tables (Kierki, Smear): cards played to the trick, and tricks swept.

Glossary (``rules/smear.md``, ``rules/kierki.md``; table as in :class:`vision.layout.TrickLayout`):

- **spot**: the place in the middle, in front of each seat, where its card of the current trick
  lies. A card that comes to rest on a spot (see :mod:`vision.tracker` for tracks and landings)
  is a ``play`` by that spot's seat, timed by its landing.
- **sweep**: once the trick is complete, its taker gathers the cards and turns them face down.
  When every card of a complete trick has left its spot (it moved away, or has not been seen
  there for :data:`GONE_NS`), the tracker reports a ``collect``.
- **Fan Tan** (Kierki's last deal, ``rules/kierki.md`` §8): the kiosk knows the deal from its
  ``deal`` button (:meth:`TrickTracker.button`); in a Fan Tan deal a card coming to rest in the
  suit rows is a ``play`` by the seat whose zone it was first seen in (its player's edge).
- **reveal**: cards laid face up in a seat's zone (its cards still held after Fan Tan, §13.3)
  make one ``reveal`` of that seat once no more arrive for :data:`REVEAL_QUIET_NS`.

>>> from vision.calibration import Calibration
>>> t = TrickTracker(TrickLayout(["Ana", "Ben", "Cal", "Dee"]), Calibration.from_scale(1.0))
>>> t.feed(Frame(None, 0), [])
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.card_moves import EventQueue
from vision.events import CardSighting, Frame
from vision.layout import TrickLayout
from vision.tracker import STANDARD_FACES, Landing, TableTracker, Track, TrackerSettings

__all__ = ["TrickTracker", "GONE_NS", "REVEAL_QUIET_NS", "kierki_fan_tan_deals"]

GONE_NS = 300_000_000
"""How long a trick card must be missing from its spot to count as swept."""
SPOT_MM = 70.0
REVEAL_QUIET_NS = 1_000_000_000
"""A seat's face-up cards are all shown once none has arrived for this long."""


def kierki_fan_tan_deals(options: Mapping[str, Any] | None = None) -> frozenset[int]:
    """The numbers of a Kierki match's Fan Tan deals under ``options`` (default: ``{12}``).

    >>> sorted(kierki_fan_tan_deals())
    [12]
    """
    from kiosk.games.kierki.deals import match_deals
    from kiosk.games.kierki.game import KierkiGame

    game = KierkiGame(dict(options or {}))
    return frozenset(d.number for d in match_deals(game.options) if d.is_fan_tan)


@dataclass
class _Played:
    track: int
    seat: str
    card: str
    t_ns: int


@dataclass
class _Shown:
    """Cards a seat is laying face up in its zone."""

    cards: list[str] = field(default_factory=list)
    last_ns: int = 0
    err_ns: int = 0


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
        fan_tan_deals: frozenset[int] = frozenset(),
    ) -> None:
        self.layout = layout
        self.settings = settings or TrackerSettings()
        labels = labels if labels is not None else frozenset((*STANDARD_FACES, "JOKER"))
        self.table = TableTracker(layout, calibration, self.settings, labels=labels)
        self.table.place_of = self._place_of  # type: ignore[method-assign]
        self.t0_ns = t0_ns
        self.current: list[_Played] = []
        self.seen: set[str] = set()
        # A trick's collect goes out after the plays of its own instant.
        self.queue = EventQueue(
            self.settings.latency_ns, t0_ns, order=lambda e: (e.t_ns, int(e.type == "collect"))
        )
        self.fan_tan_deals = fan_tan_deals
        """Deal numbers played as Fan Tan (:func:`kierki_fan_tan_deals`; empty for Smear)."""
        self.fan_tan = False
        self.deal_number = 0
        self._shown: dict[str, _Shown] = {}

    def button(self, event: TableEvent) -> None:
        """Tells the tracker a kiosk event (a button press) it cannot see: a ``deal`` starts a new
        deal (every card may be played again; Fan Tan or tricks by the deal's number)."""
        if event.type != "deal":
            return
        number = event.get("deal")
        self.deal_number = number if isinstance(number, int) else self.deal_number + 1
        self.fan_tan = self.deal_number in self.fan_tan_deals
        self.seen.clear()
        self.current = []

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
            if self.fan_tan and self._in_fan_tan(landing.x, landing.y):
                self._fan_tan_play(landing)
                continue
            place = self._place_of(landing.x, landing.y, Track(0, landing.card))
            if place[1] not in ("trick", "won") and place[0] is not None:
                self._show(place[0], landing)
                continue
            if place[1] != "trick" or place[0] is None or landing.card in self.seen:
                continue
            if self.current and self._all_gone(frame.t_ns, 2 * GONE_NS):
                self._collect()
            self.seen.add(landing.card)
            self.current.append(_Played(landing.track, place[0], landing.card, landing.t_ns))
            self.queue.add("play", landing.t_ns, landing.err_ns, place[0], {"card": landing.card})
        if len(self.current) >= len(self.layout.seats) and self._all_gone(frame.t_ns, GONE_NS):
            self._collect()
        self._close_reveals(frame.t_ns - REVEAL_QUIET_NS)
        return self.queue.release(frame.t_ns)

    def flush(self) -> list[TableEvent]:
        """Every event still held back (call at the end of the video)."""
        self._close_reveals(1 << 62)
        return self.queue.release(None)

    def _in_fan_tan(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.layout.fan_tan_box()
        return x0 <= x <= x1 and y0 <= y <= y1

    def _fan_tan_play(self, landing: Landing) -> None:
        x0, y0 = landing.path[0] if landing.path else (landing.x, landing.y)
        # A card played comes from its player's edge; one in the rows that a hand or the next card
        # half covered and that seemed to shift has not travelled.
        if landing.card in self.seen or not _travelled(landing, FAN_TAN_TRAVEL_MM):
            return
        # Its player's edge: the zone the card was first seen in, else the edge its path came from.
        seat = self.layout.seat_of_point(x0, y0) or self.layout.direction_seat(x0, y0, landing.x, landing.y)
        if seat is None:
            return
        self.seen.add(landing.card)
        self.queue.add("play", landing.t_ns, landing.err_ns, seat, {"card": landing.card})

    def _show(self, seat: str, landing: Landing) -> None:
        if not _travelled(landing):
            return
        shown = self._shown.setdefault(seat, _Shown())
        if landing.card not in shown.cards:
            shown.cards.append(landing.card)
        shown.last_ns = max(shown.last_ns, landing.t_ns)
        shown.err_ns = landing.err_ns

    def _close_reveals(self, before_ns: int) -> None:
        for seat, shown in list(self._shown.items()):
            if shown.last_ns <= before_ns:
                self.queue.add("reveal", shown.last_ns, shown.err_ns, seat, {"cards": list(shown.cards)})
                del self._shown[seat]

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
        self.queue.add("collect", t_col, 0, None, {})
        self.current = []


TRAVEL_MM = 60.0
"""How far a card must have come to be a card played or shown (not one nudged in place)."""


FAN_TAN_TRAVEL_MM = 100.0
"""The same for a Fan Tan card, which comes from its player's edge to the middle of the table."""


def _travelled(landing: Landing, least_mm: float = TRAVEL_MM) -> bool:
    if not landing.path:
        return False
    x0, y0 = landing.path[0]
    return math.hypot(landing.x - x0, landing.y - y0) >= least_mm
