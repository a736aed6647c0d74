"""Eighth round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: whole games over several rounds, who
starts each round, final turns, the draw pile running out, the end of the game (§7) and the
table's score corrections."""

from __future__ import annotations

from pathlib import Path

from tests.games.gnoming_logs import SEATS, opening, pass_turn, replay
from tests.games.test_gnoming_blackbox5 import _bob_goes_out, _reveals


def test_a_correction_to_a_hand_past_the_last_round_does_not_become_the_tie_break(tmp_path: Path) -> None:
    """§7: a tie on the lowest total goes to the tied player with the lowest score in the game's
    last round (docs/table-log.md: "lowest total, then lowest last round"). With rounds = 1 the
    round scores are Ana 6, Bob -5, Cy 3; the table then logs a correction for a hand 2 that the
    game never has (Bob 11, Cy 3). A correction replaces a score for a hand (docs/table-log.md), and
    there is no hand 2 score to replace: the phantom hand adds no round and no total (it would bring
    every total to 6 and make the tie-break Ana's 0 there). Bob wins on the lowest total, -5."""
    fixes = [{"type": "score_correction", "seat": "Bob", "hand": 2, "score": 11},
             {"type": "score_correction", "seat": "Cy", "hand": 2, "score": 3}]
    report = replay(tmp_path, _bob_goes_out() + _reveals() + fixes, options={"rounds": 1})
    assert report.totals == {"Ana": 6, "Bob": -5, "Cy": 3}
    assert len(report.hands) == 1
    assert report.winners == ["Bob"]
    end = [r for r in report.rulings if r.kind == "game_end"]
    assert [(r.text, r.seats) for r in end] == [("game over: Bob wins", ("Bob",))]


def test_the_reshuffle_takes_every_discard_under_the_two_tops(tmp_path: Path) -> None:
    """§5.1 ruling (`draw_pile_empty = reshuffle_discards`): a deck of 37 cards leaves a draw pile
    of 37 - 27 - 2 = 8. After eight passes pile A holds its starter and eight discards; Cy then
    takes A's top and discards it on B. The ninth draw from the draw pile shuffles the 7 cards
    under A's top and the 1 under B's top (8 in all) into a new draw pile."""
    deck = {"G5": 14, "G6": 10, "G-1": 3, "G3": 2, "G4": 2, "G8": 3, "G7": 3}
    events = opening(SEATS)
    for n in range(8):
        events += pass_turn(SEATS[n % 3])
    events += [{"type": "draw", "seat": "Cy", "from": "A", "card": "G6"},
               {"type": "discard", "seat": "Cy", "card": "G6", "pile": "B"}]
    for n in range(8):
        events += pass_turn(SEATS[n % 3])
    report = replay(tmp_path, events, options={"deck": deck})
    assert report.infractions == []
    shuffles = [r.text for r in report.rulings if r.kind == "reshuffle"]
    assert len(shuffles) == 1 and "the 8 discards" in shuffles[0]
