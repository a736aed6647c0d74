"""A simulated Gnoming A Round round (``rules/gnoming.md``) as an overhead camera films it.

Seeded bots from :mod:`kiosk.games.gnoming_bots` play one round (the game's ``rounds`` option is
1) on :class:`vision.layout.GnomingLayout`:

- the round starts with every grid dealt face down, discard piles A and B started face up in the
  middle beside the face-down draw pile, and any Hazard turned meanwhile on the removed place;
- a **flip** (the two opening flips, or one after a Hazard) turns a grid card face up in place;
- a **draw** takes the top of the draw pile (face down) or of A or B (face up) into the hand,
  held above the table's edge and not filmed;
- a **keep** takes the card out of its grid place into the hand (turning it up if it was face
  down) and lays the held card face up there; a bounce is a keep of the card that came out;
- a **discard** lays the card face up on A or B; a Hazard goes to the removed place instead;
- at the end of the round every face-down card is turned up where it lies (the **reveal**).

Gnoming cards repeat (13 or 14 copies of a positive value), so the scene follows each physical
card by its own id. The ground truth uses the Gnoming events of ``docs/table-log.md``:
``round_start``, ``flip`` (when the face comes up), ``decline``, ``draw`` (at the lift), ``keep``
(when the held card lands), ``discard`` (when it lands) and ``reveal`` (when a grid's last card
comes face up).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.games.gnoming import GnomingGame, GnomingState
from kiosk.games.gnoming_actions import (
    Deal,
    DeckCard,
    Decline,
    Discard,
    Draw,
    Flip,
    GnomingAction,
    Keep,
    Pass,
)
from kiosk.games.gnoming_bots import GnomingBot
from kiosk.games.gnoming_scoring import pos_name
from kiosk.games.referee import LogHeader, TableEvent
from vision.cardart import CardDesign, list_designs
from vision.layout import GnomingLayout, Pose, hand_pose
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.rummy import turned_up_ns
from vision.simulator.scene import PileCard, TableScene, squared

__all__ = ["GnomingSimulation", "simulate_gnoming", "BUTTON_EVENTS"]

MS = 1_000_000
BUTTON_EVENTS = ("round_start", "decline")
"""Gnoming events the kiosk has without the camera (a round's start is completed by the camera with
the piles it sees); a ``draw`` ``from`` the draw pile takes a face-down card and is a button too."""

SlotKey = tuple[str | None, str, int]


@dataclass
class GnomingSimulation:
    """One simulated Gnoming round: its truth, its scene and its table."""

    header: LogHeader
    events: list[TableEvent]
    scene: TableScene
    layout: GnomingLayout
    design: CardDesign

    @staticmethod
    def _is_button(e: TableEvent) -> bool:
        return e.type in BUTTON_EVENTS or (e.type == "draw" and e.get("from") == "deck")

    def buttons(self) -> list[TableEvent]:
        """The truth's events the kiosk has without the camera (its piles left for the camera)."""
        out = []
        for e in self.events:
            if e.type == "round_start":
                data = {k: v for k, v in e.data.items() if k not in ("piles", "removed")}
                out.append(TableEvent(e.type, e.t_ns, 0, e.seat, data))
            elif self._is_button(e):
                out.append(e)
        return out

    def camera_events(self) -> list[TableEvent]:
        """The truth's events a camera makes (what the tracker is scored on)."""
        return [e for e in self.events if not self._is_button(e)]


