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
