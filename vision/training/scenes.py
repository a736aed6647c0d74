"""Synthetic overhead-camera table scenes with exact labels, for training and benchmarks.

A scene is a table surface with cards laid out the ways players lay them
out (single cards, piles, fans, cascades, spread melds, a 3×3 Gnoming grid,
a close-up of one card), face down or up, under a camera with a little
perspective; then arms and hands, clutter, shadows, uneven light, glare, white
balance and exposure shifts, defocus or motion blur, sensor noise and JPEG.
Every card's outline and corner indices are tracked through all of it, with
how much of each stays visible, so labels are exact.

Glossary: an **index** is the small rank-over-suit print in a card's corner;
its **up** vector points from the suit towards the rank, in image pixels.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart import face_index_boxes, list_designs, render_back, render_face
from vision.cardart.designs import CardDesign
from vision.cardart.procedural import random_style
from vision.cardart.tokens import GNOMING_TOKENS, STANDARD_TOKENS
from vision.training.textures import background, draw_clutter, draw_hand, smooth_noise

__all__ = ["IndexLabel", "CardLabel", "Scene", "SceneConfig", "render_scene"]

Image = NDArray[np.uint8]
Quad = NDArray[np.float64]

INDEX_VISIBLE = 0.8
"""An index counts as visible when at least this fraction of it shows."""


@dataclass(slots=True)
class IndexLabel:
    """One corner index of one card in the image."""

    quad: Quad
    """Corners in the index's own frame: top-left, top-right, bottom-right, bottom-left (image px)."""
    visible: float
    """Fraction of the index that shows (not covered, inside the image)."""

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return (float(c[0]), float(c[1]))

    @property
    def up(self) -> tuple[float, float]:
        v = (self.quad[0] + self.quad[1]) / 2 - (self.quad[3] + self.quad[2]) / 2
        n = float(np.linalg.norm(v)) + 1e-9
        return (float(v[0] / n), float(v[1] / n))

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the index in image pixels."""
        h = float(np.linalg.norm((self.quad[0] + self.quad[1]) / 2 - (self.quad[3] + self.quad[2]) / 2))
        w = float(np.linalg.norm((self.quad[0] + self.quad[3]) / 2 - (self.quad[1] + self.quad[2]) / 2))
        return (w, h)

    def box(self) -> tuple[float, float, float, float]:
        return (
            float(self.quad[:, 0].min()),
            float(self.quad[:, 1].min()),
            float(self.quad[:, 0].max()),
            float(self.quad[:, 1].max()),
        )


@dataclass(slots=True)
class CardLabel:
    """One physical card in the image."""

    token: str
    """Card notation, or ``"BACK"`` for a face-down card."""
    quad: Quad
    """Outline corners: top-left, top-right, bottom-right, bottom-left of the card (image px)."""
    design: str
    visible: float = 0.0
    """Fraction of the card's area that shows."""
    center_visible: bool = False
    center_amodal: bool = False
    """The centre is hidden under a hand but enough of the card shows (:attr:`SceneConfig.amodal_under_hands`)
    for the detector to be taught the centre anyway: a card carried across the table is mostly seen so."""
    fully_visible: bool = False
    indices: list[IndexLabel] = field(default_factory=list)

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return (float(c[0]), float(c[1]))

    @property
    def long_side(self) -> float:
        return float(
            max(np.linalg.norm(self.quad[0] - self.quad[3]), np.linalg.norm(self.quad[1] - self.quad[0]))
        )

    @property
    def short_side(self) -> float:
        return float(
            min(np.linalg.norm(self.quad[0] - self.quad[3]), np.linalg.norm(self.quad[1] - self.quad[0]))
        )

    def visible_indices(self) -> list[IndexLabel]:
        return [i for i in self.indices if i.visible >= INDEX_VISIBLE]


@dataclass(slots=True)
class Scene:
    image: Image
    cards: list[CardLabel]
    seed: int


