"""The tracker, fed the simulator's exact sightings with injected faults (a legitimate test input: the
simulator's annotations, never a stand-in for the recognizer)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import replay_events
from vision.calibration import Calibration
from vision.events import CardSighting, Frame
from vision.layout import NertsLayout
from vision.nerts_tracker import NertsTracker
from vision.simulator.camera import CameraModel
from vision.simulator.evaluate import merged_log, score_hand
from vision.simulator.nerts import NertsSimulation, ground_truth_log, simulate_nerts
from vision.simulator.noise import perturb
from vision.simulator.render import TableRenderer
from vision.tracker import MIN_ERR_NS, Observation, estimate_landing, robust_shift

Box = tuple[float, float, float, float]

SEATS = ["Ana", "Ben", "Cal", "Dee"]


def _decelerating(
    t_land: int,
    *,
    fps: float = 60.0,
    row_time: int = 16_667,
    phase: float = 0.37,
    noise: float = 0.0,
    seed: int = 0,
) -> list[Observation]:
    """A card sliding left to right to a stop at x=200 px under constant deceleration, filmed row by row."""
    rng = random.Random(seed)
    obs = []
    decel = 3000.0  # px/s²
    for k in range(60):
        t_frame = int(k * 1e9 / fps + phase * 1e9 / fps)
        y0, y1 = 300.0, 364.0
        t_row = t_frame + int(332 * row_time) + 2_000_000
        dt = max(0.0, (t_land - t_row) / 1e9)
        x1 = 200.0 - 0.5 * decel * dt * dt
        box = (x1 - 46 + rng.gauss(0, noise), y0, x1 + rng.gauss(0, noise), y1)
        obs.append(Observation("5H", box, True, x1, 332.0, t_row, t_frame, row_time, 4_000_000, k))
        if t_row > t_land + 80_000_000:
            break
    return obs


@pytest.mark.parametrize("phase", [0.0, 0.3, 0.71])
def test_landing_time_below_one_frame_period(phase: float) -> None:
    t_land = 400_000_000
    obs = _decelerating(t_land, phase=phase)
    t, err = estimate_landing(obs)
    assert abs(t - t_land) < 1_000_000
    assert MIN_ERR_NS <= err < 10_000_000


def test_landing_error_is_honest_with_noisy_boxes() -> None:
    misses = 0
    for seed in range(40):
        t_land = 400_000_000 + seed * 1_234_567
        t, err = estimate_landing(_decelerating(t_land, noise=0.5, seed=seed))
        misses += abs(t - t_land) > err
    assert misses <= 4


def _slide(
    t_land: int, direction: tuple[float, float], box: Callable[[float, float, int], Box]
) -> list[Observation]:
    """A 46×64-px 5H sliding along ``direction`` to a stop with its left and top edges at (400, 300)
    (global shutter, 60 fps, slowing at 4000 px/s²); ``box(x0, y0, k)`` is frame k's box from the
    card's left and top edges then (a hand hiding a strip of it)."""
    obs = []
    ux, uy = direction
    for k in range(60):
        t = int(k * 1e9 / 60)
        dt = max(0.0, (t_land - t) / 1e9)
        back = 0.5 * 4000.0 * dt * dt
        x0, y0 = 400.0 - ux * back, 300.0 - uy * back
        obs.append(Observation("5H", box(x0, y0, k), False, x0, y0, t, t, 0, 0, k))
        if t > t_land + 90_000_000:
            break
    return obs


def _diagonal(t_land: int, *, covered: range) -> list[Observation]:
    """A card sliding up and to the right to a stop. In the frames ``covered`` a hand over its right
    edge hides a growing strip of it, so the box's right side, the side leading on the x axis, lags
    behind the card; by its rest the hand has gone."""

    def box(x0: float, y0: float, k: int) -> Box:
        hidden = min(30.0, 6.0 * (k - covered.start + 1)) if k in covered else 0.0
        return (x0, y0, x0 + 46 - hidden, y0 + 64)

    return _slide(t_land, (0.6, -0.8), box)


