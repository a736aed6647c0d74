"""Card art: every design draws every face the recognizer knows, with real corner indices."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.cardart import (
    ALL_TOKENS,
    CardDesign,
    debian,
    face_index_boxes,
    get_design,
    list_designs,
    render_back,
    render_face,
)


def _procedural() -> list:  # type: ignore[type-arg]
    return [d for d in list_designs() if d.kind == "procedural"]


def test_every_procedural_design_draws_every_token_with_two_indices() -> None:
    for design in _procedural():
        for token in ALL_TOKENS:
            face = render_face(token, design, 96)
            assert face.dtype == np.uint8 and face.shape[0] == 96 and face.shape[2] == 4
            assert (
                face[0, 0, 3] < 64 and face[48, face.shape[1] // 2, 3] == 255
            )  # rounded corner, opaque middle
            boxes = face_index_boxes(token, design)
            assert len(boxes) == 2
            for x0, y0, x1, y1 in boxes:
                assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
            # The index carries ink: it differs from the paper around it.
            x0, y0, x1, y1 = boxes[0]
            h, w = face.shape[:2]
            patch = face[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w), :3].astype(int)
            assert patch.std() > 12, (design.name, token)


def test_faces_of_different_cards_differ() -> None:
    design = _procedural()[0]
    a = render_face("6H", design, 120)[..., :3].astype(int)
    b = render_face("9H", design, 120)[..., :3].astype(int)
    assert np.abs(a - b).mean() > 2


def test_at_least_two_heldout_designs_without_debian_packages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(debian, "THEME_DIR", tmp_path / "none")
    monkeypatch.setenv("KIOSK_CARDART_CACHE", str(tmp_path / "cache"))
    designs = list_designs()
    assert all(d.kind != "debian" for d in designs)
    assert len(list_designs(split="heldout")) >= 2
    assert len(list_designs(split="train")) >= 2


def test_back_is_bgra_and_unknown_token_is_refused() -> None:
    design = _procedural()[1]
    back = render_back(design, 100)
    assert back.shape[0] == 100 and back.shape[2] == 4
    with pytest.raises(ValueError, match="unknown card token 'ZZ'"):
        render_face("ZZ", design, 100)
    with pytest.raises(KeyError, match="unknown card design"):
        get_design("no-such-deck")
    with pytest.raises(ValueError, match="split must be"):
        list_designs(split="test")  # type: ignore[arg-type]


def test_debian_decks_can_be_switched_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A sheet already rasterised into the cache makes its theme drawable, with or without the package.
    monkeypatch.setenv("KIOSK_CARDART_CACHE", str(tmp_path))
    (tmp_path / f"anglo-{debian.SHEET_CARD_HEIGHT}.png").write_bytes(b"")
    monkeypatch.setenv(debian.DISABLE_ENV, "on")
    assert "anglo" in debian.available_themes()
    monkeypatch.setenv(debian.DISABLE_ENV, "off")
    assert debian.available_themes() == []
    assert all(d.kind != "debian" for d in list_designs())


def _kde_deck_svg(picture_over_index: str) -> str:
    """A KDE-style deck: every card an element named as KDE names them, laid out anywhere, each with
    an ink index in its top-left corner and the same index turned in the bottom-right one. The card
    ``picture_over_index`` has a picture that reaches into its top-left index."""
    ranks = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
    suits = ("club", "diamond", "heart", "spade")
    names = [f"{r}_{s}" for s in suits for r in ranks] + ["back"]
    cards = []
    for i, name in enumerate(names):
        x, y = (i % 13) * 80, (i // 13) * 110
        body = [f'<rect x="{x}" y="{y}" width="70" height="100" rx="4" fill="#ffffff"/>']
        if name == "back":
            body.append(f'<rect x="{x + 5}" y="{y + 5}" width="60" height="90" fill="#2040a0"/>')
        else:
            body.append(f'<rect x="{x + 5}" y="{y + 5}" width="7" height="16" fill="#000000"/>')
            body.append(f'<rect x="{x + 58}" y="{y + 79}" width="7" height="16" fill="#000000"/>')
            if name == picture_over_index:
                body.append(f'<rect x="{x + 10}" y="{y + 3}" width="50" height="94" fill="#c02020"/>')
        cards.append(f'<g id="{name}">{"".join(body)}</g>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1040" height="550" viewBox="0 0 1040 550">'
        + "".join(cards)
        + "</svg>"
    )


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert (librsvg2-bin)")
def test_kde_deck_is_drawn_card_by_card_with_its_usual_index_boxes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "deck").mkdir()
    (tmp_path / "deck" / "test.svgz").write_bytes(gzip.compress(_kde_deck_svg("queen_club").encode()))
    monkeypatch.setattr(debian, "KDE_THEME_DIR", tmp_path)
    monkeypatch.setitem(debian.KDE_THEMES, "kde_unit_test", "deck/test.svgz")
    monkeypatch.setenv("KIOSK_CARDART_CACHE", str(tmp_path / "cache"))

    ace = debian.load_cell("kde_unit_test", "AC")
    assert ace.shape[0] == pytest.approx(debian.SHEET_CARD_HEIGHT, abs=3)
    assert ace.shape[1] == pytest.approx(debian.SHEET_CARD_HEIGHT * 0.7, abs=4)
    assert debian.load_cell("kde_unit_test", "BACK")[..., 0].mean() > 100  # blue, in BGR
    assert not debian.has_card("kde_unit_test", "JOKER")

    top, bottom = debian.estimate_index_boxes("kde_unit_test", "7H")
    assert top[0] < 0.1 and top[1] < 0.1 and top[3] < 0.25
    assert bottom[2] > 0.9 and bottom[3] > 0.9
    # The queen's picture swallows her top index: the deck's usual boxes stand in for what the ink
    # search finds there.
    assert debian.estimate_index_boxes("kde_unit_test", "QC") == (top, bottom)

    design = CardDesign(
        "debian:kde_unit_test", "train", "debian", _procedural()[0].style, theme="kde_unit_test"
    )
    joker = render_face("JOKER", design, 100)  # drawn in the design's style: the deck has none
    assert joker.shape[0] == 100 and len(face_index_boxes("JOKER", design)) == 2
