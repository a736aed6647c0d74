"""Seeded Smear players for the table simulator and for tests.

Rule source: ``rules/smear.md``. A bot plays the seat that is to act and
looks only at what that player may know: its own hand (and, as the bidder,
the blind cards it took), the public view (bids, trump, the trick in
progress) and the cards already played. Both bots only ever choose from
``state.legal_actions()``.

- :class:`RandomSmearBot`: a uniformly random legal action.
- :class:`HeuristicSmearBot`: bids from hand strength (the Points its best
  suit is likely to take), keeps its trumps when it discards, leads its best
  suit, wins tricks cheaply, smears counting cards onto its partner's winning
  trick and throws low cards when it cannot win.

>>> from kiosk.games.smear import SmearGame
>>> bots = [HeuristicSmearBot(1), RandomSmearBot(2), HeuristicSmearBot(3), RandomSmearBot(4)]
>>> final = play_bot_game(SmearGame({"blind_cards": 2}), bots, seed=3)
>>> final.is_terminal(), final.winner
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.smear import Bid, Discard, Pass, Phase, PlayCard, SmearAction, SmearGame, SmearState
from kiosk.games.smear_rules import card_points, team_of
from kiosk.games.tricks import Trick, rank_value

__all__ = ["SmearBot", "RandomSmearBot", "HeuristicSmearBot", "play_bot_game", "suit_strength"]


class SmearBot(Protocol):
    """Anything that picks an action for the seat to act."""

    def choose(self, state: SmearState) -> SmearAction:
        """Returns one of ``state.legal_actions()``."""
        ...


class RandomSmearBot:
    """Plays a uniformly random legal action, drawn from its own seeded RNG."""

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: SmearState) -> SmearAction:
        return self.rng.choice(state.legal_actions())


def suit_strength(hand: Sequence[Card], trump: Suit) -> float:
    """Roughly how many of the four Points ``hand`` takes with ``trump`` as trump.

    High needs the ace (the king is often enough); Low the 7 or 8; Jack the
    jack with another trump to guard it; Game comes with length and tens.

    >>> from kiosk.games.cards import parse_cards
    >>> suit_strength(parse_cards("AS KS JS 7S 10D 9C"), Suit.SPADES)
    3.7
    """
    trumps = sorted((c for c in hand if c.suit is trump), key=rank_value, reverse=True)
    ranks = {c.rank for c in trumps}
    score = 0.0
    if Rank.ACE in ranks:
        score += 1.0
    elif Rank.KING in ranks:
        score += 0.5
    if Rank.SEVEN in ranks:
        score += 1.0
    elif Rank.EIGHT in ranks:
        score += 0.5
    if Rank.JACK in ranks and len(trumps) >= 2:
        score += 0.75
    tens = sum(1 for c in hand if c.rank is Rank.TEN)
    score += min(1.0, 0.15 * len(trumps) + 0.25 * tens + 0.1 * sum(1 for c in hand if c.rank is Rank.ACE))
    return score


class HeuristicSmearBot:
    """A simple, sensible player: bids from hand strength and follows suit sensibly."""

    def __init__(self, seed: int | random.Random | None = None, *, boldness: float = 0.0) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.boldness = boldness
        """Added to the estimated Points before bidding (positive bids more)."""

    def choose(self, state: SmearState) -> SmearAction:
        legal = state.legal_actions()
        if state.phase is Phase.BIDDING:
            return self._bid(state, legal)
        if state.phase is Phase.DISCARD:
            return self._discard(state, legal)
        return self._play(state, legal)

    # -- bidding ------------------------------------------------------------------
    def _bid(self, state: SmearState, legal: list[SmearAction]) -> SmearAction:
        seat = state.current_player()
        hand = state.hands[seat]
        best = max(suit_strength(hand, s) for s in Suit) + self.boldness
        bids = [a for a in legal if isinstance(a, Bid)]
        affordable = [a for a in bids if a.bid <= best + 0.25]
        if affordable:
            return max(affordable, key=lambda a: a.bid)
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
        return min(bids, key=lambda a: a.bid)  # the dealer must bid: the cheapest bid

    # -- discarding ---------------------------------------------------------------------
    def _discard(self, state: SmearState, legal: list[SmearAction]) -> SmearAction:
        seat = state.current_player()
        held = state.hands[seat]
        trump = max(Suit, key=lambda s: suit_strength(held, s))

        def keep_value(action: SmearAction) -> float:
            assert isinstance(action, Discard)
            kept = [c for c in held if c not in action.cards]
            # Keep the planned trumps; discarded tens still count for Game.
            value = 10.0 * sum(1 for c in kept if c.suit is trump)
            value += sum(rank_value(c) for c in kept) / 10
            value += sum(card_points(c) for c in action.cards if c.suit is not trump) / 5
            return value

        return max(legal, key=keep_value)

    # -- play --------------------------------------------------------------------------
    def _play(self, state: SmearState, legal: list[SmearAction]) -> SmearAction:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        seat = state.current_player()
        tricks = state.tricks
        assert tricks is not None
        current = tricks.current
        trump = tricks.trump
        if not current.plays:
            return self._lead(state, plays, trump)
        partner_winning = team_of(current.winner) == team_of(seat)
        winning = [a for a in plays if self._wins(current, seat, a.card)]
        if partner_winning and len(current.plays) == 3:
            return max(plays, key=lambda a: (card_points(a.card) if a.card.suit is not trump else -1,
                                             -rank_value(a.card)))
        if winning and not partner_winning:
            return min(winning, key=lambda a: (a.card.suit is trump, rank_value(a.card)))
        if partner_winning:
            # Smear a ten or an honour of a side suit on the partner's trick.
            return max(plays, key=lambda a: (card_points(a.card) if a.card.suit is not trump else -1,
                                             -rank_value(a.card)))
        return min(plays, key=lambda a: (card_points(a.card), a.card.suit is trump, rank_value(a.card)))

    def _lead(self, state: SmearState, plays: list[PlayCard], trump: Suit | None) -> PlayCard:
        hand = [a.card for a in plays]
        if trump is None:
            best = max({c.suit for c in hand if c.suit is not None},
                       key=lambda s: suit_strength(state.hands[state.current_player()], s))
            return max((a for a in plays if a.card.suit is best), key=lambda a: rank_value(a.card))
        trumps = [a for a in plays if a.card.suit is trump]
        if trumps and any(a.card.rank in (Rank.ACE, Rank.KING) for a in trumps):
            return max(trumps, key=lambda a: rank_value(a.card))
        side_aces = [a for a in plays if a.card.rank is Rank.ACE and a.card.suit is not trump]
        if side_aces:
            return side_aces[0]
        return min(plays, key=lambda a: (card_points(a.card), a.card.suit is trump, rank_value(a.card)))

    @staticmethod
    def _wins(current: Trick, seat: int, card: Card) -> bool:
        return current.add(seat, card).winner == seat


def play_bot_game(game: SmearGame, bots: Sequence[SmearBot], *, seed: int | None = None,
                  max_actions: int = 20_000) -> SmearState:
    """Plays a whole game with one bot per seat (deals drawn from ``seed``).

    Stops after ``max_actions`` actions if the game has not ended by then.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(max_actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state
