"""The table tracker: per-frame card sightings in, stable table events out.

Glossary:

- **observation**: one sighting placed in time and on the table: its label, its box in pixels,
  its centre in table millimetres (through the calibration) and the time its rows were read
  (the frame's sensor timestamp plus the rolling-shutter row time plus half the exposure).
- **track**: one physical card followed from frame to frame. A track is **at rest** once three
  observations agree (the box's least-moved side on each axis moved under
  :data:`REST_PX`, so a hand or a card covering one side of it does not count as motion);
  otherwise it is **moving**. A track that rests, moves and rests again is a card that was
  **lifted** from one place and **landed** at another.
- **settle**: a moving track coming to rest. Only settles make events, so a hand over a card,
  a card unseen for a few frames, or a card misread for a frame or two (a track that never
  rests three times) makes none. A card that flew and was seen at rest, then covered before its
  landing was confirmed (the later card of a race, a hand staying over it), has settled all the same;
  so has one still for four sightings on a foundation, box unchanged, that then moves again (a race
  loser taken back at once): it lands, then is lifted.
- **source**: where a landed card rested before it moved. A card whose lift was hidden by the
  hand is joined to the resting card of the same face that vanished nearby just before.
- **landing time**: a card sliding to rest under friction decelerates evenly, so the distance
  still to go, ``d``, shrinks as ``(t_land - t)²``: ``sqrt(d)`` falls on a straight line that
  reaches zero at ``t_land``. The tracker measures ``d`` on the box's leading side (the side
  away from the hand), times each observation by the image row of that side, fits the line
  over the last observations before rest and reports where it meets zero, with ``err`` from
  the fit's spread (never less than :data:`MIN_ERR_NS`) and never outside the interval
  between the last moving and the first resting observation. Hands cover cards as they land, so
  sightings that read further from the rest than an earlier one are left out, a point far off the
  line is dropped, and a card moving on both axes is also fitted on each axis alone (one moving
  mostly along one axis, on that one alone). Sightings narrower than the card mostly shows in flight
  have a side covered (which one is unknown): the fit is also tried without them. The fit claiming
  the least error is kept, averaged with the fits that agree with it within their errors (weighed by
  them). A hand may cover the measured end as the card lands: the opposite end, on the axis the card
  moved most along, is fitted alone too (when the card rests seen whole along it). A card seen again
  after a hidden stretch may still creep for a few frames, so the fit may end up to three frames after
  that.
  A race loser that vanished under the winner's hand, the winner already at rest there, has no later
  bound but its own slowing motion: its fit to the winner's place may reach past the frame after.
  A card never slides past its resting place, so a side seen in flight further on than where it rests
  was covered at rest (a hand, the next card): the opposite side is measured on, or when that one was
  covered in flight, the place where the side stops is fitted as a further unknown.
  A recognizer's box without the card's outline swells and shrinks with the hand over the card: a card seen
  in its last stretch of flight only by its corner index, and then in such boxes, has ``err`` reaching back to
  its last sighting clearly away from where it rests (:meth:`TableTracker._box_only_err`).

Each game's tracker builds on :class:`TableTracker`, turning its landings into that game's events:
:mod:`vision.nerts_tracker` (Nerts), :mod:`vision.trick_tracker` (Kierki, Smear),
:mod:`vision.rummy_tracker` (3-13) and :mod:`vision.gnoming_tracker` (Gnoming A Round).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from vision.calibration import Calibration
from vision.events import BACK, UNKNOWN, CardSighting, Frame
from vision.landing_timer import (
    MIN_CUT_SHARE,
    MIN_ERR_NS,
    MODEL_ERR_NS,
    FrameHistory,
    LandingFit,
    rest_interval,
    time_landing,
)
from vision.landing_timer import MIN_SCORE as LANDING_MIN_SCORE
from vision.layout import CARD_H_MM, CARD_W_MM, TableLayout

__all__ = [
    "Observation",
    "Track",
    "Landing",
    "TrackerSettings",
    "estimate_landing",
    "REST_PX",
    "MIN_ERR_NS",
    "REST_CREEP_NS",
]

REST_PX = 1.6
"""Largest robust displacement (pixels) of a card at rest over a few frames, for cards about
:data:`REF_CARD_PX` tall; scaled with the cards' size in the image (never below 1 px)."""
REF_CARD_PX = 62.0
STANDARD_FACES: tuple[str, ...] = tuple(
    r + s for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
)
"""The faces of a standard deck: what a Nerts table holds (jokers only with ``jokers = 2``)."""
MIN_FLIGHT_NS = 120_000_000
"""The shortest time a card takes from a seat's layout to the centre."""
CARRY_MM_S = 4500.0
"""The fastest average speed of a card carried from a seat's layout, from its last sighting there (at rest
or just lifted) to a sighting on its way. A real carry in a simulated hand averaged 3.2 m/s (842 mm in
265 ms, a reach across the table); a thrown card peaks at 4-5 m/s only after it has left the hand."""
MOVE_UNSEEN_NS = 450_000_000
"""Longest a card moved within a seat's layout may go unseen, from its last sighting where it lay to its
first at rest on the work pile it went to, to be taken for the card of its face that appears there."""
SIDE_NOISE_PX = 0.3
"""Least noise assumed on a box side (pixels) when the fit's residuals show less."""
PRIOR_NOISE_PX = 0.3
"""The box-side noise assumed before the residuals say otherwise."""
COVERAGE_WHOLE = 3.0
"""Standard deviations in a stated ``err`` when every box in the fit shows the whole card (about
99 % if box sides are only noisy)."""
COVERAGE = 4.5
"""Standard deviations in a stated ``err`` when some box in the fit shows only part of the card: a
card partly hidden by the hand that carries it strays from the model more often (with three,
simulated hands showed 85 % of errors within ``err``; with 4.5, 91 %)."""
SIDE_RATIO = 3.0
"""A leading side that changed this many times more than the opposite side between the card's stop
and its final rest was being uncovered (a hand drawing back off it): the opposite side times the landing."""
EXTRAPOLATION_ERR = 0.2
"""Least ``err`` of a landing fitted across an unseen stretch, as a fraction of the time from the last
sighting before the landing to the landing the fit puts there: the model bends off a real stop (the
card touching down, a hand on it) more the further it runs unchecked."""
OVERSHOOT_PX = 1.5
"""A card slides to rest without passing its resting place: a side seen in flight this much further on
than where it rests was covered at rest (a hand, the next card), so its resting place is not known.
About three standard deviations of a sighting's side less its resting place, for box sides noisy by 0.4 px."""
FREE_END_NS = 120_000_000
"""How far back before its last sighting in motion a fit whose resting place is unknown reaches (the
last stretch of the card's slowing)."""
MIN_BOX_SHARE = 0.1
"""A sighting whose box covers less than this share of a card's area shows a corner index alone: a
recognizer may find and name a card by its index without finding the card's outline, and then gives the
index's box (a card part a hand leaves visible is only reported when 15 % of it shows). Such a box lies
anywhere up to half a card off the card's own, with no motion at all."""
INDEX_OFF_MM = math.hypot(CARD_W_MM, CARD_H_MM) / 2
"""Furthest a card's corner index (a sighting of it alone, :data:`MIN_BOX_SHARE`) lies from the card's
centre: half the card's diagonal."""
AWAY_SHARE = 0.2
"""A box without the card's outline off its resting place by over this share of a card's length, on both
sides of an axis the same way, shows the card away from there (the hand over a card swells a recognizer's box
by less, and on both sides at once)."""
TWIN_GLIDE_NS = 250_000_000
"""How long a card last seen moving onto a card of its face already at rest may glide on unseen under the
hand before it stops (:meth:`TableTracker._hidden_twins`)."""
REST_CREEP_NS = 35_000_000
"""How long a card may still slide after a box without its outline (a recognizer's detection box, a few
pixels off the card's) first places it within the rest tolerance of where it rests: the last few pixels of
a slide under friction take tens of milliseconds (about 30 ms in the simulator's slowing)."""
MOVE_CREEP_NS = 80_000_000
"""The same for a card moved within a seat's layout: a short, slow slide onto a work pile spends its last
70 ms or so within the rest tolerance (51, 63 and 69 ms after their first sighting at rest, for three moves
of held-out simulated hands)."""
JOSTLED_NS = 150_000_000
"""A card seen still where it rests this long or more before its landing fit had been jostled between
(:meth:`TableTracker._here_before`)."""
LIFT_CREEP_NS = 100_000_000
"""How long a card starting to move may stay within the rest tolerance before its first sighting off its
rest (a start is slow: its first frames of motion move it less than the rest noise)."""
BURIED_NS = 300_000_000
"""A card that has lain this long on the place a card of another face was last seen resting in buries it
(:meth:`TableTracker._buried`); one that came to rest there more recently may have been revealed by its
lift."""
UNSURE_MIN = 0.5
"""An unsure reading (``UNKNOWN``) in a seat's layout whose likeliest face has this probability or more says
where a card of that face lay (:meth:`TableTracker._vanished_unsure`)."""
PIXEL_LOOK_NS = 200_000_000
"""How far before the sightings' earliest landing time the frames' pixels are searched for the card in
motion (:meth:`TableTracker._timed_from_pixels`): the frames fitted are those of its last few frames in
motion, before the landing. The sightings of a card first named as it stops can put its landing up to
about 100 ms late while claiming a frame or two; with 80 ms the frames of its slide fell outside the
search (13 held-out hands, video model: 258 of 285 landings within their stated err, now 273)."""
PIXEL_EARLIER_MOVING = 4
"""Frames in motion a pixel fit needs to overrule a later landing the sightings claim more surely than
their two errors allow (:meth:`TableTracker._timed_from_pixels`)."""
PIXEL_REST_CREEP_NS = 20_000_000
"""How long a card may still slide after the first frame that shows it within half a pixel of its rest
(:func:`vision.landing_timer.at_rest_since`): the last half pixel of a slowing card takes about 18 ms in the
simulator's slowing (seed 2's 2D, 0.65 square-root pixels a frame at 60 fps)."""
PIXEL_SAME_WAY_COS = 0.9
"""A pixel fit's slide comes the way the sightings say the card travelled within about 25 degrees."""
TIMING_MIN_SCORE = 0.4
"""Least correlation of a frame in the pixels' timing of a landing the sightings made (a play made from
the pixels alone, :meth:`TableTracker._slid_in`, asks :data:`vision.landing_timer.MIN_SCORE`)."""
INDEX_MIN_SCORE = 0.8
"""Least correlation of a frame in the pixels' timing of a card seen at rest by its corner index alone, for
each of the eight ways the card may lie around it. A box that is not the card's matches the table or another
card below 0.8 while the walk's checks (one card slowing evenly, the same way) hold; the card itself, half
under the hand that slid it or blurred, matches 0.85 to 0.9 in its last frames in motion, which a bar of 0.9
left unused (13 held-out hands: landings off by more than 8 ms 36, now 29; seed 6's Cal 2S 137 ms early)."""
INDEX_INSET = 0.13
"""Where a corner index's centre lies from the card's sides, as a share of the card's size there."""
SLIDE_LOOK_NS = 700_000_000
"""How far before a card's first sighting at rest in the centre the frames' pixels are searched for its
slide in (:meth:`TableTracker._slid_in`): a hand may cover it that long after it lands."""
SLIDE_CLAIM_NS = 100_000_000
"""How near in time to another card's rest at the same place a slide seen in the pixels is taken for that
card's (:meth:`TableTracker._slide_claimed`): its rest begins at its first still sighting, some frames
after it landed."""
OUTLIER_PX = 3.0
"""A fitted point further than this (pixels of distance to go) off the line, and four times further
than the typical point, is a side covered for a moment: it is left out of the fit."""

