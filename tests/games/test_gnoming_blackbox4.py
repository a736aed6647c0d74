"""Fourth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs,
written from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: the turn sequence of §5,
the final turns of §5.5 and whole rounds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import HIDDEN, SEATS, fill, opening, pass_turn, replay


def _bob_goes_out() -> list[dict[str, Any]]:
    """Ana, Bob, Cy in turn; Bob fills his seven face-down cards and is the finisher."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy")
    return events + pass_turn("Ana") + fill("Bob", "33")


def _reveals() -> list[dict[str, Any]]:
    return [{"type": "reveal", "seat": s, "grid": ["G8", "G7"] + [c] * 7}
            for s, c in (("Ana", "G3"), ("Bob", "G5"), ("Cy", "G4"))]


def test_the_finishers_extra_turn_does_not_use_up_a_final_turn(tmp_path: Path) -> None:
    """§5.5: once Bob has no face-down card, "each other player then gets exactly one more
    turn". Bob playing again out of turn is an `out_of_turn` breach, but it is not Cy's or
    Ana's final turn: both still play theirs, and nothing after Bob's breach is `round_over`."""
    events = _bob_goes_out() + pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana") + _reveals()
    report = replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]


def test_after_a_final_turn_out_of_turn_the_finisher_has_no_turn(tmp_path: Path) -> None:
    """§5.5: the finisher gets no more turn. Ana takes her final turn before Cy's (one
    `out_of_turn`); Cy's final turn then follows and is no breach, as Bob has no turn to wait
    for. The round ends after it."""
    events = _bob_goes_out() + pass_turn("Ana") + pass_turn("Cy") + _reveals()
    report = replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
    assert any(r.kind == "round_end" for r in report.rulings)


def test_a_second_final_turn_by_the_same_seat_is_not_the_others_final_turn(tmp_path: Path) -> None:
    """§5.5: "exactly one more turn" for each other player. Cy plays his final turn and then
    again in Ana's place (`out_of_turn`): Ana still has her final turn, and the round ends after it."""
    events = _bob_goes_out() + pass_turn("Cy") + pass_turn("Cy") + pass_turn("Ana") + _reveals()
    report = replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
