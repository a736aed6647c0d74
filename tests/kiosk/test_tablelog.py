"""The table log: exact times, round trips, and clear errors naming the line."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.referee import LogHeader, TableEvent, format_seconds
from kiosk.tablelog import (
    LogFormatError,
    dump_event,
    parse_event,
    parse_table_log,
    read_table_log,
    seconds_to_ns,
    write_table_log,
)

HEADER = '{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {"tie_window_ms": 30}}'


def test_times_are_exact_nanoseconds_not_floats() -> None:
    # 0.1 + 0.2 style float error would make 12.48 - 12.45 != 0.03 exactly.
    _, events = parse_table_log([HEADER, '{"t": 12.45, "type": "note"}', '{"t": 12.48, "type": "note"}'])
    assert events[1].t_ns - events[0].t_ns == 30_000_000


@given(st.integers(-(10**15), 10**15))
def test_format_and_parse_seconds_round_trip(t_ns: int) -> None:
    assert seconds_to_ns(Decimal(format_seconds(t_ns))) == t_ns


@given(
    st.integers(0, 10**13),
    st.integers(0, 10**9),
    st.sampled_from([None, "Ana", "Ben"]),
    st.dictionaries(
        st.sampled_from(["card", "pile", "count"]), st.one_of(st.integers(-5, 60), st.text(max_size=4))
    ),
)
def test_event_lines_round_trip(t_ns: int, err_ns: int, seat: str | None, data: dict[str, object]) -> None:
    event = TableEvent("play", t_ns, err_ns, seat, data)
    assert parse_event(dump_event(event), 2) == event


def test_write_then_read_gives_the_same_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    header = LogHeader("nerts", ("Ana", "Ben"), {"tie_window_ms": 30})
    events = [TableEvent("call", 45_300_000_000, 2_000_000, "Ana"), TableEvent("note", 46_000_000_000,
                                                                              data={"text": "fin"})]
    buf = io.StringIO()
    write_table_log(buf, header, events)
    path = tmp_path / "game.jsonl"
    path.write_text(buf.getvalue())
    h2, e2 = read_table_log(path)
    assert h2 == header and e2 == events


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        ([HEADER, '{"t": 1, "type": "note"'], 2, "not valid JSON"),
        ([HEADER, "[1, 2]"], 2, "expected a JSON object"),
        ([HEADER, '{"type": "note"}'], 2, "needs a time 't'"),
        ([HEADER, '{"t": "soon", "type": "note"}'], 2, "number of seconds"),
        ([HEADER, '{"t": 1, "err": -0.1, "type": "note"}'], 2, "must not be negative"),
        ([HEADER, '{"t": 1}'], 2, "needs a 'type'"),
        ([HEADER, HEADER], 2, "second header"),
        (['{"t": 1, "type": "note"}'], 1, "first line must be the header"),
        (['{"table_log": 2, "game": "nerts", "seats": ["A"]}'], 1, "unsupported table_log version"),
        (['{"table_log": 1, "game": "nerts", "seats": []}'], 1, "seats"),
        (['{"table_log": 1, "game": "nerts", "seats": ["A", "A"]}'], 1, "must differ"),
    ],
)
def test_malformed_lines_name_line_and_problem(lines: list[str], line: int, problem: str) -> None:
    with pytest.raises(LogFormatError, match=problem) as info:
        parse_table_log(lines)
    assert info.value.line == line
    assert f"line {line}" in str(info.value)


def test_empty_and_missing_files_are_clear(tmp_path) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n# only a comment\n")
    with pytest.raises(LogFormatError, match="empty"):
        read_table_log(empty)
    with pytest.raises(LogFormatError, match="no such file"):
        read_table_log(tmp_path / "missing.jsonl")
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\xff")
    with pytest.raises(LogFormatError, match="not a text file"):
        read_table_log(binary)
