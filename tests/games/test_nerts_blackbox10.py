"""Black-box Nerts tests, round 10: sentences of ``rules/nerts.md`` §4-§7 whose consequence no earlier
test pinned, refereed through ``kiosk replay --json``: two Aces racing for one new pile (§6 M3 with
§6.1 at level 0), §14 Example 4 under another ``tie_window_ms`` (§11), and Example 4 in a fully
tracked log, where the losing card must go back exactly to its own source before it is played again
(§6.1 ruling). Written from the spec and ``docs/table-log.md`` alone; the referee agreed with every
case here, so these lock the behaviour in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.games.nerts_bots import simulate_hand
from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox8 import _deck
from tests.games.test_nerts_blackbox9 import _ev
from tests.games.test_nerts_blackbox12 import _play


def _log(events: list[dict[str, Any]], seats: tuple[str, ...] = ("Ana", "Ben", "Cal"),
         **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": list(seats), "options": options}, *events]


def _kinds(report: dict[str, Any], *kinds: str) -> list[tuple[str, str]]:
    return [(x["kind"], x["text"]) for x in report["rulings"] if x["kind"] in kinds]


@pytest.mark.parametrize(("gap", "options", "ruling", "cal"), [
    (0.010, {}, ("tie", "tie (10 ms): both stand"), 1),
    (0.010, {"tie_policy": "first_only"}, ("race", "Ben first by 10 ms: Cal, take back A♥"), 0),
    (0.500, {}, ("race", "Ben first by 500 ms: Cal, take back A♥"), 0),
])
def test_two_aces_landing_on_one_new_pile_race_like_any_two_cards(
        tmp_path: Path, gap: float, options: dict[str, Any], ruling: tuple[str, str], cal: int) -> None:
    """Two A♥ landing on the same new pile are both legal against level 0 (§6 M3), so §6.1 decides
    them as any two cards: a tie keeps both (each scores) and the pile stands at level 1, so the 2♥
    that follows is legal; under ``first_only``, or outside the window, the later Ace goes back."""
    events = [_ev(0, "hand_start"), _play(10, "Ben", "AH", "F1"), _play(10 + gap, "Cal", "AH", "F1"),
              _play(11, "Ana", "2H", "F1"), _ev(12, "call", "Ana", nerts_left=0)]
    report = replay(tmp_path, _log(events, **options))
    assert _kinds(report, "tie", "race") == [ruling]
    assert report["infractions"] == []
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 1, "Ben": 1, "Cal": cal}


@pytest.mark.parametrize(("window", "ruling", "cal"), [
    (30, ("race", "Ben first by 350 ms: Cal, take back 9♣"), 0),
    (349, ("race", "Ben first by 350 ms: Cal, take back 9♣"), 0),
    (350, ("tie", "tie (350 ms): both stand"), 1),
])
def test_example_4_under_each_tie_window(
        tmp_path: Path, window: int, ruling: tuple[str, str], cal: int) -> None:
    """§14 Example 4 (9♣ at 20.100 s and 20.450 s on a ♣ pile at level 8): 350 ms is a race under the
    default 30 ms window and under 349 ms, and an obvious tie once ``tie_window_ms`` reaches 350
    (§6.1, §11); Dee's 10♣ then covers the pile's group either way."""
    seats = ("Ana", "Ben", "Cal", "Dee")
    clubs = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    events = [_ev(0, "hand_start"), *(_play(1 + i, "Ana", c, "F1") for i, c in enumerate(clubs)),
              _play(20.1, "Ben", "9C", "F1"), _play(20.45, "Cal", "9C", "F1", **{"from": "waste"}),
              _play(21, "Dee", "10C", "F1"), _ev(22, "call", "Ana", nerts_left=0)]
    report = replay(tmp_path, _log(events, seats, tie_window_ms=window))
    assert _kinds(report, "tie", "race") == [ruling]
    assert report["infractions"] == []
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 8, "Ben": 1, "Cal": cal, "Dee": 1}


_ANA = _deck(["7D"], ["AC", "2C", "9H", "6C"], ["4D", "5D", "AD"])
_BEN = _deck(["KH"], ["AC", "5S", "2D", "3D"], ["4S", "5H", "2C"])


def _tracked_race(tail: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A full log (§4 deal) in which Ben's 2♣, turned onto his waste, loses the race for pile F1 to
    Ana's 2♣ by 350 ms while Ben's own A♣ stands on F2 (§14 Example 4 with one seat per card)."""
    deal = {"Ana": " ".join(_ANA), "Ben": " ".join(_BEN)}
    head = [_ev(0, "hand_start", deal=deal), _play(1, "Ana", "AC", "F1", **{"from": "work1"}),
            _play(2, "Ben", "AC", "F2", **{"from": "work1"}), _ev(3, "turn", "Ben"),
            _play(4, "Ana", "2C", "F1", **{"from": "work2"}),
            _play(4.35, "Ben", "2C", "F1", **{"from": "waste"}, t_lift=4.0)]
    stalemate = [_ev(10 + i, "stuck", s) for i in range(2) for s in ("Ana", "Ben")]
    return _log([*head, *tail, *stalemate], ("Ana", "Ben"))


