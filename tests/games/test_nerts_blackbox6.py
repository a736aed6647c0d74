"""Black-box Nerts tests, round 6: the timing and scoring core of ``rules/nerts.md`` (§4 the Go,
§6.1 races, §7 the call and the stalemate cycle, §8 scoring and the end of the game), with table
logs written from the spec and ``docs/table-log.md`` alone and refereed through ``kiosk replay
--json`` as an outsider would run it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox import _scored_hand


def _log(seats: list[str], events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    return [{"table_log": 1, "game": "nerts", "seats": seats, "options": options}, *events]




def _kinds(report: dict[str, Any], key: str = "infractions") -> list[str]:
    return [x["kind"] for x in report[key]]


def test_a_correction_that_undoes_a_win_lets_the_game_go_on(tmp_path: Path) -> None:
    """§8.1 with docs/table-log.md ("the end of the game and its winners follow the corrected
    scores"): hand 2 takes Ana to 102 and ends the game; the table then corrects her hand 2 to 30,
    so no total has reached 100, and the next hand is played and scored, not ignored as after the
    game. Ana's 80 + 20 = 100 then ends it."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [50, 40]), *_scored_hand(10, seats, [52, 40]),
              {"t": 14, "type": "score_correction", "seat": "Ana", "hand": 2, "score": 30},
              *_scored_hand(20, seats, [20, 10])]
    report = replay(tmp_path, _log(seats, events))
    assert "after_game" not in _kinds(report) and "no_hand" not in _kinds(report)
    assert report["hands"] == [{"Ana": 50, "Ben": 40}, {"Ana": 30, "Ben": 40}, {"Ana": 20, "Ben": 10}]
    assert report["totals"] == {"Ana": 100, "Ben": 90}
    assert report["finished"] is True and report["winners"] == ["Ana"]


def test_a_correction_between_hands_that_ends_the_game_makes_the_next_hand_after_the_game(
        tmp_path: Path) -> None:
    """§8.1: the game ends after the hand in which a (corrected) total reaches the target. Hand 1 is
    corrected to Ana 100 before the next Go, so no further hand is played: the next hand's events
    are after the game, and the report holds hand 1 alone."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [50, 40]),
              {"t": 4, "type": "score_correction", "seat": "Ana", "hand": 1, "score": 100},
              *_scored_hand(10, seats, [5, 40])]
    report = replay(tmp_path, _log(seats, events))
    assert "after_game" in _kinds(report)
    assert report["hands"] == [{"Ana": 100, "Ben": 40}]
    assert report["finished"] is True and report["winners"] == ["Ana"]


def test_undo_after_a_score_correction_takes_back_the_correction(tmp_path: Path) -> None:
    """docs/table-log.md: ``undo`` takes back the last effective event (the kiosk's "undo last
    ruling"), and a ``score_correction`` is logged and shown as a ruling. An undo right after a
    correction therefore takes back the correction, not the hand_end before it: hand 1 stays
    scored as counted (Ana 50, Ben 40) and is not reopened."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [50, 40]),
              {"t": 4, "type": "score_correction", "seat": "Ana", "hand": 1, "score": 30},
              {"t": 5, "type": "undo"}]
    report = replay(tmp_path, _log(seats, events))
    assert report["hands"] == [{"Ana": 50, "Ben": 40}]
    assert [r["kind"] for r in report["rulings"]].count("hand_end") == 1
    assert "correction" not in _kinds(report, "rulings")


def _hearts_to_4(seat: str) -> list[dict[str, Any]]:
    """Go, then ``seat`` builds a ♥ pile F1 up to level 4 (1 s apart)."""
    return [{"t": 0, "type": "hand_start"},
            *[{"t": i + 1, "type": "foundation_play", "seat": seat, "card": c, "pile": "F1"}
              for i, c in enumerate(["AH", "2H", "3H", "4H"])]]


