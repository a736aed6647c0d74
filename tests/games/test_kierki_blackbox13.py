"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (thirteenth black-box
round: the state x event matrix under the non-default options, two odd events in a row, and the
first deal dealt by each seat), replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import Log, spec_tricks

DEAL1 = {"N": -120, "E": -60, "S": -80, "W": 0}


@pytest.mark.parametrize("event", [
    {"type": "collect"}, {"type": "collect", "seat": "S"}, {"type": "misdeal"},
    {"type": "misdeal", "seat": "N"}, {"type": "reveal", "seat": "W", "cards": ["AS"]}])
def test_an_event_before_the_first_deal_that_is_not_a_play(event: dict[str, Any], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md: of the events before the first ``deal`` only a ``play`` is malformed
    (a ``trump`` or ``pass`` is one outside its deals). A ``collect`` with no trick in play
    "changes nothing (an ``ignored`` ruling)"; a ``misdeal`` has nothing dealt to collect and deal
    again (kierki.md §4), and a ``reveal`` no deal whose cards it could show (§13.3): each is
    ignored, not a malformed log, and deal 1 (§14.1) is refereed as written."""
    fields = {k: v for k, v in event.items() if k != "type"}
    log = Log().ev(event["type"], **fields).ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
    report = log.ev("deal", seat="E", deal=2).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"] == [DEAL1]
    assert [r["kind"] for r in report["rulings"] if r["t"] == "1"] == ["ignored"]


@pytest.mark.parametrize("stop", [False, True])
def test_a_deal_event_repeated_after_its_deal_ended(stop: bool, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``deal`` ("its number ... checked"; only a number that is neither this
    deal's nor the next one's is malformed) and kierki.md §4 (a misdeal is found before the first
    card). Deal 1 (§14.1) is played out and its ``deal`` event is logged again before E deals
    deal 2; likewise deal 3 stopped early under ``stop_when_penalties_exhausted`` (§12). The
    repeated event is this deal's number, not a malformed line: the finished deal is not dealt
    again, its scores stand, and the next deal is refereed as usual."""
    if stop:
        log = Log({"stop_when_penalties_exhausted": True})
        for k in (1, 2):
            log.ev("deal", seat="NESW"[k - 1], deal=k).tricks(spec_tricks(k))
        log.ev("deal", seat="S", deal=3).tricks(spec_tricks(3)[:10]).ev("deal", seat="S", deal=3)
        report = log.ev("deal", seat="W", deal=4).tricks(spec_tricks(4)[:1]).replay(tmp_path, capsys)
        assert report["infractions"] == []
        assert report["hands"][2] == {"N": 0, "E": -180, "S": 0, "W": -60}
        return
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1)).ev("deal", seat="N", deal=1)
    report = log.ev("deal", seat="E", deal=2).tricks(spec_tricks(2)).replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert report["hands"] == [DEAL1, {"N": -120, "E": -20, "S": -120, "W": 0}]
    assert [r["kind"] for r in report["rulings"] if r["t"] == "54"] == ["ignored"]
