"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (tenth black-box
round: §0 to §6 and §11, sentence by sentence), replayed through ``kiosk replay --json``. Each
test here failed on the referee before the fix it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks


def test_a_deal_numbering_the_next_deal_before_any_card_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md (``deal``: the number is checked, and a ``deal`` number is an error only
    when it is neither this deal's nor the next one's) and kierki.md §3 (deal k is dealt by the
    seat k - 1 places left of the first dealer). N deals deal 5 and the table moves on to deal 6
    before a card of it is seen: that is a breach at the table, not a malformed log. Deal 5 is
    closed from the tricks seen (none: it scores nothing, flagged as unfinished and as a wrong
    total), and deal 6 is played and scored as usual."""
    log = Log()
    for k in range(1, 5):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="N", deal=5).ev("deal", seat="E", deal=6).tricks(spec_tricks(6))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count", "misread"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert report["hands"][5] == {"N": -75, "E": -75, "S": 0, "W": 0}
    deals = [r["text"].split(":")[0] for r in report["rulings"] if r["kind"] == "deal"]
    assert deals[-2:] == ["deal 5 (no king of hearts)", "deal 6 (no 7th / last trick)"]


def test_the_dealer_rotation_logged_deal_by_deal_without_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §3: with D1 = N the dealers are N, E, S, W, N, E, S (deals 1 to 7), W, N, E, S
    (deals 8 to 11) and W (deal 12), and every player names trumps exactly once. A log of the
    numbered deal events alone (each trump deal's trumps named by its dealer) is refereed: no
    dealer or trump seat is wrong, and each deal ruling names the dealer and who leads."""
    log = Log()
    for k in range(1, 13):
        dealer = SEATS[(k - 1) % 4]
        log.ev("deal", seat=dealer, deal=k)
        if 8 <= k <= 11:
            log.ev("trump", seat=dealer, suit="S")
    report = log.replay(tmp_path, capsys)
    assert not {"wrong_dealer", "wrong_trump_seat"} & set(kinds(report))
    deals = [r["text"] for r in report["rulings"] if r["kind"] == "deal"]
    assert deals[0] == "deal 1 (no tricks): N deals; E leads"
    assert deals[7] == "deal 8 (trumps): W deals; W names trumps and leads"
    assert deals[11] == "deal 12 (Fan Tan): W deals; N starts"
    assert [r["seats"] for r in report["rulings"] if r["kind"] == "trump"] == [["W"], ["N"], ["E"], ["S"]]
    # A trump deal left before its trumps are named is unfinished after 0 of 13 tricks, too.
    log = Log()
    for k in range(1, 8):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    report = log.ev("deal", seat="W", deal=8).ev("deal", seat="N", deal=9).replay(tmp_path, capsys)
    assert [i["text"].split(":")[0] for i in report["infractions"]] == [
        "deal 8 was left unfinished after 0 of 13 tricks (0 cards seen)",
        "deal 8 (trumps) scores add up to 0, but every such deal totals 325"]
