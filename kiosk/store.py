"""The event store: an append-only SQLite log of every session at the table.

The event log is the record of truth (DESIGN.md): every event is committed
here *before* the referee applies it, one transaction per event, in WAL mode
with ``synchronous=FULL`` so a power cut loses at most the event being
written. Reopening a store and re-folding its events rebuilds the game exactly
(see :mod:`kiosk.session`).

One database file holds many sessions (games); :meth:`EventStore.open`
returns the last unfinished one, which is how the kiosk resumes after a crash.

>>> import tempfile, os
>>> from kiosk.games.referee import LogHeader, TableEvent
>>> path = os.path.join(tempfile.mkdtemp(), "kiosk.sqlite3")
>>> store = EventStore.create(path, LogHeader("nerts", ("Ana", "Ben")))
>>> store.append(TableEvent("call", 12_480_000_000, seat="Ana"))
1
>>> store.close()
>>> again = EventStore.open(path)
>>> again.header.seats, [e.type for e in again.events()]
(('Ana', 'Ben'), ['call'])
>>> again.close()
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import replay_events
from kiosk.tablelog import parse_table_log, write_table_log

__all__ = ["EventStore", "StoreError", "SessionInfo", "list_sessions"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    header TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    session INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    t_ns INTEGER NOT NULL,
    err_ns INTEGER NOT NULL,
    type TEXT NOT NULL,
    seat TEXT,
    data TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
"""


class StoreError(OSError):
    """The event store cannot be opened or read; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One session (game) in a store file."""

    id: int
    game: str
    seats: tuple[str, ...]
    events: int
    finished: bool


def _connect(path: str | Path) -> sqlite3.Connection:
    p = Path(path)
    if p.exists() and p.is_dir():
        raise StoreError(f"{p}: is a directory; give the path of the event store file")
    if not p.parent.exists():
        raise StoreError(f"{p}: folder {p.parent} does not exist; create it or choose another --store path")
    try:
        conn = sqlite3.connect(str(p), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(_SCHEMA)
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{p}: not a kiosk event store ({exc}); move it aside to start a new one, "
            "or restore it from a table log with 'kiosk import'"
        ) from None
    return conn


def _refuse_empty(p: Path) -> None:
    """Reading an empty file must not turn it into a store: it is a mistyped path or a copy cut short."""
    if p.is_file() and p.stat().st_size == 0:
        raise StoreError(
            f"{p}: the file is empty, not an event store; check the --store path "
            "(a game started with 'kiosk run' creates the store)"
        )


