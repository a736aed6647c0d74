"""Why a tracked Nerts hand differs from its truth: every miss, false event, large landing error
and score difference, hand by hand.

Feeds the simulator's exact sightings with the benchmark's faults (:func:`vision.simulator.noise.perturb`,
the same random streams as ``bench_end_to_end.py --sightings truth``, so the figures agree) to the
tracker and lists, per hand:

- plays missed or credited to the wrong seat or pile, and false plays and moves;
- landing-time errors above 8 ms or outside the stated ``err``;
- for a hand whose scores differ: the rulings and infractions only one side has, and the Nerts
  cards (``from: nerts``) only one side saw leave (the camera-level referee counts N from them).

Simulating is the slow part: ``--cache DIR`` keeps each hand's exact sightings so a second run
(after a tracker change) takes seconds.

``--sightings recognizer`` feeds the recognizer's sightings instead, read from the frames rendered
with the held-out card designs exactly as ``bench_end_to_end.py`` renders them (same seeds and
random streams, the game's deck only, no closer look, as ``kiosk track`` reads a video), so the
figures agree with that benchmark's; with ``--seconds`` each hand is cut as that benchmark cuts it.
Rendering and recognizing take about 50 ms a frame; the cache keeps the sightings (and the exact
ones of the same frames, to tell what each misread or unseen card really was) and the frames in grey
(``nerts-frames-SEED-SECONDSs.npy``, about 1.1 GB a 20-second hand), which the tracker times landings
in the centre from (:mod:`vision.landing_timer`); a cache made before it kept frames has them rendered
again, about 30 ms a frame.

``--fps 20`` films the hands at the frame rate of the kiosk's own simulated table (``kiosk run``'s
default) instead of the benchmark's 60; the cache keeps them apart.

``--audit`` (with ``--sightings recognizer``) films each hand's end-of-hand audit after it (rules §12:
each seat's foundation cards, then its Nerts cards, spread face down; :mod:`vision.simulator.audit`),
counts the backs with :class:`vision.audit.AuditWatcher` and scores the hands again with those counts,
as the referee scores them by default (``attribution_source = audit_if_available``): the counts right,
and the seat and hand scores equal to the truth's with the audit, beside the live-tracking figures.

``--sightings kiosk`` reads each hand as ``kiosk run`` reads its simulated table (seed 1 is its default
first hand): the kiosk's own table (:class:`kiosk.app.simulated_table.SimulatedTable`, 20 fps, its card
designs and random streams) and its recognizer, every frame, so the figures are those of the hand the
kiosk shows (cached as ``nerts-kiosk-SEED-SECONDSs.pkl`` and ``.npy``).

Usage::

    python bench/diagnose_nerts_tracker.py --hands 5 --first-seed 1 [--cache /tmp/nerts-sightings]
    python bench/diagnose_nerts_tracker.py --sightings recognizer --seconds 20 --hands 4 --first-seed 2 \
        --cache /tmp/nerts-recognized
    python bench/diagnose_nerts_tracker.py --sightings kiosk --seconds 45 --hands 1 --first-seed 1 \
        --cache /tmp/nerts-kiosk
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_options import add_detector_side  # noqa: E402

from kiosk.games.referee import LogHeader, TableEvent  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.events import Frame  # noqa: E402
from vision.nerts_tracker import NertsTracker  # noqa: E402
from vision.simulator.audit import audit_counts, count_filmed_audit  # noqa: E402
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.evaluate import (  # noqa: E402
    cut_logs,
    match_window,
    merged_log,
    score_hand,
    score_with_audit,
)
from vision.simulator.nerts import ground_truth_log, simulate_nerts  # noqa: E402
from vision.simulator.noise import perturb  # noqa: E402
from vision.simulator.render import TableRenderer  # noqa: E402

CAMERA = CameraModel(width=1280, height=720, fps=60.0, shutter="rolling", readout_ms=12.0, exposure_ms=4.0)


DETECTOR_SIDE: int | None = None
"""The recognizer's detector long side for the first look (``--detector-side``; None: its default)."""


