"""The tracker for a Gnoming A Round table: flips, draws from A and B, keeps, discards, reveals.

Glossary (``rules/gnoming.md``; table as in :class:`vision.layout.GnomingLayout`; tracks,
landings, departures and arrivals as in :mod:`vision.tracker` and :mod:`vision.card_moves`):

- **player**: the seat whose turn it is, known from its draw (a ``draw`` button for the draw
  pile, or the edge a card taken from A or B went toward); keeps and discards are its.
- **turn**: from the player's draw to its discard. A face-up card coming to rest on the player's
  grid in its turn is a ``keep`` of that place. The card that came ``out`` is the one that lay there face up,
  or, if it lay face down, the next card the player puts down (it is held and then kept again,
  a bounce, or discarded).
- **discard**: a card from the hand coming to rest on pile A or B (``pile``), or on the place
  for Hazards that left the game (no ``pile``).
- **draw**: the top card of A or B taken off the table (a departure).
- **flip**: a face-down grid card turned up where it lies, outside the player's turn: ``flip``
  of that place's owner, timed by the first sighting of its face.
- **reveal**: at the end of a round every face-down card is turned up. A flip never turns a
  seat's last face-down card (§5.4: a Hazard cannot end a round), so turns in place that leave a
  grid with none face down are that seat's reveal; grids already all face up are revealed with
  the first one.

What the camera cannot see comes from the kiosk (:meth:`GnomingTracker.button`): the start of
the round (the tracker adds the tops of A and B and the Hazards removed), draws from the draw
pile, and declines.

>>> from vision.calibration import Calibration
>>> t = GnomingTracker(GnomingLayout(["Ana", "Ben", "Cal"]), Calibration.from_scale(1.0))
>>> t.feed(Frame(None, 0), [])
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.games.referee import TableEvent
from vision.calibration import Calibration
from vision.card_moves import DepartureWatch, EventQueue, covered_landings
from vision.cardart.tokens import GNOMING_TOKENS
from vision.events import CardSighting, Frame
from vision.layout import GnomingLayout
from vision.tracker import Landing, TableTracker, Track, TrackerSettings

__all__ = ["GnomingTracker", "REVEAL_HOLD_NS"]

REVEAL_HOLD_NS = 4_000_000_000
"""How long a turn in place is held back before it counts as a flip (it may yet be part of a reveal)."""
LATENCY_NS = 5_000_000_000
"""Events are held this long (nothing here is a race): longer than :data:`REVEAL_HOLD_NS`."""
KEEP_HOLD_NS = 4_000_000_000
"""How long a keep waits for the card that came out of a face-down place to be put down."""
TRAVEL_MM = 25.0
"""A card that came at least this far is one put down from the hand; less, one turned where it lies."""
PILE_MM = 50.0

SlotKey = tuple[str | None, str, int]


@dataclass
class _Turn:
    seat: str
    pos: int
    card: str
    t_ns: int
    err_ns: int


@dataclass
class _Keep:
    seat: str
    pos: int
    card: str
    t_ns: int
    err_ns: int


class GnomingTracker:
    """Turns a Gnoming table's frames and sightings into table events."""

    def __init__(
        self,
        layout: GnomingLayout,
        calibration: Calibration,
        settings: TrackerSettings | None = None,
        *,
        t0_ns: int = 0,
    ) -> None:
        self.layout = layout
        self.settings = settings or TrackerSettings()
        self.table = TableTracker(layout, calibration, self.settings, labels=frozenset(GNOMING_TOKENS))
        self.table.place_of = self._place_of  # type: ignore[method-assign]
        self.echoes = frozenset({"round_start"})
        """Buttons this tracker passes on itself, completed with what it saw."""
        self.queue = EventQueue(max(self.settings.latency_ns, LATENCY_NS), t0_ns)
        self.departures = DepartureWatch(layout, frozenset({"A", "B"}))
        self.up: dict[str, list[str | None]] = {s: [None] * 9 for s in layout.seats}
        """The face-up card seen on each grid place (None: face down)."""
        self.tops: dict[str, str] = {}
        self.removed: list[str] = []
        self.player: str | None = None
        self.turn_open = False
        """Between the player's draw and its discard: cards it puts on its grid are keeps."""
        self.turn_ns = 0
        """When the player's turn opened (its draw)."""
        self._known: set[int] = set()
        self._turns: list[_Turn] = []
        self._first_seen: dict[int, int] = {}
        """When each track's face was first seen (a card turned in place is timed by it)."""
        self._keep: _Keep | None = None
        self._revealed: set[str] = set()

    def _place_of(self, x: float, y: float, tr: Track, landing: object = None) -> SlotKey:
        at = self.layout.grid_position(x, y)
        if at is not None:
            return (at[0], "grid", at[1])
        for name in ("A", "B", "deck"):
            pose = self.layout.slot(None, name, 0).pose
            if math.hypot(pose.x - x, pose.y - y) <= PILE_MM:
                return (None, name, 0)
        removed = self.layout.slot(None, "removed", 0).pose
        if abs(x - removed.x) <= PILE_MM and removed.y - PILE_MM <= y <= removed.y + 150.0:
            return (None, "removed", 0)
        return (self.layout.seat_of_point(x, y), "zone", 0)

    def button(self, event: TableEvent) -> None:
        """Tells the tracker a kiosk event: a new round (it adds the piles it sees), a draw from the
        draw pile (whose turn it is), a decline."""
        if event.type == "round_start":
            data = dict(event.data)
            data["piles"] = {k: self.tops[k] for k in ("A", "B") if k in self.tops}
            data["removed"] = list(self.removed)
            self.queue.add(event.type, event.t_ns, event.err_ns, event.seat, data)
            self.up = {s: [None] * 9 for s in self.layout.seats}
            self._revealed = set()
            self.player = None
            self.turn_open = False
        elif event.type == "draw" and event.seat is not None:
            # A new turn: a keep of the last one whose card never came down stays unwritten.
            self._put_down_out(None)
            self.player = event.seat
            self.turn_open = True
            self.turn_ns = event.t_ns

    def feed(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[TableEvent]:
        """Feeds one frame; returns the events that are now final, in time order."""
        landings = {ld.track: ld for ld in self.table.step(frame, sightings)}
        for tr in self.table.tracks:
            self._first_seen.setdefault(tr.tid, tr.obs[0].t_ns)
        for dep in self.departures.step(self.table, frame.t_ns):
            pile = dep.origin[1]
            if dep.seat is None:
                continue
            self.player = dep.seat
            self.turn_open = True
            self.turn_ns = dep.t_ns
            self._put_down_out(None)
            self.queue.add("draw", dep.t_ns, dep.err_ns, dep.seat, {"from": pile, "card": dep.card})
        for tr in self.table.tracks:
            if not tr.resting or tr.tid in self._known or tr.place is None:
                continue
            self._known.add(tr.tid)
            ld = landings.get(tr.tid)
            t, err = (ld.t_ns, ld.err_ns) if ld is not None else (tr.rest_since, 20_000_000)
            face = self._face_seen(tr, t)
            self._arrived(tr.card, tr.place, t, err, ld is not None and _travelled(ld), face)
        for ld in covered_landings(self.table, frame.t_ns):
            self._arrived(
                ld.card, self._place_of(ld.x, ld.y, Track(0, ld.card)), ld.t_ns, ld.err_ns, _travelled(ld)
            )
        self._settle_turns(frame.t_ns - REVEAL_HOLD_NS)
        if self._keep is not None and self._keep.t_ns < frame.t_ns - KEEP_HOLD_NS:
            self._emit_keep(None)
        return self.queue.release(frame.t_ns)

    def _face_seen(self, tr: Track, default: int) -> int:
        """When the face of the card now resting as ``tr`` was first seen where it lies: by this
        track, or by an earlier one of the same face that started there (a card turned in place
        shifts a little, and a hand over it may split its sightings into two tracks)."""
        face = self._first_seen.get(tr.tid, default)
        for o in self.table.tracks:
            # Three sightings at least: a card misread as this face for a frame is not its face.
            if o.card == tr.card and len(o.obs) >= 3:
                first = o.obs[0]
                if math.hypot(first.x - tr.rest_x, first.y - tr.rest_y) <= TRAVEL_MM:
                    face = min(face, self._first_seen.get(o.tid, first.t_ns))
        return face

    def flush(self) -> list[TableEvent]:
        """Every event still held back (call at the end of the video)."""
        if self._keep is not None:
            self._emit_keep(None)
        self._settle_turns(1 << 62)
        if self._revealed or all(self._grid(s) is not None for s in self.layout.seats):
            # The round ended: every grid still to be revealed is as it lies (all of them, when every
            # grid ended face up by keeps and nothing was left to turn).
            self._reveal(None, self.table.last_t, 20_000_000)
        return self.queue.release(None)

    # -- what arrived --------------------------------------------------------------------
    def _arrived(
        self, card: str, place: SlotKey, t: int, err: int, travelled: bool, face_ns: int | None = None
    ) -> None:
        """A face-up card newly at rest at ``place``: put down from the hand during the player's turn
        (between its draw and its discard), or else turned where it lies (timed by ``face_ns``, when
        its face was first seen)."""
        seat, region, index = place
        in_turn = self.turn_open and self.player is not None
        if region in ("A", "B", "removed"):
            if region == "removed":
                self.removed.append(card)
            else:
                self.tops[region] = card
            # A card that came down before the turn opened is no discard of it (the last player's
            # discard seen again as a track of its own, decided after the next draw).
            if in_turn and travelled and self.player is not None and t >= self.turn_ns:
                self._put_down_out(card)
                data: dict[str, object] = {"card": card}
                if region != "removed":
                    data["pile"] = region
                self.queue.add("discard", t, err, self.player, data)
                self.turn_open = False
            return
        if region != "grid" or seat is None:
            return
        # A face seen before the turn opened, on a card that did not come from elsewhere, was turned
        # where it lies just before the draw (a flip seen at rest only once the draw was told).
        flipped = not travelled and face_ns is not None and face_ns < self.turn_ns
        mine = in_turn and seat == self.player and not flipped
        if self.up[seat][index] == card and not (mine and travelled):
            # The card that lay there seen again after a hand hid part of it (a card of the same
            # face brought from the hand is a keep that swaps the two).
            return
        if mine:
            self._put_down_out(card)
            before = self.up[seat][index]
            self.up[seat][index] = card
            keep = _Keep(seat, index, card, t, err)
            if before is not None:
                self._emit_keep(before, keep)
            else:
                self._keep = keep
            return
        if self.up[seat][index] is None:
            self.up[seat][index] = card
            t = t if face_ns is None else face_ns
            if self._revealed:
                # The round is over (a grid was revealed): every card turned now is a reveal's.
                if self._grid(seat) is not None:
                    self._reveal(seat, t, err)
                return
            self._turns.append(_Turn(seat, index, card, t, err))
            if self._grid(seat) is not None:
                self._reveal(seat, t, err)

    def _put_down_out(self, card: str | None) -> None:
        """The player puts a card down (kept again or discarded): the out card of a pending keep."""
        if self._keep is not None:
            self._emit_keep(card)

    def _emit_keep(self, out: str | None, keep: _Keep | None = None) -> None:
        k = keep or self._keep
        if keep is None:
            self._keep = None
        if k is None:
            return
        if out is None:
            # The card that came out was never seen put down: the keep cannot be written whole
            # (the referee needs both cards), so it is left to the table to correct.
            return
        self.queue.add("keep", k.t_ns, k.err_ns, k.seat, {"pos": _pos(k.pos), "card": k.card, "out": out})

    # -- flips and reveals ---------------------------------------------------------------
    def _settle_turns(self, before_ns: int) -> None:
        keep = []
        for turn in self._turns:
            if turn.t_ns <= before_ns:
                self.queue.add(
                    "flip", turn.t_ns, turn.err_ns, turn.seat, {"pos": _pos(turn.pos), "card": turn.card}
                )
            else:
                keep.append(turn)
        self._turns = keep

    def _grid(self, seat: str) -> list[str] | None:
        """``seat``'s nine cards if all lie face up: as followed through the round or, where that
        missed a card, as the cards now at rest on its grid places show it; else None."""
        if all(c is not None for c in self.up[seat]):
            return [str(c) for c in self.up[seat]]
        seen: dict[int, Track] = {}
        for tr in self.table.tracks:
            if tr.resting and tr.place is not None and tr.place[0] == seat and tr.place[1] == "grid":
                now = seen.get(tr.place[2])
                if now is None or tr.last.t_ns > now.last.t_ns:
                    seen[tr.place[2]] = tr
        if len(seen) < 9:
            return None
        return [seen[i].card for i in range(9)]

    def _reveal(self, seat: str | None, t_ns: int, err_ns: int) -> None:
        """``seat``'s grid is all face up by turns in place: the end of the round."""
        self._turns = [u for u in self._turns if u.seat != seat]
        for other in self.layout.seats:
            grid = self._grid(other)
            if other in self._revealed or grid is None:
                continue
            self._revealed.add(other)
            self.queue.add("reveal", t_ns, err_ns, other, {"grid": grid})


def _travelled(landing: Landing) -> bool:
    """Whether a landed card came from elsewhere (the hand), not turned or nudged in place."""
    if not landing.path:
        return False
    x0, y0 = landing.path[0]
    return math.hypot(landing.x - x0, landing.y - y0) >= TRAVEL_MM


def _pos(index: int) -> str:
    """A grid index (0..8, row by row) in the log's notation (``"11"`` .. ``"33"``).

    >>> _pos(0), _pos(5)
    ('11', '23')
    """
    return f"{index // 3 + 1}{index % 3 + 1}"
