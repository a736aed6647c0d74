"""The Gnoming A Round referee path: a table log of what the camera can see, judged
(``rules/gnoming.md`` §4, §5, §9).

The camera reads every face-up card of every grid, the tops of the discard piles,
where each draw came from, every keep (the card placed and the card that came out),
every bounce, every discard, the flips, and the grids revealed at the end of a
round. It never sees a face-down card until it is turned up. The events
(``docs/table-log.md``):

- ``round_start``: ``piles`` (``{"A": card, "B": card}``), optionally ``round``,
  ``first`` (the seat that starts; by default from ``youngest_seat`` and
  ``first_player``) and ``removed`` (Hazards turned up while starting the piles;
  they count for the size of the draw pile).
- ``flip``: ``seat``, ``pos`` (``"rc"``), ``card``: an opening flip, or a flip
  after another seat discarded a Hazard, or a card turned up in place once the
  round is over (before the ``reveal``).
- ``draw``: ``seat``, ``from`` (``deck``, ``A`` or ``B``), and ``card`` for A or B.
- ``keep``: ``seat``, ``pos``, ``card`` (placed) and ``out`` (the card that came out);
  optionally ``grid``, the seat whose grid the card went into when it is not the
  player's own (a breach: the keep does not count and the card must be taken back).
- ``discard``: ``seat``, ``card``, ``pile`` (``A`` or ``B``; none for a Hazard that
  leaves the game).
- ``decline``: ``seat`` does not flip after a Hazard (optional; the next draw closes
  the window anyway).
- ``reveal``: ``seat``, ``grid`` (nine cards, row by row): the grid at the end of
  the round with every card face up. The round is scored once every grid is in.
- ``peek``: ``seat`` lifted a face-down card at ``pos`` and put it back (optionally
  ``grid``: whose grid, the seat's own by default); players must not look (§4.2).

The referee counts the draw pile (the deck less the grids, the two pile starters
and the Hazards removed at the start, less each draw from it), so it knows when the
discards under the two tops are shuffled into a new draw pile (``draw_pile_empty =
reshuffle_discards``; a pile left with no card must then be restarted) and when the
round ends for lack of cards (``end_round``).

Breaches are infractions (§9): a turn out of turn, two draws, a draw from an empty
pile, a position filled twice in one turn, a bounce that the rules do not allow, a
discard onto the wrong pile while the other is empty, a flip without a Hazard or of a
seat's last face-down card, a discard that is not the card held, a card that differs
from what was seen before, a peek, a card placed in another player's grid.

>>> from kiosk.games.gnoming import GnomingOptions
>>> ref = GnomingReferee(["Eve", "Finn"], GnomingOptions())
>>> [r.text for r in ref.feed(TableEvent("round_start", 0, data={"piles": {"A": "G5", "B": "G3"}}))]
['round 1: Eve starts; piles A G5, B G3']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.games.cards import GnomeCard
from kiosk.games.errors import InvalidActionError
from kiosk.games.gnoming import (
    GnomingOptions,
    GridView,
    deck_counts,
    first_out_adjustment,
    game_winners,
    grid_score,
)
from kiosk.games.gnoming_referee_view import GnomingTableView
from kiosk.games.gnoming_scoring import parse_pos, pos_name
from kiosk.games.referee import (
    REPEAT_WINDOW_NS,
    Infraction,
    Referee,
    RefereeReport,
    Ruling,
    TableEvent,
    format_seconds,
)

__all__ = ["GnomingReferee"]


@dataclass
class _RoundTrack:
    number: int
    first: int
    player: int
    piles: dict[str, list[GnomeCard]]
    grids: list[list[GnomeCard | None]]
    """Known face-up cards (None: face down)."""
    deck: int
    """Cards left in the draw pile."""
    stage: str = "flip"
    """``flip`` (opening flips), ``draw``, ``place``, ``reveal`` or ``scored``."""
    held: GnomeCard | None = None
    held_known: bool = False
    source: str = ""
    bounce_ok: bool = False
    kept: bool = False
    filled: list[int] = field(default_factory=list)
    hazard_window: list[int] = field(default_factory=list)
    hazard_by: int | None = None
    """The seat whose Hazard discard opened the flips now allowed (None once the next draw closes them)."""
    finisher: int | None = None
    final_owed: list[int] = field(default_factory=list)
    """Seats still owed their one final turn (§5.5), in turn order after the finisher."""
    revealed: dict[int, list[GnomeCard]] = field(default_factory=dict)
    drawn: bool = False
    """Whether the round's first draw has happened (until then a flip is an opening flip)."""
    opened: list[int] = field(default_factory=list)
    """Each seat's opening flips so far (§4.5: exactly two)."""
    played: set[int] = field(default_factory=set)
    """Seats that have finished a turn this round."""
    empty_reach: bool = False
    """The player's last draw found its pile empty, so no card was taken (§5.1)."""
    stray: dict[int, tuple[str, GnomeCard | None]] = field(default_factory=dict)
    """Cards drawn out of turn while the player held theirs: seat -> (source, card if seen)."""


