"""Twelfth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: the worked examples of §10 played
through a table log exactly as written, then each with one fact changed (a card, the seat that
goes out first, a tie, an option, the flip limit, one turn further)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.gnoming_logs import replay
from tests.games.replay_logs import replay_main
from tests.games.test_gnoming_blackbox7 import _discard, _draw, _flip
from tests.games.test_gnoming_blackbox9 import _keep

POS = ["11", "12", "13", "21", "22", "23", "31", "32", "33"]
FILL = ["G8", "G8", "G-1", "G7", "G7", "G-2", "G6", "G6", "G-3"]
"""No matched line: 8 + 8 - 1 + 7 + 7 - 2 + 6 + 6 - 3 = 36."""


def _cards(text: str) -> list[str]:
    """``"5 M 5 ..."`` as log cards: M a Mulligan, H a Hazard, numbers their value card."""
    return [{"M": "MULLIGAN", "H": "HAZARD"}.get(t, "G" + t) for t in text.split()]


def _round(grids: dict[str, list[str]], finisher: str, number: int = 1) -> list[dict[str, Any]]:
    """One round in header order, the first seat starting: every seat turns up 11 and 12 of its
    grid; the finisher keeps its grid's card on each face-down place in turn (a G5 comes out and
    is discarded) while the others pass, each other seat then has its final turn (§5.5), and every
    grid is revealed."""
    seats = list(grids)
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": number, "first": seats[(number - 1) % len(seats)],
         "piles": {"A": "G3", "B": "G4"}}]
    for s in seats:
        events += [_flip(s, "11", grids[s][0]), _flip(s, "12", grids[s][1])]
    order = seats[(number - 1) % len(seats):] + seats[:(number - 1) % len(seats)]
    for n, pos in enumerate(POS[2:]):
        for s in order:
            if s == finisher:
                events += [_draw(s), _keep(s, pos, grids[s][POS.index(pos)], "G5"), _discard(s, "G5", "A")]
            elif n < 6 or order.index(s) < order.index(finisher):
                events += [_draw(s), _discard(s, "G6", "A")]
    at = order.index(finisher)
    for s in order[at + 1:] + order[:at]:
        events += [_draw(s), _discard(s, "G6", "A")]
    return events + [{"type": "reveal", "seat": s, "grid": grids[s]} for s in seats]


@pytest.mark.parametrize(
    ("text", "options", "score"),
    [
        # The §10 examples as written, and the option values each one names.
        ("8 3 -2 5 H 6 -1 7 4", {}, 40),
        ("6 6 6 4 -3 8 5 3 -1", {}, 10),
        ("7 7 7 7 4 -2 7 8 5", {}, 1), ("7 7 7 7 4 -2 7 8 5", {"line_sharing": "disjoint"}, 22),
        ("5 M 5 3 6 -4 8 -1 4", {}, 11),
        ("4 4 M 3 -2 8 5 6 8", {}, 0), ("4 4 M 3 -2 8 5 6 8", {"mulligan_dual_value": False}, 12),
        ("H -4 -3 -2 -1 7 3 3 M", {}, 4),
        ("3 3 3 3 3 3 3 3 3", {}, -18), ("3 3 3 3 3 3 3 3 3", {"line_sharing": "disjoint"}, -9),
        ("M 6 6 M 5 5 4 7 8", {}, 23), ("M 6 6 M 5 5 4 7 8", {"wild_mulligans_per_layout": "unlimited"}, 8),
        ("5 3 8 4 5 6 7 -1 5", {}, 42), ("5 3 8 4 5 6 7 -1 5", {"score_diagonals": True}, 22),
        ("-2 -2 -2 M 4 4 6 -1 8", {}, 3),
        # One card or one option changed.
        ("8 3 -2 5 H 6 -1 7 4", {"hazard_penalty": 15}, 45),                 # ex 1: +15 a Hazard
        ("6 6 7 4 -3 8 5 3 -1", {}, 35),                                     # ex 2: 6 6 7 is no match
        ("6 6 M 4 -3 8 5 3 -1", {}, 10),                                     # ex 2: M completes row 1
        ("7 7 7 7 4 -2 M 8 5", {"line_sharing": "disjoint"}, 15),            # ex 3: best disjoint line
        ("5 M 4 3 6 -4 8 -1 4", {}, 25),                                     # ex 4: 5 M 4 is no match
        ("5 M M 3 6 -4 8 -1 4", {"wild_mulligans_per_layout": "unlimited"}, 21),   # two M in a line
        ("5 M M 3 6 -4 8 -1 4", {"wild_mulligans_per_layout": "unlimited", "max_mulligans_per_line": 2}, 11),
        # §11 max_mulligans_per_line is a count: 0 lets no Mulligan complete a line, 3 is as 2 (a line of
        # three Mulligans has no value to match).
        ("5 M 5 3 6 -4 8 -1 4", {"max_mulligans_per_line": 0}, 26),
        ("5 M M 3 6 -4 8 -1 4", {"wild_mulligans_per_layout": "unlimited", "max_mulligans_per_line": 3}, 11),
        ("4 4 M 3 -2 8 5 6 8", {"line_sharing": "disjoint"}, 12),            # ex 5: one of the two lines
        ("H -4 -3 -2 -1 3 3 3 M", {}, 0),                                    # ex 6: -3 3 M never matches
        ("3 3 3 3 4 3 3 3 3", {}, -8),                                       # ex 7: the middle changed
        ("3 3 3 3 3 3 3 3 3", {"score_diagonals": True}, -24),               # ex 7: eight lines
        ("M 6 6 M 5 5 4 7 8", {"wild_mulligans_per_layout": "unlimited", "max_mulligans_per_line": 2}, 0),
        ("5 3 5 4 5 6 5 -1 5", {"score_diagonals": True}, 2),                # ex 9: both diagonals
        ("-2 -2 -2 M 4 4 4 -1 8", {}, 1),                                    # ex 10: -2 M 4 is no match
    ],
)
def test_grid_examples_are_scored_from_the_revealed_grid(
        tmp_path: Path, text: str, options: dict[str, Any], score: int) -> None:
    """§6, §10 examples 1 to 10: Eve's revealed grid scores as worked out there (Finn goes out
    first with 36 points, 5 more for going out first unless he is lowest, §6.3)."""
    report = replay(tmp_path, _round({"Eve": _cards(text), "Finn": FILL}, "Finn"), ["Eve", "Finn"], options)
    assert report.infractions == []
    assert report.hands == [{"Eve": score, "Finn": 36 + (-5 if 36 <= score else 5)}]


EXAMPLE_11 = {"Eve": _cards("5 5 5 -3 8 -1 4 4 M"), "Finn": _cards("6 -2 6 7 7 7 3 H -4"),
              "Gus": _cards("-1 -2 -3 8 3 3 -4 5 6"), "Hana": _cards("4 4 4 4 M 6 4 5 -2")}
"""§10 example 11: grid scores Eve -5, Finn 12, Gus 15, Hana 1."""
STRICT = {"first_out_tie": "strict"}


@pytest.mark.parametrize(
    ("finisher", "eve", "options", "hands"),
    [
        ("Eve", None, {}, {"Eve": -10, "Finn": 12, "Gus": 15, "Hana": 1}),
        ("Finn", None, {}, {"Eve": -5, "Finn": 17, "Gus": 15, "Hana": 1}),
        ("Hana", None, {}, {"Eve": -5, "Finn": 12, "Gus": 15, "Hana": 6}),     # the last seat
        ("Eve", "5 5 5 -3 8 7 4 4 M", {}, {"Eve": 8, "Finn": 12, "Gus": 15, "Hana": 1}),     # R = 3
        ("Eve", "5 5 5 -1 8 3 4 4 M", {}, {"Eve": -4, "Finn": 12, "Gus": 15, "Hana": 1}),    # R = 1, a tie
        ("Eve", "5 5 5 -1 8 3 4 4 M", STRICT, {"Eve": 6, "Finn": 12, "Gus": 15, "Hana": 1}),
        ("Eve", "5 5 5 -2 8 3 4 4 M", STRICT, {"Eve": -5, "Finn": 12, "Gus": 15, "Hana": 1}),     # R = 0
        ("Eve", None, {"first_out_bonus": -10, "first_out_penalty": 10},
         {"Eve": -15, "Finn": 12, "Gus": 15, "Hana": 1}),
    ],
)
def test_example_11_the_first_out_adjustment(tmp_path: Path, finisher: str, eve: str | None,
                                             options: dict[str, Any], hands: dict[str, int]) -> None:
    """§6.3, §10 example 11 and its variations: the seat that goes out first gets -5 when its grid
    scores lowest or tied for lowest (strictly lowest under `first_out_tie = strict`), else +5;
    nobody else's score changes."""
    grids = {**EXAMPLE_11, **({"Eve": _cards(eve)} if eve else {})}
    report = replay(tmp_path, _round(grids, finisher), list(grids), {"rounds": 1, **options})
    assert report.infractions == []
    assert report.hands == [hands]
    assert [r.seats for r in report.rulings if r.kind == "finisher"] == [(finisher,)]


