"""Decks enrolled from a user's photographs: one photograph per card, named by its token.

A photograph of one card on a contrasting surface is rectified to the card's
outline (the largest four-sided contour) so it can be drawn into synthetic
scenes like any other design; a photograph already cropped to the card is used
as it is. See ``docs/deck-enrolment.md``.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart.debian import index_boxes_from_image
from vision.cardart.procedural import CARD_ASPECT, ProceduralStyle, _rounded_alpha
from vision.cardart.tokens import ALL_TOKENS

__all__ = ["load_card_photo", "photo_index_boxes", "enrolled_design", "IMAGE_SUFFIXES"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
ENROLLED_HEIGHT = 480


def _order_quad(pts: NDArray[np.float32]) -> NDArray[np.float32]:
    s = pts.sum(axis=1)
    d = np.diff(pts, axis=1)[:, 0]
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]], np.float32)


def _find_card_quad(img: NDArray[np.uint8]) -> NDArray[np.float32] | None:
    h, w = img.shape[:2]
    gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.Canny(gray, 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    best_area = 0.04 * h * w
    for c in contours:
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        area = cv2.contourArea(approx)
        if len(approx) == 4 and area > best_area and area < 0.98 * h * w:
            best, best_area = approx.reshape(4, 2).astype(np.float32), area
    return None if best is None else _order_quad(best)


def load_card_photo(path: Path) -> NDArray[np.uint8]:
    """Returns the card in a photograph, upright, BGRA, :data:`ENROLLED_HEIGHT` pixels tall.

    Raises :class:`ValueError` naming the file when it cannot be read.
    """
    raw = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if raw is None:
        raise ValueError(f"cannot read the card photograph {path}: not an image file OpenCV can decode")
    img = np.asarray(raw, dtype=np.uint8)
    quad = _find_card_quad(img)
    if quad is not None:
        top = float(np.linalg.norm(quad[1] - quad[0]))
        side = float(np.linalg.norm(quad[3] - quad[0]))
        if top > side:
            # A card photographed sideways: start the outline at another corner so it comes out upright.
            quad = np.roll(quad, -1, axis=0)
            top, side = side, top
        aspect = float(np.clip(top / max(side, 1.0), 0.55, 0.9))
        w = int(round(ENROLLED_HEIGHT * aspect))
        dst = np.array(
            [[0, 0], [w - 1, 0], [w - 1, ENROLLED_HEIGHT - 1], [0, ENROLLED_HEIGHT - 1]], np.float32
        )
        card = cv2.warpPerspective(
            img, cv2.getPerspectiveTransform(quad, dst), (w, ENROLLED_HEIGHT), flags=cv2.INTER_AREA
        )
    else:
        h, w0 = img.shape[:2]
        if w0 > h:
            img = np.asarray(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), dtype=np.uint8)
            h, w0 = w0, h
        w = int(round(ENROLLED_HEIGHT * w0 / h))
        card = cv2.resize(img, (w, ENROLLED_HEIGHT), interpolation=cv2.INTER_AREA)
    out = np.empty((ENROLLED_HEIGHT, w, 4), np.uint8)
    out[..., :3] = card
    out[..., 3] = _rounded_alpha(ENROLLED_HEIGHT, w, 0.045 * ENROLLED_HEIGHT)
    return out


def photo_index_boxes(card: NDArray[np.uint8]) -> tuple[tuple[float, float, float, float], ...]:
    """Returns the corner-index boxes found on a rectified card photograph."""
    return index_boxes_from_image(card)


def enrolled_design(folder: Path, name: str | None = None, split: str = "train") -> object:
    """Returns a design made of the photographs in ``folder`` (``QS.jpg``, ``G-3.png``, ``BACK.jpg``, ...).

    Raises :class:`ValueError` when the folder holds no photograph named by a card token.
    """
    from vision.cardart.designs import CardDesign

    photos: list[tuple[str, str]] = []
    unknown: list[str] = []
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        token = p.stem.upper()
        if token in ALL_TOKENS or token == "BACK":
            photos.append((token, str(p)))
        else:
            unknown.append(p.name)
    if not photos:
        raise ValueError(
            f"{folder} holds no card photographs named by token (e.g. QS.jpg, 10H.png, G-3.jpg, "
            f"BACK.jpg); unrecognised names: {', '.join(unknown) or 'none'}"
        )
    return CardDesign(
        name or f"enrolled:{folder.name}",
        "train" if split == "train" else "heldout",
        "enrolled",
        ProceduralStyle(),
        aspect=CARD_ASPECT,
        source=f"photographs in {folder}",
        photos=tuple(photos),
    )
