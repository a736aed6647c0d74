"""Black-box Nerts tests, review round 8 (full logs: the deal, the layouts, the stock and waste, the one-hand
rule and the layout options): logs an independent tester could write from ``rules/nerts.md`` and
``docs/table-log.md``, each with a ``hand_start`` that carries every seat's deck, refereed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox8 import _deck, _ev, _log


def _breaches(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(x["t"], x["kind"]) for x in report["infractions"]]


def _counts(report: dict[str, Any], seat: str = "Ana") -> tuple[int, int]:
    hand = report["extra"]["hands"][0]
    return hand["foundation"][seat], hand["nerts"][seat]


# Ana's Nerts pile has A♣ on top and 7♣ under it; her first turn shows A♦ 7♥ A♥ (A♥ on the waste top,
# 7♥ under it); her work pile 4 is 8♠, on which 7♥ builds, and 8♦, on which 7♣ builds.
_ANA = _deck(["7C", "AC"], ["KS", "QS", "8D", "8S"], ["AD", "7H", "AH"])
_REST = {"Ben": _deck([], [], []), "Cal": _deck([], [], [])}


def test_partners_take_the_waste_top_and_the_card_under_it_at_once(tmp_path: Path) -> None:
    """§10: "a partnership may have two moves in flight at once"; §5 rule 4: "A move is legal if it is
    legal against the state of the table at its t_land". Fay lifts A♥ off the waste at 2.0 s and Eli,
    her partner, lifts the card now on top, 7♥, at 2.2 s and builds it on 8♠ at 2.5 s, before A♥ lands
    at 3.0 s. At 2.5 s A♥ is in Fay's hand, so 7♥ is the waste top: both moves are legal, and A♦ is
    the waste top afterwards. The same holds for the Nerts pile: A♣ in the air, 7♣ under it built on
    8♦. Six players at three seats (§2, §10)."""
    events = [
        _ev(1, "turn"),
        _ev(2.5, "move", card="7H", t_lift=2.2, actor="Eli", **{"from": "waste", "to": "work4"}),
        _ev(3.0, "foundation_play", card="AH", pile="F1", t_lift=2.0, actor="Fay", **{"from": "waste"}),
        _ev(3.5, "foundation_play", card="AD", pile="F2", t_lift=3.2, actor="Fay", **{"from": "waste"}),
        _ev(4.5, "move", card="7C", t_lift=4.2, actor="Eli", **{"from": "nerts", "to": "work3"}),
        _ev(5.0, "foundation_play", card="AC", pile="F3", t_lift=4.0, actor="Fay", **{"from": "nerts"}),
        {"t": 9, "type": "hand_end"},
    ]
    report = replay(tmp_path, _log({"Ana": _ANA, **_REST}, events))
    assert _breaches(report) == []
    assert _counts(report) == (3, 11)


def test_without_the_one_hand_rule_a_player_may_take_the_card_under_one_in_the_air(tmp_path: Path) -> None:
    """§11 ``one_hand_rule = false``: a player may have two cards in flight, so the card under one in
    the air is the top when it is lifted, and moving it is legal (§5 rule 4)."""
    events = [
        _ev(1, "turn"),
        _ev(2.5, "move", card="7H", t_lift=2.2, **{"from": "waste", "to": "work4"}),
        _ev(3.0, "foundation_play", card="AH", pile="F1", t_lift=2.0, **{"from": "waste"}),
        _ev(3.5, "foundation_play", card="AD", pile="F2", t_lift=3.2, **{"from": "waste"}),
        {"t": 9, "type": "hand_end"},
    ]
    report = replay(tmp_path, _log({"Ana": _ANA, "Ben": _REST["Ben"]}, events, one_hand_rule=False))
    assert _breaches(report) == []
    assert _counts(report) == (2, 13)


def test_the_card_under_a_refused_nerts_card_is_the_nerts_top_until_it_goes_back(tmp_path: Path) -> None:
    """§6.1: a card that lost a race lies on the pile until "its owner must put it back exactly where it
    came from"; meanwhile the next Nerts card is face up on top (M8), available (§3). Ben's A♥ starts
    F1 at 1.0 s; Ana's A♥ from her Nerts pile lands 500 ms later and must go back. Before taking it
    back she plays her next Nerts card, A♠, to a new pile: legal. She then puts A♥ back on her Nerts
    pile and plays it to a pile of its own. Ana: F = 2 (A♠, A♥), N = 11."""
    ana = _deck(["AS", "AH"], ["KS", "QS", "JS", "10S"], [])
    ben = _deck(["AH"], ["KD", "QD", "JD", "10D"], [])
    events = [
        _ev(1.0, "foundation_play", "Ben", card="AH", pile="F1", **{"from": "nerts"}),
        _ev(1.5, "foundation_play", card="AH", pile="F1", **{"from": "nerts"}),
        _ev(2.0, "foundation_play", card="AS", pile="F2", **{"from": "nerts"}),
        _ev(2.5, "move", card="AH", **{"from": "F1", "to": "nerts"}),
        _ev(3.0, "foundation_play", card="AH", pile="F3", **{"from": "nerts"}),
        {"t": 9, "type": "hand_end"},
    ]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
    assert [x["kind"] for x in report["rulings"] if x["kind"] == "race"] == ["race"]
    assert _breaches(report) == []
    assert _counts(report) == (2, 11)


def test_a_refused_waste_card_put_back_after_a_turn_is_the_waste_top(tmp_path: Path) -> None:
    """§6.1: the card that lost a race must be put back "exactly where it came from: ... the waste top".
    Ana's A♥ (her waste top after one turn) loses F1 to Ben's A♥ by 500 ms. While it lies on F1 she
    turns her stock again (M1 needs only a stock), then puts A♥ back on her waste: it goes on top of
    the three cards just turned, so it is the waste top and she may play it to a new pile. Under it
    lies 7♠, the third card of that turn, which she then builds on 8♦."""
    ana = _deck([], ["KS", "QS", "8D", "10S"], ["AD", "7C", "AH", "2C", "3C", "7S"])
    ben = _deck(["AH"], ["KD", "QD", "JD", "10D"], [])
    events = [
        _ev(0.5, "turn"),
        _ev(1.0, "foundation_play", "Ben", card="AH", pile="F1", **{"from": "nerts"}),
        _ev(1.5, "foundation_play", card="AH", pile="F1", **{"from": "waste"}),
        _ev(2.0, "turn"),
        _ev(2.5, "move", card="AH", **{"from": "F1", "to": "waste"}),
        _ev(3.0, "foundation_play", card="AH", pile="F2", **{"from": "waste"}),
        _ev(3.5, "move", card="7S", **{"from": "waste", "to": "work3"}),
        {"t": 9, "type": "hand_end"},
    ]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
    assert [x["kind"] for x in report["rulings"] if x["kind"] == "race"] == ["race"]
    assert _breaches(report) == []
    assert _counts(report)[0] == 1


@pytest.mark.parametrize("turn_lift", [{"t_lift": 2.2}, {}])
def test_a_stock_turned_while_the_waste_top_is_in_the_air_covers_the_next_card(
    tmp_path: Path, turn_lift: dict[str, float]
) -> None:
    """§5 rule 1: "A player moves cards with one hand only. The other hand may hold the stock", and the
    referee does not count a stock turn as a second card in flight; rule 4: a move is judged against
    the table at its landing. Ana lifts A♥ off her waste at 2.0 s, turns three cards with her stock
    hand at 2.2 s, and lands A♥ on a new pile at 2.6 s: A♥ left the waste before the turn covered its
    place, so the play is legal, and the turn's third card, 7♠, is the waste top, which she builds on
    8♦. Her first turn's other cards, A♦ and 7♥, lie under the turned packet. The packet covers the
    waste when it lands, so the turn's lift time is not needed."""
    ana = _deck([], ["KS", "QS", "8D", "10S"], ["AD", "7H", "AH", "2C", "3C", "7S"])
    events = [
        _ev(1, "turn"),
        {**_ev(2.3, "turn"), **turn_lift},
        _ev(2.6, "foundation_play", card="AH", pile="F1", t_lift=2.0, **{"from": "waste"}),
        _ev(3.5, "move", card="7S", t_lift=3.0, **{"from": "waste", "to": "work3"}),
        _ev(4.0, "foundation_play", card="AD", pile="F2", t_lift=3.7, **{"from": "waste"}),
        {"t": 9, "type": "hand_end"},
    ]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": _REST["Ben"]}, events))
    assert _breaches(report) == [("4", "not_available")]
    assert _counts(report) == (1, 13)
