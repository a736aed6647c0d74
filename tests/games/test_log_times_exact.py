"""Times in a table log's data fields (``t_lift``, ``err_lift``) are read as exactly as ``t`` itself: to
the nanosecond at any session time the log allows (docs/table-log.md: a lift a nanosecond sooner may
land), not through a float, which loses nanoseconds past about 8.4e6 s."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from kiosk.tablelog import parse_event

ROOT = Path(__file__).resolve().parents[2]
T0 = Decimal(120_000_000)
"""A session clock about four years on (the log allows up to 1e9 s): far past a float's nanoseconds."""


def _line(event: dict[str, Any]) -> str:
    # Times are written as the exact decimals given (json.dumps would quote a Decimal or round a float).
    text = json.dumps({k: f"{v:f}" if isinstance(v, Decimal) else v for k, v in event.items()})
    return re.sub(r'"(t|t_lift|err_lift)": "([0-9.]+)"', r'"\1": \2', text)


def _at(seconds: str) -> Decimal:
    return T0 + Decimal(seconds)


def test_a_lift_time_is_read_to_the_nanosecond_far_into_a_session() -> None:
    lift = {"t_lift": _at("45.299999999"), "err_lift": Decimal("0.000000001")}
    play = {"t": _at("45.6"), "type": "foundation_play", "seat": "Ben", "card": "9D", "pile": "D"}
    e = parse_event(_line({**play, **lift}), 2)
    assert e.get("t_lift") == Decimal("120000045.299999999")
    assert e.get("err_lift") == Decimal("0.000000001")


@pytest.mark.parametrize(("lift", "air", "after_call"), [("45.299999999", True, False),
                                                         ("45.300000001", False, True)])
def test_a_card_lifted_a_nanosecond_before_the_call_may_land_far_into_a_session(
        tmp_path: Path, lift: str, air: bool, after_call: bool) -> None:
    """§7.1, Example 5's Ben: a card lifted before the call may land and counts if legal; lifted after
    it, it goes back. Exactly so with the session clock at 1.2e8 s (was: a lift 1 ns before the call was
    read as at it, and ruled after the call)."""
    seats = ["Ana", "Ben", "Cal", "Dee"]
    events: list[dict[str, Any]] = [{"t": _at("0"), "type": "hand_start"}]
    events += [{"t": _at(f"1.{i}"), "type": "foundation_play", "seat": "Ana", "card": f"{r}D", "pile": "D"}
               for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8"])]
    events += [{"t": _at("45.3"), "type": "call", "seat": "Ana"},
               {"t": _at("45.6"), "type": "foundation_play", "seat": "Ben", "card": "9D", "pile": "D",
                "t_lift": _at(lift)},
               {"t": _at("50"), "type": "hand_end"}]
    log = tmp_path / "table.jsonl"
    header = {"table_log": 1, "game": "nerts", "seats": seats, "options": {}}
    log.write_text("".join(_line(x) + "\n" for x in [header, *events]))
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert any(r["kind"] == "air" for r in report["rulings"]) is air
    assert [x["kind"] for x in report["infractions"]] == (["after_call"] if after_call else [])
    assert report["extra"]["hands"][0]["foundation"]["Ben"] == (1 if air else 0)