@pytest.mark.parametrize("covered", [range(22, 27), range(20, 26), range(24, 29)])
def test_a_side_covered_in_flight_does_not_spoil_the_landing_time(covered: range) -> None:
    # Fitted on both leading sides together, the lagging right side made the landing 17 ms early
    # (or fell back to a 70-90 ms interval); each axis alone, the top side gives it within 1 ms.
    t_land = 500_000_000
    t, err = estimate_landing(_diagonal(t_land, covered=covered))
    assert abs(t - t_land) < 1_000_000, (t - t_land) / 1e6
    assert err < 15_000_000


@pytest.mark.parametrize(
    ("t_land", "unseen"),
    [(400_000_000, range(20, 23)), (405_000_000, range(19, 23)), (410_000_000, range(21, 24))],
)
def test_a_card_seen_again_still_creeping_after_a_hidden_stretch(t_land: int, unseen: range) -> None:
    # Hidden for a few frames, it is seen again under a pixel short of its rest and creeps on for a
    # frame or two: the fit through the hidden stretch was refused for landing after that sighting,
    # and the interval before it (25-55 ms early) was stated with too small an err.
    obs = [o for o in _decelerating(t_land, phase=0.0) if o.frame not in unseen]
    t, err = estimate_landing(obs)
    assert abs(t - t_land) < 1_000_000, (t - t_land) / 1e6
    assert err < 10_000_000


def _slide_under_a_hand(t_land: int, *, covered: range, unseen: range) -> list[Observation]:
    """A card sliding left to right to a stop at x=200 px (global shutter, 60 fps). In the frames
    ``covered`` a hand over its leading (right) edge hides a growing strip of it, so that side stalls
    while the card slows; in the frames ``unseen`` the hand hides it all; then it is seen to its rest."""
    obs = []
    decel = 6000.0  # px/s²
    for k in range(60):
        t = int(k * 1e9 / 60)
        dt = max(0.0, (t_land - t) / 1e9)
        x1 = 200.0 - 0.5 * decel * dt * dt
        if k in unseen:
            continue
        hidden = min(40.0, 9.0 * (k - covered.start + 1)) if k in covered else 0.0
        obs.append(Observation("7S", (x1 - 63, 300.0, x1 - hidden, 346.0), False, x1, 323.0, t, t, 0, 0, k))
        if t > t_land + 90_000_000:
            break
    return obs


@pytest.mark.parametrize(
    ("t_land", "covered", "unseen"),
    [
        (500_000_000, range(25, 27), range(27, 28)),
        (500_000_000, range(24, 27), range(27, 29)),
        (505_000_000, range(25, 28), range(28, 29)),
        (511_000_000, range(26, 28), range(28, 29)),
    ],
)
def test_sightings_narrowed_by_a_hand_over_the_leading_side_are_left_out(
    t_land: int, covered: range, unseen: range
) -> None:
    # The stalled leading side reads as a card stopping early: fitted with it, the landing was 5-50 ms
    # off (a 25-55 ms fallback interval). Sightings narrower than the card's flight are left out.
    t, err = estimate_landing(_slide_under_a_hand(t_land, covered=covered, unseen=unseen))
    assert abs(t - t_land) < 2_000_000, (t - t_land) / 1e6
    assert err < 10_000_000


def test_robust_shift_ignores_a_covered_side() -> None:
    assert robust_shift((0, 0, 63, 88), (0, 30, 63, 88)) == (0.0, 0.0)
    assert robust_shift((0, 0, 63, 88), (5, 30, 68, 88)) == (5.0, 0.0)


def test_a_card_that_never_moves_makes_no_event() -> None:
    lay = NertsLayout(SEATS)
    tr = NertsTracker(lay, Calibration.from_scale(1.0))
    slot = lay.slot(None, "foundation", 0)
    events = []
    for k in range(60):
        box = (slot.pose.x - 31, slot.pose.y - 44, slot.pose.x + 31, slot.pose.y + 44)
        # Flickering: seen two frames in three.
        seen = [CardSighting("AH", 0.9, box)] if k % 3 else []
        events += tr.feed(Frame(None, k * 16_666_667, k), seen)
    events += tr.flush()
    assert events == []


