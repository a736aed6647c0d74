"""3-13 Speed: a tenth outsider's table logs, a state x event matrix under the variant options
and with two odd events in a row, built from ``rules/rummy_3_13.md`` and ``docs/table-log.md``
alone and replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay
from tests.games.test_rummy_blackbox5 import _kinds
from tests.games.test_rummy_blackbox9 import _round

SEATS = ["Ana", "Ben", "Cal"]
PILES = {"Ana": "2S", "Ben": "9D", "Cal": "KC"}
SHOWN = {"Ana": ["7S", "7D", "3C"], "Ben": ["9H", "JH", "2C"], "Cal": ["AS", "AH", "6C"]}
MATCH = {"type": "match", "seat": "Ana", "cards": ["7S", "7D", "3C"]}


def _replay(tmp_path: Path, events: list[dict[str, Any]], options: dict[str, Any],
            seats: list[str] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats or SEATS, "options": options}
    return replay(tmp_path, [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)])


def _shows(seats: list[str]) -> list[dict[str, Any]]:
    return [{"type": "show", "seat": s, "cards": SHOWN[s]} for s in seats]


@pytest.mark.parametrize("late_at", [1, 6, 8])
def test_a_matched_seats_discard_turned_up_late_in_the_final_round_is_the_card_it_owed(
        tmp_path: Path, late_at: int) -> None:
    """§6.1: every held card is turned up at "discard"; §6.3: a matched hand stays frozen in the
    final round. Ana's round-1 discard (Q♥, laid face down, so not in the three cards she lays
    out for her match) is not seen by the final round's "draw" call (``no_discard``, naming
    Ana). She turns it up late, during the final round's draw or after its "discard" call. That
    card is the one she owed from round 1, as for a seat still playing (test_rummy_blackbox9),
    not a card of her frozen hand: it is early before the call, ``extra_discard`` once the final
    round is over (turned up after the final round), and no ``not_in_round``."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": PILES}]
    ev += [e for e in _round(SEATS, {"Ana": "QH", "Ben": "JS", "Cal": "10S"})
           if not (e["type"] == "discard" and e["seat"] == "Ana")]
    ev += [MATCH]
    final = _round(["Ben", "Cal"], {"Ben": "JH", "Cal": "10D"})
    ev += final[:late_at] + [{"type": "discard", "seat": "Ana", "card": "QH"}] + final[late_at:]
    ev += _shows(["Ben", "Cal"])
    report = _replay(tmp_path, ev, {"hands": [3]})
    late = {1: [("early_discard", "Ana")], 6: [], 8: [("extra_discard", "Ana")]}[late_at]
    expected = [("no_discard", "Ana")] + late
    assert _kinds(report) == expected
    assert report["hands"] == [{"Ana": 0, "Ben": 21, "Cal": 8}]
    assert report["finished"] and report["winners"] == ["Ana"]
