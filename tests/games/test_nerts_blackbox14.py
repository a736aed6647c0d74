"""Black-box Nerts tests, round 14: camera-level logs with the optional fields present, absent and
contradicting each other, races (§6.1) in odd states, and the same card played twice by one seat,
checked against ``rules/nerts.md`` and ``docs/table-log.md`` through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox9 import _ev
from tests.games.test_nerts_blackbox10 import _log
from tests.games.test_nerts_blackbox12 import _play


@pytest.mark.parametrize(("gap", "ana", "kinds"), [
    (0.01, 2, [("tie", "tie (10 ms): both stand")]),
    (0.1, 1, [("race", "Ben first by 100 ms: Ana, take back 2♠")]),
])
def test_a_card_seen_twice_sets_the_level_a_twin_races(
        tmp_path: Path, gap: float, ana: int, kinds: list[tuple[str, str]]) -> None:
    """docs/table-log.md (``seen_twice``: "the card lies on the pile all the same: it raises the pile")
    and §6.1: the cards that raised a pile to its level are its group, and a later card of the same
    face ties with the group's earliest card within the window. Ben's 2♠ is logged twice; the second
    lies on F2 and raises it to 2♠, so Ana's 2♠ landing 10 ms later ties and scores, and one landing
    100 ms later lost the race (not a card of the wrong rank)."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "AS", "F1"), _play(2, "Ben", "2S", "F1"),
              _play(2.5, "Cal", "AS", "F2"), _play(3, "Ben", "2S", "F2"), _play(3 + gap, "Ana", "2S", "F2"),
              _play(4, "Cal", "3S", "F2"), _ev(9, "call", "Ana", nerts_left=0), _ev(10, "hand_end")]
    report = replay(tmp_path, _log(events))
    assert [(x["kind"], x["text"]) for x in report["rulings"] if x["kind"] in ("tie", "race")] == kinds
    assert [x["kind"] for x in report["infractions"]] == ["seen_twice"]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": ana, "Ben": 1, "Cal": 2}


@pytest.mark.parametrize("declared", [{"as": "3S"}, {}])
def test_a_joker_more_than_the_deck_holds_still_lies_on_its_pile(
        tmp_path: Path, declared: dict[str, str]) -> None:
    """docs/table-log.md (``seen_twice``: "the card lies on the pile all the same: it raises the pile,
    counted for no seat ... so the cards played on it stand") and §9 (a joker on a pile at level L can
    only be rank L + 1 of its suit, §12). With ``jokers = 2`` Ana's deck has two jokers; a third one
    logged for her is a misread or another deck's, but it lies on F1 as 3♠, declared or inferred, so
    Ben's 4♠ on it stands and scores."""
    events = [_ev(0, "hand_start"), _play(1, "Ana", "JOKER", "F1", **{"as": "AS"}),
              _play(2, "Ana", "JOKER", "F1", **{"as": "2S"}), _play(3, "Ana", "JOKER", "F1", **declared),
              _play(4, "Ben", "4S", "F1"), _ev(9, "call", "Ana", nerts_left=0), _ev(10, "hand_end")]
    report = replay(tmp_path, _log(events, jokers=2))
    assert [(x["kind"], x["seat"]) for x in report["infractions"]] == [("seen_twice", "Ana")]
    assert report["extra"]["hands"][0]["foundation"] == {"Ana": 2, "Ben": 1, "Cal": 0}
