"""Gnoming A Round audited against ``rules/gnoming.md`` rule by rule, on the strict
path (GnomingState) and on the referee path (table-log events to rulings,
infractions and scores).

Each test names the section it checks. The grid scorer is checked against an
independent brute force written from §6 (choose the matched lines first, then ask
whether some choice of wild Mulligans allows them), over every combination of the
scoring options.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kiosk.games.cards import GnomeCard
from kiosk.games.errors import InvalidActionError
from kiosk.games.gnoming import GnomingGame, GnomingOptions, GnomingState, grid_score
from kiosk.games.gnoming_actions import Deal, Flip, Keep, Pass
from kiosk.games.gnoming_bots import table_log
from kiosk.games.gnoming_referee import GnomingReferee
from kiosk.games.gnoming_scoring import parse_pos, score_grid
from kiosk.games.referee import RefereeReport, TableEvent


def grid(text: str) -> list[GnomeCard]:
    names = {"M": "MULLIGAN", "H": "HAZARD"}
    return [GnomeCard.parse(names.get(t, "G" + t)) for t in text.split()]


# -- §6 grid scoring: an independent brute force -----------------------------------------

_ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
_COLS = [(0, 3, 6), (1, 4, 7), (2, 5, 8)]
_DIAGS = [(0, 4, 8), (2, 4, 6)]


def brute_score(cards: Sequence[GnomeCard], *, diagonals: bool, disjoint: bool, wild_cap: int | None,
                max_per_line: int, dual: bool, hazard: int) -> int:
    """§6 read literally: the lowest score over every set of lines that can all be matched."""
    lines = _ROWS + _COLS + (_DIAGS if diagonals else [])
    best: int | None = None
    for mask in range(1 << len(lines)):
        chosen = [line for i, line in enumerate(lines) if mask >> i & 1]
        cells = [i for line in chosen for i in line]
        if disjoint and len(cells) != len(set(cells)):
            continue
        mulligan_values: dict[int, set[int]] = {}
        total = 0
        ok = True
        for line in chosen:
            mulligans = [i for i in line if cards[i].is_mulligan]
            naturals = [cards[i] for i in line if not cards[i].is_mulligan]
            values = {c.value for c in naturals}
            if len(mulligans) > max_per_line or len(values) != 1 or any(c.is_hazard for c in naturals):
                ok = False
                break
            v = values.pop()
            if v is None or v < 3:
                ok = False
                break
            total -= v
            for m in mulligans:
                mulligan_values.setdefault(m, set()).add(v)
        if not ok or (wild_cap is not None and len(mulligan_values) > wild_cap):
            continue
        if not dual and any(len(vs) > 1 for vs in mulligan_values.values()):
            continue
        for i, c in enumerate(cards):
            if i not in cells:
                total += hazard if c.is_hazard else 0 if c.is_mulligan else (c.value or 0)
        best = total if best is None else min(best, total)
    assert best is not None
    return best


_POOL = grid("3 3 3 4 4 4 5 5 8 -2 -2 -4 M M M H")


@pytest.mark.parametrize("diagonals", [False, True])
@pytest.mark.parametrize("disjoint", [False, True])
@pytest.mark.parametrize("wild_cap", [1, None])
@pytest.mark.parametrize("max_per_line", [1, 2])
@pytest.mark.parametrize("dual", [True, False])
def test_scorer_matches_a_brute_force_of_section_6(diagonals: bool, disjoint: bool, wild_cap: int | None,
                                                   max_per_line: int, dual: bool) -> None:
    rng = random.Random(f"{diagonals}{disjoint}{wild_cap}{max_per_line}{dual}")
    for _ in range(60):
        # Few distinct values and many Mulligans (at most the deck's 3), so that lines match and
        # overlap often.
        cards = [rng.choice(_POOL) for _ in range(9)]
        while sum(c.is_mulligan for c in cards) > 3:
            cards[[c.is_mulligan for c in cards].index(True)] = rng.choice(_POOL[:8])
        got = score_grid(cards, score_diagonals=diagonals, line_sharing="disjoint" if disjoint else "shared",
                         wild_mulligans_per_layout=wild_cap, max_mulligans_per_line=max_per_line,
                         mulligan_dual_value=dual, hazard_penalty=7)
        want = brute_score(cards, diagonals=diagonals, disjoint=disjoint, wild_cap=wild_cap,
                           max_per_line=max_per_line, dual=dual, hazard=7)
        assert got.score == want, " ".join(map(str, cards))
        # The reported lines and wild Mulligans add up to the score.
        in_line = {i for line, _ in got.lines for i in line}
        assert got.score == -sum(v for _, v in got.lines) + sum(
            7 if c.is_hazard else 0 if c.is_mulligan else (c.value or 0)
            for i, c in enumerate(cards) if i not in in_line)


@pytest.mark.parametrize(
    ("text", "options", "score"),
    [
        # §6.1: three equal negatives are not a matched line, whatever the options.
        ("-2 -2 -2  -2 -2 -2  -2 -2 -2", {}, -18),
        ("-3 -3 -3  4 5 6  7 8 3", {"score_diagonals": True, "line_sharing": "disjoint"}, -9 + 33),
        # §6.1: a Mulligan never completes a line of negatives or with a Hazard.
        ("-1 -1 M  H H M  5 6 7", {}, -2 + 20 + 18),
        # §6.1: two Mulligans and one card are not a match by default, even if both may be wild.
        ("M M 5  3 4 6  7 8 -1", {"wild_mulligans_per_layout": "unlimited"}, 5 + 13 + 14),
        # ... and are one under max_mulligans_per_line = 2 (with unlimited wild Mulligans).
        ("M M 5  3 4 6  7 8 -1", {"wild_mulligans_per_layout": "unlimited", "max_mulligans_per_line": 2},
         -5 + 13 + 14),
        # max_mulligans_per_line = 2 alone changes nothing: only one Mulligan is wild by default.
        ("M M 5  3 4 6  7 8 -1", {"max_mulligans_per_line": 2}, 5 + 13 + 14),
        # §6.2: a Hazard in no line costs hazard_penalty each.
        ("H H 3  4 5 6  7 8 -1", {"hazard_penalty": 12}, 24 + 3 + 15 + 14),
        # §6.2 sharing: the cross of 8s in the middle scores row 2 and column 2.
        ("3 8 4  8 8 8  5 8 -1", {}, -16 + 3 + 4 + 5 - 1),
        ("3 8 4  8 8 8  5 8 -1", {"line_sharing": "disjoint"}, -8 + 16 + 3 + 4 + 5 - 1),
        # §3 diagonals are not lines: an anti-diagonal of 6s.
        ("3 4 6  5 6 7  6 8 -2", {}, 3 + 4 + 6 + 5 + 6 + 7 + 6 + 8 - 2),
        ("3 4 6  5 6 7  6 8 -2", {"score_diagonals": True}, -6 + 3 + 4 + 5 + 7 + 8 - 2),
        # §6.1 the wild Mulligan and its values are the scorer's choice: the 8s beat the 3s.
        ("3 3 M  4 -1 8  5 6 8", {"mulligan_dual_value": False}, -8 + 6 + 4 - 1 + 5 + 6),
    ],
)
def test_scoring_rules_of_section_6(text: str, options: dict[str, Any], score: int) -> None:
    assert grid_score(grid(text), GnomingOptions(**options)).score == score


def test_a_matched_line_ignores_what_its_cards_would_cost_elsewhere() -> None:
    """§6.2: a positive card in a matched line never adds its own value, even in an unmatched line."""
    s = score_grid(grid("7 7 7  3 4 5  8 -1 6"))
    assert s.score == -7 + 3 + 4 + 5 + 8 - 1 + 6
    assert s.lines == (((0, 1, 2), 7),)


# -- helpers for the strict path ------------------------------------------------------------

def start(grids: Sequence[str], turned: str = "5 4", flips: Sequence[str] = (),
          **options: Any) -> GnomingState:
    """A strict round dealt as given; ``flips`` lists each seat's two opening flips ("11 22")."""
    game = GnomingGame(options, seats=len(grids))
    state = game.new_initial_state()
    state.apply_action(Deal(tuple(tuple(grid(g)) for g in grids), tuple(grid(turned))))
    for seat, positions in enumerate(flips or ["11 22"] * len(grids)):
        for pos in positions.split():
            state.apply_action(Flip(seat, parse_pos(pos)))
    return state


