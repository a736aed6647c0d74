"""Every worked example of ``rules/nerts.md`` §14, from table-log lines to the exact result."""

from __future__ import annotations

from typing import Any

from tests.games.nerts_log import FOUR, breaches, ev, foundation, header, plays, run, texts

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def run_of(suit: str, low: int, high: int) -> list[str]:
    """Cards of one suit from rank ``low`` to ``high`` (1-based, inclusive)."""
    return [RANKS[r - 1] + suit for r in range(low, high + 1)]


def test_example_1_counting_foundations_card_by_card() -> None:
    lines = [
        header(["Ana", "Ben"]),
        ev("1", "hand_start"),
        *plays("Ana", ["AS"], "S", 2.0), *plays("Ben", ["2S"], "S", 3.0),
        *plays("Ana", ["3S", "4S"], "S", 4.0),
        *plays("Ben", ["AH", "2H"], "H1", 6.0), *plays("Ana", ["3H"], "H1", 8.0),
        *plays("Ana", ["AH"], "H2", 9.0),
        *plays("Ana", ["AD", "2D"], "D", 10.0), *plays("Ben", ["3D", "4D"], "D", 11.0),
        *plays("Ana", ["5D"], "D", 12.0), *plays("Ben", ["6D"], "D", 12.5),
        *plays("Ben", ["AC"], "C", 13.0),
        ev("14", "call", "Ana"),
        ev("20", "count", "Ana", nerts=0),
        ev("20", "count", "Ben", nerts=5),
        ev("21", "hand_end"),
    ]
    report = run(lines)
    assert report.infractions == []
    assert foundation(report) == {"Ana": 8, "Ben": 7}
    assert report.hands == [{"Ana": 8, "Ben": -3}]
    assert report.totals == {"Ana": 8, "Ben": -3}
    assert not report.finished


def test_example_2_end_of_a_four_seat_hand() -> None:
    before = {"Ana": 23, "Ben": 31, "Cal": 8, "Dee": 15}
    counts = {"Ana": (14, 0), "Ben": (9, 4), "Cal": (11, 2), "Dee": (6, 9)}
    lines = [header(), ev("1", "hand_start"), ev("60", "call", "Ana")]
    lines += [ev("61", "count", s, nerts=0, foundation=f) for s, f in before.items()]
    lines += [ev("62", "hand_end"), ev("100", "hand_start"), ev("200", "call", "Ana")]
    lines += [ev("201", "count", s, nerts=n, foundation=f) for s, (f, n) in counts.items()]
    lines += [ev("202", "hand_end")]
    report = run(lines)
    assert report.hands[1] == {"Ana": 14, "Ben": 1, "Cal": 7, "Dee": -12}
    assert report.totals == {"Ana": 37, "Ben": 32, "Cal": 15, "Dee": 3}
    assert not report.finished


def _hearts_to_four(*extra: str, **options: Any) -> list[str]:
    return [header(**options), ev("1", "hand_start"), *plays("Ana", run_of("H", 1, 4), "H", 2.0), *extra,
            ev("20", "hand_end")]


def test_example_3_an_obvious_tie_keeps_both_cards() -> None:
    report = run(_hearts_to_four(
        ev("12.480", "foundation_play", "Ben", err="0.002", card="5H", pile="H"),
        ev("12.500", "foundation_play", "Cal", err="0.002", card="5H", pile="H"),
        ev("13.900", "foundation_play", "Dee", card="6H", pile="H"),
        ev("15.200", "foundation_play", "Ana", card="7H", pile="H"),
    ))
    assert texts(report, "tie") == ["tie (20 ms): both stand"]
    assert report.infractions == []
    assert foundation(report) == {"Ana": 5, "Ben": 1, "Cal": 1, "Dee": 1}