def _damaged(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    """A store whose file broke after it was opened (a disk fault, a copy cut short)."""
    return StoreError(
        f"{path}: the event store is damaged ({exc}); move it aside to start a new one "
        f"('sqlite3 {path} .recover' saves what is still readable)"
    )


def _last_unfinished(conn: sqlite3.Connection, path: Path) -> Any:
    try:
        return conn.execute("SELECT id FROM sessions WHERE finished = 0 ORDER BY id DESC LIMIT 1").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _damaged(path, exc) from None


def _header_from_json(text: str) -> LogHeader:
    obj = json.loads(text)
    return LogHeader(
        obj["game"], tuple(obj["seats"]), obj.get("options", {}), obj.get("table_log", 1),
        {k: v for k, v in obj.items() if k not in ("game", "seats", "options", "table_log")},
    )


class EventStore:
    """One session of a store file, open for appending.

    Use :meth:`create` for a new game and :meth:`open` to resume one.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, session_id: int) -> None:
        self._conn = conn
        self.path = path
        self.session_id = session_id
        try:
            row = conn.execute("SELECT header FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise StoreError(f"{path}: no session {session_id}")
            self.header: LogHeader = _header_from_json(row[0])
            (n,) = conn.execute("SELECT COUNT(*) FROM events WHERE session = ?", (session_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            raise _damaged(path, exc) from None
        self._next_seq = int(n) + 1

    @classmethod
    def create(cls, path: str | Path, header: LogHeader) -> EventStore:
        """Starts a new session (game) in the store at ``path`` (created if missing)."""
        conn = _connect(path)
        cur = conn.execute(
            "INSERT INTO sessions (header) VALUES (?)", (json.dumps(header.to_json(), ensure_ascii=False),)
        )
        assert cur.lastrowid is not None
        return cls(conn, Path(path), int(cur.lastrowid))

    @classmethod
    def open(cls, path: str | Path, session: int | None = None) -> EventStore:
        """Opens a session to resume it: ``session`` by id, or the last unfinished one.

        Raises StoreError when the file is missing or holds no such session.
        """
        p = Path(path)
        if not p.exists():
            raise StoreError(f"{p}: no event store here; start a game to create one")
        _refuse_empty(p)
        conn = _connect(p)
        if session is None:
            row = _last_unfinished(conn, p)
            if row is None:
                conn.close()
                raise StoreError(f"{p}: no unfinished game to resume")
            session = int(row[0])
        return cls(conn, p, session)

    @classmethod
    def open_last_unfinished(cls, path: str | Path) -> EventStore | None:
        """The last unfinished session, or None when there is none (or no file yet).

        Raises StoreError when the file exists but is not an event store.
        """
        if not Path(path).exists():
            return None
        conn = _connect(path)
        row = _last_unfinished(conn, Path(path))
        if row is None:
            conn.close()
            return None
        return cls(conn, Path(path), int(row[0]))

    def append(self, event: TableEvent) -> int:
        """Appends one event and commits it; returns its sequence number (1-based)."""
        seq = self._next_seq
        try:
            self._conn.execute(
                "INSERT INTO events (session, seq, t_ns, err_ns, type, seat, data) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.session_id, seq, event.t_ns, event.err_ns, event.type, event.seat,
                 json.dumps(dict(event.data), ensure_ascii=False, default=_stored_number)),
            )
        except sqlite3.DatabaseError as exc:
            # A full disk or a failing card: the event is not in the store, so it must not be refereed.
            raise StoreError(f"{self.path}: cannot save the event ({exc}); free space on its drive") from None
        self._next_seq += 1
        return seq

    def remove_last(self, seq: int) -> None:
        """Removes the event ``seq`` if it is the last one (an event the referee
        rejected as malformed right after it was written)."""
        if seq != self._next_seq - 1:
            raise StoreError(f"event {seq} is not the last event of session {self.session_id}")
        self._conn.execute("DELETE FROM events WHERE session = ? AND seq = ?", (self.session_id, seq))
        self._next_seq -= 1

    def events(self) -> list[TableEvent]:
        """Every event of this session, in order."""
        try:
            rows = self._conn.execute(
                "SELECT seq, t_ns, err_ns, type, seat, data FROM events WHERE session = ? ORDER BY seq",
                (self.session_id,),
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _damaged(self.path, exc) from None
        # ``line`` is where the event stands in this session's exported table log
        # (the header is line 1), so infractions point into what `kiosk export` writes.
        return [TableEvent(r[3], int(r[1]), int(r[2]), r[4], json.loads(r[5]), int(r[0]) + 1) for r in rows]

    def __len__(self) -> int:
        return self._next_seq - 1

    def mark_finished(self) -> None:
        """Marks the game over, so the kiosk does not resume it."""
        self._conn.execute("UPDATE sessions SET finished = 1 WHERE id = ?", (self.session_id,))

    def export_table_log(self, out: IO[str]) -> None:
        """Writes this session as a table log (JSON Lines)."""
        write_table_log(out, self.header, self.events())

    @classmethod
    def import_table_log(cls, path: str | Path, lines: Iterable[str]) -> EventStore:
        """Creates a new session in the store at ``path`` from table-log lines.

        Raises LogFormatError for a malformed log (nothing is written then): one the parser
        rejects, or one the referee cannot fold (an unknown game, a seat or event type it does not
        know), which the kiosk could not resume. A finished game is stored as finished.
        """
        header, events = parse_table_log(lines)
        finished = replay_events(header, events).finished
        store = cls.create(path, header)
        store._conn.execute("BEGIN")
        try:
            for e in events:
                store.append(e)
            if finished:
                store.mark_finished()
        except BaseException:
            store._conn.execute("ROLLBACK")
            raise
        store._conn.execute("COMMIT")
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def list_sessions(path: str | Path) -> list[SessionInfo]:
    """Lists the sessions in a store file, oldest first."""
    p = Path(path)
    if not p.exists():
        raise StoreError(f"{p}: no event store here")
    _refuse_empty(p)
    conn = _connect(p)
    try:
        out = []
        for sid, header, finished in conn.execute("SELECT id, header, finished FROM sessions ORDER BY id"):
            h = _header_from_json(header)
            (n,) = conn.execute("SELECT COUNT(*) FROM events WHERE session = ?", (sid,)).fetchone()
            out.append(SessionInfo(int(sid), h.game, h.seats, int(n), bool(finished)))
        return out
    except sqlite3.DatabaseError as exc:
        raise _damaged(p, exc) from None
    finally:
        conn.close()


def _stored_number(value: Any) -> float:
    """A Decimal in an event's data (a time read exactly from a log, ``t_lift``) as the JSON number the
    store keeps: a float, exact to the nanosecond for any session the kiosk runs (under about 97 days)."""
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")
