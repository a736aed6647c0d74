"""A simulated Nerts table, as a camera-level table log: the kiosk's demo and its test hand.

Bots play real Nerts with the strict engine (:mod:`kiosk.games.nerts`): each
seat acts every few tenths of a second, plays to the foundations whenever it
can (Nerts pile first), builds its work piles from the Nerts pile and the
waste, turns its stock, declares itself stuck after two fruitless passes, and
calls "Nerts!" when its Nerts pile is empty. The log records what an overhead
camera would report (``rules/nerts.md`` §12): every foundation play with its
seat, card, pile, source and landing time (±4 ms), stuck declarations, the
call, each seat's Nerts count, and the hand's end.

Now and then another seat plays the same face onto the same pile a few
milliseconds after the winner: within the tie window (30 ms plus both
uncertainties) both cards stand; later, the latecomer must take its card back.
The generator keeps its own score of all this, independently of the referee,
so a test can check the kiosk's scores against it.

Regenerate the shipped demo with ``python -m kiosk.app.demo_table``.

>>> header, events, expected = simulate_nerts(seed=3, target_score=5)
>>> header.game, events[0].type, events[-1].type, sum(1 for e in events if e.type == "hand_end") >= 1
('nerts', 'hand_start', 'hand_end', True)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.games.nerts import NertsGame, NertsState
from kiosk.games.nerts_actions import (
    Build,
    Call,
    MoveBlock,
    NertsAction,
    Play,
    Recycle,
    SlideUnder,
    Stuck,
    Turn,
)
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.tablelog import write_table_log

__all__ = ["simulate_nerts", "Expected", "DEMO_SEATS"]

DEMO_SEATS = ("Ana", "Ben", "Cal", "Dee")
MS = 1_000_000
ERR_NS = 4 * MS


@dataclass
class Expected:
    """The generator's own bookkeeping of the scores."""

    hands: list[dict[str, int]] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    races: int = 0
    ties: int = 0


def _source_name(src: str) -> str:
    return {"N": "nerts", "W": "waste"}.get(src, f"work{src}")


def _choose(state: NertsState, seat: int, rng: random.Random, fruitless: list[int]) -> NertsAction | None:
    actions = state.legal_actions(seat)
    if not actions:
        return None
    plays = [a for a in actions if isinstance(a, Play) and a.declared is None]
    if plays:
        plays.sort(key=lambda a: (a.source != "N", a.source != "W", rng.random()))
        return plays[0]
    lay = state.layouts[seat]
    if any(isinstance(a, Call) for a in actions) and not lay.nerts:
        return next(a for a in actions if isinstance(a, Call))
    from_nerts = [a for a in actions if isinstance(a, (Build, SlideUnder)) and a.source == "N"]
    if from_nerts:
        return rng.choice(from_nerts)
    # Free a work pile for the Nerts card: move a whole pile onto another one.
    whole = [
        a
        for a in actions
        if isinstance(a, MoveBlock) and a.index == 0 and state.layouts[seat].work[a.to_work - 1]
    ]
    if whole and lay.nerts and rng.random() < 0.5:
        return rng.choice(whole)
    from_waste = [a for a in actions if isinstance(a, (Build, SlideUnder)) and a.source == "W"]
    if from_waste and rng.random() < 0.7:
        return rng.choice(from_waste)
    if fruitless[seat] >= 2 and not lay.stuck:
        stuck = [a for a in actions if isinstance(a, Stuck)]
        if stuck:
            return stuck[0]
    for kind in (Turn, Recycle):
        found = [a for a in actions if isinstance(a, kind)]
        if found:
            return found[0]
    return None