def test_example_3_under_first_only_the_later_card_goes_back() -> None:
    report = run(_hearts_to_four(
        ev("12.480", "foundation_play", "Ben", err="0.002", card="5H", pile="H"),
        ev("12.500", "foundation_play", "Cal", err="0.002", card="5H", pile="H"),
        ev("13.900", "foundation_play", "Dee", card="6H", pile="H"),
        ev("15.200", "foundation_play", "Ana", card="7H", pile="H"),
        tie_policy="first_only",
    ))
    assert texts(report, "race") == ["Ben first by 20 ms: Cal, take back 5♥"]
    assert foundation(report) == {"Ana": 5, "Ben": 1, "Cal": 0, "Dee": 1}


def test_example_4_first_arrival_wins_and_the_loser_may_play_elsewhere() -> None:
    lines = [
        header(), ev("1", "hand_start"),
        *plays("Ana", run_of("C", 1, 8), "C1", 2.0),
        *plays("Dee", run_of("C", 1, 8), "C2", 8.0),
        ev("20.100", "foundation_play", "Ben", card="9C", pile="C1"),
        ev("20.450", "foundation_play", "Cal", card="9C", pile="C1"),
        ev("22.000", "foundation_play", "Cal", card="9C", pile="C2"),
        ev("30", "hand_end"),
    ]
    report = run(lines)
    assert texts(report, "race") == ["Ben first by 350 ms: Cal, take back 9♣"]
    assert report.infractions == []
    assert foundation(report) == {"Ana": 8, "Ben": 1, "Cal": 1, "Dee": 8}


def test_example_5_a_card_in_the_air_at_the_call() -> None:
    lines = [
        header(), ev("1", "hand_start"),
        *plays("Ana", run_of("D", 1, 8), "D", 2.0),
        *plays("Ana", run_of("S", 1, 4), "S1", 7.0),
        *plays("Ben", run_of("H", 1, 9), "H", 10.0),
        *plays("Cal", run_of("C", 1, 6), "C", 16.0),
        *plays("Cal", ["AS"], "S2", 20.0),
        ev("45.300", "call", "Ana"),
        ev("45.600", "foundation_play", "Ben", card="9D", pile="D", t_lift="45.100"),
        ev("45.700", "foundation_play", "Cal", card="2S", pile="S2", t_lift="45.400"),
        ev("50", "count", "Ana", nerts=0), ev("50", "count", "Ben", nerts=3),
        ev("50", "count", "Cal", nerts=5),
        ev("50", "count", "Dee", nerts=13),
        ev("51", "hand_end"),
    ]
    report = run(lines)
    assert breaches(report, "after_call") == ["Cal's 2♠ was lifted 100 ms after the call: take it back"]
    assert foundation(report) == {"Ana": 12, "Ben": 10, "Cal": 7, "Dee": 0}
    assert report.hands == [{"Ana": 12, "Ben": 4, "Cal": -3, "Dee": -26}]


def _late_call_log(call_at: str, ben_nerts: int, after: bool) -> list[str]:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             *plays("Ana", run_of("S", 1, 9), "S", 10.0),
             *plays("Ben", run_of("H", 1, 8), "H", 20.0)]
    if after:
        lines += plays("Ana", run_of("D", 1, 3), "D", 72.0) + plays("Ben", run_of("C", 1, 2), "C", 76.0)
    lines += [ev(call_at, "call", "Ana"), ev(call_at, "count", "Ana", nerts=0),
              ev(call_at, "count", "Ben", nerts=ben_nerts), ev(call_at, "hand_end")]
    return lines


def test_example_6_choosing_to_call_late() -> None:
    early = run(_late_call_log("70", 3, after=False))
    late = run(_late_call_log("85", 1, after=True))
    assert early.hands == [{"Ana": 9, "Ben": 2}]
    assert late.hands == [{"Ana": 12, "Ben": 8}]
    assert late.hands[0]["Ana"] - early.hands[0]["Ana"] == 3
    assert late.hands[0]["Ben"] - early.hands[0]["Ben"] == 6


