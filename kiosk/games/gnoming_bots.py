"""Seeded Gnoming A Round players for the table simulator (``rules/gnoming.md``).

:class:`GnomingBot` keeps low cards and builds lines. It judges a position by
what it costs now (a face-down card is valued at the deck's average, a bit more
for the risk of a Hazard) and by the lines through it: a card that makes two
equal face-up cards into a matched line is worth their whole value, a card that
pairs with one is worth half of it, and breaking a matched line costs it. It
takes a discard-pile top only when it is worth keeping, bounces whenever a bounce
gains, and flips after a Hazard while it has cards to learn about.

:func:`play_bot_game` plays a whole game; :func:`table_log` turns a strict game's
history into the table events a camera would have logged, so that the referee
path can be checked against the engine.

>>> from kiosk.games.gnoming import GnomingGame
>>> state = play_bot_game(GnomingGame({"rounds": 1}, seats=3), seed=2)
>>> state.is_terminal(), len(state.scores)
(True, 1)
"""

from __future__ import annotations

import random

from kiosk.games.cards import GnomeCard
from kiosk.games.gnoming import GnomingGame, GnomingState
from kiosk.games.gnoming_actions import (
    Deal,
    DeckCard,
    Decline,
    Discard,
    Draw,
    Flip,
    GnomingAction,
    Keep,
    Pass,
)
from kiosk.games.gnoming_scoring import COLUMNS, ROWS, pos_name
from kiosk.games.referee import NS_PER_S, TableEvent

__all__ = ["GnomingBot", "play_bot_game", "table_log"]

UNKNOWN_COST = 5.5
"""What a face-down card is expected to cost (the deck averages about 4.6, plus Hazard risk)."""


def _cost(card: GnomeCard, hazard_penalty: int) -> float:
    if card.is_hazard:
        return float(hazard_penalty)
    if card.is_mulligan:
        return -3.0   # worth keeping: it can complete a line
    assert card.value is not None
    return float(card.value)


class GnomingBot:
    """A legal, seeded player for one seat that keeps low cards and builds lines."""

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def _gain(self, state: GnomingState, card: GnomeCard, pos: int) -> float:
        """How much better the grid looks with ``card`` at ``pos`` than with what is there."""
        r = state.cur
        assert r is not None
        p = self.seat
        grid, up = r.grids[p], r.up[p]
        hp = state.options.hazard_penalty
        old = _cost(grid[pos], hp) if up[pos] else UNKNOWN_COST
        gain = old - _cost(card, hp)
        for line in (*ROWS, *COLUMNS):
            if pos not in line:
                continue
            others = [i for i in line if i != pos]
            seen = [grid[i] for i in others if up[i]]
            if card.value is not None and card.value > 0:
                same = sum(1 for c in seen if c == card or c.is_mulligan)
                if same == 2:
                    gain += 3 * card.value
                elif same == 1 and len(seen) == 1:
                    gain += card.value / 2
            breaks = up[pos] and grid[pos].value is not None and len(seen) == 2
            if breaks and all(c == grid[pos] for c in seen):
                gain -= 3 * (grid[pos].value or 0)
        return gain

    def _best_keep(self, state: GnomingState, card: GnomeCard) -> tuple[float, int | None]:
        best: tuple[float, float, int | None] = (float("-inf"), 0.0, None)
        for a in state.legal_actions(self.seat):
            if isinstance(a, Keep):
                key = (self._gain(state, card, a.pos), self.rng.random(), a.pos)
                best = max(best, key)
        return best[0], best[2]

    def choose(self, state: GnomingState) -> GnomingAction | None:
        """The seat's next action, or None when it has nothing to do now."""
        r = state.cur
        p = self.seat
        if state.is_terminal() or r is None or state.is_chance_node():
            return None
        legal = state.legal_actions(p)
        if not legal:
            return None
        if r.phase == "flip":
            return self.rng.choice(legal)
        if r.phase == "hazard":
            flips = [a for a in legal if isinstance(a, Flip)]
            return self.rng.choice(flips) if flips and len(state.face_down(p)) > 2 else Decline(p)
        if r.phase == "draw":
            best: tuple[float, str] = (1.0, "deck")
            for a in legal:
                if isinstance(a, Draw) and a.source in ("A", "B"):
                    gain, _ = self._best_keep(state, r.piles[a.source][-1])
                    best = max(best, (gain, a.source))
            source = best[1] if any(isinstance(a, Draw) and a.source == best[1] for a in legal) else None
            return Draw(p, source) if source else legal[0]
        if r.phase == "place":
            assert r.held is not None
            gain, pos = self._best_keep(state, r.held)
            must = not any(isinstance(a, Pass) for a in legal)
            if pos is not None and (gain > 0 or must):
                return Keep(p, pos)
            return Pass(p)
        if r.phase == "discard":
            return self.rng.choice(legal)
        return None


