"""Nerts scoring and the end of the game (``rules/nerts.md`` §8, §8.1).

``hand_score = F - 2 N``: F is the number of the seat's cards on the
foundations (open and completed piles, both cards of a tie), N the cards left
in its Nerts pile. The game ends after a hand in which some total reaches the
target; the highest total wins, and a tie for it plays on (``tie_break =
play_on``) or shares the win (``shared``).

>>> hand_score(8, 0), hand_score(7, 5)
(8, -3)
>>> game_end([103, 103, 99], False, 100, "play_on")
(False, [], True)
>>> game_end([109, 112, 113], True, 100, "play_on")
(True, [2], True)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["hand_score", "game_end"]


def hand_score(foundation: int, nerts_left: int) -> int:
    """A seat's score for one hand: +1 a foundation card, -2 a card left in its Nerts pile."""
    return foundation - 2 * nerts_left


def game_end(
    totals: Sequence[int], reached: bool, target: int, tie_break: str
) -> tuple[bool, list[int], bool]:
    """Decides the end of the game after a hand's scores are added.

    ``reached`` says whether the target was reached after an earlier hand (a tie
    that plays on). Returns ``(over, winner indices, reached)``.
    """
    reached = reached or max(totals) >= target
    if not reached:
        return False, [], False
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    if len(leaders) == 1 or tie_break == "shared":
        return True, leaders, True
    return False, [], True
