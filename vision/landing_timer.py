"""Landing times read from the pixels, for a card the recognizer seldom saw in flight.

The tracker times a landing from the card's sightings (see :mod:`vision.tracker`). A recognizer
names a small card in flight only now and then (its index is blurred, turned, under the hand), so
the last sighting before the card rests may be a tenth of a second before it: that gap is the
landing's uncertainty. The camera saw the card in every frame all the same. This module keeps the
last second or so of frames in grey and, once the tracker knows where a card came to rest, looks
back at that place: it cuts the card out of the newest frame (the part away from the hand that
carried it) and finds it, by normalised cross-correlation, in each earlier frame within a card's
length of its resting place. That gives the distance still to go in every frame, to a tenth of a
pixel, with the row time of the rolling shutter.

A card sliding to rest under friction decelerates evenly, so ``sqrt(distance to go)`` falls on a
straight line that reaches zero at the landing (the same model the tracker fits to sightings). The
line is fitted over the last frames in motion; the landing is where it meets zero, never outside the
gap between the last frame in motion and the first at rest.

What stops the look back: a frame where the card is not found (the hand over it, or out of the
searched window), a frame where it was nearer its rest than in a later one (the card below it on the
pile, of the same design, matched instead) or one beyond the interval the tracker gave.

>>> import numpy as np
>>> from vision.events import Frame
>>> h = FrameHistory()
>>> h.push(Frame(np.zeros((4, 6, 3), np.uint8), 0))
>>> len(h), h.newest_t_ns
(1, 0)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.events import Frame

__all__ = [
    "FrameHistory",
    "LandingFit",
    "at_rest_since",
    "rest_interval",
    "time_landing",
    "HISTORY_NS",
    "MIN_ERR_NS",
    "MODEL_ERR_NS",
]

HISTORY_NS = 1_500_000_000
"""How far back frames are kept: the tracker settles a card some frames after it lands, later when
a hand stays over it."""

MOVING_PX = 0.5
"""A card found at least this far (pixels) from where it rests is still moving; below it, at rest. The
correlation peak of a card seen sharp lies within about a tenth of a pixel of the truth."""

MIN_SCORE = 0.55
"""Least correlation for the card to count as found in a frame, at rest or in motion. The hand that
carries a card covers part of it until it has drawn back, a few frames after the landing: such frames
match at 0.6 to 0.8, and a card of another design nearby lower."""

MIN_MOVING = 3
"""Frames in motion needed: the line through fewer says nothing of its own fit. Two do when the card
shows clearly in both (:data:`CLEAR_SCORE`): a fast card covers the last card's length in two frames."""

CLEAR_SCORE = 0.9
"""Correlation of a card seen whole and unblurred."""

BRIDGE_SCORE = 0.95
"""Correlation of frames at rest before a run in motion that made no fit: the same card, not another of
its design below it on the pile."""

MIN_TRAVEL_PX = 3.0
"""Least distance (pixels) from its rest in the farthest frame of a run in motion: a card slowing to rest
covers more in its last frames; a shift under it is a hand over the card at rest."""

MIN_CUT_SHARE = 0.25
"""Least side of the part of a card looked for, in card lengths (a corner index alone is smaller)."""

REACH = 0.8
"""How far from its resting place the card is looked for, in card lengths."""

LAST_STEP_SHARE = 0.25
"""Farthest a card is found from its rest in its last frame in motion, in card lengths, for
:func:`rest_interval` to take that frame for the card's own: a card slowing to rest covers less than that
in its last frame period; a match farther off is something else the cut-out resembles.
"""
"""How far from its resting place the card is looked for, in card lengths."""

DIRECTION_COS = 0.9
"""Every shift in motion points within about 25 degrees of the farthest one: one card sliding in."""

MAX_RESIDUAL = 0.25
"""Largest spread (square-root pixels) of the frames in motion about the fitted line; more is not one
card slowing evenly."""

