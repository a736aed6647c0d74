"""An independent brute-force 3-13 scorer: the reference algorithm of rummy_3_13.md §7.1.

It tests every subset of the hand with the literal validity test of §4 (every split
of the wild cards into "self" and "free") and runs the subset DP over all masks.
It shares no code with :mod:`kiosk.games.melds`; it is slow (3^n) and only meant
for hands of up to about 9 cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from kiosk.games.cards import Card


def _points(card: Card, face_card_points: str) -> int:
    r = int(card.rank)
    return min(r, 10) if face_card_points == "10" else r


def valid(cards: Sequence[Card], w: int, max_wilds: int | None) -> bool:
    """The pseudo-code of §4, literally (each wild card split into self or free)."""
    if len(cards) < 3:
        return False
    wild_idx = [i for i, c in enumerate(cards) if int(c.rank) == w]
    non_wild = [c for c in cards if int(c.rank) != w]
    for n_free in range(len(wild_idx) + 1):
        if max_wilds is not None and n_free > max_wilds:
            continue
        for free in combinations(wild_idx, n_free):
            selfs = [cards[i] for i in wild_idx if i not in free]
            n = non_wild + selfs
            if not n:
                return True
            if len({c.rank for c in n}) == 1:
                return True
            if len({c.suit for c in n}) == 1 and len({c.rank for c in n}) == len(n):
                gaps = (max(int(c.rank) for c in n) - min(int(c.rank) for c in n) + 1) - len(n)
                if gaps <= n_free and len(cards) <= 13:
                    return True
    return False


def brute_force_penalty(
    cards: Sequence[Card], w: int, *, max_wilds: int | None = None, face_card_points: str = "10"
) -> int:
    """The minimum penalty by the subset DP of §7.1."""
    n = len(cards)
    full = (1 << n) - 1
    is_set = [False] * (full + 1)
    for m in range(1, full + 1):
        if bin(m).count("1") >= 3:
            is_set[m] = valid([cards[i] for i in range(n) if m >> i & 1], w, max_wilds)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        i = (mask & -mask).bit_length() - 1
        bit = 1 << i
        rest = mask ^ bit
        b = best[rest] + _points(cards[i], face_card_points)
        s = rest
        while True:
            if is_set[s | bit]:
                b = min(b, best[rest ^ s])
            if s == 0:
                break
            s = (s - 1) & rest
        best[mask] = b
    return best[full]
