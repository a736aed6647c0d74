"""Golden playthrough of 3-13 Speed: a seeded bot game (hands of 3 and 4 cards, three
seats) written out step by step, diffed on every run.

After an intended change, regenerate it with
``RUMMY_REGENERATE=1 pytest tests/games/test_rummy_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

from kiosk.games.rummy import Rummy313Game
from kiosk.games.rummy_actions import Call, Deal
from kiosk.games.rummy_bots import play_bot_game

PLAYTHROUGH = Path(__file__).resolve().parent / "data" / "rummy_3_13_playthrough.txt"


def playthrough_text() -> str:
    game = Rummy313Game({"hands": [3, 4]}, seats=["Ana", "Ben", "Cal"])
    final = play_bot_game(game, seed=313)
    state = game.new_initial_state()
    lines = [f"# 3-13 Speed playthrough: {game!r}; RummyBot per seat, play_bot_game seed 313.",
             "# Every action; 'state' after each deal and each call; 'cadence' after each call.",
             f"state {state.notation()}"]
    for action in final.history():
        state.apply_action(action)
        lines.append(f"action {action}")
        if isinstance(action, (Deal, Call)):
            lines.append(f"state {state.notation()}")
            c = state.cadence()
            lines.append(f"cadence {c.phase} final={c.final_round} draw={list(c.waiting_to_draw)} "
                         f"hold={list(c.waiting_to_hold)} call_draw={c.may_call_draw} "
                         f"call_discard={c.may_call_discard}")
    lines.append(f"scores {state.scores} returns {state.returns()} winners {state.winners()}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    text = playthrough_text()
    if os.environ.get("RUMMY_REGENERATE"):
        PLAYTHROUGH.write_text(text, encoding="utf-8")
    assert PLAYTHROUGH.read_text(encoding="utf-8") == text, "the playthrough differs; see the docstring"
