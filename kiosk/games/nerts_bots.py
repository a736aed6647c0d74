"""Nerts bots: seeded players with a human-like pace, and a simulated table.

A :class:`NertsBot` picks legal moves (``rules/nerts.md`` §6) for one player of
one seat: Nerts cards first, then foundation plays, then building, then
searching the stock; it declares itself stuck after a whole pass through its
stock with nothing to do, and rotates its stock while stuck (§7.2). Its pace
is a :class:`BotPace`: moves per second, the reaction delay before each lift,
and the time a card is in the air.

:func:`simulate_hand` seats bots at one table and runs a hand to its end (a
call or a stalemate). The bots' moves land on a :class:`NertsReferee` in
landing order, so races, ties and cards in the air at the call are judged
exactly as at a real table. It returns the timed move stream (seat, actor,
card, source, destination, ``t_lift``, ``t_land``, outcome) for the table
simulator to render, and the full table log that ``kiosk replay`` referees.

>>> hand = simulate_hand(3, seats=["Ana", "Ben", "Cal", "Dee"])
>>> hand.end in ("call", "stalemate"), len(hand.scores)
(True, 4)
>>> hand.moves[0].t_lift_ns <= hand.moves[0].t_land_ns
True
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from kiosk.games.base import build_options
from kiosk.games.cards import Card
from kiosk.games.nerts_actions import (
    Build,
    Call,
    MoveBlock,
    NertsAction,
    Play,
    Recycle,
    Rotate,
    SlideUnder,
    Stuck,
    Turn,
    seat_deck,
)
from kiosk.games.nerts_layout import SeatLayout, seat_actions
from kiosk.games.nerts_options import NertsOptions, check_options
from kiosk.games.nerts_referee import NertsReferee
from kiosk.games.referee import LogHeader, RefereeReport, TableEvent, format_seconds

__all__ = ["BotPace", "TimedMove", "NertsBot", "SimulatedHand", "simulate_hand", "camera_events"]

_MS = 1_000_000
COUNT_DELAY_NS = 1_000 * _MS
"""From the last card landing (or the stalemate) to the players' counts and the end of the hand."""
_SOURCE_NAMES = {"N": "nerts", "W": "waste"}


def _source_name(src: str) -> str:
    return _SOURCE_NAMES.get(src, f"work{src}")


@dataclass(frozen=True, slots=True)
class BotPace:
    """How fast a bot plays: a brisk human by default."""

    moves_per_second: float = 1.5
    """Average rate of moves (lift to lift) while the bot has something to do."""
    reaction_ms: int = 400
    """Delay between a card landing and the next lift (seeing and deciding)."""
    flight_ms: int = 350
    """Time a card spends between lift and landing."""
    jitter: float = 0.35
    """Relative spread of each delay (uniform, +-)."""
    landing_err_ms: int = 4
    """The uncertainty written with each landing time (``err``), as a camera would."""

    def __post_init__(self) -> None:
        if self.moves_per_second <= 0 or self.reaction_ms < 0 or self.flight_ms < 0:
            raise ValueError(f"a bot pace needs positive rates and delays, got {self!r}")
        if not 0 <= self.jitter < 1:
            raise ValueError(f"jitter must be in [0, 1), got {self.jitter}")


@dataclass(slots=True)
class TimedMove:
    """One move of the simulated table, as the renderer needs it."""

    seat: int
    actor: int
    """Which player of the seat (0, or 1 in a partnership)."""
    action: NertsAction
    kind: str
    """``play``, ``build``, ``slide``, ``block``, ``turn``, ``recycle``, ``rotate``, ``stuck`` or ``call``."""
    card: Card | None
    source: str | None
    """``nerts``, ``waste``, ``work1``.., ``stock``; None for a declaration."""
    destination: str | None
    """A foundation pile id (``F3``), ``work2``, ``under2``, ``waste``, ``stock``."""
    t_lift_ns: int
    t_land_ns: int
    outcome: str = ""
    """After refereeing: ``stands``, ``tie``, ``taken_back``, ``illegal``, or ``cancelled`` (a reset or
    the end of the hand overtook it: never logged); empty for declarations."""


@dataclass
class SimulatedHand:
    """A finished simulated hand: the timed moves, the table log and the result."""

    seats: tuple[str, ...]
    options: NertsOptions
    moves: list[TimedMove]
    header: LogHeader
    events: list[TableEvent]
    """The full table log of the hand (deal and every layout move included)."""
    end: str
    """``call``, ``stalemate`` or ``time`` (the safety limit stopped it)."""
    scores: dict[str, int]
    report: RefereeReport
    duration_ns: int


