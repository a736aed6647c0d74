"""Kierki and Smear lines other than plays logged twice in a row (docs/table-log.md, "Lines logged
twice"): a deal, misdeal, call, trump, sweep or cards turned up seen again within a camera frame
(50 ms) is the same event. It leaves a note and the whole ``kiosk replay --json`` report is otherwise
that of the log without it; later, the line is refereed as a second event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_duplicate_lines_all_games import _at, _check_ignored, _lines, _repeat
from tests.games.test_smear_blackbox3 import HAND_13_6_TRUMP_DISCARDED

FRAMES = ["0", "0.017", "0.05"]


@pytest.mark.parametrize("dt", FRAMES)
@pytest.mark.parametrize("fields", [
    {"type": "deal", "seat": "N", "deal": 1},  # before any card: not a redeal
    {"type": "trump", "seat": "W", "suit": "H"},  # deal 8's trumps named once
    {"type": "pass", "seat": "E"},  # a Fan Tan pass: not a pass out of turn
    {"type": "reveal", "seat": "E"},  # the cards shown once after Fan Tan
])
def test_kierki_event_logged_twice_within_a_frame_changes_nothing(
        tmp_path: Path, dt: str, fields: dict[str, Any]) -> None:
    lines = _lines("kierki_example.jsonl")
    _check_ignored(tmp_path, lines, _at(lines, **fields), dt)


@pytest.mark.parametrize("dt", FRAMES)
def test_kierki_collect_logged_twice_is_ignored_as_its_row_says(tmp_path: Path, dt: str) -> None:
    # docs/table-log.md collect: with no trick in play a collect changes nothing (an `ignored` ruling);
    # the trick swept once, the scores are those of the log without the repeat.
    lines = _lines("kierki_example.jsonl")
    base = replay(tmp_path, lines)
    rep = replay(tmp_path, _repeat(lines, _at(lines, type="collect"), dt))
    for key in ("totals", "hands", "infractions"):
        assert rep[key] == base[key]
    added = [r for r in rep["rulings"] if r not in base["rulings"]]
    assert [r["kind"] for r in added] == ["ignored"]


def _kierki_misdeal() -> tuple[list[dict[str, Any]], int]:
    """The example match with deal 1 misdealt and dealt again by N before its first card."""
    lines = _lines("kierki_example.jsonl")
    at = _at(lines, type="deal", deal=1)
    misdeal = {"t": lines[at]["t"] + 0.5, "type": "misdeal", "seat": "N"}
    return [*lines[: at + 1], misdeal, *lines[at + 1:]], at + 1


@pytest.mark.parametrize("dt", FRAMES)
def test_kierki_misdeal_logged_twice_within_a_frame_is_one_redeal(tmp_path: Path, dt: str) -> None:
    lines, at = _kierki_misdeal()
    _check_ignored(tmp_path, lines, at, dt)


def test_kierki_deal_repeated_a_second_later_is_still_a_redeal(tmp_path: Path) -> None:
    lines = _lines("kierki_example.jsonl")
    rep = replay(tmp_path, _repeat(lines, _at(lines, type="deal", deal=1), "1"))
    assert any(r["kind"] == "deal" and "deals again" in r["text"] for r in rep["rulings"])


@pytest.mark.parametrize("dt", FRAMES)
@pytest.mark.parametrize("fields", [
    {"type": "deal", "seat": "Ana"},  # the first deal: not a hand ended during its auction
    {"type": "pass", "seat": "Ben"},  # not a pass out of turn
    {"type": "bid", "seat": "Cal", "bid": 3},  # not a bid out of turn
    {"type": "trump", "seat": "Cal", "suit": "H"},
    {"type": "collect"},
    {"type": "blind"},
    {"type": "bid", "seat": "Ana", "bid": 4},  # the last call: not a call after the auction
])
def test_smear_event_logged_twice_within_a_frame_changes_nothing(
        tmp_path: Path, dt: str, fields: dict[str, Any]) -> None:
    lines = _lines("smear_example.jsonl")
    _check_ignored(tmp_path, lines, _at(lines, **fields), dt)


def test_smear_all_pass_deal_logged_twice_is_one_hand(tmp_path: Path) -> None:
    """The deal after an all-pass (the same dealer again), seen twice: not a second hand."""
    lines = _lines("smear_example.jsonl")
    passes = [i for i, x in enumerate(lines) if x.get("type") == "pass" and x.get("seat") == "Ana"]
    again = next(i for i in range(passes[-1], len(lines)) if lines[i].get("type") == "deal")
    _check_ignored(tmp_path, lines, again, "0.017")


def _smear_misdeal() -> tuple[list[dict[str, Any]], int]:
    """The example game with its first hand misdealt and dealt again by Ana before any call."""
    lines = _lines("smear_example.jsonl")
    at = _at(lines, type="deal", seat="Ana")
    t = lines[at]["t"]
    fix = [{"t": t + 0.5, "type": "misdeal", "seat": "Ana"}, {"t": t + 1, "type": "deal", "seat": "Ana"}]
    return [*lines[: at + 1], *fix, *lines[at + 1:]], at + 1


@pytest.mark.parametrize("dt", FRAMES)
def test_smear_misdeal_logged_twice_within_a_frame_is_one_misdeal(tmp_path: Path, dt: str) -> None:
    lines, at = _smear_misdeal()
    _check_ignored(tmp_path, lines, at, dt)


def test_smear_pass_repeated_a_second_later_is_out_of_turn(tmp_path: Path) -> None:
    lines = _lines("smear_example.jsonl")
    rep = replay(tmp_path, _repeat(lines, _at(lines, type="pass", seat="Ben"), "1"))
    again = [i["kind"] for i in rep["infractions"] if i["seat"] == "Ben" and i["t"] == "28.5"]
    assert again == ["out_of_turn"]


@pytest.mark.parametrize("game, fields", [
    ("kierki", {"type": "trump", "seat": "W", "suit": "H"}),
    ("smear", {"type": "bid", "seat": "Cal", "bid": 3}),
])
def test_undo_after_an_event_logged_twice_takes_back_both_lines(
        tmp_path: Path, game: str, fields: dict[str, Any]) -> None:
    """docs/table-log.md: an undo after a repeat takes back the event with its repeat, as in the log
    without the repeat (the event logged again afterwards is refereed as if logged once)."""
    lines = _lines(f"{game}_example.jsonl")
    at = _at(lines, **fields)
    t = lines[at]["t"]
    undo = [{"t": t + 0.1, "type": "undo"}, dict(lines[at], t=t + 0.2)]
    once = replay(tmp_path, [*lines[: at + 1], *undo, *lines[at + 1:]])
    twice = replay(tmp_path, [*_repeat(lines, at, "0.017")[: at + 2], *undo, *lines[at + 1:]])
    assert {k: v for k, v in twice.items() if k not in ("notes", "infractions")} == \
        {k: v for k, v in once.items() if k not in ("notes", "infractions")}
    def kinds(report: dict[str, Any]) -> list[dict[str, Any]]:
        return [dict(i, line=None) for i in report["infractions"]]
    assert kinds(twice) == kinds(once)


@pytest.mark.parametrize("dt", FRAMES)
@pytest.mark.parametrize("discard_first", [False, True])
def test_smear_discards_logged_twice_within_a_frame_are_shown_once(
        tmp_path: Path, dt: str, discard_first: bool) -> None:
    """smear.md §6.4, docs/table-log.md illegal_discard ("twice"): the bidder's discards seen again
    within a frame are one showing, before or after the play: no second illegal_discard, no card
    seen twice."""
    events = list(HAND_13_6_TRUMP_DISCARDED)
    if discard_first:
        events.insert(5, events.pop())
    header = {"table_log": 1, "game": "smear", "seats": ["N", "E", "S", "W"],
              "options": {"blind_cards": 3}}
    lines = [header, *({"t": i + 1, **e} for i, e in enumerate(events))]
    _check_ignored(tmp_path, lines, _at(lines, type="discard"), dt)


@pytest.mark.parametrize("dt", FRAMES)
def test_kierki_misdeal_after_play_began_logged_twice_is_one_wrong_count(tmp_path: Path, dt: str) -> None:
    """docs/table-log.md wrong_count (a misdeal after play began): seen again within a frame, it is
    one misdeal, flagged once, and deal 1 is dealt again once."""
    lines = _lines("kierki_example.jsonl")
    at = _at(lines, type="collect")
    misdeal = {"t": lines[at]["t"] + 0.5, "type": "misdeal", "seat": "N"}
    lines = [*lines[: at + 1], misdeal, *lines[at + 1:]]
    rep = _check_ignored(tmp_path, lines, at + 1, dt)
    assert [i["kind"] for i in rep["infractions"] if i["line"] == at + 2] == ["wrong_count"]
