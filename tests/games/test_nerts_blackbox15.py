"""Black-box Nerts tests, round 15: ``rules/nerts.md`` §14 Examples 1 to 6 mutated one fact at a time
(a landing time at the tie window's edge, a tie window or tie policy, a twin landing before the call,
a total at the target, an audit count), refereed through ``kiosk replay --json`` from logs written from
the spec and ``docs/table-log.md`` alone. The referee agreed with every mutant here, so these lock the
behaviour in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox9 import _ev
from tests.games.test_nerts_blackbox10 import _kinds, _log
from tests.games.test_nerts_blackbox11 import _ends
from tests.games.test_nerts_blackbox12 import _play

_FOUR = ("Ana", "Ben", "Cal", "Dee")


def _hearts(cal_t: float, *twins: dict[str, Any]) -> list[dict[str, Any]]:
    """Example 3: a ♥ pile at level 4; Ben's 5♥ at 12.480 s and Cal's at ``cal_t``, both to within 2 ms;
    Dee's 6♥ at 13.900 s and Ana's 7♥ at 15.200 s."""
    return [_ev(0, "hand_start"), *(_play(2 + i, "Ana", f"{r}H", "H") for i, r in enumerate("A234")),
            _play(12.480, "Ben", "5H", "H", err=0.002), _play(cal_t, "Cal", "5H", "H", err=0.002),
            *twins,
            _play(13.900, "Dee", "6H", "H"), _play(15.200, "Ana", "7H", "H"),
            _ev(20, "call", "Ana", nerts_left=0)]


@pytest.mark.parametrize(("cal_t", "options", "ruling", "cal"), [
    (12.514, {}, ("tie", "tie (34 ms): both stand"), 1),
    (12.514000001, {}, ("race", "Ben first by 34 ms: Cal, take back 5♥"), 0),
    (12.500, {"tie_window_ms": 16}, ("tie", "tie (20 ms): both stand"), 1),
    (12.500, {"tie_window_ms": 15}, ("race", "Ben first by 20 ms: Cal, take back 5♥"), 0),
    (12.484, {"tie_window_ms": 0}, ("tie", "tie (4 ms): both stand"), 1),
    (12.480, {"tie_policy": "first_only"}, ("race", "Ben first by 0 ms: Cal, take back 5♥"), 0),
])
def test_example_3_the_tie_window_is_widened_by_both_landing_errors_to_the_nanosecond(
        tmp_path: Path, cal_t: float, options: dict[str, Any], ruling: tuple[str, str], cal: int) -> None:
    """§6.1: Cal's 5♥ ties with Ben's when ``t − t1 ≤ tie_window_ms + e + e1`` (30 + 2 + 2 = 34 ms by
    default), compared in whole nanoseconds; under ``first_only`` only the earliest stays however small
    the margin. Either way the level becomes 5 once, so Dee's 6♥ and Ana's 7♥ stand."""
    report = replay(tmp_path, _log(_hearts(cal_t), _FOUR, **options))
    assert _kinds(report, "tie", "race") == [ruling]
    assert report["infractions"] == []
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 5, "Ben": 1, "Cal": cal, "Dee": 1}


@pytest.mark.parametrize(("dee_t", "ruling", "dee"), [
    (12.512, ("tie", "tie (32 ms): all 3 stand"), 1),
    (12.512000001, ("race", "Ben first by 32 ms: Dee, take back 5♥"), 0),
])
def test_example_3_a_third_twin_is_timed_from_the_earliest_card_of_the_group(
        tmp_path: Path, dee_t: float, ruling: tuple[str, str], dee: int) -> None:
    """§6.1: every contender within the window of the *earliest* landing is in the tie group. Dee's own
    5♥, timed with no uncertainty, ties with Ben's (12.480 s, 2 ms) up to 30 + 0 + 2 = 32 ms later, even
    though it is only 12 ms after Cal's; a nanosecond more and it lost the race. Her 6♥ scores anyway."""
    report = replay(tmp_path, _log(_hearts(12.500, _play(dee_t, "Dee", "5H", "H")), _FOUR))
    assert _kinds(report, "tie", "race") == [("tie", "tie (20 ms): both stand"), ruling]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 5, "Ben": 1, "Cal": 1, "Dee": 1 + dee}


