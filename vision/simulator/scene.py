"""The physical table over time: piles at rest, flights in the air, arms, and the frames they make.

Glossary:

- **pile card**: a card lying in a slot with its own pose (a squared pile is never perfectly
  square: each card keeps the small offset and turn it landed with).
- **scene**: the table's piles at the start, every flight, and one arm per seat. Frames are
  rendered in time order; the piles at rest are updated as flights lift and land, and the
  flights and arms that move during a frame's readout are drawn band by band.
- **ground-truth sightings**: what a perfect recogniser would report for a frame: each card
  whose face or back shows, with its box, outline when fully visible, and its visible fraction.
  They are the simulator's annotations (like a data set's labels), used to test the tracker on
  its own and to score the recogniser, never in place of it in the kiosk.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cardart import CardDesign
from vision.events import BACK, CardSighting, Frame
from vision.layout import Pose, TableLayout
from vision.simulator.camera import CameraModel, FrameTiming
from vision.simulator.motion import ArmTrack, Flight, arm_polygons
from vision.simulator.render import BAND_ROWS, ArmDraw, CardDraw, TableRenderer

__all__ = ["PileCard", "TableScene", "SKIN_TONES"]

SlotKey = tuple[str | None, str, int]

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (150, 175, 220),
    (120, 150, 200),
    (90, 120, 170),
    (60, 85, 125),
    (140, 165, 215),
    (105, 135, 185),
)
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (120, 60, 40),
    (40, 40, 40),
    (60, 110, 160),
    (170, 170, 170),
    (40, 90, 50),
    (30, 30, 120),
)


@dataclass
class PileCard:
    """A card at rest: its face token, whether the face is up, its pose, and its owner's seat."""

    token: str
    face_up: bool
    pose: Pose
    seat: str


SQUARED_SHOWN = 3
"""How many cards of a squared pile are drawn (the top one and the edges of two below it)."""


