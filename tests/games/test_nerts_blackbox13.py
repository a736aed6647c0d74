"""Black-box Nerts tests, round 13: a state x event matrix in fully tracked logs under the options
that change the state machine, pairs of odd events in a row, and whole multi-hand games with odd
events in early hands, checked against ``rules/nerts.md`` and ``docs/table-log.md`` through
``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path

from tests.games.replay_logs import replay
from tests.games.test_nerts_blackbox9 import _ev, _log
from tests.games.test_nerts_blackbox12 import _kinds, _play


def test_a_third_partner_named_in_a_later_hand_is_a_third_player_on_the_seat(tmp_path: Path) -> None:
    """§10 and docs/table-log.md (``one_hand``: "a third named player on a seat"): a partnership is one
    seat, with one score, for the whole game. T1's partners Ana and Ben play hand 1; in hand 2 Cal
    moves T1's cards, so three players have moved the seat's cards: a breach, as it would be in one
    hand. The hands are scored as played."""
    seats = ("T1", "T2", "T3")
    hand1 = [_ev(0, "hand_start"), _play(1, "T1", "AS", "F1", actor="Ana"),
             _play(2, "T1", "AH", "F2", actor="Ben"), _ev(3, "call", "T2", nerts_left=0), _ev(4, "hand_end")]
    hand2 = [_ev(10, "hand_start"), _play(11, "T1", "AS", "F1", actor="Cal"),
             _play(12, "T1", "AD", "F2", actor="Ana"), _ev(13, "call", "T2", nerts_left=0),
             _ev(14, "hand_end")]
    report = replay(tmp_path, _log([*hand1, *hand2], seats))
    assert [(x["t"], x["kind"], x["seat"]) for x in report["infractions"]] == [("11", "one_hand", "T1")]
    assert report["hands"] == [{"T1": -24, "T2": 0, "T3": -26}, {"T1": -24, "T2": 0, "T3": -26}]


def test_a_fourth_player_named_on_a_seat_is_a_breach_too(tmp_path: Path) -> None:
    """§10 and docs/table-log.md (``one_hand``): a seat is one player or a partnership of two. After
    Cal, a third player, moved T1's cards, Dee moves them too: a fourth player on the seat is a breach
    as well (each new player beyond the two is ruled once). The cards stand and score as played."""
    seats = ("T1", "T2", "T3")
    events = [_ev(0, "hand_start"), _play(1, "T1", "AS", "F1", actor="Ana"),
              _play(2, "T1", "AH", "F2", actor="Ben"), _play(3, "T1", "AD", "F3", actor="Cal"),
              _play(4, "T1", "AC", "F4", actor="Dee"), _play(5, "T1", "2C", "F4", actor="Cal"),
              _ev(6, "call", "T2", nerts_left=0), _ev(7, "hand_end")]
    report = replay(tmp_path, _log(events, seats))
    assert [(x["t"], x["kind"], x["seat"]) for x in report["infractions"]] == [
        ("3", "one_hand", "T1"), ("4", "one_hand", "T1")]
    assert report["hands"] == [{"T1": -21, "T2": 0, "T3": -26}]


def _deck(top: str, work: list[str], stock: list[str]) -> str:
    """A 52-card deck in dealing order (§4): 12 filler cards, the Nerts top ``top``, the four work
    cards, then the stock (first card on top)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    faces = [r + s for s in "SHDC" for r in ranks]
    rest = [c for c in faces if c not in {top, *work, *stock}]
    return " ".join([*rest[:12], top, *work, *stock, *rest[12:]])


_DEAL = {"Ana": _deck("7D", ["AC", "2C", "9H", "6C"], ["4D", "5D", "AD"]),
         "Ben": _deck("KH", ["AC", "5S", "2D", "3D"], ["4S", "5H", "2C"])}


