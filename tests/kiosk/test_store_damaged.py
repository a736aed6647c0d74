"""A store that breaks under the kiosk: a file damaged after it was written (a failing SD card, a
copy cut short) is one line from every command, and a full disk during a game is a banner, with
the event neither saved nor refereed, instead of a traceback that ends the kiosk."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.session import Session
from kiosk.store import EventStore, StoreError
from tests.kiosk.app_support import make_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _damaged_store(tmp_path: Path) -> Path:
    store = tmp_path / "k.sqlite3"
    for name in ["kierki"] * 6 + ["nerts"]:
        lines = (EXAMPLES / f"{name}_example.jsonl").read_text(encoding="utf-8").splitlines()
        EventStore.import_table_log(store, lines).close()
    conn = sqlite3.connect(store)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = store.stat().st_size
    with store.open("r+b") as f:  # the header page is whole; the events' pages are not
        f.seek(size // 2)
        f.write(bytes(range(256)) * 32)
    return store


@pytest.mark.parametrize("command", [["sessions", "{store}"], ["export", "{store}"]])
def test_a_damaged_store_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    store = _damaged_store(tmp_path)
    assert main([a.replace("{store}", str(store)) for a in command]) == 2
    err = capsys.readouterr().err
    assert f"{store}: the event store is damaged" in err and ".recover" in err and "Traceback" not in err


def _fill_the_disk(store: EventStore) -> None:
    # SQLite's own cap on the file's pages: the next page it needs is refused as a full disk.
    (pages,) = store._conn.execute("PRAGMA page_count").fetchone()
    store._conn.execute(f"PRAGMA max_page_count = {pages}")


def _big_event(t_s: int) -> TableEvent:
    return TableEvent("note", t_s * 1_000_000_000, data={"text": os.urandom(3000).hex()})


def test_a_full_disk_neither_saves_nor_referees_the_event(tmp_path: Path) -> None:
    session = Session.start(tmp_path / "k.sqlite3", LogHeader("nerts", ("Ana", "Ben")))
    session.record(TableEvent("call", 1_000_000_000, seat="Ana"))
    _fill_the_disk(session.store)
    with pytest.raises(StoreError, match="cannot save the event .*full"):
        session.record(_big_event(2))
    assert len(session.store) == 1 and len(session.store.events()) == 1
    assert len(session.rulings) == 1, "the referee never saw the event"
    session.close()


def test_the_kiosk_shows_a_full_disk_and_carries_on(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.start_session(LogHeader("nerts", ("Ana", "Ben")))
    assert app.session is not None
    _fill_the_disk(app.session.store)
    assert app.record_event(_big_event(2)) == []
    assert app.banner is not None and app.banner.text.startswith("NOT SAVED: ")
    assert "full" in app.banner.text and len(app.session.store) == 0
