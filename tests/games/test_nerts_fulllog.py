"""Black-box Nerts tests on FULL table logs (``hand_start`` with a ``deal``): logs written from
``rules/nerts.md`` and ``docs/table-log.md`` alone, refereed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "SHDC" for r in RANKS]


def deck(nerts: list[str], work: list[str], stock_top: list[str]) -> str:
    """A deal in dealing order: the Nerts pile (its top card last), the work piles, then the stock
    (``stock_top`` first, the rest of the 52 cards after it)."""
    used = nerts + work + stock_top
    return " ".join(used + [c for c in DECK if c not in used])


ANA = deck(["6S", "6H", "6D", "6C", "7S", "7H", "7D", "8S", "8D", "8C", "4C", "JS", "KD"],
           ["QC", "QH", "AD", "10C"], ["JH", "AS", "KS", "4S"])
BEN = deck([r + "D" for r in RANKS], ["AC", "2C", "3C", "4C"], [])


def _log(*events: dict[str, Any]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"]},
                                   {"t": 0, "type": "hand_start", "deal": {"Ana": ANA, "Ben": BEN}}]
    lines += [{"t": i + 1, "seat": "Ana", **e} for i, e in enumerate(events)]
    return lines


def test_a_slide_under_from_a_work_pile_is_an_illegal_move(tmp_path: Path) -> None:
    """§6 M7: only the Nerts top or the waste top may slide under a base. Ana's 10C is the exposed
    card of her work pile 4, where the log says it is: the move is illegal (as in a camera-level
    log), not a card that is missing from its place."""
    report = replay(tmp_path, _log({"type": "move", "card": "10C", "from": "work4", "to": "under2"}))
    assert [i["kind"] for i in report["infractions"]] == ["illegal_move"]


def test_a_card_taken_from_the_stock_is_refereed_not_a_malformed_log(tmp_path: Path) -> None:
    """§3 available cards and §6: a stock card is never available (it reaches play only by M1). A
    play or move naming ``from: stock`` is a breach of the rules, refereed as ``not_available``
    (docs: breaches are not errors), and the card stays in the stock."""
    report = replay(tmp_path, _log(
        {"type": "foundation_play", "card": "JH", "pile": "F1", "from": "stock"},
        {"type": "move", "card": "JH", "from": "stock", "to": "work1"},
        {"type": "turn"},
        {"type": "foundation_play", "card": "KS", "pile": "F1", "from": "waste"},
    ))
    kinds = [i["kind"] for i in report["infractions"]]
    # The turn shows JH, AS, KS: KS on the waste top proves JH never left the stock.
    assert kinds == ["not_available", "not_available", "illegal_play"], report["infractions"]
