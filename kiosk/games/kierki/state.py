"""The strict Kierki state: a whole match of 12 deals (kierki.md §3 to §10).

The match opens with a chance step that names the first dealer, then each
deal is dealt by chance: in one step (13 cards each), or, in a trump deal,
in two steps with the dealer naming trumps between them (§4). Tricks follow
§5; Fan Tan follows §8. When a deal ends its fixed total (§6.3, §7.2, §8.5)
is checked before the scores are posted; the strict path cannot produce a
mismatch unless the engine is wrong, so a mismatch raises
:class:`~kiosk.games.errors.GameError` rather than being scored.

State notation (one line, seats as indices)::

    kierki 3/12 no_queens dealer=2 phase=play to=3 trump=- hands=... trick=4 cur=3:QS,0:2S
        won=1,0,2,0 hb=0 deal=0,0,-60,0 total=-120,-60,-80,0
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.games.base import CHANCE, Game, State
from kiosk.games.cards import Card, Rank, Suit, standard_deck
from kiosk.games.errors import GameError
from kiosk.games.kierki.actions import (
    ChooseDealer,
    Deal,
    KierkiAction,
    NameTrump,
    Pass,
    PlayCard,
    parse_kierki_action,
)
from kiosk.games.kierki.deals import FanTanDeal, KierkiDeal, NegativeDeal, TrickDeal, TrumpDeal, match_deals
from kiosk.games.kierki.fantan import Layout
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.tricks import Trick, TrickHistory, deal_round_robin, shuffled

__all__ = ["Phase", "KierkiState", "KierkiView", "standings"]

N_SEATS = 4
_FULL_DECK = frozenset(standard_deck())


class Phase(enum.Enum):
    """Where a match stands."""

    CHOOSE_DEALER = "choose_dealer"
    """Chance: the first dealer is drawn."""
    DEAL = "deal"
    """Chance: 13 cards to each seat."""
    DEAL_FIRST = "deal_first"
    """Chance: the cards each seat gets before trumps are named (5 by default)."""
    NAME_TRUMP = "name_trump"
    """The chooser names trumps."""
    DEAL_REST = "deal_rest"
    """Chance: the rest of a trump deal."""
    PLAY = "play"
    """Tricks are played."""
    FAN_TAN = "fan_tan"
    """Fan Tan turns."""
    OVER = "over"
    """The match is over."""


_CHANCE_PHASES = frozenset({Phase.CHOOSE_DEALER, Phase.DEAL, Phase.DEAL_FIRST, Phase.DEAL_REST})


def standings(totals: Sequence[int]) -> list[tuple[int, int, int]]:
    """Ranks seats by score as ``(place, seat, score)``; equal scores share the
    place (§10: no tie-break).

    >>> standings([-165, 65, -210, 310])
    [(1, 3, 310), (2, 1, 65), (3, 0, -165), (4, 2, -210)]
    >>> standings([10, 10, -20, 0])
    [(1, 0, 10), (1, 1, 10), (3, 3, 0), (4, 2, -20)]
    """
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[tuple[int, int, int]] = []
    for i, seat in enumerate(order):
        place = out[-1][0] if out and totals[seat] == out[-1][2] else i + 1
        out.append((place, seat, totals[seat]))
    return out


@dataclass(frozen=True, slots=True)
class KierkiView:
    """What everyone at the table can see (no hidden hand)."""

    deal_number: int
    """1-based number of the current deal (0 before the first)."""
    deal_count: int
    deal_name: str | None
    deal_title: str | None
    dealer: int | None
    phase: str
    to_play: int | None
    trump: Suit | None
    trick_number: int | None
    current_trick: Trick | None
    last_trick: Trick | None
    tricks_won: tuple[int, ...]
    penalty_cards: tuple[tuple[Card, ...], ...]
    """Per seat, the cards taken this deal that cost something in it."""
    deal_scores: tuple[int, ...]
    scores: tuple[int, ...]
    """Match totals so far."""
    sheet: tuple[tuple[int, ...], ...]
    """The posted deal scores, one row per finished deal."""
    cards_left: tuple[int, ...]
    layout: str | None
    """The Fan Tan layout (``"C5-J D- H7-7 S5-10"``), or ``None`` outside Fan Tan."""
    out: tuple[int, ...]
    """Fan Tan: seats out of cards, in the order they went out."""
    is_over: bool
    winners: tuple[int, ...]


class KierkiState(State[KierkiAction]):
    """A Kierki match on the strict path."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.options: KierkiOptions = game.options
        self.deals: list[KierkiDeal] = match_deals(self.options)
        self.deal_index = 0
        self.dealer: int | None = None
        self.phase = Phase.CHOOSE_DEALER
        self.sheet: list[tuple[int, ...]] = []
        self.totals = [0] * N_SEATS
        self._reset_deal()

    def _reset_deal(self) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(N_SEATS)]
        self.trump: Suit | None = None
        self.tricks: TrickHistory | None = None
        self.hearts_played = False
        self.deal_scores = [0] * N_SEATS
        self.layout: Layout | None = None
        self.fan_turn = 0
        self.out: list[int] = []
        self.opening: Card | None = None

    # -- helpers -----------------------------------------------------------------
    @property
    def deal(self) -> KierkiDeal:
        """The current (or, once over, the last) deal."""
        return self.deals[min(self.deal_index, len(self.deals) - 1)]

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.seats

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (hidden on the table; for bots and tests)."""
        return tuple(self.hands[seat])

    def _left(self, seat: int, step: int = 1) -> int:
        return (seat + step) % N_SEATS

    def _deal_phase(self) -> Phase:
        deal = self.deal
        if isinstance(deal, TrumpDeal) and deal.chooser_is_dealer:
            return Phase.DEAL_FIRST
        return Phase.DEAL

    def _cards_per_seat(self) -> int:
        deal = self.deal
        if self.phase is Phase.DEAL_FIRST:
            assert isinstance(deal, TrumpDeal)
            return deal.cards_before_trump
        if self.phase is Phase.DEAL_REST:
            assert isinstance(deal, TrumpDeal)
            return 13 - deal.cards_before_trump
        return 13

    # -- hooks ---------------------------------------------------------------------
    def _current_player(self) -> int:
        if self.phase in _CHANCE_PHASES:
            return CHANCE
        if self.phase is Phase.NAME_TRUMP:
            assert isinstance(self.deal, TrumpDeal) and self.dealer is not None
            return self.deal.chooser(self.dealer)
        if self.phase is Phase.PLAY:
            assert self.tricks is not None
            return self.tricks.to_play
        return self.fan_turn

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def _legal_actions(self, player: int | None) -> list[KierkiAction]:
        seat = self._current_player()
        if player is not None and player != seat:
            return []
        if self.phase is Phase.NAME_TRUMP:
            return [NameTrump(seat, s) for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)]
        return list(self._card_actions(seat))

    def _card_actions(self, seat: int) -> list[PlayCard | Pass]:
        cards = self._legal_cards(seat)
        if not cards:
            return [Pass(seat)]
        return [PlayCard(seat, c) for c in cards]

    def _legal_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now; empty in Fan Tan means it must pass."""
        hand = self.hands[seat]
        if self.phase is Phase.PLAY:
            assert self.tricks is not None and isinstance(self.deal, TrickDeal)
            return self.deal.legal_plays(
                hand, self.tricks.current, hearts_played=self.hearts_played, trump=self.trump
            )
        assert self.layout is not None
        if self.opening is not None:
            return [self.opening]
        return self.layout.playable(hand)

    def _is_legal(self, action: KierkiAction, player: int | None) -> bool:
        # Checked without building the action list: apply_action runs this on every step.
        if player is None or player != self._current_player():
            return False
        if self.phase is Phase.NAME_TRUMP:
            return isinstance(action, NameTrump) and isinstance(action.suit, Suit)
        if isinstance(action, PlayCard):
            return action.card in self._legal_cards(player)
        if isinstance(action, Pass):
            return self.phase is Phase.FAN_TAN and not self._legal_cards(player)
        return False

    def _sample_chance(self, rng: random.Random) -> KierkiAction:
        if self.phase is Phase.CHOOSE_DEALER:
            return ChooseDealer(rng.randrange(N_SEATS))
        assert self.dealer is not None
        held = {c for h in self.hands for c in h}
        remaining = [c for c in standard_deck() if c not in held]
        hands, _ = deal_round_robin(
            shuffled(remaining, rng), N_SEATS, self._cards_per_seat(), first=self._left(self.dealer)
        )
        return Deal(tuple(tuple(h) for h in hands))

    def _is_legal_chance(self, action: KierkiAction) -> bool:
        if self.phase is Phase.CHOOSE_DEALER:
            return isinstance(action, ChooseDealer) and 0 <= action.seat < N_SEATS
        if not isinstance(action, Deal) or len(action.hands) != N_SEATS:
            return False
        per = self._cards_per_seat()
        if any(len(h) != per for h in action.hands):
            return False
        cards = [c for h in action.hands for c in h]
        held = {c for h in self.hands for c in h}
        return len(set(cards)) == len(cards) and all(c in _FULL_DECK and c not in held for c in cards)

    def _apply_action(self, action: KierkiAction) -> None:
        if isinstance(action, ChooseDealer):
            self.dealer = action.seat
            self.phase = self._deal_phase()
        elif isinstance(action, Deal):
            self._apply_deal(action)
        elif isinstance(action, NameTrump):
            self.trump = action.suit
            deal = self.deal
            assert isinstance(deal, TrumpDeal)
            if deal.chooser_is_dealer and deal.cards_before_trump < 13:
                self.phase = Phase.DEAL_REST
            else:
                self._start_tricks()
        elif isinstance(action, PlayCard):
            self.hands[action.seat].remove(action.card)
            if self.phase is Phase.PLAY:
                self._play_to_trick(action.seat, action.card)
            else:
                self._play_to_layout(action.seat, action.card)
        else:
            self._advance_fan_turn(action.seat)

    def _apply_deal(self, action: Deal) -> None:
        for seat, cards in enumerate(action.hands):
            self.hands[seat].extend(cards)
        deal = self.deal
        if self.phase is Phase.DEAL_REST:
            self._start_tricks()
        elif isinstance(deal, TrumpDeal):
            self.phase = Phase.NAME_TRUMP
        elif isinstance(deal, FanTanDeal):
            self._start_fan_tan()
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        assert self.dealer is not None
        self.tricks = TrickHistory(N_SEATS, self.deal.first_player(self.dealer), trump=self.trump)
        self.phase = Phase.PLAY

    def _start_fan_tan(self) -> None:
        assert self.dealer is not None
        opts = self.options
        start = None if opts.fan_tan_start_rank == "first_card" else Rank(int(opts.fan_tan_start_rank))
        self.layout = Layout.new(start=start, ace_high=opts.fan_tan_ace == "high")
        self.phase = Phase.FAN_TAN
        self.opening = opts.opening_card
        if self.opening is not None:
            self.fan_turn = next(s for s in range(N_SEATS) if self.opening in self.hands[s])
        else:
            self.fan_turn = self.deal.first_player(self.dealer)

    def _play_to_trick(self, seat: int, card: Card) -> None:
        assert self.tricks is not None and isinstance(self.deal, TrickDeal)
        if card.suit is Suit.HEARTS:
            self.hearts_played = True
        number = self.tricks.trick_number
        done = self.tricks.play(seat, card)
        if done is None:
            return
        self.deal_scores[done.winner] += self.deal.trick_score(done, number)
        taken = [c for t in self.tricks.completed for c in t.cards]
        if number == 13 or self.deal.penalty_exhausted(taken):
            self._end_deal()

    def _play_to_layout(self, seat: int, card: Card) -> None:
        assert self.layout is not None and isinstance(self.deal, FanTanDeal)
        self.layout = self.layout.place(card)
        self.opening = None
        if not self.hands[seat]:
            self.deal_scores[seat] += self.deal.prizes[len(self.out)]
            self.out.append(seat)
            if len(self.out) == 2:
                self._end_deal()
                return
        self._advance_fan_turn(seat)

    def _advance_fan_turn(self, seat: int) -> None:
        nxt = self._left(seat)
        while nxt in self.out:
            nxt = self._left(nxt)
        self.fan_turn = nxt

    def _end_deal(self) -> None:
        deal = self.deal
        if sum(self.deal_scores) != deal.fixed_total:
            raise GameError(
                f"deal {deal.number} ({deal.title}) scored {sum(self.deal_scores)}, "
                f"but its fixed total is {deal.fixed_total}",
                context=self.notation(),
            )
        self.sheet.append(tuple(self.deal_scores))
        for seat, score in enumerate(self.deal_scores):
            self.totals[seat] += score
        assert self.dealer is not None
        self.deal_index += 1
        self.dealer = self._left(self.dealer)
        self._reset_deal()
        if self.deal_index >= len(self.deals):
            self.phase = Phase.OVER
        else:
            self.phase = self._deal_phase()

    # -- public ------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Each seat's match total so far."""
        return list(self.totals)

    def winners(self) -> list[int]:
        """The seats with the highest total once the match is over (ties share)."""
        if not self.is_terminal():
            return []
        best = max(self.totals)
        return [s for s in range(N_SEATS) if self.totals[s] == best]

    def parse_action(self, text: str) -> KierkiAction:
        current = self._current_player() if not self.is_terminal() else None
        return parse_kierki_action(text, self.names, current=current, n_seats=N_SEATS)

    def public_view(self) -> KierkiView:
        over = self.is_terminal()
        deal = self.deal
        in_deal = not over and self.phase is not Phase.CHOOSE_DEALER
        tricks = self.tricks
        penalty: tuple[tuple[Card, ...], ...] = tuple(() for _ in range(N_SEATS))
        won = (0,) * N_SEATS
        if tricks is not None:
            won = tuple(tricks.tricks_won(s) for s in range(N_SEATS))
            if isinstance(deal, NegativeDeal):
                penalty = tuple(tuple(deal.penalty_cards(tricks.taken_by(s))) for s in range(N_SEATS))
        return KierkiView(
            deal_number=self.deal_index + 1 if in_deal else (len(self.deals) if over else 0),
            deal_count=len(self.deals),
            deal_name=deal.name if in_deal else None,
            deal_title=deal.title if in_deal else None,
            dealer=self.dealer,
            phase=self.phase.value,
            to_play=None if over or self.phase in _CHANCE_PHASES else self._current_player(),
            trump=self.trump,
            trick_number=tricks.trick_number if tricks is not None else None,
            current_trick=tricks.current if tricks is not None else None,
            last_trick=tricks.last if tricks is not None else None,
            tricks_won=won,
            penalty_cards=penalty,
            deal_scores=tuple(self.deal_scores),
            scores=tuple(self.totals),
            sheet=tuple(self.sheet),
            cards_left=tuple(len(h) for h in self.hands),
            layout=str(self.layout) if self.layout is not None else None,
            out=tuple(self.out),
            is_over=over,
            winners=tuple(self.winners()),
        )

    def notation(self) -> str:
        if self.is_terminal():
            head = f"kierki over/{len(self.deals)}"
        else:
            head = f"kierki {self.deal_index + 1}/{len(self.deals)} {self.deal.name}"
        parts = [
            head,
            f"dealer={'-' if self.dealer is None else self.dealer}",
            f"phase={self.phase.value}",
        ]
        if not self.is_terminal() and self.phase not in _CHANCE_PHASES:
            parts.append(f"to={self._current_player()}")
        parts.append(f"trump={self.trump.letter if self.trump is not None else '-'}")
        parts.append("hands=" + "/".join(",".join(str(c) for c in h) or "-" for h in self.hands))
        if self.tricks is not None:
            cur = ",".join(f"{s}:{c}" for s, c in self.tricks.current.plays) or "-"
            won = ",".join(str(self.tricks.tricks_won(s)) for s in range(N_SEATS))
            parts.append(f"trick={self.tricks.trick_number} cur={cur} won={won} hb={int(self.hearts_played)}")
        if self.layout is not None:
            parts.append("layout=" + str(self.layout).replace(" ", ","))
            parts.append("out=" + (",".join(map(str, self.out)) or "-"))
            if self.opening is not None:
                parts.append(f"opening={self.opening}")
        parts.append("deal=" + ",".join(map(str, self.deal_scores)))
        parts.append("total=" + ",".join(map(str, self.totals)))
        return " ".join(parts)