@dataclass(frozen=True, slots=True)
class SceneConfig:
    """What kind of scenes to draw."""

    width: int = 1280
    height: int = 720
    split: str = "train"
    """Which designs: ``"train"`` or ``"heldout"``."""
    card_height: tuple[float, float] = (55.0, 160.0)
    """Range of card heights in pixels (close-ups are larger)."""
    random_designs: float = 0.4
    """Share of layouts drawn in a freshly randomised procedural style (training only)."""
    closeup: float = 0.08
    hands: float = 0.35
    designs: tuple[CardDesign, ...] = ()
    """Explicit designs (enrolment); empty means ``list_designs(split)``."""
    gnoming: float = 0.2
    """Share of layouts dealt from the Gnoming deck."""
    layouts: tuple[int, ...] = (1, 2, 2, 3, 3, 4)
    """How many card groups a scene has (one picked at random)."""
    perspective: float = 0.06
    """How far from straight above the camera may look: each frame corner moves by up to this share
    of the short side (0.06, mild; 0.25, a photo taken at a slant, near cards larger than far ones)."""
    loose_crops: float = 0.0
    """Share of the classifier's index crops cut as loosely as the detector places small indices
    (:data:`vision.training.targets.LOOSE_JITTER`) instead of the usual tight jitter."""
    hands_on_cards: float = 0.0
    """Share of hands that hold a card by its near end (fingers to about its centre) rather than
    reach anywhere."""
    amodal_under_hands: float = 0.0
    """A card whose centre a hand hides gets a centre target when at least this share of it shows
    (0: never; a centre hidden by another card never does, those are read from their indices)."""
    card_motion: float = 0.0
    """Share of cards drawn moving: each smeared along a line of :data:`CARD_MOTION_PX` pixels in a
    direction of its own, as a card carried across the table is during the camera's exposure (its
    labels stay where the smear is centred). 0: none, as the shipped models were trained; the whole
    frame's motion blur (one scene in seven) is drawn either way."""
    typefaces: bool = False
    """Let the randomised designs print in the typefaces installed on the machine
    (:mod:`vision.cardart.typefaces`) as well as the Hershey fonts. Off by default: the shipped
    model was trained without them, and fine-tuning on them did not improve it (model card)."""


HAND_LABEL = -1
"""The label of a pixel no card shows at: the background drawn first, or an arm drawn over the cards
(:func:`~vision.training.textures.draw_hand`); under a card's centre it can only be an arm."""


@functools.lru_cache(maxsize=1500)
def _card_image(design: CardDesign, token: str, bucket: int) -> Image:
    if token == "BACK":
        return render_back(design, bucket)
    return render_face(token, design, bucket)


_BUCKETS = (48, 72, 108, 162, 243, 364, 546, 820)


def _bucket(h: float) -> int:
    for b in _BUCKETS:
        if b >= h * 1.05:
            return b
    return _BUCKETS[-1]


def _rect_quad(cx: float, cy: float, w: float, h: float, angle: float) -> Quad:
    c, s = math.cos(angle), math.sin(angle)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[c, -s], [s, c]])
    return np.asarray(pts @ rot.T + np.array([cx, cy]), dtype=np.float64)


@dataclass(slots=True)
class _Placed:
    token: str
    design: CardDesign
    quad: Quad  # table coordinates


def _tokens(rng: random.Random, n: int, gnoming: bool) -> list[str]:
    pool = GNOMING_TOKENS if gnoming else STANDARD_TOKENS
    return [rng.choice(pool) for _ in range(n)]


