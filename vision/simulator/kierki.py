"""A simulated Kierki match (``rules/kierki.md``) as an overhead camera films it, with its ground truth.

Heuristic bots from :mod:`kiosk.games.kierki_bots` play the first ``deals`` deals of a match
(all 12 by default in ``kiosk simulate``) on :class:`vision.layout.TrickLayout`:

- **trick deals** (1 to 11): each card comes from its player's edge to that seat's spot; the
  trick's winner sweeps the four cards face down onto its won pile (as for Smear);
- **trump deals** (8 to 11, §4): the dealer deals five cards each, names trumps on the kiosk's
  buttons (a ``trump`` event: nothing to film), then deals the rest;
- **Fan Tan** (12, §8): each card goes to its place in the suit rows in the middle, a pass is a
  button press, and once the second player is out the two players left lay the cards they
  still hold face up in front of them (the ``reveal`` the referee asks for, §13.3);
- **between deals** the next dealer gathers every won pile off the table (face down).

The ground truth uses the Kierki events of ``docs/table-log.md``: ``deal`` (with its number),
``trump``, ``play`` (at the exact landing time), ``collect`` (when the sweep lands), ``pass``
and ``reveal`` (when the last card shown lands).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kiosk.games.cards import Card
from kiosk.games.kierki.actions import NameTrump, Pass, PlayCard
from kiosk.games.kierki.game import KierkiGame
from kiosk.games.kierki.state import KierkiState, Phase
from kiosk.games.kierki_bots import HeuristicKierkiBot
from kiosk.games.referee import LogHeader, TableEvent
from vision.cardart import list_designs
from vision.layout import Pose, TrickLayout, hand_pose
from vision.simulator.motion import Flight, SpeedProfile
from vision.simulator.scene import TableScene
from vision.simulator.tricks import MS, TrickSimulation, play_flight, sweep_flights

__all__ = ["simulate_kierki_match", "BUTTON_EVENTS"]

BUTTON_EVENTS = ("deal", "misdeal", "trump", "pass")
"""Kierki events entered at the kiosk (no card to film)."""


def simulate_kierki_match(
    seed: int,
    *,
    seats: Sequence[str] = ("Ana", "Ben", "Cal", "Dee"),
    split: str = "heldout",
    start_ns: int = 1_000_000_000,
    deals: int = 12,
) -> TrickSimulation:
    """Plays the first ``deals`` deals of a match with bots and builds the scene that shows them.

    Raises ValueError for a seat count other than four or a deal count outside 1 to 12.
    """
    if len(seats) != 4:
        raise ValueError(f"kierki is played by four seats, got {len(seats)}")
    game = KierkiGame({}, seats=tuple(seats))
    state: KierkiState = game.new_initial_state()
    if not 1 <= deals <= len(state.deals):
        raise ValueError(f"a Kierki match has {len(state.deals)} deals; asked for {deals}")
    rng = random.Random(seed)
    layout = TrickLayout(list(seats))
    pool = list_designs(split)  # type: ignore[arg-type]
    design = pool[rng.randrange(len(pool))]
    bots = [HeuristicKierkiBot() for _ in range(4)]
    events: list[TableEvent] = []
    flights: list[Flight] = []
    won: dict[str, list[tuple[str, str, Pose]]] = {s: [] for s in seats}
    on_table: dict[str, tuple[str, Pose]] = {}
    t = start_ns
    started = -1
    while not state.is_terminal():
        if state.is_chance_node():
            if state.phase in (Phase.DEAL, Phase.DEAL_FIRST) and state.deal_index != started:
                if state.deal_index >= deals:
                    break
                if started >= 0:
                    dealer = seats[state.dealer] if state.dealer is not None else seats[0]
                    gathered, t = _gather(layout, dealer, won, t, rng)
                    flights.extend(gathered)
                started = state.deal_index
                state.apply_action(state.sample_chance(rng))
                assert state.dealer is not None
                events.append(TableEvent("deal", t, 0, seats[state.dealer], {"deal": state.deal_index + 1}))
                continue
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        name = seats[seat]
        action = bots[seat].choose(state)
        t += int(rng.uniform(600, 1300) * MS)
        if isinstance(action, NameTrump):
            events.append(TableEvent("trump", t, 0, name, {"suit": action.suit.letter}))
            state.apply_action(action)
            continue
        if isinstance(action, Pass):
            events.append(TableEvent("pass", t, 0, name, {}))
            state.apply_action(action)
            continue
        assert isinstance(action, PlayCard)
        token = str(action.card)
        fan_tan = state.phase is Phase.FAN_TAN
        if fan_tan:
            flight = play_flight(layout, name, token, layout.fan_tan_slot(token).pose, t, rng, (1.5, 2.0))
        else:
            flight = play_flight(layout, name, token, layout.slot(name, "trick", 0).pose, t, rng)
        end = flight.end[0]
        flights.append(flight)
        t = flight.t_land_ns
        events.append(TableEvent("play", t, 0, name, {"card": token}))
        held = [list(state.hand(s)) for s in range(4)]
        held[seat].remove(action.card)
        number = state.deal_index
        hist = state.tricks
        before = len(hist.completed) if hist is not None else 0
        state.apply_action(action)
        if fan_tan:
            if state.deal_index != number:
                shown, t = _reveal(layout, seats, held, t, rng, events)
                flights.extend(shown)
            continue
        on_table[name] = (token, end)
        assert hist is not None
        if len(hist.completed) > before:
            winner = seats[hist.completed[-1].winner]
            swept, landed, t = sweep_flights(layout, winner, on_table, t, rng)
            flights.extend(swept)
            won[winner].extend(landed)
            events.append(TableEvent("collect", t, 0, winner, {}))
            on_table = {}
    scene = TableScene(layout, {s: design for s in seats}, {}, rng=random.Random(rng.getrandbits(32)))
    for f in flights:
        scene.add_flight(f)
    scene.finish()
    header = LogHeader("kierki", tuple(seats), {}, 1, {"source": "simulator", "design": design.name})
    return TrickSimulation(header, events, scene, layout, design)


def _gather(
    layout: TrickLayout,
    dealer: str,
    won: dict[str, list[tuple[str, str, Pose]]],
    t: int,
    rng: random.Random,
) -> tuple[list[Flight], int]:
    """The next dealer gathers every won pile off the table, face down, one pile after another."""
    flights: list[Flight] = []
    t += int(rng.uniform(800, 1200) * MS)
    for seat in layout.seats:
        cards = won[seat]
        if not cards:
            continue
        t_land = t + int(rng.uniform(350, 500) * MS)
        # One packet per deck owner: the scene follows each card by its owner's deck.
        for owner in layout.seats:
            mine = [(tok, pose) for tok, o, pose in cards if o == owner]
            if not mine:
                continue
            target = hand_pose(layout, dealer, rng.uniform(-40, 40))
            flights.append(
                Flight(
                    dealer,
                    [(tok, False) for tok, _ in mine],
                    [pose for _, pose in mine],
                    [target for _ in mine],
                    t,
                    t_land,
                    (seat, "won", 0),
                    (dealer, "hand", 0),
                    owner=owner,
                )
            )
        won[seat] = []
        t = t_land + int(rng.uniform(150, 300) * MS)
    return flights, t + int(rng.uniform(1500, 2500) * MS)


def _reveal(
    layout: TrickLayout,
    seats: Sequence[str],
    held: list[list[Card]],
    t: int,
    rng: random.Random,
    events: list[TableEvent],
) -> tuple[list[Flight], int]:
    """After Fan Tan, each seat still holding cards lays them face up in front of it (§13.3)."""
    flights: list[Flight] = []
    for seat, cards in enumerate(held):
        if not cards:
            continue
        name = seats[seat]
        slot = layout.slot(name, "table", 0)
        t += int(rng.uniform(700, 1100) * MS)
        for j, card in enumerate(cards):
            flight = play_flight(layout, name, str(card), slot.card_pose(j), t, rng, (1.0, 1.5))
            flight.dest = (name, "table", 0)
            flight.profile = SpeedProfile(0.2, 0.45)
            flights.append(flight)
            t = flight.t_land_ns + int(rng.uniform(150, 300) * MS)
        events.append(
            TableEvent("reveal", flights[-1].t_land_ns, 0, name, {"cards": [str(c) for c in cards]})
        )
    return flights, t
