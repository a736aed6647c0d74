"""End to end: simulated four-seat Nerts hands, from pixels (or exact sightings) to scores.

For each hand: bots play (``kiosk.games.nerts_bots``), the table simulator renders it at
1280×720, 60 fps, rolling shutter (12 ms readout, 4 ms exposure) with held-out card designs,
the recognizer reads every frame and the tracker writes the table log; the log is then scored
against the hand's ground truth (:mod:`vision.simulator.evaluate`):

- foundation plays detected with the right card, pile and seat;
- false events per hand (tracked plays or moves that did not happen);
- landing-time error, median and 95th percentile, and how often the stated ``err`` covers it;
- race rulings that agree with the truth where the true gap is outside the tie window plus the
  stated errors;
- hands whose final scores equal the truth's (calls and stuck declarations come from buttons:
  the tracker's log gets the true ones);
- throughput: frames per second of recognizer plus tracker on one thread (rendering excluded).

``--sightings truth`` replaces the recognizer with the simulator's exact sightings plus noise
(box jitter 0.4 px, 5 % of cards unseen per frame, 0.5 % misread): the tracker's own figures.

Usage::

    python bench/bench_end_to_end.py --hands 5                 # the full chain
    python bench/bench_end_to_end.py --hands 5 --sightings truth
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from bench_options import add_detector_side  # noqa: E402

from kiosk.games.referee import TableEvent  # noqa: E402
from vision.calibration import Calibration, calibrate  # noqa: E402
from vision.events import Frame  # noqa: E402
from vision.nerts_tracker import NertsTracker  # noqa: E402
from vision.simulator.audit import audit_counts, count_filmed_audit  # noqa: E402
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.evaluate import HandScore, cut_logs, score_hand, score_with_audit  # noqa: E402
from vision.simulator.nerts import ground_truth_log, simulate_nerts  # noqa: E402
from vision.simulator.noise import perturb  # noqa: E402
from vision.simulator.render import TableRenderer  # noqa: E402

CPU_SECONDS = [0.0]
"""CPU seconds of recognizer plus tracker over all hands read from pixels."""


AUDIT = [0, 0, 0]
"""With ``--audit``: counts right, counts, hands whose audited scores equal the truth's."""


def run_hand(
    seed: int,
    mode: str,
    recognizer: object | None,
    camera: CameraModel,
    max_seconds: float | None,
    designs: str = "heldout",
    audit: bool = False,
) -> tuple[HandScore, int, float, float]:
    sim = simulate_nerts(seed, split=designs)
    renderer = TableRenderer(camera, rng=random.Random(seed + 1))
    rng = random.Random(seed + 2)
    calibration: Calibration | None = None
    tracker: NertsTracker | None = None
    events: list[TableEvent] = []
    frames = 0
    t_rec = t_trk = 0.0
    end = sim.scene.end_ns if max_seconds is None else int(max_seconds * 1e9)
    sim.scene.reset()
    for timing in camera.timings(rng=random.Random(seed + 3)):
        if timing.t_ns > end:
            break
        if mode == "truth":
            sim.scene.advance(camera, timing)
            frame = Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)
            if calibration is None:
                calibration = calibrate(sim.scene.render(renderer, timing).image)
            a = time.perf_counter()
            sightings = perturb(sim.scene.ground_truth_sightings(renderer, timing), rng)
        else:
            frame = sim.scene.render(renderer, timing)
            if calibration is None:
                calibration = calibrate(frame.image)
            a = time.perf_counter()
            cpu_a = time.process_time()
            sightings = recognizer.recognize(frame.image)  # type: ignore[union-attr]
        b = time.perf_counter()
        if tracker is None:
            tracker = NertsTracker(sim.layout, calibration)
        events.extend(tracker.feed(frame, sightings))
        c = time.perf_counter()
        if mode != "truth":
            t_rec += b - a
            # The process's CPU time as well: on a shared machine the wall clock also counts the
            # time other processes had the core.
            CPU_SECONDS[0] += time.process_time() - cpu_a
        t_trk += c - b
        frames += 1
    assert tracker is not None
    events.extend(tracker.flush())
    header, truth = ground_truth_log(sim)
    if max_seconds is not None:
        # Scored up to 2 s before the end (later plays may still be in flight): both logs are cut, or
        # every play seen after the cut would count as false.
        truth, events = cut_logs(truth, events, end - 2_000_000_000, end)
    piles = {p.pid: (p.x, p.y) for p in tracker.piles}
    if audit:
        # The end-of-hand audit filmed after the hand's last frame on its own table, read and counted.
        counts = audit_counts(header, truth)
        at, rng_a = end + 500_000_000, random.Random(seed + 4)
        lay, rec = sim.layout, recognizer
        counted, _ = count_filmed_audit(lay, sim.designs, counts, renderer, calibration, rec, at, rng_a)
        seen = {e.seat: (e.get("foundation"), e.get("nerts")) for e in counted}
        AUDIT[0] += sum(seen.get(s, (None, None))[k] == counts[s][k] for s in counts for k in (0, 1))
        AUDIT[1] += 2 * len(counts)
        AUDIT[2] += score_with_audit(header, truth, events, counted, piles).scores_equal
    return score_hand(header, truth, events, piles), frames, t_rec, t_trk


