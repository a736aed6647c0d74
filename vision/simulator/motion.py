"""How cards and hands move: flights from one pile to another, and each seat's arm.

Glossary:

- **flight**: one physical move: one card, a packet turned from the stock or a block of a
  work pile, lifted from its source at ``t_lift_ns`` and at rest on its destination at
  ``t_land_ns`` (``rules/nerts.md`` §5). The path bends a little; the speed rises smoothly,
  cruises, then falls at a constant rate to zero at ``t_land_ns``, as a card that slides to a
  stop under friction does, so "at rest" is a sharp instant.
- **lift height**: a carried card is a little above the table, so the camera sees it slightly
  larger and its shadow offset; it touches down at the landing.
- **arm**: each seat has one arm (one-hand rule, §5.1). It reaches from the player's edge to
  the source just before the lift, holds the card by its near end while it travels and draws
  back after the landing, covering parts of the table as it goes.

>>> p = SpeedProfile(0.25, 0.5)
>>> round(p.position(0.0), 3), round(p.position(1.0), 3), round(p.speed(1.0), 3)
(0.0, 1.0, 0.0)
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from vision.layout import CARD_H_MM, Pose

__all__ = ["SpeedProfile", "Flight", "ArmTrack", "HandPose", "smoothstep"]

LIFT_MM = 18.0
"""How far above the table a carried card travels."""


def smoothstep(u: float) -> float:
    """0 at u <= 0, 1 at u >= 1, smooth in between."""
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


class SpeedProfile:
    """Normalised progress along a path over normalised time ``u`` in [0, 1]: a smooth rise in
    speed until ``a``, cruising until ``b``, then constant deceleration to rest at 1."""

    def __init__(self, a: float, b: float) -> None:
        if not 0.0 < a <= b < 1.0:
            raise ValueError(f"need 0 < a <= b < 1, got a={a}, b={b}")
        self.a, self.b = a, b
        # Unnormalised: speed sin²-ramps to 1 over [0, a], stays 1 to b, falls linearly to 0 at 1.
        self._total = a / 2 + (b - a) + (1 - b) / 2

    def _dist(self, u: float) -> float:
        a, b = self.a, self.b
        if u <= 0:
            return 0.0
        if u <= a:
            # integral of sin²(pi u / 2a) = u/2 - a/(2 pi) sin(pi u / a)
            return u / 2 - a / (2 * math.pi) * math.sin(math.pi * u / a)
        if u <= b:
            return a / 2 + (u - a)
        if u < 1:
            r = (1 - u) / (1 - b)
            return a / 2 + (b - a) + (1 - b) / 2 * (1 - r * r)
        return self._total

    def position(self, u: float) -> float:
        return self._dist(u) / self._total

    def speed(self, u: float) -> float:
        """d position / d u."""
        a, b = self.a, self.b
        if u <= 0 or u >= 1:
            return 0.0
        if u <= a:
            v = math.sin(math.pi * u / (2 * a)) ** 2
        elif u <= b:
            v = 1.0
        else:
            v = (1 - u) / (1 - b)
        return v / self._total


@dataclass
class Flight:
    """One physical move of one or more cards between two poses.

    ``cards`` are (token, face_up_at_landing) from the bottom of the moved packet to its top;
    ``flip`` turns the packet over on the way (a stock turn or a recycle).
    """

    seat: str
    cards: list[tuple[str, bool]]
    start: list[Pose]
    end: list[Pose]
    t_lift_ns: int
    t_land_ns: int
    source: tuple[str | None, str, int]
    dest: tuple[str | None, str, int]
    flip: bool = False
    bend_mm: float = 0.0
    profile: SpeedProfile = field(default_factory=lambda: SpeedProfile(0.25, 0.5))
    dest_bottom: bool = False
    """The packet goes under the destination pile (a Nerts slide-under, M7)."""
    move: object = None
    """The engine's move this flight shows (for the ground-truth log)."""
    owner: str | None = None
    """The seat whose deck the cards belong to, when another seat moves them (a trick swept up)."""

    @property
    def deck(self) -> str:
        """The seat whose deck the cards are from (the mover's own unless ``owner`` says otherwise)."""
        return self.owner if self.owner is not None else self.seat

    def progress(self, t_ns: int) -> float:
        if t_ns <= self.t_lift_ns:
            return 0.0
        if t_ns >= self.t_land_ns:
            return 1.0
        u = (t_ns - self.t_lift_ns) / (self.t_land_ns - self.t_lift_ns)
        return self.profile.position(u)

    def height_mm(self, t_ns: int) -> float:
        if t_ns <= self.t_lift_ns or t_ns >= self.t_land_ns:
            return 0.0
        u = (t_ns - self.t_lift_ns) / (self.t_land_ns - self.t_lift_ns)
        return LIFT_MM * math.sin(math.pi * min(1.0, u * 1.15)) ** 0.7 if u < 1 / 1.15 else 0.0

    def poses(self, t_ns: int) -> list[Pose]:
        """Each card's pose at ``t_ns`` (clamped to the start before the lift and the end after)."""
        s = self.progress(t_ns)
        out = []
        for p0, p1 in zip(self.start, self.end, strict=True):
            dx, dy = p1.x - p0.x, p1.y - p0.y
            n = math.hypot(dx, dy) or 1.0
            # The path bows sideways by bend_mm at its middle.
            off = self.bend_mm * 4 * s * (1 - s)
            x = p0.x + dx * s + (-dy / n) * off
            y = p0.y + dy * s + (dx / n) * off
            da = (p1.angle - p0.angle + 180.0) % 360.0 - 180.0
            out.append(Pose(x, y, p0.angle + da * smoothstep(s * 1.2)))
        return out

    def face_up(self, t_ns: int, index: int) -> bool:
        """Whether card ``index`` shows its face at ``t_ns`` (a flipped packet turns halfway)."""
        up = self.cards[index][1]
        if self.flip and self.progress(t_ns) < 0.5:
            return not up
        return up

    def visible_order(self, t_ns: int) -> list[int]:
        """Indices of the packet's cards from the bottom drawn to the top drawn."""
        n = len(self.cards)
        if self.flip and self.progress(t_ns) < 0.5:
            return list(range(n - 1, -1, -1))
        return list(range(n))

    def grip(self, t_ns: int, shoulder: tuple[float, float]) -> tuple[float, float]:
        """Where the hand holds the packet: the end of its top card nearest the player."""
        p = self.poses(t_ns)[-1]
        vx, vy = shoulder[0] - p.x, shoulder[1] - p.y
        n = math.hypot(vx, vy) or 1.0
        return (p.x + vx / n * CARD_H_MM * 0.42, p.y + vy / n * CARD_H_MM * 0.42)


