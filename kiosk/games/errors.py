"""The exceptions and warnings of the rules engines.

All of them are ``ValueError`` subclasses, as python-chess's move errors are,
and carry the offending input and the context (a state's notation) so that a
message can be pasted back into a test.
"""

from __future__ import annotations

__all__ = [
    "GameError",
    "InvalidActionError",
    "IllegalActionError",
    "AmbiguousActionError",
    "GameWarning",
]


class GameError(ValueError):
    """Base class of every rules-engine error."""

    def __init__(self, message: str, *, input: str | None = None, context: str | None = None):
        super().__init__(message)
        self.input = input
        """The text or action that was rejected."""
        self.context = context
        """Where it was rejected: a state's notation, or a log line."""


class InvalidActionError(GameError):
    """The input is not well formed: it names no card, seat or action."""


class IllegalActionError(GameError):
    """The action is well formed but not legal in this state."""


class AmbiguousActionError(GameError):
    """The input matches more than one legal action."""


class GameWarning(UserWarning):
    """A soft problem: something to show, not to stop for."""
