"""``kiosk simulate GAME --seed N --out DIR``: a simulated overhead video of bots playing, with its truth.

Writes the video (or image sequence), ``frames.jsonl`` (sensor timestamps and rolling-shutter
row time), ``table.json`` and ``truth.jsonl`` (the ground-truth table log) into DIR; see
:mod:`vision.simulator.output`. User errors print one line and exit 2.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from pathlib import Path
from typing import Any

SIMULATED_GAMES = ("nerts", "smear", "kierki", "rummy_3_13", "gnoming")
MAX_WIDTH, MAX_HEIGHT = 7680, 4320
"""The largest frame rendered (8K): beyond it a frame's buffers alone outgrow memory."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="render a simulated overhead video of bots playing, with its ground-truth table log",
        description="Bots play one hand; the table simulator renders what an overhead camera would see "
        "(markers, layouts, cards sliding in, arms, light and sensor noise) with a rolling or global "
        "shutter, and writes the video, its frame times and the ground-truth table log into DIR.",
    )
    p.add_argument("game", help=f"the game to simulate ({', '.join(SIMULATED_GAMES)})")
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the deal, the bots and the rendering (default 0)"
    )
    p.add_argument("--out", required=True, help="output folder (created if needed)")
    p.add_argument(
        "--seats", default="Ana,Ben,Cal,Dee", help="seat names in table order, 2-4 (default %(default)s)"
    )
    p.add_argument("--fps", type=float, default=60.0, help="frame rate (default 60)")
    p.add_argument("--resolution", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    p.add_argument("--shutter", choices=("rolling", "global"), default="rolling", help="default rolling")
    p.add_argument("--readout-ms", type=float, default=12.0, help="rolling-shutter readout time (default 12)")
    p.add_argument("--exposure-ms", type=float, default=4.0, help="exposure time (default 4)")
    p.add_argument(
        "--format",
        choices=("mp4", "avi", "png", "jpg"),
        default="mp4",
        help="mp4 (MPEG-4), avi (Motion-JPEG), or a png/jpg image sequence (default mp4)",
    )
    p.add_argument(
        "--seconds", type=float, default=None, help="stop after this many seconds (default: the hand)"
    )
    p.add_argument(
        "--designs",
        choices=("heldout", "train"),
        default="heldout",
        help="card designs: held out of the recognizer's training (default) or trained on",
    )
    p.add_argument(
        "--surface", choices=("felt", "wood", "cloth"), default="felt", help="the mat (default felt)"
    )
    p.add_argument(
        "--hand-size",
        type=int,
        default=7,
        help="rummy_3_13: the cards in the hand played (3 to 13; default 7)",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=12,
        help="kierki: the deals of the match to play, from the first (default 12: the whole match, "
        "about 19 minutes of play; 1 for a quick one)",
    )
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"kiosk simulate: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    game = args.game.strip().lower()
    if game not in SIMULATED_GAMES:
        return _fail(f"no table simulator for {args.game!r} yet (available: {', '.join(SIMULATED_GAMES)})")
    m = re.fullmatch(r"(\d+)x(\d+)", args.resolution.strip())
    if not m:
        return _fail(f"--resolution must be WIDTHxHEIGHT such as 1280x720, got {args.resolution!r}")
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    if not 2 <= len(seats) <= 4 or len(set(seats)) != len(seats):
        return _fail(f"--seats needs 2 to 4 different names, got {args.seats!r}")
    if args.seconds is not None and not 0 < args.seconds < math.inf:
        return _fail("--seconds must be positive")
    width, height = int(m.group(1)), int(m.group(2))
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        return _fail(f"--resolution must be at most {MAX_WIDTH}x{MAX_HEIGHT}, got {args.resolution!r}")
    rates = (("--fps", args.fps), ("--readout-ms", args.readout_ms), ("--exposure-ms", args.exposure_ms))
    for flag, value in rates:
        # nan passes every range check below and fails deep in the renderer.
        if not 0 <= value < math.inf:
            return _fail(f"{flag} must be a finite number, zero or more, got {value}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out} is a file; give a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _fail(f"--out {out}: cannot make this folder ({exc.strerror}); choose another")
    from vision.simulator.camera import CameraModel
    from vision.simulator.nerts import ground_truth_log, simulate_nerts
    from vision.simulator.output import Filmed, write_simulation
    from vision.simulator.render import TableRenderer

    try:
        camera = CameraModel(
            width=width,
            height=height,
            fps=args.fps,
            shutter=args.shutter,
            readout_ms=args.readout_ms,
            exposure_ms=args.exposure_ms,
        )
    except ValueError as exc:
        return _fail(str(exc))
    scene: Filmed
    if game == "rummy_3_13":
        from vision.simulator.rummy import simulate_rummy

        if not 3 <= args.hand_size <= 13:
            return _fail(f"--hand-size must be 3 to 13, got {args.hand_size}")
        hand = simulate_rummy(args.seed, seats=seats, split=args.designs, hand_size=args.hand_size)
        scene, truth = hand.scene, (hand.header, hand.events)
    elif game == "gnoming":
        from vision.simulator.gnoming import simulate_gnoming

        rnd = simulate_gnoming(args.seed, seats=seats, split=args.designs)
        scene, truth = rnd.scene, (rnd.header, rnd.events)
    elif game in ("smear", "kierki"):
        from vision.simulator.tricks import simulate_kierki, simulate_smear

        if len(seats) != 4:
            return _fail(f"{game} is played by four seats, got {len(seats)}")
        if game == "smear":
            tricks = simulate_smear(args.seed, seats=seats, split=args.designs)
        else:
            if not 1 <= args.deals <= 12:
                return _fail(f"--deals must be 1 to 12 (a Kierki match has 12 deals), got {args.deals}")
            tricks = simulate_kierki(args.seed, seats=seats, split=args.designs, deals=args.deals)
        scene, truth = tricks.scene, (tricks.header, tricks.events)
    else:
        from vision.simulator.audit import FilmedHand

        sim = simulate_nerts(args.seed, seats=seats, split=args.designs)
        header, events = ground_truth_log(sim)
        # The whole hand is followed by its end-of-hand audit (rules §12), as the kiosk films it.
        filmed = FilmedHand(sim, header, events, random.Random(args.seed + 2))
        scene, truth = filmed, (header, filmed.truth)
    renderer = TableRenderer(camera, surface=args.surface, rng=random.Random(args.seed + 1))

    def progress(n: int, total: int) -> None:
        print(f"\r{n}/{total} frames", end="", file=sys.stderr, flush=True)

    try:
        files = write_simulation(
            out,
            scene,
            renderer,
            game=game,
            truth=truth,
            fmt=args.format,
            seconds=args.seconds,
            seed=args.seed,
            progress=progress,
        )
    except OSError as exc:
        return _fail(str(exc))
    print(file=sys.stderr)
    if files.interrupted:
        print(
            f"kiosk simulate: interrupted after {files.count} frames; {out} holds them with their frame "
            "times, the table and the ground truth (kiosk track reads it as it is)",
            file=sys.stderr,
        )
        return 130
    print(f"{files.count} frames ({files.count / camera.fps:.1f} s) -> {files.video}")
    print(f"frame times -> {files.frames}; table -> {files.table}; ground truth -> {files.truth}")
    return 0
