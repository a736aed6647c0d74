"""Gnoming A Round, the Golf-like card game of Grandpa Beck's Games (``rules/gnoming.md``).

Rule source: the publisher's rules page and the summaries named in ``gnoming.md``
§12, as specified there with its rulings and variant options (§11).

Glossary:

- **grid**: a seat's 3×3 cards, face up or face down (positions ``"11"``..``"33"``,
  see :mod:`kiosk.games.gnoming_scoring`).
- **draw pile** (the deck) and **discard piles A and B**: a turn draws from one of
  them; only the top of A and B can be seen or taken.
- **held card**: the card in the player's hand during a turn.
- **keep**: the held card goes face up at a position not filled this turn; the card
  there comes out (**removed card**, turned face up).
- **bounce**: a removed card that was face down, is positive, and matches a face-up
  positive card in the grid may be kept again at another position; chains have no
  limit. Otherwise the removed card is discarded.
- **Hazard**: a discarded Hazard leaves the game and lets every other seat with at
  least two face-down cards turn one up (**hazard flips**); each one left in a grid
  at the end costs 10.
- **Mulligan**: a wild card at scoring (one per grid by default).
- **finisher**: the first seat with no face-down card; every other seat then has
  one final turn, the grids are revealed in place and scored, and the finisher gets
  −5 if lowest (ties count as lowest) or +5 otherwise.

The strict engine: :data:`CHANCE` for the deal and for each card drawn from the
draw pile; :data:`SIMULTANEOUS` for the opening flips (two per seat) and for the
hazard flips; otherwise the seat whose turn it is. Rulings where the spec leaves a
choice to the engine: a discard with only one legal pile still names the pile; a
discarded Hazard under ``hazard_on_discard = remove`` leaves the game without an
action; if no draw is possible at all (draw pile and both discard piles empty
after a reshuffle) the round ends as under ``draw_pile_empty = end_round``.

>>> game = GnomingGame(seats=3)
>>> state = game.new_initial_state()
>>> state.apply_action(state.sample_chance(5))
>>> state.public_view().phase, len(state.legal_actions())
('flip', 27)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.base import CHANCE, SIMULTANEOUS, Game, Options, State, option
from kiosk.games.cards import GNOMING_COUNTS, GnomeCard, gnoming_deck
from kiosk.games.errors import InvalidActionError
from kiosk.games.gnoming_actions import (
    Deal,
    DeckCard,
    Decline,
    Discard,
    Draw,
    Flip,
    GnomingAction,
    Keep,
    Pass,
    parse_action,
)
from kiosk.games.gnoming_scoring import GridScore, score_grid
from kiosk.games.referee import Referee

__all__ = [
    "GnomingOptions",
    "GnomingGame",
    "GnomingState",
    "GnomingView",
    "GridView",
    "check_options",
    "deck_counts",
    "first_out_adjustment",
    "game_winners",
    "grid_score",
]


@dataclass(frozen=True, slots=True)
class GnomingOptions(Options):
    """Every variant option of ``rules/gnoming.md`` §11, with the spec's defaults."""

    players: str = option("2..7", "allowed player count; 3..7 follows the rules summary",
                          choices=("2..7", "3..7"))
    rounds: int = option(3, "rounds per game")
    deck: Any = option(None, "copies of each card, e.g. {\"8\": 13, ..., \"HAZARD\": 3}; "
                             "null: the publisher's 110 cards")
    score_diagonals: bool = option(False, "the two diagonals are lines too")
    line_sharing: str = option(
        "shared", "shared: every matched line scores; disjoint: a card counts in at most one matched line",
        choices=("shared", "disjoint"))
    wild_mulligans_per_layout: str = option(
        "1", "how many Mulligans in one grid act as wild at scoring", choices=("1", "unlimited"))
    max_mulligans_per_line: int = option(
        1, "how many Mulligans may stand in one matched line (0: none; a line needs one other card)")
    mulligan_dual_value: bool = option(
        True, "a Mulligan may complete its row and its column with different values")
    hazard_penalty: int = option(10, "points for each Hazard in a grid at the end of a round")
    hazard_on_discard: str = option(
        "remove", "remove: a discarded Hazard leaves the game; to_pile: it goes on a discard pile",
        choices=("remove", "to_pile"))
    hazard_flip_min_facedown: int = option(
        2, "face-down cards a player needs to flip one after a Hazard (2: never the last card)")
    first_out_bonus: int = option(-5, "the finisher's adjustment when lowest")
    first_out_penalty: int = option(5, "the finisher's adjustment otherwise")
    first_out_tie: str = option(
        "counts_as_lowest", "counts_as_lowest: a finisher tied for lowest gets the bonus; strict: must be "
        "strictly lowest", choices=("counts_as_lowest", "strict"))
    bounce_targets: str = option(
        "any", "any: a bounce may land on any position not filled this turn; face_down_only: only face down",
        choices=("any", "face_down_only"))
    must_keep_discard_draw: bool = option(False, "a card taken from A or B must be kept in the grid")
    first_player: str = option(
        "rotate_left", "rotate_left: the first seat moves one place left each round; youngest_every_round; "
        "finisher_starts: the previous round's finisher starts",
        choices=("rotate_left", "youngest_every_round", "finisher_starts"))
    turn_direction: str = option("clockwise", "turn order direction (clockwise is to the left)",
                                 choices=("clockwise", "counterclockwise"))
    draw_pile_empty: str = option(
        "reshuffle_discards", "reshuffle_discards: shuffle the discards under the two tops into a new draw "
        "pile; end_round: the round ends when the draw pile is empty",
        choices=("reshuffle_discards", "end_round"))
    youngest_seat: int = option(
        0, "index of the youngest player's seat, who starts round 1 (entered at the kiosk)")

    def __post_init__(self) -> None:
        # §11 writes the default deck as "publisher counts": a header that spells the default out
        # that way (or "publisher_counts") means the publisher's 110 cards, as null does.
        if isinstance(self.deck, str) and "_".join(self.deck.lower().split()) in (
                "publisher", "publisher_counts"):
            object.__setattr__(self, "deck", None)
        # A deck given as a JSON object becomes sorted (card, copies) pairs, so options stay
        # hashable and print the same way back into a log header.
        if isinstance(self.deck, Mapping):
            object.__setattr__(self, "deck", tuple(sorted((str(k), v) for k, v in self.deck.items())))
        elif isinstance(self.deck, list):
            object.__setattr__(self, "deck", tuple(tuple(p) if isinstance(p, list) else p for p in self.deck))


