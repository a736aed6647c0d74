"""A camera-fed table log repeats lines: the same event (same type, seat and data) logged again at
once, at the same time or a frame (17-50 ms) later. Where the rules make a second real event
impossible, the repeat must change nothing: no score, turn or count, and the rest of the game is
refereed exactly as without it (docs/table-log.md). Each test replays a log with one line repeated
through ``kiosk replay --json`` and compares the whole report with the same log without the repeat."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import ROOT, replay

EXAMPLES = ROOT / "examples"


def _lines(name: str) -> list[dict[str, Any]]:
    """The header and events of an example log (comments and blank lines left out)."""
    text = (EXAMPLES / name).read_text().splitlines()
    return [json.loads(x) for x in text if x.strip() and not x.startswith("#")]


def _repeat(lines: list[dict[str, Any]], at: int, dt: str = "0") -> list[dict[str, Any]]:
    """``lines`` with ``lines[at]`` logged again right after it, ``dt`` seconds later."""
    again = dict(lines[at], t=float(Decimal(str(lines[at]["t"])) + Decimal(dt)))
    return [*lines[: at + 1], again, *lines[at + 1:]]


def _at(lines: list[dict[str, Any]], **fields: Any) -> int:
    """The index of the first line whose fields include ``fields``."""
    return next(i for i, x in enumerate(lines) if all(x.get(k) == v for k, v in fields.items()))


def _without_repeat(report: dict[str, Any], repeat_line: int) -> dict[str, Any]:
    """The report of a log with a repeated line as the log without it would show it: the repeat's own
    infractions dropped, later line numbers moved up one, and the notes left out."""
    out = dict(report)
    out["infractions"] = [dict(i, line=i["line"] - 1) if i["line"] > repeat_line else i
                          for i in report["infractions"] if i["line"] != repeat_line]
    out.pop("notes")
    return out


def _check_ignored(tmp_path: Path, lines: list[dict[str, Any]], at: int, dt: str) -> dict[str, Any]:
    """Replays ``lines`` with and without ``lines[at]`` repeated: the repeat leaves a note and changes
    nothing else. Returns the report with the repeat."""
    base = replay(tmp_path, lines)
    rep = replay(tmp_path, _repeat(lines, at, dt))
    # The file's line numbers: the header is line 1, so lines[at] is line at + 1 and its repeat at + 2.
    assert _without_repeat(rep, at + 2) == {k: v for k, v in base.items() if k != "notes"}
    assert len(rep["notes"]) == len(base["notes"]) + 1
    assert not [i for i in rep["infractions"] if i["line"] == at + 2]
    return rep


# -- Nerts ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
@pytest.mark.parametrize("hand", [1, 2])
def test_nerts_hand_start_logged_twice_is_one_go(tmp_path: Path, dt: str, hand: int) -> None:
    """docs/table-log.md (``hand_start``: "a new hand; Go") with §7: a hand ends only by a call or a
    stalemate, so a second Go with nothing logged since the first is the same Go seen twice. Before,
    it closed an empty hand 1 as "stopped" and scored it at 13 Nerts cards a seat (−26 each)."""
    lines = _lines("nerts_example.jsonl")
    starts = [i for i, x in enumerate(lines) if x.get("type") == "hand_start"]
    rep = _check_ignored(tmp_path, lines, starts[hand - 1], dt)
    assert len(rep["hands"]) == 2


# -- Gnoming A Round -----------------------------------------------------------------------------

def _gnoming_example_at(**fields: Any) -> tuple[list[dict[str, Any]], int]:
    lines = _lines("gnoming_example.jsonl")
    return lines, _at(lines, **fields)


@pytest.mark.parametrize("dt", ["0", "0.033"])
@pytest.mark.parametrize("fields", [
    {"type": "round_start", "round": 1}, {"type": "round_start", "round": 2},
    {"type": "keep", "seat": "Maria", "pos": "21", "card": "G4", "out": "G4"},
    {"type": "keep", "seat": "Cal", "pos": "13", "card": "G5", "out": "G3"},
    {"type": "discard", "seat": "Ben", "card": "HAZARD"},
    {"type": "discard", "seat": "Ben", "card": "G7", "pile": "B"},
], ids=["round_start_1", "round_start_2", "keep_bounce_follows", "keep", "discard_hazard", "discard"])
def test_gnoming_event_logged_twice_changes_nothing(tmp_path: Path, dt: str, fields: dict[str, Any]) -> None:
    """docs/table-log.md (Gnoming events) and §5: a deal, a keep or a discard seen twice in a row is one
    event. A second round_start in the middle of the round was an error that stopped the replay; a
    keep seen again was a bounce (filled_twice, misreads) that made the player's real bounce after it
    an illegal_bounce; a discard seen again was a turn out of turn that put the card on its pile twice
    and announced a Hazard's flips again."""
    lines, at = _gnoming_example_at(**fields)
    _check_ignored(tmp_path, lines, at, dt)


