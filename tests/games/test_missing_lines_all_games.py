"""The camera misses an event: one line of a complete, legal table log is left out. The referee must
not crash or loop; it may stop with a malformed-log error only where docs/table-log.md makes the
shortened log malformed (a deal, hand or round that never started, trumps never named, a round
started before the last one was revealed); otherwise it referees the rest of the game, scores every
later hand (only the hand missing the line may go unscored) and keeps each total the sum of its rows.
Each test leaves out lines of an example log in turn and replays what is left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.tablelog import LogFormatError
from tests.games.replay_logs import replay_in_process
from tests.games.test_duplicate_lines_all_games import _lines

# Lines whose loss docs/table-log.md makes a malformed log (exit status 2): Kierki "a deal number
# that is neither this deal's nor the next one's", "a play ... before the trumps are named"; Smear
# "an event before the first deal"; 3-13 "an event before the first hand_start, a hand_start numbered
# other than the next hand"; Gnoming "an event before the first round_start, a round_start before
# every seat's grid of the round in play is revealed", "round ... must be the next round".
MALFORMED_WITHOUT = {
    "kierki_example.jsonl": {"deal", "trump"},
    "smear_example.jsonl": {"deal"},
    "rummy_3_13_example.jsonl": {"hand_start"},
    "gnoming_example.jsonl": {"round_start", "reveal"},
    "nerts_example.jsonl": set(),
}


def _without(path: Path, lines: list[dict[str, Any]], at: int) -> Any:
    rest = [*lines[:at], *lines[at + 1:]]
    return replay_in_process(path, rest[0], rest[1:])


@pytest.mark.parametrize(("name", "step"), [
    ("kierki_example.jsonl", 9), ("smear_example.jsonl", 2), ("rummy_3_13_example.jsonl", 1),
    ("gnoming_example.jsonl", 3), ("nerts_example.jsonl", 2)])
def test_a_missing_line_is_refereed_and_later_hands_are_still_scored(
        tmp_path: Path, name: str, step: int) -> None:
    lines = _lines(name)
    base = replay_in_process(tmp_path / "base.jsonl", lines[0], lines[1:])
    for at in range(1, len(lines), step):
        kind = lines[at].get("type")
        try:
            report = _without(tmp_path / "log.jsonl", lines, at)
        except LogFormatError as exc:
            assert kind in MALFORMED_WITHOUT[name], f"line {at + 1} ({kind}) left out: {exc}"
            continue
        assert report.totals == {s: sum(h.get(s, 0) for h in report.hands) for s in report.seats}, at
        assert len(report.hands) >= len(base.hands) - 1, f"line {at + 1} ({kind}) left out"


def test_kierki_a_trick_short_of_a_card_is_a_wrong_count_and_the_match_still_ends(tmp_path: Path) -> None:
    """Kierki: a trick collected with fewer than four cards is `wrong_count`; the deal and the match
    are still scored to the end."""
    lines = _lines("kierki_example.jsonl")
    at = next(i for i, x in enumerate(lines) if x.get("type") == "collect") - 1
    report = _without(tmp_path / "log.jsonl", lines, at)
    assert "wrong_count" in [i.kind for i in report.infractions]
    assert report.finished and len(report.hands) == 12


def test_rummy_a_discard_not_seen_turned_up_is_no_discard_naming_that_seat(tmp_path: Path) -> None:
    """3-13: `no_discard` names the seat whose discard was not seen turned up; the hand is scored."""
    lines = _lines("rummy_3_13_example.jsonl")
    at = next(i for i, x in enumerate(lines) if x.get("type") == "discard" and x.get("seat") == "Ben")
    report = _without(tmp_path / "log.jsonl", lines, at)
    assert [i.seat for i in report.infractions if i.kind == "no_discard"] == ["Ben"]
    assert report.finished and len(report.hands) == 2


def test_nerts_a_missing_count_is_scored_from_tracking(tmp_path: Path) -> None:
    """Nerts (`count`): without the audit line the seat's hand is scored from what was tracked; every
    hand is still scored."""
    lines = _lines("nerts_example.jsonl")
    at = next(i for i, x in enumerate(lines) if x.get("type") == "count")
    report = _without(tmp_path / "log.jsonl", lines, at)
    assert len(report.hands) == 2


def test_smear_a_missing_lead_refuses_the_cards_after_it_and_later_hands_are_scored(tmp_path: Path) -> None:
    """Smear (`out_of_turn`): with the first lead unseen, the next seat's card is refused as out of
    turn; the short hand is not scored (`incomplete_hand`) and every later hand is."""
    lines = _lines("smear_example.jsonl")
    at = next(i for i, x in enumerate(lines) if x.get("type") == "play")
    report = _without(tmp_path / "log.jsonl", lines, at)
    first = next(i for i in report.infractions if i.kind == "out_of_turn")
    assert first.seat == lines[at + 1]["seat"]
    assert "incomplete_hand" in [i.kind for i in report.infractions]
    assert len(report.hands) == 6 and report.hands[0] == dict.fromkeys(report.seats, 0)


def test_gnoming_a_missing_last_reveal_leaves_the_round_unscored(tmp_path: Path) -> None:
    """Gnoming (`reveal`): a round is scored once every seat's grid is in, so without the last round's
    last reveal the earlier rounds stand and the game is not over yet."""
    lines = _lines("gnoming_example.jsonl")
    report = _without(tmp_path / "log.jsonl", lines, len(lines) - 1)
    assert len(report.hands) == 2 and not report.finished and not report.winners
