"""A simulated 3-13 Speed Rummy hand (``rules/rummy_3_13.md``) as an overhead camera films it.

Seeded bots from :mod:`kiosk.games.rummy_bots` play one hand (of ``hand_size`` cards; the game's
``hands`` option is set to that one size) on :class:`vision.layout.RummyLayout`, the kiosk calling
"draw" and "discard" (``caller = kiosk`` is not needed: the calls are button events either way):

- the hand starts with each seat's face-up pile card on its left and the face-down pool spread
  in the middle (the dealt hands are held above the table and never filmed);
- a **pool draw** is a hand taking a face-down card from the middle; a **pile draw** takes the
  top card of the right-hand neighbour's pile, face up, off the table;
- the held discard is laid **face down** on the seat's own pile and, at the caller's "discard",
  turned **face up** in place (every seat at about the same moment; the ``discard`` is timed
  when its face comes up);
- a "match" lays the whole hand out face up in front of the seat; after the final round every
  other seat lays its hand out the same way (the show).

The ground truth uses the 3-13 events of ``docs/table-log.md``, with plain faces (``6D``: the
camera cannot tell the decks apart and the referee needs no more): ``hand_start`` (with the
piles), ``call``, ``draw`` (at the lift), ``hold`` and ``discard`` (at the landing), ``match``
and ``show`` (when the last card of the hand lies down).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.games.cards import Card
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.games.rummy import Rummy313Game, RummyState
from kiosk.games.rummy_actions import Call, Deal, DrawPile, DrawPool, Hold, Match, PoolCard, RummyAction
from kiosk.games.rummy_bots import RummyBot
from vision.cardart import CardDesign, list_designs
from vision.layout import Pose, RummyLayout, hand_pose
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.scene import PileCard, TableScene, squared

__all__ = ["RummySimulation", "simulate_rummy", "BUTTON_EVENTS", "face", "deck", "turned_up_ns"]

MS = 1_000_000
BUTTON_EVENTS = ("hand_start", "call", "hold", "caller_draw")
"""3-13 events the kiosk has without the camera: the start of a hand (its piles are filled in by
the camera), the caller's words, and the face-down hold."""
POOL_BUTTON = "pool"
"""A ``draw`` ``from`` the pool takes a face-down card: the camera cannot read it either."""

SlotKey = tuple[str | None, str, int]


def turned_up_ns(flight: Flight) -> int:
    """When a card turned over in place shows its face: halfway along its way (the moment a card
    turned up on a table is seen face up; it settles flat a little later).

    >>> key = ("N", "pile", 0)
    >>> f = Flight("N", [("5H", True)], [Pose(0, 0)], [Pose(1, 0)], 0, 1_000_000, key, key, flip=True)
    >>> 0 < turned_up_ns(f) < 1_000_000
    True
    """
    lo, hi = flight.t_lift_ns, flight.t_land_ns
    while hi - lo > 1_000:
        mid = (lo + hi) // 2
        if flight.progress(mid) < 0.5:
            lo = mid
        else:
            hi = mid
    return hi


def deck(card: Card) -> str:
    """The scene's owner of a card: its physical deck (the scene follows each card by owner and face).

    >>> deck(Card.parse("6D@3"))
    'deck 3'
    """
    return f"deck {card.deck}"


def face(card: Card) -> str:
    """A card's face without its deck (``"6D"`` for 6D of deck 3): what a camera reads.

    >>> face(Card.parse("6D@3"))
    '6D'
    """
    return str(Card(card.rank, card.suit))


@dataclass
class RummySimulation:
    """One simulated 3-13 hand: its truth, its scene and its table."""

    header: LogHeader
    events: list[TableEvent]
    scene: TableScene
    layout: RummyLayout
    design: CardDesign

    def buttons(self) -> list[TableEvent]:
        """The truth's events the kiosk has without the camera (its piles left for the camera)."""
        out = []
        for e in self.events:
            if e.type == "hand_start":
                out.append(
                    TableEvent(e.type, e.t_ns, 0, e.seat, {k: v for k, v in e.data.items() if k != "piles"})
                )
            elif e.type in BUTTON_EVENTS or (e.type == "draw" and e.get("from") == POOL_BUTTON):
                out.append(e)
        return out

    def camera_events(self) -> list[TableEvent]:
        """The truth's events a camera makes (what the tracker is scored on)."""
        return [
            e
            for e in self.events
            if e.type not in BUTTON_EVENTS and not (e.type == "draw" and e.get("from") == POOL_BUTTON)
        ]


