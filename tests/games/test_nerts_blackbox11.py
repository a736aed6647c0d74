"""Black-box Nerts tests, round 11: a sentence-by-sentence pass over ``rules/nerts.md`` §8 to §14
(scoring, the end of the game, jokers, partnerships, the options, what the camera sees, the rulings
and worked examples 2, 7, 9 and 10), refereed through ``kiosk replay --json`` from logs written from
the spec and ``docs/table-log.md`` alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox import _scored_hand


def _log(seats: list[str], events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": seats, "options": options}, *events]


def _fix(t: float, seat: str, hand: int, score: int) -> dict[str, Any]:
    return {"t": t, "type": "score_correction", "seat": seat, "hand": hand, "score": score}


def _ends(report: dict[str, Any]) -> list[tuple[str, str, str, list[str]]]:
    return [(r["t"], r["kind"], r["text"], r["seats"]) for r in report["rulings"]
            if r["kind"] in ("game_end", "tie_for_win")]


def test_a_win_a_correction_undid_leaves_one_game_end_when_a_later_hand_ends_the_game(
        tmp_path: Path) -> None:
    """§8.1 with docs/table-log.md (a correction "that undoes the win drops it"): hand 1 ends the game
    for Ana (12 to 8, target 10); a correction ties Ben with her, so the table plays on
    (``tie_break = play_on``) and hand 2 makes Ana the winner on 15. The game ended once: the report
    holds one ``game_end``, the one after hand 2, not the win the correction undid."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [12, 8]), _fix(10, "Ben", 1, 12), *_scored_hand(20, seats, [3, 1])]
    report = replay(tmp_path, _log(seats, events, target_score=10))
    assert (report["finished"], report["winners"]) == (True, ["Ana"])
    assert _ends(report) == [
        ("10", "tie_for_win", "Ana and Ben tie for the lead on 12: another hand", ["Ana", "Ben"]),
        ("23", "game_end", "game over: Ana wins with 15", ["Ana"]),
    ]


def test_a_correction_logged_between_the_call_and_hand_end_is_shown_before_the_hand_end(
        tmp_path: Path) -> None:
    """docs/table-log.md: a ``score_correction`` is "logged and shown as a correction ruling, in log
    order among the others". Logged after the call and before the ``hand_end`` that scores the hand, its
    ruling comes between the call and the hand's scores; the scores and the end of the game (§8.1)
    follow the corrected hand."""
    seats = ["Ana", "Ben"]
    events = [{"t": 0, "type": "hand_start"}, {"t": 1, "type": "call", "seat": "Ana"},
              {"t": 2, "type": "count", "seat": "Ana", "nerts": 0, "foundation": 8},
              {"t": 2, "type": "count", "seat": "Ben", "nerts": 0, "foundation": 9},
              _fix(3, "Ana", 1, 12), {"t": 4, "type": "hand_end"}]
    report = replay(tmp_path, _log(seats, events, target_score=10))
    kinds = [(r["t"], r["kind"]) for r in report["rulings"] if r["kind"] != "audit"]
    assert kinds == [("0", "hand_start"), ("1", "call"), ("3", "correction"), ("4", "hand_end"),
                     ("4", "game_end")]
    assert report["hands"] == [{"Ana": 12, "Ben": 9}]
    assert (report["finished"], report["winners"]) == (True, ["Ana"])
    # Logged after the last game event with no hand_end, the hand is scored at that event (the count),
    # and the correction follows that scoring, as it followed the count in the log; the end of the game
    # it brings is announced at its time (docs/table-log.md: "at the correction's time").
    stops = replay(tmp_path, _log(seats, events[:-1], target_score=10))
    assert [(r["t"], r["kind"]) for r in stops["rulings"] if r["kind"] != "audit"] == [
        ("0", "hand_start"), ("1", "call"), ("2", "hand_end"), ("3", "correction"), ("3", "game_end")]
    assert stops["hands"] == [{"Ana": 12, "Ben": 9}]


def test_an_ace_landing_with_an_undeclared_joker_that_started_the_pile_races_it(tmp_path: Path) -> None:
    """§6.1 with §9 and §12: an undeclared joker that starts a foundation is an Ace whose suit is still
    open. Ben's A♦ landing on that pile is legal against the same level (0), so it races the joker: 10 ms
    later it is an obvious tie and both stand (the A♦ shows the pile's suit, so a 2♦ builds on them and
    a 2♠ does not); 350 ms later Ana's joker was first and Ben takes his Ace back (a ``race`` ruling, not
    a wrong-rank ``illegal_play``); with ``tie_policy = first_only`` even 10 ms is a lost race."""
    seats = ["Ana", "Ben"]

    def run(gap: float, **options: Any) -> dict[str, Any]:
        events = [{"t": 0, "type": "hand_start"},
                  {"t": 4, "type": "foundation_play", "seat": "Ana", "card": "JOKER", "pile": "X"},
                  {"t": 4 + gap, "type": "foundation_play", "seat": "Ben", "card": "AD", "pile": "X"},
                  {"t": 6, "type": "foundation_play", "seat": "Ana", "card": "2S", "pile": "X"},
                  {"t": 7, "type": "foundation_play", "seat": "Ana", "card": "2D", "pile": "X"},
                  {"t": 8, "type": "call", "seat": "Ana", "nerts_left": 0},
                  {"t": 9, "type": "count", "seat": "Ben", "nerts": 13}, {"t": 10, "type": "hand_end"}]
        return replay(tmp_path, _log(seats, events, jokers=2, **options))

    def races(report: dict[str, Any]) -> list[tuple[str, str, str]]:
        return [(r["t"], r["kind"], r["text"]) for r in report["rulings"] if r["kind"] in ("tie", "race")]

    tie = run(0.01)
    assert races(tie) == [("4.01", "tie", "tie (10 ms): both stand")]
    assert [(x["t"], x["kind"]) for x in tie["infractions"]] == [("6", "illegal_play")]
    assert tie["extra"]["hands"][0]["foundation"] == {"Ana": 2, "Ben": 1}
    late = run(0.35)
    assert races(late) == [("4.35", "race", "Ana first by 350 ms: Ben, take back A♦")]
    assert late["extra"]["hands"][0]["foundation"]["Ben"] == 0
    first = run(0.01, tie_policy="first_only")
    assert races(first) == [("4.01", "race", "Ana first by 10 ms: Ben, take back A♦")]
    assert first["extra"]["hands"][0]["foundation"]["Ben"] == 0


