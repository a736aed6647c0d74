"""Gnoming A Round table logs for the black-box tests: three seats, a round's opening flips, and
turns that pass or fill a face-down place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.games.referee import RefereeReport
from tests.games.replay_logs import replay_in_process

SEATS = ["Ana", "Bob", "Cy"]
HIDDEN = ["13", "21", "22", "23", "31", "32", "33"]


def replay(tmp_path: Path, events: list[dict[str, Any]], seats: list[str] | None = None,
            options: dict[str, Any] | None = None) -> RefereeReport:
    header = {"table_log": 1, "game": "gnoming", "seats": seats or SEATS, "options": options or {}}
    timed = [{"t": n + 1, **e} for n, e in enumerate(events)]
    return replay_in_process(tmp_path / "log.jsonl", header, timed)


def opening(seats: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": seats[0], "piles": {"A": "G3", "B": "G4"}}]
    for s in seats:
        events += [{"type": "flip", "seat": s, "pos": "11", "card": "G8"},
                   {"type": "flip", "seat": s, "pos": "12", "card": "G7"}]
    return events


def pass_turn(seat: str, card: str = "G6") -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "discard", "seat": seat, "card": card, "pile": "A"}]


def fill(seat: str, pos: str) -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "keep", "seat": seat, "pos": pos, "card": "G5", "out": "G-1"},
            {"type": "discard", "seat": seat, "card": "G-1", "pile": "A"}]
