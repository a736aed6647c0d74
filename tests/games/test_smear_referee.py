"""The Smear referee: scoring from a table log, one test per infraction, malformed events."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from kiosk.games.errors import InvalidActionError
from kiosk.games.referee import Referee, RefereeReport, TableEvent
from kiosk.games.smear import SmearGame
from kiosk.games.smear_bots import HeuristicSmearBot, RandomSmearBot, SmearBot, play_bot_game
from kiosk.games.smear_referee import history_to_events
from kiosk.replay import replay_events
from kiosk.tablelog import read_table_log
from tests.games.smear_fixtures import EX_13_4, EX_13_6, EXAMPLES, SEATS, EventClock, Example, example_events

EXAMPLE_LOG = Path(__file__).resolve().parents[2] / "examples" / "smear_example.jsonl"


def referee(**options: Any) -> Referee:
    return SmearGame(options, seats=SEATS).referee()


def run(events: list[TableEvent], **options: Any) -> RefereeReport:
    ref = referee(**options)
    ref.feed_all(events)
    return ref.report()


def kinds(report: RefereeReport) -> list[str]:
    return [i.kind for i in report.infractions]


def retime(events: list[TableEvent]) -> list[TableEvent]:
    return [dataclasses.replace(e, t_ns=(i + 1) * 1_000_000_000) for i, e in enumerate(events)]


def play(seat: str, card: str) -> TableEvent:
    return TableEvent("play", 0, seat=seat, data={"card": card})


# The play of 13.8: 13.4 with W discarding 7D on trick 3 instead of trumping.
EX_13_8 = dataclasses.replace(
    EX_13_4,
    tricks=[*EX_13_4.tricks[:2], "N:JC E:QC S:AC W:7D -> S", "S:8D W:KC N:KD E:10D -> N",
            "N:AS E:10H S:KH W:10S -> N", "N:QH E:AH S:10C W:JH -> E"],
)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_referee_scores_every_worked_example_like_the_engine(name: str) -> None:
    ex = EXAMPLES[name]
    report = run(example_events(ex, EventClock()), **ex.options)
    engine = ex.play()
    assert report.infractions == []
    assert report.totals == {s: engine.returns()[i] for i, s in enumerate(SEATS)}
    assert report.hands == [report.totals]


def test_13_8_a_revoke_is_proven_by_later_play_naming_both_tricks() -> None:
    report = run(example_events(EX_13_8, EventClock()))
    assert kinds(report) == ["revoke"]
    text = report.infractions[0].text
    assert "trick 3: clubs led, W played 7D" in text and "trick 4: W played KC" in text
    assert report.infractions[0].seat == "W"
    # flag_only: the hand is scored as played: NS High, Low, Game (57 to 23), EW Jack.
    assert report.extra["hands"][0]["card_points"] == {"NS": 57, "EW": 23}
    assert report.totals == {"N": 3, "E": 1, "S": 3, "W": 1}


def test_13_8_bid_setback_costs_the_offenders_the_bid_and_the_bidder_cannot_be_set() -> None:
    report = run(example_events(EX_13_8, EventClock()), revoke_policy="bid_setback")
    hand = report.extra["hands"][0]
    assert hand["change"] == {"NS": 3, "EW": -2}
    assert hand["made"] is True
    assert report.totals == {"N": 3, "E": -2, "S": 3, "W": -2}


def test_a_revoke_proven_only_several_tricks_later() -> None:
    # 13.8 with W keeping KC until the last trick: the revoke of trick 3 is proven in trick 6.
    ex = dataclasses.replace(
        EX_13_4,
        tricks=[*EX_13_4.tricks[:2], "N:JC E:QC S:AC W:7D -> S", "S:8D W:JH N:KD E:10D -> N",
                "N:AS E:10H S:KH W:10S -> N", "N:QH E:AH S:10C W:KC -> E"],
    )
    report = run(example_events(ex, EventClock()))
    assert kinds(report) == ["revoke"]
    assert "in trick 3" in report.infractions[0].text and "proven in trick 6" in report.infractions[0].text


def test_trumping_instead_of_following_is_no_revoke_but_is_one_under_strict() -> None:
    events = example_events(EX_13_4, EventClock())  # W trumps 10S on clubs in trick 3, plays KC later
    assert kinds(run(events)) == []
    report = run(events, follow_rule="strict")
    assert kinds(report) == ["revoke"]
    assert "clubs led, W played 10S" in report.infractions[0].text


def test_a_card_played_out_of_turn_is_refused_and_goes_back() -> None:
    events = example_events(EX_13_4, EventClock())
    first_play = next(i for i, e in enumerate(events) if e.type == "play")
    events.insert(first_play, play("E", "KS"))  # E plays before the bidder N leads
    report = run(retime(events))
    assert kinds(report) == ["out_of_turn"]
    assert "N is to lead" in report.infractions[0].text
    # E plays KS in its turn later: not a card seen twice.
    assert report.totals == run(example_events(EX_13_4, EventClock())).totals


def test_a_bid_out_of_turn_and_a_bid_too_low_are_refused() -> None:
    events = [TableEvent("deal", 1, seat="W"), TableEvent("bid", 2, seat="E", data={"bid": 2}),
              TableEvent("bid", 3, seat="N", data={"bid": 3}),
              TableEvent("bid", 4, seat="E", data={"bid": 3}),
              TableEvent("bid", 5, seat="E", data={"bid": 5})]
    report = run(events)
    assert kinds(report) == ["out_of_turn", "illegal_bid", "illegal_bid"]
    assert "bids are 2 to 4" in report.infractions[2].text
    ref = referee(all_pass="dealer_must_bid")
    ref.feed_all([TableEvent("deal", 1, seat="W")] + [TableEvent("pass", t, seat=s) for t, s in
                                                     ((2, "N"), (3, "E"), (4, "S"), (5, "W"))])
    assert kinds(ref.report()) == ["illegal_bid"]
    assert "dealer must bid" in ref.report().infractions[0].text


def test_a_card_seen_twice_is_reported() -> None:
    events = example_events(EX_13_4, EventClock())
    plays = [i for i, e in enumerate(events) if e.type == "play"]
    events[plays[5]] = dataclasses.replace(events[plays[5]], data={"card": "9D"})  # S "plays" E's 9D again
    report = run(events)
    assert "seen_twice" in kinds(report)
    assert "9D seen twice" in report.infractions[kinds(report).index("seen_twice")].text


def test_a_trick_collected_short_is_reported() -> None:
    events = example_events(EX_13_4, EventClock())
    plays = [i for i, e in enumerate(events) if e.type == "play"]
    events.insert(plays[3], TableEvent("collect", 0))  # swept after three cards
    report = run(retime(events))
    assert kinds(report) == ["wrong_count"]
    assert "3 of 4 cards" in report.infractions[0].text
    assert report.totals == run(example_events(EX_13_4, EventClock())).totals


def test_a_hand_ended_early_is_not_scored() -> None:
    events = example_events(EX_13_4, EventClock())[:-3]
    events.append(TableEvent("deal", 10**12, seat="W"))  # the same dealer: the hand was not finished
    report = run(events)
    assert kinds(report) == ["wrong_count", "incomplete_hand"]
    assert report.hands == [dict.fromkeys(SEATS, 0)]


def _13_6_with(discard: str, tricks: list[str]) -> Example:
    return dataclasses.replace(EX_13_6, discard=discard, tricks=tricks)


def test_an_illegal_trump_discard_is_reported_when_the_discards_are_shown() -> None:
    ex = _13_6_with("N:discard 7S 10C 10D", [*EX_13_6.tricks[:4], "N:8H E:AH S:10H W:JH -> E",
                                             "E:AC S:KC W:AD N:9D -> E"])
    report = run(example_events(ex, EventClock()), blind_cards=3)
    assert kinds(report) == ["illegal_discard"]
    assert "7S" in report.infractions[0].text


def test_discards_by_the_wrong_seat_or_of_the_wrong_number_are_reported() -> None:
    events = example_events(EX_13_6, EventClock())
    events.insert(-1, TableEvent("discard", 0, seat="E", data={"cards": ["8H"]}))
    events[-1] = dataclasses.replace(events[-1], data={"cards": ["10C", "10D"]})
    report = run(retime(events), blind_cards=3)
    assert kinds(report) == ["illegal_discard", "illegal_discard"]


def test_the_hand_waits_for_the_discards_and_scores_without_them_if_never_shown() -> None:
    events = example_events(EX_13_6, EventClock())[:-1]
    ref = referee(blind_cards=3)
    ref.feed_all(events)
    assert ref.report().hands == [] and "waiting for the bidder's discards" in ref.report().notes[0]
    ref.feed(TableEvent("deal", 10**12, seat="W"))
    report = ref.report()
    assert kinds(report) == ["missing_discards"]
    assert report.extra["hands"][0]["card_points"] == {"NS": 39, "EW": 18}


def test_a_trump_announcement_that_differs_from_the_first_lead() -> None:
    events = example_events(EX_13_4, EventClock())
    events.insert(5, TableEvent("trump", 0, seat="N", data={"suit": "H"}))
    report = run(retime(events))
    assert kinds(report) == ["trump_mismatch"]


def test_the_wrong_dealer_and_the_unseen_blind_total_are_checked() -> None:
    clock = EventClock()
    events = example_events(EXAMPLES["13.1"], clock)  # dealer N
    events.append(TableEvent("blind", clock(), data={"cards": "AD 9S 7S JS 8D 7D QC 10C".split()}))
    events += example_events(EX_13_4, clock)  # dealer W, but E is due
    report = run(events)
    assert kinds(report) == ["seen_twice", "point_total", "wrong_dealer"]


def test_all_pass_redeals_and_a_misdeal_voids_the_hand() -> None:
    events = [TableEvent("deal", 1, seat="N"), *[TableEvent("pass", t, seat=s) for t, s in
                                                  ((2, "E"), (3, "S"), (4, "W"), (5, "N"))],
              TableEvent("bid", 6, seat="E", data={"bid": 2}),
              TableEvent("deal", 7, seat="N"), TableEvent("misdeal", 8, seat="N"),
              TableEvent("deal", 9, seat="N")]
    report = run(events)
    assert kinds(report) == ["not_dealt"]
    assert report.hands == [dict.fromkeys(SEATS, 0)] * 2
    assert [r.kind for r in report.rulings].count("all_passed") == 1


def test_undo_takes_back_a_misread_card() -> None:
    events = example_events(EX_13_4, EventClock())
    plays = [i for i, e in enumerate(events) if e.type == "play"]
    events.insert(plays[1], play("E", "AH"))  # misread of E's KS
    events.insert(plays[1] + 1, TableEvent("undo", 0))
    report = run(retime(events))
    assert kinds(report) == []
    assert report.totals == run(example_events(EX_13_4, EventClock())).totals


def test_events_after_the_game_is_won_are_ignored() -> None:
    clock = EventClock()
    events: list[TableEvent] = []
    for _ in range(4):
        events += example_events(EXAMPLES["13.2"], clock)  # +4 a hand; dealers wrong: flagged
    events.append(TableEvent("deal", clock(), seat="E"))
    report = run(events)
    assert report.finished and report.winners == ["N", "S"]
    assert report.totals["N"] == 16
    assert kinds(report)[-1] == "after_game_over"


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        (TableEvent("play", 5, seat="N"), "'card'"),
        (TableEvent("play", 5, seat="N", data={"card": "2H"}), "32-card"),
        (TableEvent("play", 5, seat="N", data={"card": "ZZ"}), "invalid card"),
        (TableEvent("play", 5, data={"card": "AS"}), "seat"),
        (TableEvent("play", 5, seat="Q", data={"card": "AS"}), "not in the header"),
        (TableEvent("bid", 5, seat="E", data={"bid": "three"}), "whole number"),
        (TableEvent("discard", 5, seat="N", data={"cards": "10C 10D"}), "list of cards"),
        (TableEvent("trump", 5, data={"suit": "X"}), "invalid suit"),
        (TableEvent("shuffle", 5, seat="N"), "unknown event type"),
    ],
)
def test_malformed_events_raise_invalid_action_and_change_nothing(event: TableEvent, problem: str) -> None:
    ref = referee()
    ref.feed(TableEvent("deal", 1, seat="N"))
    before = ref.report()
    with pytest.raises(InvalidActionError, match=problem):
        ref.feed(event)
    assert ref.report() == before


def test_an_event_before_the_first_deal_is_an_error() -> None:
    with pytest.raises(InvalidActionError, match="'deal' event"):
        referee().feed(TableEvent("bid", 1, seat="E", data={"bid": 2}))


def test_the_example_log_replays_to_the_documented_result() -> None:
    header, events = read_table_log(EXAMPLE_LOG)
    report = replay_events(header, events)
    assert report.finished and report.winners == ["Ana", "Cal"]
    assert report.totals == {"Ana": 16, "Ben": -1, "Cal": 16, "Dee": -1}
    assert len(report.hands) == 6
    assert kinds(report) == ["out_of_turn"]


def test_kiosk_replay_prints_json_and_a_bad_log_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(EXAMPLE_LOG), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"]["Ana"] == 16 and out["extra"]["teams"]["Ana & Cal"] == 16
    bad = tmp_path / "bad.jsonl"
    lines = EXAMPLE_LOG.read_text().splitlines()
    lines[10] = lines[10].replace('"card": "9H"', '"card": "6H"')
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 11" in err and "6H" in err


@pytest.mark.parametrize("options", [
    {}, {"blind_cards": 3},
    {"blind_cards": 1, "low_credit": "trick_winner", "all_pass": "redeal_next_dealer"},
    {"blind_cards": 2, "follow_rule": "strict", "jack_in_discard": "bidder_team", "nonbidder_score_cap": 14,
     "trump_discard_rule": "only_if_over_six", "dealer_may_match": True},
    {"high_low_basis": "ace_and_seven_only", "win_requires_made_bid": True, "both_reach_rule": "bidder_wins",
     "all_pass": "dealer_must_bid", "target_score": 9},
])
def test_the_referee_agrees_with_the_engine_on_whole_bot_games(options: dict[str, Any]) -> None:
    game = SmearGame({**options, "first_dealer": "S"}, seats=SEATS)
    bots: list[SmearBot] = [HeuristicSmearBot(1), RandomSmearBot(2), HeuristicSmearBot(3), RandomSmearBot(4)]
    state = play_bot_game(game, bots, seed=8)
    assert state.is_terminal()
    report = run(history_to_events(state.history(), SEATS, game.options), **options)
    assert kinds(report) == []
    assert report.totals == dict(zip(SEATS, state.returns(), strict=True))
    assert len(report.hands) == state.deal_count
    assert state.winner is not None
    assert report.finished and report.winners == [SEATS[state.winner], SEATS[state.winner + 2]]