def _play_hand(
    state: NertsState,
    seats: Sequence[str],
    rng: random.Random,
    t0: int,
    events: list[TableEvent],
    exp: Expected,
    tie_window_ns: int,
) -> int:
    """Plays one hand from its deal; appends its events; returns the time it ended."""
    n = len(seats)
    next_t = [t0 + rng.randint(300, 900) * MS for _ in range(n)]
    pile_ids: list[str] = []
    extra_f = [0] * n
    fruitless = [0] * n
    passes_without_progress_guard = 0
    events.append(TableEvent("hand_start", t0))
    while state.phase == "play":
        seat = min(range(n), key=lambda s: next_t[s])
        t = next_t[seat]
        next_t[seat] = t + rng.randint(350, 900) * MS
        action = _choose(state, seat, rng, fruitless)
        passes_without_progress_guard += 1
        if action is None or passes_without_progress_guard > 20_000:
            # A seat with nothing at all to do declares itself stuck.
            action = Stuck(seat)
            if action not in state.legal_actions(seat):
                continue
        lay = state.layouts[seat]
        if isinstance(action, Recycle):
            fruitless[seat] += 1
        if isinstance(action, (Play, Build, SlideUnder)):
            fruitless = [0] * n
        pile_level_before = None
        if isinstance(action, Play) and action.pile is not None:
            pile_level_before = state.foundations[action.pile - 1].level
        state.apply_action(action)
        if isinstance(action, Play):
            pid = f"F{action.pile}" if action.pile is not None else f"F{len(state.foundations)}"
            if action.pile is None:
                pile_ids.append(pid)
            events.append(
                TableEvent(
                    "foundation_play",
                    t,
                    ERR_NS,
                    seats[seat],
                    {"card": action.card.face_str(), "pile": pid, "from": _source_name(action.source)},
                )
            )
            if pile_level_before is not None:
                _maybe_race(
                    state, seats, seat, action, pid, t, rng, events, exp, extra_f, tie_window_ns, next_t
                )
        elif isinstance(action, Stuck):
            events.append(TableEvent("stuck", t, 0, seats[seat]))
            if state.phase == "play" and not any(lay.stuck for lay in state.layouts):
                fruitless = [0] * n  # a reset happened
        elif isinstance(action, Call):
            events.append(TableEvent("call", t, 0, seats[seat]))
        del lay
    t_end = max(e.t_ns for e in events) + 2_000 * MS
    f = state.foundation_counts()
    scores = {}
    for s, name in enumerate(seats):
        left = len(state.layouts[s].nerts)
        events.append(TableEvent("count", t_end, 0, name, {"nerts": left}))
        scores[name] = (f[s] + extra_f[s]) - 2 * left
    events.append(TableEvent("hand_end", t_end + 500 * MS))
    exp.hands.append(scores)
    for name, x in scores.items():
        exp.totals[name] = exp.totals.get(name, 0) + x
    return t_end + 500 * MS


def _maybe_race(
    state: NertsState,
    seats: Sequence[str],
    seat: int,
    action: Play,
    pid: str,
    t: int,
    rng: random.Random,
    events: list[TableEvent],
    exp: Expected,
    extra_f: list[int],
    tie_window_ns: int,
    next_t: list[int],
) -> None:
    """Sometimes another seat lands the same face on the same pile just after ``seat``."""
    if rng.random() > 0.6:
        return
    face = action.card
    for other in rng.sample(range(len(seats)), len(seats)):
        if other == seat:
            continue
        src = state.layouts[other].find_available(face)
        if src is None:
            continue
        gap = rng.choice([rng.randint(5, 25), rng.randint(45, 140)]) * MS
        tie = gap <= tie_window_ns + 2 * ERR_NS
        events.append(
            TableEvent(
                "foundation_play",
                t + gap,
                ERR_NS,
                seats[other],
                {"card": face.face_str(), "pile": pid, "from": _source_name(src)},
            )
        )
        if tie:
            exp.ties += 1
            extra_f[other] += 1
            lay = state.layouts[other]
            if src == "N":
                lay.nerts.pop()
            elif src == "W":
                lay.waste.pop()
            else:
                lay.work[int(src) - 1].pop()
        else:
            exp.races += 1
        # Nobody else lands anything until the race is over.
        for s in range(len(next_t)):
            next_t[s] = max(next_t[s], t + gap + 150 * MS)
        return


def simulate_nerts(
    *,
    seed: int = 1,
    seats: Sequence[str] = DEMO_SEATS,
    target_score: int = 30,
    max_hands: int = 12,
) -> tuple[LogHeader, list[TableEvent], Expected]:
    """Plays a seeded Nerts game of bots until one seat alone has ``target_score`` or more
    (by the generator's own count, ties included); returns the header, events and expected scores."""
    rng = random.Random(seed)
    options: dict[str, object] = {"target_score": target_score}
    game = NertsGame(options, seats=list(seats))
    state = game.new_initial_state()
    events: list[TableEvent] = []
    exp = Expected()
    t = 1_000 * MS
    for _ in range(max_hands):
        best = max(exp.totals.values(), default=0)
        if best >= target_score and list(exp.totals.values()).count(best) == 1 or state.is_terminal():
            break
        state.apply_action(state.sample_chance(rng))
        t = _play_hand(state, seats, rng, t, events, exp, game.options.tie_window_ms * MS) + 3_000 * MS
    header = LogHeader("nerts", tuple(seats), options, meta={"demo": f"simulated table, seed {seed}"})
    return header, events, exp


def main(argv: list[str] | None = None) -> int:
    out = Path(__file__).resolve().parent / "demo" / "nerts_hand.jsonl"
    header, events, exp = simulate_nerts(seed=7)
    with out.open("w", encoding="utf-8") as f:
        f.write("# A simulated Nerts game (bots, seed 7): made by python -m kiosk.app.demo_table\n")
        write_table_log(f, header, events)
    print(
        f"{out.name}: {len(events)} events, {len(exp.hands)} hands, {exp.races} races, {exp.ties} ties, "
        f"totals {exp.totals}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
