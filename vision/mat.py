"""The printable table mat: its markers and a game's zones drawn at true scale (``kiosk mat``).

Glossary (coordinates as in :mod:`vision.calibration`: table millimetres, origin at the mat's
top-left corner, x right, y down):

- **mat art**: what is printed: the four ArUco markers exactly where :class:`TableMat` puts
  them (the calibration trusts their printed size), each seat's zone with its name, the game's
  piles and slots outlined and labelled (:mod:`vision.layout`), a title, the mat's size, the
  print-at-100 % instructions and a 100 mm scale bar to check the print with a ruler.
- **zone**: one outline of the art (:class:`Zone`): a seat's zone, a pile's card outline, the
  extent of a fanned pile, a shared area; with its label, upright for the player it belongs to.
- **raster**: the art drawn at ``dpi`` dots per inch; pixel ``(i, j)`` covers table millimetres
  ``[i, i + 1) × [j, j + 1)`` times ``25.4 / dpi``. :func:`render_mat` draws any window of it, so
  a tile of a printed page is exactly the same pixels as that part of the whole-mat PNG.

>>> from vision.layout import layout_for
>>> art = MatArt(TableMat(), layout_for("gnoming", ["Ana", "Ben"]), "gnoming", "Gnoming A Round")
>>> sorted({z.label for z in art.zones if z.kind == "seat"})
['Seat 1 - Ana', 'Seat 2 - Ben']
>>> img = render_mat(art, 10.0)
>>> img.shape
(346, 614, 3)
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import TableMat, marker_image
from vision.errors import VisionError
from vision.layout import CARD_H_MM, CARD_W_MM, Pose, SeatPlace, Slot, TableLayout

__all__ = [
    "MatError",
    "Zone",
    "MatArt",
    "MAT_GAMES",
    "BACKGROUNDS",
    "px_per_mm",
    "raster_size",
    "render_mat",
    "png_bytes",
]

MM_PER_INCH = 25.4
Image = NDArray[np.uint8]
Box = tuple[float, float, float, float]


class MatError(VisionError):
    """A mat that cannot be drawn as asked (the layout does not fit it, a bad size or dpi)."""


@dataclass(frozen=True, slots=True)
class Palette:
    """The mat's colours (RGB)."""

    ground: tuple[int, int, int]
    seat: tuple[int, int, int]
    slot: tuple[int, int, int]
    shared: tuple[int, int, int]
    text: tuple[int, int, int]


BACKGROUNDS: dict[str, Palette] = {
    # Felt green like the simulator's "felt" surface the recognizer trained on; pale lines.
    "green": Palette((38, 104, 58), (214, 232, 214), (190, 220, 196), (244, 226, 150), (236, 244, 236)),
    # Ink saver: a white sheet with grey lines (white cards show less contrast on it).
    "white": Palette((255, 255, 255), (90, 90, 90), (120, 120, 120), (150, 110, 30), (40, 40, 40)),
}
"""Mat colour schemes by name."""

FAN_GUIDE_CARDS = 6
"""A fanned pile's outline shows the extent of this many cards."""
SEAT_PAD_MM = 10.0
LABEL_MM = 4.5
SEAT_LABEL_MM = 9.0


# Which regions of a layout each game uses, their labels and how they are drawn:
# "card" a card outline per slot, "fan" also the fanned extent, "box" one outline around all
# of the region's slots (labelled once), "slot" small unlabelled card outlines.
MAT_GAMES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "nerts": (
        ("nerts", "NERTS", "card"),
        ("work", "WORK {n}", "fan"),
        ("waste", "WASTE", "card"),
        ("stock", "STOCK", "card"),
        ("foundation", "FOUNDATIONS", "slot"),
    ),
    "smear": (("trick", "PLAY", "card"), ("won", "TRICKS WON", "card")),
    "kierki": (
        ("trick", "PLAY", "card"),
        ("won", "TRICKS WON", "card"),
        ("table", "CARDS LEFT", "fan"),
        ("fantan", "FAN TAN: SPADES, HEARTS, DIAMONDS, CLUBS ROWS", "box"),
    ),
    "rummy_3_13": (("pile", "DISCARD", "card"), ("show", "SHOW HAND", "fan"), ("pool", "POOL", "pool")),
    "gnoming": (
        ("grid", "{row}-{col}", "card"),
        ("deck", "DRAW PILE", "card"),
        ("A", "DISCARD A", "card"),
        ("B", "DISCARD B", "card"),
        ("removed", "HAZARDS OUT", "card"),
    ),
}
"""Per game (registry name): ``(region, label, style)`` of the layout regions printed on its mat."""

