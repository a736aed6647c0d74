"""Black-box Nerts tests, round 7: jokers (§9), partnerships (§10) and camera-level logs (§12), with
table logs written from ``rules/nerts.md`` and ``docs/table-log.md`` alone and refereed through
``kiosk replay --json`` as an outsider would run it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay


def _log(seats: list[str], events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": seats, "options": options}, *events]


def _play(t: float, seat: str, card: str, pile: str, **more: Any) -> dict[str, Any]:
    return {"t": t, "type": "foundation_play", "seat": seat, "card": card, "pile": pile, **more}


def _kinds(report: dict[str, Any], key: str = "infractions") -> list[str]:
    return [x["kind"] for x in report[key]]


def test_a_partnership_with_three_cards_in_flight_breaks_the_one_hand_rule(tmp_path: Path) -> None:
    """§5 rule 1 and §10: a partnership may have two moves in flight, one per partner, never three.
    T1's partners Ana and Ben each have a card in the air when a third card of T1's, unattributed,
    is lifted (1.2 s) before either has landed (2.0 s, 2.1 s): one partner has two cards in flight."""
    seats = ["T1", "T2", "T3"]
    events = [{"t": 0, "type": "hand_start"},
              _play(2.0, "T1", "AS", "F1", t_lift=1.0, actor="Ana"),
              _play(2.1, "T1", "AH", "F2", t_lift=1.1, actor="Ben"),
              _play(2.2, "T1", "AD", "F3", t_lift=1.2),
              # Lifted after Ana's and Ben's cards landed: two in flight again at most, no breach.
              _play(4.0, "T1", "AC", "F4", t_lift=3.0),
              _play(4.1, "T1", "2C", "F4", t_lift=3.1)]
    report = replay(tmp_path, _log(seats, events))
    assert _kinds(report) == ["one_hand"]
    assert report["infractions"][0]["t"] == "2.2"
    assert report["infractions"][0]["seat"] == "T1"
    # Under one_hand_rule = false nothing is ruled.
    assert _kinds(replay(tmp_path, _log(seats, events, one_hand_rule=False))) == []


def test_a_joker_seen_leaving_the_nerts_pile_counts_once_when_the_next_top_turns_up(tmp_path: Path) -> None:
    """§12 (count Nerts cards as they leave: 13 minus the number played) with §9 (a joker in the Nerts
    pile is -2, like any card): Ben's Nerts top is a joker; he plays it from the Nerts pile, declared
    A♥, and the camera then sees 5♣ on top. One card has left, as for a plain card: N = 12, and Ben
    scores 1 - 24 = -23."""
    seats = ["Ana", "Ben"]
    for card, extra in (("JOKER", {"as": "AH"}), ("AH", {})):
        events = [{"t": 0, "type": "nerts_top", "seat": "Ben", "card": card},
                  {"t": 0.5, "type": "hand_start"},
                  _play(1, "Ben", card, "F1", **{"from": "nerts"}, **extra),
                  {"t": 1.1, "type": "nerts_top", "seat": "Ben", "card": "5C"},
                  {"t": 2, "type": "call", "seat": "Ana"}]
        report = replay(tmp_path, _log(seats, events, jokers=2))
        assert report["extra"]["hands"][0]["nerts"] == {"Ana": 0, "Ben": 12}, card
        assert report["hands"] == [{"Ana": 0, "Ben": -23}], card


def test_a_joker_refused_for_want_of_a_declaration_may_go_back_to_its_source(tmp_path: Path) -> None:
    """§9 (a joker played to a foundation must be declared) with §6.1 (a refused card goes back to
    where it came from): Ana's joker starts F1 with its suit open; Ben's joker from his waste lands on
    it undeclared, so no single card fits and the kiosk refuses it (`undeclared_joker`). Ben puts it
    back on his waste, which is the return the ruling asks for, not a card taken off a foundation; he
    then plays it again declared as 2♦, which stands (F = 1 each)."""
    seats = ["Ana", "Ben"]
    events = [{"t": 0, "type": "hand_start"},
              _play(1, "Ana", "JOKER", "F1"),
              _play(2, "Ben", "JOKER", "F1", **{"from": "waste"}),
              {"t": 3, "type": "move", "seat": "Ben", "card": "JOKER", "from": "F1", "to": "waste"},
              _play(4, "Ben", "JOKER", "F1", **{"from": "waste", "as": "2D"}),
              {"t": 5, "type": "call", "seat": "Ana", "nerts_left": 0}]
    report = replay(tmp_path, _log(seats, events, jokers=2))
    assert _kinds(report) == ["undeclared_joker"]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 1, "Ben": 1}


def test_an_unseen_card_on_an_open_joker_ace_shows_the_pile_suit(tmp_path: Path) -> None:
    """§12: a joker that starts a foundation leaves its suit open until the next card placed on it
    shows the suit. Ana's undeclared joker starts F1; the camera did not see the 2♣ land on it, but
    the pile proves it (`unseen_play`). The pile is now clubs, so Ben's 3♥ on it is the wrong suit
    and goes back, and his 3♣ then builds on the 2♣. The same holds when the 2♣ is a card seen twice
    (`seen_twice`: it lies on the pile all the same, docs/table-log.md)."""
    seats = ["Ana", "Ben"]
    unseen = [_play(1, "Ana", "JOKER", "F1"), {"t": 2, "type": "unseen_play", "card": "2C", "pile": "F1"}]
    twice = [_play(0.5, "Ben", "AC", "F0"), _play(0.7, "Ben", "2C", "F0"), _play(1, "Ana", "JOKER", "F1"),
             _play(2, "Ben", "2C", "F1")]
    for second, kinds in ((unseen, ["illegal_play"]), (twice, ["seen_twice", "illegal_play"])):
        events = [{"t": 0, "type": "hand_start"}, *second,
                  _play(3, "Ben", "3H", "F1"), _play(4, "Ben", "3C", "F1"),
                  {"t": 7, "type": "call", "seat": "Ana", "nerts_left": 0}]
        report = replay(tmp_path, _log(seats, events, jokers=2))
        assert _kinds(report) == kinds
        assert report["infractions"][-1]["t"] == "3"
        assert "wrong suit" in report["infractions"][-1]["text"]


def test_a_refused_joker_may_go_back_after_its_twin_is_played_elsewhere(tmp_path: Path) -> None:
    """§6.1 (the losing card goes back to its source) with §9 (each deck has two jokers): Ana's joker
    from her waste, declared 2♥, loses the race on F1 to Ben's 2♥. Before taking it back she plays
    her other joker from her Nerts pile to start F2 as A♠. Putting the refused joker back on her waste
    is still its return, not a card taken off a foundation."""
    seats = ["Ana", "Ben"]
    events = [{"t": 0, "type": "hand_start"},
              _play(1, "Ben", "AH", "F1"), _play(1.5, "Ben", "2H", "F1"),
              _play(1.6, "Ana", "JOKER", "F1", **{"from": "waste", "as": "2H"}),
              _play(2, "Ana", "JOKER", "F2", **{"from": "nerts", "as": "AS"}),
              {"t": 3, "type": "move", "seat": "Ana", "card": "JOKER", "from": "F1", "to": "waste"},
              {"t": 7, "type": "call", "seat": "Ben", "nerts_left": 0}]
    report = replay(tmp_path, _log(seats, events, jokers=2))
    assert _kinds(report, "rulings") == ["hand_start", "race", "call", "hand_end"]
    assert _kinds(report) == []
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 1, "Ben": 2}
