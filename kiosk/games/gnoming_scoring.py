"""Grid scoring of Gnoming A Round (``rules/gnoming.md`` §6, §7).

Glossary:

- **grid**: a seat's 3×3 cards; position ``(r, c)`` with row 1 farthest from the
  owner and column 1 on the owner's left, written ``"rc"`` (``"11"`` .. ``"33"``)
  and indexed ``3 * (r - 1) + (c - 1)`` here.
- **line**: a row or a column (and a diagonal under ``score_diagonals``).
- **matched line**: three positive cards of one value ``v``, or two of them and a
  **wild** Mulligan; it scores ``-v`` and its cards add nothing else.
- **wild Mulligan**: a Mulligan that stands for whatever completes its line; by
  default only one Mulligan per grid is wild, the rest score 0.

The scorer is exact: it tries every choice of wild Mulligans (and, when a
Mulligan must take one value, every value) and, under ``line_sharing =
disjoint``, every set of matched lines that share no card, and keeps the lowest
score.

>>> from kiosk.games.cards import GnomeCard
>>> grid = [GnomeCard.parse(t) for t in "G7 G7 G7 G7 G4 G-2 G7 G8 G5".split()]   # example 3
>>> score_grid(grid).score, score_grid(grid, line_sharing="disjoint").score
(1, 22)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from kiosk.games.cards import GnomeCard

__all__ = ["LINES", "DIAGONALS", "GridScore", "score_grid", "pos_name", "parse_pos", "card_value"]

ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
LINES: tuple[tuple[int, int, int], ...] = ROWS + COLUMNS
DIAGONALS: tuple[tuple[int, int, int], ...] = ((0, 4, 8), (2, 4, 6))
_VALUES = range(3, 9)


def pos_name(index: int) -> str:
    """The notation of a grid position: index 0 is ``"11"``, index 8 is ``"33"``.

    >>> pos_name(0), pos_name(5)
    ('11', '23')
    """
    return f"{index // 3 + 1}{index % 3 + 1}"


def parse_pos(text: str) -> int:
    """Parses ``"rc"`` (row and column, 1..3 each) into an index 0..8.

    Raises ValueError naming the input.

    >>> parse_pos("23")
    5
    """
    t = text.strip()
    if len(t) != 2 or t[0] not in "123" or t[1] not in "123":
        raise ValueError(f"invalid grid position {text!r}: write row then column, '11' to '33'")
    return 3 * (int(t[0]) - 1) + int(t[1]) - 1


def card_value(card: GnomeCard, hazard_penalty: int = 10) -> int:
    """What a card adds when it is in no matched line (a Mulligan adds 0)."""
    if card.is_hazard:
        return hazard_penalty
    if card.is_mulligan:
        return 0
    assert card.value is not None
    return card.value


def _positive(card: GnomeCard) -> int | None:
    return card.value if card.value is not None and card.value > 0 else None


@dataclass(frozen=True, slots=True)
class GridScore:
    """A grid's score and the lines that made it."""

    score: int
    lines: tuple[tuple[tuple[int, int, int], int], ...]
    """The matched lines that scored, each with its value ``v`` (it scored ``-v``)."""
    wild: tuple[int, ...]
    """The positions of the Mulligans that acted as wild."""

    def describe(self) -> str:
        """A summary for the kiosk: ``"row 1 at 6 (-6); score 10"``."""
        parts = [f"{_line_name(line)} at {v} (-{v})" for line, v in self.lines]
        return ("; ".join(parts) or "no matched line") + f"; score {self.score}"


def _line_name(line: tuple[int, int, int]) -> str:
    if line in ROWS:
        return f"row {ROWS.index(line) + 1}"
    if line in COLUMNS:
        return f"column {COLUMNS.index(line) + 1}"
    return "diagonal " + ("\\" if line == DIAGONALS[0] else "/")


