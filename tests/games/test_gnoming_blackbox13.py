"""Thirteenth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone, for what a differential oracle of the
grid scoring, the round's end and the game's end found the referee getting wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay_main
from tests.games.test_gnoming_blackbox12 import FILL, _cards, _round

SEATS = ["Eve", "Finn"]


def _lines(events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    """The header and ``events``, one second apart."""
    header = {"table_log": 1, "game": "gnoming", "seats": SEATS, "options": {"rounds": 1, **options}}
    return [header, *({"t": n + 1, **e} for n, e in enumerate(events))]


def test_the_discard_that_ends_the_round_logged_twice_is_one_discard(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md 'Lines logged twice', §5.5: Finn goes out first and Eve's final turn ends
    the round with her discard. The camera logs that discard twice at the same time: a card
    discarded has left the player's hand, so the repeat is the same event (ignored, noted), not a
    discard after the round was over. Eve scores 40 (§10 example 1), Finn 36 - 5 (lowest, §6.3)."""
    lines = _lines(_round({"Eve": _cards("8 3 -2 5 H 6 -1 7 4"), "Finn": FILL}, "Finn"))
    last = max(n for n, e in enumerate(lines) if e.get("type") == "discard")
    lines.insert(last + 1, dict(lines[last]))
    report = replay_main(tmp_path, lines, capsys)
    assert report["infractions"] == []
    assert report["hands"] == [{"Eve": 40, "Finn": 31}]
    assert any("logged twice" in note for note in report["notes"])
