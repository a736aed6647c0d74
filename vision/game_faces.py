"""Which card faces can lie on the table in each game, so the recognizer never names another.

The kiosk knows the game in play. A Smear table holds 32 cards, sevens up; a Nerts table holds
standard cards (and jokers only under ``jokers = 2``); a Gnoming table holds only that deck's
faces. Telling the recognizer so removes whole classes of misreads: a standard seven read as the
Gnoming 7 (both print a large "7"), a six read on a Smear table. See
:meth:`vision.recognizer.Recognizer.only`.

>>> len(game_faces("smear")), "6H" in game_faces("smear"), "7H" in game_faces("smear")
(32, False, True)
>>> "JOKER" in game_faces("nerts"), "JOKER" in game_faces("nerts", {"jokers": 2})
(False, True)
>>> sorted(game_faces("gnoming"))[:3]
['G-1', 'G-2', 'G-3']
>>> game_faces("poker") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.cards import standard_deck
from kiosk.games.smear_rules import smear_deck
from vision.cardart.tokens import GNOMING_TOKENS

__all__ = ["game_faces"]


def game_faces(game: str, options: Mapping[str, Any] | None = None) -> frozenset[str] | None:
    """The faces (card-model notation) of ``game``'s deck under house ``options``; ``None`` for a
    game this module does not know (the recognizer then names any face it knows)."""
    opts = dict(options or {})
    if game in ("nerts", "nertz"):
        jokers = int(opts.get("jokers", 0) or 0)
        return frozenset(str(c) for c in standard_deck(jokers=2 if jokers > 0 else 0))
    if game in ("kierki", "rummy_3_13"):
        return frozenset(str(c) for c in standard_deck())
    if game == "smear":
        return frozenset(str(c) for c in smear_deck())
    if game == "gnoming":
        deck = opts.get("deck")
        if isinstance(deck, Mapping):
            return _gnoming_faces(deck)
        return frozenset(GNOMING_TOKENS)
    return None


def _gnoming_faces(deck: Mapping[Any, Any]) -> frozenset[str]:
    """The faces a custom Gnoming ``deck`` option holds at least once (keys as the engine reads them)."""
    from kiosk.games.gnoming import GnomingOptions, deck_counts

    counts = deck_counts(GnomingOptions(deck=dict(deck)))
    faces = set()
    for key, n in counts.items():
        if n <= 0:
            continue
        face = key if isinstance(key, str) else f"G{key}"
        if face in GNOMING_TOKENS:
            faces.add(face)
    return frozenset(faces) or frozenset(GNOMING_TOKENS)
