"""The exact minimum-penalty meld scorer of 3-13 Speed Rummy (rummy_3_13.md §4, §7, §7.1).

Glossary:

- **set** (here :class:`Meld`): three or more cards forming a **group** (one rank,
  suits may repeat, identical cards from several decks allowed) or a **run** (one
  suit, different consecutive ranks inside A..K; the Ace is low only, no wrap).
- **wild card**: a card of the hand's wild rank ``w`` (the hand size). It may count
  as itself or stand for any other card. A wild card that stands for another card is
  **free**; ``max_wilds_per_set`` caps the free wild cards in one set.
- **natural**: a card that counts as itself.
- **orphan**: a card left outside every set; it costs its penalty points
  (A = 1, 2..10 face value, J/Q/K = 10, or 11/12/13 under ``face_card_points="rank"``).
- **penalty**: the smallest total of orphan points over every arrangement of the
  hand into sets. A hand with penalty 0 is **complete**.

How the search works (exact, never greedy). Every wild card has the same penalty
(they share the wild rank), so only *how many* free wild cards a set uses matters.
The naturals are kept as a sorted tuple of codes ``(rank - 1) * 4 + suit``; the
lowest remaining natural ``c`` is either an orphan, or in a group with other cards
of its rank, or the lowest natural of a run of its suit (every other natural of
that run has a higher rank). Each choice removes cards and spends the free wild
cards the set needs (to reach three cards and to fill gaps); the best result per
``(remaining naturals, free wild cards)`` is memoised. With no cap, a set never
needs more free wild cards than that minimum: spare wild cards join any set (a
group takes any number; a hand has at most 13 cards, so a run always has room),
or form a set of their own when there are three or more. With a cap, the search
also chooses which wild cards count as themselves, and how many spare free wild
cards each set absorbs.

>>> hand = parse_cards("2H 3H 4H 3S 3D 3C")           # rummy_3_13.md example 5
>>> best = best_arrangement(hand, wild_rank=6)
>>> best.penalty, best.is_complete
(0, True)
>>> [m.display() for m in best.melds]
['2♥ 3♥ 4♥', '3♣ 3♦ 3♠']
>>> min_penalty(parse_cards("9H JH 2C"), wild_rank=3)
21
>>> is_valid_set(parse_cards("5C 6C 8C 4D"), wild_rank=4)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.games.cards import Card, Rank, format_cards
from kiosk.games.cards import parse_cards as parse_cards  # for the examples in docstrings

__all__ = [
    "FACE_CARD_POINTS",
    "MAX_HAND",
    "Meld",
    "Arrangement",
    "card_points",
    "is_valid_set",
    "best_arrangement",
    "min_penalty",
    "score_laid_out",
    "laid_out_arrangement",
]

FACE_CARD_POINTS = ("10", "rank")
"""The choices of the ``face_card_points`` option: J/Q/K score 10, or 11/12/13."""
MAX_HAND = 13
"""The largest hand the scorer takes (hand 11 of the game)."""
MAX_RUN = 13


def card_points(card: Card, face_card_points: str = "10") -> int:
    """Returns the penalty of ``card`` as an orphan.

    >>> card_points(Card.parse("KS")), card_points(Card.parse("KS"), "rank"), card_points(Card.parse("AD"))
    (10, 13, 1)
    """
    _check_face_points(face_card_points)
    r = int(card.rank)
    return min(r, 10) if face_card_points == "10" else r


@dataclass(frozen=True, slots=True)
class Meld:
    """One set of an arrangement, with what each card counts as."""

    kind: str
    """``"group"`` or ``"run"``."""
    cards: tuple[Card, ...]
    """The physical cards, in the order they are shown (a run from low to high)."""
    faces: tuple[Card, ...]
    """What each card counts as (same order): itself, or the card a wild card stands for.
    In a group only the rank matters; a wild card keeps its own suit there."""

    @property
    def wild_uses(self) -> tuple[tuple[Card, Card], ...]:
        """The ``(wild card, card it stands for)`` pairs of this set."""
        return tuple((c, f) for c, f in zip(self.cards, self.faces, strict=True) if c.face != f.face)

    def display(self) -> str:
        """A label for the screen: ``"J♠ J♥ 8♦=J♦"``."""
        parts = []
        for c, f in zip(self.cards, self.faces, strict=True):
            parts.append(c.display() if c.face == f.face else f"{c.display()}={f.display()}")
        return " ".join(parts)

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A best arrangement of a hand: its sets, its orphans and the penalty they cost."""

    melds: tuple[Meld, ...]
    orphans: tuple[Card, ...]
    penalty: int
    """The orphans' points: the hand's score."""

    @property
    def is_complete(self) -> bool:
        """True when every card is in a set (penalty 0 and no orphan)."""
        return not self.orphans

    def display(self) -> str:
        """A one-line summary for the kiosk: ``"{2♥ 3♥ 4♥} {3♣ 3♦ 3♠}; orphans: none; penalty 0"``."""
        sets = " ".join("{" + m.display() + "}" for m in self.melds) or "no sets"
        orph = " ".join(c.display() for c in self.orphans) or "none"
        return f"{sets}; orphans: {orph}; penalty {self.penalty}"

    def to_json(self) -> dict[str, object]:
        """The arrangement as JSON values (card notation), for reports."""
        return {
            "sets": [[str(c) for c in m.cards] for m in self.melds],
            "as": [[str(f.face) for f in m.faces] for m in self.melds],
            "orphans": [str(c) for c in self.orphans],
            "penalty": self.penalty,
        }


