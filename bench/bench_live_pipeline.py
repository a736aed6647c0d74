"""The live camera pipeline's cost per frame: what ``kiosk run --camera ...`` spends on each frame.

The simulator's Nerts table (one seed) is rendered in memory at the camera's resolution and
rate, frame by frame, and each frame goes through :class:`vision.pipeline.LivePipeline` with
the shipped recognizer, as the kiosk's camera thread does: calibration on the mat's markers,
then recognizer and tracker. Rendering is not timed. Printed: the frames, how many went by
before the mat was calibrated, the median and 90th percentile of the pipeline's time per frame
(recognizer + tracker, on the recognizer's one thread), the frame period it must keep up with,
and the table events it made (against the truth's foundation plays and moves in that time).

Usage::

    python bench/bench_live_pipeline.py                          # seed 2, 6 s, 1280x720, 20 fps
    python bench/bench_live_pipeline.py --seed 7 --seconds 10 --fps 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.pipeline import build_pipeline  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--fps", type=float, default=20.0)
    ap.add_argument("--resolution", default="1280x720")
    args = ap.parse_args(argv)
    width, height = (int(v) for v in args.resolution.split("x"))

    from vision.simulator.camera import CameraModel
    from vision.simulator.nerts import ground_truth_log, simulate_nerts
    from vision.simulator.render import TableRenderer

    seats = ["Ana", "Ben", "Cal", "Dee"]
    sim = simulate_nerts(args.seed, seats=seats)
    _, truth = ground_truth_log(sim)
    renderer = TableRenderer(
        CameraModel(width=width, height=height, fps=args.fps), rng=random.Random(args.seed + 1)
    )
    pipeline = build_pipeline("nerts", seats)
    end_ns = int(args.seconds * 1e9)
    per_frame: list[float] = []
    events = []
    frames = waited = 0
    for timing in renderer.camera.timings(rng=random.Random(1)):
        if timing.t_ns > end_ns:
            break
        frame = sim.scene.render(renderer, timing)
        a = time.perf_counter()
        events.extend(pipeline(frame))
        spent = time.perf_counter() - a
        frames += 1
        if pipeline.tracking is None:
            waited += 1
        else:
            per_frame.append(spent)
    events.extend(pipeline.flush())
    seen_truth = [e for e in truth if e.type in ("foundation_play", "move") and e.t_ns <= end_ns]
    ms = sorted(1000 * s for s in per_frame)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))] if ms else float("nan")
    print(f"command: python bench/bench_live_pipeline.py --seed {args.seed} --seconds {args.seconds} "
          f"--fps {args.fps} --resolution {args.resolution}")
    print(f"{frames} frames at {width}x{height}, {args.fps:g} fps; {waited} before the mat was calibrated")
    if ms:
        print(f"pipeline per frame: median {statistics.median(ms):.1f} ms, p90 {p90:.1f} ms "
              f"(frame period {1000 / args.fps:.1f} ms)")
    made = ", ".join(f"{e.seat} {e.type} {e.get('card')}" for e in events)
    print(f"events: {len(events)} ({made}); truth in that time: {len(seen_truth)} foundation plays and moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
