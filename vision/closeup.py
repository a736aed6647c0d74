"""Close-ups: one card filling most of the frame (a phone photo, a card held up to the camera).

The detector was trained on cards 27-80 px long in its input (a table seen
from above, at half size). A close-up's card is 300-700 px long there, far out
of that range, and the first look reads junk or nothing. So the recognizer
looks again with the whole frame shrunk until the card has a size the detector
knows. The first look's estimate of that size is poor (it sees the card out of
its range, often cut by the frame's edge), and one look at a scale guessed
from it read only 36 of 93 held-out close-ups right (seeds from 930,000); no
single scale reads them all either, but the scales err in different ways. So
the frame is read at each long side in :data:`CLOSEUP_SIDES` and the readings
vote (:func:`vote`): 74 of those 93 right, and 118 of the next 139 against 55.
On 200 held-out close-ups scored as the recognizer's benchmark scores tables
(``python bench/bench_recognizer.py --scenes 200 --closeups``), false cards
fell from 23.5 % to 8.9 %, recall rose from 80 % to 94 %, and backs were
found 86 % of the time instead of 5 %. A look that names two faces or more
shows a photo of several large cards instead, which the recognizer does not
reduce to one (:meth:`vision.recognizer.Recognizer.recognize`).

Glossary: a **reading** is the list of sightings one look produced; a face's
**support** is the sum, over the readings that name it, of its best score in
each.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.events import UNKNOWN, CardSighting

__all__ = ["CLOSEUP_SIDES", "KEEP_SHARE", "KEEP_READINGS", "vote", "merged", "shrunk"]

CLOSEUP_SIDES = (80, 112, 160)
"""Detector-input long sides a close-up is read at, about 1.4 times apart: a card 360-900 px long in a
1280×720 frame comes out 22-56 px long at the first and 45-112 px at the last, and the detector was
trained on 27-80. Of the sets of three to eight sides from 64 to 224 tried on those 232 close-ups,
these read within 2 % as many right as the best, with the fewest misreads, in three looks."""
KEEP_SHARE = 0.5
"""A second face is kept beside the best-supported one only with at least this share of its
support ..."""
KEEP_READINGS = 3
"""... and named by at least this many readings: one reading's stray index is not a second card."""


def vote(readings: list[list[CardSighting]]) -> list[CardSighting]:
    """One sighting per face the readings of one frame agree on, best supported first.

    ``UNKNOWN`` sightings do not vote (a card no look could name stays unreported here, and the
    caller keeps its first look). Each face kept is reported as its best-scored sighting, merged
    with the other sightings of that face in the same reading (one card's two corner indices can
    come out as two cards at a scale where its centre is not found).

    >>> a = CardSighting("5D", 0.97, (10.0, 10.0, 90.0, 120.0), None, ((10.0, 10.0, 20.0, 30.0),))
    >>> b = CardSighting("5D", 0.81, (80.0, 100.0, 95.0, 130.0), None, ((80.0, 100.0, 95.0, 130.0),))
    >>> junk = CardSighting("G5", 0.94, (0.0, 0.0, 9.0, 9.0))
    >>> unsure = CardSighting("UNKNOWN", 0.4, a.box)
    >>> [(s.card, s.score, s.box) for s in vote([[a, b], [a], [junk], [a, unsure]])]
    [('5D', 0.97, (10.0, 10.0, 95.0, 130.0))]
    """
    support: dict[str, float] = {}
    named: dict[str, int] = {}
    best: dict[str, tuple[float, int]] = {}
    for n, reading in enumerate(readings):
        top: dict[str, float] = {}
        for s in reading:
            if s.card != UNKNOWN:
                top[s.card] = max(top.get(s.card, 0.0), s.score)
        for card, score in top.items():
            support[card] = support.get(card, 0.0) + score
            named[card] = named.get(card, 0) + 1
            if score > best.get(card, (-1.0, 0))[0]:
                best[card] = (score, n)
    if not support:
        return []
    ranked = sorted(support, key=lambda c: -support[c])
    winner = ranked[0]
    kept = [winner] + [
        c for c in ranked[1:] if support[c] >= KEEP_SHARE * support[winner] and named[c] >= KEEP_READINGS
    ]
    return [merged([s for s in readings[best[c][1]] if s.card == c]) for c in kept]


def merged(same: list[CardSighting]) -> CardSighting:
    """One sighting from several of the same face in one reading: the best one's score and outline,
    the union of their boxes, all their corner indices.

    >>> low = CardSighting("BACK", 0.6, (0.0, 0.0, 5.0, 5.0))
    >>> merged([low, CardSighting("BACK", 0.7, (4.0, 4.0, 9.0, 9.0))])
    CardSighting(card='BACK', score=0.7, box=(0.0, 0.0, 9.0, 9.0), quad=None, corners=(), alternatives=())
    """
    top = max(same, key=lambda s: s.score)
    if len(same) == 1:
        return top
    box = (
        min(s.box[0] for s in same),
        min(s.box[1] for s in same),
        max(s.box[2] for s in same),
        max(s.box[3] for s in same),
    )
    quads = [s.quad for s in sorted(same, key=lambda s: -s.score) if s.quad is not None]
    return CardSighting(
        top.card,
        top.score,
        box,
        quads[0] if quads else None,
        tuple(c for s in same for c in s.corners),
        top.alternatives,
    )


def shrunk(image: NDArray[np.uint8], long_side: int) -> NDArray[np.uint8]:
    """``image`` with its long side at most ``long_side`` (pixel areas averaged): the looks at a
    close-up resize from this copy, each a fraction of a millisecond, instead of from the whole
    frame, about 1.4 ms each at 1280×720.

    >>> shrunk(np.zeros((720, 1280, 3), np.uint8), 448).shape
    (252, 448, 3)
    """
    h, w = image.shape[:2]
    k = long_side / max(h, w)
    if k >= 1.0:
        return image
    size = (max(1, int(round(w * k))), max(1, int(round(h * k))))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
