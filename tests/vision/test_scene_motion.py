"""Cards drawn moving in the training scenes (``SceneConfig.card_motion``): smeared as a camera's
exposure smears a card carried across the table, their labels where the smear is centred."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.training.scenes import SceneConfig, _composite, render_scene


def _sharpness(image: NDArray[np.uint8]) -> float:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.abs(cv2.Laplacian(grey, cv2.CV_32F)).mean())


def _drawn(motion: tuple[int, float] | None) -> tuple[NDArray[np.uint8], NDArray[np.int16]]:
    """A checkered card drawn on a grey table, still or moving."""
    card = np.zeros((90, 60, 4), np.uint8)
    card[..., 3] = 255
    card[..., :3] = 255
    card[::10, :, :3] = 0
    card[:, ::10, :3] = 0
    img = np.full((200, 200, 3), 90, np.uint8)
    label = np.full((200, 200), -1, np.int16)
    quad = np.array([[70.0, 55.0], [130.0, 55.0], [130.0, 145.0], [70.0, 145.0]])
    _composite(img, label, card, quad, 0, random.Random(1), motion)
    return img, label


def test_a_moving_card_is_smeared_along_its_motion_and_labelled_where_it_lies() -> None:
    still, still_label = _drawn(None)
    moving, moving_label = _drawn((8, 0.0))  # 8 px, across the image
    inside = (slice(65, 135), slice(80, 120))
    assert _sharpness(moving[inside]) < 0.7 * _sharpness(still[inside])
    # Smeared across, not up and down: the card's top and bottom edges stay where they were.
    rows = np.flatnonzero((moving_label == 0).any(axis=1))
    assert abs(int(rows[0]) - 55) <= 1 and abs(int(rows[-1]) - 145) <= 1
    # Its label covers the card, the smear's half-covered fringe aside.
    covered, moved = int((still_label == 0).sum()), int((moving_label == 0).sum())
    assert abs(moved - covered) < 0.05 * covered


def test_scenes_with_moving_cards_are_labelled_as_any_scene() -> None:
    cfg = SceneConfig(closeup=0.0, card_motion=1.0)
    for seed in (11, 12):
        scene = render_scene(seed, cfg)
        assert scene.cards
        h, w = scene.image.shape[:2]
        for card in scene.cards:
            assert card.quad.shape == (4, 2)
            assert 0.0 <= card.visible <= 1.0
        assert scene.image.shape == (h, w, 3)


def test_scenes_without_moving_cards_are_drawn_as_before() -> None:
    # The option draws nothing from the scene's random stream when off: training data stays reproducible.
    cfg = SceneConfig()
    assert cfg.card_motion == 0.0
    assert np.array_equal(render_scene(5, cfg).image, render_scene(5, replace(cfg, card_motion=0.0)).image)
