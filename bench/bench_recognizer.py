"""Benchmark of the card recognizer: accuracy on held-out synthetic scenes and latency per frame.

    python bench/bench_recognizer.py                     # 200 held-out 1280x720 scenes
    python bench/bench_recognizer.py --scenes 50 --procedural-only --json out.json
    python bench/bench_recognizer.py --scenes 200 --closeups    # one card filling the frame
    python bench/bench_recognizer.py --scenes 100 --card-height 160 430   # cards photographed from close by

Scenes are drawn only from ``heldout`` designs (never trained on): the
procedural held-out designs always, and the held-out Debian artist decks where
``gnome-cards-data`` is installed (``--procedural-only`` leaves them out).
Latency is measured end to end per frame, decode excluded (detection,
classification, post-processing) with onnxruntime on one thread; it prints the
median and the 95th percentile, and the model's size on disk.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
from bench_options import add_detector_side  # noqa: E402

from vision.cardart import list_designs  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.training.evaluate import Tally, score_scene  # noqa: E402
from vision.training.scenes import SceneConfig, motion_blur, render_scene  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenes", type=int, default=200)
    p.add_argument("--seed", type=int, default=900_000_000, help="first scene number")
    p.add_argument("--model", type=Path, default=None)
    p.add_argument("--procedural-only", action="store_true", help="only the procedural held-out designs")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument(
        "--hard",
        action="store_true",
        help="the hard regression set: small cards, crowded fans and cascades, hands, close-ups",
    )
    p.add_argument(
        "--card-height",
        type=float,
        nargs=2,
        metavar=("LOW", "HIGH"),
        default=None,
        help="card heights in pixels (default 55 160, a table seen from above; 160 430: cards "
        "photographed from close by)",
    )
    p.add_argument(
        "--perspective",
        type=float,
        default=None,
        help="how far the camera is from straight above (default 0.06; 0.25: a photo taken at a slant)",
    )
    p.add_argument(
        "--closeups",
        action="store_true",
        help="close-ups only: one card filling 0.5-1.25 of the frame's height (a phone photo)",
    )
    add_detector_side(p)
    p.add_argument(
        "--motion-blur",
        type=int,
        default=0,
        metavar="PX",
        help="smear each scene along a line this long, at an angle drawn per scene (a card moving during "
        "the exposure; default 0: none)",
    )
    p.add_argument(
        "--no-closer-look", action="store_true", help="no closer look at small cards, as video reads"
    )
    args = p.parse_args(argv)
    designs = [d for d in list_designs(split="heldout") if not args.procedural_only or d.kind == "procedural"]
    cfg = SceneConfig(
        width=args.width, height=args.height, split="heldout", random_designs=0.0, designs=tuple(designs)
    )
    if args.hard:
        cfg = replace(cfg, card_height=(50.0, 90.0), hands=0.9, closeup=0.15, layouts=(4, 5, 6))
    if args.closeups:
        cfg = replace(cfg, closeup=1.0)
    if args.card_height:
        cfg = replace(cfg, card_height=tuple(args.card_height))
    if args.perspective is not None:
        cfg = replace(cfg, perspective=args.perspective)
    cv2.setNumThreads(1)  # one core: OpenCV's resizes must not borrow a second one
    rec = Recognizer.load(args.model, threads=1)
    rec.detector_side = args.detector_side
    if args.no_closer_look:
        rec.closer_every = 0
    folder = rec.model_dir
    assert folder is not None
    manifest = json.loads((folder / "manifest.json").read_text())
    size = sum((folder / manifest[k]["file"]).stat().st_size for k in ("detector", "classifier"))
    total = Tally()
    per_design: dict[str, Tally] = {}
    times: list[float] = []
    cpu_times: list[float] = []
    rec.recognize(render_scene(args.seed - 1, cfg).image)  # warm-up
    for k in range(args.scenes):
        scene = render_scene(args.seed + k, cfg)
        image = scene.image
        if args.motion_blur:
            image = motion_blur(image, args.motion_blur, random.Random(args.seed + k).uniform(0, 180))
        t0, c0 = time.perf_counter(), time.process_time()
        preds = rec.recognize(image)
        times.append((time.perf_counter() - t0) * 1000)
        cpu_times.append((time.process_time() - c0) * 1000)
        t = score_scene(scene, preds)
        total.add(t)
        name = scene.cards[0].design if scene.cards else "empty"
        per_design.setdefault(name, Tally()).add(t)

    def p95(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]

    result = {
        "set": "hard" if args.hard else "close-ups" if args.closeups else "standard",
        "card_height": list(cfg.card_height),
        "perspective": cfg.perspective,
        "detector_side": args.detector_side,
        "motion_blur_px": args.motion_blur,
        "closer_look": rec.closer_every > 0,
        "command": "python bench/bench_recognizer.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "scenes": args.scenes,
        "frame": f"{args.width}x{args.height}",
        "designs": [d.name for d in designs],
        "accuracy": total.summary(),
        "per_design_fully_visible": {
            k: v.summary()["fully_visible_correct"] for k, v in sorted(per_design.items())
        },
        # Wall time suffers when other processes share the cores; the process's CPU time much less.
        "latency_ms": {
            "median": round(statistics.median(times), 2),
            "p95": round(p95(times), 2),
            "cpu_median": round(statistics.median(cpu_times), 2),
            "cpu_p95": round(p95(cpu_times), 2),
            "threads": 1,
            "provider": "CPUExecutionProvider",
            "load_average_1min": round(os.getloadavg()[0], 2),
            "cpus": os.cpu_count(),
        },
        "model_bytes": size,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
