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
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from kiosk.games.base import SIMULTANEOUS, option_help
from kiosk.games.cards import GnomeCard
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.gnoming import GnomingGame, GnomingOptions, GnomingState, grid_score
from kiosk.games.gnoming_actions import Deal, Decline, Discard, Draw, Flip, Keep, Pass
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


_POOL = grid("3 3 3 4 4 4 5 5 8 -2 -2 -4 M M M M H")


@pytest.mark.parametrize("diagonals", [False, True])
@pytest.mark.parametrize("disjoint", [False, True])
@pytest.mark.parametrize("wild_cap", [1, None])
@pytest.mark.parametrize("max_per_line", [1, 2])
@pytest.mark.parametrize("dual", [True, False])
def test_scorer_matches_a_brute_force_of_section_6(diagonals: bool, disjoint: bool, wild_cap: int | None,
                                                   max_per_line: int, dual: bool) -> None:
    rng = random.Random(f"{diagonals}{disjoint}{wild_cap}{max_per_line}{dual}")
    for _ in range(60):
        # Few distinct values and many Mulligans (up to 6, as a custom deck allows), so that lines
        # match and overlap often.
        cards = [rng.choice(_POOL) for _ in range(9)]
        while sum(c.is_mulligan for c in cards) > 6:
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


# -- §2 components and §11 options ----------------------------------------------------------

def test_the_deck_has_the_publishers_110_cards() -> None:
    counts = Counter(str(c) for c in GnomingGame(seats=2).new_initial_state().full_deck)
    assert counts == Counter({"G8": 13, "G7": 13, "G6": 14, "G5": 14, "G4": 14, "G3": 14, "G-1": 6, "G-2": 8,
                              "G-3": 5, "G-4": 3, "HAZARD": 3, "MULLIGAN": 3})
    assert sum(counts.values()) == 110


def test_every_variant_option_of_section_11_with_its_default() -> None:
    defaults = {name: default for name, default, _, _ in option_help(GnomingOptions)}
    spec = {
        "players": "2..7", "rounds": 3, "deck": None, "score_diagonals": False, "line_sharing": "shared",
        "wild_mulligans_per_layout": "1", "max_mulligans_per_line": 1, "mulligan_dual_value": True,
        "hazard_penalty": 10, "hazard_on_discard": "remove", "hazard_flip_min_facedown": 2,
        "first_out_bonus": -5, "first_out_penalty": 5, "first_out_tie": "counts_as_lowest",
        "bounce_targets": "any", "must_keep_discard_draw": False, "first_player": "rotate_left",
        "turn_direction": "clockwise", "draw_pile_empty": "reshuffle_discards",
    }
    assert {k: defaults[k] for k in spec} == spec
    assert GnomingGame(seats=2).num_seats == 2 and GnomingGame(seats=7).num_seats == 7


def test_the_deck_option_changes_what_is_dealt() -> None:
    game = GnomingGame({"deck": {"8": 20, "-4": 4, "MULLIGAN": 1}}, seats=2)
    state = game.new_initial_state()
    assert Counter(str(c) for c in state.full_deck) == {"G8": 20, "G-4": 4, "MULLIGAN": 1}
    state.apply_action(state.sample_chance(1))
    assert state.cur is not None and len(state.cur.deck) == 25 - 18 - 2


# -- §4 setup -------------------------------------------------------------------------------

def test_a_hazard_turned_up_for_the_piles_leaves_the_game() -> None:
    state = start(["3 3 3  4 4 4  5 5 5", "6 6 6  7 7 7  8 8 8"], turned="H 5 H 4")
    view = state.public_view()
    assert (view.pile_a, view.pile_b) == (GnomeCard.of(5), GnomeCard.of(4))
    assert [str(c) for c in view.removed] == ["HAZARD", "HAZARD"]
    assert view.draw_pile_size == 110 - 18 - 4


