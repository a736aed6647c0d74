"""What the table tracker's tracks say beyond landings: cards taken off the table, cards that
appear face up in place, and the events held back until they are certain.

Glossary (tracks, rest and landings as in :mod:`vision.tracker`):

- **departure**: a face-up card that rested on a pile, moved away and was not seen again (a
  player took it into the hand, held above the table and out of the camera's view). It is told
  from a card a hand merely covered by where it was last seen: at least :data:`AWAY_MM` from
  where it rested. The player is the one whose edge it went toward.
- **arrival**: a track newly at rest: a card that landed, or one turned face up where it lies
  (a Gnoming flip, a 3-13 discard turned up on its pile), first seen already at rest.
- **event queue**: events are released in time order once they are older than the tracker's
  latency, so an event found late (a hand laid out, known complete only once no card follows)
  still goes out in its place.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from kiosk.games.referee import TableEvent
from vision.layout import TableLayout
from vision.tracker import Landing, Observation, TableTracker, Track

__all__ = [
    "Departure",
    "DepartureWatch",
    "EventQueue",
    "covered_landings",
    "segment_distance",
    "AWAY_MM",
    "GONE_NS",
]

AWAY_MM = 40.0
"""How far from its resting place a card must have been seen to count as taken away."""
PICKED_UP_NS = 150_000_000
PICKED_UP_MM = 1500.0
"""A new track of a lifted card's face, first seen within this time after it and no farther off than
this at its farthest, is the same card carried on (see :func:`_picked_up_again`)."""
GONE_NS = 300_000_000
"""How long a moving card must be unseen to count as gone from the table."""
SLOWING = 0.8
"""A card last seen faster than this share of its top speed was not coming to rest."""
CARRIED_ON_MM = 30.0
"""A track of the same face that ends this far on past where a moving card was last seen carried it on."""

SlotKey = tuple[str | None, str, int]


@dataclass(frozen=True, slots=True)
class Departure:
    """A card taken off a pile: from where, by whom (the edge it went toward) and when it left."""

    card: str
    origin: SlotKey
    seat: str | None
    t_ns: int
    err_ns: int


@dataclass
class _Lift:
    origin: SlotKey
    xy: tuple[float, float]
    t_ns: int
    err_ns: int


@dataclass
class DepartureWatch:
    """Finds the cards taken away from the slots of the given regions."""

    layout: TableLayout
    regions: frozenset[str]
    _lifted: dict[int, _Lift] = field(default_factory=dict)
    _judged: set[int] = field(default_factory=set)

    def step(self, table: TableTracker, now_ns: int) -> list[Departure]:
        """Call after each :meth:`TableTracker.step`; returns the departures now certain."""
        out: list[Departure] = []
        alive = {tr.tid: tr for tr in table.tracks}
        for tr in table.tracks:
            if tr.resting or tr.origin is None or tr.origin[1] not in self.regions:
                continue
            if tr.tid in self._lifted or tr.tid in self._judged:
                continue
            if tr.origin_xy is None:
                continue
            # The lift is known to the frame when the card was seen at rest just before it moved.
            first_moving = tr.obs[0].t_ns
            t, err = (
                (tr.lift_t, (first_moving - tr.lift_t) // 2) if tr.lift_t is not None else (first_moving, 0)
            )
            t_mid = t + err
            self._lifted[tr.tid] = _Lift(tr.origin, tr.origin_xy, t_mid, max(err, 1_000_000))
        for tid, lift in list(self._lifted.items()):
            found: Track | None = alive.get(tid)
            if found is not None and found.resting:
                # Back at rest: covered and uncovered in place, or put down somewhere on the table.
                del self._lifted[tid]
                continue
            if found is not None and now_ns - found.last.t_ns < GONE_NS:
                continue
            del self._lifted[tid]
            if found is None:
                continue
            # Where it was seen farthest from its pile says where it went (a frame's misread that joined
            # the track elsewhere does not).
            last = max(found.obs, key=lambda o: math.hypot(o.x - lift.xy[0], o.y - lift.xy[1]))
            if math.hypot(last.x - lift.xy[0], last.y - lift.xy[1]) < AWAY_MM:
                went_on = _picked_up_again(found, lift.xy, table.tracks)
                if went_on is None:
                    # Only covered where it lay (a hand over it): it may yet be seen leaving.
                    continue
                last = went_on
            self._judged.add(tid)
            seat = self.layout.direction_seat(last.x, last.y, lift.xy[0], lift.xy[1])
            out.append(Departure(found.card, lift.origin, seat, lift.t_ns, lift.err_ns))
        return out


def _picked_up_again(tr: Track, xy: tuple[float, float], tracks: list[Track]) -> Observation | None:
    """Where a card lifted from ``xy`` was seen farthest away as a new track, or None.

    A card leaving its pile gathers speed fast: with a frame's sighting missed just after the lift,
    the next one lies too far from where the track expected it, and the card goes on as a new track
    of its face, with no origin, starting farther out just after this one's last sighting.
    """
    last = tr.last
    d0 = math.hypot(last.x - xy[0], last.y - xy[1])
    for o in tracks:
        if o is tr or o.card != tr.card or o.origin is not None or o.resting:
            continue
        first = o.obs[0]
        if not 0 < first.t_ns - last.t_ns <= PICKED_UP_NS:
            continue
        if math.hypot(first.x - xy[0], first.y - xy[1]) <= max(d0, AWAY_MM):
            continue
        far = max(o.obs, key=lambda b: math.hypot(b.x - xy[0], b.y - xy[1]))
        if math.hypot(far.x - last.x, far.y - last.y) <= PICKED_UP_MM:
            return far
    return None


def covered_landings(table: TableTracker, now_ns: int, *, near_mm: float = 110.0) -> list[Landing]:
    """Cards that came down on a resting card of the same face (a Gnoming 5 discarded on a 5, a
    second copy on a 3-13 pile): the resting card's track takes the sightings of the one on top,
    so the moving track just stops being seen, right over it. Such a card landed about a frame after
    its last sighting in motion (give or take a frame, the stated err); the moving track is closed."""
    out: list[Landing] = []
    resting = [t for t in table.tracks if t.resting and t.rest_box is not None]
    for tr in table.tracks:
        if tr.resting or tr.settling or not tr.alive or len(tr.obs) < 2:
            continue
        if not GONE_NS // 3 <= now_ns - tr.last.t_ns <= GONE_NS:
            continue
        obs = _without_twins_sightings(tr, resting)
        last, prev = obs[-1], obs[-2]
        vx, vy = last.x - prev.x, last.y - prev.y
        # A twin's sightings dropped, the card was last seen up to a frame short of where it stopped.
        reach = max(near_mm, 1.5 * math.hypot(vx, vy)) if len(obs) < len(tr.obs) else near_mm
        # A card coming to rest slows down to its stop; one that is only passing over a twin (hidden
        # for a moment by the hand carrying it) still moves at its full speed.
        speeds = _speeds(obs)
        if len(speeds) >= 2 and speeds[-1] > SLOWING * max(speeds):
            continue

        scored = [
            (_off_course(r, last.x, last.y, vx, vy, reach), r)
            for r in resting
            if r.card == tr.card and r is not tr
        ]
        scored = [(d, r) for d, r in scored if d <= 20.0]
        if not scored:
            continue
        # The nearest twin on its way: the card stopped at the first one it reached (A Gnoming 6
        # slid onto pile A, with another 6 on pile B beyond it on the same line, stopped on A).
        base = min(scored, key=lambda dr: math.hypot(dr[1].rest_x - last.x, dr[1].rest_y - last.y))[1]
        if _carried_on(tr, table.tracks, near_mm):
            tr.alive = False
            continue
        first = tr.obs[0]
        if math.hypot(first.x - base.rest_x, first.y - base.rest_y) < 60.0:
            continue  # it did not come from elsewhere: a card nudged where it lies
        period = max(1, last.t_ns - prev.t_ns)
        tr.alive = False
        out.append(
            Landing(
                tr.tid,
                tr.card,
                # A frame after its last sighting in motion (or the first a twin's look-alike took):
                # merged into one look with its twin, it still slides the last few millimetres.
                # Measured on exact sightings, 30 fps, Gnoming seeds 6-11: median error -14.5 ms at
                # half a frame, -1.5 ms at a frame; within the stated err 156 -> 186 of 193 discards.
                (tr.obs[len(obs)] if len(obs) < len(tr.obs) else last).t_ns + period,
                max(1_000_000, period),
                base.rest_x,
                base.rest_y,
                tr.origin,
                tr.origin_xy,
                tr.lift_t,
                tuple((o.x, o.y) for o in tr.obs[:4]),
            )
        )
    return out


def _without_twins_sightings(tr: Track, resting: list[Track]) -> list[Observation]:
    """The moving track's sightings, less the last ones that were resting twins' own (or that no
    card could have reached, see :func:`_leap`).

    Once the card is near its twin, the two look alike: a frame may hand the moving track the
    sighting of a resting card of the same face where the track was expected next (the Gnoming 8
    on pile A, or on pile B beyond it), while the card's own sighting goes elsewhere. A sighting
    right on a resting twin, in a frame where that twin's own track got none, was the twin's.
    """
    obs = list(tr.obs)
    twins = [r for r in resting if r is not tr and r.card == tr.card]
    while len(obs) > 2:
        c = obs[-1]
        if not _leap(obs) and not any(
            math.hypot(r.rest_x - c.x, r.rest_y - c.y) <= 15.0 and not _seen_in(r, c.frame_t_ns)
            for r in twins
        ):
            break
        obs.pop()
    return obs


def _leap(obs: list[Observation]) -> bool:
    """Whether the last sighting lies where the card could not have gone: farther on than twice its
    top speed so far would take it, or well back the way it came (another card misread as its face
    for a frame, and joined to its track)."""
    speeds = _speeds(obs)
    if len(speeds) < 2:
        return False
    a, b, c = obs[-3], obs[-2], obs[-1]
    back = (c.x - b.x) * (b.x - a.x) + (c.y - b.y) * (b.y - a.y) < 0
    return speeds[-1] > 2.0 * max(speeds[:-1]) or (back and math.hypot(c.x - b.x, c.y - b.y) > AWAY_MM)


def _speeds(obs: list[Observation]) -> list[float]:
    """The card's speed (mm per ns) between each two sightings in a row."""
    return [
        math.hypot(b.x - a.x, b.y - a.y) / max(1, b.t_ns - a.t_ns) for a, b in zip(obs, obs[1:], strict=False)
    ]


