"""Fourth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs,
written from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: the turn sequence of §5,
the final turns of §5.5 and whole rounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.games.referee import RefereeReport
from kiosk.replay import replay_events
from kiosk.tablelog import read_table_log

SEATS = ["Ana", "Bob", "Cy"]
HIDDEN = ["13", "21", "22", "23", "31", "32", "33"]


def _replay(tmp_path: Path, events: list[dict[str, Any]], seats: list[str] | None = None,
            options: dict[str, Any] | None = None) -> RefereeReport:
    path = tmp_path / "log.jsonl"
    header = {"table_log": 1, "game": "gnoming", "seats": seats or SEATS, "options": options or {}}
    lines = [header] + [{"t": n + 1, **e} for n, e in enumerate(events)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return replay_events(*read_table_log(path))


def _opening(seats: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": seats[0], "piles": {"A": "G3", "B": "G4"}}]
    for s in seats:
        events += [{"type": "flip", "seat": s, "pos": "11", "card": "G8"},
                   {"type": "flip", "seat": s, "pos": "12", "card": "G7"}]
    return events


def _pass(seat: str, card: str = "G6") -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "discard", "seat": seat, "card": card, "pile": "A"}]


def _fill(seat: str, pos: str) -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "keep", "seat": seat, "pos": pos, "card": "G5", "out": "G-1"},
            {"type": "discard", "seat": seat, "card": "G-1", "pile": "A"}]


def _bob_goes_out() -> list[dict[str, Any]]:
    """Ana, Bob, Cy in turn; Bob fills his seven face-down cards and is the finisher."""
    events = _opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += _pass("Ana") + _fill("Bob", pos) + _pass("Cy")
    return events + _pass("Ana") + _fill("Bob", "33")


def _reveals() -> list[dict[str, Any]]:
    return [{"type": "reveal", "seat": s, "grid": ["G8", "G7"] + [c] * 7}
            for s, c in (("Ana", "G3"), ("Bob", "G5"), ("Cy", "G4"))]


def test_the_finishers_extra_turn_does_not_use_up_a_final_turn(tmp_path: Path) -> None:
    """§5.5: once Bob has no face-down card, "each other player then gets exactly one more
    turn". Bob playing again out of turn is an `out_of_turn` breach, but it is not Cy's or
    Ana's final turn: both still play theirs, and nothing after Bob's breach is `round_over`."""
    events = _bob_goes_out() + _pass("Bob") + _pass("Cy") + _pass("Ana") + _reveals()
    report = _replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]


def test_after_a_final_turn_out_of_turn_the_finisher_has_no_turn(tmp_path: Path) -> None:
    """§5.5: the finisher gets no more turn. Ana takes her final turn before Cy's (one
    `out_of_turn`); Cy's final turn then follows and is no breach, as Bob has no turn to wait
    for. The round ends after it."""
    events = _bob_goes_out() + _pass("Ana") + _pass("Cy") + _reveals()
    report = _replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
    assert any(r.kind == "round_end" for r in report.rulings)


def test_a_second_final_turn_by_the_same_seat_is_not_the_others_final_turn(tmp_path: Path) -> None:
    """§5.5: "exactly one more turn" for each other player. Cy plays his final turn and then
    again in Ana's place (`out_of_turn`): Ana still has her final turn, and the round ends after it."""
    events = _bob_goes_out() + _pass("Cy") + _pass("Cy") + _pass("Ana") + _reveals()
    report = _replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["out_of_turn"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
