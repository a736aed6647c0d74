"""Tenth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W), found by comparing the referee with an
independent implementation of the spec on thousands of random games."""

from __future__ import annotations

from pathlib import Path

from tests.games.test_smear_blackbox import _replay
from tests.games.test_smear_blackbox5 import HAND_13_4
from tests.games.test_smear_blackbox7 import _kinds


def _twice(card: str) -> list[dict[str, object]]:
    """§13.4 with the play of ``card`` logged a second time right after it."""
    k = next(i for i, e in enumerate(HAND_13_4) if e.get("card") == card)
    return [*HAND_13_4[:k + 1], HAND_13_4[k], *HAND_13_4[k + 1:]]


def test_12_3_a_play_logged_twice_mid_trick_is_seen_twice_not_out_of_turn(tmp_path: Path) -> None:
    # §13.4, trick 1: N:7S E:KS S:JS W:QS. The camera logs E's KS twice; S is then to play.
    # docs/table-log.md: "a play logged twice is seen_twice" and "a card seen again from a seat
    # that already played it is ignored". E's KS is already on the table: it cannot "go back to
    # the hand" as an out-of-turn card would. The hand is scored as played (NS +2, EW +1).
    rep = _replay(tmp_path, {}, _twice("KS"))
    assert _kinds(rep) == [("seen_twice", "E")]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1)]


def test_12_3_the_last_card_of_the_hand_logged_twice_is_seen_twice_not_wrong_count(tmp_path: Path) -> None:
    # §13.4, trick 6 ends with W's JH, the 24th card. Logged again, it is the same play seen
    # twice (docs/table-log.md), not a 25th card "after the sixth trick" (wrong_count).
    rep = _replay(tmp_path, {}, _twice("JH"))
    assert _kinds(rep) == [("seen_twice", "W")]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1)]
