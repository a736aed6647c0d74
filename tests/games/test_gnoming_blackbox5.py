"""Fifth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: the variant options of §11 and the
end of the game (§7) with the table's score corrections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import HIDDEN, SEATS, fill, opening, pass_turn, replay


def _bob_goes_out() -> list[dict[str, Any]]:
    """Ana, Bob, Cy in turn; Bob fills his seven face-down cards and is the finisher."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy")
    return events + pass_turn("Ana") + fill("Bob", "33") + pass_turn("Cy") + pass_turn("Ana")


def _reveals() -> list[dict[str, Any]]:
    """Grid scores Ana 6, Bob 0 and Cy 3; Bob, the finisher, is lowest: round scores 6, -5, 3."""
    return [{"type": "reveal", "seat": s, "grid": ["G8", "G7"] + [c] * 7}
            for s, c in (("Ana", "G3"), ("Bob", "G5"), ("Cy", "G4"))]


def test_the_game_end_ruling_names_the_winner_on_corrected_scores(tmp_path: Path) -> None:
    """docs/table-log.md: "The end of the game and its winners follow the corrected scores".
    One round (option rounds = 1): Bob wins on -5, but the table corrects his round to 10, so
    Cy (8) wins, and the game_end ruling must say so as the winners do, whether the correction
    comes before or after the round is scored."""
    correction = {"type": "score_correction", "seat": "Bob", "hand": 1, "score": 10}
    for events in (_bob_goes_out() + _reveals() + [correction],
                   _bob_goes_out() + [correction] + _reveals()):
        report = replay(tmp_path, events, options={"rounds": 1})
        assert report.hands == [{"Ana": 6, "Bob": 10, "Cy": 3}]
        assert report.winners == ["Cy"]
        end = [r for r in report.rulings if r.kind == "game_end"]
        assert [(r.text, r.seats) for r in end] == [("game over: Cy wins", ("Cy",))]


def test_events_after_a_round_is_scored_are_refereed_not_a_bad_log(tmp_path: Path) -> None:
    """docs/table-log.md: a log that breaks only the rules is reported with exit status 0. Once
    a round is scored every card has been turned up where it lies (§5.6): a flip then is play
    after the round (`round_over`), a peek or a decline concerns no face-down card, and a second
    reveal of the same grid changes nothing (a different one is a `misread`). Between rounds and
    after the last round alike, none of them is a replay error, and the scores stand."""
    after: list[dict[str, Any]] = [
        {"type": "flip", "seat": "Ana", "pos": "33", "card": "G3"},
        {"type": "peek", "seat": "Cy", "pos": "21"},
        {"type": "decline", "seat": "Bob"},
        {"type": "reveal", "seat": "Ana", "grid": ["G8", "G7"] + ["G3"] * 7},
        {"type": "reveal", "seat": "Cy", "grid": ["G8", "G7"] + ["G4"] * 6 + ["G5"]}]
    for rounds in (1, 2):
        report = replay(tmp_path, _bob_goes_out() + _reveals() + after, options={"rounds": rounds})
        assert [i.kind for i in report.infractions] == ["round_over", "misread"]
        assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
        assert report.finished == (rounds == 1)


def test_an_early_reveal_does_not_end_the_round(tmp_path: Path) -> None:
    """§5.5: the round ends once the last final turn is over, and only then are the grids turned
    up in place (§5.6). A grid shown before that is an `early_reveal`, but the round goes on: the
    turns after it are refereed as usual (no `round_over`), the finisher still gets the first-out
    adjustment (§6.3), and the round is scored on the grids revealed at its end."""
    early = {"type": "reveal", "seat": "Cy", "grid": ["G8", "G7"] + ["G4"] * 7}
    events = opening(SEATS)
    for n, pos in enumerate(HIDDEN[:-1]):
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy") + ([early] if n == 2 else [])
    events += pass_turn("Ana") + fill("Bob", "33") + pass_turn("Cy") + pass_turn("Ana") + _reveals()
    report = replay(tmp_path, events)
    assert [i.kind for i in report.infractions] == ["early_reveal"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]
    # Cy changes his grid after showing it (row 2 at 4, and 8 + 7 + 4 + 4 + 4 + 5 = 32: 28): the
    # round waits for his grid as it is at the end.
    events = events[:-len(_reveals())]
    last = len(events) - 1 - events[::-1].index({"type": "draw", "seat": "Cy", "from": "deck"})
    events[last:last + 2] = fill("Cy", "33")
    cy = {"type": "reveal", "seat": "Cy", "grid": ["G8", "G7"] + ["G4"] * 6 + ["G5"]}
    report = replay(tmp_path, events + _reveals()[:2] + [cy])
    assert [i.kind for i in report.infractions] == ["early_reveal"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 28}]


