"""Eighth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): the state x event matrix under the
non-default options, two odd events in a row, and whole games with odd events in early hands,
checking the dealer rotation, the scores and the end of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.test_smear_blackbox import _replay
from tests.games.test_smear_blackbox3 import _plays
from tests.games.test_smear_blackbox5 import HAND_13_1, HAND_13_2, HAND_13_4
from tests.games.test_smear_blackbox7 import _kinds


def _deals(rep: dict[str, Any]) -> list[str]:
    return [r["seats"][0] for r in rep["rulings"] if r["kind"] == "deal"]


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