_SHARED_REGIONS = frozenset({"trick"})
"""Regions that belong to a seat but lie in the shared centre (the card a seat plays to a trick)."""


@dataclass(frozen=True, slots=True)
class Zone:
    """One outline of the mat art."""

    kind: str
    """``"seat"``, ``"card"``, ``"fan"``, ``"slot"`` or ``"shared"``."""
    polygon: tuple[tuple[float, float], ...]
    """The outline in table millimetres."""
    label: str = ""
    label_at: tuple[float, float] = (0.0, 0.0)
    """Where the label's centre lies (mm)."""
    label_turn: int = 0
    """Quarter turns counter-clockwise of the label (0: upright for the bottom edge's player)."""
    label_mm: float = LABEL_MM
    label_width_mm: float = 0.0
    """The most width the label may take (0: no limit); a longer label is drawn smaller."""
    dashed: bool = False

    def box(self) -> Box:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (min(xs), min(ys), max(xs), max(ys))


def _turns(angle: float) -> int:
    return int(round(angle / 90.0)) % 4


def _rounded_card(
    pose: Pose, w: float = CARD_W_MM, h: float = CARD_H_MM, r: float = 3.0
) -> list[tuple[float, float]]:
    """A card outline with rounded corners (as :meth:`Pose.corners`, in table millimetres)."""
    local: list[tuple[float, float]] = []
    for cx, cy, a0 in (
        (w / 2 - r, -h / 2 + r, -90),
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
    ):
        for k in range(5):
            a = math.radians(a0 + k * 22.5)
            local.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    a = math.radians(pose.angle)
    ca, sa = math.cos(a), math.sin(a)
    return [(pose.x + dx * ca + dy * sa, pose.y - dx * sa + dy * ca) for dx, dy in local]


def _local_box(place: SeatPlace, points: Sequence[tuple[float, float]]) -> Box:
    loc = [place.to_local(x, y) for x, y in points]
    return (min(p[0] for p in loc), min(p[1] for p in loc), max(p[0] for p in loc), max(p[1] for p in loc))


def _fan_extent(slot: Slot) -> list[tuple[float, float]]:
    first = slot.pose.corners()
    last = slot.card_pose(FAN_GUIDE_CARDS - 1).corners()
    return first + last