@dataclass
class NertsBot:
    """One player of one seat: picks a legal move and times it."""

    seat: int
    actor: int
    rng: random.Random
    pace: BotPace = field(default_factory=BotPace)
    idle_turns: int = 0
    """Searching moves since the last useful one."""
    rotations: int = 0

    def delay_ns(self, base_ms: float) -> int:
        j = self.pace.jitter
        return max(1, int(base_ms * self.rng.uniform(1 - j, 1 + j))) * _MS

    def next_gap_ns(self) -> int:
        cycle_ms = 1000.0 / self.pace.moves_per_second
        return self.delay_ns(max(self.pace.reaction_ms, cycle_ms - self.pace.flight_ms))

    def choose(self, layout: SeatLayout, actions: Sequence[NertsAction], opts: NertsOptions,
               busy: frozenset[str] = frozenset()) -> NertsAction | None:
        """Picks the next move, or None to wait (stuck with nothing to try).

        ``busy`` names the places (``N``, ``W``, ``stock``, work piles) that a
        partner's move in flight is using; this player leaves them alone.
        """
        if busy:
            actions = [a for a in actions if not places(a) & busy]
        by_kind: dict[int, list[NertsAction]] = {}
        for a in actions:
            by_kind.setdefault(self._priority(a, layout), []).append(a)
        if not by_kind:
            return None
        best = min(by_kind)
        if best >= 6:
            # Only searching moves are left: a whole pass with nothing found means stuck.
            cycle = (len(layout.stock) + len(layout.waste)) // max(1, opts.stock_turn_count) + 2
            if not layout.stuck and (self.idle_turns > cycle or not any(
                    isinstance(a, (Turn, Recycle)) for a in actions)):
                return next((a for a in actions if isinstance(a, Stuck)), None)
            if layout.stuck:
                rot = [a for a in actions if isinstance(a, Rotate)]
                if rot and 2 <= len(layout.stock) and self.rotations < len(layout.stock):
                    self.rotations += 1
                    return rot[0]
                return None
        return self.rng.choice(by_kind[best])

    @staticmethod
    def _priority(a: NertsAction, layout: SeatLayout) -> int:
        if isinstance(a, Call):
            return 0
        if isinstance(a, Play):
            return 1 if a.source == "N" else 2
        if isinstance(a, (Build, SlideUnder)) and a.source == "N":
            return 3
        if isinstance(a, MoveBlock):
            # Merging a whole pile frees a space for the Nerts pile; other block moves are noise.
            return 4 if a.index == 0 and layout.work[a.to_work - 1] and layout.nerts else 9
        if isinstance(a, Build):
            dest = layout.work[a.work - 1]
            return 5 if dest or not layout.nerts else 9
        if isinstance(a, SlideUnder):
            return 5
        if isinstance(a, (Turn, Recycle)):
            return 6
        if isinstance(a, (Stuck, Rotate)):
            return 7
        return 9


def places(action: NertsAction) -> frozenset[str]:
    """The parts of the seat's layout an action touches (for partners playing at once)."""
    if isinstance(action, Play):
        return frozenset({action.source})
    if isinstance(action, (Build, SlideUnder)):
        return frozenset({action.source, str(action.work)})
    if isinstance(action, MoveBlock):
        return frozenset({str(action.from_work), str(action.to_work)})
    if isinstance(action, (Turn, Recycle, Rotate)):
        return frozenset({"stock", "W"})
    return frozenset()


def _kind_and_places(action: NertsAction, pile_id: str | None) -> tuple[str, Card | None, str, str]:
    if isinstance(action, Play):
        return "play", action.card, _source_name(action.source), pile_id or ""
    if isinstance(action, Build):
        return "build", action.card, _source_name(action.source), f"work{action.work}"
    if isinstance(action, SlideUnder):
        return "slide", action.card, _source_name(action.source), f"under{action.work}"
    if isinstance(action, MoveBlock):
        return "block", action.card, f"work{action.from_work}", f"work{action.to_work}"
    if isinstance(action, Turn):
        return "turn", None, "stock", "waste"
    if isinstance(action, Recycle):
        return "recycle", None, "waste", "stock"
    if isinstance(action, Rotate):
        return "rotate", None, "stock", "stock"
    if isinstance(action, Stuck):
        return "stuck", None, "", ""
    return "call", None, "", ""


def _secs(t_ns: int) -> Decimal:
    return Decimal(format_seconds(t_ns))