def _gnome(t: float, type_: str, seat: str | None = None, **data: Any) -> dict[str, Any]:
    return {"t": t, "type": type_, **({"seat": seat} if seat else {}), **data}


def test_gnoming_draw_from_a_pile_logged_twice_leaves_the_pile_as_it_was(tmp_path: Path) -> None:
    """§5.1 with docs/table-log.md: Cal's draw of 5 from pile A seen twice is one draw (the 5 is in his
    hand, no longer on A), so A still holds the 3 under it and Maria draws that 3 without a breach.
    Before, the repeat was a second draw that took the 3 off A (two_draws, misread) and Maria's draw
    found A empty."""
    lines = [
        {"table_log": 1, "game": "gnoming", "seats": ["Ben", "Cal", "Maria"], "options": {}},
        _gnome(1, "round_start", round=1, first="Ben", piles={"A": "G3", "B": "G8"}, removed=[]),
        _gnome(2, "flip", "Ben", pos="11", card="G-2"), _gnome(3, "flip", "Ben", pos="22", card="G6"),
        _gnome(4, "flip", "Cal", pos="11", card="G4"), _gnome(5, "flip", "Cal", pos="22", card="G8"),
        _gnome(6, "flip", "Maria", pos="11", card="G4"), _gnome(7, "flip", "Maria", pos="22", card="G7"),
        _gnome(8, "draw", "Ben", **{"from": "deck"}), _gnome(9, "discard", "Ben", card="G5", pile="A"),
        _gnome(10, "draw", "Cal", **{"from": "A"}, card="G5"),
        _gnome(11, "discard", "Cal", card="G5", pile="B"),
        _gnome(12, "draw", "Maria", **{"from": "A"}, card="G3"),
        _gnome(13, "discard", "Maria", card="G3", pile="A"),
        _gnome(14, "draw", "Ben", **{"from": "A"}, card="G3"),
        _gnome(15, "discard", "Ben", card="G3", pile="A"),
    ]
    at = _at(lines, type="draw", seat="Cal")
    base = replay(tmp_path, lines)
    assert base["infractions"] == []
    for dt in ("0", "0.017", "0.05"):
        rep = _check_ignored(tmp_path, lines, at, dt)
        assert rep["infractions"] == []


@pytest.mark.parametrize("dt", ["0", "0.05"])
def test_gnoming_round_start_seen_again_within_a_frame_is_one_deal(tmp_path: Path, dt: str) -> None:
    """A round_start seen again within a frame (at most 50 ms) is the same deal: the round is played and
    scored as without it (a round_start a second later, before the round is scored, is still a
    malformed log: test_gnoming_referee)."""
    lines, at = _gnoming_example_at(type="round_start", round=3)
    rep = _check_ignored(tmp_path, lines, at, dt)
    assert rep["finished"] and len(rep["hands"]) == 3


# -- 3-13 -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
@pytest.mark.parametrize(("seat", "card"), [("Dee", "8H"), ("Ana", "9H"), ("Cal", "10C")])
def test_rummy_draw_from_a_pile_logged_twice_is_one_draw(
        tmp_path: Path, dt: str, seat: str, card: str) -> None:
    """§6.1 with docs/table-log.md (3-13 events): a draw from the right-hand neighbour's pile seen twice
    is one draw. The card is in the seat's hand, no longer on the pile, so no second card was taken.
    Before, the repeat was two_draws and a misread that took the card under it off the pile and counted
    the card twice among those the seat had taken, so its spread was ruled missing_card."""
    lines = _lines("rummy_3_13_example.jsonl")
    at = _at(lines, type="draw", seat=seat, card=card)
    _check_ignored(tmp_path, lines, at, dt)


def _rummy_false_match(penalty: int) -> list[dict[str, Any]]:
    lines = _lines("rummy_3_13_example.jsonl")
    lines[0] = dict(lines[0], options={**lines[0]["options"], "false_match_penalty": penalty})
    return lines


