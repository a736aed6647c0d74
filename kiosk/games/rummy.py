"""3-13 Speed: the fast, simultaneous 3-13 Rummy for large groups (``rules/rummy_3_13.md``).

Rule source: the 3-13 Speed page on pagat.com (contributed by Stan Stone), as
specified in ``rummy_3_13.md`` with its rulings and variant options (§10).

Glossary:

- **hand** ``h``: one of eleven deals; every seat holds ``n = h + 2`` cards and
  the **wild rank** is ``n`` (3s wild with 3 cards ... Kings wild with 13).
- **pool**: the face-down spread in the middle; any card in it may be taken.
- **pile**: each seat's discard pile, on its left; only the top card may be taken,
  and only by the seat's **left neighbour** (the next seat clockwise). So a seat
  draws from the pile of its **right neighbour** (the previous seat).
- **caller**: announces "draw" and "discard"; everyone acts at once. Under
  ``caller = kiosk`` the kiosk announces them, using :meth:`RummyState.cadence`.
- **held card**: the card a seat has laid face down to discard at the call.
- **match**: a call that the seat's ``n`` cards form sets with no orphan; a
  confirmed match puts the seat **out** and starts the **final round**.
- **penalty**: the orphans' points of the best arrangement (:mod:`kiosk.games.melds`).

The strict engine is simultaneous: :meth:`RummyState.current_player` is
:data:`SIMULTANEOUS` while seats draw, hold and claim, and :data:`CHANCE` for the
deal and for the card a seat gets from the pool. Rulings this engine makes where
the spec leaves it to the table: the pool is checked when "draw" is called (if it
holds fewer cards than there are seats to draw, §6.2 applies at once); a seat that
has no card to draw (an empty pool and an empty pile) sits the round out; one
"match" call per seat per window (the hand cannot change inside a window). Under
``scoring_mode = as_laid_out`` the strict engine lets every seat lay out its best
arrangement; the referee path scores what was really laid out.

>>> game = Rummy313Game(seats=["Ana", "Ben", "Cal", "Dee"])
>>> state = game.new_initial_state()
>>> state.apply_action(state.sample_chance(7))
>>> state.cadence().may_call_draw, state.public_view().wild_rank
(True, <Rank.THREE: 3>)
"""

from __future__ import annotations

import bisect
import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.games.base import CHANCE, SIMULTANEOUS, Game, Options, State, option
from kiosk.games.cards import Card, Rank, format_cards, multi_deck
from kiosk.games.errors import InvalidActionError
from kiosk.games.melds import Arrangement, best_arrangement
from kiosk.games.referee import Referee
from kiosk.games.rummy_actions import (
    Call,
    Deal,
    DrawPile,
    DrawPool,
    Hold,
    Match,
    PoolCard,
    RummyAction,
    parse_action,
)

__all__ = [
    "RummyOptions",
    "Rummy313Game",
    "RummyState",
    "Cadence",
    "SeatView",
    "RummyView",
    "check_options",
    "winners",
]

HAND_SIZES = tuple(range(3, 14))


@dataclass(frozen=True, slots=True)
class RummyOptions(Options):
    """Every variant option of ``rules/rummy_3_13.md`` §10, with the spec's defaults."""

    decks: int = option(4, "number of 52-card decks without jokers (a fifth for a very large group)")
    hands: tuple[int, ...] = option(HAND_SIZES, "hand sizes played, one hand per size, increasing (3..13)")
    face_card_points: str = option(
        "10", "10: J, Q and K score 10 each; rank: they score 11, 12 and 13", choices=("10", "rank"))
    max_wilds_per_set: int | None = option(
        None, "most wild cards that may stand for other cards in one set (null: unlimited)")
    start_pile_each_hand: bool = option(True, "each hand begins with one face-up card on each seat's pile")
    matcher_plays_final_round: bool = option(
        False, "matched seats also draw and discard in the final round and must still be complete")
    scoring_mode: str = option(
        "optimal", "optimal: the referee finds the lowest penalty; as_laid_out: the seat's own arrangement",
        choices=("optimal", "as_laid_out"))
    false_match_penalty: int = option(0, "points added for a 'match' call that fails the check")
    pool_empty: str = option(
        "reform_from_piles",
        "reform_from_piles: rebuild the pool from the discards under each pile's top; end_hand: score now",
        choices=("reform_from_piles", "end_hand"))
    caller: str = option(
        "human", "human: a player calls 'draw' and 'discard'; kiosk: the kiosk announces them",
        choices=("human", "kiosk"))
    tie_break: str = option(
        "shared", "shared: tied lowest totals share the win; last_hand: lower score in the last hand wins",
        choices=("shared", "last_hand"))


