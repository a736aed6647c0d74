"""Cards, decks and their notation, shared by all five games.

Glossary:

- **face**: what is printed on the front of a card (rank and suit, a joker,
  or a Gnoming A Round value). Two cards from different decks can share a face.
- **deck**: which physical deck a card belongs to, told apart by its back. In
  Nerts every seat owns one deck, so 5♥ of deck 1 and 5♥ of deck 2 are two
  distinct cards with equal faces. Single-deck games use deck 0.
- **back**: a face-down card, as a camera sees it (:class:`Back`).

Notation (python-chess style: every value parses and prints, and round-trips):

>>> Card.parse("10H")
Card.parse('10H')
>>> str(Card.parse("th"))
'10H'
>>> Card.parse("QS").display()
'Q♠'
>>> str(Card.parse("5H@2")), Card.parse("5H@2").deck
('5H@2', 2)
>>> Card.parse("JOKER").is_joker
True
>>> str(GnomeCard.parse("G-3")), str(GnomeCard.parse("HAZARD"))
('G-3', 'HAZARD')
>>> len(standard_deck()), len(standard_deck(jokers=2)), len(piquet_deck()), len(gnoming_deck())
(52, 54, 32, 110)
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.games.errors import InvalidActionError

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "Back",
    "GnomeKind",
    "GnomeCard",
    "standard_deck",
    "piquet_deck",
    "multi_deck",
    "gnoming_deck",
    "GNOMING_COUNTS",
    "parse_face",
    "parse_cards",
    "format_cards",
]


class Suit(enum.IntEnum):
    """The four French suits, in bridge order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The ASCII letter: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, for display."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parses a suit letter or symbol (``"H"``, ``"♥"``, ``"h"``).

        Raises :class:`InvalidActionError` for anything else.

        >>> Suit.parse("♠")
        <Suit.SPADES: 3>
        """
        t = text.strip().upper()
        for suit in cls:
            if t in (suit.letter, suit.symbol, suit.name):
                return suit
        # Outline symbols are sometimes typed for the red suits.
        alt = {"♡": cls.HEARTS, "♢": cls.DIAMONDS, "♤": cls.SPADES, "♧": cls.CLUBS}
        if t in alt:
            return alt[t]
        raise InvalidActionError(f"invalid suit: {text!r}", input=text)


class Rank(enum.IntEnum):
    """Ranks with the Ace low (1) and the King 13; games that rank the Ace high
    compare with their own order. ``JOKER`` is the rank of a joker."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    @property
    def symbol(self) -> str:
        """The rank as printed in notation: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parses ``A``, ``2``..``10`` (or ``T``), ``J``, ``Q``, ``K`` (case-insensitive).

        >>> Rank.parse("T")
        <Rank.TEN: 10>
        """
        t = text.strip().upper()
        if t in _RANK_BY_SYMBOL:
            return _RANK_BY_SYMBOL[t]
        raise InvalidActionError(f"invalid rank: {text!r}", input=text)


_RANK_SYMBOLS = {
    Rank.ACE: "A", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5",
    Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
    Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.JOKER: "JOKER",
}
_RANK_BY_SYMBOL = {v: k for k, v in _RANK_SYMBOLS.items() if k is not Rank.JOKER}
_RANK_BY_SYMBOL["T"] = Rank.TEN
_RANK_BY_SYMBOL["1"] = Rank.ACE

