"""Irregularities in the trick games, written from the specs alone: ``rules/kierki.md`` §11 and
§13 (what the camera sees at once, what it proves later) and ``rules/smear.md`` §10 and §12,
replayed through ``kiosk replay --json``. Every figure below was worked out by hand from the
spec; a differential oracle run (thousands of random matches and games with injected breaches)
found the referee in agreement, so these guard the behaviour at the positions the specs name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import DEAL1, Log, kinds, spec_tricks
from tests.games.test_kierki_blackbox5 import match_up_to
from tests.games.test_kierki_blackbox6 import with_fan_tan
from tests.games.test_smear_blackbox import _replay as smear_replay

# -- Kierki ------------------------------------------------------------------------------------


def _deal1_with_the_revoke_of_14_17() -> list[list[tuple[str, str]]]:
    """Deal 1 of §14.1 with the hypothetical of §14.17: W plays 10D on the club lead of trick 5
    (holding JC 9C 6C 4C) and JC in trick 10 instead (W is void in spades by then: legal)."""
    tricks = spec_tricks(1)
    tricks[4] = [("E", "5C"), ("S", "QC"), ("W", "10D"), ("N", "AC")]
    tricks[9] = [("S", "7S"), ("W", "JC"), ("N", "KS"), ("E", "9S")]
    return tricks


def test_kierki_13_3_a_revoke_is_proven_when_the_seat_later_shows_the_suit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§13.3, §14.17: the camera sees a diamond on a club lead and records "W holds no clubs";
    W's later club proves the revoke. §11 default (flag only): the scores stand (N still takes
    tricks 5 and 10, so deal 1 scores as in §14.1)."""
    report = Log().ev("deal", seat="N", deal=1).tricks(_deal1_with_the_revoke_of_14_17()).replay(
        tmp_path, capsys)
    assert kinds(report) == ["revoke"]
    assert report["infractions"][0]["seat"] == "W"
    assert report["infractions"][0]["text"].endswith(
        "clubs led, W played 10D; proven in trick 10: W played JC")
    assert report["hands"] == [DEAL1]