def score_grid(
    cards: Sequence[GnomeCard],
    *,
    score_diagonals: bool = False,
    line_sharing: str = "shared",
    wild_mulligans_per_layout: int | None = 1,
    max_mulligans_per_line: int = 1,
    mulligan_dual_value: bool = True,
    hazard_penalty: int = 10,
) -> GridScore:
    """Returns the lowest score of a face-up grid of nine cards under the options of §11.

    ``wild_mulligans_per_layout`` None means every Mulligan may be wild.
    Raises ValueError unless there are exactly nine cards or an option is out of range.
    """
    if len(cards) != 9:
        raise ValueError(f"a grid has 9 cards, got {len(cards)}")
    if line_sharing not in ("shared", "disjoint"):
        raise ValueError(f"line_sharing must be 'shared' or 'disjoint', got {line_sharing!r}")
    lines = LINES + (DIAGONALS if score_diagonals else ())
    mulligans = [i for i, c in enumerate(cards) if c.is_mulligan]
    cap = len(mulligans)
    if wild_mulligans_per_layout is not None:
        cap = min(wild_mulligans_per_layout, cap)
    best: GridScore | None = None
    for k in range(cap + 1):
        for wild in combinations(mulligans, k):
            for values in _wild_values(cards, lines, wild, mulligan_dual_value):
                matched = _matched_lines(cards, lines, set(wild), values, max_mulligans_per_line)
                for chosen in _line_choices(matched, line_sharing):
                    s = _total(cards, chosen, hazard_penalty)
                    if best is None or s < best.score:
                        best = GridScore(s, tuple(chosen), wild)
    assert best is not None
    return best


def _wild_values(
    cards: Sequence[GnomeCard], lines: Sequence[tuple[int, int, int]], wild: tuple[int, ...], dual: bool
) -> list[dict[int, int] | None]:
    """None: each wild Mulligan takes whatever value each of its lines needs.

    Otherwise every choice of one value per wild Mulligan. Only the values of the
    positive cards in its lines can complete one of them, so only those are tried
    (one placeholder when there is none): the same lowest score, far fewer choices.
    """
    if dual or not wild:
        return [None]
    out: list[dict[int, int] | None] = [{}]
    for pos in wild:
        useful = sorted({v for line in lines if pos in line for i in line
                         if (v := _positive(cards[i])) is not None}) or [_VALUES[0]]
        out = [{**d, pos: v} for d in out if d is not None for v in useful]
    return out


def _matched_lines(
    cards: Sequence[GnomeCard],
    lines: Sequence[tuple[int, int, int]],
    wild: set[int],
    values: dict[int, int] | None,
    max_per_line: int,
) -> list[tuple[tuple[int, int, int], int]]:
    out: list[tuple[tuple[int, int, int], int]] = []
    for line in lines:
        wilds = [i for i in line if i in wild]
        if len(wilds) > max_per_line:
            continue
        naturals = [_positive(cards[i]) for i in line if i not in wild]
        if not naturals or any(v is None for v in naturals) or len(set(naturals)) != 1:
            continue
        v = naturals[0]
        assert v is not None
        if values is not None and any(values[w] != v for w in wilds):
            continue
        out.append((line, v))
    return out


def _line_choices(
    matched: list[tuple[tuple[int, int, int], int]], sharing: str
) -> list[list[tuple[tuple[int, int, int], int]]]:
    if sharing == "shared":
        # Every matched line scores; counting one more never costs (v > 0).
        return [matched]
    out: list[list[tuple[tuple[int, int, int], int]]] = []
    for k in range(len(matched) + 1):
        for combo in combinations(matched, k):
            used = [i for line, _ in combo for i in line]
            if len(used) == len(set(used)):
                out.append(list(combo))
    return out


def _total(
    cards: Sequence[GnomeCard], chosen: list[tuple[tuple[int, int, int], int]], hazard_penalty: int
) -> int:
    in_line = {i for line, _ in chosen for i in line}
    s = -sum(v for _, v in chosen)
    s += sum(card_value(c, hazard_penalty) for i, c in enumerate(cards) if i not in in_line)
    return s
