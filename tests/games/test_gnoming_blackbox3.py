"""Third round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs,
written from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: breaches the camera
sees (§9) and what the referee does with them afterwards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.games.referee import RefereeReport
from kiosk.replay import replay_events
from kiosk.tablelog import read_table_log

SEATS = ["Ana", "Bob", "Cy"]
HIDDEN = ["13", "21", "22", "23", "31", "32", "33"]


def _replay(tmp_path: Path, events: list[dict[str, Any]], seats: list[str] | None = None,
            options: dict[str, Any] | None = None) -> RefereeReport:
    path = tmp_path / "log.jsonl"
    header = {"table_log": 1, "game": "gnoming", "seats": seats or SEATS, "options": options or {}}
    lines = [header] + [{"t": n + 1, **e} for n, e in enumerate(events)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return replay_events(*read_table_log(path))


def _opening(seats: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": seats[0], "piles": {"A": "G3", "B": "G4"}}]
    for s in seats:
        events += [{"type": "flip", "seat": s, "pos": "11", "card": "G8"},
                   {"type": "flip", "seat": s, "pos": "12", "card": "G7"}]
    return events


def _pass(seat: str, card: str = "G6") -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "discard", "seat": seat, "card": card, "pile": "A"}]


def _fill(seat: str, pos: str) -> list[dict[str, Any]]:
    return [{"type": "draw", "seat": seat, "from": "deck"},
            {"type": "keep", "seat": seat, "pos": pos, "card": "G5", "out": "G-1"},
            {"type": "discard", "seat": seat, "card": "G-1", "pile": "A"}]


def test_an_illegal_flip_of_the_last_face_down_card_does_not_end_the_round(tmp_path: Path) -> None:
    """§5.4: "the last face-down card can never be turned by a Hazard, so a Hazard can never
    end a round"; §9: the camera sees a flip of a last face-down card, which is illegal. The
    card goes back face down, so Ana, who only passes on her next turn, is not the finisher
    (§5.5 needs no face-down card): the round goes on and her next keep on 33 takes her out."""
    seats = ["Ana", "Bob"]
    events = _opening(seats)
    for pos in HIDDEN[:-1]:                     # Ana keeps down to one face-down card (33)
        events += _fill("Ana", pos) + _pass("Bob")
    events += _pass("Ana") + [{"type": "draw", "seat": "Bob", "from": "deck"},
                              {"type": "discard", "seat": "Bob", "card": "HAZARD"},
                              {"type": "flip", "seat": "Ana", "pos": "33", "card": "G3"}]
    events += _pass("Ana") + _pass("Bob")       # no finisher yet: the round goes on
    events += _fill("Ana", "33") + _pass("Bob")  # Ana goes out; Bob's final turn
    grid_ana = ["G8", "G7", "G5", "G5", "G5", "G5", "G5", "G5", "G5"]   # rows 2, 3, column 3: -15; 8+7 = 15
    grid_bob = ["G8", "G7", "G3", "G6", "G6", "G6", "G3", "G4", "G4"]   # row 2 -6; 8+7+3+3+4+4 = 29: 23
    events += [{"type": "reveal", "seat": "Ana", "grid": grid_ana},
               {"type": "reveal", "seat": "Bob", "grid": grid_bob}]
    report = _replay(tmp_path, events, seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_flip", "Ana")]
    finishers = [r for r in report.rulings if r.kind == "finisher"]
    assert len(finishers) == 1 and finishers[0].seats == ("Ana",)
    assert report.hands == [{"Ana": -5, "Bob": 23}]      # Ana 0, lowest: -5


def test_a_draw_by_another_seat_while_the_player_holds_a_card_is_out_of_turn(tmp_path: Path) -> None:
    """§5.1 (the current player draws) and §9 ("two cards drawn" is one player drawing twice):
    Bob drawing while Ana still holds her card is Bob playing out of turn, not Bob drawing
    twice; Ana drawing twice is ``two_draws``."""
    events = _opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "draw", "seat": "Bob", "from": "deck"}]
    report = _replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]
    events = _opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "draw", "seat": "Ana", "from": "A", "card": "G3"}]
    report = _replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("two_draws", "Ana")]


def test_a_second_flip_after_one_hazard_is_named_as_such(tmp_path: Path) -> None:
    """§5.4: each other player "may turn one of their own face-down cards face up" after a
    Hazard. Bob's second flip after Ana's one Hazard is illegal, and the ruling says it is a
    second flip, not a flip "without a Hazard"."""
    events = _opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "discard", "seat": "Ana", "card": "HAZARD"},
                                {"type": "flip", "seat": "Bob", "pos": "13", "card": "G3"},
                                {"type": "flip", "seat": "Bob", "pos": "21", "card": "G3"}]
    report = _replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_flip", "Bob")]
    text = report.infractions[0].text
    assert "without a Hazard" not in text and "one card" in text


def test_play_after_the_last_round_is_scored_is_round_over_not_a_bad_log(tmp_path: Path) -> None:
    """docs/table-log.md: breaches are refereed, not errors, and ``round_over`` is "a draw,
    keep or discard after the round ended". A draw, keep and discard logged after the only
    round (``rounds = 1``) was revealed and scored are reported; the score stands."""
    seats = ["Ana", "Bob"]
    events = _opening(seats)
    for pos in HIDDEN:
        events += _fill("Ana", pos) + _pass("Bob")          # Bob's last pass is his final turn
    grid_ana = ["G8", "G7", "G5", "G5", "G5", "G5", "G5", "G5", "G5"]   # 0 as above
    grid_bob = ["G8", "G7", "G3", "G6", "G6", "G6", "G3", "G4", "G4"]   # 23
    events += [{"type": "reveal", "seat": "Ana", "grid": grid_ana},
               {"type": "reveal", "seat": "Bob", "grid": grid_bob},
               {"type": "draw", "seat": "Ana", "from": "deck"},
               {"type": "keep", "seat": "Ana", "pos": "11", "card": "G3", "out": "G8"},
               {"type": "discard", "seat": "Ana", "card": "G8", "pile": "A"}]
    report = _replay(tmp_path, events, seats, {"rounds": 1})
    assert [i.kind for i in report.infractions] == ["round_over"] * 3
    assert report.hands == [{"Ana": -5, "Bob": 23}]
    assert report.finished and report.winners == ["Ana"]
