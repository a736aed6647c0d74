"""Black-box Nerts tests, round 12: a state x event matrix. Each log reaches one state of a hand (before
the first Go, in play, after a call, after a reset or a stalemate, between a ``hand_end`` and the next
``hand_start``, after the game), logs one event there, then plays on legally, and checks the referee's
answer against ``rules/nerts.md`` and ``docs/table-log.md`` through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox9 import _ev, _log
from tests.games.test_nerts_blackbox11 import _ends


def _play(t: float, seat: str, card: str, pile: str, **more: Any) -> dict[str, Any]:
    return _ev(t, "foundation_play", seat, card=card, pile=pile, **more)


def _move(t: float, seat: str, card: str, src: str, to: str, **more: Any) -> dict[str, Any]:
    return _ev(t, "move", seat, card=card, to=to, **{"from": src}, **more)


def _kinds(report: dict[str, Any], key: str) -> list[tuple[str, str | None]]:
    return [(x["kind"], x.get("seat")) for x in report[key]]


# Hand 1: Ben's 2S loses the race for F1 to Ana's (a lost race: Ben must take it back, §6.1), then Ana
# calls and the hand is scored.
_RACE = [_ev(0, "hand_start"), _play(1, "Ana", "AS", "F1", **{"from": "nerts"}),
         _play(1.5, "Ana", "2S", "F1", **{"from": "nerts"}), _play(2, "Ben", "2S", "F1", **{"from": "waste"}),
         _ev(3, "call", "Ana", nerts_left=0), _ev(3.5, "count", "Ben", nerts=5)]


def test_refused_card_taken_off_last_hands_pile_between_hands_is_after_hand(tmp_path: Path) -> None:
    """docs/table-log.md (hand_start): between a hand_end and the next hand_start a card moved is
    ``after_hand``. Ben's refused 2S logged going back from hand 1's pile F1 after the hand_end names a
    pile that lay on the table: it is refereed (after_hand), not a malformed line, and hand 2 plays on."""
    for late in (_move(5, "Ben", "2S", "F1", "waste"), _play(5, "Ben", "2S", "F9", **{"from": "F1"})):
        report = replay(tmp_path, _log([*_RACE, _ev(4, "hand_end"), late, _ev(6, "hand_start"),
                                        _play(7, "Ben", "AH", "F2", **{"from": "nerts"}),
                                        _ev(8, "call", "Ben", nerts_left=0), _ev(9, "hand_end")]))
        assert ("after_hand", "Ben") in _kinds(report, "infractions")
        assert report["hands"] == [{"Ana": 2, "Ben": -10}, {"Ana": -26, "Ben": 1}]


def test_refused_card_taken_off_last_pile_after_the_game_is_after_game(tmp_path: Path) -> None:
    """docs/table-log.md: every event after the game is over is ``after_game``; a late return from the
    last hand's pile F1 is such an event, not a malformed line."""
    report = replay(tmp_path, _log([*_RACE, _ev(4, "hand_end"), _move(5, "Ben", "2S", "F1", "waste")],
                                   target_score=2))
    assert report["finished"] and report["winners"] == ["Ana"]
    assert _kinds(report, "infractions")[-1] == ("after_game", "Ben")


def test_unseen_play_after_a_stalemate_is_after_hand(tmp_path: Path) -> None:
    """§7.2 and docs/table-log.md (``after_hand``: after a stalemate): once every seat is stuck again with
    no progress the hand is over, and a card that lands then, seen (``foundation_play``) or not
    (``unseen_play``), is after_hand and raises no pile. The hand is scored as it stood."""
    stalemate = [_ev(0, "hand_start"), _play(1, "Ana", "AS", "F1"), _ev(2, "stuck", "Ana"),
                 _ev(2.5, "stuck", "Ben"), _ev(3, "stuck", "Ana"), _ev(3.5, "stuck", "Ben")]
    for late in (_play(4, "Ben", "2S", "F1"), _ev(4, "unseen_play", card="2S", pile="F1")):
        report = replay(tmp_path, _log([*stalemate, late, _ev(5, "count", "Ana", foundation=1),
                                        _ev(6, "hand_end")]))
        assert [x["kind"] for x in report["rulings"]] == ["hand_start", "reset", "stalemate", "hand_end"]
        seat = None if late["type"] == "unseen_play" else "Ben"
        assert _kinds(report, "infractions") == [("after_hand", seat)]
        assert report["hands"] == [{"Ana": -25, "Ben": -26}]