def _hull(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    hull = cv2.convexHull(np.asarray(points, np.float32))
    return tuple((float(x), float(y)) for x, y in hull.reshape(-1, 2))


def _slot_label(template: str, slot: Slot) -> str:
    row, col = divmod(slot.index, 3)
    return template.format(n=slot.index, row=row + 1, col=col + 1)


def _points_box(points: Sequence[tuple[float, float]]) -> Box:
    return (
        min(p[0] for p in points),
        min(p[1] for p in points),
        max(p[0] for p in points),
        max(p[1] for p in points),
    )


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass
class MatArt:
    """What one mat shows: the mat's geometry, a game's layout, and the text around them.

    ``game`` is the registry name (a key of :data:`MAT_GAMES`), ``title`` the game's title.
    Raises :class:`MatError` when a pile of the layout would lie off the mat or on a marker's
    quiet zone (a mat too small for the layout).
    """

    mat: TableMat
    layout: TableLayout
    game: str
    title: str
    background: str = "green"
    named_seats: bool = True
    """Seat labels carry the seat names (else "Seat 1", "Seat 2"...)."""
    zones: list[Zone] = field(init=False)

    def __post_init__(self) -> None:
        if self.game not in MAT_GAMES:
            raise MatError(f"no mat layout for game {self.game!r} (games: {', '.join(MAT_GAMES)})")
        if self.background not in BACKGROUNDS:
            raise MatError(f"unknown mat background {self.background!r} (choose {', '.join(BACKGROUNDS)})")
        self.zones = self._make_zones()
        self._check_fit()

    @property
    def palette(self) -> Palette:
        return BACKGROUNDS[self.background]

    # -- zones -------------------------------------------------------------------
    def _make_zones(self) -> list[Zone]:
        lay = self.layout
        zones: list[Zone] = []
        spec = MAT_GAMES[self.game]
        seat_points: dict[str, list[tuple[float, float]]] = {s: [] for s in lay.seats}
        for region, template, style in spec:
            slots = [s for k, s in lay.slots.items() if k[1] == region]
            if not slots:
                continue
            if style in ("box", "pool"):
                # A region drawn as one area: around its slots (Fan Tan's rows), or the layout's
                # shared centre (3-13's pool, spread face down anywhere in it).
                if style == "pool":
                    x0, y0, x1, y1 = lay.centre_box
                    pad = 0.0
                else:
                    x0, y0, x1, y1 = _points_box([p for s in slots for p in s.pose.corners()])
                    pad = 6.0
                poly: tuple[tuple[float, float], ...] = (
                    (x0 - pad, y0 - pad),
                    (x1 + pad, y0 - pad),
                    (x1 + pad, y1 + pad),
                    (x0 - pad, y1 + pad),
                )
                label = template if style == "box" else f"{template} (face down)"
                zones.append(
                    Zone("shared", poly, label, ((x0 + x1) / 2, y0 - pad + 6.0), 0, LABEL_MM + 1, dashed=True)
                )
                continue
            for slot in slots:
                turn = _turns(lay.place_of(slot.seat).angle) if slot.seat is not None else 0
                outline = tuple(_rounded_card(slot.pose))
                if style == "slot":
                    zones.append(Zone("slot", outline, dashed=True))
                else:
                    width = (CARD_W_MM if _turns(slot.pose.angle - 90 * turn) % 2 == 0 else CARD_H_MM) - 8.0
                    zones.append(
                        Zone(
                            "card",
                            outline,
                            _slot_label(template, slot),
                            (slot.pose.x, slot.pose.y),
                            turn,
                            LABEL_MM,
                            width,
                        )
                    )
                if style == "fan":
                    zones.append(Zone("fan", _hull(_fan_extent(slot)), dashed=True))
                if slot.seat is not None and region not in _SHARED_REGIONS:
                    seat_points[slot.seat].extend(
                        _fan_extent(slot) if style == "fan" else slot.pose.corners()
                    )
        if self.game == "nerts":
            found = [s for k, s in lay.slots.items() if k[1] == "foundation"]
            if found:
                x0, y0, x1, y1 = lay.centre_box
                poly = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
                zones.append(
                    Zone("shared", poly, "FOUNDATIONS (shared)", ((x0 + x1) / 2, y0 + 7.0), 0, LABEL_MM + 1)
                )
        seat_zones: list[Zone] = []  # drawn first, under the piles
        for k, seat in enumerate(lay.seats):
            pts = seat_points[seat]
            if not pts:
                continue
            place = lay.place_of(seat)
            lx0, ly0, lx1, ly1 = _local_box(place, pts)
            lx0, ly0, lx1 = lx0 - SEAT_PAD_MM, ly0 - SEAT_PAD_MM, lx1 + SEAT_PAD_MM
            ly1 = ly1 + SEAT_PAD_MM + SEAT_LABEL_MM + 6.0
            corners = [(lx0, ly0), (lx1, ly0), (lx1, ly1), (lx0, ly1)]
            poly = tuple(place.to_table(x, y) for x, y in corners)
            label = f"Seat {k + 1} - {seat}" if self.named_seats else f"Seat {k + 1}"
            at = place.to_table((lx0 + lx1) / 2, ly1 - SEAT_LABEL_MM / 2 - 4.0)
            seat_zones.append(
                Zone("seat", poly, label, at, _turns(place.angle), SEAT_LABEL_MM, lx1 - lx0 - 10.0)
            )
        return seat_zones + zones

    def _check_fit(self) -> None:
        m = self.mat
        markers = m.marker_boxes_mm()
        for z in self.zones:
            if z.kind not in ("card", "slot"):
                continue
            x0, y0, x1, y1 = z.box()
            if x0 < 0 or y0 < 0 or x1 > m.width_mm or y1 > m.height_mm:
                raise MatError(
                    f"the {self.game} layout does not fit a {m.width_mm:g} x {m.height_mm:g} mm mat "
                    f"(a pile at {x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f} mm lies off it); use a larger mat"
                )
            for k, mb in enumerate(markers):
                if _overlaps(z.box(), mb):
                    raise MatError(
                        f"on a {m.width_mm:g} x {m.height_mm:g} mm mat marker {m.marker_ids[k]} lies under a "
                        f"pile of the {self.game} layout; use a larger mat"
                    )

    # -- text blocks ---------------------------------------------------------------
    def text_blocks(self) -> list[tuple[Box, list[tuple[str, float]]]]:
        """The title block and the scale bar's block: ``(box mm, [(line, height mm)])``.

        Each goes to the first free place (clear of the zones and the markers' quiet zones):
        the middle of the top edge, of the bottom edge, then beside the corner markers; with
        none free, to the middle of the top edge.
        """
        m = self.mat
        title = [
            (f"{self.title.upper()} - {len(self.layout.seats)} SEATS", 9.0),
            (
                f"Table mat {m.width_mm:g} x {m.height_mm:g} mm, markers {m.marker_mm:g} mm "
                f"(ArUco 4x4 ids {', '.join(str(i) for i in m.marker_ids)})",
                4.5,
            ),
            ("Print at 100 % (actual size, no 'fit to page'); check the 100 mm bar with a ruler.", 4.5),
        ]
        scale = [("100 mm", 4.5)]
        taken = [z.box() for z in self.zones] + list(m.marker_boxes_mm())
        out = []
        for lines, (w, h) in ((title, (_block_width(title), _block_height(title))), (scale, (110.0, 22.0))):
            box = self._free_place(w, h, taken)
            taken.append(box)
            out.append((box, lines))
        return out

    def _free_place(self, w: float, h: float, taken: list[Box]) -> Box:
        m = self.mat
        e = m.inset_mm
        beside = m.inset_mm + m.marker_mm * 1.5 + 10.0
        cx = m.width_mm / 2
        candidates = [
            (cx - w / 2, e, cx + w / 2, e + h),
            (cx - w / 2, m.height_mm - e - h, cx + w / 2, m.height_mm - e),
            (beside, e, beside + w, e + h),
            (m.width_mm - beside - w, e, m.width_mm - beside, e + h),
            (beside, m.height_mm - e - h, beside + w, m.height_mm - e),
            (m.width_mm - beside - w, m.height_mm - e - h, m.width_mm - beside, m.height_mm - e),
        ]
        for c in candidates:
            if c[0] >= 0 and c[2] <= m.width_mm and not any(_overlaps(c, t) for t in taken):
                return c
        return candidates[0]


def _block_width(lines: Sequence[tuple[str, float]]) -> float:
    return max(_text_width_mm(t, h) for t, h in lines) + 4.0


def _block_height(lines: Sequence[tuple[str, float]]) -> float:
    return sum(h * 1.8 for _, h in lines) + 2.0


_FONT = cv2.FONT_HERSHEY_DUPLEX
_FONT_CAP_PX = 22.0
"""Cap height of the Hershey font at scale 1."""


def _text_width_mm(text: str, height_mm: float) -> float:
    (w, _), _ = cv2.getTextSize(text, _FONT, 1.0, 1)
    return float(w) * height_mm / _FONT_CAP_PX


# -- rendering -----------------------------------------------------------------------


def px_per_mm(dpi: float) -> float:
    """Raster pixels per millimetre at ``dpi``.

    >>> round(px_per_mm(254.0), 6)
    10.0
    """
    return dpi / MM_PER_INCH


def raster_size(mat: TableMat, dpi: float) -> tuple[int, int]:
    """The whole mat's raster size ``(width, height)`` in pixels at ``dpi``."""
    s = px_per_mm(dpi)
    return int(round(mat.width_mm * s)), int(round(mat.height_mm * s))


_SHIFT = 4
_ONE = 1 << _SHIFT


def _fixed(points: Sequence[tuple[float, float]], s: float, ox: int, oy: int) -> NDArray[np.int32]:
    # Fixed-point pixel coordinates (cv2's ``shift``), rounded in whole-mat pixels first so
    # every window draws the same pixels.
    arr = np.rint(np.asarray(points, np.float64) * s * _ONE).astype(np.int64)
    arr -= np.array([ox * _ONE, oy * _ONE], np.int64)
    return arr.astype(np.int32).reshape(-1, 1, 2)


def _dashes(polygon: Sequence[tuple[float, float]], dash_mm: float = 6.0) -> list[list[tuple[float, float]]]:
    """The closed polygon cut into dashes (every other ``dash_mm`` piece along its perimeter)."""
    out: list[list[tuple[float, float]]] = []
    pts = list(polygon) + [polygon[0]]
    pos = 0.0
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        n = math.hypot(bx - ax, by - ay)
        t = 0.0
        while t < n:
            step = min(dash_mm - (pos % dash_mm), n - t)
            if int(pos // dash_mm) % 2 == 0:
                u0, u1 = t / n, (t + step) / n
                out.append(
                    [(ax + (bx - ax) * u0, ay + (by - ay) * u0), (ax + (bx - ax) * u1, ay + (by - ay) * u1)]
                )
            t += step
            pos += step
    return out


def _text_mask(text: str, height_px: float, turn: int) -> NDArray[np.float32]:
    """Coverage (0..1) of ``text`` with capitals ``height_px`` tall, turned ``turn`` quarter turns."""
    scale = max(0.05, height_px / _FONT_CAP_PX)
    thick = max(1, int(round(scale * 1.6)))
    (w, h), base = cv2.getTextSize(text, _FONT, scale, thick)
    pad = thick + 2
    canvas = np.zeros((h + base + 2 * pad, w + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + h), _FONT, scale, 255, thick, cv2.LINE_AA)
    return np.ascontiguousarray(np.rot90(canvas, turn)).astype(np.float32) / 255.0


def _blend(img: Image, mask: NDArray[np.float32], x0: int, y0: int, colour: tuple[int, int, int]) -> None:
    h, w = mask.shape
    ih, iw = img.shape[:2]
    ax0, ay0, ax1, ay1 = max(0, x0), max(0, y0), min(iw, x0 + w), min(ih, y0 + h)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    m = mask[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0, None]
    region = img[ay0:ay1, ax0:ax1].astype(np.float32)
    region = region * (1 - m) + np.asarray(colour, np.float32) * m
    img[ay0:ay1, ax0:ax1] = np.rint(region).astype(np.uint8)


def _draw_text(
    img: Image,
    text: str,
    centre_mm: tuple[float, float],
    height_mm: float,
    s: float,
    origin: tuple[int, int],
    colour: tuple[int, int, int],
    *,
    turn: int = 0,
    max_width_mm: float = 0.0,
) -> None:
    if max_width_mm > 0:
        height_mm = min(height_mm, height_mm * max_width_mm / max(1e-6, _text_width_mm(text, height_mm)))
    mask = _text_mask(text, height_mm * s, turn)
    h, w = mask.shape
    x0 = int(round(centre_mm[0] * s - w / 2)) - origin[0]
    y0 = int(round(centre_mm[1] * s - h / 2)) - origin[1]
    _blend(img, mask, x0, y0, colour)


def _draw_marker(img: Image, mat: TableMat, k: int, s: float, origin: tuple[int, int]) -> None:
    """Marker ``k`` by area coverage: each pixel's grey is the part of it that is black, so the
    printed marker is exact to a fraction of a pixel whatever the dpi."""
    qx0, qy0, qx1, qy1 = mat.marker_boxes_mm()[k]
    ox, oy = origin
    ih, iw = img.shape[:2]
    px0, py0 = max(0, int(math.floor(qx0 * s)) - ox), max(0, int(math.floor(qy0 * s)) - oy)
    px1, py1 = min(iw, int(math.ceil(qx1 * s)) - ox), min(ih, int(math.ceil(qy1 * s)) - oy)
    if px1 <= px0 or py1 <= py0:
        return
    bits = marker_image(mat.marker_ids[k], 6) < 128  # 6×6 modules: the 4×4 bits and a black border
    (mx0, my0), _, _, _ = mat.marker_corners_mm(k)
    module = mat.marker_mm / 6
    sub = 4  # samples per pixel side
    offs = (np.arange(sub) + 0.5) / sub

    def cells(p0: int, p1: int, o: int, m0: float) -> NDArray[np.int64]:
        mm = ((np.arange(p0, p1)[:, None] + o + offs[None, :]) / s).ravel()
        idx = np.floor((mm - m0) / module).astype(np.int64)
        return np.where((idx >= 0) & (idx < 6), idx, -1)

    cx = cells(px0, px1, ox, mx0)
    cy = cells(py0, py1, oy, my0)
    black = bits[np.clip(cy, 0, 5)[:, None], np.clip(cx, 0, 5)[None, :]]
    black &= (cy >= 0)[:, None] & (cx >= 0)[None, :]
    cover = black.reshape(py1 - py0, sub, px1 - px0, sub).mean(axis=(1, 3))
    # The quiet zone is white: sample coverage of the quiet box too, so its edge is exact.
    qx = ((np.arange(px0, px1)[:, None] + ox + offs[None, :]) / s).ravel()
    qy = ((np.arange(py0, py1)[:, None] + oy + offs[None, :]) / s).ravel()
    inside = ((qy >= qy0) & (qy < qy1))[:, None] & ((qx >= qx0) & (qx < qx1))[None, :]
    quiet = inside.reshape(py1 - py0, sub, px1 - px0, sub).mean(axis=(1, 3))
    region = img[py0:py1, px0:px1].astype(np.float32)
    white = region * (1 - quiet[:, :, None]) + 255.0 * quiet[:, :, None]
    img[py0:py1, px0:px1] = np.rint(white * (1 - cover[:, :, None])).astype(np.uint8)


def _scale_bar(img: Image, box: Box, s: float, origin: tuple[int, int], colour: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    bx0 = (x0 + x1) / 2 - 50.0
    by = y0 + 12.0
    thick_mm = 1.2
    bar = [
        (bx0, by - thick_mm / 2),
        (bx0 + 100.0, by - thick_mm / 2),
        (bx0 + 100.0, by + thick_mm / 2),
        (bx0, by + thick_mm / 2),
    ]
    cv2.fillPoly(img, [_fixed(bar, s, *origin)], colour, cv2.LINE_AA, _SHIFT)
    for k in range(11):
        x = bx0 + 10.0 * k
        tick = 4.0 if k % 5 == 0 else 2.5
        line = [(x - 0.25, by - tick), (x + 0.25, by - tick), (x + 0.25, by), (x - 0.25, by)]
        cv2.fillPoly(img, [_fixed(line, s, *origin)], colour, cv2.LINE_AA, _SHIFT)
    _draw_text(img, "100 mm", ((x0 + x1) / 2, by + 6.5), 4.5, s, origin, colour)


def render_mat(art: MatArt, dpi: float, window: tuple[int, int, int, int] | None = None) -> Image:
    """The mat art at ``dpi`` as an RGB image: the whole mat, or the ``window`` ``(x, y, w, h)`` of
    the whole-mat raster (pixels), which equals that crop of the whole image.

    Raises :class:`MatError` for a dpi outside 10..600.
    """
    if not 10 <= dpi <= 600:
        raise MatError(f"dpi {dpi:g} is out of range; use 10 to 600 (150 prints well)")
    s = px_per_mm(dpi)
    full_w, full_h = raster_size(art.mat, dpi)
    ox, oy, w, h = window if window is not None else (0, 0, full_w, full_h)
    pal = art.palette
    img = np.empty((h, w, 3), np.uint8)
    img[:] = pal.ground
    origin = (ox, oy)
    line_px = max(1, int(round(0.6 * s)))  # lines about 0.6 mm wide
    for z in art.zones:
        colour = {"seat": pal.seat, "shared": pal.shared}.get(z.kind, pal.slot)
        width = line_px * 2 if z.kind == "seat" else line_px
        if z.dashed:
            for a, b in _dashes(z.polygon):
                seg = _fixed([a, b], s, ox, oy).reshape(2, 2)
                cv2.line(
                    img,
                    tuple(int(v) for v in seg[0]),
                    tuple(int(v) for v in seg[1]),
                    colour,
                    width,
                    cv2.LINE_AA,
                    _SHIFT,
                )
        else:
            cv2.polylines(img, [_fixed(z.polygon, s, ox, oy)], True, colour, width, cv2.LINE_AA, _SHIFT)
        if z.label:
            _draw_text(
                img,
                z.label,
                z.label_at,
                z.label_mm,
                s,
                origin,
                pal.text if z.kind != "shared" else pal.shared,
                turn=z.label_turn,
                max_width_mm=z.label_width_mm,
            )
    (tbox, lines), (sbox, _) = art.text_blocks()
    y = tbox[1] + 1.0
    for text, hmm in lines:
        y += hmm * 0.9
        _draw_text(img, text, ((tbox[0] + tbox[2]) / 2, y), hmm, s, origin, pal.text)
        y += hmm * 0.9
    _scale_bar(img, sbox, s, origin, pal.text)
    for k in range(len(art.mat.marker_ids)):
        _draw_marker(img, art.mat, k, s, origin)
    return img


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_bytes(image: Image, dpi: float) -> bytes:
    """``image`` (RGB) as PNG bytes whose ``pHYs`` chunk states ``dpi``, so a print shop's
    software prints it at true size."""
    ok, buf = cv2.imencode(".png", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:
        raise MatError("could not encode the mat as PNG")
    data = buf.tobytes()
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR's length and type, its 13 bytes, its CRC
    ppm = int(round(dpi / MM_PER_INCH * 1000))
    phys = _png_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    return data[:ihdr_end] + phys + data[ihdr_end:]


def write_png(path: str | Path, image: Image, dpi: float) -> None:
    """Writes ``image`` as a PNG stating ``dpi``."""
    Path(path).write_bytes(png_bytes(image, dpi))