def check_options(opts: RummyOptions) -> None:
    """Checks what the types cannot; InvalidActionError names the option and the fix.

    >>> check_options(RummyOptions(hands=(3, 5, 4)))
    Traceback (most recent call last):
    ...
    kiosk.games.errors.InvalidActionError: option 'hands' must be increasing sizes from 3 to 13, got [3, 5, 4]
    """
    # §10 sets no upper limit on the decks (a very large group adds decks as it needs them).
    if opts.decks < 1:
        raise InvalidActionError(f"option 'decks' must be 1 or more, got {opts.decks}", input=str(opts.decks))
    if not isinstance(opts.hands, (tuple, list)):
        # A single size (``"hands": 5``) or null: the header needs a list or a range.
        raise InvalidActionError(
            f"option 'hands' must be a list of sizes or a range such as '3..13', got {opts.hands!r}",
            input=repr(opts.hands))
    hands = list(opts.hands)
    if (
        not hands
        or not all(isinstance(h, int) and not isinstance(h, bool) and 3 <= h <= 13 for h in hands)
        or any(a >= b for a, b in zip(hands, hands[1:], strict=False))
    ):
        raise InvalidActionError(
            f"option 'hands' must be increasing sizes from 3 to 13, got {hands}", input=str(hands))
    m = opts.max_wilds_per_set
    if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 0):
        raise InvalidActionError(
            f"option 'max_wilds_per_set' must be a whole number 0 or more, or null for unlimited, got {m!r}",
            input=repr(m))
    if opts.false_match_penalty < 0:
        raise InvalidActionError(
            f"option 'false_match_penalty' must be 0 or more, got {opts.false_match_penalty}",
            input=str(opts.false_match_penalty))


def _spec_spellings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Accepts the option values as §10 of the spec writes them, as well as the canonical ones.

    ``face_card_points: 10`` (a number) means ``"10"``, ``max_wilds_per_set: "unlimited"``
    means null, ``hands: "3..13"`` means the sizes 3 to 13 and ``hands: "3, 5"`` the sizes 3 and 5.

    >>> _spec_spellings({"face_card_points": 10, "max_wilds_per_set": "unlimited", "hands": "5..7"})
    {'face_card_points': '10', 'max_wilds_per_set': None, 'hands': [5, 6, 7]}
    >>> _spec_spellings({"hands": "3, 5"})
    {'hands': [3, 5]}
    """
    out = dict(values)
    if out.get("face_card_points") == 10 and not isinstance(out["face_card_points"], bool):
        out["face_card_points"] = "10"
    wilds = out.get("max_wilds_per_set")
    if isinstance(wilds, str) and wilds.strip().lower() == "unlimited":
        out["max_wilds_per_set"] = None
    hands = out.get("hands")
    if isinstance(hands, str):
        lo, sep, hi = hands.partition("..")
        # A list of sizes may also be written as a comma string ("3, 5, 7"), as for a JSON list.
        sizes = [p.strip() for p in hands.strip().removeprefix("[").removesuffix("]").split(",")]
        if sep and lo.strip().isdecimal() and hi.strip().isdecimal():
            out["hands"] = list(range(int(lo), int(hi) + 1))
        elif not sep and all(p.isdecimal() for p in sizes):
            out["hands"] = [int(p) for p in sizes]
        else:
            raise InvalidActionError(
                f"option 'hands' must be a list of sizes or a range such as '3..13', got {hands!r}",
                input=hands)
    return out


def winners(totals: list[int], last_hand: list[int], tie_break: str) -> list[int]:
    """The winning seats: the lowest total; ``last_hand`` breaks a tie by the last hand's score.

    >>> totals, last = [87, 64, 64, 120], [5, 0, 12, 9]          # rummy_3_13.md example 13
    >>> winners(totals, last, "shared"), winners(totals, last, "last_hand")
    ([1, 2], [1])
    """
    low = min(totals)
    tied = [i for i, t in enumerate(totals) if t == low]
    if tie_break == "last_hand" and len(tied) > 1:
        best = min(last_hand[i] for i in tied)
        tied = [i for i in tied if last_hand[i] == best]
    return tied


@dataclass(frozen=True, slots=True)
class Cadence:
    """What the caller needs: who holds the table up, and which call may be made now."""

    phase: str
    """``"deal"``, ``"window"`` (claims open, next call is "draw"), ``"draw"`` or ``"over"``."""
    final_round: bool
    """True when the next or current draw is the final round."""
    waiting_to_draw: tuple[int, ...]
    """Seats that have not drawn yet this round."""
    waiting_to_hold: tuple[int, ...]
    """Seats that have drawn but whose face-down discard is still missing."""
    may_call_draw: bool
    may_call_discard: bool
    match_window_open: bool
    """True while "match" may be called (in setup and straight after a discard)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the table sees it."""

    name: str
    cards_in_hand: int
    pile_top: Card | None
    pile_size: int
    has_drawn: bool
    is_holding: bool
    """A face-down discard lies in front of the seat."""
    is_out: bool
    shown: Arrangement | None
    """The hand laid face up (a match, or the end of the hand), arranged."""


@dataclass(frozen=True, slots=True)
class RummyView:
    """Everything everyone at the table can see (the kiosk draws only this)."""

    hand_number: int
    """1-based; 0 before the first deal."""
    hands_total: int
    hand_size: int
    wild_rank: Rank | None
    cadence: Cadence
    pool_size: int
    seats: tuple[SeatView, ...]
    scores: tuple[tuple[int, ...], ...]
    """Per finished hand, each seat's score."""
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    """Set once the game is over."""


