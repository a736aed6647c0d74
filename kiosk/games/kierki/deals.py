"""The twelve deals of a Kierki match as classes, with a registry by name
(kierki.md §3, §5, §6, §7, §8).

Each kind of deal is one class; rule switches are class attributes, and the
options that change a deal are passed to its constructor. A match is a list
of deal objects in the fixed order of §3 (:func:`match_deals`).

Glossary:

- **Rozgrywka**: the first half, seven negative deals (penalties).
- **Odgrywka**: the second half: four trump deals and Fan Tan.
- **robber** (rozbójnik): deal 7, every penalty of deals 1 to 6 at once.
- **heart-lead ban**: in deals 2, 5 and 7 a heart may not be led while the
  leader holds a non-heart; there is no "hearts broken" rule by default.
- **fixed total**: the sum of the four deal scores, always the same because
  every card is played (§6.3, §7.2, §8.5); a different sum means a misread.

>>> [d.name for d in match_deals(KierkiOptions())][5:]
['no_seventh_last', 'robber', 'trumps', 'trumps', 'trumps', 'trumps', 'fan_tan']
>>> robber = find_deal("robber")(KierkiOptions(), number=7)
>>> robber.trick_score(Trick.parse("W:QH N:KH E:QS S:QD", ("N", "E", "S", "W")), 13)
-495
>>> [d.fixed_total for d in match_deals(KierkiOptions())]
[-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325, 1300]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import ClassVar

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.tricks import Trick, legal_follows

__all__ = [
    "KierkiDeal",
    "TrickDeal",
    "NegativeDeal",
    "NoTricks",
    "NoHearts",
    "NoQueens",
    "NoKingsJacks",
    "NoKingOfHearts",
    "NoSeventhLast",
    "Robber",
    "TrumpDeal",
    "FanTanDeal",
    "DEAL_TYPES",
    "MATCH_ORDER",
    "find_deal",
    "match_deals",
    "KING_OF_HEARTS",
    "ACE_OF_HEARTS",
]

KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)
ACE_OF_HEARTS = Card(Rank.ACE, Suit.HEARTS)


class KierkiDeal(ABC):
    """One deal of the match: its name, who starts, and how it scores."""

    name: ClassVar[str]
    """Registry key: ``"no_queens"``."""
    title: ClassVar[str]
    """What the score sheet calls it: ``"no queens"``."""
    is_trump_deal: ClassVar[bool] = False
    is_fan_tan: ClassVar[bool] = False

    def __init__(self, options: KierkiOptions, *, number: int) -> None:
        self.options = options
        self.number = number
        """The deal's number in the match, 1-based (12 and up for Fan Tan)."""

    @property
    @abstractmethod
    def fixed_total(self) -> int:
        """The sum every deal of this kind must score (§6.3, §7.2, §8.5)."""

    def first_player(self, dealer: int, n_seats: int = 4) -> int:
        """Who leads trick 1 (or starts Fan Tan): left of the dealer unless a deal says otherwise."""
        return (dealer + 1) % n_seats

    def __repr__(self) -> str:
        return f"{type(self).__name__}(number={self.number})"


class TrickDeal(KierkiDeal):
    """A deal of 13 tricks (deals 1 to 11)."""

    def legal_plays(
        self, hand: Sequence[Card], trick: Trick, *, hearts_played: bool, trump: Suit | None = None
    ) -> list[Card]:
        """The legal cards of ``hand`` for the seat to play to ``trick`` (§5.2)."""
        if not trick.plays:
            return self.legal_leads(hand, hearts_played=hearts_played)
        return legal_follows(hand, trick.led_suit)

    def legal_leads(self, hand: Sequence[Card], *, hearts_played: bool) -> list[Card]:
        """The legal leads; no restriction unless the deal has a lead ban."""
        return list(hand)

    @abstractmethod
    def trick_score(self, trick: Trick, number: int) -> int:
        """The score of a won trick (negative for a penalty), charged to its winner."""

    def penalty_exhausted(self, taken: Iterable[Card]) -> bool:
        """True when option ``stop_when_penalties_exhausted`` ends this deal early:
        every penalty card has been taken. Only deals 2 to 5 can stop early."""
        return False

    def penalty_cards(self, cards: Iterable[Card]) -> list[Card]:
        """The cards among ``cards`` that cost (or earn) something in this deal."""
        return []