def simulate_hand(
    seed: int | random.Random,
    *,
    seats: Sequence[str] | int = 4,
    options: NertsOptions | Mapping[str, Any] | None = None,
    pace: BotPace | Sequence[BotPace] | None = None,
    partners: Sequence[int] = (),
    start_ns: int = 0,
    max_seconds: int = 1800,
) -> SimulatedHand:
    """Plays one hand of bots to its end (a call or a stalemate) and referees it.

    ``pace`` is one :class:`BotPace` for all or one per seat; ``partners`` lists
    seats played by a partnership of two bots (§10). ``max_seconds`` of table
    time is a safety limit (the end is then ``"time"``). Deterministic given
    ``seed``.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    names = tuple(f"P{i + 1}" for i in range(seats)) if isinstance(seats, int) else tuple(seats)
    opts = options if isinstance(options, NertsOptions) else \
        build_options(NertsOptions, options, game="nerts")
    check_options(opts)
    n = len(names)
    paces = [pace if isinstance(pace, BotPace) else BotPace()] * n if not isinstance(pace, Sequence) \
        else list(pace)
    if len(paces) != n:
        raise ValueError(f"give one pace for all seats or one per seat ({n}), got {len(paces)}")
    if partners and n < 3:
        # Only six or more players pair up (§2, §10), and the referee holds a two-seat game to that.
        raise ValueError(f"partnerships need six or more players: three seats or more, got {n}")
    referee = NertsReferee(names, opts)
    events: list[TableEvent] = []
    deal: dict[str, str] = {}
    for s, name in enumerate(names):
        deck = seat_deck(s, opts.jokers)
        rng.shuffle(deck)
        deal[name] = " ".join(c.face_str() for c in deck)

    feed_and_rulings(referee, events, TableEvent("hand_start", start_ns, 0, None, {"deal": deal}))
    hand = referee.hand
    assert hand is not None
    bots: list[NertsBot] = []
    queue: list[tuple[int, int, str, int]] = []
    seq = 0
    for s in range(n):
        for actor in range(2 if s in partners else 1):
            bot = NertsBot(s, actor, random.Random(rng.getrandbits(64)), paces[s])
            bots.append(bot)
            first_lift = start_ns + bot.delay_ns(bot.pace.reaction_ms + 300)
            heapq.heappush(queue, (first_lift, seq, "lift", len(bots) - 1))
            seq += 1
    in_flight: dict[int, tuple[TimedMove, TableEvent, int]] = {}
    moves: list[TimedMove] = []
    next_pile = 1
    limit = start_ns + max_seconds * 1_000_000_000
    t = start_ns
    while queue:
        t, _, what, b = heapq.heappop(queue)
        bot = bots[b]
        name = names[bot.seat]
        if what == "land":
            move, event, resets = in_flight.pop(b)
            if hand.phase == "stalemate" or hand.resets != resets or (
                    move.kind == "rotate" and not hand.stuck[bot.seat]):
                # The table was reset (or the hand ended) while this move was in the air: the
                # player puts the card back and the move never happens. So too a rotation (M10: only
                # while the seat is stuck) when a partner's move cleared the seat's flag meanwhile (M9).
                move.outcome = "cancelled"
                if hand.phase == "play":
                    heapq.heappush(queue, (t + bot.next_gap_ns(), seq, "lift", b))
                    seq += 1
                continue
            before = len(referee.infractions)
            rulings = feed_and_rulings(referee, events, event)
            move.outcome = _outcome(move, rulings, len(referee.infractions) > before)
            if move.outcome in ("stands", "tie") and move.kind in ("play", "build", "slide", "block"):
                bot.idle_turns = 0
            if hand.phase == "play":
                heapq.heappush(queue, (t + bot.next_gap_ns(), seq, "lift", b))
                seq += 1
            continue
        if hand.phase != "play" or t > limit:
            continue
        layout = hand.layouts[bot.seat]
        if not layout.stuck:
            bot.rotations = 0
        busy = frozenset().union(*(places(m.action) for k, (m, _, _) in in_flight.items()
                                   if bots[k].seat == bot.seat))
        action = bot.choose(layout, seat_actions(layout, hand.order, opts), opts, busy)
        if action is None:
            heapq.heappush(queue, (t + bot.delay_ns(1000), seq, "lift", b))
            seq += 1
            continue
        pile_id: str | None = None
        if isinstance(action, Play):
            if action.pile is None:
                pile_id = f"F{next_pile}"
                next_pile += 1
            else:
                pile_id = hand.order[action.pile - 1].pid
        kind, card, src, dst = _kind_and_places(action, pile_id)
        if kind in ("turn", "recycle", "rotate"):
            bot.idle_turns += 1
        if kind in ("stuck", "call"):
            # Declarations take no time and put no card in the air.
            move = TimedMove(bot.seat, bot.actor, action, kind, None, None, None, t, t)
            moves.append(move)
            feed_and_rulings(referee, events, TableEvent(kind, t, 0, name, {}))
            if hand.phase == "play":
                heapq.heappush(queue, (t + bot.next_gap_ns(), seq, "lift", b))
                seq += 1
            continue
        if kind in ("turn", "recycle", "rotate"):
            # Stock handling: one quick motion, logged when it is done.
            t_land = t + bot.delay_ns(150)
            move = TimedMove(bot.seat, bot.actor, action, kind, None, src, dst, t, t_land)
            moves.append(move)
            in_flight[b] = (move, TableEvent(kind, t_land, 0, name, {}), hand.resets)
            heapq.heappush(queue, (t_land, seq, "land", b))
            seq += 1
            continue
        assert card is not None
        t_land = t + bot.delay_ns(bot.pace.flight_ms)
        move = TimedMove(bot.seat, bot.actor, action, kind, card, src, dst, t, t_land)
        moves.append(move)
        data: dict[str, Any] = {"card": card.face_str()}
        if kind == "play":
            data["pile"] = dst
            if isinstance(action, Play) and action.declared is not None:
                data["as"] = action.declared.face_str()
        data["from"] = src
        if kind != "play":
            data["to"] = dst
        if isinstance(action, MoveBlock) and card.is_joker:
            data["index"] = action.index  # a deck's two jokers look alike: name the block's place
        data["t_lift"] = _secs(t)
        if bot.actor:
            data["actor"] = f"{name}.{bot.actor + 1}"
        err = bot.pace.landing_err_ms * _MS
        etype = "foundation_play" if kind == "play" else "move"
        in_flight[b] = (move, TableEvent(etype, t_land, err, name, data), hand.resets)
        heapq.heappush(queue, (t_land, seq, "land", b))
        seq += 1
    end = {"called": "call", "stalemate": "stalemate"}.get(hand.phase, "time")
    # The players count their cards once the table is still, not at the instant the last card lands:
    # a card in the air at the call, timed by a camera a few ms late, must not land after the count.
    t_end = max(t, events[-1].t_ns) + COUNT_DELAY_NS
    for s, name in enumerate(names):
        lay = hand.layouts[s]
        f = sum(1 for p in hand.order for c in p.cards if c.deck == s)
        feed_and_rulings(referee, events, TableEvent("count", t_end, 0, name,
                                                     {"nerts": len(lay.nerts), "foundation": f}))
    feed_and_rulings(referee, events, TableEvent("hand_end", t_end, 0, None, {}))
    report = referee.report()
    header = LogHeader("nerts", names, _changed_options(opts))
    return SimulatedHand(names, opts, moves, header, events, end, dict(report.hands[-1]), report,
                         t_end - start_ns)


def feed_and_rulings(referee: NertsReferee, events: list[TableEvent], event: TableEvent) -> list[str]:
    """Feeds one event, records it, and returns the kinds of the rulings it caused."""
    events.append(event)
    return [r.kind for r in referee.feed(event)]


def _outcome(move: TimedMove, rulings: list[str], breach: bool) -> str:
    if move.kind in ("stuck", "call"):
        return ""
    if breach:
        return "illegal"
    if "race" in rulings:
        return "taken_back"
    if "tie" in rulings:
        return "tie"
    return "stands"


def _changed_options(opts: NertsOptions) -> dict[str, Any]:
    default = NertsOptions()
    return {k: getattr(opts, k) for k in NertsOptions.__dataclass_fields__
            if getattr(opts, k) != getattr(default, k)}


def camera_events(events: Sequence[TableEvent], *, audit: bool = False) -> list[TableEvent]:
    """What an overhead camera reliably sees of a full log (§12): foundation plays,
    calls, stuck declarations and the Nerts counts (and the foundation audit with
    ``audit``); no deal and no layout moves.
    """
    out: list[TableEvent] = []
    for e in events:
        if e.type == "hand_start":
            out.append(TableEvent("hand_start", e.t_ns, e.err_ns, None, {}, e.line))
        elif e.type == "count" and not audit:
            out.append(TableEvent("count", e.t_ns, e.err_ns, e.seat, {"nerts": e.data["nerts"]}, e.line))
        elif e.type in ("foundation_play", "call", "stuck", "count", "hand_end"):
            out.append(e)
        elif e.type == "rotate":
            out.append(e)
    return out

