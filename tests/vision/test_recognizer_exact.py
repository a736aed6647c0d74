"""The recognizer's batched vote (:func:`vision.recognizer._identities`) and box clipping give exactly
what their one-card-at-a-time definitions give: trimming the per-frame work must not change a bit."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.postprocess import softmax
from vision.recognizer import _clip, _identities


def _one_at_a_time(
    face: NDArray[np.float32], cards: list[tuple[list[int], list[NDArray[np.float32]]]]
) -> NDArray[np.float32]:
    """Each card's readings combined on their own, as the vote was first written: the rows of the
    frame's log-probabilities added, then a softmax over every card."""
    logface = np.log(face + 1e-6)
    logp = np.zeros((len(cards), face.shape[1]), np.float32)
    for n, (rows, extra) in enumerate(cards):
        if extra:
            logp[n] = np.concatenate([logface[rows], np.log(np.stack(extra) + 1e-6)]).sum(axis=0)
        elif rows:
            logp[n] = logface[rows].sum(axis=0)
    out = softmax(logp)
    out[[not rows and not extra for rows, extra in cards]] = 0.0
    return out


def test_identities_of_a_frame_are_each_cards_own_vote() -> None:
    rng = np.random.default_rng(5)
    for trial in range(20):
        face = softmax((rng.normal(size=(int(rng.integers(0, 40)), 65)) * 4).astype(np.float32))
        rows = list(rng.permutation(len(face)))
        cards: list[tuple[list[int], list[NDArray[np.float32]]]] = []
        while rows or len(cards) < 3:
            k = int(rng.integers(0, 4 if trial % 2 else 12))
            mine, rows = [int(r) for r in rows[:k]], rows[k:]
            extra = [softmax(rng.normal(size=65).astype(np.float32))] if rng.random() < 0.2 else []
            cards.append((mine, extra))
        got = _identities(face, cards)
        assert np.array_equal(got.view(np.uint32), _one_at_a_time(face, cards).view(np.uint32)), trial


def test_clip_keeps_a_box_in_the_frame() -> None:
    assert _clip((-3.5, 2.0, 1300.25, 800.0), 1280, 720) == (0.0, 2.0, 1280, 720)
    box = (10.0, -0.0, 20.5, 30.0)
    assert _clip(box, 1280, 720) == tuple(
        min(max(v, 0.0), s) for v, s in zip(box, (1280, 720, 1280, 720), strict=True)
    )
