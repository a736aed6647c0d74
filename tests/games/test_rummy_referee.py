"""3-13 Speed referee path: the example log, claims, infractions and bad logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from kiosk.games.errors import InvalidActionError
from kiosk.games.referee import TableEvent
from kiosk.games.rummy import Rummy313Game
from kiosk.games.rummy_bots import play_bot_game, table_log
from kiosk.games.rummy_referee import RummyReferee
from kiosk.replay import replay_events
from kiosk.tablelog import LogFormatError, parse_event, parse_table_log, read_table_log

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rummy_3_13_example.jsonl"
SEATS = ["Ana", "Ben", "Cal", "Dee"]
PILES = {"Ana": "2S", "Ben": "10C", "Cal": "7D", "Dee": "9H"}


def _referee(**options: Any) -> RummyReferee:
    ref = Rummy313Game({"hands": [4], **options}, seats=SEATS).referee()
    assert isinstance(ref, RummyReferee)
    return ref


def _ev(t: float, type_: str, seat: str | None = None, **data: Any) -> TableEvent:
    return TableEvent(type_, int(t * 1e9), seat=seat, data=data)


def test_example_log_is_refereed() -> None:
    header, events = read_table_log(EXAMPLE)
    report = replay_events(header, events)
    assert report.hands == [
        {"Ana": 0, "Ben": 0, "Cal": 21, "Dee": 8},
        {"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26},
    ]
    assert report.totals == {"Ana": 0, "Ben": 0, "Cal": 23, "Dee": 34}
    assert report.finished and report.winners == ["Ana", "Ben"]
    assert [i.kind for i in report.infractions] == ["early_discard"]
    assert report.extra["caller"] == "Ana"
    kinds = [r.kind for r in report.rulings]
    assert kinds.count("failed_match") == 1 and kinds.count("match") == 2
    assert report.extra["arrangements"][1]["Cal"]["orphans"] == ["2H"]


def test_kiosk_replay_prints_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == {"Ana": 0, "Ben": 0, "Cal": 23, "Dee": 34}


def test_failed_claim_shows_the_best_arrangement_and_orphans() -> None:
    ref = _referee(false_match_penalty=10)
    ref.feed(_ev(0, "hand_start", piles=PILES))
    rulings = ref.feed(_ev(1, "match", "Cal", cards=["AC", "AD", "AS", "QH"]))
    assert rulings[0].kind == "failed_match"
    assert "{A♣ A♦ A♠}" in rulings[0].text and "orphans: Q♥" in rulings[0].text and "+10" in rulings[0].text
    assert rulings[0].data["arrangement"]["orphans"] == ["QH"]
    assert ref.cadence().match_window_open and not ref.cadence().final_round


def test_wrong_count_claim_fails() -> None:
    ref = _referee()
    ref.feed(_ev(0, "hand_start", piles=PILES))
    rulings = ref.feed(_ev(1, "match", "Ana", cards=["9S", "9D", "4H"]))
    assert rulings[0].kind == "failed_match" and "laid out 3 cards" in rulings[0].text


def test_as_laid_out_claim_must_be_valid_as_shown() -> None:
    ref = _referee(scoring_mode="as_laid_out")
    ref.feed(_ev(0, "hand_start", piles=PILES))
    bad = ref.feed(_ev(1, "match", "Ben", sets=[["6H", "7H"], ["8H", "4S"]]))
    assert bad[0].kind == "failed_match"
    good = ref.feed(_ev(2, "match", "Ana", sets=[["9S", "9D", "9H", "4H"]]))
    assert good[0].kind == "match"


def test_drawing_breaches_are_infractions() -> None:
    ref = _referee()
    ref.feed(_ev(0, "hand_start", piles=PILES))
    ref.feed(_ev(0.5, "draw", "Ben", **{"from": "pool"}))
    ref.feed(_ev(1, "call", call="draw"))
    ref.feed(_ev(2, "draw", "Ana", **{"from": "Ben", "card": "10C"}))
    ref.feed(_ev(2.1, "draw", "Ana", **{"from": "pool"}))
    ref.feed(_ev(2.2, "draw", "Cal", **{"from": "Ben", "card": "KH"}))
    ref.feed(_ev(2.3, "call", call="discard"))
    kinds = [i.kind for i in ref.report().infractions]
    assert kinds == ["early_draw", "wrong_pile", "two_draws", "misread", "early_call"]
    assert "right-hand neighbour" in ref.report().infractions[1].text


def test_pool_count_triggers_the_reform_ruling() -> None:
    game = Rummy313Game({"hands": [13], "decks": 1}, seats=3)
    ref = game.referee()
    ref.feed(_ev(0, "hand_start", piles={"P1": "2C", "P2": "3C", "P3": "4C"}))
    t = 1.0
    for _ in range(4):
        ref.feed(_ev(t, "call", call="draw"))
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.1, "draw", s, **{"from": "pool"}))
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.2, "hold", s))
        ref.feed(_ev(t + 0.3, "call", call="discard"))
        for s in ("P1", "P2", "P3"):
            ref.feed(_ev(t + 0.4, "discard", s, card="5D"))
        t += 1
    kinds = [r.kind for r in ref.report().rulings]
    assert kinds.count("pool_reform") == 1


def test_missing_card_in_a_shown_hand_is_flagged() -> None:
    ref = _referee()
    ref.feed(_ev(0, "hand_start", piles=PILES))
    ref.feed(_ev(1, "match", "Ana", cards=["9S", "9D", "9H", "4H"]))
    ref.feed(_ev(2, "call", call="draw"))
    ref.feed(_ev(3, "draw", "Ben", **{"from": "Ana", "card": "2S"}))
    for s in ("Cal", "Dee"):
        ref.feed(_ev(3, "draw", s, **{"from": "pool"}))
    for s in ("Ben", "Cal", "Dee"):
        ref.feed(_ev(4, "hold", s))
    ref.feed(_ev(5, "call", call="discard"))
    for s, c in (("Ben", "3D"), ("Cal", "QH"), ("Dee", "JD")):
        ref.feed(_ev(5.5, "discard", s, card=c))
    ref.feed(_ev(6, "show", "Ben", cards=["6H", "7H", "8H", "4S"]))
    ref.feed(_ev(6, "show", "Cal", cards=["AC", "AD", "AS", "2H"]))
    ref.feed(_ev(6, "show", "Dee", cards=["5S", "5H", "8C", "8D"]))
    rep = ref.report()
    assert [i.kind for i in rep.infractions] == ["missing_card"]
    assert rep.hands == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}] and rep.finished


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"t": 1, "type": "call", "call": "draw"}'], "before a 'hand_start'"),
        (['{"t": 0, "type": "hand_start"}'], "needs 'piles'"),
        (['{"t": 0, "type": "hand_start", "hand": 3, "piles": {}}'], "the next hand is 1"),
        (['{"t": 0, "type": "hand_start", "piles": {"Ana": "2S", "Ben": "ZZ", "Cal": "7D", "Dee": "9H"}}'],
         "invalid card"),
        (['{"t": 0, "type": "shuffle"}'], "unknown event type"),
        (['{"t": 0, "type": "hand_start", "piles": {"Ana": "2S", "Ben": "3S", "Cal": "7D", "Dee": "9H"}}',
          '{"t": 1, "type": "draw", "seat": "Eve", "from": "pool"}'], "seat 'Eve'"),
        (['{"t": 0, "type": "hand_start", "piles": {"Ana": "2S", "Ben": "3S", "Cal": "7D", "Dee": "9H"}}',
          '{"t": 1, "type": "match", "seat": "Ana", "cards": "9S 9D"}'], "must be a list"),
        (['{"t": 0, "type": "hand_start", "piles": {"Ana": "2S", "Ben": "3S", "Cal": "7D", "Dee": "9H"}}',
          '{"t": 1, "type": "call", "call": "shuffle"}'], "'draw' or 'discard'"),
    ],
)
def test_bad_logs_get_clear_errors(lines: list[str], message: str) -> None:
    header = '{"table_log": 1, "game": "rummy_3_13", "seats": ["Ana", "Ben", "Cal", "Dee"], "options": {}}'
    h, events = parse_table_log([header, *lines])
    with pytest.raises(LogFormatError, match=message) as info:
        replay_events(h, events)
    assert info.value.line == len(lines) + 1


def test_bad_options_in_the_header_are_reported_on_line_1() -> None:
    h, events = parse_table_log(['{"table_log": 1, "game": "rummy_3_13", "seats": ["A", "B"], '
                                 '"options": {"scoring_mode": "greedy"}}'])
    with pytest.raises(LogFormatError, match="scoring_mode") as info:
        replay_events(h, events)
    assert info.value.line == 1


def test_undo_refolds_the_log() -> None:
    ref = _referee()
    ref.feed(_ev(0, "hand_start", piles=PILES))
    ref.feed(_ev(1, "match", "Ana", cards=["9S", "9D", "9H", "4H"]))
    assert ref.cadence().final_round
    ref.feed(_ev(2, "undo"))
    assert not ref.cadence().final_round


def test_event_field_errors_name_the_problem() -> None:
    ref = _referee()
    ref.feed(_ev(0, "hand_start", piles=PILES))
    with pytest.raises(InvalidActionError, match="'from'"):
        ref.feed(_ev(1, "draw", "Ana"))


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (4, {}),
        (3, {"decks": 1, "hands": [11, 12, 13]}),                       # the pool is re-formed
        (3, {"decks": 1, "hands": [12, 13], "pool_empty": "end_hand"}),
        (5, {"matcher_plays_final_round": True, "start_pile_each_hand": False, "false_match_penalty": 4}),
        (12, {"max_wilds_per_set": 1, "face_card_points": "rank", "hands": [11, 12, 13]}),
    ],
)
def test_referee_agrees_with_the_engine(seats: int, options: dict[str, Any]) -> None:
    game = Rummy313Game(options, seats=seats)
    state = play_bot_game(game, seats)
    ref = game.referee()
    ref.feed_all(table_log(game, state.history()))
    report = ref.report()
    assert report.infractions == []
    assert [list(h.values()) for h in report.hands] == state.scores
    assert report.winners == [game.seats[i] for i in state.winners()]


def test_documented_events_are_valid_for_this_referee() -> None:
    doc = (EXAMPLE.parents[1] / "docs" / "table-log.md").read_text(encoding="utf-8")
    section = doc.split("## 3-13 Speed Rummy events", 1)[1].split("\n## ", 1)[0]
    block = section.split("```json", 1)[1].split("```", 1)[0].strip().splitlines()
    events = [parse_event(line, n) for n, line in enumerate(block, start=1)]
    assert {e.type for e in events} == set(RummyReferee.event_types)
    ref = Rummy313Game({"hands": [3]}, seats=SEATS).referee()
    ref.feed_all(events)
    assert [r.kind for r in ref.report().rulings][:3] == ["caller", "hand_start", "match"]
    for kind in ("wrong_pile", "early_discard", "match_outside_window", "missing_card"):
        assert f"`{kind}`" in section


def test_choosing_the_caller_highest_card_and_ties() -> None:
    ref = _referee()
    rulings = ref.feed(_ev(0, "caller_draw", cards={"Ana": "KS", "Ben": "KD", "Cal": "AH", "Dee": "9C"}))
    assert rulings[0].kind == "caller_tie" and rulings[0].seats == ("Ana", "Ben")
    rulings = ref.feed(_ev(1, "caller_draw", cards={"Ana": "2C", "Ben": "3C"}))
    assert rulings[0].text == "Ben is the caller (highest card 3♣)"
    ref.feed(_ev(2, "hand_start", piles=PILES))
    ref.feed(_ev(3, "call", "Dee", call="draw"))
    assert [i.kind for i in ref.report().infractions] == ["not_the_caller"]
    assert ref.report().extra["caller"] == "Ben"


def test_only_tied_seats_draw_again_for_the_caller() -> None:
    ref = _referee()
    ref.feed(_ev(0, "caller_draw", cards={"Ana": "KS", "Ben": "KD", "Cal": "AH", "Dee": "9C"}))
    ref.feed(_ev(1, "caller_draw", cards={"Ana": "2C", "Cal": "3C"}))
    assert [i.kind for i in ref.report().infractions] == ["caller_draw_seats"]


def test_as_laid_out_show_scores_the_arrangement_shown() -> None:
    ref = _referee(scoring_mode="as_laid_out")
    ref.feed(_ev(0, "hand_start", piles=PILES))
    ref.feed(_ev(1, "match", "Ana", sets=[["9S", "9D", "9H", "4H"]]))
    ref.feed(_ev(2, "call", call="draw"))
    for s in ("Ben", "Cal", "Dee"):
        ref.feed(_ev(3, "draw", s, **{"from": "pool"}))
    for s in ("Ben", "Cal", "Dee"):
        ref.feed(_ev(4, "hold", s))
    ref.feed(_ev(5, "call", call="discard"))
    for s, c in (("Ben", "3D"), ("Cal", "QH"), ("Dee", "JD")):
        ref.feed(_ev(5.5, "discard", s, card=c))
    # Ben lays 6H 7H 8H as a run but leaves 4S out: he scores 4, though 0 was possible.
    ref.feed(_ev(6, "show", "Ben", sets=[["6H", "7H", "8H"]], orphans=["4S"]))
    ref.feed(_ev(6, "show", "Cal", sets=[["AC", "AD", "AS"]], orphans=["2H"]))
    ref.feed(_ev(6, "show", "Dee", cards=["5S", "5H", "8C", "8D"]))
    assert ref.report().hands == [{"Ana": 0, "Ben": 4, "Cal": 2, "Dee": 26}]
