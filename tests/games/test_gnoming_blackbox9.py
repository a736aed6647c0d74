"""Ninth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone, sentence by sentence: what a breach
leaves of the turn it interrupts (§5.1, §5.2, §9), and whose breach a wrong first player is (§4.6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import SEATS, opening, pass_turn, replay
from tests.games.test_gnoming_blackbox7 import _draw


def _keep(seat: str, pos: str, card: str, out: str) -> dict[str, Any]:
    return {"type": "keep", "seat": seat, "pos": pos, "card": card, "out": out}


def _discard(seat: str, card: str, pile: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "card": card, "pile": pile}


def test_a_draw_out_of_turn_leaves_the_players_turn_as_it_was(tmp_path: Path) -> None:
    """docs/table-log.md: a draw by another seat while the player still holds a card is that
    seat's ``out_of_turn``. It is Bob's breach alone: Ana, who drew on her turn, still holds her
    own card and finishes her turn with it (§5.2), so her keep is neither out of turn nor a
    misread of Bob's card, and Bob laying his card down again is the same breach, not a second
    one. Ana's turn then passes to Bob as usual (§4.6)."""
    # Bob takes A's top while Ana holds the card she drew from the draw pile; Ana keeps hers.
    events = opening(SEATS) + [_draw("Ana"), _draw("Bob", "A", "G3"), _keep("Ana", "13", "G6", "G-1"),
                               _discard("Ana", "G-1", "A")] + pass_turn("Bob") + pass_turn("Cy")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]
    # Bob puts his card back on a pile at once, then Ana keeps hers.
    events = opening(SEATS) + [_draw("Ana"), _draw("Bob"), _discard("Bob", "G5", "A"),
                               _keep("Ana", "13", "G6", "G-1"), _discard("Ana", "G-1", "A")]
    events += pass_turn("Bob") + pass_turn("Cy") + pass_turn("Ana")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]


def test_a_draw_out_of_turn_does_not_hide_the_players_own_breach(tmp_path: Path) -> None:
    """§11 `must_keep_discard_draw = true`: a card taken from A or B must be kept. Ana takes A's 3;
    Bob draws out of turn while she holds it; Ana then passes her 3, which is still her breach
    (`must_keep`), and her discard must restart A, which she emptied (§5.3)."""
    events = opening(SEATS) + [_draw("Ana", "A", "G3"), _draw("Bob"), _discard("Ana", "G3", "B")]
    report = replay(tmp_path, events, options={"must_keep_discard_draw": True})
    assert [(i.kind, i.seat) for i in report.infractions] == [
        ("out_of_turn", "Bob"), ("must_keep", "Ana"), ("wrong_pile", "Ana")]


def test_a_card_drawn_out_of_turn_and_kept_does_not_take_the_turn_over(tmp_path: Path) -> None:
    """The same breach when Bob puts the card he drew out of turn into his grid and discards the
    card that came out: his draw is the one ``out_of_turn``; Ana still finishes her own turn with
    the card she holds, and the turn then passes to Bob."""
    events = opening(SEATS) + [_draw("Ana"), _draw("Bob", "A", "G3"), _keep("Bob", "13", "G3", "G-2"),
                               _discard("Bob", "G-2", "A"), _keep("Ana", "13", "G6", "G-1"),
                               _discard("Ana", "G-1", "A")] + pass_turn("Bob") + pass_turn("Cy")
    report = replay(tmp_path, events)
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "Bob")]


def test_the_first_player_breach_names_the_seat_that_started(tmp_path: Path) -> None:
    """§4.6: in round 1 the youngest player starts (entered at the kiosk: the header's
    ``youngest_seat``). Bob starting instead is Bob's breach, and the infraction names him (the
    ``round_start`` event itself names no seat), as every other infraction names its seat."""
    events = opening(["Bob", "Ana", "Cy"]) + pass_turn("Bob")
    events[0] = {**events[0], "first": "Bob"}
    report = replay(tmp_path, events, options={"youngest_seat": 0})
    assert [(i.kind, i.seat) for i in report.infractions] == [("first_player", "Bob")]


def test_a_draw_out_of_turn_while_the_player_reaches_for_an_empty_pile(tmp_path: Path) -> None:
    """§5.1: Ana empties A on her first turn (she keeps its 3; the Hazard that comes out leaves the
    game, §5.3, as does the Hazard Bob draws and passes). On her next turn she reaches for the
    empty A and takes nothing (`empty_pile`);
    Bob meanwhile draws out of turn and lays that card on B again: one `out_of_turn`, ending no
    turn. Ana's draw from the draw pile is then her turn's one card, and her discard must restart
    A (§5.3)."""
    events = opening(["Ana", "Bob"]) + [
        _draw("Ana", "A", "G3"), _keep("Ana", "13", "G3", "HAZARD"),
        {"type": "discard", "seat": "Ana", "card": "HAZARD"}, _draw("Bob"),
        {"type": "discard", "seat": "Bob", "card": "HAZARD"},
        _draw("Ana", "A"), _draw("Bob"), _discard("Bob", "G6", "B"), _draw("Ana"),
        _keep("Ana", "21", "G4", "G-1"), _discard("Ana", "G-1", "A")] + pass_turn("Bob")
    report = replay(tmp_path, events, seats=["Ana", "Bob"])
    assert [(i.kind, i.seat) for i in report.infractions] == [("empty_pile", "Ana"), ("out_of_turn", "Bob")]