MIN_TEMPLATE_STD = 6.0
"""A cut-out with less grey-level spread than this (a blank stretch of card) cannot be located."""

FIT_POINTS = 4
"""Frames in motion the line is fitted on: the last few, well inside the card's slowing."""

CREEP_PX = 1.5
"""The newest frame in motion this near the rest may be taken for the first at rest (see
:func:`_fit_creeping`)."""

CLEAR_NOISE_PX = 0.1
"""Noise (pixels) of the correlation peak of a card seen clearly (:data:`CLEAR_SCORE`)."""

COVERED_NOISE_PX = 0.3
"""Noise (pixels) of the peak of a card the hand partly covers."""

UNSEEN_STOP_NS = 25_000_000
"""A gap this long between the last frame in motion and the first at rest leaves the stop unseen."""

EXTRAPOLATION_ERR = 0.2
"""Uncertainty added over an unseen stop, as a share of the time the line runs past its last frame."""

MODEL_ERR_NS = 500_000
"""Added to every fitted landing time's uncertainty (the tracker's too): a real card does not stop
exactly as the model says."""

MIN_ERR_NS = 1_000_000
"""Smallest landing-time uncertainty claimed, here and by the tracker (1 ms)."""

COVERAGE = 3.0
"""Standard deviations of the fitted time in the stated uncertainty."""


@dataclass(frozen=True, slots=True)
class _Shot:
    t_ns: int
    row_time_ns: int
    exposure_ns: int
    gray: NDArray[np.uint8]


