"""What everyone at a 3-13 Speed table can see on the referee path (``rules/rummy_3_13.md`` §2, §6).

The referee's public view: the hand number and its size (which names the wild
rank), the caller and the call the table is in ("draw" or "discard"), the
caller's cadence (who has not drawn, whose face-down discard is missing, whether
"draw" or "discard" may be called now), the seats whose discard is still waited
for, each seat's face-up discard pile (its top and size), the pool, and who is
out. The kiosk draws the play screen from this alone (``STYLE.md``, "What the
kiosk may show"): no hidden hand is in it.

Glossary: **pool** (the face-down cards spread in the middle), **pile** (each
seat's face-up discard pile; the next seat may draw its top), **out** (a seat
whose "match" stood), **caller** (the person, or the kiosk, who calls "draw" and
"discard" for everyone).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.cards import Card, Rank
from kiosk.games.rummy import Cadence

__all__ = ["RummyTableView"]


@dataclass(frozen=True, slots=True)
class RummyTableView:
    """The public view of a refereed 3-13 Speed table."""

    hand_number: int
    """1-based number of the hand in play or just scored (0 before the first deal)."""
    hands_total: int
    hand_size: int
    """Cards dealt to each seat in this hand (0 before the first deal)."""
    wild_rank: Rank | None
    phase: str
    """``"deal"`` (waiting for a deal), ``"window"`` (claims open, the next call is "draw"),
    ``"draw"`` (after the call "draw"), ``"discard"`` (after "discard"), ``"show"`` (hands
    spread to be scored), ``"scored"`` or ``"over"``."""
    final_round: bool
    """The draw called next, or the one in play, is the final round's."""
    cadence: Cadence
    """The strict engine's cadence: seats yet to draw, seats whose face-down discard is
    missing, and which call may be made now."""
    waiting: tuple[int, ...]
    """Seats the last call still waits for: after "draw" those with no discard laid face
    down, after "discard" those whose discard has not been turned up."""
    next_call: str
    """The caller's next word: ``"discard"`` after a "draw", else ``"draw"``."""
    pile_tops: tuple[Card | None, ...]
    pile_sizes: tuple[int, ...]
    pool: int
    """Face-down cards left in the pool."""
    out: tuple[bool, ...]
    caller: str | None
    """The seat chosen to call (§2), if the log drew for one."""
