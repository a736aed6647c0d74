"""Ninth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): the worked examples of §13, each
varied by one fact (a card, a seat, an option, an event logged twice, the next hand)."""

from __future__ import annotations

from pathlib import Path

from tests.games.test_smear_blackbox import _replay
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
