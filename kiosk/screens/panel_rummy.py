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

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from kiosk.app.paint import Painter
from kiosk.app.theme import Layout, Palette
from kiosk.games.referee import RefereeReport
from kiosk.games.rummy_referee_view import RummyTableView
from kiosk.screens.widgets import card_chip

__all__ = ["RummyTable", "table_of", "draw_panel", "next_call"]

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


def table_of(view: RummyTableView, seats: Sequence[str]) -> RummyTable:
    """The table a 3-13 referee's public view shows, with seat names."""
    names = tuple(seats)
    if view.hand_size == 0:
        return RummyTable("Waiting for the deal", names, "window", ("",) * len(names), 0, (), ())
    piles = tuple(str(c) if c is not None else "" for c in view.pile_tops)
    waiting = tuple(names[p] for p in view.waiting)
    out = tuple(names[p] for p, o in enumerate(view.out) if o)
    final = " · final round" if view.final_round and view.phase in ("draw", "discard") else ""
    phase = "scored" if view.phase == "over" else view.phase
    heading = f"Hand {view.hand_number}: {view.hand_size} cards{final}"
    return RummyTable(heading, names, phase, piles, view.pool, waiting, out)


def next_call(view: RummyTableView) -> str:
    """The caller's next word: ``"discard"`` after a "draw", else ``"draw"``."""
    return view.next_call


def draw_panel(
    p: Painter, rect: pygame.Rect, public: RummyTableView, report: RefereeReport, lay: Layout, pal: Palette
) -> None:
    """Draws the call (large), the waiting seats, and one row per seat with its pile's top card,
    from the referee's public view."""
    view = table_of(public, report.seats)
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
