"""Seventh black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): each game state met with each event
type, odd ones included (an event of the previous hand arriving late, a stray deal), then legal
play to the end of the hand and beyond."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.test_smear_blackbox import _replay
from tests.games.test_smear_blackbox3 import _plays


def _kinds(rep: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(i["kind"], i["seat"]) for i in rep["infractions"]]


# §13.4, dealer W: N bids 2 and leads 7S (trump spades); NS +2, EW +1.
# Unseen blind: 9S 8S 9H 8H 7H 9C 8C 7C (0 card points).
HAND_13_4: list[dict[str, Any]] = [
    {"type": "deal", "seat": "W"},
    {"type": "bid", "seat": "N", "bid": 2}, {"type": "pass", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
    *_plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:10S "
            "W:7D N:KD E:10D S:8D N:AS E:10H S:KH W:KC N:QH E:AH S:10C W:JH"),
]
BLIND_13_4 = {"type": "blind", "cards": ["9S", "8S", "9H", "8H", "7H", "9C", "8C", "7C"]}

# §13.1, dealt by N (due after W's hand): S bids 3 and leads AH; NS +3, EW +1.
# Unseen blind: AD 9S 7S JS 8D 7D QC JC (8 card points).
HAND_13_1: list[dict[str, Any]] = [
    {"type": "deal", "seat": "N"},
    {"type": "pass", "seat": "E"}, {"type": "bid", "seat": "S", "bid": 3},
    {"type": "pass", "seat": "W"}, {"type": "pass", "seat": "N"},
    *_plays("S:AH W:9H N:10H E:8H S:KH W:QH N:JH E:QS S:7H W:8S N:9C E:JD "
            "S:10S W:AS N:KS E:10D W:KD N:QD E:KC S:9D W:7C N:10C E:AC S:8C"),
]
BLIND_13_1 = {"type": "blind", "cards": ["AD", "9S", "7S", "JS", "8D", "7D", "QC", "JC"]}


def test_12_5_the_last_hands_blind_turned_up_after_the_next_deal_is_that_hands(tmp_path: Path) -> None:
    # The table turns up hand 1's unseen blind (§12.2, optional) only after N has dealt hand 2.
    # Nothing of hand 2 has been seen yet, and hand 2's own unseen blind can only be turned up
    # after hand 2 (docs/table-log.md, blind): these cards are hand 1's. They are not hand 2's
    # blind, so hand 2's cards are not "seen twice" and its card points are not short of 80.
    rep = _replay(tmp_path, {}, [*HAND_13_4, HAND_13_1[0], BLIND_13_4, *HAND_13_1[1:], BLIND_13_1])
    assert _kinds(rep) == []
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1), (3, 1)]


def test_12_5_a_late_blind_is_checked_against_the_hand_it_belongs_to(tmp_path: Path) -> None:
    # The same late showing, but one card short: hand 1's blind holds 8 cards (§4.3).
    short = {"type": "blind", "cards": ["9S", "8S", "9H", "8H", "7H", "9C", "8C"]}
    rep = _replay(tmp_path, {}, [*HAND_13_4, HAND_13_1[0], short, *HAND_13_1[1:]])
    assert [k for k, _ in _kinds(rep)] == ["wrong_count"]
    assert "hand 1" in rep["infractions"][0]["text"]


def test_12_5_a_blind_shown_early_in_a_hand_is_still_that_hands(tmp_path: Path) -> None:
    # Hand 2's unseen blind turned up before its first card: it shares cards with hand 1's
    # tricks, so it cannot be hand 1's; it is hand 2's, and hand 2 adds up to 80 with it.
    rep = _replay(tmp_path, {}, [*HAND_13_4, *HAND_13_1[:5], BLIND_13_1, *HAND_13_1[5:]])
    assert _kinds(rep) == []


def test_4_5_a_stray_deal_by_the_wrong_seat_does_not_move_the_deal(tmp_path: Path) -> None:
    # After W's hand is scored N is due (§4.5). W's deal is logged again by mistake, then N
    # deals and the hand is played. W's stray deal is flagged and ends unplayed; it is not a
    # completed hand, so the deal does not pass from it: N is still the seat due.
    rep = _replay(tmp_path, {}, [*HAND_13_4, {"type": "deal", "seat": "W"}, *HAND_13_1])
    assert _kinds(rep) == [("wrong_dealer", "W"), ("incomplete_hand", "N")]
    assert rep["extra"]["teams"] == {"NS": 5, "EW": 2}


def test_5_3_after_an_all_pass_a_wrong_seats_deal_leaves_the_same_dealer_due(tmp_path: Path) -> None:
    # W deals, everybody passes: W deals again (§5.3 default). E deals by mistake and the
    # table has W deal: only E's deal is wrong.
    all_pass = [{"type": "deal", "seat": "W"}, *({"type": "pass", "seat": s} for s in "NESW")]
    rep = _replay(tmp_path, {}, [*all_pass, {"type": "deal", "seat": "E"}, *HAND_13_4, *HAND_13_1])
    assert _kinds(rep) == [("wrong_dealer", "E"), ("incomplete_hand", "W")]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(0, 0), (0, 0), (2, 1), (3, 1)]


def test_9_a_correction_of_the_hand_in_play_ends_the_game_when_that_hand_ends(tmp_path: Path) -> None:
    # During hand 2 the table corrects E's score for hand 2 (the hand being played) to 20.
    # The end of the game follows the corrected scores (docs/table-log.md), judged after each
    # hand (§9): EW win when hand 2 is scored, not at the correction while hand 2 is still
    # being played (its remaining cards are refereed, not "after the game").
    events = [*HAND_13_4, *HAND_13_1[:9], {"type": "score_correction", "seat": "E", "hand": 2, "score": 20},
              *HAND_13_1[9:]]
    rep = _replay(tmp_path, {}, events)
    assert _kinds(rep) == []
    assert rep["finished"] and rep["winners"] == ["E", "W"]
    assert rep["extra"]["teams"] == {"NS": 5, "EW": 21}
    scoring = ("correction", "hand_end", "game_over")
    kinds = [(r["kind"], r["t"]) for r in rep["rulings"] if r["kind"] in scoring]
    last = str(len(events))
    assert kinds == [("hand_end", "29"), ("correction", "39"), ("hand_end", last), ("game_over", last)]


def test_7_1_a_wrong_announcement_before_the_lead_names_the_seat_that_announced(tmp_path: Path) -> None:
    # S announces hearts after the auction; N, the bidder, leads 7S: trump is spades (§7.1).
    # The wrong announcement is S's, as it is when the announcement comes after the lead.
    before = _replay(tmp_path, {}, [*HAND_13_4[:5], {"type": "trump", "seat": "S", "suit": "H"},
                                    *HAND_13_4[5:]])
    after = _replay(tmp_path, {}, [*HAND_13_4[:6], {"type": "trump", "seat": "S", "suit": "H"},
                                   *HAND_13_4[6:]])
    assert _kinds(before) == _kinds(after) == [("trump_mismatch", "S")]
    # Without a seat the announcement is taken as the bidder's, who leads.
    unnamed = _replay(tmp_path, {}, [*HAND_13_4[:5], {"type": "trump", "suit": "H"}, *HAND_13_4[5:]])
    assert _kinds(unnamed) == [("trump_mismatch", "N")]
