"""Score corrections meeting the end of the game, in every game (docs/table-log.md, "Events of
every game": the end of the game, its winners and the ruling that ends it follow the corrected
scores; a correction that ends the game adds that ruling, one that changes the winners changes
the seats and text it names, one that undoes the win drops it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.games.referee import RefereeReport
from tests.games.replay_logs import ROOT, replay_in_process

END_KIND = {"nerts": "game_end", "kierki": "match_end", "smear": "game_over", "rummy_3_13": "game_end",
            "gnoming": "game_end"}


def _example(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's example log: its header and its events."""
    text = (ROOT / "examples" / f"{game}_example.jsonl").read_text()
    lines = [json.loads(x) for x in text.splitlines() if x.strip() and not x.startswith("#")]
    return lines[0], lines[1:]


def _fix(t: float, seat: str, hand: int, score: int) -> dict[str, Any]:
    return {"t": t, "type": "score_correction", "seat": seat, "hand": hand, "score": score}


def _ends(report: RefereeReport) -> list[Any]:
    return [r for r in report.rulings if r.kind == END_KIND[report.game]]


def _smear(target: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], list[int]]:
    """The Smear example (Ana & Cal win 16 to -1 in hand 6), optionally to another target, and the
    index of each `deal` event."""
    header, events = _example("smear")
    if target is not None:
        header = {**header, "options": {**header["options"], "target_score": target}}
    return header, events, [i for i, e in enumerate(events) if e["type"] == "deal"]


# -- Smear (rules/smear.md §9) ------------------------------------------------------------------

def test_smear_correction_changing_the_winners_after_game_over_keeps_one_game_over(tmp_path: Path) -> None:
    # Ben & Dee corrected to 17 in hand 6 (both teams past 15, the higher score wins, §9): the
    # game_over already announced names Ben & Dee; no second game_over.
    header, events, _ = _smear()
    rep = replay_in_process(tmp_path / "log.jsonl", header, [*events, _fix(events[-1]["t"], "Ben", 6, 18)])
    assert rep.finished and rep.winners == ["Ben", "Dee"]
    ends = _ends(rep)
    assert len(ends) == 1
    assert ends[0].seats == ("Ben", "Dee") and "Ben & Dee win, 17 to 16" in ends[0].text


def test_smear_win_undone_by_a_correction_then_won_by_a_later_hand_ends_once(tmp_path: Path) -> None:
    # To 10, Ana & Cal win in hand 3; a correction takes back their hand-3 points (7, the game goes
    # on), and hand 6 brings them to 13: the game ends there, the hand-3 game_over is dropped.
    header, events, deals = _smear(10)
    d4 = deals[3]
    log = [*events[:d4], _fix(events[d4 - 1]["t"], "Ana", 3, 0), *events[d4:]]
    rep = replay_in_process(tmp_path / "log.jsonl", header, log)
    assert rep.finished and rep.winners == ["Ana", "Cal"] and rep.totals["Ana"] == 13
    ends = _ends(rep)
    assert len(ends) == 1 and ends[0].t_ns == int(events[-1]["t"] * 1e9)


def test_smear_win_undone_then_restored_by_two_corrections_ends_once(tmp_path: Path) -> None:
    header, events, deals = _smear(10)
    d4 = deals[3]
    t = events[d4 - 1]["t"]
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d4], _fix(t, "Ana", 3, 0), _fix(t, "Ana", 3, 3), *events[d4:]])
    assert rep.finished and rep.winners == ["Ana", "Cal"] and rep.totals["Ana"] == 10
    assert len(_ends(rep)) == 1


def test_smear_correction_naming_the_next_hand_ends_the_game_when_that_hand_is_scored(tmp_path: Path) -> None:
    # Logged after hand 2 (Ana & Cal 7), a correction gives Ana & Cal 10 for hand 3: once hand 3 is
    # scored they have 17 (Ben & Dee, set, -2), so §9 ends the game there; hand 4 is after the end.
    header, events, deals = _smear()
    d3, d4 = deals[2], deals[3]
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d3], _fix(events[d3 - 1]["t"], "Ana", 3, 10), *events[d3:]])
    assert rep.finished and rep.winners == ["Ana", "Cal"]
    assert len(rep.hands) == 3 and rep.totals == {"Ana": 17, "Ben": -2, "Cal": 17, "Dee": -2}
    ends = _ends(rep)
    assert len(ends) == 1 and ends[0].t_ns == int(events[d4 - 1]["t"] * 1e9)
    assert "Ana & Cal win, 17 to -2" in ends[0].text


def test_smear_correction_naming_a_passed_out_hand_ends_the_game_with_that_hand(tmp_path: Path) -> None:
    # Hand 5 of the example is passed out (a row of 0). A correction logged before it gives Ana & Cal
    # 10 for it: after the all-pass they have 22, so the game ends there and hand 6 is after the end.
    header, events, deals = _smear()
    d5, d6 = deals[4], deals[5]
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d5], _fix(events[d5 - 1]["t"], "Ana", 5, 10), *events[d5:]])
    assert rep.finished and rep.winners == ["Ana", "Cal"]
    assert len(rep.hands) == 5 and rep.totals["Ana"] == 22
    ends = _ends(rep)
    assert len(ends) == 1 and ends[0].t_ns < int(events[d6]["t"] * 1e9)
    assert any(i.kind == "after_game_over" for i in rep.infractions)


