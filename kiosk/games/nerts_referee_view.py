"""What everyone at a Nerts table can see on the referee path (``rules/nerts.md`` §5, §7, §12).

The referee's public view: the shared foundation piles (each pile's id from the
log, its suit, level and top face, whether a King completed it), each seat's
foundation count F (cards of its deck on the piles), its Nerts-pile count N when
the table knows it, its stuck flag and running total, the hand number, and
whether the hand and the game are over. The kiosk draws the play screen from
this alone (``STYLE.md``, "What the kiosk may show"): nothing here comes from a
hidden card.

Glossary: **foundation** (a shared pile built up by suit from the Ace), **Nerts
pile** (a seat's pile of 13 whose emptying lets it call "Nerts!"), **stuck** (a
seat declared it has no move; all stuck means a reset).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.cards import Card, Suit

__all__ = ["NertsPileView", "NertsSeatTally", "NertsTableView"]


@dataclass(frozen=True, slots=True)
class NertsPileView:
    """One foundation pile as the table sees it."""

    pid: str
    """The pile's id in the table log (``"F3"``)."""
    number: int
    """1-based, in the order the piles were started."""
    suit: Suit | None
    """None while an undeclared joker starts it."""
    level: int
    """1 (Ace) to 13 (King)."""
    top: Card
    """The face on top (a joker shows its declared face)."""
    cards: int
    complete: bool
    """A King has landed: the pile takes no more cards."""


@dataclass(frozen=True, slots=True)
class NertsSeatTally:
    """What the table knows of one seat in the hand in progress."""

    seat: str
    foundation_count: int
    """F: cards of this seat's deck on the foundations in this hand."""
    nerts_count: int | None
    """N: cards left in its Nerts pile (its count, the tracked layout, or the cards seen
    leaving it, §12); None when nothing tells."""
    stuck: bool
    total: int
    """The running total of the hands already closed, score corrections applied."""


@dataclass(frozen=True, slots=True)
class NertsTableView:
    """The public view of a refereed Nerts table."""

    hand: int
    """The number of the hand in play, or of the last hand (0 before the first)."""
    phase: str
    """``"deal"`` (no hand open), ``"play"``, ``"called"``, ``"stalemate"`` or ``"over"``."""
    foundations: tuple[NertsPileView, ...]
    seats: tuple[NertsSeatTally, ...]
    resets: int
    """All-stuck resets in the hand in play."""
    caller: str | None
    """The seat whose "Nerts!" call ended the hand, if one did."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each closed hand's scores, seat by seat, score corrections applied."""
    hand_over: bool
    """No card may be played in this hand any more (called, stalemate, or closed)."""
    game_over: bool
    winners: tuple[str, ...]
    audit: bool = False
    """The hand is over and waits for its end-of-hand audit (§12, ``attribution_source =
    audit_if_available``, a hand followed by the camera): the players spread their cards for it."""

    @property
    def foundation_counts(self) -> tuple[int, ...]:
        return tuple(s.foundation_count for s in self.seats)
