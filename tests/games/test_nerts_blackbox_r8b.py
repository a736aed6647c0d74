"""Black-box Nerts tests, review round 8 (b): calls, stalemates, the end of a hand and of the game,
scoring and score corrections, refereed through ``kiosk replay --json`` from logs written from
``rules/nerts.md`` and ``docs/table-log.md`` alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

_SEATS = ["Ana", "Ben"]


def _log(events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": _SEATS, "options": options}, *events]


def _ev(t: float, kind: str, seat: str | None = None, **more: Any) -> dict[str, Any]:
    return {"t": t, "type": kind, **({"seat": seat} if seat else {}), **more}


def _called(ana: int, ben: int, *, hand_end: bool) -> list[dict[str, Any]]:
    """One hand: Ana calls, the audit counts each seat's foundation cards (no Nerts cards left), and a
    ``hand_end`` at 3 s, or none (the report scores the hand at the last count, 2 s)."""
    events = [
        _ev(0, "hand_start"),
        _ev(1, "call", "Ana", nerts_left=0),
        _ev(2, "count", "Ana", nerts=0, foundation=ana),
        _ev(2, "count", "Ben", nerts=0, foundation=ben),
    ]
    return [*events, _ev(3, "hand_end")] if hand_end else events


def _ends(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (r["t"], r["kind"], r["text"])
        for r in report["rulings"]
        if r["kind"] in ("hand_end", "correction", "tie_for_win", "game_end")
    ]


def test_a_correction_after_an_open_hand_ends_the_game_at_its_own_time(tmp_path: Path) -> None:
    """docs/table-log.md: "a correction that ends the game adds [the game_end], at the correction's
    time", and a log that stops after a call is scored as a hand_end would score it. Hand 1 leaves
    Ana and Ben tied on 12 (target 10, ``tie_break = play_on``: another hand, §8.1); a correction at 5 s
    takes Ben to 11. With or without a ``hand_end``, the tie is announced with the hand's scores and
    Ana's win at 5 s, after the correction that brought it (before, with no ``hand_end`` the win was
    announced at 2 s, before its correction, and the tie was never announced)."""
    fix = _ev(5, "score_correction", "Ben", hand=1, score=11)
    for hand_end, t in ((True, "3"), (False, "2")):
        report = replay(tmp_path, _log([*_called(12, 12, hand_end=hand_end), fix], target_score=10))
        assert _ends(report) == [
            (t, "hand_end", "hand 1: Ana +12, Ben +12"),
            (t, "tie_for_win", "Ana and Ben tie for the lead on 12: another hand"),
            ("5", "correction", "score corrected: Ben, hand 1: 12 -> 11"),
            ("5", "game_end", "game over: Ana wins with 12"),
        ], hand_end
        assert (report["finished"], report["winners"], report["totals"]) == (
            True,
            ["Ana"],
            {"Ana": 12, "Ben": 11},
        )


def test_a_correction_after_an_open_hand_that_undoes_the_win_announces_the_tie(tmp_path: Path) -> None:
    """§8.1 and docs/table-log.md ("one that undoes the win drops it"): hand 1 ends the game for Ana,
    12 to 11 (target 10); a correction at 5 s ties Ben with her on 12, so the table plays on. The tie
    for the lead is announced after that correction, as after a ``hand_end``, also when the log stops
    after the count."""
    fix = _ev(5, "score_correction", "Ben", hand=1, score=12)
    for hand_end, t in ((True, "3"), (False, "2")):
        report = replay(tmp_path, _log([*_called(12, 11, hand_end=hand_end), fix], target_score=10))
        assert _ends(report) == [
            (t, "hand_end", "hand 1: Ana +12, Ben +11"),
            ("5", "correction", "score corrected: Ben, hand 1: 11 -> 12"),
            ("5", "tie_for_win", "Ana and Ben tie for the lead on 12: another hand"),
        ], hand_end
        assert (report["finished"], report["winners"]) == (False, [])
