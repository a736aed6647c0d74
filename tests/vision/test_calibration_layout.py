"""Calibration from the mat's markers, the table layouts and the camera model."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.calibration import Calibration, CalibrationError, TableMat, calibrate
from vision.layout import CARD_H_MM, NertsLayout, Pose, layout_for, place_seats
from vision.simulator.camera import CameraModel
from vision.simulator.render import TableRenderer


@pytest.fixture(scope="module")
def small_frame() -> tuple[CameraModel, NDArray[np.uint8]]:
    cam = CameraModel(width=1280, height=720)
    renderer = TableRenderer(cam, rng=random.Random(4))
    return cam, renderer.effects.add_noise(renderer.effects.light(renderer.background.copy()))


def test_calibration_recovers_the_cameras_homography(
    small_frame: tuple[CameraModel, NDArray[np.uint8]],
) -> None:
    cam, image = small_frame
    cal = calibrate(image)
    assert cal.markers == (0, 1, 2, 3)
    assert cal.rms_px < 1.0
    mat = TableMat()
    probes = np.array([[300.0, 200.0], [780.0, 439.0], [1400.0, 760.0]])
    for (x, y), (px, py) in zip(probes, cam.project(probes), strict=True):
        tx, ty = cal.to_table([(px, py)])[0]
        assert abs(tx - x) < 2.0 and abs(ty - y) < 2.0
    assert mat.width_mm > 0


def test_calibration_without_markers_names_the_problem() -> None:
    with pytest.raises(CalibrationError, match="no calibration marker"):
        calibrate(np.full((200, 300, 3), 80, np.uint8))


def test_calibration_round_trip() -> None:
    cal = Calibration.from_scale(0.8)
    ((x, y),) = cal.to_image(cal.to_table([(12.5, 40.0)]))
    assert (round(x, 6), round(y, 6)) == (12.5, 40.0)


def test_every_slot_lies_in_its_own_seats_zone() -> None:
    lay = NertsLayout(["Ana", "Ben", "Cal", "Dee"])
    for (seat, _region, _i), slot in lay.slots.items():
        assert lay.seat_of_point(slot.pose.x, slot.pose.y) == seat
        assert 0 < slot.pose.x < lay.width_mm and 0 < slot.pose.y < lay.height_mm


def test_foundations_do_not_overlap_any_layout() -> None:
    lay = NertsLayout(["Ana", "Ben", "Cal", "Dee"])
    centres = [(s.pose.x, s.pose.y) for s in lay.foundation_slots()]
    for key, slot in lay.slots.items():
        if key[0] is None:
            continue
        for cx, cy in centres:
            assert np.hypot(slot.pose.x - cx, slot.pose.y - cy) > CARD_H_MM


def test_seats_face_the_centre() -> None:
    places = place_seats(["a", "b", "c", "d"])
    for p in places.values():
        # A step toward the player moves away from the mat's centre.
        x0, y0 = p.to_table(0, 0)
        x1, y1 = p.to_table(0, 50)
        assert np.hypot(x1 - 780, y1 - 439) > np.hypot(x0 - 780, y0 - 439)
        assert p.to_local(*p.to_table(12.0, -7.0)) == pytest.approx((12.0, -7.0))
    with pytest.raises(ValueError, match="1 to 4"):
        place_seats(["a"] * 5)


def test_card_corners_turn_with_the_card() -> None:
    upright = Pose(0, 0, 0).corners(2, 4)
    turned = Pose(0, 0, 180).corners(2, 4)
    assert upright[0] == pytest.approx((-1, -2)) and turned[0] == pytest.approx((1, 2))


def test_layout_for_every_game() -> None:
    for game in ("nerts", "kierki", "smear", "rummy_3_13", "gnoming"):
        assert layout_for(game, ["a", "b", "c", "d"]).slots
    with pytest.raises(ValueError):
        layout_for("chess", ["a"])


def test_camera_timestamps_are_steady_with_rare_drops() -> None:
    cam = CameraModel(width=320, height=180, fps=60.0, drop_rate=0.05)
    times = []
    for t in cam.timings(rng=random.Random(3)):
        times.append(t)
        if len(times) == 400:
            break
    period = 1e9 / 60
    for a, b in zip(times, times[1:], strict=False):
        steps = b.index - a.index
        assert abs((b.t_ns - a.t_ns) - steps * period) < 0.5e6
    assert any(b.index - a.index > 1 for a, b in zip(times, times[1:], strict=False))
    assert times[0].row_time_ns == round(12e6 / 180)
    assert CameraModel(width=320, height=180, shutter="global").row_time_ns == 0
    with pytest.raises(ValueError):
        CameraModel(shutter="sideways")


def test_projection_keeps_the_mat_in_view() -> None:
    cam = CameraModel(width=1280, height=720)
    corners = cam.project(np.array([[0, 0], [1560, 0], [1560, 878], [0, 878]]))
    assert corners[:, 0].min() >= 0 and corners[:, 0].max() <= 1280
    assert corners[:, 1].min() >= 0 and corners[:, 1].max() <= 720
    # Cards come out 60 px tall or more, as the recognizer expects.
    assert CARD_H_MM * cam.px_per_mm() >= 60
