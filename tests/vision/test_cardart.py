"""Card art: every design draws every face the recognizer knows, with real corner indices."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cardart import (
    ALL_TOKENS,
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
