"""Golden playthrough of Gnoming A Round: a seeded bot game (one round, two seats)
written out step by step, diffed on every run.

After an intended change, regenerate it with
``GNOMING_REGENERATE=1 pytest tests/games/test_gnoming_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

from kiosk.games.gnoming import GnomingGame
from kiosk.games.gnoming_actions import Draw
from kiosk.games.gnoming_bots import play_bot_game

PLAYTHROUGH = Path(__file__).resolve().parent / "data" / "gnoming_playthrough.txt"


def playthrough_text() -> str:
    game = GnomingGame({"rounds": 1}, seats=["Eve", "Finn"])
    final = play_bot_game(game, seed=2008)
    state = game.new_initial_state()
    lines = [f"# Gnoming A Round playthrough: {game!r}; GnomingBot per seat, play_bot_game seed 2008.",
             "# Every action; 'state' before each turn's draw and at the end.",
             f"state {state.notation()}"]
    for action in final.history():
        if isinstance(action, Draw):
            lines.append(f"state {state.notation()}")
        state.apply_action(action)
        lines.append(f"action {action}")
    lines.append(f"state {state.notation()}")
    view = state.public_view()
    for seat, scored in zip(game.seats, view.grid_scores, strict=True):
        lines.append(f"grid {seat}: {scored.describe()}")
    lines.append(f"scores {state.scores} returns {state.returns()} winners {state.winners()}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    text = playthrough_text()
    if os.environ.get("GNOMING_REGENERATE"):
        PLAYTHROUGH.write_text(text, encoding="utf-8")
    assert PLAYTHROUGH.read_text(encoding="utf-8") == text, "the playthrough differs; see the docstring"
