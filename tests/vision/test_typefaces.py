"""Real typefaces in the randomised training designs (vision.cardart.typefaces).

pygame ships one TrueType font (FreeSans Bold) inside its package: the tests draw with it, so they
need no system font, and point the font search at a folder they fill themselves."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest

from vision.cardart import procedural, typefaces
from vision.cardart.procedural import ProceduralStyle, draw_face, random_style
from vision.cardart.shapes import draw_suit, draw_text_box, text_mask

PYGAME_FONT = Path(pygame.__file__).parent / pygame.font.get_default_font()


@pytest.fixture()
def font_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A font folder holding pygame's own font, a file that is no font, and a symbol font's name."""
    (tmp_path / "sub").mkdir()
    shutil.copy(PYGAME_FONT, tmp_path / "sub" / "FreeSansBold.ttf")
    (tmp_path / "Broken.ttf").write_bytes(b"not a font at all")
    shutil.copy(PYGAME_FONT, tmp_path / "StandardSymbolsPS.ttf")
    shutil.copy(PYGAME_FONT, tmp_path / "Lato-Hairline.ttf")
    (tmp_path / "readme.txt").write_text("fonts")
    monkeypatch.setattr(typefaces, "FONT_DIRS", (tmp_path, tmp_path / "missing"))
    typefaces.typeface_files.cache_clear()
    typefaces.suit_typefaces.cache_clear()
    yield tmp_path
    typefaces.typeface_files.cache_clear()
    typefaces.suit_typefaces.cache_clear()


def test_only_readable_text_fonts_are_used(font_dir: Path) -> None:
    # The broken file is skipped, not an error; symbol fonts and hairline weights are left out.
    assert typefaces.typeface_files() == (str(font_dir / "sub" / "FreeSansBold.ttf"),)


def test_a_typeface_mask_is_tight_ink() -> None:
    mask = typefaces.typeface_mask("10", str(PYGAME_FONT))
    assert mask.dtype == np.uint8 and mask.max() == 255
    # Cropped to the ink: every border row and column has some.
    assert mask[0].max() > 40 and mask[-1].max() > 40 and mask[:, 0].max() > 40 and mask[:, -1].max() > 40
    # "10" is wider than tall in any upright typeface; a single "1" is not.
    assert mask.shape[1] > mask.shape[0] * 0.8
    one = typefaces.typeface_mask("1", str(PYGAME_FONT))
    assert one.shape[1] < one.shape[0] * 0.8


def test_text_in_a_typeface_differs_from_the_hershey_font() -> None:
    a = np.full((60, 60, 3), 255, np.uint8)
    b = a.copy()
    draw_text_box(a, "Q", (5, 5, 55, 55), (0, 0, 0), font=str(PYGAME_FONT))
    draw_text_box(b, "Q", (5, 5, 55, 55), (0, 0, 0))
    assert (a < 128).any() and (b < 128).any()
    assert not np.array_equal(a, b)
    assert (
        text_mask("Q", str(PYGAME_FONT), 0.08).shape == typefaces.typeface_mask("Q", str(PYGAME_FONT)).shape
    )


def test_a_suit_typeface_draws_its_symbol_centred_in_the_size_asked_for() -> None:
    for suit in "CDHS":
        a = np.full((80, 80, 3), 255, np.uint8)
        draw_suit(a, suit, (40, 40), 50, (0, 0, 200), typeface=str(PYGAME_FONT))
        ink = np.argwhere(a[..., 0] < 128)
        assert len(ink) > 100
        assert abs(ink[:, 0].mean() - 40) < 8 and abs(ink[:, 1].mean() - 40) < 8
        assert ink.min() >= 40 - 26 and ink.max() <= 40 + 26


def test_only_typefaces_with_the_four_suit_symbols_draw_suits(font_dir: Path) -> None:
    # pygame's FreeSans Bold prints letters and digits but no suit symbols.
    assert typefaces.typeface_files() and typefaces.suit_typefaces() == ()


def test_random_designs_use_typefaces_only_where_installed(
    font_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_fonts = [random_style(random.Random(s), typefaces=True) for s in range(40)]
    fonts = {s.font for s in with_fonts}
    assert str(font_dir / "sub" / "FreeSansBold.ttf") in fonts
    assert any(isinstance(f, int) for f in fonts)  # some designs keep a Hershey font
    # Without fonts every other choice of a seed is the same as with them.
    monkeypatch.setattr(procedural, "typeface_files", lambda: ())
    monkeypatch.setattr(procedural, "suit_typefaces", lambda: ())
    without = [random_style(random.Random(s), typefaces=True) for s in range(40)]
    assert all(isinstance(s.font, int) and not s.suit_typeface for s in without)
    for a, b in zip(with_fonts, without, strict=True):
        assert a.index_height == b.index_height and a.red == b.red and a.back_colors == b.back_colors


def test_random_designs_use_typefaces_only_when_asked(font_dir: Path) -> None:
    # The shipped model's recipe: fonts installed or not, its designs are the Hershey ones.
    plain = [random_style(random.Random(s)) for s in range(40)]
    assert all(isinstance(s.font, int) and not s.suit_typeface for s in plain)
    asked = [random_style(random.Random(s), typefaces=True) for s in range(40)]
    assert [s.font == p.font for s, p in zip(asked, plain, strict=True)].count(False) >= 10


def test_a_face_in_a_typeface_has_its_index_in_the_corner() -> None:
    style = ProceduralStyle(font=str(PYGAME_FONT))
    face = draw_face("KH", style, 200)
    h, w = face.shape[:2]
    x0, y0, x1, y1 = procedural.index_boxes("KH", style)[0]
    corner = face[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w), :3]
    assert (corner.min(axis=2) < 150).mean() > 0.05  # the index's ink is in its box
    assert not np.array_equal(face, draw_face("KH", ProceduralStyle(), 200))


def test_training_with_typefaces_but_no_fonts_installed_says_how_to_install_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from vision.training import train

    monkeypatch.setattr(train, "typeface_files", lambda: ())
    with pytest.raises(SystemExit) as exit_info:
        train.main(
            ["--typefaces", "--work", str(tmp_path / "w"), "--out", str(tmp_path / "o"), "--steps", "1"]
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no usable typeface is installed" in err and "install_decks" in err
    assert not (tmp_path / "w").exists()
