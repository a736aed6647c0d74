"""The end-of-hand audit counted by the camera (vision.audit, vision.simulator.audit; rules/nerts.md §12).

The frames are the simulator's: each seat's foundation cards, then its Nerts cards, spread face down
on the table of a simulated hand (its held-out designs, surface and light), filmed at 10 fps to keep
the test short; the shipped video model tells the empty table.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

pytest.importorskip("onnxruntime")

from kiosk.games.referee import TableEvent  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from vision.audit import AuditWatcher, BackCounter  # noqa: E402
from vision.calibration import Calibration, calibrate  # noqa: E402
from vision.events import Frame  # noqa: E402
from vision.layout import CARD_H_MM, CARD_W_MM, NertsLayout  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.simulator.audit import (  # noqa: E402
    AUDIT_COLUMNS,
    audit_counts,
    audit_events,
    audit_frames,
    audit_poses,
)
from vision.simulator.camera import CameraModel  # noqa: E402
from vision.simulator.nerts import NertsSimulation, ground_truth_log, simulate_nerts  # noqa: E402
from vision.simulator.render import TableRenderer  # noqa: E402

SEATS = ("Ana", "Ben", "Cal", "Dee")
S = 1_000_000_000
CAMERA = CameraModel(width=1280, height=720, fps=10.0, shutter="rolling", readout_ms=12.0, exposure_ms=4.0)


@pytest.fixture(scope="module")
def sim() -> NertsSimulation:
    return simulate_nerts(3, seats=SEATS)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load_for_video(threads=1)


def filmed(
    sim: NertsSimulation, counts: dict[str, tuple[int, int]], seed: int = 1, camera: CameraModel = CAMERA
) -> Iterator[tuple[str, Frame]]:
    renderer = TableRenderer(camera, rng=random.Random(seed))
    return audit_frames(sim.layout, sim.designs, counts, renderer, 30_000_000_000, random.Random(seed))


def test_grids_lie_on_the_mat_without_overlap() -> None:
    layout = NertsLayout(list(SEATS))
    rng = random.Random(0)
    centres = []
    for seat in SEATS:
        poses = audit_poses(layout, seat, 30, rng)
        assert len(poses) == 30
        for p in poses:
            assert CARD_H_MM / 2 < p.x < layout.width_mm - CARD_H_MM / 2
            assert CARD_H_MM / 2 < p.y < layout.height_mm - CARD_H_MM / 2
            # Every card lies in its own seat's zone, nearest its own layout.
            nearest = min(
                SEATS,
                key=lambda s: (layout.place_of(s).origin[0] - p.x) ** 2
                + (layout.place_of(s).origin[1] - p.y) ** 2,
            )
            assert nearest == seat
        centres += [(p.x, p.y) for p in poses]
    # Cells: no two cards closer than a card's width (their outlines would overlap).
    for i, (x0, y0) in enumerate(centres):
        for x1, y1 in centres[i + 1 :]:
            assert (x0 - x1) ** 2 + (y0 - y1) ** 2 > CARD_W_MM**2
    assert AUDIT_COLUMNS == 8


def test_counts_are_the_refereed_hands() -> None:
    """The audit shows what the referee scored: each seat's foundation cards and Nerts cards left,
    the bots' own end-of-hand count for a whole hand."""
    sim = simulate_nerts(5, seats=SEATS)
    header, truth = ground_truth_log(sim)
    counts = audit_counts(header, truth)
    bots = {e.seat: (e.get("foundation"), e.get("nerts")) for e in truth if e.type == "count"}
    assert counts == bots
    assert sum(f for f, _ in counts.values()) == sum(1 for e in truth if e.type == "foundation_play") - sum(
        1 for r in replay_events(header, truth).rulings if r.kind == "race"
    )
    with pytest.raises(ValueError, match="no scored hand"):
        audit_counts(header, [e for e in truth if e.type != "hand_end"])


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_counter_counts_each_seats_backs(sim: NertsSimulation, size: tuple[int, int]) -> None:
    """At the kiosk's 1280 x 720 and at 1920 x 1080."""
    counts = {"Ana": (27, 0), "Ben": (1, 0), "Cal": (0, 0), "Dee": (12, 0)}
    camera = dataclasses.replace(CAMERA, width=size[0], height=size[1])
    frames = {name: frame for name, frame in filmed(sim, counts, camera=camera)}
    cal = calibrate(frames["clear"].image)
    counter = BackCounter(sim.layout, cal, *size)
    assert counter.count(frames["foundation"].image, frames["clear"].image) == {
        "Ana": 27,
        "Ben": 1,
        "Cal": 0,
        "Dee": 12,
    }
    # Nothing laid: nothing counted, though the two empty frames' noise differs.
    assert set(counter.count(frames["nerts"].image, frames["clear"].image).values()) == {0}
    with pytest.raises(ValueError, match=f"the counter was made for {size[0]}x{size[1]}"):
        counter.count(frames["clear"].image[:360], frames["clear"].image[:360])


