"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (thirteenth black-box
round: the state x event matrix under the non-default options, two odd events in a row, and the
first deal dealt by each seat), replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import Log, spec_tricks

DEAL1 = {"N": -120, "E": -60, "S": -80, "W": 0}


@pytest.mark.parametrize("seat", [None, "S"])
def test_a_collect_before_the_first_deal_is_ignored(seat: str | None, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``collect`` ("with no trick in play ... it changes nothing (an ``ignored``
    ruling)"); its list of malformed events names only a ``play`` before the first ``deal``. A
    sweep of the table logged before anything is dealt has no trick to take: it is ignored, not a
    malformed log, and deal 1 (§14.1) is refereed as written."""
    fields = {} if seat is None else {"seat": seat}
    log = Log().ev("collect", **fields).ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
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