_CARD_RE = re.compile(r"^\s*(10|[2-9]|[AJQKT1])\s*([CDHS♣♦♥♠♡♢♤♧])\s*(?:@(\d+))?\s*$", re.I)
_JOKER_RE = re.compile(r"^\s*(?:JOKER|JK|🃏)\s*(?:@(\d+))?\s*$", re.I)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card of a standard deck: a rank and a suit, or a joker, and its deck."""

    rank: Rank
    """The rank; :attr:`Rank.JOKER` for a joker."""
    suit: Suit | None
    """The suit; ``None`` for a joker."""
    deck: int = 0
    """Which physical deck (back) the card belongs to; 0 in single-deck games."""

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise InvalidActionError(
                f"invalid card: rank {self.rank!r} with suit {self.suit!r}", input=str(self.rank)
            )
        if self.deck < 0:
            raise InvalidActionError(f"invalid deck index: {self.deck}", input=str(self.deck))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parses card notation: ``"10H"``, ``"TH"``, ``"QS"``, ``"JOKER"``,
        optionally with a deck as ``"5H@2"``. Unicode suits are accepted.

        Raises :class:`InvalidActionError` naming the input.

        >>> Card.parse("A♣")
        Card.parse('AC')
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"invalid card: {text!r} is not a string", input=repr(text))
        m = _CARD_RE.match(text)
        if m:
            deck = int(m.group(3)) if m.group(3) else 0
            return cls(Rank.parse(m.group(1)), Suit.parse(m.group(2)), deck)
        j = _JOKER_RE.match(text)
        if j:
            return cls(Rank.JOKER, None, int(j.group(1)) if j.group(1) else 0)
        raise InvalidActionError(f"invalid card: {text!r}", input=text)

    @classmethod
    def joker(cls, deck: int = 0) -> Card:
        """Returns a joker of the given deck."""
        return cls(Rank.JOKER, None, deck)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank is Rank.JOKER

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds (False for jokers)."""
        return self.suit is not None and self.suit.is_red

    @property
    def face(self) -> Card:
        """The same face in deck 0: what a camera can tell apart."""
        return self if self.deck == 0 else Card(self.rank, self.suit, 0)

    def in_deck(self, deck: int) -> Card:
        """Returns the same face belonging to another deck."""
        return Card(self.rank, self.suit, deck)

    def face_str(self) -> str:
        """The notation without the deck: ``"5H"`` for 5♥ of any deck."""
        if self.suit is None:
            return "JOKER"
        return self.rank.symbol + self.suit.letter

    def display(self) -> str:
        """A label for the screen, with a Unicode suit: ``"10♥"``."""
        if self.suit is None:
            return "JOKER"
        return self.rank.symbol + self.suit.symbol

    def __str__(self) -> str:
        base = self.face_str()
        return base if self.deck == 0 else f"{base}@{self.deck}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Back:
    """A face-down card, seen from above: only its back (deck) can be told."""

    deck: int | None = None
    """Which deck's back, when it is known."""

    def __str__(self) -> str:
        return "BACK" if self.deck is None else f"BACK@{self.deck}"


class GnomeKind(enum.Enum):
    """The kinds of card in the Gnoming A Round deck."""

    VALUE = "value"
    HAZARD = "hazard"
    MULLIGAN = "mulligan"


GNOMING_COUNTS: Mapping[int | str, int] = {
    8: 13, 7: 13, 6: 14, 5: 14, 4: 14, 3: 14,
    -1: 6, -2: 8, -3: 5, -4: 3,
    "HAZARD": 3, "MULLIGAN": 3,
}
"""Copies of each card in the 110-card Gnoming A Round deck (gnoming.md §2)."""

_GNOME_RE = re.compile(r"^\s*G\s*(-?\d)\s*$", re.I)


