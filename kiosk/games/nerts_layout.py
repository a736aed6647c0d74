"""A Nerts seat's layout and the move generator (``rules/nerts.md`` §3, §4, §6, §9).

Glossary (§3): the **Nerts pile** (top face up), the **work piles** (fanned,
base first, exposed card last), the **stock** (face down) and the **waste**
(face up). Lists here keep the *top* card last. A work pile keeps the
**work-pile invariant**: from base to exposed card each card is one rank lower
than the one before and of the opposite colour. A joker in a work pile takes
the rank and colour its neighbours imply (§9); :func:`run_ok` checks a pile
with that in mind.

The generator is shared by the strict state, the referee's tracked mode and the
bots, so all three agree on what is legal.

>>> run_ok([Card.parse("9S"), Card.parse("8H"), Card.parse("7C")])
True
>>> run_ok([Card.parse("9S"), Card.joker(), Card.parse("7C")]), run_ok([Card.parse("9S"), Card.parse("8S")])
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.nerts_actions import (
    Build,
    Call,
    MoveBlock,
    NertsAction,
    Play,
    Recycle,
    Rotate,
    SlideUnder,
    Stuck,
    Turn,
)
from kiosk.games.nerts_options import NertsOptions

__all__ = [
    "SeatLayout", "PileLike", "run_ok", "fits_on", "implied_face", "deal_layout", "seat_actions",
    "source_card", "apply_layout_action", "foundation_accepts",
]


def run_ok(cards: Sequence[Card]) -> bool:
    """True when ``cards`` (base first) can form a work pile: a descending run of
    alternating colours, jokers standing for whatever their neighbours imply."""
    anchor = -1
    for i, c in enumerate(cards):
        if not c.is_joker:
            anchor = i
            break
    if anchor < 0:
        return len(cards) <= 13
    rank = int(cards[anchor].rank)
    red = cards[anchor].is_red
    for i, c in enumerate(cards):
        r = rank + anchor - i
        if not 1 <= r <= 13:
            return False
        if c.is_joker:
            continue
        if int(c.rank) != r or c.is_red != (red != ((i - anchor) % 2 == 1)):
            return False
    return True


def fits_on(pile: Sequence[Card], block: Sequence[Card]) -> bool:
    """True when ``block`` may be put on ``pile`` (M5, M6): onto an empty pile always,
    else the block's bottom card one rank lower and of the other colour than the
    exposed card."""
    if not pile:
        return True
    if _has_joker(pile, block):
        return run_ok([*pile, *block])
    top, bottom = pile[-1], block[0]
    return int(bottom.rank) == int(top.rank) - 1 and bottom.is_red != top.is_red


def _has_joker(pile: Sequence[Card], block: Sequence[Card]) -> bool:
    return any(c.is_joker for c in pile) or any(c.is_joker for c in block)


def implied_face(pile: Sequence[Card], index: int) -> tuple[int, bool] | None:
    """The rank and redness a joker at ``index`` of a work pile stands for, or None
    when nothing in the pile constrains it (§9)."""
    for i, c in enumerate(pile):
        if not c.is_joker:
            return int(c.rank) + i - index, c.is_red != ((index - i) % 2 == 1)
    return None


class PileLike(Protocol):
    """What the generator needs of a foundation pile."""

    @property
    def suit(self) -> Suit | None: ...
    @property
    def level(self) -> int: ...


def foundation_accepts(pile: PileLike, face: Card) -> bool:
    """True when a card with this face (a declared joker's face) may build on the pile (M4).

    A pile whose suit is still open (a joker started it, undeclared) takes any 2.
    """
    if pile.level >= 13 or int(face.rank) != pile.level + 1:
        return False
    return pile.suit is None or face.suit is pile.suit


@dataclass(slots=True)
class SeatLayout:
    """One seat's cards outside the foundations (§3); top cards last."""

    seat: int
    nerts: list[Card]
    work: list[list[Card]]
    stock: list[Card]
    waste: list[Card] = field(default_factory=list)
    stuck: bool = False

    def copy(self) -> SeatLayout:
        return SeatLayout(self.seat, list(self.nerts), [list(w) for w in self.work], list(self.stock),
                          list(self.waste), self.stuck)

    def cards(self) -> list[Card]:
        """Every card of the layout (for conservation checks)."""
        out = [*self.nerts, *self.stock, *self.waste]
        for w in self.work:
            out.extend(w)
        return out

    def available(self) -> Iterator[tuple[str, Card]]:
        """The available cards (§3) with their sources: Nerts top, waste top, exposed cards."""
        if self.nerts:
            yield "N", self.nerts[-1]
        if self.waste:
            yield "W", self.waste[-1]
        for i, w in enumerate(self.work):
            if w:
                yield str(i + 1), w[-1]

    def find_available(self, face: Card) -> str | None:
        """The source of an available card with this face (deck ignored), or None."""
        for src, c in self.available():
            if c.rank is face.rank and c.suit is face.suit:
                return src
        return None

    def notation(self) -> str:
        def faces(cards: Sequence[Card]) -> str:
            return ",".join(c.face_str() for c in cards)
        work = "/".join(faces(w) for w in self.work)
        flag = " stuck" if self.stuck else ""
        return f"n[{faces(self.nerts)}] w[{work}] s[{faces(self.stock)}] k[{faces(self.waste)}]{flag}"


def deal_layout(seat: int, order: Sequence[Card], opts: NertsOptions) -> SeatLayout:
    """Deals a seat's layout from its deck order (§4; see :class:`~kiosk.games.nerts_actions.Deal`)."""
    n, k = opts.nerts_pile_size, opts.work_piles
    nerts = list(order[:n])
    work = [[c] for c in order[n:n + k]]
    stock = list(reversed(order[n + k:]))
    return SeatLayout(seat, nerts, work, stock)


def source_card(layout: SeatLayout, source: str) -> Card | None:
    """The card at a source (``N``, ``W`` or a work pile number), or None if empty or unknown."""
    if source == "N":
        return layout.nerts[-1] if layout.nerts else None
    if source == "W":
        return layout.waste[-1] if layout.waste else None
    if source.isdigit() and 1 <= int(source) <= len(layout.work):
        w = layout.work[int(source) - 1]
        return w[-1] if w else None
    return None


def _pop_source(layout: SeatLayout, source: str) -> Card:
    if source == "N":
        return layout.nerts.pop()
    if source == "W":
        return layout.waste.pop()
    return layout.work[int(source) - 1].pop()


def _joker_declarations(layout: SeatLayout, source: str, piles: Sequence[PileLike],
                        pile: int | None) -> list[Card]:
    """The faces a joker at ``source`` may be declared as on a pile (None = new pile)."""
    if pile is None:
        faces = [Card(Rank.ACE, s) for s in Suit]
    else:
        p = piles[pile - 1]
        if p.level >= 13:
            return []
        suits = [p.suit] if p.suit is not None else list(Suit)
        faces = [Card(Rank(p.level + 1), s) for s in suits]
    if source.isdigit():
        w = layout.work[int(source) - 1]
        implied = implied_face(w, len(w) - 1)
        if implied is not None:
            faces = [f for f in faces if int(f.rank) == implied[0] and f.is_red == implied[1]]
    return faces


def seat_actions(layout: SeatLayout, piles: Sequence[PileLike], opts: NertsOptions) -> list[NertsAction]:
    """Every legal action of one seat (§6) against these foundation piles.

    Every move of the spec is offered, pointless ones too (a whole pile onto an empty
    one, rotating a one-card stock). The order is fixed: plays, builds, block moves
    (by source pile, card, destination), then stock moves, stuck, rotate and call.
    """
    plain = opts.jokers == 0 and all(p.suit is not None for p in piles)
    s = layout.seat
    plays = _plain_plays(layout, piles) if plain else _joker_plays(layout, piles)
    if opts.aces_compulsory:
        aces: list[NertsAction] = [a for a in plays if isinstance(a, Play) and a.pile is None
                                   and not a.card.is_joker]
        if aces:
            return aces + _always(layout)
    work = layout.work
    builds: list[NertsAction] = []
    for src in ("N", "W"):
        top = source_card(layout, src)
        if top is None:
            continue
        c = top
        for w, pile in enumerate(work, start=1):
            if plain:
                if not pile or (pile[-1].rank - 1 == c.rank and _red(pile[-1]) != _red(c)):
                    builds.append(Build(s, c, src, w))
                base = pile[0] if pile else None
                if opts.allow_slide_under and base and base.rank + 1 == c.rank and _red(base) != _red(c):
                    builds.append(SlideUnder(s, c, src, w))
                continue
            if fits_on(pile, [c]):
                builds.append(Build(s, c, src, w))
            if opts.allow_slide_under and pile and run_ok([c, *pile]):
                builds.append(SlideUnder(s, c, src, w))
    if opts.must_fill_from_nerts and layout.nerts and any(not w for w in work):
        fills: list[NertsAction] = [b for b in builds if isinstance(b, Build) and b.source == "N"
                                    and not work[b.work - 1]]
        return fills + _always(layout)
    out: list[NertsAction] = plays + builds
    partial = opts.move_partial_runs
    blocks = _plain_blocks(work, partial) if plain else _any_blocks(work, partial)
    out.extend(MoveBlock(s, work[u - 1][k], u, k, w) for u, k, w in blocks)
    if layout.stock:
        out.append(Turn(s))
    elif layout.waste:
        out.append(Recycle(s))
    if not layout.stuck:
        out.append(Stuck(s))
    elif opts.solo_rotation and layout.stock:
        out.append(Rotate(s))
    if not layout.nerts:
        out.append(Call(s))
    return out


def _always(layout: SeatLayout) -> list[NertsAction]:
    """What a seat may do beside a compulsory move (``aces_compulsory``, ``must_fill_from_nerts``):
    declare itself stuck, which M9 allows at any time and the referee never second-guesses (§7.2),
    and call once its Nerts pile is empty (M11: at any moment of the hand). Neither moves a card."""
    out: list[NertsAction] = []
    if not layout.stuck:
        out.append(Stuck(layout.seat))
    if not layout.nerts:
        out.append(Call(layout.seat))
    return out


def _red(c: Card) -> bool:
    # Suit order is clubs, diamonds, hearts, spades: the red suits are 1 and 2. Comparing
    # IntEnums as ints avoids two property calls on the hot path of the move generator.
    return 0 < c.suit < 3  # type: ignore[operator]


def _plain_plays(layout: SeatLayout, piles: Sequence[PileLike]) -> list[NertsAction]:
    """Foundation plays when no joker is in play (every pile has a suit)."""
    want: dict[tuple[Suit | None, int], list[int]] = {}
    for i, p in enumerate(piles, start=1):
        if p.level < 13:
            want.setdefault((p.suit, p.level + 1), []).append(i)
    s = layout.seat
    plays: list[NertsAction] = []
    for src, c in layout.available():
        if c.rank is Rank.ACE:
            plays.append(Play(s, c, src, None))
            continue
        for i in want.get((c.suit, int(c.rank)), ()):
            plays.append(Play(s, c, src, i))
    return plays


def _joker_plays(layout: SeatLayout, piles: Sequence[PileLike]) -> list[NertsAction]:
    s = layout.seat
    plays: list[NertsAction] = []
    for src, c in layout.available():
        if c.is_joker:
            for decl in _joker_declarations(layout, src, piles, None):
                plays.append(Play(s, c, src, None, decl))
            for i in range(1, len(piles) + 1):
                for decl in _joker_declarations(layout, src, piles, i):
                    plays.append(Play(s, c, src, i, decl))
            continue
        if c.rank is Rank.ACE:
            plays.append(Play(s, c, src, None))
            continue
        for i, p in enumerate(piles, start=1):
            if foundation_accepts(p, c):
                plays.append(Play(s, c, src, i))
    return plays


def _plain_blocks(work: Sequence[Sequence[Card]], partial: bool) -> list[tuple[int, int, int]]:
    """Block moves (source pile, index, destination pile) when no joker is in play.

    In a work pile the ranks fall by one from the base, so the one card that fits
    on an exposed card of rank r sits at index ``base - (r - 1)``.
    """
    out: list[tuple[int, int, int]] = []
    for w, wpile in enumerate(work, start=1):
        if wpile:
            top = wpile[-1]
            need, red = top.rank - 1, not _red(top)
            for u, upile in enumerate(work, start=1):
                if u == w or not upile:
                    continue
                k = upile[0].rank - need
                if 0 <= k < len(upile) and (partial or k == 0) and _red(upile[k]) == red:
                    out.append((u, k, w))
        else:
            # Onto an empty pile any block may go (M6), the whole of another pile included.
            for u, upile in enumerate(work, start=1):
                if u != w:
                    out.extend((u, k, w) for k in range(len(upile) if partial else min(1, len(upile))))
    out.sort()
    return out


def _any_blocks(work: Sequence[Sequence[Card]], partial: bool) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for u, upile in enumerate(work, start=1):
        starts = range(len(upile)) if partial else range(min(1, len(upile)))
        for k in starts:
            block = upile[k:]
            for w, wpile in enumerate(work, start=1):
                if w == u:
                    continue
                if fits_on(wpile, block):
                    out.append((u, k, w))
    return out


def turn_stock(layout: SeatLayout, opts: NertsOptions) -> None:
    """M1: the top ``k`` stock cards, turned over as a packet, onto the waste; with
    ``short_stock = recycle_immediately`` a short packet is followed by a recycle."""
    k = min(opts.stock_turn_count, len(layout.stock))
    short = k < opts.stock_turn_count
    packet = layout.stock[-k:]
    del layout.stock[-k:]
    layout.waste.extend(reversed(packet))
    if short and opts.short_stock == "recycle_immediately":
        recycle(layout)


def recycle(layout: SeatLayout) -> None:
    """M2: the waste, turned face down as it is, becomes the stock."""
    layout.stock = layout.waste[::-1] + layout.stock
    layout.waste = []


def rotate(layout: SeatLayout) -> None:
    """M10: the top stock card goes to the bottom."""
    if layout.stock:
        layout.stock.insert(0, layout.stock.pop())


def reset_layout(layout: SeatLayout) -> None:
    """The all-stuck reset (§7.2): waste face down on top of the stock, top card to the bottom."""
    layout.stock = layout.stock + layout.waste[::-1]
    layout.waste = []
    rotate(layout)
    layout.stuck = False


def apply_layout_action(layout: SeatLayout, action: NertsAction, opts: NertsOptions) -> Card | None:
    """Applies an action's effect on the seat's own layout; returns the card that
    left it for a foundation (a :class:`Play`), else None. Legality is the caller's job."""
    if isinstance(action, Turn):
        turn_stock(layout, opts)
    elif isinstance(action, Recycle):
        recycle(layout)
    elif isinstance(action, Rotate):
        rotate(layout)
    elif isinstance(action, Stuck):
        layout.stuck = True
    elif isinstance(action, Play):
        layout.stuck = False
        return _pop_source(layout, action.source)
    elif isinstance(action, Build):
        layout.stuck = False
        layout.work[action.work - 1].append(_pop_source(layout, action.source))
    elif isinstance(action, SlideUnder):
        layout.stuck = False
        layout.work[action.work - 1].insert(0, _pop_source(layout, action.source))
    elif isinstance(action, MoveBlock):
        layout.stuck = False
        src = layout.work[action.from_work - 1]
        block = src[action.index:]
        del src[action.index:]
        layout.work[action.to_work - 1].extend(block)
    elif isinstance(action, Call):
        pass
    return None