class Rummy313Game(Game):
    """3-13 Speed for 2 or more seats (any number the decks can deal to)."""

    name = "rummy_3_13"
    title = "3-13 Speed"
    options_type = RummyOptions
    min_seats = 2
    max_seats = 40
    """The most the kiosk's seat picker offers; a log may hold more (§2: "two or more")."""

    def __init__(
        self, options: Options | Mapping[str, Any] | None = None, /, *, seats: Sequence[str] | int = 4,
    ) -> None:
        super().__init__(_spec_spellings(options) if isinstance(options, Mapping) else options, seats=seats)

    def _check_seat_count(self, n: int) -> None:
        # §2 sets no upper limit on the players; only the cards do. The largest hand must be
        # dealt with one more card a seat: the starting pile card, or (without starting piles)
        # a pool card for the first draw. A pool too small for a draw each is no bar after that,
        # as every pile then holds a card to draw (§6.1) and §6.2 re-forms the pool.
        if n < self.min_seats:
            super()._check_seat_count(n)
        check_options(self.options)
        opts: RummyOptions = self.options
        need = n * (max(opts.hands) + 1)
        have = 52 * opts.decks
        if need > have:
            extra = "a starting pile card" if opts.start_pile_each_hand else "a first draw"
            raise InvalidActionError(
                f"{n} seats need {need} cards for the largest hand and {extra} each, but {opts.decks} "
                f"decks have {have}: add a deck (option 'decks') or play with fewer seats",
                input=str(n),
            )

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def referee(self) -> Referee:
        from kiosk.games.rummy_referee import RummyReferee

        referee: Referee = RummyReferee(self.seats, self.options)
        return referee


