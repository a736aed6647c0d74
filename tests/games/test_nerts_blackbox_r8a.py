"""Black-box Nerts tests, review round 8 (races and arbitration): foundation races (§6.1) under the
variant options, jokers, take-backs and the time seams, refereed through ``kiosk replay --json``.
Each case is a log an independent tester could write from ``rules/nerts.md`` and
``docs/table-log.md``, with its outcome worked out from those texts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import ROOT, replay, write_log
from tests.games.test_nerts_blackbox8 import _deck
from tests.games.test_nerts_blackbox8 import _log as _full_log
from tests.games.test_nerts_blackbox9 import _ev, _log
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


def test_a_partnerships_two_jokers_tying_name_the_seat_once(tmp_path: Path) -> None:
    """§10: partners form one seat with one deck, so with ``jokers = 2`` T1's two partners may each play
    one of its jokers; both declared 5♥ landing 10 ms apart on a pile at level 4 are an obvious tie
    (§6.1, both stand and score for T1), and T2's 5♥ 20 ms after the first joins the tie. A ruling's
    ``seats`` are the seats it concerns (docs/table-log.md), each seat once: T1 is one seat however
    many of its cards tied."""
    events = [
        _ev(0, "hand_start"),
        _play(1, "T2", "AH", "F1"),
        _play(2, "T2", "2H", "F1"),
        _play(3, "T3", "3H", "F1"),
        _play(4, "T3", "4H", "F1"),
        _play(5.00, "T1", "JOKER", "F1", actor="Ana", t_lift=4.5, **{"as": "5H"}),
        _play(5.01, "T1", "JOKER", "F1", actor="Ben", t_lift=4.6, **{"as": "5H"}),
        _play(5.02, "T2", "5H", "F1", t_lift=4.7),
        _play(6, "T3", "6H", "F1"),
        _ev(9, "call", "T2", nerts_left=0),
    ]
    report = replay(tmp_path, _log(events, ("T1", "T2", "T3"), jokers=2))
    assert _races(report) == [("5.01", "tie", ["T1"]), ("5.02", "tie", ["T1", "T2"])]
    assert report["extra"]["hands"][0]["foundation"] == {"T1": 2, "T2": 3, "T3": 3}
    assert _breaches(report) == []


def _on_pile(t: float, seat: str, card: str, pile: int | str, **more: Any) -> dict[str, Any]:
    """A foundation play onto ``pile`` as the camera names it: a number or text."""
    return _ev(t, "foundation_play", seat, card=card, pile=pile, **more)


def _clubs_to_eight(pile: int, start: float) -> list[dict[str, Any]]:
    """A♣ to 8♣ on ``pile``, Ana's and Dee's cards in turn, half a second apart."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8"]
    seats = ["Ana", "Dee"] if pile == 1 else ["Dee", "Ana"]
    return [_on_pile(start + i / 2, seats[i % 2], r + "C", pile) for i, r in enumerate(ranks)]


@pytest.mark.parametrize("pile_id", [1, "1"], ids=["number", "text"])
@pytest.mark.parametrize("back", [True, False], ids=["returned", "redirected"])
def test_example_4_with_numbered_piles_the_loser_returns_from_pile_1(
    tmp_path: Path, pile_id: int | str, back: bool
) -> None:
    """§14 Example 4 on a table whose camera numbers its piles 1 and 2 (docs/table-log.md: ``pile`` is
    any id the camera gives the pile). Cal's 9♣ loses the race for pile 1 to Ben's by 350 ms and must
    go back to his waste (§6.1). A ``move`` from pile 1 to the waste is that return (docs: a move whose
    ``from`` names a foundation pile, for the card that pile just refused, back to its own source), so
    Cal may then play it on the other ♣ pile at level 8 and it scores. Played there straight from pile
    1 it was redirected without going back (§6.1 ruling): ``redirected``, and it does not score. The
    id ``1`` names pile 1 here, not work pile 1 (the log's sources are nerts, waste, work1..)."""
    events = [
        _ev(0, "hand_start"),
        *_clubs_to_eight(1, 1),
        *_clubs_to_eight(2, 6),
        _on_pile(20.1, "Ben", "9C", 1, **{"from": "waste"}),
        _on_pile(20.45, "Cal", "9C", pile_id, **{"from": "waste"}),
    ]
    if back:
        events.append(_ev(20.8, "move", "Cal", card="9C", to="waste", **{"from": pile_id}))
    events += [_on_pile(21, "Cal", "9C", 2, **{"from": "waste" if back else pile_id}), _ev(30, "call", "Ana")]
    report = replay(tmp_path, _log(events, ("Ana", "Ben", "Cal", "Dee")))
    assert _races(report) == [("20.45", "race", ["Ben", "Cal"])]
    found = report["extra"]["hands"][0]["foundation"]
    if back:
        assert _breaches(report) == []
        assert found == {"Ana": 8, "Ben": 1, "Cal": 1, "Dee": 8}
    else:
        assert _breaches(report) == [("21", "redirected")]
        assert found == {"Ana": 8, "Ben": 1, "Cal": 0, "Dee": 8}


def test_a_one_seat_log_is_refused_naming_the_rule_not_the_seat_pickers_limit(tmp_path: Path) -> None:
    """§2: "two or more seats. The rules set no upper limit" (docs/table-log.md: the header names two
    or more seats, with no upper limit). A one-seat header is malformed (exit status 2, naming line 1),
    and the error says what the rules ask, not the seat picker's "2 to 12" that a log may exceed."""
    log = write_log(tmp_path / "one.jsonl", _log([_ev(0, "hand_start")], ("Ana",)))
    run = subprocess.run(
        [sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2
    assert "line 1" in run.stderr and "two or more seats, got 1" in run.stderr
    assert "12" not in run.stderr.replace(str(log), "")
