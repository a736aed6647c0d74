"""Chooses the recognizer's decision thresholds for a trained model and records them in its manifest.

    python -m vision.training.tune --model models/ --scenes 60           # print the sweep
    python -m vision.training.tune --model models/ --scenes 60 --write   # and keep the best

The sweep runs on freshly rendered scenes of the **training** designs (with the
randomised procedural designs mixed in), numbered from 700,000,000 so none was
seen in training, never on the held-out designs: the benchmark's figures on
unseen designs stay untouched by the tuning. Each combination is scored as

    fully-visible correct + corner-only correct + recall - 3 x false-card rate - 3 x misread rate

(a false card or a wrongly named card costs a referee more than an ``UNKNOWN``).
:meth:`vision.recognizer.Recognizer.load` reads ``manifest["thresholds"]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ModelError
from vision.recognizer import MANIFEST, Recognizer, Thresholds
from vision.training.evaluate import Tally, score_scene
from vision.training.scenes import Scene, SceneConfig, render_scene

__all__ = ["GRID", "objective", "sweep", "main"]

FIRST_SEED = 700_000_000

GRID: dict[str, tuple[float, ...]] = {
    "index": (0.25, 0.3, 0.4),
    "card": (0.4, 0.5),
    "unknown_below": (0.5, 0.6, 0.7),
    "not_index": (0.35, 0.5, 0.65),
    "unread_loose": (0.0, 0.15, 0.25),
}
"""The values tried for each threshold (every combination; the defaults are among them)."""


def objective(summary: dict[str, float | None]) -> float:
    """The figure the sweep maximises (see the module's docstring).

    >>> objective({"fully_visible_correct": 0.9, "corner_only_correct": 0.8, "recall": 0.95,
    ...            "false_card_rate": 0.02, "misread_rate": 0.01})
    2.56
    """

    def get(key: str) -> float:
        value = summary.get(key)
        return float(value) if value is not None else 0.0

    return round(
        get("fully_visible_correct")
        + get("corner_only_correct")
        + get("recall")
        - 3 * get("false_card_rate")
        - 3 * get("misread_rate"),
        6,
    )


def sweep(
    rec: Recognizer, scenes: list[Scene], grid: dict[str, tuple[float, ...]] = GRID
) -> list[tuple[float, Thresholds, dict[str, float | None]]]:
    """Scores every threshold combination on ``scenes``; best first."""
    keys = list(grid)
    results = []
    before = rec.thresholds
    try:
        for values in itertools.product(*(grid[k] for k in keys)):
            th = Thresholds(**dict(zip(keys, values, strict=True)))
            rec.thresholds = th
            tally = Tally()
            for scene in scenes:
                tally.add(score_scene(scene, rec.recognize(scene.image)))
            summary = tally.summary()
            results.append((objective(summary), th, summary))
    finally:
        rec.thresholds = before
    results.sort(key=lambda r: -r[0])
    return results


def _render(n: int, width: int, height: int) -> list[Scene]:
    cfg = SceneConfig(width=width, height=height, split="train")
    out = []
    t0 = time.monotonic()
    for k in range(n):
        out.append(render_scene(FIRST_SEED + k, cfg))
        if time.monotonic() - t0 > 30 or k == n - 1:
            t0 = time.monotonic()
            print(f"rendered {k + 1}/{n} scenes", flush=True)
    return out


def _fmt(summary: dict[str, float | None]) -> str:
    def pct(key: str) -> str:
        v = summary.get(key)
        return f"{100 * v:5.1f}" if isinstance(v, float) else "  n/a"

    return (
        f"full {pct('fully_visible_correct')}  corner {pct('corner_only_correct')}  recall {pct('recall')}  "
        f"false {pct('false_card_rate')}  misread {pct('misread_rate')}  unknown {pct('unknown_rate')}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.training.tune", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=Path("models"), help="model folder (with manifest.json)")
    p.add_argument("--scenes", type=int, default=60)
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--write", action="store_true", help="record the best thresholds in the manifest")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        rec = Recognizer.load(args.model, thresholds=Thresholds())
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    scenes = _render(args.scenes, args.width, args.height)
    n = int(np.prod([len(v) for v in GRID.values()]))
    print(f"trying {n} threshold combinations on {len(scenes)} scenes", flush=True)
    results = sweep(rec, scenes)
    for score, th, summary in results[:8]:
        print(f"{score:7.4f}  {_fmt(summary)}  {asdict(th)}")
    default = next(r for r in results if r[1] == Thresholds())
    print(f"defaults: {default[0]:7.4f}  {_fmt(default[2])}")
    if args.write:
        path = args.model / MANIFEST
        manifest = json.loads(path.read_text(encoding="utf-8"))
        best = results[0]
        manifest["thresholds"] = asdict(best[1])
        manifest["thresholds_tuning"] = {
            "command": f"python -m vision.training.tune --model {args.model.as_posix()} "
            f"--scenes {args.scenes} --write",
            "scenes": f"{args.scenes} training-design scenes from seed {FIRST_SEED} "
            f"(never the held-out designs), {args.width}x{args.height}",
            "objective": "full + corner + recall - 3 false - 3 misread",
            "figures": _figures(best[2]),
        }
        path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        print(f"wrote thresholds {asdict(best[1])} to {path}")
    return 0


def _figures(summary: dict[str, float | None]) -> dict[str, float | None]:
    keys = ("fully_visible_correct", "corner_only_correct", "recall", "false_card_rate", "misread_rate")
    return {k: summary.get(k) for k in keys}


if __name__ == "__main__":
    sys.exit(main())
