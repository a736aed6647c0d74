"""The Nerts table on the play screen, drawn from the referee's public view
(:class:`~kiosk.games.nerts_referee_view.NertsTableView`, ``NertsReferee.public_view()``).

Top: the shared foundations, one card per pile showing its top face, with the
pile's card count (a King-complete pile is dimmed). Below: one row per seat
with its foundation count F (cards of its deck on the piles), its Nerts-pile
count N (counted as cards leave), "stuck" when it declared so, and its
running total. Once the hand is called, the foundations' heading tells the
players to spread their cards for the end-of-hand audit (rules §12), which the
camera counts. The rulings, with their measured gaps, are drawn beside this
panel by :mod:`kiosk.screens.play`.
"""

from __future__ import annotations

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.nerts_referee_view import NertsPileView, NertsTableView
from kiosk.games.referee import RefereeReport
from kiosk.screens.widgets import card_chip, card_glyph

__all__ = ["draw_panel", "AUDIT_PROMPT"]

AUDIT_PROMPT = "Audit: clear the table; spread your foundation cards face down, then your Nerts cards"
"""Shown once a hand is called (or stalls) and before its audit is counted."""


def draw_panel(
    p: Painter, rect: pygame.Rect, view: NertsTableView, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws foundations and seats of a Nerts referee's public view."""
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    body_px = lay.px("body")
    row_h = p.fonts.get(body_px).get_linesize() + lay.margin // 2
    seats_h = label_h + row_h * len(view.seats)
    found = pygame.Rect(rect.left, rect.top, rect.width, max(0, rect.height - seats_h - lay.margin))
    _foundations(p, found, view, lay, pal)
    seats = pygame.Rect(rect.left, rect.bottom - seats_h, rect.width, seats_h)
    _seats(p, seats, view, lay, pal)


def _foundations(p: Painter, rect: pygame.Rect, view: NertsTableView, lay: Layout, pal: Palette) -> None:
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    piles = list(view.foundations)
    heading = f"Foundations ({len(piles)})" if piles else "Foundations: none yet"
    if view.resets:
        heading += f" · resets {view.resets}"
    if view.audit:
        # What the players do next (rules §12): the camera counts the backs (vision/audit.py).
        # The hand is over: the piles matter less than what to do now, so the prompt may take the area.
        lines = max(1, min(4, rect.height // max(1, label_h)))
        prompt = pygame.Rect(rect.left, rect.top, rect.width, lines * label_h)
        used = p.wrap(AUDIT_PROMPT, prompt, label_px, pal.accent, lines)
    else:
        p.fit(heading, pygame.Rect(rect.left, rect.top, rect.width, label_h), label_px, pal.dim, "midleft")
        used = label_h
    area = pygame.Rect(rect.left, rect.top + used, rect.width, rect.height - used)
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
        card_glyph(p, r, str(pile.top), lay, pal, dim=pile.complete)
        p.text(str(pile.cards), (r.centerx, r.bottom), label_px, pal.dim, "midtop")


def _foundation_chips(
    p: Painter, area: pygame.Rect, piles: list[NertsPileView], lay: Layout, pal: Palette
) -> None:
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


def _seats(p: Painter, rect: pygame.Rect, view: NertsTableView, lay: Layout, pal: Palette) -> None:
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
            str(seat.nerts_count) if seat.nerts_count is not None else "?",
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
