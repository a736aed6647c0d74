"""The Nerts table on the play screen, drawn from :class:`~kiosk.games.nerts.NertsView`.

Top: the shared foundations, one card per pile showing its top face, with the
pile's card count (a King-complete pile is dimmed). Below: one row per seat
with its foundation count F (cards of its deck on the piles), its Nerts-pile
count N (counted as cards leave), "stuck" when it declared so, and its
running total. The rulings, with their measured gaps, are drawn beside this
panel by :mod:`kiosk.screens.play`.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.nerts import FoundationView, NertsView, SeatView
from kiosk.games.referee import RefereeReport
from kiosk.screens.widgets import card_chip, card_glyph

__all__ = ["draw_panel", "view_of"]


def view_of(referee: Any) -> NertsView:
    """The public view of a Nerts referee's table: the open hand's foundations and seats.

    Nerts-pile counts come from the referee's layouts when it tracks them, else from
    the cards seen leaving each Nerts pile (``rules/nerts.md`` §12), else from the
    seat's own count at the end of the hand.
    """
    hand = getattr(referee, "hand", None)
    seats = tuple(referee.seats)
    totals = list(getattr(referee, "totals", [0] * len(seats)))
    size = referee.opts.nerts_pile_size + referee.opts.jokers
    piles: list[FoundationView] = []
    found = [0] * len(seats)
    seat_views = []
    if hand is not None:
        for i, pile in enumerate(hand.order, start=1):
            top = pile.faces[-1] if pile.faces else pile.cards[-1]
            piles.append(FoundationView(i, pile.suit, pile.level, top, len(pile.cards), pile.complete))
            for c in pile.cards:
                if 0 <= c.deck < len(found):
                    found[c.deck] += 1
    for s, name in enumerate(seats):
        nerts: int | None = None
        stuck = False
        if hand is not None:
            stuck = bool(hand.stuck[s]) if s < len(hand.stuck) else False
            counted = hand.counts.get(s, (None, None))[0] if hasattr(hand, "counts") else None
            if counted is not None:
                nerts = counted
            elif hand.tracked and hand.layouts:
                nerts = len(hand.layouts[s].nerts)
            elif s < len(hand.nerts_out):
                nerts = 0 if hand.caller == s else max(0, size - hand.nerts_out[s])
        seat_views.append(
            SeatView(
                seat=name,
                nerts_count=nerts if nerts is not None else -1,
                nerts_top=None,
                waste_top=None,
                work=(),
                stock_count=0,
                foundation_count=found[s],
                stuck=stuck,
                total=totals[s],
            )
        )
    return NertsView(
        hand=getattr(referee, "hands_played", 0),
        phase=hand.phase if hand is not None else "deal",
        foundations=tuple(piles),
        seats=tuple(seat_views),
        resets=hand.resets if hand is not None else 0,
        hand_scores=tuple(tuple(h) for h in getattr(referee, "hand_scores", [])),
        winners=(),
        last_end="",
    )


def draw_panel(
    p: Painter, rect: pygame.Rect, view: Any, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws foundations and seats of a Nerts view."""
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    body_px = lay.px("body")
    row_h = p.fonts.get(body_px).get_linesize() + lay.margin // 2
    seats_h = label_h + row_h * len(view.seats)
    found = pygame.Rect(rect.left, rect.top, rect.width, max(0, rect.height - seats_h - lay.margin))
    _foundations(p, found, view, lay, pal)
    seats = pygame.Rect(rect.left, rect.bottom - seats_h, rect.width, seats_h)
    _seats(p, seats, view, lay, pal)


