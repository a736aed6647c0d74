"""Black-box Nerts tests: table logs written from ``rules/nerts.md`` and ``docs/table-log.md``
alone, refereed through ``kiosk replay --json`` as an outsider would run it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "SHDC" for r in RANKS]


def _scored_hand(t: float, seats: list[str], foundation: list[int]) -> list[dict[str, Any]]:
    """A camera-level hand: the first seat calls, the audit counts F per seat and N = 0."""
    out: list[dict[str, Any]] = [{"t": t, "type": "hand_start"},
                                 {"t": t + 1, "type": "call", "seat": seats[0], "nerts_left": 0}]
    out += [{"t": t + 2, "type": "count", "seat": s, "nerts": 0, "foundation": f}
            for s, f in zip(seats, foundation, strict=True)]
    out.append({"t": t + 3, "type": "hand_end"})
    return out


def _example_10(tie_break: str, hands: int) -> list[dict[str, Any]]:
    """§14 Example 10, with the totals before the first hand shown set by score_correction."""
    seats = ["Ana", "Ben", "Cal"]
    lines: list[dict[str, Any]] = [{"table_log": 1, "game": "nerts", "seats": seats,
                                    "options": {"tie_break": tie_break}}]
    lines += _scored_hand(0, seats, [0, 0, 0])
    lines += [{"t": 4, "type": "score_correction", "seat": s, "hand": 1, "score": x}
              for s, x in zip(seats, [92, 88, 97], strict=True)]
    lines += _scored_hand(10, seats, [11, 15, 2])
    if hands == 3:
        lines += _scored_hand(20, seats, [6, 9, 14])
    return lines


def test_example_10_shared_win_after_corrected_totals_ends_the_game(tmp_path: Path) -> None:
    """§8.1 and §14 Example 10: with ``tie_break = shared`` Ana and Ben share the win at 103 (the
    totals before the hand entered as score corrections); a further hand is after the game."""
    report = replay(tmp_path, _example_10("shared", 3))
    assert report["finished"] is True
    assert report["winners"] == ["Ana", "Ben"]
    assert report["totals"] == {"Ana": 103, "Ben": 103, "Cal": 99}
    assert "after_game" in {i["kind"] for i in report["infractions"]}


def test_example_10_play_on_after_corrected_totals(tmp_path: Path) -> None:
    """§14 Example 10 with ``tie_break = play_on``: the tie on 103 plays on and Cal wins with 113."""
    report = replay(tmp_path, _example_10("play_on", 3))
    assert report["finished"] is True and report["winners"] == ["Cal"]
    assert report["totals"] == {"Ana": 109, "Ben": 112, "Cal": 113}
    assert any(r["kind"] == "tie_for_win" for r in report["rulings"])


def test_correction_that_ends_the_game_is_not_undone_by_later_hands(tmp_path: Path) -> None:
    """§8.1: the game ends after the first hand in which a (corrected) total reaches the target;
    hands logged after it cannot hand the win to someone else."""
    seats = ["Ana", "Ben"]
    lines: list[dict[str, Any]] = [{"table_log": 1, "game": "nerts", "seats": seats,
                                    "options": {"target_score": 20}}]
    lines += _scored_hand(0, seats, [5, 0])
    lines += _scored_hand(10, seats, [0, 30])
    # Hand 1 miscounted: Ana really scored 25, so the game ended after hand 1.
    lines.append({"t": 20, "type": "score_correction", "seat": "Ana", "hand": 1, "score": 25})
    report = replay(tmp_path, lines)
    assert report["finished"] is True
    assert report["winners"] == ["Ana"]


def test_recycle_logged_after_a_short_turn_with_recycle_immediately(tmp_path: Path) -> None:
    """§6 short stock and §11 ``short_stock = recycle_immediately``: the last 1-2 stock cards go on
    the waste and the waste is turned over at once. The camera sees the player turn it over, so a
    full log holds a ``recycle`` after the short turn: that is the same recycle, not an illegal one,
    and the next turn starts the stock from its first card again."""
    seats = ["Ana", "Ben"]
    deal = {s: " ".join(DECK) for s in seats}  # 13 Nerts cards, 4 work cards, a 35-card stock
    stock = DECK[17:]
    lines: list[dict[str, Any]] = [
        {"table_log": 1, "game": "nerts", "seats": seats, "options": {"short_stock": "recycle_immediately"}},
        {"t": 0, "type": "hand_start", "deal": deal},
    ]
    lines += [{"t": 1 + i, "type": "turn", "seat": "Ana"} for i in range(12)]  # 11 x 3, then 2
    lines.append({"t": 20, "type": "recycle", "seat": "Ana"})
    lines.append({"t": 21, "type": "turn", "seat": "Ana"})
    # The waste top is now the third stock card: moving it may not fit, but it must be available.
    lines.append({"t": 22, "type": "move", "seat": "Ana", "card": stock[2], "from": "waste", "to": "work1"})
    report = replay(tmp_path, lines)
    kinds = [(i["kind"], i["text"]) for i in report["infractions"]]
    assert not any("recycled" in text for _, text in kinds), kinds
    assert not any(kind == "not_available" for kind, _ in kinds), kinds


def test_undeclared_joker_from_a_work_pile_cannot_start_a_foundation(tmp_path: Path) -> None:
    """§9: a joker built on 9H in a work pile is a black 8; moving it to a foundation needs an identity
    consistent with that constraint, so it cannot start a new pile as an (undeclared) Ace."""
    nerts = ["2D", "3D", "4D", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "7D", "JOKER"]
    work = ["9H", "KC", "KD", "KS"]
    rest = [c for c in DECK if c not in nerts + work] + ["JOKER"]
    other = " ".join(DECK + ["JOKER", "JOKER"])
    lines: list[dict[str, Any]] = [
        {"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"], "options": {"jokers": 2}},
        {"t": 0, "type": "hand_start", "deal": {"Ana": " ".join(nerts + work + rest), "Ben": other}},
        {"t": 1, "type": "move", "seat": "Ana", "card": "JOKER", "from": "nerts", "to": "work1"},
        {"t": 2, "type": "foundation_play", "seat": "Ana", "card": "JOKER", "pile": "F1", "from": "work1"},
        {"t": 3, "type": "call", "seat": "Ben", "nerts_left": 0},
        {"t": 4, "type": "hand_end"},
    ]
    report = replay(tmp_path, lines)
    assert [i["kind"] for i in report["infractions"]] == ["illegal_play"]
    assert report["extra"]["hands"][0]["foundation"]["Ana"] == 0
