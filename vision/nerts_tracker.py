"""The Nerts tracker: the table tracker (:mod:`vision.tracker`) taught the Nerts table.

Nerts (``rules/nerts.md`` §5, §6.1, §12): a card landing in the centre is a
``foundation_play`` by the seat whose layout it left (the seat zone it rested in, or failing
that the seat its path came from), on the pile it landed on; a card landing on a work pile is
a ``move`` (``from`` nerts, waste or a work pile; ``to`` a work pile, or ``under`` one when it
went below the base). These are the camera-level events of ``docs/table-log.md``. What the
camera cannot see directly (two cards of one face racing for a pile, a card played under the
hand, a race loser taken back) is inferred here from the landings the table tracker reports.

>>> from vision.calibration import Calibration
>>> from vision.events import Frame
>>> from vision.layout import NertsLayout
>>> t = NertsTracker(NertsLayout(["Ana", "Ben"]), Calibration.from_scale(1.0))
>>> t.feed(Frame(None, 0), [])
[]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.events import BACK, UNKNOWN, CardSighting, Frame
from vision.layout import CARD_H_MM, CARD_W_MM, NertsLayout
from vision.tracker import (
    INDEX_OFF_MM,
    MIN_FLIGHT_NS,
    REST_CREEP_NS,
    STANDARD_FACES,
    Box,
    Landing,
    TableTracker,
    Track,
    TrackerSettings,
    _area,
    _centre,
    _same_size,
    robust_shift,
)

__all__ = ["NertsTracker"]

SAME_PLAY_NS = 1_000_000_000
"""A second landing of the card a seat just played on a pile, within this time, is the same play
(:meth:`NertsTracker._merge_play`)."""
VOTE_NS = 1_000_000_000
"""How long after a landing the faces named in its card's resting box are counted (see
:meth:`NertsTracker._voted`)."""
UNSURE_STILL_NS = 120_000_000
"""How far back an unsure card's box is looked for in earlier frames to call the card still
(:meth:`NertsTracker._lay_unsure`): seven frames at 60 fps, two at 20 fps."""
PILE_FIX_AREA = (0.8, 2.2)
"""A sighting shows the whole card when its box's area is within these multiples of a card's (a card turned
a little has a larger upright box; a hand over it, a smaller one)."""
FLIGHT_SCORE = 0.6
"""Least score of a sighting that says the pile's next card is arriving."""
FLIGHT_READ_NS = 400_000_000
"""How long after the pile's next card was last named over a foundation pile an unsure card come there is
read as that card (:meth:`NertsTracker._read_as_expected`): its flight is a reading too. The recognizer
reads some faces of a design it was not trained on well in flight, by a corner index, and not at rest on
the pile (13 held-out hands, video model: four of the 23 plays missed were such cards, seen by their index
17 to 33 mm from the pile's centre 17 to 133 ms before their unsure readings there began; with this
reading 294 of 310 plays were right, 287 before, and 15 false events, 16 before)."""
WHOLE_SHARE = 0.6
"""A resting box under this share of a card's area shows only part of the card (the end of one slid under a
pile, beyond its base)."""
READ_WINDOW = 10
"""Unsure readings kept per foundation pile (:meth:`NertsTracker._read_as_expected`)."""
READ_SPAN_NS = 500_000_000
"""How old the readings kept may be."""
READ_SHARE = 0.6
"""Share of the readings that must name the pile's next card first."""
READ_MIN = 5
"""Readings needed before an unsure card is read as the pile's next."""
READ_MEAN = 0.35
"""Least mean probability of the pile's next card over the readings."""
UNSURE_STILL_FRAMES = 2
"""In how many of those frames it must lie where it lies now, at frame periods over :data:`FAST_FRAME_NS`;
one at shorter ones. A view read so weighs more in a track seen at fewer frames: at 20 fps (the kiosk's
seed 2) Cal's 5S, read unsure once, whole, between views of its index 40 mm off, kept its track moving,
and the play it had made was lost; at 60 fps two frames lost two plays of 299 on the 13 held-out hands."""
FAST_FRAME_NS = 25_000_000
"""A frame period this short or shorter (40 fps and faster) needs one earlier still view of an unsure card
(:data:`UNSURE_STILL_FRAMES`)."""


@dataclass
class _Pile:
    pid: str
    x: float
    y: float
    cards: list[tuple[str, str]] = field(default_factory=list)
    """(card, seat) from the bottom up."""
    landed_ns: list[int] = field(default_factory=list)
    """When each of its last ``len(landed_ns)`` cards landed, from the bottom up (a resumed game's cards have
    no time)."""
    rough: bool = False
    """Placed where its first card's corner index rested (the card seen by it alone), up to half a card's
    diagonal off the card's centre: moved to the card when it shows whole (see
    :meth:`NertsTracker._locate_piles`)."""

    @property
    def top_t_ns(self) -> int:
        """When its top card landed (tracker time; far in the past when unknown: a resumed game's pile)."""
        return self.landed_ns[-1] if self.landed_ns else -(1 << 62)

    def top_at(self, t_ns: int) -> tuple[str, str] | None:
        """The card that was its top at ``t_ns``, or None when the landings known do not tell.

        >>> p = _Pile("F1", 0, 0, [("4S", "Ana"), ("5S", "Ben")], landed_ns=[100, 200])
        >>> p.top_at(150), p.top_at(250), p.top_at(50)
        (('4S', 'Ana'), ('5S', 'Ben'), None)
        """
        for k in range(1, len(self.landed_ns) + 1):
            if self.landed_ns[-k] <= t_ns:
                return self.cards[-k]
        return None


