"""Scoring a tracker's table log against the simulator's ground truth.

Glossary:

- **match**: a tracked ``foundation_play`` and a true one of the same card within
  :data:`MATCH_NS` of each other, or within the tracked one's stated ``err`` where that is wider (up to
  :data:`MATCH_MAX_NS`); it is **right** when the seat is right and its pile lies where
  the true pile lies (the tracker numbers piles in the order it sees them, so piles are compared
  by place, not by id).
- **false event**: a tracked ``foundation_play`` or ``move`` that matches no true event.
- **landing error**: tracked minus true landing time of a matched play; **covered** when it is
  within the ``err`` the tracker stated.
- **race ruling**: the referee's ``race``/``tie`` ruling on a pile; it must agree with the
  ground truth's whenever the true gap is farther from the tie window than both stated errors.
- **merged log**: the tracker's events plus the events a camera does not make (the start and
  end of the hand, "Nerts!" calls and stuck declarations come from buttons), refereed to compare
  the hand's scores.
- **cut hand**: a hand scored on its first seconds only (:func:`cut_logs`): both logs end at the
  same time, so a play near the end is neither missed nor false for being on one side of it only.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import replay_events

__all__ = [
    "MATCH_NS",
    "MATCH_MAX_NS",
    "match_window",
    "HandScore",
    "score_hand",
    "score_with_audit",
    "merged_log",
    "cut_logs",
]

MATCH_NS = 150_000_000
MATCH_MAX_NS = 1_000_000_000
"""A tracked event whose stated ``err`` is wider than :data:`MATCH_NS` pairs with a true one within
its err, up to this: an event that happened, timed with an honest error bar, is no false event (its
time error still counts in the landing-time figures)."""
PILE_MM = 60.0
BUTTON_EVENTS = ("hand_start", "stuck", "call", "hand_end")


@dataclass
class HandScore:
    """How a tracked hand compares with the truth."""

    plays: int = 0
    plays_right: int = 0
    plays_found: int = 0
    """Matched by card and time (seat or pile possibly wrong)."""
    moves: int = 0
    moves_right: int = 0
    false_events: int = 0
    landing_errors_ns: list[int] = field(default_factory=list)
    covered: int = 0
    races: int = 0
    races_decidable: int = 0
    races_agree: int = 0
    scores_equal: bool = False
    true_scores: dict[str, int] = field(default_factory=dict)
    tracked_scores: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)


def merged_log(truth: Sequence[TableEvent], tracked: Sequence[TableEvent]) -> list[TableEvent]:
    """The tracker's events with the truth's button events, in time order."""
    # A hand_start with the deal would make the referee track every layout: a camera does not see the deal.
    buttons = [
        TableEvent(e.type, e.t_ns, e.err_ns, e.seat, {} if e.type == "hand_start" else e.data)
        for e in truth
        if e.type in BUTTON_EVENTS
    ]
    out = sorted(list(tracked) + buttons, key=lambda e: (e.t_ns, e.type == "hand_end"))
    return out


def cut_logs(
    truth: Sequence[TableEvent], tracked: Sequence[TableEvent], cut_ns: int, end_ns: int
) -> tuple[list[TableEvent], list[TableEvent]]:
    """Both logs of a hand filmed for ``end_ns`` and scored up to ``cut_ns`` (the truth then ends with a
    ``hand_end`` at ``end_ns``).

    Cutting the truth alone would count every play the tracker saw after the cut as false; cutting
    both at one time would still split a play landing at the cut (true a millisecond before, tracked
    a millisecond after). So a tracked event is kept when it is at or before the cut, or matches a
    kept true event of its card and seat (within :data:`MATCH_NS`, or its stated err when wider); and
    it is dropped when it matches (the same way) only a true event after the cut.

    >>> ev = lambda t, card: TableEvent("foundation_play", t, 0, "Ana", {"card": card, "pile": "F1"})
    >>> truth = [ev(100, "AS"), ev(990, "2S"), ev(1_010, "3S"), ev(2_000, "4S")]
    >>> tracked = [ev(101, "AS"), ev(1_001, "2S"), ev(995, "3S"), ev(2_001, "4S")]
    >>> t, k = cut_logs(truth, tracked, 1_000, 3_000)
    >>> [e.get("card", e.type) for e in t], [e.get("card") for e in k]
    (['AS', '2S', 'hand_end'], ['AS', '2S'])

    A Nerts top seen before the cut, uncovered by a card lifted before it but landing after it, goes
    with that landing (the truth still counts the card in the pile):

    >>> top = lambda t, card: TableEvent("nerts_top", t, 0, "Ana", {"card": card})
    >>> truth = [TableEvent("move", 1_200, 0, "Ana", {"card": "9H", "from": "nerts", "to": "work1"})]
    >>> _, k = cut_logs(truth, [top(10, "9H"), top(950, "KC")], 1_000, 3_000)
    >>> [e.get("card") for e in k]
    ['9H']
    """
    kept = [e for e in truth if e.t_ns <= cut_ns or e.type == "hand_start"]
    later = [e for e in truth if e.t_ns > cut_ns and e.type != "hand_start"]

    def near(k: TableEvent, events: Sequence[TableEvent]) -> bool:
        return any(
            e.type == k.type
            and e.seat == k.seat
            and e.get("card") == k.get("card")
            and abs(e.t_ns - k.t_ns) <= match_window(k)
            for e in events
        )

    def departure(seat: str | None, card: Any, since_ns: int) -> int | None:
        """When the truth has ``card`` leave the seat's Nerts pile, after it lay on top at ``since_ns``."""
        return next(
            (
                e.t_ns
                for e in truth
                if e.seat == seat and e.get("card") == card and e.get("from") == "nerts" and e.t_ns > since_ns
            ),
            None,
        )

    # A new Nerts top reports that the card that lay on it has left: the camera sees it as soon as that
    # card is lifted, the truth has it leave when it lands. So a top is kept or dropped by the true
    # departure it reports, as a play is by its match. The tops seen so far make a stack: a card seen
    # on top again that is not the one under the top is a refused card back on the pile, and reports
    # no departure (the time rule keeps it).
    stacks: dict[str | None, list[TableEvent]] = {}
    seen_on_top: set[tuple[str | None, Any]] = set()
    out = []
    for k in tracked:
        if k.type == "nerts_top":
            stack = stacks.setdefault(k.seat, [])
            card = k.get("card")
            uncovered = len(stack) >= 2 and stack[-2].get("card") == card
            returned = (k.seat, card) in seen_on_top and not uncovered
            seen_on_top.add((k.seat, card))
            if stack and not returned and stack[-1].get("card") != card:
                above = stack.pop()
                if stack and stack[-1].get("card") == card:
                    stack.pop()
                stack.append(k)
                t_gone = departure(k.seat, above.get("card"), above.t_ns)
                if (k.t_ns <= cut_ns) if t_gone is None else (t_gone <= cut_ns):
                    out.append(k)
                continue
            if not stack or stack[-1].get("card") != card:
                stack.append(k)
        if (k.t_ns <= cut_ns and not (near(k, later) and not near(k, kept))) or (
            k.t_ns > cut_ns and near(k, kept)
        ):
            out.append(k)
    end = [TableEvent("hand_end", end_ns, 0, None, {})]
    return kept + end, out