def _fps_tag() -> str:
    """What the cache's file names add for a camera other than the benchmark's 60 fps (``--fps``)."""
    return "" if CAMERA.fps == 60.0 else f"-{CAMERA.fps:g}fps"


TRACKER_TIME = [0.0, 0]
"""Seconds spent in the tracker and frames fed to it, over all hands."""

MOVES = [0, 0]
"""Work-pile moves in the truth and those tracked right, over all hands."""

SEATS = [0, 0, 0]
"""Seat scores over all hands: equal to the truth's, in all, and the points they differ by in all."""


def exact_hand(seed: int, cache: Path | None) -> dict[str, Any]:
    """The hand's layout, calibration, frames with exact sightings and ground truth."""
    path = cache / f"nerts-{seed}{_fps_tag()}.pkl" if cache is not None else None
    if path is not None and path.exists():
        with path.open("rb") as f:
            loaded: dict[str, Any] = pickle.load(f)
            return loaded
    sim = simulate_nerts(seed)
    renderer = TableRenderer(CAMERA, rng=random.Random(seed + 1))
    cal = None
    frames = []
    sim.scene.reset()
    for timing in CAMERA.timings(rng=random.Random(seed + 3)):
        if timing.t_ns > sim.scene.end_ns:
            break
        sim.scene.advance(CAMERA, timing)
        if cal is None:
            cal = calibrate(sim.scene.render(renderer, timing).image)
        frame = Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)
        frames.append((frame, sim.scene.ground_truth_sightings(renderer, timing)))
    header, truth = ground_truth_log(sim)
    hand = {"layout": sim.layout, "cal": cal, "frames": frames, "header": header, "truth": truth}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(hand, f)
    return hand


def _filmed(sim: Any, cal: Any, frames: list[Any], exact: list[Any], end: int) -> dict[str, Any]:
    """A filmed hand as the cache keeps it: layout, calibration, frames with their sightings, the exact
    sightings of the same frames, the whole ground truth and the last frame's time."""
    header, truth = ground_truth_log(sim)
    return {
        "layout": sim.layout,
        "cal": cal,
        "frames": frames,
        "exact": exact,
        "header": header,
        "truth": truth,
        "end_ns": end,
    }


def recognized_hand(
    seed: int, cache: Path | None, seconds: float | None, model: Path | None = None
) -> dict[str, Any]:
    """The hand's layout, calibration, frames with the recognizer's sightings (and the exact ones of
    the same frames, under ``"exact"``) and whole ground truth, filmed for ``seconds`` (the last
    frame's time under ``"end_ns"``)."""
    cut = "" if seconds is None else f"-{seconds:g}s"
    side = "" if DETECTOR_SIDE is None else f"-side{DETECTOR_SIDE}"
    path = cache / f"nerts-recognized-{seed}{cut}{_fps_tag()}{side}.pkl" if cache is not None else None
    if path is not None and path.exists():
        with path.open("rb") as f:
            loaded: dict[str, Any] = pickle.load(f)
            return loaded
    from vision.game_faces import game_faces
    from vision.recognizer import VIDEO_CLOSER_EVERY, Recognizer

    # As bench_end_to_end.py (and kiosk track) read a video: the game's deck only, one thread.
    recognizer = Recognizer.load_for_video(model, threads=1).only(game_faces("nerts", {}))
    recognizer.closer_every = VIDEO_CLOSER_EVERY
    recognizer.detector_side = DETECTOR_SIDE
    sim = simulate_nerts(seed, split="heldout")
    renderer = TableRenderer(CAMERA, rng=random.Random(seed + 1))
    cal = None
    frames = []
    exact = []
    grays: list[Any] = []
    end = sim.scene.end_ns if seconds is None else int(seconds * 1e9)
    sim.scene.reset()
    for timing in CAMERA.timings(rng=random.Random(seed + 3)):
        if timing.t_ns > end:
            break
        rendered = sim.scene.render(renderer, timing)
        if cal is None:
            cal = calibrate(rendered.image)
        frame = Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)
        frames.append((frame, recognizer.recognize(rendered.image)))
        exact.append(sim.scene.ground_truth_sightings(renderer, timing))
        _progress(seed, "rendered and recognized", timing, end)
        grays.append(cv2.cvtColor(rendered.image, cv2.COLOR_BGR2GRAY))
    hand = _filmed(sim, cal, frames, exact, end)
    if path is not None and cache is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(hand, f)
        np.save(frames_path(cache, seed, seconds), np.stack(grays))
    else:
        hand["grays"] = grays
    return hand


