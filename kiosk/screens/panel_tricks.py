"""The trick games (Kierki, Smear) on the play screen: the current trick, trump, bids,
tricks won and penalty cards taken.

:func:`view_of` reads a referee's open deal into a :class:`TrickTable` (the
public part only: cards played face up, calls made aloud, tricks taken);
:func:`draw_panel` draws it. A referee that offers ``public_view()`` itself is
drawn from that instead (see :func:`kiosk.screens.play.public_view`).

Glossary: **trick** (one card from each seat, won by the highest trump or the
highest card of the suit led), **trump**, **bid** (Smear's auction: 2 to 4 or
pass), **penalty cards** (Kierki's negative deals: the cards a seat took that
cost points in this deal: hearts, queens, the King of Hearts...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.referee import RefereeReport
from kiosk.screens.widgets import card_glyph

__all__ = ["TrickTable", "view_of", "draw_panel"]


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


def view_of(referee: Any) -> TrickTable:
    """Builds the table view of a Kierki or Smear referee's deal in progress."""
    if referee.game_name == "smear":
        return _smear(referee)
    return _kierki(referee)


def _won(history: Any, seats: tuple[str, ...]) -> dict[str, int]:
    won = dict.fromkeys(seats, 0)
    for trick in history.completed:
        won[seats[trick.winner]] += 1
    return won


def _trick(history: Any, seats: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], str]:
    current = history.current
    plays = tuple((seats[seat], str(card)) for seat, card in current.plays)
    return plays, seats[history.to_play]


def _smear(referee: Any) -> TrickTable:
    seats = tuple(referee.seats)
    hand = getattr(referee, "_hand", None)
    if hand is None:
        return TrickTable("Waiting for the deal", seats)
    heading = f"Hand {hand.number}, {seats[hand.dealer]} deals"
    bids = tuple((seats[s], "pass" if b is None else str(b)) for s, b in hand.calls)
    trump = hand.trump.symbol if hand.trump is not None else (hand.announced.symbol if hand.announced else "")
    trick: tuple[tuple[str, str], ...] = ()
    to_play = ""
    won: dict[str, int] = {}
    if hand.tricks is not None:
        trick, to_play = _trick(hand.tricks, seats)
        won = _won(hand.tricks, seats)
    elif hand.bidder is not None:
        to_play = seats[hand.bidder]
    return TrickTable(heading, seats, trump, trick, to_play, bids, won)


def _kierki(referee: Any) -> TrickTable:
    seats = tuple(referee.seats)
    record = getattr(referee, "record", None)
    if record is None:
        return TrickTable("Waiting for the deal", seats)
    deal = record.deal
    heading = f"Deal {deal.number}: {deal.title}"
    trump = record.trump.symbol if record.trump is not None else ""
    auditor = record.auditor
    if auditor is None:
        return TrickTable(
            heading, seats, trump, to_play=seats[record.turn] if record.layout is not None else ""
        )
    history = auditor.history
    trick, to_play = _trick(history, seats)
    won = _won(history, seats)
    penalties: dict[str, tuple[str, ...]] = {}
    cards_of = getattr(deal, "penalty_cards", None)
    if callable(cards_of):
        for s, name in enumerate(seats):
            taken = [c for t in history.completed if t.winner == s for c in t.cards]
            penalties[name] = tuple(str(c) for c in cards_of(taken))
    return TrickTable(heading, seats, trump, trick, to_play, (), won, penalties)


def draw_panel(
    p: Painter, rect: pygame.Rect, view: Any, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws heading, trump, bids, the current trick as cards (each with its seat below), and one
    row per seat with its tricks and penalty cards; the seat to play is highlighted."""
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
