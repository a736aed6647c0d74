"""Black-box Nerts tests, round 13: a state x event matrix in fully tracked logs under the options
that change the state machine, pairs of odd events in a row, and whole multi-hand games with odd
events in early hands, checked against ``rules/nerts.md`` and ``docs/table-log.md`` through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay


def _log(events: list[dict[str, Any]], seats: tuple[str, ...] = ("Ana", "Ben"),
         **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": list(seats), "options": options}, *events]


def _ev(t: float, kind: str, seat: str | None = None, **more: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"t": t, "type": kind}
    if seat is not None:
        event["seat"] = seat
    return {**event, **more}


def _play(t: float, seat: str, card: str, pile: str, **more: Any) -> dict[str, Any]:
    return _ev(t, "foundation_play", seat, card=card, pile=pile, **more)


def _kinds(report: dict[str, Any], key: str) -> list[tuple[str, str | None]]:
    return [(x["kind"], x.get("seat")) for x in report[key]]


def test_a_third_partner_named_in_a_later_hand_is_a_third_player_on_the_seat(tmp_path: Path) -> None:
    """§10 and docs/table-log.md (``one_hand``: "a third named player on a seat"): a partnership is one
    seat, with one score, for the whole game. T1's partners Ana and Ben play hand 1; in hand 2 Cal
    moves T1's cards, so three players have moved the seat's cards: a breach, as it would be in one
    hand. The hands are scored as played."""
    seats = ("T1", "T2", "T3")
    hand1 = [_ev(0, "hand_start"), _play(1, "T1", "AS", "F1", actor="Ana"),
             _play(2, "T1", "AH", "F2", actor="Ben"), _ev(3, "call", "T2", nerts_left=0), _ev(4, "hand_end")]
    hand2 = [_ev(10, "hand_start"), _play(11, "T1", "AS", "F1", actor="Cal"),
             _play(12, "T1", "AD", "F2", actor="Ana"), _ev(13, "call", "T2", nerts_left=0),
             _ev(14, "hand_end")]
    report = replay(tmp_path, _log([*hand1, *hand2], seats))
    assert [(x["t"], x["kind"], x["seat"]) for x in report["infractions"]] == [("11", "one_hand", "T1")]
    assert report["hands"] == [{"T1": -24, "T2": 0, "T3": -26}, {"T1": -24, "T2": 0, "T3": -26}]


def test_a_fourth_player_named_on_a_seat_is_a_breach_too(tmp_path: Path) -> None:
    """§10 and docs/table-log.md (``one_hand``): a seat is one player or a partnership of two. After
    Cal, a third player, moved T1's cards, Dee moves them too: a fourth player on the seat is a breach
    as well (each new player beyond the two is ruled once). The cards stand and score as played."""
    seats = ("T1", "T2", "T3")
    events = [_ev(0, "hand_start"), _play(1, "T1", "AS", "F1", actor="Ana"),
              _play(2, "T1", "AH", "F2", actor="Ben"), _play(3, "T1", "AD", "F3", actor="Cal"),
              _play(4, "T1", "AC", "F4", actor="Dee"), _play(5, "T1", "2C", "F4", actor="Cal"),
              _ev(6, "call", "T2", nerts_left=0), _ev(7, "hand_end")]
    report = replay(tmp_path, _log(events, seats))
    assert [(x["t"], x["kind"], x["seat"]) for x in report["infractions"]] == [
        ("3", "one_hand", "T1"), ("4", "one_hand", "T1")]
    assert report["hands"] == [{"T1": -21, "T2": 0, "T3": -26}]
