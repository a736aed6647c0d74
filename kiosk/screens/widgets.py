"""Pieces every screen draws: the title bar, the touch bar, card glyphs, ruling lines, tables.

All of them take a :class:`~kiosk.app.paint.Painter`, a rectangle and the
app's layout and palette, and size their text by role (see
:mod:`kiosk.app.theme`), so they stay legible on every display.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from kiosk.app.commands import Command
from kiosk.app.paint import Painter
from kiosk.app.theme import Color, Layout, Palette
from kiosk.games.cards import Card, GnomeCard, Suit
from kiosk.games.errors import GameError
from kiosk.games.referee import Ruling

__all__ = [
    "title_bar",
    "touch_bar",
    "card_glyph",
    "card_chip",
    "card_label",
    "ruling_lines",
    "score_table",
    "split",
    "rows",
    "RULING_COLOURS",
]

RULING_COLOURS = {
    "tie": "accent",
    "race": "bad",
    "take_back": "bad",
    "infraction": "bad",
    "nerts": "good",
    "call": "good",
    "hand_end": "good",
    "game_over": "good",
    "game_end": "good",
    "false_call": "bad",
    "reset": "accent",
    "stalemate": "accent",
    "undo": "dim",
    "correction": "dim",
}


def title_bar(p: Painter, lay: Layout, pal: Palette, title: str, right: str = "") -> pygame.Rect:
    """Draws the title across the top; returns the rectangle left below it."""
    px = lay.px("body")
    h = p.fonts.get(px).get_linesize() + lay.margin
    bar = pygame.Rect(0, 0, p.width, h)
    p.box(bar, pal.panel)
    p.line((0, h - 1), (p.width, h - 1), pal.panel_edge, 2)
    right_w = p.measure(right, lay.px("label"))[0] if right else 0
    p.fit(
        title,
        pygame.Rect(lay.margin, 0, p.width - right_w - 3 * lay.margin, h),
        px,
        pal.text,
        "midleft",
        min_px=lay.px("label"),
    )
    if right:
        p.text(right, (p.width - lay.margin, h // 2), lay.px("label"), pal.dim, "midright")
    return pygame.Rect(0, h, p.width, p.height - h)


def touch_bar(
    p: Painter, lay: Layout, pal: Palette, area: pygame.Rect, buttons: Sequence[tuple[str, Command]]
) -> pygame.Rect:
    """Draws a row of touch buttons along the bottom of ``area``; returns what is left above."""
    if not buttons:
        return area
    px = lay.px("label")
    h = p.fonts.get(px).get_linesize() + 2 * lay.margin
    bar = pygame.Rect(area.left, area.bottom - h, area.width, h)
    p.box(bar, pal.panel)
    gap = lay.margin
    w = (bar.width - gap * (len(buttons) + 1)) // len(buttons)
    for i, (label, command) in enumerate(buttons):
        r = pygame.Rect(bar.left + gap + i * (w + gap), bar.top + gap // 2, w, h - gap)
        p.button(r, label, command, px, fg=pal.text, bg=pal.selected)
    return pygame.Rect(area.left, area.top, area.width, area.height - h)


def card_label(text: str) -> tuple[str, str]:
    """The rank and suit letter to print for a card in notation (``"10H"`` -> ``("10", "H")``);
    non-standard cards (jokers, Gnoming cards) come back whole with an empty suit.

    >>> card_label("10H"), card_label("qs@2"), card_label("G-3"), card_label("HAZARD")
    (('10', 'H'), ('Q', 'S'), ('-3', ''), ('Hz', ''))
    """
    try:
        card = Card.parse(text)
    except (GameError, ValueError):
        return (_gnome_label(text), "")
    if card.is_joker or card.suit is None:
        return ("JK", "")
    return (card.rank.symbol, card.suit.letter)


def _gnome_label(text: str) -> str:
    """A Gnoming card's short face: its value, ``Hz`` (Hazard) or ``Mu`` (Mulligan)."""
    try:
        card = GnomeCard.parse(text)
    except (GameError, ValueError):
        return text
    if card.value is not None:
        return str(card.value)
    return "Hz" if card.is_hazard else "Mu"