@dataclass
class _Hand:
    """The state of one hand (mutable; the state's notation prints all of it)."""

    size: int
    pool: list[Card]
    hands: list[list[Card]]
    piles: list[list[Card]]
    held: list[Card | None]
    drew: list[str]
    """Per seat: "" (not yet), "pool", "pile" or "none" (no card to draw)."""
    pending: list[int] = field(default_factory=list)
    """Seats waiting for their pool card (a chance step each)."""
    out: list[bool] = field(default_factory=list)
    claimed: list[bool] = field(default_factory=list)
    """Seats that called "match" in the current window."""
    penalties: list[int] = field(default_factory=list)
    """False-match points this hand."""
    shown: list[Arrangement | None] = field(default_factory=list)
    phase: str = "window"
    final: bool = False
    in_final_round: bool = False
    drawers: list[int] = field(default_factory=list)
    setup: bool = True

    def copy(self) -> _Hand:
        """A copy whose lists are new (the cards themselves are immutable and shared)."""
        return replace(
            self, pool=list(self.pool), hands=[list(x) for x in self.hands],
            piles=[list(x) for x in self.piles],
            held=list(self.held), drew=list(self.drew), pending=list(self.pending), out=list(self.out),
            claimed=list(self.claimed), penalties=list(self.penalties), shown=list(self.shown),
            drawers=list(self.drawers),
        )