def simulate_gnoming(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
) -> GnomingSimulation:
    """Plays one round with bots and builds the scene that shows it.

    Raises ValueError for fewer than two or more than four seats (the simulated mat's sides).
    """
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"the simulated Gnoming table seats 2 to 4 players, got {len(seats)}")
    options = {"rounds": 1}
    game = GnomingGame(options, seats=tuple(seats))
    state: GnomingState = game.new_initial_state()
    rng = random.Random(seed)
    bots = [GnomingBot(p, seed=rng.randrange(1 << 30)) for p in range(len(seats))]
    layout = GnomingLayout(list(seats))
    pool = list_designs(split)  # type: ignore[arg-type]
    design = pool[rng.randrange(len(pool))]
    ids = (f"card {k}" for k in itertools.count())
    events: list[TableEvent] = []
    flights: list[Flight] = []
    piles: dict[SlotKey, list[PileCard]] = {}
    t = start_ns
    # Each physical card: (owner id, pose). Grids by seat and place; A, B and removed as stacks.
    grid: list[list[tuple[str, Pose]]] = []
    stacks: dict[str, list[tuple[str, Pose]]] = {"A": [], "B": [], "removed": []}
    shown: list[list[bool]] = [[False] * 9 for _ in seats]
    """Which grid places lie face up."""
    held: tuple[str, str] | None = None
    """The card in the current player's hand: (owner id, face)."""

    def fly(
        actor: int,
        owner: str,
        token: str,
        up: bool,
        start: Pose,
        end: Pose,
        source: SlotKey,
        dest: SlotKey,
        *,
        flip: bool = False,
    ) -> Flight:
        a = rng.uniform(0.18, 0.3)
        f = Flight(
            seats[actor],
            [(token, up)],
            [start],
            [end],
            t,
            t + int(rng.uniform(300, 450) * MS),
            source,
            dest,
            flip=flip,
            bend_mm=rng.uniform(-20, 20),
            profile=SpeedProfile(a, rng.uniform(max(a, 0.38), 0.52)),
            owner=owner,
        )
        flights.append(f)
        return f

    def turn_up(seat: int, pos: int, token: str) -> Flight:
        owner, pose = grid[seat][pos]
        end = squared(pose, rng, 0.8, 1.0)
        f = fly(
            seat,
            owner,
            token,
            True,
            pose,
            end,
            (seats[seat], "grid", pos),
            (seats[seat], "grid", pos),
            flip=True,
        )
        grid[seat][pos] = (owner, end)
        shown[seat][pos] = True
        return f

    while not state.is_terminal():
        r = state.cur
        if state.is_chance_node():
            action: GnomingAction = state.sample_chance(rng)
            if isinstance(action, Deal):
                state.apply_action(action)
                r = state.cur
                assert r is not None
                for p, cards in enumerate(action.grids):
                    row = []
                    for pos, card in enumerate(cards):
                        key = (seats[p], "grid", pos)
                        owner, pose = next(ids), squared(layout.slot(*key).pose, rng, 1.0, 1.5)
                        piles[key] = [PileCard(str(card), False, pose, owner)]
                        row.append((owner, pose))
                    grid.append(row)
                for name in ("A", "B"):
                    owner, pose = next(ids), squared(layout.slot(None, name, 0).pose, rng)
                    piles[(None, name, 0)] = [PileCard(str(r.piles[name][0]), True, pose, owner)]
                    stacks[name] = [(owner, pose)]
                for k, card in enumerate(r.removed):
                    owner, pose = (
                        next(ids),
                        squared(layout.slot(None, "removed", 0).pose.moved(0, 25.0 * k), rng),
                    )
                    piles.setdefault((None, "removed", 0), []).append(PileCard(str(card), True, pose, owner))
                    stacks["removed"].append((owner, pose))
                deck_pose = layout.slot(None, "deck", 0).pose
                piles[(None, "deck", 0)] = [
                    PileCard("G5", False, squared(deck_pose, rng), "deck") for _ in range(3)
                ]
                events.append(
                    TableEvent(
                        "round_start",
                        t,
                        0,
                        None,
                        {
                            "round": 1,
                            "first": seats[r.first],
                            "removed": [str(c) for c in r.removed],
                            "piles": {"A": str(r.piles["A"][0]), "B": str(r.piles["B"][0])},
                        },
                    )
                )
                t += int(rng.uniform(1200, 2000) * MS)
                continue
            assert isinstance(action, DeckCard) and r is not None
            # The card drawn from the draw pile: face down into the hand.
            name = seats[action.seat]
            owner = next(ids)
            fly(
                action.seat,
                owner,
                str(action.card),
                False,
                squared(layout.slot(None, "deck", 0).pose, rng),
                hand_pose(layout, name),
                (None, "deck", 0),
                (name, "hand", 0),
            )
            events.append(TableEvent("draw", t, 0, name, {"from": "deck"}))
            held = (owner, str(action.card))
            state.apply_action(action)
            continue
        assert r is not None
        order = list(bots)
        rng.shuffle(order)
        chosen: GnomingAction | None = None
        for bot in order:
            chosen = bot.choose(state)
            if chosen is not None:
                break
        assert chosen is not None, state.notation()
        t += int(rng.uniform(500, 1000) * MS)
        removed_before = len(r.removed)
        if isinstance(chosen, Flip):
            token = str(r.grids[chosen.seat][chosen.pos])
            f = turn_up(chosen.seat, chosen.pos, token)
            events.append(
                TableEvent(
                    "flip",
                    turned_up_ns(f),
                    0,
                    seats[chosen.seat],
                    {"pos": pos_name(chosen.pos), "card": token},
                )
            )
        elif isinstance(chosen, Decline):
            events.append(TableEvent("decline", t, 0, seats[chosen.seat], {}))
        elif isinstance(chosen, Draw) and chosen.source != "deck":
            name = seats[chosen.seat]
            owner, pose = stacks[chosen.source].pop()
            token = str(r.piles[chosen.source][-1])
            f = fly(
                chosen.seat,
                owner,
                token,
                True,
                pose,
                hand_pose(layout, name),
                (None, chosen.source, 0),
                (name, "hand", 0),
            )
            events.append(TableEvent("draw", f.t_lift_ns, 0, name, {"from": chosen.source, "card": token}))
            held = (owner, token)
            t = f.t_land_ns
        elif isinstance(chosen, Keep):
            name = seats[chosen.seat]
            assert held is not None and r.held is not None
            out_owner, out_pose = grid[chosen.seat][chosen.pos]
            out_token = str(r.grids[chosen.seat][chosen.pos])
            was_down = not r.up[chosen.seat][chosen.pos]
            # The card comes out (turned up as it comes if it was face down), then the held card goes in.
            fly(
                chosen.seat,
                out_owner,
                out_token,
                True,
                out_pose,
                hand_pose(layout, name, -60.0),
                (name, "grid", chosen.pos),
                (name, "hand", 0),
                flip=was_down,
            )
            t += int(rng.uniform(550, 800) * MS)
            end = squared(layout.slot(name, "grid", chosen.pos).pose, rng, 1.0, 1.5)
            f = fly(
                chosen.seat,
                held[0],
                held[1],
                True,
                hand_pose(layout, name, 60.0),
                end,
                (name, "hand", 0),
                (name, "grid", chosen.pos),
            )
            grid[chosen.seat][chosen.pos] = (held[0], end)
            shown[chosen.seat][chosen.pos] = True
            events.append(
                TableEvent(
                    "keep",
                    f.t_land_ns,
                    0,
                    name,
                    {"pos": pos_name(chosen.pos), "card": held[1], "out": out_token},
                )
            )
            held = (out_owner, out_token)
            t = f.t_land_ns
        elif isinstance(chosen, Discard):
            name = seats[chosen.seat]
            assert held is not None
            end = squared(layout.slot(None, chosen.pile, 0).pose, rng, 1.5, 3.0)
            f = fly(
                chosen.seat,
                held[0],
                held[1],
                True,
                hand_pose(layout, name),
                end,
                (name, "hand", 0),
                (None, chosen.pile, 0),
            )
            stacks[chosen.pile].append((held[0], end))
            events.append(TableEvent("discard", f.t_land_ns, 0, name, {"card": held[1], "pile": chosen.pile}))
            held = None
            t = f.t_land_ns
        seat = r.player
        state.apply_action(chosen)
        r = state.cur
        assert r is not None
        if isinstance(chosen, (Keep, Pass)) and len(r.removed) > removed_before:
            # A Hazard discarded leaves the game: it goes to the removed place, face up.
            assert held is not None
            name = seats[seat]
            t += int(rng.uniform(300, 600) * MS)
            spot = layout.slot(None, "removed", 0).pose.moved(0, 25.0 * len(stacks["removed"]))
            f = fly(
                seat,
                held[0],
                held[1],
                True,
                hand_pose(layout, name),
                squared(spot, rng),
                (name, "hand", 0),
                (None, "removed", 0),
            )
            stacks["removed"].append((held[0], f.end[0]))
            events.append(TableEvent("discard", f.t_land_ns, 0, name, {"card": held[1]}))
            held = None
            t = f.t_land_ns
        if r.phase == "over":
            # Every face-down card is turned where it lies, grid by grid; a grid already face up is
            # shown as it lies, with the first grid turned.
            first: int | None = None
            face_up = [p for p in range(len(seats)) if all(shown[p])]
            for p in range(len(seats)):
                if p in face_up:
                    continue
                t += int(rng.uniform(500, 900) * MS)
                for pos in range(9):
                    if shown[p][pos]:
                        continue
                    f = turn_up(p, pos, str(r.grids[p][pos]))
                    t = f.t_land_ns + int(rng.uniform(80, 200) * MS)
                done = turned_up_ns(flights[-1])
                events.append(TableEvent("reveal", done, 0, seats[p], {"grid": [str(c) for c in r.grids[p]]}))
                first = done if first is None else first
            for p in face_up:
                at = t if first is None else first
                events.append(TableEvent("reveal", at, 0, seats[p], {"grid": [str(c) for c in r.grids[p]]}))
    scene_designs = {
        key: design
        for key in [
            *seats,
            "deck",
            *{f.deck for f in flights},
            *{c.seat for pile in piles.values() for c in pile},
        ]
    }
    scene = TableScene(layout, scene_designs, piles, rng=random.Random(rng.getrandbits(32)))
    for f in flights:
        scene.add_flight(f)
    scene.finish()
    events.sort(key=lambda e: e.t_ns)
    header = LogHeader("gnoming", tuple(seats), options, 1, {"source": "simulator", "design": design.name})
    return GnomingSimulation(header, events, scene, layout, design)