def _scoring(score: int) -> list[str]:
    """Nine cards that score ``score`` in no matched line (no positive value twice, §6.1): the
    highest positives that fit, then negatives."""
    for k in range(6, -1, -1):
        positives = list(range(8, 8 - k, -1))
        rest, n = score - sum(positives), 9 - k
        if -4 * n <= rest <= -n:
            negatives = [-1] * n
            for i in range(-n - rest):
                negatives[i // 3] -= 1
            return [f"G{v}" for v in positives + negatives]
    raise ValueError(score)


@pytest.mark.parametrize(
    ("round_3", "winners"),
    [
        ({"Eve": -3, "Finn": -2}, ["Eve"]),                   # example 12 as written
        ({"Eve": -2, "Finn": -3}, ["Finn"]),                  # the round-3 scores swapped
        ({"Eve": -2, "Finn": -2}, ["Eve", "Finn"]),           # a tie on both: a shared win
    ],
)
def test_example_12_the_lowest_total_wins_then_the_lowest_round_3(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], round_3: dict[str, int], winners: list[str]
) -> None:
    """§7, §10 example 12, played as three rounds in which Gus, Hana and Gus go out first: Eve and
    Finn tie on the lowest total, so the lower round-3 score wins, and equal ones share the win.
    Eve's round 2 is changed with her round 3 so that the totals stay tied."""
    seats = ["Eve", "Finn", "Gus", "Hana"]
    # Grid scores before the first-out adjustment: Gus 9 (-5, tied lowest), Hana -1 (-5), Gus 0 (+5).
    rounds = [({"Eve": 12, "Finn": 9, "Gus": 9, "Hana": 20}, "Gus"),
              ({"Eve": 4 - round_3["Eve"], "Finn": 7 - round_3["Finn"], "Gus": 10, "Hana": -1}, "Hana"),
              ({**round_3, "Gus": 0, "Hana": 6}, "Gus")]
    events: list[dict[str, Any]] = []
    for n, (scores, finisher) in enumerate(rounds, 1):
        events += _round({s: _scoring(scores[s]) for s in seats}, finisher, n)
    header = {"table_log": 1, "game": "gnoming", "seats": seats, "options": {}}
    report = replay_main(tmp_path, [header, *({"t": n + 1, **e} for n, e in enumerate(events))], capsys)
    assert report["infractions"] == []
    assert [h["Gus"] for h in report["hands"]] == [4, 10, 5] and report["hands"][1]["Hana"] == -6
    assert report["totals"] == {"Eve": 16, "Finn": 16, "Gus": 19, "Hana": 20}
    assert report["finished"] and report["winners"] == winners
    assert [r["seats"] for r in report["rulings"] if r["kind"] == "game_end"] == [winners]


