"""Procedural table surfaces and occluders for synthetic scenes.

Wood (grain along one axis, knots, varnish), cloth and felt (weave and fibre
noise), printed play mats (shapes, lines and printed letters, which the model
must learn are not cards), and human hands and arms. All drawn from a seeded
:class:`numpy.random.Generator`, so a scene is reproducible from its seed.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["background", "smooth_noise", "draw_hand", "draw_clutter"]

Image = NDArray[np.uint8]


def smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> NDArray[np.float32]:
    """Returns value noise in about [-1, 1] whose features are ``scale`` pixels across."""
    gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), dtype=np.float32)


def _fractal(rng: np.random.Generator, h: int, w: int, base: float, octaves: int = 3) -> NDArray[np.float32]:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for k in range(octaves):
        out += amp * smooth_noise(rng, h, w, base / (2**k))
        amp *= 0.5
    return out


def _wood(rng: np.random.Generator, h: int, w: int) -> Image:
    warp = _fractal(rng, h, w, rng.uniform(60, 200)) * rng.uniform(5, 25)
    yy = np.arange(h, dtype=np.float32)[:, None] + warp
    freq = rng.uniform(0.05, 0.25)
    grain = np.sin(yy * freq + _fractal(rng, h, w, 30) * 2.0)
    fine = smooth_noise(rng, h, w, 2.0) * 0.3
    v = 0.5 + 0.25 * grain + 0.15 * fine
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 190)], np.float32)
    dark = base * rng.uniform(0.45, 0.7)
    img = dark[None, None, :] + (base - dark)[None, None, :] * v[..., None] * 1.6
    if rng.random() < 0.5:
        img = np.ascontiguousarray(np.transpose(cv2.resize(img, (h, w)), (1, 0, 2)))
    return np.clip(img, 0, 255).astype(np.uint8)


def _cloth(rng: np.random.Generator, h: int, w: int) -> Image:
    palette = [
        (40, 110, 30),
        (30, 90, 20),
        (110, 60, 20),
        (40, 40, 140),
        (60, 60, 60),
        (120, 120, 120),
        (20, 20, 20),
        (160, 150, 140),
        (70, 30, 80),
        (30, 120, 150),
    ]
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32) * rng.uniform(0.7, 1.3)
    v = (
        1.0
        + 0.08 * _fractal(rng, h, w, rng.uniform(40, 200))
        + 0.06 * rng.standard_normal((h, w)).astype(np.float32)
    )
    period = rng.uniform(2.0, 5.0)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = 0.05 * np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    img = base[None, None, :] * (v + weave)[..., None]
    return np.asarray(np.clip(img, 0, 255), dtype=np.uint8)


def _mat(rng: np.random.Generator, h: int, w: int) -> Image:
    img = _cloth(rng, h, w) if rng.random() < 0.5 else np.full((h, w, 3), rng.integers(60, 250, 3), np.uint8)
    for _ in range(int(rng.integers(3, 15))):
        col = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = rng.integers(4)
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if kind == 0:
            cv2.rectangle(
                img,
                p,
                (p[0] + int(rng.integers(40, 300)), p[1] + int(rng.integers(40, 300))),
                col,
                int(rng.choice([-1, 2, 4])),
            )
        elif kind == 1:
            cv2.circle(img, p, int(rng.integers(10, 120)), col, int(rng.choice([-1, 2, 5])), cv2.LINE_AA)
        elif kind == 2:
            q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(img, p, q, col, int(rng.integers(1, 6)), cv2.LINE_AA)
        else:
            # Printed letters and digits: text on a mat is not a card index.
            text = "".join(
                rng.choice(list("AJQK2345678910SCOREPLAYERNERTSGOLF<>+-!"), int(rng.integers(1, 8)))
            )
            cv2.putText(
                img,
                text,
                p,
                int(rng.integers(0, 7)),
                float(rng.uniform(0.5, 3.0)),
                col,
                int(rng.integers(1, 5)),
                cv2.LINE_AA,
            )
    return img


def background(rng: np.random.Generator, h: int, w: int) -> Image:
    """Returns a table surface: wood, cloth/felt or a printed mat."""
    kind = rng.random()
    if kind < 0.4:
        img = _wood(rng, h, w)
    elif kind < 0.75:
        img = _cloth(rng, h, w)
    else:
        img = _mat(rng, h, w)
    return img


def draw_clutter(rng: np.random.Generator, img: Image, n: int) -> None:
    """Draws table clutter in place: coins, chips, paper notes with writing, a phone."""
    h, w = img.shape[:2]
    for _ in range(n):
        kind = rng.integers(4)
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if kind == 0:
            r = int(rng.integers(8, 30))
            col = tuple(int(v) for v in rng.integers(40, 230, 3))
            cv2.circle(img, c, r, col, -1, cv2.LINE_AA)
            cv2.circle(img, c, max(1, r - 3), tuple(min(255, v + 30) for v in col), 2, cv2.LINE_AA)
        elif kind == 1:
            ww, hh = int(rng.integers(40, 160)), int(rng.integers(40, 160))
            box = cv2.boxPoints(((c[0], c[1]), (ww, hh), float(rng.uniform(0, 180)))).astype(np.int32)
            paper = tuple(int(v) for v in rng.integers(200, 256, 3))
            cv2.fillPoly(img, [box], paper, cv2.LINE_AA)
            for k in range(int(rng.integers(1, 5))):
                cv2.putText(
                    img,
                    "".join(rng.choice(list("0123456789+-=ABCKQJ "), 6)),
                    (c[0] - ww // 3, c[1] - hh // 3 + 14 * k),
                    0,
                    0.45,
                    (40, 40, 120),
                    1,
                    cv2.LINE_AA,
                )
        elif kind == 2:
            box = cv2.boxPoints(
                (
                    (c[0], c[1]),
                    (int(rng.integers(60, 90)), int(rng.integers(120, 170))),
                    float(rng.uniform(0, 180)),
                )
            ).astype(np.int32)
            cv2.fillPoly(img, [box], (int(rng.integers(10, 40)),) * 3, cv2.LINE_AA)
        else:
            r = int(rng.integers(10, 22))
            col = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(img, c, r, col, -1, cv2.LINE_AA)
            cv2.circle(img, c, r, (240, 240, 240), max(1, r // 5), cv2.LINE_AA)


def draw_hand(
    rng: np.random.Generator,
    img: Image,
    label: NDArray[np.int16] | None,
    grip: tuple[float, float] | None = None,
    grip_width: float | None = None,
    fingers: bool = True,
) -> None:
    """Draws an arm reaching in from an image edge, ending in a hand with fingers, in place.

    Where ``label`` is given, the pixels the arm covers are set to -1 there. With ``grip`` (a card's
    centre) the hand, ``grip_width`` wide, holds that card by its near end, its fingers reaching to
    about the centre, as a player carries a card across the table. Without ``fingers`` the hand is
    a larger blob, as a hand moving fast is filmed.
    """
    h, w = img.shape[:2]
    side = rng.integers(4)
    along = rng.uniform(0.1, 0.9)
    start = [(along * w, -20), (w + 20, along * h), (along * w, h + 20), (-20, along * h)][side]
    end = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    width = rng.uniform(0.06, 0.14) * min(h, w) + 20
    if grip is not None:
        if grip_width is not None:
            width = grip_width
        # The fingertips end about 1.7 widths past ``end``: stopping the arm 1.2-2.4 widths short of
        # the centre puts them from a little past it to the near edge (sometimes just short of it).
        toward = np.array(grip) - np.array(start)
        toward /= np.linalg.norm(toward) + 1e-6
        back = width * rng.uniform(1.2, 2.4)
        end = (float(grip[0] - toward[0] * back), float(grip[1] - toward[1] * back))
    skin = np.array([rng.uniform(60, 190), rng.uniform(90, 200), rng.uniform(140, 240)])
    if rng.random() < 0.3:
        skin = skin * rng.uniform(0.35, 0.6)
    sleeve = rng.random() < 0.5
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255, int(width), cv2.LINE_AA)
    direction = np.array(end) - np.array(start)
    direction /= np.linalg.norm(direction) + 1e-6
    normal = np.array([-direction[1], direction[0]])
    palm = np.array(end) + direction * width * 0.4
    grow = 1.0 if fingers else 1.25
    cv2.ellipse(
        mask,
        (int(palm[0]), int(palm[1])),
        (int(width * 0.75 * grow), int(width * 0.6 * grow)),
        float(np.degrees(np.arctan2(direction[1], direction[0]))),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    if fingers:
        for k in range(4):
            base = palm + direction * width * 0.4 + normal * (k - 1.5) * width * 0.32
            tip = base + direction * width * rng.uniform(0.7, 1.1) + normal * rng.normal(0, 0.1) * width
            cv2.line(
                mask,
                (int(base[0]), int(base[1])),
                (int(tip[0]), int(tip[1])),
                255,
                max(2, int(width * 0.22)),
                cv2.LINE_AA,
            )
        thumb = palm + normal * width * 0.7
        cv2.line(
            mask,
            (int(palm[0]), int(palm[1])),
            (int(thumb[0]), int(thumb[1])),
            255,
            max(2, int(width * 0.25)),
            cv2.LINE_AA,
        )
    shade = 1.0 + 0.15 * smooth_noise(rng, h, w, width)
    color = np.clip(skin[None, None, :] * shade[..., None], 0, 255)
    if sleeve:
        sleeve_col = rng.integers(0, 256, 3).astype(np.float32)
        arm_len = float(np.linalg.norm(np.array(end) - np.array(start)))
        cut = np.array(start) + direction * arm_len * rng.uniform(0.4, 0.8)
        sleeve_mask = np.zeros((h, w), np.uint8)
        cv2.line(sleeve_mask, (int(start[0]), int(start[1])), (int(cut[0]), int(cut[1])), 255, int(width) + 4)
        in_sleeve = sleeve_mask > 0
        color[in_sleeve] = sleeve_col * shade[in_sleeve][:, None]
    a = cv2.GaussianBlur(mask, (5, 5), 0).astype(np.float32)[..., None] / 255.0
    # The arm casts a soft shadow on the table next to it (blurred at a quarter size: it is soft anyway).
    off = int(width * 0.3)
    small = cv2.resize(
        np.roll(mask, (off, off), axis=(0, 1)), (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA
    )
    shadow = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(1.0, width * 0.075)), (w, h))
    img[:] = np.clip(img * (1 - 0.35 * shadow[..., None] / 255.0), 0, 255).astype(np.uint8)
    img[:] = (img * (1 - a) + color * a).astype(np.uint8)
    if label is not None:
        label[mask > 127] = -1
