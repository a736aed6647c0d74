"""The trackers of Kierki, 3-13 Speed Rummy and Gnoming A Round on simulated tables, scored against the truth.

For one seed: bots play a whole Kierki match, one 3-13 hand and one Gnoming round on the table
simulator (``vision/simulator/``). Each tracker is fed the simulator's exact sightings with the
faults of ``vision/simulator/noise.py`` (box sides jittered by 0.4 px, 5 % of cards unseen in
each frame, 0.5 % read as another face of the same deck), frame by frame at 1280x720, 60 fps,
rolling shutter (12 ms readout, 4 ms exposure), without rendering a pixel: the tracker's own
figures, not the recognizer's. What a camera cannot see (a deal, trumps, passes, the caller's
words, face-down draws and holds, declines) comes from the truth as the kiosk's buttons.

For Kierki one deal of each kind is measured: a negative deal (1), a trump deal (8) and Fan Tan
(12), each tracked from its deal to the next. Per measurement:

- camera events right / false / missed (``vision.simulator.truth_tracking.score_events``: same
  type, seat and content within 1 s);
- the time error of the right events (median and 95th percentile);
- whether the deal's (hand's, round's) scores refereed from the tracked log equal the truth's;
- the tracker's throughput on one thread.

``--seeds N`` measures N seeds from ``--seed`` on and sums each game's events; ``--exact`` feeds
the exact sightings without faults (what is left is the tracker's logic, not its robustness).

Usage::

    python bench/bench_games_tracking.py                     # seed 1, every game
    python bench/bench_games_tracking.py --seed 2 --games rummy_3_13 gnoming
    python bench/bench_games_tracking.py --seed 0 --seeds 12 --games gnoming --exact
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from kiosk.games.referee import LogHeader, TableEvent  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from kiosk.tablelog import LogFormatError  # noqa: E402
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.noise import FACES  # noqa: E402
from vision.simulator.scene import TableScene  # noqa: E402
from vision.simulator.truth_tracking import (  # noqa: E402
    GameTracker,
    TrackedRun,
    camera_calibration,
    score_events,
    track_truth_sightings,
)

GAMES = ("kierki", "rummy_3_13", "gnoming")
TIMED = ("play", "draw", "discard", "keep", "flip")
KIERKI_DEALS = ((1, "negative"), (8, "trump"), (12, "Fan Tan"))
EXACT = False
"""Whether the sightings go to the trackers without faults (``--exact``)."""
TOTALS: dict[str, list[int]] = {}
"""Per game, summed over the seeds measured: events right, true, false, missed; timed events within
their stated err, timed events right."""


def report(
    label: str,
    truth_camera: Sequence[TableEvent],
    run: TrackedRun,
    true_scores: object,
    tracked_scores: object,
    seconds: float,
    verbose: bool,
) -> bool:
    """Prints one measurement; returns whether the scores are equal."""
    got = [e for e in run.events if e.type not in ("hand_start", "round_start")]
    sc = score_events(truth_camera, got)
    # Time errors of the moments a camera times (a card landing, turned, taken); a sweep, a reveal
    # or a hand laid out has no one true instant.
    timed = [e for e in truth_camera if e.type in TIMED]
    timed_sc = score_events(timed, [e for e in got if e.type in TIMED])
    errs = sorted(abs(e) / 1e6 for e in timed_sc.time_errors_ns)
    equal = true_scores == tracked_scores
    total = TOTALS.setdefault(label.split()[0], [0, 0, 0, 0, 0, 0])
    for k, v in enumerate((sc.right, sc.true, sc.false, sc.missed, timed_sc.within_err, timed_sc.right)):
        total[k] += v
    timing = "no timed events"
    if errs:
        p95 = float(np.percentile(errs, 95))
        timing = (
            f"landing/lift time error median {statistics.median(errs):.1f} ms, p95 {p95:.1f} ms, "
            f"within the stated err {timed_sc.within_err}/{len(errs)}"
        )
    print(
        f"{label}: events right {sc.right}/{sc.true}, false {sc.false}, missed {sc.missed}; {timing}; "
        f"scores equal to the truth: {equal}; {run.frames} frames in {seconds:.0f} s, "
        f"tracker {run.frames / max(1e-9, run.tracker_s):.0f} fps",
        flush=True,
    )
    if not equal or verbose:
        print(f"    truth {true_scores}\n    tracked {tracked_scores}")
    if verbose:
        for line in sc.misses + sc.falses:
            print("   ", line)
    return equal


def run_tracker(
    scene: TableScene,
    tracker: GameTracker,
    camera: CameraModel,
    buttons: Sequence[TableEvent],
    seed: int,
    faces: Sequence[str] = FACES,
    start_ns: int = 0,
    end_ns: int | None = None,
) -> tuple[TrackedRun, float]:
    t = time.perf_counter()
    drop, misread = (0.0, 0.0) if EXACT else (0.05, 0.005)  # track_truth_sightings' own defaults
    run = track_truth_sightings(
        scene,
        tracker,
        camera,
        buttons,
        start_ns=start_ns,
        end_ns=end_ns,
        seed=seed,
        faces=faces,
        drop=drop,
        misread=misread,
    )
    return run, time.perf_counter() - t


def tracked_hands(header: LogHeader, log: list[TableEvent], label: str) -> Any:
    """The scores refereed from a tracked log, or None (said on a line) when the referee refuses the
    log: the figures of the other deals and games still come."""
    try:
        return replay_events(header, log).hands
    except LogFormatError as exc:
        print(f"{label}: the referee refuses the tracked log: {exc}")
        return None


def bench_kierki(seed: int, camera: CameraModel, verbose: bool) -> list[bool]:
    from vision.simulator.kierki import BUTTON_EVENTS
    from vision.simulator.tricks import simulate_kierki
    from vision.trick_tracker import TrickTracker, kierki_fan_tan_deals

    sim = simulate_kierki(seed, deals=12)
    starts = [e.t_ns for e in sim.events if e.type == "deal"]
    true_rep = replay_events(sim.header, sim.events)
    out = []
    for number, kind in KIERKI_DEALS:
        start = starts[number - 1]
        end = starts[number] if number < len(starts) else sim.scene.end_ns
        truth = [e for e in sim.events if start <= e.t_ns < end]
        tracker = TrickTracker(sim.layout, camera_calibration(camera), fan_tan_deals=kierki_fan_tan_deals())
        buttons = [e for e in truth if e.type in BUTTON_EVENTS]
        run, secs = run_tracker(
            sim.scene, tracker, camera, buttons, seed, start_ns=start - 200_000_000, end_ns=end
        )
        before = [e for e in sim.events if e.t_ns < start]
        label = f"Kierki seed {seed} deal {number} ({kind})"
        hands = tracked_hands(LogHeader("kierki", sim.header.seats, {}), before + run.log, label)
        tracked = hands[number - 1] if hands is not None and len(hands) >= number else None
        camera_truth = [e for e in truth if e.type not in BUTTON_EVENTS]
        out.append(report(label, camera_truth, run, true_rep.hands[number - 1], tracked, secs, verbose))
    return out


def bench_rummy(seed: int, camera: CameraModel, verbose: bool) -> list[bool]:
    from vision.rummy_tracker import RummyTracker
    from vision.simulator.rummy import simulate_rummy

    sim = simulate_rummy(seed)
    tracker = RummyTracker(sim.layout, camera_calibration(camera))
    run, secs = run_tracker(sim.scene, tracker, camera, sim.buttons(), seed)
    true_rep = replay_events(sim.header, sim.events)
    size = len(next(e for e in sim.events if e.type == "show").data["cards"])
    label = f"3-13 seed {seed} hand of {size} cards"
    tracked = tracked_hands(sim.header, run.log, label)
    return [report(label, sim.camera_events(), run, true_rep.hands, tracked, secs, verbose)]


def bench_gnoming(seed: int, camera: CameraModel, verbose: bool) -> list[bool]:
    from vision.cardart.tokens import GNOMING_TOKENS
    from vision.gnoming_tracker import GnomingTracker
    from vision.simulator.gnoming import simulate_gnoming

    sim = simulate_gnoming(seed)
    tracker = GnomingTracker(sim.layout, camera_calibration(camera))
    run, secs = run_tracker(sim.scene, tracker, camera, sim.buttons(), seed, faces=GNOMING_TOKENS)
    true_rep = replay_events(sim.header, sim.events)
    label = f"Gnoming seed {seed} round"
    tracked = tracked_hands(sim.header, run.log, label)
    return [report(label, sim.camera_events(), run, true_rep.hands, tracked, secs, verbose)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1, help="how many seeds to measure, from --seed on")
    ap.add_argument("--exact", action="store_true", help="exact sightings, no faults injected")
    ap.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    ap.add_argument("--fps", type=float, default=60.0)
    ap.add_argument("--resolution", default="1280x720")
    ap.add_argument("--verbose", action="store_true", help="list every missed and false event")
    args = ap.parse_args()
    if args.seeds < 1:
        ap.error("--seeds must be at least 1")
    global EXACT
    EXACT = args.exact
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    w, h = (int(v) for v in args.resolution.split("x"))
    camera = CameraModel(width=w, height=h, fps=args.fps, shutter="rolling", readout_ms=12.0, exposure_ms=4.0)
    print(
        f"camera: {w}x{h} @ {args.fps:g} fps, rolling shutter (12 ms readout, 4 ms exposure); "
        "sightings: the simulator's exact ones "
        + ("without faults" if args.exact else "with injected faults")
        + " (no pixels rendered)"
    )
    equal: list[bool] = []
    for seed in range(args.seed, args.seed + args.seeds):
        for game in args.games:
            bench = {"kierki": bench_kierki, "rummy_3_13": bench_rummy, "gnoming": bench_gnoming}[game]
            equal += bench(seed, camera, args.verbose)
    if args.seeds > 1:
        for game, (right, true, false, missed, within, timed) in TOTALS.items():
            tally = f"events right {right}/{true}, false {false}, missed {missed}"
            tally += f"; timed events within the stated err {within}/{timed}"
            print(f"{game} over {args.seeds} seeds: {tally}")
    print(f"scores equal to the truth: {sum(equal)}/{len(equal)}")
    extra = (
        ""
        if (args.fps, args.resolution) == (60.0, "1280x720")
        else f" --fps {args.fps:g} --resolution {args.resolution}"
    )
    extra += (f" --seeds {args.seeds}" if args.seeds > 1 else "") + (" --exact" if args.exact else "")
    games = " ".join(args.games)
    print(f"command: python bench/bench_games_tracking.py --seed {args.seed} --games {games}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
