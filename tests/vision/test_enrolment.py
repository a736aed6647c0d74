"""Deck enrolment's input side: photographs of single cards become a design the renderer can draw."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.cardart import face_index_boxes, render_back, render_face
from vision.cardart.designs import CardDesign, get_design
from vision.cardart.enrolled import enrolled_design, load_card_photo


def _photograph(card_bgra: NDArray[np.uint8], path: Path, *, sideways: bool = False) -> None:
    """Lays a card on a dark cloth and photographs it slightly askew."""
    h, w = card_bgra.shape[:2]
    canvas = np.full((900, 1200, 3), (35, 45, 30), np.uint8)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[420, 140], [760, 170], [740, 650], [390, 620]], np.float32)
    if sideways:
        dst = np.roll(dst, 1, axis=0)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(card_bgra, m, (1200, 900))
    a = warped[..., 3:4].astype(np.float32) / 255
    photo = (canvas * (1 - a) + warped[..., :3] * a).astype(np.uint8)
    cv2.imwrite(str(path), photo)


def test_photographs_become_an_enrolled_design(tmp_path: Path) -> None:
    source = get_design("heldout-jumbo")
    _photograph(render_face("QS", source, 480), tmp_path / "QS.jpg")
    _photograph(render_face("G-3", source, 480), tmp_path / "g-3.png", sideways=True)
    _photograph(render_back(source, 480), tmp_path / "BACK.jpg")
    (tmp_path / "notes.txt").write_text("not a photo")
    design = enrolled_design(tmp_path, name="my-deck")
    assert isinstance(design, CardDesign) and design.kind == "enrolled"
    assert sorted(t for t, _ in design.photos) == ["BACK", "G-3", "QS"]
    qs = render_face("QS", design, 200)
    assert qs.shape[0] == 200 and qs.shape[2] == 4
    # The rectified photograph is upright: its top-left index is where the printed one is.
    boxes = face_index_boxes("QS", design)
    assert boxes and boxes[0][0] < 0.25 and boxes[0][1] < 0.3
    # A sideways photograph comes out portrait.
    g = load_card_photo(tmp_path / "g-3.png")
    assert g.shape[0] > g.shape[1]
    # Cards without a photograph keep stand-in art.
    assert render_face("7H", design, 100).shape[0] == 100


def test_folder_without_card_photographs_is_refused(tmp_path: Path) -> None:
    (tmp_path / "holiday.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(ValueError, match=r"holds no card photographs named by token.*holiday\.jpg"):
        enrolled_design(tmp_path)


def test_unreadable_photograph_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "KS.jpg"
    bad.write_text("garbage")
    with pytest.raises(ValueError, match=r"cannot read the card photograph .*KS\.jpg"):
        load_card_photo(bad)
