"""``kiosk replay LOG.jsonl [--json]``: re-referee a table log."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import format_report, replay_events
from kiosk.tablelog import LogFormatError, iter_table_log_file


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="re-referee a table log and print rulings, infractions and scores",
        description="Re-referees a table log (JSON Lines, see docs/table-log.md) and prints the "
        "rulings, infractions, per-hand and total scores.",
    )
    p.add_argument("log", help="the table log (.jsonl)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        # Each event is judged as its line is read, so the first malformed line in the file is the
        # one named (docs/table-log.md, Errors), not a later line the reader reached first.
        items = iter_table_log_file(args.log)
        header = next(items)
        assert isinstance(header, LogHeader)
        report = replay_events(header, (e for e in items if isinstance(e, TableEvent)))
    except LogFormatError as exc:
        where = exc.path or args.log
        print(f"kiosk replay: {where}: {str(exc).removeprefix(where + ':').strip()}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(format_report(report))
    return 0