def test_a_refused_card_put_back_after_the_call_is_its_return_not_a_move_after_the_call(
        tmp_path: Path) -> None:
    """§6.1 (a card that lost the race must be put back where it came from) with §7.1 (a card in the
    air at the call may land; no move may *start* after it): Cal's 5♥, lifted before Ana's call,
    lands after it and loses the race to Ben's. Cal puts it back on his waste after the call, as he
    must: that return is no after_call breach, and nothing asks him to take it back again."""
    seats = ["Ana", "Ben", "Cal"]
    events = [*_hearts_to_4("Ana"),
              {"t": 12.0, "type": "foundation_play", "seat": "Ben", "card": "5H", "pile": "F1"},
              {"t": 12.2, "type": "call", "seat": "Ana"},
              {"t": 12.4, "type": "foundation_play", "seat": "Cal", "card": "5H", "pile": "F1",
               "from": "waste", "t_lift": 12.1},
              {"t": 13.0, "type": "move", "seat": "Cal", "card": "5H", "from": "F1", "to": "waste",
               "t_lift": 12.9}]
    report = replay(tmp_path, _log(seats, events))
    assert "race" in _kinds(report, "rulings")
    assert report["infractions"] == []
    # The same return after a stalemate is no after_hand breach either.
    events = [*_hearts_to_4("Ana"),
              {"t": 12.0, "type": "foundation_play", "seat": "Ben", "card": "5H", "pile": "F1"},
              {"t": 12.4, "type": "foundation_play", "seat": "Cal", "card": "5H", "pile": "F1",
               "from": "waste"},
              *[{"t": 20 + i, "type": "stuck", "seat": s} for i, s in enumerate(seats * 2)],
              {"t": 30.0, "type": "move", "seat": "Cal", "card": "5H", "from": "F1", "to": "waste",
               "t_lift": 29.5}]
    report = replay(tmp_path, _log(seats, events))
    assert "stalemate" in _kinds(report, "rulings")
    assert report["infractions"] == []


def test_a_card_lifted_after_the_call_may_be_put_back_from_the_pile(tmp_path: Path) -> None:
    """§7.1: a card lifted after the call must be put back and does not count. Cal does put his 5♥
    back on his waste: that is no card taken off a foundation (from_foundation), only the after_call
    breach of the play itself stands."""
    seats = ["Ana", "Ben", "Cal"]
    events = [*_hearts_to_4("Ana"), {"t": 12.2, "type": "call", "seat": "Ana"},
              {"t": 12.4, "type": "foundation_play", "seat": "Cal", "card": "5H", "pile": "F1",
               "from": "waste", "t_lift": 12.3},
              {"t": 13.0, "type": "move", "seat": "Cal", "card": "5H", "from": "F1", "to": "waste"}]
    report = replay(tmp_path, _log(seats, events))
    assert _kinds(report) == ["after_call"]


def test_a_card_refused_on_a_new_pile_id_may_be_put_back(tmp_path: Path) -> None:
    """§6 M3 (only an Ace starts a pile) and §6.1 (an illegal card goes back to exactly where it came
    from): Cal's 5♥ lands on a fresh foundation spot F9 and is refused; he puts it back from F9 to his
    waste. The return names the spot the camera gave, which holds no pile: it is the card's return,
    refereed, not a malformed log. The same holds for Ben's A♥ lifted before the Go (§4)."""
    seats = ["Ana", "Ben", "Cal"]
    events = [{"t": 10, "type": "hand_start"},
              {"t": 10.4, "type": "foundation_play", "seat": "Ben", "card": "AH", "pile": "F2",
               "from": "waste", "t_lift": 9.9},
              {"t": 11.0, "type": "move", "seat": "Ben", "card": "AH", "from": "F2", "to": "waste"},
              {"t": 12.0, "type": "foundation_play", "seat": "Cal", "card": "5H", "pile": "F9",
               "from": "waste"},
              {"t": 13.0, "type": "move", "seat": "Cal", "card": "5H", "from": "F9", "to": "waste"}]
    report = replay(tmp_path, _log(seats, events))
    assert _kinds(report) == ["after_hand", "illegal_play"]


