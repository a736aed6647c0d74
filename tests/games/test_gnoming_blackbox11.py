"""Eleventh round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: an odd event under the options that
change the turn (`turn_direction`, `hazard_flip_min_facedown`, `draw_pile_empty`,
`first_player`), two odd events in a row, and whole games with odd events in their first round,
each followed by legal play to the end of the round and of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import HIDDEN, SEATS, opening, pass_turn, replay
from tests.games.test_gnoming_blackbox7 import _draw
from tests.games.test_gnoming_blackbox9 import _keep

GRID = ["G8", "G7"] + ["G5"] * 7
"""The opening's 8 and 7, then seven 5s: rows 2 and 3 and column 3 are matched at 5 (§6.1), and
the 8 and 7 add 15, so the grid scores -15 + 15 = 0."""


def _discard(seat: str, card: str, pile: str | None = "A") -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "card": card, **({"pile": pile} if pile else {})}


def _flip(seat: str, pos: str, card: str = "G5") -> dict[str, Any]:
    return {"type": "flip", "seat": seat, "pos": pos, "card": card}


def _fill(seat: str, pos: str) -> list[dict[str, Any]]:
    return [_draw(seat), _keep(seat, pos, "G5", "G-1"), _discard(seat, "G-1")]


def _reveals(seats: list[str]) -> list[dict[str, Any]]:
    return [{"type": "reveal", "seat": s, "grid": GRID} for s in seats]


def _round(number: int, order: list[str], finisher: str,
           odd: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A round in turn ``order`` (its first seat starts): ``finisher`` fills a face-down place each
    turn while the others pass, the others then have their final turn, and every grid is revealed.
    ``odd``, if given, is logged instead of the first turn of ``order[1]`` (not the finisher)."""
    events = opening(order)
    events[0] = {**events[0], "round": number}
    for n, pos in enumerate(HIDDEN):
        for seat in order:
            if seat == finisher:
                events += _fill(seat, pos)
            elif n == 0 and odd and seat == order[1]:
                events += odd
            elif n < len(HIDDEN) - 1 or order.index(seat) < order.index(finisher):
                events += pass_turn(seat)
    at = order.index(finisher)
    for seat in order[at + 1:] + order[:at]:
        events += pass_turn(seat)
    return events + _reveals(order)


def test_counterclockwise_final_turns_after_a_seat_plays_out_of_turn(tmp_path: Path) -> None:
    """§4.6 `turn_direction = counterclockwise`: with Ana, Bob, Cy, Dee at the table play goes Ana,
    Dee, Cy, Bob. Ana goes out (§5.5), so Dee, Cy and Bob each owe one final turn, in that order.
    Cy plays first, out of turn; Dee and Bob still have theirs, the finisher none, and the round
    ends after the last of them, with Ana's -5 for going out first, tied for lowest (§6.3)."""
    seats = ["Ana", "Bob", "Cy", "Dee"]
    order = ["Ana", "Dee", "Cy", "Bob"]
    events = opening(order)
    for n, pos in enumerate(HIDDEN):
        events += _fill("Ana", pos)
        if n < len(HIDDEN) - 1:
            for seat in order[1:]:
                events += pass_turn(seat)
    events += pass_turn("Cy") + pass_turn("Bob") + pass_turn("Dee") + _reveals(seats)
    report = replay(tmp_path, events, seats=seats, options={"turn_direction": "counterclockwise"})
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Cy")]
    assert [r.kind for r in report.rulings][-3:] == ["grid", "grid", "round_scores"]
    assert report.hands == [{"Ana": -5, "Bob": 0, "Cy": 0, "Dee": 0}]