@pytest.mark.parametrize("dt", ["0", "0.05"])
@pytest.mark.parametrize("penalty", [0, 5])
def test_rummy_match_logged_twice_is_one_call(tmp_path: Path, dt: str, penalty: int) -> None:
    """§6.1 and §10 false_match_penalty: Dee's void "match" seen again within a frame is one call, so
    it costs its penalty once. Before, it was a second claim charged again (Dee 13 + 5 more)."""
    lines = _rummy_false_match(penalty)
    at = _at(lines, type="match", seat="Dee")
    rep = _check_ignored(tmp_path, lines, at, dt)
    assert rep["hands"][0]["Dee"] == replay(tmp_path, lines)["hands"][0]["Dee"]


def test_rummy_match_called_again_later_is_a_second_claim(tmp_path: Path) -> None:
    """A second "match" half a second later is a real second call: second_claim, as before."""
    lines = _rummy_false_match(5)
    at = _at(lines, type="match", seat="Dee")
    rep = replay(tmp_path, _repeat(lines, at, "0.5"))
    assert [i["kind"] for i in rep["infractions"] if i["line"] == at + 2] == ["second_claim"]


# -- Nerts: calls and stuck declarations -----------------------------------------------------------

def _nerts_stalemate(penalty: int) -> list[dict[str, Any]]:
    return [
        {"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben"],
         "options": {"false_call_penalty": penalty, "target_score": 10}},
        {"t": 0, "type": "hand_start"},
        {"t": 1.0, "type": "foundation_play", "seat": "Ana", "card": "AS", "pile": "F1", "from": "nerts",
         "t_lift": 0.5},
        {"t": 2.0, "type": "call", "seat": "Ben", "nerts_left": 3},
        {"t": 3.0, "type": "foundation_play", "seat": "Ben", "card": "2S", "pile": "F1", "from": "waste",
         "t_lift": 2.5},
        {"t": 4.0, "type": "stuck", "seat": "Ana"}, {"t": 5.0, "type": "stuck", "seat": "Ben"},
        {"t": 6.0, "type": "stuck", "seat": "Ana"},
        {"t": 6.5, "type": "foundation_play", "seat": "Ben", "card": "3S", "pile": "F1", "from": "waste",
         "t_lift": 6.2},
        {"t": 7.0, "type": "stuck", "seat": "Ben"}, {"t": 8.0, "type": "stuck", "seat": "Ana"},
        {"t": 9.0, "type": "stuck", "seat": "Ben"},
        {"t": 9.5, "type": "count", "seat": "Ana", "nerts": 0, "foundation": 1},
        {"t": 9.5, "type": "count", "seat": "Ben", "nerts": 3, "foundation": 2},
        {"t": 10.0, "type": "hand_end"},
    ]


@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
@pytest.mark.parametrize("penalty", [0, 5])
def test_nerts_false_call_logged_twice_costs_its_penalty_once(tmp_path: Path, dt: str, penalty: int) -> None:
    """§7.1 (a call with cards left is void, false_call_penalty) with docs/table-log.md: Ben's false call
    heard again within a frame is one call. Before, it was ruled twice and, with a penalty, charged
    twice."""
    lines = _nerts_stalemate(penalty)
    rep = _check_ignored(tmp_path, lines, _at(lines, type="call"), dt)
    assert rep["hands"][0]["Ben"] == 2 - 2 * 3 - penalty


@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
def test_nerts_stuck_logged_twice_at_a_reset_does_not_flag_the_seat_again(tmp_path: Path, dt: str) -> None:
    """§7.2: Ben's "stuck" at 5 s makes everyone stuck: reset 1 clears the flags. The same declaration
    seen again a frame later is one declaration, so Ana's "stuck" at 6 s does not end the hand, and
    Ben's 3♠ at 6.5 s is a progress move that scores. Before, the repeat flagged Ben again, the hand
    ended by stalemate at 6 s and the 3♠ was refused (after_hand)."""
    lines = _nerts_stalemate(0)
    at = _at(lines, type="stuck", seat="Ben")
    rep = _check_ignored(tmp_path, lines, at, dt)
    assert not rep["infractions"]


