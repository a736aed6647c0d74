"""Seeded 3-13 Speed players for the table simulator (``rules/rummy_3_13.md``).

:class:`RummyBot` keeps cards towards sets: it takes the top of its right-hand
neighbour's pile only when that card lowers its best penalty, holds back the
card whose loss leaves the lowest penalty (the highest-scoring card on a tie),
and calls "match" whenever its hand is complete. :func:`play_bot_game` plays a
whole game with one bot per seat and the kiosk as the caller; :func:`table_log`
turns a strict game's history into the table events the kiosk would have logged,
so that the referee path can be checked against the engine.

>>> from kiosk.games.rummy import Rummy313Game
>>> state = play_bot_game(Rummy313Game({"hands": [3]}, seats=3), seed=4)
>>> state.is_terminal(), len(state.returns())
(True, 3)
"""

from __future__ import annotations

import random

from kiosk.games.cards import Card
from kiosk.games.melds import card_points
from kiosk.games.referee import NS_PER_S, TableEvent
from kiosk.games.rummy import Rummy313Game, RummyState
from kiosk.games.rummy_actions import Call, Deal, DrawPile, DrawPool, Hold, Match, RummyAction

__all__ = ["RummyBot", "play_bot_game", "table_log"]


class RummyBot:
    """A legal, seeded player for one seat that keeps cards towards sets."""

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def _best_discard(self, state: RummyState, cards: list[Card]) -> tuple[int, Card]:
        """The lowest penalty reachable by discarding one card, and that card."""
        fp = state.options.face_card_points
        best: tuple[int, int, float] | None = None
        choice = cards[0]
        for i, card in enumerate(cards):
            rest = cards[:i] + cards[i + 1:]
            key = (state.arrange(rest).penalty, -card_points(card, fp), self.rng.random())
            if best is None or key < best:
                best, choice = key, card
        assert best is not None
        return best[0], choice

    def choose(self, state: RummyState) -> RummyAction | None:
        """The seat's next action in ``state``, or None when it has nothing to do now."""
        h = state.cur
        p = self.seat
        if state.is_terminal() or h is None or h.phase == "scored" or h.pending:
            return None
        if h.phase == "window":
            if not h.out[p] and not h.claimed[p] and state.arrange(h.hands[p]).is_complete:
                return Match(p)
            return None
        if p not in h.drawers:
            return None
        if h.drew[p] == "":
            pile = h.piles[state.right_of(p)]
            if pile and h.pool:
                now = state.arrange(h.hands[p]).penalty
                with_top, _ = self._best_discard(state, [*h.hands[p], pile[-1]])
                return DrawPile(p) if with_top < now else DrawPool(p)
            return DrawPool(p) if h.pool else DrawPile(p)
        if h.drew[p] != "none" and h.held[p] is None:
            return Hold(p, self._best_discard(state, list(h.hands[p]))[1])
        return None


def play_bot_game(game: Rummy313Game, seed: int, *, max_steps: int = 100_000) -> RummyState:
    """Plays a whole game with a :class:`RummyBot` per seat; the kiosk is the caller.

    Seats act in a seeded random order; deals and pool cards come from the same
    seeded RNG. Returns the final state (terminal unless ``max_steps`` ran out).
    """
    rng = random.Random(seed)
    bots = [RummyBot(p, seed=rng.randrange(1 << 30)) for p in range(game.num_seats)]
    state = game.new_initial_state()
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        order = list(bots)
        rng.shuffle(order)
        action: RummyAction | None = None
        for bot in order:
            action = bot.choose(state)
            if action is not None:
                break
        if action is None:
            cadence = state.cadence()
            action = Call("draw") if cadence.may_call_draw else Call("discard")
        state.apply_action(action)
    return state


def table_log(game: Rummy313Game, history: list[RummyAction], *, step_s: float = 0.5) -> list[TableEvent]:
    """The table events the kiosk would log for a strict game's ``history``.

    Pool draws carry no card (the camera cannot see it), a pile draw names the
    pile's owner and the card, the discards are read when "discard" is called, a
    "match" lays the whole hand out, and each hand ends with every seat that must
    show spreading its cards.
    """
    seats = game.seats
    state = game.new_initial_state()
    events: list[TableEvent] = []
    step = int(step_s * NS_PER_S)

    def emit(type_: str, seat: int | None = None, **data: object) -> None:
        name = None if seat is None else seats[seat]
        events.append(TableEvent(type_, step * (len(events) + 1), 0, name, data))

    for action in history:
        h = state.cur
        if isinstance(action, Deal):
            state.apply_action(action)
            piles = {seats[p]: str(c) for p, c in enumerate(action.piles)}
            if piles:
                emit("hand_start", hand=state.hand_index + 1, piles=piles)
            else:
                emit("hand_start", hand=state.hand_index + 1)
            continue
        assert h is not None
        if isinstance(action, Match):
            emit("match", action.seat, cards=[str(c) for c in h.hands[action.seat]])
        elif isinstance(action, DrawPool):
            emit("draw", action.seat, **{"from": "pool"})
        elif isinstance(action, DrawPile):
            right = state.right_of(action.seat)
            emit("draw", action.seat, **{"from": seats[right], "card": str(h.piles[right][-1])})
        elif isinstance(action, Hold):
            emit("hold", action.seat)
        elif isinstance(action, Call):
            emit("call", call=action.word)
        held = [(p, h.held[p]) for p in h.drawers]
        phase = h.phase
        state.apply_action(action)
        if isinstance(action, Call) and action.word == "discard":
            for p, card in held:
                if card is not None:
                    emit("discard", p, card=str(card))
        after = state.cur
        assert after is not None
        if after.phase == "scored" and phase != "scored":
            for p in range(len(seats)):
                if not after.out[p] or state.options.matcher_plays_final_round:
                    emit("show", p, cards=[str(c) for c in after.hands[p]])
    return events