class NertsTracker:
    """Turns a Nerts table's frames and sightings into ``foundation_play`` and ``move`` events.

    ``feed`` returns the events that became final (in time order, at most ``latency_ns`` late);
    ``flush`` returns the rest at the end of the video.
    """

    def __init__(
        self,
        layout: NertsLayout,
        calibration: Calibration,
        settings: TrackerSettings | None = None,
        *,
        t0_ns: int = 0,
        min_score: float = 0.0,
        jokers: bool = False,
        piles: Mapping[str, str] | None = None,
    ) -> None:
        self.layout = layout
        self.settings = settings or TrackerSettings()
        labels = frozenset(STANDARD_FACES + (("JOKER",) if jokers else ()))
        self.table = TableTracker(layout, calibration, self.settings, min_score=min_score, labels=labels)
        self.t0_ns = t0_ns
        self.piles: list[_Pile] = []
        self._unplaced = [_Pile(pid, math.nan, math.nan, [(top, "")]) for pid, top in (piles or {}).items()]
        """Foundation piles of a resumed game (``piles``: id -> top card), already on the table but not
        yet located: each is placed where the first card that fits it lands, keeping its logged id."""
        self._piles_made = len(self._unplaced)
        self._pending: list[TableEvent] = []
        self._released_t = -(1 << 62)
        self._where: dict[int, tuple[float, float, int]] = {}
        self._named: deque[tuple[int, list[tuple[str, Box]]]] = deque()
        """Each recent frame's time and named sightings (face and box), for :meth:`_voted`."""
        self.landings: list[tuple[Landing, TableEvent | None]] = []
        """Every landing seen and the event it made (None when it made none), for diagnostics."""
        self._pile_reads: dict[str, deque[tuple[int, tuple[tuple[str, float], ...]]]] = {}
        """Each pile's recent unsure readings (:meth:`_read_as_expected`): time and likeliest faces."""
        self._unsure_boxes: deque[tuple[int, list[Box]]] = deque()
        """Each recent frame's time and the boxes of its unsure sightings the size of a card."""
        self._arriving: dict[str, tuple[str, int, float]] = {}
        """Each pile's next card last named over it (:meth:`_note_arrivals`): face, time and score."""
        self._nerts_tops: dict[str, str] = {}
        """The card last reported on top of each seat's Nerts pile (:meth:`_watch_nerts_tops`)."""
        self._back_checked: set[int] = set()
        """Tracks already looked at by :meth:`_back_unseen`."""
        self._relanded: list[tuple[_Pile, str, int, int]] = []
        """Foundation tops seen landing again on their pile (:meth:`_race_lost`): pile, face, time and err."""
        self._taken_from: dict[int, TableEvent] = {}
        """A race winner's play made from its loser's (:meth:`_play_taken_back`), by id: the loser's play."""
        self.table.place_of = self._place_of  # type: ignore[method-assign]

    # -- places --------------------------------------------------------------------------------
    def _place_of(
        self, x: float, y: float, tr: Track, landing: Landing | None = None
    ) -> tuple[str | None, str, int]:
        seat = self.layout.seat_of_point(x, y)
        if seat is None:
            pile = self._pile_at(x, y)
            return (None, pile.pid if pile else "centre", 0)
        return TableTracker.place_of(self.table, x, y, tr)

    def _pile_at(self, x: float, y: float) -> _Pile | None:
        best, best_d = None, 45.0
        for p in self.piles:
            d = math.hypot(p.x - x, p.y - y)
            if d < best_d:
                best, best_d = p, d
        return best

    def _fitting_pile_near(
        self, x: float, y: float, card: str, fits: Callable[[_Pile, str], bool] | None = None
    ) -> _Pile | None:
        """The nearest pile within a card's length that ``card`` may go on (or ties with); with ``fits``,
        one that passes that test instead (:func:`_may_follow`: if a play or two onto it went unseen)."""
        test = fits or _fits
        best, best_d = None, CARD_H_MM
        for p in self.piles:
            d = math.hypot(p.x - x, p.y - y)
            if d < best_d and p.cards and test(p, card):
                best, best_d = p, d
        return best

    # -- frames ---------------------------------------------------------------------------------
    def feed(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[TableEvent]:
        """Feeds one frame's sightings; returns events that are now final."""
        sightings = list(sightings)
        # Only the recognizer's own names vote on a landed card's face (:meth:`_voted`): a card read as its
        # pile's next one is what the pile expects, no evidence against the card that landed there.
        named = [(s.card, s.box) for s in sightings if s.card not in (UNKNOWN, BACK)]
        self._named.append((frame.t_ns, named))
        while self._named and self._named[0][0] < frame.t_ns - self.settings.latency_ns - VOTE_NS:
            self._named.popleft()
        self._locate_piles(sightings)
        for landing in self.table.step(frame, self._read_as_expected(frame.t_ns, sightings)):
            event = self._interpret(landing)
            self.landings.append((landing, event))
            if event is not None:
                self._add(event, landing)
        self._back_unseen()
        self._watch_nerts_tops(frame.t_ns)
        return self._release(frame.t_ns - self.settings.latency_ns)

    def _watch_nerts_tops(self, now_ns: int) -> None:
        """Queues a ``nerts_top`` event when a new card has settled on top of a seat's Nerts pile: the
        card before it has left, even when the camera lost it on its way (rules §12: count Nerts cards as
        they leave). The new card must have rested there for :data:`NERTS_TOP_NS` over
        :data:`NERTS_TOP_OBS` sightings or more, be seen there still, and the top reported before must
        not have been seen lying there since it came: a top misread for a few frames is still seen between,
        while one seen moving off after the new card showed is leaving (it may be slid under a work pile
        out of sight, its move unseen)."""
        fresh: dict[str, Track] = {}
        for tr in self.table.tracks:
            place = tr.place
            if not tr.resting or place is None or place[1] != "nerts" or place[0] is None:
                continue
            if tr.card == self._nerts_tops.get(place[0]) or now_ns - tr.last.t_ns > NERTS_TOP_SEEN_NS:
                continue
            at_rest = sum(o.t_ns >= tr.rest_since for o in tr.obs)
            if now_ns - tr.rest_since < NERTS_TOP_NS or at_rest < NERTS_TOP_OBS:
                continue
            best = fresh.get(place[0])
            if best is None or tr.last.t_ns > best.last.t_ns:
                fresh[place[0]] = tr
        for seat, tr in fresh.items():
            before = self._nerts_tops.get(seat)
            old = [t for t in self.table.tracks if t.card == before and t.place == tr.place and t.resting]
            if any(t.last.t_ns > tr.rest_since for t in old):
                continue
            self._nerts_tops[seat] = tr.card
            self._pending.append(
                TableEvent("nerts_top", tr.rest_since - self.t0_ns, 0, seat, {"card": tr.card})
            )

    def _rests_by_index(self, landing: Landing) -> bool:
        """Whether a landing's card rests seen by its corner index alone (its place is the index's)."""
        tr = next((t for t in self.table.tracks if t.tid == landing.track), None)
        return tr is not None and tr.rest_box is not None and _area(tr.rest_box) < self.table.min_box_px2

    def _locate_piles(self, sightings: list[CardSighting]) -> None:
        """A pile placed where its first card's corner index rested (:attr:`_Pile.rough`) moved to where that
        card first shows whole: the index lies up to half a card's diagonal off the card's centre, and the
        next card, seen at rest the same way, would lie too far off to be found on the pile. A sighting
        counts for the pile nearest it, topped by its face and within half a card's diagonal; once."""
        tops = {p.cards[-1][0] for p in self.piles if p.rough and p.cards}
        if not tops:
            return
        # The whole card: a box about a card's area (the recognizer seldom finds a small card's outline).
        lo, hi = (share * self.table.card_px2 for share in PILE_FIX_AREA)
        whole = [s for s in sightings if s.card in tops and lo <= _area(s.box) <= hi]
        if not whole:
            return
        points = self.table.calibration.to_table([s.center for s in whole])
        for s, (x, y) in zip(whole, points, strict=True):
            near = min(self.piles, key=lambda p: math.hypot(p.x - x, p.y - y))
            on_it = near.rough and near.cards and near.cards[-1][0] == s.card
            if on_it and math.hypot(near.x - x, near.y - y) <= INDEX_OFF_MM:
                near.x, near.y, near.rough = x, y, False

    def _note_arrivals(self, t_ns: int, sightings: list[CardSighting]) -> None:
        """Remembers, for each foundation pile, when its next card was last named surely over it (its
        nearest pile, within :meth:`_pile_at`'s reach), for :meth:`_read_as_expected`."""
        wanted = {n for p in self.piles if p.cards and (n := _next_in_suit(p.cards[-1][0])) is not None}
        seen = [s for s in sightings if s.card in wanted and s.score >= FLIGHT_SCORE]
        if not seen:
            return
        points = self.table.calibration.to_table([s.center for s in seen])
        for s, (x, y) in zip(seen, points, strict=True):
            pile = self._pile_at(x, y)
            if pile is not None and pile.cards and _next_in_suit(pile.cards[-1][0]) == s.card:
                self._arriving[pile.pid] = (s.card, t_ns, s.score)

    def _read_as_expected(self, t_ns: int, sightings: list[CardSighting]) -> list[CardSighting]:
        """``UNKNOWN`` sightings on a foundation pile, read as the card the pile takes next when

        - the recognizer's unsure readings there over the last frames (:attr:`CardSighting.alternatives`)
          name that card: first in most of them (:data:`READ_SHARE`), with a fair mean probability
          (:data:`READ_MEAN`) and twice the pile's top card's; or
        - that card was named surely over the pile moments before (:data:`FLIGHT_READ_NS`) and is named
          surely nowhere in this frame, and the unsure card is the size of a card and lies still
          (:meth:`_lay_unsure`): the card flew in read and lies there unread. Each such reading renews
          the memory, so the card stays read while it lies unread on top.

        Only one face may go on a pile next, so the question is narrower than naming a card: is it that
        one? A card read so makes a play only as any card first seen at rest does (a face that vanished
        from a layout, or a slide in the pixels), and a card misread for the next one lying still on the
        pile makes none."""
        self._note_arrivals(t_ns, sightings)
        while self._unsure_boxes and self._unsure_boxes[0][0] < t_ns - UNSURE_STILL_NS:
            self._unsure_boxes.popleft()
        unsure = [s for s in sightings if s.card == UNKNOWN]
        lo, hi = (share * self.table.card_px2 for share in PILE_FIX_AREA)
        if not unsure or not self.piles:
            return sightings
        read: dict[int, CardSighting] = {}
        points = self.table.calibration.to_table([s.center for s in unsure])
        for s, (x, y) in zip(unsure, points, strict=True):
            pile = self._pile_at(x, y)
            if pile is None or not pile.cards:
                continue
            top = pile.cards[-1][0]
            nxt = _next_in_suit(top)
            if nxt is None:
                continue
            arrived = self._arriving.get(pile.pid)
            if (
                arrived is not None
                and arrived[0] == nxt
                and t_ns - arrived[1] <= FLIGHT_READ_NS
                and lo <= _area(s.box) <= hi
                and self._lay_unsure(s.box, t_ns)
                and not any(o.card == nxt and o.score >= FLIGHT_SCORE for o in sightings)
            ):
                self._arriving[pile.pid] = (nxt, t_ns, arrived[2])
                read[id(s)] = self._as_last_seen(replace(s, card=nxt, score=arrived[2]), pile, t_ns)
                continue
            if not s.alternatives:
                continue
            reads = self._pile_reads.setdefault(pile.pid, deque(maxlen=READ_WINDOW))
            reads.append((t_ns, s.alternatives))
            while reads and reads[0][0] < t_ns - READ_SPAN_NS:
                reads.popleft()
            n = len(reads)
            if n < READ_MIN:
                continue
            mean = sum(p for _, alts in reads for f, p in alts if f == nxt) / n
            mean_top = sum(p for _, alts in reads for f, p in alts if f == top) / n
            first = sum(1 for _, alts in reads if alts[0][0] == nxt)
            if first >= READ_SHARE * n and mean >= READ_MEAN and mean >= 2 * mean_top:
                read[id(s)] = replace(s, card=nxt, score=mean)
        self._unsure_boxes.append((t_ns, [s.box for s in unsure if lo <= _area(s.box) <= hi]))
        return [read.get(id(s), s) for s in sightings] if read else sightings

    def _lay_unsure(self, box: Box, t_ns: int) -> bool:
        """Whether an unsure card's box lay where it is in an earlier frame of the last
        :data:`UNSURE_STILL_NS` (two, under 40 fps: :data:`UNSURE_STILL_FRAMES`): a card at rest, not one
        sliding in unread (seed 14's race: Dee's 3C, sliding onto Cal's just landed and read as it, fed
        Cal's track and was lost as a play)."""
        tol = 2 * self.table.rest_px
        still = {
            t
            for t, boxes in self._unsure_boxes
            for b in boxes
            if t_ns - UNSURE_STILL_NS <= t < t_ns
            and _same_size(b, box, 0.15)
            and math.hypot(*robust_shift(b, box)) <= tol
        }
        period = self.table.period_ns or 0
        return len(still) >= (1 if period <= FAST_FRAME_NS else UNSURE_STILL_FRAMES)

    def _as_last_seen(self, s: CardSighting, pile: _Pile, t_ns: int) -> CardSighting:
        """An unsure sighting read as the card whose track was last seen on ``pile`` lately, given that
        track's last box when the two boxes are of a size and near: the card still lies as it was last
        read. The recognizer's unsure box (the card's outline, not read by its index) differs from the box
        it gave the card read by its index by pixels, and a track fed the two in turn seems to move (seed
        6's Ana 6H, judged landed 280 ms late, on a pile beside its own)."""
        here = [
            tr
            for tr in self.table.tracks
            if tr.card == s.card
            and tr.alive
            and t_ns - tr.last.t_ns <= FLIGHT_READ_NS
            and self._pile_at(tr.last.x, tr.last.y) is pile
        ]
        if not here:
            return s
        box = max(here, key=lambda tr: tr.last.t_ns).last.box
        if not _same_size(box, s.box, 0.3) or math.hypot(*robust_shift(box, s.box)) > 2 * self.table.rest_px:
            # Not the card's box as last seen (its corner index, or the card further on its way: seed 7's
            # Cal 7C, read unsure while it slid on, was judged landed 160 ms early when fed its last box).
            return s
        return replace(s, box=box, quad=None)

    def _add(self, event: TableEvent, landing: Landing) -> None:
        """Queues an event; the cards of one block moved together make one ``move`` (§6, M6)."""
        if event.type == "move":
            for k, other in enumerate(self._pending):
                if (
                    other.type == "move"
                    and other.seat == event.seat
                    and other.get("from") == event.get("from")
                    and other.get("to") == event.get("to")
                    and abs(other.t_ns - event.t_ns) < 250_000_000
                ):
                    keep = other if _rank(str(other.get("card"))) >= _rank(str(event.get("card"))) else event
                    merged = TableEvent(
                        "move",
                        min(other.t_ns, event.t_ns),
                        max(other.err_ns, event.err_ns),
                        event.seat,
                        dict(keep.data),
                    )
                    self._where[id(merged)] = self._where.pop(
                        id(other), (landing.x, landing.y, landing.track)
                    )
                    if keep is event:
                        self._where[id(merged)] = (landing.x, landing.y, landing.track)
                    self._pending[k] = merged
                    return
        self._where[id(event)] = (landing.x, landing.y, landing.track)
        self._pending.append(event)

    def _block_bottom(self, event: TableEvent) -> TableEvent | None:
        """A block's bottom card is often covered by the rest of the block in the air, so it is
        first seen already at rest on the destination: take it from there. None for a move between work
        piles whose bottom card is not known (see below)."""
        where3 = self._where.pop(id(event), None)
        if where3 is None:
            return event
        if not str(event.get("from", "")).startswith("work"):
            return event
        to = str(event.get("to", ""))
        if not to.startswith("work"):
            return event
        dest = (event.seat, "work", int(to[4:]))
        mine_tr = next((t for t in self.table.tracks if t.tid == where3[2]), None)
        if mine_tr is None or mine_tr.rest_box is None or dest not in self.layout.slots:
            return event
        # Compared on the far edges, which the fan does not cover (see _is_under).
        step = math.hypot(*self.layout.slots[dest].fan)
        mine = self._far_edge(dest, mine_tr.rest_box)
        t_abs = event.t_ns + self.t0_ns
        origin = (event.seat, "work", int(str(event.get("from"))[4:]))
        # Down the fan one step at a time: each card below is one rank higher (a block is a run, M6).
        card = str(event.get("card"))
        found: Track | None = None
        while True:
            below = [
                tr
                for tr in self.table.tracks
                if tr.resting
                and tr.rest_box is not None
                and tr.place == dest
                and abs(tr.rest_since - t_abs) < BLOCK_NEW_NS
                and abs(self._far_edge(dest, tr.rest_box) - (mine - step)) < 0.5 * step
                and _rank(tr.card) == _rank(card) + 1
                and self._left(tr, origin, t_abs)
            ]
            if not below:
                break
            found = min(below, key=lambda tr: self._far_edge(dest, tr.rest_box or (0, 0, 0, 0)))
            card = found.card
            mine = self._far_edge(dest, found.rest_box or (0, 0, 0, 0))
        if found is None:
            # No card of the block seen below the top one: a single card when it lies on a card one rank
            # higher that did not come with it (the pile's old top), or is the pile's base; otherwise a
            # block whose bottom card went unseen. A move named by the block's top card would be a false
            # move, and the referee's layouts need no work-pile moves (the camera does not see the deal):
            # no event.
            base = mine + CARD_H_MM / 2
            onto = any(
                tr.resting
                and tr.rest_box is not None
                and tr.place == dest
                and not self._left(tr, origin, t_abs)
                and abs(self._far_edge(dest, tr.rest_box) - (mine - step)) < 0.5 * step
                and _rank(tr.card) == _rank(card) + 1
                for tr in self.table.tracks
            )
            return event if onto or abs(base) < 0.5 * step else None
        return TableEvent("move", event.t_ns, event.err_ns, event.seat, {**event.data, "card": found.card})

    def flush(self) -> list[TableEvent]:
        """Every event still held back (call at the end of the video)."""
        return self._release(1 << 62)

    def _release(self, before_ns: int) -> list[TableEvent]:
        cut = before_ns - self.t0_ns
        ready = [e for e in self._pending if e.t_ns <= cut]
        if not ready:
            return []
        self._pending = [e for e in self._pending if e.t_ns > cut]
        for e in ready:
            self._taken_from.pop(id(e), None)  # (an id is only unique while its event lives)
        ready.sort(key=lambda e: e.t_ns)
        out = []
        for e in ready:
            e = self._voted(e)
            if e.type == "move":
                bottom = self._block_bottom(e)
                if bottom is None:
                    continue
                e = bottom
            # The log never goes back in time: a late-judged landing keeps its order by a nanosecond.
            if e.t_ns < self._released_t:
                e = TableEvent(
                    e.type, self._released_t, e.err_ns + (self._released_t - e.t_ns), e.seat, e.data
                )
            self._released_t = e.t_ns
            out.append(e)
        return out

    def _voted(self, e: TableEvent) -> TableEvent:
        """The event, with its card renamed to the face named most often in the box where the card came to
        rest in the second after it landed (until the next card landed there), when that face was named
        there more than twice as often as the event's own face, and five times or more: the recognizer
        names a card wrong now and then, sometimes for many frames on end, and a track follows one name.
        """
        own = str(e.get("card"))
        counts = self._face_counts(e)
        face, most = max(counts.items(), key=lambda kv: kv[1], default=(own, 0))
        if face == own or most < 5 or most <= 2 * counts.get(own, 0):
            return e
        if e.type == "foundation_play" and not self._renaming_fits(e, own, face):
            # The pile takes the card the track followed, not the face read more often since: that reading
            # is a misread (seed 3's Dee 6H, read 4H at rest on the 5H it went on, became a false play).
            return e
        if e.type == "foundation_play":
            for pile in self.piles:
                if pile.pid == e.get("pile") and pile.cards and pile.cards[-1] == (own, e.seat or ""):
                    pile.cards[-1] = (face, e.seat or "")
        renamed = TableEvent(e.type, e.t_ns, e.err_ns, e.seat, {**e.data, "card": face})
        self._where[id(renamed)] = self._where.pop(id(e))
        return renamed

    def _face_counts(self, e: TableEvent) -> dict[str, int]:
        """How often each face was named in the box where the event's card came to rest, in the second after
        it landed (until the next card landed there), leaving out faces named there before it landed (the
        card it covers, still showing round its edges) unless its own; empty when its resting box is not
        known."""
        where = self._where.get(id(e))
        tr = next((t for t in self.table.tracks if where is not None and t.tid == where[2]), None)
        if where is None or tr is None or tr.rest_box is None:
            return {}
        box, own = tr.rest_box, str(e.get("card"))
        tol = 2 * self.table.rest_px
        t0 = e.t_ns + self.t0_ns
        t1 = t0 + VOTE_NS
        for landing, _ in self.landings:
            near = math.hypot(landing.x - where[0], landing.y - where[1]) < CARD_H_MM / 2
            if near and t0 < landing.t_ns < t1:
                t1 = landing.t_ns  # the next card put there covers it
        counts: dict[str, int] = {}
        before: set[str] = set()
        for t, named in reversed(self._named):
            if t < t0 - VOTE_NS // 2:
                break
            if t <= t1:
                for card, b in named:
                    if (
                        min(abs(b[0] - box[0]), abs(b[2] - box[2])) <= tol  # a quick test first: most are far
                        and min(abs(b[1] - box[1]), abs(b[3] - box[3])) <= tol
                        and math.hypot(*robust_shift(box, b)) <= tol
                        and _same_size(box, b, 0.15)
                    ):
                        if t < t0:
                            before.add(card)
                        else:
                            counts[card] = counts.get(card, 0) + 1
        # A face named there before it landed is the card it covers, still showing round its edges.
        return {card: c for card, c in counts.items() if card == own or card not in before}

    def _recoloured_top(self, pile: _Pile, card: str) -> bool:
        """Whether a card that does not fit its pile fits once the pile's top, played moments ago (its event
        not yet released), is renamed to the same rank in the card's suit, a face named at least once where
        that top rests: the top was that face, misread in its suit (seed 2's Ben AH, read AD in most frames
        and AH in one; Ana's 2H on it was dropped as a misread). The top is then renamed, and True returned.
        """
        if not pile.cards:
            return False
        top, seat = pile.cards[-1]
        r = _rank(top)
        if r == 0 or r != _rank(card) - 1 or top[-1] == card[-1] or card[-1] not in "CDHS":
            return False
        face = _RANK_NAMES.get(r, str(r)) + card[-1]
        k = next(
            (
                k
                for k in range(len(self._pending) - 1, -1, -1)
                if self._pending[k].type == "foundation_play"
                and self._pending[k].get("pile") == pile.pid
                and (self._pending[k].get("card"), self._pending[k].seat or "") == (top, seat)
            ),
            None,
        )
        if k is None:
            return False
        e = self._pending[k]
        if self._face_counts(e).get(face, 0) < 1 or not self._renaming_fits(e, top, face):
            return False
        renamed = TableEvent(e.type, e.t_ns, e.err_ns, e.seat, {**e.data, "card": face})
        self._where[id(renamed)] = self._where.pop(id(e))
        self._pending[k] = renamed
        pile.cards[-1] = (face, seat)
        return True

    def _renaming_fits(self, e: TableEvent, own: str, face: str) -> bool:
        """Whether renaming a play of ``own`` to ``face`` keeps it a card its pile takes, and the card played
        on it since one that goes on it, or ``own`` was none either (§6 M3, M4: an Ace starts a pile, a card
        one rank higher of its suit goes on it; a race twin ties with the top)."""
        pile = next((p for p in self.piles if p.pid == e.get("pile")), None)
        if pile is None:
            return True
        at = [i for i, c in enumerate(pile.cards) if c == (own, e.seat or "")]
        below = pile.cards[: at[-1]] if at else pile.cards
        before = _Pile(pile.pid, pile.x, pile.y, list(below))
        if not (_fits(before, face) or not _fits(before, own)):
            return False
        if at and at[-1] + 1 < len(pile.cards):
            above = pile.cards[at[-1] + 1][0]
            on_face = _Pile(pile.pid, pile.x, pile.y, [*below, (face, e.seat or "")])
            on_own = _Pile(pile.pid, pile.x, pile.y, [*below, (own, e.seat or "")])
            return _fits(on_face, above) or not _fits(on_own, above)
        return True

    # -- interpretation ---------------------------------------------------------------------------
    def _seat_of(self, landing: Landing) -> str | None:
        if landing.origin is not None and landing.origin[0] is not None:
            return landing.origin[0]
        pts = landing.path
        if landing.origin_xy is not None:
            seat = self.layout.seat_of_point(*landing.origin_xy)
            if seat is not None:
                return seat
        if pts:
            seat = self.layout.seat_of_point(*pts[0])
            if seat is not None:
                return seat
            if len(pts) >= 2:
                return self.layout.direction_seat(pts[0][0], pts[0][1], landing.x, landing.y)
            return self.layout.direction_seat(pts[0][0], pts[0][1], landing.x, landing.y)
        return None

    @staticmethod
    def _source_name(origin: tuple[str | None, str, int] | None) -> str | None:
        if origin is None or origin[0] is None:
            return None
        if origin[1] in ("nerts", "waste"):
            return origin[1]
        if origin[1] == "work":
            return f"work{origin[2]}"
        return None

    def _place_known(self, landing: Landing) -> _Pile | None:
        """The one not-yet-located pile of a resumed game that this card continues, now placed here."""
        fits = [p for p in self._unplaced if _fits(p, landing.card) and p.cards[-1][0] != landing.card]
        if len(fits) != 1:
            return None  # none, or ambiguous: better a refused play than a play on the wrong pile
        pile = fits[0]
        pile.x, pile.y = landing.x, landing.y
        self._unplaced.remove(pile)
        self.piles.append(pile)
        return pile

    def _interpret(self, landing: Landing) -> TableEvent | None:
        seat_here = self.layout.seat_of_point(landing.x, landing.y)
        seat = self._seat_of(landing)
        t = landing.t_ns - self.t0_ns
        if seat_here is None:
            if landing.origin is not None and landing.origin[0] is None:
                # A card moved within the centre (straightened, or a taken-back card): no play. The top of its
                # own pile landing again there, timed from the pixels, may be a race's other card whose
                # sightings its track took: kept for :meth:`_race_lost`.
                pile = self._pile_at(landing.x, landing.y)
                if (
                    pile is not None
                    and pile.pid == landing.origin[1]
                    and pile.cards
                    and pile.cards[-1][0] == landing.card
                    and landing.err_ns <= TWIN_ERR_NS
                ):
                    self._relanded.append((pile, landing.card, landing.t_ns, landing.err_ns))
                    del self._relanded[:-RELANDED_KEPT]
                return None
            pile = self._pile_at(landing.x, landing.y)
            if not _fits(pile, landing.card):
                # Placed from a partial view (a hand over the card), its centre may lie off its pile:
                # a nearby pile the card fits is where it went (only an Ace starts a new one, §6 M3).
                pile = self._fitting_pile_near(landing.x, landing.y, landing.card) or pile
            if not _fits(pile, landing.card):
                pile = self._place_known(landing) or pile
            if not _fits(pile, landing.card) and _rank(landing.card) != 1:
                # Nor one it fits but for a play or two gone unseen (a camera at 20 fps sees little of a
                # flight; seed 9's Cal 6S, landing 46 mm off his 4S pile whose 5S went unseen, made a pile of
                # its own, and every spade after it was refused): a card but an Ace starts no pile.
                pile = self._fitting_pile_near(landing.x, landing.y, landing.card, _may_follow) or pile
            if pile is not None and not _may_follow(pile, landing.card):
                self._recoloured_top(pile, landing.card)
            tied = pile is not None and bool(pile.cards) and pile.cards[-1][0] == landing.card
            # A card of the top's face from a pile of another seat's layout (it left there, its flight
            # unseen), seen sliding in (its landing timed within TWIN_ERR_NS) within a second of the top is
            # a race's later card, not the top seen again (seed 8's Ana 2C from her Nerts pile, 355 ms after
            # Ben's on the AC, timed to 3 ms from the pixels, was dropped). Not when that seat has just played
            # a card of that face: a seat holds one. Nor a landing timed loosely: no slide seen, and the
            # card it was joined to may be another (the kiosk's seed 2: Ana's 7H, joined to Dee's, 643 ms);
            # nor one landing with the top but for its err: the top's own landing seen again (seed 12's Cal
            # AS, again as Ben's 1 ms after). (It may land before the top, judged later: seed 9's Dee 4C.)
            if (
                tied
                and pile is not None
                and landing.origin is not None
                and landing.err_ns <= TWIN_ERR_NS
                and pile.cards[-1][1] == landing.origin[0]
            ):
                self._loser_restored(pile, landing)
            twin = (
                tied
                and pile is not None
                and landing.origin is not None
                and landing.origin[0] is not None
                and landing.origin[1] in ("nerts", "waste", "work")
                and landing.origin[0] != pile.cards[-1][1]
                and landing.err_ns < abs(landing.t_ns - pile.top_t_ns) < SAME_PLAY_NS
                and landing.err_ns <= TWIN_ERR_NS
                and not any(
                    e.type == "foundation_play"
                    and e.seat == landing.origin[0]
                    and e.get("card") == landing.card
                    and id(e) not in self._taken_from
                    for e in self._pending
                )
            )
            if not landing.seen_moving and not twin and (tied or not _may_follow(pile, landing.card)):
                # A card seen only at rest must fit the pile: otherwise it is more likely a misread.
                # Nor does it tie with the top (a race twin lands within a few frames of the other,
                # and in sight): it is that top card seen again, a second sighting of one card. Seen resting
                # clearly farther on than the play put it, that view times the play better when it claims
                # less error: the play's was the card held still under the hand, short of its rest (seed 5's
                # Cal 5S, 34 mm short and 166 ms early).
                if tied and pile is not None:
                    self._merge_play(pile, landing, moved_on=True)
                return None
            stale_tie = tied and pile is not None and landing.t_ns - pile.top_t_ns >= SAME_PLAY_NS
            if stale_tie and self._rests_by_index(landing):
                # Come to rest on a pile whose top, played a second or more before, is a card of its face,
                # and seen there only by a corner index: that top's index, taken by a card of its face
                # flying over the pile (seed 5's Ben 5D, on its way to F1, "landed" on Ana's 5D on F3).
                return None
            # A card that may follow the pile (a play or two under it unseen) and is on no pile yet is no old
            # foundation card uncovered (seed 9 at 20 fps: Ana's 3D, seen only in the last frames of its
            # flight onto the AD whose 2D went unseen, was taken for one, and every diamond after it lost).
            if (
                landing.origin is None
                and landing.path
                and (stale_tie or not (_fits(pile, landing.card) or self._new_face_for(pile, landing.card)))
            ):
                x0, y0 = landing.path[0]
                near = math.hypot(landing.x - x0, landing.y - y0) < CARD_H_MM
                if near and self.layout.seat_of_point(x0, y0) is None:
                    # Seen first in the centre, a short way off, from no seat's layout, and not fitting
                    # the pile: an old foundation card uncovered as the cards over it moved, not a play. So
                    # too the pile's top card itself, played a second or more before (a race twin lands
                    # within a moment of it): seen again, its box shifting as a hand or a card covers a side.
                    return None
            if pile is None and _rank(landing.card) != 1 and self._index_by_own_layout(landing):
                # Only an Ace starts a pile. Seen by its corner index alone, up to half a card's diagonal off
                # its centre, beside the layout it came from: the card went into that layout, not onto the
                # foundations (the kiosk's table, seed 1: Cal's 7S slid under his work pile 4, its index
                # showing over the centre's edge, was refused as "cannot start a foundation").
                return None
            if pile is None:
                self._piles_made += 1
                rough = self._rests_by_index(landing)
                pile = _Pile(f"F{self._piles_made}", landing.x, landing.y, rough=rough)
                self.piles.append(pile)
            if landing.origin is None:
                # Its seat was guessed from its path (a few millimetres seen, or a direction): a card of
                # its face that vanished from one seat's layout just before tells better.
                vanished = self._last_in_layouts(landing.card, landing.t_ns, VANISHED_SEAT_NS)
                if len(vanished) == 1:
                    seat = next(iter(vanished))
            if seat is None:
                return None
            if (
                pile.cards
                and pile.cards[-1] == (landing.card, seat)
                and abs(landing.t_ns - pile.top_t_ns) < SAME_PLAY_NS
                and self._merge_play(pile, landing)
            ):
                # The card this seat just played here, followed by a second track (its corner index and its
                # outline in turn, 40 mm apart): one play (a seat holds one card of each face), timed by the
                # track that tells it better.
                return None
            if (
                pile.cards
                and pile.cards[-1] == (landing.card, seat)
                and landing.t_ns - pile.top_t_ns >= SAME_PLAY_NS
                and landing.card != "JOKER"
            ):
                # Landing a second or more after this seat's card of its face became the pile's top: that
                # card seen again (a hand over it shifted its boxes), not a play: a seat holds one card of
                # each face (a joker aside: two may be dealt), and a card taken back after losing a race
                # could not go on a card of its face (a fresh hand, seed 16: Ben's 2S "played" again on
                # itself 1.5 s later).
                return None
            if (
                landing.origin is None
                and pile.cards
                and pile.cards[-1][0] == landing.card
                and abs(landing.t_ns - pile.top_t_ns) < SAME_PLAY_NS
                and self._merge_play(pile, landing, retime=False)
            ):
                # The same, its second track from no seat's layout (its seat only guessed from its path):
                # the card just played here seen again, not a race twin (which flies in from its seat). Its
                # time is when its view settled, not when the card landed: the play keeps its own.
                return None
            # A card seen only at rest is played only when it fits the pile but for a play or two gone
            # unseen (above): those plays too, or the referee would refuse it and every card after it.
            self._unseen_plays(pile, landing)
            pile.cards.append((landing.card, seat))
            pile.landed_ns.append(landing.t_ns)
            data: dict[str, Any] = {"card": landing.card, "pile": pile.pid}
            src = self._source_name(landing.origin)
            if src is not None:
                data["from"] = src
            data.update(self._lift_fields(landing, t))
            return self._untangled(pile, TableEvent("foundation_play", t, landing.err_ns, seat, data))
        # Landed in a seat's layout: a work-pile move if it went onto a work pile from elsewhere.
        if self._taken_back(landing, seat_here):
            return None
        if landing.origin is None or landing.origin[0] != seat_here:
            return None
        dest = self.table.place_of(landing.x, landing.y, Track(0, landing.card))
        if dest == landing.origin:
            return self._race_lost(landing, seat_here)
        if dest[1] != "work":
            return None
        src = self._source_name(landing.origin)
        if src is None:
            return None
        # Only a single card from the Nerts pile or the waste may go under (M7); a block never does.
        under = src in ("nerts", "waste") and self._is_under(dest, landing)
        if src in ("nerts", "waste"):
            under = self._legal_side(dest, landing, under)
        to = f"under{dest[2]}" if under else f"work{dest[2]}"
        data = {"card": landing.card, "from": src, "to": to}
        data.update(self._lift_fields(landing, t))
        return TableEvent("move", t, landing.err_ns, seat_here, data)

    def _untangled(self, pile: _Pile, play: TableEvent) -> TableEvent:
        """``play``, the later of two plays of one face on ``pile`` from two seats (a race), with the earlier
        one's seat and lift exchanged when the tracks of the two cards crossed under the hands near the pile:
        the earlier play then flew in less than the shortest flight, and each card's landing follows its own
        lift by more than that once they are exchanged (seed 13's 2D: Ana's "landed" 71 ms after her lift,
        Dee's 616 ms after his; Dee's had landed first). The earlier play, still held back, is exchanged in
        place; the pile's cards follow."""
        card = play.get("card")
        lift = play.get("t_lift")
        if lift is None or len(pile.cards) < 2:
            return play
        k, first = next(
            (
                (k, e)
                for k, e in reversed(list(enumerate(self._pending)))
                if e.type == "foundation_play" and e.get("pile") == pile.pid and e.get("card") == card
            ),
            (-1, None),
        )
        if first is None or first.seat == play.seat or first.get("t_lift") is None:
            return play
        flight, own = _ns(first.get("t_lift")), _ns(lift)
        if not (
            first.t_ns - flight < MIN_FLIGHT_NS
            and first.t_ns - own >= MIN_FLIGHT_NS
            and play.t_ns - flight >= MIN_FLIGHT_NS
        ):
            return play
        swap = ("from", "t_lift", "err_lift")

        def with_lift(e: TableEvent, seat: str | None, other: TableEvent) -> TableEvent:
            data = {key: v for key, v in e.data.items() if key not in swap}
            data.update({key: other.data[key] for key in swap if key in other.data})
            return TableEvent(e.type, e.t_ns, e.err_ns, seat, data)

        earlier = with_lift(first, play.seat, play)
        self._where[id(earlier)] = self._where.pop(id(first))
        self._pending[k] = earlier
        assert play.seat is not None and first.seat is not None
        pile.cards[-2:] = [(str(card), play.seat), (str(card), first.seat)]
        return with_lift(play, first.seat, first)

    def _race_lost(self, landing: Landing, seat: str) -> TableEvent | None:
        """A card of ``seat`` back where it was lifted from, that lay a while on a foundation pile whose top
        is a card of its face another seat played before it got there: a race lost (§6.1), taken back.
        The camera saw it go there, lie on the winner (often askew, under the hand) and come back, but never
        land as a card of its own: the recognizer names the face, so its views on the pile were taken for
        the winner's (seed 9's Ben 2C, 288 ms after Cal's on F4). The play is logged for the referee to rule
        on, from when it was first seen on the pile; the pile keeps the winner on top."""
        src = self._source_name(landing.origin)
        if src is None:
            return None
        for pile in self.piles:
            if not pile.cards:
                continue
            there = [t for t, x, y in landing.route if math.hypot(x - pile.x, y - pile.y) < CARD_H_MM / 2]
            if len(there) < LOST_RACE_SIGHTINGS or there[-1] - there[0] < LOST_RACE_STAY_NS:
                continue
            # The pile's top when it got there, which a later card may cover by the time it is back (seed 19
            # of a fresh set: Ana's 5C lost to Ben's, and Dee's 6C landed on Ben's before Ana's was home). Not
            # a winner that landed after it got there: the tracker saw one card land, not a race lost.
            top = pile.top_at(there[0]) or (pile.cards[-1] if pile.top_t_ns < there[0] else None)
            if top is None or top[0] != landing.card or top[1] == seat:
                continue
            before = [t for t, _, _ in landing.route if t < there[0]]
            # It landed about when first seen there: after its last view on the way, and before its last few
            # millimetres of creep under the hand (REST_CREEP_NS).
            gap = there[0] - before[-1] if before else LOST_RACE_STAY_NS
            t = there[0] - self.t0_ns
            data: dict[str, Any] = {"card": landing.card, "pile": pile.pid, "from": src}
            data.update(self._lift_fields(landing, t))
            return TableEvent("foundation_play", t, gap + REST_CREEP_NS, seat, data)
        # Not seen on the pile, its views there taken by the winner's track: that track landing again on its
        # pile while this card was away, timed from the pixels, was this card landing on it (seed 9's Dee
        # 6D: Ben's 6D "landed" again at 14.564 s; Dee's landed at 14.565 and went back).
        lift = landing.lift_t_ns
        if lift is None:
            # Its lift unseen: it left after it was last seen where it rested.
            tr = next((k for k in self.table.tracks if k.tid == landing.track), None)
            lift = tr.left_t if tr is not None else None
        for pile, card, t_land, err in reversed(self._relanded):
            if (
                card != landing.card
                or lift is None
                or not lift < t_land - err
                or t_land + LOST_RACE_STAY_NS > landing.t_ns
                or not pile.cards
                or pile.cards[-1][0] != card
                or pile.cards[-1][1] == seat
                or pile.top_t_ns >= t_land - err
            ):
                continue
            t = t_land - self.t0_ns
            data = {"card": landing.card, "pile": pile.pid, "from": src}
            data.update(self._lift_fields(landing, t))
            return TableEvent("foundation_play", t, err, seat, data)
        return None

    def _taken_back(self, landing: Landing, seat: str) -> bool:
        """Whether ``landing`` is a card of ``seat`` taken back from a foundation pile after losing a race
        there (§6.1) while the card that won stays, and if so credits the winner. The camera can see one
        card land where two did, 45 ms apart, and follow the loser's flight onto the pile (seed 1 at 20
        fps: Ana's 4S from her Nerts pile and Dee's from his work pile; Dee's went back, and his later play
        of it was refused as "already on a foundation"). A seat holds one card of each face: its card
        back where the play came from, under a second since, while the pile still shows the face, is the
        play taken back. The play, still held back, becomes the winner's: the one other seat whose card
        of that face left its layout just before, else no seat's (an ``unseen_play``)."""
        if landing.origin is not None and landing.origin[0] is not None:
            return False
        tr = next((t for t in self.table.tracks if t.tid == landing.track), None)
        return tr is not None and self._play_taken_back(tr, seat, landing.x, landing.y, named=False)

    def _back_unseen(self) -> None:
        """The same for a card whose way back went unseen: first seen already at rest where a play of its
        face by that seat came from (the kiosk's own table, where the camera saw Dee's 4S only once it lay
        in his work pile again). A card first seen at rest may be one uncovered and misread, so here the
        winner must be named."""
        if not any(e.type == "foundation_play" for e in self._pending):
            # No play held back that could be taken back: the common frame costs one look at the queue.
            return
        for tr in self.table.tracks:
            if (
                tr.tid in self._back_checked
                or not tr.resting
                or tr.origin is not None
                or tr.place is None
                or tr.place[0] is None
                or tr.rest_since != tr.obs[0].t_ns
                or len(tr.obs) < self.settings.rest_count
            ):
                continue
            self._back_checked.add(tr.tid)
            self._play_taken_back(tr, tr.place[0], tr.rest_x, tr.rest_y, named=True)

    def _play_taken_back(self, tr: Track, seat: str, x: float, y: float, *, named: bool) -> bool:
        """Whether ``tr``, a card of ``seat`` come to rest at ``(x, y)``, is that seat's play taken back
        (:meth:`_taken_back`); if so the play becomes the winner's (``named``: only when one is named)."""
        src = self._source_name(self.table.place_of(x, y, tr))
        since = tr.obs[0].t_ns
        for k, e in enumerate(self._pending):
            t_play = e.t_ns + self.t0_ns
            if (
                e.type != "foundation_play"
                or e.seat != seat
                or e.get("card") != tr.card
                or e.get("from") != src
                or not 0 < since - t_play < TAKEN_BACK_NS
            ):
                continue
            pile = next((p for p in self.piles if p.pid == e.get("pile")), None)
            if pile is None or not pile.cards or pile.cards[-1] != (tr.card, seat):
                continue
            if len(pile.cards) > 1 and pile.cards[-2][0] == tr.card:
                # Both cards of the race were seen landing: the referee rules on them, and this is the
                # loser going back.
                continue
            # Still seen on the pile (by where it lies: a track's place is stale when it came to rest there
            # before its landing made the pile).
            if not any(
                t is not tr
                and t.card == tr.card
                and t.last.t_ns > since
                and self._pile_at(t.last.x, t.last.y) is pile
                for t in self.table.tracks
            ):
                continue
            before = t_play + e.err_ns
            data: dict[str, Any] = {"card": tr.card, "pile": pile.pid}
            winner, lo, where = self._race_winner(tr.card, seat, pile, t_play, before)
            if named and not winner:
                return False
            lo = min(lo, t_play - e.err_ns)
            if where is not None:
                data["from"] = where
            t = (lo + before) // 2
            err = (before - lo + 1) // 2
            won_play = (
                TableEvent("foundation_play", t - self.t0_ns, err, winner, data)
                if winner
                else TableEvent("unseen_play", t - self.t0_ns, err, None, data)
            )
            pile.cards[-1] = (tr.card, winner)
            self._where[id(won_play)] = self._where.pop(id(e))
            self._pending[k] = won_play
            if winner:
                self._taken_from[id(won_play)] = e
            return True
        return False

    def _loser_restored(self, pile: _Pile, landing: Landing) -> None:
        """The landing of a race winner's own card, timed from the pixels (:data:`TWIN_ERR_NS`), judged after
        its play was made from the loser's (the loser's card went back, and the play it had was taken for the
        winner's, :meth:`_play_taken_back`): the loser's play is put back, for the landing to make the
        winner's (seed 10's Cal 4C, followed onto Ben's and taken back; Ben's, seen sliding in 220 ms before
        it, was judged after, and Cal's play was lost)."""
        for k, e in enumerate(self._pending):
            lost = self._taken_from.get(id(e))
            if lost is None or landing.origin is None or e.seat != landing.origin[0]:
                continue
            if e.get("card") != landing.card or e.get("pile") != pile.pid:
                continue
            if not pile.cards or pile.cards[-1] != (landing.card, e.seat):
                continue
            del self._taken_from[id(e)]
            pile.cards[-1] = (landing.card, lost.seat or "")
            self._where[id(lost)] = self._where.pop(id(e))
            self._pending[k] = lost
            return

    def _race_winner(
        self, card: str, loser: str, pile: _Pile, t_play: int, before: int
    ) -> tuple[str, int, str | None]:
        """Whose card of face ``card`` won the race onto ``pile`` that ``loser``'s card lost (its play logged
        at ``t_play``, landed by ``before``), the earliest it can have landed, and where it came from: a
        landing of that face onto the pile from another seat's layout, taken for a second sighting of the
        pile's top (seed 4's Dee 4S, seen only at rest), else the one other seat whose card of that face
        left its layout shortly before. ``""`` for no seat (the earliest then the play's own)."""
        landed: dict[str, Landing] = {
            lg.origin[0]: lg
            for lg, event in self.landings
            if event is None
            and lg.card == card
            and lg.origin is not None
            and lg.origin[0] is not None
            and lg.origin[0] != loser
            and abs(lg.t_ns - t_play) < TAKEN_BACK_NS
            and self._pile_at(lg.x, lg.y) is pile
        }
        if len(landed) == 1:
            ((seat, lg),) = landed.items()
            return seat, min(lg.t_ns - lg.err_ns, before), self._source_name(lg.origin)
        left = self._last_in_layouts(card, before, RACE_LEFT_NS, left=True)
        left.pop(loser, None)
        if len(left) > 1:
            gone = self._seen_leaving(card, before, RACE_LEFT_NS)
            left = {s: t for s, t in left.items() if s in gone}
        if len(left) != 1:
            return "", t_play, None
        ((seat, t_left),) = left.items()
        won = next(t for s, t in self._in_layouts(card, before, RACE_LEFT_NS) if s == seat)
        return seat, min(t_left + MIN_FLIGHT_NS, before), self._source_name(won.place)

    def _index_by_own_layout(self, landing: Landing) -> bool:
        """Whether ``landing``'s card rests seen by its corner index alone, within half a card's diagonal of
        the layout of the seat it came from (the card's centre may lie there)."""
        if landing.origin is None or landing.origin[0] is None or not self._rests_by_index(landing):
            return False
        return any(
            self.layout.seat_of_point(
                landing.x + INDEX_OFF_MM * math.cos(k * math.pi / 4),
                landing.y + INDEX_OFF_MM * math.sin(k * math.pi / 4),
            )
            == landing.origin[0]
            for k in range(8)
        )

    def _new_face_for(self, pile: _Pile | None, card: str) -> bool:
        """Whether ``card`` may follow ``pile`` (a play or two under it unseen) and no pile holds its face."""
        return _may_follow(pile, card) and not any(c == card for p in self.piles for c, _ in p.cards)

    def _lift_fields(self, landing: Landing, t: int) -> dict[str, Any]:
        """``t_lift`` (and ``err_lift``) of an event landing at ``t``: the lift lies between the card's last
        sighting at rest and its first one off it, which at 20 fps are 50-100 ms apart (its last sighting at
        rest alone put 35 of 205 lifts over 100 ms early, and the referee ruled seats "two cards in flight"
        for them)."""
        lo = landing.lift_t_ns
        if lo is None or lo - self.t0_ns > t:
            return {}
        tr = next((k for k in self.table.tracks if k.tid == landing.track), None)
        hi = tr.lift_hi if tr is not None and tr.lift_t == lo and tr.lift_hi is not None else lo
        hi = min(max(hi, lo), t + self.t0_ns)
        out: dict[str, Any] = {"t_lift": _decimal_s((lo + hi) // 2 - self.t0_ns)}
        if hi > lo:
            out["err_lift"] = _decimal_s((hi - lo + 1) // 2)
        return out

    def _merge_play(
        self, pile: _Pile, landing: Landing, *, moved_on: bool = False, retime: bool = True
    ) -> bool:
        """A second landing of the card on top of ``pile``, about where the queued play of it landed (within
        half a card's diagonal: its corner index and its outline): the queued play takes its time when it
        claims less error, and its source when the play had none. False when there is no such play (a
        card taken back and played again at once lands elsewhere, on a pile it was put near). With
        ``moved_on``, only a landing over a quarter of a card's width from the play's place counts; without
        ``retime``, the play keeps its time whatever the landing claims."""
        for k, e in enumerate(self._pending):
            if e.type != "foundation_play" or e.get("pile") != pile.pid or e.get("card") != landing.card:
                continue
            x, y, tid = self._where.get(id(e), (math.inf, math.inf, -1))
            gap = math.hypot(x - landing.x, y - landing.y)
            if gap > INDEX_OFF_MM or (moved_on and gap <= CARD_W_MM / 4):
                continue
            data = dict(e.data)
            src = self._source_name(landing.origin)
            if "from" not in data and src is not None:
                data["from"] = src
            t, err = e.t_ns, e.err_ns
            # Not the time of a landing at the place where the play's own track already lay at rest before
            # it: that landing is the card seen again (a box jumping off it and back), not its arrival (seed
            # 13's Cal 5C, at rest from 11.76 s, taken as landing at 12.24 s with an 8 ms err).
            first = next((t for t in self.table.tracks if t.tid == tid), None)
            lay_here = (
                first is not None
                and first.resting
                and gap <= CARD_W_MM / 4
                and first.rest_since + REST_CREEP_NS < landing.t_ns - landing.err_ns
            )
            if retime and landing.err_ns < e.err_ns and not lay_here:
                t, err = landing.t_ns - self.t0_ns, landing.err_ns
                if pile.landed_ns:
                    pile.landed_ns[-1] = landing.t_ns
            merged = TableEvent("foundation_play", t, err, e.seat, data)
            self._where[id(merged)] = self._where.pop(id(e), (landing.x, landing.y, landing.track))
            self._pending[k] = merged
            return True
        return False

    def _last_in_layouts(
        self, card: str, before_ns: int, within_ns: int, *, left: bool = False
    ) -> dict[str, int]:
        """For each seat in whose layout a card of face ``card`` rested and was last seen within
        ``within_ns`` before ``before_ns`` (and not since), when it was last seen there; with ``left``,
        when it was last seen there at rest, for a card since seen moving (its flight may have been
        followed onto a pile, past its landing)."""
        return {
            seat: (
                tr.last.t_ns if tr.resting or not left else min(tr.last.t_ns, tr.last_away_t or tr.last.t_ns)
            )
            for seat, tr in self._in_layouts(card, before_ns, within_ns)
        }

    def _seen_leaving(self, card: str, before_ns: int, within_ns: int) -> set[str]:
        """The seats in whose layout a card of face ``card`` was last seen moving off its rest, within
        ``within_ns`` before ``before_ns``."""
        return {
            seat
            for seat, tr in self._in_layouts(card, before_ns, within_ns)
            if not tr.resting and tr.left_t is not None
        }

    def _in_layouts(self, card: str, before_ns: int, within_ns: int) -> Iterator[tuple[str, Track]]:
        """The tracks of face ``card`` placed in a seat's layout and last seen within ``within_ns``
        before ``before_ns``, with their seat."""
        for tr in self.table.tracks:
            if (
                tr.card == card
                and tr.place is not None
                and tr.place[0] is not None
                and before_ns - within_ns < tr.last.t_ns < before_ns
            ):
                yield tr.place[0], tr

    def _unseen_plays(self, pile: _Pile, landing: Landing) -> None:
        """Queues the plays onto ``pile`` that a card seen landing on it proves went unseen: a 5♦
        landing on a 2♦ means a 3♦ and a 4♦ went there first (§6 M3/M4). Each is credited to the seat
        in whose layout a card of its face rested last, shortly before, and was not seen since. A face
        resting in no layout, or in two seats' (each player has a deck), is credited to no seat (an
        ``unseen_play``, counted by the end-of-hand audit): better than a play credited to the wrong
        seat, and than leaving the pile short, which would have the referee refuse every later card on
        it. Its time is what the sightings bound: after the card was last seen in the layout and the
        pile's previous top landed, before this card."""
        top = pile.cards[-1][0] if pile.cards else None
        suit = landing.card[-1]
        if top is not None and top[-1] != suit:
            return
        low, high = (_rank(top) if top is not None else 0) + 1, _rank(landing.card)
        if not 0 < high - low <= UNSEEN_PLAYS:
            return
        # A pile first seen with this card: its unseen Ace went on after filming began, and no sooner.
        after = max(pile.top_t_ns, self.t0_ns)
        # The latest the card that proves them could have landed: they went on before it did (seed 7 at
        # 20 fps: a 2D bounded by its 3D's earliest time, 425 ms before its fit, was put 320 ms early).
        before = landing.t_ns + landing.err_ns
        for rank in range(low, high):
            card = _RANK_NAMES.get(rank, str(rank)) + suit
            # Seen resting on the pile (first seen there at rest, no layout's card of its face vanished
            # then): it was played before that, and only a sighting in a layout before that bounds it and
            # names its seat (seed 12's Ben 6S, on the pile from 8.54 s, was bounded by a misread in his
            # waste at 12.8 s and put 7 s late).
            there = [
                tr.rest_since
                for tr in self.table.tracks
                if tr.card == card
                and tr.resting
                and tr.place == (None, pile.pid, 0)
                and tr.rest_since < landing.t_ns
            ]
            by = min(there, default=landing.t_ns)
            last = self._last_in_layouts(card, by, UNSEEN_PLAY_NS, left=True)
            if len(last) > 1:
                # One seat's card seen leaving its place, the others' last seen lying still (buried under
                # the cards turned or built on them since): the one that left went (seed 6's Ben 5S,
                # lifted off his Nerts pile, against a 5S in Dee's waste not seen for 6 s).
                gone = self._seen_leaving(card, by, UNSEEN_PLAY_NS)
                if len(gone) == 1 and gone <= last.keys():
                    last = {s: last[s] for s in gone}
            lo, hi = after, min(by, before)
            seat = ""
            if len(last) == 1:
                ((named, seen),) = last.items()
                if max(after, seen) < hi:
                    seat, lo = named, max(after, seen)
            if lo >= hi:
                # No room between the pile's last landing and this one: the sightings contradict each
                # other, and a play put anywhere would be a guess. The referee will rule on the gap.
                return
            # Logged before the card that proves it, and its err covering the whole interval.
            t = min((lo + hi) // 2, landing.t_ns - 1)
            err = max(t - lo, hi - t)
            pile.cards.append((card, seat))
            after = t
            pile.landed_ns.append(t)
            data = {"card": card, "pile": pile.pid}
            if seat:
                self._pending.append(TableEvent("foundation_play", t - self.t0_ns, err, seat, data))
            else:
                self._pending.append(TableEvent("unseen_play", t - self.t0_ns, err, None, data))

    def _left(self, tr: Track, origin: tuple[str | None, str, int], t_ns: int) -> bool:
        """Whether the card of ``tr`` came from ``origin``: its track rested there before, or a card
        of its face rested there and has not been seen since the move."""
        if tr.prev_place == origin:
            return True
        return any(
            t is not tr and t.card == tr.card and t.place == origin and t.last.t_ns < t_ns
            for t in self.table.tracks
        )

    def _far_edge(self, dest: tuple[str | None, str, int], box: Box) -> float:
        """How far along a work pile's fan (mm from its slot) a card's far edge lies: the edge away from
        the player, which the cards fanned on top never cover."""
        slot = self.layout.slots[dest]
        fx, fy = slot.fan
        fn = math.hypot(fx, fy) or 1.0
        ux, uy = fx / fn, fy / fn
        pts = self.table.calibration.to_table(
            [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
        )
        return min((x - slot.pose.x) * ux + (y - slot.pose.y) * uy for x, y in pts)

    def _legal_side(self, dest: tuple[str | None, str, int], landing: Landing, under: bool) -> bool:
        """Whether a card that landed on a work pile went under it, given the pile's exposed card and base
        as last seen (its resting cards there, ordered along the fan): when the side its position tells
        (``under``) breaks the rules (§4 M5, M7) and the other side keeps them, the other. A hand over the
        pile, or a recognizer's box swelled by a neighbour, shifts the edges :meth:`_is_under` compares by
        more than the fan's 21 mm step (seed 11's Dee 10S, put on a JD, lay 47 mm out beyond it), and a card
        slid under may lie no further out than the base by its box (seed 2's Cal 6D under a 5S, 3 mm). The
        rules read the pile only when one side alone is legal; the referee still rules on the move as
        reported."""
        faces = [
            (self._far_edge(dest, box), tr.card)
            for tr, box in self._resting_at(dest, landing, PILE_FACES_NS)
            # Come to rest there again since (jostled as the card slid under it) counts too: seed 2's Dee
            # 7H, the whole pile, shifted by the 8C slid under it and at rest again 170 ms after.
            if (tr.rest_since <= landing.t_ns or tr.prev_place == dest) and _rank(tr.card) != 0
        ]
        if not faces:
            return under
        base, top = min(faces)[1], max(faces)[1]
        onto_ok = _builds_down(landing.card, top)
        under_ok = _builds_down(base, landing.card)
        if onto_ok != under_ok:
            return under_ok
        return under

    def _resting_at(
        self, dest: tuple[str | None, str, int], landing: Landing, within_ns: int
    ) -> list[tuple[Track, Box]]:
        """The cards of work pile ``dest`` at rest, seen within ``within_ns`` before ``landing``, but for the
        landing card, with their resting boxes. Only cards at rest: a card misread for a frame or two (a
        track that never rested) must not count as part of the pile."""
        out = []
        for tr in self.table.tracks:
            box = tr.rest_box
            if (
                tr.tid == landing.track
                or not tr.resting
                or box is None
                or landing.t_ns - tr.last.t_ns > within_ns
            ):
                continue
            ((tx, ty),) = self.table.calibration.to_table([_centre(box)])
            if self.table.place_of(tx, ty, tr) == dest:
                out.append((tr, box))
        return out

    def _is_under(self, dest: tuple[str | None, str, int], landing: Landing) -> bool:
        """Under the base of a work pile (M7) rather than onto it (M5)? A card slid under lies a step
        further out than every card of the pile, measured on the far edges."""
        step = math.hypot(*self.layout.slots[dest].fan)
        if step == 0:
            return False
        mine_tr = next((t for t in self.table.tracks if t.tid == landing.track), None)
        if mine_tr is None or mine_tr.rest_box is None:
            return False
        mine = self._far_edge(dest, mine_tr.rest_box)
        others = [self._far_edge(dest, box) for _, box in self._resting_at(dest, landing, 300_000_000)]
        if not others:
            # None of the pile's cards seen at rest: its base lies on the slot, its far edge half a card's
            # length out along the fan; a card slid under it lies a whole step further out, one put on an
            # empty pile at the slot. A card showing only its end beyond the base went under if it lies
            # over half a step out; so did one seen whole three quarters of a step out: a recognizer's box of
            # a card slid under may take in the pile over it (seed 12's Cal JS), and a box reaching a few
            # millimetres beyond a card put on the slot stays short of that (seed 7's Ben 10C, 11 mm).
            shows = _area(mine_tr.rest_box) / self.table.card_px2
            beyond = -CARD_H_MM / 2 - (0.5 if shows < WHOLE_SHARE else 0.75) * step
            return mine < beyond
        return mine < min(others) - UNDER_STEP * step


NERTS_TOP_NS = 300_000_000
"""How long a new card must rest on a Nerts pile before it counts as that pile's new top."""
NERTS_TOP_OBS = 8
"""Sightings of it at rest there, at the least (a card carried over the pile is seen a frame or two)."""
NERTS_TOP_SEEN_NS = 200_000_000
"""It must still be seen there: a track not seen for longer may be a card that left long ago."""
PILE_FACES_NS = 2_000_000_000
"""A work pile's card counts in reading the pile's ends (:meth:`NertsTracker._legal_side`) if seen this
recently: the hand that moves a card onto the pile hides the pile's cards for a second or so."""
UNDER_STEP = 0.3
"""A card whose far edge lies beyond the far edge of every card of a work pile by more than this share of a
fan step went under the pile (M7)."""
BLOCK_NEW_NS = 700_000_000
"""A card of a moved block comes to rest on its new work pile within this long of the move's landing."""
UNSEEN_PLAYS = 2
"""At most this many plays onto a foundation pile are inferred from the card seen landing on it
(:meth:`NertsTracker._unseen_plays`); a larger gap is more likely that card misread."""
UNSEEN_PLAY_NS = 10 * 1_000_000_000
"""An unseen play is credited to a seat only if a card of its face rested in that seat's layout within
this long before the card seen landing on the pile."""
RELANDED_KEPT = 16
"""Foundation tops seen landing again on their own pile kept for :meth:`NertsTracker._race_lost`."""
TWIN_ERR_NS = 50_000_000
"""A card seen first at rest on a card of its face is a race's later card only when its landing is timed
this well (:meth:`NertsTracker._interpret`): the frames' pixels saw it slide in."""
VANISHED_SEAT_NS = 1_000_000_000
"""A foundation play whose origin went unseen is credited to the seat from whose layout a card of its
face vanished within this long before it landed, when only one seat's did."""
LOST_RACE_SIGHTINGS = 3
"""Views of a card on a foundation pile whose top is its face, on its way out and back to its seat, that make
it a race lost there (:meth:`NertsTracker._race_lost`): a card flying over the pile is seen there once or
twice."""
LOST_RACE_STAY_NS = 100_000_000
"""And how long it lay there at least, from its first view there to its last: a player sees the race lost
and takes the card back, a few tenths of a second."""
TAKEN_BACK_NS = 1_000_000_000
"""A card flying back into its seat's layout this soon after that seat's play of its face landed on a pile
may be that card taken back after losing a race (:meth:`NertsTracker._taken_back`)."""
RACE_LEFT_NS = 2_000_000_000
"""The card that won a race (:meth:`NertsTracker._taken_back`) left its seat's layout at most this long
before it landed."""
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _fits(pile: _Pile | None, card: str) -> bool:
    """Whether a card may go on a pile (§6 M3/M4), or ties with its top (§6.1).

    >>> _fits(None, "AH"), _fits(None, "2H"), _fits(_Pile("F1", 0, 0, [("4S", "Ana")]), "5S")
    (True, False, True)
    """
    if pile is None or not pile.cards:
        return _rank(card) == 1
    top = pile.cards[-1][0]
    return card == top or (card[-1] == top[-1] and _rank(card) == _rank(top) + 1)


def _may_follow(pile: _Pile | None, card: str, missed: int = 2) -> bool:
    """Whether a card may go on a pile as the tracker knows it, if up to ``missed`` plays onto it went
    unseen.

    >>> p = _Pile("F1", 0, 0, [("4S", "Ana")])
    >>> _may_follow(p, "5S"), _may_follow(p, "7S"), _may_follow(p, "8S"), _may_follow(p, "5H")
    (True, True, False, False)
    >>> _may_follow(None, "3D"), _may_follow(None, "4D")
    (True, False)
    """
    if pile is None or not pile.cards:
        return 1 <= _rank(card) <= 1 + missed
    top = pile.cards[-1][0]
    return card[-1] == top[-1] and _rank(top) < _rank(card) <= _rank(top) + 1 + missed


def _next_in_suit(card: str) -> str | None:
    """The card of the same suit one rank higher (None above a King, or for a label without a suit).

    >>> _next_in_suit("9H"), _next_in_suit("10S"), _next_in_suit("KD"), _next_in_suit("JOKER")
    ('10H', 'JS', None, None)
    """
    r = _rank(card)
    if not 1 <= r < 13 or card[-1] not in "CDHS":
        return None
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    return names.get(r + 1, str(r + 1)) + card[-1]


def _builds_down(card: str, on: str) -> bool:
    """Whether ``card`` may lie on ``on`` in a work pile: one rank lower, of the opposite colour (§4 M5).

    >>> _builds_down("10S", "JD"), _builds_down("5S", "6D"), _builds_down("6D", "5S")
    (True, True, False)
    >>> _builds_down("9H", "10D")
    False
    """
    red = "DH"
    return _rank(card) == _rank(on) - 1 and (card[-1] in red) != (on[-1] in red)


def _rank(card: str) -> int:
    """The rank of a card label (0 for a label with none).

    >>> _rank("10H"), _rank("KS"), _rank("JOKER")
    (10, 13, 0)
    """
    r = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(r, int(r) if r.isdigit() else 0)


def _decimal_s(t_ns: int) -> Any:
    from decimal import Decimal

    from kiosk.games.referee import format_seconds

    return Decimal(format_seconds(t_ns))


def _ns(seconds: Any) -> int:
    """Nanoseconds from an event's seconds field (a :func:`_decimal_s` value)."""
    from decimal import Decimal

    return int(Decimal(str(seconds)) * 1_000_000_000)
