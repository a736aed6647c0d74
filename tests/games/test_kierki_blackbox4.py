"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (fourth
black-box round), replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import DEAL1, SEATS, Log, kinds, spec_tricks

# A deal 5 (dealer N, E leads) played under ``heart_lead_ban_deals = [2, 7]``, so E may lead
# hearts in it. In trick 3 hearts are led and W, holding 2H 5H 8H AH JH KH, plays 2D (a revoke),
# proven by W's AH lead in trick 6. W later discards KH on the club lead of trick 8 (void in
# clubs, as ``king_of_hearts_forced_discard`` requires); N wins it.
DEAL5_HEART_REVOKE = [
    [("E", "KS"), ("S", "8S"), ("W", "4S"), ("N", "3S")],
    [("E", "AC"), ("S", "3C"), ("W", "JC"), ("N", "4C")],
    [("E", "9H"), ("S", "7H"), ("W", "2D"), ("N", "9D")],
    [("E", "JD"), ("S", "3D"), ("W", "6D"), ("N", "AD")],
    [("N", "QD"), ("E", "5D"), ("S", "10H"), ("W", "KD")],
    [("W", "AH"), ("N", "7S"), ("E", "6H"), ("S", "QH")],
    [("W", "8D"), ("N", "4D"), ("E", "10D"), ("S", "5S")],
    [("E", "7C"), ("S", "6C"), ("W", "KH"), ("N", "8C")],
    [("N", "6S"), ("E", "QS"), ("S", "10S"), ("W", "JH")],
    [("E", "4H"), ("S", "KC"), ("W", "2H"), ("N", "2S")],
    [("E", "5C"), ("S", "10C"), ("W", "5H"), ("N", "QC")],
    [("N", "9S"), ("E", "3H"), ("S", "JS"), ("W", "7D")],
    [("S", "9C"), ("W", "8H"), ("N", "AS"), ("E", "2C")],
]


def test_revoke_on_a_heart_lead_is_not_also_a_kept_king_of_hearts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``king_of_hearts_forced_discard``: the holder must play KH (a) whenever they
    cannot follow the suit led, (b) when hearts are led and AH is already in the trick. On a heart
    lead the holder of KH can always follow, so (a) never applies; with no AH in the trick a
    non-heart there is a revoke (§5.2, §13.3) and nothing more."""
    log = Log({"king_of_hearts_forced_discard": True, "heart_lead_ban_deals": [2, 7]})
    for k in range(1, 5):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="N", deal=5).tricks(DEAL5_HEART_REVOKE)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["revoke"]
    assert report["infractions"][0]["text"].startswith("revoke by W in trick 3: hearts led, W played 2D")
    assert report["hands"][4] == {"N": -150, "E": 0, "S": 0, "W": 0}


def test_a_short_trick_shown_again_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md, Kierki ``collect``: a trick collected with fewer than four cards seen is
    reported and "the trick must be shown again" (kierki.md §13.5). A table that shows the whole
    trick again repeats the cards already seen: they are not out of turn, not seen twice, and the
    trick is scored once."""
    tricks = spec_tricks(1)
    log = Log().ev("deal", seat="N", deal=1)
    for seat, card in tricks[0][:3]:
        log.ev("play", seat=seat, card=card)
    log.ev("collect", seat="S").tricks(tricks)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["hands"] == [DEAL1]
    # Showing only the missing card still works.
    log = Log().ev("deal", seat="N", deal=1)
    for seat, card in tricks[0][:3]:
        log.ev("play", seat=seat, card=card)
    log.ev("collect", seat="S").tricks([tricks[0][3:]] + tricks[1:])
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["hands"] == [DEAL1]
