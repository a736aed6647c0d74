"""A simulated Nerts hand as an overhead camera would film it, with its ground truth.

Bots from :mod:`kiosk.games.nerts_bots` play a hand (``rules/nerts.md``); every move in
their timed stream becomes a physical flight on the table of :class:`vision.layout.NertsLayout`:
a card from its seat's pile to a foundation or a work pile, a packet turned from the stock,
the waste turned over, a card taken back after losing a race (§6.1), the waste put back on
the stock at an all-stuck reset (§7.2). The hand's full table log (deal and every move, with
exact landing times and ``err`` 0) is the ground truth.

The logical layouts come from refereeing the hand's own log again
(:class:`~kiosk.games.nerts_referee.NertsReferee` in tracked mode), so the table shown always
agrees with what the referee knows.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.nerts_bots import BotPace, SimulatedHand, TimedMove, simulate_hand
from kiosk.games.nerts_layout import SeatLayout
from kiosk.games.nerts_referee import NertsReferee
from kiosk.games.referee import LogHeader, TableEvent
from vision.cardart import CardDesign, list_designs
from vision.cardart.procedural import ProceduralStyle
from vision.layout import NertsLayout, Pose
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.scene import PileCard, TableScene, squared

__all__ = ["NertsSimulation", "simulate_nerts", "seat_designs", "ground_truth_log"]

SlotKey = tuple[str | None, str, int]

BACK_VARIANTS: tuple[tuple[int, tuple[tuple[int, int, int], tuple[int, int, int]]], ...] = (
    (0, ((30, 120, 200), (240, 240, 240))),
    (1, ((120, 40, 120), (235, 225, 235))),
    (2, ((20, 110, 110), (230, 240, 240))),
    (3, ((80, 80, 80), (225, 225, 225))),
)
"""Back patterns and colours for extra decks when there are fewer held-out designs than seats."""


def seat_designs(
    seats: Sequence[str], rng: random.Random, *, split: str = "heldout"
) -> dict[str, CardDesign]:
    """One deck design per seat, each with a back no other seat uses (§2).

    Faces come from designs of ``split`` (held out of the recognizer's training by default);
    when there are fewer such designs than seats, a design is reused with a new back.
    """
    pool = list_designs(split)  # type: ignore[arg-type]
    if not pool:
        raise ValueError(f"no card designs in split {split!r}")
    rng.shuffle(pool)
    out: dict[str, CardDesign] = {}
    for k, seat in enumerate(seats):
        d = pool[k % len(pool)]
        if k >= len(pool):
            pattern, colours = BACK_VARIANTS[(k - len(pool)) % len(BACK_VARIANTS)]
            style: ProceduralStyle = dataclasses.replace(d.style, back_pattern=pattern, back_colors=colours)
            # An artist deck's back is its own picture: draw the new back procedurally instead.
            d = dataclasses.replace(
                d,
                name=f"{d.name}+back{k}",
                style=style,
                kind="procedural" if d.kind != "procedural" else d.kind,
            )
        out[seat] = d
    return out


@dataclass
class NertsSimulation:
    """One simulated hand: the bots' hand, the scene to render and the layout of the table."""

    hand: SimulatedHand
    scene: TableScene
    layout: NertsLayout
    designs: dict[str, CardDesign]
    pile_slots: dict[str, int]
    """Foundation pile id (``F3``) to the foundation slot it was laid in."""


def _source_key(seat: str, source: str) -> SlotKey:
    if source == "nerts":
        return (seat, "nerts", 0)
    if source == "waste":
        return (seat, "waste", 0)
    if source == "stock":
        return (seat, "stock", 0)
    if source.startswith("work"):
        return (seat, "work", int(source[4:]))
    raise ValueError(f"unknown Nerts source {source!r}")


class _Builder:
    """Turns the hand's events, in landing order, into flights over one physical table."""

    def __init__(
        self, hand: SimulatedHand, layout: NertsLayout, designs: dict[str, CardDesign], rng: random.Random
    ) -> None:
        self.hand = hand
        self.layout = layout
        self.rng = rng
        self.seats = hand.seats
        self.piles: dict[SlotKey, list[PileCard]] = {}
        slots = list(range(len(layout.foundation_slots())))
        rng.shuffle(slots)
        self.free_slots = slots
        self.pile_slots: dict[str, int] = {}
        self.flights: list[Flight] = []
        self.next_lift: dict[str, list[int]] = {}
        for m in hand.moves:
            if m.kind not in ("stuck", "call"):
                self.next_lift.setdefault(hand.seats[m.seat], []).append(m.t_lift_ns)
        for v in self.next_lift.values():
            v.sort()

    # -- poses ---------------------------------------------------------------------------------
    def _jitter(self, pose: Pose, spread: float = 1.2, turn: float = 1.5) -> Pose:
        return squared(pose, self.rng, spread, turn)

    def deal(self, layouts: Sequence[SeatLayout]) -> None:
        for s, lay in enumerate(layouts):
            seat = self.seats[s]
            n = self.layout.slot(seat, "nerts", 0)
            self.piles[n.key] = [
                PileCard(c.face_str(), k == len(lay.nerts) - 1, self._jitter(n.pose), seat)
                for k, c in enumerate(lay.nerts)
            ]
            st = self.layout.slot(seat, "stock", 0)
            self.piles[st.key] = [
                PileCard(c.face_str(), False, self._jitter(st.pose), seat) for c in lay.stock
            ]
            self.piles[(seat, "waste", 0)] = []
            for w, cards in enumerate(lay.work, start=1):
                slot = self.layout.slot(seat, "work", w)
                self.piles[slot.key] = [
                    PileCard(c.face_str(), True, self._jitter(slot.card_pose(i), 0.8, 1.0), seat)
                    for i, c in enumerate(cards)
                ]
        self.dealt = {k: list(v) for k, v in self.piles.items()}

    def _top_pose(self, key: SlotKey, token: str, seat: str) -> Pose:
        for c in reversed(self.piles.get(key, [])):
            if c.token == token and c.seat == seat:
                return c.pose
        return self.layout.slots[key].pose if key in self.layout.slots else Pose(0, 0)

    def _remove(self, key: SlotKey, tokens: Sequence[str], seat: str) -> list[PileCard]:
        pile = self.piles.get(key, [])
        taken = [c for c in pile if c.token in tokens and c.seat == seat]
        self.piles[key] = [c for c in pile if not (c.token in tokens and c.seat == seat)]
        return taken

    def _work_end_pose(self, key: SlotKey, offset: int = 1) -> Pose:
        slot = self.layout.slots[key]
        pile = self.piles.get(key, [])
        if not pile:
            return self._jitter(slot.card_pose(offset - 1), 0.8, 1.0)
        last = pile[-1].pose
        return self._jitter(
            last.moved(slot.fan[0] * offset, slot.fan[1] * offset, -(last.angle - slot.pose.angle) / 2),
            0.8,
            1.0,
        )

    def _flight(
        self,
        seat: str,
        cards: list[tuple[str, bool]],
        start: list[Pose],
        end: list[Pose],
        t_lift: int,
        t_land: int,
        source: SlotKey,
        dest: SlotKey,
        *,
        flip: bool = False,
        dest_bottom: bool = False,
        move: object = None,
    ) -> Flight:
        a = self.rng.uniform(0.18, 0.3)
        b = self.rng.uniform(max(a, 0.38), 0.52)
        f = Flight(
            seat,
            cards,
            start,
            end,
            t_lift,
            max(t_land, t_lift + 1),
            source,
            dest,
            flip=flip,
            bend_mm=self.rng.uniform(-30, 30),
            profile=SpeedProfile(a, b),
            dest_bottom=dest_bottom,
            move=move,
        )
        self.flights.append(f)
        return f

    # -- events ---------------------------------------------------------------------------------
    def play(self, e: TableEvent, m: TimedMove) -> None:
        seat = e.seat or ""
        token = str(e.data["card"])
        src = _source_key(seat, str(e.data["from"]))
        pid = str(e.data["pile"])
        if pid not in self.pile_slots:
            self.pile_slots[pid] = self.free_slots.pop(0) if self.free_slots else len(self.pile_slots) % 16
        fkey: SlotKey = (None, "foundation", self.pile_slots[pid])
        fslot = self.layout.slots[fkey]
        place = self.layout.place_of(seat)
        start = self._top_pose(src, token, seat)
        end = fslot.pose.moved(
            self.rng.gauss(0, 3.0), self.rng.gauss(0, 3.0), place.angle + self.rng.gauss(0, 7.0)
        )
        self._remove(src, [token], seat)
        self._flight(seat, [(token, True)], [start], [end], m.t_lift_ns, m.t_land_ns, src, fkey, move=m)
        landed = PileCard(token, True, end, seat)
        self.piles.setdefault(fkey, []).append(landed)
        if m.outcome in ("taken_back", "illegal"):
            # The card landed, lost (or was illegal) and goes back where it came from (§6.1).
            lifts = [t for t in self.next_lift.get(seat, []) if t > m.t_land_ns]
            limit = lifts[0] - 15_000_000 if lifts else m.t_land_ns + 700_000_000
            t_lift = m.t_land_ns + min(120_000_000, max(10_000_000, (limit - m.t_land_ns) // 4))
            t_land = min(t_lift + 320_000_000, limit)
            back = self._jitter(start, 1.0, 1.0)
            self._remove(fkey, [token], seat)
            self._flight(seat, [(token, True)], [end], [back], t_lift, t_land, fkey, src)
            self.piles.setdefault(src, []).append(PileCard(token, True, back, seat))

    def move(self, e: TableEvent, m: TimedMove, before: SeatLayout, after: SeatLayout) -> None:
        seat = e.seat or ""
        token = str(e.data["card"])
        src = _source_key(seat, str(e.data["from"]))
        to = str(e.data["to"])
        under = to.startswith("under")
        w = int(to.removeprefix("under").removeprefix("work"))
        dkey: SlotKey = (seat, "work", w)
        if src[1] == "work" and not under:
            # A block: the card and everything on it.
            pile = self.piles.get(src, [])
            idx = next((i for i, c in enumerate(pile) if c.token == token), len(pile) - 1)
            block = pile[idx:]
            tokens = [c.token for c in block]
            starts = [c.pose for c in block]
            ends = [self._work_end_pose(dkey, k + 1) for k in range(len(block))]
            self._remove(src, tokens, seat)
            self._flight(
                seat, [(t, True) for t in tokens], starts, ends, m.t_lift_ns, m.t_land_ns, src, dkey, move=m
            )
            self.piles.setdefault(dkey, []).extend(
                PileCard(t, True, p, seat) for t, p in zip(tokens, ends, strict=True)
            )
            return
        start = self._top_pose(src, token, seat)
        self._remove(src, [token], seat)
        if under:
            slot = self.layout.slots[dkey]
            pile = self.piles.get(dkey, [])
            base = pile[0].pose if pile else slot.pose
            under_pose = self._jitter(base.moved(-slot.fan[0], -slot.fan[1]), 0.8, 1.0)
            self._flight(
                seat,
                [(token, True)],
                [start],
                [under_pose],
                m.t_lift_ns,
                m.t_land_ns,
                src,
                dkey,
                dest_bottom=True,
                move=m,
            )
            self.piles.setdefault(dkey, []).insert(0, PileCard(token, True, under_pose, seat))
        else:
            end_pose = self._work_end_pose(dkey)
            self._flight(
                seat, [(token, True)], [start], [end_pose], m.t_lift_ns, m.t_land_ns, src, dkey, move=m
            )
            self.piles.setdefault(dkey, []).append(PileCard(token, True, end_pose, seat))

    def turn(self, e: TableEvent, m: TimedMove, before: SeatLayout, after: SeatLayout) -> None:
        seat = e.seat or ""
        k = len(after.waste) - len(before.waste)
        if k <= 0:
            self.recycle(e, m, before, after)
            return
        packet = [c.face_str() for c in after.waste[-k:]]
        skey, wkey = (seat, "stock", 0), (seat, "waste", 0)
        stock_pose = self.layout.slots[skey].pose
        waste_pose = self.layout.slots[wkey].pose
        start = [self._jitter(stock_pose, 0.5, 0.5) for _ in packet]
        end = [self._jitter(waste_pose, 1.5, 2.0) for _ in packet]
        self._remove(skey, packet, seat)
        self._flight(
            seat,
            [(t, True) for t in packet],
            start,
            end,
            m.t_lift_ns,
            m.t_land_ns,
            skey,
            wkey,
            flip=True,
            move=m,
        )
        self.piles.setdefault(wkey, []).extend(
            PileCard(t, True, p, seat) for t, p in zip(packet, end, strict=True)
        )

    def recycle(
        self,
        e: TableEvent,
        m: TimedMove | None,
        before: SeatLayout,
        after: SeatLayout,
        t_lift: int | None = None,
        t_land: int | None = None,
    ) -> None:
        seat = e.seat or self.seats[before.seat]
        skey, wkey = (seat, "stock", 0), (seat, "waste", 0)
        taken = self._remove(wkey, [c.face_str() for c in before.waste], seat)
        if not taken:
            return
        stock_pose = self.layout.slots[skey].pose
        end = [self._jitter(stock_pose, 0.6, 0.8) for _ in taken]
        t0 = m.t_lift_ns if m is not None else (t_lift or e.t_ns)
        t1 = m.t_land_ns if m is not None else (t_land or e.t_ns)
        self._flight(
            seat,
            [(c.token, False) for c in taken],
            [c.pose for c in taken],
            end,
            t0,
            t1,
            wkey,
            skey,
            flip=True,
            move=m,
        )
        self.piles.setdefault(skey, []).extend(
            PileCard(c.token, False, p, seat) for c, p in zip(taken, end, strict=True)
        )

    def rotate(self, e: TableEvent, m: TimedMove, before: SeatLayout) -> None:
        seat = e.seat or ""
        if not before.stock:
            return
        token = before.stock[-1].face_str()
        skey: SlotKey = (seat, "stock", 0)
        start = self._top_pose(skey, token, seat)
        end = self._jitter(self.layout.slots[skey].pose, 0.6, 0.8)
        self._remove(skey, [token], seat)
        self._flight(
            seat,
            [(token, False)],
            [start],
            [end],
            m.t_lift_ns,
            m.t_land_ns,
            skey,
            skey,
            dest_bottom=True,
            move=m,
        )
        self.piles.setdefault(skey, []).insert(0, PileCard(token, False, end, seat))

    def reset(self, t_ns: int, befores: Sequence[SeatLayout]) -> None:
        """The all-stuck reset (§7.2): every seat turns its waste onto its stock."""
        for lay in befores:
            if not lay.waste:
                continue
            seat = self.seats[lay.seat]
            lifts = [t for t in self.next_lift.get(seat, []) if t > t_ns]
            limit = lifts[0] - 10_000_000 if lifts else t_ns + 600_000_000
            t_lift = t_ns + 30_000_000
            t_land = max(t_lift + 40_000_000, min(t_ns + 330_000_000, limit))
            fake = TableEvent("recycle", t_ns, 0, seat, {})
            after = lay.copy()
            after.stock = lay.waste[::-1] + lay.stock
            after.waste = []
            self.recycle(fake, None, lay, after, t_lift, t_land)


def simulate_nerts(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    options: dict[str, Any] | None = None,
    pace: BotPace | None = None,
    designs: dict[str, CardDesign] | None = None,
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
) -> NertsSimulation:
    """Plays a hand with bots and builds the scene that shows it.

    ``start_ns`` is the "Go" signal's time (the camera starts at 0, so the first second shows
    the dealt table at rest, as a kiosk sees it before play).
    """
    rng = random.Random(seed)
    pace = pace or BotPace(landing_err_ms=0)
    hand = simulate_hand(
        random.Random(rng.getrandbits(64)), seats=list(seats), options=options, pace=pace, start_ns=start_ns
    )
    layout = NertsLayout(hand.seats, work_piles=hand.options.work_piles)
    designs = designs or seat_designs(hand.seats, random.Random(rng.getrandbits(32)), split=split)
    builder = _Builder(hand, layout, designs, random.Random(rng.getrandbits(32)))
    referee = NertsReferee(hand.seats, hand.options)
    moves = {(hand.seats[m.seat], m.t_land_ns, m.kind): m for m in hand.moves}
    kinds = {"foundation_play": "play", "turn": "turn", "recycle": "recycle", "rotate": "rotate"}
    for e in hand.events:
        tracked = referee.hand
        befores = [lay.copy() for lay in tracked.layouts] if tracked is not None else []
        rulings = referee.feed(e)
        if e.type == "hand_start":
            assert referee.hand is not None
            builder.deal(referee.hand.layouts)
            continue
        assert referee.hand is not None or e.type in ("hand_end",)
        if e.type == "move":
            kind = (
                "block"
                if str(e.data["from"]).startswith("work")
                else ("slide" if str(e.data["to"]).startswith("under") else "build")
            )
            m = moves[(e.seat or "", e.t_ns, kind)]
            s = hand.seats.index(e.seat or "")
            assert referee.hand is not None
            builder.move(e, m, befores[s], referee.hand.layouts[s])
        elif e.type in kinds:
            m = moves[(e.seat or "", e.t_ns, kinds[e.type])]
            s = hand.seats.index(e.seat or "")
            if e.type == "foundation_play":
                builder.play(e, m)
            elif e.type == "turn":
                assert referee.hand is not None
                builder.turn(e, m, befores[s], referee.hand.layouts[s])
            elif e.type == "recycle":
                assert referee.hand is not None
                builder.recycle(e, m, befores[s], referee.hand.layouts[s])
            else:
                builder.rotate(e, m, befores[s])
        if any(r.kind == "reset" for r in rulings):
            builder.reset(e.t_ns, befores)
    scene = TableScene(layout, designs, builder.dealt, rng=random.Random(rng.getrandbits(32)))
    for f in builder.flights:
        scene.add_flight(f)
    scene.finish()
    return NertsSimulation(hand, scene, layout, designs, dict(builder.pile_slots))


def ground_truth_log(sim: NertsSimulation) -> tuple[LogHeader, list[TableEvent]]:
    """The hand's full table log with exact times (``err`` 0): what really happened."""
    h = sim.hand
    meta = {
        "source": "simulator",
        "designs": {s: d.name for s, d in sim.designs.items()},
        "piles": {
            pid: [
                round(sim.layout.slots[(None, "foundation", k)].pose.x, 1),
                round(sim.layout.slots[(None, "foundation", k)].pose.y, 1),
            ]
            for pid, k in sim.pile_slots.items()
        },
    }
    header = LogHeader(h.header.game, h.header.seats, dict(h.header.options), 1, meta)
    events = [dataclasses.replace(e, err_ns=0) for e in h.events]
    return header, events


def card_token(card: Card) -> str:
    return card.face_str()