def test_smear_correction_naming_an_unfinished_hand_ends_the_game_when_the_next_deal_closes_it(
        tmp_path: Path) -> None:
    # Hand 3 stops after a few cards and the next deal closes it, not scored (incomplete_hand). The
    # correction logged before it gives Ana & Cal 10 for it: 17, so that deal comes after the game.
    header, events, deals = _smear()
    d3, d4 = deals[2], deals[3]
    log = [*events[:d3], _fix(events[d3 - 1]["t"], "Ana", 3, 10), *events[d3:d3 + 12], *events[d4:]]
    rep = replay_in_process(tmp_path / "log.jsonl", header, log)
    assert rep.finished and rep.winners == ["Ana", "Cal"]
    assert len(rep.hands) == 3 and rep.totals["Ana"] == 17
    assert len(_ends(rep)) == 1
    assert [i.kind for i in rep.infractions if i.t_ns == int(events[d4]["t"] * 1e9)][-1] == "after_game_over"


# -- Kierki (rules/kierki.md §10, §11) -----------------------------------------------------------

def test_kierki_correction_after_the_end_stays_in_log_order_when_the_last_deal_is_discarded(
        tmp_path: Path) -> None:
    # Under revoke_policy = replay_deal, E's reveal of QD proves E passed while QD fitted: deal 12
    # is discarded and its match_end taken back. The correction logged before that reveal is still
    # shown before the reveal's rulings.
    header, events = _example("kierki")
    header = {**header, "options": {"revoke_policy": "replay_deal"}}
    log = [*events[:-2], _fix(1001.25, "S", 3, 5),
           {"t": 1002.5, "type": "reveal", "seat": "E", "cards": ["QD"]}, events[-1]]
    rep = replay_in_process(tmp_path / "log.jsonl", header, log)
    assert not rep.finished and not _ends(rep)
    kinds = [r.kind for r in rep.rulings]
    assert kinds.index("correction") < kinds.index("replay_deal")
    assert [r.t_ns for r in rep.rulings] == sorted(r.t_ns for r in rep.rulings)


# -- A correction naming a hand the table never scored (every game) ------------------------------
# docs/table-log.md: a score_correction "replaces a seat's score for one hand". A hand the table
# never scored (the log stops first, the hand is still in play, or the game ended before it) has no
# score to replace: the report adds no row for it, its totals and winners come from the hands
# played, and the correction takes effect once that hand is scored, if it ever is.

def test_kierki_correction_for_a_deal_after_the_last_adds_no_deal(tmp_path: Path) -> None:
    # kierki.md §10: the match is 12 deals; W wins on +310. A correction for "deal 13", logged
    # during deal 5, names no deal of the match: the match_end standings, the report's 12 rows,
    # its totals and its winner are the match's own (S stays last on -210).
    header, events = _example("kierki")
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    d5 = deals[4]
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d5 + 1], _fix(events[d5]["t"], "S", 13, 1000), *events[d5 + 1:]])
    assert len(rep.hands) == 12
    assert rep.totals == {"N": -165, "E": 65, "S": -210, "W": 310}
    assert rep.finished and rep.winners == ["W"]
    assert [r.text for r in _ends(rep)] == ["match over: 1. W (+310), 2. E (+65), 3. N (-165), 4. S (-210)"]
    assert rep.extra["standings"][0] == {"place": 1, "seat": "W", "score": 310}


def test_kierki_correction_for_a_deal_not_yet_scored_applies_once_it_is(tmp_path: Path) -> None:
    # The log stops during deal 5 with a correction for deal 5 (and one for deal 7): the report
    # holds the 4 deals scored and their totals. In the whole match, the same correction logged
    # during deal 2 replaces S's deal 5 score (0, §14) once deal 5 is scored: S ends on +790 and
    # wins (§10), as the match_end standings announce.
    header, events = _example("kierki")
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    d2, d5 = deals[1], deals[4]
    whole = replay_in_process(tmp_path / "whole.jsonl", header, events)
    four = replay_in_process(tmp_path / "four.jsonl", header, events[:d5 + 5])
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d5 + 5], _fix(events[d5 + 4]["t"], "S", 5, 1000),
                             _fix(events[d5 + 4]["t"], "N", 7, 1000)])
    assert rep.hands == four.hands and len(rep.hands) == 4
    assert rep.totals == four.totals and not rep.finished
    assert whole.hands[4]["S"] == 0
    rep = replay_in_process(tmp_path / "early.jsonl", header,
                            [*events[:d2 + 1], _fix(events[d2]["t"], "S", 5, 1000), *events[d2 + 1:]])
    assert rep.hands[4]["S"] == 1000 and rep.totals["S"] == 790
    assert rep.finished and rep.winners == ["S"]
    assert _ends(rep)[0].text.startswith("match over: 1. S (+790)")


