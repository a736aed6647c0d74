"""The ``kiosk`` command line.

Each subcommand lives in its own module under :mod:`kiosk.commands` with a
``register(subparsers)`` function; user errors print one clear line on
stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main", "COMMAND_MODULES"]

COMMAND_MODULES: tuple[str, ...] = (
    "kiosk.commands.replay",
    "kiosk.commands.store",
    "kiosk.commands.run",
    "kiosk.commands.demo",
    "kiosk.commands.recognize",
    "kiosk.commands.bridge",
    "kiosk.commands.simulate",
    "kiosk.commands.track",
    "kiosk.commands.mat",
)
"""Modules that add subcommands, in the order ``kiosk --help`` lists them."""


class UserError(Exception):
    """An error caused by input the user gave: printed as one line, exit 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kiosk",
        description="Card-table referee kiosk: referee real card games from an overhead camera.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    parser = build_parser()
    # ``kiosk`` alone runs the embedded default: ``kiosk run``.
    args = parser.parse_args(["run"] if not (sys.argv[1:] if argv is None else argv) else argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        # On a line of its own: a progress counter ("500/677 frames") may hold the cursor.
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
