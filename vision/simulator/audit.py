"""The end-of-hand audit of a Nerts hand as the overhead camera films it (``rules/nerts.md`` §12).

After the hand the players clear the table, then each seat spreads its foundation cards face down
in a non-overlapping grid in front of it, gathers them, and spreads its remaining Nerts cards the
same way. The camera counts the backs (:mod:`vision.audit`); the counts override live tracking
(``attribution_source = audit_if_available``, the default).

The simulated audit is four phases; in each grid phase every player lays its cards one by one from a
stack beside its grid, its arm over the table, then the grids lie still for the phase's time (the
camera counts only once the counts have held):

>>> [(name, round(d / 1e9, 1)) for name, d in AUDIT_PHASES]
[('clear', 0.6), ('foundation', 1.2), ('clear', 0.6), ('nerts', 1.2)]
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kiosk.games.nerts_referee import NertsReferee
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import referee_for
from vision.cardart import CardDesign
from vision.events import Frame
from vision.layout import CARD_H_MM, CARD_W_MM, Pose, TableLayout
from vision.simulator.camera import FrameTiming
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.render import TableRenderer
from vision.simulator.scene import PileCard, TableScene, squared

__all__ = [
    "AuditFilm",
    "FilmedHand",
    "AUDIT_AFTER_NS",
    "AUDIT_PHASES",
    "AUDIT_COLUMNS",
    "audit_poses",
    "audit_counts",
    "audit_events",
    "audit_frames",
    "count_filmed_audit",
]

AUDIT_PHASES: tuple[tuple[str, int], ...] = (
    ("clear", 600_000_000),
    ("foundation", 1_200_000_000),
    ("clear", 600_000_000),
    ("nerts", 1_200_000_000),
)
"""The audit's phases and how long each lasts on the simulated table (a grid phase: how long its grids
lie still once the player with the most cards has laid them)."""
LAY_START_NS = 200_000_000
"""From a grid phase's start to the first card's lift (the player's stack is on the table)."""
LAY_EVERY_NS = 180_000_000
"""Between two cards laid by one player (five or six a second)."""
LAY_FLIGHT_NS = 300_000_000
"""One card's slide from the player's stack to its cell."""
STACK_LX_MM = 330.0
"""Where a player's stack lies for the audit: beside the grid, on the right, near the player."""
AUDIT_AFTER_NS = 1_000_000_000
"""From the hand's last move to the start of its audit (the players stop and clear the table)."""
AUDIT_COLUMNS = 8
"""Cards in one row of a seat's audit grid (a 4-seat mat's side takes eight cards side by side)."""
AUDIT_PITCH_MM = (CARD_W_MM + 7.0, CARD_H_MM + 7.0)
"""Grid pitch: a few millimetres between neighbours, as players lay cards side by side."""
AUDIT_FIRST_ROW_MM = 140.0
"""The first row's distance from the seat's Nerts row toward the player (further rows go inward): about
5 cm inside the mat's edge, clear of a resting forearm and its shadow (a sleeve merged with a card's
patch would count as part of a card)."""


def audit_poses(layout: TableLayout, seat: str, n: int, rng: random.Random) -> list[Pose]:
    """Where ``seat`` lays ``n`` cards for the audit: rows of :data:`AUDIT_COLUMNS` in front of it,
    from the player's edge inward, each card a little off its cell and turned (laid by hand)."""
    place = layout.place_of(seat)
    poses = []
    for k in range(n):
        row, col = divmod(k, AUDIT_COLUMNS)
        lx = (col - (AUDIT_COLUMNS - 1) / 2) * AUDIT_PITCH_MM[0]
        ly = AUDIT_FIRST_ROW_MM - row * AUDIT_PITCH_MM[1]
        poses.append(squared(place.pose(lx, ly), rng, 1.0, 1.5))
    return poses


def _laid_by_hand(
    layout: TableLayout, seat: str, cells: Sequence[Pose], t0_ns: int, rng: random.Random
) -> tuple[dict[tuple[str | None, str, int], list[PileCard]], list[Flight]]:
    """A player's stack of ``len(cells)`` face-down cards beside its grid and the slides that lay them
    one by one into ``cells`` from ``t0_ns`` on (the player's arm over the table while it lays them)."""
    place = layout.place_of(seat)
    stack = place.pose(STACK_LX_MM, AUDIT_FIRST_ROW_MM)
    key: tuple[str | None, str, int] = (seat, "audit_stack", 0)
    tokens = [f"B{k}" for k in range(len(cells))]
    # The stack's top card is laid first: the list runs bottom to top.
    piles = {key: [PileCard(tok, False, squared(stack, rng), seat) for tok in reversed(tokens)]}
    flights = []
    for k, (tok, cell) in enumerate(zip(tokens, cells, strict=True)):
        lift = t0_ns + LAY_START_NS + k * LAY_EVERY_NS + int(rng.uniform(0, 40_000_000))
        a = rng.uniform(0.18, 0.3)
        flights.append(
            Flight(
                seat,
                [(tok, False)],
                [stack],
                [cell],
                lift,
                lift + LAY_FLIGHT_NS,
                key,
                (seat, "audit", k),
                bend_mm=rng.uniform(-15.0, 15.0),
                profile=SpeedProfile(a, rng.uniform(max(a, 0.38), 0.52)),
            )
        )
    return piles, flights


def audit_counts(header: LogHeader, truth: Sequence[TableEvent]) -> dict[str, tuple[int, int]]:
    """Each seat's (foundation cards, Nerts cards left) at the end of a true hand log, as refereed:
    what the audit shows."""
    referee = referee_for(header)
    if not isinstance(referee, NertsReferee):
        raise ValueError(f"the end-of-hand audit is a Nerts rule, not {header.game}'s")
    for e in truth:
        referee.feed(e)
    if not referee.details:
        raise ValueError("the log has no scored hand (no hand_end): nothing to audit")
    detail = referee.details[-1]
    return {s: (int(detail["foundation"][s]), int(detail["nerts"][s])) for s in header.seats}


def audit_events(counts: Mapping[str, tuple[int, int]], t_ns: int) -> list[TableEvent]:
    """The audit's true ``count`` events (one per seat) at ``t_ns``."""
    return [TableEvent("count", t_ns, 0, s, {"nerts": n, "foundation": f}) for s, (f, n) in counts.items()]


class AuditFilm:
    """The audit on the table from ``start_ns`` on, phase by phase (:data:`AUDIT_PHASES`), then the
    cleared table for as long as the camera films: frames are rendered for any timing, in time order,
    by the renderer that filmed the hand (same table, light and camera)."""

    def __init__(
        self,
        layout: TableLayout,
        designs: Mapping[str, CardDesign],
        counts: Mapping[str, tuple[int, int]],
        start_ns: int,
        rng: random.Random,
    ) -> None:
        self.start_ns = start_ns
        self.counts = dict(counts)
        self.phases: list[tuple[str, int, TableScene]] = []
        """Each phase's name, end time and scene."""
        t = start_ns
        for name, duration in AUDIT_PHASES:
            piles: dict[tuple[str | None, str, int], list[PileCard]] = {}
            flights: list[Flight] = []
            if name != "clear":
                most = max((f if name == "foundation" else n) for f, n in counts.values()) if counts else 0
                for seat, (f, n) in counts.items():
                    cells = audit_poses(layout, seat, f if name == "foundation" else n, rng)
                    piles_, flights_ = _laid_by_hand(layout, seat, cells, t, rng)
                    piles.update(piles_)
                    flights += flights_
                # The still grids show for ``duration`` once the seat with the most cards has laid them.
                duration += LAY_START_NS + most * LAY_EVERY_NS + LAY_FLIGHT_NS
            scene = TableScene(layout, designs, piles, rng=random.Random(rng.getrandbits(32)))
            for flight in flights:
                scene.add_flight(flight)
            scene.finish()
            t += duration
            self.phases.append((name, t, scene))
        self.end_ns = t
        """When the last phase ends (the table stays cleared after it)."""

    def phase_at(self, t_ns: int) -> tuple[str, TableScene]:
        """The phase on the table at ``t_ns`` (from :attr:`start_ns` on) and its scene."""
        for name, end, scene in self.phases:
            if t_ns < end:
                return name, scene
        return "clear", self.phases[0][2]

    def render(self, renderer: TableRenderer, timing: FrameTiming) -> tuple[str, Frame]:
        """The frame with this timing, with the name of its phase."""
        name, scene = self.phase_at(timing.t_ns)
        return name, scene.render(renderer, timing)


def audit_frames(
    layout: TableLayout,
    designs: Mapping[str, CardDesign],
    counts: Mapping[str, tuple[int, int]],
    renderer: TableRenderer,
    start_ns: int,
    rng: random.Random,
) -> Iterator[tuple[str, Frame]]:
    """The audit filmed from ``start_ns`` to its end (:class:`AuditFilm`), each frame with its phase's
    name."""
    film = AuditFilm(layout, designs, counts, start_ns, rng)
    for timing in renderer.camera.timings(start_ns=start_ns, rng=random.Random(rng.getrandbits(32))):
        if timing.t_ns >= film.end_ns:
            return
        yield film.render(renderer, timing)


class FilmedHand:
    """A Nerts hand and its audit, filmed one after the other (``kiosk simulate nerts``): the hand's
    scene until :data:`AUDIT_AFTER_NS` after its last move, then the audit, then the cleared table for
    half a second. :attr:`truth` is the hand's true log with the counts and the hand's end moved to the
    audit's end (the counts are what the audit shows; the hand is scored once they are in)."""

    def __init__(self, sim: Any, header: LogHeader, truth: Sequence[TableEvent], rng: random.Random) -> None:
        self.scene: TableScene = sim.scene
        self.layout = sim.scene.layout
        self.designs = sim.scene.designs
        counts = audit_counts(header, truth)
        self.film = AuditFilm(self.layout, self.designs, counts, self.scene.end_ns + AUDIT_AFTER_NS, rng)
        self.end_ns = self.film.end_ns + 500_000_000
        self.truth = [
            dataclasses.replace(e, t_ns=self.film.end_ns) if e.type in ("count", "hand_end") else e
            for e in truth
        ]

    def frames(
        self,
        renderer: TableRenderer,
        *,
        start_ns: int = 0,
        end_ns: int | None = None,
        rng: random.Random | None = None,
    ) -> Iterator[Frame]:
        """Renders every frame from ``start_ns`` until ``end_ns`` (default: the audit's end)."""
        self.scene.reset()
        end = self.end_ns if end_ns is None else end_ns
        for timing in renderer.camera.timings(start_ns=start_ns, rng=rng or random.Random(1)):
            if timing.t_ns > end:
                return
            if timing.t_ns >= self.film.start_ns:
                yield self.film.render(renderer, timing)[1]
            else:
                yield self.scene.render(renderer, timing)


def count_filmed_audit(
    layout: TableLayout,
    designs: Mapping[str, CardDesign],
    counts: Mapping[str, tuple[int, int]],
    renderer: TableRenderer,
    calibration: Any,
    recognizer: Any,
    start_ns: int,
    rng: random.Random,
) -> tuple[list[TableEvent], str]:
    """Films the audit of ``counts`` from ``start_ns`` on the table ``renderer`` filmed the hand with,
    reads it with ``recognizer`` (which tells the empty table) and counts it with
    :class:`vision.audit.AuditWatcher`: the ``count`` events it wrote, and the phase it ended in."""
    from vision.audit import AuditWatcher

    watcher = AuditWatcher(layout, calibration)
    out: list[TableEvent] = []
    for _, frame in audit_frames(layout, designs, counts, renderer, start_ns, rng):
        out += watcher.feed(frame, recognizer.recognize(frame.image))
    out += watcher.finish()
    return out, watcher.phase