def _seen_in(tr: Track, frame_t_ns: int) -> bool:
    """Whether ``tr`` has a sighting from the frame taken at ``frame_t_ns``."""
    for o in reversed(tr.obs):
        if o.frame_t_ns <= frame_t_ns:
            return o.frame_t_ns == frame_t_ns
    return False


def _carried_on(tr: Track, tracks: list[Track], near_mm: float) -> bool:
    """Whether the card went on as another moving track of its face after passing over a twin.

    Over a resting twin the moving track may take the twin's sighting (where it would be next, a
    Gnoming 8 crossing pile A's 8 on its way to pile B) while the card's own sighting starts a new
    track, which goes on after this one ends: the card did not stop here.
    """
    last, prev = tr.obs[-1], tr.obs[-2]
    vx, vy = last.x - prev.x, last.y - prev.y
    return any(
        o is not tr
        and o.card == tr.card
        and not o.resting
        and len(o.obs) >= 2
        and o.obs[0].t_ns >= last.t_ns - GONE_NS // 3
        and o.last.t_ns > last.t_ns
        and math.hypot(o.obs[0].x - last.x, o.obs[0].y - last.y) <= near_mm
        # ... and it went on, the way this one was going.
        and (o.last.x - last.x) * vx + (o.last.y - last.y) * vy >= CARRIED_ON_MM * math.hypot(vx, vy)
        for o in tracks
    )


