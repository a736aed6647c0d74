"""The log contract shared by the five games (docs/table-log.md, "Errors"), checked in each game
through ``kiosk replay`` as a user runs it: "`kiosk replay` stops at the first malformed line and
prints one line naming the file, the line number and the problem ..., with exit status 2"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.__main__ import main
from tests.games.replay_logs import ROOT

GAMES = ("nerts", "kierki", "smear", "rummy_3_13", "gnoming")


def _example(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's example log: its header and its events."""
    text = (ROOT / "examples" / f"{game}_example.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(x) for x in text.splitlines() if x.strip() and not x.startswith("#")]
    return lines[0], lines[1:]


def _replay_error(path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> str:
    """``kiosk replay PATH`` on ``data``: checks exit status 2, one stderr line and no report; the line."""
    path.write_bytes(data)
    assert main(["replay", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in out.err, out.err
    return lines[0]


def _text(*lines: dict[str, Any] | str) -> bytes:
    return "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines).encode()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", ["unknown_seat", "unknown_type", "time_backwards", "unknown_option"])
def test_the_first_malformed_line_is_named_though_a_later_line_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, bad: str
) -> None:
    # "stops at the first malformed line": a line the referee refuses (line 3, or the header's option
    # at line 1) comes before a line cut off at line 5, so line 3 (or 1) is named, not line 5.
    header, events = _example(game)
    first = events[0]
    line3 = {
        "unknown_seat": {"t": first["t"], "type": "note", "seat": "Zed", "text": "who?"},
        "unknown_type": {"t": first["t"], "type": "shuffle"},
        "time_backwards": {"t": -5, "type": "note", "text": "early"},
        "unknown_option": {"t": first["t"], "type": "note", "text": "fine"},
    }[bad]
    if bad == "unknown_option":
        header = {**header, "options": {**header["options"], "no_such_option": 1}}
    err = _replay_error(
        tmp_path / "log.jsonl", _text(header, first, line3, events[1], '{"t": 99, "type'), capsys
    )
    want = {
        "unknown_seat": "line 3: seat 'Zed' is not in the header",
        "unknown_type": "line 3: unknown event type 'shuffle'",
        "time_backwards": "line 3: time goes backwards",
        "unknown_option": "line 1: ",
    }[bad]
    assert f"log.jsonl: {want}" in err
    assert "line 5" not in err


@pytest.mark.parametrize("game", GAMES)
def test_a_log_cut_off_inside_a_character_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    # A note's text "Dee left — early" cut off after the first two of the dash's three UTF-8 bytes:
    # that line is malformed, and the message names it like any other malformed line.
    header, events = _example(game)
    whole = _text(header, events[0], events[1]) + '{"t": 1e6, "type": "note", "text": "Dee left —'.encode()
    err = _replay_error(tmp_path / "log.jsonl", whole[:-1], capsys)
    assert "log.jsonl: line 4: not UTF-8 text" in err


@pytest.mark.parametrize("game", GAMES)
def test_a_line_in_another_encoding_is_named_and_the_lines_before_it_are_refereed_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    # A note saved in Latin-1 ("café", é as the one byte 0xE9) at line 3: named with its line; a
    # malformed line before it (line 2, a seat not in the header) is named instead.
    header, events = _example(game)
    latin = '{"t": 1e6, "type": "note", "text": "café"}'.encode("latin-1")
    err = _replay_error(
        tmp_path / "log.jsonl", _text(header, events[0]) + latin + b"\n" + _text(events[1]), capsys
    )
    assert "log.jsonl: line 3: not UTF-8 text (byte 0xE9 at column 40)" in err
    bad_seat = {"t": events[0]["t"], "type": "note", "seat": "Zed", "text": "x"}
    err = _replay_error(tmp_path / "log.jsonl", _text(header, bad_seat) + latin + b"\n", capsys)
    assert "log.jsonl: line 2: seat 'Zed' is not in the header" in err


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "fields", [{"hand": True, "score": 7}, {"hand": 1, "score": True}, {"hand": 1, "score": False}]
)
def test_a_score_correction_with_true_or_false_for_a_number_is_malformed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, fields: dict[str, Any]
) -> None:
    # "score_correction | seat, hand (1-based), score": true is no hand number and no score (Python
    # reads it as 1), so the line is malformed, named like a missing field.
    header, events = _example(game)
    fix = {"t": events[0]["t"], "type": "score_correction", "seat": header["seats"][0], **fields}
    err = _replay_error(tmp_path / "log.jsonl", _text(header, events[0], fix), capsys)
    assert "log.jsonl: line 3: score_correction needs a whole 'hand' (1-based) and a whole 'score'" in err


def test_a_header_whose_version_is_true_is_not_version_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "table_log | format version; this kiosk reads 1": true is no version number.
    header, events = _example("smear")
    err = _replay_error(tmp_path / "log.jsonl", _text({**header, "table_log": True}, events[0]), capsys)
    assert "log.jsonl: line 1: unsupported table_log version True (this kiosk reads 1)" in err
