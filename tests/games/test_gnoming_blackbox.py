"""Black-box checks of ``kiosk replay`` on Gnoming A Round table logs written from
``rules/gnoming.md`` and ``docs/table-log.md`` alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from kiosk.games.referee import RefereeReport
from kiosk.replay import replay_events
from kiosk.tablelog import read_table_log

FILLER = ["G8", "G8", "G-1", "G7", "G7", "G-2", "G6", "G6", "G-3"]   # no matched line: 36


def _replay(tmp_path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> RefereeReport:
    path = tmp_path / "log.jsonl"
    lines = [header] + [{"t": n + 1, **e} for n, e in enumerate(events)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return replay_events(*read_table_log(path))


def _round(seats: list[str], number: int, first: str, *, write_first: bool = True) -> list[dict[str, Any]]:
    """One round: every seat flips 11 and 12; then, from ``first`` on, each turn keeps a
    card on the next face-down position, so ``first`` goes out first; the others get
    their final turn and every grid (FILLER) is revealed."""
    start: dict[str, Any] = {"type": "round_start", "round": number, "piles": {"A": "G3", "B": "G4"}}
    if write_first:
        start["first"] = first
    events = [start]
    for s in seats:
        events += [{"type": "flip", "seat": s, "pos": "11", "card": FILLER[0]},
                   {"type": "flip", "seat": s, "pos": "12", "card": FILLER[1]}]
    i = seats.index(first)
    order = seats[i:] + seats[:i]
    hidden = ["13", "21", "22", "23", "31", "32", "33"]
    for k, pos in enumerate(hidden):                  # order[0] goes out on its 7th turn
        for seat in order:
            events.append({"type": "draw", "seat": seat, "from": "deck"})
            if k < 6 or seat == order[0]:
                events.append({"type": "keep", "seat": seat, "pos": pos, "card": FILLER[2 + k], "out": "G5"})
            events.append({"type": "discard", "seat": seat, "card": "G5", "pile": "A"})
    events += [{"type": "reveal", "seat": s, "grid": FILLER} for s in seats]
    return events


def test_round_1_first_without_youngest_seat_is_no_breach(tmp_path: Path) -> None:
    """§4.6, §9 ("players' ages ... must be entered or chosen at the kiosk"): a log whose
    round 1 ``first`` is Bob, with no ``youngest_seat`` option, is accepted; rounds 2 and 3
    rotate left from Bob (Cy, then Ana) whether or not ``first`` is written."""
    seats = ["Ana", "Bob", "Cy"]
    header = {"table_log": 1, "game": "gnoming", "seats": seats, "options": {}}
    events = _round(seats, 1, "Bob") + _round(seats, 2, "Cy") + _round(seats, 3, "Ana", write_first=False)
    report = _replay(tmp_path, header, events)
    assert report.infractions == []
    assert report.hands[0] == {"Ana": 36, "Bob": 31, "Cy": 36}     # Bob went out first, lowest: -5
    assert report.finished and report.winners == ["Ana"]          # all 103; Ana's round 3 is 31
    # Round 2 must still start with Cy: Bob again is a breach.
    wrong = _round(seats, 1, "Bob") + _round(seats, 2, "Bob")
    kinds = [i.kind for i in _replay(tmp_path, header, wrong).infractions]
    assert kinds == ["first_player"]


def test_youngest_every_round_follows_the_round_1_entry(tmp_path: Path) -> None:
    """§11 ``first_player = youngest_every_round``: the youngest (round 1's ``first``) starts
    every round."""
    seats = ["Ana", "Bob", "Cy"]
    header = {"table_log": 1, "game": "gnoming", "seats": seats,
              "options": {"first_player": "youngest_every_round"}}
    events = _round(seats, 1, "Cy") + _round(seats, 2, "Cy", write_first=False) + _round(seats, 3, "Cy")
    report = _replay(tmp_path, header, events)
    assert report.infractions == []
    assert [h["Cy"] for h in report.hands] == [31, 31, 31]


def test_youngest_seat_in_the_header_still_decides_round_1(tmp_path: Path) -> None:
    """§4.6: when the header enters the youngest (``youngest_seat``), a different round 1
    ``first`` is a ``first_player`` breach."""
    seats = ["Ana", "Bob", "Cy"]
    header = {"table_log": 1, "game": "gnoming", "seats": seats, "options": {"youngest_seat": 0}}
    kinds = [i.kind for i in _replay(tmp_path, header, _round(seats, 1, "Bob")).infractions]
    assert kinds == ["first_player"]


def _opening(seats: list[str], flips: list[tuple[str, str]]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": seats[0], "piles": {"A": "G3", "B": "G4"}}]
    return events + [{"type": "flip", "seat": s, "pos": p, "card": "G6"} for s, p in flips]


def test_a_third_opening_flip_is_an_extra_flip_whoever_flips_it(tmp_path: Path) -> None:
    """§4.5: each player turns exactly two cards up. A third card turned up before the first
    draw is an ``extra_flip``, also when the seat that flips it is the last to do its
    opening flips (not an ``illegal_flip`` "without a Hazard")."""
    seats = ["Ana", "Bob"]
    header = {"table_log": 1, "game": "gnoming", "seats": seats, "options": {}}
    first = _opening(seats, [("Ana", "11"), ("Ana", "12"), ("Ana", "13"), ("Bob", "11"), ("Bob", "12")])
    last = _opening(seats, [("Ana", "11"), ("Ana", "12"), ("Bob", "11"), ("Bob", "12"), ("Bob", "13")])
    for events in (first, last):
        assert [i.kind for i in _replay(tmp_path, header, events).infractions] == ["extra_flip"]


def test_a_round_number_written_as_text_gets_a_clear_error(tmp_path: Path) -> None:
    """docs/table-log.md, Errors: a malformed line gets one clear line. ``"round": "1"`` used to
    read "says round '1', but the next round is 1"; it now says the field must be a number."""
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({"table_log": 1, "game": "gnoming", "seats": ["Ana", "Bob"]}) + "\n"
                    + json.dumps({"t": 1, "type": "round_start", "round": "1",
                                  "piles": {"A": "G3", "B": "G4"}}) + "\n")
    result = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(path)], capture_output=True,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "line 2" in result.stderr and "'round' must be the round number" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
