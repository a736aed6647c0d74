"""Kierki's actions and their notation.

Seats are indices (0..3, clockwise); the notation writes them as numbers so
that ``parse_action(str(action)) == action`` in any state, and also accepts
seat names when parsing.

========================  =====================================================
``dealer 2``              chance: seat 2 deals the first deal
``deal 0:2C,5H,... 1:...``  chance: the cards each seat receives in this step
``1:trump H``             seat 1 names hearts as trumps
``1:QS``                  seat 1 plays QS (to a trick, or to the Fan Tan layout)
``1:pass``                seat 1 passes in Fan Tan
========================  =====================================================

>>> a = parse_kierki_action("3:10H")
>>> a, str(a)
(PlayCard(seat=3, card=Card.parse('10H')), '3:10H')
>>> str(parse_kierki_action("deal 0:2C,3C 1:4C,5C 2:- 3:6C"))
'deal 0:2C,3C 1:4C,5C 2:- 3:6C'
>>> parse_kierki_action("W:trump c", ("N", "E", "S", "W"))
NameTrump(seat=3, suit=<Suit.CLUBS: 0>)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.games.cards import Card, Suit
from kiosk.games.errors import InvalidActionError

__all__ = ["ChooseDealer", "Deal", "NameTrump", "PlayCard", "Pass", "KierkiAction", "parse_kierki_action"]


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """Chance: who deals the first deal (drawn, or told to the kiosk)."""

    seat: int

    def __str__(self) -> str:
        return f"dealer {self.seat}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the cards each seat receives in one dealing step."""

    hands: tuple[tuple[Card, ...], ...]
    """One tuple of cards per seat, in seat order."""

    def __str__(self) -> str:
        return "deal " + " ".join(
            f"{i}:{','.join(str(c) for c in hand) or '-'}" for i, hand in enumerate(self.hands)
        )


@dataclass(frozen=True, slots=True)
class NameTrump:
    """A seat names the trump suit of a trump deal."""

    seat: int
    suit: Suit

    def __str__(self) -> str:
        return f"{self.seat}:trump {self.suit.letter}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A seat plays a card: to the trick, or to the Fan Tan layout."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat}:{self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat passes in Fan Tan (allowed only when no card fits)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:pass"


KierkiAction = ChooseDealer | Deal | NameTrump | PlayCard | Pass
"""Any Kierki action."""


def _seat(text: str, names: Sequence[str] | None, n_seats: int) -> int:
    t = text.strip()
    if names:
        for i, name in enumerate(names):
            if t == name or t.upper() == name.upper():
                return i
    if re.fullmatch(r"\d+", t) and int(t) < n_seats:
        return int(t)
    known = ", ".join(names) if names else f"0 to {n_seats - 1}"
    raise InvalidActionError(f"unknown seat {text!r} (seats: {known})", input=text)


def parse_kierki_action(
    text: str, names: Sequence[str] | None = None, *, current: int | None = None, n_seats: int = 4
) -> KierkiAction:
    """Parses action notation. A play, pass or trump without a seat
    (``"QS"``, ``"pass"``, ``"trump H"``) belongs to ``current``.

    Raises InvalidActionError naming the input.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"invalid Kierki action: {text!r}", input=repr(text))
    t = text.strip()
    low = t.lower()
    if low.startswith("dealer "):
        return ChooseDealer(_seat(t[7:], names, n_seats))
    if low.startswith("deal ") or low == "deal":
        hands: list[tuple[Card, ...]] = [()] * n_seats
        seen: set[int] = set()
        for tok in t[5:].split():
            seat_text, sep, cards_text = tok.partition(":")
            if not sep:
                raise InvalidActionError(
                    f"invalid deal entry {tok!r}: write SEAT:CARD,CARD,... (or SEAT:-)", input=tok
                )
            seat = _seat(seat_text, names, n_seats)
            if seat in seen:
                raise InvalidActionError(f"seat {seat_text!r} appears twice in {t!r}", input=t)
            seen.add(seat)
            hands[seat] = () if cards_text == "-" else tuple(
                Card.parse(c) for c in cards_text.split(",") if c
            )
        return Deal(tuple(hands))
    seat_text, sep, rest = t.partition(":")
    if sep:
        seat = _seat(seat_text, names, n_seats)
    else:
        if current is None or current < 0:
            raise InvalidActionError(
                f"invalid Kierki action {text!r}: name the seat, e.g. '1:QS', '1:pass', '1:trump H'",
                input=text,
            )
        seat, rest = current, t
    body = rest.strip()
    if body.lower() == "pass":
        return Pass(seat)
    if body.lower().startswith("trump"):
        return NameTrump(seat, Suit.parse(body[5:]))
    try:
        return PlayCard(seat, Card.parse(body))
    except InvalidActionError:
        raise InvalidActionError(
            f"invalid Kierki action {text!r}: expected a card ('QS'), 'pass' or 'trump H'", input=text
        ) from None