def test_false_call_before_the_first_go_keeps_its_announced_penalty(tmp_path: Path) -> None:
    """§7.1 with ``false_call_penalty``: a false call is ruled with its points off. One logged before the
    first hand_start belongs to hand 1 (that hand_start is its Go), so hand 1's score takes the points
    the ruling announced; the hand_start starts no second hand."""
    report = replay(tmp_path, _log([_ev(1, "call", "Ana", nerts_left=2), _ev(2, "hand_start"),
                                    _play(3, "Ben", "AH", "F1", **{"from": "nerts"}),
                                    _ev(4, "call", "Ben", nerts_left=0), _ev(5, "hand_end")],
                                   false_call_penalty=5))
    assert [x["kind"] for x in report["rulings"]] == ["false_call", "hand_start", "call", "hand_end"]
    assert "5 points off" in report["rulings"][0]["text"]
    assert report["hands"] == [{"Ana": -31, "Ben": 1}]


def test_nerts_top_seen_before_the_go_counts_after_a_stray_event_before_it(tmp_path: Path) -> None:
    """docs/table-log.md (nerts_top): a top seen before the hand_start is that hand's first top, and a new
    top means the card seen there before has left (§12: N is 13 minus the cards gone). A stray stuck
    button, count, stock turn or false call logged before the first Go, before or after the camera saw
    Ben's 7C on top, does not lose that sighting: when 8C shows after the Go, 7C has gone and N = 12."""
    top = _ev(0.6, "nerts_top", "Ben", card="7C")
    for stray in (_ev(0.5, "stuck", "Ana"), _ev(0.5, "count", "Ana", nerts=13), _ev(0.5, "turn", "Ana"),
                  _ev(0.5, "call", "Ana", nerts_left=3), _ev(0.7, "stuck", "Ana")):
        report = replay(tmp_path, _log([*sorted([stray, top], key=lambda x: x["t"]), _ev(1, "hand_start"),
                                        _ev(2, "nerts_top", "Ben", card="8C"),
                                        _ev(3, "call", "Ana", nerts_left=0), _ev(4, "hand_end")]))
        assert report["hands"] == [{"Ana": 0, "Ben": -24}], stray


# Hand 1 to a target of 5: Ana 6, Ben 5, so Ana wins at the hand_end (t = 4).
_WON = [_ev(0, "hand_start"), _ev(2, "call", "Ana", nerts_left=0), _ev(3, "count", "Ana", foundation=6),
        _ev(3.1, "count", "Ben", nerts=0, foundation=5), _ev(4, "hand_end")]


def test_a_correction_after_the_game_that_changes_the_winner_changes_the_one_game_end(tmp_path: Path) -> None:
    """docs/table-log.md (score_correction): the ruling that ends the game follows the corrected scores;
    a correction that changes the winners "changes the seats and text it names". Ben's hand 1 corrected
    to 9 after Ana's win: the report holds one game_end, at the hand's end, naming Ben, not Ana's win as
    well; a late play is still after the game."""
    report = replay(tmp_path, _log([*_WON, _ev(5, "score_correction", "Ben", hand=1, score=9),
                                    _play(6, "Ben", "AH", "F2")], target_score=5))
    assert (report["finished"], report["winners"]) == (True, ["Ben"])
    assert _ends(report) == [("4", "game_end", "game over: Ben wins with 9", ["Ben"])]
    assert _kinds(report, "infractions") == [("after_game", "Ben")]


def test_a_correction_that_undoes_the_win_drops_its_game_end_and_a_later_hand_ends_the_game(
        tmp_path: Path) -> None:
    """docs/table-log.md: a correction that undoes the win drops the ruling that ended the game. Ben's
    hand 1 corrected to 6 ties the lead (§8.1, ``tie_break = play_on``): the table plays hand 2, which
    Ben wins; Ana's game_end of hand 1 is gone from the report, and the game ends once, at hand 2."""
    report = replay(tmp_path, _log([*_WON, _ev(5, "score_correction", "Ben", hand=1, score=6),
                                    _ev(6, "hand_start"), _play(7, "Ben", "AH", "F1", **{"from": "nerts"}),
                                    _ev(8, "call", "Ben", nerts_left=0), _ev(9, "hand_end")], target_score=5))
    assert (report["finished"], report["winners"]) == (True, ["Ben"])
    assert report["hands"] == [{"Ana": 6, "Ben": 6}, {"Ana": -26, "Ben": 1}]
    tie = "Ana and Ben tie for the lead on 6: another hand"
    assert _ends(report) == [("5", "tie_for_win", tie, ["Ana", "Ben"]),
                             ("9", "game_end", "game over: Ben wins with 7", ["Ben"])]
