"""Black-box Nerts tests, round 9: the end-of-hand audit of ``rules/nerts.md`` §12 scored by §8 under
both ``attribution_source`` values, and the stuck / reset / stalemate cycle of §7.2 (camera-level and
fully tracked logs, ``stalemate_after_resets`` 0 to 3, the game end after a stalemate-ended hand),
refereed through ``kiosk replay --json``. Written from the spec and ``docs/table-log.md`` alone; the
referee agreed with every case here, so these lock the behaviour in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox8 import _deck


def _log(events: list[dict[str, Any]], seats: tuple[str, ...] = ("Ana", "Ben"),
         **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": list(seats), "options": options}, *events]


def _ev(t: float, kind: str, seat: str | None = None, **more: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"t": t, "type": kind}
    if seat is not None:
        event["seat"] = seat
    return {**event, **more}


def _kinds(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(x["t"], x["kind"]) for x in report["rulings"]]


@pytest.mark.parametrize("after", [0, 1, 2, 3])
def test_example_8_under_each_stalemate_after_resets(tmp_path: Path, after: int) -> None:
    """§14 Example 8 with a progress move after the first all-stuck (§7.2): the hand ends at the first
    all-stuck table only with ``stalemate_after_resets = 0``; otherwise the progress makes the second
    all-stuck table another reset, and ``after`` resets with no progress end the hand. Scores per §8."""
    seats = ("Ana", "Ben", "Cal")
    events = [_ev(0, "hand_start"), _ev(10, "foundation_play", "Ana", card="AS", pile="F1"),
              _ev(11, "foundation_play", "Cal", card="2S", pile="F1"),
              _ev(12, "foundation_play", "Ana", card="3S", pile="F1")]
    t = 400
    for round_ in range(5):
        events += [_ev(t, "stuck", s) for s in seats]
        if round_ == 0:
            events.append(_ev(t + 20, "foundation_play", "Ben", card="4S", pile="F1", **{"from": "waste"}))
        t += 85
    events += [_ev(900, "count", "Ana", nerts=3, foundation=10),
               _ev(900, "count", "Ben", nerts=1, foundation=12),
               _ev(900, "count", "Cal", nerts=6, foundation=7), _ev(901, "hand_end")]
    report = replay(tmp_path, _log(events, seats, stalemate_after_resets=after))
    stuck_times = [str(400 + 85 * i) for i in range(5)]
    if after == 0:
        expected = [(stuck_times[0], "stalemate")]
    else:
        expected = [(stuck_times[i], "reset") for i in range(after + 1)]
        expected.append((stuck_times[after + 1], "stalemate"))
    assert [k for k in _kinds(report) if k[1] in ("reset", "stalemate")] == expected
    assert report["hands"] == [{"Ana": 4, "Ben": 10, "Cal": -5}]
    assert report["extra"]["hands"][0]["end"] == "stalemate"
    assert report["extra"]["hands"][0]["resets"] == (0 if after == 0 else after + 1)


def test_a_block_move_clears_the_stuck_flag_but_is_no_progress(tmp_path: Path) -> None:
    """§6 M9: an M6 block move clears the mover's stuck flag, but only M3-M5 and M7 are progress moves
    (§6), so when all are stuck again after the reset the hand ends (§7.2); a slide under (M7) instead
    is progress and brings a second reset."""
    ana = _deck(["7D"], ["9S", "8H", "2C", "6C"], ["4D", "5D", "AD"])
    ben = _deck(["KH"], ["9C", "5S", "2D", "3D"], ["4S", "5H", "6S"])
    start = _ev(0, "hand_start", deal={"Ana": " ".join(ana), "Ben": " ".join(ben)})
    head = [start, _ev(1, "stuck", "Ana"), _ev(2, "stuck", "Ben"), _ev(3, "stuck", "Ben")]
    block = _ev(3.5, "move", "Ana", card="8H", **{"from": "work2", "to": "work1"})
    under = _ev(3.5, "move", "Ana", card="7D", **{"from": "nerts", "to": "under4"})
    tail = [_ev(4, "stuck", "Ana"), _ev(5, "stuck", "Ben"), _ev(6, "stuck", "Ana")]
    report = replay(tmp_path, _log([*head, block, *tail]))
    assert _kinds(report)[1:3] == [("2", "reset"), ("4", "stalemate")]
    assert report["infractions"] == []
    report = replay(tmp_path, _log([*head, under, *tail]))
    assert _kinds(report)[1:4] == [("2", "reset"), ("4", "reset"), ("6", "stalemate")]
    assert report["hands"] == [{"Ana": -24, "Ben": -26}]


def test_rotation_needs_the_stuck_flag_and_a_reset_clears_it(tmp_path: Path) -> None:
    """§6 M10 only while flagged stuck (a reset clears every flag, §7.2); with ``solo_rotation = false``
    never."""
    events = [_ev(0, "hand_start"), _ev(1, "rotate", "Ana"), _ev(2, "stuck", "Ana"), _ev(3, "rotate", "Ana"),
              _ev(4, "stuck", "Ben"), _ev(5, "rotate", "Ana")]
    report = replay(tmp_path, _log(events))
    assert [(x["t"], x["kind"]) for x in report["infractions"]] == [("1", "illegal_move"),
                                                                    ("5", "illegal_move")]
    report = replay(tmp_path, _log(events, solo_rotation=False))
    assert [x["t"] for x in report["infractions"]] == ["1", "3", "5"]


@pytest.mark.parametrize("source", ["audit_if_available", "tracking_only"])
def test_the_audit_overrides_foundation_tracking_only_when_available(tmp_path: Path, source: str) -> None:
    """§12: under ``audit_if_available`` the counted backs give F and each difference is ruled an
    ``audit``; under ``tracking_only`` live tracking gives F. A seat with no count keeps its tracked F;
    a count after ``hand_end`` is ``after_hand`` and ignored (docs/table-log.md)."""
    events = [_ev(0, "hand_start"), _ev(1, "foundation_play", "Ana", card="AS", pile="F1"),
              _ev(2, "foundation_play", "Ben", card="2S", pile="F1"),
              _ev(3, "foundation_play", "Ana", card="AH", pile="F2"), _ev(4, "call", "Ana", nerts_left=0),
              _ev(5, "count", "Ana", nerts=0, foundation=3), _ev(5, "count", "Ben", nerts=4),
              _ev(6, "hand_end"), _ev(7, "count", "Ben", nerts=2, foundation=5)]
    report = replay(tmp_path, _log(events, attribution_source=source))
    audits = [x["text"] for x in report["rulings"] if x["kind"] == "audit"]
    if source == "audit_if_available":
        assert report["hands"] == [{"Ana": 3, "Ben": -7}]
        assert audits == ["audit: Ana has 3 cards on the foundations (live tracking saw 2)"]
    else:
        assert report["hands"] == [{"Ana": 2, "Ben": -7}]
        assert audits == []
    assert [(x["t"], x["kind"]) for x in report["infractions"]] == [("7", "after_hand")]


@pytest.mark.parametrize("tie_break", ["play_on", "shared"])
def test_the_game_ends_after_a_stalemate_ended_hand(tmp_path: Path, tie_break: str) -> None:
    """§7.2 a stalemate-ended hand is scored normally (§8) and the end of the game follows §8.1: a tie
    for the lead past the target plays on, or shares the win."""
    def hand(t0: float, counts: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
        evs = [_ev(t0, "hand_start")] + [_ev(t0 + 1 + i, "stuck", s) for i in (0, 1) for s in ("Ana", "Ben")]
        return evs + [_ev(t0 + 5, "count", s, nerts=n, foundation=f) for s, (n, f) in counts.items()]
    events = [*hand(0, {"Ana": (0, 6), "Ben": (0, 6)}), *hand(10, {"Ana": (0, 1), "Ben": (0, 2)})]
    report = replay(tmp_path, _log(events, target_score=5, tie_break=tie_break))
    assert report["finished"] is True
    if tie_break == "shared":
        assert report["winners"] == ["Ana", "Ben"]
        assert report["totals"] == {"Ana": 6, "Ben": 6}
    else:
        assert report["winners"] == ["Ben"]
        assert report["totals"] == {"Ana": 7, "Ben": 8}
        assert [e for e in report["extra"]["hands"] if e["end"] == "stalemate"] == report["extra"]["hands"]


@pytest.mark.parametrize("stray", [
    _ev(0.5, "stuck", "Ana"),
    _ev(0.5, "count", "Ben", nerts=13, foundation=0),
    _ev(0.5, "turn", "Ben"),
])
def test_a_stray_event_before_the_first_go_scores_no_hand_of_its_own(
    tmp_path: Path, stray: dict[str, Any]
) -> None:
    """A log may start without a hand_start (an event then opens hand 1), but a stuck button, a count
    or a stock turn logged before the first Go, with no card played, is no hand of its own: the
    hand_start is that hand's Go. Before, hand 1 was "stopped" and scored −26 a seat (13 Nerts cards
    each, §8) and the real hand was hand 2."""
    report = replay(tmp_path, _log([
        stray, _ev(1, "hand_start"),
        _ev(5, "foundation_play", "Ana", card="AS", pile="F1", **{"from": "nerts"}),
        _ev(9, "call", "Ana", nerts_left=0), _ev(9.5, "count", "Ben", nerts=11, foundation=0),
        _ev(10, "hand_end")]))
    assert report["hands"] == [{"Ana": 1, "Ben": -22}]
    assert [r["text"] for r in report["rulings"] if r["kind"] == "hand_start"] == ["hand 1: go"]