def kiosk_hand(seed: int, cache: Path | None, seconds: float | None) -> dict[str, Any]:
    """As :func:`recognized_hand`, for the hand ``kiosk run`` shows for ``seed``: its own simulated table
    and recognizer (``--sightings kiosk``); the grey frames kept with it (``"grays"``)."""
    from kiosk.app.simulated_table import SimulatedTable
    from vision.recognizer import Recognizer

    cut = "" if seconds is None else f"-{seconds:g}s"
    path = cache / f"nerts-kiosk-{seed}{cut}.pkl" if cache is not None else None
    if path is not None and path.exists():
        with path.open("rb") as f:
            loaded: dict[str, Any] = pickle.load(f)
        loaded["grays"] = np.load(path.with_suffix(".npy"), mmap_mode="r")
        return loaded
    table = SimulatedTable(seed, recognizer=Recognizer.load_for_video(), pace=1e9)
    table.open()
    end = table.sim.scene.end_ns if seconds is None else int(seconds * 1e9)
    cal = None
    frames, exact, grays = [], [], []
    while (read := table.read()) is not None and read.t_ns <= end:
        if cal is None:
            cal = calibrate(read.image)
        timing = table._timings[read.index]
        frame = Frame(None, read.t_ns, read.index, read.row_time_ns, read.exposure_ns)
        frames.append((frame, table._sightings(read)))
        exact.append(table.sim.scene.ground_truth_sightings(table.renderer, timing))
        grays.append(cv2.cvtColor(read.image, cv2.COLOR_BGR2GRAY))
        _progress(seed, "filmed and recognized as the kiosk does", timing, end)
    hand = _filmed(table.sim, cal, frames, exact, end)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(hand, f)
        np.save(path.with_suffix(".npy"), np.stack(grays))
    hand["grays"] = grays
    return hand


def _progress(seed: int, what: str, timing: Any, end_ns: int) -> None:
    """A line on stderr every 300 frames (five seconds of video): rendering a hand takes minutes."""
    if timing.index % 300 == 0:
        print(
            # The first frame's time may lie a little before zero: "-0 of 20 s" would read oddly.
            f"hand seed {seed}: {what} {max(0, timing.t_ns) / 1e9:.0f} of {end_ns / 1e9:.0f} s",
            file=sys.stderr,
            flush=True,
        )


def frames_path(cache: Path, seed: int, seconds: float | None) -> Path:
    cut = "" if seconds is None else f"-{seconds:g}s"
    return cache / f"nerts-frames-{seed}{cut}{_fps_tag()}.npy"


def hand_frames(seed: int, cache: Path | None, seconds: float | None, hand: dict[str, Any]) -> Any:
    """The grey frames of a recognized hand: kept with it, read from the cache, or rendered again (the
    same renderer and random streams as :func:`recognized_hand`, so the same pixels)."""
    if "grays" in hand:
        return hand["grays"]
    if cache is not None and frames_path(cache, seed, seconds).exists():
        return np.load(frames_path(cache, seed, seconds), mmap_mode="r")
    sim = simulate_nerts(seed, split="heldout")
    renderer = TableRenderer(CAMERA, rng=random.Random(seed + 1))
    end = hand["end_ns"]
    sim.scene.reset()
    grays = []
    for timing in CAMERA.timings(rng=random.Random(seed + 3)):
        if timing.t_ns > end:
            break
        grays.append(cv2.cvtColor(sim.scene.render(renderer, timing).image, cv2.COLOR_BGR2GRAY))
        _progress(seed, "rendered (frames for the cache made before it kept them)", timing, end)
    if cache is None:
        return grays
    tmp = frames_path(cache, seed, seconds).with_suffix(".tmp.npy")
    np.save(tmp, np.stack(grays))
    tmp.replace(frames_path(cache, seed, seconds))
    return np.load(frames_path(cache, seed, seconds), mmap_mode="r")