def card_glyph(
    p: Painter, rect: pygame.Rect, text: str, lay: Layout, pal: Palette, *, dim: bool = False
) -> None:
    """Draws a card face: rank and suit symbol in the suit's colour (four colours if chosen)."""
    face: Color = pal.card_face if not dim else pal.dim
    p.box(rect, face, 0, radius=max(3, rect.width // 8))
    p.box(rect, pal.card_edge, 2, radius=max(3, rect.width // 8))
    rank, suit = card_label(text)
    if not suit:
        p.fit(
            rank,
            rect.inflate(-4, 0),
            max(lay.px("label"), rect.height // 3),
            pal.card_edge,
            "center",
            min_px=lay.px("label"),
        )
        return
    ink = pal.suit_colour(suit)
    symbol = Suit.parse(suit).symbol
    half = rect.height // 2
    px = max(lay.px("label"), min(round(half * 0.95), round(rect.width / max(1.2, len(rank) * 0.75))))
    p.fit(
        rank,
        pygame.Rect(rect.left, rect.top + 2, rect.width, half),
        px,
        ink,
        "center",
        min_px=lay.px("label"),
    )
    p.fit(
        symbol,
        pygame.Rect(rect.left, rect.top + half - 2, rect.width, half),
        px,
        ink,
        "center",
        min_px=lay.px("label"),
    )


def card_chip(p: Painter, pos: tuple[int, int], text: str, px: int, lay: Layout, pal: Palette,
              anchor: str = "midright") -> pygame.Rect:
    """Draws a card as one line on a small white chip (``Q♣``), for rows where a full card does not
    fit; returns the chip's rectangle."""
    rank, suit = card_label(text)
    label = rank + (Suit.parse(suit).symbol if suit else "")
    w, h = p.measure(label, px)
    chip = pygame.Rect(0, 0, w + lay.margin, h)
    setattr(chip, anchor, pos)
    p.box(chip, pal.card_face, 0, radius=4)
    p.text(label, chip.center, px, pal.suit_colour(suit) if suit else pal.card_edge, "center")
    return chip


def ruling_lines(
    p: Painter,
    rect: pygame.Rect,
    rulings: Sequence[Ruling],
    lay: Layout,
    pal: Palette,
    *,
    newest_big: bool = True,
) -> None:
    """Draws rulings newest first; the newest at the "key" size, the rest smaller."""
    y = rect.top
    for n, r in enumerate(reversed(rulings)):
        px = lay.px("key") if (n == 0 and newest_big) else lay.px("body")
        colour = getattr(pal, RULING_COLOURS.get(r.kind, "text"))
        line_h = p.fonts.get(px).get_linesize()
        if y + line_h > rect.bottom:
            break
        used = p.wrap(
            r.text,
            pygame.Rect(rect.left, y, rect.width, rect.bottom - y),
            px,
            colour,
            max_lines=3 if n == 0 else 2,
        )
        y += used + lay.margin // 2


def split(
    rect: pygame.Rect, fraction: float, *, vertical: bool, gap: int = 0
) -> tuple[pygame.Rect, pygame.Rect]:
    """Cuts a rectangle in two: side by side (``vertical`` cut) or one above the other."""
    if vertical:
        w = round(rect.width * fraction)
        return (
            pygame.Rect(rect.left, rect.top, w - gap // 2, rect.height),
            pygame.Rect(rect.left + w + gap // 2, rect.top, rect.width - w - gap // 2, rect.height),
        )
    h = round(rect.height * fraction)
    return (
        pygame.Rect(rect.left, rect.top, rect.width, h - gap // 2),
        pygame.Rect(rect.left, rect.top + h + gap // 2, rect.width, rect.height - h - gap // 2),
    )


def rows(rect: pygame.Rect, n: int, height: int) -> list[pygame.Rect]:
    """``n`` rows of ``height`` from the top of ``rect`` (as many as fit)."""
    out = []
    for i in range(n):
        r = pygame.Rect(rect.left, rect.top + i * height, rect.width, height)
        if r.bottom > rect.bottom + 1:
            break
        out.append(r)
    return out


def score_table(
    p: Painter,
    rect: pygame.Rect,
    seats: Sequence[str],
    hands: Sequence[dict[str, int]],
    totals: dict[str, int],
    lay: Layout,
    pal: Palette,
    *,
    cursor: tuple[int, int] | None = None,
    editing: int | None = None,
    max_hands: int | None = None,
) -> list[tuple[pygame.Rect, int, int]]:
    """Draws scores hand by hand and the totals; returns each cell's rectangle with (hand, seat).

    Only the latest hands that fit are shown; ``cursor`` (hand index, seat index)
    is highlighted, and ``editing`` replaces that cell's figure while a correction
    is being made.
    """
    px = lay.px("body")
    line_h = p.fonts.get(px).get_linesize() + lay.margin // 2
    fit_rows = max(1, rect.height // line_h - 2)
    first = max(0, len(hands) - (max_hands or fit_rows))
    if cursor is not None and cursor[0] < first:
        first = cursor[0]
    shown = list(range(first, min(len(hands), first + fit_rows)))
    label_w = p.measure("Hand 00", lay.px("label"))[0] + lay.margin
    col_w = (rect.width - label_w) // max(1, len(seats))
    y = rect.top
    for s, seat in enumerate(seats):
        cell = pygame.Rect(rect.left + label_w + s * col_w, y, col_w, line_h)
        p.fit(seat, cell.inflate(-lay.margin, 0), px, pal.dim, "center", min_px=lay.px("label"))
    y += line_h
    cells: list[tuple[pygame.Rect, int, int]] = []
    for h in shown:
        p.fit(
            f"Hand {h + 1}", pygame.Rect(rect.left, y, label_w, line_h), lay.px("label"), pal.dim, "midleft"
        )
        for s, seat in enumerate(seats):
            cell = pygame.Rect(rect.left + label_w + s * col_w, y, col_w, line_h)
            value = hands[h].get(seat, 0)
            colour = pal.text
            if cursor == (h, s):
                p.box(cell.inflate(-2, -2), pal.selected, 0, radius=4)
                if editing is not None:
                    value = editing
                    colour = pal.accent
            p.fit(str(value), cell.inflate(-lay.margin, 0), px, colour, "center", min_px=lay.px("label"))
            cells.append((cell, h, s))
        y += line_h
    p.line((rect.left, y + 1), (rect.right, y + 1), pal.panel_edge, 2)
    y += lay.margin // 2
    kpx = lay.px("key")
    key_h = p.fonts.get(kpx).get_linesize()
    if y + key_h > rect.bottom:
        kpx = px
        key_h = line_h
    p.fit("Total", pygame.Rect(rect.left, y, label_w, key_h), lay.px("label"), pal.dim, "midleft")
    for s, seat in enumerate(seats):
        cell = pygame.Rect(rect.left + label_w + s * col_w, y, col_w, key_h)
        p.fit(
            str(totals.get(seat, 0)),
            cell.inflate(-lay.margin, 0),
            kpx,
            pal.accent,
            "center",
            min_px=lay.px("label"),
        )
    return cells
