"""Tenth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: each state of a round (the opening
flips, a turn's draw and place, the Hazard flips, the final turns, the round over, between
rounds, the game over) met with an event it does not expect, then legal play to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import SEATS, pass_turn, replay
from tests.games.test_gnoming_blackbox6 import _flip
from tests.games.test_gnoming_blackbox7 import _draw
from tests.games.test_gnoming_blackbox9 import _discard, _keep


def _start() -> dict[str, Any]:
    return {"type": "round_start", "round": 1, "first": "Ana", "piles": {"A": "G3", "B": "G4"}}


def test_opening_flips_after_a_discard_without_a_draw_are_no_extra_flips(tmp_path: Path) -> None:
    """§4.5: each player turns exactly two cards of their own grid face up. Ana, who starts,
    lays a card down (or keeps one) before Bob and Cy have turned their two, without a logged
    draw: that is Ana's breach alone. Bob's second card and Cy's two are still the opening
    flips the rules require of them, not an `extra_flip` ("a third card turned up"), and the
    turns then go on from Bob."""
    opening = [_start(), _flip("Ana", "11", "G8"), _flip("Ana", "12", "G7"), _flip("Bob", "11", "G8")]
    rest = [_flip("Bob", "12", "G7"), _flip("Cy", "11", "G8"), _flip("Cy", "12", "G7")]
    rest += pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    breaches = [[_discard("Ana", "G6", "A")], [_keep("Ana", "13", "G5", "G-1"), _discard("Ana", "G-1", "A")]]
    for breach in breaches:
        report = replay(tmp_path, opening + breach + rest)
        assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Ana")]


def test_a_discard_by_another_seat_while_the_player_holds_a_card_leaves_the_turn_as_it_was(
        tmp_path: Path) -> None:
    """docs/table-log.md: another seat acting while the player still holds a card is that seat's
    `out_of_turn`, as for a draw. Cy lays a card on B while Bob holds the card he drew: Bob still
    finishes his own turn with it, which is no breach, and the turn then passes to Cy as usual."""
    opening = [_start()] + [_flip(s, p, c) for s in SEATS for p, c in (("11", "G8"), ("12", "G7"))]
    events = opening + pass_turn("Ana") + [_draw("Bob"), _discard("Cy", "G5", "B"),
                                           _discard("Bob", "G6", "A")]
    events += pass_turn("Cy") + pass_turn("Ana") + pass_turn("Bob")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Cy")]


def test_a_keep_by_another_seat_while_the_player_holds_a_card_leaves_the_turn_as_it_was(
        tmp_path: Path) -> None:
    """The same breach when Cy puts a card into his own grid while Bob holds his, and lays down
    the card that came out: one `out_of_turn` for Cy; Bob keeps his card and his turn (§5.2),
    and play goes on with Cy's own turn."""
    opening = [_start()] + [_flip(s, p, c) for s in SEATS for p, c in (("11", "G8"), ("12", "G7"))]
    events = opening + pass_turn("Ana") + [_draw("Bob"), _keep("Cy", "13", "G5", "G-1"),
                                           _discard("Cy", "G-1", "B"), _keep("Bob", "13", "G6", "G-2"),
                                           _discard("Bob", "G-2", "A")]
    events += pass_turn("Cy") + pass_turn("Ana") + pass_turn("Bob")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Cy")]


def test_a_second_draw_does_not_start_a_new_turn_for_filled_positions(tmp_path: Path) -> None:
    """§5.2: a keep may go to any position not in `filled_this_turn`. Ana keeps her card at
    (1,3), then draws again (`two_draws`, §9) and keeps the second card at (1,3) too: that is
    still the same turn, so (1,3) is filled twice (`filled_twice`). Play then goes on from Bob."""
    opening = [_start()] + [_flip(s, p, c) for s in SEATS for p, c in (("11", "G8"), ("12", "G7"))]
    events = opening + [_draw("Ana"), _keep("Ana", "13", "G5", "G-1"), _draw("Ana"),
                        _keep("Ana", "13", "G6", "G5"), _discard("Ana", "G5", "A")]
    events += pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("two_draws", "Ana"), ("filled_twice", "Ana")]
