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


# Breaches of play that happen at a real table: each is refereed as the infraction the docs
# list for it, and the replay goes on (exit status 0), whatever comes after it.
_FULL_13_4 = [*AUCTION_13_4, *PLAY_13_4]
_BREACHES: dict[str, tuple[list[dict[str, Any]], str]] = {
    "a bid after the auction": (
        [*AUCTION_13_4, {"type": "bid", "seat": "E", "bid": 3}, *PLAY_13_4], "illegal_bid"),
    "a play before the auction ended": (
        [*AUCTION_13_4[:2], {"type": "play", "seat": "N", "card": "7S"}, *AUCTION_13_4[2:], *PLAY_13_4],
        "out_of_turn"),
    "a fifth card in a trick": (
        [*AUCTION_13_4, *PLAY_13_4[:4], {"type": "play", "seat": "N", "card": "AD"}, *PLAY_13_4[4:]],
        "out_of_turn"),
    "a collect of an incomplete trick": (
        [*AUCTION_13_4, *PLAY_13_4[:2], {"type": "collect"}, *PLAY_13_4[2:]], "wrong_count"),
    "the same card played twice": (
        [*AUCTION_13_4, *PLAY_13_4[:23], {"type": "play", "seat": "W", "card": "QS"}], "seen_twice"),
    "a misdeal in the middle of the play": (
        [*AUCTION_13_4, *PLAY_13_4[:6], {"type": "misdeal", "seat": "W"}, *PLAY_13_4[6:]], "illegal_misdeal"),
    "a card after the sixth trick": (
        [*_FULL_13_4, {"type": "play", "seat": "E", "card": "AH"}], "wrong_count"),
    "a deal in the middle of a hand": (
        [*AUCTION_13_4, *PLAY_13_4[:9], {"type": "deal", "seat": "W"}], "incomplete_hand"),
    "discards shown in a game without a blind": (
        [*_FULL_13_4, {"type": "discard", "seat": "N", "cards": ["9S", "8S"]}], "illegal_discard"),
}


def test_10_breaches_of_play_are_infractions_and_the_replay_goes_on(tmp_path: Path) -> None:
    for name, (events, kind) in _BREACHES.items():
        rep = _replay(tmp_path, {}, events)
        assert _infractions(rep, kind), (name, rep["infractions"])