def test_watcher_writes_each_seats_counts(sim: NertsSimulation, recognizer: Recognizer) -> None:
    counts = {"Ana": (9, 4), "Ben": (0, 13), "Cal": (17, 0), "Dee": (3, 8)}
    watcher: AuditWatcher | None = None
    out: list[TableEvent] = []
    phases = []
    for name, frame in filmed(sim, counts, seed=2):
        if watcher is None:
            watcher = AuditWatcher(sim.layout, calibrate(frame.image))
        out += watcher.feed(frame, recognizer.recognize(frame.image))
        phases.append((name, watcher.phase))
    assert watcher is not None and watcher.phase == "done"
    assert {e.seat: (e.get("foundation"), e.get("nerts")) for e in out} == counts
    assert all(e.type == "count" for e in out)
    # It counted each grid while it lay there, after it had lain still a while.
    assert ("foundation", "cleared") in phases and ("nerts", "done") in phases
    assert watcher.finish() == []


def test_no_empty_table_no_counts(sim: NertsSimulation, recognizer: Recognizer) -> None:
    """A watcher that never saw the table cleared has nothing to measure against: no counts (the
    referee then keeps live tracking), never a guess."""
    watcher = AuditWatcher(sim.layout, Calibration.from_scale(1.45))
    for name, frame in filmed(sim, {"Ana": (5, 2), "Ben": (4, 1), "Cal": (3, 3), "Dee": (2, 2)}):
        if name == "clear":
            continue
        assert watcher.feed(frame, recognizer.recognize(frame.image)) == []
    assert watcher.phase == "empty" and watcher.finish() == []
    with pytest.raises(ValueError, match="has none"):
        watcher.feed(Frame(None, 0), [])


def test_audit_overrides_what_live_tracking_missed() -> None:
    """A play the camera missed and a Nerts card it did not see leave change the live score; with the
    audit's counts the hand scores as it really went."""
    sim = simulate_nerts(4, seats=SEATS)
    header, truth = ground_truth_log(sim)
    true_scores = replay_events(header, truth).hands[-1]
    counts = audit_counts(header, truth)
    # What a camera-level referee is given: no deal, no counts; one play and one Nerts move lost.
    end = next(e for e in truth if e.type == "hand_end")
    seen = [
        dataclasses.replace(e, data={}) if e.type == "hand_start" else e
        for e in truth
        if e.type not in ("count", "hand_end")
    ]
    play = next(e for e in seen if e.type == "foundation_play" and e.get("from") == "nerts")
    seen.remove(play)
    camera = type(header)(header.game, header.seats, header.options)
    live = replay_events(camera, [*seen, end]).hands[-1]
    assert live != true_scores
    audited = replay_events(camera, [*seen, *audit_events(counts, end.t_ns), end])
    assert audited.hands[-1] == true_scores
    assert any(r.kind == "audit" for r in audited.rulings)


@pytest.mark.parametrize("house", [{}, {"attribution_source": "tracking_only"}])
def test_kiosk_track_counts_the_audit_after_the_call(
    sim: NertsSimulation, recognizer: Recognizer, house: dict[str, str]
) -> None:
    """``kiosk track`` and the live camera (vision.video_tracking) watch for the audit from the "Nerts!"
    call on, and log its counts before the hand's end; a house that holds no audit gets none."""
    from vision.video_tracking import track_frames

    counts = {"Ana": (6, 0), "Ben": (11, 3), "Cal": (2, 7), "Dee": (0, 12)}
    frames = (frame for _, frame in filmed(sim, counts, seed=3))
    call = TableEvent("call", 0, 0, "Ana", {})
    result = track_frames(frames, recognizer, game="nerts", seats=SEATS, buttons=[call], options=house)
    logged = [e for e in result.events if e.type == "count"]
    if house:
        assert logged == []
        return
    assert {e.seat: (e.get("foundation"), e.get("nerts")) for e in logged} == counts
    assert [e.type for e in result.events][-1] == "hand_end"
    assert all(e.type in ("hand_start", "call", "count", "hand_end") for e in result.events)


