"""Golden files of Smear: a seeded bot game step by step, and the shipped example log.

Both are rebuilt from code on every run and compared with the files; after an
intended change, regenerate them with ``SMEAR_REGENERATE=1 pytest tests/games/test_smear_golden.py``
and review the diff.
"""

from __future__ import annotations

import dataclasses
import io
import os
import random
from pathlib import Path

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.games.smear import SmearGame
from kiosk.games.smear_bots import HeuristicSmearBot
from kiosk.tablelog import write_table_log
from tests.games.smear_fixtures import EX_13_1, EX_13_2, EX_13_3, EX_13_4, EventClock, example_events

ROOT = Path(__file__).resolve().parents[2]
PLAYTHROUGH = ROOT / "tests" / "games" / "data" / "smear_playthrough.txt"
EXAMPLE_LOG = ROOT / "examples" / "smear_example.jsonl"
NAMES = {"N": "Ana", "E": "Ben", "S": "Cal", "W": "Dee"}


def _check(path: Path, text: str) -> None:
    if os.environ.get("SMEAR_REGENERATE"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path.name} differs; see the module docstring"


def playthrough_text() -> str:
    """A seeded game of heuristic bots (blind of 2, game to 7): each action, then the state."""
    game = SmearGame({"blind_cards": 2, "target_score": 7, "first_dealer": "E"})
    rng = random.Random(2024)
    bots = [HeuristicSmearBot(random.Random(s)) for s in range(4)]
    state = game.new_initial_state()
    lines = [f"# Smear playthrough: {game!r}, deals seeded 2024, heuristic bots seeded 0..3",
             f"state {state.notation()}"]
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            lines.append(f"legal {' , '.join(str(a) for a in state.legal_actions()[:12])}")
            action = bots[state.current_player()].choose(state)
        state.apply_action(action)
        lines.append(f"action {action}")
        lines.append(f"state {state.notation()}")
    lines.append(f"returns {state.returns()}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    _check(PLAYTHROUGH, playthrough_text())


def example_log_text() -> str:
    """The shipped example: hands 13.1 to 13.4, an all-pass, and 13.2 again with Ana dealing."""
    clock = EventClock()
    h1 = example_events(EX_13_1, clock)
    h1.insert(5, TableEvent("trump", 0, seat="S", data={"suit": "H"}))  # announced on the touchscreen
    h1.insert(10, TableEvent("collect", 0))  # the first trick swept in front of the camera
    events = [*h1, TableEvent("blind", 0, data={"cards": "AD 9S 7S JS 8D 7D QC JC".split()})]
    h2 = example_events(EX_13_2, clock)
    h2.insert(4, TableEvent("play", 0, seat="W", data={"card": "9D"}))  # out of turn: refused
    events += h2 + example_events(EX_13_3, clock) + example_events(EX_13_4, clock)
    events += [TableEvent("deal", 0, seat="N"), *[TableEvent("pass", 0, seat=s) for s in "ESWN"],
               TableEvent("note", 0, data={"text": "all passed; Ana deals again"})]
    events += example_events(EX_13_2, clock, dealer="N", auction=["E:pass", "S:pass", "W:pass", "N:bid 4"])
    timed = [
        dataclasses.replace(e, t_ns=(10 + i) * 2_500_000_000, err_ns=16_000_000 if e.type == "play" else 0,
                            seat=NAMES[e.seat] if e.seat else None)
        for i, e in enumerate(events)
    ]
    header = LogHeader("smear", tuple(NAMES.values()), {"blind_cards": 0},
                       meta={"date": "2026-11-28", "kiosk": "demo"})
    buf = io.StringIO()
    buf.write("# Four-Point Northeastern Wisconsin Smear: hands 13.1 to 13.4 of rules/smear.md,\n")
    buf.write("# an all-pass, and hand 13.2 again with Ana dealing. Ana & Cal (N-S) win 16 to -1.\n")
    write_table_log(buf, header, timed)
    return buf.getvalue()


def test_example_log_is_built_from_the_worked_examples() -> None:
    _check(EXAMPLE_LOG, example_log_text())
