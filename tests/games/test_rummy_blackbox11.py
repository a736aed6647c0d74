"""3-13 Speed: the worked hands of ``rules/rummy_3_13.md`` §12 (examples 1 to 11) replayed as
table logs through ``kiosk replay --json``, each with mutants that change one fact (one card, a
wild card for a natural one, the wild-card cap, the face-card points), the penalties worked out
from §3, §4 and §7 alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_rummy_blackbox import _replay

RANK = {11: "J", 12: "Q", 13: "K"}

# (hand size n, options, [(hand, the spec's minimum penalty)]); n is also the wild rank.
CASES: list[tuple[int, dict[str, Any], list[tuple[str, int]]]] = [
    (3, {}, [("7S 7D 3C", 0),          # example 1
             ("3H 3S KD", 0),          # example 2: two 3s stand for Kings
             ("9H JH 2C", 21),         # example 2: no set
             ("7S 7D 4C", 18),         # the wild 3 turned into a natural 4
             ("7S 7D 7C", 0),          # a natural third 7
             ("7S 8S 3C", 0),          # 3C as 9S: a run instead of a group
             ("9H JH 3C", 0)]),        # a wild card fills the gap at 10H
    (3, {"max_wilds_per_set": 0}, [("7S 7D 3C", 17), ("3H 3S KD", 16)]),
    (3, {"max_wilds_per_set": 1}, [("7S 7D 3C", 0), ("3H 3S KD", 16)]),
    (3, {"face_card_points": "rank"}, [("9H JH 2C", 22), ("3H 3S KD", 0)]),
    (4, {}, [("5C 6C 8C 4D", 0),       # example 3
             ("QS QH QD 2C", 2),       # example 3: a 4-card hand needs one 4-card set
             ("4C 2S 9H KD", 25),      # example 3: the lone wild card counts its face value
             ("5C 6C 9C 4D", 9),       # two gaps, one wild card
             ("QS QH QD 4C", 0)]),     # the orphan turned wild
    (4, {"face_card_points": "rank"}, [("4C 2S 9H KD", 28)]),
    (5, {}, [("8S 8H 8D 5C 2D", 2),    # example 4
             ("8S 8H 8D 5C 5D", 0)]),  # a second wild card joins the 8s
    (5, {"max_wilds_per_set": 0}, [("8S 8H 8D 5C 2D", 7)]),
    (6, {}, [("2H 3H 4H 3S 3D 3C", 0),  # example 5
             ("2H 3H 5H 3S 3D 3C", 7),  # 4H one higher: the four 3s are best
             ("2H 3H 6H 3S 3D 3C", 0)]),  # 4H turned wild
    (8, {}, [("2C 3C 8D JS JH 5D 6D 8S", 5),   # example 6
             ("2C 3C 9D JS JH 5D 6D 8S", 25)]),  # one wild card fewer: it goes with the Jacks
    (8, {"max_wilds_per_set": 1}, [("2C 3C 8D JS JH 5D 6D 8S", 5)]),
    (8, {"max_wilds_per_set": 0}, [("2C 3C 8D JS JH 5D 6D 8S", 52)]),
    (9, {}, [("3H 4H 5H 6H 7H 5S 5D 7S 7D", 10),   # example 7
             ("3H 4H 5H 6H 7H 5S 5D 7S 7C", 10),   # another suit, same groups
             ("3H 4H 5H 6H 7H 5S 9D 7S 7D", 5)]),  # 5D turned wild: four 7s, 5S left
    (11, {}, [("5S 6S 7S JD JH 2C 9D 9H 9C KS KC", 2),     # example 11
              ("5S 6S 7S QD JH 2C 9D 9H 9C KS KC", 12)]),  # JD one higher: no longer wild
    (12, {}, [("9C 10C JC QC 4D 4S QH AH 2H 3H 7S KD", 14)]),  # example 10
    (12, {"max_wilds_per_set": 1}, [("9C 10C JC QC 4D 4S QH AH 2H 3H 7S KD", 17)]),
    (13, {}, [("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS KC KD", 0),    # example 8
              ("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS KC 2D", 18),   # example 9
              ("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS QC QD", 16)]),  # no wild card: four Queens
    (13, {"face_card_points": "rank"}, [("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS KC 2D", 18)]),
]


@pytest.mark.parametrize(("n", "options", "hands"), CASES)
def test_worked_hands_and_their_one_card_mutants_score_the_minimum_penalty(
        tmp_path: Path, n: int, options: dict[str, Any], hands: list[tuple[str, int]]) -> None:
    """§7: a hand that is not out scores the smallest orphan total over every arrangement, and
    §6.1 and §5.4: a "match" is confirmed exactly when that minimum is 0 (else it is void). Seat M
    matches at setup with n wild cards; each seat S<i> calls "match" at setup with hands[i]; the
    seats whose call fails play the final round and spread the same hand to be scored."""
    seats = ["M"] + [f"S{i}" for i in range(len(hands))]
    cards = dict(zip(seats[1:], (h.split() for h, _ in hands), strict=True))
    want = dict(zip(seats[1:], (p for _, p in hands), strict=True))
    playing = [s for s in seats[1:] if want[s] > 0]
    wild = RANK.get(n, str(n)) + "S"
    ev: list[dict[str, Any]] = [
        {"t": 0, "type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")},
        {"t": 1, "type": "match", "seat": "M", "cards": [wild] * n},
        *({"t": 1, "type": "match", "seat": s, "cards": cards[s]} for s in seats[1:]),
        {"t": 2, "type": "call", "call": "draw"},
        *({"t": 3, "type": "draw", "seat": s, "from": "pool"} for s in playing),
        *({"t": 4, "type": "hold", "seat": s} for s in playing),
        {"t": 5, "type": "call", "call": "discard"},
        *({"t": 6, "type": "discard", "seat": s, "card": "2C"} for s in playing),
        *({"t": 7, "type": "show", "seat": s, "cards": cards[s]} for s in playing),
    ]
    report = _replay(tmp_path, {"hands": [n], "decks": 8, **options}, ev, seats)
    assert report["infractions"] == []
    assert report["hands"] == [{"M": 0, **want}]
    claims = {r["seats"][0]: r["kind"] for r in report["rulings"] if r["kind"] in ("match", "failed_match")}
    assert claims == {"M": "match", **{s: "failed_match" if want[s] else "match" for s in seats[1:]}}
    shown = report["extra"]["arrangements"][0]
    assert {s: shown[s]["penalty"] for s in playing} == {s: want[s] for s in playing}
