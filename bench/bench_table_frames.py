"""The recognizer on frames of simulated Nerts tables: small cards, as the kiosk's camera sees them.

The table simulator (held-out deck designs, 1280×720, the kiosk's camera height: cards about
63 px long) plays ``--hands`` four-seat hands; every ``--every``-th frame of each hand's first
``--seconds`` is read by the recognizer (the game's deck only, as ``kiosk track`` does), once with
the closer look at small cards (:mod:`vision.closer_look`) and once without. For the face-up cards
wholly in view (at least 90 % visible, hands and other cards included) it reports the share named
right, named wrong, reported ``UNKNOWN`` and not found, and the CPU time per frame on one thread
(median and 95th percentile).

Usage::

    python bench/bench_table_frames.py --hands 2 --seconds 30 --every 15
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from vision.events import BACK, UNKNOWN, CardSighting  # noqa: E402
from vision.game_faces import game_faces  # noqa: E402
from vision.recognizer import CLOSER_CARDS, Recognizer  # noqa: E402
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.nerts import simulate_nerts  # noqa: E402
from vision.simulator.render import TableRenderer  # noqa: E402

OUTCOMES = ("right", "wrong", "unknown", "missed")


def outcomes(truth: list[CardSighting], seen: list[CardSighting]) -> Counter[str]:
    """How each face-up card wholly in view was read (matched to the nearest sighting within 15 px)."""
    out: Counter[str] = Counter()
    used: set[int] = set()
    for t in truth:
        if t.card == BACK or t.score < 0.9:
            continue
        best = min(
            (k for k in range(len(seen)) if k not in used and math.dist(seen[k].center, t.center) < 15),
            key=lambda k: math.dist(seen[k].center, t.center),
            default=None,
        )
        if best is None:
            out["missed"] += 1
            continue
        used.add(best)
        name = seen[best].card
        out["right" if name == t.card else "unknown" if name in (UNKNOWN, BACK) else "wrong"] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--every", type=int, default=15, help="read every n-th frame")
    ap.add_argument("--model-dir", type=Path, default=None)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cv2.setNumThreads(1)
    from vision.errors import ModelError

    try:
        rec = Recognizer.load(args.model_dir, threads=1).only(game_faces("nerts", {}))
    except ModelError as exc:
        print(f"bench_table_frames: {exc}", file=sys.stderr)
        return 2
    camera = CameraModel(width=1280, height=720, fps=60.0, shutter="rolling", readout_ms=12.0)
    tallies = {n: Counter[str]() for n in (CLOSER_CARDS, 0)}
    times: dict[int, list[float]] = {n: [] for n in tallies}
    frames = 0
    for seed in range(args.first_seed, args.first_seed + args.hands):
        sim = simulate_nerts(seed, split="heldout")
        renderer = TableRenderer(camera, rng=random.Random(seed + 1))
        sim.scene.reset()
        for timing in camera.timings(rng=random.Random(seed + 3)):
            if timing.t_ns > args.seconds * 1e9:
                break
            if timing.index % args.every:
                sim.scene.advance(camera, timing)
                continue
            image = sim.scene.render(renderer, timing).image
            truth = sim.scene.ground_truth_sightings(renderer, timing)
            for n in tallies:
                rec.closer_cards = n
                c0 = time.process_time()
                seen = rec.recognize(image)
                times[n].append((time.process_time() - c0) * 1000)
                tallies[n] += outcomes(truth, seen)
            frames += 1
        print(f"hand seed {seed}: {frames} frames read so far", flush=True)
    print()
    print(
        f"command: python bench/bench_table_frames.py --hands {args.hands} --first-seed {args.first_seed} "
        f"--seconds {args.seconds:g} --every {args.every}"
    )
    print(f"frames: {frames} (1280x720, held-out designs); load average {os.getloadavg()[0]:.2f}")
    for n, tally in tallies.items():
        total = sum(tally.values())
        shares = ", ".join(f"{k} {100 * tally[k] / max(1, total):.1f} %" for k in OUTCOMES)
        ts = sorted(times[n])
        p95 = ts[min(len(ts) - 1, int(round(0.95 * (len(ts) - 1))))] if ts else 0.0
        label = f"closer look on ({n} cards)" if n else "closer look off"
        print(
            f"{label}: face-up cards in full view {total}: {shares}; "
            f"CPU per frame median {statistics.median(ts) if ts else 0.0:.1f} ms, p95 {p95:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
