"""3-13 Speed, fifth outside round: table logs written from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone (the variant options of §10 above all), replayed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal", "Dee"]
PILES = {"Ana": "2S", "Ben": "10C", "Cal": "7D", "Dee": "9H"}


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]],
            seats: list[str] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats or SEATS, "options": options}
    lines = [header] + [{"t": round(0.1 * (i + 1), 1), **ev} for i, ev in enumerate(events)]
    return replay(tmp_path, lines)


def _kinds(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(i["kind"], i["seat"]) for i in report["infractions"]]


def test_only_the_tied_seats_cards_decide_the_caller_on_a_redraw(tmp_path: Path) -> None:
    """§2: players who tie for highest draw again *among themselves*. Cal, who did not tie,
    drawing the highest card in the second draw is a breach (``caller_draw_seats``), and his
    card does not make him the caller: of the tied seats Ben drew higher."""
    report = _replay(tmp_path, {"hands": [3]}, [
        {"type": "caller_draw", "cards": {"Ana": "KS", "Ben": "KC", "Cal": "AD", "Dee": "AH"}},
        {"type": "caller_draw", "cards": {"Ana": "2S", "Ben": "3C", "Cal": "QD"}},
    ])
    assert _kinds(report) == [("caller_draw_seats", None)]
    assert [r["kind"] for r in report["rulings"]] == ["caller_tie", "caller"]
    assert report["rulings"][-1]["seats"] == ["Ben"]
    assert report["extra"]["caller"] == "Ben"
