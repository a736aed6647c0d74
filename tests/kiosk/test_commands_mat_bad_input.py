"""``kiosk mat --seats`` with a number no mat takes: one line at once (a huge number made seat names
for ever; "²" passed isdigit() and was a traceback in int())."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.__main__ import main


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ("99999999999999999999", "on a mat (one per side), got 99999999999999999999"),
        ("5", "Nerts takes 2 to 4 seats on a mat (one per side), got 5"),
        ("²", "Nerts takes 2 to 4 seats on a mat (one per side), got 1"),  # a name, not a number
    ],
)
def test_a_seat_count_no_mat_takes_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: str, message: str
) -> None:
    status = main(["mat", "--game", "nerts", "--seats", seats, "--out", str(tmp_path / "mat")])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "mat").exists()
