"""3-13 Speed: an eighth outsider's table logs, written sentence by sentence from
``rules/rummy_3_13.md`` and ``docs/table-log.md`` alone and replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_rummy_blackbox5 import _kinds
from tests.games.test_rummy_blackbox6 import POOL, _replay, _round


@pytest.mark.parametrize("rounds", [0, 1])
def test_a_matched_seat_acting_in_the_final_round_nobody_plays_is_not_in_round(
        tmp_path: Path, rounds: int) -> None:
    """§6.3: only players who are not out take part in the final round; a matched player does
    not draw. Ana and Ben both match (at setup, or after a round), so the hand is scored at once
    and the caller's "draw" and "discard" for the empty final round are accepted
    (docs/table-log.md). Ana then draws, lays a card down and turns it up in that round, after
    the caller's "draw": the breach is ``not_in_round`` (a matched seat drawing, laying down or
    turning up a discard in the final round), as when another seat is still playing, not a
    draw "before the call"."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D"}}]
    if rounds:
        ev += _round({"Ana": POOL, "Ben": POOL}, {"Ana": "QD", "Ben": "KD"})
    ev += [{"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]},
           {"type": "match", "seat": "Ben", "cards": ["4S", "4S", "4S"]}]
    ev += _round({"Ana": POOL}, {"Ana": "9C"})
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3, 4]})
    assert _kinds(report) == [("not_in_round", "Ana")] * 3
    assert report["hands"] == [{"Ana": 0, "Ben": 0}]


def test_a_seat_that_finds_the_pile_empty_and_takes_from_the_pool_drew_once(tmp_path: Path) -> None:
    """§6.1: each player takes exactly one card; §11: drawing two cards is a breach. Without
    starting piles (§10 ``start_pile_each_hand = false``) Ana's pile is empty in the first
    round: Ben reaches for it, finds nothing (``empty_pile``: no card is taken) and takes a pool
    card instead. He has taken one card, so that is his draw, not ``two_draws``."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1},
                                {"type": "call", "call": "draw"},
                                {"type": "draw", "seat": "Ben", "from": "Ana"},
                                {"type": "draw", "seat": "Ben", "from": "pool"},
                                {"type": "draw", "seat": "Ana", "from": "pool"},
                                {"type": "hold", "seat": "Ana"}, {"type": "hold", "seat": "Ben"},
                                {"type": "call", "call": "discard"},
                                {"type": "discard", "seat": "Ana", "card": "9C"},
                                {"type": "discard", "seat": "Ben", "card": "KC"},
                                {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "9C"}}, {"Ben": "9C"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["7S", "7D", "3C"]}]
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3], "start_pile_each_hand": False})
    assert _kinds(report) == [("empty_pile", "Ben")]
    assert report["hands"] == [{"Ana": 0, "Ben": 0}]


@pytest.mark.parametrize("after_show", [False, True])
def test_a_matched_seat_drawing_once_the_final_discard_is_called_is_not_in_round(
        tmp_path: Path, after_show: bool) -> None:
    """§6.3: the final round is one more "draw" and "discard", and only players who are not out
    take part; there is no round after it. Ana matched; once the caller has said "discard" for
    the final round (before Ben's discard is turned up, or once the hands are spread and
    scored), she takes a pool card, lays a card down and turns it up. That is a matched seat
    drawing in the final round (``not_in_round``, as her card turned up then is), not a draw
    made "before the caller said 'draw'": no further "draw" will come."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D"}},
                                {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]},
                                {"type": "call", "call": "draw"},
                                {"type": "draw", "seat": "Ben", "from": "pool"},
                                {"type": "hold", "seat": "Ben"}, {"type": "call", "call": "discard"}]
    ana: list[dict[str, Any]] = [{"type": "draw", "seat": "Ana", "from": "pool"},
                                 {"type": "hold", "seat": "Ana"},
                                 {"type": "discard", "seat": "Ana", "card": "2S"}]
    ben: list[dict[str, Any]] = [{"type": "discard", "seat": "Ben", "card": "QC"},
                                 {"type": "show", "seat": "Ben", "cards": ["7S", "7D", "3C"]}]
    ev += ben + ana if after_show else ana + ben
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3, 4]})
    assert _kinds(report) == [("not_in_round", "Ana")] * 3
    assert report["hands"] == [{"Ana": 0, "Ben": 0}]


def test_the_final_round_ends_with_the_final_ruling_when_a_spread_shows_a_discard_was_missed(
        tmp_path: Path) -> None:
    """§6.3, §11: after the final round's "discard" every hand is scored, and the kiosk asks each
    player to spread the whole hand (the ``final`` ruling, docs/table-log.md). Cal's discard is
    never seen turned up; Ben spreads his hand, which ends the final round (``no_discard`` names
    Cal): the kiosk still rules that the final round is over, before Ben's spread is scored."""
    seats = ["Ana", "Ben", "Cal"]
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D", "Cal": "4C"}},
        {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]},
        {"type": "call", "call": "draw"},
        {"type": "draw", "seat": "Ben", "from": "pool"}, {"type": "draw", "seat": "Cal", "from": "pool"},
        {"type": "hold", "seat": "Ben"}, {"type": "hold", "seat": "Cal"},
        {"type": "call", "call": "discard"},
        {"type": "discard", "seat": "Ben", "card": "QC"},
        {"type": "show", "seat": "Ben", "cards": ["7S", "7D", "3C"]},
        {"type": "show", "seat": "Cal", "cards": ["9H", "JH", "2C"]}]
    report = _replay(tmp_path, seats, ev, {"hands": [3]})
    assert _kinds(report) == [("no_discard", "Cal")]
    kinds = [r["kind"] for r in report["rulings"]]
    assert kinds[kinds.index("call") + 2:] == ["final", "show", "show", "hand_end", "game_end"]
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 21}]


@pytest.mark.parametrize("mode", ["optimal", "as_laid_out"])
def test_a_hand_spread_with_only_orphans_is_scored(tmp_path: Path, mode: str) -> None:
    """§7: every player who is not out shows all ``n`` cards, and a hand with no set scores
    every card (§12 example 2: 9♥ J♥ 2♣ is 21). Ben lays his hand out as orphans only, with
    no ``sets`` at all (docs/table-log.md: ``cards``, or ``sets`` and ``orphans``): the spread
    is scored, 21 under either ``scoring_mode``, not refused as a malformed line."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D"}},
                                {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": POOL}, {"Ben": "QC"})
    ev += [{"type": "show", "seat": "Ben", "orphans": ["9H", "JH", "2C"]}]
    report = _replay(tmp_path, ["Ana", "Ben"], ev, {"hands": [3], "scoring_mode": mode})
    assert report["infractions"] == []
    assert report["hands"] == [{"Ana": 0, "Ben": 21}]
    assert report["extra"]["arrangements"][0]["Ben"]["orphans"] == ["2C", "9H", "JH"]
