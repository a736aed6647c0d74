"""The Nerts referee: table events in, rulings, infractions and scores out.

It judges what physically happened (``rules/nerts.md`` §5-§8, §12) and never
raises for a breach of the rules; only a malformed event (an unknown card, a
missing field, a bad count) raises :class:`InvalidActionError`.

Two depths of log are refereed:

- **camera level** (untracked): foundation plays with their seat, card, pile id
  and landing time (``t``, ``err``, optionally ``t_lift``), "Nerts!" calls,
  stuck declarations and the end-of-hand counts (§12). The referee judges every
  play against its pile, decides races (§6.1), the call with cards in the air
  (§7.1), resets and stalemates (§7.2), and scores with the counts.
- **full** (tracked): the ``hand_start`` event carries each seat's deck order, and
  the log holds every layout move too (``move``, ``turn``, ``recycle``,
  ``rotate``). The referee then also keeps every layout and checks every move.

Races (§6.1): the cards that raised a pile to its level form its *group*; a
later card of the same face ties with the group's earliest card (``t1``, ``e1``)
when ``t - t1 <= tie_window + e + e1``, all in whole nanoseconds; otherwise the
earliest stands and the later one must be taken back.

The event types and their fields are documented, each with an example, in
``docs/table-log.md`` ("Nerts events").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.nerts_actions import Build, MoveBlock, NertsAction, SlideUnder, seat_deck
from kiosk.games.nerts_layout import (
    SeatLayout,
    apply_layout_action,
    deal_layout,
    fits_on,
    foundation_accepts,
    implied_face,
    recycle,
    reset_layout,
    rotate,
    run_ok,
    source_card,
    turn_stock,
)
from kiosk.games.nerts_options import NertsOptions
from kiosk.games.nerts_referee_view import NertsPileView, NertsSeatTally, NertsTableView
from kiosk.games.nerts_scoring import game_end, hand_score
from kiosk.games.referee import (
    NS_PER_S,
    REPEAT_WINDOW_NS,
    Infraction,
    Referee,
    RefereeReport,
    Ruling,
    TableEvent,
    format_seconds,
    sync_end_ruling,
)

__all__ = ["NertsReferee", "RefPile", "NERTS_EVENT_TYPES", "parse_source", "parse_destination"]

NERTS_EVENT_TYPES = frozenset({
    "hand_start", "foundation_play", "move", "turn", "recycle", "rotate", "stuck", "call", "count",
    "hand_end", "nerts_top", "unseen_play",
})

_SOURCES = {"nerts": "N", "n": "N", "waste": "W", "w": "W"}
_BACKWARD = {**_SOURCES, "stock": "S"}
"""Places a card may not be moved to (§6 forbidden moves), but where a refused card returns."""
_PLACE = {"N": "Nerts pile", "W": "waste", "S": "stock"}
_DOCUMENTED_SOURCE = re.compile(r"nerts|waste|stock|work\d+")
"""The source names of docs/table-log.md (``from``): a pile id spelt like one is read as the source."""
_STOCK_TEXT = ("{name}'s {card} came from the stock: a stock card is never available (turn it onto the "
               "waste first). {name}, put it back")


def _is_stock(text: Any) -> bool:
    """Whether a ``from`` field names the stock: never a source of play (§3 available cards; a stock
    card reaches play only by M1), so such a play is a breach to referee, not a malformed line."""
    return isinstance(text, str) and text.strip().lower() == "stock"


def parse_source(text: Any, work_piles: int) -> str:
    """Normalises a source field: ``nerts``/``N``, ``waste``/``W``, ``work3``/``3``.

    >>> parse_source("work3", 4), parse_source("nerts", 4)
    ('3', 'N')
    """
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InvalidActionError(f"'from' must name a source (nerts, waste, work1..), got {text!r}",
                                 input=repr(text))
    t = text.strip().lower()
    if t in _SOURCES:
        return _SOURCES[t]
    n = t.removeprefix("work")
    if n.isdigit() and 1 <= int(n) <= work_piles:
        return str(int(n))
    raise InvalidActionError(
        f"unknown source {text!r}: use nerts, waste or work1..work{work_piles}", input=text)


def parse_destination(text: Any, work_piles: int) -> tuple[str, int]:
    """Normalises a layout destination: ``work2`` -> ('work', 2), ``under2`` -> ('under', 2)."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InvalidActionError(f"'to' must name a work pile (work1.., under1..), got {text!r}",
                                 input=repr(text))
    t = text.strip().lower()
    kind = "under" if t.startswith("under") or t.startswith("u") else "work"
    n = t.removeprefix("under").removeprefix("u").removeprefix("work")
    if n.isdigit() and 1 <= int(n) <= work_piles:
        return kind, int(n)
    raise InvalidActionError(
        f"unknown destination {text!r}: use work1..work{work_piles} or under1..under{work_piles}", input=text)


def _seconds(value: Any, what: str) -> int:
    """Decimal seconds (as the log reader passes them: int, float or string) to nanoseconds."""
    if type(value) is float and -1e6 < value < 1e6:
        # Exact for up to nine decimals below a million seconds: the float's error is under
        # 0.06 ns there, so rounding lands on the same whole nanosecond as the decimal would.
        return round(value * NS_PER_S)
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise InvalidActionError(f"{what!r} must be a number of seconds, got {value!r}", input=repr(value))
    try:
        text = repr(value) if isinstance(value, float) else value
        d = value if isinstance(value, Decimal) else Decimal(text)
    except InvalidOperation:
        raise InvalidActionError(f"{what!r} must be a number of seconds, got {value!r}",
                                 input=repr(value)) from None
    if not d.is_finite():
        raise InvalidActionError(f"{what!r} must be finite, got {value!r}", input=repr(value))
    return int((d * NS_PER_S).to_integral_value())


def _lift_time(e: TableEvent) -> int | None:
    """The event's ``t_lift`` in nanoseconds (None when absent); it must not be after the landing."""
    value = e.get("t_lift")
    if value is None:
        return None
    t_lift = _seconds(value, "t_lift")
    if t_lift > e.t_ns:
        raise InvalidActionError(
            f"t_lift {format_seconds(t_lift)} s is after the landing t={format_seconds(e.t_ns)} s",
            input=format_seconds(t_lift))
    return t_lift


def _lift_err(e: TableEvent) -> int:
    """The event's ``err_lift`` in nanoseconds (0 when absent): how far off ``t_lift`` may be either way."""
    value = e.get("err_lift")
    if value is None:
        return 0
    err = _seconds(value, "err_lift")
    if err < 0:
        raise InvalidActionError(f"err_lift must not be negative, got {value!r}", input=repr(value))
    return err


def _pile_id(value: Any) -> str:
    """A foundation pile's id as the log gives it (any non-empty text, or a whole number), as text."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
        raise InvalidActionError(f"'pile' must be a pile id such as \"F3\", got {value!r}",
                                 input=repr(value))
    return str(value)


def _ms(gap_ns: int) -> int:
    return (gap_ns + 500_000) // 1_000_000


@dataclass(slots=True)
class RefPile:
    """A foundation pile as the referee knows it, with the group that set its level."""

    pid: str
    suit: Suit | None
    level: int
    cards: list[Card] = field(default_factory=list)
    """The cards on the pile, each in its owner's deck; deck ``n`` (no seat's) for an ``unseen_play``."""
    faces: list[Card] = field(default_factory=list)
    group: list[tuple[int, int, int]] = field(default_factory=list)
    """(seat, t_land_ns, err_ns) of every card that stands at the current level, earliest first."""

    @property
    def complete(self) -> bool:
        return self.level >= 13

    @property
    def top_face(self) -> Card:
        return self.faces[-1]


@dataclass(slots=True)
class _Hand:
    """Everything the referee tracks within one hand."""

    number: int
    tracked: bool
    layouts: list[SeatLayout]
    piles: dict[str, RefPile] = field(default_factory=dict)
    order: list[RefPile] = field(default_factory=list)
    phase: str = "play"
    """``play``, ``called`` or ``stalemate``."""
    stuck: list[bool] = field(default_factory=list)
    nerts_out: list[int] = field(default_factory=list)
    """Untracked: cards seen leaving each Nerts pile (§12: count them as they leave)."""
    nerts_gone: list[set[Card]] = field(default_factory=list)
    """Untracked: which cards those were, so that a card seen leaving (``from: nerts``) and seen replaced
    on top (``nerts_top``) counts once."""
    nerts_top: list[Card | None] = field(default_factory=list)
    """Untracked: the card last seen on top of each Nerts pile (``nerts_top``)."""
    on_foundation: set[Card] = field(default_factory=set)
    jokers_played: list[int] = field(default_factory=list)
    resets: int = 0
    idle_resets: int = 0
    caller: int | None = None
    t_call: int = 0
    t_go: int | None = None
    """The Go of a hand started by ``hand_start`` (None for one a play started): no card moves before it."""
    counts: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)
    penalties: list[int] = field(default_factory=list)
    flights: dict[tuple[int, str | None], tuple[int, int]] = field(default_factory=dict)
    """The last landing of each (seat, actor), time and err: a lift before it means two cards in flight."""
    spans: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    """Each seat's last few moves: (lift plus its err, or the landing when the lift is unknown; landing;
    landing err). In a partnership three of them in flight at once break the one-hand rule (§10)."""
    refused: dict[Card, tuple[str, str | None]] = field(default_factory=dict)
    """Cards sent back from a foundation (lost race, illegal play): the pile and their source (§6.1)."""
    open_red: dict[str, bool] = field(default_factory=dict)
    """Piles started by an undeclared joker that its work pile made a red (True) or black Ace: their suit
    is open until the next card shows it, their colour is not (§9: consistent with its constraints)."""
    turns: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Each seat's stock turns since its waste was last empty: the latest time the packet may have landed
    on the waste, and the waste's height before it."""
    left_top: set[Card] = field(default_factory=set)
    """Refused cards that did leave the top of their Nerts pile or waste (a card refused as not available
    never left it): their return puts them back on top (§6.1)."""
    auto_recycled: set[int] = field(default_factory=set)
    """Seats whose last search move was a short turn that ``short_stock = recycle_immediately`` followed
    with the recycle (§6): a ``recycle`` logged next is that same recycle, not a second one."""


