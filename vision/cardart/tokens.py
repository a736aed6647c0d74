"""The card tokens the card art can draw, and how each one's corner index reads.

Tokens are card-model notation (``kiosk/games/cards.py``): ``"10H"``, ``"QS"``,
``"JOKER"`` for the standard deck, and ``"G3"``..``"G8"``, ``"G-1"``..``"G-4"``,
``"HAZARD"``, ``"MULLIGAN"`` for the Gnoming A Round deck (gnoming.md §2).

>>> len(STANDARD_TOKENS), len(GNOMING_TOKENS), len(ALL_TOKENS)
(53, 12, 65)
>>> index_text("10H"), index_text("G-3"), index_text("HAZARD")
(('10', 'H'), ('-3', ''), ('!', ''))
"""

from __future__ import annotations

__all__ = ["RANKS", "SUITS", "STANDARD_TOKENS", "GNOMING_TOKENS", "ALL_TOKENS", "index_text", "is_gnoming"]

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank symbols in card-model notation, Ace low."""
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Suit letters in bridge order."""

STANDARD_TOKENS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + ("JOKER",)
"""The 52 faces of a standard deck, suit by suit, then the joker."""
GNOMING_TOKENS: tuple[str, ...] = (
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "G-1",
    "G-2",
    "G-3",
    "G-4",
    "HAZARD",
    "MULLIGAN",
)
"""The distinct faces of the Gnoming A Round deck."""
ALL_TOKENS: tuple[str, ...] = STANDARD_TOKENS + GNOMING_TOKENS
"""Every face the recognizer knows, in label order."""


def is_gnoming(token: str) -> bool:
    """True for a Gnoming A Round token."""
    return token in GNOMING_TOKENS


def index_text(token: str) -> tuple[str, str]:
    """Returns what a corner index shows: the rank text and the suit letter
    (empty for jokers and Gnoming cards, whose index is only a printed value or sign).

    Raises :class:`ValueError` for a token that is not in :data:`ALL_TOKENS`.
    """
    if token not in ALL_TOKENS:
        raise ValueError(f"unknown card token {token!r}; expected one of {', '.join(ALL_TOKENS)}")
    if token == "JOKER":
        return ("JOKER", "")
    if token == "HAZARD":
        return ("!", "")
    if token == "MULLIGAN":
        return ("M", "")
    if is_gnoming(token):
        return (token[1:], "")
    return (token[:-1], token[-1])
