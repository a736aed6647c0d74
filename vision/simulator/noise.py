"""Imperfect sightings from perfect ones: box jitter, dropped cards and misreads.

The simulator's ground-truth sightings (:meth:`vision.simulator.scene.TableScene.ground_truth_sightings`)
are exact. A real recogniser's boxes wobble by a fraction of a pixel, it misses a card now and
then (flicker) and, rarely, reads one wrong for a frame. :func:`perturb` adds exactly those
faults, so the tracker can be measured on its own against faults of a known size.

>>> import random
>>> from vision.events import CardSighting
>>> s = [CardSighting("5H", 1.0, (10.0, 10.0, 50.0, 70.0))]
>>> len(perturb(s, random.Random(0), drop=1.0))
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from vision.events import CardSighting

__all__ = ["perturb", "FACES"]

FACES: tuple[str, ...] = tuple(
    r + s for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
)


def perturb(
    sightings: Sequence[CardSighting],
    rng: random.Random,
    *,
    jitter_px: float = 0.4,
    drop: float = 0.05,
    misread: float = 0.005,
    faces: Sequence[str] = FACES,
) -> list[CardSighting]:
    """Returns the sightings with each box side moved by N(0, ``jitter_px``), each card dropped
    with probability ``drop`` and read as a random other face (of ``faces``: the deck's, by
    default a standard deck's) with probability ``misread``."""
    out = []
    for s in sightings:
        if rng.random() < drop:
            continue
        card = s.card
        if rng.random() < misread:
            card = rng.choice([f for f in faces if f != s.card])
        box = tuple(v + rng.gauss(0.0, jitter_px) for v in s.box)
        quad = (
            tuple((x + rng.gauss(0.0, jitter_px), y + rng.gauss(0.0, jitter_px)) for x, y in s.quad)
            if s.quad
            else None
        )
        out.append(CardSighting(card, s.score, (box[0], box[1], box[2], box[3]), quad, s.corners))
    return out