def _deck_key(key: object) -> int | str:
    """A ``deck`` option key as a key of GNOMING_COUNTS: ``"8"``, ``8`` and ``"G8"`` are all 8."""
    text = str(key).strip().upper()
    if text.startswith("G") and text[1:].lstrip("-").isdigit():
        text = text[1:]
    return int(text) if text.lstrip("-").isdigit() else text


def deck_counts(opts: GnomingOptions) -> dict[int | str, int]:
    """The copies of each card under the ``deck`` option (the publisher's counts by default).

    Keys may be values (``"8"``, ``"-2"``) or card notation (``"G8"``, ``"G-2"``).

    >>> sum(deck_counts(GnomingOptions()).values())
    110
    >>> deck_counts(GnomingOptions(deck={"G8": 30, "-2": 5, "hazard": 1}))
    {-2: 5, 8: 30, 'HAZARD': 1}
    """
    if opts.deck is None:
        return dict(GNOMING_COUNTS)
    out: dict[int | str, int] = {}
    for key, n in dict(opts.deck).items():
        k = _deck_key(key)
        out[k] = out.get(k, 0) + n
    return out


def check_options(opts: GnomingOptions) -> None:
    """Checks what the types cannot; InvalidActionError names the option and the fix.

    >>> check_options(GnomingOptions(deck={"9": 4}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kiosk.games.errors.InvalidActionError: option 'deck': unknown card '9' (cards: 8, 7, ..., MULLIGAN)
    """
    if opts.rounds < 1:
        raise InvalidActionError(f"option 'rounds' must be at least 1, got {opts.rounds}",
                                 input=str(opts.rounds))
    if opts.max_mulligans_per_line < 0:
        raise InvalidActionError("option 'max_mulligans_per_line' must be 0 or more, got "
                                 f"{opts.max_mulligans_per_line}", input=str(opts.max_mulligans_per_line))
    if opts.hazard_flip_min_facedown < 1:
        raise InvalidActionError("option 'hazard_flip_min_facedown' must be at least 1, got "
                                 f"{opts.hazard_flip_min_facedown}", input=str(opts.hazard_flip_min_facedown))
    if opts.deck is not None:
        bad = InvalidActionError("option 'deck' must map cards to copies, e.g. {\"8\": 13, \"HAZARD\": 3}, "
                                 f"got {opts.deck!r}", input=repr(opts.deck))
        if not isinstance(opts.deck, tuple):
            raise bad
        try:
            raw = dict(opts.deck)
        except (TypeError, ValueError):
            raise bad from None
        known = ", ".join(str(k) for k in GNOMING_COUNTS)
        for key, n in raw.items():
            if _deck_key(key) not in GNOMING_COUNTS:
                raise InvalidActionError(f"option 'deck': unknown card {key!r} (cards: {known})",
                                         input=str(key))
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InvalidActionError(f"option 'deck': copies of {key!r} must be 0 or more, got {n!r}",
                                         input=repr(n))


