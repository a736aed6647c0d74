"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (fifteenth black-box
round: the worked examples of §14.12 and §14.15 changed one fact at a time), replayed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import kinds
from tests.games.test_kierki_blackbox5 import match_up_to
from tests.games.test_kierki_blackbox6 import fan_tan_events, with_fan_tan

DEAL12 = {"N": 500, "E": 0, "S": 0, "W": 800}
"""The scores of the worked Fan Tan deal (§14.12)."""


def test_the_turn_12_snapshot_is_the_set_a_pass_there_stores(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §14.15 (turn 12: the cards that fit are {4S, 10S, 7H, 7D, 4C, JC}; W holds 10S, 7D
    and 4C) and §14.16 (a pass stores that public set; a later play from it proves the pass
    illegal). W passes at turn 12 instead of playing 10S; N plays JC, E passes (legally: it holds
    none of {4S, 10S, 7H, 7D, 4C, QC}), S plays QC, and W's 10S at turn 16 proves the pass."""
    plays = [e for e in fan_tan_events() if e["type"] in ("play", "pass")][:11]
    log = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), plays)
    log.ev("pass", seat="W").ev("play", seat="N", card="JC").ev("pass", seat="E")
    report = log.ev("play", seat="S", card="QC").ev("play", seat="W", card="10S").replay(tmp_path, capsys)
    assert kinds(report) == ["illegal_pass"]
    text = report["infractions"][0]["text"]
    assert text.startswith("illegal pass by W in turn 12: ")
    assert text.endswith("proven in turn 16: W played 10S")
    shown = text.split("{")[1].split("}")[0].split()
    assert sorted(shown) == sorted(["4S", "10S", "7H", "7D", "4C", "JC"])
    assert report["extra"]["in_progress"]["deal"] == 12


@pytest.mark.parametrize("options", [
    {"fan_tan_opening": "7S"}, {"fan_tan_start_rank": "first_card"}, {"fan_tan_start_rank": 7}])
def test_the_worked_fan_tan_under_options_it_already_obeys(options: dict[str, Any], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12: N, who starts §14.12, holds 7S and opens with it, so naming 7S as the opening
    card changes nothing; with ``fan_tan_start_rank = first_card`` that first card (a seven) makes
    seven the start rank of every row. The deal is refereed exactly as §14.12."""
    log = with_fan_tan(match_up_to(12, options).ev("deal", seat="W", deal=12), fan_tan_events())
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][11] == DEAL12
    assert report["finished"] and report["winners"] == ["W"]


def test_the_worked_fan_tan_with_the_ace_low(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``fan_tan_ace = low`` (rows run A 2 ... K: the ace is the last card below the 2)
    and §8.3. Every play of §14.12 still fits (AS, AC and AH go below a row already down to 2), but
    five passes no longer are forced: E at turn 26 held AS (the spade row ran 2 to K), W at turns 48
    and 52 held AH, S at turns 63 and 66 held AD (the diamond row was down to 2). The plays of AS
    and AH prove three; S's AD shown at the end proves the other two (§14.16). The scores stand
    (``revoke_policy = flag_only``)."""
    log = match_up_to(12, {"fan_tan_ace": "low"}).ev("deal", seat="W", deal=12)
    report = with_fan_tan(log, fan_tan_events()).replay(tmp_path, capsys)
    proven = [(i["seat"], i["text"].split(": ", 1)[0], i["text"].rsplit("; ", 1)[1])
              for i in report["infractions"]]
    assert proven == [
        ("E", "illegal pass by E in turn 26", "proven in turn 30: E played AS"),
        ("W", "illegal pass by W in turn 48", "proven in turn 56: W played AH"),
        ("W", "illegal pass by W in turn 52", "proven in turn 56: W played AH"),
        ("S", "illegal pass by S in turn 63", "proven at the end of the deal: S still holds AD"),
        ("S", "illegal pass by S in turn 66", "proven at the end of the deal: S still holds AD"),
    ]
    assert report["hands"][11] == DEAL12 and report["finished"]
