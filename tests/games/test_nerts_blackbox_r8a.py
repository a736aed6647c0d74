"""Black-box Nerts tests, review round 8 (races and arbitration): foundation races (§6.1) under the
variant options, jokers, take-backs and the time seams, refereed through ``kiosk replay --json``.
Each case is a log an independent tester could write from ``rules/nerts.md`` and
``docs/table-log.md``, with its outcome worked out from those texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox8 import _deck
from tests.games.test_nerts_blackbox8 import _log as _full_log
from tests.games.test_nerts_blackbox9 import _ev
from tests.games.test_nerts_blackbox12 import _play


def _races(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    return [(x["t"], x["kind"], x["seats"]) for x in report["rulings"] if x["kind"] in ("tie", "race")]


def _breaches(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(x["t"], x["kind"]) for x in report["infractions"]]


# Ana's and Ben's Nerts tops are both A♥ (their next cards 2♥ and 3♥), so their Aces can race for one
# pile; every other card lies in the work piles and the stock.
_ACES = {
    "Ana": _deck(["2H", "AH"], ["KS", "QS", "JS", "10S"], ["9S", "8S", "7S"]),
    "Ben": _deck(["3H", "AH"], ["KD", "QD", "JD", "10D"], ["9D", "8D", "7D"]),
}


@pytest.mark.parametrize("policy", ["both_stay", "first_only"])
def test_an_ace_racing_for_a_pile_is_a_race_under_aces_compulsory(tmp_path: Path, policy: str) -> None:
    """§11 ``aces_compulsory``: "an available Ace must be played to the centre before any other move by
    that seat". Ben's A♥ landing on the pile Ana's A♥ started 20 ms earlier IS his Ace played to the
    centre, so the option changes nothing: §6.1 decides (a tie under ``both_stay``, both stand and
    score; under ``first_only`` Ben must take his back and it does not score), never an
    ``illegal_play`` for skipping the Ace."""
    events = [
        _play(1.00, "Ana", "AH", "F1", **{"from": "nerts"}),
        _play(1.02, "Ben", "AH", "F1", **{"from": "nerts"}),
        _play(2.0, "Ana", "2H", "F1", **{"from": "nerts"}),
        _ev(6, "hand_end"),
    ]
    report = replay(tmp_path, _full_log(_ACES, events, aces_compulsory=True, tie_policy=policy))
    hand = report["extra"]["hands"][0]
    assert _breaches(report) == []
    if policy == "both_stay":
        assert _races(report) == [("1.02", "tie", ["Ana", "Ben"])]
        assert (hand["foundation"], hand["nerts"]) == ({"Ana": 2, "Ben": 1}, {"Ana": 11, "Ben": 12})
    else:
        assert _races(report) == [("1.02", "race", ["Ana", "Ben"])]
        assert (hand["foundation"], hand["nerts"]) == ({"Ana": 2, "Ben": 0}, {"Ana": 11, "Ben": 13})
