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


@pytest.mark.parametrize("trumps", [False, True])
def test_a_collect_before_the_first_card_of_a_deal_is_ignored(
        trumps: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``collect``: "with no trick in play ... it changes nothing (an
    ``ignored`` ruling)". Between the deal and the first lead (§6.1; in a trump deal, after the
    trumps are named, §7.1) no trick is in play: a sweep there is ignored like one before the
    trumps, takes nothing from the first trick, and the deal is refereed as written (§14.3,
    §14.8)."""
    if trumps:
        log = _deals(Log(), 7).ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H")
        log.ev("collect", seat="N").tricks(spec_tricks(8))
        row, want = 7, {"N": 50, "E": 75, "S": 25, "W": 175}
    else:
        log = _deals(Log(), 2).ev("deal", seat="S", deal=3).ev("collect", seat="N").tricks(spec_tricks(3))
        row, want = 2, DEAL3
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][row] == want
    at = len(log.lines) - 1 - 52
    assert [r["kind"] for r in report["rulings"] if r["t"] == str(at)] == ["ignored"]


def test_trumps_named_twice_before_trick_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §7.1 (DECLARE: the dealer names the trump suit before trick 1) with a repeated
    ``trump`` event: W names hearts, and the event is logged again. Nothing changes, so the
    second ruling names hearts (it does not announce a change of trumps), and deal 8 scores as
    in §14.8. Naming another suit before trick 1 is a change, announced as one."""
    log = _deals(Log(), 7).ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H")
    report = log.ev("trump", seat="W", suit="H").tricks(spec_tricks(8)).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}
    assert [r["text"] for r in report["rulings"] if r["kind"] == "trump"] == [
        "W names hearts as trumps", "W names hearts as trumps"]
    log = _deals(Log(), 7).ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="S")
    report = log.ev("trump", seat="W", suit="H").tricks(spec_tricks(8)).replay(tmp_path, capsys)
    assert report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}
    assert [r["text"] for r in report["rulings"] if r["kind"] == "trump"] == [
        "W names spades as trumps", "W changes trumps to hearts as trumps"]


def test_cards_shown_after_an_early_stop_then_played_out(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``stop_when_penalties_exhausted`` and docs/table-log.md ``reveal`` ("after
    an early stop the cards may instead be played out: each play then shows that card";
    "showing the same cards again is no breach"). Deal 3 (§14.3) stops once the last queen is
    taken; E lays its three cards face up, then the table plays the rest out anyway. E's cards
    played out are the ones it showed: shown again, not cards seen twice. The scores are those
    of the stop."""
    log = _deals(Log({"stop_when_penalties_exhausted": True}), 2).ev("deal", seat="S", deal=3)
    tricks = spec_tricks(3)
    report = log.tricks(tricks).replay(tmp_path, capsys)
    stop = next(int(r["t"]) for r in report["rulings"] if r["kind"] == "stopped")
    played = stop - (len(log.lines) - 52)  # cards of deal 3 played up to the stop
    rest = [pc for trick in tricks for pc in trick][played + 1:]
    shown = [card for seat, card in rest if seat == "E"]
    assert len(shown) == 3
    log = _deals(Log({"stop_when_penalties_exhausted": True}), 2).ev("deal", seat="S", deal=3)
    for seat, card in [pc for trick in tricks for pc in trick][:played + 1]:
        log.ev("play", seat=seat, card=card)
    log.ev("reveal", seat="E", cards=shown)
    for seat, card in rest:
        log.ev("play", seat=seat, card=card)
    report = log.ev("deal", seat="W", deal=4).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][2] == DEAL3


def test_a_trick_collected_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``collect`` ("with no trick in play ... it changes nothing (an
    ``ignored`` ruling)"). Trick 1 of §14.1 (E:3C S:8C W:7C N:2C, won by S) is swept by S, and
    the sweep is logged again naming N; trick 13 (won by N) likewise. Once swept, no trick is
    in play until the next card: the second sweep is ignored (no ``taker`` ruling naming N as
    the wrong taker), and deal 1 scores as written."""
    tricks = spec_tricks(1)
    log = Log().ev("deal", seat="N", deal=1).tricks(tricks[:1]).ev("collect", seat="S")
    log.ev("collect", seat="N").tricks(tricks[1:]).ev("collect", seat="N").ev("collect", seat="W")
    report = log.ev("deal", seat="E", deal=2).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"] == [{"N": -120, "E": -60, "S": -80, "W": 0}]
    assert [r["kind"] for r in report["rulings"] if r["kind"] in ("ignored", "taker")] == [
        "ignored", "ignored"]