def test_smear_correction_for_a_hand_never_played_does_not_end_the_game(tmp_path: Path) -> None:
    # smear.md §9: the log stops after hand 2 (Ana & Cal 7, Ben & Dee 1, to 15). A correction
    # gives Ana 20 for hand 3, which is never dealt: no hand 3 row, no win from it.
    header, events, deals = _smear()
    d3 = deals[2]
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:d3], _fix(events[d3 - 1]["t"], "Ana", 3, 20)])
    assert len(rep.hands) == 2
    assert rep.totals == {"Ana": 7, "Ben": 1, "Cal": 7, "Dee": 1}
    assert not rep.finished and rep.winners == [] and not _ends(rep)


def test_smear_correction_for_a_hand_after_the_game_leaves_the_winners_on_top(tmp_path: Path) -> None:
    # Ana & Cal win 16 to -1 in hand 6 (§9); a correction then names hand 7, never dealt: the
    # report's six hands and totals stand, and the winners hold the highest total.
    header, events, _ = _smear()
    rep = replay_in_process(tmp_path / "log.jsonl", header, [*events, _fix(events[-1]["t"], "Ben", 7, 30)])
    assert len(rep.hands) == 6
    assert rep.totals == {"Ana": 16, "Ben": -1, "Cal": 16, "Dee": -1}
    assert rep.finished and rep.winners == ["Ana", "Cal"]
    assert [r.text for r in _ends(rep)] == ["Ana & Cal win, 16 to -1"]


def test_rummy_correction_for_a_hand_after_the_last_does_not_change_the_winners(tmp_path: Path) -> None:
    # rummy_3_13.md §7: the game is the two hands of `hands` ([3, 4]); Ana and Ben share the win
    # on 0. A correction for hand 3 (Cal -100) names no hand of the game.
    header, events = _example("rummy_3_13")
    rep = replay_in_process(tmp_path / "log.jsonl", header, [*events, _fix(events[-1]["t"], "Cal", 3, -100)])
    assert len(rep.hands) == 2
    assert rep.totals == {"Ana": 0, "Ben": 0, "Cal": 23, "Dee": 34}
    assert rep.finished and rep.winners == ["Ana", "Ben"]
    assert [r.text for r in _ends(rep)] == ["game over: Ana and Ben share the win"]


def test_rummy_correction_logged_before_its_hand_applies_once_it_is_scored(tmp_path: Path) -> None:
    # The log stops after hand 1 with a correction for hand 2 (Dee 0): hand 2 has no row yet. In
    # the whole game the same correction replaces Dee's hand 2 score once hand 2 is scored.
    header, events = _example("rummy_3_13")
    starts = [i for i, e in enumerate(events) if e["type"] == "hand_start"]
    h2 = starts[1]
    one = replay_in_process(tmp_path / "one.jsonl", header, events[:h2])
    fix = _fix(events[h2 - 1]["t"], "Dee", 2, 0)
    rep = replay_in_process(tmp_path / "log.jsonl", header, [*events[:h2], fix])
    assert rep.hands == one.hands and len(rep.hands) == 1 and rep.totals == one.totals
    # Its ruling says so, rather than "0 -> 0" for a score that does not exist yet.
    (text,) = [r.text for r in rep.rulings if r.kind == "correction"]
    assert text == "score corrected: Dee, hand 2: 0 (hand 2 not scored yet: it applies once it is)"
    rep = replay_in_process(tmp_path / "whole.jsonl", header, [*events[:h2], fix, *events[h2:]])
    assert len(rep.hands) == 2 and rep.hands[1]["Dee"] == 0 and rep.totals["Dee"] == rep.hands[0]["Dee"]
    (text,) = [r.text for r in rep.rulings if r.kind == "correction"]
    assert text.startswith("score corrected: Dee, hand 2: ") and " -> 0" in text


def test_gnoming_correction_for_a_round_after_the_last_does_not_change_the_winner(tmp_path: Path) -> None:
    # gnoming.md §7: three rounds; Maria wins with the lowest total, 2. A correction for round 4
    # (Maria 100) names no round of the game.
    header, events = _example("gnoming")
    rep = replay_in_process(tmp_path / "log.jsonl", header, [*events, _fix(events[-1]["t"], "Maria", 4, 100)])
    assert len(rep.hands) == 3
    assert rep.totals == {"Maria": 2, "Ben": 29, "Cal": 76}
    assert rep.finished and rep.winners == ["Maria"]
    assert [r.text for r in _ends(rep)] == ["game over: Maria wins"]


def test_gnoming_correction_for_a_round_not_yet_played_adds_no_round(tmp_path: Path) -> None:
    # The log stops after round 2 with a correction for round 3: the report holds two rounds.
    header, events = _example("gnoming")
    starts = [i for i, e in enumerate(events) if e["type"] == "round_start"]
    r3 = starts[2]
    two = replay_in_process(tmp_path / "two.jsonl", header, events[:r3])
    rep = replay_in_process(tmp_path / "log.jsonl", header,
                            [*events[:r3], _fix(events[r3 - 1]["t"], "Maria", 3, 100)])
    assert rep.hands == two.hands and len(rep.hands) == 2
    assert rep.totals == two.totals and not rep.finished
