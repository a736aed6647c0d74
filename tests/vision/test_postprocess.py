"""Joining detections into physical cards (:func:`vision.postprocess.group`): one entry per card."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.postprocess import CardDet, IndexDet, group


def _card(cx: float, cy: float, *, back: bool = False, score: float = 0.9) -> CardDet:
    # A 100 x 70 px card, long axis vertical.
    return CardDet(cx, cy, 100.0, 70.0, np.pi / 2, 1.0, score, back)


def _index(
    cx: float, cy: float, card_cx: float, card_cy: float, up: tuple[float, float] = (0.0, -1.0)
) -> IndexDet:
    return IndexDet(cx, cy, up[0], up[1], 10.0, 20.0, card_cx, card_cy, 0.9)


def _labels(n: int) -> NDArray[np.int64]:
    return np.zeros(n, np.int64)


def test_index_pointing_a_little_off_still_joins_its_card() -> None:
    # The card is cut by the frame's edge, so its index's centre estimate is 40 px (0.4 of the card's
    # length) off: still one card, not an UNKNOWN centre plus a named index.
    card = _card(300, 200)
    idx = _index(272, 162, 300, 240)
    groups = group([card], [idx], _labels(1))
    assert len(groups) == 1
    assert groups[0].card is card and groups[0].indices == [0]


def test_face_up_and_face_down_peaks_on_one_card_are_one_card() -> None:
    face, back = _card(300, 200, score=0.8), _card(303, 198, back=True, score=0.6)
    idx = _index(272, 162, 300, 200)
    groups = group([face, back], [idx], _labels(1))
    assert [(g.card is face, g.indices) for g in groups] == [(True, [0])]


def test_stronger_of_two_centre_only_peaks_is_kept() -> None:
    weak, strong = _card(300, 200, score=0.5), _card(310, 205, score=0.9)
    groups = group([weak, strong], [], _labels(0))
    assert [g.card for g in groups] == [strong]


def test_two_cards_side_by_side_stay_two() -> None:
    a, b = _card(300, 200), _card(380, 200)
    ia, ib = _index(272, 162, 300, 200), _index(352, 162, 380, 200)
    groups = group([a, b], [ia, ib], _labels(2))
    assert sorted((id(g.card), tuple(g.indices)) for g in groups) == sorted([(id(a), (0,)), (id(b), (1,))])


def test_index_of_another_card_is_not_adopted() -> None:
    # A card whose centre shows but whose index is hidden, next to a fan card whose index points far
    # away: the loose index stays its own card.
    card = _card(300, 200)
    far = _index(330, 160, 420, 120)
    groups = group([card], [far], _labels(1))
    assert len(groups) == 2
    assert groups[0].card is card and groups[0].indices == []
    assert groups[1].card is None and groups[1].indices == [0]


def test_two_opposite_corners_without_a_centre_are_one_card() -> None:
    top = _index(272, 162, 300, 200, up=(0.0, -1.0))
    bottom = _index(328, 238, 300, 200, up=(0.0, 1.0))
    labels = np.array([5, 9], np.int64)  # even when one of them was misread
    groups = group([], [top, bottom], labels)
    assert [(g.card, sorted(g.indices)) for g in groups] == [(None, [0, 1])]