def test_an_undo_judges_the_events_again_with_the_corrections_in_their_places(tmp_path: Path) -> None:
    """docs/table-log.md: an undo takes back only the last effective event. Hands 1 and 2 are played;
    only then does the table correct Ana's hand 1 to 100 (the game ended after hand 1, §8.1), and a
    stray Go after it is undone. Hand 2 was played before the correction, so it stays in the report
    as it was; the undone Go leaves no after_game breach."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [50, 40]), *_scored_hand(10, seats, [10, 10]),
              {"t": 14, "type": "score_correction", "seat": "Ana", "hand": 1, "score": 100},
              {"t": 20, "type": "hand_start"}, {"t": 21, "type": "undo"}]
    report = replay(tmp_path, _log(seats, events))
    assert report["hands"] == [{"Ana": 100, "Ben": 40}, {"Ana": 10, "Ben": 10}]
    assert report["infractions"] == []
    assert report["finished"] is True and report["winners"] == ["Ana"]


def test_a_whole_hand_logged_after_the_game_is_after_the_game(tmp_path: Path) -> None:
    """§8.1: the game ends after the hand in which a total reaches the target (here 20). A whole further
    hand logged after it (Go, a play, the call, the counts and its hand_end) is ignored, every event of
    it reported as after the game, its hand_end included."""
    seats = ["Ana", "Ben"]
    events = [*_scored_hand(0, seats, [25, 10]),
              {"t": 10, "type": "hand_start"},
              {"t": 11, "type": "foundation_play", "seat": "Ben", "card": "AS", "pile": "F1"},
              {"t": 12, "type": "call", "seat": "Ben"},
              {"t": 13, "type": "count", "seat": "Ben", "nerts": 0, "foundation": 1},
              {"t": 14, "type": "hand_end"}]
    report = replay(tmp_path, _log(seats, events, target_score=20))
    assert _kinds(report) == ["after_game"] * 5
    assert report["hands"] == [{"Ana": 25, "Ben": 10}]
    assert report["finished"] is True and report["winners"] == ["Ana"]


def test_a_correction_that_ends_the_game_or_changes_its_winner_is_announced(tmp_path: Path) -> None:
    """§8.1 with docs/table-log.md (the end of the game and its winners follow the corrected scores;
    ``game_end`` is the ruling that ends the game): a correction logged after the last hand that
    takes Ana to 100 ends the game, announced with a game_end naming her; one that makes Ben's total
    the highest after Ana's win announces Ben's win; one that ties them on 102 announces the tie
    that plays on (``tie_break = play_on``)."""
    seats = ["Ana", "Ben"]

    def ends(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
        return [(r["kind"], r["text"], r["seats"]) for r in report["rulings"]
                if r["kind"] in ("game_end", "tie_for_win")]

    one = replay(tmp_path, _log(seats, [*_scored_hand(0, seats, [50, 40]),
                                        {"t": 5, "type": "score_correction", "seat": "Ana", "hand": 1,
                                         "score": 100}]))
    assert (one["finished"], one["winners"]) == (True, ["Ana"])
    assert ends(one) == [("game_end", "game over: Ana wins with 100", ["Ana"])]
    two = [*_scored_hand(0, seats, [50, 40]), *_scored_hand(10, seats, [52, 40])]
    ben = replay(tmp_path, _log(seats, [*two, {"t": 14, "type": "score_correction", "seat": "Ben",
                                               "hand": 2, "score": 70}]))
    assert (ben["finished"], ben["winners"]) == (True, ["Ben"])
    assert ends(ben)[-1] == ("game_end", "game over: Ben wins with 110", ["Ben"])
    tie = replay(tmp_path, _log(seats, [*two, {"t": 14, "type": "score_correction", "seat": "Ben",
                                               "hand": 2, "score": 62}]))
    assert (tie["finished"], tie["winners"]) == (False, [])
    assert ends(tie)[-1] == ("tie_for_win", "Ana and Ben tie for the lead on 102: another hand",
                             ["Ana", "Ben"])
