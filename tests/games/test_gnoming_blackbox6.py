"""Sixth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone, at the default options: the setup of
a round (§4), the turn state machine (§5), scoring (§6) and the end of the game (§7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import replay


def _flip(seat: str, pos: str, card: str) -> dict[str, Any]:
    return {"type": "flip", "seat": seat, "pos": pos, "card": card}


def test_an_opening_flip_made_after_an_early_draw_is_no_illegal_flip(tmp_path: Path) -> None:
    """§4.5: each player turns exactly two cards of their own grid face up. Ana draws before Bob
    has turned his second card (`early_draw`); Bob then turns it, as he must, before his own
    first turn: that is one of his two opening flips (docs/table-log.md `flip`), not a flip
    without a Hazard. A third card from Bob, or one after his own turn, is still a breach."""
    start: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}},
        _flip("Ana", "11", "G8"), _flip("Ana", "12", "G7"), _flip("Bob", "11", "G8"),
        {"type": "draw", "seat": "Ana", "from": "deck"}]
    ana_discards = {"type": "discard", "seat": "Ana", "card": "G6", "pile": "A"}
    bob_turn = [{"type": "draw", "seat": "Bob", "from": "deck"},
                {"type": "discard", "seat": "Bob", "card": "G6", "pile": "A"}]
    seats = ["Ana", "Bob"]
    for late in ([_flip("Bob", "12", "G7"), ana_discards],
                 [ana_discards, _flip("Bob", "12", "G7")],
                 [ana_discards, {"type": "draw", "seat": "Bob", "from": "deck"}, _flip("Bob", "12", "G7")]):
        report = replay(tmp_path, start + late, seats=seats)
        assert [i.kind for i in report.infractions] == ["early_draw"], late
    third = start + [_flip("Bob", "12", "G7"), _flip("Bob", "13", "G5"), ana_discards]
    report = replay(tmp_path, third, seats=seats)
    assert [i.kind for i in report.infractions] == ["early_draw", "illegal_flip"]
    after_turn = start + [ana_discards] + bob_turn + [_flip("Bob", "12", "G7")]
    report = replay(tmp_path, after_turn, seats=seats)
    assert [i.kind for i in report.infractions] == ["early_draw", "illegal_flip"]


def test_a_draw_after_reaching_for_an_empty_pile_is_the_turns_one_draw(tmp_path: Path) -> None:
    """§5.1: A may be drawn from only if it is not empty. Ana empties A (she keeps its 3, and the
    Hazard that comes out leaves the game, §5.3, so A stays empty). Bob reaching for A takes no
    card (`empty_pile`); his draw from the draw pile after it is his turn's one card, not a
    second card drawn (§9 `two_draws`), and his discard must restart A (§5.3)."""
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}},
        _flip("Ana", "11", "G8"), _flip("Ana", "12", "G7"),
        _flip("Bob", "11", "G8"), _flip("Bob", "12", "G7"),
        {"type": "draw", "seat": "Ana", "from": "A", "card": "G3"},
        {"type": "keep", "seat": "Ana", "pos": "13", "card": "G3", "out": "HAZARD"},
        {"type": "discard", "seat": "Ana", "card": "HAZARD"},
        {"type": "decline", "seat": "Bob"},
        {"type": "draw", "seat": "Bob", "from": "A"},
        {"type": "draw", "seat": "Bob", "from": "deck"},
        {"type": "discard", "seat": "Bob", "card": "G6", "pile": "A"},
        {"type": "draw", "seat": "Ana", "from": "A", "card": "G6"}]
    report = replay(tmp_path, events, seats=["Ana", "Bob"])
    assert [(i.kind, i.seat) for i in report.infractions] == [("empty_pile", "Bob")]
    # Drawing twice after a real draw is still two cards drawn.
    events[-4:-1] = [{"type": "draw", "seat": "Bob", "from": "B", "card": "G4"},
                     {"type": "draw", "seat": "Bob", "from": "deck"},
                     {"type": "discard", "seat": "Bob", "card": "G6", "pile": "A"}]
    report = replay(tmp_path, events, seats=["Ana", "Bob"])
    assert [(i.kind, i.seat) for i in report.infractions] == [("two_draws", "Bob")]


def test_a_flip_of_a_face_up_card_is_only_flip_face_up(tmp_path: Path) -> None:
    """docs/table-log.md `flip_face_up`: turning a card that is already face up turns no
    face-down card up. In the opening (§4.5) it is not a third card (`extra_flip`); during play
    it is not also a flip without a Hazard; after a Hazard (§5.4) it does not use up the seat's
    one flip, so Bob may still turn a face-down card up."""
    start: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}},
        _flip("Ana", "11", "G8"), _flip("Ana", "12", "G7"),
        _flip("Bob", "11", "G8"), _flip("Bob", "12", "G7")]
    seats = ["Ana", "Bob"]
    report = replay(tmp_path, start + [_flip("Bob", "11", "G8")], seats=seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("flip_face_up", "Bob")]
    draw = {"type": "draw", "seat": "Ana", "from": "deck"}
    report = replay(tmp_path, start + [draw, _flip("Bob", "12", "G7")], seats=seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("flip_face_up", "Bob")]
    hazard = [draw, {"type": "discard", "seat": "Ana", "card": "HAZARD"}]
    report = replay(tmp_path, start + hazard + [_flip("Bob", "11", "G8"), _flip("Bob", "33", "G5")],
                    seats=seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("flip_face_up", "Bob")]
    # The card read there must still be the card seen there.
    report = replay(tmp_path, start + [_flip("Bob", "11", "G6")], seats=seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("flip_face_up", "Bob"), ("misread", "Bob")]


def test_a_look_at_a_face_down_card_once_the_round_is_over_is_no_peek(tmp_path: Path) -> None:
    """§4.2: players must not look at face-down cards (`peek`), but once the last final turn is
    over (§5.5) every face-down card is turned up where it lies (§5.6), as once it is scored:
    lifting one then is no breach. During play it still is."""
    seats = ["Ana", "Bob"]
    events: list[dict[str, Any]] = [
        {"type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}},
        _flip("Ana", "11", "G8"), _flip("Ana", "12", "G7"),
        _flip("Bob", "11", "G8"), _flip("Bob", "12", "G7")]
    for pos in ("13", "21", "22", "23", "31", "32", "33"):
        events += [{"type": "draw", "seat": "Ana", "from": "deck"},
                   {"type": "keep", "seat": "Ana", "pos": pos, "card": "G5", "out": "G-1"},
                   {"type": "discard", "seat": "Ana", "card": "G-1", "pile": "A"},
                   {"type": "draw", "seat": "Bob", "from": "deck"},
                   {"type": "discard", "seat": "Bob", "card": "G6", "pile": "A"}]
    peek = {"type": "peek", "seat": "Bob", "pos": "33"}
    reveals = [{"type": "reveal", "seat": "Ana", "grid": ["G8", "G7"] + ["G5"] * 7},
               {"type": "reveal", "seat": "Bob", "grid": ["G8", "G7"] + ["G4"] * 7}]
    report = replay(tmp_path, events + [peek] + reveals, seats=seats)
    assert report.infractions == []
    assert report.hands == [{"Ana": 0 - 5, "Bob": 3}]     # rows 2, 3 and column 3 matched: 15 - 15, 15 - 12
    report = replay(tmp_path, events[:-1] + [peek] + events[-1:] + reveals, seats=seats)
    assert [(i.kind, i.seat) for i in report.infractions] == [("peek", "Bob")]
