"""``kiosk track`` with a bad ``table.json`` beside the frames or an --out it cannot write: one line,
status 2, before the recognizer runs (a mat size of the wrong type was a traceback, seats given as
a string were split into one seat a letter, and --out under a file failed only after tracking)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from kiosk.__main__ import main


def _frames_folder(tmp_path: Path, table: Any) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame-0000.png"), np.full((48, 64, 3), 90, np.uint8))
    (folder / "table.json").write_text(json.dumps(table), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"seats": "Ana"}, "'seats' must be a list of seat names, got 'Ana'; fix it or give --seats"),
        ({"seats": ["Ana", 5]}, "'seats' must be a list of seat names"),
        ({"mat": {"width_mm": "big"}}, "'mat' key 'width_mm' must be a positive number of millimetres"),
        ({"mat": {"height_mm": -5}}, "'mat' key 'height_mm' must be a positive number"),
        ({"mat": [1560, 878]}, "'mat' must be an object of sizes in millimetres"),
    ],
)
def test_a_table_file_with_wrong_types_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: Any, message: str
) -> None:
    folder = _frames_folder(tmp_path, table)
    out = tmp_path / "log.jsonl"
    status = main(["track", str(folder), "--fps", "30", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err[-1].startswith(f"kiosk track: {folder / 'table.json'}: ") and message in err[-1]
    assert "Traceback" not in "\n".join(err) and not out.exists()


def test_out_under_a_file_is_refused_before_tracking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _frames_folder(tmp_path, {})
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    status = main(["track", str(folder), "--fps", "30", "--out", str(tmp_path / "a_file" / "log.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and "--out: folder" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--fps", "nan"], "--fps must be a positive frame rate, got nan"),
        (["--fps", "0"], "--fps must be a positive frame rate"),
        (["--readout-ms", "nan"], "--readout-ms must be a finite number, zero or more"),
        (["--readout-ms", "-5"], "--readout-ms must be a finite number, zero or more"),
        (["--timestamps", "{tmp}/missing.jsonl"], "no such file; give the frames.jsonl of the video"),
        (["--timestamps", "{tmp}/binary.jsonl"], "binary.jsonl: not a text file (frame times"),
    ],
)
def test_bad_rates_and_frame_times_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    # nan rates were a traceback deep in the frame stamping; --fps 0 was taken as "unknown".
    folder = _frames_folder(tmp_path, {})
    (tmp_path / "binary.jsonl").write_bytes(b"\x80\x81\xfe binary")
    extra = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    status = main(["track", str(folder), "--out", str(tmp_path / "log.jsonl"), *extra])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