def _check_face_points(face_card_points: str) -> None:
    if face_card_points not in FACE_CARD_POINTS:
        raise ValueError(f"face_card_points must be '10' or 'rank', got {face_card_points!r}")


def _check_wild_rank(wild_rank: int | Rank) -> int:
    w = int(wild_rank)
    if not 1 <= w <= 13:
        raise ValueError(f"wild_rank must be a rank from 1 (A) to 13 (K), got {wild_rank!r}")
    return w


def is_valid_set(
    cards: Sequence[Card], wild_rank: int | Rank, *, max_wilds_per_set: int | None = None
) -> bool:
    """Returns True when ``cards`` form one valid set (the validity test of §4).

    >>> is_valid_set(parse_cards("JS JH 8D"), wild_rank=8)
    True
    >>> is_valid_set(parse_cards("QH KH AH"), wild_rank=5)
    False
    >>> is_valid_set(parse_cards("2C 3C 4C 4C"), wild_rank=9)
    False
    """
    return _as_meld(cards, wild_rank, max_wilds_per_set) is not None


def _as_meld(cards: Sequence[Card], wild_rank: int | Rank, max_wilds_per_set: int | None) -> Meld | None:
    """The set ``cards`` make, with what each wild card stands for; None when they make none.

    The validity test of §4, literally: each split of the wild cards into "self" and
    "free" (within ``max_wilds_per_set``) is tried, fewest free first.
    """
    w = _check_wild_rank(wild_rank)
    if len(cards) < 3:
        return None
    if any(c.is_joker for c in cards):
        return None
    naturals = [c for c in cards if c.rank != w]
    wilds = [c for c in cards if c.rank == w]
    cap = len(wilds) if max_wilds_per_set is None else max_wilds_per_set
    for n_free in range(min(len(wilds), cap) + 1):
        # Which wild cards stay natural matters only through their suits.
        for self_wilds in _wild_choices(wilds, len(wilds) - n_free):
            group = naturals + list(self_wilds)
            free = list(wilds)
            for c in self_wilds:
                free.remove(c)
            if not group:
                # Only wild cards, all standing for others: still a natural group of their rank.
                return Meld("group", tuple(cards), tuple(cards))
            if len({c.rank for c in group}) == 1:
                return _lay_out("group", sorted(group), free)
            if len({c.suit for c in group}) == 1 and len({c.rank for c in group}) == len(group):
                lo = min(c.rank for c in group)
                hi = max(c.rank for c in group)
                if (hi - lo + 1) - len(group) <= n_free and len(cards) <= MAX_RUN:
                    return _lay_out("run", group, free)
    return None


def _wild_choices(wilds: Sequence[Card], k: int) -> list[tuple[Card, ...]]:
    """The distinct ways (by suit) to pick ``k`` of ``wilds``."""
    by_suit = Counter(c.suit for c in wilds)
    suits = sorted(by_suit, key=lambda s: int(s) if s is not None else -1)
    out: list[tuple[Card, ...]] = []

    def rec(i: int, left: int, acc: list[Card]) -> None:
        if i == len(suits):
            if left == 0:
                out.append(tuple(acc))
            return
        s = suits[i]
        same = [c for c in wilds if c.suit == s]
        for take in range(min(left, by_suit[s]) + 1):
            rec(i + 1, left - take, acc + same[:take])

    rec(0, k, [])
    return out


# -- the search ---------------------------------------------------------------------

_Choice = tuple[str, tuple[int, ...], int]
"""A search step: (kind, natural codes used, free wild cards used); kind "orphan" has one code."""


