"""Training and benchmark scenes seen at a slant (``SceneConfig.perspective``).

A photo taken at a slant shows near cards larger than far ones, and a card's far side shorter than
its near side. ``bench/bench_recognizer.py --perspective 0.25`` measures the recognizer on such
scenes; the default (0.06, mild) keeps the scenes the models were trained on.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.training.scenes import Scene, SceneConfig, render_scene

CONFIG = SceneConfig(width=640, height=360, split="train", random_designs=0.0, hands=0.0, closeup=0.0)


def _skew(scene: Scene) -> float:
    """Mean ratio, over the scene's cards, of the longer to the shorter of two opposite sides."""
    ratios = []
    for card in scene.cards:
        q = np.asarray(card.quad, float)
        sides = [math.dist(q[k], q[(k + 1) % 4]) for k in range(4)]
        ratios += [max(sides[0], sides[2]) / min(sides[0], sides[2])]
        ratios += [max(sides[1], sides[3]) / min(sides[1], sides[3])]
    return float(np.mean(ratios))


def test_the_default_slant_draws_the_scenes_training_drew() -> None:
    a = render_scene(52_000, CONFIG)
    b = render_scene(52_000, replace(CONFIG, perspective=0.06))
    assert np.array_equal(a.image, b.image)


def test_a_camera_at_a_slant_draws_far_sides_shorter() -> None:
    straight = [_skew(render_scene(52_000 + k, replace(CONFIG, perspective=0.0))) for k in range(3)]
    slanted = [_skew(render_scene(52_000 + k, replace(CONFIG, perspective=0.25))) for k in range(3)]
    # Straight above, opposite sides of a card are equal (up to float rounding); at a slant they differ.
    assert max(straight) < 1.001
    assert min(slanted) > 1.01