def run_trick_hand(
    game: str, seed: int, mode: str, recognizer: object | None, camera: CameraModel
) -> dict[str, object]:
    """One simulated Smear hand (or Kierki deal) through the trick tracker, scored against its truth."""
    from kiosk.games.referee import LogHeader
    from kiosk.replay import replay_events
    from vision.simulator.tricks import simulate_kierki, simulate_smear
    from vision.trick_tracker import TrickTracker

    sim = simulate_smear(seed) if game == "smear" else simulate_kierki(seed)
    renderer = TableRenderer(camera, rng=random.Random(seed + 1))
    rng = random.Random(seed + 2)
    tracker: TrickTracker | None = None
    events: list[TableEvent] = []
    t_rec = t_trk = 0.0
    frames = 0
    sim.scene.reset()
    for timing in camera.timings(rng=random.Random(seed + 3)):
        if timing.t_ns > sim.scene.end_ns + 1_000_000_000:
            break
        if mode == "truth":
            sim.scene.advance(camera, timing)
            frame = Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)
            if tracker is None:
                tracker = TrickTracker(sim.layout, calibrate(sim.scene.render(renderer, timing).image))
            a = time.perf_counter()
            sightings = perturb(sim.scene.ground_truth_sightings(renderer, timing), rng)
        else:
            frame = sim.scene.render(renderer, timing)
            if tracker is None:
                tracker = TrickTracker(sim.layout, calibrate(frame.image))
            a = time.perf_counter()
            sightings = recognizer.recognize(frame.image)  # type: ignore[union-attr]
        b = time.perf_counter()
        events.extend(tracker.feed(frame, sightings))
        t_trk += time.perf_counter() - b
        t_rec += b - a if mode != "truth" else 0.0
        frames += 1
    assert tracker is not None
    events.extend(tracker.flush())
    truth_plays = [e for e in sim.events if e.type == "play"]
    got = [e for e in events if e.type == "play"]
    used: set[int] = set()
    right = 0
    errs: list[int] = []
    covered = 0
    missed: list[str] = []
    for e in truth_plays:
        for i, k in enumerate(got):
            if (
                i not in used
                and k.get("card") == e.get("card")
                and k.seat == e.seat
                and abs(k.t_ns - e.t_ns) < 150e6
            ):
                used.add(i)
                right += 1
                errs.append(k.t_ns - e.t_ns)
                covered += abs(k.t_ns - e.t_ns) <= k.err_ns
                break
        else:
            missed.append(f"missed {e.seat} {e.get('card')} at {e.t_ns / 1e9:.3f}")
    false = [
        f"false {k.seat} {k.get('card')} at {k.t_ns / 1e9:.3f}" for i, k in enumerate(got) if i not in used
    ]
    collects = sum(1 for e in events if e.type == "collect")
    buttons = [e for e in sim.events if e.type in ("deal", "bid", "pass", "discard", "trump")]
    merged = sorted(buttons + events, key=lambda e: e.t_ns)
    true_rep = replay_events(sim.header, sim.events)
    track_rep = replay_events(LogHeader(game, sim.header.seats, {}), merged)
    return {
        "plays": len(truth_plays),
        "right": right,
        "false": len(got) - len(used),
        "errs": errs,
        "covered": covered,
        "collects": collects,
        "true_collects": sum(1 for e in sim.events if e.type == "collect"),
        "frames": frames,
        "equal": bool(true_rep.hands) and true_rep.hands[-1:] == track_rep.hands[:1],
        "true": true_rep.hands[-1:],
        "tracked": track_rep.hands[:1],
        "rec_s": t_rec,
        "trk_s": t_trk,
        "why": missed + false,
    }