@pytest.mark.parametrize("turned", ["5 4 3", "5 H", "H 5", "5", "M M M M"])
def test_a_deal_must_turn_exactly_two_pile_starters(turned: str) -> None:
    state = GnomingGame(seats=2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal((tuple(grid("3 3 3  4 4 4  5 5 5")), tuple(grid("6 6 6  7 7 7  8 8 8"))),
                                tuple(grid(turned))))


def test_each_seat_turns_exactly_two_cards_up_then_the_youngest_starts() -> None:
    game = GnomingGame({"youngest_seat": 1}, seats=3)
    state = game.new_initial_state()
    state.apply_action(state.sample_chance(4))
    assert state.current_player() == SIMULTANEOUS
    state.apply_action(Flip(0, 0))
    state.apply_action(Flip(0, 4))
    assert state.legal_actions(0) == [] and len(state.legal_actions(1)) == 9
    for seat in (1, 2):
        state.apply_action(Flip(seat, 0))
        assert state.public_view().phase == "flip"
        state.apply_action(Flip(seat, 8))
    view = state.public_view()
    assert view.phase == "draw" and view.current_seat == 1
    assert [g.face_down for g in view.grids] == [7, 7, 7]


# -- §5.1 draw ------------------------------------------------------------------------------

def test_draw_sources_and_the_reshuffle_of_the_discards() -> None:
    state = start(["8 8 8  8 8 8  8 8 8", "7 7 7  7 7 7  7 7 7"], turned="8 7", deck=SMALL_DECK)
    assert state.legal_actions() == [Draw(0, "deck"), Draw(0, "A"), Draw(0, "B")]
    for seat, pile in ((0, "A"), (1, "B"), (0, "A")):         # the draw pile is three 3s
        do(state, f"{seat}:draw deck", f"{seat}:gets G3", f"{seat}:pass", f"{seat}:discard {pile}")
    r = state.cur
    assert r is not None and r.deck == [] and len(r.piles["A"]) == 3 and len(r.piles["B"]) == 2
    do(state, "1:draw deck")
    # The cards under the two tops (8 3 and 7) were shuffled into a new draw pile; the tops stay.
    assert sorted(map(str, r.deck)) == ["G3", "G7", "G8"] and r.piles == {"A": [GnomeCard.of(3)],
                                                                           "B": [GnomeCard.of(3)]}
    do(state, "1:gets G8", "1:pass", "1:discard A", "0:draw B", "0:pass")
    assert state.legal_actions() == [Discard(0, "B")], "B was emptied by the draw and must be restarted"


def test_end_round_variant_ends_the_round_when_the_draw_pile_is_empty() -> None:
    state = start(["8 8 8  8 8 8  8 8 8", "7 7 7  7 7 7  7 7 7"], turned="8 7", deck=SMALL_DECK,
                  draw_pile_empty="end_round", rounds=1)
    for seat in (0, 1, 0):
        do(state, f"{seat}:draw deck", f"{seat}:gets G3", f"{seat}:pass", f"{seat}:discard A")
    assert state.is_terminal()
    assert state.scores == [[-48, -42]], "six lines each; no finisher, so no first-out adjustment"


# -- §5.2 place and bounce ------------------------------------------------------------------

