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
from vision.simulator.scene import TableScene, squared

__all__ = ["TrickSimulation", "simulate_smear", "simulate_kierki", "play_flight", "sweep_flights"]

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
    deals: int = 1,
) -> TrickSimulation:
    """Plays the first ``deals`` deals of a Kierki match (``rules/kierki.md``; 12 is the whole
    match) with bots and builds the scene that shows them; see :mod:`vision.simulator.kierki`."""
    from vision.simulator.kierki import simulate_kierki_match

    return simulate_kierki_match(seed, seats=seats, split=split, start_ns=start_ns, deals=deals)


def play_flight(
    layout: TrickLayout,
    name: str,
    token: str,
    spot: Pose,
    t_lift: int,
    rng: random.Random,
    spread: tuple[float, float] = (6.0, 6.0),
) -> Flight:
    """A card from ``name``'s hand (held above its edge, not filmed) to near ``spot`` (``spread``:
    the offset in mm and the turn in degrees it lands with), face up."""
    place = layout.place_of(name)
    start = place.pose(rng.uniform(-60, 60), 150.0, rng.gauss(0, 8))
    end = squared(spot, rng, *spread)
    t_land = t_lift + int(rng.uniform(280, 450) * MS)
    a = rng.uniform(0.18, 0.3)
    return Flight(
        name,
        [(token, True)],
        [start],
        [end],
        t_lift,
        t_land,
        (name, "hand", 0),
        (end_key(layout, end)),
        bend_mm=rng.uniform(-25, 25),
        profile=SpeedProfile(a, rng.uniform(max(a, 0.38), 0.52)),
    )


def end_key(layout: TrickLayout, end: Pose) -> SlotKey:
    """The slot a pose lies on (the nearest), for the scene's piles."""
    best = min(layout.slots.values(), key=lambda s: (s.pose.x - end.x) ** 2 + (s.pose.y - end.y) ** 2)
    return best.key


def sweep_flights(
    layout: TrickLayout,
    winner: str,
    on_table: dict[str, tuple[str, Pose]],
    t: int,
    rng: random.Random,
) -> tuple[list[Flight], list[tuple[str, str, Pose]], int]:
    """The trick's taker sweeps each card from its spot face down onto its won pile.

    Returns the flights, the cards as they lie on the won pile (token, owner, pose) and the
    time the sweep is done."""
    won = layout.slot(winner, "won", 0).pose
    t_lift = t + int(rng.uniform(900, 1400) * MS)
    t_land = t_lift + int(rng.uniform(400, 600) * MS)
    flights: list[Flight] = []
    landed: list[tuple[str, str, Pose]] = []
    for k, owner in enumerate(sorted(on_table, key=layout.seats.index)):
        token, pose = on_table[owner]
        end = squared(won, rng, 1.5, 3.0)
        flights.append(
            Flight(
                winner,
                [(token, False)],
                [pose],
                [end],
                t_lift + k * 15 * MS,
                t_land + k * 15 * MS,
                (owner, "trick", 0),
                (winner, "won", 0),
                flip=True,
                profile=SpeedProfile(0.25, 0.5),
                owner=owner,
            )
        )
        landed.append((token, owner, end))
    return flights, landed, t_land + 3 * 15 * MS


def _simulate(game_name: str, seed: int, seats: Sequence[str], split: str, start_ns: int) -> TrickSimulation:
    if len(seats) != 4:
        raise ValueError(f"{game_name} is played by four seats, got {len(seats)}")
    rng = random.Random(seed)
    state = SmearGame({}).new_initial_state()
    bots = [HeuristicSmearBot(rng.getrandbits(32)) for _ in range(4)]
    layout = TrickLayout(list(seats))
    pool = list_designs(split)  # type: ignore[arg-type]
    design = pool[rng.randrange(len(pool))]
    events: list[TableEvent] = []
    flights: list[Flight] = []
    t = start_ns
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    assert state.dealer is not None
    events.append(TableEvent("deal", t, 0, seats[state.dealer], {}))
    on_table: dict[str, tuple[str, Pose]] = {}
    while not state.is_terminal() and not state.is_chance_node():
        seat = state.current_player()
        action: Any = bots[seat].choose(state)
        t += int(rng.uniform(500, 1300) * MS)
        name = seats[seat]
        kind = type(action).__name__
        if kind == "Bid":
            events.append(TableEvent("bid", t, 0, name, {"bid": action.bid}))
        elif kind == "Pass":
            events.append(TableEvent("pass", t, 0, name, {}))
        elif kind == "PlayCard":
            token = str(action.card)
            flight = play_flight(layout, name, token, layout.slot(name, "trick", 0).pose, t, rng)
            flights.append(flight)
            events.append(TableEvent("play", flight.t_land_ns, 0, name, {"card": token}))
            on_table[name] = (token, flight.end[0])
            t = flight.t_land_ns
        elif kind == "Discard":
            # Discards (blind_cards > 0) are not filmed in this simulation; the default game has none.
            events.append(TableEvent("discard", t, 0, name, {"cards": [str(c) for c in action.cards]}))
        # The same trick history before and after: the last trick of a hand completes in it even when
        # the game moves straight on to the next hand.
        hist = state.tricks
        before = len(hist.completed) if hist is not None else 0
        state.apply_action(action)
        after = len(hist.completed) if hist is not None else before
        if hist is not None and after > before:
            wname = seats[hist.completed[-1].winner]
            swept, _, t = sweep_flights(layout, wname, on_table, t, rng)
            flights.extend(swept)
            events.append(TableEvent("collect", t, 0, wname, {}))
            on_table = {}
    scene = TableScene(layout, {s: design for s in seats}, {}, rng=random.Random(rng.getrandbits(32)))
    for f in flights:
        scene.add_flight(f)
    scene.finish()
    header = LogHeader(game_name, tuple(seats), {}, 1, {"source": "simulator", "design": design.name})
    return TrickSimulation(header, events, scene, layout, design)
