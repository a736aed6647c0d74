"""3-13 Speed: a ninth outsider's table logs, built as a state x event matrix from
``rules/rummy_3_13.md`` and ``docs/table-log.md`` alone and replayed through ``kiosk replay --json``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.games.errors import InvalidActionError
from kiosk.games.referee import TableEvent
from kiosk.games.rummy import RummyOptions
from kiosk.games.rummy_referee import RummyReferee
from tests.games.replay_logs import ROOT, replay, write_log
from tests.games.test_rummy_blackbox5 import _kinds

SEATS = ["Ana", "Ben", "Cal"]
PILES = {"Ana": "2S", "Ben": "9D", "Cal": "KC"}


def _lines(events: list[dict[str, Any]], options: dict[str, Any]) -> list[dict[str, Any]]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": SEATS, "options": options}
    return [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)]


def _replay(tmp_path: Path, events: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    return replay(tmp_path, _lines(events, options))


def _round(seats: list[str], discards: dict[str, str]) -> list[dict[str, Any]]:
    """One normal round with pool draws: "draw", draws, holds, "discard", the discards."""
    ev: list[dict[str, Any]] = [{"type": "call", "call": "draw"}]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in seats]
    ev += [{"type": "hold", "seat": s} for s in seats]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": discards[s]} for s in seats]
    return ev


def test_a_draw_naming_a_null_card_from_an_empty_pile_is_empty_pile(tmp_path: Path) -> None:
    """docs/table-log.md: ``empty_pile`` is a draw naming no card from an empty pile, and a null
    pile card in ``hand_start`` names none. Cal laid no starting card; Ana reaches for Cal's pile,
    logged with ``"card": null``: that is the ``empty_pile`` breach (the log goes on), not a
    malformed line. Ana then takes a pool card (her one draw) and the hand is played out."""
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": {"Ana": "2S", "Ben": "9D", "Cal": None}},
        {"type": "call", "call": "draw"},
        {"type": "draw", "seat": "Ana", "from": "Cal", "card": None},
        {"type": "draw", "seat": "Ana", "from": "pool"},
        {"type": "draw", "seat": "Ben", "from": "Ana", "card": None},
        {"type": "draw", "seat": "Cal", "from": "pool"},
    ]
    ev += [{"type": "hold", "seat": s} for s in SEATS]
    ev += [{"type": "call", "call": "discard"}]
    ev += [{"type": "discard", "seat": s, "card": c} for s, c in zip(SEATS, ["QH", "JS", "10S"], strict=True)]
    ev += [{"type": "match", "seat": "Ana", "cards": ["7S", "7D", "3C"]}]
    ev += _round(["Ben", "Cal"], {"Ben": "JH", "Cal": "10D"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["9H", "JH", "2S"]},
           {"type": "show", "seat": "Cal", "cards": ["AS", "AH", "6C"]}]
    report = _replay(tmp_path, ev, {"hands": [3]})
    assert _kinds(report) == [("no_pile_card", "Cal"), ("empty_pile", "Ana")]
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]
    assert report["finished"] and report["winners"] == ["Ana"]


def _replay_error(tmp_path: Path, events: list[dict[str, Any]], options: dict[str, Any]) -> str:
    """``kiosk replay --json`` on a malformed log: checks exit status 2 and returns stderr."""
    log = write_log(tmp_path / "table.jsonl", _lines(events, options))
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2, run.stdout
    return run.stderr


def _full_hand(n: int, size: int) -> list[dict[str, Any]]:
    """Hand ``n`` played out: a round, Ana matches, the final round, Ben and Cal show."""
    extra = ["KD", "QD", "JD"][: size - 3]
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": n, "piles": PILES}]
    ev += _round(SEATS, {"Ana": "QH", "Ben": "JH", "Cal": "10S"})
    ev += [{"type": "match", "seat": "Ana", "cards": ["AS", "AD", "AC", "AH", "AS"][:size]}]
    ev += _round(["Ben", "Cal"], {"Ben": "JH", "Cal": "10S"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["2H", "2D", "2C"] + extra},
           {"type": "show", "seat": "Cal", "cards": ["5S", "8D", "QC"] + extra}]
    return ev


def test_a_hand_start_numbered_true_is_malformed(tmp_path: Path) -> None:
    """docs/table-log.md: ``hand`` counts the hands (1-based); a ``hand_start`` numbered other than
    the next hand is an error. JSON ``true`` is no hand number, though Python counts it as 1."""
    ev = _full_hand(1, 3)
    ev[0] = {**ev[0], "hand": True}
    err = _replay_error(tmp_path, ev, {"hands": [3]})
    assert "line 2" in err and "hand True" in err


def test_a_hand_start_numbering_an_earlier_hand_is_refused_before_it_closes_the_hand(
        tmp_path: Path) -> None:
    """docs/table-log.md: a ``hand_start`` numbered other than the next hand, or the unfinished
    hand in play dealt again, is an error. During hand 2 (the last) a late ``hand_start`` for
    hand 1 is refused as such, naming the hand in play (not as a hand 3 the game lacks), and the
    referee's state is left as it was: hand 2 is not closed as unscored and is played out."""
    options = {"hands": [3, 4]}
    head = _full_hand(1, 3) + _full_hand(2, 4)[:6]
    err = _replay_error(tmp_path, [*head, {"type": "hand_start", "hand": 1, "piles": PILES}], options)
    assert "line 31" in err and "hand 2 is in play" in err and "hand 3" not in err
    ref = RummyReferee(SEATS, RummyOptions(hands=(3, 4)))
    events = [TableEvent(ev["type"], i, seat=ev.get("seat"),
                         data={k: v for k, v in ev.items() if k not in ("type", "seat")})
              for i, ev in enumerate(_full_hand(1, 3) + _full_hand(2, 4))]
    for ev_ in events[:len(head)]:
        ref.feed(ev_)
    with pytest.raises(InvalidActionError):
        ref.feed(TableEvent("hand_start", len(head), data={"hand": 1, "piles": PILES}))
    for ev_ in events[len(head):]:
        ref.feed(ev_)
    report = ref.report()
    assert [i.kind for i in report.infractions] == []
    assert report.hands == [{"Ana": 0, "Ben": 0, "Cal": 23}, {"Ana": 0, "Ben": 10, "Cal": 33}]
    assert report.finished and report.winners == ["Ana"]