def test_a_move_off_a_pile_of_the_last_hand_logged_in_the_next_hand_is_refereed(tmp_path: Path) -> None:
    """docs/table-log.md (``from_foundation``: a ``move`` or ``foundation_play`` whose ``from`` names a
    foundation pile; a malformed line is one whose pile names no pile) and §6.1: in hand 1 Ben's 2♣
    loses the race for F1 and is not taken back before the hand ends. The return, and a play off his
    own pile F2, arrive late, in hand 2, before any pile of hand 2 has those ids: they name the piles
    of hand 1, so they are refereed (a card taken off a foundation), not a malformed log, and hand 2
    plays on and is scored as played."""
    hand1 = [_ev(0, "hand_start", deal=_DEAL), _play(1, "Ana", "AC", "F1", **{"from": "work1"}),
             _play(2, "Ben", "AC", "F2", **{"from": "work1"}), _ev(3, "turn", "Ben"),
             _play(4, "Ana", "2C", "F1", **{"from": "work2"}),
             _play(4.35, "Ben", "2C", "F1", **{"from": "waste"}, t_lift=4.0),
             _ev(5, "call", "Ana", nerts_left=0), _ev(6, "hand_end")]
    for late in (_ev(8, "move", "Ben", card="2C", to="waste", **{"from": "F1"}),
                 _play(8, "Ben", "AC", "F9", **{"from": "F2"})):
        hand2 = [_ev(7, "hand_start", deal=_DEAL), late, _play(9, "Ben", "AC", "F3", **{"from": "work1"}),
                 _ev(10, "call", "Ana", nerts_left=0), _ev(11, "hand_end")]
        report = replay(tmp_path, _log([*hand1, *hand2]))
        assert _kinds(report, "infractions") == [("from_foundation", "Ben")]
        assert report["infractions"][0]["t"] == "8"
        # Ana's calls stop play, but her tracked Nerts pile still holds its 13 cards: hand 1 Ana F 2,
        # Ben F 1 (his refused 2♣ does not score); hand 2 Ben F 1, the late event changing nothing.
        assert report["hands"] == [{"Ana": -24, "Ben": -25}, {"Ana": -26, "Ben": -25}]


def test_a_correction_logged_during_a_hand_that_ends_the_game_ends_it_then(tmp_path: Path) -> None:
    """§8.1 (the game ends after the hand in which a total reaches the target; the highest total wins)
    and docs/table-log.md ("a correction that ends the game adds it, at the correction's time"): hand 1
    ties Ana and Ben on 1 (target 1), so hand 2 is played. During hand 2 a correction gives Ben 0 for
    hand 1: the game was over after hand 1, won by Ana alone. It ends at the correction, as it does
    when the correction is logged between hands: the rest of hand 2 is after_game and is not scored,
    so the winner the report names has the highest of its totals (not "Ana wins with -1" beside Ben's
    2)."""
    hand1 = [_ev(0, "hand_start"), _play(1, "Ana", "AD", "F1"), _play(2, "Ben", "AH", "F2"),
             _ev(3, "call", "Ana", nerts_left=0), _ev(3.5, "count", "Ben", nerts=0), _ev(4, "hand_end")]
    fix = _ev(12, "score_correction", "Ben", hand=1, score=0)
    hand2 = [_ev(10, "hand_start"), _play(11, "Ben", "AH", "F2"), fix, _play(13, "Ben", "AC", "F3"),
             _ev(14, "call", "Ben", nerts_left=0), _ev(14.5, "count", "Ana", nerts=1), _ev(15, "hand_end")]
    for at in (2, 0):
        # The correction logged during hand 2, or (the same game) just before its Go.
        events = [*hand1, *hand2] if at == 2 else [*hand1, {**fix, "t": 9}, *hand2[:2], *hand2[3:]]
        report = replay(tmp_path, _log(events, target_score=1))
        assert (report["finished"], report["winners"]) == (True, ["Ana"])
        assert report["hands"] == [{"Ana": 1, "Ben": 0}]
        assert report["totals"] == {"Ana": 1, "Ben": 0}
        ends = [(x["t"], x["text"]) for x in report["rulings"] if x["kind"] == "game_end"]
        assert ends == [("12" if at == 2 else "9", "game over: Ana wins with 1")]
        assert [x["kind"] for x in report["infractions"]][-3:] == ["after_game"] * 3
