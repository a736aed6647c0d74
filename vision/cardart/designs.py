"""The named deck designs and the functions that draw their cards.

A design is one printer's deck. ``split`` says whether it may be used to
train the model (``"train"``) or is kept out to measure how the model does on
decks it has never seen (``"heldout"``): accuracy on held-out designs is the
figure that predicts a real table. Procedural designs need nothing installed;
Debian artist decks are listed only where ``gnome-cards-data`` is installed;
enrolled decks come from a user's photographs (``vision.training.enrol``).

>>> names = [d.name for d in list_designs(split="heldout") if d.kind == "procedural"]
>>> len(names) >= 2
True
>>> face = render_face("10H", get_design(names[0]), 120)
>>> face.shape[0], face.shape[2], face.dtype.name
(120, 4, 'uint8')
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart import debian
from vision.cardart.procedural import CARD_ASPECT, ProceduralStyle, draw_back, draw_face, index_boxes
from vision.cardart.tokens import ALL_TOKENS, is_gnoming

__all__ = [
    "CardDesign",
    "list_designs",
    "get_design",
    "render_face",
    "render_back",
    "face_index_boxes",
    "register_design",
]

Split = Literal["train", "heldout"]
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class CardDesign:
    """One deck design."""

    name: str
    split: Split
    kind: Literal["procedural", "debian", "enrolled"]
    style: ProceduralStyle
    """The procedural style; for artist and enrolled decks it draws what they lack (Gnoming faces)."""
    aspect: float = CARD_ASPECT
    """Width over height of a card."""
    source: str = ""
    """Where the art comes from and under which licence."""
    theme: str | None = None
    """The Debian theme name, for ``kind == "debian"``."""
    photos: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    """Token and photograph path pairs, for ``kind == "enrolled"``."""


_PROCEDURAL: tuple[CardDesign, ...] = (
    CardDesign("classic", "train", "procedural", ProceduralStyle(), source="procedural (this project, MIT)"),
    CardDesign(
        "bold-duplex",
        "train",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_DUPLEX,
            thickness=0.12,
            index_height=0.22,
            index_width=0.11,
            suit_variant=2,
            court=1,
            back_pattern=1,
            back_colors=((40, 40, 160), (230, 230, 240)),
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "serif-complex",
        "train",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_COMPLEX,
            thickness=0.07,
            index_height=0.18,
            index_width=0.09,
            suit_variant=1,
            paper=(235, 245, 250),
            court=2,
            back_pattern=3,
            back_colors=((60, 110, 20), (220, 240, 220)),
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "slim-plain",
        "train",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_PLAIN,
            thickness=0.06,
            index_height=0.16,
            index_width=0.08,
            margin=0.02,
            squeeze=True,
            pip_filled=False,
            border=(120, 120, 120),
            back_pattern=2,
            back_colors=((30, 30, 30), (200, 200, 200)),
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "four-colour",
        "train",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_TRIPLEX,
            thickness=0.09,
            index_height=0.21,
            four_colour=True,
            suit_variant=0,
            court=1,
            gnome_palette=1,
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "italic-small",
        "train",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_COMPLEX_SMALL | cv2.FONT_ITALIC,
            thickness=0.08,
            index_height=0.19,
            index_width=0.1,
            red=(20, 20, 170),
            paper=(240, 248, 252),
            back_pattern=0,
            back_colors=((20, 90, 20), (240, 240, 240)),
            gnome_palette=2,
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "heldout-jumbo",
        "heldout",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_DUPLEX,
            thickness=0.1,
            index_height=0.25,
            index_width=0.12,
            margin=0.025,
            suit_variant=1,
            red=(30, 40, 215),
            black=(50, 20, 10),
            paper=(238, 242, 246),
            court=2,
            back_pattern=2,
            back_colors=((120, 20, 40), (230, 220, 230)),
            gnome_palette=1,
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "heldout-fine",
        "heldout",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC,
            thickness=0.06,
            index_height=0.17,
            index_width=0.085,
            margin=0.035,
            squeeze=True,
            suit_variant=2,
            pip_filled=False,
            red=(60, 20, 180),
            border=(60, 60, 160),
            court=0,
            back_pattern=3,
            back_colors=((30, 30, 140), (240, 240, 250)),
            gnome_palette=2,
        ),
        source="procedural (this project, MIT)",
    ),
    CardDesign(
        "heldout-cream",
        "heldout",
        "procedural",
        ProceduralStyle(
            font=cv2.FONT_HERSHEY_SIMPLEX,
            thickness=0.1,
            index_height=0.2,
            index_width=0.1,
            margin=0.03,
            suit_variant=0,
            red=(20, 60, 200),
            paper=(215, 238, 248),
            court=1,
            back_pattern=0,
            back_colors=((20, 20, 20), (210, 235, 245)),
        ),
        source="procedural (this project, MIT)",
    ),
)

_EXTRA: dict[str, CardDesign] = {}


def _debian_designs() -> list[CardDesign]:
    out = []
    for theme in debian.available_themes():
        if theme in debian.UNRELIABLE_INDEX_THEMES:
            continue
        seed = zlib.crc32(theme.encode())
        style = _PROCEDURAL[seed % 6].style
        out.append(
            CardDesign(
                f"debian:{theme}",
                "heldout" if theme in debian.HELDOUT_THEMES else "train",
                "debian",
                style,
                aspect=0.0,
                source=(
                    f"Debian kdegames-card-data-kf5 deck {debian.KDE_THEMES[theme].split('/')[0]!r}"
                    if theme in debian.KDE_THEMES
                    else f"Debian gnome-cards-data theme {theme!r}"
                )
                + " (GPL/LGPL art; training only, not shipped)",
                theme=theme,
            )
        )
    return out


def register_design(design: CardDesign) -> None:
    """Adds a design (an enrolled deck) to :func:`list_designs` for this process."""
    _EXTRA[design.name] = design


def list_designs(split: Split | None = None) -> list[CardDesign]:
    """Returns the designs available here, optionally only one split.

    Procedural designs always; Debian designs when installed; registered ones.
    """
    if split not in (None, "train", "heldout"):
        raise ValueError(f"split must be 'train', 'heldout' or None, got {split!r}")
    designs = list(_PROCEDURAL) + _debian_designs() + list(_EXTRA.values())
    return [d for d in designs if split is None or d.split == split]


def get_design(name: str) -> CardDesign:
    """Returns the design called ``name``; raises :class:`KeyError` naming the known designs."""
    for d in list_designs():
        if d.name == name:
            return d
    known = ", ".join(d.name for d in list_designs())
    raise KeyError(f"unknown card design {name!r}; known designs: {known}")


def _resize_to_height(img: NDArray[np.uint8], height_px: int) -> NDArray[np.uint8]:
    h, w = img.shape[:2]
    width = max(2, int(round(w * height_px / h)))
    interp = cv2.INTER_AREA if height_px < h else cv2.INTER_CUBIC
    return np.asarray(cv2.resize(img, (width, height_px), interpolation=interp), dtype=np.uint8)


@functools.lru_cache(maxsize=64)
def _photo(path: str) -> NDArray[np.uint8]:
    from vision.cardart.enrolled import load_card_photo

    return load_card_photo(Path(path))


def _design_aspect(design: CardDesign) -> float:
    if design.kind == "debian" and design.theme:
        cell = debian.load_cell(design.theme, "AS")
        return cell.shape[1] / cell.shape[0]
    if design.kind == "enrolled" and design.photos:
        img = _photo(design.photos[0][1])
        return img.shape[1] / img.shape[0]
    return design.aspect or CARD_ASPECT


def _theme_draws(theme: str, token: str) -> bool:
    """Whether an artist theme has its own face for ``token``; if not, the design's style draws it."""
    return not is_gnoming(token) and (token != "JOKER" or debian.has_card(theme, token))


