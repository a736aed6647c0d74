"""How well the camera counts the end-of-hand audit (rules/nerts.md §12; vision.audit).

For each of ``--tables`` simulated Nerts tables (a hand's held-out card designs, table surface, light
and camera, seeds from ``--first-seed``), every seat lays a random number of cards face down for the
audit (0 to ``--most``, foundation grid then Nerts grid) and :class:`vision.audit.AuditWatcher` follows
the filmed audit with the shipped video recognizer telling the empty table. Reports the counts right
(of two per seat and table), the largest miss, and the counter's time per frame (median and p95, one
thread, process CPU time).

Usage::

    python bench/bench_audit.py --tables 30 --first-seed 100 --most 30 [--fps 20] [--resolution 1920x1080]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.games.referee import TableEvent  # noqa: E402
from vision.audit import AuditWatcher  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.game_faces import game_faces  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.simulator.audit import audit_frames  # noqa: E402
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.nerts import simulate_nerts  # noqa: E402
from vision.simulator.render import TableRenderer  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=100)
    ap.add_argument("--most", type=int, default=30, help="the most cards a seat lays in one grid")
    ap.add_argument("--fps", type=float, default=20.0, help="frames per second (default 20: the kiosk's)")
    ap.add_argument("--resolution", default="1280x720", help="the camera's WIDTHxHEIGHT (default 1280x720)")
    args = ap.parse_args()
    try:
        width, height = (int(v) for v in args.resolution.lower().split("x"))
    except ValueError:
        ap.error(f"--resolution must be WIDTHxHEIGHT, such as 1920x1080; got {args.resolution!r}")
    camera = CameraModel(
        width=width, height=height, fps=args.fps, shutter="rolling", readout_ms=12.0, exposure_ms=4.0
    )
    recognizer = Recognizer.load_for_video(threads=1).only(game_faces("nerts", {}))
    right = total = 0
    worst = 0
    cpu_ms: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.tables):
        sim = simulate_nerts(seed)
        rng = random.Random(seed)
        most_n = min(13, args.most)  # a Nerts pile holds 13
        counts = {s: (rng.randint(0, args.most), rng.randint(0, most_n)) for s in sim.layout.seats}
        renderer = TableRenderer(camera, rng=random.Random(seed + 1))
        watcher: AuditWatcher | None = None
        out: list[TableEvent] = []
        for _, frame in audit_frames(sim.layout, sim.designs, counts, renderer, 0, random.Random(seed + 2)):
            if watcher is None:
                watcher = AuditWatcher(sim.layout, calibrate(frame.image))
            sightings = recognizer.recognize(frame.image)
            started = time.process_time()
            out += watcher.feed(frame, sightings)
            cpu_ms.append((time.process_time() - started) * 1000)
        if watcher is not None:
            out += watcher.finish()
        seen = {e.seat: (e.get("foundation"), e.get("nerts")) for e in out}
        for seat, want in counts.items():
            got = seen.get(seat, (None, None))
            for k in (0, 1):
                total += 1
                right += got[k] == want[k]
                if got[k] is None:
                    worst = max(worst, want[k] + 1)
                else:
                    worst = max(worst, abs(int(got[k]) - want[k]))
        mark = "" if all(seen.get(s) == c for s, c in counts.items()) else "   <- differs"
        print(f"table {seed}: laid (foundation, nerts) {counts}; counted {seen}{mark}", flush=True)
    print()
    print(
        f"command: python bench/bench_audit.py --tables {args.tables} --first-seed {args.first_seed} "
        f"--most {args.most} --fps {args.fps:g} --resolution {args.resolution}"
    )
    print(f"counts right {right}/{total} ({100 * right / max(1, total):.1f} %); largest miss {worst} cards")
    if cpu_ms:
        p95 = statistics.quantiles(cpu_ms, n=20, method="inclusive")[-1]
        print(f"watcher CPU per frame: median {statistics.median(cpu_ms):.2f} ms, p95 {p95:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
