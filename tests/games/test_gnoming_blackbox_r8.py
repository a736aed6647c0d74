"""Review round 8 of black-box checks of ``kiosk replay`` on Gnoming A Round table logs, written
from ``rules/gnoming.md`` and ``docs/table-log.md`` alone: whole games of legal random play with
the 110-card deck (or a smaller one), 2 to 7 seats and every §11 option at a value other than its
default, alone and in combination. Each game is dealt and played here (draws from the deck and
both piles, keeps, bounce chains, passes, Hazards leaving the game or going on a pile with their
flips and declines, reshuffles, the finisher and the final turns), and its rounds are scored by a
brute-force scorer written from §6 alone; the report must agree on every round's scores, the
totals and the winners (§7), with no infraction."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay_main

Card = int | str
"""A printed value (3..8, -1..-4), or ``"H"`` (Hazard) or ``"M"`` (Mulligan)."""

PUBLISHER: dict[Card, int] = {
    8: 13,
    7: 13,
    6: 14,
    5: 14,
    4: 14,
    3: 14,
    -1: 6,
    -2: 8,
    -3: 5,
    -4: 3,
    "H": 3,
    "M": 3,
}
"""§2: the 110 cards."""
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]
DIAGONALS = [(0, 4, 8), (2, 4, 6)]
NAMES = ["Ana", "Ben", "Cal", "Dee", "Eve", "Finn", "Gus"]


def _name(card: Card) -> str:
    return {"H": "HAZARD", "M": "MULLIGAN"}.get(card, f"G{card}") if isinstance(card, str) else f"G{card}"


def _pos(index: int) -> str:
    return f"{index // 3 + 1}{index % 3 + 1}"


def _deck(o: dict[str, Any]) -> list[Card]:
    """Every card of the deck under the `deck` option (§2, §11)."""
    if o.get("deck") is None:
        return [c for c, k in PUBLISHER.items() for _ in range(k)]
    special: dict[str, Card] = {"HAZARD": "H", "MULLIGAN": "M"}
    return [special.get(c) or int(c) for c, k in o["deck"].items() for _ in range(k)]


def _score(grid: list[Card], o: dict[str, Any]) -> int:
    """§6: the lowest score over every choice of wild Mulligans (and their values when they may
    take only one), and, under `line_sharing = disjoint`, every set of lines sharing no card."""
    lines = LINES + (DIAGONALS if o.get("score_diagonals") else [])
    mulligans = [i for i, c in enumerate(grid) if c == "M"]
    cap = len(mulligans) if o.get("wild_mulligans_per_layout") == "unlimited" else min(1, len(mulligans))
    best: int | None = None
    for k in range(cap + 1):
        for wild in itertools.combinations(mulligans, k):
            choices: list[tuple[int, ...] | None] = [None]
            if not o.get("mulligan_dual_value", True):
                choices = list(itertools.product(range(3, 9), repeat=len(wild)))
            for values in choices:
                matched: list[tuple[tuple[int, ...], int]] = []
                for line in lines:
                    wilds = [i for i in line if i in wild]
                    naturals = [grid[i] for i in line if i not in wild]
                    if len(wilds) > o.get("max_mulligans_per_line", 1) or not naturals:
                        continue
                    v = naturals[0]
                    if not isinstance(v, int) or v < 0 or any(c != v for c in naturals):
                        continue
                    if values is not None and any(values[wild.index(i)] != v for i in wilds):
                        continue
                    matched.append((line, v))
                sets = [matched]
                if o.get("line_sharing") == "disjoint":
                    sets = [
                        list(s)
                        for n in range(len(matched) + 1)
                        for s in itertools.combinations(matched, n)
                        if len({i for line, _ in s for i in line}) == 3 * len(s)
                    ]
                for chosen in sets:
                    used = {i for line, _ in chosen for i in line}
                    s = -sum(v for _, v in chosen)
                    for i, c in enumerate(grid):
                        if i not in used:
                            s += o.get("hazard_penalty", 10) if c == "H" else 0 if c == "M" else int(c)
                    best = s if best is None else min(best, s)
    assert best is not None
    return best


class _Game:
    """One whole game of legal random play, logged as the camera would see it."""

    def __init__(self, seed: int, seats: list[str], options: dict[str, Any]) -> None:
        self.rng = random.Random(seed)
        self.seats, self.o, self.n = seats, options, len(seats)
        self.events: list[dict[str, Any]] = []
        self.hands: list[list[int]] = []

    def log(self, **event: Any) -> None:
        self.events.append({"t": len(self.events) + 1, **event})

    def play(self) -> _Game:
        o, n = self.o, self.n
        youngest = o.get("youngest_seat", self.rng.randrange(n))
        firsts: list[int] = []
        finishers: list[int | None] = []
        for number in range(1, o.get("rounds", 3) + 1):
            rule = o.get("first_player", "rotate_left")
            if number == 1 or rule == "youngest_every_round":
                first = youngest  # §4.6
            elif rule == "finisher_starts" and finishers[-1] is not None:
                first = finishers[-1]
            else:
                first = (firsts[-1] + 1) % n  # the next seat to the left
            firsts.append(first)
            finishers.append(self.round(number, first))
        return self

    def winners(self) -> list[str]:
        """§7: the lowest total, then the lowest last round, else shared."""
        totals = [sum(h[i] for h in self.hands) for i in range(self.n)]
        tied = [i for i in range(self.n) if totals[i] == min(totals)]
        last = min(self.hands[-1][i] for i in tied)
        return [self.seats[i] for i in tied if self.hands[-1][i] == last]

    def round(self, number: int, first: int) -> int | None:
        o, rng, n, names = self.o, self.rng, self.n, self.seats
        deck = _deck(o)
        rng.shuffle(deck)
        grids = [deck[9 * i : 9 * i + 9] for i in range(n)]
        up = [[False] * 9 for _ in range(n)]
        rest = deck[9 * n :]
        removed: list[Card] = []
        piles: dict[str, list[Card]] = {"A": [], "B": []}
        for k in ("A", "B"):
            while rest[0] == "H":  # §4.4: a Hazard leaves the game
                removed.append(rest.pop(0))
            piles[k].append(rest.pop(0))
        start: dict[str, Any] = {
            "type": "round_start",
            "round": number,
            "removed": [_name(c) for c in removed],
            "piles": {k: _name(piles[k][0]) for k in ("A", "B")},
        }
        if number == 1 or rng.random() < 0.5:
            start["first"] = names[first]
        self.log(**start)
        for p in rng.sample(range(n), n):
            for i in rng.sample(range(9), 2):  # §4.5: two cards each
                up[p][i] = True
                self.log(type="flip", seat=names[p], pos=_pos(i), card=_name(grids[p][i]))
        step = 1 if o.get("turn_direction", "clockwise") == "clockwise" else -1
        p, finisher, owed = first, None, []
        while True:
            under = sum(len(pile) - 1 for pile in piles.values() if pile)
            sources = [k for k in ("A", "B") if piles[k]]
            if rest or (o.get("draw_pile_empty") != "end_round" and under):
                sources += ["deck"] * 3
            if not sources:
                break
            source = rng.choice(sources)
            if source == "deck":
                if not rest:  # §5.1: reshuffle under the tops
                    for k in ("A", "B"):
                        rest += piles[k][:-1]
                        del piles[k][:-1]
                    rng.shuffle(rest)
                held = rest.pop()
                self.log(type="draw", seat=names[p], **{"from": "deck"})
            else:
                held = piles[source].pop()
                self.log(type="draw", seat=names[p], card=_name(held), **{"from": source})
            filled: list[int] = []
            keep = (o.get("must_keep_discard_draw") and source != "deck") or rng.random() < 0.85
            bouncing = False
            while keep:  # §5.2: keep, and bounce
                free = [
                    i
                    for i in range(9)
                    if i not in filled
                    and not (bouncing and o.get("bounce_targets") == "face_down_only" and up[p][i])
                ]
                if not free:
                    break
                down = [i for i in free if not up[p][i]]
                q = rng.choice(down) if down and rng.random() < 0.8 else rng.choice(free)
                out, was_down = grids[p][q], not up[p][q]
                grids[p][q], up[p][q] = held, True
                filled.append(q)
                self.log(type="keep", seat=names[p], pos=_pos(q), card=_name(held), out=_name(out))
                held, bouncing = out, True
                keep = (
                    was_down
                    and isinstance(out, int)
                    and out > 0
                    and any(up[p][i] and grids[p][i] == out for i in range(9))
                    and rng.random() < 0.8
                )
            if held == "H" and o.get("hazard_on_discard", "remove") == "remove":
                self.log(type="discard", seat=names[p], card="HAZARD")  # §5.3: it leaves the game
            else:
                empty = [k for k in ("A", "B") if not piles[k]]
                pile = empty[0] if len(empty) == 1 else rng.choice("AB")
                piles[pile].append(held)
                self.log(type="discard", seat=names[p], card=_name(held), pile=pile)
            if held == "H":  # §5.4
                for q in range(n):
                    down = [i for i in range(9) if not up[q][i]]
                    if q == p or len(down) < o.get("hazard_flip_min_facedown", 2):
                        continue
                    if rng.random() < 0.6:
                        i = rng.choice(down)
                        up[q][i] = True
                        self.log(type="flip", seat=names[q], pos=_pos(i), card=_name(grids[q][i]))
                    elif rng.random() < 0.5:
                        self.log(type="decline", seat=names[q])
            if finisher is None and all(up[p]):  # §5.5
                finisher, owed = p, [(p + i * step) % n for i in range(1, n)]
            elif finisher is not None:
                owed.remove(p)
            if finisher is not None and not owed:
                break
            p = owed[0] if finisher is not None else (p + step) % n
            if o.get("draw_pile_empty") == "end_round" and not rest:
                break
        for q in rng.sample(range(n), n):  # §5.6
            self.log(type="reveal", seat=names[q], grid=[_name(c) for c in grids[q]])
        r = [_score(g, o) for g in grids]
        if finisher is not None:  # §6.3
            others = [r[i] for i in range(n) if i != finisher]
            strict = o.get("first_out_tie") == "strict"
            lowest = all(r[finisher] < s if strict else r[finisher] <= s for s in others)
            r[finisher] += o.get("first_out_bonus", -5) if lowest else o.get("first_out_penalty", 5)
        self.hands.append(r)
        return finisher


SMALL_DECK = {"3": 6, "4": 6, "5": 6, "6": 6, "7": 6, "8": 6, "-1": 2, "-2": 2, "HAZARD": 3, "MULLIGAN": 4}
"""A smaller deck (§2 `deck`): the draw pile runs out often, and four Mulligans."""


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (2, {}),
        (7, {}),
        (3, {"players": "3..7", "rounds": 1}),
        (4, {"score_diagonals": True, "line_sharing": "disjoint"}),
        (3, {"wild_mulligans_per_layout": "unlimited", "max_mulligans_per_line": 2, "deck": SMALL_DECK}),
        (2, {"mulligan_dual_value": False, "wild_mulligans_per_layout": "unlimited", "deck": SMALL_DECK}),
        (4, {"max_mulligans_per_line": 0, "hazard_penalty": 15, "first_out_tie": "strict"}),
        (
            5,
            {
                "hazard_on_discard": "to_pile",
                "hazard_flip_min_facedown": 1,
                "bounce_targets": "face_down_only",
            },
        ),
        (
            3,
            {
                "hazard_flip_min_facedown": 3,
                "must_keep_discard_draw": True,
                "first_out_bonus": -10,
                "first_out_penalty": 0,
            },
        ),
        (4, {"first_player": "finisher_starts", "turn_direction": "counterclockwise", "youngest_seat": 2}),
        (6, {"first_player": "youngest_every_round", "turn_direction": "counterclockwise", "rounds": 4}),
        (3, {"draw_pile_empty": "end_round", "first_player": "finisher_starts", "deck": SMALL_DECK}),
        (2, {"deck": SMALL_DECK, "rounds": 5, "hazard_on_discard": "to_pile"}),
        (
            7,
            {
                "line_sharing": "disjoint",
                "score_diagonals": True,
                "wild_mulligans_per_layout": "unlimited",
                "max_mulligans_per_line": 2,
                "mulligan_dual_value": False,
                "first_out_tie": "strict",
            },
        ),
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_under_every_option_are_scored_as_the_spec_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: int, options: dict[str, Any], seed: int
) -> None:
    """§4 to §7 and §11: a whole game of legal play draws no infraction, and each round's scores
    (grid scores with the finisher's adjustment), the totals and the winners are the spec's."""
    names = NAMES[:seats]
    game = _Game(seed * 1000 + seats, names, options).play()
    header = {"table_log": 1, "game": "gnoming", "seats": names, "options": options}
    report = replay_main(tmp_path, [header, *game.events], capsys)
    assert report["infractions"] == []
    assert report["hands"] == [dict(zip(names, h, strict=True)) for h in game.hands]
    assert report["totals"] == {s: sum(h[i] for h in game.hands) for i, s in enumerate(names)}
    assert report["finished"] is True
    assert report["winners"] == game.winners()
    assert [r["kind"] for r in report["rulings"]].count("round_scores") == options.get("rounds", 3)