def _run(
    sim: NertsSimulation,
    cam: CameraModel,
    seconds: float,
    faults: dict[str, float] | None,
    seed: int = 7,
) -> tuple[list[TableEvent], NertsTracker]:
    renderer = TableRenderer(cam, rng=random.Random(1))
    inverse: NDArray[np.float64] = np.linalg.inv(cam.table_to_image).astype(np.float64)
    cal = Calibration(inverse)
    tracker = NertsTracker(sim.layout, cal)
    rng = random.Random(seed)
    events: list[TableEvent] = []
    sim.scene.reset()
    for timing in cam.timings(rng=random.Random(2)):
        if timing.t_ns > seconds * 1e9:
            break
        sim.scene.advance(cam, timing)
        s = sim.scene.ground_truth_sightings(renderer, timing)
        if faults is not None:
            s = perturb(
                s,
                rng,
                jitter_px=faults.get("jitter_px", 0.4),
                drop=faults.get("drop", 0.05),
                misread=faults.get("misread", 0.005),
            )
        events += tracker.feed(
            Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns), s
        )
    events += tracker.flush()
    return events, tracker


def _truth_until(sim: NertsSimulation, seconds: float) -> tuple[LogHeader, list[TableEvent]]:
    header, truth = ground_truth_log(sim)
    cut = int((seconds - 0.6) * 1e9)
    return header, [e for e in truth if e.t_ns <= cut and e.type not in ("count", "hand_end")]


@pytest.fixture(scope="module")
def sim() -> NertsSimulation:
    return simulate_nerts(2, seats=SEATS)


def _plays_in(events: Sequence[TableEvent], cut_s: float) -> list[TableEvent]:
    return [e for e in events if e.type == "foundation_play" and e.t_ns <= cut_s * 1e9]