def test_kierki_12_revoke_policy_replay_deal_discards_the_deal_at_the_proof(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§12 ``revoke_policy = replay_deal``: once the revoke is proven the deal's scores are
    discarded and the same dealer deals it again; the deal dealt again (played as §14.1)
    is the one scored."""
    log = Log({"revoke_policy": "replay_deal"}).ev("deal", seat="N", deal=1)
    log.tricks(_deal1_with_the_revoke_of_14_17()[:10])
    log.ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["revoke"]
    assert [r["kind"] for r in report["rulings"]].count("replay_deal") == 1
    assert report["hands"] == [DEAL1]


def test_kierki_13_2_a_card_out_of_turn_goes_back_and_is_played_later(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§11, §13.2: N (the dealer) leads AC to trick 1 although E leads: refused, the card goes
    back to the hand. N plays it in trick 5 as in §14.1: that is its only play, not a card
    seen twice."""
    log = Log().ev("deal", seat="N", deal=1).ev("play", seat="N", card="AC").tricks(spec_tricks(1))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["out_of_turn"]
    assert report["hands"] == [DEAL1]


@pytest.mark.parametrize(("policy", "scored"), [("flag_only", True), ("replay_deal", False)])
def test_kierki_14_16_an_illegal_pass_is_proven_by_the_card_that_fitted(
        policy: str, scored: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§14.16 hypothetical: at turn 2 E says "pass" while holding 7C; the stored set is
    {6S, 8S, 7H, 7D, 7C}. E's 7C at turn 6 proves the illegal pass. Under ``replay_deal`` the
    Fan Tan deal is discarded (the same dealer W deals it again)."""
    events = [{"type": "play", "seat": "N", "card": "7S"}, {"type": "pass", "seat": "E"},
              {"type": "play", "seat": "S", "card": "6S"}, {"type": "play", "seat": "W", "card": "8S"},
              {"type": "play", "seat": "N", "card": "5S"}, {"type": "play", "seat": "E", "card": "7C"}]
    log = with_fan_tan(match_up_to(12, {"revoke_policy": policy}).ev("deal", seat="W", deal=12), events)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["illegal_pass"]
    text = report["infractions"][0]["text"]
    assert report["infractions"][0]["seat"] == "E" and text.endswith("proven in turn 6: E played 7C")
    assert all(card in text for card in ("6S", "8S", "7H", "7D", "7C"))
    assert ("replay_deal" in [r["kind"] for r in report["rulings"]]) is not scored


# -- Smear -------------------------------------------------------------------------------------

_AUCTION_13_4: list[dict[str, Any]] = [{"type": "deal", "seat": "W"}, {"type": "bid", "seat": "N", "bid": 2},
                 {"type": "pass", "seat": "E"}, {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"}]


def _plays(text: str) -> list[dict[str, Any]]:
    return [{"type": "play", "seat": p[0], "card": p[2:]} for p in text.split()]


# §13.8: W plays 7D on the club lead of trick 3 (holding KC); S wins it with AC. Played on from
# there (worked out by hand): T4 S:8D W:KC N:KD E:10D -> N (W's club proves the revoke),
# T5 N:AS E:10H S:KH W:10S -> N, T6 N:QH E:AH S:10C W:JH -> E.
# High AS and Low 7S (N): NS; Jack JS in trick 1 (won by E): EW; card points NS 57, EW 23: NS.
HAND_13_8 = _plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:7D "
                   "S:8D W:KC N:KD E:10D N:AS E:10H S:KH W:10S N:QH E:AH S:10C W:JH")


@pytest.mark.parametrize(("policy", "ns", "ew"), [("flag_only", 3, 1), ("bid_setback", 3, -2)])
def test_smear_13_8_a_revoke_proven_later_and_its_penalty(
        policy: str, ns: int, ew: int, tmp_path: Path) -> None:
    """§12.3, §13.8: "W holds no clubs" is recorded at trick 3 and contradicted by W's KC in
    trick 4. Flag only (default): NS make their bid of 2 with 3 Points, EW score Jack. Under
    ``bid_setback`` EW (the offenders) lose 2, the amount of N's bid, and score no Points; NS
    score the Points they won."""
    report = smear_replay(tmp_path, {"revoke_policy": policy}, [*_AUCTION_13_4, *HAND_13_8])
    assert kinds(report) == ["revoke"]
    assert report["infractions"][0]["seat"] == "W"
    assert report["infractions"][0]["text"].endswith(
        "clubs led, W played 7D; proven in trick 4: W played KC")
    assert report["hands"] == [{"N": ns, "E": ew, "S": ns, "W": ew}]


def test_smear_10_calls_out_of_turn_or_not_higher_are_refused(tmp_path: Path) -> None:
    """§10: a bid out of turn, a bid not higher than the highest bid and a bid outside 2 to 4
    are refused at once; the seat to act still acts. The auction and hand of §13.4 then
    score as written: NS +2, EW +1. A card played before the auction ended is a card out of
    turn: refused, and played again later."""
    events: list[dict[str, Any]] = [
              {"type": "deal", "seat": "W"}, {"type": "bid", "seat": "E", "bid": 3},
              {"type": "bid", "seat": "N", "bid": 2}, {"type": "bid", "seat": "E", "bid": 2},
              {"type": "bid", "seat": "E", "bid": 5}, {"type": "play", "seat": "N", "card": "7S"},
              {"type": "pass", "seat": "E"}, {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
              *_plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:10S "
                      "W:7D N:KD E:10D S:8D N:AS E:10H S:KH W:KC N:QH E:AH S:10C W:JH")]
    report = smear_replay(tmp_path, {}, events)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [
        ("out_of_turn", "E"), ("illegal_bid", "E"), ("illegal_bid", "E"), ("out_of_turn", "N")]
    assert report["hands"] == [{"N": 2, "E": 1, "S": 2, "W": 1}]