def _layout(
    rng: random.Random, cfg: SceneConfig, design: CardDesign, ch: float, aspect: float, gnoming: bool
) -> list[_Placed]:
    W, H = cfg.width, cfg.height
    cw = ch * aspect
    kind = rng.choices(["scatter", "fan", "cascade", "pile", "spread", "grid"], [3, 2, 2, 1.5, 2, 1])[0]
    cx, cy = rng.uniform(-0.05, 1.05) * W, rng.uniform(-0.05, 1.05) * H
    a0 = rng.uniform(-math.pi, math.pi)
    back_p = rng.choice([0.0, 0.1, 0.3])
    out: list[_Placed] = []

    def tok() -> str:
        return "BACK" if rng.random() < back_p else _tokens(rng, 1, gnoming)[0]

    if kind == "scatter":
        for _ in range(rng.randint(1, 8)):
            out.append(
                _Placed(
                    tok(),
                    design,
                    _rect_quad(rng.uniform(0, W), rng.uniform(0, H), cw, ch, rng.uniform(-math.pi, math.pi)),
                )
            )
    elif kind == "fan":
        k = rng.randint(3, 12)
        step = rng.uniform(0.08, 0.25) * rng.choice([-1, 1])
        radius = ch * rng.uniform(0.3, 0.6)
        for i in range(k):
            a = a0 + i * step
            ox, oy = -math.sin(a) * -radius, math.cos(a) * -radius
            out.append(_Placed(_tokens(rng, 1, gnoming)[0], design, _rect_quad(cx + ox, cy + oy, cw, ch, a)))
    elif kind in ("cascade", "spread"):
        k = rng.randint(2, 10)
        d = ch * rng.uniform(0.13, 0.35) if kind == "cascade" else cw * rng.uniform(0.18, 0.6)
        c, s = math.cos(a0), math.sin(a0)
        dx, dy = (-s * d, c * d) if kind == "cascade" else (c * d, s * d)
        for i in range(k):
            jit = rng.uniform(-0.04, 0.04)
            out.append(
                _Placed(
                    tok() if i == 0 and kind == "cascade" else _tokens(rng, 1, gnoming)[0],
                    design,
                    _rect_quad(cx + i * dx, cy + i * dy, cw, ch, a0 + jit),
                )
            )
    elif kind == "pile":
        for _ in range(rng.randint(2, 6)):
            out.append(
                _Placed(
                    tok(),
                    design,
                    _rect_quad(
                        cx + rng.gauss(0, cw * 0.06),
                        cy + rng.gauss(0, cw * 0.06),
                        cw,
                        ch,
                        a0 + rng.gauss(0, 0.2),
                    ),
                )
            )
    else:
        gap = rng.uniform(1.05, 1.3)
        c, s = math.cos(a0 * 0.1), math.sin(a0 * 0.1)
        for i in range(3):
            for j in range(3):
                x, y = (j - 1) * cw * gap, (i - 1) * ch * gap
                out.append(
                    _Placed(
                        "BACK" if rng.random() < 0.5 else _tokens(rng, 1, True)[0],
                        design,
                        _rect_quad(cx + c * x - s * y, cy + s * x + c * y, cw, ch, a0 * 0.1),
                    )
                )
    return out


