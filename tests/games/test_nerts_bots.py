"""Nerts bots: a four-bot hand runs to its end, legally, at the pace asked for, the same way
every time for one seed; its log referees the same from every layout move or from the camera's view."""

from __future__ import annotations

import io
import random

import pytest

from kiosk.games.nerts_bots import BotPace, simulate_hand
from kiosk.games.nerts_options import NertsOptions
from kiosk.replay import replay_events
from kiosk.tablelog import parse_table_log, write_table_log

SEATS = ["Ana", "Ben", "Cal", "Dee"]


@pytest.mark.parametrize("seed", range(6))
def test_four_bots_play_a_hand_to_a_call_legally(seed: int) -> None:
    hand = simulate_hand(seed, seats=SEATS)
    assert hand.end == "call"
    assert hand.report.infractions == []
    caller = hand.report.extra["hands"][0]["caller"]
    assert hand.report.extra["hands"][0]["nerts"][caller] == 0
    assert sum(1 for m in hand.moves if m.kind == "call") == 1


@pytest.mark.parametrize("seed", range(3))
def test_bots_reach_a_stalemate_when_no_one_can_empty_the_nerts_pile(seed: int) -> None:
    hand = simulate_hand(seed, seats=SEATS, options={"nerts_pile_size": 30})
    assert hand.end == "stalemate"
    assert hand.report.infractions == []
    kinds = [r.kind for r in hand.report.rulings]
    assert kinds.count("stalemate") == 1 and "reset" in kinds


def test_the_timed_move_stream_is_consistent() -> None:
    hand = simulate_hand(4, seats=SEATS)
    lands = [e.t_ns for e in hand.events]
    assert lands == sorted(lands)
    last_land: dict[tuple[int, int], int] = {}
    for m in sorted(hand.moves, key=lambda m: m.t_lift_ns):
        assert m.t_lift_ns <= m.t_land_ns
        key = (m.seat, m.actor)
        assert m.t_lift_ns >= last_land.get(key, 0), "one hand: a new lift before the last landing"
        last_land[key] = m.t_land_ns
        if m.kind == "play":
            assert m.card is not None and m.destination is not None and m.destination.startswith("F")
            assert m.source in ("nerts", "waste") or (m.source or "").startswith("work")
    outcomes = {m.outcome for m in hand.moves if m.kind == "play"}
    assert outcomes <= {"stands", "tie", "taken_back", "cancelled"}


def test_same_seed_same_hand_even_with_the_global_rng_disturbed() -> None:
    random.seed(1)
    a = simulate_hand(17, seats=SEATS)
    random.seed(2)
    random.random()
    b = simulate_hand(17, seats=SEATS)
    assert a.events == b.events and a.scores == b.scores
    assert [(m.t_lift_ns, m.t_land_ns, str(m.action)) for m in a.moves] == \
        [(m.t_lift_ns, m.t_land_ns, str(m.action)) for m in b.moves]
    assert simulate_hand(18, seats=SEATS).events != a.events


def test_the_log_replays_to_the_same_result_through_the_table_log() -> None:
    hand = simulate_hand(5, seats=SEATS, options={"tie_window_ms": 40})
    out = io.StringIO()
    write_table_log(out, hand.header, hand.events)
    header, events = parse_table_log(out.getvalue().splitlines())
    assert header.options == {"tie_window_ms": 40}
    report = replay_events(header, events)
    assert report.hands == hand.report.hands
    assert [r.text for r in report.rulings] == [r.text for r in hand.report.rulings]


@pytest.mark.parametrize("seed", range(4))
def test_the_camera_view_of_a_hand_referees_to_the_same_scores(seed: int) -> None:
    from kiosk.games.nerts_bots import camera_events
    from kiosk.games.nerts_referee import NertsReferee

    hand = simulate_hand(seed, seats=SEATS)
    referee = NertsReferee(hand.seats, NertsOptions())
    for e in camera_events(hand.events):
        referee.feed(e)
    report = referee.report()
    assert report.hands == hand.report.hands
    assert report.extra["hands"][0]["foundation"] == hand.report.extra["hands"][0]["foundation"]
    races = [r.text for r in hand.report.rulings if r.kind in ("race", "tie")]
    assert [r.text for r in report.rulings if r.kind in ("race", "tie")] == races


def test_a_faster_pace_finishes_sooner() -> None:
    slow_pace = BotPace(moves_per_second=0.8)
    slow = sum(simulate_hand(s, seats=SEATS, pace=slow_pace).duration_ns for s in range(4))
    fast = sum(simulate_hand(s, seats=SEATS, pace=BotPace(moves_per_second=3.0, reaction_ms=200,
                                                          flight_ms=200)).duration_ns for s in range(4))
    assert fast < slow / 2


def test_partnerships_play_two_cards_at_once_without_breaking_the_one_hand_rule() -> None:
    hand = simulate_hand(1, seats=["T1", "T2", "T3"], partners=[0, 1, 2])
    assert hand.report.infractions == []
    actors = {m.actor for m in hand.moves if m.seat == 0}
    assert actors == {0, 1}
    overlapping = [
        (a, b) for a in hand.moves for b in hand.moves
        if a.seat == b.seat == 0 and a.actor == 0 and b.actor == 1
        and a.t_lift_ns < b.t_land_ns and b.t_lift_ns < a.t_land_ns
    ]
    assert overlapping, "partners never had cards in the air together"


def test_bad_pace_is_rejected() -> None:
    with pytest.raises(ValueError, match="positive rates"):
        BotPace(moves_per_second=0)