class GnomingReferee(Referee):
    """Referees a Gnoming A Round table log."""

    game_name = "gnoming"
    event_types = frozenset({"round_start", "flip", "draw", "keep", "discard", "decline", "reveal", "peek"})

    def __init__(self, seats: Sequence[str], options: Any, *, youngest_entered: bool = True) -> None:
        self.opts: GnomingOptions = options
        # §4.6 and §9: the youngest player, who starts round 1, is entered at the kiosk. When the
        # header has no ``youngest_seat``, the log's round 1 ``first`` is that entry, not a breach.
        self.youngest_entered = youngest_entered
        super().__init__(seats, options)

    def _reset(self) -> None:
        self.round: _RoundTrack | None = None
        self.scores: list[list[int]] = []
        self.details: list[dict[str, str]] = []
        self.finishers: list[int | None] = []
        self.firsts: list[int] = []
        self.rulings: list[Ruling] = []
        self.infractions: list[Infraction] = []
        self.repeats: list[str] = []
        """Notes on lines the camera logged twice and the referee ignored."""

    # -- helpers ----------------------------------------------------------------------
    @property
    def k(self) -> int:
        return len(self.seats)

    def _rule(self, e: TableEvent, kind: str, text: str, seats: Sequence[str] = (), **data: Any) -> None:
        self.rulings.append(Ruling(e.t_ns, kind, text, tuple(seats), data))

    def _infraction(self, e: TableEvent, kind: str, text: str, seat: str | None = None) -> None:
        # ``seat`` names whose breach it is when the event itself names no seat (a round_start).
        self.infractions.append(Infraction(e.t_ns, kind, text, e.seat if seat is None else seat, e.line))

    def _card(self, e: TableEvent, key: str) -> GnomeCard:
        value = e.require(key)
        if not isinstance(value, str):
            raise InvalidActionError(f"{e.type!r} event: {key!r} must be a Gnoming card such as 'G5', "
                                     f"'G-2', 'HAZARD' or 'MULLIGAN', got {value!r}", input=repr(value))
        return GnomeCard.parse(value)

    def _pos(self, e: TableEvent) -> int:
        value = e.require("pos")
        try:
            return parse_pos(str(value))
        except ValueError as exc:
            raise InvalidActionError(f"{e.type!r} event: {exc}", input=repr(value)) from None

    def _need_round(self, e: TableEvent) -> _RoundTrack:
        # An event after a round is scored is refereed by its handler (``round_over`` and the
        # like), not a malformed log: the docs promise that rule breaches are never errors.
        if self.round is None:
            raise InvalidActionError(
                f"{e.type!r} event before a 'round_start' event: start each round with "
                '{"type": "round_start", "piles": {"A": "G5", "B": "G3"}}', input=e.type)
        return self.round

    def _step(self) -> int:
        return 1 if self.opts.turn_direction == "clockwise" else -1

    def _face_down(self, r: _RoundTrack, seat: int) -> int:
        return sum(c is None for c in r.grids[seat])

    def _see(self, e: TableEvent, r: _RoundTrack, seat: int, pos: int, card: GnomeCard) -> None:
        """Records a card seen at a grid position, flagging a change nobody made."""
        known = r.grids[seat][pos]
        if known is not None and known != card:
            self._infraction(e, "misread", f"{self.seats[seat]}'s {pos_name(pos)} was {known.display()}, now "
                             f"read as {card.display()}")
        r.grids[seat][pos] = card

    # -- the fold ---------------------------------------------------------------------
    def _feed(self, event: TableEvent) -> list[Ruling]:
        before = len(self.rulings)
        getattr(self, "_on_" + event.type)(event)
        return self.rulings[before:]

    def _ignore_repeat(self, e: TableEvent, what: str) -> None:
        """A line logged twice in a row that cannot be a second real event: noted, nothing else."""
        self._mark_repeat(e)
        self.repeats.append(f"{what} at {format_seconds(e.t_ns)} s logged twice: ignored")

    def _on_round_start(self, e: TableEvent) -> None:
        number = len(self.scores) + 1
        if (self.round is not None and self.round.stage != "scored"
                and self._repeats_last(e, REPEAT_WINDOW_NS)):
            # The same deal seen again within a frame (nothing logged since it), not a new deal in the
            # middle of the round, which is malformed (later than that it still is): the round goes on.
            self._ignore_repeat(e, f"round_start of round {self.round.number}")
            return
        if self.round is not None and self.round.stage != "scored":
            raise InvalidActionError(f"'round_start' while round {self.round.number} is not scored yet: log "
                                     "a 'reveal' for every seat first", input="round_start")
        if number > self.opts.rounds:
            raise InvalidActionError(f"'round_start' for round {number}, but the game has {self.opts.rounds} "
                                     "rounds (option 'rounds')", input=str(number))
        given = e.get("round")
        if given is not None and (isinstance(given, bool) or not isinstance(given, int | float)):
            raise InvalidActionError(f"'round_start' field 'round' must be the round number, got {given!r}",
                                     input=repr(given))
        if given is not None and given != number:
            raise InvalidActionError(f"'round_start' says round {given!r}, but the next round is {number}",
                                     input=repr(given))
        piles = e.require("piles")
        if not isinstance(piles, dict) or set(piles) != {"A", "B"}:
            raise InvalidActionError("'round_start' needs 'piles': {\"A\": card, \"B\": card}",
                                     input=repr(piles))
        a = GnomeCard.parse(str(piles["A"]))
        b = GnomeCard.parse(str(piles["B"]))
        if a.is_hazard or b.is_hazard:
            raise InvalidActionError("a Hazard cannot start a discard pile (it leaves the game and another "
                                     "card is turned): list it under 'removed'", input="HAZARD")
        removed_raw = e.get("removed", [])
        if not isinstance(removed_raw, list):
            raise InvalidActionError("'round_start' field 'removed' must be a list of the Hazards turned up "
                                     f"while starting the piles, e.g. [\"HAZARD\"], got {removed_raw!r}",
                                     input=repr(removed_raw))
        removed = [GnomeCard.parse(str(c)) for c in removed_raw]
        if not all(c.is_hazard for c in removed):
            raise InvalidActionError("'round_start' field 'removed' lists only Hazards (a card that is not a "
                                     "Hazard starts a pile instead)", input=repr(removed_raw))
        deck = sum(deck_counts(self.opts).values()) - 9 * self.k - 2 - len(removed)
        if deck < 0:
            raise InvalidActionError(f"'round_start': the deck (option 'deck') has too few cards for "
                                     f"{self.k} grids, two discard piles and the Hazards removed",
                                     input=str(deck))
        first = self._first_player(number) if e.get("first") is None else self.seat_index(e.get("first"))
        entry = number == 1 and not self.youngest_entered
        if e.get("first") is not None and not entry and first != self._first_player(number):
            self._infraction(e, "first_player", f"{self.seats[first]} starts, but under first_player = "
                             f"{self.opts.first_player} {self.seats[self._first_player(number)]} should",
                             seat=self.seats[first])
        self.firsts.append(first)
        self.round = _RoundTrack(number, first, first, {"A": [a], "B": [b]}, [[None] * 9 for _ in self.seats],
                                 deck, opened=[0] * self.k)
        self._rule(e, "round_start", f"round {number}: {self.seats[first]} starts; piles A {a}, B {b}",
                   (self.seats[first],))

    def _first_player(self, number: int) -> int:
        o = self.opts
        if number == 1 or o.first_player == "youngest_every_round":
            return self.firsts[0] if self.firsts and not self.youngest_entered else o.youngest_seat
        if o.first_player == "finisher_starts" and self.finishers and self.finishers[-1] is not None:
            return self.finishers[-1]
        return (self.firsts[-1] + 1) % self.k

    def _on_flip(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        pos = self._pos(e)
        card = self._card(e, "card")
        name = self.seats[p]
        if r.stage == "scored":
            # §5.6: the grids were turned up where they lie and scored; nothing is left to flip.
            self._infraction(e, "round_over", f"{name} turned a card up after round {r.number} was scored")
            return
        if r.grids[p][pos] is not None:
            # No face-down card was turned up, so this is neither an opening flip nor a Hazard flip
            # (§4.5, §5.4): it is not also a third card, does not use up the seat's flip after a
            # Hazard, and is no flip without one. The card read must still be the card seen there.
            self._infraction(e, "flip_face_up", f"{name} flipped {pos_name(pos)}, which was already face up")
            self._see(e, r, p, pos, card)
            return
        if r.stage == "flip":
            if 9 - self._face_down(r, p) >= 2:
                self._infraction(e, "extra_flip", f"{name} turned a third card up at the start of the round")
            elif r.grids[p][pos] is None:
                r.opened[p] += 1
            self._see(e, r, p, pos, card)
            if all(self._face_down(r, q) <= 7 for q in range(self.k)):
                r.stage = "draw"
            return
        if not r.drawn:
            # §4.5: before the first draw this is still the opening, so a third card turned up is an
            # extra opening flip, also when it comes after every other seat's two. A seat that has
            # not turned its two yet (a keep or discard logged before the first draw moved the turn
            # on) is making the opening flips the rules require of it, which is no breach.
            if r.opened[p] < 2 and 9 - self._face_down(r, p) < 2:
                r.opened[p] += 1
            else:
                self._infraction(e, "extra_flip", f"{name} turned a third card up at the start of the round")
            self._see(e, r, p, pos, card)
            return
        if p in r.hazard_window:
            r.hazard_window.remove(p)
        elif r.stage == "reveal":
            # §5.6: once the round is over every face-down card is turned up where it lies, so a
            # flip logged card by card at that point is the reveal itself, not a breach.
            pass
        elif r.opened[p] < 2 and p not in r.played and r.grids[p][pos] is None:
            # §4.5: every seat turns exactly two cards up. After a draw made before a seat had turned
            # its two (the early_draw breach), that seat's owed opening flips, made before its own
            # first turn is over, are what the rules require of it, not flips without a Hazard.
            r.opened[p] += 1
        else:
            last = self._face_down(r, p) < self.opts.hazard_flip_min_facedown
            if last:
                why = (f"with fewer than {self.opts.hazard_flip_min_facedown} face-down cards (the last card "
                       "can never be flipped by a Hazard)")
            elif r.hazard_by == p:
                why = "after their own Hazard (only the other players may flip)"
            elif r.hazard_by is not None:
                why = "after already flipping or declining for this Hazard (one card per player per Hazard)"
            else:
                why = "without a Hazard discarded"
            if r.grids[p][pos] is None and self._face_down(r, p) == 1:
                # §5.4: the last face-down card can never be turned by a Hazard, so a Hazard can never
                # end a round. The card goes back face down and the seat must still play onto it to
                # go out (§5.5), instead of becoming the finisher on its next turn without doing so.
                self._infraction(e, "illegal_flip", f"{name} flipped {pos_name(pos)} {why}: "
                                 "turn it back face down")
                return
            self._infraction(e, "illegal_flip", f"{name} flipped {pos_name(pos)} {why}")
        self._see(e, r, p, pos, card)

    def _on_decline(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        if p in r.hazard_window:
            r.hazard_window.remove(p)

    def _on_peek(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        pos = self._pos(e)
        owner = p if e.get("grid") is None else self.seat_index(e.get("grid"))
        # Once the round is over every face-down card is turned up where it lies (§5.6), and once it
        # is scored none is left: looking at one then hides nothing and gains nothing.
        if r.grids[owner][pos] is None and r.stage not in ("reveal", "scored"):
            whose = "their own" if owner == p else f"{self.seats[owner]}'s"
            self._infraction(e, "peek", f"{self.seats[p]} looked at {whose} face-down {pos_name(pos)}; "
                             "players must not look at face-down cards")

    def _on_draw(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        source = e.require("from")
        if source not in ("deck", "A", "B"):
            raise InvalidActionError(f"'draw' needs 'from': 'deck', 'A' or 'B', got {source!r}",
                                     input=repr(source))
        if r.stage == "flip":
            self._infraction(e, "early_draw", f"{name} drew before every seat turned two cards up")
            r.stage = "draw"
        r.hazard_window, r.hazard_by = [], None
        r.drawn = True
        if r.stage in ("reveal", "scored"):
            self._infraction(e, "round_over", f"{name} drew after the round was over")
            return
        if r.stage == "place" and p != r.player:
            # §9's "two cards drawn" is one player drawing twice; another seat drawing while the
            # player still holds a card is that seat playing out of turn.
            self._infraction(e, "out_of_turn", f"{name} drew out of turn; {self.seats[r.player]} "
                             "is still holding a card")
            self._draw_stray(e, r, p, source)
            return
        if (self._repeats_last(e) and source in ("A", "B") and "card" in e.data and r.stage == "place"
                and p == r.player and r.held_known and r.held == self._card(e, "card")
                and not (r.piles[source] and r.piles[source][-1] == r.held)):
            # The draw just made, seen twice: the card it names is already in the player's hand and no
            # longer on the pile, so no second card was taken (§9 two cards drawn needs a second card).
            self._ignore_repeat(e, f"{name}'s draw from {source}")
            return
        r.stray.pop(p, None)
        # A second draw is a breach within the same turn, not a new turn: the positions already
        # filled this turn stay filled (§5.2 filled_this_turn), so filling one again is filled_twice.
        filled = list(r.filled) if r.stage == "place" and p == r.player else []
        if r.stage == "place" and not r.empty_reach:
            # A draw from an empty pile took no card (empty_pile), so the draw that follows it is
            # the turn's one card (§5.1), not a second card drawn (§9).
            self._infraction(e, "two_draws", f"{name} drew again before discarding")
        elif p != r.player:
            self._infraction(e, "out_of_turn",
                             f"{name} drew out of turn; it is {self.seats[r.player]}'s turn")
            r.player = p
        r.stage, r.source, r.filled, r.kept = "place", source, filled, False
        r.held, r.held_known, r.empty_reach = None, False, False
        if source == "deck":
            self._draw_from_deck(e, r, name)
            return
        pile = r.piles[source]
        card = self._card(e, "card") if "card" in e.data else (pile[-1] if pile else None)
        if not pile:
            self._infraction(e, "empty_pile", f"{name} drew from pile {source}, which is empty")
            r.empty_reach = True
        elif card != pile[-1]:
            self._infraction(e, "misread", f"{name} drew {card} from pile {source}, whose top was {pile[-1]}")
        if pile:
            pile.pop()
        r.held, r.held_known = card, card is not None

    def _draw_stray(self, e: TableEvent, r: _RoundTrack, p: int, source: str) -> None:
        """A card taken out of turn while the player holds theirs: it leaves its pile, but the
        player's turn (held card, source, positions filled) is theirs to finish (§5.2)."""
        if source == "deck":
            state = (r.held, r.held_known, r.empty_reach)
            r.empty_reach = False
            self._draw_from_deck(e, r, self.seats[p])
            took = not r.empty_reach
            r.held, r.held_known, r.empty_reach = state
            if took:
                r.stray[p] = (source, None)
            return
        pile = r.piles[source]
        card = self._card(e, "card") if "card" in e.data else (pile[-1] if pile else None)
        if not pile:
            self._infraction(e, "empty_pile", f"{self.seats[p]} drew from pile {source}, which is empty")
            return
        if card != pile[-1]:
            self._infraction(e, "misread", f"{self.seats[p]} drew {card} from pile {source}, whose top was "
                             f"{pile[-1]}")
        pile.pop()
        r.stray[p] = (source, card)

    def _take_stray(self, r: _RoundTrack, p: int) -> bool:
        """A seat that drew out of turn and now plays that card: on its own turn it is the turn's
        draw (the breach was ruled at the draw); out of turn it is laid down again. True when the
        card is laid down out of turn, which ends no one's turn."""
        if p not in r.stray:
            return False
        if p != r.player or r.stage != "draw":
            return True
        source, card = r.stray.pop(p)
        r.stage, r.source, r.filled, r.kept = "place", source, [], False
        # A card that came out of the grid during the out-of-turn play was not tested for a bounce
        # on this turn, so keeping it again is no bounce the rules allow (§5.2).
        r.held, r.held_known, r.empty_reach, r.bounce_ok = card, card is not None, False, False
        return False

    def _draw_from_deck(self, e: TableEvent, r: _RoundTrack, name: str) -> None:
        if r.deck == 0:
            under = sum(len(pile) - 1 for pile in r.piles.values() if pile)
            if self.opts.draw_pile_empty == "reshuffle_discards" and under:
                # §5.1 ruling: the discards under the two tops become the new draw pile.
                for pile in r.piles.values():
                    del pile[:-1]
                r.deck = under
                self._rule(e, "reshuffle", f"the draw pile is empty: shuffle the {under} discards under the "
                           "tops of A and B into a new draw pile")
            else:
                self._infraction(e, "empty_pile", f"{name} drew from the draw pile, which is empty")
                r.empty_reach = True
                return
        r.deck -= 1

    def _keep_stray(
        self, e: TableEvent, r: _RoundTrack, p: int, pos: int, card: GnomeCard, out: GnomeCard
    ) -> None:
        """A card kept out of turn goes into the seat's grid; the card that comes out (seen as it
        comes out) is the one the seat now holds, as after a keep on its own turn (a bounce)."""
        if r.grids[p][pos] is not None:
            self._see(e, r, p, pos, out)
        r.grids[p][pos] = card
        r.revealed.pop(p, None)
        r.stray[p] = ("bounce", out)

    def _on_keep(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        pos = self._pos(e)
        card = self._card(e, "card")
        out = self._card(e, "out")
        if r.stage in ("reveal", "scored"):
            self._infraction(e, "round_over", f"{name} placed a card after the round was over")
            return
        if self._repeats_last(e) and r.stage == "place" and p == r.player and r.held_known:
            # The keep just made, seen twice: the player now holds the card that came out, and the
            # position was filled this turn (§5.2: a bounce goes to a position not in filled_this_turn).
            # With a different card named it cannot be a bounce; with the same card it could only put
            # the card just placed back in its place, a no-op swap: either way it is the same keep
            # logged again, and the player's bounce that follows is judged as without it.
            self._ignore_repeat(e, f"{name}'s keep at {pos_name(pos)}")
            return
        owner = p if e.get("grid") is None else self.seat_index(e.get("grid"))
        if owner != p:
            self._infraction(e, "wrong_grid", f"{name} placed {card.display()} in {self.seats[owner]}'s "
                             "grid: take it back; a card is kept only in the player's own grid")
            return
        if self._take_stray(r, p):
            # The card drawn out of turn goes into the seat's grid, still out of turn (the draw was
            # the breach): the card that comes out is now the one it holds, and the player whose
            # turn it is still holds their own card.
            seen = r.stray[p][1]
            if seen is not None and seen != card:
                self._infraction(e, "misread", f"{name} placed {card.display()} but was holding {seen}")
            self._keep_stray(e, r, p, pos, card, out)
            return
        if r.stage == "place" and p != r.player:
            # Another seat playing into its own grid while the player still holds a card is that
            # seat's out_of_turn, as a draw would be: the player's turn (held card, positions filled)
            # stays theirs to finish (§5.2), and the card that came out is the one this seat now holds.
            self._infraction(e, "out_of_turn", f"{name} placed a card out of turn; {self.seats[r.player]} "
                             "is still holding a card")
            self._keep_stray(e, r, p, pos, card, out)
            return
        if r.stage != "place" or p != r.player:
            self._infraction(e, "out_of_turn", f"{name} placed a card without drawing on their turn")
            r.player, r.stage = p, "place"
        if pos in r.filled:
            self._infraction(e, "filled_twice", f"{name} filled {pos_name(pos)} twice in one turn")
        bouncing = r.source == "bounce"
        if bouncing and not r.bounce_ok:
            self._infraction(e, "illegal_bounce",
                             f"{name} kept {card.display()} again, but it may not bounce: "
                             "it must be face down before, positive, and match a face-up card")
        if bouncing and self.opts.bounce_targets == "face_down_only" and r.grids[p][pos] is not None:
            self._infraction(e, "bounce_target", f"{name} bounced onto face-up {pos_name(pos)}; under "
                             "bounce_targets = face_down_only a bounce must land face down")
        if r.held_known and r.held != card:
            self._infraction(e, "misread", f"{name} placed {card.display()} but was holding {r.held}")
        was_down = r.grids[p][pos] is None
        if not was_down:
            self._see(e, r, p, pos, out)
        r.grids[p][pos] = card
        r.filled.append(pos)
        r.kept, r.empty_reach = True, False
        # A grid shown early (early_reveal) has changed since: it is no longer the grid to score.
        r.revealed.pop(p, None)
        r.bounce_ok = (was_down and out.value is not None and out.value > 0
                       and any(c == out for c in r.grids[p]))
        r.held, r.held_known, r.source = out, True, "bounce"

    def _on_discard(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        name = self.seats[p]
        card = self._card(e, "card")
        pile = e.get("pile")
        if self._repeats_last(e) and p not in r.stray:
            # The discard just made, seen twice: the player holds no card any more (§5.3), so no second
            # card was laid down; the next player's turn goes on. Checked before round_over, as the
            # discard that ends the round's last turn (§5.5) may be the one seen twice.
            self._ignore_repeat(e, f"{name}'s discard of {card.display()}")
            return
        if r.stage in ("reveal", "scored"):
            self._infraction(e, "round_over", f"{name} discarded after the round was over")
            return
        if self._take_stray(r, p):
            # A card drawn out of turn laid down again: the draw was the breach (out_of_turn), and
            # the player whose turn it is still holds their own card, so no one's turn ends here.
            seen = r.stray.pop(p)[1]
            if seen is not None and seen != card:
                self._infraction(e, "misread", f"{name} discarded {card.display()} but was holding {seen}")
            if pile in ("A", "B") and not (card.is_hazard and self.opts.hazard_on_discard == "remove"):
                r.piles[pile].append(card)
            elif not card.is_hazard:
                raise InvalidActionError(f"'discard' of {card} needs 'pile': 'A' or 'B'", input=repr(pile))
            return
        if r.stage == "place" and p != r.player:
            # Another seat laying a card down while the player still holds theirs is that seat's
            # out_of_turn, as a draw would be; it ends no one's turn, so the player still finishes
            # their own turn with the card they hold (§5.2, §5.3).
            self._infraction(e, "out_of_turn", f"{name} discarded out of turn; {self.seats[r.player]} "
                             "is still holding a card")
            if pile in ("A", "B") and not (card.is_hazard and self.opts.hazard_on_discard == "remove"):
                r.piles[pile].append(card)
            elif not card.is_hazard:
                raise InvalidActionError(f"'discard' of {card} needs 'pile': 'A' or 'B'", input=repr(pile))
            return
        if r.stage != "place" or p != r.player:
            self._infraction(e, "out_of_turn", f"{name} discarded without drawing on their turn")
            r.player = p
        if r.held_known and r.held != card:
            self._infraction(e, "misread", f"{name} discarded {card.display()} but was holding {r.held}")
        if self.opts.must_keep_discard_draw and r.source in ("A", "B") and not r.kept:
            self._infraction(e, "must_keep", f"{name} passed on {card.display()} taken from pile {r.source}; "
                             "under must_keep_discard_draw it must be kept")
        leaves = card.is_hazard and self.opts.hazard_on_discard == "remove"
        if leaves:
            if pile is not None:
                self._infraction(e, "hazard_on_pile",
                                 f"{name} put a Hazard on pile {pile}; it leaves the game")
        elif card.is_hazard and pile is None:
            # §5.3 under to_pile: the Hazard belongs on a discard pile. Setting it aside is the
            # player's breach, not a malformed log (only a non-Hazard discard needs a pile); it
            # still triggers the flips below, and no pile changes.
            self._infraction(e, "hazard_off_pile", f"{name} set a Hazard aside; under hazard_on_discard = "
                             "to_pile it goes on pile A or B")
        else:
            if pile not in ("A", "B"):
                raise InvalidActionError(f"'discard' of {card} needs 'pile': 'A' or 'B'", input=repr(pile))
            empty = [k for k in ("A", "B") if not r.piles[k]]
            if len(empty) == 1 and pile != empty[0]:
                self._infraction(e, "wrong_pile",
                                 f"{name} discarded on {pile}, but pile {empty[0]} was empty "
                                 "and had to be restarted")
            r.piles[pile].append(card)
        r.held, r.held_known = None, False
        if card.is_hazard:
            need = self.opts.hazard_flip_min_facedown
            r.hazard_window = [q for q in range(self.k) if q != p and self._face_down(r, q) >= need]
            r.hazard_by = p
            names = ", ".join(self.seats[q] for q in r.hazard_window) or "nobody"
            # The ruling concerns the seats that may flip (docs/table-log.md: who may flip).
            self._rule(e, "hazard", f"{name} discarded a Hazard: {names} may turn one face-down card up",
                       tuple(self.seats[q] for q in r.hazard_window))
        self._end_turn(e, r, p)

    def _end_turn(self, e: TableEvent, r: _RoundTrack, p: int) -> None:
        r.played.add(p)
        if r.finisher is None and self._face_down(r, p) == 0:
            r.finisher = p
            r.final_owed = [(p + i * self._step()) % self.k for i in range(1, self.k)]
            self._rule(e, "finisher",
                       f"{self.seats[p]} has no face-down card: everyone else has one more turn",
                       (self.seats[p],))
        elif p in r.final_owed:
            # §5.5: each other seat has exactly one final turn. A turn played out of turn by the
            # finisher, or by a seat that already had its final turn, uses up nobody's.
            r.final_owed.remove(p)
        if r.finisher is not None and not r.final_owed:
            r.stage = "reveal"
            self._rule(e, "round_end",
                       f"round {r.number} is over: turn every face-down card up where it lies")
            return
        r.player = (p + self._step()) % self.k
        if r.finisher is not None:
            # The next seat still owed a final turn; the finisher has no more turns.
            while r.player not in r.final_owed:
                r.player = (r.player + self._step()) % self.k
        r.stage, r.source, r.filled = "draw", "", []
        under = sum(len(pile) - 1 for pile in r.piles.values() if pile)
        out_of_cards = r.deck == 0 and (self.opts.draw_pile_empty == "end_round" or (
            not under and not any(r.piles.values())))
        if out_of_cards:
            r.stage = "reveal"
            self._rule(e, "round_end", f"round {r.number} is over: the draw pile is empty; turn every "
                       "face-down card up where it lies")

    def _on_reveal(self, e: TableEvent) -> None:
        r = self._need_round(e)
        p = self.seat_index(e.seat)
        raw = e.require("grid")
        if not isinstance(raw, list) or len(raw) != 9:
            raise InvalidActionError("'reveal' needs 'grid': the nine cards row by row", input=repr(raw))
        grid = [GnomeCard.parse(str(c)) for c in raw]
        if r.stage == "scored":
            # The round was scored on the grids first revealed; showing one again changes nothing.
            for pos, (was, card) in enumerate(zip(r.revealed[p], grid, strict=True)):
                if was != card:
                    self._infraction(e, "misread", f"{self.seats[p]}'s {pos_name(pos)} was revealed as "
                                     f"{was.display()}, now read as {card.display()}")
            return
        if r.stage != "reveal":
            # §5.5 decides when the round ends, not one grid shown: play goes on after an early
            # reveal (a later reveal replaces it), and the round is scored once every grid is in.
            self._infraction(e, "early_reveal",
                             f"{self.seats[p]} revealed the grid before the round was over")
        for pos, card in enumerate(grid):
            known = r.grids[p][pos]
            if known is not None and known != card:
                self._infraction(e, "misread", f"{self.seats[p]}'s {pos_name(pos)} was {known.display()}, "
                                 f"revealed as {card.display()}")
        r.revealed[p] = grid
        if len(r.revealed) == self.k:
            self._score_round(e, r)

    def _score_round(self, e: TableEvent, r: _RoundTrack) -> None:
        scored = [grid_score(r.revealed[q], self.opts) for q in range(self.k)]
        row = first_out_adjustment([s.score for s in scored], r.finisher, self.opts)
        self.scores.append(row)
        self.finishers.append(r.finisher)
        self.details.append({self.seats[q]: scored[q].describe() for q in range(self.k)})
        r.stage = "scored"
        for q in range(self.k):
            adj = row[q] - scored[q].score
            extra = f", {'bonus' if adj < 0 else 'penalty'} {adj:+d} for going out first" if adj else ""
            self._rule(e, "grid", f"{self.seats[q]}: {scored[q].describe()}{extra}", (self.seats[q],))
        self._rule(e, "round_scores", f"round {r.number} scores: "
                   + ", ".join(f"{s} {v}" for s, v in zip(self.seats, row, strict=True)), tuple(self.seats))
        if len(self.scores) == self.opts.rounds:
            won = [self.seats[i] for i in game_winners(self.scores)]
            self._rule(e, "game_end", _game_end_text(won), tuple(won))

    def public_view(self) -> GnomingTableView:
        """What everyone at the table can see: the grids' face-up cards, the pile tops, the turn.

        >>> ref = GnomingReferee(["Eve", "Finn"], GnomingOptions())
        >>> _ = ref.feed(TableEvent("round_start", 0, data={"piles": {"A": "G5", "B": "G3"}}))
        >>> _ = ref.feed(TableEvent("flip", 1, seat="Eve", data={"pos": "11", "card": "G7"}))
        >>> v = ref.public_view()
        >>> v.round_number, v.stage, v.to_play, str(v.pile_a), str(v.pile_b)
        (1, 'flip', 0, 'G5', 'G3')
        >>> [str(c) for c in v.grids[0].cards if c is not None], v.grids[0].face_down, v.grids[1].face_down
        (['G7'], 8, 9)
        """
        scores = tuple(tuple(row) for row in self.scores)
        r = self.round
        if r is None:
            grids = tuple(GridView(name, (None,) * 9, 9) for name in self.seats)
            return GnomingTableView(0, self.opts.rounds, "deal", None, grids, None, None, 0, None, None, 0,
                                    (), scores)
        grids = tuple(
            GridView(name, tuple(r.revealed.get(q, r.grids[q])), sum(c is None for c in r.grids[q])
                     if q not in r.revealed else 0)
            for q, name in enumerate(self.seats)
        )
        over = r.stage == "scored" and len(self.scores) == self.opts.rounds
        playing = r.stage in ("flip", "draw", "place")
        return GnomingTableView(
            round_number=r.number,
            rounds_total=self.opts.rounds,
            stage="over" if over else r.stage,
            to_play=r.player if playing else None,
            grids=grids,
            pile_a=r.piles["A"][-1] if r.piles.get("A") else None,
            pile_b=r.piles["B"][-1] if r.piles.get("B") else None,
            draw_pile=r.deck,
            held=r.held if r.held_known else None,
            finisher=r.finisher,
            final_turns_left=len(r.final_owed) if r.finisher is not None and playing else 0,
            hazard_flippers=tuple(r.hazard_window),
            round_scores=scores,
        )

    def report(self) -> RefereeReport:
        """The report with the table's score corrections applied; once every round is scored the
        winners follow the corrected rounds (§7): the lowest total wins, a tie goes to the lowest
        last-round score, and a tie on that too shares the win."""
        rep = super().report()
        if self._corrections and rep.finished:
            rounds = [[row.get(name, 0) for name in self.seats] for row in rep.hands]
            rep.winners = [self.seats[i] for i in game_winners(rounds, last=self.opts.rounds)]
            # The game_end ruling was made on the scores as refereed; the end of the game follows
            # the corrected ones (docs/table-log.md), so it announces the same winners as the report.
            rep.rulings = [replace(r, text=_game_end_text(rep.winners), seats=tuple(rep.winners))
                           if r.kind == "game_end" else r for r in rep.rulings]
        return rep

    def _report(self) -> RefereeReport:
        finished = len(self.scores) == self.opts.rounds
        return RefereeReport(
            game=self.game_name,
            seats=self.seats,
            rulings=list(self.rulings),
            infractions=list(self.infractions),
            hands=[dict(zip(self.seats, row, strict=True)) for row in self.scores],
            totals={s: sum(row[i] for row in self.scores) for i, s in enumerate(self.seats)},
            finished=finished,
            winners=[self.seats[i] for i in game_winners(self.scores)] if finished else [],
            notes=list(self.repeats),
            extra={"grids": [dict(d) for d in self.details]},
        )


def _game_end_text(won: Sequence[str]) -> str:
    return f"game over: {' and '.join(won)} {'share the win' if len(won) > 1 else 'wins'}"
