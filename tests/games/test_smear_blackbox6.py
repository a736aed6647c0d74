"""Sixth black-box round of ``kiosk replay`` on Smear table logs written from ``rules/smear.md``
and ``docs/table-log.md`` alone (seats named N, E, S, W): breaches of play that must be refereed
as infractions while the replay goes on, and the hand flow at the default options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay


def _plays(record: str) -> list[dict[str, Any]]:
    return [{"type": "play", "seat": c[0], "card": c[2:]} for c in record.split()]


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "smear", "seats": ["N", "E", "S", "W"], "options": options}
    return replay(tmp_path, [header, *({"t": i + 1, **e} for i, e in enumerate(events))])


def _infractions(rep: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for i in rep["infractions"] if i["kind"] == kind]


# §13.4, dealer W: N bids 2 and leads 7S (trump spades); NS +2, EW +1.
AUCTION_13_4: list[dict[str, Any]] = [
    {"type": "deal", "seat": "W"},
    {"type": "bid", "seat": "N", "bid": 2}, {"type": "pass", "seat": "E"},
    {"type": "pass", "seat": "S"}, {"type": "pass", "seat": "W"},
]
PLAY_13_4 = _plays("N:7S E:KS S:JS W:QS E:9D S:QD W:JD N:AD N:JC E:QC S:AC W:10S "
                   "W:7D N:KD E:10D S:8D N:AS E:10H S:KH W:KC N:QH E:AH S:10C W:JH")


def test_7_1_every_announcement_that_differs_from_the_first_lead_is_reported(tmp_path: Path) -> None:
    # Trump is named twice before the lead: hearts, then spades. §7.1: an announcement must
    # match the first card's suit; the later, correct one does not hide the wrong one.
    rep = _replay(tmp_path, {}, [
        *AUCTION_13_4[:2],
        {"type": "trump", "seat": "N", "suit": "H"},
        *AUCTION_13_4[2:],
        {"type": "trump", "seat": "N", "suit": "S"},
        *PLAY_13_4,
    ])
    mismatches = _infractions(rep, "trump_mismatch")
    assert len(mismatches) == 1 and "hearts" in mismatches[0]["text"], rep["infractions"]
    assert rep["hands"] == [{"N": 2, "E": 1, "S": 2, "W": 1}]
