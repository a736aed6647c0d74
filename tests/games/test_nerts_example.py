"""The bundled example game and the documented Nerts events referee as they claim."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from kiosk.replay import format_report, replay_events
from kiosk.tablelog import parse_table_log, read_table_log
from tests.games.nerts_log import header

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "nerts_example.jsonl"


def test_the_example_game_referees_to_its_known_result() -> None:
    head, events = read_table_log(EXAMPLE)
    report = replay_events(head, events)
    assert report.hands == [
        {"Ana": -1, "Ben": -4, "Cal": 13, "Dee": 13},
        {"Ana": -7, "Ben": -2, "Cal": -3, "Dee": 12},
    ]
    assert report.totals == {"Ana": -8, "Ben": -6, "Cal": 10, "Dee": 25}
    kinds = [r.kind for r in report.rulings]
    assert kinds.count("tie") == 3 and kinds.count("race") == 8 and kinds.count("call") == 2
    assert kinds.count("false_call") == 1 and kinds.count("air") == 2
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_play", "Cal")]
    text = format_report(report)
    assert "tie (21 ms): both stand" in text and "Dee first by 160 ms: Ben, take back 3♥" in text
    assert "Dee's 9♣ was in the air at the call: it counts if legal" in text


def test_the_example_file_is_what_its_generator_writes() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "make_nerts_example.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_documented_nerts_events_are_accepted() -> None:
    doc = (ROOT / "docs" / "table-log.md").read_text(encoding="utf-8")
    section = doc.split("## Nerts events", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```json\n(.*?)```", section, re.S)[0]
    lines = [header(jokers=2), *block.strip().splitlines()]
    head, events = parse_table_log(lines)
    assert {e.type for e in events} >= {"hand_start", "foundation_play", "move", "turn", "recycle", "rotate",
                                        "stuck", "call", "count", "hand_end"}
    report = replay_events(head, events)
    assert report.hands and [r.kind for r in report.rulings].count("false_call") == 1
