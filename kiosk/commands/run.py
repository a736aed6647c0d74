"""``kiosk run``: the kiosk on screen; by default a simulated table.

Builds the one :class:`~kiosk.config.KioskConfig` from the TOML file
(``--config``) and the options given here, then runs the app. With
``--headless`` it uses SDL's dummy drivers, writes screenshots every few
seconds (``--screenshot-dir``) and a text log, and stops after ``--frames``
or ``--duration``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kiosk.config import ConfigError, load_config

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run the kiosk (default: a simulated table refereed on screen)",
        description="Runs the kiosk. With no options it shows a simulated Nerts table being refereed; "
        "the last unfinished game in the event store is resumed where it was.",
    )
    p.add_argument("--config", metavar="FILE", help="a TOML config file (see kiosk/config.py for the keys)")
    p.add_argument("--game", help="the game offered first (nerts, kierki, smear, rummy_3_13, gnoming)")
    p.add_argument("--seed", type=int, help="seed of the simulated table")
    p.add_argument(
        "--camera",
        metavar="SOURCE",
        help="simulator (default), replay:LOG.jsonl, picamera2, usb:N, or a video file or URL",
    )
    p.add_argument(
        "--perfect-vision",
        action="store_true",
        default=None,
        help="simulated table: the simulator's own sightings instead of the card recognizer",
    )
    p.add_argument("--store", metavar="PATH", help="the SQLite event store (default: user data folder)")
    p.add_argument("--display", metavar="WxH", help="window size: 800x480, 1920x1080, 720x1280, ...")
    p.add_argument("--fullscreen", action="store_true", default=None, help="take the whole screen")
    p.add_argument("--four-colour", action="store_true", default=None, help="four-colour suits")
    p.add_argument("--mute", action="store_true", default=None, help="start with sound off")
    p.add_argument("--headless", action="store_true", default=None, help="no window, no sound (SDL dummy)")
    p.add_argument("--frames", type=int, help="stop after N passes of the loop (one every 20 ms at most)")
    p.add_argument("--duration", type=float, help="stop after this many seconds")
    p.add_argument("--pace", type=float, help="speed of a replayed or simulated table (1 = real time)")
    p.add_argument("--screenshot", metavar="PNG", help="save the last frame here when stopping")
    p.add_argument("--screenshot-dir", metavar="DIR", help="save a screenshot here every few seconds")
    p.add_argument("--text-log", metavar="FILE", help="append rulings and banners to this text file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kiosk.app.runner import KioskStartError, run_kiosk

    try:
        config = load_config(
            args.config,
            game=args.game,
            seed=args.seed,
            camera=args.camera,
            perfect_vision=args.perfect_vision,
            store=args.store,
            display=args.display,
            fullscreen=args.fullscreen,
            four_colour_deck=args.four_colour,
            muted=args.mute,
            headless=args.headless,
            frames=args.frames,
            duration_s=args.duration,
            pace=args.pace,
            screenshot=args.screenshot,
            screenshot_dir=args.screenshot_dir,
            text_log=args.text_log,
        )
        result = run_kiosk(config)
    except (ConfigError, KioskStartError) as exc:
        print(f"kiosk run: {exc}", file=sys.stderr)
        return 2
    if result.headless:
        totals = ", ".join(f"{s} {t}" for s, t in result.totals.items()) or "no scores"
        state = "game over" if result.finished else "game not finished"
        print(f"kiosk run: {result.frames} frames, {result.rulings} rulings, {state}; totals: {totals}")
        for shot in result.screenshots:
            print(f"screenshot: {shot}")
    return 0
