"""3-13 Speed, third outside round: table logs written from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone, replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal"]
ACES = ["AS", "AH", "AD", "AC"] * 4
SPADES_2_TO_K_AND_AH = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH"]


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]],
            seats: list[str] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats or SEATS, "options": options}
    return replay(tmp_path, [header, *events])


def _ev(t: float, type_: str, seat: str | None = None, **data: Any) -> dict[str, Any]:
    return {"t": t, "type": type_, **({"seat": seat} if seat else {}), **data}


def _round(t: float, seats: list[str], discard: str = "KC") -> list[dict[str, Any]]:
    """One round: "draw", every seat in `seats` takes a pool card, lays down and turns up `discard`."""
    ev = [_ev(t, "call", call="draw")]
    ev += [_ev(t + 1, "draw", s, **{"from": "pool"}) for s in seats]
    ev += [_ev(t + 2, "hold", s) for s in seats]
    ev += [_ev(t + 3, "call", call="discard")]
    ev += [_ev(t + 4, "discard", s, card=discard) for s in seats]
    return ev


def _kinds(report: dict[str, Any]) -> list[str]:
    return [i["kind"] for i in report["infractions"]]


def test_a_hand_where_every_seat_matched_at_setup_is_scored_without_the_calls(tmp_path: Path) -> None:
    """§5.4, §6.3, §7: when every seat is out, nobody is left to play the final round, so the
    hand is scored (0 each, plus §10 false_match_penalty) without waiting for "draw" and
    "discard": the next hand_start must not rule it unscored nor drop Ben's penalty."""
    piles = dict.fromkeys(SEATS, "2C")
    events = [
        _ev(0, "hand_start", piles=piles),
        _ev(1, "match", "Ana", cards=ACES[:3]),
        _ev(2, "match", "Ben", cards=["7S", "7D", "KC"]),      # fails: +5
        _ev(3, "match", "Ben", cards=ACES[:3]),
        _ev(4, "match", "Cal", cards=ACES[:3]),
        _ev(10, "hand_start", piles=piles),
        _ev(11, "match", "Ana", cards=ACES[:4]),
        _ev(12, "match", "Ben", cards=ACES[:4]),
        _ev(13, "match", "Cal", cards=ACES[:4]),
    ]
    report = _replay(tmp_path, {"hands": [3, 4], "false_match_penalty": 5}, events)
    assert report["hands"] == [{"Ana": 0, "Ben": 5, "Cal": 0}, {"Ana": 0, "Ben": 0, "Cal": 0}]
    assert "hand_not_scored" not in _kinds(report)
    assert report["finished"] and report["winners"] == ["Ana", "Cal"]


def test_every_seat_out_still_accepts_the_empty_final_rounds_calls(tmp_path: Path) -> None:
    """§6.3: the caller says "draw" and "discard" once more; with every seat out that round is
    empty, and the calls are no breach (no early_call) and change no score."""
    events = [_ev(0, "hand_start", piles=dict.fromkeys(SEATS, "2C"))]
    events += [_ev(1 + i, "match", s, cards=ACES[:3]) for i, s in enumerate(SEATS)]
    events += [_ev(5, "call", call="draw"), _ev(6, "call", call="discard")]
    report = _replay(tmp_path, {"hands": [3]}, events)
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 0}] and _kinds(report) == []
    assert report["winners"] == SEATS


def test_as_laid_out_confirmed_match_shows_the_sets_laid_out(tmp_path: Path) -> None:
    """§6.1, §7 scoring_mode = as_laid_out: the player's own arrangement is checked, so a
    confirmed match shows the sets as laid out (a 6-card run with 6♣ as 10♥), not the
    referee's own split of them."""
    laid = [["5H", "6H", "7H", "8H", "9H", "6C"]]
    events = [_ev(0, "hand_start", piles=dict.fromkeys(SEATS, "2C")), _ev(1, "match", "Ana", sets=laid)]
    report = _replay(tmp_path, {"hands": [6], "scoring_mode": "as_laid_out"}, events)
    match = [r for r in report["rulings"] if r["kind"] == "match"]
    assert len(match) == 1 and match[0]["data"]["arrangement"]["sets"] == laid
    assert "6♣=10♥" in match[0]["text"]


def test_start_piles_given_without_start_pile_each_hand_can_be_drawn(tmp_path: Path) -> None:
    """§5.3, §10 start_pile_each_hand = false: every hand does not begin with a starting pile
    card, but a hand_start that names one (say hand 1) puts it on the pile, and the right-hand
    neighbour may take it (§6.1 DRAW b) without a misread."""
    events = [_ev(0, "hand_start", piles={"Ana": "9H", "Ben": "2C", "Cal": "5D"}),
              _ev(1, "call", call="draw"),
              _ev(2, "draw", "Ben", card="9H", **{"from": "Ana"})]
    report = _replay(tmp_path, {"hands": [3, 4], "start_pile_each_hand": False}, events)
    assert _kinds(report) == []


def test_pool_empty_ruling_counts_one_card(tmp_path: Path) -> None:
    """§6.2, §10 pool_empty = end_hand: one deck, three seats, 13 cards: the pool holds
    52 - 39 - 3 = 10 cards, 1 after three rounds: the ruling says "1 card"."""
    events = [_ev(0, "hand_start", piles=dict.fromkeys(SEATS, "2C"))]
    for r in range(3):
        events += _round(10.0 * (r + 1), SEATS)
    events.append(_ev(50, "call", call="draw"))
    report = _replay(tmp_path, {"hands": [13], "decks": 1, "pool_empty": "end_hand"}, events)
    texts = [r["text"] for r in report["rulings"] if r["kind"] == "pool_empty"]
    assert len(texts) == 1 and "the pool has 1 card for 3 seats" in texts[0]


def test_a_discard_turned_up_during_setup_is_early(tmp_path: Path) -> None:
    """§11: the camera sees "turning up a discard before the call"; in the setup window no
    "discard" has been called yet, so it is an early_discard (a documented kind)."""
    events = [_ev(0, "hand_start", piles=dict.fromkeys(SEATS, "2C")), _ev(1, "discard", "Ben", card="5C")]
    report = _replay(tmp_path, {"hands": [3]}, events)
    assert _kinds(report) == ["early_discard"]
