"""Helpers for Nerts tests: write table-log lines and referee them through the log reader."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from kiosk.games.referee import RefereeReport
from kiosk.replay import replay_events
from kiosk.tablelog import parse_table_log

FOUR = ("Ana", "Ben", "Cal", "Dee")


def header(seats: Sequence[str] = FOUR, **options: Any) -> str:
    return json.dumps({"table_log": 1, "game": "nerts", "seats": list(seats), "options": options})


def ev(t: str, type: str, seat: str | None = None, **fields: Any) -> str:
    """One event line; ``t`` (and ``err``, ``t_lift`` in ``fields``) as exact decimal text."""
    parts = [f'"t": {t}']
    for key in ("err", "t_lift"):
        if key in fields:
            parts.append(f'"{key}": {fields.pop(key)}')
    parts.append(f'"type": {json.dumps(type)}')
    if seat is not None:
        parts.append(f'"seat": {json.dumps(seat)}')
    parts.extend(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in fields.items())
    return "{" + ", ".join(parts) + "}"


def plays(seat: str, cards: Iterable[str], pile: str, start: float, step: float = 0.5) -> list[str]:
    """Foundation plays of one seat onto one pile, ``step`` seconds apart."""
    out = []
    t = start
    for card in cards:
        out.append(ev(f"{t:.3f}", "foundation_play", seat, card=card, pile=pile))
        t += step
    return out


def run(lines: Sequence[str]) -> RefereeReport:
    """Referees table-log lines (header first) the way ``kiosk replay`` does."""
    head, events = parse_table_log(lines)
    return replay_events(head, events)


def texts(report: RefereeReport, kind: str | None = None) -> list[str]:
    return [r.text for r in report.rulings if kind is None or r.kind == kind]


def breaches(report: RefereeReport, kind: str | None = None) -> list[str]:
    return [i.text for i in report.infractions if kind is None or i.kind == kind]


def foundation(report: RefereeReport, hand: int = 1) -> dict[str, int]:
    return dict(report.extra["hands"][hand - 1]["foundation"])
