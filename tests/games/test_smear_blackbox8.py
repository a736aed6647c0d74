"""Eighth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): the state x event matrix under the
non-default options, two odd events in a row, and whole games with odd events in early hands,
checking the dealer rotation, the scores and the end of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.test_smear_blackbox import _replay
from tests.games.test_smear_blackbox3 import _plays
from tests.games.test_smear_blackbox7 import _kinds


def _deals(rep: dict[str, Any]) -> list[str]:
    return [r["seats"][0] for r in rep["rulings"] if r["kind"] == "deal"]


# §13.4, dealer W: N bids 2 and leads 7S (trump spades); NS +2, EW +1.
HAND_13_4: list[dict[str, Any]] = [
    {"type": "deal", "seat": "W"},
    {"type": "bid", "seat": "N", "bid": 2}, {"type": "pass", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
    *_plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:10S "
            "W:7D N:KD E:10D S:8D N:AS E:10H S:KH W:KC N:QH E:AH S:10C W:JH"),
]

# §13.1, dealt by N (due after W's hand): S bids 3 and leads AH; NS +3, EW +1.
HAND_13_1: list[dict[str, Any]] = [
    {"type": "deal", "seat": "N"},
    {"type": "pass", "seat": "E"}, {"type": "bid", "seat": "S", "bid": 3},
    {"type": "pass", "seat": "W"}, {"type": "pass", "seat": "N"},
    *_plays("S:AH W:9H N:10H E:8H S:KH W:QH N:JH E:QS S:7H W:8S N:9C E:JD "
            "S:10S W:AS N:KS E:10D W:KD N:QD E:KC S:9D W:7C N:10C E:AC S:8C"),
]

# §13.2's play, dealt by E (due after N's hand): N bids 4 (S and W pass first); NS +4.
HAND_13_2: list[dict[str, Any]] = [
    {"type": "deal", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"}, {"type": "bid", "seat": "N", "bid": 4},
    *_plays("N:AS E:8S S:9S W:9D N:KS E:QS S:10S W:JC N:JS E:7C S:7H W:QH "
            "N:7S E:8C S:QD W:JD N:AD E:9H S:AC W:KD N:10D E:KH S:10C W:AH"),
]


def test_4_4_a_misdeal_of_a_stray_deal_leaves_the_seat_due_to_deal(tmp_path: Path) -> None:
    # After W's hand N is due (§4.5). E deals by mistake and a misdeal is called before the
    # auction (§4.4): the stray hand is void. The table has N, the seat due, deal: N's deal
    # is not a wrong deal (as when N deals straight after E's stray deal), and the rotation
    # goes on from N: E deals next.
    stray = [{"type": "deal", "seat": "E"}, {"type": "misdeal", "seat": "E"}]
    rep = _replay(tmp_path, {}, [*HAND_13_4, *stray, *HAND_13_1, *HAND_13_2])
    assert _kinds(rep) == [("wrong_dealer", "E")]
    assert _deals(rep) == ["W", "E", "N", "E"]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1), (0, 0), (3, 1), (4, 0)]


def test_5_3_an_all_pass_on_a_stray_deal_leaves_the_seat_due_to_deal(tmp_path: Path) -> None:
    # After W's hand N is due (§4.5). E deals by mistake and all four pass: the hand is
    # abandoned and redealt (§5.3 default), and a hand that was not completed does not pass
    # the deal. N, the seat due, deals: not a wrong deal, and E deals after N's hand.
    stray = [{"type": "deal", "seat": "E"}, *({"type": "pass", "seat": s} for s in "SWNE")]
    rep = _replay(tmp_path, {}, [*HAND_13_4, *stray, *HAND_13_1, *HAND_13_2])
    assert _kinds(rep) == [("wrong_dealer", "E")]
    assert _deals(rep) == ["W", "E", "N", "E"]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1), (0, 0), (3, 1), (4, 0)]


def test_9_a_whole_game_with_odd_events_in_the_early_hands(tmp_path: Path) -> None:
    # revoke_policy = bid_setback. Hand 1 (W deals): W revokes in trick 3 (§13.8), proven in
    # trick 4: EW lose N's bid of 2, NS score their 3 Points. E then deals by mistake and a
    # misdeal is called: N, the seat due, deals §13.1 (NS +3, EW +1). E deals and all pass:
    # E deals again (§5.3) and N bids 4 and makes it. S, W and N deal the next hands:
    # NS reach 15 in N's hand and win 15 to 4 (§9).
    revoke = [*HAND_13_4[:5], *_plays(
        "N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:7D S:8D W:KC N:KD E:10D "
        "N:AS E:10H S:KH W:10S N:QH E:AH S:10C W:JH")]
    stray = [{"type": "deal", "seat": "E"}, {"type": "misdeal", "seat": "E"}]
    all_pass: list[dict[str, Any]] = [{"type": "deal", "seat": "E"},
                                      *({"type": "pass", "seat": s} for s in "SWNE")]
    # §13.5's play, W bids 2 and makes 3 Points; dealt by S.
    hand_13_5: list[dict[str, Any]] = [{"type": "deal", "seat": "S"}, {"type": "bid", "seat": "W", "bid": 2},
                 *({"type": "pass", "seat": s} for s in "NES"), *_plays(
                     "W:9H N:9C E:9S S:7D W:AS N:QS E:JS S:7S W:KS N:10S E:10D S:8S W:AD N:8D E:QD S:JD "
                     "W:QC N:AC E:KC S:10C N:9D E:KD S:JC W:8C")]
    events = [*revoke, *stray, *HAND_13_1, *all_pass, *HAND_13_2, *hand_13_5, *HAND_13_4, *HAND_13_1]
    rep = _replay(tmp_path, {"revoke_policy": "bid_setback"}, events)
    assert _kinds(rep) == [("revoke", "W"), ("wrong_dealer", "E")]
    assert _deals(rep) == ["W", "E", "N", "E", "E", "S", "W", "N"]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [
        (3, -2), (0, 0), (3, 1), (0, 0), (4, 0), (0, 3), (2, 1), (3, 1)]
    assert rep["finished"] and rep["winners"] == ["N", "S"]
    assert rep["extra"]["teams"] == {"NS": 15, "EW": 4}
