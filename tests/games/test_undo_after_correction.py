"""``undo`` straight after a ``score_correction`` takes back the correction, in every game.

docs/table-log.md calls ``undo`` the kiosk's "undo last ruling", and a correction is shown as a
ruling: undoing it must leave the game exactly as it was before, not take back the card or
reveal logged before the correction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.games.referee import RefereeReport
from tests.games.replay_logs import ROOT, replay_in_process

EXAMPLES = sorted((ROOT / "examples").glob("*_example.jsonl"))


def _lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in text if line.strip() and not line.startswith("#")]


def _outcome(report: RefereeReport) -> dict[str, Any]:
    j = report.to_json()
    j["rulings"] = [r for r in j["rulings"] if r["kind"] not in ("correction", "undo")]
    return j


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name.removesuffix("_example.jsonl"))
def test_undo_right_after_a_correction_takes_back_the_correction(example: Path, tmp_path: Path) -> None:
    header, *events = _lines(example)
    plain = replay_in_process(tmp_path / "plain.jsonl", header, events)
    t = events[-1]["t"]
    fix = {"t": t + 1, "type": "score_correction", "seat": header["seats"][0], "hand": 1, "score": 77}
    corrected = replay_in_process(tmp_path / "fix.jsonl", header, [*events, fix])
    assert corrected.hands[0][header["seats"][0]] == 77
    undone = replay_in_process(tmp_path / "undo.jsonl", header, [*events, fix, {"t": t + 2, "type": "undo"}])
    assert _outcome(undone) == _outcome(plain)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name.removesuffix("_example.jsonl"))
def test_undo_of_the_last_play_keeps_a_correction_logged_before_it(example: Path, tmp_path: Path) -> None:
    header, *events = _lines(example)
    *before, last = events
    fix = {"t": last["t"], "type": "score_correction", "seat": header["seats"][1], "hand": 1, "score": -7}
    with_undo = replay_in_process(
        tmp_path / "a.jsonl", header, [*before, fix, last, {"t": last["t"], "type": "undo"}]
    )
    without_last = replay_in_process(tmp_path / "b.jsonl", header, [*before, fix])
    assert _outcome(with_undo) == _outcome(without_last)
    assert with_undo.hands[0][header["seats"][1]] == -7
