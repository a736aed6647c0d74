"""3-13 Speed: a sixth outsider's table logs at the default options, written from
``rules/rummy_3_13.md`` and ``docs/table-log.md`` alone, replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay


def _replay(tmp_path: Path, seats: list[str], events: list[dict[str, Any]],
            options: dict[str, Any]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats, "options": options}
    lines = [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)]
    return replay(tmp_path, lines)


def _round(draws: dict[str, dict[str, str]], discards: dict[str, str]) -> list[dict[str, Any]]:
    """One "draw"/"discard" round (§6.1): each seat's draw, its hold, the call, its discard."""
    ev: list[dict[str, Any]] = [{"type": "call", "call": "draw"}]
    ev += [{"type": "draw", "seat": s, **d} for s, d in draws.items()]
    ev += [{"type": "hold", "seat": s} for s in draws]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": c} for s, c in discards.items()]
    return ev


POOL = {"from": "pool"}


def test_two_identical_cards_seen_taken_must_both_be_shown(tmp_path: Path) -> None:
    """§2: four decks hold identical cards; §11: the referee sees which card each pile draw
    takes. Ben takes 5♥ from Ana's pile twice and turns up K♣, K♦ and 9♦ (the 9♦ he took in
    the final round), so both 5♥ are still in his hand: a show with one 5♥ is ``missing_card``
    (docs/table-log.md), the same as a show with none."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}}]
    ev += _round({"Ana": POOL, "Ben": {"from": "Ana", "card": "5H"}}, {"Ana": "5H", "Ben": "KC"})
    ev += _round({"Ana": POOL, "Ben": {"from": "Ana", "card": "5H"}}, {"Ana": "9D", "Ben": "KD"})
    ev += [{"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "9D"}}, {"Ben": "9D"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["5H", "KD", "KS"]}]
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3]})
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("missing_card", "Ben")]
    assert report["hands"] == [{"Ana": 0, "Ben": 25}]


def test_a_hold_after_a_discard_called_too_soon_is_not_early(tmp_path: Path) -> None:
    """docs/table-log.md: ``early_hold`` is a discard laid face down before "draw". The caller
    says "discard" before Ben has laid his down (§6.1: the caller waits for every held card),
    which is the caller's ``early_call``; Ben, who drew, then lays it down and turns it up.
    His hold comes after "draw", so it is no ``early_hold``."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}},
                                {"type": "call", "call": "draw"},
                                {"type": "draw", "seat": "Ana", "from": "pool"},
                                {"type": "draw", "seat": "Ben", "from": "pool"},
                                {"type": "hold", "seat": "Ana"},
                                {"type": "call", "call": "discard"},
                                {"type": "hold", "seat": "Ben"},
                                {"type": "discard", "seat": "Ana", "card": "KC"},
                                {"type": "discard", "seat": "Ben", "card": "KD"},
                                {"type": "call", "call": "draw"}]
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3]})
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("early_call", None)]


def test_a_draw_after_a_discard_called_too_soon_is_not_early(tmp_path: Path) -> None:
    """§6.1: every active seat takes one card after "draw". The caller says "discard" before
    Ben has drawn (the caller's ``early_call``); Ben then takes his card, lays his discard
    down and turns it up. The caller had said "draw", so Ben's draw is no ``early_draw``."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}},
                                {"type": "call", "call": "draw"},
                                {"type": "draw", "seat": "Ana", "from": "pool"},
                                {"type": "hold", "seat": "Ana"},
                                {"type": "call", "call": "discard"},
                                {"type": "draw", "seat": "Ben", "from": "Ana", "card": "5H"},
                                {"type": "hold", "seat": "Ben"},
                                {"type": "discard", "seat": "Ana", "card": "KC"},
                                {"type": "discard", "seat": "Ben", "card": "KD"},
                                {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]},
                                {"type": "call", "call": "draw"},
                                {"type": "draw", "seat": "Ben", "from": "Ana", "card": "KC"},
                                {"type": "hold", "seat": "Ben"},
                                {"type": "call", "call": "discard"},
                                {"type": "discard", "seat": "Ben", "card": "KC"},
                                {"type": "show", "seat": "Ben", "cards": ["5H", "5H", "5H"]}]
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3]})
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("early_call", None)]
    assert report["hands"] == [{"Ana": 0, "Ben": 0}]
