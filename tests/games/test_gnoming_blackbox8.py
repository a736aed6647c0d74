"""Eighth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: whole games over several rounds, who
starts each round, final turns, the draw pile running out, the end of the game (§7) and the
table's score corrections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import HIDDEN, SEATS, fill, opening, pass_turn, replay


def _bob_goes_out() -> list[dict[str, Any]]:
    """Ana, Bob, Cy in turn; Bob fills his seven face-down cards and is the finisher."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy")
    return events + pass_turn("Ana") + fill("Bob", "33") + pass_turn("Cy") + pass_turn("Ana")


def _reveals() -> list[dict[str, Any]]:
    """Grid scores Ana 6, Bob 0 and Cy 3; Bob, the finisher, is lowest: round scores 6, -5, 3."""
    return [{"type": "reveal", "seat": s, "grid": ["G8", "G7"] + [c] * 7}
            for s, c in (("Ana", "G3"), ("Bob", "G5"), ("Cy", "G4"))]


def test_a_correction_to_a_hand_past_the_last_round_does_not_become_the_tie_break(tmp_path: Path) -> None:
    """§7: a tie on the lowest total goes to the tied player with the lowest score in the game's
    last round (docs/table-log.md: "lowest total, then lowest last round"). With rounds = 1 the
    round scores are Ana 6, Bob -5, Cy 3; the table then logs a correction for a hand 2 that the
    game never has (Bob 11, Cy 3), which brings every total to 6. The tie-break is still round 1,
    the game's last round, where Bob's -5 is lowest: the correction's phantom hand, where Ana's
    0 would be lowest, is no round of the game."""
    fixes = [{"type": "score_correction", "seat": "Bob", "hand": 2, "score": 11},
             {"type": "score_correction", "seat": "Cy", "hand": 2, "score": 3}]
    report = replay(tmp_path, _bob_goes_out() + _reveals() + fixes, options={"rounds": 1})
    assert report.totals == {"Ana": 6, "Bob": 6, "Cy": 6}
    assert report.winners == ["Bob"]
    end = [r for r in report.rulings if r.kind == "game_end"]
    assert [(r.text, r.seats) for r in end] == [("game over: Bob wins", ("Bob",))]