def grid_score(cards: list[GnomeCard], opts: GnomingOptions) -> GridScore:
    """Scores a face-up grid under the game's options."""
    return score_grid(
        cards,
        score_diagonals=opts.score_diagonals,
        line_sharing=opts.line_sharing,
        wild_mulligans_per_layout=None if opts.wild_mulligans_per_layout == "unlimited" else 1,
        max_mulligans_per_line=opts.max_mulligans_per_line,
        mulligan_dual_value=opts.mulligan_dual_value,
        hazard_penalty=opts.hazard_penalty,
    )


def first_out_adjustment(grid_scores: list[int], finisher: int | None, opts: GnomingOptions) -> list[int]:
    """The round scores: each grid score plus the finisher's bonus or penalty (§6.3).

    >>> first_out_adjustment([1, 12, 15, 1], 0, GnomingOptions())
    [-4, 12, 15, 1]
    >>> first_out_adjustment([1, 12, 15, 1], 0, GnomingOptions(first_out_tie="strict"))
    [6, 12, 15, 1]
    """
    out = list(grid_scores)
    if finisher is None:
        return out
    mine = grid_scores[finisher]
    others = [s for i, s in enumerate(grid_scores) if i != finisher]
    lowest = all(mine <= s for s in others) if opts.first_out_tie == "counts_as_lowest" else all(
        mine < s for s in others)
    out[finisher] += opts.first_out_bonus if lowest else opts.first_out_penalty
    return out


def game_winners(rounds: list[list[int]], last: int | None = None) -> list[int]:
    """The winners: lowest total, then the lowest last-round score, then shared (§7).

    ``last`` is the number of the game's last round (option ``rounds``) when ``rounds`` may hold
    more rows (a score correction for a hand the game never has): such a row still counts in the
    totals the report shows, but the tie-break is the game's last round, not that row.

    >>> game_winners([[12, 9, 4, 20], [7, 9, 10, -6], [-3, -2, 5, 6]])   # example 12
    [0]
    >>> game_winners([[6, -5, 3], [0, 11, 3]], last=1)
    [1]
    """
    totals = [sum(r[i] for r in rounds) for i in range(len(rounds[0]))]
    final = rounds[-1] if last is None else rounds[last - 1]
    low = min(totals)
    tied = [i for i, t in enumerate(totals) if t == low]
    if len(tied) > 1:
        best = min(final[i] for i in tied)
        tied = [i for i in tied if final[i] == best]
    return tied


@dataclass(frozen=True, slots=True)
class GridView:
    """One seat's grid as the table sees it (None for a face-down card)."""

    name: str
    cards: tuple[GnomeCard | None, ...]
    face_down: int


