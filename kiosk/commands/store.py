"""``kiosk export``, ``kiosk import`` and ``kiosk sessions``: the event store
to and from table logs."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from kiosk.store import EventStore, StoreError, list_sessions
from kiosk.tablelog import LogFormatError

DEFAULT_STORE = "kiosk.sqlite3"


def register(sub: Any) -> None:
    p = sub.add_parser("export", help="write a stored game as a table log (JSON Lines)")
    p.add_argument("store", help="the event store file (.sqlite3)")
    p.add_argument("--session", type=int, help="session id (default: the last unfinished, else the last)")
    p.add_argument("--out", "-o", help="output file (default: stdout)")
    p.set_defaults(func=run_export)

    p = sub.add_parser("import", help="load a table log into an event store as a new game")
    p.add_argument("log", help="the table log (.jsonl)")
    p.add_argument("--store", default=DEFAULT_STORE, help=f"event store file (default: {DEFAULT_STORE})")
    p.set_defaults(func=run_import)

    p = sub.add_parser("sessions", help="list the games in an event store")
    p.add_argument("store", help="the event store file (.sqlite3)")
    p.set_defaults(func=run_sessions)


def _fail(cmd: str, message: str) -> int:
    print(f"kiosk {cmd}: {message}", file=sys.stderr)
    return 2


def run_export(args: argparse.Namespace) -> int:
    try:
        session = args.session
        if session is None:
            infos = list_sessions(args.store)
            if not infos:
                return _fail("export", f"{args.store}: the store holds no games")
            unfinished = [s for s in infos if not s.finished]
            session = (unfinished or infos)[-1].id
        with EventStore.open(args.store, session) as store:
            if args.out:
                _export_to(store, Path(args.out))
            else:
                store.export_table_log(sys.stdout)
    except StoreError as exc:
        return _fail("export", str(exc))
    except OSError as exc:
        why = exc.strerror or exc
        return _fail("export", f"cannot write {args.out} ({why}); choose a file you can write to")
    return 0


def _export_to(store: EventStore, out: Path) -> None:
    """Writes the log beside ``out`` and renames it over: a failed write leaves no half log (and
    an earlier export at ``out`` intact)."""
    part = out.with_name(out.name + ".part")
    try:
        with part.open("w", encoding="utf-8") as f:
            store.export_table_log(f)
        os.replace(part, out)
    except OSError:
        part.unlink(missing_ok=True)
        raise


def run_import(args: argparse.Namespace) -> int:
    path = Path(args.log)
    try:
        with path.open(encoding="utf-8") as f:
            store = EventStore.import_table_log(args.store, f)
    except FileNotFoundError:
        return _fail("import", f"{path}: no such file; check the path")
    except IsADirectoryError:
        return _fail("import", f"{path}: is a folder; give the table log file (.jsonl)")
    except UnicodeDecodeError:
        return _fail("import", f"{path}: not a text file (UTF-8 expected)")
    except LogFormatError as exc:
        return _fail("import", f"{path}: {exc}")
    except (StoreError, OSError) as exc:
        return _fail("import", str(exc))
    print(f"imported {len(store)} events into {args.store} as session {store.session_id}")
    store.close()
    return 0


def run_sessions(args: argparse.Namespace) -> int:
    try:
        infos = list_sessions(args.store)
    except StoreError as exc:
        return _fail("sessions", str(exc))
    for s in infos:
        state = "finished" if s.finished else "unfinished"
        print(f"{s.id:4d}  {s.game:11s} {s.events:7d} events  {state:10s}  {', '.join(s.seats)}")
    return 0