@pytest.mark.parametrize(("ben_t", "ruling", "ben"), [
    (45.310, ("tie", "tie (20 ms): both stand"), 1),
    (45.390, ("race", "Dee first by 100 ms: Ben, take back 9♦"), 0),
])
def test_example_5_a_card_in_the_air_races_a_twin_that_landed_before_the_call(
        tmp_path: Path, ben_t: float, ruling: tuple[str, str], ben: int) -> None:
    """§7.1 with §6.1: Ben's 9♦, lifted before Ana's call at 45.300 s, may land and counts if legal; Dee's
    9♦ landed on the same ♦ pile at level 8 just before the call, so Ben's ties with it within 30 ms and
    loses the race after that."""
    events = [_ev(0, "hand_start"), *(_play(1 + i / 10, "Ana", f"{r}D", "D") for i, r in
                                      enumerate(["A", "2", "3", "4", "5", "6", "7", "8"])),
              _play(45.290, "Dee", "9D", "D"), _ev(45.300, "call", "Ana"),
              _play(ben_t, "Ben", "9D", "D", t_lift=45.100), _ev(50, "hand_end")]
    report = replay(tmp_path, _log(events, _FOUR))
    assert _kinds(report, "air", "tie", "race") == [
        ("air", "Ben's 9♦ was in the air at the call: it counts if legal"), ruling]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 8, "Ben": ben, "Cal": 0, "Dee": 1}


def test_example_5_a_card_lifted_after_the_call_does_not_raise_its_pile(tmp_path: Path) -> None:
    """§7.1: Cal's 9♦, lifted 100 ms after the call, must go back and does not count, even though it
    lands first; it never raised the ♦ pile, so Ben's 9♦, in the air at the call, lands on level 8 and
    counts: no race."""
    events = [_ev(0, "hand_start"), *(_play(1 + i / 10, "Ana", f"{r}D", "D") for i, r in
                                      enumerate(["A", "2", "3", "4", "5", "6", "7", "8"])),
              _ev(45.300, "call", "Ana"), _play(45.590, "Cal", "9D", "D", t_lift=45.400),
              _play(45.600, "Ben", "9D", "D", t_lift=45.100), _ev(50, "hand_end")]
    report = replay(tmp_path, _log(events, _FOUR))
    assert _kinds(report, "tie", "race") == []
    assert [(x["kind"], x["seat"]) for x in report["infractions"]] == [("after_call", "Cal")]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 8, "Ben": 1, "Cal": 0, "Dee": 0}


def _example_2(ana: int, ben: int, cal: int) -> list[dict[str, Any]]:
    """Example 2's hand played as hand 2, after a hand 1 corrected to the totals before it."""
    before = {"Ana": ana, "Ben": ben, "Cal": cal, "Dee": 15}
    counts = {"Ana": (14, 0), "Ben": (9, 4), "Cal": (11, 2), "Dee": (6, 9)}
    events = [_ev(0, "hand_start"), _ev(60, "call", "Ana"), _ev(62, "hand_end")]
    events += [_ev(63, "score_correction", s, hand=1, score=x) for s, x in before.items()]
    events += [_ev(100, "hand_start"), _ev(200, "call", "Ana")]
    events += [_ev(201, "count", s, nerts=n, foundation=f) for s, (f, n) in counts.items()]
    return [*events, _ev(202, "hand_end")]