def test_who_may_flip_after_a_hazard_follows_hazard_flip_min_facedown(tmp_path: Path) -> None:
    """§5.4 and §11 `hazard_flip_min_facedown`: after Ana's Hazard only the other seats with at least
    that many face-down cards may turn one up. Bob has filled six places (one face-down card left),
    Cy none (seven). With 1, Bob may turn his last card up (the default's "last card" limit is
    what 2 means); with 8 neither may flip, and both flips are `illegal_flip`. Bob's flip under 1
    leaves him with no face-down card, so at the end of his next turn he is the finisher (§5.5)."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + _fill("Bob", pos) + pass_turn("Cy")
    hazard = [_draw("Ana"), _discard("Ana", "HAZARD", None), _flip("Bob", "33"), _flip("Cy", "13")]
    after = pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    report = replay(tmp_path, events + hazard + after + _reveals(SEATS),
                    options={"hazard_flip_min_facedown": 1})
    assert report.infractions == []
    assert [r.seats for r in report.rulings if r.kind == "hazard"] == [("Bob", "Cy")]
    assert [r.seats for r in report.rulings if r.kind == "finisher"] == [("Bob",)]
    assert report.hands == [{"Ana": 0, "Bob": -5, "Cy": 0}]
    report = replay(tmp_path, events + hazard + after, options={"hazard_flip_min_facedown": 8})
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_flip", "Bob"), ("illegal_flip", "Cy")]
    assert [r.seats for r in report.rulings if r.kind == "hazard"] == [()]


def test_a_card_drawn_out_of_turn_counts_against_the_draw_pile(tmp_path: Path) -> None:
    """§5.1 and §11 `draw_pile_empty`: a deck of 44 cards leaves 44 - 27 - 2 = 15 in the draw pile.
    Bob takes one out of turn while Ana holds hers and lays it down again (his `out_of_turn`); that
    card still left the draw pile, so it is empty after 14 turns' draws. Under `end_round` the
    round is over after the 14th turn; under `reshuffle_discards` the 15th draw is a `reshuffle`."""
    deck = {"G5": 20, "G6": 14, "G3": 1, "G4": 1, "G7": 3, "G8": 3, "G-1": 2}
    events = opening(SEATS) + [_draw("Ana"), _draw("Bob"), _discard("Bob", "G6"), _discard("Ana", "G6")]
    order = ["Bob", "Cy", "Ana"] * 5
    for seat in order[:13]:
        events += pass_turn(seat)
    report = replay(tmp_path, events + _reveals(SEATS),
                    options={"deck": deck, "draw_pile_empty": "end_round"})
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]
    assert "round_end" in [r.kind for r in report.rulings]
    assert report.hands == [{"Ana": 0, "Bob": 0, "Cy": 0}]
    report = replay(tmp_path, events + pass_turn(order[13]), options={"deck": deck})
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]
    assert [r.kind for r in report.rulings] == ["round_start", "reshuffle"]


def test_a_hazard_then_a_draw_by_the_wrong_seat_then_the_right_one(tmp_path: Path) -> None:
    """Two odd events in a row. Ana discards a Hazard (§5.4: Bob and Cy may each turn a card up);
    Bob turns one up, then Cy draws although it is Bob's turn: Cy's `out_of_turn` (docs: the next
    draw closes the flips, so nobody may flip after it). Cy's discard ends his turn and Ana plays
    next. A peek by Bob at his own face-down card (§4.2) and then Bob turning that same card up as
    a flip without a Hazard are two breaches of his; the turns then go on as usual."""
    events = opening(SEATS) + [_draw("Ana"), _discard("Ana", "HAZARD", None), _flip("Bob", "13"),
                               _draw("Cy"), _discard("Cy", "G6")]
    events += pass_turn("Ana") + [{"type": "peek", "seat": "Bob", "pos": "21"}, _flip("Bob", "21")]
    events += pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [
        ("out_of_turn", "Cy"), ("peek", "Bob"), ("illegal_flip", "Bob")]
    assert [r.seats for r in report.rulings if r.kind == "hazard"] == [("Bob", "Cy")]


def test_odd_events_in_round_1_leave_the_later_rounds_as_the_rules_say(tmp_path: Path) -> None:
    """§4.6, §6.3 and §7 over a whole game, with odd events in round 1 after Ana's first turn: Cy
    draws out of turn and the kiosk undoes it, Bob peeks at a face-down card, and Cy takes a card
    while Bob holds his and lays it down again. Only the peek and Cy's second draw are breaches.
    Under `rotate_left` Bob then starts round 2 and Cy round 3; under `finisher_starts` the
    previous round's finisher starts. Every grid scores 0, so each finisher ties for lowest and
    gets -5 (§6.3); the lowest total wins, the tie going to the lowest round-3 score (§7)."""
    odd = [_draw("Cy"), {"type": "undo"}, {"type": "peek", "seat": "Bob", "pos": "33"},
           _draw("Bob"), _draw("Cy"), _discard("Cy", "G6"), _discard("Bob", "G6")]
    # Bob's first turn in round 1 is the odd one; Cy, who drew out of turn, is next to play.
    ana, bob, cy = ["Ana", "Bob", "Cy"], ["Bob", "Cy", "Ana"], ["Cy", "Ana", "Bob"]
    events = _round(1, ana, "Ana", odd) + _round(2, bob, "Bob") + _round(3, cy, "Cy")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("peek", "Bob"), ("out_of_turn", "Cy")]
    assert [r.seats[0] for r in report.rulings if r.kind == "round_start"] == ["Ana", "Bob", "Cy"]
    assert report.totals == {"Ana": -5, "Bob": -5, "Cy": -5}
    assert report.finished and report.winners == ["Cy"]
    # finisher_starts: Cy goes out in round 1, so he starts round 2; Bob goes out there and starts 3.
    events = _round(1, ana, "Cy", odd) + _round(2, cy, "Bob") + _round(3, bob, "Bob")
    report = replay(tmp_path, events, options={"first_player": "finisher_starts"})
    assert [(i.kind, i.seat) for i in report.infractions] == [("peek", "Bob"), ("out_of_turn", "Cy")]
    assert [r.seats[0] for r in report.rulings if r.kind == "round_start"] == ["Ana", "Cy", "Bob"]
    assert report.totals == {"Ana": 0, "Bob": -10, "Cy": -5}
    assert report.finished and report.winners == ["Bob"]
