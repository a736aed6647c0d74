"""Table logs as users hand them in: one saved by Windows Notepad (a byte order mark before the
header) is read, not refused as "not valid JSON at column 1"; a time of 1e999 s (finite to Decimal)
is refused naming its line, not replayed as ``inf s``."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.tablelog import LogFormatError, parse_table_log, read_table_log

HEADER = '{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {}}'


def test_a_log_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notepad.jsonl"
    path.write_text(HEADER + '\n{"t": 1.5, "type": "call", "seat": "Ana"}\n', encoding="utf-8-sig")
    header, events = read_table_log(path)
    assert header.seats == ("Ana", "Ben") and events[0].t_ns == 1_500_000_000
    assert main(["replay", str(path)]) == 0
    assert "Ana: Nerts!" in capsys.readouterr().out


def test_a_byte_order_mark_is_only_skipped_at_the_start() -> None:
    with pytest.raises(LogFormatError, match="line 2: not valid JSON"):
        parse_table_log([HEADER, '\ufeff{"t": 1, "type": "call", "seat": "Ana"}'])


@pytest.mark.parametrize("field", ['"t": 1e999', '"t": -1e999', '"t": 1, "err": 1e999'])
def test_a_time_no_session_reaches_is_refused_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(HEADER + "\n{" + field + ', "type": "call", "seat": "Ana"}\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "line 2: 't' and 'err' must be seconds from the session start" in capsys.readouterr().err


def test_the_file_and_the_problem_are_separated_by_a_space(tmp_path: Path) -> None:
    # Read as "log.jsonl:not a text file" before; every command prints this message as it is.
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\x80\x81 binary")
    with pytest.raises(LogFormatError) as caught:
        read_table_log(path)
    assert str(caught.value) == f"{path}: not a text file (UTF-8 expected)"
    path.write_text(HEADER + "\n{oops\n", encoding="utf-8")
    with pytest.raises(LogFormatError, match=f"^{path}: line 2: not valid JSON"):
        read_table_log(path)