@pytest.mark.parametrize("late_at", ["draw", "discard"])
def test_a_discard_from_the_previous_round_turned_up_late_is_not_a_second_discard(
        tmp_path: Path, late_at: str) -> None:
    """§6.1: every held card is turned up at "discard", one per round. Ben's round-1 discard is
    not seen by the round-2 "draw" call (``no_discard``, naming Ben); his J♥ is logged late,
    during round 2's draw (turned up before that round's call: ``early_discard``) or together
    with his round-2 discard after that call. Either way it is the card he owed, not round 2's:
    his round-2 discard is his one discard (no ``two_discards``), and the hand goes on to be
    scored as usual."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": PILES}]
    ev += [e for e in _round(SEATS, {"Ana": "QH", "Ben": "JH", "Cal": "10S"})
           if not (e["type"] == "discard" and e["seat"] == "Ben")]
    late = {"type": "discard", "seat": "Ben", "card": "JH"}
    round2 = _round(SEATS, {"Ana": "QD", "Ben": "5C", "Cal": "10D"})
    at = 1 if late_at == "draw" else 9        # just after the "draw" call, or the "discard" call
    ev += round2[:at] + [late] + round2[at:]
    ev += [{"type": "match", "seat": "Ana", "cards": ["7S", "7D", "3C"]}]
    ev += _round(["Ben", "Cal"], {"Ben": "4H", "Cal": "10C"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["9H", "JD", "2C"]},
           {"type": "show", "seat": "Cal", "cards": ["AS", "AH", "6C"]}]
    report = _replay(tmp_path, ev, {"hands": [3]})
    expected = [("no_discard", "Ben")] + ([("early_discard", "Ben")] if late_at == "draw" else [])
    assert _kinds(report) == expected
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]
    assert report["finished"] and report["winners"] == ["Ana"]
