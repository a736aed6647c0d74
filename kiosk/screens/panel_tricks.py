"""The trick games (Kierki, Smear) on the play screen: the current trick, trump, bids,
tricks won and penalty cards taken.

:func:`draw_panel` is given the referee's ``public_view()`` (Kierki: the strict
engine's :class:`~kiosk.games.kierki.state.KierkiView`; Smear:
:class:`~kiosk.games.smear_referee_view.SmearTableView`), never the referee, and
:func:`table_of` turns it into a :class:`TrickTable` with seat names (the public
part only: cards played face up, calls made aloud, tricks taken).

Glossary: **trick** (one card from each seat, won by the highest trump or the
highest card of the suit led), **trump**, **bid** (Smear's auction: 2 to 4 or
pass), **penalty cards** (Kierki's negative deals: the cards a seat took that
cost points in this deal: hearts, queens, the King of Hearts...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.kierki.state import KierkiView
from kiosk.games.referee import RefereeReport
from kiosk.games.smear_referee_view import SmearTableView
from kiosk.games.tricks import Trick
from kiosk.screens.widgets import card_glyph

__all__ = ["TrickTable", "table_of", "draw_panel"]


@dataclass(frozen=True, slots=True)
class TrickTable:
    """What everyone at a trick-game table can see of the deal in progress."""

    heading: str
    """``"Deal 3: no queens"``, ``"Hand 2, Ana deals"``."""
    seats: tuple[str, ...]
    trump: str = ""
    """The trump suit's symbol, or empty (no trump, or not named yet)."""
    trick: tuple[tuple[str, str], ...] = ()
    """The current trick: (seat, card notation) in play order."""
    to_play: str = ""
    bids: tuple[tuple[str, str], ...] = ()
    """The auction so far: (seat, ``"2"``..``"4"`` or ``"pass"``)."""
    tricks_won: dict[str, int] = field(default_factory=dict)
    penalties: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Penalty cards each seat has taken this deal (card notation)."""
    layout: str = ""
    """Kierki's Fan Tan layout (``"C5-J D- H7-7 S5-10"``), or empty."""


def table_of(view: KierkiView | SmearTableView, seats: Sequence[str]) -> TrickTable:
    """The table a Kierki or Smear referee's public view shows, with seat names."""
    names = tuple(seats)
    if isinstance(view, SmearTableView):
        return _smear(view, names)
    return _kierki(view, names)


def _plays(trick: Trick | None, seats: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return () if trick is None else tuple((seats[seat], str(card)) for seat, card in trick.plays)


def _smear(v: SmearTableView, seats: tuple[str, ...]) -> TrickTable:
    if v.dealer is None:
        return TrickTable("Waiting for the deal", seats)
    heading = f"Hand {v.hand}, {seats[v.dealer]} deals"
    bids = tuple((seats[s], "pass" if b is None else str(b)) for s, b in v.calls)
    trump = v.trump.symbol if v.trump is not None else ""
    turn = v.to_play if v.to_play is not None else v.to_bid
    won = dict(zip(seats, v.tricks_won, strict=True)) if v.current_trick is not None else {}
    to_play = seats[turn] if turn is not None else ""
    return TrickTable(heading, seats, trump, _plays(v.current_trick, seats), to_play, bids, won)


def _kierki(v: KierkiView, seats: tuple[str, ...]) -> TrickTable:
    if v.deal_title is None:
        return TrickTable("Waiting for the deal", seats)
    heading = f"Deal {v.deal_number}: {v.deal_title}"
    trump = v.trump.symbol if v.trump is not None else ""
    to_play = seats[v.to_play] if v.to_play is not None else ""
    if v.current_trick is None:
        return TrickTable(heading, seats, trump, to_play=to_play, layout=v.layout or "")
    penalties = {
        name: tuple(str(c) for c in cards) for name, cards in zip(seats, v.penalty_cards, strict=True)
    }
    won = dict(zip(seats, v.tricks_won, strict=True))
    return TrickTable(heading, seats, trump, _plays(v.current_trick, seats), to_play, (), won, penalties)


def draw_panel(
    p: Painter,
    rect: pygame.Rect,
    public: KierkiView | SmearTableView,
    report: RefereeReport,
    lay: Layout,
    pal: Palette,
) -> None:
    """Draws heading, trump, bids (or the Fan Tan layout), the current trick as cards (each with
    its seat below), and one row per seat with its tricks and penalty cards; the seat to play is
    highlighted."""
    view = table_of(public, report.seats)
    label_px, body_px = lay.px("label"), lay.px("body")
    label_h = p.fonts.get(label_px).get_linesize()
    row_h = p.fonts.get(body_px).get_linesize()
    y = rect.top
    head = view.heading + (f" · trump {view.trump}" if view.trump else "")
    p.fit(head, pygame.Rect(rect.left, y, rect.width, row_h), body_px, pal.accent, "midleft", min_px=label_px)
    y += row_h
    if view.bids:
        bids = "Bids: " + ", ".join(f"{s} {b}" for s, b in view.bids)
        p.fit(bids, pygame.Rect(rect.left, y, rect.width, label_h), label_px, pal.dim, "midleft")
        y += label_h
    if view.layout:
        p.fit("Layout: " + view.layout, pygame.Rect(rect.left, y, rect.width, label_h), label_px, pal.dim,
              "midleft")
        y += label_h
    w, h = lay.card_size("key")
    trick_h = h + label_h + lay.margin
    seats_h = label_h + row_h * len(view.seats)
    if y + trick_h + seats_h > rect.bottom:
        w, h = lay.card_size("label")
    x = rect.left
    for seat, card in view.trick:
        slot = max(w, p.measure(seat, label_px)[0]) + 2 * lay.margin
        if x + slot > rect.right:
            break
        r = pygame.Rect(x + (slot - w) // 2, y, w, h)
        card_glyph(p, r, card, lay, pal)
        p.fit(seat, pygame.Rect(x, r.bottom, slot, label_h), label_px, pal.dim, "midtop")
        x += slot
    y += h + label_h + lay.margin
    cols = ("Seat", "Tricks", "Penalties" if view.penalties else "Score")
    name_w = rect.width // 3
    num_w = p.measure("Tricks", label_px)[0] + lay.margin
    xs = (rect.left, rect.left + name_w, rect.left + name_w + num_w + 3 * lay.margin)
    widths = (name_w, num_w, rect.right - xs[2])
    anchors = ("midleft", "midright", "midleft")
    top = max(y, rect.bottom - seats_h)
    for x, width, anchor, name in zip(xs, widths, anchors, cols, strict=True):
        p.fit(name, pygame.Rect(x, top, width, label_h), label_px, pal.dim, anchor)
    for i, seat in enumerate(view.seats):
        ry = top + label_h + i * row_h
        last = view.penalties.get(seat, ()) if view.penalties else ()
        third = " ".join(_pretty(c) for c in last) if view.penalties else str(report.totals.get(seat, 0))
        values = (seat, str(view.tricks_won.get(seat, 0)), third or "–")
        colours = (pal.accent if seat == view.to_play else pal.text, pal.text, pal.bad if last else pal.text)
        for x, width, anchor, value, colour in zip(xs, widths, anchors, values, colours, strict=True):
            p.fit(value, pygame.Rect(x, ry, width, row_h), body_px, colour, anchor, min_px=label_px)


def _pretty(card: str) -> str:
    """``"QS"`` -> ``"Q♠"`` for the penalty list."""
    from kiosk.screens.widgets import card_label

    rank, suit = card_label(card)
    if not suit:
        return rank
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