def test_the_finisher_revealing_before_the_final_turns_is_scored_with_the_rest(tmp_path: Path) -> None:
    """§5.5: after Bob goes out Cy and Ana each have one final turn. Bob showing his grid (all face
    up already) before those turns is an `early_reveal`; the final turns are still played and the
    round is scored once the others' grids are in, with Bob's grid as shown."""
    events = opening(SEATS)
    for pos in HIDDEN[:-1]:
        events += pass_turn("Ana") + fill("Bob", pos) + pass_turn("Cy")
    reveals = _reveals()
    events += pass_turn("Ana") + fill("Bob", "33") + [reveals[1]] + pass_turn("Cy") + pass_turn("Ana")
    report = replay(tmp_path, events + [reveals[0], reveals[2]])
    assert [i.kind for i in report.infractions] == ["early_reveal"]
    assert report.hands == [{"Ana": 6, "Bob": -5, "Cy": 3}]


def test_grids_all_shown_early_are_scored_and_the_game_goes_on(tmp_path: Path) -> None:
    """Every seat shows its grid before the round is over (§5.5): each is an `early_reveal`, and
    once every grid is in the round is scored on them (no finisher, so no first-out adjustment,
    §6.3); the next round_start then follows without a replay error."""
    events = opening(SEATS) + pass_turn("Ana") + _reveals()
    events.append({"type": "round_start", "round": 2, "piles": {"A": "G3", "B": "G4"}})
    report = replay(tmp_path, events, options={"rounds": 2})
    assert [i.kind for i in report.infractions] == ["early_reveal"] * 3
    assert report.hands == [{"Ana": 6, "Bob": 0, "Cy": 3}]
    assert [r.kind for r in report.rulings][-1] == "round_start"


def _round(number: int, first: str, order: list[str], finisher: str) -> list[dict[str, Any]]:
    """A whole round: ``order`` is the turn order from ``first``; ``finisher`` fills his seven
    face-down places while the others pass, then each other seat has its final turn; every grid
    is 8 7 then seven 4s (row 2, row 3 and column 3 at 4: 15 - 12 = 3)."""
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": number, "first": first, "piles": {"A": "G3", "B": "G4"}}]
    events += opening(SEATS)[1:]
    hidden = list(HIDDEN)
    turn = 0
    while hidden:
        seat = order[turn % 3]
        if seat == finisher:
            events += [{"type": "draw", "seat": seat, "from": "deck"},
                       {"type": "keep", "seat": seat, "pos": hidden.pop(0), "card": "G4", "out": "G-1"},
                       {"type": "discard", "seat": seat, "card": "G-1", "pile": "A"}]
        else:
            events += pass_turn(seat)
        turn += 1
    at = order.index(finisher)
    for k in (1, 2):
        events += pass_turn(order[(at + k) % 3])
    events += [{"type": "reveal", "seat": s, "grid": ["G8", "G7"] + ["G4"] * 7} for s in SEATS]
    return events


def test_who_starts_each_round_under_every_first_player_and_turn_direction(tmp_path: Path) -> None:
    """§4.6 and §11 `first_player`, `turn_direction`: rotate_left moves the first seat to the
    next seat in the header (also counterclockwise, docs/table-log.md); youngest_every_round
    keeps the youngest; finisher_starts gives the start to the previous round's finisher. Rounds
    logged so are no `first_player` breach, and each finisher gets -5 (tied for lowest)."""
    cw = {"Ana": ["Ana", "Bob", "Cy"], "Bob": ["Bob", "Cy", "Ana"], "Cy": ["Cy", "Ana", "Bob"]}
    ccw = {"Ana": ["Ana", "Cy", "Bob"], "Bob": ["Bob", "Ana", "Cy"], "Cy": ["Cy", "Bob", "Ana"]}
    cases: list[tuple[dict[str, Any], list[tuple[str, dict[str, list[str]], str]]]] = [
        ({}, [("Ana", cw, "Cy"), ("Bob", cw, "Ana"), ("Cy", cw, "Bob")]),
        ({"turn_direction": "counterclockwise"},
         [("Ana", ccw, "Bob"), ("Bob", ccw, "Cy"), ("Cy", ccw, "Ana")]),
        ({"first_player": "youngest_every_round", "youngest_seat": 1},
         [("Bob", cw, "Ana"), ("Bob", cw, "Cy"), ("Bob", cw, "Bob")]),
        ({"first_player": "finisher_starts"}, [("Ana", cw, "Cy"), ("Cy", cw, "Bob"), ("Bob", cw, "Bob")]),
        ({"first_player": "finisher_starts", "turn_direction": "counterclockwise"},
         [("Ana", ccw, "Bob"), ("Bob", ccw, "Bob"), ("Bob", ccw, "Cy")]),
    ]
    for options, rounds in cases:
        events = [e for n, (first, order, fin) in enumerate(rounds, 1)
                  for e in _round(n, first, order[first], fin)]
        report = replay(tmp_path, events, options=options)
        assert report.infractions == [], options
        assert [r.seats for r in report.rulings if r.kind == "round_start"] == [(f,) for f, _, _ in rounds]
        assert report.hands == [{s: -2 if s == fin else 3 for s in SEATS} for _, _, fin in rounds]
        assert report.finished
