"""The rules engines of the five games and the card model they share.

Pure Python: nothing here imports pygame, gpiozero, serial, OpenCV or
onnxruntime, reads a clock or does I/O.
"""

from kiosk.games.cards import (
    GNOMING_COUNTS,
    Back,
    Card,
    GnomeCard,
    GnomeKind,
    Rank,
    Suit,
    format_cards,
    gnoming_deck,
    multi_deck,
    parse_cards,
    parse_face,
    piquet_deck,
    standard_deck,
)
from kiosk.games.errors import (
    AmbiguousActionError,
    GameError,
    GameWarning,
    IllegalActionError,
    InvalidActionError,
)

__all__ = [
    "GNOMING_COUNTS",
    "AmbiguousActionError",
    "Back",
    "Card",
    "GameError",
    "GameWarning",
    "GnomeCard",
    "GnomeKind",
    "IllegalActionError",
    "InvalidActionError",
    "Rank",
    "Suit",
    "format_cards",
    "gnoming_deck",
    "multi_deck",
    "parse_cards",
    "parse_face",
    "piquet_deck",
    "standard_deck",
]