class RummyState(State[RummyAction]):
    """A 3-13 Speed game on the strict path."""

    game: Rummy313Game

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.options: RummyOptions = game.options
        self.n_seats = game.num_seats
        self.hand_index = -1
        self.cur: _Hand | None = None
        self.scores: list[list[int]] = []
        self.deck = multi_deck(self.options.decks)

    def __deepcopy__(self, memo: dict[int, object]) -> RummyState:
        # Cards, actions and the game are immutable: share them, copy only the containers.
        new = copy.copy(self)
        new._history = list(self._history)
        new.scores = [list(r) for r in self.scores]
        new.cur = self.cur.copy() if self.cur is not None else None
        return new

    # -- helpers ------------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return self.options.hands[self.hand_index] if self.hand_index >= 0 else 0

    def right_of(self, seat: int) -> int:
        """The right-hand neighbour, whose pile ``seat`` draws from."""
        return (seat - 1) % self.n_seats

    def arrange(self, cards: list[Card]) -> Arrangement:
        """The best arrangement of ``cards`` in the current hand."""
        return best_arrangement(
            cards, self.hand_size, max_wilds_per_set=self.options.max_wilds_per_set,
            face_card_points=self.options.face_card_points,
        )

    def _next_deal_pending(self) -> bool:
        return self.cur is None or self.cur.phase == "scored"

    def is_terminal(self) -> bool:
        return len(self.scores) == len(self.options.hands) and self._next_deal_pending()

    def _current_player(self) -> int:
        if self._next_deal_pending():
            return CHANCE
        assert self.cur is not None
        if self.cur.pending:
            return CHANCE
        return SIMULTANEOUS

    # -- cadence --------------------------------------------------------------------
    def _can_draw(self, seat: int) -> bool:
        h = self.cur
        assert h is not None
        return bool(h.pool) or bool(h.piles[self.right_of(seat)])

    def cadence(self) -> Cadence:
        """What the caller (a person, or the kiosk under ``caller = kiosk``) needs to know."""
        h = self.cur
        if self.is_terminal() or h is None or h.phase == "scored":
            phase = "over" if self.is_terminal() else "deal"
            return Cadence(phase, False, (), (), False, False, False)
        if h.phase == "window":
            return Cadence("window", h.final, (), (), True, False, True)
        to_draw = tuple(p for p in h.drawers if h.drew[p] == "")
        to_hold = tuple(p for p in h.drawers if h.drew[p] not in ("", "none") and h.held[p] is None)
        ready = not to_draw and not to_hold and not h.pending
        return Cadence("draw", h.final, to_draw, to_hold, False, ready, False)

    # -- legal actions -------------------------------------------------------------
    def _legal_actions(self, player: int | None) -> list[RummyAction]:
        h = self.cur
        assert h is not None
        seats = range(self.n_seats) if player is None else [player]
        out: list[RummyAction] = []
        if h.phase == "window":
            for p in seats:
                if not h.out[p] and not h.claimed[p]:
                    out.append(Match(p))
            if player is None:
                out.append(Call("draw"))
            return out
        for p in seats:
            if p not in h.drawers:
                continue
            if h.drew[p] == "":
                if h.pool:
                    out.append(DrawPool(p))
                if h.piles[self.right_of(p)]:
                    out.append(DrawPile(p))
            elif h.drew[p] != "none" and h.held[p] is None and p not in h.pending:
                out.extend(Hold(p, c) for c in sorted(set(h.hands[p])))
        if player is None and self.cadence().may_call_discard:
            out.append(Call("discard"))
        return out

    def _is_legal(self, action: RummyAction, player: int | None) -> bool:
        h = self.cur
        if h is None or isinstance(action, (Deal, PoolCard)):
            return False
        if isinstance(action, Hold):
            return (
                h.phase == "draw" and action.seat in h.drawers and h.drew[action.seat] not in ("", "none")
                and h.held[action.seat] is None and action.seat not in h.pending
                and action.card in h.hands[action.seat]
            )
        return action in self._legal_actions(player)

    # -- chance ---------------------------------------------------------------------
    def _sample_chance(self, rng: random.Random) -> RummyAction:
        if self._next_deal_pending():
            n = self.options.hands[self.hand_index + 1]
            cards = list(self.deck)
            rng.shuffle(cards)
            hands = tuple(tuple(sorted(cards[i * n:(i + 1) * n])) for i in range(self.n_seats))
            rest = cards[self.n_seats * n:]
            piles = tuple(rest[: self.n_seats]) if self.options.start_pile_each_hand else ()
            return Deal(hands, piles)
        h = self.cur
        assert h is not None
        return PoolCard(h.pending[0], rng.choice(h.pool))

    def _is_legal_chance(self, action: RummyAction) -> bool:
        if self._next_deal_pending():
            if not isinstance(action, Deal):
                return False
            n = self.options.hands[self.hand_index + 1]
            if len(action.hands) != self.n_seats or any(len(x) != n for x in action.hands):
                return False
            want_piles = self.n_seats if self.options.start_pile_each_hand else 0
            if len(action.piles) != want_piles:
                return False
            dealt = [c for x in action.hands for c in x] + list(action.piles)
            counts = Counter(dealt)
            return all(v == 1 and c.deck < self.options.decks and not c.is_joker for c, v in counts.items())
        h = self.cur
        assert h is not None
        return isinstance(action, PoolCard) and action.seat == h.pending[0] and action.card in h.pool

    # -- applying -------------------------------------------------------------------
    def _apply_action(self, action: RummyAction) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        h = self.cur
        assert h is not None
        if isinstance(action, PoolCard):
            h.pending.pop(0)
            # The pool is kept sorted: find the card by bisection, not by a scan.
            del h.pool[bisect.bisect_left(h.pool, action.card)]
            _insort(h.hands[action.seat], action.card)
        elif isinstance(action, DrawPool):
            h.drew[action.seat] = "pool"
            h.pending.append(action.seat)
        elif isinstance(action, DrawPile):
            h.drew[action.seat] = "pile"
            card = h.piles[self.right_of(action.seat)].pop()
            _insort(h.hands[action.seat], card)
        elif isinstance(action, Hold):
            h.hands[action.seat].remove(action.card)
            h.held[action.seat] = action.card
        elif isinstance(action, Match):
            self._match(action.seat)
        elif isinstance(action, Call):
            if action.word == "draw":
                self._call_draw()
            else:
                self._call_discard()

    def _deal(self, action: Deal) -> None:
        self.hand_index += 1
        dealt = Counter(c for x in action.hands for c in x) + Counter(action.piles)
        pool = sorted((Counter(self.deck) - dealt).elements())
        k = self.n_seats
        self.cur = _Hand(
            size=self.hand_size,
            pool=pool,
            hands=[sorted(x) for x in action.hands],
            piles=[[c] for c in action.piles] if action.piles else [[] for _ in range(k)],
            held=[None] * k,
            drew=[""] * k,
            out=[False] * k,
            claimed=[False] * k,
            penalties=[0] * k,
            shown=[None] * k,
        )

    def _match(self, seat: int) -> None:
        h = self.cur
        assert h is not None
        h.claimed[seat] = True
        arrangement = self.arrange(h.hands[seat])
        if arrangement.is_complete:
            h.out[seat] = True
            h.final = True
            h.shown[seat] = arrangement
        else:
            h.penalties[seat] += self.options.false_match_penalty

    def _call_draw(self) -> None:
        h = self.cur
        assert h is not None
        h.setup = False
        h.in_final_round = h.final
        if h.final and not self.options.matcher_plays_final_round:
            h.drawers = [p for p in range(self.n_seats) if not h.out[p]]
        else:
            h.drawers = list(range(self.n_seats))
        if len(h.pool) < len(h.drawers):
            # §6.2: the caller stops the round before anyone draws.
            if self.options.pool_empty == "end_hand":
                self._score_hand()
                return
            for pile in h.piles:
                h.pool.extend(pile[:-1])
                del pile[:-1]
            h.pool.sort()
        h.phase = "draw"
        h.claimed = [False] * self.n_seats
        h.drew = [""] * self.n_seats
        for p in h.drawers:
            if not self._can_draw(p):
                h.drew[p] = "none"

    def _call_discard(self) -> None:
        h = self.cur
        assert h is not None
        for p in h.drawers:
            card = h.held[p]
            if card is not None:
                h.piles[p].append(card)
                h.held[p] = None
        h.drew = [""] * self.n_seats
        h.drawers = []
        if h.in_final_round:
            self._score_hand()
        else:
            h.phase = "window"

    def _score_hand(self) -> None:
        h = self.cur
        assert h is not None
        row: list[int] = []
        for p in range(self.n_seats):
            if h.out[p] and not self.options.matcher_plays_final_round:
                row.append(h.penalties[p])
                continue
            a = self.arrange(h.hands[p])
            h.shown[p] = a
            row.append(a.penalty + h.penalties[p])
        self.scores.append(row)
        h.phase = "scored"

    # -- results and views ----------------------------------------------------------
    def returns(self) -> list[int]:
        """Each seat's total penalty so far (lower is better)."""
        return [sum(row[p] for row in self.scores) for p in range(self.n_seats)]

    def winners(self) -> list[int]:
        """The winning seats once the game is over (empty before)."""
        if not self.is_terminal():
            return []
        return winners(self.returns(), self.scores[-1], self.options.tie_break)

    def public_view(self) -> RummyView:
        h = self.cur
        seats: list[SeatView] = []
        for p, name in enumerate(self.game.seats):
            if h is None:
                seats.append(SeatView(name, 0, None, 0, False, False, False, None))
                continue
            pile = h.piles[p]
            seats.append(SeatView(
                name, len(h.hands[p]), pile[-1] if pile else None, len(pile),
                h.drew[p] not in ("", "none"), h.held[p] is not None, h.out[p], h.shown[p],
            ))
        n = self.hand_size
        return RummyView(
            hand_number=self.hand_index + 1,
            hands_total=len(self.options.hands),
            hand_size=n,
            wild_rank=Rank(n) if n else None,
            cadence=self.cadence(),
            pool_size=len(h.pool) if h else 0,
            seats=tuple(seats),
            scores=tuple(tuple(r) for r in self.scores),
            totals=tuple(self.returns()),
            winners=tuple(self.game.seats[i] for i in self.winners()),
        )

    def notation(self) -> str:
        head = f"hand {self.hand_index + 1}/{len(self.options.hands)}"
        scores = "scores " + (";".join(",".join(map(str, r)) for r in self.scores) or "-")
        h = self.cur
        if h is None:
            return f"{head} deal | {scores}"
        phase = h.phase + (" final" if h.final else "") + (" setup" if h.setup else "")
        parts = [f"{head} n={h.size} {phase} pool={len(h.pool)} pending={_ints(h.pending)} "
                 f"drawers={_ints(h.drawers)}"]
        for p in range(self.n_seats):
            held = str(h.held[p]) if h.held[p] is not None else "-"
            flags = ("out " if h.out[p] else "") + ("claimed " if h.claimed[p] else "")
            parts.append(
                f"{p}: {flags}hand {format_cards(h.hands[p]) or '-'} pile {format_cards(h.piles[p]) or '-'} "
                f"held {held} drew {h.drew[p] or '-'} pen {h.penalties[p]}"
            )
        parts.append(scores)
        return " | ".join(parts)

    def parse_action(self, text: str) -> RummyAction:
        return parse_action(text, self.n_seats)


def _ints(xs: list[int]) -> str:
    return ",".join(map(str, xs)) or "-"


def _insort(cards: list[Card], card: Card) -> None:
    cards.append(card)
    cards.sort()
