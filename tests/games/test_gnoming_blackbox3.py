"""Third round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs,
written from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: breaches the camera
sees (§9) and what the referee does with them afterwards."""

from __future__ import annotations

from pathlib import Path

from tests.games.gnoming_logs import HIDDEN, SEATS, fill, opening, pass_turn, replay


def test_an_illegal_flip_of_the_last_face_down_card_does_not_end_the_round(tmp_path: Path) -> None:
    """§5.4: "the last face-down card can never be turned by a Hazard, so a Hazard can never
    end a round"; §9: the camera sees a flip of a last face-down card, which is illegal. The
    card goes back face down, so Ana, who only passes on her next turn, is not the finisher
    (§5.5 needs no face-down card): the round goes on and her next keep on 33 takes her out."""
    seats = ["Ana", "Bob"]
    events = opening(seats)
    for pos in HIDDEN[:-1]:                     # Ana keeps down to one face-down card (33)
        events += fill("Ana", pos) + pass_turn("Bob")
    events += pass_turn("Ana") + [{"type": "draw", "seat": "Bob", "from": "deck"},
                              {"type": "discard", "seat": "Bob", "card": "HAZARD"},
                              {"type": "flip", "seat": "Ana", "pos": "33", "card": "G3"}]
    events += pass_turn("Ana") + pass_turn("Bob")       # no finisher yet: the round goes on
    events += fill("Ana", "33") + pass_turn("Bob")  # Ana goes out; Bob's final turn
    grid_ana = ["G8", "G7", "G5", "G5", "G5", "G5", "G5", "G5", "G5"]   # rows 2, 3, column 3: -15; 8+7 = 15
    grid_bob = ["G8", "G7", "G3", "G6", "G6", "G6", "G3", "G4", "G4"]   # row 2 -6; 8+7+3+3+4+4 = 29: 23
    events += [{"type": "reveal", "seat": "Ana", "grid": grid_ana},
               {"type": "reveal", "seat": "Bob", "grid": grid_bob}]
    report = replay(tmp_path, events, seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_flip", "Ana")]
    finishers = [r for r in report.rulings if r.kind == "finisher"]
    assert len(finishers) == 1 and finishers[0].seats == ("Ana",)
    assert report.hands == [{"Ana": -5, "Bob": 23}]      # Ana 0, lowest: -5


def test_a_draw_by_another_seat_while_the_player_holds_a_card_is_out_of_turn(tmp_path: Path) -> None:
    """§5.1 (the current player draws) and §9 ("two cards drawn" is one player drawing twice):
    Bob drawing while Ana still holds her card is Bob playing out of turn, not Bob drawing
    twice; Ana drawing twice is ``two_draws``."""
    events = opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "draw", "seat": "Bob", "from": "deck"}]
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]
    events = opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "draw", "seat": "Ana", "from": "A", "card": "G3"}]
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("two_draws", "Ana")]


def test_a_second_flip_after_one_hazard_is_named_as_such(tmp_path: Path) -> None:
    """§5.4: each other player "may turn one of their own face-down cards face up" after a
    Hazard. Bob's second flip after Ana's one Hazard is illegal, and the ruling says it is a
    second flip, not a flip "without a Hazard"."""
    events = opening(SEATS) + [{"type": "draw", "seat": "Ana", "from": "deck"},
                                {"type": "discard", "seat": "Ana", "card": "HAZARD"},
                                {"type": "flip", "seat": "Bob", "pos": "13", "card": "G3"},
                                {"type": "flip", "seat": "Bob", "pos": "21", "card": "G3"}]
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("illegal_flip", "Bob")]
    text = report.infractions[0].text
    assert "without a Hazard" not in text and "one card" in text


def test_play_after_the_last_round_is_scored_is_round_over_not_a_bad_log(tmp_path: Path) -> None:
    """docs/table-log.md: breaches are refereed, not errors, and ``round_over`` is "a draw,
    keep or discard after the round ended". A draw, keep and discard logged after the only
    round (``rounds = 1``) was revealed and scored are reported; the score stands."""
    seats = ["Ana", "Bob"]
    events = opening(seats)
    for pos in HIDDEN:
        events += fill("Ana", pos) + pass_turn("Bob")          # Bob's last pass is his final turn
    grid_ana = ["G8", "G7", "G5", "G5", "G5", "G5", "G5", "G5", "G5"]   # 0 as above
    grid_bob = ["G8", "G7", "G3", "G6", "G6", "G6", "G3", "G4", "G4"]   # 23
    events += [{"type": "reveal", "seat": "Ana", "grid": grid_ana},
               {"type": "reveal", "seat": "Bob", "grid": grid_bob},
               {"type": "draw", "seat": "Ana", "from": "deck"},
               {"type": "keep", "seat": "Ana", "pos": "11", "card": "G3", "out": "G8"},
               {"type": "discard", "seat": "Ana", "card": "G8", "pile": "A"}]
    report = replay(tmp_path, events, seats, {"rounds": 1})
    assert [i.kind for i in report.infractions] == ["round_over"] * 3
    assert report.hands == [{"Ana": -5, "Bob": 23}]
    assert report.finished and report.winners == ["Ana"]
