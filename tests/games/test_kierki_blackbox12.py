"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (twelfth black-box
round: a state x event matrix, each odd event logged in each state of a deal and followed by
legal play), replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, spec_tricks

DEAL3 = {"N": 0, "E": -180, "S": 0, "W": -60}


def _deals(log: Log, upto: int) -> Log:
    """Deals 1 to ``upto`` of the worked match (§14), each dealt by its due seat."""
    for k in range(1, upto + 1):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    return log


def test_the_due_dealer_dealing_again_after_a_wrong_dealer_is_no_breach(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §3 (deal k is dealt by the seat k - 1 places left of the first dealer) and
    docs/table-log.md ``deal`` (before any card a deal may be repeated) with ``wrong_dealer`` (a
    deal dealt by a seat not due to). E deals deal 3, which is S's; before any card S deals it
    again. Only E's deal is a breach: S is the seat due to deal it, and W leads (§14.3)."""
    log = _deals(Log(), 2).ev("deal", seat="E", deal=3).ev("deal", seat="S", deal=3)
    report = log.tricks(spec_tricks(3)).ev("deal", seat="W", deal=4).replay(tmp_path, capsys)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("wrong_dealer", "E")]
    assert report["hands"][2] == DEAL3
    # The same in a trump deal (§14.8): N deals deal 8, which is W's; W deals it again and names
    # hearts.
    log = _deals(Log(), 7).ev("deal", seat="N", deal=8).ev("deal", seat="W", deal=8)
    report = log.ev("trump", seat="W", suit="H").tricks(spec_tricks(8)).replay(tmp_path, capsys)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("wrong_dealer", "N")]
    assert report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}