def test_example_7_jokers() -> None:
    lines = [
        header(jokers=2), ev("1", "hand_start"),
        *plays("Dee", run_of("C", 1, 6), "C", 2.0),
        ev("6.0", "foundation_play", "Dee", card="JOKER", pile="C"),  # only 7♣ fits: inferred
        ev("7.0", "foundation_play", "Ana", card="8C", pile="C"),
        *plays("Dee", ["AD"], "D", 8.0),
        ev("9.0", "foundation_play", "Cal", card="JOKER", pile="H", **{"as": "AH"}),
        ev("9.5", "foundation_play", "Ben", card="2S", pile="H"),  # the declaration fixed ♥
        ev("10.0", "foundation_play", "Cal", card="2H", pile="H"),
        *plays("Ben", run_of("S", 1, 5), "S", 11.0),
        ev("20", "call", "Ana"),
        ev("21", "count", "Ana", nerts=0), ev("21", "count", "Ben", nerts=3),
        ev("21", "count", "Cal", nerts=4), ev("21", "count", "Dee", nerts=2),
        ev("22", "hand_end"),
    ]
    report = run(lines)
    assert breaches(report) == ["Ben's 2♠ on H: wrong suit, the pile is ♥ (top A♥). Ben, take it back"]
    assert foundation(report) == {"Ana": 1, "Ben": 5, "Cal": 2, "Dee": 8}
    assert report.hands == [{"Ana": 1, "Ben": -1, "Cal": -6, "Dee": 4}]


def test_example_7_a_joker_declared_against_its_pile_is_illegal() -> None:
    lines = [header(jokers=2), ev("1", "hand_start"), *plays("Dee", run_of("C", 1, 6), "C", 2.0),
             ev("6.0", "foundation_play", "Dee", card="JOKER", pile="C", **{"as": "9C"})]
    report = run(lines)
    assert breaches(report, "illegal_play") == [
        "Dee's JOKER on C: wrong rank, the pile needs 7♣. Dee, take it back"]


def test_example_8_stalemate_after_a_reset_with_no_progress() -> None:
    three = ["Ana", "Ben", "Cal"]
    lines = [header(three), ev("1", "hand_start"), *plays("Ana", run_of("S", 1, 3), "S", 10.0)]
    lines += [ev("400", "stuck", s) for s in three]
    lines += [ev("410", "foundation_play", "Ben", card="4S", pile="S")]
    lines += [ev("485", "stuck", s) for s in three]
    lines += [ev("570", "stuck", s) for s in three]
    counts = {"Ana": (10, 3), "Ben": (12, 1), "Cal": (7, 6)}
    lines += [ev("580", "count", s, nerts=n, foundation=f) for s, (f, n) in counts.items()]
    lines += [ev("581", "hand_end")]
    report = run(lines)
    kinds = [r.kind for r in report.rulings if r.kind in ("reset", "stalemate")]
    assert kinds == ["reset", "reset", "stalemate"]
    assert report.extra["hands"][0]["end"] == "stalemate"
    assert report.hands == [{"Ana": 4, "Ben": 10, "Cal": -5}]


def test_example_8_without_progress_the_first_reset_is_the_last() -> None:
    three = ["Ana", "Ben", "Cal"]
    lines = [header(three), ev("1", "hand_start")]
    lines += [ev("400", "stuck", s) for s in three] + [ev("485", "stuck", s) for s in three]
    report = run(lines)
    assert [r.kind for r in report.rulings if r.kind in ("reset", "stalemate")] == ["reset", "stalemate"]


def test_example_9_partnerships() -> None:
    teams = ["T1", "T2", "T3"]
    lines = [
        header(teams), ev("1", "hand_start"),
        # Ana and Ben (T1) each have a card in the air at once: one hand each, so legal.
        ev("5.0", "foundation_play", "T1", card="AS", pile="S", t_lift="4.6", actor="Ana"),
        ev("5.1", "foundation_play", "T1", card="AH", pile="H", t_lift="4.7", actor="Ben"),
        ev("60", "call", "T2"),
        ev("61", "count", "T1", nerts=3, foundation=18),
        ev("61", "count", "T2", nerts=0, foundation=21),
        ev("61", "count", "T3", nerts=5, foundation=15),
        ev("62", "hand_end"),
    ]
    report = run(lines)
    assert breaches(report, "one_hand") == []
    assert report.hands == [{"T1": 12, "T2": 21, "T3": 5}]