@dataclass(frozen=True, slots=True, order=True)
class GnomeCard:
    """A card of the Gnoming A Round deck: a printed value (3..8 or -1..-4),
    a Hazard or a Mulligan.

    >>> GnomeCard.parse("g7").value, GnomeCard.parse("MULLIGAN").kind
    (7, <GnomeKind.MULLIGAN: 'mulligan'>)
    """

    kind: GnomeKind
    value: int | None = None

    def __post_init__(self) -> None:
        if self.kind is GnomeKind.VALUE:
            if self.value not in GNOMING_COUNTS:
                raise InvalidActionError(
                    f"invalid Gnoming value: {self.value!r}", input=str(self.value)
                )
        elif self.value is not None:
            raise InvalidActionError(f"a {self.kind.value} card has no value", input=str(self))

    @classmethod
    def parse(cls, text: str) -> GnomeCard:
        """Parses ``"G3"``..``"G8"``, ``"G-1"``..``"G-4"``, ``"HAZARD"``, ``"MULLIGAN"``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"invalid Gnoming card: {text!r}", input=repr(text))
        t = text.strip().upper()
        if t in ("HAZARD", "GH"):
            return cls(GnomeKind.HAZARD)
        if t in ("MULLIGAN", "GM"):
            return cls(GnomeKind.MULLIGAN)
        m = _GNOME_RE.match(t)
        if m and int(m.group(1)) in GNOMING_COUNTS:
            return cls(GnomeKind.VALUE, int(m.group(1)))
        raise InvalidActionError(f"invalid Gnoming card: {text!r}", input=text)

    @classmethod
    def of(cls, value: int) -> GnomeCard:
        """Returns the value card printed ``value``."""
        return cls(GnomeKind.VALUE, value)

    @property
    def is_hazard(self) -> bool:
        return self.kind is GnomeKind.HAZARD

    @property
    def is_mulligan(self) -> bool:
        return self.kind is GnomeKind.MULLIGAN

    def display(self) -> str:
        """A label for the screen: ``"−3"``, ``"Hazard"``, ``"Mulligan"``."""
        if self.kind is GnomeKind.VALUE:
            assert self.value is not None
            return str(self.value).replace("-", "−")
        return str(self.kind.value).capitalize()

    def __str__(self) -> str:
        if self.kind is GnomeKind.VALUE:
            return f"G{self.value}"
        return str(self.kind.value).upper()

    def __repr__(self) -> str:
        return f"GnomeCard.parse({str(self)!r})"


def standard_deck(*, jokers: int = 0, deck: int = 0) -> list[Card]:
    """Returns a 52-card deck in a fixed order, with ``jokers`` jokers appended."""
    cards = [Card(r, s, deck) for s in Suit for r in Rank if r is not Rank.JOKER]
    cards.extend(Card.joker(deck) for _ in range(jokers))
    return cards


def piquet_deck(*, deck: int = 0) -> list[Card]:
    """Returns the 32-card deck: 7, 8, 9, 10, J, Q, K and A of each suit."""
    return [c for c in standard_deck(deck=deck) if c.rank >= Rank.SEVEN or c.rank is Rank.ACE]


def multi_deck(n: int, *, jokers: int = 0, distinct: bool = True) -> list[Card]:
    """Returns ``n`` standard decks shuffled together.

    With ``distinct`` each copy keeps its deck index (0..n-1), so equal faces
    stay distinct values; otherwise all cards are deck 0 and faces repeat.
    """
    if n < 1:
        raise ValueError(f"need at least one deck, got {n}")
    return [c for d in range(n) for c in standard_deck(jokers=jokers, deck=d if distinct else 0)]


def gnoming_deck(counts: Mapping[int | str, int] | None = None) -> list[GnomeCard]:
    """Returns the Gnoming A Round deck (110 cards by default; gnoming.md §2)."""
    out: list[GnomeCard] = []
    for key, n in (counts or GNOMING_COUNTS).items():
        if key == "HAZARD":
            card = GnomeCard(GnomeKind.HAZARD)
        elif key == "MULLIGAN":
            card = GnomeCard(GnomeKind.MULLIGAN)
        else:
            card = GnomeCard.of(int(key))
        out.extend([card] * n)
    return out


def parse_face(text: str) -> Card | GnomeCard | Back:
    """Parses any card token a camera or a log may carry: a standard card, a
    Gnoming card or ``"BACK"``.

    >>> parse_face("BACK"), parse_face("G5"), parse_face("kd")
    (Back(deck=None), GnomeCard.parse('G5'), Card.parse('KD'))
    """
    t = text.strip().upper() if isinstance(text, str) else text
    if isinstance(t, str) and t.startswith("BACK"):
        rest = t[4:]
        if rest == "":
            return Back()
        if rest.startswith("@") and rest[1:].isdigit():
            return Back(int(rest[1:]))
    try:
        return Card.parse(text)
    except InvalidActionError:
        pass
    try:
        return GnomeCard.parse(text)
    except InvalidActionError:
        raise InvalidActionError(f"invalid card: {text!r}", input=str(text)) from None


def parse_cards(text: str) -> list[Card]:
    """Parses a space- or comma-separated list of cards.

    >>> parse_cards("AS 10H, JOKER")
    [Card.parse('AS'), Card.parse('10H'), Card.parse('JOKER')]
    """
    return [Card.parse(tok) for tok in re.split(r"[\s,]+", text.strip()) if tok]


def format_cards(cards: Iterable[Card | GnomeCard]) -> str:
    """Formats cards as space-separated notation (the inverse of :func:`parse_cards`)."""
    return " ".join(str(c) for c in cards)


def is_conserved(before: Iterable[object], after: Iterable[object]) -> bool:
    """True when two collections hold exactly the same cards (as multisets)."""
    return Counter(before) == Counter(after)