class NegativeDeal(TrickDeal):
    """A deal of the first half: every item below that is non-zero is charged."""

    trick_penalty: ClassVar[int] = 0
    """Charged for every trick (deals 1 and 7)."""
    heart_penalty: ClassVar[int] = 0
    queen_penalty: ClassVar[int] = 0
    king_jack_penalty: ClassVar[int] = 0
    king_of_hearts_penalty: ClassVar[int] = 0
    position_penalties: ClassVar[bool] = False
    """Charge the tricks named by ``deal6_penalty_tricks`` (deals 6 and 7)."""
    stops_early: ClassVar[bool] = False
    """May stop once its penalty cards are all taken (deals 2 to 5)."""

    @property
    def lead_ban(self) -> bool:
        """True if this deal bans heart leads (option ``heart_lead_ban_deals``)."""
        return self.number in self.options.heart_lead_ban_deals

    @property
    def king_of_hearts_only_ban(self) -> bool:
        """Deal 5 with ``deal5_lead_ban_scope = king_of_hearts_only``: only KH may not be led."""
        return self.number == 5 and self.options.deal5_lead_ban_scope == "king_of_hearts_only"

    @property
    def forces_king_of_hearts(self) -> bool:
        """Deal 5 with ``king_of_hearts_forced_discard``."""
        return self.number == 5 and self.options.king_of_hearts_forced_discard

    def ban_active(self, hearts_played: bool) -> bool:
        """True while the heart-lead ban applies."""
        return self.lead_ban and not (self.options.hearts_broken_lifts_ban and hearts_played)

    def legal_leads(self, hand: Sequence[Card], *, hearts_played: bool) -> list[Card]:
        if not self.ban_active(hearts_played):
            return list(hand)
        if self.king_of_hearts_only_ban:
            others = [c for c in hand if c != KING_OF_HEARTS]
        else:
            others = [c for c in hand if c.suit is not Suit.HEARTS]
        return others if others else list(hand)

    def legal_plays(
        self, hand: Sequence[Card], trick: Trick, *, hearts_played: bool, trump: Suit | None = None
    ) -> list[Card]:
        legal = super().legal_plays(hand, trick, hearts_played=hearts_played, trump=trump)
        if trick.plays and self.forces_king_of_hearts and KING_OF_HEARTS in legal:
            if self.king_of_hearts_forced(hand, trick):
                return [KING_OF_HEARTS]
        return legal

    def king_of_hearts_forced(self, hand: Sequence[Card], trick: Trick) -> bool:
        """With ``king_of_hearts_forced_discard``: the holder of KH must play it now
        (void in the suit led, or hearts led with AH already in the trick)."""
        led = trick.led_suit
        if led is None or not self.forces_king_of_hearts:
            return False
        void = not any(c.suit is led for c in hand)
        return void or (led is Suit.HEARTS and ACE_OF_HEARTS in trick)

    def card_penalty(self, card: Card) -> int:
        """What one card costs in this deal (positive amount)."""
        cost = 0
        if card.suit is Suit.HEARTS:
            cost += self.heart_penalty
        if card.rank is Rank.QUEEN:
            cost += self.queen_penalty
        if card.rank in (Rank.KING, Rank.JACK):
            cost += self.king_jack_penalty
        if card == KING_OF_HEARTS:
            cost += self.king_of_hearts_penalty
        return cost

    def trick_score(self, trick: Trick, number: int) -> int:
        cost = self.trick_penalty + sum(self.card_penalty(c) for c in trick.cards)
        if self.position_penalties:
            cost += self.options.deal6_penalties.get(number, 0)
        return -cost

    @property
    def fixed_total(self) -> int:
        cards = 13 * self.heart_penalty + 4 * self.queen_penalty + 8 * self.king_jack_penalty
        cards += self.king_of_hearts_penalty
        positions = sum(self.options.deal6_penalties.values()) if self.position_penalties else 0
        return -(13 * self.trick_penalty + cards + positions)

    def penalty_cards(self, cards: Iterable[Card]) -> list[Card]:
        return [c for c in cards if self.card_penalty(c)]

    def penalty_exhausted(self, taken: Iterable[Card]) -> bool:
        if not (self.stops_early and self.options.stop_when_penalties_exhausted):
            return False
        return sum(self.card_penalty(c) for c in taken) == -self.fixed_total


class NoTricks(NegativeDeal):
    """Deal 1, bez lew: -20 for each trick taken."""

    name = "no_tricks"
    title = "no tricks"
    trick_penalty = 20


class NoHearts(NegativeDeal):
    """Deal 2, bez kierów: -20 for each heart taken; heart-lead ban."""

    name = "no_hearts"
    title = "no hearts"
    heart_penalty = 20
    stops_early = True


class NoQueens(NegativeDeal):
    """Deal 3, bez dam: -60 for each queen taken."""

    name = "no_queens"
    title = "no queens"
    queen_penalty = 60
    stops_early = True


class NoKingsJacks(NegativeDeal):
    """Deal 4, bez panów: -30 for each king or jack taken."""

    name = "no_kings_jacks"
    title = "no kings or jacks"
    king_jack_penalty = 30
    stops_early = True


