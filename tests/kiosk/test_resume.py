"""Crash safety: a kiosk killed with SIGKILL mid-game resumes exactly where it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kiosk.replay import replay_events
from kiosk.session import Session
from kiosk.tablelog import read_table_log

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import sys
    from kiosk.session import Session
    from kiosk.tablelog import read_table_log

    log, store, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    header, events = read_table_log(log)
    session = Session.start(store, header)
    for i, event in enumerate(events[:n], start=1):
        session.record(event)
        print(i, flush=True)
    sys.stdin.readline()  # hold here, mid-game, until killed
    """
)


def _without_lines(report: dict[str, Any]) -> dict[str, Any]:
    """Infractions name the line of their source; the store's export numbers
    lines without the example's comment lines, so compare all but that."""
    return {**report, "infractions": [{**i, "line": None} for i in report["infractions"]]}


@pytest.mark.parametrize(
    ("example", "n"),
    [("nerts_example.jsonl", 40), ("nerts_example.jsonl", 120), ("kierki_example.jsonl", 333),
     ("smear_example.jsonl", 77)],
)
def test_sigkill_then_resume_equals_the_uninterrupted_run(tmp_path: Path, example: str, n: int) -> None:
    log = ROOT / "examples" / example
    store = tmp_path / "kiosk.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(log), str(store), str(n)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert child.stdout is not None
    header, events = read_table_log(log)
    expected_lines = min(n, len(events))
    for expected in range(1, expected_lines + 1):
        assert child.stdout.readline().strip() == str(expected)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL

    resumed = Session.resume(store)
    assert resumed is not None
    uninterrupted = replay_events(header, events[:n])
    assert _without_lines(resumed.report().to_json()) == _without_lines(uninterrupted.to_json())
    assert len(resumed.store) == expected_lines
    # And the game goes on from there to the same end as a run never interrupted.
    for event in events[n:]:
        resumed.record(event)
    final = replay_events(header, events).to_json()
    assert _without_lines(resumed.report().to_json()) == _without_lines(final)
    resumed.close()


def test_a_malformed_event_is_not_kept_in_the_store(tmp_path: Path) -> None:
    header, events = read_table_log(ROOT / "examples" / "nerts_example.jsonl")
    session = Session.start(tmp_path / "k.sqlite3", header)
    session.record(events[0])
    from kiosk.games.errors import InvalidActionError
    from kiosk.games.referee import TableEvent

    with pytest.raises(InvalidActionError):
        session.record(TableEvent("foundation_play", events[0].t_ns + 1, seat="Ana",
                                  data={"card": "ZZ", "pile": "F1"}))
    assert len(session.store) == 1
    session.close()
    again = Session.resume(tmp_path / "k.sqlite3")
    assert again is not None and again.skipped == [] and len(again.store) == 1
    again.close()
