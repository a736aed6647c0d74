"""Nerts (Nertz, Pounce, Racing Demon): the strict engine (``rules/nerts.md``).

Competitive patience in real time: every seat plays its own Klondike-like
layout from its own deck, all at once, onto shared foundations, racing to
empty its 13-card Nerts pile. A hand ends with a "Nerts!" call or when every
seat is stuck twice with no progress in between; each seat scores +1 per card
of its deck on the foundations and -2 per card left in its Nerts pile; hands
go on until a total reaches 100 (§8).

House rules (the spec's rulings): Aces need not be played at once; the last
1-2 stock cards are turned and playable; any block may move between work
piles; a card may slide under a work pile's base; a stuck seat may rotate its
stock; after one reset with no progress an all-stuck table ends the hand; a
tie for the win plays on. Every one of them is a :class:`NertsOptions` switch.

The strict path has no clock: actions are atomic and applied in landing order,
so a race is simply "whoever lands first". Timed play (races within the tie
window, cards in the air at the call, the one-hand rule) is the referee's job
(:mod:`kiosk.games.nerts_referee`), which shares this module's move generator.

Glossary: **seat** (a player or a partnership, one deck), **Nerts pile**,
**work pile**, **stock**, **waste**, **foundation** (shared pile of one suit,
Ace up; its **level** is its top rank), **available card**, **block**,
**stuck**, **reset**, **stalemate** (see :mod:`kiosk.games.nerts_layout`).

>>> game = NertsGame(seats=["Ana", "Ben"])
>>> state = game.new_initial_state()
>>> state.apply_action(state.sample_chance(7))
>>> state.current_player() == SIMULTANEOUS, len(state.public_view().seats[0].work)
(True, 4)
>>> a = state.legal_actions(0)[-1]
>>> state.parse_action(str(a)) == a
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from kiosk.games.base import CHANCE, SIMULTANEOUS, Game, State
from kiosk.games.cards import Card, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.nerts_actions import (
    PROGRESS_ACTIONS,
    Call,
    Deal,
    MoveBlock,
    NertsAction,
    Play,
    Stuck,
    parse_action,
    seat_deck,
)
from kiosk.games.nerts_layout import (
    SeatLayout,
    apply_layout_action,
    deal_layout,
    reset_layout,
    seat_actions,
)
from kiosk.games.nerts_options import NertsOptions, check_options
from kiosk.games.nerts_scoring import game_end, hand_score

if TYPE_CHECKING:
    from kiosk.games.nerts_referee import NertsReferee

__all__ = [
    "NertsGame", "NertsState", "NertsOptions", "FoundationPile", "NertsView", "SeatView", "FoundationView",
    "NertsAction",
]


@dataclass(slots=True)
class FoundationPile:
    """A shared foundation pile: its suit, its level, and every card on it, bottom first."""

    suit: Suit | None
    level: int
    cards: list[Card] = field(default_factory=list)
    """The physical cards (jokers as jokers); their decks are their owners."""
    faces: list[Card] = field(default_factory=list)
    """The face each card stands for (a joker's declared face), deck 0."""

    @property
    def complete(self) -> bool:
        """A King has landed: the pile takes no more cards and may be set aside."""
        return self.level >= 13

    def notation(self) -> str:
        parts = []
        for c, f in zip(self.cards, self.faces, strict=True):
            parts.append(f"{c}={f.face_str()}" if c.is_joker else str(c))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class FoundationView:
    """A foundation pile as the table sees it."""

    pile: int
    """1-based, in the order the piles were started."""
    suit: Suit | None
    level: int
    top: Card
    """The face on top (a joker shows its declared face)."""
    cards: int
    complete: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone can see of one seat."""

    seat: str
    nerts_count: int
    """Cards left in the Nerts pile (counted as they leave, §12)."""
    nerts_top: Card | None
    waste_top: Card | None
    work: tuple[tuple[Card, ...], ...]
    """Every work pile, base first: they are fanned face up."""
    stock_count: int
    foundation_count: int
    """F: cards of this seat's deck on the foundations so far."""
    stuck: bool
    total: int
    """The running total before this hand."""


@dataclass(frozen=True, slots=True)
class NertsView:
    """The public view of a Nerts table: what the kiosk may draw."""

    hand: int
    phase: str
    """``"deal"``, ``"play"`` or ``"over"``."""
    foundations: tuple[FoundationView, ...]
    seats: tuple[SeatView, ...]
    resets: int
    hand_scores: tuple[tuple[int, ...], ...]
    winners: tuple[str, ...]
    last_end: str
    """How the last hand ended: ``"Ana called"``, ``"stalemate"``, or empty."""

    @property
    def foundation_counts(self) -> tuple[int, ...]:
        return tuple(s.foundation_count for s in self.seats)

    @property
    def nerts_counts(self) -> tuple[int, ...]:
        return tuple(s.nerts_count for s in self.seats)


class NertsGame(Game):
    """Nerts for two or more seats (a seat may be a partnership of two players, §10)."""

    name: ClassVar[str] = "nerts"
    title: ClassVar[str] = "Nerts"
    options_type: ClassVar[type[NertsOptions]] = NertsOptions
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 12
    """The most the kiosk's seat picker offers (the camera's field of view, §2); a log may hold more."""

    def __init__(self, options: NertsOptions | dict[str, object] | None = None, /, *,
                 seats: Sequence[str] | int = 4) -> None:
        super().__init__(options, seats=seats)
        check_options(self.options)

    def _check_seat_count(self, n: int) -> None:
        # §2: two or more seats, and "the rules set no upper limit": only the table and the camera
        # set one, so a table log of more seats than the seat picker offers is refereed all the same.
        if n < self.min_seats:
            # Said as §2 says it: the seat picker's largest table is no limit of the rules.
            raise InvalidActionError(f"{self.title} takes two or more seats, got {n}", input=str(n))

    def new_initial_state(self) -> NertsState:
        return NertsState(self)

    def referee(self) -> NertsReferee:
        from kiosk.games.nerts_referee import NertsReferee

        return NertsReferee(self.seats, self.options)


class NertsState(State[NertsAction]):
    """A Nerts game on the strict path: deal (chance), then simultaneous play."""

    game: NertsGame

    def __init__(self, game: NertsGame) -> None:
        super().__init__(game)
        self.opts: NertsOptions = game.options
        self.num_seats = game.num_seats
        self.hand = 0
        self.phase = "deal"
        self.totals = [0] * self.num_seats
        self.hand_scores: list[list[int]] = []
        self.layouts: list[SeatLayout] = []
        self.foundations: list[FoundationPile] = []
        self.resets = 0
        self.idle_resets = 0
        """Resets since the last progress move (§7.2)."""
        self.target_reached = False
        self.winners: list[int] = []
        self.last_end = ""

    # -- contract hooks -------------------------------------------------------------
    def _current_player(self) -> int:
        return CHANCE if self.phase == "deal" else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self, player: int | None) -> list[NertsAction]:
        seats = range(self.num_seats) if player is None else [player]
        out: list[NertsAction] = []
        for s in seats:
            if 0 <= s < self.num_seats:
                out.extend(seat_actions(self.layouts[s], self.foundations, self.opts))
        return out

    def _is_legal(self, action: NertsAction, player: int | None) -> bool:
        if isinstance(action, Deal) or player is None or not 0 <= player < self.num_seats:
            return False
        return action in seat_actions(self.layouts[player], self.foundations, self.opts)

    def _sample_chance(self, rng: random.Random) -> Deal:
        orders = []
        for s in range(self.num_seats):
            deck = seat_deck(s, self.opts.jokers)
            rng.shuffle(deck)
            orders.append(tuple(deck))
        return Deal(tuple(orders))

    def _is_legal_chance(self, action: NertsAction) -> bool:
        if not isinstance(action, Deal) or len(action.orders) != self.num_seats:
            return False
        return all(Counter(order) == Counter(seat_deck(s, self.opts.jokers))
                   for s, order in enumerate(action.orders))

    def _apply_action(self, action: NertsAction) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        layout = self.layouts[action.seat]
        card = apply_layout_action(layout, action, self.opts)
        if isinstance(action, PROGRESS_ACTIONS):
            self.idle_resets = 0
        if isinstance(action, Play):
            assert card is not None
            self._play(action, card)
        elif isinstance(action, Call):
            self._end_hand(f"{self.game.seats[action.seat]} called")
        elif isinstance(action, Stuck) and all(lay.stuck for lay in self.layouts):
            self._all_stuck()
        elif isinstance(action, MoveBlock):
            pass

    # -- the hand -----------------------------------------------------------------------
    def _deal(self, deal: Deal) -> None:
        self.hand += 1
        self.phase = "play"
        self.layouts = [deal_layout(s, order, self.opts) for s, order in enumerate(deal.orders)]
        self.foundations = []
        self.resets = 0
        self.idle_resets = 0

    def _play(self, action: Play, card: Card) -> None:
        face = action.declared if action.declared is not None else card.face
        if action.pile is None:
            self.foundations.append(FoundationPile(face.suit, 1, [card], [face]))
        else:
            pile = self.foundations[action.pile - 1]
            pile.cards.append(card)
            pile.faces.append(face)
            pile.level += 1
            if pile.suit is None:
                pile.suit = face.suit

    def _all_stuck(self) -> None:
        if self.idle_resets >= self.opts.stalemate_after_resets:
            self._end_hand("stalemate")
            return
        for lay in self.layouts:
            reset_layout(lay)
        self.resets += 1
        self.idle_resets += 1

    def foundation_counts(self) -> list[int]:
        """F for each seat: its cards on the foundations."""
        counts = [0] * self.num_seats
        for pile in self.foundations:
            for c in pile.cards:
                counts[c.deck] += 1
        return counts

    def _end_hand(self, how: str) -> None:
        f = self.foundation_counts()
        scores = [hand_score(f[s], len(self.layouts[s].nerts)) for s in range(self.num_seats)]
        self.hand_scores.append(scores)
        self.totals = [t + x for t, x in zip(self.totals, scores, strict=True)]
        self.last_end = how
        over, winners, self.target_reached = game_end(
            self.totals, self.target_reached, self.opts.target_score, self.opts.tie_break)
        if over:
            self.phase = "over"
            self.winners = winners
        else:
            self.phase = "deal"

    # -- views ---------------------------------------------------------------------------
    def returns(self) -> list[int]:
        return list(self.totals)

    def all_cards(self) -> list[Card]:
        """Every card in play: each layout and the foundations (for conservation checks)."""
        out: list[Card] = []
        for lay in self.layouts:
            out.extend(lay.cards())
        for pile in self.foundations:
            out.extend(pile.cards)
        return out

    def public_view(self) -> NertsView:
        f = self.foundation_counts() if self.layouts else [0] * self.num_seats
        seats = []
        for s, name in enumerate(self.game.seats):
            lay = self.layouts[s] if self.layouts else None
            seats.append(SeatView(
                seat=name,
                nerts_count=len(lay.nerts) if lay else 0,
                nerts_top=lay.nerts[-1] if lay and lay.nerts else None,
                waste_top=lay.waste[-1] if lay and lay.waste else None,
                work=tuple(tuple(w) for w in lay.work) if lay else (),
                stock_count=len(lay.stock) if lay else 0,
                foundation_count=f[s],
                stuck=lay.stuck if lay else False,
                total=self.totals[s],
            ))
        piles = tuple(
            FoundationView(i, p.suit, p.level, p.faces[-1], len(p.cards), p.complete)
            for i, p in enumerate(self.foundations, start=1)
        )
        return NertsView(
            hand=self.hand, phase=self.phase, foundations=piles, seats=tuple(seats), resets=self.resets,
            hand_scores=tuple(tuple(h) for h in self.hand_scores),
            winners=tuple(self.game.seats[w] for w in self.winners), last_end=self.last_end,
        )

    def notation(self) -> str:
        """One line: hand, phase, resets, totals, each foundation pile, each seat's layout.

        >>> NertsGame(seats=2).new_initial_state().notation()
        'nerts hand=0 deal resets=0/0 totals=0,0 reached=0'
        """
        head = (f"nerts hand={self.hand} {self.phase} resets={self.resets}/{self.idle_resets} "
                f"totals={','.join(map(str, self.totals))} reached={int(self.target_reached)}")
        parts = [head]
        parts.extend(f"F{i}[{p.notation()}]" for i, p in enumerate(self.foundations, start=1))
        parts.extend(f"s{lay.seat} {lay.notation()}" for lay in self.layouts)
        return " | ".join(parts)

    def parse_action(self, text: str) -> NertsAction:
        """Parses action notation (:mod:`kiosk.games.nerts_actions`) for this game's seats."""
        action = parse_action(text, self.num_seats)
        if isinstance(action, Deal):
            return action
        for attr in ("work", "from_work", "to_work"):
            n = getattr(action, attr, None)
            if n is not None and n > self.opts.work_piles:
                raise InvalidActionError(
                    f"no work pile {n} in {text!r} (this game has {self.opts.work_piles})", input=text)
        return action
