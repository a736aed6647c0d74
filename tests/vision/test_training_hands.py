"""Training scenes with hands holding cards, and the detector targets of cards under a hand.

A player carries a card by its near end; the camera then sees the card with a hand over part of it.
``SceneConfig.hands_on_cards`` draws such grips, and ``SceneConfig.amodal_under_hands`` teaches the
detector the centre of a card whose centre the hand hides, when enough of the card shows (a centre
hidden by another card is never taught: fans and cascades are read from their indices).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.heads import FACE_HEAT
from vision.training.scenes import CardLabel, Scene, SceneConfig, render_scene
from vision.training.targets import CELL, detector_targets
from vision.training.textures import draw_hand

CONFIG = SceneConfig(width=512, height=512, layouts=(2, 3, 3, 4, 5), hands=1.0)


def _scenes(cfg: SceneConfig, n: int, first: int = 31_000) -> list[Scene]:
    return [render_scene(first + k, cfg) for k in range(n)]


def _heat_at(scene: Scene, card: CardLabel) -> float:
    h, w = scene.image.shape[:2]
    t = detector_targets(scene, int(h / CELL), int(w / CELL))
    x, y = card.center
    u, v = int(x / CELL), int(y / CELL)
    return float(t.heat[FACE_HEAT, max(0, v - 1) : v + 2, max(0, u - 1) : u + 2].max())


def test_a_hand_holding_a_card_covers_part_of_it() -> None:
    """A card about 60 px wide and 90 px long in the middle of an empty table: held, it mostly shows
    in part (the hand over its near end), never less than a quarter of it; a hand reaching anywhere
    often misses it."""
    held, missed = [], 0
    for seed in range(12):
        img = np.full((400, 400, 3), 90, np.uint8)
        label = np.full((400, 400), -1, np.int16)
        label[155:245, 170:230] = 0
        draw_hand(np.random.default_rng(seed), img, label, grip=(200.0, 200.0), grip_width=60.0)
        held.append(float((label == 0).sum()) / (90 * 60))
        free = np.full((400, 400), -1, np.int16)
        free[155:245, 170:230] = 0
        draw_hand(np.random.default_rng(seed), img.copy(), free)
        missed += int((free == 0).sum()) == 90 * 60
    # The fingers reach from past the centre to the near edge: the hand covers from about two
    # thirds of the card down to a corner of it (or, now and then, stops just short).
    assert sum(0.25 <= v <= 0.92 for v in held) >= 10, held
    assert min(held) >= 0.25, held
    assert missed >= 3


def test_a_card_whose_centre_a_hand_hides_is_taught_its_centre_only_when_asked() -> None:
    cfg = replace(CONFIG, hands_on_cards=1.0, amodal_under_hands=0.3)
    found = [
        (s, c)
        for s in _scenes(cfg, 30)
        for c in s.cards
        if c.center_amodal and c.token != "BACK"
    ]
    assert found, "no held card with its centre under the hand in 30 scenes"
    for scene, card in found:
        assert not card.center_visible and card.visible >= 0.3
        assert _heat_at(scene, card) >= 0.999
    # The same scenes without the option: the same cards, no centre target.
    plain = replace(cfg, amodal_under_hands=0.0)
    for scene, card in found[:3]:
        again = render_scene(scene.seed, plain)
        twin = min(again.cards, key=lambda c: float(np.hypot(*np.subtract(c.center, card.center))))
        assert twin.token == card.token and not twin.center_amodal
        assert _heat_at(again, twin) < 0.999


def test_a_centre_hidden_by_another_card_is_never_taught() -> None:
    cfg = replace(CONFIG, hands=0.0, amodal_under_hands=0.01)
    covered = [c for s in _scenes(cfg, 20) for c in s.cards if not c.center_visible]
    assert covered
    assert not any(c.center_amodal for c in covered)


def test_a_hand_without_fingers_is_a_blob() -> None:
    """A hand moving fast is filmed as a blob: without fingers it mostly still covers part of the held
    card (less of it: no fingers reach over it), and it has no thin strokes (what a 15 px opening
    removes: fingers are 13 px wide here)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15))

    def hand(seed: int, fingers: bool) -> tuple[NDArray[np.bool_], float]:
        label = np.zeros((400, 400), np.int16)
        label[155:245, 170:230] = 1
        img = np.full((400, 400, 3), 90, np.uint8)
        rng = np.random.default_rng(seed)
        draw_hand(rng, img, label, grip=(200.0, 200.0), grip_width=60.0, fingers=fingers)
        return label == -1, float((label == 1).sum()) / (90 * 60)

    covered = 0
    for seed in range(6):
        blob, shows = hand(seed, fingers=False)
        covered += shows < 0.95
        thin = blob & ~cv2.morphologyEx(blob.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)
        with_fingers, _ = hand(seed, fingers=True)
        opened = cv2.morphologyEx(with_fingers.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)
        assert thin.sum() < 0.5 * (with_fingers & ~opened).sum()
    assert covered >= 4
