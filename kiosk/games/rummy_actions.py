"""3-13 Speed actions (``rules/rummy_3_13.md`` §5, §6) and their notation.

A seat's action prints as ``"SEAT:MOVE"`` with the seat's index in the game's
seat list; the caller's announcements print as ``"call draw"`` and
``"call discard"``; the two chance actions are the deal and the card a seat
gets from the face-down pool. :func:`parse_action` reads every one back.

- ``deal H0 | H1 | ... / P0 P1 ...``: chance, each seat's hidden hand, then the
  face-up card that starts each seat's pile (``-`` when piles start empty).
- ``2:draw pool`` / ``2:draw pile``: a seat takes a card from the pool or the top
  of its right-hand neighbour's pile (DRAW).
- ``2:gets 8H@1``: chance, the pool card that seat 2 took.
- ``2:hold KS@3``: seat 2 lays that card face down as its discard (SELECT).
- ``2:match``: seat 2 calls "match" and lays its hand out (setup or MATCH_WINDOW).
- ``call draw`` / ``call discard``: the caller's announcements (the kiosk itself
  under ``caller = kiosk``).

>>> str(parse_action("1:hold 10H@2", 4))
'1:hold 10H@2'
>>> parse_action("call discard", 4)
Call(word='discard')
>>> str(parse_action("deal 7S 7D 3C | 9H JH 2C / 2S 10C", 2))
'deal 7S 7D 3C | 9H JH 2C / 2S 10C'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.games.cards import Card, format_cards, parse_cards
from kiosk.games.errors import InvalidActionError

__all__ = [
    "Deal",
    "DrawPool",
    "DrawPile",
    "PoolCard",
    "Hold",
    "Match",
    "Call",
    "RummyAction",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: every seat's ``n`` hidden cards and the card that starts its pile."""

    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[Card, ...]
    """One face-up card per seat, or empty under ``start_pile_each_hand = false``."""

    def __str__(self) -> str:
        piles = format_cards(self.piles) if self.piles else "-"
        return "deal " + " | ".join(format_cards(h) for h in self.hands) + " / " + piles


@dataclass(frozen=True, slots=True)
class DrawPool:
    """DRAW (a): the seat takes a face-down card from the pool (a chance step says which)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:draw pool"


@dataclass(frozen=True, slots=True)
class DrawPile:
    """DRAW (b): the seat takes the top card of its right-hand neighbour's pile."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:draw pile"


@dataclass(frozen=True, slots=True)
class PoolCard:
    """Chance: the card a seat got from the pool."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat}:gets {self.card}"


@dataclass(frozen=True, slots=True)
class Hold:
    """SELECT: the seat lays ``card`` face down in front of it, to discard at the call."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat}:hold {self.card}"


@dataclass(frozen=True, slots=True)
class Match:
    """The seat calls "match" and lays its hand out to be checked."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:match"


@dataclass(frozen=True, slots=True)
class Call:
    """The caller announces ``"draw"`` or ``"discard"``."""

    word: str

    def __str__(self) -> str:
        return f"call {self.word}"


RummyAction = Deal | DrawPool | DrawPile | PoolCard | Hold | Match | Call

_SEAT_RE = re.compile(r"^\s*(\d+)\s*:\s*(.*?)\s*$")


def parse_action(text: str, num_seats: int) -> RummyAction:
    """Parses action notation for a game of ``num_seats`` seats.

    Raises :class:`InvalidActionError` naming the input and what is expected.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"invalid 3-13 action: {text!r} is not text", input=repr(text))
    t = text.strip()
    low = t.lower()
    if low in ("call draw", "call discard"):
        return Call(low.split()[1])
    if low.startswith("deal "):
        return _parse_deal(t[5:], num_seats, text)
    m = _SEAT_RE.match(t)
    if not m:
        raise InvalidActionError(
            f"invalid 3-13 action: {text!r} (expected e.g. '2:draw pool', '2:hold KS', 'call draw')",
            input=text,
        )
    seat = int(m.group(1))
    if not 0 <= seat < num_seats:
        raise InvalidActionError(f"invalid seat {seat} in {text!r}: seats are 0..{num_seats - 1}", input=text)
    move = m.group(2)
    words = move.split()
    verb = words[0].lower() if words else ""
    if verb == "draw" and len(words) == 2 and words[1].lower() in ("pool", "pile"):
        return DrawPool(seat) if words[1].lower() == "pool" else DrawPile(seat)
    if verb == "match" and len(words) == 1:
        return Match(seat)
    if verb in ("hold", "gets") and len(words) == 2:
        card = Card.parse(words[1])
        if card.is_joker:
            raise InvalidActionError(f"3-13 is played without jokers: {text!r}", input=text)
        return Hold(seat, card) if verb == "hold" else PoolCard(seat, card)
    raise InvalidActionError(
        f"invalid 3-13 move {move!r} in {text!r} (moves: draw pool, draw pile, hold CARD, match, gets CARD)",
        input=text,
    )


def _parse_deal(body: str, num_seats: int, text: str) -> Deal:
    hands_text, sep, piles_text = body.partition("/")
    if not sep:
        raise InvalidActionError(f"a deal needs ' / ' before the pile cards: {text!r}", input=text)
    parts = hands_text.split("|")
    if len(parts) != num_seats:
        raise InvalidActionError(f"a deal needs {num_seats} hands, got {len(parts)}: {text!r}", input=text)
    hands = tuple(tuple(parse_cards(p)) for p in parts)
    piles = () if piles_text.strip() == "-" else tuple(parse_cards(piles_text))
    return Deal(hands, piles)
