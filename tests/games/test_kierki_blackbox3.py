"""A third black-box round on Kierki: table logs written from ``rules/kierki.md`` and
``docs/table-log.md`` alone, replayed through ``kiosk replay --json``. Each test names the
section of the spec it checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay_main

ROOT = Path(__file__).resolve().parents[2]


def example() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and events of the worked match of kierki.md §14 (examples/kierki_example.jsonl)."""
    lines = (ROOT / "examples" / "kierki_example.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(ln) for ln in lines if ln.strip() and not ln.startswith("#")]
    return rows[0], rows[1:]


def deal_start(events: list[dict[str, Any]], k: int) -> int:
    """Index of the 'deal' event of deal ``k``."""
    return next(i for i, e in enumerate(events) if e["type"] == "deal" and e.get("deal") == k)


def replay(lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    return replay_main(tmp_path, lines, capsys)


def kinds(report: dict[str, Any]) -> list[str]:
    return [i["kind"] for i in report["infractions"]]


def test_end_checks_and_match_end_follow_a_correction_made_during_the_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§6.3 and §9 (each deal's fixed total, then the half totals and the zero sum), §10 (ranking
    by final score) and docs/table-log.md ("the table checks the tricks and fixes the row with a
    score_correction"). The QD of deal 3 is misread as KD: deal 3 adds up to -180 and is flagged.
    The table fixes E's row (-120 -> -180) before deal 4. The corrected sheet is the worked one,
    so the half totals and the zero sum hold at the end, and the match_end ruling ranks the
    corrected totals (E +65, not +125)."""
    header, events = example()
    events = [dict(e) for e in events]
    i3, i4 = deal_start(events, 3), deal_start(events, 4)
    q = next(i for i in range(i3, i4) if events[i].get("card") == "QD")
    events[q]["card"] = "KD"
    fix = {"t": events[i4]["t"], "type": "score_correction", "seat": "E", "hand": 3, "score": -180}
    report = replay([header, *events[:i4], fix, *events[i4:]], tmp_path, capsys)
    assert report["totals"] == {"N": -165, "E": 65, "S": -210, "W": 310}
    assert report["winners"] == ["W"] and report["finished"]
    assert kinds(report) == ["seen_twice", "misread"]
    assert "deal 3" in report["infractions"][1]["text"]
    end = next(r for r in report["rulings"] if r["kind"] == "match_end")
    assert end["text"] == "match over: 1. W (+310), 2. E (+65), 3. N (-165), 4. S (-210)"


def test_match_end_ruling_ranks_a_correction_logged_before_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§10: the final score is the sum of the deal scores as the table fixed them before the
    match ended; the match_end ruling names the same winner as ``winners``."""
    header, events = example()
    i12 = deal_start(events, 12)
    fix = {"t": events[i12]["t"], "type": "score_correction", "seat": "N", "hand": 1, "score": 1000}
    report = replay([header, *events[:i12], fix, *events[i12:]], tmp_path, capsys)
    assert report["winners"] == ["N"]
    end = next(r for r in report["rulings"] if r["kind"] == "match_end")
    assert end["text"].startswith("match over: 1. N (+955), 2. W (+310)")


def test_a_card_after_the_13th_trick_is_refereed_not_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§13.2 (checks made at once: 13 tricks per deal, no card seen twice in one deal) and
    docs/table-log.md ("Breaches of the rules are not errors"): a card seen after deal 1's 13th
    trick is a 53rd card, so it is seen twice and breaks the trick count; it is refused and the
    deal's scores stand."""
    header, events = example()
    i2 = deal_start(events, 2)
    extra = {"t": events[i2 - 1]["t"], "type": "play", "seat": "N", "card": "3C"}
    report = replay([header, *events[:i2], extra, *events[i2:]], tmp_path, capsys)
    assert sorted(kinds(report)) == ["seen_twice", "wrong_count"]
    assert all(i["seat"] == "N" for i in report["infractions"])
    assert report["hands"][0] == {"N": -120, "E": -60, "S": -80, "W": 0}
    assert report["totals"] == {"N": -165, "E": 65, "S": -210, "W": 310}


def test_fan_tan_card_or_pass_after_the_second_player_is_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§8.1 and §8.4 (the deal and the match end the moment the second player runs out; the
    other two score 0) and §11 (a card played out of turn is refused): E placing KD, or S
    passing, after N went out second changes nothing."""
    header, events = example()
    t = events[-1]["t"]
    late = [{"t": t, "type": "play", "seat": "E", "card": "KD"}, {"t": t, "type": "pass", "seat": "S"}]
    report = replay([header, *events, *late], tmp_path, capsys)
    assert kinds(report) == ["out_of_turn", "out_of_turn"]
    assert report["hands"][11] == {"N": 500, "E": 0, "S": 0, "W": 800}
    assert report["finished"] and report["winners"] == ["W"]