class NoKingOfHearts(NegativeDeal):
    """Deal 5, bez króla kier: -150 for taking KH; heart-lead ban."""

    name = "no_king_of_hearts"
    title = "no king of hearts"
    king_of_hearts_penalty = 150
    stops_early = True


class NoSeventhLast(NegativeDeal):
    """Deal 6: -75 for the seventh and for the last trick (option ``deal6_penalty_tricks``)."""

    name = "no_seventh_last"
    title = "no 7th / last trick"
    position_penalties = True


class Robber(NoTricks, NoHearts, NoQueens, NoKingsJacks, NoKingOfHearts, NoSeventhLast):
    """Deal 7, rozbójnik: all the penalties of deals 1 to 6 at once; heart-lead ban."""

    name = "robber"
    title = "robber"
    trick_penalty = 20
    heart_penalty = 20
    queen_penalty = 60
    king_jack_penalty = 30
    king_of_hearts_penalty = 150
    position_penalties = True
    stops_early = False


class TrumpDeal(TrickDeal):
    """Deals 8 to 11: the dealer names trumps after five cards; +25 a trick (§7)."""

    name = "trumps"
    title = "trumps"
    is_trump_deal = True
    trick_bonus: ClassVar[int] = 25

    @property
    def chooser_is_dealer(self) -> bool:
        """True with the default ``trump_chooser`` (the dealer, after the first cards)."""
        return self.options.trump_chooser == "dealer_after_five"

    def chooser(self, dealer: int, n_seats: int = 4) -> int:
        """The seat that names trumps."""
        return dealer if self.chooser_is_dealer else (dealer + 1) % n_seats

    def first_player(self, dealer: int, n_seats: int = 4) -> int:
        # The seat that named trumps leads trick 1 (§7.1, option trump_chooser).
        return self.chooser(dealer, n_seats)

    @property
    def cards_before_trump(self) -> int:
        """Cards each seat holds when trumps are named."""
        return self.options.trump_choice_cards if self.chooser_is_dealer else 13

    def legal_plays(
        self, hand: Sequence[Card], trick: Trick, *, hearts_played: bool, trump: Suit | None = None
    ) -> list[Card]:
        legal = super().legal_plays(hand, trick, hearts_played=hearts_played, trump=trump)
        led = trick.led_suit
        if led is not None and self.options.must_trump_when_void and trump is not None and led is not trump:
            if not any(c.suit is led for c in hand):
                trumps = [c for c in hand if c.suit is trump]
                if trumps:
                    return trumps
        return legal

    def trick_score(self, trick: Trick, number: int) -> int:
        return self.trick_bonus

    @property
    def fixed_total(self) -> int:
        return 13 * self.trick_bonus

    def penalty_cards(self, cards: Iterable[Card]) -> list[Card]:
        return []


class FanTanDeal(KierkiDeal):
    """Deal 12, loteryjka: Fan Tan; +800 to the first out and +500 to the second (§8)."""

    name = "fan_tan"
    title = "Fan Tan"
    is_fan_tan = True

    @property
    def prizes(self) -> tuple[int, int]:
        """The prizes for first and second out in this round."""
        return self.options.fan_tan_prize_pair

    @property
    def fixed_total(self) -> int:
        return sum(self.prizes)


DEAL_TYPES: dict[str, type[KierkiDeal]] = {
    cls.name: cls
    for cls in (NoTricks, NoHearts, NoQueens, NoKingsJacks, NoKingOfHearts, NoSeventhLast, Robber,
                TrumpDeal, FanTanDeal)
}
"""Every kind of deal by name."""

MATCH_ORDER: tuple[str, ...] = (
    "no_tricks", "no_hearts", "no_queens", "no_kings_jacks", "no_king_of_hearts", "no_seventh_last",
    "robber", "trumps", "trumps", "trumps", "trumps", "fan_tan",
)
"""The twelve deals in the fixed order of §3."""


def find_deal(name: str) -> type[KierkiDeal]:
    """Returns the deal class registered under ``name``; InvalidActionError lists the names."""
    try:
        return DEAL_TYPES[name]
    except KeyError:
        raise InvalidActionError(
            f"unknown Kierki deal {name!r} (deals: {', '.join(DEAL_TYPES)})", input=name
        ) from None


def match_deals(options: KierkiOptions) -> list[KierkiDeal]:
    """The deals of a match in order: 12, or 15 when Fan Tan is played four times."""
    names = list(MATCH_ORDER[:-1]) + ["fan_tan"] * options.fan_tan_rounds
    return [find_deal(n)(options, number=i) for i, n in enumerate(names, start=1)]