def play_bot_game(game: GnomingGame, seed: int, *, max_steps: int = 50_000) -> GnomingState:
    """Plays a whole game with a :class:`GnomingBot` per seat, from one seed."""
    rng = random.Random(seed)
    bots = [GnomingBot(p, seed=rng.randrange(1 << 30)) for p in range(game.num_seats)]
    state = game.new_initial_state()
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        order = list(bots)
        rng.shuffle(order)
        for bot in order:
            action = bot.choose(state)
            if action is not None:
                state.apply_action(action)
                break
    return state


def table_log(game: GnomingGame, history: list[GnomingAction], *, step_s: float = 1.5) -> list[TableEvent]:
    """The table events a camera would log for a strict game's ``history``.

    Draws from the draw pile carry no card (the camera cannot see it), keeps carry
    the card placed and the card that came out, a Hazard that leaves the game is a
    discard with no pile, and each round ends with every seat's revealed grid.
    """
    seats = game.seats
    state = game.new_initial_state()
    events: list[TableEvent] = []
    step = int(step_s * NS_PER_S)

    def emit(type_: str, seat: int | None = None, **data: object) -> None:
        t = step * (len(events) + 1)
        events.append(TableEvent(type_, t, 0, None if seat is None else seats[seat], data))

    for action in history:
        r = state.cur
        removed_before = len(r.removed) if r is not None and r.phase != "over" else 0
        if isinstance(action, Deal):
            state.apply_action(action)
            r = state.cur
            assert r is not None
            emit("round_start", round=state.round_index + 1, first=seats[r.first],
                 piles={"A": str(r.piles["A"][0]), "B": str(r.piles["B"][0])},
                 removed=[str(c) for c in r.removed])
            continue
        assert r is not None
        if isinstance(action, Flip):
            emit("flip", action.seat, pos=pos_name(action.pos), card=str(r.grids[action.seat][action.pos]))
        elif isinstance(action, Decline):
            emit("decline", action.seat)
        elif isinstance(action, Draw):
            if action.source == "deck":
                emit("draw", action.seat, **{"from": "deck"})
            else:
                emit("draw", action.seat, **{"from": action.source, "card": str(r.piles[action.source][-1])})
        elif isinstance(action, Keep):
            emit("keep", action.seat, pos=pos_name(action.pos), card=str(r.held),
                 out=str(r.grids[action.seat][action.pos]))
        elif isinstance(action, Discard):
            emit("discard", action.seat, card=str(r.to_discard), pile=action.pile)
        seat = r.player
        state.apply_action(action)
        r = state.cur
        assert r is not None
        if isinstance(action, (Keep, Pass)) and len(r.removed) > removed_before:
            emit("discard", seat, card=str(r.removed[-1]))
        if r.phase == "over" and not isinstance(action, DeckCard | Deal):
            for q in range(len(seats)):
                emit("reveal", q, grid=[str(c) for c in r.grids[q]])
    return events