def _maria(*turn: dict[str, Any], face_up: str = "G-2") -> list[dict[str, Any]]:
    """§10 example 13: Maria starts with a 6 at 11 and ``face_up`` at 22 (a -2 in the example)."""
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Maria", "piles": {"A": "G4", "B": "G8"}},
        _flip("Maria", "11", "G6"), _flip("Maria", "22", face_up)]
    for s in ("Ben", "Cal"):
        events += [_flip(s, "11", "G8"), _flip(s, "12", "G7")]
    return events + [_draw("Maria"), *turn]


def _k(pos: str, card: str, out: str) -> dict[str, Any]:
    return _keep("Maria", pos, card, out)


SIX = _k("12", "G6", "G6")
"""Example 13's first keep: the drawn 6 onto 12, where a face-down 6 comes out."""


@pytest.mark.parametrize(
    ("turn", "face_up", "options", "kinds"),
    [
        # As written: the 6 bounces onto 13, the 3 that comes out is discarded.
        ([SIX, _k("13", "G6", "G3"), _discard("Maria", "G3", "B")], "G-2", {}, []),
        # The 3 kept again: no face-up 3 in her grid, so it may not bounce ...
        ([SIX, _k("13", "G6", "G3"), _k("21", "G3", "G4"), _discard("Maria", "G4", "A")], "G-2", {},
         ["illegal_bounce"]),
        # ... but it may when the face-up card at 22 is a 3.
        ([SIX, _k("13", "G6", "G3"), _k("21", "G3", "G4"), _discard("Maria", "G4", "A")], "G3", {}, []),
        # A 7 under 12 matches no face-up card: it may not bounce.
        ([_k("12", "G6", "G7"), _k("13", "G7", "G3"), _discard("Maria", "G3", "A")], "G-2", {},
         ["illegal_bounce"]),
        # A 5 drawn onto 12 reveals a 6: the 6 at 11 is its match.
        ([_k("12", "G5", "G6"), _k("13", "G6", "G3"), _discard("Maria", "G3", "A")], "G-2", {}, []),
        # The 6 bounced onto the face-up -2: allowed by default, and the -2 never bounces.
        ([SIX, _k("22", "G6", "G-2"), _discard("Maria", "G-2", "A")], "G-2", {}, []),
        ([SIX, _k("22", "G6", "G-2"), _discard("Maria", "G-2", "A")], "G-2",
         {"bounce_targets": "face_down_only"}, ["bounce_target"]),
        ([SIX, _k("22", "G6", "G-2"), _k("13", "G-2", "G3"), _discard("Maria", "G3", "A")], "G-2", {},
         ["illegal_bounce"]),
        # A Hazard under the bounce target is discarded: it leaves the game (§5.3).
        ([SIX, _k("31", "G6", "HAZARD"), _discard("Maria", "HAZARD")], "G-2", {}, []),
    ],
)
def test_example_13_a_turn_with_a_bounce(tmp_path: Path, turn: list[dict[str, Any]], face_up: str,
                                         options: dict[str, Any], kinds: list[str]) -> None:
    """§5.2, §10 example 13 and one fact changed: a card that comes out may bounce only if it was
    face down, is positive and matches a face-up positive card of the grid (the new card counts)."""
    report = replay(tmp_path, _maria(*turn, face_up=face_up), ["Maria", "Ben", "Cal"], options)
    assert [i.kind for i in report.infractions] == kinds


