"""Fifth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: the variant options of §11 and the
end of the game (§7) with the table's score corrections."""

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


def test_the_game_end_ruling_names_the_winner_on_corrected_scores(tmp_path: Path) -> None:
    """docs/table-log.md: "The end of the game and its winners follow the corrected scores".
    One round (option rounds = 1): Bob wins on -5, but the table corrects his round to 10, so
    Cy (8) wins, and the game_end ruling must say so as the winners do, whether the correction
    comes before or after the round is scored."""
    correction = {"type": "score_correction", "seat": "Bob", "hand": 1, "score": 10}
    for events in (_bob_goes_out() + _reveals() + [correction],
                   _bob_goes_out() + [correction] + _reveals()):
        report = replay(tmp_path, events, options={"rounds": 1})
        assert report.hands == [{"Ana": 6, "Bob": 10, "Cy": 3}]
        assert report.winners == ["Cy"]
        end = [r for r in report.rulings if r.kind == "game_end"]
        assert [(r.text, r.seats) for r in end] == [("game over: Cy wins", ("Cy",))]