class _Search:
    """One memoised search over a hand's naturals (codes) and free wild cards."""

    __slots__ = ("pts", "cap", "wild_pts", "memo")

    def __init__(self, pts: Sequence[int], cap: int | None, wild_pts: int) -> None:
        self.pts = pts
        """Penalty per code (0..51)."""
        self.cap = cap
        """None: no cap, sets take only the free wild cards they need (spares are absorbed)."""
        self.wild_pts = wild_pts
        self.memo: dict[tuple[tuple[int, ...], int], tuple[int, _Choice | None]] = {}

    def solve(self, state: tuple[int, ...], free: int) -> int:
        key = (state, free)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if not state:
            # Uncapped: spare free wild cards are placed afterwards (see module docstring).
            value = 0 if self.cap is None else free * self.wild_pts
            self.memo[key] = (value, None)
            return value
        c = state[0]
        rest = state[1:]
        cap = self.cap
        max_free = free if cap is None else min(free, cap)
        rank = c >> 2
        suit = c & 3
        j = 0
        while j < len(rest) and rest[j] >> 2 == rank:
            j += 1
        # Sets first: a complete hand (value 0) ends the search at once, and 0 is the floor.
        best = 1 << 30
        choice: _Choice | None = None
        higher: list[int] = []
        seen_rank = rank
        for x in rest[j:]:
            if x & 3 == suit and x >> 2 != seen_rank:
                higher.append(x)
                seen_rank = x >> 2
        if higher:
            best, choice = self._runs(c, rest, higher, free, max_free, best, choice)
        if best > 0:
            # Groups: c with a sub-multiset of the other naturals of its rank, largest first.
            for sub in reversed(_sub_multisets(rest[:j])):
                k = 1 + len(sub)
                need = 3 - k if k < 3 else 0
                if need > max_free:
                    continue
                remaining = _remove(rest, sub)
                hi = need if cap is None else max_free
                for f in range(need, hi + 1):
                    v = self.solve(remaining, free - f)
                    if v < best:
                        best = v
                        choice = ("group", (c, *sub), f)
                if best == 0:
                    break
        if best > 0:
            v = self.pts[c] + self.solve(rest, free)
            if v < best:
                best = v
                choice = ("orphan", (c,), 0)
        self.memo[key] = (best, choice)
        return best

    def _runs(
        self, c: int, rest: tuple[int, ...], higher: list[int], free: int, max_free: int,
        best: int, choice: _Choice | None,
    ) -> tuple[int, _Choice | None]:
        cap = self.cap
        low = c >> 2
        # Depth-first over the higher ranks in order; gaps only grow along a path.
        stack: list[tuple[int, tuple[int, ...]]] = [(0, (c,))]
        while stack:
            start, members = stack.pop()
            nk = len(members) + 1
            for i in range(start, len(higher)):
                x = higher[i]
                gaps = (x >> 2) - low + 1 - nk
                if gaps > max_free:
                    break
                new = (*members, x)
                stack.append((i + 1, new))
                need = gaps if gaps > 3 - nk else 3 - nk
                if need > max_free:
                    continue
                remaining = _remove(rest, new[1:])
                hi = need if cap is None else min(max_free, MAX_RUN - nk)
                for f in range(need, hi + 1):
                    v = self.solve(remaining, free - f)
                    if v < best:
                        best = v
                        choice = ("run", new, f)
                if best == 0:
                    return best, choice
        return best, choice

    def path(self, state: tuple[int, ...], free: int) -> list[_Choice]:
        """The choices of the best solution found by :meth:`solve`."""
        out: list[_Choice] = []
        while state:
            _, choice = self.memo[(state, free)]
            assert choice is not None
            out.append(choice)
            state = _remove(state, choice[1])
            free -= choice[2]
        return out


