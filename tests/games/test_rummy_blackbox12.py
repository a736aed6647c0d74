"""3-13 Speed: a twelfth outsider's table logs, found by comparing the referee with an independent
round-flow oracle written from ``rules/rummy_3_13.md`` and ``docs/table-log.md`` alone; each log is
minimal and its outcome is worked out from those two documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_rummy_blackbox5 import _kinds
from tests.games.test_rummy_blackbox9 import PILES, SEATS, _lines, _round

MATCH = {"type": "match", "seat": "Ana", "cards": ["7S", "7D", "3C"]}
SHOWS = [{"type": "show", "seat": "Ben", "cards": ["9H", "JH", "2C"]},
         {"type": "show", "seat": "Cal", "cards": ["AS", "AH", "6C"]}]


def _hand() -> list[dict[str, Any]]:
    """Hand 1 (3 cards): a round, Ana matches, Ben and Cal play the final round and show."""
    return [{"type": "hand_start", "hand": 1, "piles": PILES},
            *_round(SEATS, {"Ana": "KC", "Ben": "QD", "Cal": "5S"}), MATCH,
            *_round(["Ben", "Cal"], {"Ben": "KD", "Cal": "5H"}), *SHOWS]


def _replay_with_repeat(tmp_path: Path, index: int, dt: float) -> dict[str, Any]:
    """The hand's log with event ``index`` logged again ``dt`` seconds after it."""
    lines = _lines(_hand(), {"hands": [3]})
    repeat = {**lines[index + 1], "t": round(lines[index + 1]["t"] + dt, 3)}
    return replay(tmp_path, [*lines[:index + 2], repeat, *lines[index + 2:]])


@pytest.mark.parametrize("dt", [0.0, 0.02])
@pytest.mark.parametrize("index", [9, 20])   # Ana's discard in round 1; Cal's discard ending the final round
def test_a_discard_logged_twice_is_one_discard(tmp_path: Path, index: int, dt: float) -> None:
    """docs/table-log.md 'Lines logged twice': in 3-13 a card discarded that has already left its
    place cannot be discarded again, so the line logged again is the same event: no
    ``two_discards`` (§6.1: one discard a round) nor ``extra_discard`` (after the final round), the
    notes say it was ignored, and the scores are those of the log without it (§7)."""
    assert _hand()[index]["type"] == "discard"
    report = _replay_with_repeat(tmp_path, index, dt)
    assert _kinds(report) == []
    assert any("twice" in n for n in report["notes"])
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]


@pytest.mark.parametrize("index", [1, 8, 13, 18])   # "draw", "discard", final "draw", final "discard"
def test_a_call_logged_twice_within_a_frame_is_one_call(tmp_path: Path, index: int) -> None:
    """docs/table-log.md 'Lines logged twice': a call logged again within 50 ms is the same call
    (the caller says "draw" or "discard" once, §6.1), not an ``early_call``; one ``call`` ruling
    each time, and the hand is scored as without the repeat."""
    assert _hand()[index]["type"] == "call"
    report = _replay_with_repeat(tmp_path, index, 0.02)
    assert _kinds(report) == []
    assert any("twice" in n for n in report["notes"])
    assert [r["text"] for r in report["rulings"] if r["kind"] == "call"] == [
        "draw", "discard", "final round: draw", "discard"]
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]


def test_a_call_said_again_a_second_later_is_still_an_early_call(tmp_path: Path) -> None:
    """docs/table-log.md: past 50 ms a call is refereed as a second event: "draw" said again
    before "discard" is the caller's ``early_call``."""
    report = _replay_with_repeat(tmp_path, 1, 0.06)
    assert [(k, s) for k, s in _kinds(report)] == [("early_call", None)]


@pytest.mark.parametrize("index", [1, 9])   # the first "draw" call; Ana's first discard
def test_an_undo_after_a_call_or_discard_logged_twice_takes_back_both_lines(
        tmp_path: Path, index: int) -> None:
    """docs/table-log.md 'Lines logged twice': an ``undo`` after a repeat takes back both lines, so
    the report is that of the log without the event (here the draws are early, or Ana's discard
    is never seen: ``no_discard``)."""
    lines = _lines(_hand(), {"hands": [3]})
    repeat = {**lines[index + 1], "t": round(lines[index + 1]["t"] + 0.02, 3)}
    undo = {"t": repeat["t"], "type": "undo"}
    undone = replay(tmp_path, [*lines[:index + 2], repeat, undo, *lines[index + 2:]])
    without = replay(tmp_path, [*lines[:index + 1], *lines[index + 2:]])
    assert _kinds(undone) == _kinds(without) != []
    assert undone["hands"] == without["hands"]
