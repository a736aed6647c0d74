"""``kiosk bridge`` with numbers it cannot use: one line and status 2 before any board is started
(nan seconds or drift were a traceback, a negative jitter ran an emulated board that lost its link)."""

from __future__ import annotations

import pytest

from kiosk.__main__ import main


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seconds", "nan"], "--seconds must be a number >= 0"),
        (["--seconds", "-1"], "--seconds must be a number >= 0"),
        (["--every", "inf"], "--every one > 0"),
        (["--drift-ppm", "nan"], "--drift-ppm must be within"),
        (["--drift-ppm", "1e9"], "--drift-ppm must be within"),
        (["--jitter-us", "-5"], "--jitter-us zero or more"),
    ],
)
def test_bad_numbers_are_one_line(capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    status = main(["bridge", "--emulate", "--seconds", "0.1", *extra])
    captured = capsys.readouterr()
    assert status == 2 and message in captured.err and "Traceback" not in captured.err
    assert "emulated board on" not in captured.out
