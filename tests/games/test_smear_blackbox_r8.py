"""Round-8 black-box review of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): whole games under option mixes, and the
same games with harmless noise a camera adds (lines logged twice, notes, an undone slip)."""

from __future__ import annotations

from pathlib import Path

from tests.games.test_smear_blackbox import _replay
from tests.games.test_smear_blackbox7 import HAND_13_4, _kinds


def test_12_3_the_winning_hands_last_card_logged_twice_is_seen_twice(tmp_path: Path) -> None:
    # §13.4 with target_score = 2: N bids 2 and makes it (NS +2, EW +1), so the game is won
    # with W's JH, the 24th card. The camera logs that play again. docs/table-log.md: "a play
    # logged twice is seen_twice", the same event, not a new one after the game was won: the
    # report must not call it after_game_over, and the win stands (NS 2 to 1).
    rep = _replay(tmp_path, {"target_score": 2}, [*HAND_13_4, HAND_13_4[-1]])
    assert _kinds(rep) == [("seen_twice", "W")]
    assert rep["finished"] and rep["winners"] == ["N", "S"]
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (2, 1)