def test_a_correction_that_changes_the_winner_changes_the_game_end_it_names(tmp_path: Path) -> None:
    """docs/table-log.md: a correction "that changes the winners changes the seats and text" of the
    ruling that ends the game. Hand 2 ends the game for Ana (102 to 80); a correction then gives Ben's
    hand 2 a 70, so Ben leads with 110 (§8.1: the highest total wins). The report holds one game_end,
    the one announced when hand 2 was scored, now naming Ben."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [50, 40]), *_scored_hand(10, seats, [52, 40]), _fix(14, "Ben", 2, 70)]
    report = replay(tmp_path, _log(seats, events))
    assert (report["finished"], report["winners"]) == (True, ["Ben"])
    assert _ends(report) == [("13", "game_end", "game over: Ben wins with 110", ["Ben"])]


def test_a_win_a_correction_undid_is_dropped_while_the_next_hand_is_in_play(tmp_path: Path) -> None:
    """docs/table-log.md (a correction "that undoes the win drops it") with §8.1: hand 1 takes Ana to 12
    and ends the game (target 10); a correction gives her 9, so no total has reached the target and
    hand 2 is dealt. While hand 2 is in play the game goes on: the report names no winner and holds
    no game_end."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [12, 8]), _fix(10, "Ana", 1, 9), {"t": 20, "type": "hand_start"},
              {"t": 21, "type": "foundation_play", "seat": "Ben", "card": "AS", "pile": "F1"}]
    report = replay(tmp_path, _log(seats, events, target_score=10))
    assert (report["finished"], report["winners"]) == (False, [])
    assert _ends(report) == []
    assert [r["kind"] for r in report["rulings"] if r["kind"] != "audit"] == [
        "hand_start", "call", "hand_end", "correction", "hand_start"]
    assert report["infractions"] == []


def test_a_hand_ended_without_a_call_or_stalemate_has_one_hand_end_ruling(tmp_path: Path) -> None:
    """docs/table-log.md: ``hand_end`` scores the hand (F − 2N per seat, §8), and the referee's
    ``hand_end`` ruling is the hand's scores. A hand the table ends with neither a call nor a stalemate
    is scored like any other, with one ``hand_end`` ruling carrying its scores (it also says how the
    hand stopped); ``extra.hands`` records it as ``stopped``."""
    seats = ["Ana", "Ben"]
    events = [{"t": 0, "type": "hand_start"},
              {"t": 1, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1", "from": "nerts"},
              {"t": 5, "type": "count", "seat": "Ana", "nerts": 10, "foundation": 3},
              {"t": 5, "type": "count", "seat": "Ben", "nerts": 13, "foundation": 0},
              {"t": 6, "type": "hand_end"}]
    report = replay(tmp_path, _log(seats, events))
    ends = [r for r in report["rulings"] if r["kind"] == "hand_end"]
    assert len(ends) == 1
    assert ends[0]["t"] == "6" and "Ana −17" in ends[0]["text"] and "Ben −26" in ends[0]["text"]
    assert report["hands"] == [{"Ana": -17, "Ben": -26}]
    assert report["extra"]["hands"][0]["end"] == "stopped"


def test_at_a_two_seat_table_a_seat_is_one_player_whatever_the_actor_names(tmp_path: Path) -> None:
    """§2 and §10: players may pair up only when there are six or more of them, so at a table of two
    seats each seat is one player, who moves one card at a time (§5 rule 1). Two cards of Ana's seat in
    flight at once break the one-hand rule even when the log names two actors; at a table of three seats
    the seat may be a partnership, one card in flight per partner."""
    def run(seats: list[str]) -> dict[str, Any]:
        events = [{"t": 0, "type": "hand_start"},
                  {"t": 2.0, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1",
                   "t_lift": 1.0, "actor": "Ana"},
                  {"t": 2.1, "type": "foundation_play", "seat": "Ana", "card": "AH", "pile": "F2",
                   "t_lift": 1.1, "actor": "Fay"}]
        return replay(tmp_path, _log(seats, events))

    two = run(["Ana", "Ben"])
    assert [(x["t"], x["kind"], x["seat"]) for x in two["infractions"]] == [("2.1", "one_hand", "Ana")]
    assert run(["Ana", "Ben", "Cal"])["infractions"] == []
