"""``kiosk replay``: every bundled example referees, and malformed logs get one
clear line naming the line number and the problem, exit status 2, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))


def kiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", *args], capture_output=True, text=True, cwd=ROOT)


def test_every_game_has_a_bundled_example() -> None:
    games = {json.loads(next(ln for ln in p.read_text().splitlines() if ln.startswith("{")))["game"]
             for p in EXAMPLES}
    assert games == {"nerts", "kierki", "smear", "rummy_3_13", "gnoming"}


@pytest.mark.parametrize("log", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_examples_replay_as_text_and_json(log: Path) -> None:
    text = kiosk("replay", str(log))
    assert text.returncode == 0, text.stderr
    assert "Scores:" in text.stdout and "total" in text.stdout
    as_json = kiosk("replay", str(log), "--json")
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert set(report) >= {"game", "seats", "rulings", "infractions", "hands", "totals", "finished"}
    # Totals are the sum of the hands (corrections included).
    for seat in report["seats"]:
        assert report["totals"][seat] == sum(h.get(seat, 0) for h in report["hands"]), seat
    total_line = next(ln for ln in text.stdout.splitlines() if ln.strip().startswith("total"))
    assert [int(v) for v in total_line.split()[1:]] == [report["totals"][s] for s in report["seats"]]
    # The report's fields, rulings and infractions are those docs/table-log.md documents.
    documented = {"game", "seats", "rulings", "infractions", "hands", "totals", "finished", "winners"}
    assert set(report) <= documented | {"notes", "extra"}
    assert all({"t", "kind", "text", "seats"} <= set(r) <= {"t", "kind", "text", "seats", "data"}
               for r in report["rulings"])
    assert all(set(i) == {"t", "kind", "text", "seat", "line"} for i in report["infractions"])
    if report["finished"]:
        assert report["winners"] and set(report["winners"]) <= set(report["seats"])
        end_kind = {"kierki": "match_end", "smear": "game_over"}.get(report["game"], "game_end")
        assert end_kind in {r["kind"] for r in report["rulings"]}


HEADER = '{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {}}'
START = '{"t": 0, "type": "hand_start"}'


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        ([HEADER, START, '{"t": 1, "type": "call", "seat": "Ana"'], 3, "not valid JSON"),
        ([HEADER, START, '{"t": 1, "type": "teleport", "seat": "Ana"}'], 3, "unknown event type 'teleport'"),
        ([HEADER, START, '{"t": 1, "type": "foundation_play", "seat": "Ana", "card": "11H", "pile": "F1"}'],
         3, "invalid card"),
        ([HEADER, START, '{"t": 1, "type": "call", "seat": "Zed"}'], 3, "seat 'Zed' is not in the header"),
        ([HEADER, START, '{"t": 5, "type": "note"}', '{"t": 4, "type": "note"}'], 4, "time goes backwards"),
        (['{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {"speed": 3}}'], 1,
         "no option 'speed'"),
        (['{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {"tie_window_ms": "x"}}'],
         1, "tie_window_ms"),
        (['{"table_log": 1, "game": "poker", "seats": ["Ana", "Ben"]}'], 1, "unknown game 'poker'"),
    ],
    ids=["bad-json", "unknown-type", "unknown-card", "unknown-seat", "time-backwards", "unknown-option",
         "bad-option-value", "unknown-game"],
)
def test_malformed_logs_get_a_clear_error(tmp_path: Path, lines: list[str], line: int, problem: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    result = kiosk("replay", str(log))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"line {line}" in result.stderr
    assert problem in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = kiosk("replay", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2
    assert "no such file" in result.stderr and "Traceback" not in result.stderr
