"""The live pipeline (vision.pipeline): it waits for the mat's markers, tells the tracker the
kiosk's buttons, refuses a game it cannot follow and a missing model with a clear error.

The recognizer here is the real one with tiny stand-in weights (it finds no card), so these run
without the shipped model; tests/kiosk/test_live_camera.py plays a rendered clip through the
shipped model.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

pytest.importorskip("onnxruntime")

from kiosk.games.referee import TableEvent  # noqa: E402
from tests.vision.tiny_models import write_model_dir  # noqa: E402
from vision.calibration import detect_markers  # noqa: E402
from vision.errors import ModelError  # noqa: E402
from vision.events import Frame  # noqa: E402
from vision.pipeline import CALIBRATION_PATIENCE, LivePipeline, PipelineError, build_pipeline  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.sources import IterableSource  # noqa: E402
from vision.trick_tracker import TrickTracker  # noqa: E402

SEATS = ["Ana", "Ben", "Cal", "Dee"]


def table_pictures(n: int) -> list[NDArray[np.uint8]]:
    """``n`` frames of the simulator's Nerts table (1280x720): the mat, its markers, the layouts."""
    from vision.simulator.camera import CameraModel
    from vision.simulator.nerts import simulate_nerts
    from vision.simulator.render import TableRenderer

    sim = simulate_nerts(2, seats=SEATS)
    renderer = TableRenderer(CameraModel(width=1280, height=720, fps=20), rng=random.Random(3))
    timings = renderer.camera.timings(rng=random.Random(1))
    return [sim.scene.render(renderer, t).image for t in itertools.islice(timings, n)]


def without_markers(image: NDArray[np.uint8], hide: tuple[int, ...] = (0, 1, 2, 3)) -> NDArray[np.uint8]:
    """The picture with the calibration markers ``hide`` covered (a mat whose corners are hidden)."""
    out = image.copy()
    for marker, corners in detect_markers(image).items():
        if marker not in hide:
            continue
        x0, y0 = (int(v) - 6 for v in corners.min(axis=0))
        x1, y1 = (int(v) + 6 for v in corners.max(axis=0))
        out[max(0, y0) : y1, max(0, x0) : x1] = out[max(0, y0) - 8, max(0, x0)]
    return out


@pytest.fixture(scope="module")
def pictures() -> list[NDArray[np.uint8]]:
    return table_pictures(3)


@pytest.fixture(scope="module")
def tiny_recognizer(tmp_path_factory: pytest.TempPathFactory) -> Recognizer:
    return Recognizer.load(write_model_dir(tmp_path_factory.mktemp("model")))


def test_frames_without_markers_give_no_events_then_the_mat_is_calibrated(
    tiny_recognizer: Recognizer, pictures: list[NDArray[np.uint8]]
) -> None:
    hidden = [without_markers(p) for p in pictures]
    assert all(detect_markers(p) for p in pictures) and not any(detect_markers(h) for h in hidden)
    pipeline = build_pipeline("nerts", SEATS, recognizer=tiny_recognizer)
    camera = IterableSource(
        [Frame(hidden[k % 3], k * 50_000_000, k) for k in range(CALIBRATION_PATIENCE + 5)], name="cam"
    )
    camera.open()
    while (frame := camera.read()) is not None:
        assert pipeline(frame) == []
    assert pipeline.calibration is None and pipeline.tracking is None
    assert pipeline.flush() == [] and pipeline.pile_position("F1") is None
    # The markers come into view: the mat is calibrated at once and tracking starts.
    assert pipeline(Frame(pictures[0], 10**9, 99)) == []
    assert pipeline.calibration is not None and sorted(pipeline.calibration.markers) == [0, 1, 2, 3]
    assert pipeline.tracking is not None and pipeline.tracking.frames == 1


def test_with_a_marker_hidden_it_waits_for_it_then_takes_the_best_view(
    tiny_recognizer: Recognizer, pictures: list[NDArray[np.uint8]]
) -> None:
    partial = without_markers(pictures[0], hide=(2,))
    assert sorted(detect_markers(partial)) == [0, 1, 3]
    pipeline = LivePipeline("nerts", SEATS, tiny_recognizer)
    for k in range(CALIBRATION_PATIENCE - 1):
        pipeline(Frame(partial, k * 50_000_000, k))
    assert pipeline.calibration is None
    pipeline(Frame(partial, 2 * 10**9, 40))
    assert pipeline.calibration is not None and sorted(pipeline.calibration.markers) == [0, 1, 3]


def test_the_trackers_hear_the_kiosks_buttons_in_time(
    tiny_recognizer: Recognizer, pictures: list[NDArray[np.uint8]]
) -> None:
    picture = pictures[0]
    pipeline = LivePipeline("kierki", SEATS, tiny_recognizer)
    # Pressed before the mat was calibrated, and stamped later than the first frames.
    pipeline.button(TableEvent("deal", 2 * 10**9, 0, None, {"deal": 12}))
    pipeline.button(TableEvent("play", 0, 0, "Ana", {"card": "AS"}))  # a camera event: not a button
    pipeline(Frame(picture, 10**9, 0))
    assert pipeline.tracking is not None
    tracker = pipeline.tracking.tracker
    assert isinstance(tracker, TrickTracker) and tracker.deal_number == 0
    pipeline(Frame(picture, 2 * 10**9, 1))
    assert tracker.deal_number == 12 and tracker.fan_tan is True
    assert [e.type for e in pipeline.tracking.pressed] == ["deal"]


def test_a_missing_model_is_a_clear_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"manifest\.json is missing; restore it"):
        build_pipeline("nerts", SEATS, model_dir=tmp_path)


@pytest.mark.parametrize(
    ("game", "seats", "message"),
    [
        ("chess", SEATS, "no table tracker for 'chess'"),
        ("smear", SEATS[:3], "smear is played by four seats, got 3"),
    ],
)
def test_a_table_it_cannot_follow_is_refused(game: str, seats: list[str], message: str) -> None:
    with pytest.raises(PipelineError, match=message):
        build_pipeline(game, seats)


@pytest.mark.parametrize(
    ("game", "options", "absent", "present"),
    [
        ("smear", {}, "6H", "7H"),
        ("nerts", {}, "JOKER", "AS"),
        ("nerts", {"jokers": 2}, "G7", "JOKER"),
        ("gnoming", {}, "7H", "G7"),
    ],
)
def test_the_recognizer_names_only_the_faces_of_the_game_in_play(
    tiny_recognizer: Recognizer,
    pictures: list[NDArray[np.uint8]],
    game: str,
    options: dict[str, int],
    absent: str,
    present: str,
) -> None:
    seats = SEATS if game != "smear" else ["S", "W", "N", "E"]
    pipeline = LivePipeline(game, seats, tiny_recognizer, options=options)
    pipeline(Frame(pictures[0], 10**9, 0))
    assert pipeline.tracking is not None
    faces = getattr(pipeline.tracking.recognizer, "faces", None)
    assert faces is not None and present in faces and absent not in faces
    # The loaded model is shared, not reloaded, and the original still names every face.
    assert tiny_recognizer.faces is None