def do(state: GnomingState, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def keep_targets(state: GnomingState) -> set[str]:
    return {f"{a.pos // 3 + 1}{a.pos % 3 + 1}" for a in state.legal_actions() if isinstance(a, Keep)}


# -- helpers for the referee path -----------------------------------------------------------

class Log:
    """Feeds table events to a fresh referee, one second apart."""

    def __init__(self, seats: Sequence[str] = ("Ann", "Bob"), **options: Any) -> None:
        ref = GnomingGame(options, seats=list(seats)).referee()
        assert isinstance(ref, GnomingReferee)
        self.ref = ref
        self.t = 0

    def __call__(self, type_: str, seat: str | None = None, **data: Any) -> list[str]:
        self.t += 1
        if "from_" in data:
            data["from"] = data.pop("from_")
        return [r.kind for r in self.ref.feed(TableEvent(type_, self.t * 10**9, seat=seat, data=data))]

    def report(self) -> RefereeReport:
        return self.ref.report()

    def kinds(self) -> list[str]:
        return [i.kind for i in self.ref.report().infractions]

    def opening(self, a: str = "G5", b: str = "G4", removed: Sequence[str] = ()) -> None:
        self("round_start", piles={"A": a, "B": b}, removed=list(removed))
        for seat in self.ref.seats:
            self("flip", seat, pos="11", card="G3")
            self("flip", seat, pos="22", card="G-2")

    def turn(self, seat: str, card: str, pile: str = "A") -> list[str]:
        """A draw from the draw pile passed to a discard pile."""
        return self("draw", seat, from_="deck") + self("discard", seat, card=card, pile=pile)


SMALL_DECK = {"8": 10, "7": 10, "3": 3}
"""23 cards: two grids, two pile starters and a draw pile of 3."""


# -- §5.1 the draw pile running out, on the referee path ------------------------------------

def test_referee_reshuffles_the_discards_when_the_draw_pile_is_empty() -> None:
    log = Log(deck=SMALL_DECK)
    log.opening("G8", "G7")
    log.turn("Ann", "G8", "A")
    log.turn("Bob", "G7", "B")
    log.turn("Ann", "G8", "A")
    # The draw pile is empty: A holds 8 8 8 and B 7 7; the cards under the tops (3) are shuffled.
    assert "reshuffle" in log("draw", "Bob", from_="deck")
    log("discard", "Bob", card="G8", pile="A")
    assert log.kinds() == []
    # B is down to its top 7: taking it empties B, and the next discard must restart B.
    log("draw", "Ann", from_="B", card="G7")
    log("discard", "Ann", card="G7", pile="A")
    assert log.kinds() == ["wrong_pile"]


def test_referee_ends_the_round_when_the_draw_pile_is_empty_under_end_round() -> None:
    log = Log(deck=SMALL_DECK, draw_pile_empty="end_round", rounds=1)
    log.opening("G8", "G7")
    log.turn("Ann", "G8", "A")
    log.turn("Bob", "G7", "B")
    assert "round_end" in log.turn("Ann", "G8", "A")
    assert log("draw", "Bob", from_="deck") == []
    assert log.kinds() == ["round_over"]
    log("reveal", "Ann", grid="G3 G7 G7 G8 G-2 G8 G7 G8 G8".split())
    log("reveal", "Bob", grid="G3 G8 G8 G7 G-2 G7 G8 G7 G7".split())
    report = log.report()
    # No finisher: no first-out adjustment (§6.3), and no early_reveal.
    assert report.hands == [{"Ann": 3 + 14 + 8 - 2 + 8 + 23, "Bob": 3 + 16 + 7 - 2 + 7 + 22}]
    assert log.kinds() == ["round_over"] and report.finished


def test_referee_counts_the_hazards_removed_at_the_start() -> None:
    deck = {**SMALL_DECK, "HAZARD": 1}
    log = Log(deck=deck)
    log.opening("G8", "G7", removed=["HAZARD"])
    log.turn("Ann", "G8", "A")
    log.turn("Bob", "G7", "B")
    assert "reshuffle" not in log("draw", "Ann", from_="deck")     # the third and last card
    log("discard", "Ann", card="G8", pile="A")
    assert "reshuffle" in log("draw", "Bob", from_="deck")


@pytest.mark.parametrize("removed", [["G5"], "HAZARD"])
def test_referee_rejects_a_bad_removed_field(removed: Any) -> None:
    log = Log()
    with pytest.raises(InvalidActionError, match="removed"):
        log("round_start", piles={"A": "G5", "B": "G4"}, removed=removed)


def test_referee_flags_play_after_the_round_is_over() -> None:
    log = Log(rounds=1)
    log("round_start", piles={"A": "G5", "B": "G4"})
    for seat in ("Ann", "Bob"):
        log("flip", seat, pos="11", card="G3")
        log("flip", seat, pos="22", card="G-2")
    ann_hidden = ["12", "13", "21", "23", "31", "32", "33"]
    for n, pos in enumerate(ann_hidden):
        log("draw", "Ann", from_="deck")
        log("keep", "Ann", pos=pos, card="G-1", out="G6")
        log("discard", "Ann", card="G6", pile="A")
        if n < len(ann_hidden) - 1:
            log.turn("Bob", "G8", "B")
    assert "round_end" in log.turn("Bob", "G8", "B")    # Bob's one final turn
    log("keep", "Bob", pos="33", card="G4", out="G7")
    log("discard", "Bob", card="G7", pile="A")
    assert log.kinds() == ["round_over", "round_over"]
    log("reveal", "Ann", grid="G3 G-1 G-1 G-1 G-2 G-1 G-1 G-1 G-1".split())
    log("reveal", "Bob", grid="G3 G8 G8 G8 G-2 G8 G8 G8 G7".split())
    assert log.kinds() == ["round_over", "round_over"], "no early_reveal: the round had ended"
    assert log.report().hands == [{"Ann": 3 - 2 - 7 - 5, "Bob": 3 + 48 - 2 + 7}]


# -- the referee path agrees with the strict engine over random legal play ------------------

def _random_play(game: GnomingGame, seed: int, keep_rate: float) -> GnomingState:
    """Random legal play that passes often, so that the draw pile runs out and is rebuilt."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(20_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        keeps = [a for a in legal if isinstance(a, Keep)]
        passes = [a for a in legal if isinstance(a, Pass)]
        if keeps and (not passes or rng.random() < keep_rate):
            state.apply_action(rng.choice(keeps))
        elif passes:
            state.apply_action(passes[0])
        else:
            state.apply_action(rng.choice(legal))
    assert state.is_terminal()
    return state


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (7, {}),
        (6, {"draw_pile_empty": "end_round"}),
        (5, {"hazard_on_discard": "to_pile", "turn_direction": "counterclockwise",
             "first_player": "finisher_starts", "hazard_flip_min_facedown": 1}),
        (3, {"first_player": "youngest_every_round", "youngest_seat": 2, "bounce_targets": "face_down_only",
             "must_keep_discard_draw": True, "first_out_tie": "strict", "line_sharing": "disjoint"}),
    ],
)
def test_referee_agrees_with_the_engine_over_random_play(seats: int, options: dict[str, Any]) -> None:
    game = GnomingGame(options, seats=seats)
    reshuffles = 0
    for seed in range(3):
        state = _random_play(game, seed, keep_rate=0.15)
        ref = game.referee()
        ref.feed_all(table_log(game, state.history()))
        report = ref.report()
        assert report.infractions == [], [i.text for i in report.infractions][:3]
        assert [list(h.values()) for h in report.hands] == state.scores
        assert report.winners == [game.seats[i] for i in state.winners()]
        reshuffles += sum(r.kind == "reshuffle" for r in report.rulings)
    if options.get("draw_pile_empty", "reshuffle_discards") == "reshuffle_discards" and seats == 7:
        assert reshuffles, "the random games should have rebuilt the draw pile"
