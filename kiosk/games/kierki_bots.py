"""Seeded Kierki players for the table simulator and for tests.

Rule source: ``rules/kierki.md``. A bot plays the seat that is to act and
looks only at what that player may know: its own hand, the trick in progress,
the deal being played and the public Fan Tan layout. Both bots only ever
choose from ``state.legal_actions()``.

- :class:`RandomKierkiBot`: a uniformly random legal action.
- :class:`HeuristicKierkiBot`: in the negative deals it ducks under the card
  winning the trick, sheds its most expensive card when void and leads low;
  in the trump deals it wins cheaply when it can, trumps when void and names
  its longest, strongest suit as trumps; in Fan Tan it plays the card that
  frees most of its own cards and opens new rows last.

>>> bots = [HeuristicKierkiBot(), RandomKierkiBot(1), HeuristicKierkiBot(), RandomKierkiBot(2)]
>>> final = play_bot_match(KierkiGame(), bots, seed=5)
>>> final.is_terminal(), sum(final.returns()), len(final.sheet)
(True, 0, 12)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from kiosk.games.cards import Card, Suit
from kiosk.games.kierki import (
    KierkiAction,
    KierkiGame,
    KierkiState,
    NameTrump,
    Phase,
    PlayCard,
)
from kiosk.games.kierki.deals import NegativeDeal, TrumpDeal
from kiosk.games.kierki.fantan import Layout
from kiosk.games.tricks import Trick, rank_value

__all__ = ["KierkiBot", "RandomKierkiBot", "HeuristicKierkiBot", "play_bot_match", "trump_strength"]


class KierkiBot(Protocol):
    """Anything that picks an action for the seat to act."""

    def choose(self, state: KierkiState) -> KierkiAction:
        """Returns one of ``state.legal_actions()``."""
        ...


class RandomKierkiBot:
    """Plays a uniformly random legal action, drawn from its own seeded RNG."""

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: KierkiState) -> KierkiAction:
        return self.rng.choice(state.legal_actions())


def trump_strength(hand: Sequence[Card], suit: Suit) -> int:
    """How good ``suit`` is as trumps for ``hand``: length counts most, then height.

    >>> from kiosk.games.cards import parse_cards
    >>> hand = parse_cards("AH 6D AC 5D 7H")
    >>> max(Suit, key=lambda s: trump_strength(hand, s))
    <Suit.HEARTS: 2>
    """
    cards = [c for c in hand if c.suit is suit]
    return 20 * len(cards) + sum(rank_value(c) for c in cards)


def _wins(trick: Trick, seat: int, card: Card) -> bool:
    return trick.add(seat, card).winner == seat


class HeuristicKierkiBot:
    """A simple, sensible player (see the module docstring). Deterministic."""

    def choose(self, state: KierkiState) -> KierkiAction:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        if state.phase is Phase.NAME_TRUMP:
            hand = state.hand(seat)
            names = [a for a in legal if isinstance(a, NameTrump)]
            return max(names, key=lambda a: trump_strength(hand, a.suit))
        cards = [a.card for a in legal if isinstance(a, PlayCard)]
        if state.phase is Phase.FAN_TAN:
            assert state.layout is not None
            return PlayCard(seat, self._fan_tan(state.hand(seat), cards, state.layout))
        assert state.tricks is not None
        trick = state.tricks.current
        if isinstance(state.deal, TrumpDeal):
            card = self._positive(trick, seat, cards, state.trump)
        else:
            assert isinstance(state.deal, NegativeDeal)
            card = self._negative(state.deal, trick, seat, cards, state.hand(seat))
        return PlayCard(seat, card)

    @staticmethod
    def _negative(
        deal: NegativeDeal, trick: Trick, seat: int, cards: list[Card], hand: Sequence[Card]
    ) -> Card:
        def suit_len(c: Card) -> int:
            return sum(1 for h in hand if h.suit is c.suit)

        if not trick.plays:
            # Lead low, never a penalty card if avoidable, from a short suit (to get void).
            return min(cards, key=lambda c: (deal.card_penalty(c) > 0, rank_value(c), suit_len(c)))
        led = trick.led_suit
        following = [c for c in cards if c.suit is led]
        if not following:
            # Void: shed the most expensive card, else the highest.
            return max(cards, key=lambda c: (deal.card_penalty(c), rank_value(c)))
        ducks = [c for c in following if not _wins(trick, seat, c)]
        if ducks:
            return max(ducks, key=rank_value)
        last = len(trick.plays) == 3
        # Forced to win (for now): the last player dumps its highest card; others hope to be overtaken.
        return max(following, key=rank_value) if last else min(following, key=rank_value)

    @staticmethod
    def _positive(trick: Trick, seat: int, cards: list[Card], trump: Suit | None) -> Card:
        if not trick.plays:
            trumps = [c for c in cards if c.suit is trump]
            if len(trumps) >= 4:
                return max(trumps, key=rank_value)
            return max(cards, key=lambda c: (rank_value(c), c.suit is not trump))
        winners = [c for c in cards if _wins(trick, seat, c)]
        if winners:
            # Win as cheaply as possible: a plain card before a trump, then the lowest.
            return min(winners, key=lambda c: (c.suit is trump, rank_value(c)))
        # Cannot win: throw the lowest card, keeping trumps.
        return min(cards, key=lambda c: (c.suit is trump, rank_value(c)))

    @staticmethod
    def _fan_tan(hand: Sequence[Card], cards: list[Card], layout: Layout) -> Card:
        order = layout.order

        def freed(card: Card) -> int:
            # Own cards of that suit beyond this one, on the side it extends.
            pos = order.index(card.rank)
            row = layout.rows[card.suit] if card.suit is not None else None
            own = [order.index(c.rank) for c in hand if c.suit is card.suit and c != card]
            if row is None:
                return len(own)
            if pos < row[0]:
                return sum(1 for p in own if p < pos)
            return sum(1 for p in own if p > pos)

        def opens_row(card: Card) -> bool:
            return card.suit is not None and layout.rows[card.suit] is None

        return max(cards, key=lambda c: (freed(c), not opens_row(c), -order.index(c.rank)))


def play_bot_match(
    game: KierkiGame, bots: Sequence[KierkiBot], *, seed: int | random.Random | None = None,
    state: KierkiState | None = None,
) -> KierkiState:
    """Plays a whole match (or the rest of ``state``): deals drawn with the seeded RNG,
    each seat's actions chosen by its bot. Returns the final state."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state = state if state is not None else game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            action = bots[state.current_player()].choose(state)
        state.apply_action(action)
    return state

