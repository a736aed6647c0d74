"""The event store: one commit per event, resume, export and import."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.store import EventStore, StoreError, list_sessions
from kiosk.tablelog import LogFormatError, parse_table_log

HEADER = LogHeader("nerts", ("Ana", "Ben"), {"tie_window_ms": 30})


def test_each_event_is_committed_when_appended(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = EventStore.create(path, HEADER)
    store.append(TableEvent("note", 1_000, data={"text": "hi"}))
    # A second connection (another process after a crash) sees it at once.
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM events").fetchone() == (1,)
    assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    other.close()
    store.close()


def test_open_resumes_the_last_unfinished_session(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    first = EventStore.create(path, HEADER)
    first.append(TableEvent("note", 1))
    first.mark_finished()
    second = EventStore.create(path, LogHeader("kierki", ("N", "E", "S", "W")))
    second.append(TableEvent("note", 5, data={"text": "deal"}))
    first.close()
    second.close()
    resumed = EventStore.open(path)
    assert resumed.header.game == "kierki"
    assert [e.t_ns for e in resumed.events()] == [5]
    assert len(resumed) == 1
    resumed.close()
    assert [(s.game, s.events, s.finished) for s in list_sessions(path)] == [
        ("nerts", 1, True), ("kierki", 1, False)]


def test_no_unfinished_session_is_none_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    assert EventStore.open_last_unfinished(path) is None
    s = EventStore.create(path, HEADER)
    s.mark_finished()
    s.close()
    assert EventStore.open_last_unfinished(path) is None
    with pytest.raises(StoreError, match="no unfinished game"):
        EventStore.open(path)


def test_a_file_that_is_not_a_store_gets_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.sqlite3"
    bogus.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a kiosk event store"):
        EventStore.open(bogus)
    with pytest.raises(StoreError, match="does not exist"):
        EventStore.create(tmp_path / "no" / "such" / "dir.sqlite3", HEADER)


def test_export_and_import_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = EventStore.create(path, HEADER)
    events = [TableEvent("call", 45_300_000_000, 2_000_000, "Ana"), TableEvent("note", 46_000_000_001)]
    for e in events:
        store.append(e)
    buf = io.StringIO()
    store.export_table_log(buf)
    store.close()
    header, parsed = parse_table_log(buf.getvalue().splitlines())
    assert header == HEADER and parsed == events
    imported = EventStore.import_table_log(tmp_path / "other.sqlite3", buf.getvalue().splitlines())
    assert imported.events() == events
    imported.close()


def test_import_of_a_malformed_log_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    lines = ['{"table_log": 1, "game": "nerts", "seats": ["Ana"]}', '{"t": 1, "type": "note"}', "{oops"]
    with pytest.raises(LogFormatError, match="line 3"):
        EventStore.import_table_log(path, lines)
    assert not path.exists() or list_sessions(path) == []