def _nerts_jokers() -> list[dict[str, Any]]:
    play = "foundation_play"
    return [
        {"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben", "Cal", "Dee"], "options": {"jokers": 2}},
        {"t": 0, "type": "hand_start"},
        {"t": 1.0, "type": play, "seat": "Ana", "card": "AC", "pile": "F1", "from": "nerts", "t_lift": 0.5},
        {"t": 2.0, "type": play, "seat": "Ben", "card": "2C", "pile": "F1", "from": "waste", "t_lift": 1.5},
        {"t": 3.0, "err": 0.004, "type": play, "seat": "Dee", "card": "JOKER", "pile": "F1", "as": "3C",
         "t_lift": 2.5},
        {"t": 3.2, "type": play, "seat": "Cal", "card": "3C", "pile": "F1", "from": "waste", "t_lift": 2.9},
        {"t": 4.0, "type": play, "seat": "Ana", "card": "4C", "pile": "F1", "from": "waste", "t_lift": 3.5},
        {"t": 5.0, "err": 0.004, "type": play, "seat": "Cal", "card": "JOKER", "pile": "F2", "as": "AH",
         "t_lift": 4.5},
        {"t": 6.0, "err": 0.004, "type": play, "seat": "Cal", "card": "JOKER", "pile": "F3", "t_lift": 5.5},
        {"t": 7.0, "type": play, "seat": "Ben", "card": "2H", "pile": "F3", "t_lift": 6.5},
        {"t": 8.0, "type": "call", "seat": "Ana", "nerts_left": 0},
        {"t": 8.1, "type": play, "seat": "Ben", "card": "5C", "pile": "F1", "t_lift": 7.9},
        {"t": 9.0, "type": "hand_end"},
    ]


@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
@pytest.mark.parametrize(("seat", "card", "pile"), [
    ("Dee", "JOKER", "F1"), ("Cal", "JOKER", "F2"), ("Ana", "4C", "F1"), ("Ben", "5C", "F1"),
    ("Cal", "3C", "F1")], ids=["joker_on_a_pile", "joker_ace", "plain", "in_the_air_at_the_call", "refused"])
def test_nerts_foundation_play_logged_twice_is_seen_twice_and_nothing_more(
        tmp_path: Path, dt: str, seat: str, card: str, pile: str) -> None:
    """docs/table-log.md (Nerts ``seen_twice``) with §5 (one hand) and §9 (jokers): a foundation play
    logged again at once is the card already played, ruled seen_twice and nothing else: no second card
    in flight (one_hand), no second "in the air at the call" ruling, and a joker is not the seat's
    second joker tying with itself (before: a tie "both stand" that scored Dee an extra card, and Cal's
    real second joker ruled seen_twice). A card just sent back (Cal's 3♣, late for level 3) seen again
    is noted and changes nothing."""
    lines = _nerts_jokers()
    at = _at(lines, type="foundation_play", seat=seat, card=card, pile=pile)
    base = replay(tmp_path, lines)
    rep = replay(tmp_path, _repeat(lines, at, dt))
    own = [i["kind"] for i in rep["infractions"] if i["line"] == at + 2]
    refused = card == "3C"
    assert own == ([] if refused else ["seen_twice"])
    assert len(rep["notes"]) == len(base["notes"]) + (1 if refused else 0)
    assert _without_repeat(rep, at + 2) == {k: v for k, v in base.items() if k != "notes"}


