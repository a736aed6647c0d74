"""3-13 Speed: a fourth outsider's table logs, written from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone, replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal", "Dee"]
PILES = {"Ana": "2S", "Ben": "10C", "Cal": "7D", "Dee": "9H"}


def _replay(tmp_path: Path, events: list[dict[str, Any]],
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": SEATS, "options": options or {"hands": [4]}}
    lines = [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)]
    return replay(tmp_path, lines)


def _final_round(discards: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """§12 example 12 with Ana matching at setup (§5.4): Ben, Cal and Dee play the final round
    (§6.3), turning up ``discards``, then show their hands."""
    others = SEATS[1:]
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": PILES},
        {"type": "match", "seat": "Ana", "cards": ["9S", "9D", "9H", "4H"]},
        {"type": "call", "call": "draw"},
    ]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in others]
    ev += [{"type": "hold", "seat": s} for s in others]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": c} for s, c in discards]
    ev += [{"type": "show", "seat": "Ben", "cards": ["6H", "7H", "8H", "4S"]},
           {"type": "show", "seat": "Cal", "cards": ["AC", "AD", "AS", "2H"]},
           {"type": "show", "seat": "Dee", "cards": ["5S", "5H", "8C", "8D"]}]
    return ev


def test_no_discard_names_the_seat_that_kept_its_discard(tmp_path: Path) -> None:
    """§6.1 DISCARD: every held card is turned up at the call; a seat whose discard is never
    seen breaches it (``no_discard``). In the final round Dee's discard is missing when Ben
    spreads his hand: the infraction belongs to Dee, not to Ben, whose show revealed it."""
    report = _replay(tmp_path, _final_round([("Ben", "3D"), ("Cal", "QH")]))
    found = [(i["kind"], i["seat"]) for i in report["infractions"]]
    assert found == [("no_discard", "Dee")]
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}]


def test_no_discard_at_next_draw_names_the_seat(tmp_path: Path) -> None:
    """§6.1: the "draw" call after a round in which Dee's discard was never turned up shows
    Dee's breach; the ``no_discard`` infraction names Dee."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": PILES},
                                {"type": "call", "call": "draw"}]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in SEATS]
    ev += [{"type": "hold", "seat": s} for s in SEATS]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": "KC"} for s in SEATS[:3]]
    ev += [{"type": "call", "call": "draw"}]
    report = _replay(tmp_path, ev)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("no_discard", "Dee")]


def test_discard_after_the_final_round_is_one_infraction(tmp_path: Path) -> None:
    """§6.3: there is nothing after the final round's discard. A card Cal turns up after the
    hands are spread is one breach, ``extra_discard`` ("turned up after the final round"),
    not also ``two_discards`` (a second discard within a round)."""
    ev = _final_round([("Ben", "3D"), ("Cal", "QH"), ("Dee", "JD")])
    ev.append({"type": "discard", "seat": "Cal", "card": "2H"})
    report = _replay(tmp_path, ev)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("extra_discard", "Cal")]
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}]