def _sub_multisets(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every sub-multiset of a sorted tuple of codes (equal codes are interchangeable)."""
    out: list[tuple[int, ...]] = [()]
    i = 0
    while i < len(cards):
        j = i
        while j < len(cards) and cards[j] == cards[i]:
            j += 1
        code = cards[i]
        out = [prev + (code,) * t for prev in out for t in range(j - i + 1)]
        i = j
    return out


def _remove(state: tuple[int, ...], used: Iterable[int]) -> tuple[int, ...]:
    lst = list(state)
    for u in used:
        lst.remove(u)
    return tuple(lst)


def _code(card: Card) -> int:
    assert card.suit is not None
    return (int(card.rank) - 1) * 4 + int(card.suit)


def _check_hand(cards: Sequence[Card]) -> None:
    if len(cards) > MAX_HAND:
        raise ValueError(f"a 3-13 hand has at most {MAX_HAND} cards, got {len(cards)}")
    for c in cards:
        if not isinstance(c, Card) or c.is_joker:
            raise ValueError(f"3-13 is played without jokers: {c!r} cannot be scored")


def best_arrangement(
    cards: Sequence[Card],
    wild_rank: int | Rank,
    *,
    max_wilds_per_set: int | None = None,
    face_card_points: str = "10",
) -> Arrangement:
    """Returns an arrangement of ``cards`` into sets with the smallest penalty.

    Exact: every arrangement is covered by the search. ``max_wilds_per_set``
    (None: unlimited) caps the wild cards that stand for other cards in one set.
    Raises ValueError for a joker, more than 13 cards or a bad option.

    >>> a = best_arrangement(parse_cards("2C 3C 8D JS JH 5D 6D 8S"), wild_rank=8)   # example 6
    >>> a.penalty, [str(c) for c in a.orphans]
    (5, ['2C', '3C'])
    >>> best_arrangement(parse_cards("4C 2S 9H KD"), wild_rank=4).display()
    'no sets; orphans: 2♠ 4♣ 9♥ K♦; penalty 25'
    """
    w = _check_wild_rank(wild_rank)
    _check_face_points(face_card_points)
    _check_hand(cards)
    if max_wilds_per_set is not None and max_wilds_per_set < 0:
        raise ValueError(f"max_wilds_per_set must be 0 or more (or None), got {max_wilds_per_set}")
    pts = [min(r, 10) if face_card_points == "10" else r for r in range(1, 14) for _ in range(4)]
    wild_pts = pts[(w - 1) * 4]
    by_code: dict[int, list[Card]] = {}
    for c in sorted(cards):
        by_code.setdefault(_code(c), []).append(c)
    wilds = sorted((c for c in cards if c.rank == w), key=lambda c: (int(c.suit or 0), c.deck))
    naturals = tuple(sorted(_code(c) for c in cards if c.rank != w))

    if max_wilds_per_set is None:
        search = _Search(pts, None, wild_pts)
        search.solve(naturals, len(wilds))
        steps = search.path(naturals, len(wilds))
        return _build(steps, by_code, list(wilds), w, pts, absorb=True)

    # Capped: choose which wild cards count as themselves (only their suits matter).
    cap = max_wilds_per_set
    search = _Search(pts, cap, wild_pts)
    best_value: int | None = None
    best_pick: tuple[tuple[int, ...], tuple[Card, ...]] = ((), ())
    # A free wild card that no set uses is no better than one counting as itself, so
    # at most ``cap`` per possible set are free; most free first, stop at penalty 0.
    most_free = min(len(wilds), cap * (len(cards) // 3))
    for n_free in range(most_free, -1, -1):
        for self_wilds in _wild_choices(wilds, len(wilds) - n_free):
            state = tuple(sorted(naturals + tuple(_code(c) for c in self_wilds)))
            value = search.solve(state, n_free)
            if best_value is None or value < best_value:
                best_value = value
                best_pick = (state, self_wilds)
            if best_value == 0:
                break
        if best_value == 0:
            break
    state, self_wilds = best_pick
    free_wilds = list(wilds)
    for c in self_wilds:
        free_wilds.remove(c)
    steps = search.path(state, len(free_wilds))
    return _build(steps, by_code, free_wilds, w, pts, absorb=False)


def _build(
    steps: list[_Choice], by_code: dict[int, list[Card]], free_wilds: list[Card], w: int,
    pts: Sequence[int], *, absorb: bool,
) -> Arrangement:
    """Turns search steps into melds of physical cards, placing the free wild cards."""
    pool = {k: list(v) for k, v in by_code.items()}
    plans: list[tuple[str, list[Card], int]] = []
    orphans: list[Card] = []
    for kind, codes, f in steps:
        phys = [pool[code].pop(0) for code in codes]
        if kind == "orphan":
            orphans.extend(phys)
        else:
            plans.append((kind, phys, f))
    wilds = list(free_wilds)
    spare = len(wilds) - sum(f for _, _, f in plans)
    extra = [0] * len(plans)
    if absorb and spare > 0:
        groups = [i for i, p in enumerate(plans) if p[0] == "group"]
        if groups:
            extra[groups[0]] = spare
        elif plans:
            for i, (_, phys, f) in enumerate(plans):
                room = MAX_RUN - len(phys) - f
                take = min(room, spare)
                extra[i] += take
                spare -= take
        spare = len(wilds) - sum(f for _, _, f in plans) - sum(extra)
    melds: list[Meld] = []
    for (kind, phys, f), more in zip(plans, extra, strict=True):
        mine = [wilds.pop() for _ in range(f + more)]
        melds.append(_lay_out(kind, phys, mine))
    if wilds:
        if len(wilds) >= 3 and absorb and not melds:
            # Only wild cards left: they are a natural group of the wild rank.
            melds.append(Meld("group", tuple(wilds), tuple(wilds)))
        else:
            orphans.extend(wilds)
    orphans.sort()
    penalty = sum(pts[_code(c)] for c in orphans)
    melds.sort(key=lambda m: (min(m.faces).rank, m.kind, [str(c) for c in m.cards]))
    return Arrangement(tuple(melds), tuple(orphans), penalty)


def _lay_out(kind: str, naturals: list[Card], wilds: list[Card]) -> Meld:
    """Orders a set's cards and says what each free wild card stands for."""
    if kind == "group":
        r = naturals[0].rank
        group_faces = [*naturals, *(Card(r, c.suit, 0) for c in wilds)]
        return Meld("group", (*naturals, *wilds), tuple(group_faces))
    suit = naturals[0].suit
    have = {int(c.rank): c for c in naturals}
    lo: int = min(have)
    hi: int = max(have)
    fill = [r for r in range(lo, hi + 1) if r not in have]
    left = len(wilds) - len(fill)
    while left > 0 and hi < 13:
        hi += 1
        fill.append(hi)
        left -= 1
    while left > 0 and lo > 1:
        lo -= 1
        fill.append(lo)
        left -= 1
    stand = dict(zip(fill, wilds, strict=True))
    cards: list[Card] = []
    faces: list[Card] = []
    for rk in range(lo, hi + 1):
        if rk in have:
            cards.append(have[rk])
            faces.append(have[rk])
        else:
            cards.append(stand[rk])
            faces.append(Card(Rank(rk), suit, 0))
    return Meld("run", tuple(cards), tuple(faces))


def min_penalty(
    cards: Sequence[Card],
    wild_rank: int | Rank,
    *,
    max_wilds_per_set: int | None = None,
    face_card_points: str = "10",
) -> int:
    """Returns the smallest penalty of ``cards`` (see :func:`best_arrangement`)."""
    return best_arrangement(
        cards, wild_rank, max_wilds_per_set=max_wilds_per_set, face_card_points=face_card_points
    ).penalty


def score_laid_out(
    sets: Sequence[Sequence[Card]],
    orphans: Sequence[Card],
    wild_rank: int | Rank,
    *,
    max_wilds_per_set: int | None = None,
    face_card_points: str = "10",
) -> tuple[int, list[int]]:
    """Scores a player's own arrangement (``scoring_mode = as_laid_out``).

    Returns the penalty (the orphans' points plus the cards of every invalid set,
    which count as orphans) and the indexes of the invalid sets.

    >>> score_laid_out([parse_cards("5S 5H 5D"), parse_cards("7S 8H 9S")], parse_cards("2C"), 11)
    (26, [1])
    """
    _check_face_points(face_card_points)
    bad: list[int] = []
    penalty = sum(card_points(c, face_card_points) for c in orphans)
    for i, s in enumerate(sets):
        if not is_valid_set(s, wild_rank, max_wilds_per_set=max_wilds_per_set):
            bad.append(i)
            penalty += sum(card_points(c, face_card_points) for c in s)
    return penalty, bad


def laid_out_arrangement(
    sets: Sequence[Sequence[Card]],
    orphans: Sequence[Card],
    wild_rank: int | Rank,
    *,
    max_wilds_per_set: int | None = None,
    face_card_points: str = "10",
) -> Arrangement:
    """A player's own arrangement as laid out (``scoring_mode = as_laid_out``, §7).

    The valid sets are kept as laid out (each wild card says what it stands for); the
    cards of an invalid set join the orphans. The penalty is :func:`score_laid_out`'s.

    >>> sets = [parse_cards("5S 5H 5D"), parse_cards("7S 8H 9S")]
    >>> laid_out_arrangement(sets, parse_cards("2C"), 11).display()
    '{5♦ 5♥ 5♠}; orphans: 2♣ 7♠ 8♥ 9♠; penalty 26'
    """
    _check_face_points(face_card_points)
    melds: list[Meld] = []
    left = list(orphans)
    for s in sets:
        meld = _as_meld(s, wild_rank, max_wilds_per_set)
        if meld is None:
            left.extend(s)
        else:
            melds.append(meld)
    left.sort()
    penalty = sum(card_points(c, face_card_points) for c in left)
    return Arrangement(tuple(melds), tuple(left), penalty)