def test_example_13_continued_maria_has_five_face_down_cards_left(tmp_path: Path) -> None:
    """§5.5, §10 example 13: after the bounce Maria has five face-down cards, so she goes out on the
    fifth turn after it that fills one, not before."""
    events = _maria(SIX, _k("13", "G6", "G3"), _discard("Maria", "G3", "A"))
    for n, pos in enumerate(["21", "23", "31", "32", "33"]):
        for s in ("Ben", "Cal"):
            events += [_draw(s), _discard(s, "G6", "A")]
        events += [_draw("Maria"), _k(pos, "G4", "G5"), _discard("Maria", "G5", "A")]
        report = replay(tmp_path, events, ["Maria", "Ben", "Cal"])
        assert [r.kind for r in report.rulings].count("finisher") == (n == 4)
    assert report.infractions == []


def _ben_hazard(cal_keeps: int = 6, b_empty: bool = False) -> list[dict[str, Any]]:
    """§10 example 14: Maria has 5 face-down cards, Cal ``9 - 2 - cal_keeps`` and Dee 3 when Ben
    draws a Hazard and passes. With ``b_empty`` Maria's last turn took B's only card and a Hazard
    came out of her grid, so B is empty before Ben's turn."""
    seats = ["Maria", "Ben", "Cal", "Dee"]
    keeps = {"Maria": 2, "Ben": 0, "Cal": cal_keeps, "Dee": 4}
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Maria", "piles": {"A": "G4", "B": "G8"}}]
    for s in seats:
        events += [_flip(s, "11", "G8"), _flip(s, "12", "G7")]
    for n in range(6):
        for s in seats:
            events.append(_draw(s))
            if n < keeps[s]:
                events.append(_keep(s, POS[2 + n], "G4", "G-1"))
            events.append(_discard(s, "G-1", "A"))
    if b_empty:
        events += [_draw("Maria", "B", "G8"), _k("22", "G8", "HAZARD"), _discard("Maria", "HAZARD")]
    else:
        events += [_draw("Maria"), _discard("Maria", "G-1", "A")]
    return events + [_draw("Ben"), _discard("Ben", "HAZARD")]


