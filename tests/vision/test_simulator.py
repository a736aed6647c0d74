"""The table simulator: Nerts scenes that agree with the referee, frames with real timing, files on disk."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from kiosk.games.nerts_referee import NertsReferee
from kiosk.tablelog import read_table_log
from vision.events import BACK
from vision.simulator.camera import CameraModel
from vision.simulator.nerts import NertsSimulation, ground_truth_log, seat_designs, simulate_nerts
from vision.simulator.output import live_frames, read_frame_times, write_simulation
from vision.simulator.render import TableRenderer

SEATS = ["Ana", "Ben", "Cal", "Dee"]


@pytest.fixture(scope="module")
def sim() -> NertsSimulation:
    return simulate_nerts(2, seats=SEATS)


def test_designs_are_held_out_and_backs_differ() -> None:
    designs = seat_designs(SEATS, random.Random(0))
    assert all(d.split == "heldout" for d in designs.values())
    backs = {(d.name, d.style.back_pattern, d.style.back_colors) for d in designs.values()}
    assert len(backs) == 4


def test_piles_at_the_end_are_the_referees_layouts(sim: NertsSimulation) -> None:
    """Every flight lands where the referee says the card is: the picture never disagrees with the log."""
    cam = CameraModel(width=320, height=180)
    sim.scene.reset()
    for timing in cam.timings(rng=random.Random(1)):
        if timing.t_ns > sim.scene.end_ns:
            break
        sim.scene.advance(cam, timing)
    header, events = ground_truth_log(sim)
    ref = NertsReferee(header.seats, sim.hand.options)
    for e in events[:-1]:
        ref.feed(e)
    assert ref.hand is not None
    for s, seat in enumerate(SEATS):
        lay = ref.hand.layouts[s]
        for w, cards in enumerate(lay.work, start=1):
            shown = [c.token for c in sim.scene.piles.get((seat, "work", w), [])]
            assert shown == [c.face_str() for c in cards], (seat, w)
        nerts = [c.token for c in sim.scene.piles.get((seat, "nerts", 0), [])]
        assert nerts == [c.face_str() for c in lay.nerts]
        held = Counter(c.token for k, p in sim.scene.piles.items() if k[0] == seat for c in p)
        assert sum(held.values()) == len(lay.cards())
    on_foundations = sum(len(p) for k, p in sim.scene.piles.items() if k[0] is None)
    assert on_foundations == sum(len(p.cards) for p in ref.hand.order)


def test_frames_show_the_dealt_table_with_real_timing(sim: NertsSimulation) -> None:
    cam = CameraModel(width=640, height=360)
    renderer = TableRenderer(cam, rng=random.Random(1))
    frames = []
    for f in sim.scene.frames(renderer, end_ns=100_000_000):
        frames.append(f)
    assert [f.image.shape for f in frames[:1]] == [(360, 640, 3)]
    assert all(b.t_ns > a.t_ns for a, b in zip(frames, frames[1:], strict=False))
    assert frames[0].row_time_ns == round(12e6 / 360)
    sim.scene.reset()
    timing = next(cam.timings(rng=random.Random(1)))
    sim.scene.advance(cam, timing)
    seen = sim.scene.ground_truth_sightings(renderer, timing)
    faces = [s.card for s in seen if s.card != BACK]
    # Before "Go": each seat shows its Nerts top and four work cards.
    assert len(faces) == 20
    assert sum(1 for s in seen if s.card == BACK) >= 4


def test_moving_cards_are_skewed_by_the_rolling_shutter(sim: NertsSimulation) -> None:
    flight = next(f for f in sim.scene.flights if f.move is not None and f.dest[1] == "foundation")
    t = (flight.t_lift_ns + flight.t_land_ns) // 2
    rolling = CameraModel(width=640, height=360, shutter="rolling")
    glob = CameraModel(width=640, height=360, shutter="global")
    images = []
    for cam in (rolling, glob):
        r = TableRenderer(cam, rng=random.Random(1))
        sim.scene.reset()
        timing = next(tm for tm in cam.timings(start_ns=t, rng=random.Random(1)))
        images.append(sim.scene.render(r, timing).image.astype(int))
    # Same scene, same instant of row 0: the rolling shutter shows the moving card elsewhere.
    assert np.abs(images[0] - images[1]).mean() > 0.05


def test_written_simulation_reads_back(tmp_path: Path, sim: NertsSimulation) -> None:
    cam = CameraModel(width=320, height=180, fps=30.0)
    files = write_simulation(
        tmp_path,
        sim.scene,
        TableRenderer(cam, rng=random.Random(1)),
        game="nerts",
        truth=ground_truth_log(sim),
        fmt="png",
        seconds=0.3,
    )
    assert files.count == len(list((tmp_path / "frames").glob("*.png"))) >= 9
    times = read_frame_times(files.frames)
    assert len(times) == files.count and times[0][1] == round(12e6 / 180)
    table = json.loads(files.table.read_text())
    assert table["seats"] == SEATS and table["game"] == "nerts"
    header, events = read_table_log(files.truth)
    assert header.game == "nerts" and events[0].type == "hand_start" and "deal" in events[0].data


def test_live_frames_are_stamped_on_the_host_clock(sim: NertsSimulation) -> None:
    now = [5_000_000_000]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += int(s * 1e9)

    cam = CameraModel(width=160, height=90, fps=30.0, drop_rate=0.0)
    it = live_frames(sim.scene, TableRenderer(cam, rng=random.Random(1)), clock=lambda: now[0], sleep=sleep)
    frames = [next(it) for _ in range(3)]
    assert frames[0].t_ns >= 5_000_000_000
    assert [f.index for f in frames] == [0, 1, 2]
    assert slept and abs(frames[2].t_ns - frames[1].t_ns - 1e9 / 30) < 1e6
