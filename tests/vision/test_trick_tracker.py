"""Trick-taking tables: a simulated Smear hand refereed, and the trick tracker on its exact sightings
with injected faults (the simulator's annotations, a legitimate test input)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numpy.typing import NDArray

from kiosk.games.referee import TableEvent
from kiosk.replay import replay_events
from vision.calibration import Calibration
from vision.events import Frame
from vision.simulator.camera import CameraModel
from vision.simulator.noise import perturb
from vision.simulator.render import TableRenderer
from vision.simulator.tricks import TrickSimulation, simulate_smear
from vision.trick_tracker import TrickTracker


@pytest.fixture(scope="module")
def smear() -> TrickSimulation:
    return simulate_smear(1)


def test_the_truth_is_a_whole_refereed_hand(smear: TrickSimulation) -> None:
    report = replay_events(smear.header, smear.events)
    assert len(report.hands) == 1 and not report.infractions
    assert sum(1 for e in smear.events if e.type == "play") == 24
    assert sum(1 for e in smear.events if e.type == "collect") == 6


def test_plays_and_sweeps_of_the_first_two_tricks(smear: TrickSimulation) -> None:
    cam = CameraModel(width=640, height=360)
    renderer = TableRenderer(cam, rng=random.Random(1))
    inverse: NDArray[np.float64] = np.linalg.inv(cam.table_to_image).astype(np.float64)
    tracker = TrickTracker(smear.layout, Calibration(inverse))
    truth = [e for e in smear.events if e.type in ("play", "collect")][:10]
    end = truth[-1].t_ns + 500_000_000
    rng = random.Random(4)
    events: list[TableEvent] = []
    smear.scene.reset()
    for timing in cam.timings(rng=random.Random(2)):
        if timing.t_ns > end:
            break
        smear.scene.advance(cam, timing)
        seen = perturb(smear.scene.ground_truth_sightings(renderer, timing), rng, drop=0.1, misread=0.01)
        events += tracker.feed(
            Frame(None, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns), seen
        )
    events += tracker.flush()
    assert [(e.type, e.seat if e.type == "play" else None, e.get("card")) for e in events] == [
        (e.type, e.seat if e.type == "play" else None, e.get("card")) for e in truth
    ]
    for got, want in zip(events, truth, strict=True):
        if want.type == "play":
            assert abs(got.t_ns - want.t_ns) <= max(got.err_ns, 3_000_000)


def test_kierki_first_deal_is_refereed_whole() -> None:
    from vision.simulator.tricks import simulate_kierki

    sim = simulate_kierki(2)
    report = replay_events(sim.header, sim.events)
    assert not report.infractions
    assert sum(1 for e in sim.events if e.type == "play") == 52
    # Deal 1 ("no tricks"): every trick costs its taker 20 points.
    assert sum(report.hands[0].values()) == -20 * 13
