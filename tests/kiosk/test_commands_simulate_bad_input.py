"""``kiosk simulate`` with bad numbers or an --out it cannot make, and Ctrl-C while it renders: one
line and status 2 (nan and huge sizes were tracebacks deep in the renderer), and an interrupted run
leaves a consistent folder: every frame written has its time, and the table and truth are there."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from kiosk.tablelog import read_table_log
from vision.simulator import output


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--fps", "nan"], "--fps must be a finite number"),
        (["--exposure-ms", "nan"], "--exposure-ms must be a finite number"),
        (["--readout-ms", "-3"], "--readout-ms must be a finite number, zero or more"),
        (["--seconds", "nan"], "--seconds must be positive"),
        (["--resolution", "100000x100000"], "--resolution must be at most 7680x4320"),
    ],
)
def test_bad_numbers_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    status = main(["simulate", "nerts", "--out", str(tmp_path / "sim"), *extra])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err


def test_out_under_a_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    status = main(["simulate", "nerts", "--out", str(tmp_path / "a_file" / "sim"), "--seconds", "0.1"])
    err = capsys.readouterr().err
    assert status == 2 and "cannot make this folder" in err and "Traceback" not in err


@pytest.fixture
def ctrl_c_reaches_python() -> Iterator[None]:
    """Ctrl-C as at a terminal: Python's own SIGINT handler installed. A shell that starts the suite in
    the background (``pytest &`` without job control) hands it SIGINT ignored, and Python keeps that,
    so ``kiosk simulate`` rightly leaves the signal alone and a raised SIGINT does nothing."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("ctrl_c_reaches_python")
def test_ctrl_c_stops_at_a_whole_frame_and_still_writes_the_table_and_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write = output._Sink.write

    def write_then_ctrl_c(self: Any, n: int, frame: Any) -> None:
        write(self, n, frame)
        if n == 3:
            # Lands between the frame's image and its line in frames.jsonl, the worst moment.
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(output._Sink, "write", write_then_ctrl_c)
    sim = tmp_path / "sim"
    argv = ["simulate", "nerts", "--out", str(sim), "--resolution", "160x90", "--fps", "20", "--seconds", "2"]
    argv += ["--format", "png"]
    assert main(argv) == 130
    assert "interrupted after 4 frames" in capsys.readouterr().err
    times = [json.loads(line) for line in (sim / "frames.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(times) == len(list((sim / "frames").glob("*.png"))) == 4
    header, _ = read_table_log(sim / "truth.jsonl")
    table = json.loads((sim / "table.json").read_text(encoding="utf-8"))
    assert table["seats"] == list(header.seats) == ["Ana", "Ben", "Cal", "Dee"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
