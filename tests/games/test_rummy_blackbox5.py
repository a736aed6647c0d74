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


def test_a_table_the_largest_hand_can_be_dealt_to_is_refereed(tmp_path: Path) -> None:
    """§2: two or more players, no upper limit; §6.1: every pile holds a card to draw, and §6.2
    re-forms a short pool. Fourteen seats with four decks can be dealt hand 11 (14 x 13 cards
    plus 14 pile cards = 196 of 208), so the log is refereed, not refused; so is a table of
    more than 40 seats with the decks it needs."""
    seats = [f"P{i}" for i in range(14)]
    piles = dict.fromkeys(seats, "2C")
    report = _replay(tmp_path, {"hands": [13]}, [
        {"type": "hand_start", "hand": 1, "piles": piles},
        {"type": "match", "seat": "P0", "cards": ["KS"] * 13},
    ], seats)
    assert [r["kind"] for r in report["rulings"]] == ["hand_start", "match"]
    seats = [f"P{i}" for i in range(45)]
    report = _replay(tmp_path, {"hands": [3], "decks": 4}, [
        {"type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")},
    ], seats)
    assert [r["kind"] for r in report["rulings"]] == ["hand_start"]
    # 45 x (13 + 1) cards need 13 decks (676 cards): a deck count §10 does not forbid.
    report = _replay(tmp_path, {"decks": 13}, [
        {"type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")},
    ], seats)
    assert report["rulings"][0]["text"] == "hand 1: 3 cards each, 3s wild"
