"""Table logs written by hand in tests, refereed as a user runs them: ``kiosk replay LOG --json``
(a subprocess) or in process (:func:`kiosk.replay.replay_events`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from kiosk.games.referee import RefereeReport
from kiosk.replay import replay_events
from kiosk.tablelog import read_table_log

ROOT = Path(__file__).resolve().parents[2]


def write_log(path: Path, lines: list[dict[str, Any]]) -> Path:
    """Writes ``lines`` (the header, then the events) to ``path`` as JSON Lines."""
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def replay(tmp_path: Path, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """``kiosk replay --json`` on ``lines``: the report, after checking it exited 0."""
    log = write_log(tmp_path / "table.jsonl", lines)
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    report: dict[str, Any] = json.loads(run.stdout)
    return report


def replay_in_process(path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> RefereeReport:
    """The referee's report on ``header`` and ``events`` (written to ``path``), in this process."""
    write_log(path, [header, *events])
    return replay_events(*read_table_log(path))


def replay_main(
    tmp_path: Path, lines: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    """``kiosk replay --json`` on ``lines`` through the command's entry point in this process."""
    log = write_log(tmp_path / "log.jsonl", lines)
    status = main(["replay", str(log), "--json"])
    out = capsys.readouterr()
    assert status == 0, out.err
    report: dict[str, Any] = json.loads(out.out)
    return report
