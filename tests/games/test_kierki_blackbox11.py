"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (eleventh black-box
round: sections 7 to 10, 12 and 13 taken sentence by sentence), replayed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks

DEAL8 = {"N": 50, "E": 75, "S": 25, "W": 175}


def _to_deal8(log: Log) -> Log:
    """Deals 1 to 7 of the worked match (§14), then deal 8 dealt by W, who names hearts (§14.8)."""
    for k in range(1, 8):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    return log.ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H")


@pytest.mark.parametrize("shown_again", [
    # The missing card first, then the three cards seen before.
    [("S", "3H"), ("W", "AH"), ("N", "2H"), ("E", "6H")],
    # The missing card first, then the whole trick again.
    [("S", "3H"), ("W", "AH"), ("N", "2H"), ("E", "6H"), ("S", "3H")],
    # The trick again with the missing card in the middle.
    [("W", "AH"), ("S", "3H"), ("N", "2H"), ("E", "6H")],
])
def test_a_short_trick_shown_again_in_any_order(shown_again: list[tuple[str, str]], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.5 (a trick collected before the camera read all four cards is shown again)
    and docs/table-log.md, Kierki ``collect`` ("log the missing cards; cards of that trick logged
    again by the same seats are taken as seen again, not played twice"). Trick 1 of §14.8 is
    swept with S's 3H unseen; the table shows it again and the log lists the missing card before
    (some of) the cards already seen. Those are seen again, whatever the order: not a lead to
    trick 2 (seen twice, the others out of turn) and no revoke by S in a trick 2 that never was."""
    log = _to_deal8(Log())
    for seat, card in spec_tricks(8)[0][:3]:
        log.ev("play", seat=seat, card=card)
    log.ev("collect", seat="W")
    for seat, card in shown_again:
        log.ev("play", seat=seat, card=card)
    report = log.tricks(spec_tricks(8)[1:]).replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["hands"][7] == DEAL8
    assert [r["text"] for r in report["rulings"] if r["kind"] == "trick"][-13].startswith(
        "trick 1: W wins with AH")


def test_the_last_trick_shown_again_after_its_missing_card(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The same (§13.5, docs/table-log.md ``collect``) for trick 13 of §14.8
    (N:10C E:4D S:KC W:8D): swept with W's 8D unseen, then shown again with the missing card
    first. 8D completes the deal; N's, E's and S's cards logged again are seen again, not cards
    played after the 13th trick (wrong_count, seen_twice)."""
    tricks = spec_tricks(8)
    log = _to_deal8(Log()).tricks(tricks[:12])
    for seat, card in tricks[12][:3]:
        log.ev("play", seat=seat, card=card)
    log.ev("collect", seat="S").ev("play", seat="W", card="8D")
    log.tricks([tricks[12][:3]]).ev("collect", seat="S")
    report = log.ev("deal", seat="N", deal=9).replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["hands"][7] == DEAL8
    assert [r["kind"] for r in report["rulings"][-6:]] == [
        "trick", "deal_end", "reshow", "reshow", "reshow", "deal"]