@pytest.mark.parametrize(
    ("cal_keeps", "options", "flips", "kinds", "may_flip"),
    [
        (6, {}, [("Maria", "33"), ("Cal", "33")], [("illegal_flip", "Cal")], ("Maria", "Dee")),   # as written
        (5, {}, [("Cal", "33")], [], ("Maria", "Cal", "Dee")),              # Cal with two: he may
        (6, {"hazard_flip_min_facedown": 1}, [("Cal", "33")], [], ("Maria", "Cal", "Dee")),
        (6, {"hazard_flip_min_facedown": 4}, [("Dee", "33")], [("illegal_flip", "Dee")], ("Maria",)),
        (6, {}, [("Ben", "33")], [("illegal_flip", "Ben")], ("Maria", "Dee")),                # his own
        (6, {}, [("Maria", "33"), ("Maria", "32")], [("illegal_flip", "Maria")], ("Maria", "Dee")),
    ],
)
def test_example_14_who_may_flip_after_a_hazard(
        tmp_path: Path, cal_keeps: int, options: dict[str, Any], flips: list[tuple[str, str]],
        kinds: list[tuple[str, str]], may_flip: tuple[str, ...]) -> None:
    """§5.4, §10 example 14: every other seat with at least `hazard_flip_min_facedown` face-down
    cards may turn one up, once; Cal's last face-down card goes back face down (he is no finisher),
    unless the option lets a seat with one flip it."""
    events = _ben_hazard(cal_keeps) + [_flip(s, p, "G5") for s, p in flips]
    events += [_draw("Cal"), _discard("Cal", "G5", "A")]
    report = replay(tmp_path, events, ["Maria", "Ben", "Cal", "Dee"], options)
    assert [(i.kind, i.seat) for i in report.infractions] == kinds
    assert [r.seats for r in report.rulings if r.kind == "hazard"] == [may_flip]
    out = options.get("hazard_flip_min_facedown") == 1
    assert [r.seats for r in report.rulings if r.kind == "finisher"] == ([("Cal",)] if out else [])


@pytest.mark.parametrize(("pile", "kinds"), [("B", []), ("A", [("wrong_pile", "Cal")])])
def test_example_14_an_empty_pile_stays_empty_until_a_card_that_is_not_a_hazard(
        tmp_path: Path, pile: str, kinds: list[tuple[str, str]]) -> None:
    """§5.3, §10 example 14: pile B was empty before Ben's turn; his Hazard leaves the game, so B is
    still empty and Cal, the next to discard a card that is not a Hazard, must restart it."""
    events = _ben_hazard(b_empty=True) + [_draw("Cal"), _discard("Cal", "G5", pile)]
    report = replay(tmp_path, events, ["Maria", "Ben", "Cal", "Dee"])
    assert [(i.kind, i.seat) for i in report.infractions] == kinds
