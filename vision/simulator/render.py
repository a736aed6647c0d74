"""Drawing what the overhead camera sees: the mat, its markers, the cards, arms and hands.

Glossary:

- **static layer**: the mat with every card at rest, drawn once and redrawn only when a card
  is lifted or lands.
- **band**: a strip of image rows sampled at one instant. With a rolling shutter each band of
  :data:`BAND_ROWS` rows is drawn at its own row time, so a moving card comes out skewed as a
  real sensor records it; a global shutter has one band.
- **exposure blur**: within a band, moving things are drawn at several instants spread over
  the exposure and averaged, which is how motion blur arises in a camera.
- **sprite**: a card face or back from :mod:`vision.cardart` (BGRA, transparent outside the
  rounded corners), warped onto its quad in the image.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import TableMat, marker_image
from vision.cardart import CardDesign, render_back, render_face
from vision.layout import CARD_H_MM, CARD_W_MM, Pose
from vision.simulator.camera import CameraModel, SensorEffects
from vision.simulator.motion import HandPose, arm_polygons

__all__ = ["CardDraw", "ArmDraw", "TableRenderer", "BAND_ROWS"]

BAND_ROWS = 12
"""Rows per rolling-shutter band: 12 rows of a 720-row, 12 ms readout are 0.2 ms apart."""

Image = NDArray[np.uint8]

_T = np.linspace(0, 2 * math.pi, 24, endpoint=False)
_COS, _SIN = np.cos(_T), np.sin(_T)


def _overlaps(poly: NDArray[np.float64], w: int, h: int) -> bool:
    return bool(
        poly[:, 0].max() >= 0 and poly[:, 1].max() >= 0 and poly[:, 0].min() < w and poly[:, 1].min() < h
    )


@dataclass(frozen=True, slots=True)
class CardDraw:
    """One card to draw: its face token (or None for a back seen), its design and pose."""

    token: str | None
    design: CardDesign
    pose: Pose
    lift_mm: float = 0.0


@dataclass(frozen=True, slots=True)
class ArmDraw:
    pose: HandPose
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


class TableRenderer:
    """Renders frames of one table for one camera.

    ``surface`` picks the mat: ``"felt"``, ``"wood"`` or ``"cloth"``.
    """

    def __init__(
        self,
        camera: CameraModel,
        *,
        mat: TableMat | None = None,
        surface: str = "felt",
        rng: random.Random | None = None,
    ) -> None:
        self.camera = camera
        self.mat = mat or TableMat()
        self.rng = rng or random.Random(0)
        self.effects = SensorEffects(camera.width, camera.height, self.rng)
        self.card_px = int(round(CARD_H_MM * camera.px_per_mm() * 1.15))
        self._sprites: dict[tuple[str, str | None], Image] = {}
        self._arm_cache: dict[tuple[tuple[float, float], tuple[float, float]], NDArray[np.float64]] = {}
        self.background = self._draw_background(surface)

    # -- sprites -------------------------------------------------------------------
    def sprite(self, token: str | None, design: CardDesign) -> Image:
        key = (design.name, token)
        s = self._sprites.get(key)
        if s is None:
            s = render_face(token, design, self.card_px) if token else render_back(design, self.card_px)
            if s.shape[2] == 3:
                s = np.dstack([s, np.full(s.shape[:2], 255, np.uint8)])
            self._sprites[key] = s
        return s

    # -- the mat -------------------------------------------------------------------
    def _draw_background(self, surface: str) -> Image:
        r = self.rng
        w_mm, h_mm = self.mat.width_mm, self.mat.height_mm
        scale = 1.0  # texture pixels per millimetre
        tw, th = int(w_mm * scale), int(h_mm * scale)
        nrng = np.random.default_rng(r.getrandbits(32))
        if surface == "wood":
            base = np.array([r.randint(40, 70), r.randint(80, 110), r.randint(130, 160)], np.float32)
            yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32)
            warp = cv2.resize(nrng.normal(0, 1, (th // 40 + 2, tw // 40 + 2)).astype(np.float32), (tw, th))
            grain = np.sin((yy + 25 * warp) / r.uniform(5, 9)) * 0.5 + 0.5
            tex = base[None, None, :] * (0.8 + 0.3 * grain[:, :, None])
        elif surface == "cloth":
            base = np.array([r.randint(90, 140), r.randint(60, 90), r.randint(40, 70)], np.float32)
            weave = (np.indices((th, tw)).sum(axis=0) % 3 == 0).astype(np.float32)
            tex = base[None, None, :] * (0.92 + 0.1 * weave[:, :, None])
        elif surface == "felt":
            base = np.array([r.randint(50, 80), r.randint(95, 125), r.randint(30, 50)], np.float32)
            tex = np.repeat(base[None, None, :], th, 0).repeat(tw, 1)
        else:
            raise ValueError(f"unknown mat surface {surface!r} (felt, wood, cloth)")
        blotch = cv2.resize(
            nrng.normal(0, 1, (th // 60 + 2, tw // 60 + 2)).astype(np.float32),
            (tw, th),
            interpolation=cv2.INTER_CUBIC,
        )
        fine = nrng.normal(0, 1, (th, tw)).astype(np.float32)
        tex = tex * (1.0 + 0.05 * blotch[:, :, None]) + 4.0 * fine[:, :, None]
        tex_u8 = np.clip(tex, 0, 255).astype(np.uint8)
        # Seat zone lines printed on the mat would go here; the default mat is plain.
        m = self.camera.table_to_image @ np.diag([1 / scale, 1 / scale, 1.0])
        floor = np.full((self.camera.height, self.camera.width, 3), (40, 45, 50), np.uint8)
        img = cv2.warpPerspective(
            tex_u8,
            m,
            (self.camera.width, self.camera.height),
            dst=floor,
            borderMode=cv2.BORDER_TRANSPARENT,
            flags=cv2.INTER_AREA,
        )
        out = np.asarray(img, dtype=np.uint8)
        for k, marker_id in enumerate(self.mat.marker_ids):
            self._draw_marker(out, k, marker_id)
        return out

    def _draw_marker(self, img: Image, k: int, marker_id: int) -> None:
        side = 120
        q = side // 4
        tile = np.full((side + 2 * q, side + 2 * q), 255, np.uint8)
        tile[q : q + side, q : q + side] = marker_image(marker_id, side)
        tile_bgr = cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR)
        x0, y0, x1, y1 = self.mat.marker_boxes_mm()[k]
        dst = self.camera.project(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        src = np.array(
            [[0, 0], [tile.shape[1], 0], [tile.shape[1], tile.shape[0]], [0, tile.shape[0]]], np.float32
        )
        m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        cv2.warpPerspective(
            tile_bgr,
            m,
            (img.shape[1], img.shape[0]),
            dst=img,
            borderMode=cv2.BORDER_TRANSPARENT,
            flags=cv2.INTER_AREA,
        )

    # -- drawing into a region -----------------------------------------------------
    def _card_quad_px(self, pose: Pose, lift_mm: float) -> NDArray[np.float64]:
        corners = np.array(pose.corners(CARD_W_MM, CARD_H_MM))
        quad = self.camera.project(corners)
        if lift_mm > 0:
            # Nearer the lens looks bigger: scale about the point straight below the camera.
            c = self.camera.project(np.array([[self.mat.width_mm / 2, self.mat.height_mm / 2]]))[0]
            k = self.camera.height_mm / (self.camera.height_mm - lift_mm)
            quad = c + (quad - c) * k
        return quad

    def draw_card(
        self, region: Image, origin: tuple[int, int], card: CardDraw, *, shadow: bool = True
    ) -> None:
        """Draws one card into ``region``, whose top-left is image pixel ``origin``."""
        ox, oy = origin
        quad = self._card_quad_px(card.pose, card.lift_mm) - (ox, oy)
        rh, rw = region.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 4
        if x1 <= 0 or y1 <= 0 or x0 >= rw or y0 >= rh:
            return
        if shadow:
            off = 1.2 + card.lift_mm * 0.35
            sh = (quad + (off * 0.7, off)).astype(np.int32)
            patch_box = (
                max(0, min(sh[:, 0]) - 1),
                max(0, min(sh[:, 1]) - 1),
                min(rw, max(sh[:, 0]) + 2),
                min(rh, max(sh[:, 1]) + 2),
            )
            if patch_box[2] > patch_box[0] and patch_box[3] > patch_box[1]:
                bx0, by0, bx1, by1 = patch_box
                mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
                cv2.fillConvexPoly(mask, sh - (bx0, by0), 255, lineType=cv2.LINE_AA)
                if card.lift_mm > 2:
                    mask = cv2.blur(mask, (5, 5))
                dark = 0.55 if card.lift_mm <= 2 else 0.7
                sub = region[by0:by1, bx0:bx1]
                f = 1.0 - (1.0 - dark) * (mask.astype(np.float32) / 255.0)
                sub[:] = (sub.astype(np.float32) * f[:, :, None]).astype(np.uint8)
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(rw, x1), min(rh, y1)
        sprite = self.sprite(card.token, card.design)
        sh_, sw_ = sprite.shape[:2]
        src = np.array([[0, 0], [sw_, 0], [sw_, sh_], [0, sh_]], np.float32)
        m = cv2.getPerspectiveTransform(src, (quad - (cx0, cy0)).astype(np.float32))
        warped = cv2.warpPerspective(
            sprite,
            m,
            (cx1 - cx0, cy1 - cy0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        sub = region[cy0:cy1, cx0:cx1]
        sub[:] = (warped[:, :, :3].astype(np.float32) * alpha + sub.astype(np.float32) * (1 - alpha)).astype(
            np.uint8
        )

    def draw_arm(self, region: Image, origin: tuple[int, int], arm: ArmDraw) -> None:
        """Draws a forearm, its shadow and the hand into ``region``."""
        key = (arm.pose.shoulder, arm.pose.hand)
        base = self._arm_cache.get(key)
        if base is None:
            quad_mm, hand_mm, ang = arm_polygons(arm.pose)
            hx, hy = hand_mm
            ca, sa = math.cos(ang), math.sin(ang)
            ellipse = np.stack(
                [hx + 46 * _COS * ca - 36 * _SIN * sa, hy + 46 * _COS * sa + 36 * _SIN * ca], axis=1
            )
            base = self.camera.project(
                np.vstack(
                    [
                        quad_mm,
                        quad_mm + (14.0, 22.0),
                        ellipse,
                        ellipse + (10.0, 14.0),
                        [(hx + 30 * ca, hy + 30 * sa)],
                    ]
                )
            )
            if len(self._arm_cache) > 512:
                self._arm_cache.clear()
            self._arm_cache[key] = base
        pts = base - origin
        arm_px, shadow_px = pts[0:4], pts[4:8]
        n = len(_COS)
        hand_px, hand_shadow_px = pts[8 : 8 + n], pts[8 + n : 8 + 2 * n]
        # The arm is some 80-150 mm above the table: its shadow falls a little aside.
        rh, rw = region.shape[:2]
        for poly in (shadow_px, hand_shadow_px):
            if _overlaps(poly, rw, rh):
                self._darken_poly(region, poly, 0.62)
        if _overlaps(arm_px, rw, rh):
            cv2.fillConvexPoly(region, np.round(arm_px * 16).astype(np.int32), arm.sleeve, cv2.LINE_AA, 4)
        if _overlaps(hand_px, rw, rh):
            cv2.fillConvexPoly(region, np.round(hand_px * 16).astype(np.int32), arm.skin, cv2.LINE_AA, 4)
            # Knuckle shading so the hand is not a flat blob.
            kx, ky = pts[-1]
            darker = tuple(int(c * 0.85) for c in arm.skin)
            cv2.circle(
                region, (int(kx), int(ky)), max(2, int(10 * self.camera.px_per_mm())), darker, -1, cv2.LINE_AA
            )

    @staticmethod
    def _darken_poly(region: Image, pts: NDArray[np.float64], factor: float) -> None:
        rh, rw = region.shape[:2]
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(rw, x1), min(rh, y1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((pts - (x0, y0)) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        sub = region[y0:y1, x0:x1]
        f = 1.0 - (1.0 - factor) * (mask.astype(np.float32) / 255.0)
        sub[:] = (sub.astype(np.float32) * f[:, :, None]).astype(np.uint8)

    # -- whole frames ---------------------------------------------------------------
    def static_layer(self, cards: Sequence[CardDraw]) -> Image:
        """The mat with cards at rest (bottom first), unlit."""
        img = self.background.copy()
        for c in cards:
            self.draw_card(img, (0, 0), c)
        return img

    def element_box(self, el: CardDraw | ArmDraw) -> tuple[float, float, float, float]:
        """The pixel box an element covers (its shadow included)."""
        if isinstance(el, CardDraw):
            q = self._card_quad_px(el.pose, el.lift_mm)
            pad = 3.0 + el.lift_mm * 0.5
        else:
            (sx, sy), (hx, hy) = el.pose.shoulder, el.pose.hand
            q = self.camera.project(np.array([[sx, sy], [hx, hy]]))
            pad = 70.0 * self.camera.px_per_mm()
        return (
            float(q[:, 0].min() - pad),
            float(q[:, 1].min() - pad),
            float(q[:, 0].max() + pad),
            float(q[:, 1].max() + pad),
        )

    def frame(
        self,
        static_unlit: Image,
        static_lit: Image,
        row_t_ns: Callable[[float], int],
        exposure_ns: int,
        elements: Sequence[Callable[[int], CardDraw | ArmDraw | None]],
        band_rows: int,
    ) -> Image:
        """Composes one frame: the lit static layer, with moving things drawn band by band.

        Each of ``elements`` gives what one moving thing (a card, an arm) looks like at a time
        (None when it is not there); cards come before arms, which are drawn on top. ``row_t_ns(y)``
        is the sample time of row y.
        """
        out = static_lit.copy()
        h, w = out.shape[:2]
        t_first, t_last = row_t_ns(0), row_t_ns(h - 1)
        half = exposure_ns // 2
        # Where and how fast each element moves during this frame's readout.
        spans: list[tuple[int, float, float, float, float, int]] = []
        for k, el in enumerate(elements):
            boxes = []
            pos = []
            for t in (t_first - half, (t_first + t_last) // 2, t_last + half):
                d = el(t)
                if d is not None:
                    boxes.append(self.element_box(d))
                    pos.append(d.pose.hand if isinstance(d, ArmDraw) else (d.pose.x, d.pose.y))
            if not boxes:
                continue
            bx = np.array(boxes)
            speed_mm = 0.0
            if len(pos) >= 2:
                speed_mm = max(
                    math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in zip(pos, pos[1:], strict=False)
                )
            dt = max(1, (t_last - t_first + exposure_ns) // max(1, len(pos) - 1))
            blur_px = speed_mm * self.camera.px_per_mm() * exposure_ns / dt
            n = int(min(6, max(1, math.ceil(blur_px / 2.0))))
            spans.append(
                (
                    k,
                    float(bx[:, 0].min()),
                    float(bx[:, 1].min()),
                    float(bx[:, 2].max()),
                    float(bx[:, 3].max()),
                    n,
                )
            )
        if not spans:
            return self.effects.add_noise(out)
        y_lo = max(0, int(min(sp[2] for sp in spans)))
        y_hi = min(h, int(max(sp[4] for sp in spans)) + 1)
        for y0 in range(y_lo // band_rows * band_rows, y_hi, band_rows):
            y1 = min(h, y0 + band_rows)
            here = [sp for sp in spans if sp[2] < y1 and sp[4] >= y0]
            if not here:
                continue
            bx0 = max(0, int(min(sp[1] for sp in here)))
            bx1 = min(w, int(max(sp[3] for sp in here)) + 1)
            if bx1 <= bx0:
                continue
            tb = row_t_ns((y0 + y1) / 2)
            n = max(sp[5] for sp in here)
            samples = [tb] if n == 1 else [tb - half + exposure_ns * j // (n - 1) for j in range(n)]
            acc: NDArray[np.float32] | None = None
            for ts in samples:
                region = static_unlit[y0:y1, bx0:bx1].copy()
                for sp in here:
                    d = elements[sp[0]](ts)
                    if isinstance(d, CardDraw):
                        self.draw_card(region, (bx0, y0), d)
                    elif isinstance(d, ArmDraw):
                        self.draw_arm(region, (bx0, y0), d)
                if n == 1:
                    acc = region.astype(np.float32)
                else:
                    acc = region.astype(np.float32) if acc is None else acc + region
            assert acc is not None
            out[y0:y1, bx0:bx1] = self.effects.light((acc / len(samples)).astype(np.uint8), y0, bx0)
        return self.effects.add_noise(out)
