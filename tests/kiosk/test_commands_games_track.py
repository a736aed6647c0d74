"""``kiosk simulate`` for Kierki, 3-13 and Gnoming, and ``kiosk track --buttons``: the kiosk's buttons
join the camera's log so ``kiosk replay`` can referee it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.tablelog import read_table_log
from tests.kiosk.test_commands_simulate_track import need_recognizer

TINY = ["--seconds", "0.3", "--resolution", "320x180", "--fps", "10", "--format", "png"]


@pytest.mark.parametrize(
    ("game", "extra", "first"),
    [
        ("kierki", ["--deals", "1"], "deal"),
        ("rummy_3_13", ["--hand-size", "3"], "hand_start"),
        ("gnoming", [], "round_start"),
    ],
)
def test_simulate_each_game_writes_its_truth(tmp_path: Path, game: str, extra: list[str], first: str) -> None:
    out = tmp_path / game
    assert main(["simulate", game, "--seed", "2", "--out", str(out), *TINY, *extra]) == 0
    header, events = read_table_log(out / "truth.jsonl")
    assert header.game == game and events[0].type == first
    assert len(list((out / "frames").glob("*.png"))) >= 3


def test_bad_game_options_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "rummy_3_13", "--hand-size", "14", "--out", str(tmp_path / "r")]) == 2
    assert "--hand-size must be 3 to 13" in capsys.readouterr().err
    assert main(["track", str(tmp_path), "--out", str(tmp_path / "l.jsonl"), "--buttons", "nope.jsonl"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kiosk track: ") and "Traceback" not in err


def test_track_with_the_kiosks_buttons(tmp_path: Path) -> None:
    need_recognizer()
    sim = tmp_path / "sim"
    argv = ["simulate", "kierki", "--deals", "1", "--seed", "1", "--out", str(sim), "--seconds", "0.4"]
    assert main([*argv, "--fps", "10", "--format", "png"]) == 0
    log = tmp_path / "log.jsonl"
    assert main(["track", str(sim), "--out", str(log), "--buttons", str(sim / "truth.jsonl")]) == 0
    header, events = read_table_log(log)
    assert header.game == "kierki"
    # The deal comes from the kiosk's button: the log starts as the truth does.
    assert events[0].type == "deal" and events[0].get("deal") == 1
