"""A simulated Kierki match (all 12 deals): its truth refereed whole, and the trick tracker on the
simulator's exact sightings with injected faults (trump deals, Fan Tan rows, the final reveal)."""

from __future__ import annotations

import pytest

from kiosk.games.referee import TableEvent
from kiosk.replay import replay_events
from vision.simulator.camera import CameraModel
from vision.simulator.kierki import BUTTON_EVENTS
from vision.simulator.tricks import TrickSimulation, simulate_kierki
from vision.simulator.truth_tracking import camera_calibration, score_events, track_truth_sightings
from vision.trick_tracker import TrickTracker, kierki_fan_tan_deals

FIXED_TOTALS = [-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325, 1300]


@pytest.fixture(scope="module")
def match() -> TrickSimulation:
    return simulate_kierki(3, deals=12)


def _deal_window(sim: TrickSimulation, number: int) -> tuple[int, int]:
    starts = [e.t_ns for e in sim.events if e.type == "deal"]
    end = starts[number] if number < len(starts) else sim.scene.end_ns
    return starts[number - 1], end


def _track(sim: TrickSimulation, start: int, end: int) -> list[TableEvent]:
    cam = CameraModel(width=640, height=360, fps=30.0)
    tracker = TrickTracker(sim.layout, camera_calibration(cam), fan_tan_deals=kierki_fan_tan_deals())
    # Joining a deal under way: the tracker is told the deal and the cards already played in it, as
    # it would know them had it watched from the deal's start.
    before = [e for e in sim.events if e.t_ns < start]
    deal = [e for e in before if e.type == "deal"][-1]
    tracker.button(deal)
    tracker.seen.update(str(e.get("card")) for e in before if e.type == "play" and e.t_ns >= deal.t_ns)
    buttons = [e for e in sim.events if e.type in BUTTON_EVENTS and start <= e.t_ns < end]
    return track_truth_sightings(sim.scene, tracker, cam, buttons, start_ns=start, end_ns=end, seed=5).events


def test_the_whole_match_is_refereed_cleanly(match: TrickSimulation) -> None:
    report = replay_events(match.header, match.events)
    assert not report.infractions
    assert [sum(row.values()) for row in report.hands] == FIXED_TOTALS
    assert [e.get("deal") for e in match.events if e.type == "deal"] == list(range(1, 13))
    # Trumps are named by the dealer of deals 8 to 11, right after their deal event.
    kinds = [e.type for e in match.events if e.type in ("deal", "trump")]
    assert kinds[-9:] == ["deal", "trump"] * 4 + ["deal"]
    # After Fan Tan the two seats still holding cards show them.
    assert [e.type for e in match.events[-2:]] == ["reveal", "reveal"]


def test_a_trump_deal_is_tracked_from_its_first_tricks(match: TrickSimulation) -> None:
    start, _ = _deal_window(match, 8)
    truth = [e for e in match.events if e.t_ns >= start and e.type in ("play", "collect")][:12]
    end = truth[-1].t_ns + 600_000_000
    got = [e for e in _track(match, start - 100_000_000, end) if e.t_ns <= end]
    sc = score_events(truth, got)
    assert (sc.right, sc.false, sc.missed) == (12, 0, 0), sc.misses + sc.falses


def test_fan_tan_plays_and_the_reveal_are_tracked(match: TrickSimulation) -> None:
    start, end = _deal_window(match, 12)
    camera = [e for e in match.events if e.t_ns >= start and e.type in ("play", "reveal")]
    # The last part of the deal: cards already in the rows are seen at rest and make no event.
    since = camera[-8].t_ns - 700_000_000
    truth = [e for e in camera if e.t_ns > since]
    got = [e for e in _track(match, since, end) if e.type in ("play", "reveal") and e.t_ns > since]
    sc = score_events(truth, got)
    assert (sc.right, sc.false, sc.missed) == (len(truth), 0, 0), sc.misses + sc.falses
    assert {e.seat for e in got if e.type == "reveal"} == {e.seat for e in truth if e.type == "reveal"}


def test_a_few_frames_render_the_fan_tan_rows(match: TrickSimulation) -> None:
    import random

    from vision.simulator.render import TableRenderer

    cam = CameraModel(width=320, height=180, fps=10.0)
    renderer = TableRenderer(cam, rng=random.Random(1))
    start, _ = _deal_window(match, 12)
    play = next(e for e in match.events if e.type == "play" and e.t_ns > start)
    frames = list(match.scene.frames(renderer, start_ns=play.t_ns - 300_000_000, end_ns=play.t_ns))
    assert len(frames) >= 3
    assert all(f.image is not None and f.image.shape == (180, 320, 3) for f in frames)