def render_face(token: str, design: CardDesign, height_px: int) -> NDArray[np.uint8]:
    """Returns the face of ``token`` in ``design``: BGRA uint8, ``height_px`` tall, alpha 0 outside
    the rounded corners. Raises :class:`ValueError` for an unknown token."""
    if token not in ALL_TOKENS:
        raise ValueError(f"unknown card token {token!r}; expected one of {', '.join(ALL_TOKENS)}")
    if design.kind == "debian" and design.theme and _theme_draws(design.theme, token):
        return _resize_to_height(np.asarray(debian.load_cell(design.theme, token)), height_px)
    if design.kind == "enrolled":
        photos = dict(design.photos)
        if token in photos:
            return _resize_to_height(_photo(photos[token]), height_px)
    return draw_face(token, design.style, height_px, _design_aspect(design))


def render_back(design: CardDesign, height_px: int) -> NDArray[np.uint8]:
    """Returns the back of a card of ``design``: BGRA uint8, ``height_px`` tall."""
    if design.kind == "debian" and design.theme:
        return _resize_to_height(np.asarray(debian.load_cell(design.theme, "BACK")), height_px)
    if design.kind == "enrolled" and "BACK" in dict(design.photos):
        return _resize_to_height(_photo(dict(design.photos)["BACK"]), height_px)
    return draw_back(design.style, height_px, _design_aspect(design))


def face_index_boxes(token: str, design: CardDesign) -> tuple[Box, ...]:
    """Returns the corner-index boxes of a face as fractions of card width and height.

    A box whose centre lies in the top half is printed upright; one in the
    bottom half is turned half a turn. Empty when a deck prints no index there.
    """
    if design.kind == "debian" and design.theme and _theme_draws(design.theme, token):
        return debian.estimate_index_boxes(design.theme, token)
    if design.kind == "enrolled" and token in dict(design.photos):
        from vision.cardart.enrolled import photo_index_boxes

        return photo_index_boxes(_photo(dict(design.photos)[token]))
    return tuple(tuple(b) for b in index_boxes(token, design.style, _design_aspect(design)))  # type: ignore[misc]