@dataclass(frozen=True, slots=True)
class HandPose:
    """Where an arm is: the shoulder (off the mat, behind the seat's edge) and the hand."""

    shoulder: tuple[float, float]
    hand: tuple[float, float]


class ArmTrack:
    """One seat's arm over time: at rest behind the edge, reaching, carrying, drawing back."""

    REACH_NS = 170_000_000
    RETREAT_NS = 230_000_000

    def __init__(
        self,
        shoulder: tuple[float, float],
        rest: tuple[float, float],
        flights: list[Flight],
        rng: random.Random,
    ) -> None:
        self.shoulder = shoulder
        self.rest = rest
        self.flights = sorted(flights, key=lambda f: f.t_lift_ns)
        self._lifts = [f.t_lift_ns for f in self.flights]
        self.reach = [int(self.REACH_NS * rng.uniform(0.8, 1.25)) for _ in self.flights]
        self.retreat = [int(self.RETREAT_NS * rng.uniform(0.8, 1.25)) for _ in self.flights]

    def add(self, flight: Flight, rng: random.Random) -> None:
        k = bisect.bisect(self._lifts, flight.t_lift_ns)
        self.flights.insert(k, flight)
        self._lifts.insert(k, flight.t_lift_ns)
        self.reach.insert(k, int(self.REACH_NS * rng.uniform(0.8, 1.25)))
        self.retreat.insert(k, int(self.RETREAT_NS * rng.uniform(0.8, 1.25)))

    def hand_at(self, t_ns: int) -> tuple[float, float] | None:
        """The hand's position at ``t_ns``, or None while it rests off the mat."""
        k = bisect.bisect(self._lifts, t_ns) - 1
        nxt = k + 1
        if k >= 0:
            f = self.flights[k]
            if t_ns <= f.t_land_ns:
                return f.grip(t_ns, self.shoulder)
            end = f.grip(f.t_land_ns, self.shoulder)
            # Drawing back toward rest, or straight on to the next source if it comes soon.
            if (
                nxt < len(self.flights)
                and self.flights[nxt].t_lift_ns - f.t_land_ns < self.retreat[k] + self.reach[nxt]
            ):
                g = self.flights[nxt]
                target = g.grip(g.t_lift_ns, self.shoulder)
                u = (t_ns - f.t_land_ns) / max(1, g.t_lift_ns - f.t_land_ns)
                return _lerp(end, target, smoothstep(u))
            if t_ns < f.t_land_ns + self.retreat[k]:
                u = (t_ns - f.t_land_ns) / self.retreat[k]
                return _lerp(end, self.rest, smoothstep(u))
        if nxt < len(self.flights):
            g = self.flights[nxt]
            start = g.t_lift_ns - self.reach[nxt]
            if t_ns >= start:
                u = (t_ns - start) / self.reach[nxt]
                return _lerp(self.rest, g.grip(g.t_lift_ns, self.shoulder), smoothstep(u))
        return None

    def pose_at(self, t_ns: int) -> HandPose | None:
        h = self.hand_at(t_ns)
        return None if h is None else HandPose(self.shoulder, h)


def _lerp(a: tuple[float, float], b: tuple[float, float], u: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)


def arm_polygons(pose: HandPose) -> tuple[NDArray[np.float64], tuple[float, float], float]:
    """The forearm as a quadrilateral (mm), the hand's centre and the arm's angle (radians)."""
    (sx, sy), (hx, hy) = pose.shoulder, pose.hand
    dx, dy = hx - sx, hy - sy
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    w0, w1 = 55.0, 38.0
    wx, wy = hx - ux * 55.0, hy - uy * 55.0
    quad = np.array(
        [
            [sx + px * w0, sy + py * w0],
            [wx + px * w1, wy + py * w1],
            [wx - px * w1, wy - py * w1],
            [sx - px * w0, sy - py * w0],
        ]
    )
    centre = (hx - ux * 18.0, hy - uy * 18.0)
    return quad, centre, math.atan2(uy, ux)
