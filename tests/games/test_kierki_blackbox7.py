"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (seventh black-box
round: the core deals at the default options, the match flow and the early stop), replayed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, spec_tricks


def test_collects_of_cards_played_out_after_an_early_stop_are_not_judged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``stop_when_penalties_exhausted`` and docs/table-log.md (``reveal``: after an
    early stop the cards may instead be played out; each ``play`` shows that card and scores
    nothing). Deal 4 (§14.4) stops when W takes KD in trick 11; the table plays tricks 12 and 13
    out anyway and N sweeps both. Those sweeps are not tricks of the deal: no ``taker`` ruling
    may claim that W won them with the 9S of trick 11. The sweep of trick 11 itself is still
    judged."""
    log = Log({"stop_when_penalties_exhausted": True})
    for k in range(1, 4):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="W", deal=4)
    for n, trick in enumerate(spec_tricks(4), start=1):
        log.tricks([trick])
        if n >= 11:
            log.ev("collect", seat="W" if n == 11 else "N")
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert [r["kind"] for r in report["rulings"] if r["kind"] == "taker"] == []
    assert report["hands"][3] == {"N": -90, "E": 0, "S": -120, "W": -30}
    # A wrong taker of the stopping trick itself still gets its ruling.
    log = Log({"stop_when_penalties_exhausted": True})
    for k in range(1, 4):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="W", deal=4).tricks(spec_tricks(4)[:11]).ev("collect", seat="S")
    report = log.replay(tmp_path, capsys)
    assert [r["text"] for r in report["rulings"] if r["kind"] == "taker"] == [
        "S collected the trick, but W won it with 9S"]
