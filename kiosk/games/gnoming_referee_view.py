"""What everyone at a Gnoming A Round table can see on the referee path (``rules/gnoming.md`` §4, §5, §9).

The referee's public view: the round and its stage, whose turn it is, every
seat's 3×3 grid as the camera has seen it (face-up cards; None where a card is
still face down), the tops of the two discard piles A and B, the cards left in
the draw pile, the card in hand when the table saw where it came from, who went
out first and how many last turns are left, and the seats that may still turn a
card up after a Hazard. The kiosk draws the play screen from this alone
(``STYLE.md``, "What the kiosk may show"): a face-down card is never in it.

Glossary: **grid** (a seat's nine cards, three rows of three), **pile A / B**
(the two face-up discard piles), **Hazard** (a card that lets the other seats
turn a card up), **finisher** (the seat that turned its last card up first).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.cards import GnomeCard
from kiosk.games.gnoming import GridView

__all__ = ["GnomingTableView"]


@dataclass(frozen=True, slots=True)
class GnomingTableView:
    """The public view of a refereed Gnoming table."""

    round_number: int
    """1-based number of the round in play or just scored (0 before the first)."""
    rounds_total: int
    stage: str
    """``"deal"`` (waiting for a round), ``"flip"`` (opening flips), ``"draw"``, ``"place"``
    (a card is held), ``"reveal"`` (the round is over: grids are turned up), ``"scored"`` or
    ``"over"``."""
    to_play: int | None
    grids: tuple[GridView, ...]
    """Each seat's grid, row by row, as the strict engine's :class:`GridView` (None: face down;
    every card once the seat revealed its grid)."""
    pile_a: GnomeCard | None
    pile_b: GnomeCard | None
    draw_pile: int
    """Cards left in the draw pile (counted from the deck less every card that left it)."""
    held: GnomeCard | None
    """The card in the player's hand when the table saw it (taken from A or B, or a bounce)."""
    finisher: int | None
    final_turns_left: int
    hazard_flippers: tuple[int, ...]
    """Seats that may still turn a card up after a Hazard."""
    round_scores: tuple[tuple[int, ...], ...]
    """Each scored round's scores, seat by seat (before score corrections)."""
