"""Seventh round of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: table breaches that must be refereed as
infractions rather than stop the replay, and Hazards and Mulligans under their options (§5.3,
§5.4, §6.1, §11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.gnoming_logs import SEATS, opening, replay


def _draw(seat: str, source: str = "deck", card: str | None = None) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "from": source, **({"card": card} if card else {})}


def _discard(seat: str, card: str, pile: str | None = None) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "card": card, **({"pile": pile} if pile else {})}


def _flip(seat: str, pos: str, card: str) -> dict[str, Any]:
    return {"type": "flip", "seat": seat, "pos": pos, "card": card}


def test_a_hazard_kept_off_the_piles_under_to_pile_is_a_breach_not_a_malformed_log(tmp_path: Path) -> None:
    """§5.3 / §11 `hazard_on_discard = to_pile`: a discarded Hazard goes on a discard pile like
    other cards and still triggers the flips. Ana sets hers aside instead (the camera sees no pile).
    docs/table-log.md names as malformed only a discard of a card *other than a Hazard* without a
    pile, so this is the table's breach (`hazard_off_pile`): the replay goes on, the Hazard still
    gives the other seats their flips, and the turn passes to Bob."""
    events = opening(SEATS) + [_draw("Ana"), _discard("Ana", "HAZARD"), _flip("Bob", "13", "G5"),
                               _flip("Cy", "13", "G6"), _draw("Bob"), _discard("Bob", "G6", "A")]
    report = replay(tmp_path, events, options={"hazard_on_discard": "to_pile"})
    assert [i.kind for i in report.infractions] == ["hazard_off_pile"]
    assert [r.kind for r in report.rulings] == ["round_start", "hazard"]
    assert "Bob, Cy" in report.rulings[1].text


def test_the_hazard_ruling_names_the_seats_that_may_flip(tmp_path: Path) -> None:
    """docs/table-log.md: a ruling's `seats` are the seats it concerns, and the `hazard` ruling is
    "a Hazard discarded: who may flip" (§5.4: every other player with at least
    `hazard_flip_min_facedown` face-down cards). Under a minimum of 8 only seats that have turned
    no more than one card up qualify, so after Bob's opening flips of two cards nobody may flip."""
    events = opening(SEATS) + [_draw("Ana"), _discard("Ana", "HAZARD")]
    report = replay(tmp_path, events)
    assert report.rulings[-1].kind == "hazard" and report.rulings[-1].seats == ("Bob", "Cy")
    report = replay(tmp_path, events, options={"hazard_flip_min_facedown": 8})
    assert report.rulings[-1].kind == "hazard" and report.rulings[-1].seats == ()
