"""The 3-13 Speed referee path: a table log of what the kiosk can know, judged
(``rules/rummy_3_13.md`` §6, §7 and §11).

The camera sees the face-up discard piles, which pile's top a seat takes (or a
hand reaching into the pool), the face-down discards laid ready, the discards
turned up at the call, and every hand laid face up: for a "match" call and at
scoring time. It never sees a hidden hand. The events (``docs/table-log.md``):

- ``hand_start``: ``hand`` (1-based, optional), ``piles`` (seat -> the card that
  starts its pile, under ``start_pile_each_hand``).
- ``call``: ``call`` = ``"draw"`` or ``"discard"`` (a person's call, or the kiosk's).
- ``draw``: ``seat``, ``from`` = ``"pool"`` or the name of the seat whose pile
  was taken from, and for a pile the ``card`` seen taken.
- ``hold``: ``seat`` laid its discard face down.
- ``discard``: ``seat``, ``card``: the discard turned face up on the seat's pile.
- ``match``: ``seat`` called "match" and laid out ``cards`` (or ``sets``, lists of
  cards, plus any ``orphans``; ``orphans`` alone for a hand with no set).
- ``show``: ``seat`` spread its ``cards`` (or ``sets`` and ``orphans``) face up to be
  scored after the final round (or when the pool ran out under ``end_hand``).

Breaches are infractions, never errors: two draws, a draw from the wrong pile or
below its top, a discard turned up before the call, a call made too early, a
"match" outside a window, a hand shown with the wrong number of cards, a hand laid
out for a match or shown without a card the seat was seen taking. A failed "match"
is void (§6.1) and costs ``false_match_penalty``; the ruling shows the best
arrangement and its orphans.

>>> from kiosk.games.referee import TableEvent
>>> from kiosk.games.rummy import RummyOptions
>>> ref = RummyReferee(["Ana", "Ben"], RummyOptions(hands=(3,)))
>>> _ = ref.feed(TableEvent("hand_start", 0, data={"piles": {"Ana": "2S", "Ben": "9D"}}))
>>> [r.text for r in ref.feed(TableEvent("match", 1, seat="Ben", data={"cards": ["7S", "7D", "4C"]}))]
['Ben: match fails: no sets; orphans: 4♣ 7♦ 7♠; penalty 18. The call is void.']
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.cards import Card, Rank, format_cards
from kiosk.games.errors import InvalidActionError
from kiosk.games.melds import Arrangement, best_arrangement, card_points, is_valid_set, laid_out_arrangement
from kiosk.games.referee import (
    REPEAT_WINDOW_NS,
    Infraction,
    Referee,
    RefereeReport,
    Ruling,
    TableEvent,
    format_seconds,
)
from kiosk.games.rummy import Cadence, RummyOptions, winners
from kiosk.games.rummy_referee_view import RummyTableView

__all__ = ["RummyReferee"]


def _missing(taken: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """The cards seen taken from a pile that ``cards`` lacks, counted as a multiset: with
    several decks (§2) a seat may take two identical cards, and one shown covers only one."""
    left = Counter(cards)
    missing: list[Card] = []
    for c in taken:
        if left[c] > 0:
            left[c] -= 1
        else:
            missing.append(c)
    return missing


@dataclass
class _HandTrack:
    number: int
    size: int
    piles: list[list[Card]]
    pool: int
    out: list[bool]
    penalties: list[int]
    phase: str = "window"
    """``window`` (claims open), ``draw``, ``discard`` (after the call), ``show`` (scoring)."""
    setup: bool = True
    final: bool = False
    in_final_round: bool = False
    drawers: list[int] = field(default_factory=list)
    drew: list[str] = field(default_factory=list)
    """Per seat this round: "" (no draw yet), "pool", "pile", or "empty" (reached for an empty pile)."""
    held: list[bool] = field(default_factory=list)
    discarded: list[bool] = field(default_factory=list)
    claimed: list[bool] = field(default_factory=list)
    owed: set[int] = field(default_factory=set)
    """Seats whose discard was not seen turned up by this round's "draw" call (``no_discard``):
    the first extra card such a seat turns up this round is that one, late, not a second discard."""
    taken: list[list[Card]] = field(default_factory=list)
    """Cards each seat was seen taking from a pile and has not discarded since."""
    shows: dict[int, tuple[int, Arrangement | None]] = field(default_factory=dict)
    empty_final_calls: list[str] = field(default_factory=list)
    """The calls of a final round nobody plays (every seat out), still welcome after scoring."""
    empty_final_called: str = ""
    """The last of those calls made (``draw`` or ``discard``): that final round is under way."""
    arrangements: dict[int, dict[str, object]] = field(default_factory=dict)


class RummyReferee(Referee):
    """Referees a 3-13 Speed table log."""

    game_name = "rummy_3_13"
    event_types = frozenset({"caller_draw", "hand_start", "call", "draw", "hold", "discard", "match", "show"})

    def __init__(self, seats: Sequence[str], options: Any) -> None:
        self.opts: RummyOptions = options
        super().__init__(seats, options)

    def _reset(self) -> None:
        self.hand: _HandTrack | None = None
        self.scores: list[dict[str, int]] = []
        self.arrangements: list[dict[str, dict[str, object]]] = []
        self.rulings: list[Ruling] = []
        self.infractions: list[Infraction] = []
        self.caller: str | None = None
        self.caller_tied: list[str] = []
        self.repeats: list[str] = []
        """Notes on lines the camera logged twice and the referee ignored."""

    # -- helpers --------------------------------------------------------------------
    @property
    def k(self) -> int:
        return len(self.seats)

    def _right_of(self, seat: int) -> int:
        return (seat - 1) % self.k

    def _infraction(self, e: TableEvent, kind: str, text: str) -> None:
        self.infractions.append(Infraction(e.t_ns, kind, text, e.seat, e.line))

    def _rule(self, e: TableEvent, kind: str, text: str, seats: Sequence[str] = (), **data: Any) -> Ruling:
        r = Ruling(e.t_ns, kind, text, tuple(seats), data)
        self.rulings.append(r)
        return r

    def _card(self, e: TableEvent, value: Any, what: str = "card") -> Card:
        if not isinstance(value, str):
            raise InvalidActionError(f"{e.type!r} event: {what!r} must be card notation such as '10H', "
                                     f"got {value!r}", input=repr(value))
        card = Card.parse(value)
        if card.is_joker:
            raise InvalidActionError(f"{e.type!r} event: 3-13 is played without jokers ({value!r})",
                                     input=value)
        return card

    def _cards(self, e: TableEvent, value: Any, what: str) -> list[Card]:
        if not isinstance(value, list):
            raise InvalidActionError(f"{e.type!r} event: {what!r} must be a list of cards, got {value!r}",
                                     input=repr(value))
        return [self._card(e, v, what) for v in value]

    def _laid_out(self, e: TableEvent) -> tuple[list[Card], list[list[Card]] | None]:
        """The cards of a ``match`` or ``show`` event, and the sets if they were given."""
        if "sets" in e.data or ("orphans" in e.data and "cards" not in e.data):
            # A hand laid out with no set at all (every card an orphan) may leave 'sets' out.
            raw = e.data.get("sets", [])
            if not isinstance(raw, list):
                raise InvalidActionError(f"{e.type!r} event: 'sets' must be a list of lists of cards",
                                         input=repr(raw))
            sets = [self._cards(e, s, "sets") for s in raw]
            orphans = self._cards(e, e.data.get("orphans", []), "orphans")
            return [c for s in sets for c in s] + orphans, sets
        if "cards" not in e.data:
            raise InvalidActionError(f"{e.type!r} event needs 'cards' (or 'sets' and 'orphans')",
                                     input="cards")
        return self._cards(e, e.data["cards"], "cards"), None

    def _need_hand(self, e: TableEvent) -> _HandTrack:
        # A scored hand stays current until the next hand_start: a late show, call or match
        # after it is a breach the handlers report (the log goes on), not a malformed log.
        if self.hand is None:
            raise InvalidActionError(
                f"{e.type!r} event before a 'hand_start' event: start each hand with "
                '{"type": "hand_start", "hand": N, "piles": {...}}', input=e.type)
        return self.hand

    def _arrange(self, cards: list[Card], size: int) -> Arrangement:
        return best_arrangement(cards, size, max_wilds_per_set=self.opts.max_wilds_per_set,
                                face_card_points=self.opts.face_card_points)

    # -- the fold -------------------------------------------------------------------
    def _feed(self, event: TableEvent) -> list[Ruling]:
        before = len(self.rulings)
        handler = getattr(self, "_on_" + event.type)
        handler(event)
        return self.rulings[before:]

    def _on_hand_start(self, e: TableEvent) -> None:
        number = len(self.scores) + 1
        given = e.get("hand")
        if self.hand is not None and self.hand.phase != "scored" and self._repeats_last(e, REPEAT_WINDOW_NS):
            # The deal just logged, seen again within a frame: no hand is dealt again that fast (§5),
            # so it is the same deal, not a redeal ("dealt again").
            self._mark_repeat(e)
            self.repeats.append(f"hand_start of hand {self.hand.number} at {format_seconds(e.t_ns)} s "
                                "logged twice: ignored")
            return
        carried = [0] * self.k
        again = ""
        old = self.hand
        if isinstance(given, bool):
            # JSON true is not a hand number (Python would count it as 1).
            raise InvalidActionError(f"'hand_start' says hand {given!r}: 'hand' is a hand number (1-based)",
                                     input=repr(given))
        unfinished = old is not None and old.phase != "scored"
        redeal = old is not None and unfinished and (
            given == old.number or (given is None and old.number == len(self.opts.hands)))
        # A malformed hand_start is refused before it changes anything (the referee's state is
        # unchanged by an error): in particular the hand in play is not closed as unscored.
        upcoming = number if redeal or not unfinished else number + 1
        if given is not None and given != upcoming:
            if old is not None and unfinished:
                nxt = f", or {upcoming} for the next hand" if upcoming <= len(self.opts.hands) else ""
                raise InvalidActionError(
                    f"'hand_start' says hand {given!r}, but hand {old.number} is in play (number it "
                    f"{old.number} to deal it again{nxt})", input=repr(given))
            raise InvalidActionError(f"'hand_start' says hand {given!r}, but the next hand is {number}",
                                     input=repr(given))
        if upcoming > len(self.opts.hands):
            raise InvalidActionError(
                f"'hand_start' for hand {upcoming}, but the game has {len(self.opts.hands)} hands "
                "(option 'hands')", input=str(upcoming))
        piles: list[list[Card]] = [[] for _ in self.seats]
        unstarted: list[int] = []
        raw = e.get("piles")
        if not self.opts.start_pile_each_hand and isinstance(raw, dict):
            # §10: not every hand begins with a starting pile card, but the cards a hand_start
            # names (say in the first hand) lie on the piles and may be taken; null names none.
            for name, card in raw.items():
                q = self.seat_index(name)
                if card is not None:
                    piles[q].append(self._card(e, card, "piles"))
        elif self.opts.start_pile_each_hand:
            if not isinstance(raw, dict):
                raise InvalidActionError(
                    "'hand_start' needs 'piles': the face-up card that starts each seat's pile, "
                    f"for every seat ({', '.join(self.seats)})", input=repr(raw))
            for name, card in raw.items():
                q = self.seat_index(name)
                if card is not None:  # null: the camera saw no card laid there
                    piles[q].append(self._card(e, card, "piles"))
            unstarted = [q for q in range(self.k) if not piles[q]]
        if old is not None and redeal:
            # §5: the table gathered the cards and dealt the hand in play again (a redeal
            # before it was finished); unnumbered, during the last hand it can be nothing else
            # (§8: no hand follows it). That deal is not scored; the hand is played anew. A
            # false-match penalty (§10) is for the call itself, so it carries over.
            carried = list(old.penalties)
            again = " (dealt again)"
            if not old.setup or any(old.out):
                # Before the first "draw" with nobody out, nothing of the deal is lost: a plain
                # redeal (a misdeal), as in the other games, is no breach.
                self._infraction(e, "hand_not_scored", f"hand {old.number} was dealt again before it "
                                 "was finished; the unfinished deal is not scored")
            self.hand = None
        if self.hand is not None and self.hand.phase != "scored":
            # §10 false_match_penalty: the points are added for the failed call itself, so they
            # stand even though the hand's orphans were never shown.
            kept = {s: v for s, v in zip(self.seats, self.hand.penalties, strict=True) if v}
            what = ("it scores only the false-match penalties: "
                    + ", ".join(f"{s} {v}" for s, v in kept.items())) if kept else "it scores nothing"
            self._infraction(e, "hand_not_scored",
                             f"hand {self.hand.number} was not finished (shows missing); {what}")
            self.scores.append(dict(zip(self.seats, self.hand.penalties, strict=True)))
            self.arrangements.append({})
            number += 1
        size = self.opts.hands[number - 1]
        k = self.k
        pool = 52 * self.opts.decks - k * size - sum(len(p) for p in piles)
        self.hand = _HandTrack(number, size, piles, pool, [False] * k, list(carried),
                               drew=[""] * k, held=[False] * k, discarded=[False] * k,
                               claimed=[False] * k, taken=[[] for _ in range(k)])
        self._rule(e, "hand_start", f"hand {number}{again}: {size} cards each, {_rank_symbol(size)}s wild",
                   hand=number)
        for q in unstarted:
            # §5.3: each seat lays one card face up to start its pile. One that laid none is a
            # breach of the setup, not a malformed log: its pile starts empty (the card stays
            # in the pool), and a draw from it before its first discard finds it empty.
            self.infractions.append(Infraction(
                e.t_ns, "no_pile_card", f"{self.seats[q]} laid no face-up card to start the pile",
                self.seats[q], e.line))

    def _on_caller_draw(self, e: TableEvent) -> None:
        """Choosing the caller (§2): highest rank wins, A low and K high, ties draw again."""
        raw = e.require("cards")
        if not isinstance(raw, dict) or not raw:
            raise InvalidActionError("'caller_draw' needs 'cards': each drawing seat's card", input=repr(raw))
        drawn = {self.seats[self.seat_index(name)]: self._card(e, c, "cards") for name, c in raw.items()}
        if self._repeats_last(e, REPEAT_WINDOW_NS):
            # The draw just made, seen again within a frame: nobody draws a card again that fast (§2),
            # so it is neither a second draw by every seat nor a tie drawn off a second time.
            self._mark_repeat(e)
            self.repeats.append(f"caller_draw at {format_seconds(e.t_ns)} s logged twice: ignored")
            return
        expected = self.caller_tied or list(self.seats)
        if self.hand is not None or self.caller is not None:
            self._infraction(e, "late_caller_draw", "the caller is chosen once, before the first hand")
            if self.caller is not None:
                # §2: chosen once; a second draw does not hand the calls to someone else.
                return
        elif set(drawn) != set(expected):
            self._infraction(e, "caller_draw_seats", "every seat draws for the caller, and only tied seats "
                             f"draw again: expected {', '.join(expected)}")
            # §2: the tied players draw again among themselves; a card drawn by anyone else
            # cannot make that seat the caller. With no tied seat's card, the tie stands.
            drawn = {name: c for name, c in drawn.items() if name in expected}
            if not drawn:
                return
        top = max(int(c.rank) for c in drawn.values())
        tied = [name for name, c in drawn.items() if int(c.rank) == top]
        if len(tied) > 1:
            self.caller_tied = tied
            self._rule(e, "caller_tie", f"{' and '.join(tied)} tie for the highest card: they draw again",
                       tuple(tied))
            return
        self.caller, self.caller_tied = tied[0], []
        self._rule(e, "caller", f"{tied[0]} is the caller (highest card {drawn[tied[0]].display()})",
                   (tied[0],))

    def _on_call(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        word = e.require("call")
        if word not in ("draw", "discard"):
            raise InvalidActionError(f"'call' must be 'draw' or 'discard', got {word!r}", input=repr(word))
        if self._repeats_last(e, REPEAT_WINDOW_NS):
            # docs/table-log.md 'Lines logged twice': the call just made, seen again within a frame,
            # is the same call (§6.1: the caller says "draw", then "discard"), not an early_call.
            self._mark_repeat(e)
            self.repeats.append(f"'{word}' call at {format_seconds(e.t_ns)} s logged twice: ignored")
            return
        if (self.opts.caller == "human" and self.caller is not None and e.seat is not None
                and e.seat != self.caller):
            self._infraction(e, "not_the_caller", f"{e.seat} called, but {self.caller} is the caller")
        if h.phase == "scored" and h.empty_final_calls[:1] == [word]:
            # §6.3: the caller may still say "draw" and "discard" once more when every seat is
            # out; nobody plays that round and the hand is already scored.
            h.empty_final_called = h.empty_final_calls.pop(0)
            self._rule(e, "call", f"final round: {word} (every seat is out)")
        elif word == "draw":
            self._call_draw(e, h)
        else:
            self._call_discard(e, h)

    def _call_draw(self, e: TableEvent, h: _HandTrack) -> None:
        if h.phase in ("show", "scored"):
            self._infraction(e, "early_call", "'draw' called after the final round: the hand is being scored")
            return
        if h.phase == "draw":
            self._infraction(e, "early_call", "'draw' called again before 'discard'")
            return
        if h.phase == "discard" and h.in_final_round:
            # §6.3: there is no round after the final one; the hand is scored.
            self._infraction(e, "early_call", "'draw' called after the final round: the hand is being scored")
            self._close_discards(e, h)
            self._end_final_round(e, h)
            return
        owed = {p for p in h.drawers if not h.discarded[p]} if h.phase == "discard" else set()
        self._close_discards(e, h)
        h.setup = False
        h.in_final_round = h.final
        if h.final and not self.opts.matcher_plays_final_round:
            h.drawers = [p for p in range(self.k) if not h.out[p]]
        else:
            h.drawers = list(range(self.k))
        h.claimed = [False] * self.k
        # A matched seat out of the final round owes its card too: that card was laid down
        # before the match, so turning it up late is no move of its frozen hand.
        h.owed = owed
        if h.pool < len(h.drawers):
            if self.opts.pool_empty == "end_hand":
                h.phase = "show"
                self._rule(e, "pool_empty", f"the pool has {_cards_count(h.pool)} for {len(h.drawers)} "
                           "seats: the hand ends now; everyone spreads their hand to be scored")
                return
            gathered = sum(len(p) - 1 for p in h.piles if p)
            for pile in h.piles:
                del pile[:-1]
            h.pool += gathered
            self._rule(e, "pool_reform", f"the pool has too few cards: gather the {gathered} discards under "
                       "each pile's top card, shuffle them and spread them as the new pool")
        h.phase = "draw"
        h.drew = [""] * self.k
        h.held = [False] * self.k
        h.discarded = [False] * self.k
        self._rule(e, "call", "final round: draw" if h.in_final_round else "draw")

    def _call_discard(self, e: TableEvent, h: _HandTrack) -> None:
        if h.phase != "draw":
            self._infraction(e, "early_call", "'discard' called without a 'draw' first")
            return
        missing = [self.seats[p] for p in h.drawers if not h.held[p]]
        if missing:
            self._infraction(e, "early_call",
                             f"'discard' called while {', '.join(missing)} had no discard laid face down")
        h.phase = "discard"
        self._rule(e, "call", "discard")
        if h.in_final_round and all(h.discarded[q] for q in h.drawers):
            # Nobody left to turn a discard up (every seat matched, or all turned up early).
            self._end_final_round(e, h)

    def _end_final_round(self, e: TableEvent, h: _HandTrack) -> None:
        """The final round is over: every seat that is scored spreads its hand (§6.3, §7)."""
        h.phase = "show"
        self._rule(e, "final", _FINAL_TEXT)
        self._score_if_all_shown(e, h)

    def _score_if_all_shown(self, e: TableEvent, h: _HandTrack) -> None:
        needed = [q for q in range(self.k) if not h.out[q] or self.opts.matcher_plays_final_round]
        if h.phase == "show" and all(q in h.shows for q in needed):
            self._score_hand(e, h)

    def _close_discards(self, e: TableEvent, h: _HandTrack) -> None:
        if h.phase != "discard":
            return
        for p in h.drawers:
            if not h.discarded[p]:
                # The breach is the silent seat's, not that of the seat whose event showed it.
                self.infractions.append(Infraction(e.t_ns, "no_discard", f"{self.seats[p]}'s discard was "
                                                   "not seen turned up", self.seats[p], e.line))

    def _on_draw(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        source = e.require("from")
        if not isinstance(source, str):
            raise InvalidActionError(f"'draw' needs 'from': 'pool' or a seat name, got {source!r}",
                                     input=repr(source))
        if source != "pool" and e.get("card") is not None and self._repeats_last(e):
            took = self._card(e, e.get("card"), "card")
            pile = h.piles[self.seat_index(source)]
            if h.taken[p] and h.taken[p][-1] == took and not (pile and pile[-1] == took):
                # The draw just made, seen twice: the card it names is in the seat's hand and no
                # longer on that pile, so no second card was taken (§6.1): the pile and the cards the
                # seat must show stay as they are.
                self._mark_repeat(e)
                self.repeats.append(f"{name}'s draw of {took.display()} from {source}'s pile at "
                                    f"{format_seconds(e.t_ns)} s logged twice: ignored")
                return
        # A seat may take this round's card after a "discard" called too soon (already the
        # caller's early_call): the caller did say "draw", so that is not an early draw.
        late = h.phase == "discard" and p in h.drawers and h.drew[p] in ("", "empty") and not h.discarded[p]
        if self._frozen_in_final(h, p):
            # §6.3: the caller said "draw" for the final round (there is no round after it); a
            # matched seat takes no part in it (not an early draw: the call was made).
            self._infraction(e, "not_in_round", f"{name} is out and may not draw in the final round")
        elif h.phase != "draw" and not late:
            self._infraction(e, "early_draw", f"{name} drew before the caller said 'draw'")
        elif p not in h.drawers:
            self._infraction(e, "not_in_round", f"{name} is out and may not draw in the final round")
        elif h.drew[p] and h.drew[p] != "empty":
            self._infraction(e, "two_draws", f"{name} drew a second card this round")
        reached = h.drew[p]
        if reached in ("", "empty"):
            h.drew[p] = "pool" if source == "pool" else "pile"
        if source == "pool":
            h.pool -= 1
            return
        owner = self.seat_index(source)
        right = self._right_of(p)
        if owner != right:
            self._infraction(e, "wrong_pile", f"{name} took from {source}'s pile, but may only take from "
                             f"{self.seats[right]}'s (the right-hand neighbour)")
        pile = h.piles[owner]
        # A ``card`` of null names no card, as a null pile card does in ``hand_start``: the draw
        # is judged as one naming none (the top card, or ``empty_pile``), not a malformed line.
        named = e.get("card")
        card = self._card(e, named, "card") if named is not None else (pile[-1] if pile else None)
        if card is None:
            self._infraction(e, "empty_pile", f"{name} took from {source}'s pile, which is empty")
            # §6.1, §11: no card was taken, so a card the seat takes next is its one draw, not a
            # second one ("empty": the seat has reached for a card, so a hold is not early).
            h.drew[p] = reached or "empty"
            return
        if pile and pile[-1] == card:
            pile.pop()
        elif card in pile:
            self._infraction(e, "below_top", f"{name} took {card.display()} from below the top of "
                             f"{source}'s pile")
            pile.remove(card)
        else:
            top = pile[-1].display() if pile else "nothing"
            self._infraction(e, "misread", f"{name} took {card.display()} from {source}'s pile, whose top "
                             f"was {top} (misread?)")
            if pile:
                pile.pop()
        h.taken[p].append(card)

    def _frozen_in_final(self, h: _HandTrack, p: int) -> bool:
        """True when seat ``p`` is out and the final round's "draw" has been called, with no
        "draw" to come: once its "discard" is called (or the hand scored), or in the final round
        every seat is out of. (Before that "discard" the draw phase itself rules on it.)"""
        if not h.out[p] or (h.in_final_round and p in h.drawers):
            return False
        if h.in_final_round and h.phase in ("discard", "show", "scored"):
            return True
        return h.phase == "scored" and h.empty_final_called != ""

    def _on_hold(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        p = self.seat_index(e.seat)
        if (h.phase == "discard" and p in h.drawers and h.drew[p] and not h.held[p]
                and not h.discarded[p]):
            # A seat that drew this round lays its discard down late, after a "discard" called
            # too soon (already the caller's early_call): it is not laid down before "draw".
            h.held[p] = True
            return
        if self._frozen_in_final(h, p):
            # §6.3: a matched seat lays nothing down in the final round (see _on_draw).
            self._infraction(e, "not_in_round", f"{self.seats[p]} is out: the hand stays frozen in the final "
                             "round")
            return
        if h.phase != "draw":
            self._infraction(e, "early_hold", f"{self.seats[p]} laid a discard down outside the draw")
            return
        if p not in h.drawers:
            self._infraction(e, "not_in_round", f"{self.seats[p]} is out: the hand stays frozen in the final "
                             "round")
        elif not h.drew[p]:
            self._infraction(e, "hold_before_draw", f"{self.seats[p]} laid a discard down before drawing")
        h.held[p] = True

    def _on_discard(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        p = self.seat_index(e.seat)
        card = self._card(e, e.require("card"))
        name = self.seats[p]
        if self._repeats_last(e) and h.piles[p] and h.piles[p][-1] == card:
            # docs/table-log.md 'Lines logged twice': the discard just turned up, seen again: that
            # card already lies on the seat's pile, so it is the same discard (§6.1: one a round),
            # not a second card (two_discards) nor one after the final round (extra_discard).
            self._mark_repeat(e)
            self.repeats.append(f"{name}'s discard of {card.display()} at {format_seconds(e.t_ns)} s "
                                "logged twice: ignored")
            return
        # §6.3: a seat out of the final round (its hand frozen) breaches it by turning up a card
        # whether its card is logged before or after the last player's discard, which ends it,
        # and in the final round every seat is out of, once its "draw" is called; a card turned
        # up before that round's "discard" is early as well, as in a round that is played.
        frozen = self._frozen_in_final(h, p)
        if frozen and p in h.owed and h.phase in ("show", "scored"):
            # The card a matched seat owed, turned up only after the final round: an extra
            # discard like any seat's then, not a card of its frozen hand.
            h.owed.discard(p)
            frozen = False
        if p in h.owed and (
                h.phase == "draw" or (h.phase == "discard" and (h.discarded[p] or p not in h.drawers))):
            # §6.1: the card this seat did not turn up at the last "discard" call (ruled no_discard
            # at this "draw") arriving late. It is not this round's discard, so the seat's discard
            # at this round's call is its one discard, not a second one. Turned up before that
            # call it is still early; after it, it is the card owed.
            h.owed.discard(p)
            if h.phase == "draw":
                self._infraction(e, "early_discard", f"{name} turned up {card.display()} before the call")
            h.piles[p].append(card)
            if card in h.taken[p]:
                h.taken[p].remove(card)
            return
        empty_draw = h.phase == "scored" and h.empty_final_called == "draw" and h.out[p]
        if h.phase in ("draw", "window") or empty_draw:
            # §11: before any "discard" call (the setup window included) it is turned up early.
            self._infraction(e, "early_discard", f"{name} turned up {card.display()} before the call")
        elif h.phase != "discard" and not frozen:
            self._infraction(e, "extra_discard", f"{name} discarded {card.display()} outside a round")
        if frozen or (h.phase in ("draw", "discard") and p not in h.drawers):
            self._infraction(e, "not_in_round", f"{name} is out: the hand stays frozen in the final round, "
                             f"so {card.display()} may not be discarded")
        elif h.phase in ("window", "draw", "discard") and h.discarded[p]:
            # After the final round the card is already an ``extra_discard``: one breach, one infraction.
            self._infraction(e, "two_discards", f"{name} discarded a second card this round")
        h.discarded[p] = True
        h.held[p] = True
        h.piles[p].append(card)
        if card in h.taken[p]:
            h.taken[p].remove(card)
        if h.phase == "discard" and all(h.discarded[q] for q in h.drawers) and h.in_final_round:
            self._end_final_round(e, h)

    def _on_match(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        cards, sets = self._laid_out(e)
        if self._repeats_last(e, REPEAT_WINDOW_NS):
            # The call just made, seen again within a frame: one "match" (§6.1), not a second claim
            # that would charge a void call's false_match_penalty twice.
            self._mark_repeat(e)
            self.repeats.append(f"{name}'s match at {format_seconds(e.t_ns)} s logged twice: ignored")
            return
        if h.out[p]:
            self._infraction(e, "already_out", f"{name} is already out")
            return
        # The discards are turned up together at the call, so the window opens with it.
        if not (h.phase == "window" or (h.phase == "discard" and not h.in_final_round)):
            self._infraction(e, "match_outside_window", f"{name} called 'match' outside a match window "
                             "(only before the first draw or straight after a discard); the call is void")
            return
        if h.claimed[p]:
            self._infraction(e, "second_claim", f"{name} called 'match' twice in one window")
        missing = _missing(h.taken[p], cards)
        if missing:
            self._infraction(e, "missing_card", f"{name} lays out no {format_cards(missing)}, taken from a "
                             "pile this hand (misread, or the card left the hand)")
        h.claimed[p] = True
        arrangement = self._arrange(cards[:13], h.size)
        reason = ""
        if len(cards) != h.size:
            # §6.1: the discard may not be kept to complete a set, so a wrong count is a breach
            # (or a misread), reported as for a show, besides making the call void.
            self._infraction(e, "wrong_count", f"{name} lays out {len(cards)} cards, but a hand has {h.size}")
            reason = f"laid out {len(cards)} cards, but a hand has {h.size}"
        elif self.opts.scoring_mode == "as_laid_out" and sets is not None:
            bad = [i for i, s in enumerate(sets)
                   if not is_valid_set(s, h.size, max_wilds_per_set=self.opts.max_wilds_per_set)]
            if bad or len(sets) == 0 or len(cards) != sum(len(s) for s in sets):
                shown = "; ".join(format_cards(sets[i]) for i in bad) or "cards left outside the sets"
                reason = f"not valid sets as laid out ({shown})"
        elif not arrangement.is_complete:
            reason = arrangement.display()
        if not reason and self.opts.scoring_mode == "as_laid_out" and sets is not None:
            # §7: the player's own arrangement is what was checked, so it is the one shown.
            arrangement = laid_out_arrangement(sets, [], h.size,
                                               max_wilds_per_set=self.opts.max_wilds_per_set,
                                               face_card_points=self.opts.face_card_points)
        h.arrangements[p] = arrangement.to_json()
        if not reason:
            h.out[p] = True
            h.final = True
            # §10 matcher_plays_final_round: the matched seats play the final round too.
            who = "everyone" if self.opts.matcher_plays_final_round else "everyone else"
            self._rule(e, "match", f"{name}: match confirmed: {arrangement.display()}. "
                       f"Final round: {who} draws and discards once more.", (name,),
                       arrangement=arrangement.to_json())
            if all(h.out) and not self.opts.matcher_plays_final_round:
                # §6.3, §7: only seats that are not out play the final round, and none is left:
                # every seat scores 0 (plus any false-match penalty) now, with or without the
                # caller's "draw" and "discard" for that empty round.
                h.empty_final_calls = ["draw", "discard"]
                self._score_hand(e, h)
            return
        h.penalties[p] += self.opts.false_match_penalty
        penalty = self.opts.false_match_penalty
        cost = f" (+{penalty} point{'' if penalty == 1 else 's'})" if penalty else ""
        self._rule(e, "failed_match", f"{name}: match fails: {reason}. The call is void{cost}.", (name,),
                   arrangement=arrangement.to_json())

    def _on_show(self, e: TableEvent) -> None:
        h = self._need_hand(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        cards, sets = self._laid_out(e)
        if h.out[p] and not self.opts.matcher_plays_final_round:
            # §6.3: a matched hand is frozen, already laid out and scores 0; spreading it again
            # at any time is neither early nor the end of the final round for the others.
            return
        if h.phase == "scored":
            # The hand was scored when the last seat showed; a later spread changes nothing.
            if p in h.shows:
                self._infraction(e, "two_shows", f"{name} spread the hand twice; the first counts")
            return
        if h.phase == "discard" and h.in_final_round:
            # A spread ends the final round even with a discard unseen (no_discard): as when the
            # last discard ends it, the kiosk rules it over and asks every hand to be spread.
            self._close_discards(e, h)
            h.phase = "show"
            self._rule(e, "final", _FINAL_TEXT)
        if h.phase != "show":
            # §6.3, §7: the hand scored is the one held after the final round; a spread made
            # before then (possibly with the drawn card still in it) does not count.
            self._infraction(e, "early_show", f"{name} spread the hand before the final round was over; "
                             "it does not count: spread it again once the final round is over")
            return
        if p in h.shows:
            self._infraction(e, "two_shows", f"{name} spread the hand twice; the first counts")
            return
        if len(cards) != h.size:
            self._infraction(e, "wrong_count", f"{name} shows {len(cards)} cards, but a hand has {h.size}")
        missing = _missing(h.taken[p], cards)
        if missing:
            self._infraction(e, "missing_card", f"{name} shows no {format_cards(missing)}, taken from a pile "
                             "this hand (misread, or the card left the hand)")
        arrangement = self._arrange(cards[:13], h.size)
        if self.opts.scoring_mode == "as_laid_out" and sets is not None:
            # §7: the seat's own arrangement is scored, so the ruling shows that one.
            orphans = cards[sum(len(s) for s in sets):]
            arrangement = laid_out_arrangement(
                sets, orphans, h.size, max_wilds_per_set=self.opts.max_wilds_per_set,
                face_card_points=self.opts.face_card_points)
            score = arrangement.penalty
        else:
            score = arrangement.penalty if len(cards) <= 13 else sum(
                card_points(c, self.opts.face_card_points) for c in cards)
        h.shows[p] = (score, arrangement)
        h.arrangements[p] = arrangement.to_json()
        self._rule(e, "show", f"{name}: {arrangement.display()}", (name,), arrangement=arrangement.to_json())
        self._score_if_all_shown(e, h)

    def _score_hand(self, e: TableEvent, h: _HandTrack) -> None:
        row: dict[str, int] = {}
        for q, name in enumerate(self.seats):
            base = h.shows[q][0] if q in h.shows else 0
            row[name] = base + h.penalties[q]
        self.scores.append(row)
        self.arrangements.append({self.seats[q]: a for q, a in sorted(h.arrangements.items())})
        h.phase = "scored"
        text = ", ".join(f"{s} {v}" for s, v in row.items())
        self._rule(e, "hand_end", f"hand {h.number} scores: {text}", tuple(self.seats), hand=h.number)
        if len(self.scores) == len(self.opts.hands):
            won = self._winners()
            self._rule(e, "game_end", _game_end_text(won), tuple(won))

    def _winners(self) -> list[str]:
        totals = [sum(r[s] for r in self.scores) for s in self.seats]
        last = [self.scores[-1][s] for s in self.seats]
        return [self.seats[i] for i in winners(totals, last, self.opts.tie_break)]

    # -- views ----------------------------------------------------------------------
    def report(self) -> RefereeReport:
        """The report, with the winners decided on the corrected scores (§7, §8)."""
        rep = super().report()
        if rep.finished:
            # A score_correction can change the totals or the last hand after the game_end ruling.
            totals = [rep.totals[s] for s in self.seats]
            last = [rep.hands[len(self.opts.hands) - 1][s] for s in self.seats]
            rep.winners = [self.seats[i] for i in winners(totals, last, self.opts.tie_break)]
            # The game_end ruling was made before the corrections: announce the same winners.
            rep.rulings = [dataclasses.replace(r, text=_game_end_text(rep.winners), seats=tuple(rep.winners))
                           if r.kind == "game_end" else r for r in rep.rulings]
        return rep

    def cadence(self) -> Cadence:
        """Who holds the table up now (for a kiosk that is the caller)."""
        h = self.hand
        if h is None or h.phase == "scored":
            over = len(self.scores) == len(self.opts.hands)
            return Cadence("over" if over else "deal", False, (), (), False, False, False)
        if h.phase == "window" or (h.phase == "discard" and not h.in_final_round):
            return Cadence("window", h.final, (), (), True, False, True)
        if h.phase in ("show", "discard"):
            # After the final round's "discard" there is no window and no further call.
            return Cadence("show", False, (), (), False, False, False)
        # A seat that found the pile empty ("empty") took no card: it still has to draw, unless
        # it has laid its discard down all the same (it is not waited for then).
        to_draw = tuple(p for p in h.drawers if not h.drew[p] or (h.drew[p] == "empty" and not h.held[p]))
        to_hold = tuple(p for p in h.drawers if h.drew[p] not in ("", "empty") and not h.held[p])
        return Cadence("draw", h.in_final_round, to_draw, to_hold, False, not to_draw and not to_hold, False)

    def public_view(self) -> RummyTableView:
        """What everyone at the table can see: the call, who is waited for, the pile tops.

        >>> ref = RummyReferee(["Ana", "Ben"], RummyOptions(hands=(3,)))
        >>> _ = ref.feed(TableEvent("hand_start", 0, data={"piles": {"Ana": "2S", "Ben": "9D"}}))
        >>> _ = ref.feed(TableEvent("call", 1, data={"call": "draw"}))
        >>> _ = ref.feed(TableEvent("draw", 2, seat="Ben", data={"from": "pool"}))
        >>> v = ref.public_view()
        >>> v.hand_number, v.wild_rank.name, v.phase, v.waiting, v.cadence.waiting_to_draw, v.next_call
        (1, 'THREE', 'draw', (0, 1), (0,), 'discard')
        >>> [str(c) for c in v.pile_tops], v.pool
        (['2S', '9D'], 199)
        """
        h = self.hand
        k = self.k
        cadence = self.cadence()
        if h is None:
            over = len(self.scores) == len(self.opts.hands)
            return RummyTableView(len(self.scores), len(self.opts.hands), 0, None, "over" if over else "deal",
                                  False, cadence, (), "draw", (None,) * k, (0,) * k, 0, (False,) * k,
                                  self.caller)
        waiting: tuple[int, ...] = ()
        if h.phase == "draw":
            waiting = tuple(p for p in h.drawers if not h.held[p])
        elif h.phase == "discard":
            waiting = tuple(p for p in h.drawers if not h.discarded[p])
        over = h.phase == "scored" and len(self.scores) == len(self.opts.hands)
        return RummyTableView(
            hand_number=h.number,
            hands_total=len(self.opts.hands),
            hand_size=h.size,
            wild_rank=Rank(h.size),
            phase="over" if over else h.phase,
            final_round=h.in_final_round or h.final,
            cadence=cadence,
            waiting=waiting,
            next_call="discard" if h.phase == "draw" else "draw",
            pile_tops=tuple(p[-1] if p else None for p in h.piles),
            pile_sizes=tuple(len(p) for p in h.piles),
            pool=h.pool,
            out=tuple(h.out),
            caller=self.caller,
        )

    def _report(self) -> RefereeReport:
        totals = {s: sum(r[s] for r in self.scores) for s in self.seats}
        finished = len(self.scores) == len(self.opts.hands)
        return RefereeReport(
            game=self.game_name,
            seats=self.seats,
            rulings=list(self.rulings),
            infractions=list(self.infractions),
            hands=[dict(r) for r in self.scores],
            totals=totals,
            finished=finished,
            winners=self._winners() if finished else [],
            notes=list(self.repeats),
            extra={"arrangements": [dict(a) for a in self.arrangements],
                   **({"caller": self.caller} if self.caller else {})},
        )


_FINAL_TEXT = "the final round is over: spread your hands face up to be scored"


def _game_end_text(won: Sequence[str]) -> str:
    return f"game over: {' and '.join(won)} {'share the win' if len(won) > 1 else 'wins'}"


def _cards_count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _rank_symbol(size: int) -> str:
    return {11: "J", 12: "Q", 13: "K"}.get(size, str(size))
