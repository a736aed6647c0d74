"""3-13 Speed: a ninth outsider's table logs, built as a state x event matrix from
``rules/rummy_3_13.md`` and ``docs/table-log.md`` alone and replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal"]
PILES = {"Ana": "2S", "Ben": "9D", "Cal": "KC"}


def _lines(events: list[dict[str, Any]], options: dict[str, Any]) -> list[dict[str, Any]]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": SEATS, "options": options}
    return [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)]


def _replay(tmp_path: Path, events: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    return replay(tmp_path, _lines(events, options))


def _kinds(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(i["kind"], i["seat"]) for i in report["infractions"]]


def _round(seats: list[str], discards: dict[str, str]) -> list[dict[str, Any]]:
    """One normal round with pool draws: "draw", draws, holds, "discard", the discards."""
    ev: list[dict[str, Any]] = [{"type": "call", "call": "draw"}]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in seats]
    ev += [{"type": "hold", "seat": s} for s in seats]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": discards[s]} for s in seats]
    return ev


def test_a_draw_naming_a_null_card_from_an_empty_pile_is_empty_pile(tmp_path: Path) -> None:
    """docs/table-log.md: ``empty_pile`` is a draw naming no card from an empty pile, and a null
    pile card in ``hand_start`` names none. Cal laid no starting card; Ana reaches for Cal's pile,
    logged with ``"card": null``: that is the ``empty_pile`` breach (the log goes on), not a
    malformed line. Ana then takes a pool card (her one draw) and the hand is played out."""
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D", "Cal": None}},
        {"type": "call", "call": "draw"},
        {"type": "draw", "seat": "Ana", "from": "Cal", "card": None},
        {"type": "draw", "seat": "Ana", "from": "pool"},
        {"type": "draw", "seat": "Ben", "from": "Ana", "card": None},
        {"type": "draw", "seat": "Cal", "from": "pool"},
    ]
    ev += [{"type": "hold", "seat": s} for s in SEATS]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": c} for s, c in zip(SEATS, ["QH", "JS", "10S"], strict=True)]
    ev += [{"type": "match", "seat": "Ana", "cards": ["7S", "7D", "3C"]}]
    ev += _round(["Ben", "Cal"], {"Ben": "JH", "Cal": "10D"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["9H", "JH", "2S"]},
           {"type": "show", "seat": "Cal", "cards": ["AS", "AH", "6C"]}]
    report = _replay(tmp_path, ev, {"hands": [3]})
    assert _kinds(report) == [("no_pile_card", "Cal"), ("empty_pile", "Ana")]
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]
    assert report["finished"] and report["winners"] == ["Ana"]