@dataclass(frozen=True, slots=True)
class GnomingView:
    """Everything everyone at the table can see (the kiosk draws only this)."""

    round_number: int
    rounds_total: int
    phase: str
    """``deal``, ``flip`` (opening flips), ``draw``, ``place``, ``discard``, ``hazard`` or ``over``."""
    current_seat: int | None
    held: GnomeCard | None
    """The held card when the table can see it (taken from A or B, or a bounce)."""
    pile_a: GnomeCard | None
    pile_b: GnomeCard | None
    draw_pile_size: int
    removed: tuple[GnomeCard, ...]
    grids: tuple[GridView, ...]
    finisher: int | None
    final_turns_left: int
    hazard_flippers: tuple[int, ...]
    """Seats that may still flip (or decline) after a Hazard."""
    round_scores: tuple[tuple[int, ...], ...]
    grid_scores: tuple[GridScore, ...]
    """The last scored round's grids, with their matched lines."""
    totals: tuple[int, ...]
    winners: tuple[str, ...]


class GnomingGame(Game):
    """Gnoming A Round for 2 to 7 seats (3 to 7 under ``players = 3..7``)."""

    name = "gnoming"
    title = "Gnoming A Round"
    options_type = GnomingOptions
    min_seats = 2
    max_seats = 7

    def __init__(self, options: Options | Mapping[str, Any] | None = None, /, *,
                 seats: Sequence[str] | int = 4) -> None:
        # §11 writes this option's default as the number 1; a header may too.
        wild = options.get("wild_mulligans_per_layout") if isinstance(options, Mapping) else None
        if isinstance(wild, int) and not isinstance(wild, bool) and isinstance(options, Mapping):
            options = {**options, "wild_mulligans_per_layout": str(wild)}
        super().__init__(options, seats=seats)
        # §9: the youngest is entered at the kiosk; options given as a mapping (a log header)
        # without ``youngest_seat`` leave it to the log's round 1 ``first``.
        if isinstance(options, Mapping):
            self._youngest_entered = "youngest_seat" in options
        else:
            self._youngest_entered = options is not None

    def _check_seat_count(self, n: int) -> None:
        super()._check_seat_count(n)
        opts: GnomingOptions = self.options
        check_options(opts)
        if opts.players == "3..7" and n < 3:
            raise InvalidActionError(f"{self.title} takes 3 to 7 seats under players = 3..7, got {n}",
                                     input=str(n))
        if not 0 <= opts.youngest_seat < n:
            raise InvalidActionError(f"option 'youngest_seat' must be a seat index 0..{n - 1}, got "
                                     f"{opts.youngest_seat}", input=str(opts.youngest_seat))
        counts = deck_counts(opts)
        non_hazard = sum(v for k, v in counts.items() if k != "HAZARD")
        if non_hazard < 9 * n + 3:
            raise InvalidActionError(f"the deck (option 'deck') has too few cards for {n} grids and two "
                                     "discard piles", input=str(counts))

    def new_initial_state(self) -> GnomingState:
        return GnomingState(self)

    def referee(self) -> Referee:
        from kiosk.games.gnoming_referee import GnomingReferee

        referee: Referee = GnomingReferee(self.seats, self.options, youngest_entered=self._youngest_entered)
        return referee


@dataclass
class _Round:
    grids: list[list[GnomeCard]]
    up: list[list[bool]]
    deck: list[GnomeCard]
    piles: dict[str, list[GnomeCard]]
    removed: list[GnomeCard]
    first: int
    player: int
    phase: str = "flip"
    held: GnomeCard | None = None
    source: str = ""
    """Where the held card came from: deck, A, B or bounce."""
    pending_deck: bool = False
    filled: list[int] = field(default_factory=list)
    to_discard: GnomeCard | None = None
    hazard_pending: list[int] = field(default_factory=list)
    finisher: int | None = None
    final_left: int = 0


