"""``kiosk recognize IMAGE... [--json] [--annotate DIR]``: find and identify the cards in photographs.

Also available as ``kiosk detect`` (the name in the recognizer's issue). The
JSON document (``--json``) is a contract other tools read::

    {"images": [{"path": ..., "width": W, "height": H, "error": null,
                 "cards": [{"card": "QS", "score": 0.97, "box": [x0, y0, x1, y1],
                            "quad": [[x, y], ...] or null, "corners": [[x0, y0, x1, y1], ...]}]}]}

``card`` is card-model notation, ``"BACK"`` for a face-down card, ``"UNKNOWN"``
below the confidence threshold. With ``--calibrate``, an image whose ArUco mat
markers show also gets ``"table_mm"`` (each card's centre in table millimetres).
``--game GAME`` names only the faces of that game's deck (the kiosk does the same for the game in
play, :mod:`vision.game_faces`).
A missing or unreadable image sets that image's ``error`` (``width``/``height``
null) and the others are still processed; the exit status is then 1. A missing
or corrupt model is one line on stderr and exit status 2. The model is loaded
once for all images.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError
from vision.events import BACK, UNKNOWN, CardSighting
from vision.game_faces import game_faces
from vision.recognizer import Recognizer

GAMES = ("nerts", "kierki", "smear", "rummy_3_13", "gnoming")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "recognize",
        aliases=["detect"],
        help="find and identify the cards in images (JSON with --json)",
        description="Finds every card in each image and identifies it (rank and suit, joker, Gnoming card, "
        "BACK for a face-down card, UNKNOWN when unsure). Prints a table, or one JSON document with --json.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    p.add_argument("--annotate", metavar="DIR", type=Path, help="write each image with its detections drawn")
    p.add_argument(
        "--model",
        metavar="DIR",
        type=Path,
        default=None,
        help="model folder with manifest.json (default: the shipped model)",
    )
    p.add_argument(
        "--game",
        choices=GAMES,
        default=None,
        help="name only the faces of this game's deck (a Smear table holds 7 to A; Gnoming its own deck); "
        "default: any face the model knows",
    )
    p.add_argument(
        "--calibrate",
        action="store_true",
        help="also report card centres in table millimetres where the mat's markers show",
    )
    p.set_defaults(func=run)


def _read(path: str) -> tuple[NDArray[np.uint8] | None, str | None]:
    p = Path(path)
    if not p.exists():
        return None, f"no such file: {path}"
    if not p.is_file():
        return None, f"not a file: {path}"
    data = np.fromfile(str(p), dtype=np.uint8) if p.stat().st_size else np.zeros(0, np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        return None, f"cannot decode {path}: not an image file (JPEG, PNG, BMP, TIFF, WebP) or truncated"
    return np.asarray(img, dtype=np.uint8), None


def _colour(card: str) -> tuple[int, int, int]:
    if card == UNKNOWN:
        return (0, 165, 255)
    if card == BACK:
        return (255, 128, 0)
    return (0, 200, 0)


def annotate(image: NDArray[np.uint8], cards: list[CardSighting]) -> NDArray[np.uint8]:
    """Returns a copy of ``image`` with each card's outline or box, corner boxes and label drawn."""
    out = image.copy()
    thick = max(1, int(round(max(out.shape[:2]) / 700)))
    for c in cards:
        col = _colour(c.card)
        if c.quad:
            cv2.polylines(out, [np.round(np.array(c.quad)).astype(np.int32)], True, col, thick, cv2.LINE_AA)
        else:
            bx0, by0, bx1, by1 = (int(round(v)) for v in c.box)
            cv2.rectangle(out, (bx0, by0), (bx1, by1), col, thick, cv2.LINE_AA)
        for x0, y0, x1, y1 in c.corners:
            cv2.rectangle(out, (int(x0), int(y0)), (int(x1), int(y1)), (255, 0, 255), 1, cv2.LINE_AA)
        label = f"{c.card} {c.score:.2f}"
        x, y = int(c.box[0]), max(12, int(c.box[1]) - 4)
        cv2.putText(
            out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick, (0, 0, 0), thick + 2, cv2.LINE_AA
        )
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick, col, thick, cv2.LINE_AA)
    return out


def _table_mm(image: NDArray[np.uint8], cards: list[CardSighting]) -> list[tuple[float, float]] | None:
    from vision.calibration import CalibrationError, calibrate

    try:
        cal = calibrate(image)
    except CalibrationError:
        return None
    return cal.to_table([c.center for c in cards])


def _format_table(entries: list[dict[str, Any]]) -> str:
    lines = []
    for e in entries:
        if e["error"]:
            lines.append(f"{e['path']}: error: {e['error']}")
            continue
        lines.append(f"{e['path']} ({e['width']}x{e['height']}): {len(e['cards'])} card(s)")
        for c in e["cards"]:
            x0, y0, x1, y1 = c["box"]
            where = f"box {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f}"
            extra = " outline" if c["quad"] else ""
            extra += f" corners={len(c['corners'])}" if c["corners"] else ""
            lines.append(f"  {c['card']:<9} {c['score']:.2f}  {where}{extra}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        recognizer = Recognizer.load(args.model)
        if args.game is not None:
            recognizer = recognizer.only(game_faces(args.game))
    except VisionError as exc:
        print(f"kiosk recognize: {exc}", file=sys.stderr)
        return 2
    if args.annotate is not None:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(
                f"kiosk recognize: --annotate {args.annotate}: cannot make this folder ({exc.strerror}); "
                "choose another",
                file=sys.stderr,
            )
            return 2
    entries: list[dict[str, Any]] = []
    failed = False
    for path in args.images:
        image, error = _read(path)
        entry: dict[str, Any] = {"path": path, "width": None, "height": None, "error": error, "cards": []}
        if image is not None:
            entry["height"], entry["width"] = int(image.shape[0]), int(image.shape[1])
            try:
                cards = recognizer.recognize(image)
            except VisionError as exc:
                print(f"kiosk recognize: {exc}", file=sys.stderr)
                return 2
            entry["cards"] = [c.to_json() for c in cards]
            if args.calibrate:
                mm = _table_mm(image, cards)
                if mm is not None:
                    for cj, (x, y) in zip(entry["cards"], mm, strict=True):
                        cj["table_mm"] = [round(x, 1), round(y, 1)]
            if args.annotate is not None:
                drawn = args.annotate / (Path(path).stem + ".annotated.png")
                if not cv2.imwrite(str(drawn), annotate(image, cards)):
                    # OpenCV reports a failed write only by its return value.
                    print(f"kiosk recognize: could not write {drawn}", file=sys.stderr)
                    failed = True
        else:
            failed = True
        entries.append(entry)
        if not args.json:
            print(_format_table([entry]), flush=True)
    if args.json:
        json.dump({"images": entries}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    return 1 if failed else 0