def test_tracked_example_4_the_lost_card_goes_back_to_its_waste_and_then_plays_elsewhere(
        tmp_path: Path) -> None:
    """§6.1: the losing 2♣ does not score and must go back exactly where it came from, Ben's waste;
    from there it may be played again by any legal move, here onto his own ♣ pile F2 (Example 4's
    second paragraph). The hand then ends by stalemate (§7.2) and scores both 2♣."""
    back = _ev(5, "move", "Ben", card="2C", to="waste", **{"from": "F1"})
    again = _play(6, "Ben", "2C", "F2", **{"from": "waste"})
    report = replay(tmp_path, _tracked_race([back, again]))
    assert _kinds(report, "race") == [("race", "Ana first by 350 ms: Ben, take back 2♣")]
    assert report["infractions"] == []
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 2, "Ben": 2}
    assert report["extra"]["hands"][0]["end"] == "stalemate"


@pytest.mark.parametrize("tail", [
    [_play(6, "Ben", "2C", "F2", **{"from": "F1"})],
    [_ev(5, "move", "Ben", card="2C", to="work2", **{"from": "F1"})],
], ids=["straight to another pile", "back to a work pile it did not come from"])
def test_tracked_example_4_the_lost_card_may_not_go_anywhere_but_its_source(
        tmp_path: Path, tail: list[dict[str, Any]]) -> None:
    """§6.1 ruling: the returned card may not be redirected straight to another destination, neither
    another foundation pile nor a work pile it did not come from (it came from the waste): both are
    ``redirected``, and Ben's 2♣ scores nothing."""
    report = replay(tmp_path, _tracked_race(tail))
    assert [x["kind"] for x in report["infractions"]] == ["redirected"]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 2, "Ben": 1}


_THIRD = "three players are moving Ana's cards: a seat is one player or a partnership of two"


@pytest.mark.parametrize(("seats", "breach"), [
    (("Ana", "Ben"), ["Ana had two cards in flight at once (one hand only)", _THIRD]),
    (("Ana", "Ben", "Cal"), [_THIRD]),
])
def test_with_two_seats_a_seat_is_one_player_whoever_the_log_names(
        tmp_path: Path, seats: tuple[str, ...], breach: list[str]) -> None:
    """§2 and §10: only six or more players may pair up, so the two seats of a two-seat game are one
    player each (four players at most) and, by the one-hand rule (§5 rule 1), have one move in flight
    at a time even when the log names two actors. With three seats (six players) Ana may be a
    partnership, whose two partners each have a card in the air (§14 Example 9). A third named player
    on a seat is a breach either way (docs: ``one_hand``)."""
    events = [_ev(0, "hand_start"), _play(5.0, "Ana", "AS", "F1", t_lift=4.6, actor="Ana"),
              _play(5.1, "Ana", "AH", "F2", t_lift=4.7, actor="Fay"),
              _play(6.5, "Ana", "AD", "F3", t_lift=6.0, actor="Eli")]
    report = replay(tmp_path, _log(events, seats))
    assert [(x["kind"], x["text"]) for x in report["infractions"]] == [("one_hand", t) for t in breach]


def test_the_bots_play_no_partnership_in_a_two_seat_game() -> None:
    """§2, §10: the simulator offers partnerships only where the referee allows them (three seats or
    more), so a simulated two-seat partnership is refused rather than refereed as one-hand breaches."""
    with pytest.raises(ValueError, match="six or more players"):
        simulate_hand(1, seats=2, partners=(0,))
