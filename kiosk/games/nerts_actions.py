"""Nerts actions (moves M1-M11 of ``rules/nerts.md`` §6) and their notation.

Every action names its seat (the index in the game's seat list) and prints as
``"SEAT:MOVE"``; :func:`parse_action` reads the same text back. Cards are written
by face only: the deck is the seat's own (``Card.deck`` = seat index), because a
seat only ever moves its own cards.

Sources: ``N`` the Nerts top, ``W`` the waste top, ``1``..``k`` the exposed card
of a work pile, ``3.2`` the block of work pile 3 starting at its 3rd card
(0-based index 2). Destinations: ``F4`` foundation pile 4, ``F+`` a new pile,
``2`` onto work pile 2, ``u2`` under the base of work pile 2.

>>> str(Play(1, Card.parse("5H@1"), "W", 3))
'1:5H W>F3'
>>> parse_action("0:JOKER N>F+=AH", 2)
Play(seat=0, card=Card.parse('JOKER'), source='N', pile=None, declared=Card.parse('AH'))
>>> str(parse_action("2:6S 3.1>1", 4)), str(parse_action("3:turn", 4))
('2:6S 3.1>1', '3:turn')

M8 (turning up the next Nerts card) is automatic: the Nerts top is always face up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.games.cards import Card, Rank, Suit, standard_deck
from kiosk.games.errors import InvalidActionError

__all__ = [
    "Deal", "Turn", "Recycle", "Play", "Build", "MoveBlock", "SlideUnder", "Stuck", "Rotate", "Call",
    "NertsAction", "parse_action", "parse_card_for", "PROGRESS_ACTIONS",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance action of a hand: each seat's shuffled deck, first card dealt first.

    The first ``nerts_pile_size`` cards make the Nerts pile (the last of them on
    top, face up), the next ``work_piles`` start the work piles, and the rest is
    the stock, the first remaining card on top.
    """

    orders: tuple[tuple[Card, ...], ...]

    def __str__(self) -> str:
        return "deal " + " | ".join(" ".join(c.face_str() for c in order) for order in self.orders)


@dataclass(frozen=True, slots=True)
class Turn:
    """M1: turns the top cards of the stock onto the waste."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:turn"


@dataclass(frozen=True, slots=True)
class Recycle:
    """M2: turns the waste over to become the stock (the stock is empty)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:recycle"


@dataclass(frozen=True, slots=True)
class Play:
    """M3/M4: an available card onto a foundation (``pile`` 1-based, ``None`` = new pile).

    A joker carries its ``declared`` identity (§9); other cards carry ``None``.
    """

    seat: int
    card: Card
    source: str
    """``"N"``, ``"W"`` or a work pile number ``"1"``.."k"."""
    pile: int | None
    declared: Card | None = None

    def __str__(self) -> str:
        dest = "F+" if self.pile is None else f"F{self.pile}"
        decl = f"={self.declared.face_str()}" if self.declared is not None else ""
        return f"{self.seat}:{self.card.face_str()} {self.source}>{dest}{decl}"


@dataclass(frozen=True, slots=True)
class Build:
    """M5: the Nerts top or the waste top onto work pile ``work`` (1-based)."""

    seat: int
    card: Card
    source: str
    work: int

    def __str__(self) -> str:
        return f"{self.seat}:{self.card.face_str()} {self.source}>{self.work}"


@dataclass(frozen=True, slots=True)
class MoveBlock:
    """M6: the block of work pile ``from_work`` starting at ``index`` onto work pile ``to_work``."""

    seat: int
    card: Card
    """The block's bottom card (its highest rank)."""
    from_work: int
    index: int
    to_work: int

    def __str__(self) -> str:
        return f"{self.seat}:{self.card.face_str()} {self.from_work}.{self.index}>{self.to_work}"


@dataclass(frozen=True, slots=True)
class SlideUnder:
    """M7: the Nerts top or the waste top under the base of work pile ``work``."""

    seat: int
    card: Card
    source: str
    work: int

    def __str__(self) -> str:
        return f"{self.seat}:{self.card.face_str()} {self.source}>u{self.work}"


@dataclass(frozen=True, slots=True)
class Stuck:
    """M9: the seat declares itself stuck."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:stuck"


@dataclass(frozen=True, slots=True)
class Rotate:
    """M10: a stuck seat moves its top stock card to the bottom."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:rotate"


