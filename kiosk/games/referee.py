"""The referee path: what physically happened on the table, judged.

A :class:`Referee` is a fold over :class:`TableEvent` values (one per line of a
table log, see ``docs/table-log.md``). It never raises for a breach of the
rules: it records the event and returns :class:`Ruling` and
:class:`Infraction` values for the kiosk to show. It raises
:class:`~kiosk.games.errors.InvalidActionError` only for an event that is not
well formed (a missing field, an unknown card or seat), which the log reader
turns into an error naming the line.

Generic events every referee understands (handled here, not by the games):

- ``undo``: takes back the last effective event (the kiosk's "undo last
  ruling"), a ``score_correction`` included; the referee re-folds the remaining events.
- ``score_correction``: ``{"seat": S, "hand": N, "score": X}`` replaces seat S's
  score for hand N (1-based) with X, and is reported as a ruling.
- ``note``: free text, kept in the report, changes nothing.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.errors import InvalidActionError

__all__ = [
    "TableEvent",
    "LogHeader",
    "Ruling",
    "Infraction",
    "RefereeReport",
    "Referee",
    "format_seconds",
    "NS_PER_S",
    "sync_end_ruling",
    "REPEAT_WINDOW_NS",
]

NS_PER_S = 1_000_000_000


def format_seconds(t_ns: int) -> str:
    """Formats nanoseconds as decimal seconds, exactly, for the table log.

    >>> format_seconds(12_480_000_000), format_seconds(1), format_seconds(-2_500_000)
    ('12.48', '0.000000001', '-0.0025')
    """
    sign = "-" if t_ns < 0 else ""
    whole, frac = divmod(abs(t_ns), NS_PER_S)
    if frac == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{frac:09d}".rstrip("0")


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One event of a table log.

    ``t_ns`` is nanoseconds from the session start; ``err_ns`` its
    uncertainty (half-width). ``data`` holds the event's other fields as
    JSON values (``card``, ``pile``, ...), validated by the game's referee.
    """

    type: str
    t_ns: int
    err_ns: int = 0
    seat: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    line: int | None = field(default=None, compare=False)
    """The line of the table log it came from (for error messages)."""

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def require(self, key: str) -> Any:
        """Returns a field, or raises InvalidActionError naming it."""
        if key not in self.data:
            raise InvalidActionError(f"{self.type!r} event needs a {key!r} field", input=key)
        return self.data[key]

    def to_json(self) -> dict[str, Any]:
        """The event as a table-log line's JSON object (times as exact decimals)."""
        from decimal import Decimal

        out: dict[str, Any] = {"t": Decimal(format_seconds(self.t_ns))}
        if self.err_ns:
            out["err"] = Decimal(format_seconds(self.err_ns))
        out["type"] = self.type
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return out


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The first line of a table log: format version, game, seats, options."""

    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    version: int = 1
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Anything else the header carried (kiosk id, date, player names)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table_log": self.version,
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
        }
        out.update(self.meta)
        return out


@dataclass(frozen=True, slots=True)
class Ruling:
    """A decision the kiosk announces: a race won, a tie, a call, a reset, a score."""

    t_ns: int
    kind: str
    """A short key: ``"race"``, ``"tie"``, ``"call"``, ``"hand_end"``, ..."""
    text: str
    """What the kiosk shows, e.g. ``"East first by 64 ms: West, take back 6♥"``."""
    seats: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "t": format_seconds(self.t_ns),
            "kind": self.kind,
            "text": self.text,
            "seats": list(self.seats),
            **({"data": dict(self.data)} if self.data else {}),
        }


@dataclass(frozen=True, slots=True)
class Infraction:
    """A breach of the rules (or a probable misread) found in the log."""

    t_ns: int
    kind: str
    """``"illegal_play"``, ``"out_of_turn"``, ``"revoke"``, ``"seen_twice"``, ..."""
    text: str
    seat: str | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "t": format_seconds(self.t_ns),
            "kind": self.kind,
            "text": self.text,
            "seat": self.seat,
            "line": self.line,
        }


@dataclass
class RefereeReport:
    """Everything a replay prints: rulings, infractions, scores per hand and in total."""

    game: str
    seats: tuple[str, ...]
    rulings: list[Ruling] = field(default_factory=list)
    infractions: list[Infraction] = field(default_factory=list)
    hands: list[dict[str, int]] = field(default_factory=list)
    """Per-hand (per-deal, per-round) scores by seat, in order."""
    totals: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    """True when the game (not only a hand) is over."""
    winners: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Game-specific details (e.g. the meld arrangement a scorer found)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "rulings": [r.to_json() for r in self.rulings],
            "infractions": [i.to_json() for i in self.infractions],
            "hands": [dict(h) for h in self.hands],
            "totals": dict(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "notes": list(self.notes),
            **({"extra": self.extra} if self.extra else {}),
        }


REPEAT_WINDOW_NS = 50_000_000
"""A camera logs one event again at the same time or a frame later (17 to 50 ms at 20 to 60 frames a
second). Nobody calls, declares or lays out a hand twice within it, so an event that a person could
really repeat (a call, a "stuck", a "match") is a repeated line only inside this window."""


class Referee(ABC):
    """Folds table events into rulings, infractions and scores.

    Subclasses implement :meth:`_reset` (fresh state), :meth:`_feed` (one
    game event) and :meth:`_report`. The base class handles the generic
    events (``undo``, ``score_correction``, ``note``), checks seats and time
    order, and keeps the effective event list so that an undo re-folds.
    """

    game_name: str = ""
    event_types: frozenset[str] = frozenset()
    """The game-specific event types this referee accepts."""

    GENERIC = frozenset({"undo", "score_correction", "note"})

    def __init__(self, seats: Sequence[str], options: Any) -> None:
        self.seats = tuple(seats)
        self.options = options
        self._events: list[TableEvent] = []
        self._corrections: list[TableEvent] = []
        self._correction_at: list[int] = []
        """For each score_correction, in order, how many effective game events came before it:
        an undo re-folds the game with each correction back in its place."""
        self._correction_ruling_at: list[int] = []
        """For each score_correction, how many of the game's own rulings came before it: its
        ``correction`` ruling is reported there, in log order (several may share one time)."""
        self._notes: list[str] = []
        self._repeat_lines: list[TableEvent] = []
        """Events a game recognised as a repeat of the event before them (see _mark_repeat)."""
        self._last_t = -(1 << 62)
        self._reset()

    # -- hooks ------------------------------------------------------------------
    @abstractmethod
    def _reset(self) -> None:
        """Starts from an empty table."""

    @abstractmethod
    def _feed(self, event: TableEvent) -> list[Ruling]:
        """Judges one game event (already checked for seat and time order)."""

    @abstractmethod
    def _report(self) -> RefereeReport:
        """The report before corrections are applied."""

    # -- public -------------------------------------------------------------------
    def seat_index(self, seat: str | None) -> int:
        """The index of a seat named in an event; InvalidActionError if unknown."""
        if seat is None:
            raise InvalidActionError("event needs a 'seat' field", input="seat")
        try:
            return self.seats.index(seat)
        except ValueError:
            raise InvalidActionError(
                f"seat {seat!r} is not in the header (seats: {', '.join(self.seats)})", input=seat
            ) from None

    def feed(self, event: TableEvent) -> list[Ruling]:
        """Takes one event in log order and returns the rulings it causes.

        Raises InvalidActionError for a malformed event (unknown type, unknown
        seat, time going backwards); the referee's state is unchanged then.
        """
        if event.t_ns < self._last_t:
            raise InvalidActionError(
                f"time goes backwards: t={format_seconds(event.t_ns)} s after "
                f"t={format_seconds(self._last_t)} s",
                input=format_seconds(event.t_ns),
            )
        if event.type not in self.event_types and event.type not in self.GENERIC:
            known = ", ".join(sorted(self.event_types | self.GENERIC))
            raise InvalidActionError(
                f"unknown event type {event.type!r} for {self.game_name} (known: {known})",
                input=event.type,
            )
        if event.seat is not None:
            self.seat_index(event.seat)
        if event.type == "note":
            self._last_t = event.t_ns
            self._notes.append(str(event.get("text", "")))
            return []
        if event.type == "undo":
            self._last_t = event.t_ns
            return self._undo(event)
        if event.type == "score_correction":
            self.seat_index(event.seat)
            hand = event.require("hand")
            score = event.require("score")
            # JSON true/false are not numbers, though Python counts bools as ints.
            if (
                not isinstance(hand, int)
                or isinstance(hand, bool)
                or hand < 1
                or not isinstance(score, int)
                or isinstance(score, bool)
            ):
                raise InvalidActionError(
                    "score_correction needs a whole 'hand' (1-based) and a whole 'score'",
                    input=f"{hand!r}, {score!r}",
                )
            self._last_t = event.t_ns
            self._corrections.append(event)
            self._correction_at.append(len(self._events))
            self._correction_ruling_at.append(len(self._report().rulings))
            return [
                Ruling(
                    event.t_ns,
                    "correction",
                    f"score corrected: {event.seat}, hand {hand}: {score}",
                    (event.seat or "",),
                )
            ]
        rulings = self._feed(event)
        self._events.append(event)
        self._last_t = event.t_ns
        return rulings

    def feed_all(self, events: Iterable[TableEvent]) -> list[Ruling]:
        out: list[Ruling] = []
        for e in events:
            out.extend(self.feed(e))
        return out

    def _undo(self, event: TableEvent) -> list[Ruling]:
        """Takes back the last effective event and re-folds the rest.

        A ``score_correction`` logged after the last game event is the last effective event:
        docs/table-log.md calls undo the kiosk's "undo last ruling", and a correction is shown
        as a ruling, so undo takes it back rather than the card before it."""
        undone: TableEvent
        if self._corrections and self._correction_at[-1] >= len(self._events):
            undone = self._corrections.pop()
            self._correction_at.pop()
            self._correction_ruling_at.pop()
        elif self._events:
            undone = self._events.pop()
            # A line recognised as a repeat goes with the event it repeats: undo takes back what the
            # table did once, as it would in the log without the repeat.
            while any(undone is x for x in self._repeat_lines) and self._events:
                undone = self._events.pop()
            # A correction logged after the undone event now follows the events that remain.
            self._correction_at = [min(at, len(self._events)) for at in self._correction_at]
        else:
            return [Ruling(event.t_ns, "undo", "nothing to undo")]
        self._refold()
        return [Ruling(event.t_ns, "undo", f"undone: {undone.type} at {format_seconds(undone.t_ns)} s")]

    def _refold(self) -> None:
        """Replays the effective events from an empty table, each score_correction fed back
        where it was logged: a game that reads the corrections logged so far (the end of the
        game on corrected totals) sees, at each event, only those logged before it."""
        remaining, self._events = self._events, []
        corrections, self._corrections = self._corrections, []
        last_t = self._last_t
        self._reset()
        for i in range(len(remaining) + 1):
            while (
                len(self._corrections) < len(corrections) and self._correction_at[len(self._corrections)] <= i
            ):
                fix = corrections[len(self._corrections)]
                self._correction_ruling_at[len(self._corrections)] = len(self._report().rulings)
                self._corrections.append(fix)
                self._refold_correction(fix)
            if i < len(remaining):
                self._feed(remaining[i])
                self._events.append(remaining[i])
        self._last_t = last_t

    def _refold_correction(self, fix: TableEvent) -> None:
        """Hook: a score_correction fed again during a re-fold (after the events logged before
        it). Games whose state follows the corrected scores as they are logged override it."""
        return None

    def public_view(self) -> object | None:
        """What everyone at the table can see, as a frozen dataclass (``STYLE.md``, "What the
        kiosk may show"); the kiosk draws the play screen from it and never from the referee.
        Every game's referee returns its own view; None means the game has none, and the play
        screen then shows only each seat's total."""
        return None

    def report(self) -> RefereeReport:
        """The current rulings, infractions and scores (with corrections applied)."""
        rep = self._report()
        rep.notes.extend(self._notes)
        scored = len(rep.hands)
        for n, (c, at) in enumerate(zip(self._corrections, self._correction_ruling_at, strict=True)):
            hand = int(c.data["hand"])
            seat = c.seat or ""
            old = 0
            # A correction replaces a seat's score for one hand (docs/table-log.md): one naming a hand
            # the table has not scored (the log stops first, the hand is still in play, or the game
            # ended before it) has no score to replace, so it adds no row and changes no total; it
            # takes effect once that hand is scored, if it ever is.
            if hand <= scored:
                old = rep.hands[hand - 1].get(seat, 0)
                rep.hands[hand - 1][seat] = int(c.data["score"])
                rep.totals[seat] = rep.totals.get(seat, 0) - old + int(c.data["score"])
            # In log order: after the game's rulings made before the correction (and the
            # corrections before it), before any later one.
            text = (
                f"score corrected: {seat}, hand {hand}: {old} -> {c.data['score']}"
                if hand <= scored
                else f"score corrected: {seat}, hand {hand}: {c.data['score']} (hand {hand} not scored "
                "yet: it applies once it is)"
            )
            rep.rulings.insert(min(at + n, len(rep.rulings)), Ruling(c.t_ns, "correction", text, (seat,)))
        return rep

    def _repeats_last(self, event: TableEvent, within_ns: int | None = None) -> bool:
        """True when ``event`` repeats the last effective game event: the same type, seat and data
        (and, with ``within_ns``, logged at most that long after it). A camera-fed log may log one
        event twice in a row (at the same time or a frame later); each game decides where that
        cannot be a second real event and ignores it there."""
        if not self._events:
            return False
        last = self._events[-1]
        return (
            last.type == event.type
            and last.seat == event.seat
            and last.data == event.data
            and (within_ns is None or event.t_ns - last.t_ns <= within_ns)
        )

    def _mark_repeat(self, event: TableEvent) -> None:
        """Records that ``event`` repeats the event before it (a camera repeat the game recognised):
        an undo after it takes back both."""
        if not any(event is x for x in self._repeat_lines):
            self._repeat_lines.append(event)

    @property
    def events(self) -> list[TableEvent]:
        """The effective events so far (undone ones removed)."""
        return list(self._events)


def replace_data(event: TableEvent, **changes: Any) -> TableEvent:
    """Returns a copy of ``event`` with some data fields changed."""
    return dataclasses.replace(event, data={**event.data, **changes})


def sync_end_ruling(report: RefereeReport, kind: str, text: str, t_ns: int) -> None:
    """Makes the report's end-of-game ruling (``kind``) agree with ``finished`` and ``winners``
    once score corrections have decided them (docs/table-log.md: the end of the game follows the
    corrected scores): announced with ``text`` at ``t_ns`` if a correction ended the game, its
    text and seats brought up to date if it names other winners, dropped if the game goes on."""
    if not report.finished:
        report.rulings = [r for r in report.rulings if r.kind != kind]
        return
    seats = tuple(report.winners)
    ends = [i for i, r in enumerate(report.rulings) if r.kind == kind]
    if ends:
        # The game ends once: an earlier announcement was dropped by a correction that undid
        # that win (the table played on, or a later correction ended the game again), so only
        # the last one stands, naming the corrected winners.
        last = ends[-1]
        kept = dataclasses.replace(report.rulings[last], text=text, seats=seats)
        report.rulings = [
            kept if i == last else r for i, r in enumerate(report.rulings) if r.kind != kind or i == last
        ]
        return
    at = len(report.rulings)
    while at > 0 and report.rulings[at - 1].t_ns > t_ns:
        at -= 1
    report.rulings.insert(at, Ruling(t_ns, kind, text, seats))