class FrameHistory:
    """The last frames, grey, cut to the part of the table where landings are timed.

    ``region`` (x0, y0, x1, y1 in image pixels) is the part kept; None keeps the whole frame.
    """

    def __init__(self, region: tuple[int, int, int, int] | None = None, horizon_ns: int = HISTORY_NS) -> None:
        self.region = region
        self.horizon_ns = horizon_ns
        self._shots: deque[_Shot] = deque()

    def __len__(self) -> int:
        return len(self._shots)

    @property
    def newest_t_ns(self) -> int | None:
        return self._shots[-1].t_ns if self._shots else None

    @property
    def origin(self) -> tuple[int, int]:
        """Image position of the kept part's top-left pixel."""
        return (self.region[0], self.region[1]) if self.region else (0, 0)

    def push(self, frame: Frame) -> None:
        """Keeps ``frame`` (a frame without pixels is skipped) and forgets those past the horizon."""
        if frame.image is None:
            return
        img = np.asarray(frame.image)
        if img.ndim != 2 and img.ndim != 3:
            return
        if self.region is not None:
            x0, y0, x1, y1 = self.region
            img = img[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
        if img.ndim == 3 and img.shape[2] in (3, 4):
            code = cv2.COLOR_BGR2GRAY if img.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
            gray = np.asarray(cv2.cvtColor(img, code), np.uint8)
        elif img.ndim == 3 and img.shape[2] == 1:
            gray = np.asarray(img[:, :, 0], np.uint8).copy()
        elif img.ndim == 2:
            gray = np.asarray(img, np.uint8).copy()
        else:
            return
        self._shots.append(_Shot(frame.t_ns, frame.row_time_ns, frame.exposure_ns, gray))
        while self._shots and self._shots[0].t_ns < frame.t_ns - self.horizon_ns:
            self._shots.popleft()

    def shots(self) -> list[_Shot]:
        return list(self._shots)


@dataclass(frozen=True, slots=True)
class LandingFit:
    """A landing timed from the pixels."""

    t_ns: int
    err_ns: int
    moving: int
    """Frames in motion the time rests on (:data:`MIN_MOVING` to :data:`FIT_POINTS`)."""
    came_from: tuple[float, float] = (0.0, 0.0)
    """Where the card was, relative to where it rests, in the earliest of those frames (image pixels):
    the way it came from."""


def _peak_offset(res: NDArray[np.float32], x: int, y: int) -> tuple[float, float]:
    """Sub-pixel position of a correlation peak: a parabola through it and its neighbours, per axis."""

    def vertex(a: float, b: float, c: float) -> float:
        den = a - 2 * b + c
        return 0.0 if abs(den) < 1e-9 else max(-0.5, min(0.5, 0.5 * (a - c) / den))

    h, w = res.shape
    fx = vertex(float(res[y, x - 1]), float(res[y, x]), float(res[y, x + 1])) if 0 < x < w - 1 else 0.0
    fy = vertex(float(res[y - 1, x]), float(res[y, x]), float(res[y + 1, x])) if 0 < y < h - 1 else 0.0
    return fx, fy


def _cut(
    box: tuple[float, float, float, float], toward: tuple[float, float] | None
) -> tuple[float, float, float, float]:
    """The part of a resting card's box to look for: inside its edges (its drop shadow and the pile
    below change as it lands), and on a card that came from one side, the half away from that side
    (the hand holds a card by its near end)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    x0, x1 = x0 + 0.12 * w, x1 - 0.12 * w
    y0, y1 = y0 + 0.12 * h, y1 - 0.12 * h
    if toward is not None:
        ux, uy = toward
        if abs(ux) > 0.5:
            # It travelled along x: the leading part lies on the side it travelled toward.
            if ux > 0:
                x0 = x1 - 0.6 * (x1 - x0)
            else:
                x1 = x0 + 0.6 * (x1 - x0)
        if abs(uy) > 0.5:
            if uy > 0:
                y0 = y1 - 0.6 * (y1 - y0)
            else:
                y1 = y0 + 0.6 * (y1 - y0)
    return x0, y0, x1, y1


def time_landing(
    history: FrameHistory,
    box: tuple[float, float, float, float],
    t_lo_ns: int,
    *,
    card_px: float,
    toward: tuple[float, float] | None = None,
    min_score: float = MIN_SCORE,
    at_ns: int | None = None,
    rough: bool = False,
) -> LandingFit | None:
    """When the card resting in ``box`` (image pixels, as the newest frame shows it) landed, from the
    frames kept since ``t_lo_ns``; None when they do not tell (no frame in motion found, the card
    hidden or featureless). ``toward`` is the unit direction (image axes) it travelled in, when known;
    ``min_score`` the least correlation for a frame to show the card. ``at_ns`` names the frame (by its
    timestamp) that shows the card resting in ``box``, when not the newest: one covered since. ``rough``
    says ``box`` is only about the card's (guessed around its corner index): the correlation peak is then
    taken for as noisy as a partly covered card's.
    """
    search = _Search.of(history, box, card_px, toward, at_ns)
    if search is None:
        return None
    # Walk back from the newest frame: the frames at rest, then those in motion. A run in motion that does
    # not make a fit (a hand passing over the card at rest, matched a few pixels off) is dropped and the walk
    # goes on, for the card seen at rest again before it, clearly (:data:`BRIDGE_SCORE`).
    rest_t: int | None = None
    bridged = False
    moving: list[_Match] = []
    for shot in search.earlier(t_lo_ns):
        m = search.find(shot)
        found = m.score >= min_score
        if found:
            # Still sliding in: farther from its rest than in the later frame (a card nearer than that is not
            # this one, or is the one below it on the pile).
            if moving and m.d >= moving[-1].d - MOVING_PX and len(moving) < FIT_POINTS:
                moving.append(m)
                continue
            if not moving and m.d >= MOVING_PX and rest_t is not None:
                moving.append(m)
                continue
        elif not moving:
            continue
        if moving:
            fit = _fit_creeping(moving, rest_t, rough)
            if fit is not None:
                return fit
            moving, rest_t, bridged = [], None, True
        if found and m.d < MOVING_PX and (not bridged or m.score >= BRIDGE_SCORE):
            rest_t = m.t
    if moving:
        return _fit_creeping(moving, rest_t, rough)
    return None


@dataclass(frozen=True, slots=True)
class _Search:
    """A resting card's cut-out (from the frame that shows it resting) and where to look for it in the frames
    before that one."""

    shots: list[_Shot]
    """The frames kept up to the reference frame, the last."""
    tpl: NDArray[np.uint8]
    window: tuple[int, int, int, int]
    """Where it is looked for (x0, y0, x1, y1 in the kept frames' pixels)."""
    at: tuple[int, int]
    """Where the cut-out lies in the window when the card is at rest."""
    centre_y: float
    """Image row of the cut-out's centre (rolling shutter)."""

    @classmethod
    def of(
        cls,
        history: FrameHistory,
        box: tuple[float, float, float, float],
        card_px: float,
        toward: tuple[float, float] | None,
        at_ns: int | None,
    ) -> _Search | None:
        """None when the frames kept are too few, or the card's cut-out too small or featureless to find."""
        shots = history.shots()
        if at_ns is not None:
            # The card is seen resting in the frame of ``at_ns``; a later one may show another card on it.
            shots = [sh for sh in shots if sh.t_ns <= at_ns]
        if len(shots) < 3:
            return None
        ox, oy = history.origin
        ref = shots[-1]
        hgt, wid = ref.gray.shape
        cx0, cy0, cx1, cy1 = _cut(box, toward)
        tx0, ty0 = int(round(cx0 - ox)), int(round(cy0 - oy))
        tx1, ty1 = int(round(cx1 - ox)), int(round(cy1 - oy))
        small = MIN_CUT_SHARE * card_px
        if tx1 - tx0 < small or ty1 - ty0 < small or tx0 < 0 or ty0 < 0 or tx1 > wid or ty1 > hgt:
            # A corner index alone, or a sliver of the card: too few pixels to find it by.
            return None
        tpl = ref.gray[ty0:ty1, tx0:tx1]
        if float(tpl.std()) < MIN_TEMPLATE_STD:
            return None
        reach = int(math.ceil(REACH * card_px))
        wx0, wy0 = max(0, tx0 - reach), max(0, ty0 - reach)
        wx1, wy1 = min(wid, tx1 + reach), min(hgt, ty1 + reach)
        return cls(shots, tpl, (wx0, wy0, wx1, wy1), (tx0 - wx0, ty0 - wy0), (ty0 + ty1) / 2 + oy)

    def earlier(self, t_lo_ns: int) -> Iterator[_Shot]:
        """The frames before the reference frame, newest first, back to ``t_lo_ns``."""
        for shot in reversed(self.shots[:-1]):
            if shot.t_ns + int(self.centre_y * shot.row_time_ns) < t_lo_ns:
                return
            yield shot

    def find(self, shot: _Shot) -> _Match:
        """The best match of the cut-out in ``shot``: how well it matched, how far from the rest, and when
        the rows it lies on were read."""
        wx0, wy0, wx1, wy1 = self.window
        res = np.asarray(
            cv2.matchTemplate(shot.gray[wy0:wy1, wx0:wx1], self.tpl, cv2.TM_CCOEFF_NORMED), np.float32
        )
        _, score, _, (px, py) = cv2.minMaxLoc(res)
        fx, fy = _peak_offset(res, px, py)
        dx, dy = px + fx - self.at[0], py + fy - self.at[1]
        t = shot.t_ns + int(round((self.centre_y + dy) * shot.row_time_ns)) + shot.exposure_ns // 2
        return _Match(t, math.hypot(dx, dy), dx, dy, float(score))


def at_rest_since(
    history: FrameHistory,
    box: tuple[float, float, float, float],
    t_lo_ns: int,
    *,
    card_px: float,
    min_score: float = MIN_SCORE,
    at_ns: int | None = None,
) -> int | None:
    """When the card resting in ``box`` (in the frame of ``at_ns``, or the newest) was first seen there in the
    unbroken run of frames that show it resting, back to ``t_lo_ns``: it had landed by then. None when the
    frame before the reference does not show it resting (the reference alone says nothing: the card is cut
    out of it) or the card cannot be looked for. A hand over the card hides it at rest as well as in flight,
    so this bounds a landing the frames in motion (:func:`time_landing`) do not time."""
    return rest_interval(history, box, t_lo_ns, card_px=card_px, min_score=min_score, at_ns=at_ns)[1]


def rest_interval(
    history: FrameHistory,
    box: tuple[float, float, float, float],
    t_lo_ns: int,
    *,
    card_px: float,
    toward: tuple[float, float] | None = None,
    min_score: float = MIN_SCORE,
    at_ns: int | None = None,
) -> tuple[int | None, int | None]:
    """(still moving at, at rest since) for the card resting in ``box``: :func:`at_rest_since`'s time, and
    before it the time of the frame just before the run at rest when that frame shows the card itself a few
    pixels short of its rest, on the way it came (``toward``, the unit direction it travelled in): it had
    not landed yet then. One such frame fits no line (:func:`time_landing` needs three) but halves what is
    left of the gap; None where that frame shows the card nowhere near, or another way (a hand over it)."""
    whole = _Search.of(history, box, card_px, None, at_ns)
    if whole is None:
        return None, None
    moving, since = _rest_run(whole, t_lo_ns, min_score, toward, card_px)
    if toward is not None and since is not None:
        # The part away from the hand shows first: the frame that breaks its run at rest may show the card
        # still sliding in where the whole card is still half under the hand.
        lead = _Search.of(history, box, card_px, toward, at_ns)
        if lead is not None:
            lead_moving, _ = _rest_run(lead, t_lo_ns, min_score, toward, card_px)
            if lead_moving is not None and lead_moving < since:
                moving = lead_moving if moving is None else max(moving, lead_moving)
    return moving, since


def _rest_run(
    search: _Search, t_lo_ns: int, min_score: float, toward: tuple[float, float] | None, card_px: float
) -> tuple[int | None, int | None]:
    """:func:`rest_interval` for one cut-out of the card."""
    since: int | None = None
    for shot in search.earlier(t_lo_ns):
        m = search.find(shot)
        if m.score < min_score or m.d >= MOVING_PX:
            moving = (
                since is not None
                and toward is not None
                and m.score >= min_score
                and CREEP_PX <= m.d <= LAST_STEP_SHARE * card_px
                and -(m.dx * toward[0] + m.dy * toward[1]) / m.d >= DIRECTION_COS
            )
            return (m.t if moving else None), since
        since = m.t
    return None, since


@dataclass(frozen=True, slots=True)
class _Match:
    t: int
    """When the card's rows were read."""
    d: float
    """Pixels from where it rests."""
    dx: float
    dy: float
    score: float


def _fit_creeping(moving: list[_Match], rest_t: int | None, rough: bool = False) -> LandingFit | None:
    """:func:`_fit`, and when the frames in motion make none, the same without the newest of them if it lies
    within :data:`CREEP_PX` of the rest, taken as the first frame at rest: the card under the hand, its
    correlation peak pulled a pixel by the hand's edge, or creeping its last pixel (seed 14's Ben 5D: 16.8,
    6.8, 1.0 and 0.6 px from its rest, no line through all four)."""
    fit = _fit(moving, rest_t, rough)
    if fit is not None or len(moving) <= MIN_MOVING or moving[0].d >= CREEP_PX:
        return fit
    rest = moving[1:]
    # Only frames that show the card closing in on its rest (not a steady offset: another thing matched).
    return _fit(rest, moving[0].t, rough) if rest[-1].d - rest[0].d >= MIN_TRAVEL_PX else None


def _fit(moving: list[_Match], rest_t: int | None, rough: bool = False) -> LandingFit | None:
    """The landing from the frames in motion (newest first) and the first at rest after them, or None when
    they do not look like one card slowing evenly to rest."""
    if rest_t is None:
        return None
    n = len(moving)
    if n < MIN_MOVING and not (n == 2 and min(m.score for m in moving) >= CLEAR_SCORE):
        return None
    # One card sliding in: it covered some pixels, every shift pointing the same way as the farthest.
    far = moving[-1]
    if far.d < MIN_TRAVEL_PX:
        return None
    for m in moving:
        if m.d >= 2.0 and (m.dx * far.dx + m.dy * far.dy) / (m.d * far.d) < DIRECTION_COS:
            return None
    t_last = moving[0].t
    ts = np.array([m.t for m in moving], dtype=np.float64)
    ys = np.sqrt(np.array([m.d for m in moving], dtype=np.float64))
    t0 = ts.mean()
    tt = ts - t0
    sxx = float((tt * tt).sum())
    if sxx <= 0:
        return None
    slope = float((tt * (ys - ys.mean())).sum()) / sxx
    if slope >= 0:
        return None
    icpt = float(ys.mean())
    t_zero = t0 - icpt / slope
    resid = ys - (icpt + slope * tt)
    s = math.sqrt(float((resid * resid).sum()) / (n - 2)) if n > 2 else 0.0
    if s > MAX_RESIDUAL:
        # Not one card slowing evenly: a hand over it in some frames, or another card matched.
        return None
    # Least noise assumed on d: the correlation peak's, a tenth of a pixel on a card seen clearly, more on
    # one the hand partly covers (its peak pulled by the hand's edge); as noise on sqrt(d) near the rest.
    clear = not rough and min(m.score for m in moving) >= CLEAR_SCORE
    noise_px = CLEAR_NOISE_PX if clear else COVERED_NOISE_PX
    floor = noise_px / (2 * math.sqrt(max(0.25, float(np.min(ys) ** 2))))
    s = max(s, floor)
    spread = math.sqrt(1 / n + (t_zero - t0) ** 2 / sxx) / abs(slope)
    sigma_t = s * spread
    err = int(COVERAGE * sigma_t) + MODEL_ERR_NS
    # The first frame "at rest" may show the card still creeping its last half pixel: the line says
    # how long that takes, and the landing may lie that much past it.
    t_hi = rest_t + min(MOVING_PX**0.5 / abs(slope), rest_t - t_last)
    slack = COVERAGE * sigma_t + max(rest_t - t_last, UNSEEN_STOP_NS)
    # Past the rest the line may run only as far as the peak's own noise lets it: a line that misses its
    # fit (frames of something else matched, at a steady offset) widens sigma_t, not that bound.
    late = COVERAGE * floor * spread + max(rest_t - t_last, UNSEEN_STOP_NS)
    if not t_last - slack <= t_zero <= t_hi + late:
        # The line meets zero far before its own last frame in motion, or far after the card was seen at
        # rest: not a card slowing to rest there (something else matched, at a steady offset).
        return None
    # Where the line puts the card at its first frame at rest must be about there (half a pixel, give or
    # take the line's own noise). A line that barely slopes (something at a near steady offset matched, its
    # zero far off) passes the bound in time above, which its tiny slope stretches without limit (seed 6's
    # Ben 3S: 21.0, 20.0 and 19.8 px off, then at rest: timed 115 ms late).
    y_rest = icpt + slope * (rest_t - t0)
    if y_rest > MOVING_PX**0.5 + COVERAGE * s * math.sqrt(1 / n + (rest_t - t0) ** 2 / sxx):
        return None
    t_land = int(round(min(max(t_zero, t_last), t_hi)))
    if rest_t - t_last > UNSEEN_STOP_NS:
        # The hand hid the card from its last frame in motion until well after: nothing checks the line's
        # run to zero, and a real stop bends off it the more, the longer that run.
        err += int(EXTRAPOLATION_ERR * max(0, t_land - t_last))
    err = max(MIN_ERR_NS, min(err, int(t_hi) - t_last + MODEL_ERR_NS))
    return LandingFit(t_land, err, n, (far.dx, far.dy))
