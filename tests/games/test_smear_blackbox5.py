"""Fifth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W; options spelt as in §11): the variant
options, the end of the game and unusual but legal logs (corrections, undo, misdeals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay


def _plays(record: str) -> list[dict[str, Any]]:
    return [{"type": "play", "seat": c[0], "card": c[2:]} for c in record.split()]


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "smear", "seats": ["N", "E", "S", "W"], "options": options}
    return replay(tmp_path, [header, *({"t": i + 1, **e} for i, e in enumerate(events))])


def _kinds(rep: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r for r in rep["rulings"] if r["kind"] == kind]


# §13.1, dealer N: S bids 3 for NS and makes it, NS +3, EW +1.
HAND_13_1: list[dict[str, Any]] = [
    {"type": "deal", "seat": "N"},
    {"type": "pass", "seat": "E"}, {"type": "bid", "seat": "S", "bid": 3},
    {"type": "pass", "seat": "W"}, {"type": "pass", "seat": "N"},
    *_plays("S:AH W:9H N:10H E:8H S:KH W:QH N:JH E:QS S:7H W:8S N:9C E:JD "
            "S:10S W:AS N:KS E:10D W:KD N:QD E:KC S:9D W:7C N:10C E:AC S:8C"),
]

# §13.2, dealer E (next after N): N bids 4 and takes all four Points, NS +4.
HAND_13_2: list[dict[str, Any]] = [
    {"type": "deal", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"}, {"type": "bid", "seat": "N", "bid": 4},
    *_plays("N:AS E:8S S:9S W:9D N:KS E:QS S:10S W:JC N:JS E:7C S:7H W:QH "
            "N:7S E:8C S:QD W:JD N:AD E:9H S:AC W:KD N:10D E:KH S:10C W:AH"),
]

# §13.6, dealer S, blind_cards = 3: N bids 3, discards 10C 10D 8H; NS +4 (all four Points).
HAND_13_6: list[dict[str, Any]] = [
    {"type": "deal", "seat": "S"},
    {"type": "pass", "seat": "W"}, {"type": "bid", "seat": "N", "bid": 3},
    {"type": "pass", "seat": "E"}, {"type": "pass", "seat": "S"},
    *_plays("N:AS E:JS S:10S W:7C N:KS E:8D S:9H W:7H N:QS E:QH S:JC W:JD "
            "N:9S E:KD S:QD W:QC N:7S E:AC S:KC W:JH N:9D E:AH S:10H W:AD"),
]

# §13.4, dealer W (next after S): N bids 2, NS +2, EW +1.
HAND_13_4: list[dict[str, Any]] = [
    {"type": "deal", "seat": "W"},
    {"type": "bid", "seat": "N", "bid": 2}, {"type": "pass", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
    *_plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:10S "
            "W:7D N:KD E:10D S:8D N:AS E:10H S:KH W:KC N:QH E:AH S:10C W:JH"),
]


def test_9_a_correction_that_lifts_a_team_to_the_target_is_announced_as_game_over(tmp_path: Path) -> None:
    """§9 and docs/table-log.md ("the end of the game and its winners follow the corrected
    scores"; "the ruling that ends the game is game_over"): hand 13.1 leaves NS 3, EW 1; the
    table corrects NS's hand to 15, so NS has reached 15 and wins. The report must carry the
    game_over ruling that ends the game, naming NS."""
    fix = {"type": "score_correction", "seat": "N", "hand": 1, "score": 15}
    rep = _replay(tmp_path, {}, [*HAND_13_1, fix])
    assert rep["finished"] and rep["winners"] == ["N", "S"]
    over = _kinds(rep, "game_over")
    assert len(over) == 1
    assert set(over[0]["seats"]) == {"N", "S"} and "15 to 1" in over[0]["text"]


def test_9_an_undo_after_a_correction_won_the_game_keeps_the_game_won(tmp_path: Path) -> None:
    """§9: a correction lifts NS to 15 after hand 13.1, ending the game 15 to 1. A stray deal
    after it is taken back with ``undo``; the game must still be over, so the hand dealt next
    (13.2) is ignored as after the game, not played and scored (NS would reach 19)."""
    rep = _replay(tmp_path, {}, [
        *HAND_13_1, {"type": "score_correction", "seat": "N", "hand": 1, "score": 15},
        {"type": "deal", "seat": "E"}, {"type": "undo"}, *HAND_13_2,
    ])
    assert rep["finished"] and rep["winners"] == ["N", "S"]
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (15, 1)
    assert len(rep["hands"]) == 1
    assert not _kinds(rep, "hand_end")[1:]
    ignored = [i for i in rep["infractions"] if i["kind"] == "after_game_over"]
    assert len(ignored) == len(HAND_13_2)


def test_9_the_deal_that_closes_a_winning_hand_starts_no_new_hand(tmp_path: Path) -> None:
    """§9 with docs/table-log.md (``missing_discards``: the next deal scores the hand without its
    discards; ``after_game_over``: events after the game was won are ignored): target 4,
    blind_cards 3; hand 13.6 is played but its discards are never shown, so W's deal scores it
    (NS +4) and NS wins 4 to 0. That deal and the whole hand after it are after the game: no
    hand 2 is dealt."""
    rep = _replay(tmp_path, {"blind_cards": 3, "target_score": 4}, [*HAND_13_6, *HAND_13_4])
    assert rep["finished"] and rep["winners"] == ["N", "S"]
    assert [r["text"] for r in _kinds(rep, "deal")] == ["hand 1: S deals"]
    ignored = [i for i in rep["infractions"] if i["kind"] == "after_game_over"]
    assert len(ignored) == len(HAND_13_4)
    assert [i["kind"] for i in rep["infractions"]].count("missing_discards") == 1


def test_undo_right_after_a_correction_takes_back_the_correction(tmp_path: Path) -> None:
    """docs/table-log.md: ``undo`` "takes back the last effective event (the kiosk's 'undo last
    ruling')", and a ``score_correction`` is "logged and shown as a ruling". After hand 13.1
    (NS 3, EW 1) the table corrects NS's hand to 15, which ends the game, then undoes it: the
    correction is taken back (not the last card of hand 13.1), so hand 13.1 stands as scored,
    NS 3, EW 1, and the game goes on."""
    fix = {"type": "score_correction", "seat": "N", "hand": 1, "score": 15}
    rep = _replay(tmp_path, {}, [*HAND_13_1, fix, {"type": "undo"}])
    assert rep["hands"] == [{"N": 3, "E": 1, "S": 3, "W": 1}]
    assert (rep["totals"]["N"], rep["totals"]["E"]) == (3, 1)
    assert len(_kinds(rep, "hand_end")) == 1
    assert not _kinds(rep, "correction") and not _kinds(rep, "game_over")
    assert not rep["finished"] and rep["winners"] == []


def test_a_hands_change_in_the_report_follows_the_corrected_score_sheet(tmp_path: Path) -> None:
    """§9 and docs/table-log.md (after a score_correction the later hands are settled on the
    corrected scores): hands 13.1 and 13.2 leave NS 7, EW 1; the table then corrects EW's hand 1
    to 13. With ``nonbidder_score_cap = 14`` hand 13.3 (EW set, NS +3) is settled on NS 7, EW 13.
    The report's per-hand ``change`` (extra.hands) must be the score sheet's rows, not the
    figures first posted."""
    rep = _replay(tmp_path, {"nonbidder_score_cap": 14}, [
        *HAND_13_1, *HAND_13_2, {"type": "score_correction", "seat": "E", "hand": 1, "score": 13},
        {"type": "deal", "seat": "S"},
        {"type": "bid", "seat": "W", "bid": 2}, {"type": "pass", "seat": "N"},
        {"type": "bid", "seat": "E", "bid": 3}, {"type": "pass", "seat": "S"},
        *_plays("E:AC S:7C W:10C N:8C E:10S S:7S W:AS N:QS W:KS N:JC E:8S S:10H "
                "N:AD E:QD S:9D W:8D N:KD E:9C S:QH W:JH E:KH S:AH W:9S N:10D"),
    ])
    rows = [(h["N"], h["E"]) for h in rep["hands"]]
    assert rows == [(3, 13), (4, 0), (3, -3)]
    assert [(h["change"]["NS"], h["change"]["EW"]) for h in rep["extra"]["hands"]] == rows
    assert rep["extra"]["teams"] == {"NS": 10, "EW": 10}
