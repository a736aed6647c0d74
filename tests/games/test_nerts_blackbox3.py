"""Black-box Nerts tests, third round: table logs written from ``rules/nerts.md`` and
``docs/table-log.md`` alone, refereed through ``kiosk replay --json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.games.replay_logs import ROOT, replay


def _header(seats: list[str], **options: Any) -> dict[str, Any]:
    return {"table_log": 1, "game": "nerts", "seats": seats, "options": options}


def _hand_1(seats: list[str]) -> list[dict[str, Any]]:
    """A camera-level hand: the first seat calls; the audit gives it F = 5, N = 0 and every other
    seat F = 4, N = 3 (4 - 6 = -2)."""
    out: list[dict[str, Any]] = [{"t": 0, "type": "hand_start"},
                                 {"t": 1, "type": "call", "seat": seats[0], "nerts_left": 0}]
    out += [{"t": 2, "type": "count", "seat": s, "nerts": 0 if i == 0 else 3,
             "foundation": 5 if i == 0 else 4} for i, s in enumerate(seats)]
    out.append({"t": 3, "type": "hand_end"})
    return out


def test_a_call_after_the_hand_was_scored_is_not_a_new_hand(tmp_path: Path) -> None:
    """§7.1 and §4 step 6: a hand is played from "Go" (``hand_start``) to its call or stalemate. A second
    "Nerts!" logged after ``hand_end`` (before the next "Go") is a late call, not a hand of its own
    that costs the other seats 26 points."""
    seats = ["Ana", "Ben"]
    lines = [_header(seats), *_hand_1(seats), {"t": 4, "type": "call", "seat": "Ben", "nerts_left": 0}]
    report = replay(tmp_path, lines)
    assert report["hands"] == [{"Ana": 5, "Ben": -2}]
    assert report["totals"] == {"Ana": 5, "Ben": -2}
    assert [i["kind"] for i in report["infractions"]] == ["late_call"]


def test_a_card_played_before_the_next_go_does_not_make_a_hand(tmp_path: Path) -> None:
    """§4 step 6: no card may be moved before the start signal. A card played between ``hand_end``
    and the next ``hand_start`` is an infraction; it is not a hand scored 13 Nerts cards a seat."""
    seats = ["Ana", "Ben"]
    lines = [_header(seats), *_hand_1(seats),
             {"t": 4, "type": "foundation_play", "seat": "Ben", "card": "AS", "pile": "F1", "from": "nerts"},
             *[dict(x, t=x["t"] + 10) for x in _hand_1(seats)]]
    report = replay(tmp_path, lines)
    assert report["hands"] == [{"Ana": 5, "Ben": -2}, {"Ana": 5, "Ben": -2}]
    assert report["totals"] == {"Ana": 10, "Ben": -4}
    assert [i["kind"] for i in report["infractions"]] == ["after_hand"]


def test_a_count_logged_after_hand_end_does_not_open_a_hand(tmp_path: Path) -> None:
    """§8 and §12: the audit belongs to the hand it counts. A count logged once the hand is scored
    is flagged (a score_correction fixes the hand); it opens no hand that the next "Go" would
    score at -26 a seat."""
    seats = ["Ana", "Ben"]
    lines = [_header(seats), *_hand_1(seats),
             {"t": 3.5, "type": "count", "seat": "Ben", "nerts": 3, "foundation": 4},
             *[dict(x, t=x["t"] + 10) for x in _hand_1(seats)]]
    report = replay(tmp_path, lines)
    assert report["hands"] == [{"Ana": 5, "Ben": -2}, {"Ana": 5, "Ben": -2}]
    assert [i["kind"] for i in report["infractions"]] == ["after_hand"]


def test_the_rules_set_no_upper_limit_on_seats(tmp_path: Path) -> None:
    """§2: "two or more seats. The rules set no upper limit" (§10: a seat may be a partnership, so
    twelve partnerships are 24 players). A log of 14 seats is refereed, not refused."""
    seats = [f"T{i}" for i in range(1, 15)]
    report = replay(tmp_path, [_header(seats, target_score=5), *_hand_1(seats)])
    assert report["totals"] == {"T1": 5, **{s: -2 for s in seats[1:]}}
    assert report["finished"] is True and report["winners"] == ["T1"]


def test_one_seat_is_not_a_game(tmp_path: Path) -> None:
    """§2: two or more seats."""
    log = tmp_path / "table.jsonl"
    log.write_text(json.dumps(_header(["Ana"])) + "\n")
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "line 1" in run.stdout + run.stderr
