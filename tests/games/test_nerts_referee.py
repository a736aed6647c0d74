"""The Nerts referee: races at the exact edge of the tie window, three-way races, a race
onto a pile a King just completed, illegal plays, the call, and malformed events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kiosk.games.errors import InvalidActionError
from kiosk.games.nerts import NertsGame
from kiosk.games.referee import TableEvent
from kiosk.tablelog import LogFormatError
from tests.games.nerts_log import breaches, ev, foundation, header, plays, run, texts

HEARTS_TO_4 = plays("Ana", ["AH", "2H", "3H", "4H"], "H", 2.0)


def race(*contenders: tuple[str, str, str], **options: Any) -> list[str]:
    """A ♥ pile at level 4, then 5♥ from each (seat, t, err)."""
    lines = [header(**options), ev("1", "hand_start"), *HEARTS_TO_4]
    lines += [ev(t, "foundation_play", seat, err=err, card="5H", pile="H") for seat, t, err in contenders]
    return lines + [ev("30", "hand_end")]


def test_gap_equal_to_window_plus_errors_is_a_tie() -> None:
    report = run(race(("Ben", "12.480000000", "0.002"), ("Cal", "12.515000000", "0.003")))
    assert texts(report, "tie") == ["tie (35 ms): both stand"]
    assert foundation(report)["Cal"] == 1


def test_gap_one_nanosecond_above_window_plus_errors_is_a_race() -> None:
    report = run(race(("Ben", "12.480000000", "0.002"), ("Cal", "12.515000001", "0.003")))
    assert texts(report, "tie") == []
    assert texts(report, "race") == ["Ben first by 35 ms: Cal, take back 5♥"]
    assert foundation(report)["Cal"] == 0


def test_without_uncertainty_the_window_alone_decides() -> None:
    at_edge = run(race(("Ben", "12.48", "0"), ("Cal", "12.51", "0")))
    above = run(race(("Ben", "12.48", "0"), ("Cal", "12.510000001", "0")))
    assert texts(at_edge, "tie") == ["tie (30 ms): both stand"]
    assert texts(above, "race") == ["Ben first by 30 ms: Cal, take back 5♥"]


def test_tie_window_option_changes_the_edge() -> None:
    report = run(race(("Ben", "12.48", "0"), ("Cal", "12.51", "0"), tie_window_ms=10))
    assert texts(report, "race") == ["Ben first by 30 ms: Cal, take back 5♥"]


def test_three_way_tie_keeps_all_three() -> None:
    report = run(race(("Ben", "12.000", "0"), ("Cal", "12.010", "0"), ("Dee", "12.025", "0")))
    assert texts(report, "tie") == ["tie (10 ms): both stand", "tie (25 ms): all 3 stand"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 1, "Dee": 1}


def test_three_way_race_compares_each_with_the_earliest() -> None:
    # Dee is 20 ms after Cal but 40 ms after Ben, the earliest: Dee loses.
    report = run(race(("Ben", "12.000", "0"), ("Cal", "12.020", "0"), ("Dee", "12.040", "0")))
    assert texts(report, "tie") == ["tie (20 ms): both stand"]
    assert texts(report, "race") == ["Ben first by 40 ms: Dee, take back 5♥"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 1, "Dee": 0}


def test_next_card_after_a_tie_covers_both() -> None:
    lines = race(("Ben", "12.480", "0.002"), ("Cal", "12.500", "0.002"))[:-1]
    lines += [ev("13", "foundation_play", "Dee", card="5H", pile="H"),
              ev("14", "foundation_play", "Dee", card="6H", pile="H"), ev("30", "hand_end")]
    report = run(lines)
    assert texts(report, "race") == ["Ben first by 520 ms: Dee, take back 5♥"]
    assert foundation(report) == {"Ana": 4, "Ben": 1, "Cal": 1, "Dee": 1}


def test_race_onto_a_pile_a_king_just_completed() -> None:
    cards = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
    lines = [header(), ev("1", "hand_start"), *plays("Ana", cards, "H", 2.0),
             ev("20.000", "foundation_play", "Ben", err="0.004", card="KH", pile="H"),
             ev("20.012", "foundation_play", "Cal", err="0.004", card="KH", pile="H"),
             ev("20.300", "foundation_play", "Dee", card="KH", pile="H"),
             ev("21.000", "foundation_play", "Dee", card="AH", pile="H"),
             ev("30", "hand_end")]
    report = run(lines)
    assert texts(report, "tie") == ["tie (12 ms): both stand"]
    assert texts(report, "race") == ["Ben first by 300 ms: Dee, take back K♥"]
    assert breaches(report, "illegal_play") == [
        "Dee's A♥ on H: the pile is complete (K♥). Dee, take it back"]
    assert foundation(report) == {"Ana": 12, "Ben": 1, "Cal": 1, "Dee": 0}


def test_cards_on_two_different_piles_never_race() -> None:
    lines = [header(), ev("1", "hand_start"), *plays("Ana", ["AH"], "H1", 2.0),
             *plays("Ben", ["AH"], "H2", 2.5),
             ev("5.000", "foundation_play", "Cal", card="2H", pile="H1"),
             ev("5.001", "foundation_play", "Dee", card="2H", pile="H2"), ev("30", "hand_end")]
    report = run(lines)
    assert texts(report, "race") == [] and texts(report, "tie") == [] and report.infractions == []


@pytest.mark.parametrize(("card", "pile", "message"), [
    ("7H", "H", "Cal's 7♥ on H: wrong rank, the pile needs 5♥. Cal, take it back"),
    ("5S", "H", "Cal's 5♠ on H: wrong suit, the pile is ♥ (top 4♥). Cal, take it back"),
    ("5C", "C9", "Cal's 5♣ cannot start foundation C9: only an Ace can. Cal, take it back"),
])
def test_illegal_plays_are_infractions_that_ask_for_the_card_back(card: str, pile: str, message: str) -> None:
    lines = [header(), ev("1", "hand_start"), *HEARTS_TO_4,
             ev("10", "foundation_play", "Cal", card=card, pile=pile), ev("30", "hand_end")]
    report = run(lines)
    assert breaches(report, "illegal_play") == [message]
    assert foundation(report)["Cal"] == 0


def test_a_card_of_another_deck_is_an_infraction() -> None:
    lines = [header(), ev("1", "hand_start"), ev("2", "foundation_play", "Ana", card="AS@1", pile="S"),
             ev("3", "foundation_play", "Ana", card="AS@0", pile="S"), ev("4", "hand_end")]
    report = run(lines)
    assert breaches(report, "own_cards_only") == [
        "Ana played Ben's A♠: a seat moves only its own cards. Ana, give it back"]
    assert foundation(report)["Ana"] == 1


def test_a_seat_cannot_play_the_same_card_twice() -> None:
    lines = [header(), ev("1", "hand_start"), *plays("Ben", ["AH"], "H1", 2.0),
             *plays("Ben", ["AH"], "H2", 3.0)]
    assert breaches(run(lines), "seen_twice") == [
        "Ben's A♥ is already on a foundation: a misread, or a card from another deck"]


def test_a_play_landing_after_the_call_without_lift_time_is_presumed_in_the_air() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), ev("10", "call", "Ana"),
             ev("10.2", "foundation_play", "Ben", card="AS", pile="S")]
    report = run(lines)
    assert texts(report, "air") == [
        "Ben's A♠ landed after the call with no lift time: presumed in the air: it counts if legal"]
    assert report.extra["hands"][0]["foundation"] == {"Ana": 0, "Ben": 1}


def test_the_log_may_end_after_the_call_without_hand_end() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ben", ["AS", "2S"], "S", 2.0),
             ev("10", "call", "Ana"), ev("11", "count", "Ana", nerts=0), ev("11", "count", "Ben", nerts=6)]
    report = run(lines)
    assert report.hands == [{"Ana": 0, "Ben": -10}]


def test_missing_counts_are_estimated_from_cards_leaving_the_nerts_pile() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             ev("2", "foundation_play", "Ben", card="AS", pile="S", **{"from": "nerts"}),
             ev("3", "foundation_play", "Ben", card="2S", pile="S", **{"from": "waste"}),
             ev("10", "call", "Ana"), ev("11", "hand_end")]
    report = run(lines)
    assert report.hands == [{"Ana": 0, "Ben": 2 - 2 * 12}]
    assert "hand 1: no Nerts count for Ben: estimated 12 from the cards seen leaving it" in report.notes


def test_a_new_nerts_top_counts_the_card_before_it_as_gone_even_when_its_move_went_unseen() -> None:
    # Ben's Nerts pile shows 7D, then AC (7D went to a work pile the camera missed), then QH: AC went,
    # and its play was seen too. Two cards gone, counted once each.
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             ev("1.5", "nerts_top", "Ben", card="7D"),
             ev("4", "nerts_top", "Ben", card="AC"),
             ev("6", "nerts_top", "Ben", card="QH"),
             ev("6.2", "foundation_play", "Ben", card="AC", pile="C", **{"from": "nerts"}),
             ev("10", "call", "Ana"), ev("11", "hand_end")]
    report = run(lines)
    assert report.hands == [{"Ana": 0, "Ben": 1 - 2 * 11}]
    assert "hand 1: no Nerts count for Ben: estimated 11 from the cards seen leaving it" in report.notes


def test_a_nerts_top_seen_again_after_a_misread_leaves_the_count_as_it_was() -> None:
    # 7D misread as 7H for a while: "7H" on top, then 7D again. No card left the pile.
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             ev("1.5", "nerts_top", "Ben", card="7D"),
             ev("4", "nerts_top", "Ben", card="7H"),
             ev("5", "nerts_top", "Ben", card="7D"),
             ev("10", "call", "Ana"), ev("11", "hand_end")]
    assert run(lines).hands == [{"Ana": 0, "Ben": -26}]


def test_a_refused_nerts_card_played_again_counts_once() -> None:
    # Ben's 2S loses a race, goes back on his Nerts pile (the camera sees it on top again) and is played
    # again later: one card left the pile, not two.
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AS"], "S", 2.0),
             ev("2.9", "nerts_top", "Ben", card="2S"),
             ev("3", "foundation_play", "Ana", card="2S", pile="S"),
             ev("3.2", "foundation_play", "Ben", card="2S", pile="S", **{"from": "nerts"}),
             ev("3.5", "nerts_top", "Ben", card="5H"),
             ev("4", "move", "Ben", card="2S", to="nerts", **{"from": "S"}),
             ev("4.1", "nerts_top", "Ben", card="2S"),
             ev("7", "foundation_play", "Ben", card="AS", pile="S2", **{"from": "waste"}),
             ev("8.5", "foundation_play", "Ben", card="2S", pile="S2", **{"from": "nerts"}),
             ev("10", "call", "Ana"), ev("11", "hand_end")]
    report = run(lines)
    assert texts(report, "race") == ["Ana first by 200 ms: Ben, take back 2♠"]
    assert report.hands[0]["Ben"] == 2 - 2 * 12


def test_nerts_tops_seen_before_go_are_the_hands_first_and_those_after_a_call_the_next_hands() -> None:
    # The camera sees Ben's first Nerts card while the hand is dealt, before "Go"; then 9C replaces it.
    # After Ana's call, the next deal's top (KS) changes nothing in the hand just called.
    lines = [header(["Ana", "Ben"]), ev("0.5", "nerts_top", "Ben", card="7D"), ev("1", "hand_start"),
             ev("4", "nerts_top", "Ben", card="9C"),
             ev("10", "call", "Ana"), ev("10.5", "nerts_top", "Ben", card="KS"), ev("11", "hand_end"),
             ev("12", "hand_start"), ev("13", "nerts_top", "Ben", card="2H"),
             ev("20", "call", "Ana"), ev("21", "hand_end")]
    report = run(lines)
    # Hand 1: 7D gone (N 12). Hand 2: KS was its first top, 2H replaced it (N 12 again).
    assert report.hands == [{"Ana": 0, "Ben": -24}, {"Ana": 0, "Ben": -24}]


def test_nerts_top_needs_a_card() -> None:
    with pytest.raises(LogFormatError, match="line 3: 'nerts_top' event needs a 'card' field"):
        run([header(["Ana", "Ben"]), ev("1", "hand_start"), ev("2", "nerts_top", "Ben")])


def test_audit_counts_override_tracking_and_the_difference_is_logged() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ben", ["AS", "2S"], "S", 2.0),
             ev("10", "call", "Ana"), ev("11", "count", "Ana", nerts=0, foundation=1),
             ev("11", "count", "Ben", nerts=6, foundation=1), ev("12", "hand_end")]
    report = run(lines)
    assert report.hands == [{"Ana": 1, "Ben": -11}]
    assert texts(report, "audit") == ["audit: Ana has 1 cards on the foundations (live tracking saw 0)",
                                      "audit: Ben has 1 cards on the foundations (live tracking saw 2)"]
    tracking = run([header(["Ana", "Ben"], attribution_source="tracking_only"), *lines[1:]])
    assert tracking.hands == [{"Ana": 0, "Ben": -10}]


def test_rotating_without_being_stuck_is_an_infraction() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), ev("2", "rotate", "Ana"),
             ev("3", "stuck", "Ana"), ev("4", "rotate", "Ana")]
    assert breaches(run(lines)) == ["Ana rotated the stock without being stuck: declare stuck first"]


def test_undo_takes_back_the_last_event() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ben", ["AS"], "S", 2.0),
             ev("3", "foundation_play", "Ana", card="3S", pile="S"), ev("4", "undo"), ev("5", "hand_end")]
    report = run(lines)
    assert report.infractions == []
    assert foundation(report) == {"Ana": 0, "Ben": 1}


# -- malformed events -------------------------------------------------------------------------

def _feed(event: TableEvent, seats: tuple[str, ...] = ("Ana", "Ben"), **options: object) -> None:
    referee = NertsGame(dict(options), seats=seats).referee()
    referee.feed(TableEvent("hand_start", 0))
    referee.feed(event)


@pytest.mark.parametrize(("event", "problem"), [
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5X", "pile": "H"}), "invalid card: '5X'"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"pile": "H"}), "needs a 'card' field"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H"}), "needs a 'pile' field"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H", "pile": ""}),
     "'pile' must be a pile id"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "JOKER", "pile": "H"}), "no jokers"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H", "pile": "H", "as": "6H"}),
     "only a joker carries a declaration"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H", "pile": "H", "from": "hand"}),
     "unknown source 'hand'"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H", "pile": "H", "t_lift": "soon"}),
     "'t_lift' must be a number of seconds"),
    (TableEvent("foundation_play", 1, seat="Ana", data={"card": "5H", "pile": "H", "t_lift": 2}),
     "is after the landing"),
    (TableEvent("foundation_play", 1, seat="Eve", data={"card": "5H", "pile": "H"}), "seat 'Eve' is not in"),
    (TableEvent("foundation_play", 1, data={"card": "5H", "pile": "H"}), "needs a 'seat' field"),
    (TableEvent("move", 1, seat="Ana", data={"card": "5H", "from": "waste", "to": "work9"}),
     "unknown destination 'work9'"),
    (TableEvent("count", 1, seat="Ana", data={}), "a count needs 'nerts'"),
    (TableEvent("count", 1, seat="Ana", data={"nerts": -1}), "must be a whole number >= 0"),
    (TableEvent("count", 1, seat="Ana", data={"nerts": 14}), "exceeds the Nerts pile size 13"),
    (TableEvent("call", 1, seat="Ana", data={"nerts_left": "none"}), "'nerts_left' must be a whole number"),
    (TableEvent("hand_start", 1, data={"deal": {"Ana": "AS 2S"}}), "'deal' must list every seat once"),
    (TableEvent("hand_start", 1, data={"deal": {"Ana": "AS 2S", "Ben": "3S"}}),
     "must hold each card of a 52-card deck exactly once"),
    (TableEvent("shuffle", 1, seat="Ana"), "unknown event type 'shuffle'"),
])
def test_malformed_events_raise_invalid_action_naming_the_problem(event: TableEvent, problem: str) -> None:
    with pytest.raises(InvalidActionError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        _feed(event)


def test_malformed_line_in_a_log_names_the_line() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"),
             ev("2", "foundation_play", "Ana", card="1Z", pile="S")]
    with pytest.raises(LogFormatError, match=r"line 3: invalid card: '1Z'"):
        run(lines)


def test_unknown_option_is_rejected_with_the_known_ones() -> None:
    with pytest.raises(LogFormatError, match="nerts has no option 'tie_window'"):
        run([header(["Ana", "Ben"], tie_window=30)])


def test_a_rejected_event_leaves_the_referee_unchanged() -> None:
    referee = NertsGame(seats=["Ana", "Ben"]).referee()
    referee.feed(TableEvent("foundation_play", 1, seat="Ana", data={"card": "AS", "pile": "S"}))
    with pytest.raises(InvalidActionError):
        referee.feed(TableEvent("foundation_play", 2, seat="Ben", data={"card": "2Q", "pile": "S"}))
    referee.feed(TableEvent("foundation_play", 3, seat="Ben", data={"card": "2S", "pile": "S"}))
    assert referee.infractions == []


def test_lift_times_read_as_floats_convert_to_exact_nanoseconds() -> None:
    from decimal import Decimal

    from kiosk.games.nerts_referee import _seconds

    rng = random.Random(5)
    for _ in range(20000):
        ns = rng.randrange(0, 999_999 * 10**9)
        text = f"{ns // 10**9}.{ns % 10**9:09d}"
        assert _seconds(float(text), "t_lift") == ns == _seconds(Decimal(text), "t_lift"), text


# -- a full log: the referee tracks every layout ---------------------------------------------

def _full_log_start(**options: Any) -> list[str]:
    """Ana's Nerts pile has A♥ on top; her work piles are 9H 8S KD 4D; Ben's deck is in order."""
    from kiosk.games.cards import standard_deck

    ana = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AH 9H 8S KD 4D".split()
    rest = [c.face_str() for c in standard_deck() if c.face_str() not in ana]
    deal = {"Ana": " ".join(ana + rest), "Ben": " ".join(c.face_str() for c in standard_deck())}
    return [header(["Ana", "Ben"], **options), ev("1", "hand_start", deal=deal)]


def test_full_log_moves_are_checked_against_the_layout() -> None:
    lines = _full_log_start() + [
        ev("2", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"}),  # 8♠ on 9♥: legal
        ev("3", "move", "Ana", card="4D", **{"from": "work4", "to": "work3"}),  # 4♦ on K♦: illegal
        ev("4", "foundation_play", "Ana", card="5S", pile="S"),  # not in Ana's reach
        ev("5", "foundation_play", "Ana", card="AH", pile="H"),  # Nerts top
        ev("6", "move", "Ana", card="KC", **{"from": "nerts", "to": "work2"}),  # fills the emptied pile
        ev("7", "turn", "Ana"),
        ev("8", "hand_end"),
    ]
    report = run(lines)
    assert breaches(report) == [
        "Ana: 4♦ does not fit on K♦: take it back",
        "Ana's 5♠ is not available in Ana's layout (Nerts top, waste top or an exposed work card): "
        "take it back",
    ]
    assert report.hands == [{"Ana": 1 - 2 * 11, "Ben": -26}]


def test_full_log_enforces_compulsory_aces_and_filling() -> None:
    aces = run(_full_log_start(aces_compulsory=True) + [ev("2", "turn", "Ana")])
    assert breaches(aces) == ["Ana: A♥ must go to the centre first (aces_compulsory)"]
    fill = run(_full_log_start(must_fill_from_nerts=True) + [
        ev("2", "move", "Ana", card="8S", **{"from": "work2", "to": "work1"}),
        ev("3", "foundation_play", "Ana", card="AH", pile="H"),
        ev("4", "move", "Ana", card="AH", **{"from": "nerts", "to": "work2"}),
    ])
    assert breaches(fill) == [
        "Ana: an empty work pile must first be filled from the Nerts pile (must_fill_from_nerts). "
        "Ana, take back A♥"]


def test_one_hand_rule_can_be_switched_off() -> None:
    two_in_flight = [ev("1", "hand_start"),
                     ev("5.0", "foundation_play", "Ana", card="AS", pile="S", t_lift="4.6"),
                     ev("5.1", "foundation_play", "Ana", card="AH", pile="H", t_lift="4.7")]
    assert len(breaches(run([header(["Ana", "Ben"]), *two_in_flight]), "one_hand")) == 1
    assert breaches(run([header(["Ana", "Ben"], one_hand_rule=False), *two_in_flight]), "one_hand") == []


def test_stalemate_after_zero_resets_ends_at_the_first_all_stuck() -> None:
    lines = [header(["Ana", "Ben"], stalemate_after_resets=0), ev("1", "hand_start"),
             ev("2", "stuck", "Ana"), ev("3", "stuck", "Ben")]
    assert [r.kind for r in run(lines).rulings if r.kind in ("reset", "stalemate")] == ["stalemate"]


def test_rotation_is_an_infraction_without_solo_rotation() -> None:
    lines = [header(["Ana", "Ben"], solo_rotation=False), ev("1", "hand_start"), ev("2", "stuck", "Ana"),
             ev("3", "rotate", "Ana")]
    assert breaches(run(lines)) == ["Ana rotated the stock, but solo_rotation is off"]


# -- unseen plays (a card the pile proves went on, its landing not seen) -------------------------

def test_an_unseen_play_raises_the_pile_so_later_cards_on_it_stand() -> None:
    # The camera missed the 2♣ land; the 3♣ seen landing on the A♣ proves it went on. Without the
    # unseen play, the 3♣ and every card after it would be refused as the wrong rank.
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             ev("2.8", "unseen_play", card="2C", pile="F1"),
             *plays("Ben", ["3C", "4C"], "F1", 3.0),
             ev("10", "call", "Ana"), ev("12", "hand_end")]
    report = run(lines)
    assert breaches(report) == []
    # Nobody is credited with the 2♣: Ana has her A♣, Ben his 3♣ and 4♣.
    assert foundation(report) == {"Ana": 1, "Ben": 2}


def test_without_the_unseen_play_the_gap_is_refused() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             *plays("Ben", ["3C"], "F1", 3.0), ev("10", "call", "Ana"), ev("12", "hand_end")]
    assert breaches(run(lines)) == ["Ben's 3♣ on F1: wrong rank, the pile needs 2♣. Ben, take it back"]


def test_the_audit_counts_the_unseen_card_for_its_owner() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             ev("2.8", "unseen_play", card="2C", pile="F1"), *plays("Ben", ["3C"], "F1", 3.0),
             ev("10", "call", "Ana"), ev("11", "count", "Ana", nerts=0, foundation=2),
             ev("11", "count", "Ben", nerts=5, foundation=1), ev("12", "hand_end")]
    report = run(lines)
    assert report.hands == [{"Ana": 2, "Ben": 1 - 2 * 5}]
    assert texts(report, "audit") == ["audit: Ana has 2 cards on the foundations (live tracking saw 1)"]


def test_an_unseen_ace_starts_a_pile() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), ev("2", "unseen_play", card="AD", pile="F1"),
             *plays("Ben", ["2D"], "F1", 3.0), ev("10", "call", "Ana"), ev("12", "hand_end")]
    report = run(lines)
    assert breaches(report) == []
    assert foundation(report) == {"Ana": 0, "Ben": 1}


def test_a_twin_of_an_unseen_card_is_refused_as_the_wrong_rank() -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             ev("2.8", "unseen_play", card="2C", pile="F1"), *plays("Ben", ["2C"], "F1", 3.0)]
    assert breaches(run(lines)) == ["Ben's 2♣ on F1: wrong rank, the pile needs 3♣. Ben, take it back"]


@pytest.mark.parametrize(
    ("card", "pile", "message"),
    [
        ("3C", "F1", "unseen 3♣ on F1: wrong rank, the pile needs 2♣; ignored"),
        ("2H", "F1", "unseen 2♥ on F1: wrong suit, the pile is ♣ (top A♣); ignored"),
        ("2C", "F9", "unseen 2♣ cannot start foundation F9; ignored"),
    ],
)
def test_an_unseen_play_that_does_not_fit_is_ignored(card: str, pile: str, message: str) -> None:
    lines = [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             ev("3", "unseen_play", card=card, pile=pile), *plays("Ben", ["2C"], "F1", 4.0),
             ev("10", "call", "Ana"), ev("12", "hand_end")]
    report = run(lines)
    assert breaches(report) == [message]
    assert foundation(report) == {"Ana": 1, "Ben": 1}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seat": "Ana", "card": "2C", "pile": "F1"}, "names no seat"),
        ({"card": "JOKER", "pile": "F1"}, "must be a plain face"),
        ({"card": "2C@1", "pile": "F1"}, "must be a plain face"),
        ({"card": "2C", "pile": ""}, "must be a pile id"),
    ],
)
def test_a_malformed_unseen_play_is_a_log_error(fields: dict[str, Any], message: str) -> None:
    seat = fields.pop("seat", None)
    with pytest.raises(LogFormatError, match=message):
        run([header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
             ev("3", "unseen_play", seat, **fields)])


def test_a_card_seen_twice_still_lies_on_its_pile_for_the_next_card() -> None:
    # The camera credits Cal a 2♣ twice (the first was another seat's, misattributed). The second is an
    # infraction of the log, but the card lies on F2 all the same: Ana's 3♣ on it stands.
    lines = [header(["Ana", "Cal"]), ev("1", "hand_start"), *plays("Cal", ["AC", "2C"], "F1", 2.0),
             *plays("Ana", ["AC"], "F2", 3.0), *plays("Cal", ["2C"], "F2", 4.0),
             *plays("Ana", ["3C"], "F2", 5.0), ev("10", "call", "Ana"), ev("12", "hand_end")]
    report = run(lines)
    assert breaches(report) == ["Cal's 2♣ is already on a foundation: a misread, or a card from another deck"]
    assert foundation(report) == {"Ana": 2, "Cal": 2}


# -- lift times measured to within err_lift ------------------------------------------------------

def _two_flights(t_lift: str, **lift: Any) -> list[str]:
    return [header(["Ana", "Ben"]), ev("1", "hand_start"), *plays("Ana", ["AC"], "F1", 2.0),
            ev("26.358", "foundation_play", "Ben", err="0.05", card="AH", pile="F2"),
            ev("26.818", "foundation_play", "Ben", card="2H", pile="F2", t_lift=t_lift, **lift)]


def test_a_lift_within_the_errors_of_the_last_landing_is_not_two_cards_in_flight() -> None:
    # Ben's AH landed at 26.358 s give or take 50 ms; his 2H left its place between 26.25 and 26.35 s
    # (a camera at 20 fps sees it at rest, then off it): it may have left after the AH landed.
    assert breaches(run(_two_flights("26.300", err_lift="0.05")), "one_hand") == []
    # Certainly before (lifted by 26.25 s at the latest, the AH down by 26.308 s at the earliest): ruled.
    assert breaches(run(_two_flights("26.200", err_lift="0.05")), "one_hand") == [
        "Ben had two cards in flight at once (one hand only)"]
    # Without err_lift the lift time is exact, the landing's err still counts.
    assert breaches(run(_two_flights("26.310")), "one_hand") == []
    assert breaches(run(_two_flights("26.300")), "one_hand") == [
        "Ben had two cards in flight at once (one hand only)"]


def test_a_card_whose_lift_may_have_come_before_the_call_still_lands() -> None:
    def lines(**lift: Any) -> list[str]:
        return [header(["Ana", "Ben"]), ev("1", "hand_start"), ev("10", "call", "Ana"),
                ev("10.4", "foundation_play", "Ben", card="AH", pile="F1", t_lift="10.020", **lift),
                ev("12", "hand_end")]

    assert breaches(run(lines(err_lift="0.03")), "after_call") == []
    assert breaches(run(lines()), "after_call") == ["Ben's A♥ was lifted 20 ms after the call: take it back"]


def test_a_negative_err_lift_is_a_log_error() -> None:
    with pytest.raises(LogFormatError, match="err_lift must not be negative"):
        run(_two_flights("26.300", err_lift="-0.01"))