def test_the_new_card_itself_counts_as_the_match_for_a_bounce() -> None:
    state = start(["3 5 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", "0:gets G5", "0:keep 12")
    view = state.public_view()
    assert view.phase == "place" and view.held == GnomeCard.of(5)
    assert Pass(0) in state.legal_actions()
    assert keep_targets(state) == {"11", "13", "21", "22", "23", "31", "32", "33"}


def test_a_match_among_face_down_cards_does_not_allow_a_bounce() -> None:
    state = start(["3 5 4  5 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", "0:gets G6", "0:keep 12")
    assert state.public_view().phase == "discard"
    assert state.cur is not None and state.cur.to_discard == GnomeCard.of(5)


def test_a_chain_of_bounces_fills_each_position_once() -> None:
    state = start(["3 3 4  5 -2 7  8 8 6", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", "0:gets G4", "0:keep 12")       # out: 3, matches the face-up 3 at 11
    assert state.public_view().held == GnomeCard.of(3)
    do(state, "0:keep 13")                                     # out: 4, matches the new 4 at 12
    assert state.public_view().held == GnomeCard.of(4)
    assert keep_targets(state) == {"11", "21", "22", "23", "31", "32", "33"}
    do(state, "0:keep 21")                                     # out: 5, no face-up 5
    assert state.public_view().phase == "discard"
    do(state, "0:discard B")
    view = state.public_view()
    assert view.grids[0].cards[:4] == tuple(grid("3 4 3 4")) and view.pile_b == GnomeCard.of(5)
    assert view.grids[0].face_down == 4 and view.current_seat == 1


def test_a_bounce_may_be_declined_and_the_card_is_discarded() -> None:
    state = start(["3 5 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", "0:gets G5", "0:keep 12", "0:pass")
    assert state.public_view().phase == "discard"
    assert state.cur is not None and state.cur.to_discard == GnomeCard.of(5)


@pytest.mark.parametrize("hidden", ["M", "-3"])
def test_mulligans_and_negatives_never_bounce(hidden: str) -> None:
    state = start([f"{hidden} {hidden} 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", f"0:gets {'MULLIGAN' if hidden == 'M' else 'G' + hidden}", "0:keep 12")
    assert state.public_view().phase == "discard", "the same card is face up at 11, but it cannot bounce"


def test_a_face_up_card_taken_out_never_bounces() -> None:
    state = start(["5 3 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw deck", "0:gets G5", "0:keep 11")       # the face-up 5 comes out; a 5 is face up
    assert state.public_view().phase == "discard"


def test_a_card_taken_from_a_pile_may_be_passed_by_default() -> None:
    state = start(["5 3 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw B", "0:pass")
    assert state.legal_actions() == [Discard(0, "B")]
    state = start(["5 3 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"], must_keep_discard_draw=True)
    do(state, "0:draw B")
    assert Pass(0) not in state.legal_actions() and len(keep_targets(state)) == 9
    do(state, "0:keep 12", )
    assert state.public_view().phase == "discard", "the 3 that came out has no face-up match"


# -- §5.3 discard and §5.4 hazard flips -----------------------------------------------------

def test_a_hazard_revealed_in_the_grid_is_discarded_leaves_and_never_restarts_a_pile() -> None:
    state = start(["5 H 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"])
    do(state, "0:draw A", "0:keep 12")                         # A is empty now; out comes the Hazard
    view = state.public_view()
    assert view.phase == "hazard" and view.hazard_flippers == (1,) and view.pile_a is None
    assert [str(c) for c in view.removed] == ["HAZARD"]
    assert set(state.legal_actions(1)) == {Decline(1), *(Flip(1, i) for i in (1, 2, 3, 5, 6, 7, 8))}
    do(state, "1:flip 33")
    assert state.public_view().grids[1].face_down == 6 and state.public_view().current_seat == 1
    assert Draw(1, "A") not in state.legal_actions()
    do(state, "1:draw deck", "1:gets G7", "1:pass")
    assert state.legal_actions() == [Discard(1, "A")], "the first discard that is not a Hazard restarts A"


def test_hazard_on_discard_to_pile_puts_it_on_a_pile_and_still_gives_flips() -> None:
    state = start(["5 H 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"], hazard_on_discard="to_pile")
    do(state, "0:draw A", "0:keep 12")
    assert state.legal_actions() == [Discard(0, "A")]
    do(state, "0:discard A")
    view = state.public_view()
    assert view.pile_a is not None and view.pile_a.is_hazard and view.removed == ()
    assert view.phase == "hazard" and view.hazard_flippers == (1,)


@pytest.mark.parametrize(("minimum", "flippers"), [(7, (1,)), (8, ())])
def test_hazard_flip_min_facedown_is_the_threshold(minimum: int, flippers: tuple[int, ...]) -> None:
    state = start(["5 H 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"], hazard_flip_min_facedown=minimum)
    do(state, "0:draw deck", "0:gets HAZARD", "0:pass")        # Bob has 7 face-down cards
    assert state.public_view().hazard_flippers == flippers
    assert state.public_view().phase == ("hazard" if flippers else "draw")


def test_the_discarder_never_flips_and_a_flipped_card_never_bounces() -> None:
    state = start(["5 3 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"], flips=["11 22", "11 22"])
    do(state, "0:draw deck", "0:gets HAZARD", "0:pass")
    assert state.legal_actions(0) == []
    do(state, "1:flip 12")                                     # a 6 beside the face-up 6: nothing happens
    view = state.public_view()
    assert view.phase == "draw" and view.current_seat == 1 and view.held is None


def test_a_seat_may_flip_its_last_card_only_under_hazard_flip_min_facedown_1() -> None:
    for minimum, allowed in ((2, False), (1, True)):
        state = start(["5 3 4  6 -2 7  8 8 8", "6 6 6  7 7 7  8 8 8"], hazard_flip_min_facedown=minimum)
        r = state.cur
        assert r is not None
        r.up[1] = [True] * 8 + [False]
        do(state, "0:draw deck", "0:gets HAZARD", "0:pass")
        assert (Flip(1, 8) in state.legal_actions()) is allowed


# -- §5.5 end check, §5.6 reveal, §6.3 first out --------------------------------------------

def test_one_final_turn_for_every_other_seat_then_the_reveal_in_place() -> None:
    grids = ["3 3 3  4 4 4  5 5 5", "6 6 6  7 7 7  8 8 8", "-1 -2 -3  H M 3  4 5 6"]
    state = start(grids, rounds=1, flips=["11 22", "11 22", "11 22"])
    r = state.cur
    assert r is not None
    r.up[0] = [True] * 8 + [False]                             # Ann has one face-down card left
    r.up[1] = [True] * 8 + [False]                             # so has Bob
    # The 5 and 8 that come out could bounce (5s and 8s are face up); both players stop.
    do(state, "0:draw deck", "0:gets G-4", "0:keep 33", "0:pass", "0:discard A")
    view = state.public_view()
    assert view.finisher == 0 and view.final_turns_left == 2 and view.current_seat == 1
    # Bob also clears his grid in his final turn: he gains nothing, and Cal still plays.
    do(state, "1:draw deck", "1:gets G-4", "1:keep 33", "1:pass", "1:discard A")
    view = state.public_view()
    assert view.finisher == 0 and view.final_turns_left == 1 and view.current_seat == 2
    # Cal's final turn may discard a Hazard: Ann and Bob have no face-down card, so nobody flips.
    do(state, "2:draw deck", "2:gets HAZARD", "2:pass")
    assert state.is_terminal()
    view = state.public_view()
    assert all(g.face_down == 0 for g in view.grids)
    assert view.grids[2].cards == tuple(grid(grids[2])), "face-down cards are turned up where they lie"
    ann = grid_score(grid("3 3 3  4 4 4  5 5 -4"), GnomingOptions()).score
    bob = grid_score(grid("6 6 6  7 7 7  8 8 -4"), GnomingOptions()).score
    cal = grid_score(grid(grids[2]), GnomingOptions()).score
    assert (ann, bob, cal) == (-3 - 4 + 5 + 5 - 4, -6 - 7 + 8 + 8 - 4, -6 + 10 + 3 + 15)
    assert state.scores == [[ann - 5, bob, cal]] and state.winners() == [0], "Ann ties Bob: -5"


@pytest.mark.parametrize(("options", "adjusted"), [
    ({}, 12 - 5), ({"first_out_tie": "strict"}, 12 + 5),
    ({"first_out_bonus": -10, "first_out_penalty": 3}, 2),
    ({"first_out_tie": "strict", "first_out_penalty": 3}, 15),
])
def test_first_out_adjustment_on_the_strict_path(options: dict[str, Any], adjusted: int) -> None:
    state = start(["3 3 3  4 -2 4  5 5 -1", "3 3 3  4 -2 4  5 5 -1"], rounds=1, **options)
    r = state.cur
    assert r is not None
    r.up[0] = [True] * 8 + [False]
    do(state, "0:draw deck", "0:gets G-1", "0:keep 33", "0:discard A", "1:draw A", "1:pass", "1:discard A")
    grid_r = grid_score(grid("3 3 3  4 -2 4  5 5 -1"), GnomingOptions()).score
    assert grid_r == 12, "a tie with Bob, who scores the same grid"
    assert state.scores == [[adjusted, 12]]


def test_turn_direction_counterclockwise() -> None:
    state = start(["3 5 4  6 -2 7  8 8 8"] * 3, turn_direction="counterclockwise")
    do(state, "0:draw B", "0:pass", "0:discard B")
    assert state.public_view().current_seat == 2


# -- §4.6 and §7: rounds, first player, the winner ------------------------------------------

def _firsts_and_finishers(state: GnomingState) -> tuple[list[int], list[int | None]]:
    replay = GnomingGame(state.options, seats=state.n_seats).new_initial_state()
    firsts = []
    for action in state.history():
        replay.apply_action(action)
        if isinstance(action, Deal):
            assert replay.cur is not None
            firsts.append(replay.cur.first)
    return firsts, list(state.finishers)


@pytest.mark.parametrize(("options", "want"), [
    ({"youngest_seat": 2}, lambda fin: [2, 3, 0]),
    ({"youngest_seat": 2, "first_player": "youngest_every_round"}, lambda fin: [2, 2, 2]),
    ({"youngest_seat": 2, "first_player": "finisher_starts"},
     lambda fin: [2] + [f if f is not None else 0 for f in fin[:2]]),
])
def test_who_starts_each_round(options: dict[str, Any], want: Any) -> None:
    game = GnomingGame(options, seats=4)
    state = _random_play(game, 11, keep_rate=0.6)
    firsts, finishers = _firsts_and_finishers(state)
    assert firsts == want(finishers)
    # The referee agrees, and flags a log that starts the wrong seat.
    events = table_log(game, state.history())
    log = game.referee()
    log.feed_all(events)
    assert log.report().infractions == []
    wrong = game.seats[(firsts[1] + 1) % 4]
    bad = [e if e.type != "round_start" or e.get("round") != 2 else
           TableEvent(e.type, e.t_ns, data={**e.data, "first": wrong}) for e in events]
    log = game.referee()
    log.feed_all(bad)
    assert [i.kind for i in log.report().infractions][:1] == ["first_player"]


def test_three_rounds_and_the_lowest_total_wins_with_the_round_3_tie_break() -> None:
    game = GnomingGame(seats=3)
    state = _random_play(game, 5, keep_rate=0.6)
    assert len(state.scores) == 3 and state.is_terminal()
    totals = state.returns()
    low = min(totals)
    tied = [p for p in range(3) if totals[p] == low]
    last = min(state.scores[2][p] for p in tied)
    assert state.winners() == [p for p in tied if state.scores[2][p] == last]
    assert GnomingGame({"rounds": 2}, seats=3).options.rounds == 2
    assert len(_random_play(GnomingGame({"rounds": 2}, seats=3), 5, keep_rate=0.6).scores) == 2


# -- §5 on the referee path -----------------------------------------------------------------

def test_referee_accepts_a_bounce_matched_only_by_the_new_card() -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="deck")
    log("keep", "Ann", pos="12", card="G5", out="G5")          # the only face-up 5 is the new one
    log("keep", "Ann", pos="13", card="G5", out="G4")          # the 4 was face down: no face-up 4
    log("discard", "Ann", card="G4", pile="A")
    assert log.kinds() == []


@pytest.mark.parametrize(
    ("first_keep", "why"),
    [
        ({"pos": "12", "card": "G6", "out": "G5"}, "no face-up 5"),
        ({"pos": "11", "card": "G6", "out": "G3"}, "the 3 was face up"),
        ({"pos": "12", "card": "G-1", "out": "G-2"}, "a negative card"),
        ({"pos": "12", "card": "G3", "out": "MULLIGAN"}, "a Mulligan"),
    ],
)
def test_referee_flags_a_bounce_the_rules_do_not_allow(first_keep: dict[str, str], why: str) -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="deck")
    log("keep", "Ann", **first_keep)
    log("keep", "Ann", pos="33", card=first_keep["out"], out="G8")
    assert log.kinds() == ["illegal_bounce"], why


def test_referee_flags_a_bounce_onto_a_face_up_card_only_under_face_down_only() -> None:
    for options, kinds in (({}, []), ({"bounce_targets": "face_down_only"}, ["bounce_target"])):
        log = Log(**options)
        log.opening()
        log("draw", "Ann", from_="deck")
        log("keep", "Ann", pos="12", card="G3", out="G3")      # matches the face-up 3 at 11
        log("keep", "Ann", pos="22", card="G3", out="G-2")     # onto the face-up -2, which ends the chain
        log("discard", "Ann", card="G-2", pile="A")
        assert log.kinds() == kinds


def test_referee_flags_a_pass_on_a_pile_card_only_under_must_keep_discard_draw() -> None:
    for must_keep, kinds in ((False, []), (True, ["must_keep"])):
        log = Log(must_keep_discard_draw=must_keep)
        log.opening()
        log("draw", "Ann", from_="B", card="G4")
        log("discard", "Ann", card="G4", pile="B")
        assert log.kinds() == kinds


def test_referee_a_hazard_leaves_the_game_and_never_restarts_a_pile() -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="A", card="G5")
    log("keep", "Ann", pos="12", card="G5", out="HAZARD")
    assert log("discard", "Ann", card="HAZARD") == ["hazard"]
    log("draw", "Bob", from_="deck")
    log("discard", "Bob", card="G7", pile="B")                 # A is still empty
    assert log.kinds() == ["wrong_pile"]
    assert log.ref.round is not None and log.ref.round.piles["A"] == []


def test_referee_hazard_on_pile_and_the_to_pile_variant() -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="deck")
    log("discard", "Ann", card="HAZARD", pile="A")
    assert log.kinds() == ["hazard_on_pile"]
    log = Log(hazard_on_discard="to_pile")
    log.opening()
    log("draw", "Ann", from_="deck")
    assert log("discard", "Ann", card="HAZARD", pile="A") == ["hazard"]
    log("flip", "Bob", pos="33", card="G8")
    log("draw", "Bob", from_="A", card="HAZARD")               # a Hazard on a pile can be drawn
    assert log.kinds() == []
    # docs/table-log.md: only a non-Hazard discard without a pile is malformed; a Hazard set
    # aside under to_pile is the player's breach.
    assert log("discard", "Bob", card="HAZARD") == ["hazard"]
    assert log.kinds() == ["hazard_off_pile"]


@pytest.mark.parametrize(("minimum", "kinds"), [(7, []), (8, ["illegal_flip"])])
def test_referee_hazard_flip_min_facedown(minimum: int, kinds: list[str]) -> None:
    log = Log(hazard_flip_min_facedown=minimum)
    log.opening()                                              # Bob has 7 face-down cards
    log("draw", "Ann", from_="deck")
    log("discard", "Ann", card="HAZARD")
    log("flip", "Bob", pos="33", card="G8")
    assert log.kinds() == kinds


def test_referee_the_discarder_may_not_flip_after_its_own_hazard() -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="deck")
    log("discard", "Ann", card="HAZARD")
    log("flip", "Ann", pos="33", card="G8")
    assert log.kinds() == ["illegal_flip"]


def test_referee_final_turns_a_second_clear_grid_gains_nothing() -> None:
    log = Log(["Ann", "Bob", "Cal"], rounds=1)
    log.opening()
    hidden = ["12", "13", "21", "23", "31", "32", "33"]
    for n, pos in enumerate(hidden):
        for seat in ("Ann", "Bob"):
            log("draw", seat, from_="deck")
            log("keep", seat, pos=pos, card="G-1", out="G6")
            rulings = log("discard", seat, card="G6", pile="A")
        if n < len(hidden) - 1:
            log.turn("Cal", "G8", "B")
    # Ann cleared her grid first; Bob cleared his in his final turn; Cal's turn is the last.
    assert "round_end" not in rulings
    assert "round_end" in log.turn("Cal", "G8", "B")
    log("reveal", "Ann", grid="G3 G-1 G-1 G-1 G-2 G-1 G-1 G-1 G-1".split())
    log("reveal", "Bob", grid="G3 G-1 G-1 G-1 G-2 G-1 G-1 G-1 G-1".split())
    log("reveal", "Cal", grid="G3 G4 G4 G4 G-2 G4 G4 G4 G4".split())
    assert log.report().hands == [{"Ann": -6 - 5, "Bob": -6, "Cal": -4 - 4 + 3 + 4 + 4 - 2}]
    assert log.kinds() == []


def test_option_values_as_the_spec_writes_them() -> None:
    """§11 writes wild_mulligans_per_layout's default as the number 1, and cards as G8."""
    assert GnomingGame({"wild_mulligans_per_layout": 1}).options == GnomingOptions()
    with pytest.raises(InvalidActionError, match="'1', 'unlimited'"):
        GnomingGame({"wild_mulligans_per_layout": 2})
    game = GnomingGame({"deck": {"G8": 20, "G-4": 4, "MULLIGAN": 1}}, seats=2)
    assert Counter(str(c) for c in game.new_initial_state().full_deck) == {"G8": 20, "G-4": 4, "MULLIGAN": 1}
    with pytest.raises(InvalidActionError, match="unknown card 'G9'"):
        GnomingGame({"deck": {"G9": 30}}, seats=2)


# -- §9 breaches the camera can see ---------------------------------------------------------

def test_referee_flags_a_peek_at_a_face_down_card() -> None:
    log = Log()
    log.opening()
    log("peek", "Ann", pos="11")                               # face up: lifting it hides nothing
    log("peek", "Ann", pos="12")
    log("peek", "Bob", pos="33", grid="Ann")
    report = log.report()
    assert [i.kind for i in report.infractions] == ["peek", "peek"]
    assert "Ann's face-down 33" in report.infractions[1].text


def test_referee_flags_a_card_placed_in_another_players_grid() -> None:
    log = Log()
    log.opening()
    log("draw", "Ann", from_="A", card="G5")
    log("keep", "Ann", pos="12", card="G5", out="G7", grid="Bob")
    assert log.kinds() == ["wrong_grid"]
    # The card is taken back and kept in Ann's own grid: the turn goes on normally.
    log("keep", "Ann", pos="12", card="G5", out="G8")
    log("discard", "Ann", card="G8", pile="A")
    assert log.kinds() == ["wrong_grid"]
    assert log.ref.round is not None and log.ref.round.grids[1][1] is None


# -- §5 checked at every step of random play ------------------------------------------------

def _check_legal_actions(state: GnomingState) -> None:
    """The legal actions of a live state, derived from §5 and compared with the engine's."""
    r = state.cur
    assert r is not None
    o = state.options
    p = r.player
    legal = set(state.legal_actions())
    if r.phase == "draw":
        under = sum(len(pile) - 1 for pile in r.piles.values() if pile)
        deck_ok = bool(r.deck) or (o.draw_pile_empty == "reshuffle_discards" and under > 0)
        assert legal == {Draw(p, s) for s in ("deck", "A", "B")
                         if (s == "deck" and deck_ok) or (s != "deck" and r.piles[s])}
    elif r.phase == "place":
        bounce = r.source == "bounce"
        keeps = {Keep(p, i) for i in range(9) if i not in r.filled
                 and not (bounce and o.bounce_targets == "face_down_only" and r.up[p][i])}
        may_pass = not (o.must_keep_discard_draw and r.source in ("A", "B"))
        assert legal == keeps | ({Pass(p)} if may_pass else set())
    elif r.phase == "discard":
        empty = [k for k in ("A", "B") if not r.piles[k]]
        assert legal == {Discard(p, k) for k in (empty if len(empty) == 1 else ["A", "B"])}
    elif r.phase == "hazard":
        for q in range(state.n_seats):
            mine = set(state.legal_actions(q))
            if q in r.hazard_pending:
                assert mine == {Decline(q)} | {Flip(q, i) for i in range(9) if not r.up[q][i]}
            else:
                assert mine == set()


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (4, {}),
        (3, {"bounce_targets": "face_down_only", "must_keep_discard_draw": True,
             "hazard_on_discard": "to_pile", "hazard_flip_min_facedown": 3,
             "turn_direction": "counterclockwise"}),
        (7, {"hazard_flip_min_facedown": 1}),
    ],
)
def test_the_engine_follows_section_5_at_every_step(seats: int, options: dict[str, Any]) -> None:
    game = GnomingGame(options, seats=seats)
    need = game.options.hazard_flip_min_facedown
    step = 1 if game.options.turn_direction == "clockwise" else -1
    bounces = hazards = rounds_with_finisher = 0
    for seed in range(6):
        b, h, f = _play_checking_section_5(game, need, step, random.Random(seed))
        bounces, hazards, rounds_with_finisher = bounces + b, hazards + h, rounds_with_finisher + f
    assert bounces and hazards and rounds_with_finisher


def _play_checking_section_5(game: GnomingGame, need: int, step: int,
                             rng: random.Random) -> tuple[int, int, int]:
    seats = game.num_seats
    state = game.new_initial_state()
    bounces = hazards = rounds_with_finisher = 0
    turns_after_finisher = 0
    for _ in range(30_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        r = state.cur
        assert r is not None
        _check_legal_actions(state)
        legal = state.legal_actions()
        keeps = [a for a in legal if isinstance(a, Keep)]
        action = rng.choice(keeps) if keeps and rng.random() < 0.7 else rng.choice(legal)
        p = r.player
        finisher_before = r.finisher
        round_before = state.round_index
        removed_before = len(r.removed)
        if isinstance(action, Keep):
            out, was_down = r.grids[p][action.pos], not r.up[p][action.pos]
            after = [c for i, c in enumerate(r.grids[p]) if r.up[p][i] and i != action.pos] + [r.held]
            may_bounce = was_down and out.value is not None and out.value > 0 and out in after
        state.apply_action(action)
        if isinstance(action, Keep) and state.round_index == round_before:
            if may_bounce:
                bounces += 1
                assert r.phase == "place" and r.held == out and r.source == "bounce"
            else:
                assert r.held is None
        discarded_hazard = (len(r.removed) > removed_before and isinstance(action, (Keep, Pass))) or (
            isinstance(action, Discard) and r.piles[action.pile][-1].is_hazard)
        if discarded_hazard and r.phase == "hazard":
            hazards += 1
            assert r.hazard_pending == [q for q in range(seats) if q != p and
                                        sum(not u for u in r.up[q]) >= need]
        turn_over = state.round_index != round_before or r.phase == "over" or (
            r.phase == "draw" and r.player == (p + step) % seats and not isinstance(action, (Flip, Decline)))
        if isinstance(action, (Flip, Decline)) and r.phase == "draw":
            turn_over = True
        if turn_over and state.round_index == round_before:
            if finisher_before is None and r.finisher is not None:
                assert r.finisher == p and sum(not u for u in r.up[p]) == 0
                turns_after_finisher = 0
                rounds_with_finisher += 1
            elif finisher_before is not None:
                turns_after_finisher += 1
            if r.phase == "over" and r.finisher is not None:
                assert turns_after_finisher == seats - 1, "one final turn for every other seat"
    assert state.is_terminal()
    return bounces, hazards, rounds_with_finisher
