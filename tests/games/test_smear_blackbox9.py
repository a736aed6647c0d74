"""Ninth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): the worked examples of §13, each
varied by one fact (a card, a seat, an option, an event logged twice, the next hand)."""

from __future__ import annotations

from pathlib import Path

from tests.games.test_smear_blackbox import HAND_13_10, _replay, _scores_before
from tests.games.test_smear_blackbox5 import HAND_13_1, HAND_13_4
from tests.games.test_smear_blackbox7 import _kinds


def test_12_3_a_play_logged_twice_by_the_trick_winner_is_not_its_next_lead(tmp_path: Path) -> None:
    # §13.4, trick 2: N plays AD last and wins, so N leads trick 3. The camera logs N's AD
    # twice. Hands only shrink (§12.3): N cannot play AD again, so the second AD is no lead
    # of trick 3 (it is seen twice and ignored); N's JC leads trick 3 and the hand is scored
    # as played (NS +2, EW +1), with no revoke and no card-point misread.
    ad = next(i for i, e in enumerate(HAND_13_4) if e.get("card") == "AD")
    rep = _replay(tmp_path, {}, [*HAND_13_4[:ad + 1], HAND_13_4[ad], *HAND_13_4[ad + 1:], *HAND_13_1])
    assert _kinds(rep) == [("seen_twice", "N")]
    assert [(h["N"], h["E"]) for h in rep["hands"]] == [(2, 1), (3, 1)]
    assert rep["extra"]["hands"][0]["card_points"] == {"NS": 40, "EW": 40}


def test_5_3_redeal_next_dealer_names_the_next_dealer_without_again(tmp_path: Path) -> None:
    # §13.11 under all_pass = redeal_next_dealer: N deals, all four pass, "E deals the next
    # hand". E has not dealt yet, so the ruling must not say E deals "again"; E's deal is due.
    rep = _replay(tmp_path, {"all_pass": "redeal_next_dealer"}, [
        {"type": "deal", "seat": "N"}, *({"type": "pass", "seat": s} for s in "ESWN"),
        {"type": "deal", "seat": "E"}])
    passed = [r for r in rep["rulings"] if r["kind"] == "all_passed"]
    assert len(passed) == 1 and passed[0]["seats"] == ["E"]
    assert "E deals" in passed[0]["text"] and "again" not in passed[0]["text"]
    assert _kinds(rep) == []


def test_11_the_hand_end_ruling_announces_the_capped_change(tmp_path: Path) -> None:
    # §13.10 with nonbidder_score_cap = 15: NS 13, EW 14 before; EW wins 2 Points but its score
    # becomes max(14, min(16, 15)) = 15, so the hand's change on the sheet is EW +1 (§11), and
    # the hand_end ruling must announce that change and the score it leads to, not +2.
    rep = _replay(tmp_path, {"nonbidder_score_cap": 15}, [*_scores_before(13, 14), *HAND_13_10])
    end = [r["text"] for r in rep["rulings"] if r["kind"] == "hand_end"][-1]
    assert "NS +2, EW +1" in end and "score NS 15, EW 15" in end
    assert rep["extra"]["hands"][-1]["change"] == {"NS": 2, "EW": 1}
    assert rep["winners"] == ["N", "S"]
