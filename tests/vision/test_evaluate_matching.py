"""How the end-to-end scorer pairs tracked events with true ones (``vision.simulator.evaluate``).

A tracked event names a card, a seat and a time with an error bar. It is the true event it names when
the true time lies within 150 ms of it, or within its own stated err when that is wider: an event that
happened, timed honestly but loosely, is neither a false event nor a miss. Its time error still counts
in the landing-time figures, and an err that does not cover the truth leaves it false and the true event
missed.
"""

from __future__ import annotations

from kiosk.games.referee import LogHeader, TableEvent
from vision.simulator.evaluate import MATCH_MAX_NS, cut_logs, score_hand

MS = 1_000_000
HEADER = LogHeader("nerts", ("Ana", "Ben"), {}, 1, {"piles": {"F1": [500.0, 400.0]}})
PILES = {"F1": (500.0, 400.0)}


def _play(t: int, err: int, seat: str = "Ana", card: str = "AS") -> TableEvent:
    return TableEvent("foundation_play", t, err, seat, {"card": card, "pile": "F1"})


def _move(t: int, err: int) -> TableEvent:
    return TableEvent("move", t, err, "Ben", {"card": "7D", "from": "waste", "to": "work2"})


def test_a_play_timed_within_its_stated_err_is_found_and_its_error_counted() -> None:
    truth = [_play(1_000 * MS, 0)]
    sc = score_hand(HEADER, truth, [_play(1_240 * MS, 300 * MS)], PILES)
    assert (sc.plays_right, sc.false_events, sc.misses) == (1, 0, [])
    assert sc.landing_errors_ns == [240 * MS]
    assert sc.covered == 1


def test_a_play_outside_its_err_and_the_match_window_is_false_and_its_truth_missed() -> None:
    truth = [_play(1_000 * MS, 0)]
    sc = score_hand(HEADER, truth, [_play(1_240 * MS, 100 * MS)], PILES)
    assert (sc.plays_right, sc.false_events, len(sc.misses)) == (0, 1, 1)


def test_a_play_within_the_match_window_pairs_whatever_its_err() -> None:
    sc = score_hand(HEADER, [_play(1_000 * MS, 0)], [_play(1_100 * MS, 5 * MS)], PILES)
    assert (sc.plays_right, sc.false_events, sc.covered) == (1, 0, 0)


def test_a_very_wide_err_pairs_no_further_than_the_cap() -> None:
    far = MATCH_MAX_NS + 200 * MS
    sc = score_hand(HEADER, [_play(1_000 * MS, 0)], [_play(1_000 * MS + far, 5_000 * MS)], PILES)
    assert (sc.plays_right, sc.false_events) == (0, 1)


def test_a_move_timed_within_its_stated_err_is_right() -> None:
    truth = [_move(2_000 * MS, 0)]
    assert score_hand(HEADER, truth, [_move(2_300 * MS, 320 * MS)], PILES).moves_right == 1
    loose = score_hand(HEADER, truth, [_move(2_300 * MS, 200 * MS)], PILES)
    assert (loose.moves_right, loose.false_events) == (0, 1)


def _top(t: int, card: str) -> TableEvent:
    return TableEvent("nerts_top", t, 0, "Ana", {"card": card})


def _from_nerts(t: int, card: str) -> TableEvent:
    return TableEvent("move", t, 0, "Ana", {"card": card, "from": "nerts", "to": "work1"})


def test_a_cut_hand_weighs_a_nerts_top_by_the_departure_it_reports() -> None:
    # The camera sees the next Nerts card as soon as the one above it is lifted; the truth has that
    # card leave when it lands. A lift before the cut that lands after it is still in the pile.
    cut, end = 1_000 * MS, 3_000 * MS
    truth = [_from_nerts(1_100 * MS, "9H")]
    _, kept = cut_logs(truth, [_top(10 * MS, "9H"), _top(900 * MS, "KC")], cut, end)
    assert [e.get("card") for e in kept] == ["9H"]
    # And a card landed before the cut whose successor settled after it has left.
    truth = [_from_nerts(950 * MS, "9H")]
    _, kept = cut_logs(truth, [_top(10 * MS, "9H"), _top(1_050 * MS, "KC")], cut, end)
    assert [e.get("card") for e in kept] == ["9H", "KC"]
    # A top after the cut reporting a departure after it too stays out.
    truth = [_from_nerts(1_500 * MS, "9H")]
    _, kept = cut_logs(truth, [_top(10 * MS, "9H"), _top(1_200 * MS, "KC")], cut, end)
    assert [e.get("card") for e in kept] == ["9H"]
    # A card refused on a foundation comes back on top; what counts is its departure after that.
    truth = [_from_nerts(300 * MS, "9H"), _from_nerts(1_500 * MS, "9H")]
    tracked = [_top(10 * MS, "9H"), _top(200 * MS, "KC"), _top(400 * MS, "9H"), _top(900 * MS, "KC")]
    _, kept = cut_logs(truth, tracked, cut, end)
    assert [e.get("card") for e in kept] == ["9H", "KC", "9H"]