@dataclass(frozen=True, slots=True)
class Call:
    """M11: "Nerts!" (the seat's Nerts pile is empty)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:nerts"


NertsAction = Deal | Turn | Recycle | Play | Build | MoveBlock | SlideUnder | Stuck | Rotate | Call

PROGRESS_ACTIONS = (Play, Build, SlideUnder)
"""Progress moves for stalemates (§6): onto a foundation, or out of the Nerts pile or waste."""

_KEYWORDS: dict[str, type[Turn | Recycle | Stuck | Rotate | Call]] = {
    "turn": Turn, "recycle": Recycle, "stuck": Stuck, "rotate": Rotate, "nerts": Call, "call": Call,
}
_MOVE_RE = re.compile(
    r"^(?P<card>\S+)\s+(?P<src>N|W|\d+(?:\.\d+)?)\s*>\s*(?P<dst>F\+|F\d+|u\d+|\d+)(?:=(?P<decl>\S+))?$", re.I)


def parse_card_for(text: str, seat: int) -> Card:
    """Parses a card face as the seat's own card; a deck suffix must be the seat's.

    >>> parse_card_for("5H", 2)
    Card.parse('5H@2')
    """
    card = Card.parse(text)
    if "@" in text and card.deck != seat:
        raise InvalidActionError(
            f"card {text!r} belongs to deck {card.deck}, but seat {seat} can move only its own cards",
            input=text)
    return card.in_deck(seat)


def _declared(text: str) -> Card:
    card = Card.parse(text)
    if card.is_joker or card.deck != 0:
        raise InvalidActionError(f"a joker must be declared as a plain card such as 7C, got {text!r}",
                                 input=text)
    return card


def parse_action(text: str, num_seats: int) -> NertsAction:
    """Parses action notation (see the module docstring).

    Raises InvalidActionError naming the problem.

    >>> parse_action("5:turn", 4)
    Traceback (most recent call last):
    ...
    kiosk.games.errors.InvalidActionError: no seat 5 in '5:turn' (seats are 0..3)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"invalid Nerts action: {text!r}", input=repr(text))
    t = text.strip()
    if t.lower().startswith("deal "):
        return _parse_deal(t[5:], num_seats)
    seat_text, sep, rest = t.partition(":")
    if not sep or not seat_text.strip().isdigit():
        raise InvalidActionError(
            f"invalid Nerts action {text!r}: expected 'SEAT:MOVE', e.g. '0:turn' or '1:5H W>F3'", input=text)
    seat = int(seat_text)
    if not 0 <= seat < num_seats:
        raise InvalidActionError(f"no seat {seat} in {text!r} (seats are 0..{num_seats - 1})", input=text)
    rest = rest.strip()
    kw = _KEYWORDS.get(rest.lower())
    if kw is not None:
        return kw(seat)
    m = _MOVE_RE.match(rest)
    if not m:
        raise InvalidActionError(
            f"invalid Nerts move {text!r}: expected a keyword (turn, recycle, stuck, rotate, nerts) "
            f"or 'CARD SOURCE>DEST' such as '5H W>F3'", input=text)
    card = parse_card_for(m["card"], seat)
    src, dst, decl = m["src"].upper(), m["dst"].upper(), m["decl"]
    if decl is not None and not dst.startswith("F"):
        raise InvalidActionError(f"only a play to a foundation carries a joker declaration: {text!r}",
                                 input=text)
    if "." in src:
        pile_text, _, index_text = src.partition(".")
        if dst.startswith("F") or dst.startswith("U"):
            raise InvalidActionError(f"a block moves only onto a work pile: {text!r}", input=text)
        return MoveBlock(seat, card, _pile_no(pile_text, text), int(index_text), _pile_no(dst, text))
    if dst.startswith("F"):
        declared = _declared(decl) if decl is not None else None
        if declared is not None and not card.is_joker:
            raise InvalidActionError(f"only a joker is declared: {text!r}", input=text)
        pile = None if dst == "F+" else _pile_no(dst[1:], text)
        return Play(seat, card, src if src in ("N", "W") else str(_pile_no(src, text)), pile, declared)
    if src not in ("N", "W"):
        raise InvalidActionError(
            f"a single card moves onto a work pile only from N or W; a work card moves as a block "
            f"'PILE.INDEX>DEST': {text!r}", input=text)
    if dst.startswith("U"):
        return SlideUnder(seat, card, src, _pile_no(dst[1:], text))
    return Build(seat, card, src, _pile_no(dst, text))


def _pile_no(text: str, whole: str) -> int:
    n = int(text)
    if n < 1:
        raise InvalidActionError(f"piles are numbered from 1: {whole!r}", input=whole)
    return n


def _parse_deal(text: str, num_seats: int) -> Deal:
    groups = [g.split() for g in text.split("|")]
    if len(groups) != num_seats:
        raise InvalidActionError(
            f"a deal lists one deck per seat separated by '|': expected {num_seats}, got {len(groups)}",
            input=text[:40])
    orders = []
    for seat, group in enumerate(groups):
        orders.append(tuple(parse_card_for(tok, seat) for tok in group))
    return Deal(tuple(orders))


def seat_deck(seat: int, jokers: int) -> list[Card]:
    """The full deck of a seat, in a fixed order.

    >>> len(seat_deck(1, 2)), seat_deck(1, 0)[0]
    (54, Card.parse('AC@1'))
    """
    return standard_deck(jokers=jokers, deck=seat)


def joker_faces() -> list[Card]:
    """The Aces a joker may be declared as when it starts a foundation."""
    return [Card(Rank.ACE, s) for s in Suit]
