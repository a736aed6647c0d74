"""Black-box Nerts tests, round 18: play legality and races found by a differential oracle (an independent
implementation of ``rules/nerts.md`` §6, §6.1 and §9 run against the referee on random tables and bot
games), refereed through ``kiosk replay --json``. Each case is a minimal log with its outcome worked out
from the spec and ``docs/table-log.md`` ("Lines logged twice": a repeat is the same line at the same time
or a frame later, and only where a second real event is impossible)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox8 import _deck
from tests.games.test_nerts_blackbox8 import _log as _full_log
from tests.games.test_nerts_blackbox9 import _ev, _log
from tests.games.test_nerts_blackbox12 import _move, _play

_END = [_ev(9, "call", "Ana", nerts_left=0), _ev(10, "hand_end")]


def _outcome(report: dict[str, Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]], dict[str, int]]:
    races = [(x["t"], x["kind"]) for x in report["rulings"] if x["kind"] in ("tie", "race")]
    breaches = [(x["t"], x["kind"]) for x in report["infractions"]]
    return races, breaches, report["extra"]["hands"][0]["foundation"]


def test_a_seats_second_joker_played_next_on_the_same_pile_stands(tmp_path: Path) -> None:
    """§9 and §2: with ``jokers = 2`` each deck holds two jokers, and on a pile at level L a joker can only
    be L + 1 of its suit (§12). Ben plays one joker on Ana's A♣ (2♣), then a second later his other
    joker on the same pile (3♣): the same line a second later is no camera repeat (docs/table-log.md:
    the same time or a frame later, where a second real event is impossible), so both stand and score,
    and Ana's 4♣ then fits."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "AC", "F1"), _play(2, "Ben", "JOKER", "F1"),
              _play(3, "Ben", "JOKER", "F1"), _play(4, "Ana", "4C", "F1"), *_END]
    report = replay(tmp_path, _log(events, jokers=2))
    assert _outcome(report) == ([], [], {"Ana": 2, "Ben": 2})


def test_a_joker_play_logged_again_within_a_frame_is_one_play(tmp_path: Path) -> None:
    """docs/table-log.md "Lines logged twice": the same joker play logged again 20 ms later (a frame) is
    the same event, ruled ``seen_twice``; the pile is not raised again, so Ana's 3♣ fits."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "AC", "F1"), _play(2, "Ben", "JOKER", "F1"),
              _play(2.02, "Ben", "JOKER", "F1"), _play(4, "Ana", "3C", "F1"), *_END]
    report = replay(tmp_path, _log(events, jokers=2))
    assert _outcome(report) == ([], [("2.02", "seen_twice")], {"Ana": 2, "Ben": 1})


def test_a_second_undeclared_joker_on_an_open_ace_needs_its_suit(tmp_path: Path) -> None:
    """§9/§12: an undeclared joker starting a pile is an Ace of a still open suit; Ana's other joker
    played on it a second later cannot be inferred (its suit is open) and must be declared
    (``undeclared_joker``), so it does not stand and Ben's 2♥ then fits the open Ace."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "JOKER", "F1"), _play(2, "Ana", "JOKER", "F1"),
              _play(5, "Ben", "2H", "F1"), *_END]
    report = replay(tmp_path, _log(events, jokers=2))
    assert _outcome(report) == ([], [("2", "undeclared_joker")], {"Ana": 1, "Ben": 1})


def test_a_refused_joker_logged_again_within_a_frame_is_ignored(tmp_path: Path) -> None:
    """docs/table-log.md "Lines logged twice": Ana's undeclared joker refused on her own open joker Ace
    and logged again 20 ms later is that same refused play (noted, nothing more), not a joker already on
    the pile (``seen_twice``): the joker on top is her other one."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "JOKER", "F1"), _play(2, "Ana", "JOKER", "F1"),
              _play(2.02, "Ana", "JOKER", "F1"), *_END]
    report = replay(tmp_path, _log(events, jokers=2))
    assert _outcome(report) == ([], [("2", "undeclared_joker")], {"Ana": 1, "Ben": 0})
    assert any("logged twice: ignored" in n for n in report["notes"])


@pytest.mark.parametrize(("gap", "again"), [(0.02, False), (2, True)])
def test_a_refused_card_played_again_later_on_the_same_pile_is_refereed_again(
        tmp_path: Path, gap: float, again: bool) -> None:
    """§6.1: a card that lost its race goes back to its source and "may be played again later". Ben's
    A♥ loses the race for F1 to Ana's; played on F1 again 2 s later (the next line of the log) it is a
    second play, which loses again (a second race ruling). Logged again 20 ms later it is the same
    landing seen twice (docs/table-log.md), noted and not ruled again."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "AH", "F1"), _play(1.5, "Ben", "AH", "F1"),
              _play(1.5 + gap, "Ben", "AH", "F1"), *_END]
    report = replay(tmp_path, _log(events))
    races = [("1.5", "race")] + ([("3.5", "race")] if again else [])
    assert _outcome(report) == (races, [], {"Ana": 1, "Ben": 0})


@pytest.mark.parametrize(("gap", "again"), [(0.02, False), (2, True)])
def test_an_illegal_card_played_again_later_on_the_same_pile_is_refused_again(
        tmp_path: Path, gap: float, again: bool) -> None:
    """§6 M4: Ben's 3♥ on a ♥ pile at level 1 is the wrong rank. Played there again 2 s later it is
    refused again (a second ``illegal_play``); the same line 20 ms later is one landing logged twice."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "AH", "F1"), _play(2, "Ben", "3H", "F1"),
              _play(2 + gap, "Ben", "3H", "F1"), *_END]
    report = replay(tmp_path, _log(events))
    breaches = [("2", "illegal_play")] + ([("4", "illegal_play")] if again else [])
    assert _outcome(report) == ([], breaches, {"Ana": 1, "Ben": 0})


@pytest.mark.parametrize(("card", "source", "ben"),
                         [("2S", "work1", 0), ("2H", "work2", 1), ("AC", "work3", 0)])
def test_an_undeclared_joker_ace_keeps_the_colour_its_work_pile_gave_it(
        tmp_path: Path, card: str, source: str, ben: int) -> None:
    """§9: Ana's joker placed onto her 2♠ is a red Ace; played undeclared from that work pile it starts a
    pile whose suit stays open (§12), but the identity must stay consistent with its constraints, so the
    pile is ♥ or ♦: Ben's 2♠ (or a black Ace racing it) is refused, his 2♥ fits and shows the suit."""
    deals = {"Ana": [*_deck(["JOKER"], ["2S", "9H", "8C", "7D"], ["3C"]), "JOKER"],
             "Ben": [*_deck(["KH"], ["2S", "2H", "AC", "3H"], ["4S"]), "JOKER", "JOKER"]}
    events = [_move(1, "Ana", "JOKER", "nerts", "work1"), _play(2, "Ana", "JOKER", "F1", **{"from": "work1"}),
              _play(3, "Ben", card, "F1", **{"from": source}), *_END]
    report = replay(tmp_path, _full_log(deals, events, jokers=2))
    assert [(x["t"], x["kind"]) for x in report["infractions"]] == ([] if ben else [("3", "illegal_play")])
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 1, "Ben": ben}