def test_foundation_plays_with_seat_pile_and_time(sim: NertsSimulation) -> None:
    cam = CameraModel(width=640, height=360)
    events, tracker = _run(sim, cam, 7.0, {"jitter_px": 0.3, "drop": 0.05, "misread": 0.0})
    header, truth = _truth_until(sim, 7.0)
    true_plays = _plays_in(truth, 6.4)
    assert len(true_plays) >= 5
    sc = score_hand(
        header,
        truth,
        [e for e in events if e.t_ns <= 6.4e9],
        {p.pid: (p.x, p.y) for p in tracker.piles},
    )
    assert sc.plays_right == sc.plays
    assert sc.false_events == 0
    errs = sorted(abs(e) for e in sc.landing_errors_ns)
    assert errs[len(errs) // 2] < 3_000_000
    # Every event is well formed for the referee, in time order.
    replay_events(header, merged_log(truth, events))
    assert all(b.t_ns >= a.t_ns for a, b in zip(events, events[1:], strict=False))


def test_misreads_and_flicker_make_no_false_events(sim: NertsSimulation) -> None:
    cam = CameraModel(width=640, height=360, fps=60.0)
    events, _ = _run(sim, cam, 5.0, {"jitter_px": 0.4, "drop": 0.15, "misread": 0.01}, seed=11)
    header, truth = _truth_until(sim, 5.0)
    header, everything = ground_truth_log(sim)
    true_cards = {(e.seat, e.get("card")) for e in everything if e.type in ("foundation_play", "move")}
    tracked = {(e.seat, e.get("card")) for e in events if e.type in ("foundation_play", "move")}
    expected = {(e.seat, e.get("card")) for e in truth if e.type in ("foundation_play", "move")}
    assert tracked <= true_cards
    assert len(tracked & expected) >= 0.8 * len(expected)


def test_attribution_comes_from_the_seat_the_card_left(sim: NertsSimulation) -> None:
    cam = CameraModel(width=640, height=360, shutter="global")
    events, _ = _run(sim, cam, 6.0, None)
    header, truth = _truth_until(sim, 6.0)
    for e in _plays_in(events, 5.4):
        match = [
            t
            for t in truth
            if t.type == "foundation_play"
            and t.get("card") == e.get("card")
            and abs(t.t_ns - e.t_ns) < 50_000_000
        ]
        assert [t.seat for t in match] == [e.seat]
        assert match[0].get("from") == e.get("from")
        assert math.isclose(e.t_ns, match[0].t_ns, abs_tol=max(e.err_ns, 3_000_000))


def _covered_as_it_stops(t_land: int) -> list[Observation]:
    """A card sliding left to right to a stop at x=200 px (global shutter, 60 fps), seen whole until it
    stops; then a hand coming over its lower end hides more and more of it, hides it all for three
    frames, and draws back the other way: the card shows again as its lower part only, a strip that
    grows upwards while the hand leaves, and rests so. No side of those later views is a side of the
    earlier ones on the axis the hand moved along."""
    obs = []
    decel = 3000.0  # px/s²
    k_stop = int(t_land * 60 / 1e9) + 1
    for k in range(60):
        t = int(k * 1e9 / 60)
        dt = max(0.0, (t_land - t) / 1e9)
        x1 = 200.0 - 0.5 * decel * dt * dt
        top, bottom = 300.0, 362.0
        if k in range(k_stop + 1, k_stop + 4):
            bottom = 362.0 - 14.0 * (k - k_stop)  # the hand covers its lower end
        elif k in range(k_stop + 4, k_stop + 7):
            continue  # wholly hidden
        elif k >= k_stop + 7:
            top = max(330.0, 346.0 - 4.0 * (k - k_stop - 7))  # its lower part, growing as the hand leaves
        obs.append(Observation("9C", (x1 - 46, top, x1, bottom), False, x1 - 23, 331.0, t, t, 0, 0, k))
        if k >= k_stop + 14:
            break
    return obs


@pytest.mark.parametrize("t_land", [400_000_000, 405_000_000, 411_000_000])
def test_a_card_covered_as_it_stops_and_seen_again_as_a_part_states_an_honest_err(t_land: int) -> None:
    # Its resting box (the lower part) shares no side with its earlier views on the y axis, so those
    # seemed to move 30 px towards it and the card to land when it was first seen at rest, with
    # one frame's err: 100-150 ms late (seed 26's 9C). It landed between its last motion and that.
    t, err = estimate_landing(_covered_as_it_stops(t_land))
    assert abs(t - t_land) <= err, ((t - t_land) / 1e6, err / 1e6)
    assert err < 100_000_000


def _uncovered_while_resting(t_land: int) -> list[Observation]:
    """A card sliding down to a stop with its top side at y=253 px (global shutter, 60 fps). A hand
    over the place it slides to hides its lower end below y=292 until it stops, then draws back while
    it rests: its box grows downwards over three sightings, its top side keeps still."""
    obs = []
    decel = 4000.0  # px/s²
    k_stop = int(t_land * 60 / 1e9) + 1
    for k in range(60):
        t = int(k * 1e9 / 60)
        dt = max(0.0, (t_land - t) / 1e9)
        top = 253.0 - 0.5 * decel * dt * dt
        bottom = min(top + 66.0, 292.0)
        if k >= k_stop:
            bottom = min(top + 66.0, 292.0 + 10.0 * (k - k_stop + 1))
        obs.append(Observation("7C", (679.0, top, 725.0, bottom), False, 702.0, top + 33, t, t, 0, 0, k))
        if k >= k_stop + 2:
            break
    return obs


@pytest.mark.parametrize("t_land", [400_000_000, 405_000_000, 411_000_000])
def test_a_side_uncovered_while_the_card_rests_is_not_measured_on(t_land: int) -> None:
    # The leading side, stalled under the hand and then growing back as it leaves, makes the card seem
    # to stop when the hand first hid it (seed 18's 7C, a race loser, was timed 116 ms early and the
    # race went to the wrong seat). The side that keeps still at rest, its top, times it.
    t, err = estimate_landing(_uncovered_while_resting(t_land))
    assert abs(t - t_land) <= max(err, 3_000_000), ((t - t_land) / 1e6, err / 1e6)
    assert err < 10_000_000


ANA_AS_SEED_4: list[tuple[int, tuple[float, float, float, float]]] = [
    (-347_012_420, (686.0, 433.2, 731.8, 491.9)),
    (-330_315_024, (673.3, 427.4, 719.3, 491.3)),
    (-313_686_669, (655.8, 418.2, 701.1, 481.9)),
    (-297_053_059, (633.9, 407.5, 677.8, 469.7)),
    (-280_284_382, (608.2, 393.2, 654.3, 455.9)),
    (-263_645_204, (582.3, 379.2, 632.2, 443.0)),
    (-246_964_331, (557.5, 365.3, 610.0, 428.5)),
    (-230_409_677, (532.4, 349.7, 586.8, 415.9)),
    (-213_584_100, (507.4, 335.8, 564.5, 400.3)),
    (-197_049_245, (485.6, 322.8, 545.1, 387.9)),
    (-180_325_259, (466.3, 309.8, 526.9, 375.7)),
    (-163_659_817, (447.7, 297.4, 509.3, 364.1)),
    (-147_049_684, (432.0, 293.0, 494.4, 355.3)),
    (-130_389_101, (418.1, 293.5, 479.8, 345.1)),
    (-80_351_010, (400.7, 257.1, 450.2, 278.7)),
    (-63_628_568, (391.3, 252.2, 444.0, 281.6)),
    (-47_012_902, (385.4, 248.8, 439.1, 285.5)),
    (19_707_171, (377.6, 245.3, 433.4, 289.1)),
    (36_341_319, (376.5, 246.7, 434.1, 295.2)),
    (52_964_309, (375.2, 245.2, 434.3, 304.1)),
    (69_717_940, (372.7, 246.1, 433.6, 318.4)),
    (86_344_652, (372.7, 245.9, 435.1, 318.8)),
    (102_986_703, (372.7, 245.1, 434.4, 318.6)),
]
"""Ana's AS in simulated hand 4 (60 fps, 12 ms rolling shutter): frame time from its true landing
and box. Thrown up and left, it is hidden by a hand as it lands; seen again, its left (leading) side
grows back 5 px as the hand draws off it while its right side holds within a pixel of its rest."""


def test_a_leading_side_uncovered_after_a_hidden_landing_is_not_measured_on() -> None:
    # Measured on the leading side, the card seemed to creep on to its rest for 50 ms after it had
    # stopped: 80 ms late with a 31 ms err (a race in the hand ruled a tie). The side that moved far less
    # than the leading one meanwhile (a pixel: the box sides are not exact) times it.
    obs = []
    for k, (t, box) in enumerate(ANA_AS_SEED_4):
        t_row = t + round((box[1] + box[3]) / 2 * 16_667) + 2_000_000
        whole = k >= len(ANA_AS_SEED_4) - 3
        obs.append(Observation("AS", box, whole, 0.0, 0.0, t_row, t, 16_667, 4_000_000, k))
    t_land, err = estimate_landing(obs)
    assert abs(t_land) <= err, (t_land / 1e6, err / 1e6)
    assert abs(t_land) < 20_000_000, t_land / 1e6


ANA_4H_SEED_2: list[tuple[int, tuple[float, float, float, float]]] = [
    (-304_817_124, (442.1, 437.6, 488.0, 502.1)),
    (-272_361_726, (448.6, 415.9, 458.2, 431.4)),
    (-255_768_198, (456.9, 409.5, 465.6, 425.7)),
    (3_476_628, (500.1, 336.0, 549.1, 399.9)),
    (220_024_418, (500.2, 336.5, 548.2, 399.3)),
    (286_822_488, (499.3, 335.6, 549.0, 399.7)),
    (303_462_810, (499.4, 336.0, 548.8, 399.6)),
    (320_080_451, (498.9, 334.7, 548.8, 398.8)),
    (336_772_440, (499.1, 334.0, 548.6, 397.9)),
]
"""Ana's 4H in simulated hand 2 as the shipped recognizer saw it (seconds 7.09-7.43): time of its
box's middle row from its true landing, and box. Seen in flight by its corner index, then still where
it rests 3 ms after landing, then read only unsure for 200 ms (a hand over it), then seen again a pixel
or two off (the hand's edge over its top) before its rest."""


def test_a_card_seen_still_then_hidden_then_a_pixel_off_landed_before_it_was_seen_still() -> None:
    # The sighting a pixel or two off after the gap was taken for its last motion: landed 253 ms late
    # with a 34 ms err, a missed play and a false one. Seen still before that, it had landed by then.
    obs = [
        Observation("4H", box, False, 0.0, 0.0, t, t - 8_000_000, 16_667, 4_000_000, k)
        for k, (t, box) in enumerate(ANA_4H_SEED_2)
    ]
    t_land, err = estimate_landing(obs)
    assert abs(t_land) <= err, (t_land / 1e6, err / 1e6)
    assert t_land <= ANA_4H_SEED_2[3][0], t_land / 1e6


def _braking_unseen(t_land: int, seen_until_ms: int) -> list[Observation]:
    """A card sliding left to right to a stop at x=200 px (global shutter, 60 fps) that brakes harder
    over its last 50 ms (4500 instead of 3000 px/s², as a card does touching down), unseen from
    ``seen_until_ms`` before its landing to 80 ms after it (a hand over it)."""
    obs = []
    a1, a2, tc = 3000.0, 4500.0, 0.05
    for k in range(60):
        t = int(k * 1e9 / 60)
        tau = (t_land - t) / 1e9
        if tau <= 0:
            d = 0.0
        elif tau <= tc:
            d = 0.5 * a2 * tau * tau
        else:
            d = 0.5 * a2 * tc * tc + a2 * tc * (tau - tc) + 0.5 * a1 * (tau - tc) ** 2
        if -0.08 < tau < seen_until_ms / 1000:
            continue
        obs.append(
            Observation("4D", (200.0 - d - 46, 300.0, 200.0 - d, 362.0), True, 0.0, 0.0, t, t, 0, 0, k)
        )
        if tau < -0.14:
            break
    return obs


@pytest.mark.parametrize("t_land", [400_000_000, 405_000_000, 411_000_000])
@pytest.mark.parametrize("seen_until_ms", [40, 60])
def test_a_landing_fitted_across_an_unseen_stretch_states_an_err_growing_with_it(
    t_land: int, seen_until_ms: int
) -> None:
    # The fit runs the model 40-60 ms past its last sighting; a card that brakes a little harder there
    # lands 8-11 ms before the fit says, and the fit's own err (5 ms) claimed too much (seed 3's 4D:
    # 7 ms early with a 2.7 ms err turned a true tie into "Dee first by 38 ms").
    t, err = estimate_landing(_braking_unseen(t_land, seen_until_ms))
    assert abs(t - t_land) <= err, ((t - t_land) / 1e6, err / 1e6)
    assert err < 20_000_000


FIVE_S_SEED_3: list[tuple[int, int, tuple[float, float, float, float]]] = [
    (-371_351_607, 5_107_079, (492.9, 154.2, 540.6, 218.6)),
    (-354_631_299, 5_228_945, (496.0, 162.1, 544.4, 225.3)),
    (-338_020_130, 5_399_582, (502.5, 172.7, 552.2, 235.2)),
    (-321_298_894, 5_615_344, (510.9, 185.5, 560.0, 248.3)),
    (-304_670_394, 5_839_998, (519.5, 199.1, 568.6, 261.7)),
    (-288_058_434, 6_079_593, (528.5, 212.9, 577.6, 276.6)),
    (-271_372_049, 6_315_786, (538.5, 227.4, 587.4, 290.5)),
    (-254_632_833, 6_543_439, (547.5, 241.3, 596.8, 303.9)),
    (-238_003_502, 6_766_759, (555.8, 254.3, 606.1, 317.7)),
    (-221_361_151, 6_975_295, (565.2, 266.9, 615.1, 330.1)),
    (-204_714_517, 7_155_934, (572.9, 277.7, 622.9, 341.0)),
    (-188_024_095, 7_324_151, (580.7, 287.8, 629.9, 351.0)),
    (-171_322_928, 7_485_192, (586.9, 297.6, 637.4, 360.6)),
    (-154_590_023, 7_619_355, (592.8, 305.9, 644.1, 368.4)),
    (-137_953_921, 7_738_374, (599.1, 312.5, 649.1, 376.1)),
    (-121_305_114, 7_847_976, (604.2, 318.8, 652.8, 382.9)),
    (-104_659_581, 7_931_577, (609.4, 324.1, 658.2, 387.7)),
    (-87_995_256, 8_014_927, (614.1, 329.7, 661.0, 392.1)),
    (61_979_764, 8_113_259, (620.2, 334.1, 669.1, 399.5)),
    (78_636_746, 8_118_463, (620.2, 334.5, 669.6, 399.7)),
    (95_363_150, 8_108_456, (620.2, 333.7, 668.9, 399.3)),
]
"""The 5S in simulated hand 3 (60 fps, 12 ms rolling shutter), as the tracker saw it with box noise: frame
time from its true landing, the row time of its centre after the frame's, and its box (the hand over part
of it all the way). Thrown down and right, it is hidden by the hand for its last 90 ms."""


def _lands_within_err(card: str, recorded: list[tuple[int, int, tuple[float, float, float, float]]]) -> None:
    """A recorded card's sightings (frame time from its true landing, row time, box) are timed by
    :func:`estimate_landing` within the err it states."""
    obs = [
        Observation(card, box, False, 0.0, 0.0, t + row, t, 16_667, 4_000_000, k)
        for k, (t, row, box) in enumerate(recorded)
    ]
    t_land, err = estimate_landing(obs)
    assert abs(t_land) <= err, (t_land / 1e6, err / 1e6)


def test_fits_that_agree_are_averaged_not_the_one_claiming_least_error_alone() -> None:
    # Fitted on both axes, on the narrow-free sightings and on each axis alone, its landing came out
    # 6-16 ms early with errs of 13-15 ms; the fit claiming the least (the y axis alone, 12.8 ms) was
    # kept, 15.6 ms early. The fits agreeing with it measure the same landing with other noise.
    _lands_within_err("5S", FIVE_S_SEED_3)


ACE_OF_CLUBS_SEED_11: list[tuple[int, int, tuple[float, float, float, float]]] = [
    (-231_632_091, 9_617_809, (430.6, 425.2, 477.0, 488.9)),
    (-214_995_806, 9_426_600, (426.5, 413.8, 474.7, 477.4)),
    (-198_374_420, 9_228_234, (421.6, 402.0, 471.0, 465.4)),
    (-181_749_069, 9_039_932, (414.7, 389.8, 468.1, 455.0)),
    (-164_986_917, 8_834_010, (407.0, 376.6, 464.6, 443.5)),
    (-148_376_773, 8_650_387, (399.7, 364.8, 459.1, 433.2)),
    (-131_675_693, 8_503_820, (403.8, 356.8, 454.2, 423.7)),
    (-115_016_515, 8_364_830, (399.6, 347.8, 449.3, 416.0)),
    (-98_336_156, 8_253_603, (395.8, 341.7, 444.9, 408.7)),
    (-81_672_869, 8_170_142, (390.2, 336.4, 440.6, 404.0)),
    (34_986_843, 8_358_707, (372.8, 369.0, 424.4, 394.0)),
    (51_609_954, 8_331_412, (372.5, 364.7, 426.6, 395.0)),
    (68_278_777, 8_326_762, (373.3, 362.4, 426.6, 396.8)),
    (84_925_664, 8_330_419, (372.2, 360.1, 427.2, 399.5)),
    (101_679_346, 8_308_553, (373.4, 358.1, 428.0, 398.9)),
    (118_379_193, 8_292_560, (372.0, 356.8, 428.1, 398.3)),
    (135_010_502, 8_294_603, (371.7, 356.7, 428.0, 398.6)),
    (151_630_031, 8_300_675, (373.0, 356.4, 428.1, 399.6)),
    (168_283_557, 8_292_690, (372.9, 355.8, 428.8, 399.3)),
]
"""The AC in simulated hand 11 (60 fps, 12 ms rolling shutter), as the tracker saw it with box noise: frame
time from its true landing, the row time of its centre after the frame's, and its box. Thrown up and left,
hidden by a hand for its last 100 ms; at rest hands lie over both its ends and draw back off them."""


def test_an_axis_whose_resting_side_is_covered_is_not_fitted_alone() -> None:
    # Its bottom side, measured on (its top kept changing at rest), was seen in flight past where it
    # rests: covered at rest, so the y axis's resting place is unknown. Fitted on that axis alone, to a
    # place it never stopped at, it came out 29 ms early claiming 8 ms and was kept.
    _lands_within_err("AC", ACE_OF_CLUBS_SEED_11)


def _mostly_sideways(t_land: int, *, covered: range, strip: float) -> list[Observation]:
    """A card sliding right and a little up to a stop. In the frames ``covered`` a hand over its top
    edge, the side leading on the y axis, hides a strip of it (``strip`` px, growing to that over three
    frames), so the box's top side lags behind the card; by its rest the hand has gone."""

    def box(x0: float, y0: float, k: int) -> Box:
        hidden = min(strip, strip * (k - covered.start + 1) / 3) if k in covered else 0.0
        return (x0, y0 + hidden, x0 + 46, y0 + 64)

    return _slide(t_land, (0.96, -0.28), box)


@pytest.mark.parametrize(
    ("covered", "strip"), [(range(21, 27), 12.0), (range(22, 28), 20.0), (range(20, 26), 8.0)]
)
def test_a_side_covered_on_the_minor_axis_does_not_spoil_the_landing_time(
    covered: range, strip: float
) -> None:
    # Moving mostly along x, the card was fitted on both leading sides together only: its top side,
    # lagging under the hand, bent the distance and the landing came out 6-33 ms late (or with a 43 ms
    # err; seeds 14's 10D and 15's 5C: 22-27 ms late). The major axis alone gives it.
    t_land = 500_000_000
    t, err = estimate_landing(_mostly_sideways(t_land, covered=covered, strip=strip))
    assert abs(t - t_land) <= max(err, 2_000_000), ((t - t_land) / 1e6, err / 1e6)
    assert abs(t - t_land) < 4_000_000, (t - t_land) / 1e6


SEED12_3D_20FPS = [
    # (time of its centre's rows, frame time, box in pixels): the video model's boxes of Dee's 3D flying onto
    # a foundation in seed 12 filmed at 20 fps (the kiosk's simulated table); it truly landed at 17.606 s.
    (17256515640, 17250049656, (949.9, 264.4, 965.5, 271.5)),
    (17306677836, 17299991504, (918.2, 259.5, 978.8, 302.8)),
    (17357240618, 17350041144, (885.8, 289.5, 949.2, 334.5)),
    (17458051206, 17449977575, (826.7, 361.2, 841.8, 367.7)),
    (17558086039, 17550007220, (793.5, 345.3, 848.2, 384.2)),
    (17608125956, 17599997266, (784.3, 341.9, 848.1, 393.5)),
    (17658132197, 17649993501, (791.2, 347.5, 846.9, 389.2)),
    (17708143421, 17700041185, (793.2, 345.1, 852.1, 387.1)),
    (17758068901, 17749978467, (793.0, 344.1, 852.7, 386.8)),
    (17808123128, 17800027776, (792.5, 344.0, 853.1, 387.4)),
    (17858136270, 17850035106, (792.6, 344.1, 853.3, 388.1)),
    (17908036898, 17899940284, (792.8, 344.4, 852.5, 387.1)),
    (17958078022, 17949987670, (791.8, 342.6, 854.5, 388.2)),
]


def test_a_card_still_before_the_sightings_taken_as_its_rest_landed_by_then() -> None:
    # Its boxes jitter through its last approach (one overshoots, the next falls short), so no motion
    # can be fitted; but from 17.658 s on they show it where it rests. It landed by then, not at the
    # first of the last three sightings (17.858 s, with a 50 ms err) where the tracker judged it at rest.
    obs = [
        Observation("3D", box, False, 0.0, 0.0, t, frame_t, 16_667, 4_000_000, k)
        for k, (t, frame_t, box) in enumerate(SEED12_3D_20FPS)
    ]
    t_land, err = estimate_landing(obs)
    assert abs(t_land - 17_606_000_000) <= err
    assert err <= 60_000_000