def simulate_rummy(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
    hand_size: int = 7,
) -> RummySimulation:
    """Plays one hand of ``hand_size`` cards with bots and builds the scene that shows it.

    Raises ValueError for fewer than two or more than four seats (the simulated mat's sides)
    or a hand size outside 3 to 13.
    """
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"the simulated 3-13 table seats 2 to 4 players, got {len(seats)}")
    if not 3 <= hand_size <= 13:
        raise ValueError(f"a 3-13 hand has 3 to 13 cards, got {hand_size}")
    options = {"hands": [hand_size]}
    game = Rummy313Game(options, seats=tuple(seats))
    state: RummyState = game.new_initial_state()
    rng = random.Random(seed)
    bots = [RummyBot(p, seed=rng.randrange(1 << 30)) for p in range(len(seats))]
    layout = RummyLayout(list(seats))
    pool_designs = list_designs(split)  # type: ignore[arg-type]
    design = pool_designs[rng.randrange(len(pool_designs))]
    events: list[TableEvent] = []
    flights: list[Flight] = []
    piles: dict[SlotKey, list[PileCard]] = {}
    t = start_ns

    def fly(
        actor: int, card: Card, up: bool, start: Pose, end: Pose, source: SlotKey, dest: SlotKey, **kw: object
    ) -> Flight:
        nonlocal t
        t_land = t + int(rng.uniform(300, 450) * MS)
        a = rng.uniform(0.18, 0.3)
        f = Flight(
            seats[actor],
            [(face(card), up)],
            [start],
            [end],
            t,
            t_land,
            source,
            dest,
            bend_mm=rng.uniform(-20, 20),
            profile=SpeedProfile(a, rng.uniform(max(a, 0.38), 0.52)),
            owner=deck(card),
            **kw,  # type: ignore[arg-type]
        )
        flights.append(f)
        return f

    def lay_out(p: int, kind: str) -> None:
        """Seat ``p`` lays its hand face up in front of it, card by card."""
        nonlocal t
        h = state.cur
        assert h is not None
        name = seats[p]
        slot = layout.slot(name, "show", 0)
        cards = [face(c) for c in h.hands[p]]
        for j, card in enumerate(h.hands[p]):
            f = fly(
                p,
                card,
                True,
                hand_pose(layout, name),
                squared(slot.card_pose(j), rng, 1.0, 1.5),
                (name, "hand", 0),
                (name, "show", 0),
            )
            t = f.t_land_ns + int(rng.uniform(120, 250) * MS)
        events.append(TableEvent(kind, flights[-1].t_land_ns, 0, name, {"cards": cards}))

    stack: dict[int, list[Pose]] = {}
    """Where each card of each seat's pile lies, bottom first."""
    while not state.is_terminal():
        h = state.cur
        if state.is_chance_node():
            action: RummyAction = state.sample_chance(rng)
            if isinstance(action, Deal):
                state.apply_action(action)
                pool_pose = layout.slot(None, "pool", 0).pose
                piles[(None, "pool", 0)] = (
                    [
                        PileCard(face(c), False, squared(pool_pose, rng, 25.0, 40.0), deck(c))
                        for c in state.cur.pool[:12]
                    ]
                    if state.cur is not None
                    else []
                )
                for p, card in enumerate(action.piles):
                    pose = squared(layout.slot(seats[p], "pile", 0).pose, rng)
                    piles[(seats[p], "pile", 0)] = [PileCard(face(card), True, pose, deck(card))]
                    stack[p] = [pose]
                events.append(
                    TableEvent(
                        "hand_start",
                        t,
                        0,
                        None,
                        {"hand": 1, "piles": {seats[p]: face(c) for p, c in enumerate(action.piles)}},
                    )
                )
                t += int(rng.uniform(1500, 2500) * MS)
                continue
            assert isinstance(action, PoolCard)
            # The pool card the seat reached for: a face-down card from the middle, off the table.
            name = seats[action.seat]
            fly(
                action.seat,
                action.card,
                False,
                squared(layout.slot(None, "pool", 0).pose, rng, 25.0, 40.0),
                hand_pose(layout, name),
                (None, "pool", 0),
                (name, "hand", 0),
            )
            events.append(TableEvent("draw", t, 0, name, {"from": POOL_BUTTON}))
            state.apply_action(action)
            continue
        assert h is not None
        order = list(bots)
        rng.shuffle(order)
        chosen: RummyAction | None = None
        for bot in order:
            chosen = bot.choose(state)
            if chosen is not None:
                break
        if chosen is None:
            cadence = state.cadence()
            chosen = Call("draw") if cadence.may_call_draw else Call("discard")
        t += int(rng.uniform(450, 1000) * MS)
        phase = h.phase
        if isinstance(chosen, Call):
            events.append(TableEvent("call", t, 0, None, {"call": chosen.word}))
            if chosen.word == "discard":
                held = [(p, c) for p in h.drawers if (c := h.held[p]) is not None]
                t0 = t
                for p, held_card in held:
                    name = seats[p]
                    t = t0 + int(rng.uniform(250, 700) * MS)
                    pose = stack[p][-1]
                    f = fly(
                        p,
                        held_card,
                        True,
                        pose,
                        squared(pose, rng, 1.0, 2.0),
                        (name, "pile", 0),
                        (name, "pile", 0),
                        flip=True,
                    )
                    stack[p][-1] = f.end[0]
                    events.append(TableEvent("discard", turned_up_ns(f), 0, name, {"card": face(held_card)}))
                t = max([t0, *(f.t_land_ns for f in flights[-len(held) :])]) if held else t
                events.sort(key=lambda e: e.t_ns)
            state.apply_action(chosen)
        elif isinstance(chosen, DrawPool):
            state.apply_action(chosen)
        elif isinstance(chosen, DrawPile):
            right = state.right_of(chosen.seat)
            card = h.piles[right][-1]
            name, owner = seats[chosen.seat], seats[right]
            f = fly(
                chosen.seat,
                card,
                True,
                stack[right].pop(),
                hand_pose(layout, name),
                (owner, "pile", 0),
                (name, "hand", 0),
            )
            events.append(TableEvent("draw", f.t_lift_ns, 0, name, {"from": owner, "card": face(card)}))
            state.apply_action(chosen)
            t = f.t_land_ns
        elif isinstance(chosen, Hold):
            name = seats[chosen.seat]
            pose = squared(layout.slot(name, "pile", 0).pose, rng)
            f = fly(
                chosen.seat,
                chosen.card,
                False,
                hand_pose(layout, name),
                pose,
                (name, "hand", 0),
                (name, "pile", 0),
            )
            stack[chosen.seat].append(pose)
            events.append(TableEvent("hold", f.t_land_ns, 0, name, {}))
            state.apply_action(chosen)
            t = f.t_land_ns
        elif isinstance(chosen, Match):
            lay_out(chosen.seat, "match")
            state.apply_action(chosen)
        else:
            state.apply_action(chosen)
        after = state.cur
        if after is not None and after.phase == "scored" and phase != "scored":
            for p in range(len(seats)):
                if not after.out[p]:
                    t += int(rng.uniform(600, 1200) * MS)
                    lay_out(p, "show")
    designs = {key: design for key in [*seats, *(deck(Card.parse(f"AS@{k}")) for k in range(9))]}
    scene = TableScene(layout, designs, piles, rng=random.Random(rng.getrandbits(32)))
    for f in flights:
        scene.add_flight(f)
    scene.finish()
    header = LogHeader("rummy_3_13", tuple(seats), options, 1, {"source": "simulator", "design": design.name})
    return RummySimulation(header, events, scene, layout, design)
