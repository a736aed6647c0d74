"""Black-box Nerts tests, round 17: the end of a hand and of the game (``rules/nerts.md`` §7, §8, §8.1)
checked against an independent implementation of the scoring written from the spec, on bots' games and
hand-made boundary logs; refereed through ``kiosk replay --json`` from logs written from the spec and
``docs/table-log.md`` alone."""

from __future__ import annotations

from pathlib import Path

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox import _scored_hand
from tests.games.test_nerts_blackbox11 import _ends, _fix, _log


def test_a_correction_for_a_hand_never_played_adds_no_hand(tmp_path: Path) -> None:
    """docs/table-log.md: a ``score_correction`` "replaces a seat's score for one hand", and §8.1 ends
    the game only "after each hand's scores are added". Hand 1 is scored (Ana 3, Ben 4, target 10); a
    correction then names hand 2, which the log never plays. There is no hand 2 score to replace: the
    report holds hand 1 alone, its totals, and a game still going on, not a hand 2 that ends it."""
    seats = ["Ana", "Ben"]
    report = replay(tmp_path, _log(seats, [*_scored_hand(0, seats, [3, 4]), _fix(5, "Ben", 2, 9)],
                                   target_score=10))
    assert report["hands"] == [{"Ana": 3, "Ben": 4}]
    assert report["totals"] == {"Ana": 3, "Ben": 4}
    assert (report["finished"], report["winners"]) == (False, [])
    assert _ends(report) == []


def test_the_winner_is_the_highest_total_when_a_correction_names_a_hand_after_the_game(
        tmp_path: Path) -> None:
    """§8.1 ("the seat with the highest total wins"): a correction logged during hand 1 names hand 2
    (Ana 20). Hand 1 takes Ben to 12, at the target of 10, so the game ends after it and hand 2 is never
    played: Ben wins with 12, and the report's totals are those of hand 1, which name him the leader,
    not Ana on 23 from a hand that did not happen."""
    seats = ["Ana", "Ben"]
    hand_1 = _scored_hand(0, seats, [3, 12])
    report = replay(tmp_path, _log(seats, [*hand_1[:2], _fix(1.5, "Ana", 2, 20), *hand_1[2:]],
                                   target_score=10))
    assert report["hands"] == [{"Ana": 3, "Ben": 12}]
    assert report["totals"] == {"Ana": 3, "Ben": 12}
    assert (report["finished"], report["winners"]) == (True, ["Ben"])
    assert _ends(report) == [("3", "game_end", "game over: Ben wins with 12", ["Ben"])]


def test_a_correction_logged_before_its_hand_is_played_applies_once_it_is_scored(tmp_path: Path) -> None:
    """docs/table-log.md (a correction replaces a seat's score for one hand; the end of the game follows
    the corrected scores, §8.1): a correction for hand 2 logged during hand 1 takes effect when hand 2
    is scored, and ends the game there (Ana 3 + 20 = 23, target 10)."""
    seats = ["Ana", "Ben"]
    hand_1 = _scored_hand(0, seats, [3, 4])
    events = [*hand_1[:2], _fix(1.5, "Ana", 2, 20), *hand_1[2:], *_scored_hand(10, seats, [1, 2])]
    report = replay(tmp_path, _log(seats, events, target_score=10))
    assert report["hands"] == [{"Ana": 3, "Ben": 4}, {"Ana": 20, "Ben": 2}]
    assert report["totals"] == {"Ana": 23, "Ben": 6}
    assert (report["finished"], report["winners"]) == (True, ["Ana"])
