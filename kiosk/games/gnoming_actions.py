"""Gnoming A Round actions (``rules/gnoming.md`` §4, §5) and their notation.

A seat's action prints as ``"SEAT:MOVE"`` with the seat's index; grid positions
are ``"rc"`` (row, column; ``"11"`` .. ``"33"``); cards are ``G3``..``G8``,
``G-1``..``G-4``, ``HAZARD`` and ``MULLIGAN``.

- ``deal G3 G8 ... | ... / G5 HAZARD G7``: chance, each seat's nine grid cards
  (row by row), then the cards turned from the draw pile to start the discard
  piles A and B (a Hazard turned there leaves the game).
- ``2:flip 31``: seat 2 turns a face-down card up (its two opening flips, or a
  flip after another seat discarded a Hazard).
- ``2:decline``: seat 2 does not flip after a Hazard.
- ``2:draw deck`` / ``2:draw A`` / ``2:draw B``: DRAW.
- ``2:gets G5``: chance, the card drawn from the draw pile.
- ``2:keep 13``: PLACE, the held card goes to position 13 (a bounce is a keep too).
- ``2:pass``: PLACE, the held card is not kept (or the bouncing stops).
- ``2:discard A``: DISCARD onto pile A or B.

>>> str(parse_action("1:keep 23", 4)), str(parse_action("0:gets MULLIGAN", 4))
('1:keep 23', '0:gets MULLIGAN')
>>> parse_action("3:draw b", 4)
Draw(seat=3, source='B')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.games.cards import GnomeCard, format_cards
from kiosk.games.errors import InvalidActionError
from kiosk.games.gnoming_scoring import parse_pos, pos_name

__all__ = [
    "Deal",
    "Flip",
    "Decline",
    "Draw",
    "DeckCard",
    "Keep",
    "Pass",
    "Discard",
    "GnomingAction",
    "parse_action",
    "parse_gnome_cards",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: every seat's nine grid cards (row by row) and the cards turned to start A and B."""

    grids: tuple[tuple[GnomeCard, ...], ...]
    turned: tuple[GnomeCard, ...]
    """Turned in order; Hazards leave the game, the first other card starts A, the next B."""

    def __str__(self) -> str:
        return "deal " + " | ".join(format_cards(g) for g in self.grids) + " / " + format_cards(self.turned)


@dataclass(frozen=True, slots=True)
class Flip:
    """The seat turns the face-down card at ``pos`` face up."""

    seat: int
    pos: int

    def __str__(self) -> str:
        return f"{self.seat}:flip {pos_name(self.pos)}"


@dataclass(frozen=True, slots=True)
class Decline:
    """The seat does not flip a card after a Hazard was discarded."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:decline"


@dataclass(frozen=True, slots=True)
class Draw:
    """DRAW from ``"deck"`` (the draw pile), ``"A"`` or ``"B"``."""

    seat: int
    source: str

    def __str__(self) -> str:
        return f"{self.seat}:draw {self.source}"


@dataclass(frozen=True, slots=True)
class DeckCard:
    """Chance: the card the seat drew from the draw pile."""

    seat: int
    card: GnomeCard

    def __str__(self) -> str:
        return f"{self.seat}:gets {self.card}"


@dataclass(frozen=True, slots=True)
class Keep:
    """PLACE: the held card goes face up at ``pos``; the card there comes out."""

    seat: int
    pos: int

    def __str__(self) -> str:
        return f"{self.seat}:keep {pos_name(self.pos)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """PLACE: the held card is not kept (or a bounce is declined); it is to be discarded."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}:pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """DISCARD onto pile ``"A"`` or ``"B"``."""

    seat: int
    pile: str

    def __str__(self) -> str:
        return f"{self.seat}:discard {self.pile}"


GnomingAction = Deal | Flip | Decline | Draw | DeckCard | Keep | Pass | Discard

_SEAT_RE = re.compile(r"^\s*(\d+)\s*:\s*(.*?)\s*$")


def parse_gnome_cards(text: str) -> list[GnomeCard]:
    """Parses space-separated Gnoming cards (``"G3 G-2 HAZARD"``)."""
    return [GnomeCard.parse(t) for t in text.split()]


def parse_action(text: str, num_seats: int) -> GnomingAction:
    """Parses action notation for a game of ``num_seats`` seats.

    Raises :class:`InvalidActionError` naming the input and what is expected.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"invalid Gnoming action: {text!r} is not text", input=repr(text))
    t = text.strip()
    if t.lower().startswith("deal "):
        grids_text, sep, turned = t[5:].partition("/")
        parts = grids_text.split("|")
        if not sep or len(parts) != num_seats:
            raise InvalidActionError(
                f"a deal needs {num_seats} grids separated by '|' and ' / ' before the turned cards: "
                f"{text!r}",
                input=text)
        return Deal(tuple(tuple(parse_gnome_cards(p)) for p in parts), tuple(parse_gnome_cards(turned)))
    m = _SEAT_RE.match(t)
    if not m:
        raise InvalidActionError(
            f"invalid Gnoming action: {text!r} (expected e.g. '2:draw A', '2:keep 13', '2:pass')", input=text)
    seat = int(m.group(1))
    if not 0 <= seat < num_seats:
        raise InvalidActionError(f"invalid seat {seat} in {text!r}: seats are 0..{num_seats - 1}", input=text)
    words = m.group(2).split()
    verb = words[0].lower() if words else ""
    try:
        if verb == "flip" and len(words) == 2:
            return Flip(seat, parse_pos(words[1]))
        if verb == "keep" and len(words) == 2:
            return Keep(seat, parse_pos(words[1]))
    except ValueError as exc:
        raise InvalidActionError(f"{exc} in {text!r}", input=text) from None
    if verb == "decline" and len(words) == 1:
        return Decline(seat)
    if verb == "pass" and len(words) == 1:
        return Pass(seat)
    if verb == "draw" and len(words) == 2 and words[1].lower() in ("deck", "a", "b"):
        src = words[1].lower()
        return Draw(seat, "deck" if src == "deck" else src.upper())
    if verb == "discard" and len(words) == 2 and words[1].upper() in ("A", "B"):
        return Discard(seat, words[1].upper())
    if verb == "gets" and len(words) == 2:
        return DeckCard(seat, GnomeCard.parse(words[1]))
    raise InvalidActionError(
        f"invalid Gnoming move {m.group(2)!r} in {text!r} (moves: flip RC, decline, draw deck|A|B, "
        "gets CARD, keep RC, pass, discard A|B)", input=text)