class GnomingState(State[GnomingAction]):
    """A game of Gnoming A Round on the strict path."""

    game: GnomingGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.options: GnomingOptions = game.options
        self.n_seats = game.num_seats
        self.round_index = -1
        self.cur: _Round | None = None
        self.scores: list[list[int]] = []
        self.last_grid_scores: list[GridScore] = []
        self.finishers: list[int | None] = []
        self.full_deck = sorted(gnoming_deck(deck_counts(self.options)), key=str)

    # -- helpers --------------------------------------------------------------------
    def _step(self) -> int:
        return 1 if self.options.turn_direction == "clockwise" else -1

    def face_down(self, seat: int) -> list[int]:
        """The face-down positions of a seat's grid."""
        assert self.cur is not None
        return [i for i in range(9) if not self.cur.up[seat][i]]

    def can_bounce(self, seat: int, card: GnomeCard, was_face_down: bool) -> bool:
        """True when a removed card may bounce (§5.2): face down before, positive, matched face up."""
        r = self.cur
        assert r is not None
        if not was_face_down or card.value is None or card.value <= 0:
            return False
        return any(r.up[seat][i] and r.grids[seat][i] == card for i in range(9))

    def _deal_pending(self) -> bool:
        return self.cur is None or self.cur.phase == "over"

    def is_terminal(self) -> bool:
        return len(self.scores) == self.options.rounds and self._deal_pending()

    def _current_player(self) -> int:
        r = self.cur
        if r is None or r.phase == "over" or r.pending_deck:
            return CHANCE
        if r.phase in ("flip", "hazard"):
            return SIMULTANEOUS
        return r.player

    # -- legal actions --------------------------------------------------------------
    def _draw_sources(self) -> list[str]:
        r = self.cur
        assert r is not None
        out = []
        under = len(r.piles["A"][:-1]) + len(r.piles["B"][:-1])
        if r.deck or (self.options.draw_pile_empty == "reshuffle_discards" and under):
            out.append("deck")
        out.extend(p for p in ("A", "B") if r.piles[p])
        return out

    def _legal_actions(self, player: int | None) -> list[GnomingAction]:
        r = self.cur
        assert r is not None
        seats = range(self.n_seats) if player is None else [player]
        out: list[GnomingAction] = []
        if r.phase == "flip":
            for p in seats:
                if sum(r.up[p]) < 2:
                    out.extend(Flip(p, i) for i in self.face_down(p))
            return out
        if r.phase == "hazard":
            for p in seats:
                if p in r.hazard_pending:
                    out.extend(Flip(p, i) for i in self.face_down(p))
                    out.append(Decline(p))
            return out
        p = r.player
        if player is not None and player != p:
            return []
        if r.phase == "draw":
            return [Draw(p, s) for s in self._draw_sources()]
        if r.phase == "place":
            bounce = r.source == "bounce"
            for i in range(9):
                if i in r.filled:
                    continue
                if bounce and self.options.bounce_targets == "face_down_only" and r.up[p][i]:
                    continue
                out.append(Keep(p, i))
            if not (self.options.must_keep_discard_draw and r.source in ("A", "B")):
                out.append(Pass(p))
            return out
        if r.phase == "discard":
            empty = [k for k in ("A", "B") if not r.piles[k]]
            return [Discard(p, k) for k in (empty if len(empty) == 1 else ["A", "B"])]
        return out

    # -- chance -----------------------------------------------------------------------
    def _sample_chance(self, rng: random.Random) -> GnomingAction:
        r = self.cur
        if r is None or r.phase == "over":
            cards = list(self.full_deck)
            rng.shuffle(cards)
            k = self.n_seats
            grids = tuple(tuple(cards[9 * i: 9 * i + 9]) for i in range(k))
            rest = cards[9 * k:]
            turned: list[GnomeCard] = []
            kept = 0
            while kept < 2:
                c = rest[len(turned)]
                turned.append(c)
                kept += not c.is_hazard
            return Deal(grids, tuple(turned))
        return DeckCard(r.player, rng.choice(r.deck))

    def _is_legal_chance(self, action: GnomingAction) -> bool:
        r = self.cur
        if r is None or r.phase == "over":
            if not isinstance(action, Deal) or len(action.grids) != self.n_seats:
                return False
            if any(len(g) != 9 for g in action.grids):
                return False
            t = action.turned
            if sum(not c.is_hazard for c in t) != 2 or not t or t[-1].is_hazard:
                return False
            used = Counter(c for g in action.grids for c in g) + Counter(t)
            return not used - Counter(self.full_deck)
        return isinstance(action, DeckCard) and action.seat == r.player and action.card in r.deck

    # -- applying -----------------------------------------------------------------------
    def _apply_action(self, action: GnomingAction) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        r = self.cur
        assert r is not None
        if isinstance(action, DeckCard):
            r.deck.remove(action.card)
            r.pending_deck = False
            r.held, r.source, r.phase = action.card, "deck", "place"
        elif isinstance(action, Flip):
            r.up[action.seat][action.pos] = True
            if r.phase == "flip":
                if all(sum(u) >= 2 for u in r.up):
                    r.phase = "draw"
            else:
                r.hazard_pending.remove(action.seat)
                if not r.hazard_pending:
                    self._end_check()
        elif isinstance(action, Decline):
            r.hazard_pending.remove(action.seat)
            if not r.hazard_pending:
                self._end_check()
        elif isinstance(action, Draw):
            if action.source == "deck":
                if not r.deck:
                    self._reshuffle()
                r.pending_deck = True
            else:
                r.held, r.source, r.phase = r.piles[action.source].pop(), action.source, "place"
        elif isinstance(action, Keep):
            self._keep(action.seat, action.pos)
        elif isinstance(action, Pass):
            r.to_discard, r.held = r.held, None
            self._to_discard()
        elif isinstance(action, Discard):
            card = r.to_discard
            assert card is not None
            r.piles[action.pile].append(card)
            r.to_discard = None
            if card.is_hazard:
                self._hazard()
            else:
                self._end_check()

    def _deal(self, action: Deal) -> None:
        self.round_index += 1
        k = self.n_seats
        used = Counter(c for g in action.grids for c in g) + Counter(action.turned)
        deck = sorted((Counter(self.full_deck) - used).elements(), key=str)
        turned = [c for c in action.turned if not c.is_hazard]
        first = self._first_player()
        self.cur = _Round(
            grids=[list(g) for g in action.grids],
            up=[[False] * 9 for _ in range(k)],
            deck=deck,
            piles={"A": [turned[0]], "B": [turned[1]]},
            removed=[c for c in action.turned if c.is_hazard],
            first=first,
            player=first,
        )

    def _first_player(self) -> int:
        o = self.options
        n = self.n_seats
        if self.round_index == 0 or o.first_player == "youngest_every_round":
            return o.youngest_seat
        prev = self.cur.first if self.cur is not None else o.youngest_seat
        if o.first_player == "finisher_starts" and self.finishers and self.finishers[-1] is not None:
            return self.finishers[-1]
        return (prev + 1) % n

    def _reshuffle(self) -> None:
        r = self.cur
        assert r is not None
        for k in ("A", "B"):
            r.deck.extend(r.piles[k][:-1])
            del r.piles[k][:-1]
        r.deck.sort(key=str)

    def _keep(self, seat: int, pos: int) -> None:
        r = self.cur
        assert r is not None and r.held is not None
        out = r.grids[seat][pos]
        was_down = not r.up[seat][pos]
        r.grids[seat][pos] = r.held
        r.up[seat][pos] = True
        r.filled.append(pos)
        r.held = None
        if self.can_bounce(seat, out, was_down):
            # The player may keep it again (a bounce) or pass, which discards it.
            r.held, r.source = out, "bounce"
            return
        r.to_discard = out
        self._to_discard()

    def _to_discard(self) -> None:
        r = self.cur
        assert r is not None and r.to_discard is not None
        if r.to_discard.is_hazard and self.options.hazard_on_discard == "remove":
            r.removed.append(r.to_discard)
            r.to_discard = None
            self._hazard()
            return
        r.phase = "discard"

    def _hazard(self) -> None:
        r = self.cur
        assert r is not None
        need = self.options.hazard_flip_min_facedown
        r.hazard_pending = [q for q in range(self.n_seats)
                            if q != r.player and len(self.face_down(q)) >= need]
        if r.hazard_pending:
            r.phase = "hazard"
        else:
            self._end_check()

    def _end_check(self) -> None:
        r = self.cur
        assert r is not None
        p = r.player
        if r.finisher is None and not self.face_down(p):
            r.finisher = p
            r.final_left = self.n_seats - 1
        elif r.finisher is not None:
            r.final_left -= 1
        if r.finisher is not None and r.final_left == 0:
            self._end_round()
            return
        r.player = (p + self._step()) % self.n_seats
        r.phase, r.filled, r.source, r.held = "draw", [], "", None
        if self.options.draw_pile_empty == "end_round" and not r.deck:
            self._end_round()
        elif not self._draw_sources():
            self._end_round()

    def _end_round(self) -> None:
        r = self.cur
        assert r is not None
        for u in r.up:
            u[:] = [True] * 9
        scored = [grid_score(g, self.options) for g in r.grids]
        self.last_grid_scores = scored
        self.scores.append(first_out_adjustment([s.score for s in scored], r.finisher, self.options))
        self.finishers.append(r.finisher)
        r.phase = "over"

    # -- results and views ------------------------------------------------------------
    def returns(self) -> list[int]:
        """Each seat's total so far (lower is better)."""
        return [sum(row[p] for row in self.scores) for p in range(self.n_seats)]

    def winners(self) -> list[int]:
        """The winning seats once the game is over (empty before)."""
        return game_winners(self.scores) if self.is_terminal() else []

    def public_view(self) -> GnomingView:
        r = self.cur
        grids: list[GridView] = []
        for p, name in enumerate(self.game.seats):
            if r is None:
                grids.append(GridView(name, (None,) * 9, 9))
                continue
            cards = tuple(c if up else None for c, up in zip(r.grids[p], r.up[p], strict=True))
            grids.append(GridView(name, cards, cards.count(None)))
        held = None
        if r is not None and r.held is not None and r.source in ("A", "B", "bounce"):
            held = r.held
        return GnomingView(
            round_number=self.round_index + 1,
            rounds_total=self.options.rounds,
            phase="deal" if r is None else r.phase,
            current_seat=None if r is None or r.phase in ("over", "flip", "hazard") else r.player,
            held=held,
            pile_a=r.piles["A"][-1] if r and r.piles["A"] else None,
            pile_b=r.piles["B"][-1] if r and r.piles["B"] else None,
            draw_pile_size=len(r.deck) if r else 0,
            removed=tuple(r.removed) if r else (),
            grids=tuple(grids),
            finisher=r.finisher if r else None,
            final_turns_left=r.final_left if r else 0,
            hazard_flippers=tuple(r.hazard_pending) if r else (),
            round_scores=tuple(tuple(x) for x in self.scores),
            grid_scores=tuple(self.last_grid_scores),
            totals=tuple(self.returns()),
            winners=tuple(self.game.seats[i] for i in self.winners()),
        )

    def notation(self) -> str:
        head = f"round {self.round_index + 1}/{self.options.rounds}"
        scores = "scores " + (";".join(",".join(map(str, row)) for row in self.scores) or "-")
        r = self.cur
        if r is None:
            return f"{head} deal | {scores}"
        parts = [
            f"{head} {r.phase} seat {r.player} first {r.first} held {r.held or '-'} src {r.source or '-'} "
            f"filled {','.join(map(str, r.filled)) or '-'} discard {r.to_discard or '-'} "
            f"hazard {','.join(map(str, r.hazard_pending)) or '-'} finisher "
            f"{'-' if r.finisher is None else r.finisher} left {r.final_left}"
            f"{' drawing' if r.pending_deck else ''} deck {len(r.deck)}",
            "A " + (" ".join(map(str, r.piles["A"])) or "-"),
            "B " + (" ".join(map(str, r.piles["B"])) or "-"),
            "removed " + (" ".join(map(str, r.removed)) or "-"),
        ]
        for p in range(self.n_seats):
            cells = [str(c) if up else f"({c})" for c, up in zip(r.grids[p], r.up[p], strict=True)]
            parts.append(f"{p}: " + " ".join(cells))
        parts.append(scores)
        return " | ".join(parts)

    def parse_action(self, text: str) -> GnomingAction:
        return parse_action(text, self.n_seats)
