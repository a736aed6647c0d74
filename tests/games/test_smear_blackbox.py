"""Black-box checks of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W; options spelt as in §11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

# §13.1, dealer N: NS bid 3 and make it, NS +3, EW +1.
HAND_13_1: list[dict[str, Any]] = [
    {"type": "deal", "seat": "N"},
    {"type": "pass", "seat": "E"}, {"type": "bid", "seat": "S", "bid": 3},
    {"type": "pass", "seat": "W"}, {"type": "pass", "seat": "N"},
    *({"type": "play", "seat": c[0], "card": c[2:]} for c in (
        "S:AH W:9H N:10H E:8H S:KH W:QH N:JH E:QS S:7H W:8S N:9C E:JD "
        "S:10S W:AS N:KS E:10D W:KD N:QD E:KC S:9D W:7C N:10C E:AC S:8C").split()),
]

# §13.3, dealer S: E bids 3 for EW and is set; NS wins Low, Jack and Game (EW -3, NS +3).
HAND_13_3: list[dict[str, Any]] = [
    {"type": "deal", "seat": "S"},
    {"type": "bid", "seat": "W", "bid": 2}, {"type": "pass", "seat": "N"},
    {"type": "bid", "seat": "E", "bid": 3}, {"type": "pass", "seat": "S"},
    *({"type": "play", "seat": c[0], "card": c[2:]} for c in (
        "E:AC S:7C W:10C N:8C E:10S S:7S W:AS N:QS W:KS N:JC E:8S S:10H "
        "N:AD E:QD S:9D W:8D N:KD E:9C S:QH W:JH E:KH S:AH W:9S N:10D").split()),
]

# §13.10, dealer W: N bids 2 and makes it, NS +2, EW +2.
HAND_13_10: list[dict[str, Any]] = [
    {"type": "deal", "seat": "W"},
    {"type": "bid", "seat": "N", "bid": 2}, {"type": "pass", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
    *({"type": "play", "seat": c[0], "card": c[2:]} for c in (
        "N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:KC "
        "S:8D W:7D N:AS E:10D N:QH E:10H S:KH W:10S W:JH N:KD E:AH S:10C").split()),
]


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "smear", "seats": ["N", "E", "S", "W"], "options": options}
    return replay(tmp_path, [header, *({"t": i + 1, **e} for i, e in enumerate(events))])


def _scores_before(ns: int, ew: int) -> list[dict[str, Any]]:
    """§13.9/§13.10 start from given scores: play §13.1 and correct its row to them."""
    return [*HAND_13_1,
            {"type": "score_correction", "seat": "N", "hand": 1, "score": ns},
            {"type": "score_correction", "seat": "E", "hand": 1, "score": ew}]


def test_13_9_cap_14_applies_to_the_corrected_score(tmp_path: Path) -> None:
    """§13.9, ``nonbidder_score_cap = 14``: NS 13, EW 12 before hand 13.3; NS gains 3 but is
    capped at max(13, min(16, 14)) = 14, so play continues."""
    rep = _replay(tmp_path, {"nonbidder_score_cap": 14}, [*_scores_before(13, 12), *HAND_13_3])
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (14, 9)
    assert rep["hands"][1]["N"] == 1 and rep["hands"][1]["S"] == 1
    assert not rep["finished"] and rep["winners"] == []


def test_13_9_cap_15_applies_to_the_corrected_score(tmp_path: Path) -> None:
    """§13.9, ``nonbidder_score_cap = 15``: NS reaches max(13, min(16, 15)) = 15 and wins 15 to 9."""
    rep = _replay(tmp_path, {"nonbidder_score_cap": 15}, [*_scores_before(13, 12), *HAND_13_3])
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (15, 9)
    assert rep["finished"] and rep["winners"] == ["N", "S"]


def test_13_10_cap_15_gives_the_bidding_team_the_win(tmp_path: Path) -> None:
    """§13.10, ``nonbidder_score_cap = 15``: NS 13, EW 14 before; EW is capped at 15, 15 to 15,
    and equal scores go to the bidding team NS."""
    rep = _replay(tmp_path, {"nonbidder_score_cap": 15}, [*_scores_before(13, 14), *HAND_13_10])
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (15, 15)
    assert rep["finished"] and rep["winners"] == ["N", "S"]


def test_a_correction_that_undoes_a_win_lets_the_game_go_on(tmp_path: Path) -> None:
    """§9 with docs/table-log.md ("the end of the game and its winners follow the corrected
    scores"): target 3, hand 13.1 gives NS 3 and ends the game; the table corrects NS's hand to
    0, so the game goes on and the next hand (13.3, NS +3, EW -3) is refereed and wins it."""
    rep = _replay(tmp_path, {"target_score": 3},
                  [*HAND_13_1, {"type": "score_correction", "seat": "S", "hand": 1, "score": 0}, *HAND_13_3])
    assert not [i for i in rep["infractions"] if i["kind"] == "after_game_over"]
    assert len(rep["hands"]) == 2
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (3, -2)
    assert rep["finished"] and rep["winners"] == ["N", "S"]


def test_11_nonbidder_score_cap_none_as_the_spec_spells_it(tmp_path: Path) -> None:
    """§11 lists ``nonbidder_score_cap`` values as "none, or an integer": the string ``"none"``
    (as well as JSON null) means no cap; §13.9 defaults: NS 13 + 3 = 16 wins."""
    for cap in ("none", None):
        rep = _replay(tmp_path, {"nonbidder_score_cap": cap}, [*_scores_before(13, 12), *HAND_13_3])
        assert (rep["totals"]["N"], rep["totals"]["E"]) == (16, 9)
        assert rep["winners"] == ["N", "S"]