def _foundations(p: Painter, rect: pygame.Rect, view: Any, lay: Layout, pal: Palette) -> None:
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    piles = list(view.foundations)
    heading = f"Foundations ({len(piles)})" if piles else "Foundations: none yet"
    if getattr(view, "resets", 0):
        heading += f" · resets {view.resets}"
    p.fit(heading, pygame.Rect(rect.left, rect.top, rect.width, label_h), label_px, pal.dim, "midleft")
    area = pygame.Rect(rect.left, rect.top + label_h, rect.width, rect.height - label_h)
    if not piles or area.height <= 0:
        return
    gap = lay.margin
    count_h = label_h
    # The largest card size (down to the "label" size) at which all piles fit.
    w, h = lay.card_size("key")
    min_w, min_h = lay.card_size("label")
    while True:
        per_row = max(1, (area.width + gap) // (w + gap))
        rows_needed = -(-len(piles) // per_row)
        if rows_needed * (h + count_h + gap) <= area.height or w <= min_w:
            break
        w, h = w - 2, round((w - 2) * 7 / 5)
    w, h = max(w, min_w), max(h, min_h)
    per_row = max(1, (area.width + gap) // (w + gap))
    if -(-len(piles) // per_row) * (h + count_h + gap) > area.height + gap:
        _foundation_chips(p, area, piles, lay, pal)
        return
    for i, pile in enumerate(piles):
        row, col = divmod(i, per_row)
        r = pygame.Rect(area.left + col * (w + gap), area.top + row * (h + count_h + gap), w, h)
        if r.bottom + count_h > area.bottom + 1:
            more = len(piles) - i
            p.text(f"+{more} more", (area.right, area.bottom), label_px, pal.dim, "bottomright")
            break
        card_glyph(p, r, str(pile.top), lay, pal, dim=bool(pile.complete))
        p.text(str(pile.cards), (r.centerx, r.bottom), label_px, pal.dim, "midtop")


def _foundation_chips(p: Painter, area: pygame.Rect, piles: list[Any], lay: Layout, pal: Palette) -> None:
    """Many piles on a small screen: each pile's top as a one-line chip, row after row."""
    px = lay.px("body")
    h = p.fonts.get(px).get_linesize()
    x, y = area.left, area.top
    for i, pile in enumerate(piles):
        w = p.measure("10♥", px)[0] + lay.margin + lay.margin // 2
        if x + w > area.right:
            x, y = area.left, y + h + lay.margin // 2
        if y + h > area.bottom:
            p.text(
                f"+{len(piles) - i} more", (area.right, area.bottom), lay.px("label"), pal.dim, "bottomright"
            )
            return
        card_chip(p, (x, y), str(pile.top), px, lay, pal, anchor="topleft")
        x += w


def _seats(p: Painter, rect: pygame.Rect, view: Any, lay: Layout, pal: Palette) -> None:
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    body_px = lay.px("body")
    row_h = p.fonts.get(body_px).get_linesize() + lay.margin // 2
    cols = _columns(p, rect.width, lay)
    names = ("Seat", "F", "N", "Total")
    for (x, w, anchor), name in zip(cols, names, strict=True):
        p.fit(name, pygame.Rect(rect.left + x, rect.top, w, label_h), label_px, pal.dim, anchor)
    for i, seat in enumerate(view.seats):
        y = rect.top + label_h + i * row_h
        stuck = " (stuck)" if seat.stuck else ""
        values = (
            f"{seat.seat}{stuck}",
            str(seat.foundation_count),
            str(seat.nerts_count) if seat.nerts_count >= 0 else "?",
            str(seat.total),
        )
        colours = (
            pal.bad if seat.stuck else pal.text,
            pal.text,
            pal.good if seat.nerts_count == 0 else pal.text,
            pal.accent,
        )
        for (x, w, anchor), value, colour in zip(cols, values, colours, strict=True):
            p.fit(value, pygame.Rect(rect.left + x, y, w, row_h), body_px, colour, anchor, min_px=label_px)


def _columns(p: Painter, width: int, lay: Layout) -> list[tuple[int, int, str]]:
    """(x, width, anchor) of the seat, F, N and total columns."""
    num_w = p.measure("-888", lay.px("body"))[0] + lay.margin
    name_w = max(1, width - 3 * num_w)
    return [
        (0, name_w, "midleft"),
        (name_w, num_w, "midright"),
        (name_w + num_w, num_w, "midright"),
        (name_w + 2 * num_w, num_w, "midright"),
    ]
