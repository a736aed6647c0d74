"""The table-log contract of ``docs/table-log.md``, checked through ``kiosk replay --json``: the
documented example blocks replay, the events of every game (``undo``, ``score_correction``)
do what the docs say, and the report has the documented shape and ruling kinds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import ROOT, replay_main, write_log

DOC = (ROOT / "docs" / "table-log.md").read_text(encoding="utf-8")

SECTIONS = {
    "nerts": "## Nerts events",
    "kierki": "## Kierki events",
    "smear": "## Smear events",
    "rummy_3_13": "## 3-13 Speed Rummy events",
    "gnoming": "## Gnoming A Round events",
}

SEATS = {
    "nerts": ["Ana", "Ben"],
    "kierki": ["N", "E", "S", "W"],
    "smear": ["N", "E", "S", "W"],
    "rummy_3_13": ["Ana", "Ben", "Cal", "Dee"],
    "gnoming": ["Ana", "Ben", "Cal"],
}

END_RULING = {"nerts": "game_end", "kierki": "match_end", "smear": "game_over",
              "rummy_3_13": "game_end", "gnoming": "game_end"}


def section(game: str) -> str:
    return DOC.split(SECTIONS[game], 1)[1].split("\n## ", 1)[0]


def header(game: str, **options: Any) -> dict[str, Any]:
    return {"table_log": 1, "game": game, "seats": SEATS[game], "options": options}


def doc_blocks() -> list[tuple[str, list[str]]]:
    """Every ```json block of the docs with the header it replays after: its own first line, or
    the header the text just before it names, or (for the generic events) a Nerts header."""
    out = []
    for m in re.finditer(r"```json\n(.*?)```", DOC, re.S):
        lines = m.group(1).strip().splitlines()
        if "table_log" not in lines[0]:
            named = re.findall(r"`(\{\"table_log\"[^`]*)`", DOC[max(0, m.start() - 400):m.start()])
            lines = [named[-1] if named else json.dumps(header("nerts")), *lines]
        title = re.findall(r"^## (.*)$", DOC[:m.start()], re.M)
        out.append((title[-1] if title else "top", lines))
    return out


@pytest.mark.parametrize("where, lines", doc_blocks(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_documented_example_block_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, lines: list[str]
) -> None:
    report = replay_main(tmp_path, [json.loads(line) for line in lines], capsys)
    assert report["game"] == json.loads(lines[0])["game"]


def test_each_game_has_a_runnable_example_block() -> None:
    games = {json.loads(lines[0])["game"] for _, lines in doc_blocks()}
    assert games == set(SECTIONS)


def _play(game: str, events: list[dict[str, Any]], tmp_path: Path,
          capsys: pytest.CaptureFixture[str], **options: Any) -> dict[str, Any]:
    return replay_main(tmp_path, [header(game, **options), *events], capsys)


NERTS_HAND: list[dict[str, Any]] = [
    {"t": 0, "type": "hand_start"},
    {"t": 1, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1"},
    {"t": 2, "type": "call", "seat": "Ben", "nerts_left": 0},
    {"t": 3, "type": "hand_end"},
]


def test_undo_takes_back_a_score_correction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``undo`` takes back the last effective event: right after a ``score_correction`` that is
    the correction, not the game event before it."""
    plain = _play("nerts", NERTS_HAND, tmp_path, capsys)
    fixed = _play("nerts", [*NERTS_HAND, {"t": 4, "type": "score_correction", "seat": "Ana", "hand": 1,
                                          "score": 9},
                            {"t": 5, "type": "undo"}], tmp_path, capsys)
    assert fixed["hands"] == plain["hands"] and fixed["totals"] == plain["totals"]
    assert [r["kind"] for r in fixed["rulings"]] == [r["kind"] for r in plain["rulings"]]


@pytest.mark.parametrize("game", ["smear", "gnoming"])
def test_undo_of_a_correction_in_other_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    start = ({"t": 0, "type": "deal", "seat": "N"} if game == "smear"
             else {"t": 0, "type": "round_start", "piles": {"A": "G3", "B": "G8"}})
    seat = SEATS[game][1]
    plain = _play(game, [start], tmp_path, capsys)
    undone = _play(game, [start, {"t": 1, "type": "score_correction", "seat": seat, "hand": 1, "score": 7},
                          {"t": 2, "type": "undo"}], tmp_path, capsys)
    assert undone["totals"] == plain["totals"] and undone["rulings"] == plain["rulings"]


def test_correction_ruling_is_in_log_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rulings`` are "in order": a correction logged between two hands sits between their rulings."""
    second = [{**e, "t": e["t"] + 10} for e in NERTS_HAND]
    report = _play("nerts", [*NERTS_HAND, {"t": 5, "type": "score_correction", "seat": "Ana", "hand": 1,
                                           "score": 9}, *second], tmp_path, capsys)
    times = [float(r["t"]) for r in report["rulings"]]
    assert times == sorted(times)
    kinds = [r["kind"] for r in report["rulings"]]
    assert kinds.index("correction") == 3 and kinds.count("hand_end") == 2
    assert report["hands"][0]["Ana"] == 9


REPORT_TYPES = {"game": str, "seats": list, "rulings": list, "infractions": list, "hands": list,
                "totals": dict, "finished": bool, "winners": list, "notes": list}


def _check_shape(report: dict[str, Any]) -> None:
    for field, kind in REPORT_TYPES.items():
        assert isinstance(report[field], kind), field
    for r in report["rulings"]:
        assert set(r) <= {"t", "kind", "text", "seats", "data"} and isinstance(r["t"], str)
        assert isinstance(r["seats"], list) and isinstance(r.get("data", {}), dict)
    for i in report["infractions"]:
        assert set(i) == {"t", "kind", "text", "seat", "line"} and isinstance(i["t"], str)
    assert set(report["totals"]) == set(report["seats"])


@pytest.mark.parametrize("game", list(SECTIONS))
def test_example_log_report_shape_and_ruling_kinds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """The complete example of each game: documented fields, a documented end ruling, and every
    ruling and infraction kind in it named in the game's section of the docs."""
    lines = [json.loads(x) for x in (ROOT / "examples" / f"{game}_example.jsonl").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    report = replay_main(tmp_path, lines, capsys)
    _check_shape(report)
    kinds = {r["kind"] for r in report["rulings"]} | {i["kind"] for i in report["infractions"]}
    text = section(game)
    assert not [k for k in sorted(kinds) if f"`{k}`" not in text]
    if report["finished"]:
        assert END_RULING[game] in {r["kind"] for r in report["rulings"]} and report["winners"]
    extra = {"nerts": {"hands"}, "kierki": {"deals", "standings"}, "smear": {"teams", "hands"},
             "rummy_3_13": {"arrangements"}, "gnoming": {"grids"}}[game]
    assert extra <= set(report["extra"])


@pytest.mark.parametrize("game", list(SECTIONS))
def test_header_only_report_is_an_unfinished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    report = replay_main(tmp_path, [header(game)], capsys)
    _check_shape(report)
    assert report["finished"] is False and report["winners"] == [] and report["hands"] == []


def _end_kinds(report: dict[str, Any], game: str) -> list[str]:
    return [r["kind"] for r in report["rulings"] if r["kind"] == END_RULING[game]]


def test_a_correction_that_ends_nerts_announces_game_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``finished`` and ``winners`` follow the corrected scores, and so does the ruling that ends
    the game: a report that says the game is over carries its ``game_end``."""
    report = _play("nerts", [*NERTS_HAND, {"t": 4, "type": "score_correction", "seat": "Ana", "hand": 1,
                                           "score": 100}], tmp_path, capsys)
    assert report["finished"] and report["winners"] == ["Ana"]
    assert _end_kinds(report, "nerts") == ["game_end"]
    end = report["rulings"][-1]
    assert end["kind"] == "game_end" and end["seats"] == ["Ana"] and "Ana" in end["text"]


def test_a_correction_that_ends_smear_announces_game_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hand 1 is passed out (a row of 0, scored): the correction has a score to replace, and the game
    # ends after a scored hand (smear.md §9); a hand only dealt has no row yet (docs/table-log.md).
    passes = [{"t": t, "type": "pass", "seat": s}
              for t, s in ((0.25, "E"), (0.5, "S"), (0.75, "W"), (0.9, "N"))]
    report = _play("smear", [{"t": 0, "type": "deal", "seat": "N"}, *passes,
                             {"t": 1, "type": "score_correction", "seat": "E", "hand": 1, "score": 15}],
                   tmp_path, capsys)
    assert report["finished"] and report["winners"] == ["E", "W"]
    assert report["hands"] == [{"N": 0, "E": 15, "S": 0, "W": 15}]
    assert _end_kinds(report, "smear") == ["game_over"]
    assert report["rulings"][-1]["seats"] == ["E", "W"]


def test_a_correction_that_undoes_the_smear_win_drops_game_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.loads(x) for x in (ROOT / "examples" / "smear_example.jsonl").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    won = replay_main(tmp_path, lines, capsys)
    assert won["finished"] and _end_kinds(won, "smear") == ["game_over"]
    last = len(won["hands"])
    fix = {"t": float(lines[-1]["t"]) + 1, "type": "score_correction", "seat": won["winners"][0],
           "hand": last, "score": -5}
    report = replay_main(tmp_path, [*lines, fix], capsys)
    assert not report["finished"] and report["winners"] == [] and _end_kinds(report, "smear") == []


@pytest.mark.parametrize("value", [5, None, 2.5, True])
def test_a_rummy_hands_option_that_is_not_a_list_is_a_clear_error(tmp_path: Path, value: Any) -> None:
    """An option value of the wrong kind is an error naming it (exit status 2), not a traceback."""
    log = write_log(tmp_path / "log.jsonl", [header("rummy_3_13", hands=value)])
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "line 1" in run.stderr and "'hands'" in run.stderr


MALFORMED = {
    "nerts t_lift after the landing": ("nerts", [
        {"t": 0, "type": "hand_start"},
        {"t": 5, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1", "t_lift": 6}]),
    "nerts count with neither field": ("nerts", [
        {"t": 0, "type": "hand_start"}, {"t": 1, "type": "count", "seat": "Ben"}]),
    "kierki pass outside Fan Tan": ("kierki", [
        {"t": 0, "type": "deal", "seat": "N"}, {"t": 1, "type": "pass", "seat": "E"}]),
    "kierki trump in a negative deal": ("kierki", [
        {"t": 0, "type": "deal", "seat": "N"}, {"t": 1, "type": "trump", "seat": "N", "suit": "S"}]),
    "rummy hand number not the next": ("rummy_3_13", [
        {"t": 0, "type": "hand_start", "piles": {s: "5C" for s in SEATS["rummy_3_13"]}},
        {"t": 1, "type": "hand_start", "hand": 12, "piles": {s: "5C" for s in SEATS["rummy_3_13"]}}]),
    "gnoming round_start before the round is scored": ("gnoming", [
        {"t": 0, "type": "round_start", "piles": {"A": "G3", "B": "G8"}},
        {"t": 5, "type": "round_start", "piles": {"A": "G3", "B": "G8"}}]),
    "gnoming round number not the next": ("gnoming", [
        {"t": 0, "type": "round_start", "round": 2, "piles": {"A": "G3", "B": "G8"}}]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_documented_malformed_events_are_errors(tmp_path: Path, case: str) -> None:
    """Each game's documented malformed events: one line naming the last line, exit status 2."""
    game, events = MALFORMED[case]
    log = write_log(tmp_path / "log.jsonl", [header(game), *events])
    run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert f"line {len(events) + 1}:" in run.stderr and len(run.stderr.strip().splitlines()) == 1