def _off_course(r: Track, x: float, y: float, vx: float, vy: float, near_mm: float) -> float:
    """How far a resting card lies from the way a card last seen at (x, y) moving by (vx, vy) was
    heading (inf when it is not on its way, or too far)."""
    dx, dy = r.rest_x - x, r.rest_y - y
    d = math.hypot(dx, dy)
    if d <= 15.0:
        return d
    speed = math.hypot(vx, vy)
    if d > near_mm or speed < 1e-6:
        return math.inf
    along = (dx * vx + dy * vy) / speed
    return math.inf if along <= 0 else abs(dx * vy - dy * vx) / speed


class EventQueue:
    """Events held back and released in time order once older than the latency."""

    def __init__(
        self, latency_ns: int, t0_ns: int = 0, *, order: Callable[[TableEvent], tuple[int, int]] | None = None
    ) -> None:
        self.latency_ns = latency_ns
        self.t0_ns = t0_ns
        self.order: Callable[[TableEvent], tuple[int, int]] = order or (lambda e: (e.t_ns, 0))
        """The release order (time first; a game may break ties, e.g. a trick's collect after its plays)."""
        self.pending: list[TableEvent] = []
        self._released = -(1 << 62)

    def add(self, type_: str, t_ns: int, err_ns: int, seat: str | None, data: dict[str, object]) -> None:
        """Queues an event at table time ``t_ns`` (the log's time is ``t_ns - t0_ns``)."""
        self.pending.append(TableEvent(type_, t_ns - self.t0_ns, err_ns, seat, data))

    def release(self, now_ns: int | None) -> list[TableEvent]:
        """The events older than the latency at ``now_ns`` (all of them for None), in time order."""
        cut = (1 << 62) if now_ns is None else now_ns - self.latency_ns - self.t0_ns
        ready = sorted((e for e in self.pending if e.t_ns <= cut), key=self.order)
        self.pending = [e for e in self.pending if e.t_ns > cut]
        out = []
        for e in ready:
            if e.t_ns < self._released:
                # Found too late for its place: it goes out now, its uncertainty widened to cover it.
                e = TableEvent(e.type, self._released, e.err_ns + (self._released - e.t_ns), e.seat, e.data)
            self._released = e.t_ns
            out.append(e)
        return out


def segment_distance(
    start: tuple[float, float], step: tuple[float, float], count: int, x: float, y: float
) -> float:
    """Distance from a point to the line of ``count`` places spaced by ``step`` from ``start``.

    >>> segment_distance((0.0, 0.0), (10.0, 0.0), 3, 15.0, 4.0)
    4.0
    """
    sx, sy = start
    dx, dy = step[0] * (count - 1), step[1] * (count - 1)
    n2 = dx * dx + dy * dy
    u = 0.0 if n2 == 0 else max(0.0, min(1.0, ((x - sx) * dx + (y - sy) * dy) / n2))
    return math.hypot(x - (sx + u * dx), y - (sy + u * dy))
