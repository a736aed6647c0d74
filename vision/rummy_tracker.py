"""The tracker for a 3-13 Speed Rummy table: pile draws, discards turned up, hands laid out.

Glossary (``rules/rummy_3_13.md``; table as in :class:`vision.layout.RummyLayout`; tracks,
departures and arrivals as in :mod:`vision.tracker` and :mod:`vision.card_moves`):

- **pile draw**: the face-up top card of a seat's pile taken off the table: a ``draw`` by the
  seat whose edge it went toward, ``from`` the pile's owner, timed by its lift.
- **discard**: after the caller's "discard", a face-up card newly at rest on a seat's pile (the
  held card turned up in place, or laid there face up): a ``discard`` by the pile's owner, timed
  by the first sighting of its face.
- **hand laid out**: face-up cards coming to rest in front of a seat, complete once none has
  followed for :data:`LAYOUT_QUIET_NS`: a ``match`` while no one has matched this hand or in the
  window of the first match, a ``show`` once the caller has called "draw" after a match (the
  final round is then over when the hands are spread).

What the camera cannot read comes from the kiosk (:meth:`RummyTracker.button`): the start of a
hand (the tracker adds the face-up ``piles`` it sees), the caller's words, the face-down holds,
and pool draws (a face-down card).

>>> from vision.calibration import Calibration
>>> t = RummyTracker(RummyLayout(["Ana", "Ben", "Cal"]), Calibration.from_scale(1.0))
>>> t.feed(Frame(None, 0), [])
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.card_moves import DepartureWatch, EventQueue, segment_distance
from vision.events import BACK, CardSighting, Frame
from vision.layout import RummyLayout
from vision.tracker import STANDARD_FACES, Landing, TableTracker, Track, TrackerSettings

__all__ = ["RummyTracker", "LAYOUT_QUIET_NS"]

LAYOUT_QUIET_NS = 1_000_000_000
"""A hand being laid out is complete once no card has joined it for this long."""
LATENCY_NS = 3_000_000_000
"""Events are held this long (no race to judge here): a card of a laid-out hand seen late still joins it."""
PILE_MM = 45.0
HELD_MM = 25.0
"""A face-down card this near a pile's centre lies on it (a held card)."""
TURNED_UP_NS = 500_000_000
"""A pile's top face showing this long after a held card covered it is that card turned up (a twin)."""
HELD_FRAMES = 3
"""Frames a face-down card must cover a pile to count as lying on it; frames a face must then show."""
SHOW_MM = 50.0

SlotKey = tuple[str | None, str, int]


@dataclass
class _Laid:
    kind: str
    cards: list[str] = field(default_factory=list)
    last_ns: int = 0
    err_ns: int = 0


