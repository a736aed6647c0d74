"""What everyone at a Smear table can see on the referee path (``rules/smear.md`` §4-§9, §12).

The referee's public view: the hand number and its dealer, the auction so far
(each call made aloud), the contract (bidder and bid), the trump suit once the
first card led names it (or the bidder announced it), the trick in play with its
leader, the tricks each seat has won, the bidder's discards once shown, and the
team scores so far. The kiosk draws the play screen from this alone
(``STYLE.md``, "What the kiosk may show"): no hidden hand is in it.

Glossary: **bid** (2 to 4 Points, or pass), **contract** (the highest bid: its
seat leads, and the suit led first is trump), **teams** (seats 1 and 3 against
seats 2 and 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.cards import Card, Suit
from kiosk.games.tricks import Trick

__all__ = ["SmearTableView"]


@dataclass(frozen=True, slots=True)
class SmearTableView:
    """The public view of a refereed Smear table."""

    hand: int
    """The number of the hand dealt last (0 before the first deal)."""
    dealer: int | None
    phase: str
    """``"deal"`` (waiting for a deal), ``"auction"``, ``"play"``, ``"discards"`` (six tricks
    played, the bidder's discards not shown yet), ``"scored"``, ``"abandoned"`` (misdeal or
    all passed) or ``"over"``."""
    calls: tuple[tuple[int, int | None], ...]
    """The auction so far: (seat, bid), None for a pass."""
    to_bid: int | None
    bidder: int | None
    bid: int
    """The highest bid so far (0 before any)."""
    trump: Suit | None
    """The trump suit: the suit of the first card led, else the bidder's announcement."""
    trick_number: int | None
    """1-based number of the trick in play (None before the play)."""
    current_trick: Trick | None
    last_trick: Trick | None
    to_play: int | None
    tricks_won: tuple[int, ...]
    discards: tuple[Card, ...] | None
    """The bidder's discards once turned face up."""
    team_scores: tuple[int, int]
    """Scores so far of the two teams (seats 1 & 3, seats 2 & 4), before score corrections."""
    winner_team: int | None
    game_over: bool
