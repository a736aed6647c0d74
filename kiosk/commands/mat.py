"""``kiosk mat --game GAME --out DIR``: the printable table mat of a game, as a PDF and a PNG.

The mat carries the four ArUco markers the camera calibrates on and the game's layout (seat
zones, piles, shared areas; :mod:`vision.layout`) at true scale (:mod:`vision.mat`). The PDF
tiles it at 1:1 over A2, A3 or A4 sheets with cut marks and an assembly map; the PNG is the
whole mat in one image for a print shop (:mod:`vision.mat_print`). The mat's size defaults to
the ``[mat]`` table of the config file, the size ``kiosk run`` calibrates with. User errors
print one line and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "run"]

MAT_SIDES = 4
"""Seats a mat can take: one per side."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "mat",
        help="write the printable table mat of a game (PDF tiled on A2/A3/A4 sheets, and a PNG)",
        description="Writes the table mat the camera calibrates on: four ArUco markers at its corners "
        "and the zones of the game's layout, at true scale. The PDF tiles it at 100 % over paper sheets "
        "(print at actual size, trim, tape); the PNG is the whole mat in one image, its dpi in the name.",
    )
    p.add_argument(
        "--game", default=None, help="nerts, kierki, smear, rummy_3_13 or gnoming (default: config's)"
    )
    p.add_argument(
        "--seats",
        default="4",
        help="the number of seats (2 to 4), or their names in table order, comma-separated, clockwise from "
        "the bottom edge (default: 4)",
    )
    p.add_argument("--paper", default="A2", help="sheet size of the PDF: A2 (default), A3 or A4")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the PDF and PNG into")
    p.add_argument("--width-mm", type=float, default=None, help="mat width (default: [mat] or 1560)")
    p.add_argument("--height-mm", type=float, default=None, help="mat height (default: [mat] or 878)")
    p.add_argument("--dpi", type=float, default=150.0, help="resolution of the PDF's images (default 150)")
    p.add_argument("--png-dpi", type=float, default=None, help="resolution of the PNG (default: --dpi)")
    p.add_argument(
        "--background",
        default="green",
        help="green (felt-like, as the recognizer was trained on; default) or white (saves ink)",
    )
    p.add_argument("--config", metavar="FILE", help="a TOML config file: its [mat] size and game")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"kiosk mat: {message}", file=sys.stderr)
    return 2


def _seats(text: str) -> tuple[list[str], bool] | str:
    """Seat names and whether they were given, or the error message."""
    text = text.strip()
    if text.isdecimal():  # isdigit() takes "²", which int() refuses
        n = int(text)
        return [f"Seat {k + 1}" for k in range(n)], False
    names = [s.strip() for s in text.split(",")]
    if not all(names) or len(set(names)) != len(names):
        return f"--seats needs a number or different, non-empty names separated by commas, got {text!r}"
    return names, True


def run(args: argparse.Namespace) -> int:
    from kiosk.config import MAT_MAX_MM, MAT_MIN_MM, ConfigError, MatSettings, load_config
    from kiosk.games.errors import GameError
    from kiosk.games.registry import GAME_NAMES, find_game

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    try:
        game_cls = find_game(args.game or config.game)
    except GameError as exc:
        return _fail(str(exc))
    game = next(name for name in GAME_NAMES if find_game(name) is game_cls)
    low, high = game_cls.min_seats, min(game_cls.max_seats, MAT_SIDES)
    seats_range = f"{low} to {high} seats" if low < high else f"{low} seats"
    if args.seats.strip().isdecimal() and int(args.seats) > high:
        # Refused before the seat names are made: a huge number would make them for ever.
        return _fail(f"{game_cls.title} takes {seats_range} on a mat (one per side), got {int(args.seats)}")
    seats = _seats(args.seats)
    if isinstance(seats, str):
        return _fail(seats)
    names, named = seats
    if not low <= len(names) <= high:
        return _fail(f"{game_cls.title} takes {seats_range} on a mat (one per side), got {len(names)}")
    base = config.mat_settings
    size = MatSettings(
        args.width_mm if args.width_mm is not None else base.width_mm,
        args.height_mm if args.height_mm is not None else base.height_mm,
    )
    for flag, value in (("--width-mm", size.width_mm), ("--height-mm", size.height_mm)):
        if not MAT_MIN_MM <= value <= MAT_MAX_MM:
            return _fail(f"{flag} must be {MAT_MIN_MM:g} to {MAT_MAX_MM:g} mm, got {value:g}")
    for flag, dpi in (("--dpi", args.dpi), ("--png-dpi", args.png_dpi)):
        if dpi is not None and not 10 <= dpi <= 600:
            return _fail(f"{flag} must be 10 to 600, got {dpi:g} (150 prints well)")
    from vision.mat_print import PAPERS

    if args.paper.upper() not in PAPERS:
        return _fail(f"unknown --paper {args.paper!r} (choose {', '.join(PAPERS)})")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out} is a file; give a folder")

    from vision.calibration import TableMat
    from vision.layout import layout_for
    from vision.mat import MatArt, MatError
    from vision.mat_print import write_mat_files

    try:
        art = MatArt(
            TableMat(size.width_mm, size.height_mm),
            layout_for(game, names),
            game,
            game_cls.title,
            background=args.background,
            named_seats=named,
        )
        out.mkdir(parents=True, exist_ok=True)
        files = write_mat_files(art, out, paper=args.paper, dpi=args.dpi, png_dpi=args.png_dpi)
    except MatError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write into {out} ({exc.strerror or exc}); choose a folder you can write to")
    plan = files.plan
    orientation = "landscape" if plan.landscape else "portrait"
    pages = f"{len(plan.tiles)} {plan.paper} {orientation} pages, {plan.rows} rows x {plan.cols} columns"
    print(f"{files.pdf}: {pages} ({files.pdf.stat().st_size / 1e6:.1f} MB)")
    print(
        f"{files.png}: {files.png_size[0]} x {files.png_size[1]} px ({files.png.stat().st_size / 1e6:.1f} MB)"
    )
    print(
        f"mat {size.width_mm:g} x {size.height_mm:g} mm: print at 100 % (actual size); the 100 mm bar on the "
        "mat and the 50 mm bar on each page must measure true"
    )
    lay = art.layout
    if (lay.width_mm, lay.height_mm) != (size.width_mm, size.height_mm):
        # The trackers place the zones in table millimetres from the mat's top-left corner, for the
        # layout's own table size; the mat must print them where the trackers look for them.
        print(
            f"note: the {game} layout is made for a {lay.width_mm:g} x {lay.height_mm:g} mm table;"
            " on this mat its zones keep their place from the top-left corner, where the camera's tracker"
            " expects them"
        )
    return 0
