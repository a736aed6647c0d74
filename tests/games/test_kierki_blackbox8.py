"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (eighth black-box
round: the Fan Tan deal and the trump deals under their variant options), replayed through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks


def _deals_before(log: Log, last: int) -> Log:
    """Deals 1 to ``last`` of the worked match (§14), each by its dealer (first dealer N)."""
    for k in range(1, last + 1):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k)
        if k >= 8:
            log.ev("trump", seat=SEATS[(k - 1) % 4], suit="C" if k == 11 else "H")
        log.tricks(spec_tricks(k))
    return log


def test_the_next_deal_dealt_after_a_discarded_deal(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``revoke_policy = replay_deal`` ("the deal's scores are discarded") and
    docs/table-log.md (a ``deal`` number is an error only when it is neither this deal's nor the
    next one's). In deal 8 (§14.8) E plays 7D on the spade lead of trick 5 while holding 6S (it
    plays 6S in trick 11 instead of 7D): proven in trick 7 (E leads QS), so deal 8 is discarded.
    The table does not deal it again: N deals deal 9. That is a breach at the table, refereed,
    not a malformed log: deal 8 stays discarded (its row scores nothing), and deal 9 is played."""
    tricks = spec_tricks(8)
    tricks[4] = [("W", "KS"), ("N", "3S"), ("E", "7D"), ("S", "6C")]
    tricks[10] = [("E", "6S"), ("S", "JD"), ("W", "5D"), ("N", "KD")]
    log = _deals_before(Log({"revoke_policy": "replay_deal"}), 7)
    log.ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H").tricks(tricks)
    log.ev("deal", seat="N", deal=9).ev("trump", seat="N", suit="H").tricks(spec_tricks(9))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["revoke", "wrong_count"]
    assert report["hands"][7] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert report["hands"][8] == {"N": 125, "E": 125, "S": 25, "W": 50}
    ends = [r["text"] for r in report["rulings"] if r["kind"] == "deal_end"]
    assert ends[7] == "deal 8 (trumps): N 0, E 0, S 0, W 0 (total 0, discarded)"
    deals = [r["text"].split(":")[0] for r in report["rulings"] if r["kind"] == "deal"]
    assert deals[-1] == "deal 9 (trumps)"


def test_trumps_named_by_another_seat_after_the_dealer_do_not_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §4 (deals 8 to 11: the dealer names one suit as trumps) and §7.1 (DECLARE: the
    dealer names trump suit T). In deal 8 (§14.8) W deals and names hearts; before trick 1 N, who
    does not name trumps, presses spades as well. That is a ``wrong_trump_seat``, and the trumps
    stay hearts: the deal scores as in §14.8 (W +175), not as a spade deal."""
    log = _deals_before(Log(), 7)
    log.ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H").ev("trump", seat="N", suit="S")
    log.tricks(spec_tricks(8)).ev("deal", seat="N", deal=9)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_trump_seat"]
    assert report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}
    assert report["extra"]["deals"][7]["trump"] == "H"
    # The same holds under trump_chooser = left_of_dealer_full_hand: N names, then W presses.
    log = _deals_before(Log({"trump_chooser": "left_of_dealer_full_hand"}), 7)
    log.ev("deal", seat="W", deal=8).ev("trump", seat="N", suit="H").ev("trump", seat="W", suit="S")
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_trump_seat"]
    assert report["extra"]["deals"][7]["trump"] == "H"