def match_window(k: TableEvent) -> int:
    """How far from a true event a tracked event ``k`` may lie in time and still pair with it.

    >>> move = lambda err: TableEvent("move", 0, err, "Ana", {})
    >>> match_window(move(40_000_000)), match_window(move(300_000_000)), match_window(move(2_000_000_000))
    (150000000, 300000000, 1000000000)
    """
    return min(MATCH_MAX_NS, max(MATCH_NS, k.err_ns))


def _pile_xy(meta: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    piles = meta.get("piles", {}) if isinstance(meta, Mapping) else {}
    return {str(k): (float(v[0]), float(v[1])) for k, v in piles.items()}


def score_hand(
    header: LogHeader,
    truth: Sequence[TableEvent],
    tracked: Sequence[TableEvent],
    tracked_piles: Mapping[str, tuple[float, float]],
    *,
    tie_window_ms: int = 30,
) -> HandScore:
    """Compares a tracked log with the ground truth of the same hand."""
    sc = HandScore()
    true_xy = _pile_xy(header.meta)
    t_plays = [e for e in truth if e.type == "foundation_play"]
    k_plays = [e for e in tracked if e.type == "foundation_play"]
    used: set[int] = set()
    # Pair each true play with a tracked play of the same card, the same seat's first (two seats'
    # identical cards can land within milliseconds of each other).
    pairing: dict[int, int] = {}
    for same_seat in (True, False):
        for j, e in enumerate(t_plays):
            if j in pairing:
                continue
            best, best_dt = None, MATCH_MAX_NS + 1
            for i, k in enumerate(k_plays):
                if i in used or k.get("card") != e.get("card") or (same_seat and k.seat != e.seat):
                    continue
                dt = abs(k.t_ns - e.t_ns)
                if dt <= match_window(k) and dt < best_dt:
                    best, best_dt = i, dt
            if best is not None:
                pairing[j] = best
                used.add(best)
    for j, e in enumerate(t_plays):
        sc.plays += 1
        best = pairing.get(j)
        if best is None:
            sc.misses.append(f"missed {e.seat} {e.get('card')} on {e.get('pile')} at {e.t_ns / 1e9:.3f}")
            continue
        k = k_plays[best]
        sc.plays_found += 1
        txy = true_xy.get(str(e.get("pile")))
        kxy = tracked_piles.get(str(k.get("pile")))
        pile_ok = txy is None or (kxy is not None and math.hypot(txy[0] - kxy[0], txy[1] - kxy[1]) <= PILE_MM)
        if k.seat == e.seat and pile_ok:
            sc.plays_right += 1
            dt = k.t_ns - e.t_ns
            sc.landing_errors_ns.append(dt)
            if abs(dt) <= k.err_ns:
                sc.covered += 1
        else:
            sc.misses.append(
                f"wrong {e.seat} {e.get('card')} on {e.get('pile')}: tracked {k.seat} on {k.get('pile')}"
            )
    for i, k in enumerate(k_plays):
        if i not in used:
            sc.false_events += 1
            line = f"false play {k.seat} {k.get('card')} on {k.get('pile')} at {k.t_ns / 1e9:.3f}"
            sc.false.append(line + f" (err {k.err_ns / 1e6:.0f} ms){_nearest(t_plays, k)}")
    t_moves = [e for e in truth if e.type == "move"]
    k_moves = [e for e in tracked if e.type == "move"]
    used_m: set[int] = set()
    for e in t_moves:
        sc.moves += 1
        for i, k in enumerate(k_moves):
            if i in used_m or abs(k.t_ns - e.t_ns) > match_window(k):
                continue
            if (k.seat, k.get("card"), k.get("from"), k.get("to")) == (
                e.seat,
                e.get("card"),
                e.get("from"),
                e.get("to"),
            ):
                used_m.add(i)
                sc.moves_right += 1
                break
    for i, k in enumerate(k_moves):
        if i not in used_m:
            sc.false_events += 1
            line = (
                f"false move {k.seat} {k.get('card')} {k.get('from')}>{k.get('to')} at {k.t_ns / 1e9:.3f}"
                f" (err {k.err_ns / 1e6:.0f} ms)"
            )
            sc.false.append(line + _nearest(t_moves, k))
    # Referee both logs.
    true_rep = replay_events(header, truth)
    merged = merged_log(truth, tracked)
    track_header = LogHeader(header.game, header.seats, header.options)
    track_rep = replay_events(track_header, merged)
    sc.true_scores = dict(true_rep.hands[-1]) if true_rep.hands else {}
    sc.tracked_scores = dict(track_rep.hands[-1]) if track_rep.hands else {}
    sc.scores_equal = bool(sc.true_scores) and sc.true_scores == sc.tracked_scores
    _compare_races(sc, true_rep.rulings, track_rep.rulings, t_plays, k_plays, tie_window_ms)
    return sc


def score_with_audit(
    header: LogHeader,
    truth: Sequence[TableEvent],
    tracked: Sequence[TableEvent],
    counted: Sequence[TableEvent],
    tracked_piles: Mapping[str, tuple[float, float]],
) -> HandScore:
    """:func:`score_hand` with the camera's end-of-hand audit (``counted``: its ``count`` events): the
    hand is scored once the counts are in, so its end (a button) moves after them."""
    end = max((e.t_ns for e in counted), default=max((e.t_ns for e in truth), default=0)) + 1
    moved = [dataclasses.replace(e, t_ns=max(e.t_ns, end)) if e.type == "hand_end" else e for e in truth]
    return score_hand(header, moved, [*tracked, *counted], tracked_piles)


def _nearest(truth: list[TableEvent], k: TableEvent) -> str:
    """The true event of a false one's card nearest it in time (by its seat, for a move), as the diagnostic
    shows it: whether the tracker mistook when, where, who or what."""
    same = [e for e in truth if e.get("card") == k.get("card") and (e.type != "move" or e.seat == k.seat)]
    near = min(same, key=lambda e: abs(e.t_ns - k.t_ns), default=None)
    if near is None:
        return ""
    if near.type == "move":
        return f" (true {near.get('from')}>{near.get('to')} at {near.t_ns / 1e9:.3f})"
    return f" (true {near.seat} on {near.get('pile')} at {near.t_ns / 1e9:.3f})"


def _compare_races(
    sc: HandScore,
    true_rulings: Sequence[Any],
    tracked_rulings: Sequence[Any],
    t_plays: Sequence[TableEvent],
    k_plays: Sequence[TableEvent],
    window_ms: int,
) -> None:
    window = window_ms * 1_000_000
    for r in true_rulings:
        if r.kind not in ("race", "tie"):
            continue
        sc.races += 1
        seats = set(r.seats)
        # The two true plays behind it: the ruling's play and the earlier one of the same face.
        later = next((e for e in t_plays if e.t_ns == r.t_ns and e.seat in seats), None)
        if later is None:
            continue
        earlier = [
            e
            for e in t_plays
            if e.get("card") == later.get("card")
            and e.get("pile") == later.get("pile")
            and e.t_ns <= later.t_ns
            and e is not later
        ]
        if not earlier:
            continue
        first = earlier[-1]
        gap = later.t_ns - first.t_ns
        errs = [
            k.err_ns
            for k in k_plays
            for e in (first, later)
            if k.get("card") == e.get("card") and k.seat == e.seat and abs(k.t_ns - e.t_ns) <= match_window(k)
        ]
        margin = sum(errs) if len(errs) == 2 else None
        if margin is None:
            continue
        if abs(gap - window) <= margin:
            continue
        sc.races_decidable += 1
        agree = any(
            q.kind == r.kind and set(q.seats) == seats and abs(q.t_ns - r.t_ns) <= MATCH_NS
            for q in tracked_rulings
        )
        if agree:
            sc.races_agree += 1
        else:
            sc.misses.append(f"race ruling differs: {r.text} at {r.t_ns / 1e9:.3f}")