@pytest.mark.parametrize(("before", "options", "ends", "winners"), [
    ((85, 31, 8), {}, [], []),
    ((86, 31, 8), {}, [("game_end", "game over: Ana wins with 100", ["Ana"])], ["Ana"]),
    ((86, 31, 99), {}, [("game_end", "game over: Cal wins with 106", ["Cal"])], ["Cal"]),
    ((86, 99, 8), {}, [("tie_for_win", "Ana and Ben tie for the lead on 100: another hand", ["Ana", "Ben"])],
     []),
    ((86, 99, 8), {"tie_break": "shared"},
     [("game_end", "game over: Ana and Ben share the win with 100", ["Ana", "Ben"])], ["Ana", "Ben"]),
    ((23, 31, 8), {"target_score": 37}, [("game_end", "game over: Ana wins with 37", ["Ana"])], ["Ana"]),
    ((23, 31, 8), {"target_score": 38}, [], []),
])
def test_example_2_totals_at_the_target_and_a_tie_for_the_lead(
        tmp_path: Path, before: tuple[int, int, int], options: dict[str, Any],
        ends: list[tuple[str, str, list[str]]], winners: list[str]) -> None:
    """§8.1: the game ends after the hand in which a total is at least the target (exactly 100 is
    enough, 99 is not); the highest total wins even when another seat also reached it; a tie for the
    highest plays on (``tie_break = play_on``) or shares the win (``shared``)."""
    report = replay(tmp_path, _log(_example_2(*before), _FOUR, **options))
    assert report["hands"][1] == {"Ana": 14, "Ben": 1, "Cal": 7, "Dee": -12}
    assert [(kind, text, seats) for _, kind, text, seats in _ends(report)] == ends
    assert (report["finished"], report["winners"]) == (bool(winners), winners)


@pytest.mark.parametrize(("source", "audits", "ana"), [
    ("audit_if_available", ["audit: Ana has 9 cards on the foundations (live tracking saw 8)"], 9),
    ("tracking_only", [], 8),
])
def test_example_1_an_audit_count_overrides_live_tracking_only_when_audits_are_used(
        tmp_path: Path, source: str, audits: list[str], ana: int) -> None:
    """§12: with ``attribution_source = audit_if_available`` the back count overrides live tracking and
    the difference is logged; with ``tracking_only`` the 8 cards tracked for Ana are her F. Ben's count
    agrees with tracking (7), so it is ruled on neither way."""
    plays = [("Ana", "AS", "S"), ("Ben", "2S", "S"), ("Ana", "3S", "S"), ("Ana", "4S", "S"),
             ("Ben", "AH", "H1"), ("Ben", "2H", "H1"), ("Ana", "3H", "H1"), ("Ana", "AH", "H2"),
             ("Ana", "AD", "D"), ("Ana", "2D", "D"), ("Ben", "3D", "D"), ("Ben", "4D", "D"),
             ("Ana", "5D", "D"), ("Ben", "6D", "D"), ("Ben", "AC", "C")]
    events = [_ev(0, "hand_start"), *(_play(1 + i, s, c, p) for i, (s, c, p) in enumerate(plays)),
              _ev(20, "call", "Ana"), _ev(21, "count", "Ana", nerts=0, foundation=9),
              _ev(21, "count", "Ben", nerts=5, foundation=7), _ev(22, "hand_end")]
    report = replay(tmp_path, _log(events, ("Ana", "Ben"), attribution_source=source))
    assert [x["text"] for x in report["rulings"] if x["kind"] == "audit"] == audits
    assert report["hands"] == [{"Ana": ana, "Ben": -3}]


@pytest.mark.parametrize(("penalty", "ana"), [(0, 12), (4, 8)])
def test_example_6_a_false_call_before_the_late_call_costs_only_the_penalty(
        tmp_path: Path, penalty: int, ana: int) -> None:
    """§7.1 and §11 ``false_call_penalty``: Ana calls at 70 s with one Nerts card left (void, play goes
    on), then empties her pile and calls at 85 s with F = 12; only the false call's penalty comes off."""
    spades = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    events = [_ev(0, "hand_start"), *(_play(10 + i / 10, "Ana", c, "S") for i, c in enumerate(spades)),
              _ev(70, "call", "Ana", nerts_left=1),
              *(_play(72 + i / 10, "Ana", c, "D") for i, c in enumerate(["AD", "2D", "3D"])),
              _ev(85, "call", "Ana"), _ev(90, "count", "Ana", nerts=0), _ev(90, "count", "Ben", nerts=1),
              _ev(91, "hand_end")]
    report = replay(tmp_path, _log(events, ("Ana", "Ben"), false_call_penalty=penalty))
    calls = [x["kind"] for x in report["rulings"] if x["kind"] in ("false_call", "call")]
    assert calls == ["false_call", "call"]
    assert report["hands"] == [{"Ana": ana, "Ben": -2}]