class NertsReferee(Referee):
    """Referees a Nerts table log (see the module docstring)."""

    game_name = "nerts"
    event_types = NERTS_EVENT_TYPES

    def __init__(self, seats: Sequence[str], options: NertsOptions) -> None:
        self.opts = options
        self.n = len(seats)
        self._window_ns = options.tie_window_ms * 1_000_000
        self._cards: dict[tuple[Any, int], Card] = {}
        self._sources: dict[Any, str] = {}
        self._faces: dict[Card, Card] = {}
        self._decks = [Counter(seat_deck(s, options.jokers)) for s in range(len(seats))]
        self._handlers: dict[str, Callable[[TableEvent], None]] = {
            "hand_start": self._on_hand_start, "foundation_play": self._on_play, "move": self._on_move,
            "turn": self._on_search, "recycle": self._on_search, "rotate": self._on_search,
            "stuck": self._on_stuck, "call": self._on_call, "count": self._on_count,
            "hand_end": self._on_hand_end, "nerts_top": self._on_nerts_top,
            "unseen_play": self._on_unseen_play,
        }
        super().__init__(seats, options)

    # -- state -----------------------------------------------------------------------------
    def _reset(self) -> None:
        self.hand: _Hand | None = None
        self.hands_played = 0
        self.totals = [0] * self.n
        self.hand_scores: list[list[int]] = []
        self.details: list[dict[str, Any]] = []
        self.reached = False
        self.over = False
        self.winners: list[int] = []
        self.rulings: list[Ruling] = []
        self.infractions: list[Infraction] = []
        self._new: list[Ruling] = []
        self._estimates: list[str] = []
        self._repeats: list[str] = []
        """Notes on lines the camera logged twice and the referee ignored."""
        self._t_fed = 0
        """The time of the last game event judged: a hand the log leaves open is scored then."""
        self._tops_ahead: dict[int, Card] = {}
        """Nerts tops seen while no hand is in play (the deal, before "Go"): the next hand's first tops."""
        self._actors: dict[int, set[str]] = {}
        """The players named in ``actor`` fields, per seat, over the whole game: a partnership is one
        seat for the game (§10), so a third name is a third player whichever hand it turns up in."""
        self._last_piles: set[str] = set()
        """The pile ids of the hand scored last: a card moved off one of them before the next Go (or after
        the game) names a pile, and is ruled ``after_hand`` (``after_game``), not a malformed line."""

    def _rule(self, t: int, kind: str, text: str, seats: Sequence[int] = ()) -> None:
        # Each seat the ruling concerns once: a partnership's two jokers may tie or race each other
        # (§9, §10), and the seat is one seat however many of its cards the ruling names.
        r = Ruling(t, kind, text, tuple(self.seats[s] for s in dict.fromkeys(seats)))
        self.rulings.append(r)
        self._new.append(r)

    def _breach(self, e: TableEvent, kind: str, text: str, seat: int | None = None) -> None:
        who = None if seat is None else self.seats[seat]
        self.infractions.append(Infraction(e.t_ns, kind, text, who, e.line))

    def _feed(self, event: TableEvent) -> list[Ruling]:
        self._new = []
        self._t_fed = event.t_ns
        self._handlers[event.type](event)
        return self._new

    def feed(self, event: TableEvent) -> list[Ruling]:
        rulings = super().feed(event)
        if event.type == "score_correction":
            # Placed among the rulings announced so far, not those the report adds for a hand the log
            # leaves open after its call: a hand_end logged later replaces those (see report()).
            self._correction_ruling_at[-1] = len(self.rulings)
            rulings.extend(self._settle_end(event.t_ns))
        return rulings

    def _refold_correction(self, fix: TableEvent) -> None:
        self._correction_ruling_at[len(self._corrections) - 1] = len(self.rulings)
        self._settle_end(fix.t_ns)

    def _settle_end(self, t: int) -> list[Ruling]:
        """After a score correction logged between hands, re-decides the end of the game (§8.1) on the
        scores as corrected so far: the end and its winners follow the corrected scores
        (docs/table-log.md), so a correction can end the game before the next Go, change its winners,
        or undo a win and let the table play on. A new outcome is announced as a hand's end would
        announce it (``game_end``, or ``tie_for_win``). During a hand the hand's end decides, unless
        the correction ends the game on the hands already scored (see ``_end_in_hand``)."""
        self._new = []
        if self.hand is not None:
            return self._end_in_hand(t)
        if not self.hands_played:
            return []
        before = (self.over, list(self.winners), self.reached)
        self.over, self.winners, self.reached, totals = _decide_end(
            self._corrected_rows(), self.opts.target_score, self.opts.tie_break)
        ruling = _end_ruling(self.seats, self.over, self.winners, self.reached, totals)
        if (self.over, self.winners, self.reached) == before or ruling is None:
            return self._new
        ended = [i for i, r in enumerate(self.rulings) if r.kind == "game_end"]
        if before[0] and self.over and ended:
            # Still over, with other winners: the correction changes the seats and text of the game_end
            # already announced (docs/table-log.md) rather than ending the game a second time.
            kind, text, seats = ruling
            r = Ruling(self.rulings[ended[-1]].t_ns, kind, text, tuple(self.seats[s] for s in seats))
            self.rulings[ended[-1]] = r
            self._new.append(r)
        else:
            self._rule(t, *ruling)
        return self._new

    def _end_in_hand(self, t: int) -> list[Ruling]:
        """A correction logged while a hand is in play that ends the game on the hands already scored
        (§8.1: the game ends after the hand in which a total reaches the target) ends it at the
        correction's time (docs/table-log.md): the hand in play is no hand of the game and is not
        scored, its later events are after_game, and the winner is the one the scored hands name, so
        the report's totals and its winner agree. A correction that leaves the game open (or a tie
        that plays on) changes nothing until the hand's end."""
        done = len(self.hand_scores)
        if not done:
            return []
        over, winners, reached, totals = _decide_end(
            self._corrected_rows()[:done], self.opts.target_score, self.opts.tie_break)
        ruling = _end_ruling(self.seats, over, winners, reached, totals)
        if not over or ruling is None:
            return []
        self.over, self.winners, self.reached = True, winners, reached
        self.hand = None
        self.hands_played = done
        self._rule(t, *ruling)
        return self._new

    # -- hands -----------------------------------------------------------------------------
    def _start_hand(self, deal: list[list[Card]] | None) -> _Hand:
        self.hands_played += 1
        n = self.n
        layouts = [deal_layout(s, order, self.opts) for s, order in enumerate(deal)] if deal else []
        self.hand = _Hand(self.hands_played, deal is not None, layouts, stuck=[False] * n,
                          nerts_out=[0] * n, nerts_gone=[set() for _ in range(n)],
                          nerts_top=[self._tops_ahead.get(s) for s in range(n)],
                          jokers_played=[0] * n, penalties=[0] * n)
        self._tops_ahead = {}
        return self.hand

    def _live_hand(self, e: TableEvent) -> _Hand | None:
        """The hand an in-play event belongs to; starts one implicitly when none is open."""
        if self.over:
            self._breach(e, "after_game", f"{e.type} after the game is over: ignored", self._seat_or_none(e))
            return None
        if self.hand is None and self.hands_played:
            # Between a hand_end and the next "Go": only the first hand may start without a hand_start
            # (docs/table-log.md). A stray event here is no hand of its own, which would be scored with
            # 13 Nerts cards a seat: no card moves before the signal (§4 step 6), a call is late (§7.1).
            self._between_hands(e)
            return None
        if self.hand is None:
            return self._start_hand(None)
        return self.hand

    def _between_hands(self, e: TableEvent) -> None:
        """Rules an in-play event logged after hand ``hands_played`` was scored, before the next Go."""
        seat = self._seat_or_none(e)
        done = f"hand {self.hands_played} is over"
        if e.type == "call":
            self._breach(e, "late_call", f"{e.seat} called after {done}: ignored", seat)
        elif e.type == "count":
            self._breach(e, "after_hand", f"count for {e.seat} after {done} and scored: ignored (a "
                         f"score_correction fixes that hand)", seat)
        elif e.type != "stuck":
            what = f"{e.seat}'s {e.type}" if seat is not None else e.type
            self._breach(e, "after_hand", f"{what} after {done}, before the next Go: take it back", seat)

    def _seat_or_none(self, e: TableEvent) -> int | None:
        return None if e.seat is None else self.seats.index(e.seat)

    def _on_hand_start(self, e: TableEvent) -> None:
        deal = self._parse_deal(e.get("deal"))
        if self.over:
            self._breach(e, "after_game", "hand_start after the game is over: ignored")
            return
        if self.hand is not None and self.hand.t_go is not None and self._repeats_last(e):
            # §7: a hand ends only by a call or a stalemate, so a Go with nothing logged since the last
            # Go is that Go seen twice (a camera repeat), not a new hand: closing the hand would score
            # it unplayed at 13 Nerts cards a seat.
            self._mark_repeat(e)
            self._repeats.append(f"hand {self.hand.number}: hand_start at {format_seconds(e.t_ns)} s "
                                 "logged twice: ignored")
            return
        if self.hand is not None and self._idle_before_go(self.hand):
            # Events logged before the first Go opened a hand of their own (a log may start without
            # a hand_start), but nothing in it counted: this hand_start is its Go. Closing it would
            # score a hand nobody played at 13 Nerts cards a seat for a stray "stuck" or count.
            # A false call in it was ruled with its points off (§7.1, false_call_penalty): they go to the
            # hand this Go starts, which the call belonged to, so that the score shows what was announced.
            penalties = self.hand.penalties
            # The Nerts tops the camera saw in it were seen before the Go: the hand's first tops (docs:
            # nerts_top), so that the first new top seen after the Go counts the card before it as gone.
            self._tops_ahead = {s: c for s, c in enumerate(self.hand.nerts_top) if c is not None}
            self.hands_played -= 1
            self.hand = None
        else:
            penalties = []
        if self.hand is not None:
            self._close_hand(e.t_ns)
            if self.over:
                self._breach(e, "after_game", "hand_start after the game is over: ignored")
                return
        hand = self._start_hand(deal)
        hand.t_go = e.t_ns
        if penalties:
            hand.penalties = penalties
        self._rule(e.t_ns, "hand_start", f"hand {hand.number}: go")

    @staticmethod
    def _idle_before_go(hand: _Hand) -> bool:
        """A hand no hand_start opened in which nothing counted yet: no card on a foundation or off a
        Nerts pile, no call, no stalemate."""
        return (hand.t_go is None and not hand.tracked and not hand.piles and hand.phase == "play"
                and not any(hand.nerts_out) and hand.caller is None)

    def _parse_deal(self, deal: Any) -> list[list[Card]] | None:
        if deal is None:
            return None
        if not isinstance(deal, dict):
            raise InvalidActionError("'deal' must map each seat to its deck order, e.g. "
                                     '{"Ana": "AS 7H ...", "Ben": "..."}', input=repr(deal)[:40])
        missing = [s for s in self.seats if s not in deal]
        extra = [s for s in deal if s not in self.seats]
        if missing or extra:
            raise InvalidActionError(
                f"'deal' must list every seat once: missing {missing}, unknown {extra}", input=str(deal)[:40])
        orders = []
        for s, name in enumerate(self.seats):
            text = deal[name]
            if not isinstance(text, str):
                raise InvalidActionError(f"deal of {name} must be a string of cards", input=repr(text)[:40])
            order = [self._card(tok, s, "deal") for tok in text.replace(",", " ").split()]
            full = self._decks[s]
            if Counter(order) != self._decks[s]:
                raise InvalidActionError(
                    f"deal of {name} must hold each card of a {full.total()}-card deck exactly once, "
                    f"got {len(order)} cards", input=text[:40])
            orders.append(order)
        return orders

    def _card(self, text: Any, seat: int, what: str = "card") -> Card:
        """The seat's own card named by ``text`` (cached: the same few strings recur all game)."""
        try:
            return self._cards[(text, seat)]
        except (KeyError, TypeError):
            pass
        if not isinstance(text, str):
            raise InvalidActionError(f"{what!r} must be card notation such as 5H, got {text!r}",
                                     input=repr(text))
        card = Card.parse(text)
        if card.is_joker and self.opts.jokers == 0:
            raise InvalidActionError(f"{what!r} is a joker, but this game has no jokers (options: jokers=0)",
                                     input=text)
        card = card.in_deck(seat)
        self._cards[(text, seat)] = card
        return card

    def _foreign(self, e: TableEvent, seat: int) -> bool:
        """True (and an infraction) when the card is named with another seat's deck (§5: own cards only)."""
        text = e.data["card"]
        if "@" not in text:
            return False
        deck = Card.parse(text).deck
        if deck == seat:
            return False
        owner = self.seats[deck] if deck < self.n else f"deck {deck}"
        name = self.seats[seat]
        self._breach(e, "own_cards_only", f"{name} played {owner}'s {Card.parse(text).display()}: a seat "
                     f"moves only its own cards. {name}, give it back", seat)
        return True

    def _source(self, text: Any) -> str:
        try:
            return self._sources[text]
        except (KeyError, TypeError):
            src = self._sources[text] = parse_source(text, self.opts.work_piles)
            return src

    # -- foundation plays ----------------------------------------------------------------
    def _on_play(self, e: TableEvent) -> None:
        seat = self.seat_index(e.seat)
        data = e.data
        card = self._card(e.require("card"), seat)
        pid = _pile_id(e.require("pile"))
        declared = self._declaration(e, card) if "as" in data else None
        from_stock = _is_stock(data.get("from"))
        off_pile = None if from_stock else self._off_foundation(data.get("from"))
        src = (self._source(data["from"]) if data.get("from") is not None and off_pile is None
               and not from_stock else None)
        t_lift = _lift_time(e) if "t_lift" in data else None
        hand = self._live_hand(e)
        if hand is None or self._foreign(e, seat):
            return
        # A seat's deck holds two jokers (§2, §9), so the same joker line again may be its other joker: a
        # camera repeat only within a frame or so (docs/table-log.md: an event a player may really repeat
        # is a repeat only within 50 ms), the seat's second joker when later.
        window = REPEAT_WINDOW_NS if card.is_joker and hand.jokers_played[seat] < self.opts.jokers else None
        if self._repeats_last(e, window) and self._repeated_play(e, hand, seat, card, pid):
            return
        if not self._may_land(e, hand, seat, card, t_lift):
            # Lifted before the Go or after the call, or landed after a stalemate: it lies on the pile
            # until its owner puts it back where it came from (§4, §7.1), which is then its return.
            hand.refused[card] = (pid, "S" if from_stock else src)
            return
        # Another move came between: a recycle logged after it is a recycle of its own (§6 short stock).
        hand.auto_recycled.discard(seat)
        name = self.seats[seat]
        if from_stock:
            self._breach(e, "not_available", _STOCK_TEXT.format(name=name, card=card.display()), seat)
            # It lies on the pile until put back on the stock it came from (§6.1), which is then no card
            # taken off a foundation (§5 rule 3).
            hand.refused[card] = (pid, "S")
            return
        if off_pile is not None:
            self._from_foundation(e, hand, seat, card, off_pile, pid)
            return
        _clear_refusal(hand, card, src)
        # Where did it come from? Tracked: it must be available there.
        if hand.tracked:
            lay = hand.layouts[seat]
            if src is None:
                src = lay.find_available(card) if not card.is_joker else self._joker_source(lay)
            if src is None:
                src = next((x for x in ("N", "W") if self._aloft(hand, seat, lay, x, card, t_lift)), None)
            aloft = self._aloft(hand, seat, lay, src, card, t_lift, _lift_err(e) if t_lift is not None else 0)
            # The cards above it are not on it (see _aloft): it is judged, and leaves, as the top it
            # physically is; the cards above are put back, to leave by their own logged moves or return.
            on_top = aloft is not None or (src in ("N", "W") and source_card(lay, src) == card)
            above = _set_aside(aloft)
            try:
                self._play_tracked(e, hand, seat, card, declared, pid, src)
            finally:
                if aloft is not None:
                    aloft[0].extend(above)
            if on_top and card in hand.refused:
                hand.left_top.add(card)
            return
        if not card.is_joker and card in hand.on_foundation:
            self._breach(e, "seen_twice", f"{name}'s {card.display()} is already on a foundation: "
                         f"a misread, or a card from another deck", seat)
            # Whoever's it is, the card lies on the pile now: the next card goes on top of it (counted for
            # no seat; the end-of-hand audit counts it for its owner). Its landing was seen and timed, so
            # it raised the pile like a play: a twin landing after it races it (§6.1).
            self._stand_uncredited(hand, pid, card.face, landed=(seat, e.t_ns, e.err_ns))
            return
        elif card.is_joker and hand.jokers_played[seat] >= self.opts.jokers:
            self._breach(e, "seen_twice", f"{name} has no joker left to play", seat)
            # A misread, or another deck's joker: like a plain card seen twice it lies on the pile and raises
            # it, counted for no seat, once its face is known (declared, or the one card that fits, §12).
            pile = hand.piles.get(pid)
            if declared is None and pile is None:
                # Undeclared on a new pile it is an Ace of a still open suit, as a joker of the seat's own
                # would be (§12): the next card placed on it shows the suit.
                declared = _OPEN_ACE
            elif declared is None and pile is not None and pile.suit is not None and not pile.complete:
                declared = Card(Rank(pile.level + 1), pile.suit)
            if declared is not None:
                self._stand_uncredited(hand, pid, declared, landed=(seat, e.t_ns, e.err_ns))
            return
        self._land_play(e, hand, seat, card, declared, pid, src)

    def _aloft(
        self,
        hand: _Hand,
        seat: int,
        lay: SeatLayout,
        src: str | None,
        card: Card,
        t_lift: int | None,
        lift_err: int = 0,
    ) -> tuple[list[Card], int] | None:
        """The seat's Nerts pile or waste (``src``) and how many cards lie on ``card`` there that were not
        on it when it was lifted, when all of them are such cards, else None. Moves are judged against the
        table at their landing (§5 rule 4), but the log names a card only once it lands, so the layout
        still shows a card that has left: one refused by a foundation, which lies on that pile until taken
        back (§6.1), or, with a lift time, one the seat's other hand lifted first and is still carrying (a
        partnership's two partners, §10, or a player without the one-hand rule, §11). With a lift time the
        cards on it may also be a packet the stock hand turned onto the waste after the lift (§5 rule 1:
        the other hand may hold the stock), one that may have landed after it."""
        if src not in ("N", "W"):
            return None
        cards = lay.nerts if src == "N" else lay.waste
        if len(cards) < 2 or cards[-1] == card or card not in cards:
            return None
        if cards[-2] == card:
            refused = hand.refused.get(cards[-1])
            if refused is not None and refused[1] == src:
                return cards, 1
            # A named partner (``actor``) makes the seat a partnership, possible from three seats up (§10).
            two_hands = not self.opts.one_hand_rule or (self.n >= 3 and bool(self._actors.get(seat)))
            if t_lift is not None and two_hands:
                return cards, 1
        if src == "W" and t_lift is not None:
            # The card just above it came with the latest turn that found the waste no higher than its
            # place (a waste grows only by turns); a packet landing after the lift covered a card already
            # in the air.
            place = len(cards) - cards[::-1].index(card)
            turned = [t for t, height in hand.turns.get(seat, []) if height <= place]
            if turned and turned[-1] > t_lift - lift_err:
                return cards, len(cards) - place
        return None

    def _play_tracked(
        self,
        e: TableEvent,
        hand: _Hand,
        seat: int,
        card: Card,
        declared: Card | None,
        pid: str,
        src: str | None,
    ) -> None:
        """A foundation play in a tracked hand: the card must be available where the log says (§3)."""
        name = self.seats[seat]
        lay = hand.layouts[seat]
        at = source_card(lay, src) if src is not None else None
        if at is None or at != card:
            self._breach(
                e,
                "not_available",
                f"{name}'s {card.display()} is not available in {name}'s "
                f"layout (Nerts top, waste top or an exposed work card): take it back",
                seat,
            )
            # Like any refused card it lies on the pile until taken back (§6.1), and that return is
            # no card taken off a foundation (§5 rule 3). The layout never lost it.
            hand.refused[card] = (pid, src)
            return
        # Any Ace played to a foundation is an Ace played to the centre (aces_compulsory, §11), also
        # one landing on a pile another seat's Ace just started: that is a race (§6.1), not a skip.
        duty = self._duty_problem(lay, ace=card.rank is Rank.ACE)
        if duty:
            self._breach(e, "illegal_play", f"{name}: {duty}. {name}, take back {card.display()}", seat)
            hand.refused[card] = (pid, src)
            return
        self._land_play(e, hand, seat, card, declared, pid, src)

    def _land_play(
        self,
        e: TableEvent,
        hand: _Hand,
        seat: int,
        card: Card,
        declared: Card | None,
        pid: str,
        src: str | None,
    ) -> None:
        """Lands a card available at ``src`` on pile ``pid``: it starts, raises or races the pile, or is
        refused (§6, §6.1)."""
        name = self.seats[seat]
        face = self._joker_face(e, hand, card, declared, pid, src, seat)
        if face is None:
            # Refused (undeclared, or not what its work pile makes it): it goes back to its source
            # like any refused card (§6.1), and that return is no card taken off a foundation.
            hand.refused[card] = (pid, src)
            return
        pile = hand.piles.get(pid)
        if pile is None:
            if face.rank is not Rank.ACE and face is not _OPEN_ACE:
                self._breach(e, "illegal_play", f"{name}'s {card.display()} cannot start foundation {pid}: "
                             f"only an Ace can. {name}, take it back", seat)
                hand.refused[card] = (pid, src)
                return
            pile = RefPile(pid, None if face is _OPEN_ACE else face.suit, 0)
            hand.piles[pid] = pile
            hand.order.append(pile)
            self._stand(e, hand, pile, seat, card, face, src, new_level=True)
            return
        red = hand.open_red.get(pid)
        if pile.suit is None and red is not None and face.is_red != red:
            # The joker Ace under it is of that colour (§9), so a card of the other colour cannot be its
            # suit: neither a 2 on it nor an Ace racing it.
            self._breach(e, "illegal_play", f"{name}'s {card.display()} on {pid}: wrong colour, the joker "
                         f"that started it is a {'red' if red else 'black'} Ace. {name}, take it back", seat)
            hand.refused[card] = (pid, src)
            return
        if foundation_accepts(pile, face):
            self._stand(e, hand, pile, seat, card, face, src, new_level=True)
            return
        if pile.group and int(face.rank) == pile.level and self._same_face(pile.top_face, face):
            self._race(e, hand, pile, seat, card, face, src)
            return
        self._breach(e, "illegal_play", f"{name}'s {card.display()} on {pid}: {self._why_not(pile, face)}. "
                     f"{name}, take it back", seat)
        hand.refused[card] = (pid, src)

    def _repeated_play(self, e: TableEvent, hand: _Hand, seat: int, card: Card, pid: str) -> bool:
        """The foundation play just judged, logged again at once (a camera repeat): True once ruled.
        The card already lies on top of its pile (docs/table-log.md seen_twice: counted once, the pile
        not raised again; one card, so not two in flight, §5) or was just sent back (nothing more to
        rule). Without this a repeated joker was the seat's second joker, tying with itself. A repeat is
        the same line at the same time or a frame later (docs/table-log.md): a refused card may really be
        played again later (§6.1), so after a frame that line is refereed as a play of its own (a seat's
        other joker, §9, never gets here after a frame: see _on_play)."""
        last = self._events[-1]
        later = e.t_ns - last.t_ns > REPEAT_WINDOW_NS
        pile = hand.piles.get(pid)
        # The play just judged stood when its card is the pile's top and its landing is in the group; for
        # a joker the top may be the seat's other joker, so the landing decides.
        stood = (pile is not None and bool(pile.cards) and pile.cards[-1] == card
                 and (not card.is_joker or (seat, last.t_ns, last.err_ns) in pile.group))
        if stood:
            self._mark_repeat(e)
            self._breach(e, "seen_twice", f"{self.seats[seat]}'s {card.display()} is already on {pid}: "
                         "the same play logged twice", seat)
            return True
        if not stood and not later and hand.refused.get(card, (None, None))[0] == pid:
            self._mark_repeat(e)
            self._repeats.append(f"hand {hand.number}: {self.seats[seat]}'s {card.display()} on {pid} at "
                                 f"{format_seconds(e.t_ns)} s logged twice: ignored")
            return True
        return False

    @staticmethod
    def _same_face(a: Card, b: Card) -> bool:
        # An undeclared joker that started a pile is an Ace of a still open suit (§12): an Ace landing
        # on it is legal against the same level, so it races the joker (§6.1).
        rank = Rank.ACE if a is _OPEN_ACE else a.rank
        return rank is b.rank and (a.suit is None or b.suit is None or a.suit is b.suit)

    @staticmethod
    def _why_not(pile: RefPile, face: Card) -> str:
        top = pile.top_face.display()
        if pile.complete:
            return f"the pile is complete ({top})"
        if pile.suit is None:
            return f"wrong rank, the pile needs a {Rank(pile.level + 1).symbol}"
        if face.suit is not pile.suit:
            return f"wrong suit, the pile is {pile.suit.symbol} (top {top})"
        return f"wrong rank, the pile needs {Card(Rank(pile.level + 1), pile.suit).display()}"

    def _declaration(self, e: TableEvent, card: Card) -> Card | None:
        decl = e.get("as")
        if decl is None:
            return None
        if not card.is_joker:
            raise InvalidActionError(f"only a joker carries a declaration 'as', not {card.face_str()}",
                                     input=str(decl))
        if not isinstance(decl, str):
            raise InvalidActionError(f"'as' must be a card such as 7C, got {decl!r}", input=repr(decl))
        face = Card.parse(decl)
        if face.is_joker:
            raise InvalidActionError("a joker must be declared as a plain card such as 7C, not JOKER",
                                     input=decl)
        return face.face

    @staticmethod
    def _joker_source(lay: SeatLayout) -> str | None:
        for src, c in lay.available():
            if c.is_joker:
                return src
        return None

    def _joker_face(self, e: TableEvent, hand: _Hand, card: Card, declared: Card | None, pid: str,
                    src: str | None, seat: int) -> Card | None:
        """The face a card stands for on the pile: its own, or a joker's declared or inferred face (§9)."""
        if card.rank is not Rank.JOKER:
            face = self._faces.get(card)
            if face is None:
                face = self._faces[card] = card.face
            return face
        pile = hand.piles.get(pid)
        implied = None
        if hand.tracked and src is not None and src.isdigit():
            w = hand.layouts[seat].work[int(src) - 1]
            implied = implied_face(w, len(w) - 1)
        if declared is None:
            if pile is None:
                # An undeclared joker starting a pile is an Ace of a still open suit, but one its work pile
                # fixes as another rank cannot be an Ace at all (§9: consistent with its constraints).
                if implied is not None and implied[0] != int(Rank.ACE):
                    name = self.seats[seat]
                    colour = "red" if implied[1] else "black"
                    self._breach(e, "illegal_play", f"{name}'s joker cannot start foundation {pid}: its work "
                                 f"pile makes it a {colour} {Rank(implied[0]).symbol}, not an Ace. "
                                 f"{name}, take it back", seat)
                    return None
                if implied is not None:
                    hand.open_red[pid] = implied[1]
                return _OPEN_ACE
            if pile.complete:
                declared = Card(Rank.KING, pile.suit) if pile.suit is not None else None
            elif pile.suit is not None:
                declared = Card(Rank(pile.level + 1), pile.suit)
            if declared is None:
                name = self.seats[seat]
                self._breach(e, "undeclared_joker", f"{name}'s joker on {pid} needs a declared suit: "
                             f"{name}, say which card it is", seat)
                return None
        if implied is not None and (implied[0] != int(declared.rank) or implied[1] != declared.is_red):
            name = self.seats[seat]
            self._breach(e, "illegal_play", f"{name}'s joker cannot be {declared.display()}: its work "
                         f"pile makes it a {'red' if implied[1] else 'black'} {Rank(implied[0]).symbol}. "
                         f"{name}, take it back", seat)
            return None
        return declared

    def _may_land(self, e: TableEvent, hand: _Hand, seat: int, card: Card | None, t_lift: int | None,
                  *, returning: bool = False) -> bool:
        """Checks the call (§7.1) and the one-hand rule (§5) for a move landing now. ``returning``: the
        move takes a refused card back to its source, which the end of the hand does not forbid."""
        name = self.seats[seat]
        what = f"{name}'s {card.display()}" if card is not None else f"{name}'s {e.type}"
        if hand.phase == "stalemate" and not returning:
            self._breach(e, "after_hand", f"{what} after the hand ended: take it back", seat)
            return False
        # A lift time measured to within err_lift, a landing to within its err: a move is ruled against
        # only when the measurements say so whatever their errors (§12).
        lift_err = _lift_err(e) if t_lift is not None else 0
        if t_lift is not None and hand.t_go is not None and t_lift + lift_err < hand.t_go:
            # No card may be moved before the Go (§4 step 6): like a card moved between hands, it goes
            # back and does not count; one lifted at the Go itself is in time.
            self._breach(e, "after_hand", f"{what} was lifted {_ms(hand.t_go - t_lift)} ms before the "
                         f"Go: take it back", seat)
            return False
        if hand.phase == "called" and not returning:
            if t_lift is not None and t_lift - lift_err >= hand.t_call:
                self._breach(e, "after_call", f"{what} was lifted {_ms(t_lift - hand.t_call)} ms after the "
                             f"call: take it back", seat)
                return False
            if e.type == "foundation_play":
                how = "was in the air at the call" if t_lift is not None else \
                    "landed after the call with no lift time: presumed in the air"
                self._rule(e.t_ns, "air", f"{what} {how}: it counts if legal", [seat])
        if card is None:
            return True  # stock handling: the other hand may hold the stock (§5)
        given = e.get("actor")
        actor = None if given is None else str(given)
        acts = self._actors.setdefault(seat, set())
        if actor is not None and actor not in acts:
            acts.add(actor)
            if len(acts) >= 3:
                # Every player beyond the two partners is a breach, the fourth as much as the third.
                many = "three" if len(acts) == 3 else str(len(acts))
                self._breach(e, "one_hand", f"{many} players are moving {name}'s cards: a seat is one "
                             f"player or a partnership of two", seat)
        partners = len(acts)
        if self.n < 3:
            # Only six or more players may pair up (§2, §10): two seats hold four players at most, so
            # each is one player, whoever the log names, with one move in flight at a time (§5 rule 1).
            actor, partners = None, 0
        # A move with no actor named is checked against the seat's other unnamed moves, unless two
        # partners are known: it may then be either of them.
        key = (seat, actor)
        last = hand.flights.get(key)
        if (self.opts.one_hand_rule and t_lift is not None and last is not None
                and t_lift + lift_err < last[0] - last[1] and (actor is not None or partners < 2)):
            self._breach(e, "one_hand", f"{actor or name} had two cards in flight at once (one hand only)",
                         seat)
        elif self.opts.one_hand_rule and t_lift is not None and partners >= 2 and \
                self._third_in_flight(hand.spans.get(seat, []), t_lift + lift_err):
            # A partnership has two hands, one per partner (§5 rule 1, §10): a card lifted while two of
            # the seat's cards were still in the air, whoever the partners were, is a third.
            self._breach(e, "one_hand", f"{name} had three cards in flight at once: two partners, one "
                         f"card each (one hand only)", seat)
        # Every landing ends a flight, timed or not: a later card lifted before it overlapped it.
        hand.flights[key] = (e.t_ns, e.err_ns)
        spans = hand.spans.setdefault(seat, [])
        spans.append((t_lift + lift_err if t_lift is not None else e.t_ns, e.t_ns, e.err_ns))
        # Moves land in order, so those still in the air at a lift are the latest few.
        del spans[:-4]
        return True

    @staticmethod
    def _third_in_flight(spans: Sequence[tuple[int, int, int]], lift: int) -> bool:
        """Whether two earlier moves of a seat were both in the air at once at some moment while a move
        lifted at ``lift`` (its latest possible time) was: each landed after the lift, and the later of
        the two was lifted before the earlier landed, whatever the uncertainties (§5 rule 1)."""
        airborne = [s for s in spans if lift < s[1] - s[2]]
        return any(b[0] < a[1] - a[2] for i, a in enumerate(airborne) for b in airborne[i + 1:])

    def _stand(self, e: TableEvent, hand: _Hand, pile: RefPile, seat: int, card: Card, face: Card,
               src: str | None, *, new_level: bool) -> None:
        _learn_suit(pile, face)
        pile.cards.append(card)
        pile.faces.append(face)
        if new_level:
            pile.level += 1
            pile.group = [(seat, e.t_ns, e.err_ns)]
        else:
            pile.group.append((seat, e.t_ns, e.err_ns))
        if card.is_joker:
            hand.jokers_played[seat] += 1
        else:
            hand.on_foundation.add(card)
        if hand.tracked:
            assert src is not None
            lay = hand.layouts[seat]
            if src == "N":
                lay.nerts.pop()
            elif src == "W":
                lay.waste.pop()
            else:
                lay.work[int(src) - 1].pop()
            lay.stuck = False
        elif src == "N":
            _left_nerts(hand, seat, card)
        hand.stuck[seat] = False
        hand.idle_resets = 0

    def _race(self, e: TableEvent, hand: _Hand, pile: RefPile, seat: int, card: Card, face: Card,
              src: str | None) -> None:
        first, t1, e1 = pile.group[0]
        gap = e.t_ns - t1
        name = self.seats[seat]
        if self.opts.tie_policy == "both_stay" and gap <= self._window_ns + e.err_ns + e1:
            self._stand(e, hand, pile, seat, card, face, src, new_level=False)
            n = len(pile.group)
            who = "both stand" if n == 2 else f"all {n} stand"
            self._rule(e.t_ns, "tie", f"tie ({_ms(gap)} ms): {who}", [s for s, _, _ in pile.group])
            return
        self._rule(e.t_ns, "race", f"{self.seats[first]} first by {_ms(gap)} ms: {name}, take back "
                   f"{card.display()}", [first, seat])
        hand.refused[card] = (pile.pid, src)

    def _off_foundation(self, text: Any) -> str | None:
        """The foundation pile a card was taken from, when ``from`` names one of this hand's piles
        rather than a layout source (the raw text, else None)."""
        hand = self.hand
        if isinstance(text, int) and not isinstance(text, bool):
            # A pile id may be a whole number (docs/table-log.md: any id the camera gives the pile), and
            # a pile logged as 3 is the pile "3" (see _pile_id).
            text = str(text)
        if not isinstance(text, str):
            return None
        if hand is None:
            # Between hands or after the game, the piles of the hand just scored still lie on the table
            # until gathered: a late move off one of them is refereed like any move then (docs/table-log.md).
            return text if text in self._last_piles else None
        if (text not in hand.piles and all(text != pid for pid, _ in hand.refused.values())
                and text not in self._last_piles):
            # A card refused on a new pile id (a non-Ace, or a card that may not land at all) started
            # no pile, but its return names that id all the same. A pile of the hand scored last still
            # names a pile: a move off it logged late, in the next hand, is refereed, not malformed.
            return None
        # The text names a pile, so it is that pile unless it is one of the source names the log format
        # gives (nerts, waste, work1..): a camera that numbers its piles 1, 2, .. names pile 1 with "1",
        # which only the parser's shorthand also reads as work pile 1 (docs/table-log.md foundation_play).
        return None if _DOCUMENTED_SOURCE.fullmatch(text.strip().lower()) else text

    def _from_foundation(self, e: TableEvent, hand: _Hand, seat: int, card: Card, pid: str, dest: str,
                         back_to: str | None = None) -> None:
        """A card moved off foundation ``pid`` (§5: no card leaves a foundation). A card the pile
        refused may only go back to its own source (``back_to``: ``N``, ``W`` or a work pile; any of
        them when the play did not say where it came from); anywhere else it was redirected (§6.1
        ruling)."""
        name = self.seats[seat]
        refused = hand.refused.get(card)
        if refused is not None and refused[0] == pid:
            if _returns(hand, card, pid, back_to):
                del hand.refused[card]
                if card in hand.left_top and back_to in ("N", "W"):
                    hand.left_top.discard(card)
                    # It goes back on top of its Nerts pile or waste (§6.1: the Nerts top, the waste top),
                    # above any card turned onto the waste while it lay on the pile (M1). The layout kept
                    # it where it was when it left, which a turn since then has covered.
                    lay = hand.layouts[seat]
                    cards = lay.nerts if back_to == "N" else lay.waste
                    if card in cards and cards[-1] != card:
                        cards.remove(card)
                        cards.append(card)
                return
            self._breach(e, "redirected", f"{name}'s {card.display()} went from {pid} straight to {dest}: "
                         f"a card sent back must first return to where it came from. {name}, take it back",
                         seat)
            return
        self._breach(e, "from_foundation", f"{name} took {card.display()} off foundation {pid}: no card "
                     f"leaves a foundation. {name}, put it back on {pid}", seat)

    # -- layout moves ----------------------------------------------------------------------
    def _on_move(self, e: TableEvent) -> None:
        seat = self.seat_index(e.seat)
        card = self._card(e.require("card"), seat)
        from_stock = _is_stock(e.require("from"))
        off_pile = None if from_stock else self._off_foundation(e.data["from"])
        src = self._source(e.data["from"]) if off_pile is None and not from_stock else ""
        to = e.require("to")
        index = e.get("index")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int) or index < 0):
            raise InvalidActionError(f"'index' must be a card's position in its work pile (0 = the base), "
                                     f"got {index!r}", input=repr(index))
        # A card goes back to the Nerts pile or the waste only when a foundation refused it (§6.1).
        backward = _BACKWARD.get(to.strip().lower()) if isinstance(to, str) else None
        kind, work = ("back", 0) if backward is not None else parse_destination(to, self.opts.work_piles)
        t_lift = _lift_time(e) if "t_lift" in e.data else None
        back_to = backward if backward is not None else str(work) if kind == "work" else None
        hand = self._live_hand(e)
        if hand is None or self._foreign(e, seat):
            return
        repeat = self._repeats_last(e) and hand.tracked
        if repeat and card.is_joker and _joker_left_at(hand.layouts[seat], src):
            # The deck's other joker lies at that source (§2, §9), so the same line again may be that
            # joker's own move: a camera repeat only within 50 ms (docs/table-log.md 'Lines logged twice').
            repeat = self._repeats_last(e, REPEAT_WINDOW_NS)
        if repeat:
            # The move just judged, logged again at once: the card (or block) has left the source it
            # names, so this is no second move (M5-M7 take a card from where it lies) and no second
            # card in flight (§5): noted, nothing moves.
            self._mark_repeat(e)
            self._repeats.append(f"hand {hand.number}: {self.seats[seat]}'s move of {card.display()} at "
                                 f"{format_seconds(e.t_ns)} s logged twice: ignored")
            return
        # A refused card going back to its source is the return §6.1 demands, not a new move: it may
        # (must) happen after the call or a stalemate too (§7.1: a card lifted then must be put back).
        returning = off_pile is not None and _returns(hand, card, off_pile, back_to)
        if not self._may_land(e, hand, seat, card, t_lift, returning=returning):
            return
        hand.auto_recycled.discard(seat)  # as for a foundation play: the next recycle is its own
        name = self.seats[seat]
        if from_stock:
            self._breach(e, "not_available", _STOCK_TEXT.format(name=name, card=card.display()), seat)
            return
        if off_pile is not None:
            dest = str(to) if backward is not None else f"{kind}{work}"
            self._from_foundation(e, hand, seat, card, off_pile, dest, back_to)
            return
        if backward is not None:
            self._breach(e, "illegal_move", f"{name} put {card.display()} on the {_PLACE[backward]}: no card "
                         f"goes back to the Nerts pile, the stock or the waste. {name}, take it back", seat)
            return
        _clear_refusal(hand, card, src)
        if not hand.tracked:
            # Without the layouts only what the event itself shows can be judged.
            blind = ""
            if kind == "under" and not self.opts.allow_slide_under:
                blind = "sliding under a work pile is not allowed (allow_slide_under is off)"
            elif kind == "under" and src not in ("N", "W"):
                blind = f"{card.display()} is in work pile {src}: a block cannot slide under"
            elif src == str(work):
                blind = "a block must move to another work pile"
            if blind:
                self._breach(e, "illegal_move", f"{name}: {blind}: take it back", seat)
                return
            if src == "N":
                _left_nerts(hand, seat, card)
            if src in ("N", "W"):
                hand.idle_resets = 0
            hand.stuck[seat] = False
            return
        lay = hand.layouts[seat]
        action: NertsAction
        aloft = self._aloft(hand, seat, lay, src, card, t_lift, _lift_err(e) if t_lift is not None else 0)
        if src in ("N", "W"):
            at = source_card(lay, src) if aloft is None else card
            if at != card:
                self._breach(e, "not_available", f"{name}'s {card.display()} is not the "
                             f"{'Nerts' if src == 'N' else 'waste'} top: take it back", seat)
                return
            action = Build(seat, card, src, work) if kind == "work" else SlideUnder(seat, card, src, work)
        else:
            u = int(src)
            pile = lay.work[u - 1]
            if card not in pile:
                self._breach(e, "not_available",
                             f"{name}'s {card.display()} is not in work pile {u}: take it back", seat)
                return
            if kind == "under":
                # The card is where the log says, but M7 takes only the Nerts or waste top (§6), as
                # ruled for a camera-level log too.
                self._breach(e, "illegal_move", f"{name}: {card.display()} is in work pile {u}: a block "
                             f"cannot slide under: take it back", seat)
                return
            spots = [i for i, x in enumerate(pile) if x == card]
            if index is not None and index not in spots:
                self._breach(e, "not_available", f"{name}'s {card.display()} is not card {index} of work "
                             f"pile {u}: take it back", seat)
                return
            action = MoveBlock(seat, card, u, spots[0] if index is None else index, work)
            if index is None and len(spots) > 1:
                # A deck's two jokers look alike: without an index the block is the lowest that fits.
                action = next((MoveBlock(seat, card, u, i, work) for i in spots
                               if not self._layout_problem(lay, MoveBlock(seat, card, u, i, work))), action)
        # Cards above it that were not on it (see _aloft) are no part of the layout the move is judged
        # against; they stay in the tracked layout until their own moves or return are logged.
        above = _set_aside(aloft)
        try:
            problem = self._layout_problem(lay, action)
            if problem:
                self._breach(e, "illegal_move", f"{name}: {problem}: take it back", seat)
                return
            apply_layout_action(lay, action, self.opts)
        finally:
            if aloft is not None:
                aloft[0].extend(above)
        hand.stuck[seat] = False
        if not isinstance(action, MoveBlock):
            hand.idle_resets = 0

    def _layout_problem(self, lay: SeatLayout, action: Build | SlideUnder | MoveBlock) -> str:
        """Why a layout move is illegal (§6), or '' when it is legal."""
        opts = self.opts
        dest = lay.work[(action.to_work if isinstance(action, MoveBlock) else action.work) - 1]
        if isinstance(action, MoveBlock):
            if action.from_work == action.to_work:
                return "a block must move to another work pile"
            if not opts.move_partial_runs and action.index != 0:
                return "only whole work piles may move (move_partial_runs is off)"
            block = lay.work[action.from_work - 1][action.index:]
            if dest and not fits_on(dest, block):
                return f"{block[0].display()} does not fit on {dest[-1].display()}"
        elif isinstance(action, Build):
            if dest and not fits_on(dest, [action.card]):
                return f"{action.card.display()} does not fit on {dest[-1].display()}"
        else:
            if not opts.allow_slide_under:
                return "sliding under a work pile is not allowed (allow_slide_under is off)"
            if not dest or not run_ok([action.card, *dest]):
                base = dest[0].display() if dest else "an empty pile"
                return f"{action.card.display()} cannot slide under {base}"
        return self._duty_problem(lay, fills=isinstance(action, Build) and action.source == "N" and not dest)

    def _duty_problem(self, lay: SeatLayout, *, fills: bool = False, ace: bool = False) -> str:
        """The compulsory move a seat skipped (``must_fill_from_nerts``, ``aces_compulsory``), or ''.

        ``fills``: the move fills an empty work pile from the Nerts pile; ``ace``: it plays an Ace
        to the centre. With both options an Ace comes first, as in the strict engine's move generator.
        """
        if self.opts.aces_compulsory:
            if ace:
                return ""
            for _, c in lay.available():
                if c.rank is Rank.ACE:
                    return f"{c.display()} must go to the centre first (aces_compulsory)"
        if self.opts.must_fill_from_nerts and not fills and lay.nerts and any(not w for w in lay.work):
            return "an empty work pile must first be filled from the Nerts pile (must_fill_from_nerts)"
        return ""

    def _on_search(self, e: TableEvent) -> None:
        """M1 turn, M2 recycle, M10 rotate: searching moves that clear no stuck flag."""
        seat = self.seat_index(e.seat)
        t_lift = _lift_time(e) if "t_lift" in e.data else None
        hand = self._live_hand(e)
        if hand is not None and t_lift is not None and hand.tracked and self._repeats_last(e):
            # Two turns (or recycles, rotations) in a row are legal, but not from one lift: the same
            # lift time logged again is the same move seen twice (§5: one hand moves one packet).
            self._mark_repeat(e)
            self._repeats.append(f"hand {hand.number}: {self.seats[seat]}'s {e.type} at "
                                 f"{format_seconds(e.t_ns)} s logged twice: ignored")
            return
        if hand is None or not self._may_land(e, hand, seat, None, t_lift):
            return
        name = self.seats[seat]
        if e.type == "rotate":
            if not self.opts.solo_rotation:
                self._breach(e, "illegal_move", f"{name} rotated the stock, but solo_rotation is off", seat)
                return
            if not hand.stuck[seat]:
                self._breach(e, "illegal_move", f"{name} rotated the stock without being stuck: "
                             f"declare stuck first", seat)
                return
        if not hand.tracked:
            return
        lay = hand.layouts[seat]
        auto_recycled = seat in hand.auto_recycled
        hand.auto_recycled.discard(seat)
        if e.type == "recycle" and auto_recycled and not lay.waste:
            # The player turns the waste over by hand after the short turn: the camera logs that recycle,
            # which turn_stock already applied.
            return
        duty = self._duty_problem(lay)
        if duty:
            self._breach(e, "illegal_move", f"{name}: {duty}", seat)
            return
        if e.type == "turn":
            if not lay.stock:
                self._breach(e, "illegal_move", f"{name} turned an empty stock: recycle the waste first",
                             seat)
                return
            if len(lay.stock) < self.opts.stock_turn_count and self.opts.short_stock == "recycle_immediately":
                hand.auto_recycled.add(seat)
            # When the packet landed on the waste (at the latest, within its err), and how high the waste
            # stood: a waste card lifted before that had left before the packet covered it (see _aloft).
            hand.turns.setdefault(seat, []).append((e.t_ns + e.err_ns, len(lay.waste)))
            turn_stock(lay, self.opts)
            if not lay.waste:
                hand.turns.pop(seat, None)
        elif e.type == "recycle":
            if lay.stock or not lay.waste:
                why = "with cards left in the stock" if lay.stock else "an empty waste"
                self._breach(e, "illegal_move", f"{name} recycled {why}", seat)
                return
            recycle(lay)
            hand.turns.pop(seat, None)
        else:
            if not lay.stock:
                self._breach(e, "illegal_move", f"{name} rotated an empty stock: recycle the waste first",
                             seat)
                return
            rotate(lay)

    # -- stuck, call, counts, end --------------------------------------------------------
    def _on_stuck(self, e: TableEvent) -> None:
        seat = self.seat_index(e.seat)
        if self._repeats_last(e, REPEAT_WINDOW_NS):
            # The declaration just made, seen again a frame later: one "stuck" (M9), not a second one
            # that would flag the seat again after the reset the first one completed (§7.2).
            self._mark_repeat(e)
            self._repeats.append(f"{self.seats[seat]}'s stuck at {format_seconds(e.t_ns)} s logged twice: "
                                 "ignored")
            return
        hand = self._live_hand(e)
        if hand is None:
            return
        if hand.phase != "play":
            return
        hand.stuck[seat] = True
        if hand.tracked:
            hand.layouts[seat].stuck = True
        if not all(hand.stuck):
            return
        if hand.idle_resets >= self.opts.stalemate_after_resets:
            hand.phase = "stalemate"
            self._rule(e.t_ns, "stalemate", f"all stuck with no progress since the last reset: hand "
                       f"{hand.number} ends (stalemate)")
            return
        hand.resets += 1
        hand.idle_resets += 1
        hand.stuck = [False] * self.n
        # The reset turns every waste onto its stock: a recycle logged after it recycles nothing.
        hand.auto_recycled.clear()
        for lay in hand.layouts:
            reset_layout(lay)
        hand.turns.clear()
        self._rule(e.t_ns, "reset", f"all stuck: reset {hand.resets}. Turn the waste onto the stock, "
                   f"then the top stock card to the bottom")

    def _on_call(self, e: TableEvent) -> None:
        seat = self.seat_index(e.seat)
        left = e.get("nerts_left")
        if left is not None and (isinstance(left, bool) or not isinstance(left, int) or left < 0):
            raise InvalidActionError(f"'nerts_left' must be a whole number >= 0, got {left!r}",
                                     input=repr(left))
        if self._repeats_last(e, REPEAT_WINDOW_NS):
            # The call just made, heard or pressed again within a frame: one call (M11), so a false
            # call costs its false_call_penalty once (§7.1).
            self._mark_repeat(e)
            self._repeats.append(f"{self.seats[seat]}'s call at {format_seconds(e.t_ns)} s logged twice: "
                                 "ignored")
            return
        hand = self._live_hand(e)
        if hand is None:
            return
        name = self.seats[seat]
        if hand.phase != "play":
            self._breach(e, "late_call", f"{name} called after the hand ended: ignored", seat)
            return
        if hand.tracked and left != 0:
            # An explicit nerts_left of 0 is the camera seeing the pile empty: its last card may still
            # be in the air (lifted before the call, landing after it, §7.1), so tracking lags.
            left = len(hand.layouts[seat].nerts)
        if left:
            pen = self.opts.false_call_penalty
            hand.penalties[seat] += pen
            cards = "card" if left == 1 else "cards"
            extra = f" ({pen} points off)" if pen else ""
            self._rule(e.t_ns, "false_call", f"false call: {name} still has {left} Nerts {cards}: "
                       f"play on{extra}", [seat])
            return
        hand.phase = "called"
        hand.caller = seat
        hand.t_call = e.t_ns
        self._rule(e.t_ns, "call", f"{name}: Nerts! Cards lifted before the call may land", [seat])

    def _on_count(self, e: TableEvent) -> None:
        seat = self.seat_index(e.seat)
        nerts, found = e.get("nerts"), e.get("foundation")
        if nerts is None and found is None:
            raise InvalidActionError("a count needs 'nerts' (cards left in the Nerts pile) and/or "
                                     "'foundation' (the seat's backs on the foundations)", input="count")
        for key, value in (("nerts", nerts), ("foundation", found)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise InvalidActionError(f"count {key!r} must be a whole number >= 0, got {value!r}",
                                         input=repr(value))
        size = self.opts.nerts_pile_size
        if nerts is not None and nerts > size:
            raise InvalidActionError(f"count 'nerts' {nerts} exceeds the Nerts pile size {size}",
                                     input=str(nerts))
        if found is not None and found > 52 + self.opts.jokers:
            raise InvalidActionError(f"count 'foundation' {found} exceeds the deck", input=str(found))
        hand = self._live_hand(e)
        if hand is None:
            return
        old = hand.counts.get(seat, (None, None))
        hand.counts[seat] = (nerts if nerts is not None else old[0], found if found is not None else old[1])

    def _on_nerts_top(self, e: TableEvent) -> None:
        """The camera saw ``card`` on top of the seat's Nerts pile (§12: the referee learns a Nerts card
        when it turns up). A new top means the card that lay on it has left, whether or not its move was
        seen: a move the camera missed still counts against N, and as the seat's progress move (§7.2).
        Only an untracked hand (no ``deal``) uses it; with the layouts, the dealt pile decides."""
        seat = self.seat_index(e.seat)
        card = self._card(e.require("card"), seat)
        hand = self.hand
        if self.over:
            return
        if hand is None or hand.phase != "play":
            # The camera watches the deal before "Go", and the next deal after a call: a top seen then is
            # the next hand's first, not a card that left this one.
            self._tops_ahead[seat] = card
            return
        if hand.tracked:
            return
        before = hand.nerts_top[seat]
        hand.nerts_top[seat] = card
        if card in hand.nerts_gone[seat]:
            # Seen leaving, yet on top again: it went back (a refused play, §6.1), or its departure was a
            # misread. Either way it is in the pile, and the card seen on top meanwhile never left it.
            hand.nerts_gone[seat].discard(card)
            hand.nerts_out[seat] -= 1
        elif before is not None and before != card and before not in hand.nerts_gone[seat]:
            _left_nerts(hand, seat, before)
            # The card that lay there left the Nerts pile by a move the camera missed: whether it went to
            # a foundation (M3, M4) or to a work pile (M5, M7), it was the seat's move, so it clears the
            # seat's stuck flag (M9), and a progress move (§6), so an all-stuck table resets again rather
            # than ending the hand (§7.2).
            hand.stuck[seat] = False
            hand.idle_resets = 0

    def _on_unseen_play(self, e: TableEvent) -> None:
        """A card the camera did not see land on foundation ``pile``, but which the pile proves went there
        (§12: the camera sees every foundation's top; a 3♣ seen landing on an A♣ means a 2♣ went on
        first). It raises the pile as a play would, credited to no seat (a face-up card's back cannot be
        seen, §12): the end-of-hand audit counts it for its owner. Without it, every later card on the
        pile would be ruled the wrong rank. It is no ruling on anyone; one that does not fit its pile is
        an infraction of the log, ignored."""
        if e.seat is not None:
            raise InvalidActionError("an unseen_play names no seat: a play whose seat is known is a "
                                     "foundation_play", input=e.seat)
        text = e.require("card")
        card = Card.parse(text) if isinstance(text, str) else None
        if card is None or card.is_joker or card.deck != 0:
            raise InvalidActionError(f"an unseen_play's 'card' must be a plain face such as 2C, got {text!r}",
                                     input=repr(text))
        pid = _pile_id(e.require("pile"))
        hand = self._live_hand(e)
        if hand is None:
            return
        if hand.phase == "stalemate":
            # No card lands once the hand has ended by stalemate (§7.2), seen or not: like a foundation_play
            # then, it is after_hand (docs/table-log.md) and raises no pile.
            self._breach(e, "after_hand",
                         f"unseen {card.display()} on {pid} after the hand ended: take it back")
            return
        if hand.tracked:
            self._breach(e, "unseen_play", f"unseen {card.display()} on {pid} in a hand whose every move is "
                         "logged: ignored")
            return
        why = self._stand_uncredited(hand, pid, card)
        if why:
            self._breach(e, "unseen_play", f"unseen {card.display()} {why}; ignored")

    def _stand_uncredited(self, hand: _Hand, pid: str, card: Card,
                          landed: tuple[int, int, int] | None = None) -> str:
        """Puts plain face ``card`` (or ``_OPEN_ACE``, an undeclared joker) on pile ``pid`` (an Ace starts it)
        counted for no seat: its deck is ``n``, no seat's (decks 0..n-1 are the seats'). Returns why it does
        not fit, or "" once it stands. An unseen card has no landing time, so nobody can be ruled against
        it: a twin of it is refused as one of the wrong rank, not as a lost race. A card seen landing
        (``landed``: the seat it was logged for, its time and err) starts the pile's group, so a twin races
        it (§6.1)."""
        pile = hand.piles.get(pid)
        if pile is None:
            if card.rank is not Rank.ACE and card is not _OPEN_ACE:
                return f"cannot start foundation {pid}"
            pile = RefPile(pid, None if card is _OPEN_ACE else card.suit, 0)
            hand.piles[pid] = pile
            hand.order.append(pile)
        elif not foundation_accepts(pile, card):
            return f"on {pid}: {self._why_not(pile, card)}"
        # Seen or not, the card shows an open joker Ace's suit as a play would (§12).
        _learn_suit(pile, card)
        pile.cards.append(card.in_deck(self.n))
        pile.faces.append(card)
        pile.level += 1
        pile.group = [] if landed is None else [landed]
        # Whoever played it, a card landed on a foundation: a progress move (§6, §7.2).
        hand.idle_resets = 0
        return ""

    def _on_hand_end(self, e: TableEvent) -> None:
        if self.over:
            # The end of a hand logged after the game ended, like every other event then (§8.1).
            self._breach(e, "after_game", "hand_end after the game is over: ignored")
            return
        if self.hand is None:
            self._breach(e, "no_hand", "hand_end with no hand in play: ignored")
            return
        self._close_hand(e.t_ns)

    def _hand_result(self, hand: _Hand) -> tuple[list[int], dict[str, Any], list[tuple[str, str, list[int]]]]:
        """Scores a hand (§8) without changing anything: scores, details, rulings to announce."""
        opts = self.opts
        tracked_f = [0] * self.n
        for pile in hand.order:
            for c in pile.cards:
                if c.deck < self.n:
                    tracked_f[c.deck] += 1
        notes: list[tuple[str, str, list[int]]] = []
        scores, fs, ns = [], [], []
        for s, name in enumerate(self.seats):
            n_count, f_count = hand.counts.get(s, (None, None))
            f = tracked_f[s]
            if f_count is not None and opts.attribution_source == "audit_if_available":
                if f_count != f:
                    notes.append(("audit", f"audit: {name} has {f_count} cards on the foundations "
                                  f"(live tracking saw {f})", [s]))
                f = f_count
            if n_count is not None:
                n = n_count
                if hand.tracked and n != len(hand.layouts[s].nerts):
                    notes.append(("audit", f"audit: {name} counts {n} Nerts cards (tracking saw "
                                  f"{len(hand.layouts[s].nerts)})", [s]))
            elif hand.tracked:
                n = len(hand.layouts[s].nerts)
            elif s == hand.caller:
                n = 0
            else:
                n = max(0, opts.nerts_pile_size - hand.nerts_out[s])
                notes.append(("estimate", f"no Nerts count for {name}: estimated {n} from the cards seen "
                              f"leaving it", [s]))
            if s == hand.caller and n:
                notes.append(("audit", f"{name} called Nerts! but counts {n} Nerts cards left", [s]))
            fs.append(f)
            ns.append(n)
            scores.append(hand_score(f, n) - hand.penalties[s])
        how = ("call" if hand.phase == "called" else "stalemate" if hand.phase == "stalemate" else "stopped")
        detail = {"hand": hand.number, "end": how, "foundation": dict(zip(self.seats, fs, strict=True)),
                  "nerts": dict(zip(self.seats, ns, strict=True)), "resets": hand.resets,
                  **({"caller": self.seats[hand.caller]} if hand.caller is not None else {})}
        return scores, detail, notes

    def _close_hand(self, t: int) -> None:
        hand = self.hand
        assert hand is not None
        scores, detail, notes = self._hand_result(hand)
        for kind, text, seats in notes:
            if kind == "audit":
                self._rule(t, kind, text, seats)
            else:
                self._estimates.append(f"hand {hand.number}: {text}")
        self._last_piles = {*hand.piles, *(pid for pid, _ in hand.refused.values())}
        self.hand = None
        self.hand_scores.append(scores)
        self.details.append(detail)
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        # The table plays on the corrected totals (the kiosk shows them), so a score_correction logged
        # before this hand's end decides the end of the game here and later hands are after_game.
        rows = self._corrected_rows()
        for kind, text, seats in self._end_rulings(hand.number, scores, rows, stopped=hand.phase == "play"):
            self._rule(t, kind, text, seats)
        over, winners, self.reached, _ = _decide_end(rows, self.opts.target_score, self.opts.tie_break)
        if over:
            self.over = True
            self.winners = winners

    def _end_rulings(self, number: int, scores: Sequence[int], rows: Sequence[Sequence[int]], *,
                     stopped: bool = False) -> list[tuple[str, str, list[int]]]:
        """The rulings announced when hand ``number`` is scored: its scores, then the end of the game
        or a tie for the lead that plays on (§8.1), decided on ``rows``, the hands so far corrected.
        ``stopped``: the table ended the hand with neither a call nor a stalemate, which its one
        ``hand_end`` ruling (the hand's scores) says too."""
        parts = ", ".join(f"{name} {_signed(x)}" for name, x in zip(self.seats, scores, strict=True))
        how = " (stopped without a call or a stalemate)" if stopped else ""
        out: list[tuple[str, str, list[int]]] = [("hand_end", f"hand {number}{how}: {parts}", [])]
        end = _end_ruling(self.seats, *_decide_end(rows, self.opts.target_score, self.opts.tie_break))
        if end is not None:
            out.append(end)
        return out

    # -- public view ------------------------------------------------------------------------
    def public_view(self) -> NertsTableView:
        """What everyone at the table can see: foundations, each seat's F and N, stuck flags.

        >>> from kiosk.games.nerts_options import NertsOptions
        >>> ref = NertsReferee(["Ana", "Ben"], NertsOptions())
        >>> _ = ref.feed(TableEvent("hand_start", 0))
        >>> _ = ref.feed(TableEvent("foundation_play", 10, seat="Ben", data={"card": "AC", "pile": "F1",
        ...                                                                  "from": "nerts"}))
        >>> v = ref.public_view()
        >>> v.hand, v.phase, [(p.pid, str(p.top), p.cards) for p in v.foundations]
        (1, 'play', [('F1', 'AC', 1)])
        >>> [(s.seat, s.foundation_count, s.nerts_count) for s in v.seats]
        [('Ana', 0, 13), ('Ben', 1, 12)]
        """
        hand = self.hand
        found = [0] * self.n
        piles: list[NertsPileView] = []
        if hand is not None:
            for i, pile in enumerate(hand.order, start=1):
                top = pile.faces[-1] if pile.faces else pile.cards[-1]
                piles.append(NertsPileView(pile.pid, i, pile.suit, pile.level, top, len(pile.cards),
                                           pile.complete))
                for c in pile.cards:
                    if 0 <= c.deck < self.n:
                        found[c.deck] += 1
        # A correction is announced at the table: the running totals show it too.
        rows = self._corrected_rows()
        totals = [sum(row[s] for row in rows) for s in range(self.n)]
        seats = tuple(
            NertsSeatTally(name, found[s], self._nerts_known(hand, s),
                           bool(hand is not None and s < len(hand.stuck) and hand.stuck[s]), totals[s])
            for s, name in enumerate(self.seats)
        )
        if self.over:
            phase = "over"
        elif hand is None:
            phase = "deal"
        else:
            phase = hand.phase
        caller = hand.caller if hand is not None else None
        if caller is None and hand is None and self.details:
            named = self.details[-1].get("caller")
            caller = self.seats.index(named) if isinstance(named, str) else None
        return NertsTableView(
            hand=self.hands_played,
            phase=phase,
            foundations=tuple(piles),
            seats=seats,
            resets=hand.resets if hand is not None else 0,
            caller=self.seats[caller] if caller is not None else None,
            hand_scores=tuple(tuple(h) for h in rows),
            hand_over=self.hands_played > 0 and (hand is None or hand.phase != "play"),
            game_over=self.over,
            winners=tuple(self.seats[w] for w in self.winners),
            audit=self.opts.attribution_source == "audit_if_available" and hand is not None
            and not hand.tracked and hand.phase in ("called", "stalemate") and not hand.counts,
        )

    def _corrected_rows(self, *more: Sequence[int], before: int | None = None) -> list[list[int]]:
        """The scored hands (and ``more``, a hand scored only for the report) with the score
        corrections logged so far applied; with ``before``, only those logged before that many game
        events."""
        rows = [list(h) for h in (*self.hand_scores, *more)]
        for i, fix in enumerate(self._corrections):
            if before is not None and self._correction_at[i] >= before:
                continue
            if int(fix.data["hand"]) <= len(rows):
                rows[int(fix.data["hand"]) - 1][self.seat_index(fix.seat)] = int(fix.data["score"])
        return rows

    def _nerts_known(self, hand: _Hand | None, seat: int) -> int | None:
        """A seat's Nerts-pile count as the table knows it (§12), or None."""
        if hand is None:
            return None
        counted = hand.counts.get(seat, (None, None))[0]
        if counted is not None:
            return counted
        if hand.tracked and hand.layouts:
            return len(hand.layouts[seat].nerts)
        if hand.caller == seat:
            return 0
        return max(0, self.opts.nerts_pile_size - hand.nerts_out[seat])

    # -- report -------------------------------------------------------------------------------
    def report(self) -> RefereeReport:
        """The report with the table's score corrections applied; the end of the game and its
        winners follow the corrected hands (§8.1): after each hand, once some total reaches
        ``target_score`` the highest total wins, and a tie for it plays on (``tie_break =
        play_on``) or shares the win (``shared``). While a hand is in play the game goes on."""
        if not self._corrections:
            return super().report()
        placed = self._correction_ruling_at
        # A hand the log leaves open after its call (or stalemate) is scored only here, at the last game
        # event: a correction logged after that event is shown after that scoring, one logged before it
        # among the announced rulings (docs/table-log.md: corrections are shown in log order).
        scored_here = len(self._report().rulings) - len(self.rulings)
        if scored_here:
            last = len(self._events)
            self._correction_ruling_at = [at + scored_here if self._correction_at[i] >= last else at
                                          for i, at in enumerate(placed)]
        try:
            rep = super().report()
        finally:
            self._correction_ruling_at = placed
        # A correction naming a hand the table never scored adds no hand (the shared report leaves it out,
        # docs/table-log.md), so the end below is decided on the hands played (§8.1); it takes effect if
        # that hand is scored later (see _corrected_rows).
        if self.hand is not None and self.hand.phase == "play":
            # A hand is being played, so the game goes on: a win announced before a correction undid it
            # is dropped (docs/table-log.md).
            rep.rulings = [r for r in rep.rulings if r.kind != "game_end"]
            return rep
        rows = [[scores.get(name, 0) for name in self.seats] for scores in rep.hands]
        over, winners, reached, totals = _decide_end(rows, self.opts.target_score, self.opts.tie_break)
        rep.finished = over
        rep.winners = [self.seats[w] for w in winners]
        if over:
            verb = "share the win" if len(winners) > 1 else "wins"
            text = f"game over: {' and '.join(rep.winners)} {verb} with {rep.totals[rep.winners[0]]}"
        else:
            text = ""
        sync_end_ruling(rep, "game_end", text, max(c.t_ns for c in self._corrections))
        played = len(self._events)
        late = [c.t_ns for i, c in enumerate(self._corrections) if self._correction_at[i] >= played]
        if scored_here and late and not over and reached:
            # The hand the log leaves open was scored at its last game event, before these corrections:
            # one that turns the end it announced into a tie for the lead announces that tie at its own
            # time, as it would after a hand_end (see _settle_end).
            assert self.hand is not None
            open_scores = self._hand_result(self.hand)[0]
            early = _decide_end(self._corrected_rows(open_scores, before=played),
                                self.opts.target_score, self.opts.tie_break)
            tie = _end_ruling(self.seats, over, winners, reached, totals)
            if early[:3] != (over, winners, reached) and tie is not None:
                at = len(rep.rulings)
                while at > 0 and rep.rulings[at - 1].t_ns > max(late):
                    at -= 1
                seats = tuple(self.seats[s] for s in tie[2])
                rep.rulings.insert(at, Ruling(max(late), tie[0], tie[1], seats))
        if over:
            # The game ends once: a win announced before a correction undid it (the table played on)
            # is dropped (docs/table-log.md), and the last game_end, brought up to date, stands.
            last = max(i for i, r in enumerate(rep.rulings) if r.kind == "game_end")
            rep.rulings = [r for i, r in enumerate(rep.rulings) if r.kind != "game_end" or i == last]
        return rep

    def _report(self) -> RefereeReport:
        hands = [dict(zip(self.seats, h, strict=True)) for h in self.hand_scores]
        totals = list(self.totals)
        details = list(self.details)
        rulings = list(self.rulings)
        finished, winners = self.over, list(self.winners)
        notes: list[str] = []
        hand = self.hand
        if hand is not None and hand.phase in ("called", "stalemate"):
            # The log stops after the end of a hand but before hand_end: score it.
            scores, detail, extra = self._hand_result(hand)
            hands.append(dict(zip(self.seats, scores, strict=True)))
            details.append(detail)
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
            # Scored as a hand_end would score it (docs/table-log.md): its audit, its scores, and the end
            # of the game or a tie for the lead (§8.1), announced with the rest.
            # A correction logged after that event comes after this scoring (see report()): the end of
            # the game it brings is announced at its own time (docs/table-log.md), not here.
            ends = self._end_rulings(hand.number, scores,
                                     self._corrected_rows(scores, before=len(self._events)))
            for kind, text, seats in [*(x for x in extra if x[0] == "audit"), *ends]:
                # At the last game event: a later undo or note is no part of the hand.
                rulings.append(Ruling(self._t_fed, kind, text, tuple(self.seats[s] for s in seats)))
            finished, winners, _ = game_end(totals, self.reached, self.opts.target_score, self.opts.tie_break)
            notes.extend(text for kind, text, _ in extra if kind == "estimate")
        elif hand is not None:
            notes.append(f"hand {hand.number} is still in play")
        notes.extend(self._estimates)
        notes.extend(self._repeats)
        return RefereeReport(
            game="nerts", seats=self.seats, rulings=rulings, infractions=list(self.infractions), hands=hands,
            totals=dict(zip(self.seats, totals, strict=True)), finished=finished,
            winners=[self.seats[w] for w in winners], notes=notes, extra={"hands": details},
        )


def _decide_end(rows: Sequence[Sequence[int]], target: int,
                tie_break: str) -> tuple[bool, list[int], bool, list[int]]:
    """Folds the end rule (§8.1) over the hands' scores in order and stops at the first hand that ends
    the game: a correction can end it earlier than the hands logged after it (they cannot revive it).
    Returns ``(over, winner indices, reached, totals)``."""
    totals = [0] * len(rows[0]) if rows else []
    over, reached = False, False
    winners: list[int] = []
    for row in rows:
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        over, winners, reached = game_end(totals, reached, target, tie_break)
        if over:
            break
    return over, winners, reached, totals


def _end_ruling(seats: Sequence[str], over: bool, winners: Sequence[int], reached: bool,
                totals: Sequence[int]) -> tuple[str, str, list[int]] | None:
    """The ruling that announces the end of the game, or a tie for the lead that plays on (§8.1),
    as (kind, text, seats); None while the target is not reached."""
    if over:
        names = " and ".join(seats[w] for w in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        return "game_end", f"game over: {names} {verb} with {totals[winners[0]]}", list(winners)
    if reached:
        best = max(totals)
        tied = [s for s, x in enumerate(totals) if x == best]
        names = " and ".join(seats[s] for s in tied)
        return "tie_for_win", f"{names} tie for the lead on {best}: another hand", tied
    return None


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else (f"−{-x}" if x < 0 else "0")


_OPEN_ACE = Card.joker()
"""The face of an undeclared joker that starts a pile: an Ace whose suit is still open (§12)."""


def _learn_suit(pile: RefPile, face: Card) -> None:
    """An open joker Ace (a pile started by an undeclared joker) learns its suit from the next card
    placed on it, and its jokers become the cards of that suit (§12)."""
    if pile.suit is None and face.suit is not None:
        pile.suit = face.suit
        pile.faces = [Card(Rank(i + 1), face.suit) if f.is_joker else f for i, f in enumerate(pile.faces)]


def _joker_left_at(layout: SeatLayout, src: str | None) -> bool:
    """Whether a joker still lies at source ``src`` (``N``, ``W``: on top; a work pile: anywhere in it)."""
    if src is None or src == "":
        return False
    if src in ("N", "W"):
        top = source_card(layout, src)
        return top is not None and top.is_joker
    if src.isdigit() and 1 <= int(src) <= len(layout.work):
        return any(c.is_joker for c in layout.work[int(src) - 1])
    return False


def _set_aside(aloft: tuple[list[Card], int] | None) -> list[Card]:
    """Takes the cards that are not on a card (see ``NertsReferee._aloft``) off its pile, for a while."""
    if aloft is None:
        return []
    cards, n = aloft
    above = cards[-n:]
    del cards[-n:]
    return above


def _clear_refusal(hand: _Hand, card: Card, src: str | None) -> None:
    """A refused card played or moved again from the layout has gone back first (or was redirected
    with its return unseen): its refusal ends. A deck's two jokers look alike, so the twin of a
    refused joker, played from another source, leaves that joker's refusal, and its return, standing
    (§6.1, §9)."""
    refused = hand.refused.get(card)
    if refused is None:
        return
    if card.is_joker and src is not None and refused[1] is not None and refused[1] != src:
        return
    del hand.refused[card]
    hand.left_top.discard(card)


def _returns(hand: _Hand, card: Card, pid: str, back_to: str | None) -> bool:
    """Whether moving ``card`` off pile ``pid`` to ``back_to`` (``N``, ``W``, ``S`` or a work pile) takes a
    card that pile refused back to its own source (any source but the stock, when its play did not say:
    only a card played from the stock goes back there) (§6.1)."""
    refused = hand.refused.get(card)
    return (refused is not None and refused[0] == pid and back_to is not None
            and (refused[1] == back_to or (refused[1] is None and back_to != "S")))


def _left_nerts(hand: _Hand, seat: int, card: Card) -> None:
    """Counts a card leaving a seat's Nerts pile in an untracked hand (§12: 13 minus those played), once:
    a refused card goes back and may leave again. A seat's two jokers look alike: each one counts."""
    if hand.nerts_top[seat] == card:
        # The top seen there has now left: the next top the camera sees does not count it again. A
        # plain card is also kept in ``nerts_gone``; a joker is not, as its twin may lie beneath it.
        hand.nerts_top[seat] = None
    if card.is_joker:
        hand.nerts_out[seat] += 1
    elif card not in hand.nerts_gone[seat]:
        hand.nerts_gone[seat].add(card)
        hand.nerts_out[seat] += 1