def _camera(rng: random.Random, w: int, h: int, tilt: float = 0.06) -> NDArray[np.float64]:
    """A perspective: the camera is not exactly above the table (each frame corner moved by up to
    ``tilt`` of the short side; 0.06 is mild)."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    j = tilt * min(w, h)
    dst = src + np.array([[rng.uniform(-j, j), rng.uniform(-j, j)] for _ in range(4)], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _apply_h(hm: NDArray[np.float64], pts: Quad) -> Quad:
    p = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ hm.T
    return p[:, :2] / p[:, 2:3]


def _bend(rng: random.Random, card: Image) -> Image:
    """Bends a card a little (a curved sheet) and shades it as the light falls across the curve."""
    h, w = card.shape[:2]
    amp = rng.uniform(0.005, 0.02) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        map_x, map_y = xx, yy + amp * np.sin(np.pi * xx / w)
        shade = 1.0 + rng.uniform(-0.12, 0.12) * np.cos(np.pi * xx / w)
    else:
        map_x, map_y = xx + amp * np.sin(np.pi * yy / h), yy
        shade = 1.0 + rng.uniform(-0.12, 0.12) * np.cos(np.pi * yy / h)
    out = cv2.remap(card, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    out[..., :3] = np.clip(out[..., :3] * shade[..., None], 0, 255).astype(np.uint8)
    return np.asarray(out, dtype=np.uint8)


CARD_MOTION_PX = (2, 10)
"""How far a moving card (:attr:`SceneConfig.card_motion`) travels during the exposure, pixels: a card
carried at 0.5-2.5 m/s under a camera seeing 1 px a millimetre, for 4 ms."""


def _composite(
    img: Image,
    label: NDArray[np.int16],
    card: Image,
    quad: Quad,
    ident: int,
    rng: random.Random,
    motion: tuple[int, float] | None = None,
) -> None:
    """Draws ``card`` (BGRA) onto ``img`` at ``quad`` with a soft shadow, marking its pixels ``ident`` in
    ``label``; ``motion`` (pixels, degrees) smears it as a card moving during the exposure."""
    h, w = img.shape[:2]
    ch, cw = card.shape[:2]
    margin = 3 + (motion[0] if motion is not None else 0)  # room for the shadow, and the smear
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - margin
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + margin
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1c <= x0c or y1c <= y0c:
        return
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    dst = (quad - np.array([x0c, y0c])).astype(np.float32)
    hm = cv2.getPerspectiveTransform(src, dst)
    size = (x1c - x0c, y1c - y0c)
    warped = cv2.warpPerspective(
        card, hm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)
    )
    if motion is not None:
        warped = _smeared(np.asarray(warped, dtype=np.uint8), *motion)
    a = warped[..., 3].astype(np.float32) / 255.0
    roi = img[y0c:y1c, x0c:x1c].astype(np.float32)
    # A soft drop shadow under the card, offset away from the light.
    sdx, sdy = rng.randint(-3, 5), rng.randint(-3, 5)
    shadow = cv2.GaussianBlur(np.roll(a, (sdy, sdx), axis=(0, 1)), (0, 0), rng.uniform(1.0, 4.0))
    roi *= (1 - rng.uniform(0.15, 0.45) * shadow)[..., None]
    roi = roi * (1 - a[..., None]) + warped[..., :3].astype(np.float32) * a[..., None]
    img[y0c:y1c, x0c:x1c] = np.clip(roi, 0, 255).astype(np.uint8)
    lab = label[y0c:y1c, x0c:x1c]
    lab[a > 0.5] = ident


def _smeared(bgra: Image, length: int, angle_deg: float) -> Image:
    """A BGRA card image smeared as :func:`motion_blur` smears a frame, its colour weighted by its
    coverage so that the table's colour does not bleed into the card's edges.

    >>> card = np.zeros((12, 12, 4), np.uint8); card[3:9, 3:9] = (200, 100, 50, 255)
    >>> out = _smeared(card, 5, 0.0)
    >>> int((out[..., 3] > 0).sum()) > 36, out[6, 6].tolist()
    (True, [200, 100, 50, 255])
    """
    pad = length
    a = cv2.copyMakeBorder(bgra, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
    alpha = a[..., 3:].astype(np.float32) / 255.0
    pre = a[..., :3].astype(np.float32) * alpha
    kern = _line_kernel(length, angle_deg)
    pre_b = cv2.filter2D(pre, -1, kern)
    alpha_b = cv2.filter2D(alpha, -1, kern)[..., None]
    colour = pre_b / np.maximum(alpha_b, 1e-6)
    out = np.concatenate([colour, alpha_b * 255.0], axis=2)
    h, w = bgra.shape[:2]
    return np.asarray(np.clip(out[pad : pad + h, pad : pad + w] + 0.5, 0, 255), dtype=np.uint8)


def _poly_visible(label: NDArray[np.int16], quad: Quad, ident: int) -> float:
    h, w = label.shape
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    if area < 1:
        return 0.0
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1c <= x0c or y1c <= y0c:
        return 0.0
    mask = np.zeros((y1c - y0c, x1c - x0c), np.uint8)
    cv2.fillPoly(mask, [np.round((quad - [x0c, y0c]) * 4).astype(np.int32)], 1, shift=2)
    inside = int(mask.sum())
    vis = int(((label[y0c:y1c, x0c:x1c] == ident) & (mask > 0)).sum())
    full = max(area, float(inside)) if inside else area
    return min(1.0, vis / full)


def _photometric(rng: random.Random, nrng: np.random.Generator, img: Image) -> Image:
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    light = 1.0 + rng.uniform(0.05, 0.35) * smooth_noise(nrng, h, w, rng.uniform(150, 500))
    gx, gy = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light *= 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    f *= np.clip(light, 0.3, 1.6)[..., None]
    if rng.random() < 0.35:
        # Specular glare: a bright, saturating blob from an overhead lamp.
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.03, 0.2) * w, rng.uniform(0.03, 0.2) * h
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        f += rng.uniform(80, 300) * blob[..., None]
    gains = np.array([rng.uniform(0.75, 1.25), rng.uniform(0.9, 1.1), rng.uniform(0.75, 1.25)], np.float32)
    f *= gains * rng.uniform(0.6, 1.35)
    f = np.clip(f, 0, 255)
    gamma = rng.uniform(0.75, 1.35)
    f = 255.0 * (f / 255.0) ** gamma
    out: Any = f.astype(np.uint8)
    r = rng.random()
    if r < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6))
    elif r < 0.55:
        k = rng.randint(3, 9)
        out = motion_blur(out, k, rng.uniform(0, 180))
    if rng.random() < 0.2:
        s = rng.uniform(0.5, 0.8)
        small = cv2.resize(out, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 9)
    if sigma > 0.5:
        noise = nrng.normal(0, sigma, (h, w, 1)).astype(np.float32)
        noise = noise + nrng.normal(0, sigma * 0.4, (h, w, 3)).astype(np.float32)
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.75:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(30, 95)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.asarray(out, dtype=np.uint8)


def motion_blur(image: NDArray[np.uint8], length: int, angle_deg: float) -> NDArray[np.uint8]:
    """``image`` smeared along a line ``length`` pixels long at ``angle_deg``: what a camera's exposure
    makes of things moving that far while it lasts (a card carried across the table).

    >>> img = np.zeros((9, 9, 3), np.uint8); img[4, 4] = 255
    >>> out = motion_blur(img, 5, 30.0)
    >>> int((out[..., 0] > 0).sum()) > 1, int(out[..., 0].sum()) <= 255
    (True, True)
    """
    return np.asarray(cv2.filter2D(image, -1, _line_kernel(length, angle_deg)), dtype=np.uint8)


def _line_kernel(length: int, angle_deg: float) -> NDArray[np.float32]:
    """A ``length``×``length`` filter that averages along a line at ``angle_deg`` (sums to 1)."""
    kern: Any = np.zeros((length, length), np.float32)
    kern[length // 2, :] = 1.0 / length
    m = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle_deg, 1.0)
    kern = cv2.warpAffine(kern, m, (length, length))
    out: NDArray[np.float32] = kern / max(kern.sum(), 1e-6)
    return out


def _pick_design(rng: random.Random, cfg: SceneConfig, designs: list[CardDesign]) -> CardDesign:
    if cfg.split == "train" and not cfg.designs and rng.random() < cfg.random_designs:
        style_seed = rng.randrange(10_000)
        style = random_style(random.Random(style_seed), typefaces=cfg.typefaces)
        name = f"random-{style_seed}" + ("-typefaces" if cfg.typefaces else "")
        return CardDesign(name, "train", "procedural", style)
    return rng.choice(designs)


def render_scene(seed: int, cfg: SceneConfig | None = None) -> Scene:
    """Draws the scene numbered ``seed`` (reproducible) with its labels."""
    cfg = cfg or SceneConfig()
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    W, H = cfg.width, cfg.height
    designs = list(cfg.designs) or [d for d in list_designs(split=cfg.split)]  # type: ignore[arg-type]
    if not designs:
        raise ValueError(f"no card designs for split {cfg.split!r}")
    img = background(nrng, H, W)
    if rng.random() < 0.3:
        draw_clutter(nrng, img, rng.randint(1, 4))
    label = np.full((H, W), HAND_LABEL, np.int16)
    placed: list[_Placed] = []
    closeup = rng.random() < cfg.closeup
    if closeup:
        design = _pick_design(rng, cfg, designs)
        ch = rng.uniform(0.5, 1.25) * H
        aspect = _card_image(design, "AS", 108).shape[1] / 108
        tok = "BACK" if rng.random() < 0.1 else _tokens(rng, 1, rng.random() < cfg.gnoming)[0]
        placed.append(
            _Placed(
                tok,
                design,
                _rect_quad(
                    W / 2 + rng.uniform(-0.2, 0.2) * W,
                    H / 2 + rng.uniform(-0.2, 0.2) * H,
                    ch * aspect,
                    ch,
                    rng.uniform(-math.pi, math.pi),
                ),
            )
        )
    else:
        base_h = rng.uniform(*cfg.card_height)
        for _ in range(rng.choice(cfg.layouts)):
            design = _pick_design(rng, cfg, designs)
            aspect = _card_image(design, "AS", 108).shape[1] / 108
            ch = base_h * rng.uniform(0.9, 1.1)
            placed.extend(_layout(rng, cfg, design, ch, aspect, rng.random() < cfg.gnoming))
    cam = _camera(rng, W, H, cfg.perspective)
    cards: list[CardLabel] = []
    for ident, p in enumerate(placed):
        quad = _apply_h(cam, p.quad)
        side = max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[0]))
        card = _card_image(p.design, p.token, _bucket(float(side)))
        if rng.random() < 0.3:
            card = _bend(rng, card)
        motion = None
        # Drawn only when asked for, so that scenes without moving cards stay as they were.
        if cfg.card_motion > 0 and rng.random() < cfg.card_motion:
            motion = (rng.randint(*CARD_MOTION_PX), rng.uniform(0.0, 180.0))
        _composite(img, label, card, quad, ident, rng, motion)
        cl = CardLabel(p.token, quad, p.design.name)
        if p.token != "BACK":
            ch_, cw_ = card.shape[:2]
            src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
            hm = cv2.getPerspectiveTransform(src.astype(np.float32), quad.astype(np.float32)).astype(
                np.float64
            )
            for x0, y0, x1, y1 in face_index_boxes(p.token, p.design):
                if (y0 + y1) / 2 < 0.5:
                    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
                else:
                    corners = np.array([[x1, y1], [x0, y1], [x0, y0], [x1, y0]])
                cl.indices.append(IndexLabel(_apply_h(hm, corners), 0.0))
        cards.append(cl)
    if rng.random() < cfg.hands:
        for _ in range(rng.choice([1, 1, 2])):
            grip, grip_width, fingers = None, None, True
            if cfg.hands_on_cards > 0 and cards and rng.random() < cfg.hands_on_cards:
                # A player carries one card, the top one: pick among the cards that show whole.
                whole = [k for k, c in enumerate(cards) if _poly_visible(label, c.quad, k) > 0.9]
                if whole:
                    held = cards[rng.choice(whole)]
                    grip = held.center
                    grip_width = held.short_side * rng.uniform(0.8, 1.25)
                    # Half of them moving fast: a blob without fingers.
                    fingers = rng.random() < 0.5
            draw_hand(nrng, img, label, grip, grip_width, fingers)
    for ident, cl in enumerate(cards):
        cl.visible = _poly_visible(label, cl.quad, ident)
        cx, cy = cl.center
        ix, iy = int(round(cx)), int(round(cy))
        if 1 <= ix < W - 1 and 1 <= iy < H - 1:
            around = label[iy - 1 : iy + 2, ix - 1 : ix + 2]
            cl.center_visible = int((around == ident).sum()) >= 6
            cl.center_amodal = (
                cfg.amodal_under_hands > 0
                and not cl.center_visible
                and int((around == HAND_LABEL).sum()) >= 6
                and cl.visible >= cfg.amodal_under_hands
            )
        cl.fully_visible = cl.visible >= 0.97
        for il in cl.indices:
            il.visible = _poly_visible(label, il.quad, ident)
    img = _photometric(rng, nrng, img)
    cards = [c for c in cards if c.visible > 0.02]
    return Scene(img, cards, seed)