@pytest.mark.parametrize("dt", ["0", "0.033"])
def test_nerts_layout_move_logged_twice_in_a_full_log_is_one_move(tmp_path: Path, dt: str) -> None:
    """docs/table-log.md (full logs, ``move``) with §6 M5-M7 and §5 (one hand): a layout move logged
    again at once names a card that has already left its source, so it is the same move: noted, and
    no one_hand or not_available. Before, both were ruled against the seat."""
    from kiosk.games.nerts_bots import simulate_hand
    from kiosk.tablelog import dump_event

    hand = simulate_hand(30, seats=("Ana", "Ben", "Cal"))
    lines: list[dict[str, Any]] = [
        {"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben", "Cal"], "options": {}},
        *(json.loads(dump_event(e)) for e in hand.events)]
    moves = [i for i, x in enumerate(lines) if x.get("type") == "move"]
    for at in (moves[0], moves[len(moves) // 2]):
        _check_ignored(tmp_path, lines, at, dt)


@pytest.mark.parametrize("dt", ["0", "0.017", "0.05"])
@pytest.mark.parametrize("fields", [
    {"type": "caller_draw", "t": 0.0}, {"type": "caller_draw", "t": 0.5},
    {"type": "hand_start", "hand": 1}, {"type": "hand_start", "hand": 2}],
    ids=["caller_draw_tie", "caller_draw_decides", "hand_start_1", "hand_start_2"])
def test_rummy_caller_draw_or_deal_seen_again_within_a_frame_changes_nothing(
        tmp_path: Path, dt: str, fields: dict[str, Any]) -> None:
    """§2 (the draw for the caller) and §5 (setup) with docs/table-log.md: a caller_draw or a hand_start
    seen again within a frame is the same draw or deal. Before, a repeated tie was a draw by every seat
    (caller_draw_seats) announced as a tie again, a repeated deciding draw was late_caller_draw, and a
    repeated deal was announced as the hand "dealt again"."""
    lines = _lines("rummy_3_13_example.jsonl")
    _check_ignored(tmp_path, lines, _at(lines, **fields), dt)


def test_rummy_hand_dealt_again_a_second_later_is_still_a_redeal(tmp_path: Path) -> None:
    """docs/table-log.md (3-13 ``hand_start``): the same hand dealt again before the first draw is a
    plain redeal, announced as such, when it comes later than a camera frame."""
    lines = _lines("rummy_3_13_example.jsonl")
    at = _at(lines, type="hand_start", hand=1)
    rep = replay(tmp_path, _repeat(lines, at, "0.2"))
    deals = [r["text"] for r in rep["rulings"] if r["kind"] == "hand_start"]
    assert deals[1].startswith("hand 1 (dealt again)")


# -- undo after a repeat ---------------------------------------------------------------------------

def _undo_after(lines: list[dict[str, Any]], at: int, t: float) -> list[dict[str, Any]]:
    """``lines`` with an undo logged at ``t`` right after ``lines[at]``, the rest of the log going on."""
    return [*lines[: at + 1], {"t": t, "type": "undo"}, *lines[at + 1:]]


@pytest.mark.parametrize("game", ["nerts", "rummy"])
def test_undo_after_a_repeated_line_takes_back_the_event_it_repeats(tmp_path: Path, game: str) -> None:
    """docs/table-log.md (``undo``: takes back the last effective event): the kiosk's "undo last
    ruling" after a line the camera logged twice takes back the event the table saw once, as in the
    log without the repeat: a false call (Nerts §7.1) or a void "match" (3-13 §6.1) undone costs
    no penalty. Before, the undo took back only the repeat, and the penalty stood."""
    lines = _nerts_stalemate(5) if game == "nerts" else _rummy_false_match(5)
    at = _at(lines, type="call") if game == "nerts" else _at(lines, type="match", seat="Dee")
    t = float(Decimal(str(lines[at]["t"])) + Decimal("0.3"))
    base = replay(tmp_path, _undo_after(lines, at, t))
    rep = replay(tmp_path, _undo_after(_repeat(lines, at, "0.017"), at + 1, t))
    assert _without_repeat(rep, at + 2) == {k: v for k, v in base.items() if k != "notes"}
    assert base["totals"] != replay(tmp_path, lines)["totals"]


def _nerts_full_log() -> list[dict[str, Any]]:
    from kiosk.games.nerts_bots import simulate_hand
    from kiosk.tablelog import dump_event

    hand = simulate_hand(30, seats=("Ana", "Ben", "Cal"))
    return [{"table_log": 1, "game": "nerts", "seats": ["Ana", "Ben", "Cal"], "options": {}},
            *(json.loads(dump_event(e)) for e in hand.events)]


@pytest.mark.parametrize("dt", ["0", "0.017"])
def test_nerts_stock_turn_with_its_lift_time_logged_twice_is_one_turn(tmp_path: Path, dt: str) -> None:
    """docs/table-log.md (``turn``: optional ``t_lift``) with §5 (one hand) and M1: a seat may turn its
    stock twice in a row, but not with one lift. A turn logged again with the same lift time is the
    same turn: noted, and the waste is as after one turn. Before, it was a second turn, and every later
    play from the waste was ruled not_available."""
    lines = _nerts_full_log()
    at = next(i for i, x in enumerate(lines) if x.get("type") == "turn")
    lines[at] = dict(lines[at], t_lift=float(Decimal(str(lines[at]["t"])) - Decimal("0.05")))
    _check_ignored(tmp_path, lines, at, dt)
    # Without a lift time two turns in a row are two turns (M1 may be repeated at will).
    plain = _nerts_full_log()
    assert replay(tmp_path, _repeat(plain, at, dt))["infractions"] != replay(tmp_path, plain)["infractions"]
