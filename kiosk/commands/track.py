"""``kiosk track VIDEO --out LOG.jsonl``: recognizer and tracker over a recorded video, to a table log.

VIDEO is a video file or a folder of frames (the simulator's output folder works too); frame
times and the table's seats are read from ``frames.jsonl`` and ``table.json`` beside it when
present (:mod:`vision.video_tracking`). User errors print one line and exit 2.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "track",
        help="run the card recognizer and the table tracker over a video and write the table log",
        description="Finds the mat's markers, recognizes the cards in every frame, follows them and writes "
        "the table events (foundation plays with seat, pile and landing time; work-pile moves) as a "
        "table log that kiosk replay referees.",
    )
    p.add_argument("video", help="a video file, or a folder of .png/.jpg frames or with a video in it")
    p.add_argument("--out", required=True, help="the table log to write (.jsonl)")
    p.add_argument("--game", default=None, help="the game (default: from table.json, else nerts)")
    p.add_argument(
        "--seats",
        default=None,
        help="seat names in table order, clockwise from the bottom edge "
        "(default: from table.json, else South,West,North,East)",
    )
    p.add_argument(
        "--timestamps",
        default=None,
        help="frames.jsonl with each frame's sensor time (default: the one beside the video)",
    )
    p.add_argument("--fps", type=float, default=None, help="frame rate when there are no frame times")
    p.add_argument(
        "--readout-ms",
        type=float,
        default=0.0,
        help="rolling-shutter readout time when there are no frame times (default 0: global)",
    )
    p.add_argument(
        "--model-dir",
        default=None,
        help="recognizer model folder (default: the shipped video model, models/video)",
    )
    p.add_argument(
        "--buttons",
        default=None,
        help="a table log of the kiosk's button events during the video (a deal, trumps, calls; the "
        "simulator's truth.jsonl holds them): merged into the log written, so that kiosk replay "
        "referees it whole",
    )
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"kiosk track: {message}", file=sys.stderr)
    return 2


MAT_KEYS = ("width_mm", "height_mm", "marker_mm", "inset_mm")


def _mat_dims(mat: Any) -> dict[str, float] | str:
    """The mat sizes of ``table.json``'s ``mat`` object, or what is wrong with them.

    >>> _mat_dims({"width_mm": 1560, "marker_mm": 50.0})
    {'width_mm': 1560.0, 'marker_mm': 50.0}
    >>> _mat_dims({"width_mm": "big"})
    "'mat' key 'width_mm' must be a positive number of millimetres, got 'big'"
    """
    if not isinstance(mat, dict):
        return f"'mat' must be an object of sizes in millimetres ({', '.join(MAT_KEYS)}), got {mat!r}"
    dims: dict[str, float] = {}
    for key in MAT_KEYS:
        if key not in mat:
            continue
        value = mat[key]
        number = not isinstance(value, bool) and isinstance(value, (int, float))
        # The markers may sit right at the edge (inset 0); every other size must be above 0.
        if not number or not (0 < value < math.inf or (key == "inset_mm" and value == 0)):
            return f"'mat' key {key!r} must be a positive number of millimetres, got {value!r}"
        dims[key] = float(value)
    return dims


def run(args: argparse.Namespace) -> int:
    from kiosk.games.referee import TableEvent
    from kiosk.tablelog import write_table_log
    from vision.calibration import TableMat
    from vision.errors import VisionError
    from vision.simulator.output import TABLE_FILE
    from vision.video_tracking import VideoError, open_video, track_frames

    video = Path(args.video)
    table_file = (video if video.is_dir() else video.parent) / TABLE_FILE
    if args.fps is not None and not 0 < args.fps < math.inf:
        return _fail(f"--fps must be a positive frame rate, got {args.fps}")
    if not 0 <= args.readout_ms < math.inf:
        return _fail(f"--readout-ms must be a finite number, zero or more, got {args.readout_ms}")
    if args.timestamps and not Path(args.timestamps).is_file():
        return _fail(f"--timestamps {args.timestamps}: no such file; give the frames.jsonl of the video")
    out = Path(args.out)
    if out.is_dir():
        return _fail(f"--out {out} is a folder; give a file name such as log.jsonl")
    if not out.parent.is_dir():
        return _fail(f"--out: folder {out.parent} does not exist (or is a file); create it or choose another")
    try:
        info, frames = open_video(
            video,
            times_file=Path(args.timestamps) if args.timestamps else None,
            fps=args.fps,
            readout_ms=args.readout_ms,
        )
        game = args.game or str(info.table.get("game", "nerts"))
        table_seats = info.table.get("seats", ["South", "West", "North", "East"])
        if not args.seats and (
            not isinstance(table_seats, list) or not all(isinstance(s, str) for s in table_seats)
        ):
            # A string would be split into one seat a letter.
            return _fail(
                f"{table_file}: 'seats' must be a list of seat names, got {table_seats!r}; "
                "fix it or give --seats"
            )
        seats = [s.strip() for s in args.seats.split(",")] if args.seats else list(table_seats)
        if not 2 <= len(seats) <= 4 or len(set(seats)) != len(seats) or not all(seats):
            return _fail(f"--seats needs 2 to 4 different names, got {seats}")
        options = info.table.get("options")
        if options is not None and not isinstance(options, dict):
            return _fail(f"table.json: 'options' must be an object of house options, got {options!r}")
        mat_d = info.table.get("mat", {})
        dims = _mat_dims(mat_d)
        if isinstance(dims, str):
            return _fail(f"{table_file}: {dims}")
        default = TableMat()
        mat = TableMat(
            dims.get("width_mm", default.width_mm),
            dims.get("height_mm", default.height_mm),
            dims.get("marker_mm", default.marker_mm),
            dims.get("inset_mm", default.inset_mm),
        )
        from vision.recognizer import Recognizer

        recognizer = Recognizer.load_for_video(args.model_dir)

        def progress(n: int) -> None:
            print(f"\r{n}/{info.frames} frames", end="", file=sys.stderr, flush=True)

        buttons: list[TableEvent] = []
        if args.buttons:
            from kiosk.tablelog import LogFormatError, read_table_log

            try:
                _, buttons = read_table_log(args.buttons)
            except LogFormatError as exc:
                return _fail(f"--buttons: {exc}")
        result = track_frames(
            frames,
            recognizer,
            game=game,
            seats=seats,
            mat=mat,
            progress=progress,
            buttons=buttons,
            options=options,
        )
    except (VideoError, VisionError, OSError) as exc:
        return _fail(str(exc))
    print(file=sys.stderr)
    # Written beside and then renamed over --out: an interrupted or failed write leaves no half log.
    part = out.with_name(out.name + ".part")
    try:
        with part.open("w", encoding="utf-8") as f:
            write_table_log(f, result.header, result.events)
        os.replace(part, out)
    except OSError as exc:
        part.unlink(missing_ok=True)
        return _fail(f"cannot write {out} ({exc.strerror or exc}); choose a file you can write to")
    n = max(1, result.frames)
    if result.interrupted:
        print(
            f"interrupted after {result.frames} frames: {out} holds the events tracked until then "
            "(the hand has no end in it; run again to track the whole video)",
            file=sys.stderr,
        )
    if result.header.game == "nerts":
        plays = sum(1 for e in result.events if e.type == "foundation_play")
        moves = sum(1 for e in result.events if e.type == "move")
        tops = sum(1 for e in result.events if e.type == "nerts_top")
        unseen = sum(1 for e in result.events if e.type == "unseen_play")
        # Cards a pile proves went on, whose seat no layout named: the end-of-hand audit counts them.
        unseen_note = f" (and {unseen} unseen, credited to no seat)" if unseen else ""
        counts = [e for e in result.events if e.type == "count"]
        counted = ", ".join(f"{e.seat} {e.get('foundation')}+{e.get('nerts', '?')}" for e in counts)
        # The camera's end-of-hand audit (rules §12): foundation cards + Nerts cards left, per seat.
        audit = f"; audit (foundation+Nerts) {counted}" if counts else ""
        print(
            f"{result.frames} frames: {plays} foundation plays{unseen_note}, {moves} moves, "
            f"{tops} Nerts tops{audit} -> {out}"
        )
    else:
        print(f"{result.frames} frames: {len(result.events)} events -> {out}")
    print(
        f"recognizer {1000 * result.seconds_recognize / n:.1f} ms/frame, tracker "
        f"{1000 * result.seconds_track / n:.2f} ms/frame; calibration from markers "
        f"{list(result.calibration.markers)} "
        f"(rms {result.calibration.rms_px:.2f} px)"
    )
    return 130 if result.interrupted else 0
