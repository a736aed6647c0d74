"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (eighth review
round: whole matches under every variant option, checked against an independent reference). Each
test pins a place where the referee disagreed with the spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, spec_tricks


@pytest.mark.parametrize("written", ["", "[]", " [ ] "])
def test_12_no_heart_lead_ban_written_as_an_empty_comma_string(
    written: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """kierki.md §12 ``heart_lead_ban_deals`` takes "any subset of 1..7", the empty one too (no
    deal bans a heart lead), and docs/table-log.md lets a list option be written as "the same
    numbers in a comma string" (the referee takes "2, 5, 7" and "[2, 5, 7]"). The empty subset
    in that spelling has no numbers: it is the empty list, not a malformed header. Deal 2 of
    §14.2 with its first lead changed to S's 4H (S holds spades): with no ban it is a legal lead,
    so nothing is proven, and the deal still totals -260."""
    tricks = spec_tricks(2)
    tricks[0] = [("S", "4H"), ("W", "3H"), ("N", "6H"), ("E", "5H")]
    tricks[8] = [("N", "6S"), ("E", "3S"), ("S", "4S"), ("W", "5S")]
    log = Log({"heart_lead_ban_deals": written})
    log.ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
    report = log.ev("deal", seat="E", deal=2).tricks(tricks).replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert sum(report["hands"][1].values()) == -260
    assert set(report["hands"][1]) == set(SEATS)