ABOUT_REST_MM = CARD_H_MM / 7
"""A card seen only this near where it rests, however its boxes jitter, was not seen sliding there from a
place a card's length or more off (a work-pile move's last creep is covered by MOVE_CREEP_NS)."""
TURNED_RATIO = 1.15
"""A box this much wider than tall is a card lying across, this much taller than wide one lying along
(a card turned an eighth shows a square box)."""
LONE_GAP_NS = 60_000_000
"""The least time after a new track's only sighting within which it may be seen again
(:meth:`TableTracker._lone_gap_ns`: a frame and a half at slower frame rates)."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Observation:
    """One sighting placed in time and on the table."""

    card: str
    box: Box
    whole: bool
    """The card's whole outline was visible (its box is the card's box)."""
    x: float
    y: float
    """Centre in table millimetres."""
    t_ns: int
    """When the rows through its centre were exposed (mid-exposure)."""
    frame_t_ns: int
    row_time_ns: int
    exposure_ns: int
    frame: int

    def row_t_ns(self, y_px: float) -> int:
        return self.frame_t_ns + int(round(y_px * self.row_time_ns)) + self.exposure_ns // 2


def robust_shift(a: Box, b: Box) -> tuple[float, float]:
    """The shift between two boxes of one card, ignoring a side that something covered or uncovered.

    On each axis the side that moved least is taken: a hand or a card over one side of a card
    changes that side only, while a real motion moves both.

    >>> robust_shift((0, 0, 10, 10), (0, 0, 6, 10))
    (0.0, 0.0)
    >>> robust_shift((0, 0, 10, 10), (3, 1, 13, 11))
    (3.0, 1.0)
    """
    dx0, dx1 = b[0] - a[0], b[2] - a[2]
    dy0, dy1 = b[1] - a[1], b[3] - a[3]
    dx = dx0 if abs(dx0) < abs(dx1) else dx1
    dy = dy0 if abs(dy0) < abs(dy1) else dy1
    return (float(dx), float(dy))


@dataclass
class Track:
    """One physical card followed over frames."""

    tid: int
    card: str
    obs: list[Observation] = field(default_factory=list)
    resting: bool = False
    rest_box: Box | None = None
    rest_x: float = 0.0
    rest_y: float = 0.0
    rest_since: int = 0
    place: tuple[str | None, str, int] | None = None
    """Where it rests: (seat, region, index) of a layout slot, or (None, pile id, 0) on a foundation."""
    origin: tuple[str | None, str, int] | None = None
    """Where it rested before its current motion."""
    prev_place: tuple[str | None, str, int] | None = None
    """Where it rested before its latest rest (None for a card first seen at rest)."""
    origin_xy: tuple[float, float] | None = None
    lift_t: int | None = None
    """Last resting observation before it moved (an upper bound is its first moving one)."""
    lift_hi: int | None = None
    """Its first sighting off its rest after ``lift_t``: the lift lies between the two."""
    left_t: int | None = None
    """When it was last seen where it rested, before its current motion (whether or not its lift was seen)."""
    away_t: int | None = None
    """The last sighting of a flight lost on the way and joined to this track
    (:meth:`TableTracker._join_lost_flight`), or of the card of its face that vanished from a layout
    (:meth:`TableTracker._join_vanished`)."""
    moved_mm: float = 0.0
    alive: bool = True
    settling: bool = False
    settle_count: int = 0

    @property
    def last(self) -> Observation:
        return self.obs[-1]

    @property
    def last_away_t(self) -> int | None:
        """The latest known sighting of the card where it lay or on its way, before its current rest."""
        return max((t for t in (self.lift_t, self.left_t, self.away_t) if t is not None), default=None)


@dataclass(frozen=True, slots=True)
class Landing:
    """A card that came to rest after moving: what the interpretation turns into an event."""

    track: int
    card: str
    t_ns: int
    err_ns: int
    x: float
    y: float
    origin: tuple[str | None, str, int] | None
    origin_xy: tuple[float, float] | None
    lift_t_ns: int | None
    path: tuple[tuple[float, float], ...]
    """Table positions of its first observations (for the direction it came from)."""
    seen_moving: bool = True
    """False for a card whose flight went unseen (it appeared at rest where it landed)."""
    route: tuple[tuple[int, float, float], ...] = ()
    """When and where (table millimetres) it was seen from its lift to its rest, for the main way a landing
    is judged (:meth:`TableTracker._extend`); empty otherwise."""


@dataclass(frozen=True)
class TrackerSettings:
    """Tuning of the tracker; defaults suit 30-120 fps and cards 40-150 px tall."""

    rest_count: int = 3
    """Observations that must agree before a card counts as at rest."""
    link_mm: float = 260.0
    """How far a card may reappear from where it was last seen resting, to count as lifted from there."""
    link_ns: int = 1_500_000_000
    """How long after it was last seen resting."""
    max_speed_mm_s: float = 6000.0
    """Fastest a thrown card travels (a quick throw to the centre reaches 4-5 m/s)."""
    track_gap_ns: int = 250_000_000
    """A moving card unseen for longer starts a new track when seen again."""
    latency_ns: int = 1_500_000_000
    """Events are released in time order once they are this old (a landing is judged a little later)."""
    confirm_count: int = 3
    """Further still observations before a landing is judged."""
    fit_points: int = 6
    fit_window_ns: int = 300_000_000


def _centre(b: Box) -> tuple[float, float]:
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def _same_size(a: Box, b: Box, tol: float = 0.1) -> bool:
    """Whether two boxes have the same width and height within ``tol`` (a fraction).

    >>> _same_size((0, 0, 60, 80), (5, 5, 64, 86)), _same_size((0, 0, 60, 80), (0, 0, 40, 80))
    (True, False)
    """
    aw, ah, bw, bh = a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]
    return abs(aw - bw) <= tol * max(aw, bw) and abs(ah - bh) <= tol * max(ah, bh)


def _grown(rest: Box, whole: Box, tol: float) -> Box:
    """A resting card's box, fixed while a hand covered part of it, grown to a later view of its whole
    outline on each side where that one reaches over ``tol`` further out (covering only ever shrinks a box).

    >>> _grown((0, 0, 60, 70), (0.5, 0, 60, 88), 1.0)
    (0, 0, 60, 88)
    """
    return (
        whole[0] if whole[0] < rest[0] - tol else rest[0],
        whole[1] if whole[1] < rest[1] - tol else rest[1],
        whole[2] if whole[2] > rest[2] + tol else rest[2],
        whole[3] if whole[3] > rest[3] + tol else rest[3],
    )


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _median_box(obs: Sequence[Observation]) -> Box:
    n = len(obs)
    b = [sorted(o.box[k] for o in obs)[n // 2] for k in range(4)]
    return (b[0], b[1], b[2], b[3])


def estimate_landing(
    obs: Sequence[Observation],
    *,
    rest_n: int = 3,
    fit_points: int = 6,
    window_ns: int = 300_000_000,
    min_px: float = 1.0,
) -> tuple[int, int]:
    """Estimates when a card came to rest: ``(t_ns, err_ns)`` (see the module docstring).

    ``obs`` are the card's observations from its motion through its rest; the last ``rest_n``
    of them show it at rest. ``min_px`` is the distance below which a box side cannot be told
    from its resting place.
    """
    rest = obs[-rest_n:]
    moving = obs[:-rest_n]
    rb = _median_box(rest)
    first_rest = rest[0]
    period = max(1, rest[-1].t_ns - first_rest.t_ns) // max(1, rest_n - 1)
    if not moving:
        return first_rest.t_ns, max(MIN_ERR_NS, period)
    # Direction of travel (pixels): from where it was some way before its rest. Shifts are measured
    # on the sides that moved least, so a hand or a pile covering one side does not count as motion.
    ref = moving[0]
    for o in reversed(moving):
        if math.hypot(*robust_shift(o.box, rb)) > 12.0:
            ref = o
            break
    ux, uy = robust_shift(ref.box, rb)
    n = math.hypot(ux, uy)
    if n < 3.0:
        return _partial_rest_interval(obs, rb) or (first_rest.t_ns, max(MIN_ERR_NS, period))
    ux, uy = ux / n, uy / n

    # On each axis, measure on a side the hand does not cover: one that did not change between the
    # moment the card stopped (hand still on it) and its final rest (hand gone). If both sides kept
    # still, the side facing the way it travelled; if both changed, that side too unless it changed
    # far more than the other (a pixel of noise on the other side is no motion).
    early = obs[max(0, len(obs) - rest_n - 3)]
    lead_x = 2 if ux > 0 else 0
    lead_y = 3 if uy > 0 else 1

    def side(lead: int, other: int) -> int:
        moved_lead = abs(early.box[lead] - rb[lead])
        moved_other = abs(early.box[other] - rb[other])
        return lead if moved_lead <= 0.75 or moved_other > max(0.75, moved_lead / SIDE_RATIO) else other

    sx = side(lead_x, 2 - lead_x)
    sy = side(lead_y, 4 - lead_y)

    def spread(k: int) -> float:
        return max(o.box[k] for o in rest) - min(o.box[k] for o in rest)

    # A side that keeps changing while the card rests is being covered or uncovered (a hand drawing
    # back off it): when the opposite side keeps still, that one is measured on.
    if spread(sx) > 8.0 and 3.0 * spread(2 - sx) < spread(sx):
        sx = 2 - sx
    if spread(sy) > 8.0 and 3.0 * spread(4 - sy) < spread(sy):
        sy = 4 - sy

    # A side seen in flight past where it rests was covered at rest: the opposite side is measured on
    # when it shows no such overshoot; else that axis's resting place is unknown (see below).
    sgn_x, sgn_y = (1.0 if ux > 0 else -1.0), (1.0 if uy > 0 else -1.0)

    def overshoot(k: int, sgn: float) -> float:
        return max((sgn * (o.box[k] - rb[k]) for o in moving), default=0.0)

    if abs(ux) >= 0.3 and overshoot(sx, sgn_x) > OVERSHOOT_PX >= overshoot(2 - sx, sgn_x):
        sx = 2 - sx
    if abs(uy) >= 0.3 and overshoot(sy, sgn_y) > OVERSHOOT_PX >= overshoot(4 - sy, sgn_y):
        sy = 4 - sy
    covered_x = abs(ux) >= 0.3 and overshoot(sx, sgn_x) > OVERSHOOT_PX
    covered_y = abs(uy) >= 0.3 and overshoot(sy, sgn_y) > OVERSHOOT_PX

    def when(o: Observation) -> int:
        if abs(uy) < 0.3:
            return o.t_ns
        return o.row_t_ns(o.box[sy])

    def togo(o: Observation) -> float:
        return ux * (rb[sx] - o.box[sx]) + uy * (rb[sy] - o.box[sy])

    def fit(
        togo: Callable[[Observation], float],
        min_px: float,
        when: Callable[[Observation], int] = when,
        full: Callable[[Observation], bool] | None = None,
    ) -> tuple[int, int, bool]:
        """(t_land, err, fitted): fitted is False for the fallback interval. ``full``, when given,
        keeps only the sightings it accepts."""
        moving, obs = moving0, obs0
        if full is not None:
            moving = [o for o in moving if full(o)]
            if len(moving) == len(moving0):
                return (0, 0, False)  # the same points as the fit without it

        # How much the leading side wobbles at rest sets what counts as still moving.
        still = [togo(o) for o in rest]
        # A resting sighting a few pixels off has a side covered for a moment: no measure of the wobble.
        still = [v for v in still if abs(v) <= OUTLIER_PX] or still
        wobble = math.sqrt(sum(v * v for v in still) / len(still)) if still else 0.0
        min_px = max(min_px, 3.0 * wobble)
        # A card slowing to rest only ever gets closer: a sighting further from the rest than an earlier
        # one shows its leading side covered (a hand passing over it as it lands), so it is left out.
        closest = math.inf
        kept: list[Observation] = []
        for o in moving:
            d = togo(o)
            if d > closest + max(1.0, min_px):
                continue
            closest = min(closest, d)
            kept.append(o)
        moving, obs = kept, kept + list(rest)
        seq = [(when(o), togo(o)) for o in obs]
        last_far = max((i for i, (_, d) in enumerate(seq[: len(moving)]) if d > min_px), default=None)
        if last_far is None:
            return first_rest.t_ns, max(MIN_ERR_NS, period), False
        for i in range(last_far):
            if (
                seq[i][1] <= min_px
                and seq[i + 1][0] - seq[i][0] > 5 * period // 2
                and all(d <= 2 * min_px for _, d in seq[i + 1 : last_far + 1])
            ):
                # Seen still, then hidden, then only a pixel or two off until its rest (a hand's edge over a
                # side): it had stopped by then; a card at rest does not slide off and back. (Seen in the next
                # frames, a pixel off may be its last creep.)
                before = [j for j in range(i) if seq[j][1] > min_px]
                if before:
                    last_far = before[-1]
                break
        for _ in range(2):
            # A last sighting barely past the threshold, after the card's slowing (its two sightings before,
            # in sight since) had already brought it to rest, shows only the boxes' noise: not motion.
            far = [i for i in range(last_far) if seq[i][1] > min_px]
            if len(far) < 2 or seq[last_far][1] > 2 * min_px:
                break
            (ta, da), (tb, db) = seq[far[-2]], seq[far[-1]]
            seen = [seq[i][0] for i in range(far[-1], last_far + 1)]
            hidden_since = any(b - a > 5 * period // 2 for a, b in zip(seen, seen[1:], strict=False))
            if da <= db or tb <= ta or hidden_since:
                break
            if tb + math.sqrt(db) * (tb - ta) / (math.sqrt(da) - math.sqrt(db)) >= seq[last_far][0]:
                break
            last_far = far[-1]
        t_lo = seq[last_far][0]
        t_next = seq[last_far + 1][0] if last_far + 1 < len(seq) else t_lo + period
        used = [
            i
            for i, (t, d) in enumerate(seq[: last_far + 1])
            if d > min_px and seq[last_far][0] - t <= window_ns
        ][-fit_points:]
        pts = [(seq[i][0], math.sqrt(seq[i][1])) for i in used]
        # A box that shows only part of the card (the hand holding it) strays from the model more often.
        coverage = COVERAGE_WHOLE if all(obs[i].whole for i in used) else COVERAGE
        gap = t_next - t_lo
        hidden = gap > 5 * period // 2
        if hidden:
            # Unseen between its last motion and its rest (hands over it): it landed in that interval.
            fallback = ((t_lo + t_next) // 2, max(MIN_ERR_NS, gap // 2 + MODEL_ERR_NS))
        else:
            # Seen moving, then still a frame later: a slow last approach may end a little after that.
            fallback = (t_next, max(MIN_ERR_NS, gap + period // 2))
        if len(pts) < 2:
            return (*fallback, False)
        # Weighted least squares: a box side's noise sigma_d (px) makes sqrt(d) noisier where d is small,
        # var(sqrt d) = sigma_d² / 4d, so each point weighs 4d.
        t0 = pts[0][0]
        xs = [(p[0] - t0) / 1e9 for p in pts]
        ys = [p[1] for p in pts]
        ws = [4.0 * y * y for y in ys]
        while True:
            k = len(xs)
            sw = sum(ws)
            mx = sum(w * x for w, x in zip(ws, xs, strict=True)) / sw
            my = sum(w * y for w, y in zip(ws, ys, strict=True)) / sw
            sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs, strict=True))
            if sxx <= 0:
                return (*fallback, False)
            beta = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys, strict=True)) / sxx
            alpha = my - beta * mx
            # A side that a hand or a card covers for a frame or two stalls off the line: with enough
            # points left, the point furthest off it (in pixels of d) goes when it is far out of line.
            off = [math.sqrt(w) * abs(y - alpha - beta * x) for w, x, y in zip(ws, xs, ys, strict=True)]
            worst = max(range(k), key=off.__getitem__)
            typical = sorted(off)[k // 2]
            if k <= 3 or off[worst] <= max(OUTLIER_PX, 4.0 * typical):
                break
            del xs[worst], ys[worst], ws[worst]
        if beta >= 0:
            return (*fallback, False)
        x_land = -alpha / beta
        t_land = t0 + int(round(x_land * 1e9))
        # sigma_d from the residuals, never below a sub-pixel floor (a box side is not exact).
        # A prior worth two residuals keeps few points from claiming too little noise.
        chi = sum(w * (y - alpha - beta * x) ** 2 for w, x, y in zip(ws, xs, ys, strict=True))
        prior = max(PRIOR_NOISE_PX, wobble)
        var_d = max(SIDE_NOISE_PX**2, (2 * prior**2 + chi) / (2 + max(0, k - 2)))
        var_t = var_d / beta**2 * (1 / sw + (x_land - mx) ** 2 / sxx)
        err = int(coverage * math.sqrt(var_t) * 1e9) + MODEL_ERR_NS
        if hidden:
            if not t_lo - MIN_ERR_NS <= t_land <= t_next + 3 * period:
                return (*fallback, False)
            # The fit runs up to a resting place it never saw it reach: trust it unless the card shows
            # another size there on both axes (a corner of it, or another card). A box shorter along one
            # axis only is the card with one end under a hand or a card; a side measured on that is cut
            # there shows as one its flight passed (OVERSHOOT_PX), and the unseen stretch's err covers
            # the rest.
            lb = obs[last_far].box
            rw, rh = rb[2] - rb[0], rb[3] - rb[1]
            if abs(lb[2] - lb[0] - rw) > 0.25 * rw and abs(lb[3] - lb[1] - rh) > 0.25 * rh:
                return (*fallback, False)
            # Its landing is unseen: the model runs on unchecked from the last sighting before it, and a
            # hand or the drop to the table bends that stretch off it in proportion to its length.
            last_seen = max((t for t, _ in seq if t <= t_land), default=t_lo)
            err = max(err, int(EXTRAPOLATION_ERR * (t_land - last_seen)))
            return t_land, max(MIN_ERR_NS, min(err, fallback[1])), True
        if not t_lo - MIN_ERR_NS <= t_land <= t_next + 3 * period:
            return (*fallback, False)
        return t_land, max(MIN_ERR_NS, err), True

    moving0, obs0 = list(moving), list(obs)

    def full(axis: int) -> Callable[[Observation], bool]:
        """A sighting as wide along ``axis`` (0: x, 1: y) as the card's last sightings in flight
        mostly are: a narrower one has a side covered, and which one is not known."""
        widths = sorted(o.box[axis + 2] - o.box[axis] for o in moving0[-8:])
        ref = widths[len(widths) // 2] if widths else 0.0
        return lambda o: o.box[axis + 2] - o.box[axis] >= ref - max(2.0, 0.06 * ref)

    if covered_x != covered_y:
        # One axis's resting place is unknown: the slowing of its side is fitted with the place where it
        # stops as a further unknown, and the other axis (when the card moved along it) is fitted alone
        # as usual; the fit claiming the least error wins.
        k, sgn = (sx, sgn_x) if covered_x else (sy, sgn_y)
        candidates = [c for c in (_free_end_fit(moving, k, sgn),) if c is not None]
        if abs(uy if covered_x else ux) >= 0.3:
            ko, sgno = (sy, sgn_y) if covered_x else (sx, sgn_x)
            alone_fit = fit(lambda o: sgno * (rb[ko] - o.box[ko]), min_px)
            if alone_fit[2]:
                candidates.append((alone_fit[0], alone_fit[1]))
        if candidates:
            return min(candidates, key=lambda c: c[1])
    fits = [fit(togo, min_px), fit(togo, min_px, when, full(1 if abs(uy) >= abs(ux) else 0))]
    if abs(ux) >= 0.3 and abs(uy) >= 0.3:
        # Moving on both axes: a hand may cover one chosen side in flight (its box then shrinks
        # there). Each axis alone is fitted too, but not one whose resting side is covered (seen in
        # flight past it): its distances run to a wrong place, and alone they time it early.
        if not covered_x:
            fits.append(fit(lambda o: sgn_x * (rb[sx] - o.box[sx]), min_px))
        if not covered_y:
            fits.append(fit(lambda o: sgn_y * (rb[sy] - o.box[sy]), min_px))
    elif abs(ux) >= 0.3 and abs(uy) >= 0.1:
        # Mostly along one axis: a side covered on the other still bends the distance a little; that
        # axis alone is fitted too.
        fits.append(fit(lambda o: sgn_x * (rb[sx] - o.box[sx]), min_px))
    elif abs(uy) >= 0.3 and abs(ux) >= 0.1:
        fits.append(fit(lambda o: sgn_y * (rb[sy] - o.box[sy]), min_px))

    # The side measured on may have been covered for the last stretch of the flight (a hand over the
    # leading end as it lands: those sightings read further from the rest and are left out), while the
    # opposite side was seen slowing right up to it: the opposite end, on the axis the card moved most
    # along, is fitted alone too, when the card rests seen whole along that axis (neither end covered
    # there) and that end was never seen in flight past its resting place.
    def whole_at_rest(axis: int) -> bool:
        return full(axis)(Observation("", rb, True, 0.0, 0.0, 0, 0, 0, 0, 0))

    if abs(uy) >= abs(ux) and whole_at_rest(1) and overshoot(4 - sy, sgn_y) <= OVERSHOOT_PX:
        oy = 4 - sy
        fits.append(fit(lambda o: sgn_y * (rb[oy] - o.box[oy]), min_px, lambda o: o.row_t_ns(o.box[oy])))
    if abs(ux) > abs(uy) and whole_at_rest(0) and overshoot(2 - sx, sgn_x) <= OVERSHOOT_PX:
        ox = 2 - sx
        fits.append(fit(lambda o: sgn_x * (rb[ox] - o.box[ox]), min_px))
    fitted = [f for f in fits if f[2]]
    best = min(fitted, key=lambda f: f[1]) if fitted else fits[0]
    if len(fitted) > 1:
        # The fit claiming the least error is kept; the others that agree with it within their errors
        # (no covered side spoiled them) measure the same landing with other noise: averaged with it,
        # weighed by their errors. Its err stands (the fits share sightings).
        agree = [f for f in fitted if abs(f[0] - best[0]) <= max(f[1], best[1])]
        weight = sum(1.0 / f[1] ** 2 for f in agree)
        best = (int(round(sum(f[0] / f[1] ** 2 for f in agree) / weight)), best[1], True)
    if not best[2] and best[0] == first_rest.t_ns:
        # No motion seen towards the resting box: it may be a part of the card (see below), or the card
        # was still before the sightings taken as its rest.
        return _partial_rest_interval(obs, rb) or _still_before_rest(obs, rest_n, rb) or (best[0], best[1])
    return best[0], best[1]


def _still_before_rest(obs: Sequence[Observation], rest_n: int, rb: Box) -> tuple[int, int] | None:
    """When no motion could be fitted and sightings before the last ``rest_n`` already show the card at
    its resting box (within 2 px), the interval it stopped in: between the last sighting off it and the
    first of that still run. None when there is no such run.

    A tracker judges a landing a few sightings after the card keeps still: at 20 fps that is 300 ms,
    and a card whose last approach its boxes jittered through (a recognizer's, blurred) was put at the
    first of the last few (seed 12's Dee 3D at 20 fps, 252 ms late with a 50 ms err).
    """
    k = len(obs) - rest_n
    j = k
    while j > 0 and math.hypot(*robust_shift(obs[j - 1].box, rb)) <= 2.0:
        j -= 1
    if j == k or j == 0:
        return None
    t_prev, t_still = obs[j - 1].t_ns, obs[j].t_ns
    # It may still have crept a pixel or so at the first still sighting: the err reaches half a gap past it.
    return (t_prev + t_still) // 2, max(MIN_ERR_NS, t_still - t_prev)


def _free_end_fit(moving: Sequence[Observation], k: int, sgn: float) -> tuple[int, int] | None:
    """The landing of a card whose resting place on box side ``k`` is unknown (covered at rest), from that
    side's last stretch in flight alone: ``(t_ns, err_ns)``, or None when too little of it was seen.

    The side's position ``p`` (pixels, ``sgn`` turning it to grow the way the card travels) follows
    ``p_end - c * (t_land - t)²`` until the landing and ``p_end`` after it: for each ``t_land`` on a grid
    of half milliseconds, ``p_end`` and ``c`` are a linear least-squares fit, and the landing with the
    least squared residual wins; ``err`` spans the landings whose residual is within one noise variance
    of the least. A sighting behind an earlier one had that side covered by the hand: left out.
    """
    pts: list[tuple[int, float]] = []
    reached = -math.inf
    for o in moving:
        p = sgn * o.box[k]
        if p < reached - 1.0:
            continue
        reached = max(reached, p)
        pts.append((o.row_t_ns(o.box[k]) if k in (1, 3) else o.t_ns, p))
    t_end = pts[-1][0] if pts else 0
    pts = [q for q in pts if t_end - q[0] <= FREE_END_NS]
    if len(pts) < 4:
        return None
    ts = [(t - t_end) / 1e9 for t, _ in pts]
    ps = [p for _, p in pts]
    n, sp = len(ps), sum(ps)
    fits: list[tuple[float, float, float]] = []
    for step in range(-160, 81):
        t_land = step * 0.0005
        g = [max(0.0, t_land - t) ** 2 for t in ts]
        sg, sgg = sum(g), sum(x * x for x in g)
        sgp = sum(x * p for x, p in zip(g, ps, strict=True))
        det = n * sgg - sg * sg
        if det <= 1e-18:
            continue
        p_end = (sgg * sp - sg * sgp) / det
        c = (sg * sp - n * sgp) / det
        if c <= 0:
            continue  # not slowing towards a stop
        rss = sum((p_end - c * x - p) ** 2 for x, p in zip(g, ps, strict=True))
        fits.append((rss, t_land, p_end))
    if not fits:
        return None
    rss, t_land, p_end = min(fits)
    if p_end < max(ps) - 1.0:
        return None
    var = max(SIDE_NOISE_PX**2, (2 * PRIOR_NOISE_PX**2 + rss) / (2 + max(0, n - 3)))
    near = [t for r, t, _ in fits if r <= rss + var]
    sigma = (max(near) - min(near)) / 2
    return t_end + int(round(t_land * 1e9)), max(MIN_ERR_NS, int(COVERAGE * sigma * 1e9) + MODEL_ERR_NS)


def _partial_rest_interval(obs: Sequence[Observation], rb: Box) -> tuple[int, int] | None:
    """When a card rests seen only in part (a hand covered it as it stopped and uncovered another part
    of it), the interval it landed in: from the last frame it was seen whole in motion to the first
    sighting at its resting place; None when its resting box is not such a partial view.

    Its resting box shares no side with its earlier views on the axis the hand moved along, so those
    seem to move towards it, and the card would seem to land when it was first seen at rest.
    """
    at_rest = len(obs)
    while at_rest > 1 and math.hypot(*robust_shift(obs[at_rest - 1].box, rb)) <= 2.0:
        at_rest -= 1
    if at_rest == len(obs) or at_rest <= 1:
        return None
    before = obs[:at_rest]
    biggest = max(_area(o.box) for o in before[-10:])
    if _area(rb) >= 0.7 * biggest:
        return None
    # The last pair of full views a frame or two apart that show it move: it landed after the first.
    t_lo = None
    for a, b in zip(reversed(before[:-1]), reversed(before[1:]), strict=True):
        if (
            b.frame - a.frame <= 2
            and _area(a.box) >= 0.85 * biggest
            and _area(b.box) >= 0.85 * biggest
            and math.hypot(*robust_shift(a.box, b.box)) > 1.0
        ):
            t_lo = a.t_ns
            break
    t_hi = obs[at_rest].t_ns
    if t_lo is None or t_hi <= t_lo:
        return None
    return (t_lo + t_hi) // 2, (t_hi - t_lo) // 2 + MODEL_ERR_NS


class TableTracker:
    """Follows every face-up card over frames and reports landings (game-independent)."""

    def __init__(
        self,
        layout: TableLayout,
        calibration: Calibration,
        settings: TrackerSettings | None = None,
        *,
        min_score: float = 0.0,
        labels: frozenset[str] | None = None,
    ) -> None:
        self.labels = labels
        """The card labels this table can hold (others are misreads); None accepts every face."""
        self.layout = layout
        self.calibration = calibration
        self.settings = settings or TrackerSettings()
        self.min_score = min_score
        self.tracks: list[Track] = []
        self._next_id = 1
        cx, cy = layout.width_mm / 2, layout.height_mm / 2
        ((ix, iy),) = calibration.to_image([(cx, cy)])
        card_px = CARD_H_MM / max(1e-6, calibration.mm_per_px_at(ix, iy))
        self.card_px = card_px
        """A card's length in the image, about the table's centre."""
        self.rest_px = max(1.0, REST_PX * card_px / REF_CARD_PX)
        """The rest threshold for this camera's card size."""
        self.card_px2 = card_px * card_px * CARD_W_MM / CARD_H_MM
        """A card's area in the image, about the table's centre."""
        self.min_box_px2 = MIN_BOX_SHARE * self.card_px2
        """Sightings with a smaller box show a corner index alone (see :data:`MIN_BOX_SHARE`)."""
        self.frames = 0
        self.period_ns: int | None = None
        """The camera's frame period, estimated from the frames' times (None before the second)."""
        self.last_t = 0
        self.last_frame_t = 0
        self._seen: dict[str, deque[Observation]] = {}
        """Each face's recent observations, for :meth:`_first_here`."""
        self._unsure: dict[str, deque[tuple[int, int, float, float]]] = {}
        """Each face's recent unsure readings in a seat's layout (``UNKNOWN``, that face the likeliest at
        :data:`UNSURE_MIN` or more): time, frame, table position; for :meth:`_vanished_unsure`."""
        self.history = FrameHistory(self._centre_region())
        """The last frames' pixels about the centre, to time landings there (:mod:`vision.landing_timer`)."""

    def _centre_region(self) -> tuple[int, int, int, int] | None:
        """The image pixels about the shared centre (grown by a card's length): where landings are timed
        from the pixels. None for a layout without a centre."""
        cx0, cy0, cx1, cy1 = self.layout.centre_box
        if cx1 <= cx0 or cy1 <= cy0:
            return None
        m = CARD_H_MM
        pts = self.calibration.to_image(
            [(cx0 - m, cy0 - m), (cx1 + m, cy0 - m), (cx0 - m, cy1 + m), (cx1 + m, cy1 + m)]
        )
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (max(0, int(min(xs))), max(0, int(min(ys))), int(math.ceil(max(xs))), int(math.ceil(max(ys))))

    def observe(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[Observation]:
        """Places a frame's sightings on the table and in time."""
        out: list[Observation] = []
        items = [
            s
            for s in sightings
            if s.card not in (BACK, UNKNOWN)
            and s.score >= self.min_score
            and (self.labels is None or s.card in self.labels)
        ]
        if not items:
            return out
        centres = [s.center for s in items]
        table = self.calibration.to_table(centres)
        for s, (_cx, cy), (x, y) in zip(items, centres, table, strict=True):
            t = frame.t_ns + int(round(cy * frame.row_time_ns)) + frame.exposure_ns // 2
            out.append(
                Observation(
                    s.card,
                    s.box,
                    s.quad is not None,
                    x,
                    y,
                    t,
                    frame.t_ns,
                    frame.row_time_ns,
                    frame.exposure_ns,
                    frame.index,
                )
            )
        return out

    def _lone_gap_ns(self) -> int:
        """How long after its one sighting a new track may still be seen again: about a frame and a half
        (a lone sighting may be a misread, not to be joined to a card seen much later), and never under
        :data:`LONE_GAP_NS` (the 60-fps figure it was set by)."""
        if self.period_ns is None:
            return LONE_GAP_NS
        return max(LONE_GAP_NS, self.period_ns * 3 // 2)

    def step(self, frame: Frame, sightings: Iterable[CardSighting]) -> list[Landing]:
        """Feeds one frame; returns the landings it completed."""
        self.frames += 1
        if self.frames > 1 and frame.t_ns > self.last_t:
            # The camera's frame period, from the shortest recent gap (a dropped frame is no period).
            gap = frame.t_ns - self.last_t
            self.period_ns = gap if self.period_ns is None else min(gap, (self.period_ns * 15 + gap) // 16)
        self.last_t = frame.t_ns
        self.history.push(frame)
        sightings = list(sightings)
        self._note_unsure(frame, sightings)
        obs = self.observe(frame, sightings)
        for o in obs:
            seen = self._seen.setdefault(o.card, deque())
            seen.append(o)
            while seen[0].t_ns < o.t_ns - 2 * self.settings.link_ns:
                seen.popleft()
        landings: list[Landing] = []
        s = self.settings
        by_card: dict[str, list[Track]] = {}
        for tr in self.tracks:
            if tr.alive:
                by_card.setdefault(tr.card, []).append(tr)
        # Candidate pairs (cost, obs index, track), cheapest first.
        pairs: list[tuple[float, int, Track]] = []
        for i, o in enumerate(obs):
            for tr in by_card.get(o.card, []):
                last = tr.last
                if last.frame == o.frame:
                    continue
                dt = max(1, o.t_ns - last.t_ns)
                dist = math.hypot(o.x - last.x, o.y - last.y)
                if tr.resting and tr.rest_box is not None:
                    dx, dy = robust_shift(tr.rest_box, o.box)
                    shift = math.hypot(dx, dy)
                    if shift <= 3 * self.rest_px:
                        pairs.append((shift, i, tr))
                        continue
                    if self._covered_at_rest(tr.rest_box, o):
                        # Part of it hidden (a hand passing over): still the card at rest, but any
                        # moving card of its face that could have made this sighting comes first.
                        pairs.append((3 * self.rest_px + shift, i, tr))
                        continue
                    # A card resting in a seat's layout, lifted (often out of sight under the hand)
                    # and seen again in the air. Cards on foundations never leave.
                    # Not one lying a quarter turn off how it lay (see _turned_from).
                    in_layout = tr.place is not None and tr.place[0] is not None
                    if (
                        in_layout
                        and dist <= s.link_mm
                        and dt <= s.link_ns
                        and not self._buried(tr, o.t_ns)
                        and not self._crosswise(tr.rest_box, o.box)
                    ):
                        pairs.append((100.0 + dist, i, tr))
                    continue
                if self._misread_lift(tr) and tr.rest_box is not None and dt <= s.link_ns:
                    # Seen back where it rests after a "lift" that was another card misread (see _extend).
                    back = math.hypot(*robust_shift(tr.rest_box, o.box))
                    if back <= 3 * self.rest_px or self._covered_at_rest(tr.rest_box, o):
                        pairs.append((back, i, tr))
                        continue
                if dt > s.track_gap_ns or (len(tr.obs) == 1 and dt > self._lone_gap_ns()):
                    continue
                if self._turned_after_stop(tr, o):
                    continue
                gate = (20.0 if len(tr.obs) == 1 else 40.0) + s.max_speed_mm_s * dt / 1e9
                if dist <= gate:
                    # Cost: pixels between its box and where its motion so far puts that box now, side
                    # by side. A moving card that lands on a resting card of the same face (a race,
                    # §6.1) keeps its own track: the two boxes share nearly a centre, not their sides.
                    # Its velocity from the sides that moved least: a side that a hand or the next card
                    # of a block covered or uncovered is no motion (a centre shifted by it predicts a box
                    # off the card, and a misread of another card there could take the track).
                    vx = vy = 0.0
                    k = math.inf
                    if len(tr.obs) >= 2:
                        prev = tr.obs[-2]
                        k = min(3.0, dt / max(1, last.t_ns - prev.t_ns))
                        sx, sy = robust_shift(prev.box, last.box)
                        vx, vy = sx * k, sy * k
                    lb, ob = last.box, o.box
                    miss = (
                        abs(ob[0] - lb[0] - vx)
                        + abs(ob[1] - lb[1] - vy)
                        + abs(ob[2] - lb[2] - vx)
                        + abs(ob[3] - lb[3] - vy)
                    ) / 4
                    if (
                        len(tr.obs) >= 2
                        and k < 3.0
                        and self._index_only(o) == self._index_only(last)
                        and self.layout.seat_of_point(o.x, o.y) is None
                    ):
                        # Its centre's motion, not its sides': a side a hand covers as it carries the card
                        # moves little, and the card may well go on farther than they tell. (Between a view
                        # of the card and one of its index alone the centre jumps: the sides' motion then.)
                        pb = tr.obs[-2].box
                        cx, cy = vx, vy
                        if self._index_only(tr.obs[-2]) == self._index_only(last):
                            cx = (lb[0] + lb[2] - pb[0] - pb[2]) / 2 * k
                            cy = (lb[1] + lb[3] - pb[1] - pb[3]) / 2 * k
                        off = math.hypot(
                            (ob[0] + ob[2] - lb[0] - lb[2]) / 2 - cx, (ob[1] + ob[3] - lb[1] - lb[3]) / 2 - cy
                        )
                        if off > self.card_px + math.hypot(cx, cy):
                            # Over a card's length off where its motion puts it a frame or two on (more than
                            # it moved since its last sighting, stopped dead or turned aside): another card of
                            # its face, in flight at the same time (a race, or two seats' cards crossing the
                            # centre). After a longer gap its motion may have changed more: no such bound.
                            continue
                    pairs.append((miss - 2.0 * self.rest_px, i, tr))
        pairs.sort(key=lambda p: p[0])
        used_obs: set[int] = set()
        used_tr: set[int] = set()
        matched: list[tuple[float, int, Track]] = []
        for c, i, tr in pairs:
            if i in used_obs or tr.tid in used_tr:
                continue
            used_obs.add(i)
            used_tr.add(tr.tid)
            matched.append((c, i, tr))
        # The cheapest pair first is not always the cheapest whole: two cards of one face seen again after a
        # hand hid both (a race) each lie off where its motion puts it, and the card nearer the other's
        # guess would take its track, and the other that card's. Two matches whose exchange costs less
        # in all are exchanged.
        faces: dict[str, list[int]] = {}
        for m, (_, _, tr) in enumerate(matched):
            faces.setdefault(tr.card, []).append(m)
        groups = [g for g in faces.values() if len(g) > 1]
        cost = {(i, tr.tid): c for c, i, tr in pairs} if groups else {}
        for group in groups:
            for ga, a in enumerate(group):
                for b in group[ga + 1 :]:
                    ca, ia, ta = matched[a]
                    cb, ib, tb = matched[b]
                    cab, cba = cost.get((ia, tb.tid)), cost.get((ib, ta.tid))
                    if cab is not None and cba is not None and cab + cba < ca + cb:
                        matched[a], matched[b] = (cba, ib, ta), (cab, ia, tb)
        for _, i, tr in matched:
            landing = self._extend(tr, obs[i])
            if landing is not None:
                landings.append(landing)
        for i, o in enumerate(obs):
            if i not in used_obs:
                tr = Track(self._next_id, o.card, [o])
                self._next_id += 1
                self.tracks.append(tr)
        landings.extend(self._covered_while_settling(frame))
        landings.extend(self._hidden_twins(frame))
        # Forget tracks that are long gone: moving ones quickly, resting ones (covered piles) slowly.
        keep: list[Track] = []
        for tr in self.tracks:
            age = frame.t_ns - tr.last.t_ns
            if (not tr.resting and age > 2 * s.link_ns) or age > 600 * 1_000_000_000:
                tr.alive = False
            if tr.alive:
                keep.append(tr)
        self.tracks = keep
        return landings

    def _turned_after_stop(self, tr: Track, o: Observation) -> bool:
        """Whether ``o`` shows a card turned a quarter off one that ``tr`` last saw still (its last sightings
        within twice the rest noise of each other, not yet judged at rest), and moved: a card that stopped
        does not turn so fast; another card of its face arriving over it does (seed 14's Dee 3C, lying
        across, slid onto Cal's, lying along, which had stopped just before: it took Cal's track and both
        plays went to the wrong seat). Index-only boxes carry no shape."""
        n = self.settings.rest_count
        if len(tr.obs) < n or self._index_only(o):
            return False
        recent = tr.obs[-n:]
        if any(self._index_only(p) for p in recent):
            return False
        if any(
            math.hypot(*robust_shift(a.box, b.box)) > 2 * self.rest_px
            for a, b in zip(recent, recent[1:], strict=False)
        ):
            return False
        if math.hypot(*robust_shift(recent[-1].box, o.box)) <= 3 * self.rest_px:
            return False
        return self._crosswise(recent[-1].box, o.box)

    def _lie(self, box: Box) -> str | None:
        """How a card whose box this is lies: ``"along"`` (its length up the image), ``"across"``, or None
        when the box does not tell (a card turned an eighth, or a view of it cut short: a hand or a card
        over it may make a box of a card lying along look wide, never a card's length wide)."""
        w, h = box[2] - box[0], box[3] - box[1]
        long = 0.85 * self.card_px
        if h >= long and h > TURNED_RATIO * w:
            return "along"
        if w >= long and w > TURNED_RATIO * h:
            return "across"
        return None

    def _crosswise(self, a: Box, b: Box) -> bool:
        """Whether boxes ``a`` and ``b`` show cards lying a quarter turn apart (see :meth:`_lie`)."""
        la, lb = self._lie(a), self._lie(b)
        return la is not None and lb is not None and la != lb

    def _turned_from(self, src: Track, tr: Track) -> bool:
        """Whether ``tr``'s card lies a quarter turn off how ``src``'s card lay when last seen: a card slid
        from a seat's layout to the centre keeps about the way it lay, so ``src`` is not where it came
        from. Tells two cards of one face lost at once apart (seed 14's Cal and Dee 3C, lifted 100 ms
        apart, lying along and across), and a card its own layout never showed from one of its face that
        vanished from another seat's."""
        last = src.rest_box if src.rest_box is not None else src.last.box
        was = self._lie(last)
        lies = [self._lie(o.box) for o in tr.obs]
        # Every view that tells how it lies agrees: one box taking in a neighbour may look turned.
        return was is not None and any(v not in (None, was) for v in lies) and was not in lies

    def _buried(self, tr: Track, now_ns: int) -> bool:
        """Whether another card has lain on ``tr``'s place in a seat's layout since ``tr`` was last seen
        there, for over :data:`BURIED_NS` before ``now_ns``: ``tr`` lies under it (a seat turning cards onto
        its waste), and a card of its face seen in the air now is another one. A card that came to rest
        there just before is one ``tr``'s own lift revealed."""
        return any(
            u is not tr
            and u.alive
            and u.resting
            and u.card != tr.card
            and u.place == tr.place
            and u.rest_since >= tr.last.t_ns
            and now_ns - u.rest_since > BURIED_NS
            for u in self.tracks
        )

    def _note_unsure(self, frame: Frame, sightings: list[CardSighting]) -> None:
        """Keeps the frame's unsure readings in the seats' layouts (see :attr:`_unsure`)."""
        unsure = [
            s
            for s in sightings
            if s.card == UNKNOWN
            and s.alternatives
            and s.alternatives[0][1] >= UNSURE_MIN
            and (self.labels is None or s.alternatives[0][0] in self.labels)
        ]
        if not unsure:
            return
        for s, (x, y) in zip(unsure, self.calibration.to_table([s.center for s in unsure]), strict=True):
            if self.layout.seat_of_point(x, y) is None:
                continue
            t = frame.t_ns + int(round(s.center[1] * frame.row_time_ns)) + frame.exposure_ns // 2
            kept = self._unsure.setdefault(s.alternatives[0][0], deque())
            kept.append((t, frame.index, x, y))
            while kept[0][0] < t - self.settings.link_ns:
                kept.popleft()

    def _vanished_unsure(self, tr: Track, first: Observation) -> tuple[int, float, float] | None:
        """The last unsure reading of ``tr``'s face in a seat's layout shortly before ``first`` (see
        :meth:`_vanished`), where no card of that face was named since: the card, never named in the layout,
        that left it. Its time and table position, or None."""
        for t, fi, x, y in reversed(self._unsure.get(tr.card, ())):
            if t >= first.t_ns or first.frame - fi < 3:
                continue
            if first.t_ns - t > self.settings.link_ns:
                return None
            reach = 40.0 + self.settings.max_speed_mm_s * (first.t_ns - t) / 1e9
            if math.hypot(first.x - x, first.y - y) > reach:
                # Too far to have got here since (seed 4's Dee AC, landing 60 ms after an unsure reading of
                # its face in Ben's Nerts pile across the table): an earlier reading may be its card.
                continue
            seen = self._seen.get(tr.card, ())
            named_since = any(o.t_ns > t and math.hypot(o.x - x, o.y - y) < CARD_H_MM / 2 for o in seen)
            return None if named_since else (t, x, y)
        return None

    def _covered_at_rest(self, rest_box: Box, o: Observation) -> bool:
        """Whether a partly hidden sighting lies wholly inside a resting card's box: what is left of
        that card when a hand or another card covers parts of it from more than one side (its box
        then shrinks on several sides at once, which :func:`robust_shift` alone reads as motion)."""
        if o.whole:
            return False
        tol = self.rest_px
        b = o.box
        return (
            b[0] >= rest_box[0] - tol
            and b[1] >= rest_box[1] - tol
            and b[2] <= rest_box[2] + tol
            and b[3] <= rest_box[3] + tol
        )

    def _at_rest_box(self, rest_box: Box, o: Observation) -> bool:
        """Whether a sighting shows the card resting in ``rest_box``: its box within the rest tolerance of it,
        or a part of it inside it (:meth:`_covered_at_rest`)."""
        return math.hypot(*robust_shift(rest_box, o.box)) <= 3 * self.rest_px or self._covered_at_rest(
            rest_box, o
        )

    def _covered_while_settling(self, frame: Frame) -> list[Landing]:
        """A card seen at rest (its last sightings agree) and then covered before the further still
        sightings a landing waits for (the later card of a race lands on it, or a hand stays over it)
        has landed all the same: it is judged from the sightings it has, once unseen for three frames
        (a sighting lost now and then is not a cover). Only a card seen in a real flight (three sightings
        in motion, 30 mm or more): a partial view that shifts as a hand passes over a resting card, or a
        misread joined to it, also "rests" for a moment and vanishes."""
        out: list[Landing] = []
        period = max(1, frame.t_ns - self.last_frame_t) if self.last_frame_t else 16_666_667
        for tr in self.tracks:
            if not tr.settling or not tr.alive or frame.t_ns - tr.last.frame_t_ns < 3 * period:
                continue
            tr.settling = False
            if self._flew(tr, tr.settle_count):
                landing = self._settle(tr)
                if landing is not None:
                    out.append(landing)
        return out

    def _flew(self, tr: Track, still_after: int) -> bool:
        """Whether a settling track (still for ``still_after`` sightings after its first three at
        rest) was seen in a real flight: three sightings in motion and 30 mm or more."""
        return tr.moved_mm >= 30.0 and len(tr.obs) >= self.settings.rest_count + still_after + 3

    def _in_centre(self, o: Observation) -> bool:
        return self.layout.seat_of_point(o.x, o.y) is None

    def _hidden_twins(self, frame: Frame) -> list[Landing]:
        """Two cards of one face landing on one pile at nearly the same time (a tie, §6.1): the
        later one covers the earlier at once, so the earlier never shows at rest. A moving card
        that vanished right where a card of its face has just come to rest landed there too."""
        out: list[Landing] = []
        period = max(1, frame.t_ns - self.last_frame_t) if self.last_frame_t else 16_666_667
        for tr in self.tracks:
            if tr.resting or tr.settling or not tr.alive or tr.moved_mm < 30.0 or len(tr.obs) < 3:
                continue
            last = tr.last
            unseen = frame.t_ns - last.frame_t_ns
            if not 3 * period <= unseen <= 15 * period:
                continue
            lx, ly = _centre(last.box)
            for other in self.tracks:
                if other is tr or other.card != tr.card or not other.resting or other.rest_box is None:
                    continue
                ox, oy = _centre(other.rest_box)
                near = math.hypot(lx - ox, ly - oy) <= 0.5 * self.rest_px * REF_CARD_PX / REST_PX
                if not near or abs(other.rest_since - last.t_ns) > 150_000_000:
                    continue
                if self.layout.seat_of_point(other.rest_x, other.rest_y) is not None:
                    continue
                # It landed after it was last seen, and before the card that covers it was first
                # seen at rest there; where its motion shows when, within that interval.
                lo, hi = last.t_ns, max(last.t_ns + period, other.rest_since)
                t_land = (lo + hi) // 2
                err = max(MIN_ERR_NS, (hi - lo) // 2 + period // 2)
                fit = self._twin_fit(tr, other)
                # When the other card already lay there as this one was last seen, nothing bounds its
                # landing but its own slowing motion (it stopped under the other's hand, unseen):
                # its fit may reach past one frame, up to now.
                late = frame.t_ns if other.rest_since <= last.t_ns else hi
                fitted = (
                    fit is not None and lo - MIN_ERR_NS <= fit[0] <= late and (fit[1] < err or fit[0] > hi)
                )
                if fit is not None and fitted:
                    t_land, err = fit
                stopped = self._stopped_before(tr)
                if stopped is not None:
                    # Seen still before the other card covered it: it landed first, then.
                    t_land, err = stopped[0], stopped[1]
                elif other.rest_since <= last.t_ns and not fitted:
                    # The other card lay there already: nothing covered this one as it landed, a hand did,
                    # and it may have slid on unseen under the hand for a while (seed 6's Dee 2H, last seen
                    # moving 153 ms before it stopped). Its landing lies between its last sighting and the
                    # end of that glide, not within a frame of it.
                    t_land = last.t_ns + TWIN_GLIDE_NS // 2
                    err = TWIN_GLIDE_NS // 2 + period // 2
                tr.resting = True
                tr.rest_box = other.rest_box
                tr.rest_x, tr.rest_y = other.rest_x, other.rest_y
                tr.rest_since = t_land
                landing = Landing(
                    tr.tid,
                    tr.card,
                    t_land,
                    err,
                    other.rest_x,
                    other.rest_y,
                    tr.origin,
                    tr.origin_xy,
                    tr.lift_t,
                    tuple((o.x, o.y) for o in tr.obs[:4]),
                )
                tr.prev_place, tr.place = tr.place, self.place_of(tr.rest_x, tr.rest_y, tr, landing=landing)
                tr.origin = None
                out.append(landing)
                break
        self.last_frame_t = frame.t_ns
        return out

    def _stopped_before(
        self, tr: Track, obs: Sequence[Observation] | None = None
    ) -> tuple[int, int, float, Box] | None:
        """When a track (its observations ``obs``) had stopped before it vanished or changed (two
        still sightings in a row after its motion): its landing from those sightings, how far
        (pixels) the box it stopped with lies from its latest box, and that box; else None."""
        obs = tr.obs if obs is None else obs
        s = self.settings
        for i in range(2, len(obs) - 1):
            if obs[i + 1].frame - obs[i].frame > 2:
                continue
            if not _same_size(obs[i].box, obs[i + 1].box):
                continue  # a box shrinking or growing is a card being covered or uncovered, not a still one
            if math.hypot(*robust_shift(obs[i].box, obs[i + 1].box)) <= self.rest_px:
                t, err = estimate_landing(
                    obs[: i + 2], rest_n=2, fit_points=s.fit_points, window_ns=s.fit_window_ns
                )
                return t, err, math.hypot(*robust_shift(obs[i + 1].box, tr.last.box)), obs[i + 1].box
        return None

    def _here_before(self, tr: Track, obs: Sequence[Observation]) -> tuple[int, int] | None:
        """The landing of a track that was seen still where it now rests (two sightings in a row within
        the rest tolerance of its resting box), after its motion, and then off it for a while before its
        final rest: from the sightings up to that first stay; else None."""
        rb = tr.rest_box
        if rb is None:
            return None
        near = [math.hypot(*robust_shift(rb, o.box)) <= 3 * self.rest_px for o in obs]
        s = self.settings
        away = tr.last_away_t
        for i in range(0 if away is not None else 2, len(obs) - 1):
            if not (near[i] and near[i + 1]) or obs[i + 1].frame - obs[i].frame > 2 or (i and near[i - 1]):
                continue
            if all(near[i + 2 :]):
                return None  # no jolt after it: the ordinary fit times it
            if i == 0 and away is not None:
                # Its flight unseen (under the hand): it landed after it left, by the shortest flight, and
                # before it was first seen here (the kiosk's table: Ben's 8C, timed by a twin's jolt).
                lo = min(away + MIN_FLIGHT_NS, obs[0].t_ns)
                return (lo + obs[0].t_ns) // 2, (obs[0].t_ns - lo + 1) // 2
            return estimate_landing(
                obs[: i + 2], rest_n=2, fit_points=s.fit_points, window_ns=s.fit_window_ns
            )
        return None

    def _twin_fit(self, tr: Track, other: Track) -> tuple[int, int] | None:
        """The landing time of a card hidden as it landed under (or beside) a card of its face,
        from its motion until it vanished and the place where the other card rests
        (:func:`estimate_landing`); None when too little of its motion was seen whole."""
        if other.rest_box is None or len(other.obs) < self.settings.rest_count:
            return None
        rb = other.rest_box
        rw, rh = rb[2] - rb[0], rb[3] - rb[1]
        # Its last sightings may be slivers showing past the hand: not the card's box.
        moving = list(tr.obs)
        while moving and (
            abs((moving[-1].box[2] - moving[-1].box[0]) - rw) > 0.15 * rw
            or abs((moving[-1].box[3] - moving[-1].box[1]) - rh) > 0.15 * rh
        ):
            moving.pop()
        if len(moving) < 3:
            return None
        n = self.settings.rest_count
        s = self.settings
        return estimate_landing(
            moving + other.obs[-n:], rest_n=n, fit_points=s.fit_points, window_ns=s.fit_window_ns
        )

    def _misread_lift(self, tr: Track, since: Sequence[Observation] | None = None) -> bool:
        """Whether a track lifted from where it rests has been seen since (``since``: its observations
        after the lift) only once or twice, each over a card's length away: a card misread as this one."""
        since = tr.obs if since is None else since
        return (
            not tr.resting
            and tr.origin is not None
            and tr.origin == tr.place
            and 1 <= len(since) <= 2
            and all(math.hypot(q.x - tr.rest_x, q.y - tr.rest_y) > CARD_H_MM for q in since)
        )

    def _extend(self, tr: Track, o: Observation) -> Landing | None:
        s = self.settings
        if tr.settling and self._index_only(o) != self._index_only(tr.last):
            # Seen at rest and waiting for the further still sightings that judge its landing: a sighting
            # of the other kind (its index alone after boxes of the card, or the card after its index)
            # would read as a jump, the card moving again, and its landing would be judged only at a
            # later rest, late. It only says the card is still there.
            return None
        tr.obs.append(o)
        if len(tr.obs) > 120:
            del tr.obs[:40]
        if (
            tr.rest_box is not None
            and self._misread_lift(tr, tr.obs[:-1])
            and (
                math.hypot(*robust_shift(tr.rest_box, o.box)) <= 3 * self.rest_px
                or self._covered_at_rest(tr.rest_box, o)
            )
        ):
            # "Lifted" by a sighting or two over a card's length off, and back where it rests at once: no
            # card flies off and back so fast. Those were another card misread as this one (or one of its
            # face seen while a hand hid it): it never left.
            tr.resting, tr.origin, tr.origin_xy, tr.lift_t, tr.moved_mm = True, None, None, None, 0.0
            del tr.obs[:-1]
            return None
        if tr.resting and tr.rest_box is not None:
            dx, dy = robust_shift(tr.rest_box, o.box)
            if math.hypot(dx, dy) <= 3 * self.rest_px or self._covered_at_rest(tr.rest_box, o):
                if o.whole and math.hypot(dx, dy) <= self.rest_px:
                    tr.rest_box = _grown(tr.rest_box, o.box, self.rest_px)
                return None
            # It moved: lifted from where it rested.
            tr.resting = False
            tr.origin = tr.place
            tr.origin_xy = (tr.rest_x, tr.rest_y)
            # The lift time is known only when the card was seen at rest just before it moved; after a
            # gap (the hand over it) it is left out rather than guessed (the referee checks it, §7.1).
            # A card starts slowly, so its first frames of motion may stay within the rest tolerance:
            # the lift is the last observation that still lies where it rested, within the rest noise.
            tr.lift_t = None
            tr.left_t = tr.obs[-2].t_ns if len(tr.obs) >= 2 else None
            tr.away_t = None
            later = o
            for o2 in reversed(tr.obs[:-1]):
                if later.frame - o2.frame > 2:
                    break
                if o.t_ns - o2.t_ns > LIFT_CREEP_NS:
                    # Sightings a little off its rest for longer than a start takes are its box read a
                    # few pixels larger (a hand or a card leaving its edge), not motion: it lay there
                    # still when last seen (seed 2 at 20 fps: Ana's 2D's lift put 540 ms early, and her
                    # seat ruled "two cards in flight").
                    tr.lift_t, tr.lift_hi = tr.obs[-2].t_ns, o.t_ns
                    break
                if math.hypot(*robust_shift(tr.rest_box, o2.box)) <= self.rest_px:
                    tr.lift_t, tr.lift_hi = o2.t_ns, later.t_ns
                    break
                later = o2
            tr.moved_mm = 0.0
            del tr.obs[:-1]
            return None
        if len(tr.obs) >= 2:
            # Motion is measured from the last sighting of the same kind since the card last rested: its
            # corner index alone (which corner is not known) lies up to half the card's diagonal off its
            # centre, so a jump between the two kinds is motion only by what it exceeds that by.
            index_only = self._index_only(o)
            k = len(tr.obs) - 2
            while k >= 0 and self._index_only(tr.obs[k]) != index_only:
                k -= 1
            if k >= 0:
                p = tr.obs[k]
                tr.moved_mm += math.hypot(o.x - p.x, o.y - p.y)
            else:
                p = tr.obs[-2]
                tr.moved_mm += max(0.0, math.hypot(o.x - p.x, o.y - p.y) - INDEX_OFF_MM)
        n = s.rest_count
        if tr.settling:
            # Resting since a few observations: wait until it has been still for a while, so that its
            # resting place (the reference for the landing fit) is where it really stopped.
            dx, dy = robust_shift(tr.obs[-2].box, o.box)
            if math.hypot(dx, dy) > 2 * self.rest_px:
                tr.settling = False
                tr.obs.pop()
                still = tr.obs[-(n + tr.settle_count) :]
                if (
                    tr.settle_count >= 1
                    and (
                        self._flew(tr, tr.settle_count)
                        or (tr.settle_count >= 2 and _area(_median_box(still)) >= 0.6 * self.card_px2)
                    )
                    and self._in_centre(tr.last)
                    and all(_same_size(a.box, b.box) for a, b in zip(still, still[1:], strict=False))
                    and _same_size(still[0].box, still[-1].box)
                ):
                    # Still for four sightings or more on a foundation (its box kept its size: not a side
                    # stalled under a hand while the other moved on), and now moving again: it landed and
                    # was taken back at once (the later card of a race, §6.1). It lands where its first
                    # still sightings put it (the later ones may show the slow start of the lift), then lifts.
                    # Its flight need not have been seen when it was still for five sightings as a card-sized
                    # box: no partial view under a passing hand keeps so still so long (seed 5's Cal 2C, seen
                    # only on its last 15 mm, then taken back off Ana's: timed at Ana's card's rest, late).
                    del tr.obs[len(tr.obs) - tr.settle_count :]
                    landing = self._settle(tr)
                    self._extend(tr, o)
                    return landing
                put = still[-1]
                if (
                    tr.origin is None
                    and self.layout.seat_of_point(put.x, put.y) is not None
                    and _same_size(still[0].box, still[-1].box)
                ):
                    # Brought from the centre (a race loser taken back, §6.1), put down still in a seat's
                    # layout and picked up again at once: it leaves from there, a card of that seat.
                    tr.origin = self.place_of(put.x, put.y, tr)
                    tr.origin_xy = (put.x, put.y)
                    tr.lift_t, tr.lift_hi = put.t_ns, o.t_ns
                    tr.moved_mm = 0.0
                    tr.obs[:] = [o]
                    return None
                tr.obs.append(o)
                return None
            tr.settle_count += 1
            if tr.settle_count < s.confirm_count:
                return None
            tr.settling = False
            return self._settle(tr)
        if len(tr.obs) < n:
            return None
        recent = tr.obs[-n:]
        # Still from frame to frame and over the whole span: a slow card moves a pixel a frame.
        for a, b in list(zip(recent, recent[1:], strict=False)) + [(recent[0], recent[-1])]:
            dx, dy = robust_shift(a.box, b.box)
            if math.hypot(dx, dy) > self.rest_px:
                return None
        came = len(tr.obs) > n or tr.origin is not None
        if came and tr.moved_mm >= 8.0:
            tr.settling = True
            tr.settle_count = 0
            return None
        return self._settle(tr)

    def _index_only(self, o: Observation) -> bool:
        """Whether a sighting's box shows a corner index alone (see :data:`MIN_BOX_SHARE`)."""
        return (o.box[2] - o.box[0]) * (o.box[3] - o.box[1]) < self.min_box_px2

    def _fuller_view(self, tr: Track, at_rest: Observation) -> Observation:
        """Where a card that rests mostly covered lies: a card slid under a pile shows only the end
        beyond the pile's base, whose centre is not the card's. Its last sighting before it came to rest
        that showed more of it, at the same place, gives the card's centre."""
        rb = tr.rest_box if tr.rest_box is not None else at_rest.box
        rw, rh = rb[2] - rb[0], rb[3] - rb[1]
        n = self.settings.rest_count
        for o2 in reversed(tr.obs[:-n]):
            w, h = o2.box[2] - o2.box[0], o2.box[3] - o2.box[1]
            if w * h <= 1.3 * rw * rh:
                if self._index_only(o2) and math.hypot(*robust_shift(rb, o2.box)) > 3 * self.rest_px:
                    # Its corner index still moved after any fuller view: that view showed the card on its
                    # way, not where it rests (a box a side of which lay by chance where the index rests).
                    break
                continue
            if math.hypot(*robust_shift(rb, o2.box)) <= 3 * self.rest_px:
                return o2
            break
        return at_rest

    def _settle(self, tr: Track) -> Landing | None:
        """The track is at rest: record where, and report a landing if it came from elsewhere."""
        s = self.settings
        n = s.rest_count
        recent = tr.obs[-n:]
        tr.resting = True
        tr.rest_box = _median_box(recent)
        whole = [o2 for o2 in recent if o2.whole]
        ref = whole[-1] if whole else self._fuller_view(tr, recent[-1])
        tr.rest_x, tr.rest_y = ref.x, ref.y
        tr.rest_since = recent[0].t_ns
        came = len(tr.obs) > n or tr.origin is not None
        # A card first seen all but still (a few sightings creeping under the hand before it rests), or seen
        # only within the rest tolerance of where it rests (its box shifting as the hand over it moves) is as
        # good as first seen at rest. So is one seen first by a still corner index inside its resting box:
        # an index that moved there, its card still sliding its last stretch, is a flight seen.
        unseen_flight = not came or (
            tr.origin is None and (tr.moved_mm < 8.0 or self._seen_only_at_rest(tr, tr.obs[:-n]))
        )
        if unseen_flight:
            appeared = self._appeared(tr) or self._slid_in(tr)
            if appeared is not None:
                return appeared
        # Seen only at rest in the centre, its boxes jittering (a recognizer's, on a small card) by more than
        # a card's slow creep adds up to, and no card of its face left a place for it: as still as a card that
        # moved less (an old foundation card uncovered, or one whose play went unseen), not a play now.
        still = tr.moved_mm < 8.0 or (
            unseen_flight and tr.origin is None and self.layout.seat_of_point(tr.rest_x, tr.rest_y) is None
        )
        if came and still:
            reappeared = self._reappeared(tr)
            if reappeared is not None:
                return reappeared
        if not came or still:
            # Seen first at rest (dealt, uncovered, turned up): no landing to report.
            tr.prev_place, tr.place = tr.place, self.place_of(tr.rest_x, tr.rest_y, tr)
            del tr.obs[:-n]
            tr.origin = None
            return None
        if tr.origin is None:
            self._join_lost_flight(tr)
        if tr.origin is None:
            self._join_vanished(tr)
        t_land, err = estimate_landing(tr.obs, rest_n=n, fit_points=s.fit_points, window_ns=s.fit_window_ns)
        in_centre = self.layout.seat_of_point(tr.rest_x, tr.rest_y) is None
        if in_centre:
            t_land, err = self._not_after_seen_here(tr, t_land, err)
        stopped = self._stopped_before(tr, tr.obs[:-n]) if in_centre else None
        if (
            stopped is not None
            and stopped[0] < t_land
            and stopped[1] < err
            and stopped[2] > 2 * self.rest_px
            and stopped[2] < self.card_px
            and (
                self._twin_near(tr, stopped[0]) or _area(stopped[3]) > 1.5 * _area(tr.rest_box or stopped[3])
            )
        ):
            # It was seen still before a card of its face covered it (the later card of a race), or
            # before a hand covered most of it: what shows there now is that card, or a sliver of
            # this one, so it landed when it first stopped. (A stop seen on a box smaller than the
            # card's final one was a partial view, the card still creeping under the hand: no stop. Nor
            # is one over a card's length from where it rests: a hand holding it still before a throw.)
            t_land, err = stopped[0], stopped[1]
        here = self._here_before(tr, tr.obs[:-n]) if in_centre else None
        if here is not None and here[0] < t_land - err and t_land - here[0] > JOSTLED_NS:
            # Seen still where it rests, then jostled (a race twin landing on it and taken back, a hand
            # brushing it) and back: it landed when it first lay there (the kiosk's table at 20 fps: Cal's
            # 8D, timed by its last jolt, 458 ms late). A stay only tens of milliseconds before the fit is
            # the card's last creep within the rest tolerance, which the fit times better.
            t_land, err = here
        err = self._box_only_err(tr, n, t_land, err)
        unseen = self._unseen_move(tr, t_land, err)
        if unseen is not None:
            return self._landed(tr, unseen)
        t_land, err = self._not_before_seen_away(tr, t_land, err)
        path = tuple((o2.x, o2.y) for o2 in tr.obs[:4])
        # Lifted from a place far off and seen since only about where it rests (its flight unseen, under
        # the hand): as good as first seen at rest there, and it may be another card of its face that was
        # lying there all along, taken for this one while the hand hid it.
        seen_moving = not (
            tr.origin_xy is not None
            and tr.moved_mm < 30.0
            and math.hypot(tr.origin_xy[0] - tr.rest_x, tr.origin_xy[1] - tr.rest_y)
            > max(CARD_H_MM / 2, 2 * tr.moved_mm)
        )
        if not seen_moving:
            t_land, err = self._flight_unseen(tr, t_land, err)
        landing = Landing(
            tr.tid,
            tr.card,
            t_land,
            err,
            tr.rest_x,
            tr.rest_y,
            tr.origin,
            tr.origin_xy,
            tr.lift_t,
            path,
            seen_moving=seen_moving,
            route=tuple((o2.t_ns, o2.x, o2.y) for o2 in tr.obs),
        )
        return self._landed(tr, landing)

    def _flight_unseen(self, tr: Track, t_land: int, err: int) -> tuple[int, int]:
        """A card landing in the centre whose flight went unseen (seen only about where it rests, lifted far
        off): its first boxes there may move by the hand over them, not by the card, so the fit to them does
        not bound its landing from below: it may have landed any time from its last sighting where it lay
        (plus the shortest flight) on (seed 5's Ana 2S, first seen at rest 245 ms after it landed, was timed
        261 ms late with a 25 ms err by a 6-pixel jump of its first box). The frames' pixels may time it
        better (:meth:`_timed_from_pixels`)."""
        if self.layout.seat_of_point(tr.rest_x, tr.rest_y) is not None:
            return t_land, err
        away = tr.last_away_t
        if away is None:
            return t_land, err
        # The fit's time stays the likeliest (its boxes usually do show the card's last motion); its err
        # reaches back that far.
        return t_land, max(err, t_land - (away + MIN_FLIGHT_NS))

    def _not_before_seen_away(self, tr: Track, t_land: int, err: int) -> tuple[int, int]:
        """A landing in a seat's layout no earlier than the card's last view clearly off where it rests (a
        box, not its corner index alone, beyond the rest tolerance on the sides that moved least, and not
        only swelled by the hand over it): a fit that ends before it was misled by an earlier box that only
        seemed to lie there (seed 13's Ben 9D: a box swelled over the pile it went to, 30 mm ahead of the
        card, timed it 228 ms early with a 5 ms err). It landed between that view and the next one at rest,
        or the last pixels' creep after it."""
        rb = tr.rest_box
        n = self.settings.rest_count
        if rb is None or self.layout.seat_of_point(tr.rest_x, tr.rest_y) is None:
            return t_land, err
        moving = tr.obs[:-n]
        off = next(
            (
                k
                for k in range(len(moving) - 1, -1, -1)
                if not self._index_only(moving[k])
                and math.hypot(*robust_shift(rb, moving[k].box)) > 3 * self.rest_px
                and not self._swelled(rb, moving[k])
            ),
            None,
        )
        # Its corner index seen moving (two index sightings a few frames apart, beyond the rest tolerance)
        # shows the card still on its way as well (seed 10's Ana 7C: its index moved 9 px in the 34 ms before
        # its last sighting off its rest, and a fit timed it 183 ms early with an 88 ms err).
        slid = next(
            (
                k
                for k in range(len(moving) - 1, 0, -1)
                if self._index_only(moving[k])
                and self._index_only(moving[k - 1])
                and moving[k].frame - moving[k - 1].frame <= 3
                and math.hypot(*robust_shift(moving[k - 1].box, moving[k].box)) > 3 * self.rest_px
            ),
            None,
        )
        if slid is not None and (off is None or moving[slid - 1].t_ns > moving[off].t_ns):
            lo, nxt = moving[slid - 1].t_ns, slid + 1
            if lo > t_land - err:
                hi = max(t_land + err, tr.obs[nxt].t_ns + MOVE_CREEP_NS)
                return (lo + hi) // 2, max(MIN_ERR_NS, (hi - lo) // 2)
            return t_land, err
        if off is None or moving[off].t_ns <= t_land + err:
            return t_land, err
        lo = moving[off].t_ns
        hi = tr.obs[off + 1].t_ns + MOVE_CREEP_NS
        return (lo + hi) // 2, max(MIN_ERR_NS, (hi - lo) // 2)

    def _unseen_move(self, tr: Track, t_fit: int, err_fit: int) -> Landing | None:
        """A card lifted from a place in a seat's layout and seen since only where it now rests in that
        layout (its slide under the hand): a move whose landing lies between its last sighting elsewhere and
        its first where it rests, or as late as the fit to its resting boxes (``t_fit``, ``err_fit``) may
        put it. The fit alone claims too much: a hand over the card shifts those boxes as a slow last creep
        does (seed 2's Cal 5D was timed 60 ms after its first sighting at rest, and 220 ms after it landed;
        seed 9's Ben KH still crept 100 ms after its own)."""
        n = self.settings.rest_count
        seat_here = self.layout.seat_of_point(tr.rest_x, tr.rest_y)
        if (
            seat_here is None
            or tr.origin is None
            or tr.origin[0] != seat_here
            or tr.origin_xy is None
            or not (self._seen_only_at_rest(tr, tr.obs[:-n]) or self._seen_about_rest(tr, tr.obs[:-n]))
        ):
            return None
        away = tr.last_away_t
        start = next((o for o in tr.obs if not self._index_only(o)), tr.obs[0])
        first = self._first_here(tr, start)
        if away is None or away >= first.t_ns:
            return None
        hi = max(first.t_ns, t_fit + err_fit - MOVE_CREEP_NS)
        return self._unseen_landing(tr, away, hi, tr.origin, tr.origin_xy, tr.lift_t, move=True)

    def _seen_about_rest(self, tr: Track, before: Sequence[Observation]) -> bool:
        """Whether every sighting ``before`` its rest lies within :data:`ABOUT_REST_MM` of where the card
        rests (a view of it) or inside its resting box (its corner index): boxes that jitter more than the
        rest tolerance (an unsure reading's, 5-8 px on a 60-px card) show no slide either (seed 2's Ana 9S,
        moved from her Nerts pile 230 mm off and seen only where it rests, its jitter adding up to 38 mm
        "seen moving": timed 207 ms after it landed, err 17 ms)."""
        rb = tr.rest_box
        if rb is None or not before:
            return False
        return all(
            self._covered_at_rest(rb, o)
            if self._index_only(o)
            else math.hypot(o.x - tr.rest_x, o.y - tr.rest_y) <= ABOUT_REST_MM
            for o in before
        )

    def _seen_only_at_rest(self, tr: Track, before: Sequence[Observation]) -> bool:
        """Whether every sighting ``before`` its rest shows the card where it rests: a view of the card
        within the rest tolerance of its resting box, or a corner index inside that box that stays put (the
        first sighting of a card whose last stretch went unread)."""
        rb = tr.rest_box
        if rb is None:
            return False
        index = [o for o in before if self._index_only(o)]
        if index and max(math.hypot(*robust_shift(index[0].box, o.box)) for o in index) > 3 * self.rest_px:
            return False
        return all(
            self._covered_at_rest(rb, o)
            if self._index_only(o)
            else self._at_rest_box(rb, o) or self._swelled(rb, o)
            for o in before
        )

    def _swelled(self, rest_box: Box, o: Observation) -> bool:
        """Whether a recognizer's box (no outline) differs from a resting card's box only as a box grows or
        shrinks: on each axis within the rest tolerance, or its two sides moved apart or together (a hand
        or a neighbour taken into it, or cut off it), which no motion of the card does."""
        if o.whole:
            return False
        b, tol = o.box, 3 * self.rest_px
        for k in (0, 1):
            d0, d1 = b[k] - rest_box[k], b[k + 2] - rest_box[k + 2]
            if min(abs(d0), abs(d1)) > tol and d0 * d1 > 0:
                return False
        return True

    def _box_only_err(self, tr: Track, n: int, t_land: int, err: int) -> int:
        """``err`` widened back to the card's last sighting clearly away from its resting place, when it rests
        in boxes without the card's outline (:attr:`Observation.whole`: a recognizer's detection box, which
        swells and shrinks with the hand over the card) and its last stretch in flight was seen by its corner
        index alone (:data:`MIN_BOX_SHARE`): the first boxes of the card itself come when it is about to land
        or has landed, and the change the fit takes for its last motion may be the hand's. Clearly away: a box
        off its resting place on both sides of an axis, the same way, by over :data:`AWAY_SHARE` of a card's
        length, or an index outside the resting box (grown by the rest tolerance). Nor does its first resting
        box show it had stopped: ``err`` reaches :data:`REST_CREEP_NS` past it too."""
        rest, moving = tr.obs[-n:], tr.obs[:-n]
        rb = tr.rest_box
        if rb is None or not moving or any(o.whole for o in rest):
            return err
        recent = [o for o in moving if rest[0].t_ns - o.t_ns <= self.settings.fit_window_ns]
        if not any(self._index_only(o) for o in recent):
            return err
        away_px = AWAY_SHARE * self.card_px
        tol = 3 * self.rest_px
        t_away = moving[0].t_ns
        for o in reversed(moving):
            b = o.box
            if self._index_only(o):
                away = b[0] < rb[0] - tol or b[1] < rb[1] - tol or b[2] > rb[2] + tol or b[3] > rb[3] + tol
            else:
                away = any(
                    (b[k] - rb[k]) * (b[k + 2] - rb[k + 2]) > 0
                    and min(abs(b[k] - rb[k]), abs(b[k + 2] - rb[k + 2])) > away_px
                    for k in (0, 1)
                )
            if away:
                t_away = o.t_ns
                break
        # Nor does its first resting box show that it had stopped: a box a few pixels off the card's lies
        # within the rest tolerance while the card still slides its last pixels.
        t_last = rest[0].t_ns + REST_CREEP_NS
        return max(err, t_land - t_away + MODEL_ERR_NS, t_last - t_land)

    def _not_after_seen_here(self, tr: Track, t_land: int, err: int) -> tuple[int, int]:
        """A landing no later than the first sighting of the card where it rests: its track may have begun
        only after it lay there, seen now and then by a track that could not go on (its corner index and a
        view of the card in turn, a hand over it); a fit on the new track's sightings, which creep as the
        hand draws back, ends too late. It landed after the sighting of its face just before, off that
        place and within a card's length of it (its approach), and by the first there. Not when a card of its
        face rests there (the earlier card of a race): those sightings may be that card's."""
        rb = tr.rest_box
        if rb is None:
            return t_land, err
        first = tr.obs[0]
        if any(
            t is not tr
            and t.card == tr.card
            and t.resting
            and math.hypot(t.rest_x - tr.rest_x, t.rest_y - tr.rest_y) < CARD_H_MM / 2
            for t in self.tracks
        ):
            return t_land, err
        here: Observation | None = None
        approach: Observation | None = None
        for o in reversed(self._seen.get(tr.card, ())):
            if o.t_ns >= first.t_ns or self._index_only(o):
                continue
            if first.t_ns - o.t_ns > self.settings.link_ns:
                break
            if math.hypot(*robust_shift(rb, o.box)) <= 3 * self.rest_px or self._covered_at_rest(rb, o):
                here = o
            elif math.hypot(o.x - tr.rest_x, o.y - tr.rest_y) < CARD_H_MM:
                approach = o
                break
        if here is None or approach is None or t_land - err <= here.t_ns:
            return t_land, err
        return (approach.t_ns + here.t_ns) // 2, (here.t_ns - approach.t_ns) // 2 + MODEL_ERR_NS

    def _landed(self, tr: Track, landing: Landing, *, timed: bool = False) -> Landing:
        """``tr`` has landed: its place is where it rests, only its resting sightings are kept, and
        it left no place any more (a later lift starts afresh). Unless ``timed`` already, a landing in the
        centre is timed again from the pixels."""
        if not timed:
            landing = self._timed_from_pixels(tr, landing)
        tr.prev_place, tr.place = tr.place, self.place_of(tr.rest_x, tr.rest_y, tr, landing=landing)
        del tr.obs[: -self.settings.rest_count]
        tr.origin = None
        return landing

    def _timed_from_pixels(self, tr: Track, landing: Landing) -> Landing:
        """A landing in the centre timed again from the frames' pixels (:func:`time_landing`), looking back
        from the frame the card was last seen resting in (a later one may show the later card of a race on
        it), when the pixels' time agrees with the sightings' within both errors, and claims less. Races
        are judged on these times: the sightings' gap of tens of milliseconds becomes a few."""
        rb = tr.rest_box
        if (
            rb is None
            or self.history.newest_t_ns is None
            or self.layout.seat_of_point(landing.x, landing.y) is not None
        ):
            return landing
        toward: tuple[float, float] | None = None
        start = landing.origin_xy or (landing.path[0] if landing.path else None)
        if start is not None:
            (ix, iy), (jx, jy) = self.calibration.to_image([start, (landing.x, landing.y)])
            n = math.hypot(jx - ix, jy - iy)
            if n > self.card_px / 2:
                toward = ((jx - ix) / n, (jy - iy) / n)
        t_lo = landing.t_ns - landing.err_ns - PIXEL_LOOK_NS
        if min(rb[2] - rb[0], rb[3] - rb[1]) < MIN_CUT_SHARE * self.card_px:
            # Seen at rest by its corner index alone: the card lies one of eight ways around it (the index at
            # any of its corners, the card along either axis); the one whose pixels show a card sliding in.
            # Only a fair view of the card sliding in tells (INDEX_MIN_SCORE): a box that is not the card's
            # matches part of the table, or of another card, as well.
            fits = [
                self._pixel_fit(tr, box, t_lo, None, INDEX_MIN_SCORE, True)
                for box in self._cards_around_index(rb)
            ]
            found = [f for f in fits if f is not None]
            fit = min(found, key=lambda f: f.err_ns, default=None)
            if fit is not None and any(abs(f.t_ns - fit.t_ns) > f.err_ns + fit.err_ns for f in found):
                # Two ways tell two times: one of them saw another card sliding in nearby.
                fit = None
        else:
            # A card the sightings already landed here: failing clearer views, frames where the hand still
            # covers much of it (a correlation down to 0.4) may time it, as the walk's checks hold them to one
            # card slowing evenly.
            fit = self._pixel_fit(tr, rb, t_lo, toward) or self._pixel_fit(
                tr, rb, t_lo, toward, TIMING_MIN_SCORE
            )
            if fit is None and len(tr.obs) >= 2:
                # The frame it was last seen resting in may show it nudged, or partly covered, by a card
                # landing beside it: every earlier frame then matches a pixel or two off, none at rest.
                prev = tr.obs[-2].frame_t_ns
                fit = self._pixel_fit(tr, rb, t_lo, toward, at_ns=prev) or self._pixel_fit(
                    tr, rb, t_lo, toward, TIMING_MIN_SCORE, at_ns=prev
                )
        at_rest = tr.obs[-self.settings.rest_count].t_ns if len(tr.obs) >= self.settings.rest_count else None
        # The sightings can only be late: a card is named at rest after it stopped, and a track that starts
        # as it stops (never named in flight, its boxes trailing it under the hand) lands when those boxes
        # settle, a few frames late, with a small err. So a pixel fit of the card's last frames in motion,
        # earlier than that and surer, overrules it; one later than the sightings allow is another card's
        # slide (a race's second card on the pile).
        earlier = (
            fit is not None
            and fit.t_ns < landing.t_ns
            and (fit.moving >= PIXEL_EARLIER_MOVING or self._own_slide(tr, fit, toward))
        )
        disagree = fit is not None and abs(fit.t_ns - landing.t_ns) > fit.err_ns + landing.err_ns
        if (
            fit is None
            or not (
                (fit.err_ns < landing.err_ns and (earlier or not disagree))
                # Later than the sightings allow: their boxes of a card still creeping under the hand settled
                # early (seed 9's Cal AS, 47 ms early with 3 ms claimed), unless it was another card's slide.
                or (disagree and fit.moving >= PIXEL_EARLIER_MOVING and self._own_slide(tr, fit, toward))
            )
            # Nor after the card was seen resting there (but for the last pixels of its slide, REST_CREEP_NS):
            # that slide was another card's, nearby.
            or (at_rest is not None and fit.t_ns - fit.err_ns > at_rest + REST_CREEP_NS)
        ):
            return self._landed_by_rest(tr, landing, rb, t_lo, toward)
        path = landing.path
        if landing.origin is None and fit.came_from != (0.0, 0.0) and self._short_path(landing):
            # Its seat is guessed from the way it came: the sightings saw it only about where it rests, the
            # pixels its last slide in.
            path = (self._came_from(rb, fit.came_from),)
        return replace(landing, t_ns=fit.t_ns, err_ns=fit.err_ns, path=path)

    def _own_slide(self, tr: Track, fit: LandingFit, toward: tuple[float, float] | None) -> bool:
        """Whether a pixel fit is ``tr``'s own slide: coming the way its sightings say it travelled, and no
        other card of its face resting within a card's length (the later card of a race lands on or beside
        the first, and its slide times it) but one resting there since well before (SLIDE_CLAIM_NS) the
        slide ended (seed 14's Dee 3C, landed on Ana's 200 ms after it)."""
        dx, dy = fit.came_from
        n = math.hypot(dx, dy)
        return (
            toward is not None
            and n > 0
            and -(dx * toward[0] + dy * toward[1]) / n >= PIXEL_SAME_WAY_COS
            and not any(
                t is not tr
                and t.card == tr.card
                and t.resting
                and math.hypot(t.rest_x - tr.rest_x, t.rest_y - tr.rest_y) < CARD_H_MM
                # One resting since well before this slide ended is not the card that slid.
                and t.rest_since >= fit.t_ns - SLIDE_CLAIM_NS
                for t in self.tracks
            )
        )

    def _landed_by_rest(
        self, tr: Track, landing: Landing, rb: Box, t_lo: int, toward: tuple[float, float] | None
    ) -> Landing:
        """A landing in the centre the frames in motion did not time (the hand over the card until it
        stopped), its interval cut where the frames first show the card resting: it had landed by then, but
        for its last half pixel (:data:`PIXEL_REST_CREEP_NS`); and, when the frame before that shows the
        card itself a few pixels short of its rest, the way it came (``toward``), cut there too: it had not
        landed yet (:func:`vision.landing_timer.rest_interval`). The time is the middle of what is left, the
        err half of it. Unchanged when the pixels do not tell, or contradict the sightings."""
        if min(rb[2] - rb[0], rb[3] - rb[1]) < MIN_CUT_SHARE * self.card_px:
            return landing
        moving, since = rest_interval(
            self.history,
            rb,
            t_lo,
            card_px=self.card_px,
            toward=toward,
            min_score=TIMING_MIN_SCORE,
            at_ns=tr.last.frame_t_ns,
        )
        if since is None:
            return landing
        lo, hi = landing.t_ns - landing.err_ns, since + PIXEL_REST_CREEP_NS
        if not lo < hi < landing.t_ns + landing.err_ns:
            # At rest before the sightings allow (another card of its face below it) or no sooner than they
            # say: nothing to cut.
            return landing
        if moving is not None and lo < moving < hi:
            lo = moving
        return replace(landing, t_ns=(lo + hi) // 2, err_ns=max(MIN_ERR_NS, (hi - lo + 1) // 2))

    def _pixel_fit(
        self,
        tr: Track,
        rb: Box,
        t_lo_ns: int,
        toward: tuple[float, float] | None,
        min_score: float = LANDING_MIN_SCORE,
        rough: bool = False,
        at_ns: int | None = None,
    ) -> LandingFit | None:
        """The best of :func:`time_landing`'s fits for a card resting in ``rb``, last seen resting in the
        frame of ``tr.last`` (or of ``at_ns``): looking for the part of it away from the hand (``toward``, the
        way the sightings say it travelled) and for the whole card inside its edges (a card with few marks on
        its leading part matches poorly there); and, when the pixels show it came another way than the
        sightings said, for its leading part that way."""

        def fit(way: tuple[float, float] | None) -> LandingFit | None:
            return time_landing(
                self.history,
                rb,
                t_lo_ns,
                card_px=self.card_px,
                toward=way,
                at_ns=tr.last.frame_t_ns if at_ns is None else at_ns,
                min_score=min_score,
                rough=rough,
            )

        fits = [fit(toward), fit(None)] if toward is not None else [fit(None)]
        best = min((f for f in fits if f is not None), key=lambda f: f.err_ns, default=None)
        if best is None:
            return None
        dx, dy = best.came_from
        n = math.hypot(dx, dy)
        way = (-dx / n, -dy / n)
        if toward is None or way[0] * toward[0] + way[1] * toward[1] < 0.7:
            lead = fit(way)
            if lead is not None and lead.err_ns < best.err_ns and abs(lead.t_ns - best.t_ns) <= best.err_ns:
                best = lead
        return best

    def _cards_around_index(self, index: Box) -> list[Box]:
        """The boxes of a card whose corner index is ``index``: its index at each of its four corners, the
        card upright or turned a quarter (a card played from the side of the table)."""
        ix, iy = _centre(index)
        length, width = self.card_px, self.card_px * CARD_W_MM / CARD_H_MM
        out: list[Box] = []
        for w, h in ((width, length), (length, width)):
            # The index's centre lies about an eighth of the card in from each of its sides.
            dx, dy = w / 2 - INDEX_INSET * w, h / 2 - INDEX_INSET * h
            for sx in (-1.0, 1.0):
                for sy in (-1.0, 1.0):
                    cx, cy = ix + sx * dx, iy + sy * dy
                    out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        return out

    def _short_path(self, landing: Landing) -> bool:
        """Whether a landing's path was seen only within a card's length of where it rests."""
        return all(math.hypot(x - landing.x, y - landing.y) < CARD_H_MM for x, y in landing.path)

    def _came_from(self, rest_box: Box, shift: tuple[float, float]) -> tuple[float, float]:
        """The table point a card's length back from a resting box, the way an image shift points."""
        dx, dy = shift
        n = math.hypot(dx, dy)
        cx, cy = _centre(rest_box)
        ((bx, by),) = self.calibration.to_table([(cx + dx / n * self.card_px, cy + dy / n * self.card_px)])
        return (bx, by)

    def _reappeared(self, tr: Track) -> Landing | None:
        """A card lifted from a seat's layout and seen again only at rest in the centre, over a card's
        length away: its flight went unseen (under the hand, or too blurred to read). It landed after it
        was last seen in the layout (plus the shortest flight) and before it was first seen here; the
        pixels may tell better (:meth:`_timed_from_pixels`). As for any card seen only at rest, the
        interpretation asks that it fit its pile (one seen by its corner index alone lies up to half a
        card off it: the pile it fits nearby)."""
        if (
            tr.origin is None
            or tr.origin[0] is None
            or tr.origin_xy is None
            or tr.left_t is None
            or self.layout.seat_of_point(tr.rest_x, tr.rest_y) is not None
            or math.hypot(tr.origin_xy[0] - tr.rest_x, tr.origin_xy[1] - tr.rest_y) < CARD_H_MM
        ):
            return None
        if self._origin_still_there(tr):
            # Its track began on another card of its face (Cal's 2C turned onto his waste, its index seen
            # sliding as Ana's 2C appeared on a pile: seed 1 at 20 fps), which lies there still: whose card
            # this is, the layouts it vanished from tell.
            tr.origin = tr.origin_xy = tr.lift_t = tr.lift_hi = tr.left_t = None
            return self._appeared(tr)
        hi = tr.obs[0].t_ns
        lo = min(hi, tr.left_t + MIN_FLIGHT_NS)
        return self._landed(tr, self._unseen_landing(tr, lo, hi, tr.origin, tr.origin_xy, tr.lift_t))

    def _origin_still_there(self, tr: Track) -> bool:
        """Whether a card of ``tr``'s face was seen at the place ``tr`` left since ``tr`` left it: a seat
        holds one card of each face, so that is the card ``tr``'s track began on, and ``tr`` another."""
        left = tr.left_t if tr.left_t is not None else tr.obs[0].t_ns
        return any(
            t is not tr
            and t.card == tr.card
            and t.obs[0].t_ns > left
            and self.place_of(t.last.x, t.last.y, t) == tr.origin
            for t in self.tracks
        )

    def _slid_in(self, tr: Track) -> Landing | None:
        """A card first seen already at rest in the centre, whose face vanished from no seat's layout (never
        named there, or misread), that the frames' pixels show sliding in and slowing to rest there
        (:func:`time_landing`): a flight the recognizer did not see. Its path is the way its slide came
        from, a card's length back, which names the seat (:meth:`NertsTracker._seat_of`); as for any card
        seen only at rest, the interpretation asks that it fit its pile."""
        rb = tr.rest_box
        if rb is None or self.layout.seat_of_point(tr.rest_x, tr.rest_y) is not None:
            return None
        if any(self._index_only(o) for o in tr.obs[-self.settings.rest_count :]):
            # A corner index alone lies anywhere on the card: no box to look for.
            return None
        first = tr.obs[0]
        fit = self._pixel_fit(tr, rb, first.t_ns - SLIDE_LOOK_NS, None)
        if fit is None or fit.t_ns - fit.err_ns > first.t_ns or self._slide_claimed(tr, fit.t_ns, fit.err_ns):
            return None
        back = self._came_from(rb, fit.came_from)
        landing = Landing(
            tr.tid, tr.card, fit.t_ns, fit.err_ns, tr.rest_x, tr.rest_y, None, None, None, (back,), False
        )
        return self._landed(tr, landing, timed=True)

    def _slide_claimed(self, tr: Track, t_ns: int, err_ns: int) -> bool:
        """Whether a card already landed where ``tr`` rests, at the time its slide in the pixels stopped:
        that slide was that card's, and ``tr`` is a reading of it (a card lying still on the pile read as
        another), not a card that landed on it. (A track of the same face there is the same card, seen by
        its index and by its outline in turn, or a race twin.)"""
        return any(
            other.card != tr.card
            and other.resting
            and abs(other.rest_since - t_ns) <= err_ns + SLIDE_CLAIM_NS
            and math.hypot(other.rest_x - tr.rest_x, other.rest_y - tr.rest_y) < CARD_H_MM / 2
            for other in self.tracks
        )

    def _twin_near(self, tr: Track, since_ns: int) -> bool:
        """Whether another card of ``tr``'s face was seen within a card's length of where ``tr`` rests,
        at ``since_ns`` or later: a race twin that may have covered it. Without one (and without a
        hand now covering most of it), a card seen still for two frames before its final rest was
        only slow at the end of its slide, or seen in part: its landing is the fit to its final rest.
        A card of its face that already lay at rest before then (on a pile beside it) covered nothing."""
        return any(
            other is not tr
            and other.card == tr.card
            and other.last.t_ns >= since_ns
            and not (other.resting and other.rest_since < since_ns)
            and math.hypot(other.last.x - tr.rest_x, other.last.y - tr.rest_y) < CARD_H_MM
            for other in self.tracks
        )

    def _join_lost_flight(self, tr: Track) -> None:
        """A card whose flight was lost on the way (a blurred or hidden stretch longer than a track
        may skip) is the card of its face that was lifted from a seat's layout and lost just before
        this track began: take where it came from and when it was lifted. So too one first seen in the
        air over a seat's zone (lifted there under the hand) and lost: that seat's card, from a place in
        its layout not known."""
        first = tr.obs[0]
        # A card leaves a seat's layout only for the centre or another place in that layout: one of its face
        # coming to rest in another seat's layout (turned onto that seat's waste) is another card.
        seat_here = self.layout.seat_of_point(tr.rest_x, tr.rest_y)
        src = self._lost_just_before(tr, first, seat_here)
        if src is None or (src.origin is None and not self._lost_over_zone(tr, first, src)):
            return
        src.alive = False
        if src.origin is None:
            # Its flight first seen in a seat's zone: that seat's card, from a place in its layout not known.
            seat = self._lifted_unseen_from(src)
            tr.origin, tr.origin_xy, tr.lift_t = (seat, "zone", 0), (src.obs[0].x, src.obs[0].y), None
        else:
            tr.origin, tr.origin_xy, tr.lift_t = src.origin, src.origin_xy, src.lift_t
            tr.lift_hi = src.lift_hi
        tr.away_t = src.last.t_ns
        tr.moved_mm += src.moved_mm

    def _lost_just_before(
        self, tr: Track, first: Observation, seat_here: str | None, *, unseen_only: bool = False
    ) -> Track | None:
        """The card of ``tr``'s face lost in flight last, within two track gaps before ``first``: one lifted
        from a seat's layout (not with ``unseen_only``), or one first seen in the air over a seat's zone
        (:meth:`_lifted_unseen_from`); that seat ``seat_here`` when it is one."""

        def seat(t: Track) -> str | None:
            if not unseen_only and t.origin is not None and t.origin[0] is not None:
                return t.origin[0]
            return self._lifted_unseen_from(t)

        lost = [
            t
            for t in self.tracks
            if t is not tr
            and t.alive
            and t.card == tr.card
            and not t.resting
            and 0 < first.t_ns - t.last.t_ns <= self.settings.track_gap_ns * 2
            and (from_seat := seat(t)) is not None
            and seat_here in (None, from_seat)
        ]
        return max((t for t in lost if not self._turned_from(t, tr)), key=lambda t: t.last.t_ns, default=None)

    def _lost_over_zone(self, tr: Track, first: Observation, src: Track) -> bool:
        """Whether ``src``, a card first seen in the air over a seat's zone and lost (see
        :meth:`_lifted_unseen_from`), is the card ``tr`` follows from ``first`` on."""
        # Only when this track was first seen in no other seat's zone, and no card of its face vanished from
        # a seat's layout later (that card is likelier the one: a track first seen in a seat's zone may be a
        # card there never seen still for long).
        if self.layout.seat_of_point(first.x, first.y) not in (None, self._lifted_unseen_from(src)):
            return False
        # Nor when it could not have got here since (a misread of another card across the table).
        reach = 40.0 + self.settings.max_speed_mm_s * (first.t_ns - src.last.t_ns) / 1e9
        if math.hypot(first.x - src.last.x, first.y - src.last.y) > reach:
            return False
        rested = self._vanished(tr, first, lifted=False)
        return rested is None or self._last_away(rested, tr).t_ns <= src.last.t_ns

    def _lifted_unseen_from(self, t: Track) -> str | None:
        """The seat in whose zone a track that never rested was first seen, in flight: a card lifted there
        under the hand (its place in the layout not seen), on its way to the centre. None otherwise."""
        if t.resting or t.origin is not None or t.rest_box is not None:
            return None
        return self.layout.seat_of_point(t.obs[0].x, t.obs[0].y)

    def _join_vanished(self, tr: Track) -> None:
        """A card landing in the centre that was first seen there, within a card's length of where it
        rests (its flight unseen but for its last stretch, or only its settling seen: the direction of so
        short a path does not tell the seat it came from), is the card of its face that vanished from a
        seat's layout shortly before (:meth:`_vanished`): take where it came from and when it was last
        seen there, as :meth:`_appeared` does for a card first seen at rest."""
        first = tr.obs[0]
        if (
            self.layout.seat_of_point(tr.rest_x, tr.rest_y) is not None
            or self.layout.seat_of_point(first.x, first.y) is not None
            or math.hypot(first.x - tr.rest_x, first.y - tr.rest_y) >= CARD_H_MM
        ):
            return
        # Only a card seen at rest there last: one lifted in sight and lost is joined within a short gap
        # by _join_lost_flight; joined from further back, the stretch seen here is often another sighting
        # of a card that had landed long before, and its fit times that landing late.
        src = self._vanished(tr, first, lifted=False)
        if src is None:
            # Never named in a layout, but read there unsure shortly before (see _appeared).
            unsure = self._vanished_unsure(tr, first)
            if unsure is not None:
                t_u, ux, uy = unsure
                tr.origin, tr.origin_xy, tr.lift_t = self.place_of(ux, uy, tr), (ux, uy), None
                # Seen there last then: it landed any time after (plus a flight), which its first boxes
                # here need not bound (seed 6 at 20 fps: Cal's 2S, unseen for 450 ms of its flight and
                # first seen in boxes a hand still shrank, was timed 244 ms late with a 75 ms err).
                tr.away_t = t_u
            return
        src.alive = False
        tr.origin, tr.origin_xy, tr.lift_t = self._left_from(src)
        tr.lift_hi = None if src.resting else src.lift_hi
        tr.away_t = src.last.t_ns

    def _vanished(self, tr: Track, first: Observation, lifted: bool = True) -> Track | None:
        """The card of the same face that rested in a seat's layout and was last seen shortly before
        ``first`` (and not since), if any: where ``tr``'s card came from. It may have been seen at rest
        there last, or lifted from there and lost on the way (its first motion seen, a hand over its
        index as it is picked up, then its flight unseen)."""
        gone = [
            t
            for t in self.tracks
            if t is not tr
            and t.alive
            and t.card == tr.card
            and (
                (t.resting and t.place is not None and t.place[0] is not None)
                or (lifted and not t.resting and t.origin is not None and t.origin[0] is not None)
            )
            and 0 < first.t_ns - self._last_away(t, tr).t_ns <= self.settings.link_ns
            and first.frame - self._last_away(t, tr).frame >= 3
            and self._could_fly(self._last_away(t, tr), first)
        ]
        return max(
            (t for t in gone if not self._turned_from(t, tr)),
            key=lambda t: self._last_away(t, tr).t_ns,
            default=None,
        )

    def _could_fly(self, away: Observation, first: Observation) -> bool:
        """Whether a card last seen at ``away`` in a seat's layout could be the card first seen at ``first``
        in the centre: no card lifted there crosses the table faster than :data:`CARRY_MM_S` on average
        (give or take a card's half width). A card of its face seen farther on sooner is another one (a race
        twin that landed unseen, first seen at rest)."""
        if self.layout.seat_of_point(first.x, first.y) is not None:
            return True
        if self.layout.seat_of_point(away.x, away.y) is None:
            return True
        reach = CARD_W_MM / 2 + CARRY_MM_S * (first.t_ns - away.t_ns) / 1e9
        return math.hypot(first.x - away.x, first.y - away.y) <= reach

    def _last_away(self, src: Track, tr: Track) -> Observation:
        """The last sighting of ``src`` (a card lifted from a seat's layout, or resting there) that does
        not lie where ``tr`` rests: a card lifted in sight may be seen once or twice more where it lands,
        too seldom to go on with its track, before a track of its own starts there."""
        rb = tr.rest_box
        for o in reversed(src.obs):
            if rb is None or not (
                math.hypot(*robust_shift(rb, o.box)) <= 3 * self.rest_px or self._covered_at_rest(rb, o)
            ):
                return o
        return src.obs[0]

    def _left_from(
        self, src: Track
    ) -> tuple[tuple[str | None, str, int] | None, tuple[float, float], int | None]:
        """Where a card that vanished from a seat's layout (:meth:`_vanished`) came from: its place there,
        the place's position and when it was lifted. For a card seen at rest there last, its lift went
        unseen (under the hand, any time after that sighting): None, rather than a guess the referee would
        check against the seat's other flights (one hand only, §5) and the call."""
        if src.resting:
            return src.place, (src.rest_x, src.rest_y), None
        return src.origin, src.origin_xy or (src.rest_x, src.rest_y), src.lift_t

    def _first_here(self, tr: Track, first: Observation) -> Observation:
        """The earliest sighting of ``tr``'s face where it rests, before ``first`` (its track's first
        observation): the recognizer often names a card at rest only now and then (a hand over it, its
        face not read), and those odd sightings start no track of their own. Going back from ``first``,
        sightings of its face there count; one of its face elsewhere within a card's length of it is its own
        approach, before it got there: the search stops. Its corner index alone does not count: the index
        lies within the card's resting box while the card still slides its last stretch."""
        rb = tr.rest_box
        earliest = first
        if rb is None:
            return earliest
        for o in reversed(self._seen.get(tr.card, ())):
            if o.t_ns >= first.t_ns:
                continue
            if first.t_ns - o.t_ns > self.settings.link_ns:
                break
            if self._index_only(o):
                continue
            if math.hypot(*robust_shift(rb, o.box)) <= 3 * self.rest_px or self._covered_at_rest(rb, o):
                earliest = o
            elif math.hypot(o.x - tr.rest_x, o.y - tr.rest_y) < CARD_H_MM:
                break
        return earliest

    def _still_from(self, tr: Track, first: Observation) -> Observation:
        """The first sighting from ``first`` on that shows ``tr``'s card where it rests, within the rest
        tolerance. A first box grown on both sides of an axis about where the card rests may show the card
        still sliding, blurred (seed 8's Dee 3S, first seen 43 ms before it stopped, its box 10 and 16 px
        larger than at rest): its stop is bounded by the next box that lies where it rests."""
        rb = tr.rest_box
        if (
            rb is None
            or _area(rb) < 0.75 * self.card_px2
            or math.hypot(*robust_shift(rb, first.box)) <= 3 * self.rest_px
            or not self._swelled(rb, first)
        ):
            # (Not when it rests in part hidden: a first box larger than that part may be a fuller view.)
            return first
        return next(
            (
                o
                for o in tr.obs
                if o.t_ns > first.t_ns
                and not self._index_only(o)
                and math.hypot(*robust_shift(rb, o.box)) <= 3 * self.rest_px
            ),
            first,
        )

    def _appeared(self, tr: Track) -> Landing | None:
        """A card first seen already at rest in the centre, whose face just vanished from a seat's
        layout: its flight went unseen (under the hand, or too blurred to read). It landed after it
        was last seen in the layout (plus the shortest flight) and before it was first seen here. So too
        a card first seen at rest on a work pile, whose face just vanished from its seat's Nerts pile or
        waste (within :data:`MOVE_UNSEEN_NS`): a move whose lift and carry the hand hid."""
        if all(self._index_only(o) for o in tr.obs[-self.settings.rest_count :]):
            # Its corner index alone lies up to half a card off the card, and may sit still while the card
            # still slides: its landing waits for a view of the card.
            return None
        # Its corner index alone does not bound the landing (the index lies within the card's resting box
        # while the card still slides its last stretch): the search starts from its first view of the card.
        start = next((o for o in tr.obs if not self._index_only(o)), tr.obs[0])
        first = self._first_here(tr, start)
        src = self._vanished(tr, first)
        seat_here = self.layout.seat_of_point(tr.rest_x, tr.rest_y)
        if src is None:
            if seat_here is not None:
                return None
            unsure = self._vanished_unsure(tr, first)
            if unsure is not None:
                # Never named in the layout it left, but read there unsure as likeliest this face: from there.
                t_away, ux, uy = unsure
                lo = min(first.t_ns, t_away + MIN_FLIGHT_NS)
                place = self.place_of(ux, uy, tr)
                return self._landed(tr, self._unseen_landing(tr, lo, first.t_ns, place, (ux, uy), None))
            # Or seen in the air over a seat's zone, and lost on its way here.
            src = self._lost_just_before(tr, first, None, unseen_only=True)
            if src is None or not self._lost_over_zone(tr, first, src):
                return None
            src.alive = False
            zone, came = (self._lifted_unseen_from(src), "zone", 0), (src.obs[0].x, src.obs[0].y)
            # Seen first within the rest tolerance, it may still slide its last pixels for tens of
            # milliseconds (a card seen whole creeps longer than the REST_CREEP_NS of one seen by its index):
            # the pixels may then tell, when the interval reaches that far.
            lo, hi = min(first.t_ns, src.last.t_ns), first.t_ns + 2 * REST_CREEP_NS
            return self._landed(tr, self._unseen_landing(tr, lo, hi, zone, came, None))
        origin, origin_xy, lift_t = self._left_from(src)
        if seat_here is not None and (
            origin is None
            or origin[0] != seat_here
            or origin[1] not in ("nerts", "waste")
            or origin == self.place_of(tr.rest_x, tr.rest_y, tr)
        ):
            # In a layout, only a card moved within its seat's layout, from one place to another (M5-M7),
            # and from its Nerts pile or waste: a card from a work pile takes the cards on it along (a block,
            # M6), and which of them the move is of, the block's bottom card, is not known from the top
            # one seen again at rest (and a fanned pile's boxes jump between its cards).
            return None
        # Last seen in the layout, it still had the whole flight to the centre to go; last seen on the
        # way, or moved within the layout, less (a move's last sighting may be on its way: seed 2's Ana 9S,
        # its index seen 36 ms before it stopped on the work pile).
        away = self._last_away(src, tr)
        far = seat_here is None and self.layout.seat_of_point(away.x, away.y) is not None
        lo = min(first.t_ns, away.t_ns + (MIN_FLIGHT_NS if far else 0))
        hi = self._still_from(tr, first).t_ns
        if seat_here is not None and hi - away.t_ns > MOVE_UNSEEN_NS:
            return None
        src.alive = False
        return self._landed(
            tr, self._unseen_landing(tr, lo, hi, origin, origin_xy, lift_t, move=seat_here is not None)
        )

    def _unseen_landing(
        self,
        tr: Track,
        lo: int,
        hi: int,
        origin: tuple[str | None, str, int] | None,
        origin_xy: tuple[float, float],
        lift_t: int | None,
        *,
        move: bool = False,
    ) -> Landing:
        """The landing of a card whose flight went unseen, from ``origin_xy``, between ``lo`` and ``hi``;
        with ``move``, a card moved within a seat's layout, ``hi`` its first sighting where it rests."""
        if move:
            # Seen first within the rest tolerance of where it rests, a card moved a short way may still
            # creep its last pixels for tens of milliseconds more (seed 6's Ana 9D stopped 51 ms after): the
            # interval reaches that far.
            hi += MOVE_CREEP_NS
        err = max(MIN_ERR_NS, (hi - lo) // 2)
        if not any(o.whole for o in tr.obs):
            # No view with the card's outline: its first sighting within the rest tolerance of where it rests
            # may show it still sliding its last few pixels.
            err += REST_CREEP_NS
        return Landing(
            tr.tid,
            tr.card,
            (lo + hi) // 2,
            err,
            tr.rest_x,
            tr.rest_y,
            origin,
            origin_xy,
            lift_t,
            (origin_xy,),
            seen_moving=False,
        )

    def place_of(
        self, x: float, y: float, tr: Track, landing: Landing | None = None
    ) -> tuple[str | None, str, int]:
        """Where a resting card lies (a layout slot, or the centre); games refine it."""
        seat = self.layout.seat_of_point(x, y)
        if seat is None:
            return (None, "centre", 0)
        best, best_d = None, math.inf
        for key, slot in self.layout.slots.items():
            if key[0] != seat:
                continue
            d = _slot_distance(slot.pose.x, slot.pose.y, slot.fan, x, y)
            if d < best_d:
                best, best_d = key, d
        return best if best is not None and best_d < CARD_H_MM else (seat, "zone", 0)


def _slot_distance(sx: float, sy: float, fan: tuple[float, float], x: float, y: float) -> float:
    """Distance from a point to a slot: to its centre, or to the segment a fanned pile spreads along."""
    fx, fy = fan
    f2 = fx * fx + fy * fy
    if f2 == 0:
        return math.hypot(x - sx, y - sy)
    # A fan may grow to 12 cards (and one step the other way, for a card slid under).
    u = ((x - sx) * fx + (y - sy) * fy) / f2
    u = min(12.0, max(-1.0, u))
    return math.hypot(x - (sx + u * fx), y - (sy + u * fy))
