"""A simulated Smear hand (``rules/smear.md``) as an overhead camera films it, with its ground truth.

Heuristic bots from :mod:`kiosk.games.smear_bots` bid and play one hand. On the table of
:class:`vision.layout.TrickLayout` each card played comes from its player's edge (the hand held
above the table is not filmed) and lands on that seat's spot in the middle; once the fourth
card is down, the trick's winner sweeps the four cards face down onto the won pile in front of
them. Bids and passes are buttons at the kiosk: they are in the ground truth, not in the video.

The ground-truth table log uses the Smear events of ``docs/table-log.md``: ``deal``, ``bid`` /
``pass``, ``play`` (at the exact landing time) and ``collect`` (when the sweep lands).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.games.smear import SmearGame
from kiosk.games.smear_bots import HeuristicSmearBot
from vision.cardart import CardDesign, list_designs
from vision.layout import Pose, TrickLayout
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.scene import PileCard, TableScene, squared

__all__ = ["TrickSimulation", "simulate_smear", "simulate_kierki"]

SlotKey = tuple[str | None, str, int]
MS = 1_000_000


@dataclass
class TrickSimulation:
    """One simulated hand of a trick-taking game: its truth, its scene and its table."""

    header: LogHeader
    events: list[TableEvent]
    scene: TableScene
    layout: TrickLayout
    design: CardDesign


def simulate_smear(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
) -> TrickSimulation:
    """Plays one Smear hand with bots and builds the scene that shows it (one deck, one design)."""
    return _simulate("smear", seed, seats, split, start_ns)


def simulate_kierki(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
) -> TrickSimulation:
    """Plays the first Kierki deal ("no tricks", ``rules/kierki.md``) with bots and builds its scene."""
    return _simulate("kierki", seed, seats, split, start_ns)


def _simulate(game_name: str, seed: int, seats: Sequence[str], split: str, start_ns: int) -> TrickSimulation:
    if len(seats) != 4:
        raise ValueError(f"{game_name} is played by four seats, got {len(seats)}")
    rng = random.Random(seed)
    state: Any
    bots: list[Any]
    if game_name == "smear":
        state = SmearGame({}).new_initial_state()
        bots = [HeuristicSmearBot(rng.getrandbits(32)) for _ in range(4)]
    else:
        from kiosk.games.kierki.game import KierkiGame
        from kiosk.games.kierki_bots import HeuristicKierkiBot

        state = KierkiGame({}).new_initial_state()
        bots = [HeuristicKierkiBot() for _ in range(4)]
    layout = TrickLayout(list(seats))
    pool = list_designs(split)  # type: ignore[arg-type]
    design = pool[rng.randrange(len(pool))]
    events: list[TableEvent] = []
    flights: list[Flight] = []
    t = start_ns
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    if game_name == "smear":
        events.append(TableEvent("deal", t, 0, seats[state.dealer], {}))
    else:
        events.append(TableEvent("deal", t, 0, seats[state.dealer], {"deal": int(state.deal.number)}))
    on_table: dict[int, tuple[str, Pose]] = {}
    while not state.is_terminal() and not state.is_chance_node():
        seat = state.current_player()
        action = bots[seat].choose(state)
        t += int(rng.uniform(500, 1300) * MS)
        name = seats[seat]
        kind = type(action).__name__
        if kind == "Bid":
            events.append(TableEvent("bid", t, 0, name, {"bid": action.bid}))
        elif kind == "Pass":
            events.append(TableEvent("pass", t, 0, name, {}))
        elif kind == "NameTrump":
            events.append(TableEvent("trump", t, 0, name, {"suit": action.suit.letter}))
        elif kind == "PlayCard":
            token = str(action.card)
            place = layout.place_of(name)
            start = place.pose(rng.uniform(-60, 60), 150.0, rng.gauss(0, 8))
            spot = layout.slot(name, "trick", 0).pose
            end = squared(spot, rng, 6.0, 6.0)
            t_lift = t
            t_land = t + int(rng.uniform(280, 450) * MS)
            a = rng.uniform(0.18, 0.3)
            flights.append(
                Flight(
                    name,
                    [(token, True)],
                    [start],
                    [end],
                    t_lift,
                    t_land,
                    (name, "hand", 0),
                    (name, "trick", 0),
                    bend_mm=rng.uniform(-25, 25),
                    profile=SpeedProfile(a, rng.uniform(max(a, 0.38), 0.52)),
                )
            )
            events.append(TableEvent("play", t_land, 0, name, {"card": token}))
            on_table[seat] = (token, end)
            t = t_land
        elif kind == "Discard":
            # Discards (blind_cards > 0) are not filmed in this simulation; the default game has none.
            events.append(TableEvent("discard", t, 0, name, {"cards": [str(c) for c in action.cards]}))
        # The same trick history before and after: the last trick of a deal completes in it even when
        # the game moves straight on to the next deal.
        hist = state.tricks
        before = len(hist.completed) if hist is not None else 0
        state.apply_action(action)
        after = len(hist.completed) if hist is not None else before
        if hist is not None and after > before:
            winner = hist.completed[-1].winner
            wname = seats[winner]
            won = layout.slot(wname, "won", 0).pose
            t_lift = t + int(rng.uniform(900, 1400) * MS)
            t_land = t_lift + int(rng.uniform(400, 600) * MS)
            # The sweep: each card from its own spot onto the winner's won pile, face down.
            for s_ in sorted(on_table):
                token_s, pose_s = on_table[s_]
                flights.append(
                    Flight(
                        wname,
                        [(token_s, False)],
                        [pose_s],
                        [squared(won, rng, 1.5, 3.0)],
                        t_lift + s_ * 15 * MS,
                        t_land + s_ * 15 * MS,
                        (seats[s_], "trick", 0),
                        (wname, "won", 0),
                        flip=True,
                        profile=SpeedProfile(0.25, 0.5),
                        owner=seats[s_],
                    )
                )
            t_land += 3 * 15 * MS
            events.append(TableEvent("collect", t_land, 0, wname, {}))
            on_table = {}
            t = t_land
    designs = {s: design for s in seats}
    piles: dict[SlotKey, list[PileCard]] = {}
    scene = TableScene(layout, designs, piles, rng=random.Random(rng.getrandbits(32)))
    for f in flights:
        scene.add_flight(f)
    scene.finish()
    header = LogHeader(game_name, tuple(seats), {}, 1, {"source": "simulator", "design": design.name})
    return TrickSimulation(header, events, scene, layout, design)
