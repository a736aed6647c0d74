"""``kiosk simulate`` and ``kiosk track``: files written, and one clear line with status 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.tablelog import read_table_log


def need_recognizer() -> None:
    """Skips a test that reads frames when this build has no recognizer model installed."""
    pytest.importorskip("onnxruntime")
    from vision.errors import ModelError
    from vision.recognizer import Recognizer

    try:
        Recognizer.load_for_video()
    except ModelError:
        pytest.skip("no recognizer model installed")


def test_simulate_writes_video_times_table_and_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    status = main(
        [
            "simulate",
            "nerts",
            "--seed",
            "3",
            "--out",
            str(out),
            "--seconds",
            "0.4",
            "--resolution",
            "320x180",
            "--fps",
            "30",
            "--format",
            "png",
        ]
    )
    assert status == 0
    frames = sorted((out / "frames").glob("*.png"))
    times = [json.loads(line) for line in (out / "frames.jsonl").read_text().splitlines()]
    assert len(frames) == len(times) >= 12
    assert all(b["t_ns"] > a["t_ns"] for a, b in zip(times, times[1:], strict=False))
    header, events = read_table_log(out / "truth.jsonl")
    assert header.seats == ("Ana", "Ben", "Cal", "Dee") and events[0].type == "hand_start"
    assert "frames" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "chess", "--out", "{tmp}/x"], "no table simulator for 'chess'"),
        (
            ["simulate", "nerts", "--out", "{tmp}/x", "--resolution", "big"],
            "--resolution must be WIDTHxHEIGHT",
        ),
        (["simulate", "nerts", "--out", "{tmp}/x", "--seats", "Ana"], "--seats needs 2 to 4"),
        (["track", "{tmp}/missing.mp4", "--out", "{tmp}/log.jsonl"], "no such file or folder"),
        (["track", "{tmp}/garbage.mp4", "--out", "{tmp}/log.jsonl"], "cannot be read as a video"),
        (["track", "{tmp}/empty", "--out", "{tmp}/log.jsonl"], "holds no video and no .png/.jpg frames"),
        (["track", "{tmp}/garbage.mp4", "--out", "{tmp}/nowhere/log.jsonl"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (tmp_path / "garbage.mp4").write_bytes(b"not a video at all")
    (tmp_path / "empty").mkdir()
    status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert message in err[-1] and err[-1].startswith("kiosk ")
    assert "Traceback" not in "\n".join(err)


def test_track_a_simulated_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    need_recognizer()
    sim = tmp_path / "sim"
    assert (
        main(
            [
                "simulate",
                "nerts",
                "--seed",
                "1",
                "--out",
                str(sim),
                "--seconds",
                "0.5",
                "--fps",
                "20",
                "--format",
                "png",
            ]
        )
        == 0
    )
    log = tmp_path / "log.jsonl"
    assert main(["track", str(sim), "--out", str(log)]) == 0
    header, events = read_table_log(log)
    assert header.seats == ("Ana", "Ben", "Cal", "Dee")
    assert events[0].type == "hand_start" and events[-1].type == "hand_end"
    assert "calibration from markers [0, 1, 2, 3]" in capsys.readouterr().out


@pytest.mark.slow
def test_a_whole_simulated_hand_is_tracked_and_scored_by_its_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kiosk simulate nerts`` films a whole hand and its end-of-hand audit; ``kiosk track`` with the
    hand's buttons (the call among them) follows the play, counts the audit after the call, and the
    log it writes referees to the hand's true scores, at a Raspberry Pi camera's 10 fps."""
    from kiosk.replay import replay_events

    need_recognizer()
    sim = tmp_path / "sim"
    argv = ["simulate", "nerts", "--seed", "5", "--out", str(sim), "--fps", "10", "--format", "avi"]
    assert main(argv) == 0
    truth_header, truth = read_table_log(sim / "truth.jsonl")
    counts = [e for e in truth if e.type == "count"]
    assert len(counts) == 4 and max(e.t_ns for e in truth) == counts[0].t_ns, "scored after the audit"
    log = tmp_path / "log.jsonl"
    assert main(["track", str(sim), "--buttons", str(sim / "truth.jsonl"), "--out", str(log)]) == 0
    assert "audit (foundation+Nerts)" in capsys.readouterr().out
    header, events = read_table_log(log)
    tracked = {e.seat: (e.get("foundation"), e.get("nerts")) for e in events if e.type == "count"}
    assert tracked == {e.seat: (e.get("foundation"), e.get("nerts")) for e in counts}
    assert any(e.type == "foundation_play" for e in events)
    assert replay_events(header, events).hands == replay_events(truth_header, truth).hands