AUDIT_START_NS = 500_000_000
"""The audit begins this long after the last frame of the hand."""
AUDIT = [0, 0, 0, 0, 0]
"""With ``--audit``: seat scores equal, seats, hands with all scores equal, counts right, counts."""
RECOGNIZER: list[Any] = []
"""The recognizer that reads the audits (loaded once, when the first is filmed)."""


def audit_hand(seed: int, d: dict[str, Any], truth: list[TableEvent], model: Path | None) -> list[TableEvent]:
    """The ``count`` events the camera makes of the hand's end-of-hand audit: the audit filmed on the
    hand's own table (same designs, surface, light and camera) after its last frame, read by the
    recognizer and counted (:func:`count_filmed_audit`)."""
    from vision.game_faces import game_faces
    from vision.recognizer import Recognizer

    if not RECOGNIZER:
        RECOGNIZER.append(Recognizer.load_for_video(model, threads=1).only(game_faces("nerts", {})))
    counts = audit_counts(d["header"], truth)
    sim = simulate_nerts(seed, split="heldout")
    renderer = TableRenderer(CAMERA, rng=random.Random(seed + 1))
    start = d["end_ns"] + AUDIT_START_NS
    out, phase = count_filmed_audit(
        sim.layout, sim.designs, counts, renderer, d["cal"], RECOGNIZER[0], start, random.Random(seed + 4)
    )
    seen = {e.seat: (e.get("foundation"), e.get("nerts")) for e in out}
    right = sum(seen.get(s, (None, None))[k] == counts[s][k] for s in counts for k in (0, 1))
    AUDIT[3] += right
    AUDIT[4] += 2 * len(counts)
    if right < 2 * len(counts):
        print(f"    audit: true (foundation, nerts) {counts}, counted {seen} (phase {phase})")
    return out