@dataclass
class TableScene:
    """A table over time, ready to be rendered frame by frame in time order."""

    layout: TableLayout
    designs: Mapping[str, CardDesign]
    """Each seat's deck design (one deck per seat; single-deck games map every seat to one design)."""
    piles: dict[SlotKey, list[PileCard]]
    flights: list[Flight] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    arms: dict[str, ArmTrack] = field(default_factory=dict)
    arm_colours: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._initial = {k: list(v) for k, v in self.piles.items()}
        for k, seat in enumerate(self.layout.seats):
            self.arm_colours[seat] = (self.rng.choice(SKIN_TONES), SLEEVES[(k + self.rng.randrange(6)) % 6])

    # -- building --------------------------------------------------------------------
    def add_flight(self, flight: Flight) -> None:
        self.flights.append(flight)

    def finish(self) -> None:
        """Sorts the flights, links each card's consecutive flights and builds the arms."""
        self.flights.sort(key=lambda f: (f.t_lift_ns, f.t_land_ns))
        self._lift_order = sorted(range(len(self.flights)), key=lambda i: self.flights[i].t_lift_ns)
        self._land_order = sorted(range(len(self.flights)), key=lambda i: self.flights[i].t_land_ns)
        self._prev_land: list[int] = []
        self._next_lift: list[int] = []
        last: dict[tuple[str, str], int] = {}
        for i, f in enumerate(self.flights):
            key = (f.deck, f.cards[-1][0])
            self._prev_land.append(self.flights[last[key]].t_land_ns if key in last else -(1 << 62))
            last[key] = i
        nxt: dict[tuple[str, str], int] = {}
        self._next_lift = [1 << 62] * len(self.flights)
        self._next_flight: list[int | None] = [None] * len(self.flights)
        for i in range(len(self.flights) - 1, -1, -1):
            f = self.flights[i]
            key = (f.deck, f.cards[-1][0])
            if key in nxt:
                self._next_lift[i] = self.flights[nxt[key]].t_lift_ns
                self._next_flight[i] = nxt[key]
            nxt[key] = i
        self.arms = {}
        for seat in self.layout.seats:
            place = self.layout.place_of(seat)
            # The shoulder sits behind the mat's edge; the resting hand just off the mat.
            lx, ly = place.to_local(*place.edge)
            shoulder = place.to_table(lx + 60.0, ly + 380.0)
            rest = place.to_table(lx + 20.0, ly + 150.0)
            own = [f for f in self.flights if f.seat == seat]
            self.arms[seat] = ArmTrack(shoulder, rest, own, self.rng)
        self.reset()

    def reset(self) -> None:
        """Goes back to the start (before the first frame)."""
        self.piles = {k: list(v) for k, v in self._initial.items()}
        self._n_lifted = 0
        self._n_landed = 0
        self._lifted: set[int] = set()
        self._static_key: tuple[int, int] | None = None
        self._static: tuple[NDArray[np.uint8], NDArray[np.uint8]] | None = None

    @property
    def end_ns(self) -> int:
        """When the last flight lands and the last arm is back at rest."""
        if not self.flights:
            return 0
        return max(f.t_land_ns for f in self.flights) + ArmTrack.RETREAT_NS * 2

    # -- the piles at rest ------------------------------------------------------------
    def _advance(self, t_first: int, t_last: int) -> None:
        while self._n_lifted < len(self._lift_order):
            f = self.flights[self._lift_order[self._n_lifted]]
            if f.t_lift_ns > t_last:
                break
            pile = self.piles.setdefault(f.source, [])
            tokens = {c[0] for c in f.cards}
            self.piles[f.source] = [c for c in pile if not (c.token in tokens and c.seat == f.deck)]
            self._lifted.add(self._lift_order[self._n_lifted])
            self._n_lifted += 1
        while self._n_landed < len(self._land_order):
            f = self.flights[self._land_order[self._n_landed]]
            if f.t_land_ns >= t_first:
                break
            nf = self._next_flight[self._land_order[self._n_landed]]
            if nf is not None and nf in self._lifted:
                # The card is already off again (lifted within this frame's readout): it is drawn in the air.
                self._n_landed += 1
                continue
            new = [PileCard(tok, up, pose, f.deck) for (tok, up), pose in zip(f.cards, f.end, strict=True)]
            pile = self.piles.setdefault(f.dest, [])
            self.piles[f.dest] = new + pile if f.dest_bottom else pile + new
            self._n_landed += 1

    def _active(self) -> list[int]:
        lifted = set(self._lift_order[: self._n_lifted])
        landed = set(self._land_order[: self._n_landed])
        return sorted(lifted - landed)

    def resting_cards(self) -> list[CardDraw]:
        """The cards at rest to draw, bottom first: for squared piles only the top few."""
        out: list[CardDraw] = []
        for key, pile in self.piles.items():
            slot = self.layout.slots.get(key)
            fan = slot is not None and slot.fan != (0.0, 0.0)
            shown = pile if fan else pile[-SQUARED_SHOWN:]
            for j, c in enumerate(shown):
                # The Nerts pile's top card is always face up (M8: turned as the one above leaves).
                up = c.face_up or (key[1] == "nerts" and j == len(shown) - 1)
                out.append(CardDraw(c.token if up else None, self.designs[c.seat], c.pose))
        return out

    # -- what moves --------------------------------------------------------------------
    def _card_element(self, i: int, k: int) -> Callable[[int], CardDraw | None]:
        f = self.flights[i]
        lo, hi = self._prev_land[i], self._next_lift[i]
        design = self.designs[f.deck]

        def at(t: int) -> CardDraw | None:
            if not lo <= t <= hi or k not in f.visible_order(t):
                return None
            up = f.face_up(t, k)
            return CardDraw(f.cards[k][0] if up else None, design, f.poses(t)[k], f.height_mm(t))

        return at

    def _arm_element(self, seat: str) -> Callable[[int], ArmDraw | None]:
        track = self.arms[seat]
        skin, sleeve = self.arm_colours[seat]

        def at(t: int) -> ArmDraw | None:
            # Arms are sampled on a 1 ms grid: finer than a hand's motion blur, and it lets the
            # renderer reuse their outlines across the bands of a frame.
            pose = track.pose_at(t - t % 1_000_000)
            return None if pose is None else ArmDraw(pose, skin, sleeve)

        return at

    def _elements(self, active: Sequence[int]) -> list[Callable[[int], CardDraw | ArmDraw | None]]:
        out: list[Callable[[int], CardDraw | ArmDraw | None]] = []
        for i in active:
            f = self.flights[i]
            n = len(f.cards)
            # Draw order: bottom of the packet first; only the top few of a thick packet show.
            for k in range(max(0, n - SQUARED_SHOWN), n):
                out.append(self._card_element(i, k))
        for seat in self.arms:
            out.append(self._arm_element(seat))
        return out

    def _dynamic(self, active: Sequence[int], t: int) -> tuple[list[CardDraw], list[ArmDraw]]:
        cards: list[CardDraw] = []
        arms: list[ArmDraw] = []
        for el in self._elements(active):
            d = el(t)
            if isinstance(d, CardDraw):
                cards.append(d)
            elif isinstance(d, ArmDraw):
                arms.append(d)
        return cards, arms

    # -- frames ------------------------------------------------------------------------
    def render(self, renderer: TableRenderer, timing: FrameTiming) -> Frame:
        """Renders the frame with this timing (frames must come in time order)."""
        cam = renderer.camera
        self.advance(cam, timing)
        key = (self._n_lifted, self._n_landed)
        if key != self._static_key or self._static is None:
            unlit = renderer.static_layer(self.resting_cards())
            self._static = (unlit, renderer.effects.light(unlit))
            self._static_key = key
        unlit, lit = self._static
        band = BAND_ROWS if timing.row_time_ns else cam.height
        image = renderer.frame(
            unlit, lit, timing.sample_t_ns, timing.exposure_ns, self._elements(self._active()), band
        )
        return Frame(image, timing.t_ns, timing.index, timing.row_time_ns, timing.exposure_ns)

    def frames(
        self,
        renderer: TableRenderer,
        *,
        start_ns: int = 0,
        end_ns: int | None = None,
        rng: random.Random | None = None,
    ) -> Iterator[Frame]:
        """Renders every frame from ``start_ns`` until ``end_ns`` (default: the scene's end)."""
        self.reset()
        end = self.end_ns if end_ns is None else end_ns
        for timing in renderer.camera.timings(start_ns=start_ns, rng=rng or random.Random(1)):
            if timing.t_ns > end:
                return
            yield self.render(renderer, timing)

    # -- annotations ------------------------------------------------------------------------
    def advance(self, camera: CameraModel, timing: FrameTiming) -> None:
        """Brings the piles at rest up to a frame (what :meth:`render` does before drawing)."""
        t_first = timing.sample_t_ns(0) - timing.exposure_ns
        t_last = timing.sample_t_ns(camera.height - 1) + timing.exposure_ns
        self._advance(t_first, t_last)

    def ground_truth_sightings(self, renderer: TableRenderer, timing: FrameTiming) -> list[CardSighting]:
        """What a perfect recogniser would report for the frame with ``timing`` (after :meth:`advance`
        or :meth:`render` of that frame).

        A moving card is placed at the row time of its own centre (rolling shutter). A card is
        reported when at least 15 % of it shows past the cards above it and the hands; ``score``
        is its visible fraction; the outline is given only when it is wholly visible.
        """
        cam = renderer.camera
        active = self._active()
        t_mid = timing.sample_t_ns(cam.height / 2)
        stack: list[CardDraw] = list(self.resting_cards())
        for el in self._elements(active):
            d = el(t_mid)
            if isinstance(d, CardDraw):
                # Re-sample at the row time of the card's own centre.
                cy = float(np.mean(renderer._card_quad_px(d.pose, d.lift_mm)[:, 1]))
                d2 = el(timing.sample_t_ns(cy))
                if isinstance(d2, CardDraw):
                    stack.append(d2)
        polys = [renderer._card_quad_px(c.pose, c.lift_mm) for c in stack]
        occluders: list[NDArray[np.float64]] = []
        for el in self._elements(active):
            d = el(t_mid)
            if isinstance(d, ArmDraw):
                quad, hand, ang = arm_polygons(d.pose)
                occluders.append(cam.project(quad))
                hx, hy = hand
                ca, sa = np.cos(ang), np.sin(ang)
                t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
                ell = np.stack(
                    [
                        hx + 46 * np.cos(t) * ca - 36 * np.sin(t) * sa,
                        hy + 46 * np.cos(t) * sa + 36 * np.sin(t) * ca,
                    ],
                    axis=1,
                )
                occluders.append(cam.project(ell))
        out: list[CardSighting] = []
        covers = polys + occluders
        boxes = np.array([[p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()] for p in covers])
        n_cards = len(polys)
        for i, (c, quad) in enumerate(zip(stack, polys, strict=True)):
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
            if x1 <= 0 or y1 <= 0 or x0 >= cam.width or y0 >= cam.height:
                continue
            scale = 3
            mask = np.zeros(((y1 - y0) * scale, (x1 - x0) * scale), np.uint8)
            cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * scale).astype(np.int32), 1)
            area = int(mask.sum())
            if area == 0:
                continue
            above = [
                j
                for j in range(i + 1, len(covers))
                if (j >= n_cards or j > i)
                and boxes[j, 0] < x1
                and boxes[j, 2] > x0
                and boxes[j, 1] < y1
                and boxes[j, 3] > y0
            ]
            for j in above:
                other = covers[j]
                cv2.fillConvexPoly(mask, np.round((other - (x0, y0)) * scale).astype(np.int32), 0)
            visible = int(mask.sum())
            frac = visible / area
            if frac < 0.15:
                continue
            ys, xs = np.nonzero(mask)
            box = (
                x0 + xs.min() / scale,
                y0 + ys.min() / scale,
                x0 + (xs.max() + 1) / scale,
                y0 + (ys.max() + 1) / scale,
            )
            label = c.token if c.token is not None else BACK
            whole = frac > 0.98
            out.append(
                CardSighting(
                    label,
                    round(frac, 3),
                    (float(box[0]), float(box[1]), float(box[2]), float(box[3])),
                    tuple((float(x), float(y)) for x, y in quad) if whole else None,
                )
            )
        return out


def squared(slot_pose: Pose, rng: random.Random, spread_mm: float = 1.2, turn_deg: float = 1.5) -> Pose:
    """A pose near ``slot_pose`` with the small offset and turn of a card dropped on a pile."""
    return slot_pose.moved(rng.gauss(0, spread_mm), rng.gauss(0, spread_mm), rng.gauss(0, turn_deg))