def trick_main(args: argparse.Namespace, camera: CameraModel, recognizer: object | None) -> int:
    for k in range(args.hands):
        seed = args.first_seed + k
        t = time.perf_counter()
        r = run_trick_hand(args.game, seed, args.sightings, recognizer, camera)
        errs = sorted(abs(e) / 1e6 for e in r["errs"])  # type: ignore[attr-defined]
        what = "Smear hand" if args.game == "smear" else "Kierki deal 1"
        print(f"{what} seed {seed}: {r['frames']} frames in {time.perf_counter() - t:.0f} s")
        print(
            f"  plays right (card, seat): {r['right']}/{r['plays']}; false plays {r['false']}; "
            f"tricks collected {r['collects']}/{r['true_collects']}"
        )
        if errs:
            print(
                f"  landing-time error: median {statistics.median(errs):.2f} ms, p95 "
                f"{float(np.percentile(errs, 95)):.2f} ms; within stated err {r['covered']}/{len(errs)}"
            )
        print(f"  deal scores equal to the truth: {r['equal']} (truth {r['true']}, tracked {r['tracked']})")
        for line in r["why"]:  # type: ignore[attr-defined]
            print(f"    {line}")
        if args.sightings == "recognizer":
            n = max(1, int(r["frames"]))  # type: ignore[call-overload]
            total = float(r["rec_s"]) + float(r["trk_s"])  # type: ignore[arg-type]
            print(f"  throughput, recognizer + tracker on one thread: {n / max(1e-9, total):.1f} fps")
    print(
        f"command: python bench/bench_end_to_end.py --game {args.game} --hands {args.hands} --first-seed "
        f"{args.first_seed} --sightings {args.sightings}"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("nerts", "smear", "kierki"), default="nerts")
    ap.add_argument("--hands", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--sightings", choices=("recognizer", "truth"), default="recognizer")
    ap.add_argument("--seconds", type=float, default=None, help="cut each hand after this many seconds")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--audit",
        action="store_true",
        help="film each Nerts hand's end-of-hand audit after it, count it and score the hands with it too",
    )
    ap.add_argument("--fps", type=float, default=60.0, help="the camera's frame rate (default 60)")
    ap.add_argument(
        "--closer-every",
        type=int,
        default=None,
        metavar="N",
        help="the recognizer's closer look at small cards on one frame in N (default: as kiosk track "
        "does; 0: never)",
    )
    add_detector_side(ap)
    ap.add_argument(
        "--designs",
        choices=("heldout", "train"),
        default="heldout",
        help="card designs (default: held out of the recognizer's training; 'train' only to diagnose)",
    )
    args = ap.parse_args()
    if args.audit and (args.sightings != "recognizer" or args.game != "nerts"):
        ap.error("--audit is Nerts' end-of-hand audit, read by the recognizer (--sightings recognizer)")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import cv2

    # One core: OpenCV's resizes and warps must not run a second thread on it (as bench_recognizer.py).
    cv2.setNumThreads(1)
    camera = CameraModel(
        width=1280, height=720, fps=args.fps, shutter="rolling", readout_ms=12.0, exposure_ms=4.0
    )
    recognizer = None
    if args.sightings == "recognizer":
        from vision.errors import ModelError
        from vision.game_faces import game_faces
        from vision.recognizer import VIDEO_CLOSER_EVERY, Recognizer

        try:
            loaded = Recognizer.load_for_video(args.model_dir, threads=1)
        except ModelError as exc:
            print(f"bench_end_to_end: {exc}", file=sys.stderr)
            return 2
        # As kiosk track reads a video: the game's deck only, the closer look on some frames.
        loaded = loaded.only(game_faces(args.game, {}))
        loaded.closer_every = VIDEO_CLOSER_EVERY if args.closer_every is None else max(0, args.closer_every)
        loaded.detector_side = args.detector_side
        recognizer = loaded
    if args.game in ("smear", "kierki"):
        return trick_main(args, camera, recognizer)
    scores: list[HandScore] = []
    total_frames = 0
    rec_s = trk_s = 0.0
    for k in range(args.hands):
        seed = args.first_seed + k
        t = time.perf_counter()
        sc, n, tr_, tt = run_hand(
            seed, args.sightings, recognizer, camera, args.seconds, args.designs, args.audit
        )
        scores.append(sc)
        total_frames += n
        rec_s += tr_
        trk_s += tt
        print(
            f"hand seed {seed}: {n} frames in {time.perf_counter() - t:.0f} s; "
            f"plays {sc.plays_right}/{sc.plays} "
            f"right, false events {sc.false_events}, races agree {sc.races_agree}/{sc.races_decidable}, "
            f"scores equal {sc.scores_equal}",
            flush=True,
        )
        if args.verbose:
            for line in sc.misses + sc.false:
                print("   ", line)
            if not sc.scores_equal:
                print("    true", sc.true_scores, "tracked", sc.tracked_scores)
    plays = sum(s.plays for s in scores)
    right = sum(s.plays_right for s in scores)
    errs = [abs(e) / 1e6 for s in scores for e in s.landing_errors_ns]
    covered = sum(s.covered for s in scores)
    false = sum(s.false_events for s in scores)
    moves = sum(s.moves for s in scores)
    moves_right = sum(s.moves_right for s in scores)
    dec = sum(s.races_decidable for s in scores)
    agree = sum(s.races_agree for s in scores)
    equal = sum(s.scores_equal for s in scores)
    print()
    print(
        f"command: python bench/bench_end_to_end.py --hands {args.hands} --first-seed {args.first_seed} "
        f"--sightings {args.sightings}"
        + (f" --closer-every {args.closer_every}" if args.closer_every is not None else "")
        + (f" --detector-side {args.detector_side}" if args.detector_side is not None else "")
        + (f" --seconds {args.seconds}" if args.seconds else "")
        + (f" --fps {args.fps:g}" if args.fps != 60.0 else "")
        + (f" --designs {args.designs}" if args.designs != "heldout" else "")
        + (f" --model-dir {args.model_dir}" if args.model_dir else "")
        + (" --audit" if args.audit else "")
    )
    print(
        f"camera: {camera.width}x{camera.height} @ {camera.fps:g} fps, {camera.shutter} shutter "
        f"({camera.readout_ms:g} ms readout, {camera.exposure_ms:g} ms exposure); sightings: {args.sightings}"
    )
    print(f"hands: {len(scores)}, frames: {total_frames}")
    print(f"foundation plays right (card, pile, seat): {right}/{plays} = {100 * right / max(1, plays):.2f} %")
    print(f"work-pile moves right: {moves_right}/{moves} = {100 * moves_right / max(1, moves):.2f} %")
    print(f"false events per hand: {false / max(1, len(scores)):.2f} ({false} in all)")
    if errs:
        p95 = float(np.percentile(errs, 95))
        print(
            f"landing-time error: median {statistics.median(errs):.2f} ms, p95 {p95:.2f} ms, "
            f"max {max(errs):.2f} ms; "
            f"within stated err: {covered}/{len(errs)} = {100 * covered / len(errs):.1f} %"
        )
    print(f"race rulings agreeing where decidable: {agree}/{dec}")
    print(f"hands with final scores equal to the truth: {equal}/{len(scores)} (live tracking alone)")
    if args.audit:
        print(
            f"with the camera's end-of-hand audit (rules §12): counts right {AUDIT[0]}/{AUDIT[1]}; "
            f"hands with final scores equal to the truth {AUDIT[2]}/{len(scores)}"
        )
    if args.sightings == "recognizer":
        print(
            f"throughput, recognizer + tracker on one thread: "
            f"{total_frames / max(1e-9, rec_s + trk_s):.1f} fps "
            f"(recognizer {1000 * rec_s / max(1, total_frames):.1f} ms/frame, tracker "
            f"{1000 * trk_s / max(1, total_frames):.2f} ms/frame); by CPU time "
            f"{total_frames / max(1e-9, CPU_SECONDS[0]):.1f} fps "
            f"({1000 * CPU_SECONDS[0] / max(1, total_frames):.1f} ms/frame, load average "
            f"{os.getloadavg()[0]:.2f})"
        )
    else:
        print(
            f"throughput, tracker alone: {total_frames / max(1e-9, trk_s):.0f} fps "
            f"({1000 * trk_s / max(1, total_frames):.2f} ms/frame)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