class RummyTracker:
    """Turns a 3-13 table's frames and sightings into ``draw``, ``discard``, ``match`` and ``show``."""

    def __init__(
        self,
        layout: RummyLayout,
        calibration: Calibration,
        settings: TrackerSettings | None = None,
        *,
        t0_ns: int = 0,
    ) -> None:
        self.layout = layout
        self.settings = settings or TrackerSettings()
        self.table = TableTracker(layout, calibration, self.settings, labels=frozenset(STANDARD_FACES))
        self.table.place_of = self._place_of  # type: ignore[method-assign]
        self.echoes = frozenset({"hand_start"})
        """Buttons this tracker passes on itself, completed with what it saw."""
        self.queue = EventQueue(max(self.settings.latency_ns, LATENCY_NS), t0_ns)
        self.departures = DepartureWatch(layout, frozenset({"pile"}))
        self.piles: dict[str, list[str]] = {}
        """The face-up cards of each seat's pile as seen coming to rest there, the top one last."""
        self._known: set[int] = set()
        self._laid: dict[str, _Laid] = {}
        self._laid_tracks: set[int] = set()
        self._backs: dict[str, tuple[int, int]] = {}
        """Per seat, since the last face-up card came to rest on its pile: how many frames a face-down
        card covered the pile (the held card, before it is turned up), and the last one's time."""
        self._last_frame_ns: int | None = None
        self._frame_period = 16_666_667
        self._first_seen: dict[int, int] = {}
        """When each track's face was first seen (a card turned up is timed by it)."""
        self.calls: list[tuple[int, str]] = []
        """The caller's words so far: a card turned up on a pile between "discard" and "draw" is a discard."""
        self.matched = False
        self.final = False

    def _place_of(self, x: float, y: float, tr: Track, landing: object = None) -> SlotKey:
        for seat in self.layout.seats:
            pile = self.layout.slot(seat, "pile", 0).pose
            if math.hypot(pile.x - x, pile.y - y) <= PILE_MM:
                return (seat, "pile", 0)
            show = self.layout.slot(seat, "show", 0)
            if segment_distance((show.pose.x, show.pose.y), show.fan, 13, x, y) <= SHOW_MM:
                return (seat, "show", 0)
        return (self.layout.seat_of_point(x, y), "zone", 0)

    def button(self, event: TableEvent) -> None:
        """Tells the tracker a kiosk event: a new hand (it adds the piles it sees) or a call."""
        if event.type == "hand_start":
            data = dict(event.data)
            data["piles"] = {s: self.piles[s][-1] for s in self.layout.seats if self.piles.get(s)}
            self.queue.add(event.type, event.t_ns, event.err_ns, event.seat, data)
            self.matched = self.final = False
            self.calls = []
        elif event.type == "call":
            word = str(event.get("call"))
            self.calls.append((event.t_ns, word))
            if word == "draw" and self.matched:
                self.final = True

    def _discard_time(self, t_ns: int) -> bool:
        """Whether the caller's last word before ``t_ns`` was "discard"."""
        last = [w for t, w in self.calls if t <= t_ns]
        return bool(last) and last[-1] == "discard"

    def feed(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[TableEvent]:
        """Feeds one frame; returns the events that are now final, in time order."""
        if self._last_frame_ns is not None and frame.t_ns > self._last_frame_ns:
            self._frame_period = frame.t_ns - self._last_frame_ns
        self._last_frame_ns = frame.t_ns
        sightings = list(sightings)
        self._watch_backs(frame, sightings)
        landings = {ld.track: ld for ld in self.table.step(frame, sightings)}
        for tr in self.table.tracks:
            self._first_seen.setdefault(tr.tid, tr.obs[0].t_ns)
        self._turned_up_twins()
        for ld in landings.values():
            place = self._place_of(ld.x, ld.y, Track(0, ld.card))
            if place[1] == "show" and place[0] is not None:
                self._lay(place[0], ld)
        for tr in self.table.tracks:
            if not tr.resting or tr.tid in self._known:
                continue
            self._known.add(tr.tid)
            if tr.place is None or tr.place[1] != "pile" or tr.place[0] is None:
                continue
            seat = tr.place[0]
            pile = self.piles.setdefault(seat, [])
            if pile and pile[-1] == tr.card and not self._held(seat):
                # The pile's top card seen again as a new track (lost under a hand, or misread for a
                # while): it was turned up once. A new card of the same face would have followed a draw
                # or a held card laid on it.
                continue
            # A discard is turned face up where it lies: timed by when its face was first seen.
            self._turned_up(seat, tr.card, self._first_seen.get(tr.tid, tr.rest_since))
        for dep in self.departures.step(self.table, frame.t_ns):
            owner = dep.origin[0]
            if owner is not None and self.piles.get(owner, [])[-1:] == [dep.card]:
                self.piles[owner].pop()  # the card under it is the pile's top again
                self._backs.pop(owner, None)
            if dep.seat is None or owner is None or dep.seat == owner:
                continue
            self.queue.add("draw", dep.t_ns, dep.err_ns, dep.seat, {"from": owner, "card": dep.card})
        self._close_layouts(frame.t_ns - LAYOUT_QUIET_NS)
        return self.queue.release(frame.t_ns)

    def _turned_up(self, seat: str, card: str, t_ns: int) -> None:
        """A face-up card newly on ``seat``'s pile, its face first seen at ``t_ns``."""
        self.piles.setdefault(seat, []).append(card)
        self._backs.pop(seat, None)
        if self._discard_time(t_ns):
            # The face came up between the frame before and the one that first showed it.
            half = self._period() // 2
            self.queue.add("discard", t_ns - half, max(1_000_000, half), seat, {"card": card})

    def _watch_backs(self, frame: Frame, sightings: list[CardSighting]) -> None:
        """Counts the frames in which a face-down card lies on a pile with no face showing there."""
        if not any(s.card == BACK for s in sightings):
            return  # most frames: nothing face down in view, nothing to place
        near: dict[str, list[bool]] = {}
        points = self.table.calibration.to_table([s.center for s in sightings])
        for s, (x, y) in zip(sightings, points, strict=True):
            for seat in self.layout.seats:
                pile = self.layout.slot(seat, "pile", 0).pose
                if math.hypot(pile.x - x, pile.y - y) <= HELD_MM:
                    near.setdefault(seat, []).append(s.card == BACK)
        for seat, backs in near.items():
            if all(backs):
                self._backs[seat] = (self._backs.get(seat, (0, 0))[0] + 1, frame.t_ns)

    def _held(self, seat: str) -> bool:
        """Whether a face-down card has lain on ``seat``'s pile since its top card came to rest."""
        return self._backs.get(seat, (0, 0))[0] >= HELD_FRAMES

    def _turned_up_twins(self) -> None:
        """A held card turned up on a pile that has a card of its face (two decks): the top card, or
        one under it that was seen on the pile before. That card's track takes the sightings, so
        the discard is seen as that track's face showing after the face-down card covered the pile."""
        for seat in [s for s in self._backs if self._held(s)]:
            since = self._backs[seat][1]
            for tr in self.table.tracks:
                if tr.tid not in self._known or tr.place != (seat, "pile", 0):
                    continue
                after = []
                for o in reversed(tr.obs):  # only the sightings since the cover, newest first
                    if o.t_ns <= since:
                        break
                    after.append(o.t_ns)
                after.reverse()
                # Shown a while: a held card lifted to be turned over shows the top card for a moment.
                if len(after) >= HELD_FRAMES and after[-1] - after[0] >= TURNED_UP_NS:
                    self._turned_up(seat, tr.card, after[0])
                    break

    def flush(self) -> list[TableEvent]:
        """Every event still held back (call at the end of the video)."""
        self._close_layouts(1 << 62)
        return self.queue.release(None)

    def _period(self) -> int:
        """The camera's frame period, as the last two frames show it (60 fps before the second)."""
        return max(1_000_000, self._frame_period)

    def _lay(self, seat: str, landing: Landing) -> None:
        if landing.track in self._laid_tracks:
            return  # a card of the layout that a hand nudged and that came to rest again
        self._laid_tracks.add(landing.track)
        laid = self._laid.get(seat)
        if laid is None:
            # Its kind is set by its first card: a hand laid out for a match lies down before the
            # caller's next "draw" (which then starts the final round).
            laid = self._laid[seat] = _Laid("show" if self.final else "match")
            self.matched = True
        laid.cards.append(landing.card)
        laid.last_ns = max(laid.last_ns, landing.t_ns)
        laid.err_ns = landing.err_ns

    def _close_layouts(self, before_ns: int) -> None:
        for seat, laid in list(self._laid.items()):
            if laid.last_ns > before_ns:
                continue
            del self._laid[seat]
            same = [e for e in self.queue.pending if e.type == laid.kind and e.seat == seat]
            if same:
                # A card of a hand already laid out, seen late: it joins that hand.
                old = same[-1]
                self.queue.pending.remove(old)
                cards = [*old.data["cards"], *laid.cards]
                t = max(old.t_ns, laid.last_ns - self.queue.t0_ns)
                self.queue.pending.append(TableEvent(laid.kind, t, laid.err_ns, seat, {"cards": cards}))
                continue
            self.queue.add(laid.kind, laid.last_ns, laid.err_ns, seat, {"cards": list(laid.cards)})
