"""Gnoming A Round on the play screen: every seat's 3×3 grid and the two discard piles.

Drawn from the referee's public view
(:class:`~kiosk.games.gnoming_referee_view.GnomingTableView`). Face-down cards are
drawn as backs; the seat to play is highlighted; the tops of discard piles A and
B are drawn as cards (``rules/gnoming.md`` §4).

Glossary: **grid** (a seat's nine cards, three rows of three), **pile A / B**
(the two face-up discard piles), **Hazard** (a card that lets the other seats
turn a card up), **finisher** (the seat that turned its last card up first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.gnoming_referee_view import GnomingTableView
from kiosk.games.referee import RefereeReport
from kiosk.screens.widgets import card_glyph

__all__ = ["GnomingTable", "table_of", "draw_panel"]


@dataclass(frozen=True, slots=True)
class GnomingTable:
    """What everyone at a Gnoming table can see of the round in progress."""

    heading: str
    seats: tuple[str, ...]
    grids: tuple[tuple[str | None, ...], ...]
    """Each seat's nine cards row by row (notation; None for face down)."""
    pile_a: str
    pile_b: str
    to_play: str


def table_of(view: GnomingTableView, seats: Sequence[str]) -> GnomingTable:
    """The table a Gnoming referee's public view shows, with seat names."""
    names = tuple(seats)
    grids = tuple(tuple(str(c) if c is not None else None for c in g.cards) for g in view.grids)
    if view.round_number == 0:
        return GnomingTable("Waiting for the round", names, grids, "", "", "")
    a = str(view.pile_a) if view.pile_a is not None else ""
    b = str(view.pile_b) if view.pile_b is not None else ""
    finisher = f" · {names[view.finisher]} finished" if view.finisher is not None else ""
    stage = "scored" if view.stage == "over" else view.stage
    to_play = names[view.to_play] if view.to_play is not None else ""
    return GnomingTable(f"Round {view.round_number}: {stage}{finisher}", names, grids, a, b, to_play)


def draw_panel(
    p: Painter, rect: pygame.Rect, public: GnomingTableView, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws the piles beside the heading, then the grids in as many columns as fit, from the
    referee's public view."""
    view = table_of(public, report.seats)
    label_px = lay.px("label")
    label_h = p.fonts.get(label_px).get_linesize()
    pw, ph = lay.card_size("body")
    y = rect.top
    x = rect.right
    for name, top in (("B", view.pile_b), ("A", view.pile_a)):
        r = pygame.Rect(x - pw, y, pw, ph)
        if top:
            card_glyph(p, r, top, lay, pal)
        else:
            p.box(r, pal.panel_edge, 2, radius=4)
        label = p.text(name, (r.left - lay.margin, r.centery), label_px, pal.dim, "midright")
        x = label.left - 2 * lay.margin
    p.fit(
        view.heading, pygame.Rect(rect.left, y, max(0, x - rect.left), label_h), label_px, pal.dim, "midleft"
    )
    y += max(label_h, ph) + lay.margin
    n = len(view.seats)
    area = pygame.Rect(rect.left, y, rect.width, rect.bottom - y)
    cols = 1
    while True:
        rows = math.ceil(n / cols)
        cell_w = area.width // cols
        cell_h = area.height // rows
        card_w = (cell_w - 4 * lay.margin) // 3
        card_h = (cell_h - label_h - 4 * lay.margin) // 3
        if card_h * 5 >= card_w * 7 or cols >= n:
            break
        cols += 1
    card_w = min(card_w, round(card_h * 5 / 7))
    card_h = round(card_w * 7 / 5)
    for s, seat in enumerate(view.seats):
        cx = area.left + (s % cols) * cell_w
        cy = area.top + (s // cols) * cell_h
        colour = pal.accent if seat == view.to_play else pal.text
        total = report.totals.get(seat, 0)
        p.fit(
            f"{seat} {total}", pygame.Rect(cx, cy, cell_w - lay.margin, label_h), label_px, colour, "midleft"
        )
        for k, card in enumerate(view.grids[s][:9]):
            r = pygame.Rect(
                cx + (k % 3) * (card_w + lay.margin),
                cy + label_h + (k // 3) * (card_h + lay.margin),
                card_w,
                card_h,
            )
            if card is None:
                p.box(r, pal.card_back, 0, radius=3)
                p.box(r, pal.card_edge, 1, radius=3)
            elif card_h >= lay.px("label"):
                card_glyph(p, r, card, lay, pal)