def test_an_arm_over_the_cleared_table_is_not_the_empty_table(
    sim: NertsSimulation, recognizer: Recognizer
) -> None:
    """An arm still sweeping over the cleared table (no card in view) is not the empty table: measured
    against it, the bare cloth where it lay would count as cards. Here it keeps the watcher from taking
    the table as empty until the foundation grids are down; those are then never counted (their
    foundation counts stay unknown, live tracking keeps them), and the next grids are known for the
    Nerts grids by the grids seen before, never taken for the foundation grids."""
    import cv2
    import numpy as np

    counts = {"Ana": (7, 2), "Ben": (3, 9), "Cal": (12, 0), "Dee": (5, 5)}
    watcher: AuditWatcher | None = None
    out: list[TableEvent] = []
    first_clear: int | None = None
    for name, frame in filmed(sim, counts, seed=4):
        if watcher is None:
            watcher = AuditWatcher(sim.layout, calibrate(frame.image))
        image = frame.image
        if name == "clear" and watcher.grids_seen == 0:
            first_clear = frame.t_ns if first_clear is None else first_clear
            # A sleeve sweeping across the near half of the mat while the table is cleared.
            image = image.copy()
            x = 300 + int((frame.t_ns - first_clear) / 1e6)
            arm = np.array([[x, 720], [x + 110, 720], [x + 260, 420], [x + 170, 400]], np.int32)
            cv2.fillPoly(image, [arm], (60, 90, 150))
        out += watcher.feed(Frame(image, frame.t_ns), recognizer.recognize(image))
    assert watcher is not None and watcher.phase == "done" and watcher.grids_seen == 2
    assert {e.seat: e.data for e in out} == {s: {"nerts": n} for s, (_, n) in counts.items()}


def test_the_next_hand_is_followed_after_an_audit(sim: NertsSimulation, recognizer: Recognizer) -> None:
    """The live camera follows hand after hand: once an audit is counted the tracker follows play
    again (the next deal's Nerts tops are logged), and the next call's audit is counted anew."""
    from vision.video_tracking import track_frames

    first = {"Ana": (6, 1), "Ben": (9, 0), "Cal": (4, 5), "Dee": (8, 2)}
    second = {"Ana": (11, 0), "Ben": (2, 7), "Cal": (5, 3), "Dee": (13, 4)}
    renderer = TableRenderer(CAMERA, rng=random.Random(5))

    def frames() -> Iterator[Frame]:
        yield from (
            f for _, f in audit_frames(sim.layout, sim.designs, first, renderer, 30 * S, random.Random(1))
        )
        sim.scene.reset()  # the next hand dealt: its table filmed for a second and a half
        for timing in CAMERA.timings(start_ns=0, rng=random.Random(2)):
            if timing.t_ns > 1_500_000_000:
                break
            f = sim.scene.render(renderer, timing)
            yield Frame(f.image, 40 * S + f.t_ns, f.index, f.row_time_ns, f.exposure_ns)
        yield from (
            f for _, f in audit_frames(sim.layout, sim.designs, second, renderer, 50 * S, random.Random(3))
        )

    calls = [TableEvent("call", 29 * S, 0, "Ana", {}), TableEvent("call", 49 * S, 0, "Cal", {})]
    result = track_frames(frames(), recognizer, game="nerts", seats=SEATS, buttons=calls)
    counted = [e for e in result.events if e.type == "count"]
    assert [{e.seat: (e.get("foundation"), e.get("nerts")) for e in counted[k : k + 4]} for k in (0, 4)] == [
        first,
        second,
    ]
    tops = [e for e in result.events if e.type == "nerts_top"]
    assert tops and all(40 * S < e.t_ns < 50 * S for e in tops), "the next hand's deal was followed"
