"""3-13 Speed Rummy on the play screen: the caller's last call, the discard piles, and
whose discards are still missing.

The caller says "draw" and then "discard" (``rules/rummy_3_13.md`` §6); the kiosk
speaks the call too (:mod:`kiosk.app.sound`). After "draw", a seat that has not
laid its discard face down yet is waited for; after "discard", a seat whose
discard has not been turned up is. Those seats are listed in red.

Glossary: **pool** (the face-down cards spread in the middle), **pile** (each
seat's face-up discard pile; the next seat may draw its top), **out** (a seat
whose "match" stood).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.referee import RefereeReport
from kiosk.screens.widgets import card_chip

__all__ = ["RummyTable", "view_of", "draw_panel", "next_call"]

CALL_WORDS = {
    "window": "wait for the call",
    "draw": "draw",
    "discard": "discard",
    "show": "show your hands",
    "scored": "hand scored",
}


@dataclass(frozen=True, slots=True)
class RummyTable:
    """What everyone at a 3-13 table can see of the hand in progress."""

    heading: str
    seats: tuple[str, ...]
    phase: str
    """``window``, ``draw``, ``discard`` or ``show``."""
    piles: tuple[str, ...]
    """Each seat's pile top (card notation, empty if none)."""
    pool: int
    waiting: tuple[str, ...]
    """Seats whose discard the call is still waiting for."""
    out: tuple[str, ...]


def view_of(referee: Any) -> RummyTable:
    """The table view of a 3-13 referee's hand in progress."""
    seats = tuple(referee.seats)
    h = getattr(referee, "hand", None)
    if h is None:
        return RummyTable("Waiting for the deal", seats, "window", ("",) * len(seats), 0, (), ())
    piles = tuple(str(p[-1]) if p else "" for p in h.piles)
    waiting: tuple[str, ...] = ()
    if h.phase == "draw":
        waiting = tuple(seats[p] for p in h.drawers if not h.held[p])
    elif h.phase == "discard":
        waiting = tuple(seats[p] for p in h.drawers if not h.discarded[p])
    out = tuple(seats[p] for p, o in enumerate(h.out) if o)
    final = " · final round" if h.in_final_round else ""
    return RummyTable(f"Hand {h.number}: {h.size} cards{final}", seats, h.phase, piles, h.pool, waiting, out)


def next_call(referee: Any) -> str:
    """The caller's next word: ``"discard"`` after a "draw", else ``"draw"``."""
    h = getattr(referee, "hand", None)
    return "discard" if h is not None and h.phase == "draw" else "draw"


def draw_panel(
    p: Painter, rect: pygame.Rect, view: Any, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws the call (large), the waiting seats, and one row per seat with its pile's top card."""
    label_px, body_px, key_px = lay.px("label"), lay.px("body"), lay.px("key")
    label_h = p.fonts.get(label_px).get_linesize()
    y = rect.top
    p.fit(
        f"{view.heading} · pool {view.pool}",
        pygame.Rect(rect.left, y, rect.width, label_h),
        label_px,
        pal.dim,
        "midleft",
    )
    y += label_h
    key_h = p.fonts.get(key_px).get_linesize()
    call = CALL_WORDS.get(view.phase, view.phase)
    p.fit(
        call.upper() if view.phase in ("draw", "discard") else call,
        pygame.Rect(rect.left, y, rect.width, key_h),
        key_px,
        pal.accent,
        "midleft",
        min_px=label_px,
    )
    y += key_h
    if view.waiting:
        text = "Waiting for: " + ", ".join(view.waiting)
        y += p.wrap(text, pygame.Rect(rect.left, y, rect.width, 2 * label_h), label_px, pal.bad)
    row_h = p.fonts.get(body_px).get_linesize() + lay.margin // 2
    top = max(y + lay.margin, rect.bottom - row_h * len(view.seats))
    score_w = p.measure("-888", body_px)[0]
    chip_w = p.measure("10♥", body_px)[0] + 2 * lay.margin
    for i, seat in enumerate(view.seats):
        r = pygame.Rect(rect.left, top + i * row_h, rect.width, row_h)
        if r.bottom > rect.bottom + 1:
            break
        colour = pal.bad if seat in view.waiting else pal.good if seat in view.out else pal.text
        tag = " (out)" if seat in view.out else ""
        name = pygame.Rect(r.left, r.top, r.width - score_w - chip_w - 2 * lay.margin, r.height)
        p.fit(seat + tag, name, body_px, colour, "midleft", min_px=label_px)
        p.text(str(report.totals.get(seat, 0)), (r.right, r.centery), body_px, pal.accent, "midright")
        if view.piles[i]:
            card_chip(p, (r.right - score_w - lay.margin, r.centery), view.piles[i], body_px, lay, pal)
