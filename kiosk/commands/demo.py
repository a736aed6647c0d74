"""``kiosk demo GAME``: a game refereed on screen without a table.

Nerts is played by bots on the simulated table (what ``kiosk run`` shows by
default); the other games replay their worked example table log
(``examples/GAME_example.jsonl``) through the live app at real pace (``--pace``
speeds it up). Each demo keeps its own event store, so it never resumes a real
game.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from kiosk.config import ConfigError, load_config
from kiosk.games.errors import GameError
from kiosk.games.registry import GAME_NAMES, find_game

__all__ = ["register", "run", "example_log"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_log(game: str) -> Path:
    """The worked example table log of a game (in the source tree's ``examples/``)."""
    return EXAMPLES / f"{game}_example.jsonl"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="show a game refereed on screen (Nerts: the simulated table; others: their example log)",
        description="Shows a game refereed on screen without a table: Nerts is played by bots on the "
        "simulated table, the other games replay their worked example table log at real pace.",
    )
    p.add_argument("game", help=f"the game: {', '.join(GAME_NAMES)}")
    p.add_argument("--display", metavar="WxH", help="window size: 800x480, 1920x1080, 720x1280, ...")
    p.add_argument("--pace", type=float, help="speed (1 = real time)")
    p.add_argument("--four-colour", action="store_true", default=None, help="four-colour suits")
    p.add_argument("--mute", action="store_true", default=None, help="no sound")
    p.add_argument("--headless", action="store_true", default=None, help="no window, no sound (SDL dummy)")
    p.add_argument("--duration", type=float, help="stop after this many seconds")
    p.add_argument("--screenshot", metavar="PNG", help="save the last frame here when stopping")
    p.add_argument("--config", metavar="FILE", help="a TOML config file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kiosk.app.runner import KioskStartError, run_kiosk

    try:
        game = find_game(args.game).name
    except GameError as exc:
        print(f"kiosk demo: {exc}", file=sys.stderr)
        return 2
    camera = "simulator"
    if game != "nerts":
        log = example_log(game)
        if not log.exists():
            print(
                f"kiosk demo: no example log for {game} at {log} (it ships in the source tree's examples/)",
                file=sys.stderr,
            )
            return 2
        camera = f"replay:{log}"
    with tempfile.TemporaryDirectory(prefix="kiosk-demo-") as tmp:
        try:
            config = load_config(
                args.config,
                game=game,
                camera=camera,
                store=str(Path(tmp) / "demo.sqlite3"),
                display=args.display,
                pace=args.pace,
                four_colour_deck=args.four_colour,
                muted=args.mute,
                headless=args.headless,
                duration_s=args.duration,
                screenshot=args.screenshot,
            )
            result = run_kiosk(config)
        except (ConfigError, KioskStartError) as exc:
            print(f"kiosk demo: {exc}", file=sys.stderr)
            return 2
    if result.headless:
        totals = ", ".join(f"{s} {t}" for s, t in result.totals.items()) or "no scores"
        state = "game over" if result.finished else "game not finished"
        print(
            f"kiosk demo {game}: {result.frames} frames, {result.rulings} rulings, {state}; totals: {totals}"
        )
    return 0