def test_example_9_one_partner_with_two_cards_in_flight_is_an_infraction() -> None:
    lines = [
        header(["T1", "T2", "T3"]), ev("1", "hand_start"),
        ev("5.0", "foundation_play", "T1", card="AS", pile="S", t_lift="4.6", actor="Ana"),
        ev("5.1", "foundation_play", "T1", card="AH", pile="H", t_lift="4.7", actor="Ana"),
    ]
    assert breaches(run(lines), "one_hand") == ["Ana had two cards in flight at once (one hand only)"]


def _hands_to(scores: list[tuple[int, int, int]], **options: Any) -> list[str]:
    three = ["Ana", "Ben", "Cal"]
    lines = [header(three, **options)]
    t = 0
    for hand in scores:
        lines += [ev(str(t + 1), "hand_start"), ev(str(t + 50), "call", "Ana")]
        lines += [ev(str(t + 51), "count", s, nerts=0, foundation=f)
                  for s, f in zip(three, hand, strict=True)]
        lines += [ev(str(t + 52), "hand_end")]
        t += 100
    return lines


def test_example_10_a_tie_for_the_win_plays_on() -> None:
    report = run(_hands_to([(46, 44, 48), (46, 44, 49), (11, 15, 2), (6, 9, 14)]))
    assert [sum(h[s] for h in report.hands[:2]) for s in ("Ana", "Ben", "Cal")] == [92, 88, 97]
    assert "Ana and Ben tie for the lead on 103: another hand" in texts(report, "tie_for_win")
    assert report.totals == {"Ana": 109, "Ben": 112, "Cal": 113}
    assert report.finished and report.winners == ["Cal"]


def test_example_10_a_tie_for_the_win_stops_the_game_without_play_on() -> None:
    report = run(_hands_to([(46, 44, 48), (46, 44, 49), (11, 15, 2)], tie_break="shared"))
    assert report.totals == {"Ana": 103, "Ben": 103, "Cal": 99}
    assert report.finished and report.winners == ["Ana", "Ben"]


def test_example_10_no_more_hands_after_the_game_ends() -> None:
    lines = _hands_to([(46, 44, 48), (46, 44, 49), (11, 15, 2)], tie_break="shared")
    lines.append(ev("400", "hand_start"))
    report = run(lines)
    assert breaches(report, "after_game") == ["hand_start after the game is over: ignored"]


def test_example_11_a_false_call_is_void_and_play_goes_on() -> None:
    lines = [header(), ev("1", "hand_start"),
             ev("30", "call", "Dee", nerts_left=1),
             *plays("Ben", ["AD"], "D", 31.0),
             ev("40", "call", "Ana"),
             *[ev("41", "count", s, nerts=n) for s, n in zip(FOUR, (0, 4, 4, 1), strict=True)],
             ev("42", "hand_end")]
    report = run(lines)
    assert texts(report, "false_call") == ["false call: Dee still has 1 Nerts card: play on"]
    assert report.extra["hands"][0]["caller"] == "Ana"
    assert report.hands == [{"Ana": 0, "Ben": -7, "Cal": -8, "Dee": -2}]


def test_example_11_with_a_false_call_penalty() -> None:
    lines = [header(false_call_penalty=5), ev("1", "hand_start"), ev("30", "call", "Dee", nerts_left=1),
             ev("40", "call", "Ana"),
             *[ev("41", "count", s, nerts=n) for s, n in zip(FOUR, (0, 4, 4, 1), strict=True)]]
    report = run(lines)
    assert texts(report, "false_call") == ["false call: Dee still has 1 Nerts card: play on (5 points off)"]
    assert report.hands == [{"Ana": 0, "Ben": -8, "Cal": -8, "Dee": -7}]
