"""3-13 Speed: table logs written by an outsider from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone, replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal", "Dee"]
ACES = ["AS", "AH", "AD", "AC"] * 4


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]],
            seats: list[str] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats or SEATS, "options": options}
    return replay(tmp_path, [header, *events])


def _hand(t: float, n: int, matcher: str, shows: dict[str, list[str]],
          seats: list[str] | None = None) -> list[dict[str, Any]]:
    """One hand: `matcher` matches at setup (§5.4), the others draw from the pool, discard
    and show (§6.3)."""
    seats = seats or SEATS
    others = [s for s in seats if s != matcher]
    ev: list[dict[str, Any]] = [
        {"t": t, "type": "hand_start", "piles": dict.fromkeys(seats, "2C")},
        {"t": t + 1, "type": "match", "seat": matcher, "cards": ACES[:n]},
        {"t": t + 2, "type": "call", "call": "draw"},
    ]
    ev += [{"t": t + 3, "type": "draw", "seat": s, "from": "pool"} for s in others]
    ev += [{"t": t + 4, "type": "hold", "seat": s} for s in others]
    ev += [{"t": t + 5, "type": "call", "call": "discard"}]
    ev += [{"t": t + 6, "type": "discard", "seat": s, "card": "KC"} for s in others]
    ev += [{"t": t + 7, "type": "show", "seat": s, "cards": shows[s]} for s in others]
    return ev


def test_game_end_ruling_follows_corrected_scores(tmp_path: Path) -> None:
    """§12 example 13 (and §7 tie_break = last_hand): totals Ana 87, Ben 64, Cal 64, Dee 120 after
    hand 11, Ben 0 and Cal 12 in hand 11. Hand 1's scores are set with score_correction; the
    docs say the end of the game follows the corrected scores, so the game_end ruling must
    name the same winner as the report, not the winners before the corrections."""
    events: list[dict[str, Any]] = []
    for h in range(1, 12):
        n = h + 2
        shows = {s: ACES[:n] for s in SEATS}
        if h == 11:
            shows["Cal"] = ACES[:10] + ["5H", "4D", "3S"]  # K wild: orphans 5 + 4 + 3 = 12
        events += _hand(100.0 * h, n, "Ben" if h == 11 else "Ana", shows)
        if h == 1:
            events += [{"t": 150 + i, "type": "score_correction", "seat": s, "hand": 1, "score": v}
                       for i, (s, v) in enumerate([("Ana", 87), ("Ben", 64), ("Cal", 52), ("Dee", 120)])]
    shared = _replay(tmp_path, {}, events)
    assert shared["totals"] == {"Ana": 87, "Ben": 64, "Cal": 64, "Dee": 120}
    assert shared["winners"] == ["Ben", "Cal"]
    end = [r for r in shared["rulings"] if r["kind"] == "game_end"]
    assert len(end) == 1 and end[0]["seats"] == ["Ben", "Cal"] and "Ben and Cal share" in end[0]["text"]
    last = _replay(tmp_path, {"tie_break": "last_hand"}, events)
    assert last["winners"] == ["Ben"]
    end = [r for r in last["rulings"] if r["kind"] == "game_end"]
    assert len(end) == 1 and end[0]["seats"] == ["Ben"] and "Ben wins" in end[0]["text"]


def _one_hand_then(tmp_path: Path, extra: list[dict[str, Any]]) -> dict[str, Any]:
    """Hand 1 of 3 cards, two seats: Ana matches at setup, Ben shows 9H JH 2C (§12 example 2,
    penalty 21); then `extra` events after the hand is scored."""
    events = _hand(0, 3, "Ana", {"Ben": ["9H", "JH", "2C"]}, seats=["Ana", "Ben"])
    return _replay(tmp_path, {"hands": [3, 4]}, events + extra, seats=["Ana", "Ben"])


def test_second_show_after_the_hand_is_scored_is_an_infraction(tmp_path: Path) -> None:
    """docs/table-log.md: breaches are infractions and the log goes on (`two_shows`). A seat
    spreading its hand again after the last show scored the hand must not stop the replay."""
    rep = _one_hand_then(tmp_path, [{"t": 8, "type": "show", "seat": "Ben", "cards": ["9H", "JH", "2C"]}])
    assert rep["hands"] == [{"Ana": 0, "Ben": 21}]
    assert [i["kind"] for i in rep["infractions"]] == ["two_shows"]


def test_match_after_the_final_round_is_an_infraction(tmp_path: Path) -> None:
    """§6.3: there is no match window after the final round. A "match" called once the hand
    is scored is `match_outside_window` (void), not a malformed log."""
    rep = _one_hand_then(tmp_path, [{"t": 8, "type": "match", "seat": "Ben", "cards": ["7S", "7D", "3C"]}])
    assert rep["hands"] == [{"Ana": 0, "Ben": 21}]
    assert [i["kind"] for i in rep["infractions"]] == ["match_outside_window"]


def test_draw_called_after_the_hand_is_scored_is_an_infraction(tmp_path: Path) -> None:
    """§6.3: no round follows the final round; a stray "draw" is `early_call`, and the next
    hand still starts normally."""
    rep = _one_hand_then(tmp_path, [
        {"t": 8, "type": "call", "call": "draw"},
        *_hand(10, 4, "Ana", {"Ben": ["QS", "QH", "QD", "2C"]}, seats=["Ana", "Ben"]),
    ])
    assert rep["hands"] == [{"Ana": 0, "Ben": 21}, {"Ana": 0, "Ben": 2}]
    assert [i["kind"] for i in rep["infractions"]] == ["early_call"]
    assert rep["finished"] and rep["winners"] == ["Ana"]


def test_match_laid_out_with_an_extra_card_is_wrong_count(tmp_path: Path) -> None:
    """§6.1: a player may never skip the discard to keep an extra card. A hand laid out for a
    "match" with n + 1 cards is void and reported as `wrong_count`, as a show would be."""
    events = [
        {"t": 0, "type": "hand_start", "piles": {"Ana": "2C", "Ben": "2D"}},
        {"t": 1, "type": "match", "seat": "Ben", "cards": ["7S", "7D", "3C", "9H"]},
        *_hand(2, 3, "Ana", {"Ben": ["9H", "JH", "2C"]}, seats=["Ana", "Ben"])[1:],
    ]
    rep = _replay(tmp_path, {"hands": [3]}, events, seats=["Ana", "Ben"])
    assert [r["kind"] for r in rep["rulings"]].count("failed_match") == 1
    assert [i["kind"] for i in rep["infractions"]] == ["wrong_count"]
    assert rep["hands"] == [{"Ana": 0, "Ben": 21}]

