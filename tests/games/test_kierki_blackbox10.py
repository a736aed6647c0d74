"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (tenth black-box
round: §0 to §6 and §11, sentence by sentence), replayed through ``kiosk replay --json``. Each
test here failed on the referee before the fix it names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks
from tests.games.test_kierki_blackbox6 import fan_tan_events, with_fan_tan


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


# A Fan Tan deal (dealer W, N starts) in which S keeps 4S: once it is S's only card that fits,
# S passes instead of playing it (turns 47, 51, 55 and 59), so S still holds it at the end.
_FAN_TAN_KEEPING_4S = (
    "N:7D E:6D S:7C W:8D N:pass E:5D S:8C W:7H N:4D E:6C S:6H W:5C N:3D E:5H S:4C W:8H N:2D E:pass "
    "S:9C W:9H N:3C E:10H S:7S W:10C N:4H E:2C S:9D W:8S N:6S E:3H S:JH W:pass N:5S E:QH S:2H W:pass "
    "N:KH E:9S S:10D W:10S N:pass E:JD S:JC W:QC N:KC E:QD S:pass W:JS N:KD E:AH S:pass W:AC N:QS "
    "E:pass S:pass W:AD N:pass E:pass S:pass W:KS N:AS")


def _to_fan_tan(options: dict[str, object]) -> Log:
    """Deals 1 to 11 of the worked match (§14), then deal 12 played as above (W out first, N
    second): E shows 2S and S shows 3S 4S."""
    log = Log(options)
    for k in range(1, 12):
        dealer = SEATS[(k - 1) % 4]
        log.ev("deal", seat=dealer, deal=k)
        if k >= 8:
            log.ev("trump", seat=dealer, suit="C" if k == 11 else "H")
        log.tricks(spec_tricks(k))
    log.ev("deal", seat="W", deal=12)
    for turn in _FAN_TAN_KEEPING_4S.split():
        seat, card = turn.split(":")
        log.ev("pass", seat=seat) if card == "pass" else log.ev("play", seat=seat, card=card)
    return log.ev("reveal", seat="E", cards=["2S"]).ev("reveal", seat="S", cards=["3S", "4S"])


def test_an_illegal_pass_proven_at_the_reveal_under_replay_deal_reopens_the_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §11 and §12 ``revoke_policy = replay_deal`` ("the deal's scores are discarded and
    the same dealer deals it again"), §13.3 (the two players left show their cards at the end of
    Fan Tan and every stored pass is checked against them) and docs/table-log.md (the ruling that
    ends the game agrees with ``finished``; a change that undoes the end drops it). S's reveal
    proves its passes illegal, so deal 12 is discarded and dealt again: the match is not over,
    and the match_end announced when N went out is taken back. Once the redeal ends, the match
    ends once."""
    report = _to_fan_tan({"revoke_policy": "replay_deal"}).replay(tmp_path, capsys)
    assert kinds(report) == ["illegal_pass"] * 4
    assert not report["finished"] and report["winners"] == [] and len(report["hands"]) == 11
    assert [r for r in report["rulings"] if r["kind"] == "match_end"] == []
    assert any(r["kind"] == "replay_deal" for r in report["rulings"])
    # W deals it again, and it is played as in §14.12 (E shows KD, S shows AD).
    log = with_fan_tan(_to_fan_tan({"revoke_policy": "replay_deal"}).ev("deal", seat="W", deal=12),
                       fan_tan_events())
    report = log.replay(tmp_path, capsys)
    assert report["finished"] and report["winners"] == ["W"]
    assert report["hands"][11] == {"N": 500, "E": 0, "S": 0, "W": 800}
    assert [r["text"] for r in report["rulings"] if r["kind"] == "match_end"] == [
        "match over: 1. W (+310), 2. E (+65), 3. N (-165), 4. S (-210)"]
    # Under the default flag_only the breach is flagged and the match stays over.
    report = _to_fan_tan({}).replay(tmp_path, capsys)
    assert kinds(report) == ["illegal_pass"] * 4 and report["finished"]
    assert len([r for r in report["rulings"] if r["kind"] == "match_end"]) == 1


def test_a_misdeal_in_a_trump_deal_after_the_trumps_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §4 (a misdeal before the first card: the same dealer deals again, the deal number
    does not advance) and docs/table-log.md (``misdeal``: the event stands for the new deal, and
    play may follow at once; a ``deal`` event by the same dealer may also log it). In deal 8 W
    names hearts, the deal is found faulty and dealt again, and play follows without a second
    ``trump`` event: the trumps named stand until named again (the kiosk's only input, §13.4), so
    §14.8 is refereed as usual instead of stopping the replay. Trumps named again after the
    redeal are named, not changed."""
    def before() -> Log:
        log = Log()
        for k in range(1, 8):
            log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
        return log.ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H")
    deal8 = {"N": 50, "E": 75, "S": 25, "W": 175}
    redeals: list[list[tuple[str, dict[str, Any]]]] = [
        [("misdeal", {"seat": "W"})], [("deal", {"seat": "W", "deal": 8})],
        [("misdeal", {"seat": "W"}), ("deal", {"seat": "W", "deal": 8})]]
    for redeal in redeals:
        log = before()
        for kind, fields in redeal:
            log.ev(kind, **fields)
        report = log.tricks(spec_tricks(8)).replay(tmp_path, capsys)
        assert report["infractions"] == [] and report["hands"][7] == deal8
        assert report["extra"]["deals"][7]["trump"] == "H"
    report = before().ev("misdeal", seat="W").ev("trump", seat="W", suit="H").tricks(
        spec_tricks(8)).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][7] == deal8
    assert [r["text"] for r in report["rulings"] if r["kind"] == "trump"] == [
        "W names hearts as trumps", "W names hearts as trumps"]