def diagnose(
    seed: int,
    cache: Path | None,
    mode: str = "truth",
    seconds: float | None = None,
    model: Path | None = None,
    audit: bool = False,
) -> tuple[int, int, int, bool, list[float], int, int, int]:
    if mode == "kiosk":
        d = kiosk_hand(seed, cache, seconds)
    else:
        d = exact_hand(seed, cache) if mode == "truth" else recognized_hand(seed, cache, seconds, model)
    rng = random.Random(seed + 2)
    tracker = NertsTracker(d["layout"], d["cal"])
    events: list[TableEvent] = []
    grays = hand_frames(seed, cache, seconds, d) if mode != "truth" else None
    for n_frame, (frame, sightings) in enumerate(d["frames"]):
        # The recognizer's sightings are fed as read, with the frame's pixels; the exact ones with the
        # benchmark's faults (and no pixels, as bench_end_to_end.py --sightings truth feeds them).
        noisy = perturb(sightings, rng) if mode == "truth" else sightings
        if grays is not None:
            frame = Frame(grays[n_frame], frame.t_ns, frame.index, frame.row_time_ns, frame.exposure_ns)
        started = time.perf_counter()
        events += tracker.feed(frame, noisy)
        TRACKER_TIME[0] += time.perf_counter() - started
        TRACKER_TIME[1] += 1
    events += tracker.flush()
    truth: list[TableEvent] = d["truth"]
    if seconds is not None:
        # Scored as bench_end_to_end.py --seconds scores it: up to 2 s before the end, both logs cut.
        truth, events = cut_logs(truth, events, d["end_ns"] - 2_000_000_000, d["end_ns"])
    piles = {p.pid: (p.x, p.y) for p in tracker.piles}
    sc = score_hand(d["header"], truth, events, piles)
    if audit:
        sa = score_with_audit(d["header"], truth, events, audit_hand(seed, d, truth, model), piles)
        seats_a = sum(sa.tracked_scores.get(s) == x for s, x in sa.true_scores.items())
        AUDIT[0] += seats_a
        AUDIT[1] += len(sa.true_scores)
        AUDIT[2] += sa.scores_equal
        audit_line = (
            f"    with the audit: scores equal {sa.scores_equal} ({seats_a} of {len(sa.true_scores)} seats)"
        )
    print(
        f"hand seed {seed}: plays {sc.plays_right}/{sc.plays} right, false events {sc.false_events}, "
        f"races agree {sc.races_agree}/{sc.races_decidable}, scores equal {sc.scores_equal}"
    )
    for line in sc.misses + sc.false:
        print("   ", line)
    tracked_plays = [e for e in events if e.type == "foundation_play"]
    for e in (e for e in truth if e.type == "foundation_play"):
        k = next(
            (
                k
                for k in tracked_plays
                if k.get("card") == e.get("card")
                and k.seat == e.seat
                and abs(k.t_ns - e.t_ns) <= match_window(k)
            ),
            None,
        )
        if k is not None and (abs(k.t_ns - e.t_ns) > 8_000_000 or abs(k.t_ns - e.t_ns) > k.err_ns):
            print(
                f"    landing {e.seat} {e.get('card')} at {e.t_ns / 1e9:.3f}: "
                f"error {(k.t_ns - e.t_ns) / 1e6:+.1f} ms, stated err {k.err_ns / 1e6:.1f} ms"
            )
    if not sc.scores_equal:
        print(f"    scores: true {sc.true_scores}, tracked {sc.tracked_scores}")
        header: LogHeader = d["header"]
        true_rep = replay_events(header, truth)
        track_rep = replay_events(
            LogHeader(header.game, header.seats, header.options), merged_log(truth, events)
        )
        for what, a, b in (
            ("ruling", true_rep.rulings, track_rep.rulings),
            ("infraction", true_rep.infractions, track_rep.infractions),
        ):
            ta = {(x.t_ns // 1_000_000, x.text) for x in a}
            tb = {(x.t_ns // 1_000_000, x.text) for x in b}
            for t, text in sorted(ta - tb):
                print(f"    {what} only in the truth at {t / 1000:.3f}: {text}")
            for t, text in sorted(tb - ta):
                print(f"    {what} only in the tracked log at {t / 1000:.3f}: {text}")
        true_n = [(e.seat, e.get("card")) for e in truth if e.get("from") == "nerts"]
        seen_n = [(e.seat, e.get("card")) for e in events if e.get("from") == "nerts"]
        seen_n += nerts_tops_left(events)
        for seat, card in true_n:
            if (seat, card) not in seen_n:
                print(f"    {seat}'s {card} left the Nerts pile unseen (no event from: nerts, no new top)")
        for seat, card in seen_n:
            if (seat, card) not in true_n:
                print(f"    {seat}'s {card} seen leaving the Nerts pile, but it did not")
    if audit:
        print(audit_line)
    errs = [abs(e) / 1e6 for e in sc.landing_errors_ns]
    MOVES[0] += sc.moves
    MOVES[1] += sc.moves_right
    for seat, true_score in sc.true_scores.items():
        tracked_score = sc.tracked_scores.get(seat, 0)
        SEATS[0] += tracked_score == true_score
        SEATS[1] += 1
        SEATS[2] += abs(tracked_score - true_score)
    return (
        sc.plays,
        sc.plays_right,
        sc.false_events,
        sc.scores_equal,
        errs,
        sc.covered,
        sc.races_agree,
        sc.races_decidable,
    )


def nerts_tops_left(events: list[TableEvent]) -> list[tuple[str | None, Any]]:
    """The Nerts cards a log's ``nerts_top`` events say left: each top followed by another."""
    tops: dict[str | None, Any] = {}
    left = []
    for e in events:
        if e.type == "nerts_top":
            before = tops.get(e.seat)
            if before is not None and before != e.get("card"):
                left.append((e.seat, before))
            tops[e.seat] = e.get("card")
    return left


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=None, help="folder to keep each hand's sightings in")
    ap.add_argument(
        "--sightings",
        choices=("truth", "recognizer", "kiosk"),
        default="truth",
        help="the simulator's exact sightings with the benchmark's faults (default), the recognizer's "
        "read from the rendered frames, or the hand kiosk run shows, read as it reads it",
    )
    ap.add_argument("--seconds", type=float, default=None, help="cut each hand after this many seconds")
    ap.add_argument(
        "--model",
        type=Path,
        default=None,
        help=(
            "the recognizer's model folder (default: the shipped video model, models/video/); "
            "give each model its own --cache"
        ),
    )
    ap.add_argument(
        "--fps",
        type=float,
        default=60.0,
        help="the camera's frame rate (default 60, the benchmark's; the kiosk's simulated table films at 20)",
    )
    ap.add_argument(
        "--audit",
        action="store_true",
        help="film each hand's end-of-hand audit after it, count it and score the hands with it too",
    )
    add_detector_side(ap)
    args = ap.parse_args()
    global CAMERA, DETECTOR_SIDE
    CAMERA = replace(CAMERA, fps=args.fps)
    DETECTOR_SIDE = args.detector_side
    if args.detector_side is not None and args.sightings == "truth":
        ap.error("--detector-side reads the frames with the recognizer (use it with --sightings recognizer)")
    if args.model is not None and args.sightings == "truth":
        ap.error("--model reads the frames with another recognizer (use it with --sightings recognizer)")
    if args.seconds is not None and args.sightings == "truth":
        ap.error("--seconds cuts only hands read by the recognizer (use it with --sightings recognizer)")
    if args.audit and args.sightings != "recognizer":
        ap.error("--audit reads the filmed audit with the recognizer (use it with --sightings recognizer)")
    if args.sightings == "kiosk" and (
        args.model is not None or args.detector_side is not None or args.fps != 60.0
    ):
        ap.error("--sightings kiosk reads the hands as kiosk run does: its own model, detector and 20 fps")
    plays = right = false = equal = covered = agree = decidable = 0
    errs: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.hands):
        p, r, f, eq, e, c, ra, rd = diagnose(
            seed, args.cache, args.sightings, args.seconds, args.model, args.audit
        )
        plays, right, false, equal, covered = plays + p, right + r, false + f, equal + eq, covered + c
        agree, decidable = agree + ra, decidable + rd
        errs += e
    print()
    print(
        f"command: python bench/diagnose_nerts_tracker.py --hands {args.hands} --first-seed {args.first_seed}"
        + (f" --sightings {args.sightings}" if args.sightings != "truth" else "")
        + (f" --seconds {args.seconds:g}" if args.seconds is not None else "")
        + (f" --model {args.model}" if args.model is not None else "")
        + (f" --fps {args.fps:g}" if args.fps != 60.0 else "")
        + (f" --detector-side {args.detector_side}" if args.detector_side is not None else "")
        + (" --audit" if args.audit else "")
    )
    print(
        f"plays right {right}/{plays}; false events {false}; hands with equal scores {equal}/{args.hands}; "
        f"race rulings agreeing {agree}/{decidable} (decidable)"
    )
    if args.sightings != "truth":
        print(f"work-pile moves right {MOVES[1]}/{MOVES[0]}")
    print(f"seat scores equal to the truth's {SEATS[0]}/{SEATS[1]}, off by {SEATS[2]} points in all")
    if errs:
        print(
            f"landing-time error median {statistics.median(errs):.2f} ms, "
            f"p95 {statistics.quantiles(errs, n=20, method='inclusive')[-1]:.2f} ms; "
            f"within stated err {covered}/{len(errs)}"
        )
    if args.audit:
        print(
            f"with the camera's end-of-hand audit: counts right {AUDIT[3]}/{AUDIT[4]}; seat scores equal "
            f"{AUDIT[0]}/{AUDIT[1]}; hands with equal scores {AUDIT[2]}/{args.hands}"
        )
    if TRACKER_TIME[0] > 0:
        print(f"tracker alone: {TRACKER_TIME[1] / TRACKER_TIME[0]:.0f} frames/s on one thread")
    return 0


if __name__ == "__main__":
    sys.exit(main())
