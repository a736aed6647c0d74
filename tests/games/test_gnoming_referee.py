"""Gnoming A Round referee path: the example log, agreement with the engine,
infractions and bad logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.games.gnoming import GnomingGame
from kiosk.games.gnoming_bots import play_bot_game, table_log
from kiosk.games.gnoming_referee import GnomingReferee
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import replay_events
from kiosk.tablelog import (
    LogFormatError,
    dump_event,
    dump_header,
    parse_event,
    parse_table_log,
    read_table_log,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gnoming_example.jsonl"
SEATS = ["Maria", "Ben", "Cal"]


def _ev(t: float, type_: str, seat: str | None = None, **data: Any) -> TableEvent:
    return TableEvent(type_, int(t * 1e9), seat=seat, data=data)


def _referee(**options: Any) -> GnomingReferee:
    ref = GnomingGame(options, seats=SEATS).referee()
    assert isinstance(ref, GnomingReferee)
    ref.feed(_ev(0, "round_start", piles={"A": "G5", "B": "G3"}))
    t = 0.1
    for seat, positions in (("Maria", "11 22"), ("Ben", "11 12"), ("Cal", "11 33")):
        for pos in positions.split():
            ref.feed(_ev(t, "flip", seat, pos=pos, card="G6"))
            t += 0.1
    return ref


def test_example_log_is_refereed() -> None:
    header, events = read_table_log(EXAMPLE)
    report = replay_events(header, events)
    assert report.hands == [
        {"Maria": 10, "Ben": 1, "Cal": 39},
        {"Maria": -17, "Ben": 7, "Cal": 14},
        {"Maria": 9, "Ben": 21, "Cal": 23},
    ]
    assert report.totals == {"Maria": 2, "Ben": 29, "Cal": 76}
    assert report.finished and report.winners == ["Maria"] and not report.infractions
    assert "row 1 at 3 (-3)" in report.extra["grids"][1]["Maria"]


def test_example_log_is_the_golden_bot_game() -> None:
    """The example is a seeded bot game: regenerating it must give the same lines."""
    game = GnomingGame({"youngest_seat": 1}, seats=SEATS)
    state = play_bot_game(game, 1)
    lines = [dump_event(e) for e in table_log(game, state.history())]
    stored = [ln for ln in EXAMPLE.read_text(encoding="utf-8").splitlines()[1:] if not ln.startswith("#")]
    assert lines == stored
    assert dump_header(LogHeader("gnoming", tuple(SEATS), {"youngest_seat": 1})).startswith(
        EXAMPLE.read_text(encoding="utf-8").split(", \"note\"")[0])


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (2, {}),
        (5, {"hazard_on_discard": "to_pile", "bounce_targets": "face_down_only",
             "must_keep_discard_draw": True, "turn_direction": "counterclockwise",
             "first_player": "finisher_starts"}),
        (4, {"line_sharing": "disjoint", "mulligan_dual_value": False, "first_out_tie": "strict",
             "hazard_flip_min_facedown": 1}),
    ],
)
def test_referee_agrees_with_the_engine(seats: int, options: dict[str, Any]) -> None:
    game = GnomingGame(options, seats=seats)
    for seed in (1, 2):
        state = play_bot_game(game, seed)
        ref = game.referee()
        ref.feed_all(table_log(game, state.history()))
        report = ref.report()
        assert [list(h.values()) for h in report.hands] == state.scores
        assert report.infractions == []
        assert report.winners == [game.seats[i] for i in state.winners()]


def test_turn_breaches_are_infractions() -> None:
    ref = _referee()
    ref.feed(_ev(1, "draw", "Ben", **{"from": "deck"}))                       # Maria's turn
    ref.feed(_ev(2, "keep", "Ben", pos="21", card="G4", out="G8"))
    ref.feed(_ev(3, "keep", "Ben", pos="22", card="G8", out="G5"))            # 8 matches nothing
    ref.feed(_ev(4, "keep", "Ben", pos="22", card="G5", out="G8"))
    ref.feed(_ev(5, "discard", "Ben", card="G8", pile="A"))
    kinds = [i.kind for i in ref.report().infractions]
    assert kinds == ["out_of_turn", "illegal_bounce", "filled_twice", "illegal_bounce"]


def test_a_legal_bounce_is_accepted() -> None:
    ref = _referee()
    ref.feed(_ev(1, "draw", "Maria", **{"from": "A", "card": "G5"}))
    ref.feed(_ev(2, "keep", "Maria", pos="12", card="G5", out="G6"))         # matches the face-up 6s
    ref.feed(_ev(3, "keep", "Maria", pos="13", card="G6", out="G3"))
    ref.feed(_ev(4, "discard", "Maria", card="G3", pile="A"))
    assert ref.report().infractions == []


def test_wrong_pile_and_hazard_flip_limits() -> None:
    ref = _referee()
    ref.feed(_ev(1, "draw", "Maria", **{"from": "A", "card": "G5"}))
    ref.feed(_ev(2, "discard", "Maria", card="G5", pile="B"))                # A was empty
    ref.feed(_ev(3, "draw", "Ben", **{"from": "deck"}))
    rulings = ref.feed(_ev(4, "discard", "Ben", card="HAZARD"))
    assert "Maria, Cal may turn" in rulings[0].text
    ref.feed(_ev(5, "flip", "Maria", pos="33", card="G8"))
    ref.feed(_ev(6, "flip", "Maria", pos="32", card="G7"))                   # a second flip
    kinds = [i.kind for i in ref.report().infractions]
    assert kinds == ["wrong_pile", "illegal_flip"]


def test_last_face_down_card_cannot_be_flipped_by_a_hazard() -> None:
    ref = _referee()
    for n, pos in enumerate(["12", "13", "21", "23", "31", "32", "33"]):
        ref.feed(_ev(1 + n / 10, "flip", "Cal", pos=pos, card="G4"))           # setup misuse, flagged
    ref.feed(_ev(2, "draw", "Maria", **{"from": "deck"}))
    ref.feed(_ev(3, "discard", "Maria", card="HAZARD"))
    ref.feed(_ev(4, "flip", "Cal", pos="22", card="G5"))
    last = ref.report().infractions[-1]
    assert last.kind == "illegal_flip" and "last card" in last.text


def test_round_end_and_reveal_scoring() -> None:
    ref = GnomingGame({"rounds": 1}, seats=["Eve", "Finn"]).referee()
    ref.feed(_ev(0, "round_start", piles={"A": "G5", "B": "G3"}))
    for n, (seat, pos, card) in enumerate([("Eve", "11", "G5"), ("Eve", "12", "G5"), ("Finn", "11", "G6"),
                                           ("Finn", "12", "G-2")]):
        ref.feed(_ev(0.1 * (n + 1), "flip", seat, pos=pos, card=card))
    t = 1.0
    for pos, out in [("13", "G5"), ("21", "G-3"), ("22", "G8"), ("23", "G-1"), ("31", "G4"), ("32", "G4"),
                     ("33", "MULLIGAN")]:
        ref.feed(_ev(t, "draw", "Eve", **{"from": "deck"}))
        ref.feed(_ev(t + 0.1, "keep", "Eve", pos=pos, card=out, out="G7"))
        ref.feed(_ev(t + 0.2, "discard", "Eve", card="G7", pile="A"))
        if pos != "33":
            ref.feed(_ev(t + 0.3, "draw", "Finn", **{"from": "deck"}))
            ref.feed(_ev(t + 0.4, "discard", "Finn", card="G8", pile="B"))
        t += 1
    assert [r.kind for r in ref.report().rulings][-1] == "finisher"
    ref.feed(_ev(t, "draw", "Finn", **{"from": "deck"}))
    rulings = ref.feed(_ev(t + 0.1, "discard", "Finn", card="G8", pile="B"))
    assert rulings[-1].kind == "round_end"
    ref.feed(_ev(t + 1, "reveal", "Eve", grid="G5 G5 G5 G-3 G8 G-1 G4 G4 MULLIGAN".split()))
    ref.feed(_ev(t + 1, "reveal", "Finn", grid="G6 G-2 G6 G7 G7 G7 G3 HAZARD G-4".split()))
    report = ref.report()
    assert report.hands == [{"Eve": -10, "Finn": 12}]   # example 11: Eve -5 - 5, Finn 12
    assert report.finished and report.winners == ["Eve"] and report.infractions == []


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"t": 1, "type": "draw", "seat": "Ben", "from": "deck"}'], "before a 'round_start'"),
        (['{"t": 0, "type": "round_start"}'], "needs a 'piles'"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5"}}'], "needs 'piles'"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "HAZARD", "B": "G3"}}'], "cannot start a discard"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}',
          '{"t": 1, "type": "flip", "seat": "Ben", "pos": "41", "card": "G5"}'], "invalid grid position"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}',
          '{"t": 1, "type": "flip", "seat": "Ben", "pos": "11", "card": "G9"}'], "invalid Gnoming card"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}',
          '{"t": 1, "type": "draw", "seat": "Ben", "from": "C"}'], "'deck', 'A' or 'B'"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}',
          '{"t": 1, "type": "reveal", "seat": "Ben", "grid": ["G5"]}'], "nine cards"),
        (['{"t": 0, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}',
          '{"t": 1, "type": "round_start", "piles": {"A": "G5", "B": "G3"}}'], "not scored yet"),
    ],
)
def test_bad_logs_get_clear_errors(lines: list[str], message: str) -> None:
    header = '{"table_log": 1, "game": "gnoming", "seats": ["Maria", "Ben", "Cal"], "options": {}}'
    h, events = parse_table_log([header, *lines])
    with pytest.raises(LogFormatError, match=message) as info:
        replay_events(h, events)
    assert info.value.line == len(lines) + 1


def test_documented_events_are_valid_for_this_referee() -> None:
    doc = (EXAMPLE.parents[1] / "docs" / "table-log.md").read_text(encoding="utf-8")
    section = doc.split("## Gnoming A Round events", 1)[1].split("\n## ", 1)[0]
    block = section.split("```json", 1)[1].split("```", 1)[0].strip().splitlines()
    events = [parse_event(line, n) for n, line in enumerate(block, start=1)]
    assert {e.type for e in events} == set(GnomingReferee.event_types)
    ref = GnomingGame(seats=SEATS).referee()
    for e in events:
        ref.feed(e)
    for kind in ("illegal_bounce", "wrong_pile", "illegal_flip", "misread"):
        assert f"`{kind}`" in section
