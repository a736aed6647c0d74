"""The Fan Tan layout of Kierki's last deal (kierki.md §8).

Glossary:

- **layout**: four rows, one per suit, shared and face up.
- **row**: an unbroken run of one suit from ``lo`` to ``hi``, started by the
  **start rank** (7 by default) and grown one card at a time down and up.
- **fit**: a card fits when it starts an unstarted row (it has the start
  rank) or extends a started row by one rank at either end.
- **pass**: a turn without a card; allowed only when nothing in the hand fits.
- **out**: a player who has played their last card.

>>> layout = Layout.new()
>>> sorted(str(c) for c in layout.fitting_cards())
['7C', '7D', '7H', '7S']
>>> layout = layout.place(Card.parse("7S")).place(Card.parse("8S")).place(Card.parse("7C"))
>>> str(layout)
'C7-7 D- H- S7-8'
>>> sorted(str(c) for c in layout.fitting_cards())
['6C', '6S', '7D', '7H', '8C', '9S']
>>> Layout.parse(str(layout)) == layout
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.tricks import ACE_HIGH, ACE_LOW

__all__ = ["Layout"]

Row = tuple[int, int] | None
"""A row as ``(lo, hi)`` positions in the rank order, or ``None`` when not started."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The Fan Tan layout: one row per suit, a rank order and a start rank."""

    rows: tuple[Row, Row, Row, Row] = (None, None, None, None)
    """Rows indexed by :class:`Suit` (clubs, diamonds, hearts, spades)."""
    start: Rank | None = Rank.SEVEN
    """The rank that starts a row; ``None`` until the first card sets it
    (option ``fan_tan_start_rank = first_card``)."""
    order: tuple[Rank, ...] = ACE_HIGH
    """Ranks from the bottom of a row to its top."""

    @classmethod
    def new(cls, *, start: Rank | None = Rank.SEVEN, ace_high: bool = True) -> Layout:
        """An empty layout; ``start=None`` lets the first card set the start rank."""
        return cls((None, None, None, None), start, ACE_HIGH if ace_high else ACE_LOW)

    def fits(self, card: Card) -> bool:
        """True if ``card`` may be placed now (kierki.md §8.3)."""
        if card.suit is None:
            return False
        row = self.rows[card.suit]
        if row is None:
            return self.start is None or card.rank is self.start
        pos = self.order.index(card.rank)
        return pos == row[0] - 1 or pos == row[1] + 1

    def fitting_cards(self) -> frozenset[Card]:
        """Every card of the pack that fits now: the set a pass claims not to hold."""
        out: set[Card] = set()
        for suit in Suit:
            row = self.rows[suit]
            if row is None:
                ranks = self.order if self.start is None else (self.start,)
                out.update(Card(r, suit) for r in ranks)
                continue
            lo, hi = row
            if lo > 0:
                out.add(Card(self.order[lo - 1], suit))
            if hi < len(self.order) - 1:
                out.add(Card(self.order[hi + 1], suit))
        return frozenset(out)

    def playable(self, hand: Iterable[Card]) -> list[Card]:
        """The cards of ``hand`` that fit, in hand order."""
        return [c for c in hand if self.fits(c)]

    def place(self, card: Card) -> Layout:
        """Returns the layout with ``card`` placed. Raises InvalidActionError if it does not fit."""
        if not self.fits(card):
            raise InvalidActionError(f"{card} does not fit the layout {self}", input=str(card))
        assert card.suit is not None
        pos = self.order.index(card.rank)
        row = self.rows[card.suit]
        new_row = (pos, pos) if row is None else (min(row[0], pos), max(row[1], pos))
        rows = list(self.rows)
        rows[card.suit] = new_row
        start = card.rank if self.start is None else self.start
        return replace(self, rows=(rows[0], rows[1], rows[2], rows[3]), start=start)

    @property
    def card_count(self) -> int:
        """How many cards are in the layout."""
        return sum(hi - lo + 1 for row in self.rows if row is not None for lo, hi in [row])

    def __str__(self) -> str:
        parts = []
        for suit in Suit:
            row = self.rows[suit]
            if row is None:
                parts.append(f"{suit.letter}-")
            else:
                parts.append(f"{suit.letter}{self.order[row[0]].symbol}-{self.order[row[1]].symbol}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str, *, start: Rank | None = Rank.SEVEN, ace_high: bool = True) -> Layout:
        """Parses ``"C7-7 D- H- S5-9"`` (the inverse of ``str``)."""
        layout = cls.new(start=start, ace_high=ace_high)
        rows: list[Row] = [None, None, None, None]
        for tok in text.split():
            m = re.fullmatch(r"([CDHS])(?:(10|[2-9AJQK])-(10|[2-9AJQK])|-)", tok, re.I)
            if not m:
                raise InvalidActionError(f"invalid layout row {tok!r}: write e.g. 'S5-9' or 'H-'", input=tok)
            suit = Suit.parse(m.group(1))
            if m.group(2):
                lo = layout.order.index(Rank.parse(m.group(2)))
                hi = layout.order.index(Rank.parse(m.group(3)))
                if lo > hi:
                    raise InvalidActionError(f"invalid layout row {tok!r}: low end above high end", input=tok)
                rows[suit] = (lo, hi)
        return replace(layout, rows=(rows[0], rows[1], rows[2], rows[3]))
