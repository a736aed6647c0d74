"""Four-Point Northeastern Wisconsin Smear: the referee path.

Rule source: ``rules/smear.md`` §10 and §12 (what a camera referee can check).
The referee folds a table log holding what the kiosk can know: the dealer of
each hand, the bids and passes entered on the buttons or the touchscreen, an
optional trump announcement, each card the camera sees played (with the seat
that played it), the bidder's discards turned face up, and optionally the
unseen blind turned up after the hand. It scores each hand as the strict
engine does (:func:`~kiosk.games.smear_rules.score_hand`) and reports
infractions instead of raising.

Glossary of the infraction kinds:

- ``out_of_turn``: a card played or a bid made by the wrong seat (refused: the
  card goes back to the hand, the bid is not counted);
- ``illegal_bid``: a bid not higher than the highest bid, outside 2 to 4, a
  pass the dealer may not make, or any call after the auction;
- ``revoke``: a failure to follow proven by later play (§12.3), naming both tricks;
- ``seen_twice``: one card recognised twice in a hand (a misread or a foul deck);
- ``wrong_count``: a trick collected with fewer than four cards seen, or a hand
  that ended with a trick unfinished;
- ``illegal_discard``: discards by a seat other than the bidder, of the wrong
  number, or breaking the trump-discard rule (§6.4; handled like a revoke, §10,
  so under ``revoke_policy = bid_setback`` the bidder's team loses the bid);
- ``trump_mismatch``: an announced trump that is not the suit of the first lead;
- ``missing_discards``: the next hand was dealt before the discards were shown;
- ``incomplete_hand``: the next hand was dealt before six tricks were played;
- ``wrong_dealer``: a hand dealt by a seat other than the one due to deal;
- ``point_total``: card points that cannot add up to 80 (a probable misread);
- ``not_dealt``: a call or card after a misdeal or an all-pass, before the next deal (ignored);
- ``illegal_misdeal``: a misdeal called after the auction started (ignored);
- ``after_game_over``: an event after the game was won (ignored).

The event types are documented, with an example each, in ``docs/table-log.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.cards import Card, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.referee import (
    REPEAT_WINDOW_NS,
    Infraction,
    Referee,
    RefereeReport,
    Ruling,
    TableEvent,
    format_seconds,
    sync_end_ruling,
)
from kiosk.games.smear_referee_view import SmearTableView
from kiosk.games.smear_rules import (
    HAND_SIZE,
    MAX_BID,
    MIN_BID,
    NUM_SEATS,
    PACK_POINTS,
    TRICKS_PER_HAND,
    HandScore,
    SmearOptions,
    auction_order,
    card_points,
    discard_fits_lead,
    left_of,
    legal_bids,
    may_pass,
    score_hand,
    settle_hand,
    smear_deck,
    team_of,
)
from kiosk.games.tricks import (
    OUT_OF_TURN,
    REVOKE,
    SEEN_TWICE,
    WRONG_COUNT,
    ClaimBook,
    TrickHistory,
    follow_claim,
    proof_problem,
    suit_name,
)

__all__ = ["SmearReferee", "SMEAR_EVENT_TYPES", "history_to_events"]

SMEAR_EVENT_TYPES = frozenset(
    {"deal", "misdeal", "bid", "pass", "trump", "discard", "play", "collect", "blind"}
)
"""The Smear event types of a table log (see ``docs/table-log.md``)."""

_PACK = frozenset(smear_deck())


@dataclass
class _Hand:
    """One hand as the referee has seen it so far."""

    number: int
    dealer: int
    due: int | None = None
    """The seat that was due to deal this hand (None for the first hand)."""
    calls: list[tuple[int, int | None]] = field(default_factory=list)
    high: int = 0
    bidder: int | None = None
    auction_over: bool = False
    tricks: TrickHistory | None = None
    claims: ClaimBook = field(default_factory=ClaimBook)
    seen: dict[Card, str] = field(default_factory=dict)
    """Where each card was first seen: ``"trick 3"``, ``"the discards"``, ``"the blind"``."""
    announced: Suit | None = None
    """The last trump announced (shown as trump until the first lead names it)."""
    unchecked: list[tuple[Suit, int | None]] = field(default_factory=list)
    """Every trump announced before the first lead, with the seat that announced it (None if the
    log names none): each must match that card's suit (§7.1)."""
    discards: tuple[Card, ...] | None = None
    unseen: tuple[Card, ...] | None = None
    revoke_seat: int | None = None
    """The seat of the first revoke proven in this hand."""
    score: HandScore | None = None
    abandoned: str = ""
    """Why the hand was given up without score ("misdeal", "all passed"), or empty."""

    @property
    def trump(self) -> Suit | None:
        return self.tricks.trump if self.tricks is not None else None

    @property
    def played_out(self) -> bool:
        return self.tricks is not None and len(self.tricks.completed) >= TRICKS_PER_HAND


def _card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise InvalidActionError(f"{what} must be a card such as \"10H\", got {value!r}", input=repr(value))
    card = Card.parse(value)
    if card not in _PACK:
        raise InvalidActionError(
            f"{what} {value!r} is not in the 32-card Smear pack (A K Q J 10 9 8 7 of each suit)", input=value
        )
    return card


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidActionError(f"{what} must be a list of cards such as [\"10C\", \"8H\"], got {value!r}",
                                 input=repr(value))
    return tuple(_card(v, what) for v in value)


class SmearReferee(Referee):
    """Referees a Smear table log: scores each hand and reports infractions."""

    game_name = "smear"
    event_types = SMEAR_EVENT_TYPES

    def __init__(self, seats: Sequence[str], options: SmearOptions) -> None:
        if len(seats) != NUM_SEATS:
            raise InvalidActionError(f"Smear takes exactly 4 seats, got {len(seats)}", input=str(list(seats)))
        super().__init__(seats, options)
        self.options: SmearOptions = options

    # -- state ------------------------------------------------------------------------
    def _reset(self) -> None:
        self._hand: _Hand | None = None
        self._last: _Hand | None = None
        """The hand before the current one: its unseen blind may still be turned up."""
        self._deals = 0
        self._next_dealer: int | None = None
        self._scores = [0, 0]
        self._rows: list[tuple[HandScore | None, tuple[int, int], str]] = []
        """One row per hand dealt: its scoring (None if not scored), the change, and why not scored."""
        self._winner: int | None = None
        self._rulings: list[Ruling] = []
        self._infractions: list[Infraction] = []
        self._repeats: list[str] = []
        """Notes on lines recognised as the event before them logged again (see _feed)."""

    def _team_name(self, team: int) -> str:
        a, b = self.seats[team], self.seats[team + 2]
        return a + b if len(a) == 1 and len(b) == 1 else f"{a} & {b}"

    def _flag(self, event: TableEvent, kind: str, text: str, seat: int | None = None) -> None:
        name = self.seats[seat] if seat is not None else event.seat
        self._infractions.append(Infraction(event.t_ns, kind, text, name, event.line))

    def _rule(self, event: TableEvent, kind: str, text: str, seats: Sequence[int] = (),
              data: dict[str, Any] | None = None) -> Ruling:
        ruling = Ruling(event.t_ns, kind, text, tuple(self.seats[s] for s in seats), data or {})
        self._rulings.append(ruling)
        return ruling

    def _need_hand(self, event: TableEvent) -> _Hand:
        if self._hand is None:
            raise InvalidActionError(
                f"{event.type!r} event before any hand was dealt: a 'deal' event must start each hand",
                input=event.type,
            )
        return self._hand

    # -- events -------------------------------------------------------------------------
    def _feed(self, event: TableEvent) -> list[Ruling]:
        handler = getattr(self, f"_on_{event.type}")
        parsed = self._parse(event)
        if event.type != "play" and self._repeats_last(event, REPEAT_WINDOW_NS):
            # The event just logged, seen again within a camera frame (docs/table-log.md, "Lines
            # logged twice"): nobody deals, calls, names trumps, sweeps or turns cards up twice that
            # fast, so it is the same event and changes nothing (no out-of-turn call, second
            # discard, redeal or hand dealt without play). A repeated play is judged by _on_play.
            self._mark_repeat(event)
            self._repeats.append(f"{event.type} at {format_seconds(event.t_ns)} s logged twice: ignored")
            return []
        if (
            self._winner is not None
            and event.type not in ("blind", "collect", "discard")
            and not (event.type == "play" and self._is_last_card(*parsed))
        ):
            # The last hand's cards may still be turned up and swept after the winning score, and
            # the card that won it logged again is that play seen twice (docs/table-log.md: "a
            # play logged twice is seen_twice"), which _on_play reports, not a later event.
            self._flag(event, "after_game_over",
                       f"{event.type} after the game was won by {self._team_name(self._winner)}: ignored")
            return []
        if event.type != "deal" and self._hand is not None and self._hand.abandoned:
            self._flag(event, "not_dealt", f"{event.type} after hand {self._hand.number} was given up "
                       f"({self._hand.abandoned}) and before the next deal: ignored")
            return []
        out: list[Ruling] = handler(event, *parsed)
        return out

    def _is_last_card(self, seat: int, card: Card) -> bool:
        """True if ``seat`` played ``card`` as the last card of the played-out current hand."""
        hand = self._hand
        return (
            hand is not None
            and hand.tricks is not None
            and hand.played_out
            and hand.tricks.completed[-1].plays[-1] == (seat, card)
        )

    def _parse(self, event: TableEvent) -> tuple[Any, ...]:
        """Checks the event's fields before anything changes; returns the handler's arguments."""
        t = event.type
        seat: int | None = None
        if t in ("deal", "bid", "pass", "play", "discard") or event.seat is not None:
            seat = self.seat_index(event.seat)
        if t == "bid":
            bid = event.require("bid")
            if isinstance(bid, bool) or not isinstance(bid, int):
                raise InvalidActionError(f"'bid' must be a whole number 2 to 4, got {bid!r}", input=repr(bid))
            self._need_hand(event)
            return (seat, bid)
        if t == "play":
            card = _card(event.require("card"), "'card'")
            self._need_hand(event)
            return (seat, card)
        if t == "discard":
            cards = _cards(event.require("cards"), "'cards'")
            self._need_hand(event)
            return (seat, cards)
        if t == "blind":
            cards = _cards(event.require("cards"), "'cards'")
            self._need_hand(event)
            return (cards,)
        if t == "trump":
            suit_text = event.require("suit")
            if not isinstance(suit_text, str):
                raise InvalidActionError(f"'suit' must be S, H, D or C, got {suit_text!r}",
                                         input=repr(suit_text))
            suit = Suit.parse(suit_text)
            self._need_hand(event)
            return (suit, seat)
        if t in ("pass", "collect", "misdeal"):
            self._need_hand(event)
        return (seat,)

    def _on_deal(self, event: TableEvent, dealer: int) -> list[Ruling]:
        self._close_hand(event)
        if self._winner is not None:
            # The hand this deal closed (scored without its discards) won the game (§9): the
            # deal itself comes after the game, and no new hand starts.
            self._flag(event, "after_game_over",
                       f"deal after the game was won by {self._team_name(self._winner)}: ignored")
            return []
        if self._next_dealer is not None and dealer != self._next_dealer:
            self._flag(event, "wrong_dealer",
                       f"{self.seats[dealer]} dealt, but {self.seats[self._next_dealer]} was due to deal",
                       dealer)
        self._deals += 1
        self._last, self._hand = self._hand, _Hand(self._deals, dealer, self._next_dealer)
        self._next_dealer = dealer
        return [self._rule(event, "deal", f"hand {self._deals}: {self.seats[dealer]} deals", [dealer])]

    def _on_misdeal(self, event: TableEvent, seat: int | None) -> list[Ruling]:
        hand = self._need_hand(event)
        if hand.calls:
            # §4.4: a misdeal is found before the auction starts; after the first call the hand stands.
            self._flag(event, "illegal_misdeal",
                       f"misdeal called in hand {hand.number} after the auction started: ignored "
                       "(a misdeal must be called before the first bid or pass)", seat)
            return []
        hand.abandoned = "misdeal"
        self._rows.append((None, (0, 0), "misdeal"))
        # §4.4: the same dealer deals again, and the deal passes only after a completed hand
        # (§4.5): a void hand dealt by a seat that was not due leaves due the seat that was.
        nxt = hand.dealer if hand.due is None else hand.due
        self._next_dealer = nxt
        return [self._rule(event, "misdeal",
                           f"misdeal in hand {hand.number}: {self.seats[nxt]} deals "
                           f"{'again' if nxt == hand.dealer else '(the seat due)'}",
                           [nxt]), *self._end_on_corrections(event)]

    def _call_check(self, event: TableEvent, hand: _Hand, seat: int, what: str) -> bool:
        if hand.auction_over:
            self._flag(event, "illegal_bid", f"{self.seats[seat]} {what} after the auction ended: refused",
                       seat)
            return False
        expected = auction_order(hand.dealer)[len(hand.calls)]
        if seat != expected:
            self._flag(event, OUT_OF_TURN, f"{self.seats[seat]} {what} out of turn: "
                       f"{self.seats[expected]} is to bid; refused", seat)
            return False
        return True

    def _on_bid(self, event: TableEvent, seat: int, bid: int) -> list[Ruling]:
        hand = self._need_hand(event)
        if not self._call_check(event, hand, seat, f"bid {bid}"):
            return []
        allowed = legal_bids(self.options, hand.high, is_dealer=seat == hand.dealer)
        if bid not in allowed:
            why = (f"bids are {MIN_BID} to {MAX_BID}" if not MIN_BID <= bid <= MAX_BID
                   else f"the highest bid is {hand.high}")
            self._flag(event, "illegal_bid", f"{self.seats[seat]} bid {bid}: {why} "
                       f"(allowed: {', '.join(map(str, allowed)) or 'pass only'}); refused", seat)
            return []
        hand.calls.append((seat, bid))
        hand.high, hand.bidder = bid, seat
        return self._after_call(event, hand)

    def _on_pass(self, event: TableEvent, seat: int) -> list[Ruling]:
        hand = self._need_hand(event)
        if not self._call_check(event, hand, seat, "passed"):
            return []
        if not may_pass(self.options, hand.high, is_dealer=seat == hand.dealer):
            self._flag(event, "illegal_bid", f"{self.seats[seat]} passed, but the dealer must bid when the "
                       "other three have passed; refused", seat)
            return []
        hand.calls.append((seat, None))
        return self._after_call(event, hand)

    def _after_call(self, event: TableEvent, hand: _Hand) -> list[Ruling]:
        if hand.high < MAX_BID and len(hand.calls) < NUM_SEATS:
            return []
        hand.auction_over = True
        if hand.bidder is None:
            # §5.3: the same dealer deals again; as after a misdeal (§4.4), a hand dealt by a seat
            # that was not due and given up uncompleted leaves due the seat that was (§4.5).
            same = hand.dealer if hand.due is None else hand.due
            nxt = left_of(hand.dealer) if self.options.all_pass == "redeal_next_dealer" else same
            hand.abandoned = "all passed"
            self._rows.append((None, (0, 0), "all passed"))
            self._next_dealer = nxt
            # "again" only for the seat that dealt this hand: under redeal_next_dealer the deal
            # passes to the left (§5.3), and that seat has not dealt yet.
            again = "again" if nxt == hand.dealer else "(the seat due)" if nxt == same else "next"
            return [self._rule(event, "all_passed", f"hand {hand.number}: all passed, no score; "
                               f"{self.seats[nxt]} deals {again}", [nxt]), *self._end_on_corrections(event)]
        hand.tricks = TrickHistory(NUM_SEATS, hand.bidder)
        return [self._rule(event, "contract", f"hand {hand.number}: {self.seats[hand.bidder]} bids "
                           f"{hand.high} for {self._team_name(team_of(hand.bidder))} and leads",
                           [hand.bidder], {"bid": hand.high})]

    def _on_trump(self, event: TableEvent, suit: Suit, seat: int | None) -> list[Ruling]:
        hand = self._need_hand(event)
        if hand.trump is not None and hand.trump is not suit:
            # A wrong announcement is the announcer's; one the log names no seat for is taken as
            # the bidder's, who fixes trump by leading (§7.1).
            self._flag(event, "trump_mismatch", f"trump announced as {suit_name(suit)}, but the first card "
                       f"led was a {suit_name(hand.trump)[:-1]}: trump is {suit_name(hand.trump)}",
                       seat if seat is not None else hand.bidder)
        elif hand.trump is None:
            # A later announcement must not hide an earlier one that differs: each is
            # judged against the first card led (§7.1).
            hand.unchecked.append((suit, seat))
        hand.announced = suit
        return []

    def _see(self, event: TableEvent, hand: _Hand, card: Card, where: str, seat: int | None) -> None:
        before = hand.seen.get(card)
        if before is not None:
            who = f" from {self.seats[seat]}" if seat is not None else ""
            self._flag(event, SEEN_TWICE, f"{card} seen twice in hand {hand.number}: in {before} and "
                       f"again{who} in {where} (a misread or a foul deck)", seat)
        else:
            hand.seen[card] = where

    def _on_play(self, event: TableEvent, seat: int, card: Card) -> list[Ruling]:
        hand = self._need_hand(event)
        tricks = hand.tricks
        if tricks is None:
            self._flag(event, OUT_OF_TURN, f"{self.seats[seat]} played {card} before the auction ended: "
                       "the card goes back to the hand", seat)
            return []
        earlier = [n for n, t in enumerate((*tricks.completed, tricks.current), 1) if (seat, card) in t.plays]
        # The hand's last card logged again in a row is that play logged twice, not a 25th card.
        last = tricks.completed[-1].plays[-1] if hand.played_out else None
        if earlier and (not hand.played_out or last == (seat, card)):
            # Hands only shrink (§12.3): a seat cannot play a card it has already played this hand.
            # Seen again from the same seat it is the same play logged twice (or a misread), not a
            # new card: counting it would make it the seat's next card (a trick winner's next
            # lead) and shift every card after it. Checked before the turn: the card is on the
            # table, so it is no out-of-turn card that "goes back to the hand" (docs/table-log.md:
            # a play logged twice is seen_twice).
            self._flag(event, SEEN_TWICE, f"{card} seen twice in hand {hand.number}: {self.seats[seat]} "
                       f"already played it in trick {earlier[0]}; ignored (show the card again)", seat)
            return []
        if hand.played_out:
            self._flag(event, WRONG_COUNT, f"{self.seats[seat]} played {card} after the sixth trick of hand "
                       f"{hand.number}: ignored", seat)
            return []
        number = tricks.trick_number
        expected = tricks.to_play
        if seat != expected:
            verb = "lead" if not tricks.current.plays else "play"
            self._flag(event, OUT_OF_TURN, f"{self.seats[seat]} played {card} out of turn in trick {number}: "
                       f"{self.seats[expected]} is to {verb}; the card goes back to the hand", seat)
            return []
        rulings: list[Ruling] = []
        if tricks.trump is None:
            tricks.trump = card.suit  # the first card led names trump (§7.1)
            assert card.suit is not None
            for announced, by in hand.unchecked:
                if announced is not card.suit:
                    # Named as when the announcement follows the lead: the announcer, else the leader.
                    self._flag(event, "trump_mismatch", f"trump announced as {suit_name(announced)}, but "
                               f"{self.seats[seat]} led {card}: trump is {suit_name(card.suit)}",
                               by if by is not None else seat)
            rulings.append(self._rule(event, "trump", f"trump is {suit_name(card.suit)}", [seat]))
        self._see(event, hand, card, f"trick {number}", seat)
        for proof in hand.claims.observe(seat, card, number):
            problem = proof_problem(proof, self.seats)
            self._flag(event, REVOKE, problem.text, seat)
            if hand.revoke_seat is None:
                hand.revoke_seat = seat
        led = tricks.current.led_suit
        trumping_instead = (self.options.follow_rule == "follow_or_trump" and card.suit is tricks.trump
                            and led is not tricks.trump)
        if not trumping_instead:
            hand.claims.add(follow_claim(seat, number, card, led, self.seats[seat]))
        done = tricks.play(seat, card)
        if done is not None:
            rulings.append(self._rule(event, "trick", f"trick {number} to {self.seats[done.winner]} "
                                      f"({done.format(self.seats)})", [done.winner]))
            if hand.played_out:
                rulings.extend(self._try_score(event, hand))
        return rulings

    def _on_collect(self, event: TableEvent, seat: int | None) -> list[Ruling]:
        hand = self._need_hand(event)
        tricks = hand.tricks
        if tricks is not None and 0 < len(tricks.current.plays) < NUM_SEATS:
            self._flag(event, WRONG_COUNT, f"trick {tricks.trick_number} of hand {hand.number} was collected "
                       f"with {len(tricks.current.plays)} of 4 cards seen "
                       f"({tricks.current.format(self.seats)}): show the trick again")
        return []

    def _on_discard(self, event: TableEvent, seat: int, cards: tuple[Card, ...]) -> list[Ruling]:
        hand = self._need_hand(event)
        n = self.options.blind_cards
        if not hand.auction_over or hand.bidder is None:
            self._flag(event, "illegal_discard", f"{self.seats[seat]} showed discards before the auction "
                       "ended: ignored", seat)
            return []
        if seat != hand.bidder:
            self._flag(event, "illegal_discard", f"{self.seats[seat]} showed discards, but only the bidder "
                       f"{self.seats[hand.bidder]} discards: ignored", seat)
            return []
        if hand.discards is not None:
            self._flag(event, "illegal_discard", f"{self.seats[seat]} showed discards twice in hand "
                       f"{hand.number}: the first ones stand", seat)
            return []
        if n == 0:
            # §6.1: without a blind nobody discards; such cards must not count for Game (§8.4).
            self._flag(event, "illegal_discard", f"{self.seats[seat]} showed discards, but the game is "
                       "played without a blind (blind_cards = 0): ignored", seat)
            return []
        if len(cards) != n:
            self._flag(event, "illegal_discard", f"{self.seats[seat]} discarded {len(cards)} cards, but the "
                       f"game is played with a blind of {n}", seat)
        for c in cards:
            self._see(event, hand, c, "the discards", seat)
        hand.discards = cards
        return self._try_score(event, hand) if hand.played_out else []

    def _on_blind(self, event: TableEvent, cards: tuple[Card, ...]) -> list[Ruling]:
        hand = self._need_hand(event)
        last = self._last
        if not hand.seen and hand.unseen is None and last is not None and last.score is not None \
                and last.unseen is None and not any(c in last.seen for c in cards):
            # The unseen blind is turned up after its hand (docs/table-log.md): before any card
            # of this hand is seen, cards that complete the scored hand before it are that
            # hand's blind, shown after the next deal, and are checked against that hand
            # (§12.5), not this one.
            hand = last
        if hand.unseen is not None:
            self._flag(event, SEEN_TWICE, f"the blind of hand {hand.number} was shown twice: "
                       "the first showing stands")
            return []
        expected = 8 - self.options.blind_cards
        if len(cards) != expected:
            self._flag(event, WRONG_COUNT, f"the unseen blind of hand {hand.number} has {len(cards)} cards, "
                       f"expected {expected}")
        for c in cards:
            self._see(event, hand, c, "the blind", None)
        hand.unseen = cards
        if hand.score is not None:
            self._check_total(event, hand)
        return []

    # -- scoring ---------------------------------------------------------------------------
    def _try_score(self, event: TableEvent, hand: _Hand, *, force: bool = False) -> list[Ruling]:
        if hand.score is not None or not hand.played_out:
            return []
        if self.options.blind_cards and hand.discards is None and not force:
            return []  # wait for the discards: they count for Game
        return self._score(event, hand)

    def _discard_problem(self, bidder: int, kept: Sequence[Card], discards: Sequence[Card],
                         trump: Suit) -> str:
        """The text of an illegal trump discard, naming the rule that applied: the bidder
        must keep ``min(T, 6)`` of its ``T`` trumps, or, under ``only_if_over_six``, may
        discard none with six or fewer (§6.4, §11), so "fewer than six" is no rule when T < 6."""
        thrown = [c for c in discards if c.suit is trump]
        kept_trumps = sum(1 for c in kept if c.suit is trump)
        held = kept_trumps + len(thrown)
        if self.options.trump_discard_rule == "only_if_over_six":
            rule = ("with six or fewer trumps no trump may be discarded "
                    "(trump_discard_rule = only_if_over_six)")
        else:
            rule = f"the bidder must keep min({held}, {HAND_SIZE}) = {min(held, HAND_SIZE)} of them"
        return (f"{self.seats[bidder]} discarded {' '.join(str(c) for c in thrown)} of trump "
                f"({suit_name(trump)}), keeping {kept_trumps} of its {held} trumps: {rule} (§6.4)")

    def _score(self, event: TableEvent, hand: _Hand) -> list[Ruling]:
        tricks = hand.tricks
        assert tricks is not None and hand.bidder is not None and tricks.trump is not None
        discards = hand.discards or ()
        trump = tricks.trump
        illegal_discard = False
        if discards and self.options.blind_cards:
            kept = [c for t in tricks.completed for s, c in t.plays if s == hand.bidder]
            if not discard_fits_lead(self.options, kept + list(discards), discards, trump):
                illegal_discard = True
                self._flag(event, "illegal_discard",
                           self._discard_problem(hand.bidder, kept, discards, trump), hand.bidder)
        # §10: an illegal trump discard is handled like a revoke ("same"), so under
        # revoke_policy = bid_setback it costs the bidder's team the bid. A revoke proven
        # in the play is charged first; the hand carries one penalty.
        revoke_team: int | None = None
        charge = "revoke"
        if hand.revoke_seat is not None:
            revoke_team = team_of(hand.revoke_seat)
        elif illegal_discard:
            revoke_team, charge = team_of(hand.bidder), "illegal trump discard"
        score = score_hand(self.options, bidder=hand.bidder, bid=hand.high, tricks=tricks.completed,
                           discards=discards, revoke_team=revoke_team)
        hand.score = score
        # The scores so far with the table's corrections: the cap and the end of the game
        # (§9) judge this hand against them.
        before = self._settled(len(self._rows))[1]
        result = settle_hand(self.options, before, score)
        change = (result.scores[0] - before[0], result.scores[1] - before[1])
        self._rows.append((score, change, ""))
        # A correction the table logged for this hand while it was being played replaces its
        # score now that it is scored; the end of the game (§9) is judged on that.
        _, scores, winner = self._settled(len(self._rows))
        self._scores = list(scores)
        self._next_dealer = left_of(hand.dealer)
        rulings = [self._rule(event, "hand_end", self._hand_text(hand.number, score, scores, charge, change),
                              [hand.bidder], {"hand": hand.number})]
        self._check_total(event, hand)
        if winner is not None:
            self._winner = w = winner
            rulings.append(self._rule(
                event, "game_over", f"{self._team_name(w)} win, {scores[w]} to {scores[1 - w]}", [w, w + 2],
            ))
        rulings.extend(self._end_on_corrections(event))
        return rulings

    def _end_on_corrections(self, event: TableEvent) -> list[Ruling]:
        """The end of the game (§9) once a hand's row is on the sheet, judged on the corrected
        scores: a correction logged before the hand was scored (or passed out, or misdealt) may
        name it, and it replaces that hand's score (docs/table-log.md), so the game ends with this
        hand, not a hand later."""
        if not self._corrections or self._winner is not None:
            return []
        _, final, winner = self._settled(len(self._rows))
        self._scores = list(final)
        if winner is None:
            return []
        self._winner = winner
        return [self._rule(event, "game_over", f"{self._team_name(winner)} win, {final[winner]} to "
                           f"{final[1 - winner]}", [winner, winner + 2])]

    def _hand_text(self, number: int, s: HandScore, scores: tuple[int, int], charge: str = "revoke",
                   change: tuple[int, int] | None = None) -> str:
        bt = s.bidder_team
        names = self._team_name(0), self._team_name(1)
        change = s.deltas if change is None else change
        # The change announced is the one on the score sheet: nonbidder_score_cap may cut the
        # non-bidders' gain (§11, max(old, min(old + gained, cap))), so say what it cut.
        changes = ", ".join(f"{names[t]} {change[t]:+d}" for t in (0, 1))
        changes += "".join(f" ({names[t]}'s {s.deltas[t]:+d} capped at {self.options.nonbidder_score_cap})"
                           for t in (0, 1) if change[t] != s.deltas[t])
        won = ", ".join(f"{p} {names[t]}" for p, t in (("High", s.high), ("Low", s.low), ("Jack", s.jack),
                                                         ("Game", s.game)) if t is not None)
        outcome = "made" if s.made else "set"
        if s.revoke_team is not None:
            outcome = f"{charge} by {names[s.revoke_team]}: {names[s.revoke_team]} lose the bid"
        return (f"hand {number}: {names[bt]} bid {s.bid} in {suit_name(s.trump)}; {won or 'no Points'}; "
                f"card points {names[0]} {s.card_points[0]}, {names[1]} {s.card_points[1]}; {outcome}: "
                f"{changes}; "
                f"score {names[0]} {scores[0]}, {names[1]} {scores[1]}")

    def _check_total(self, event: TableEvent, hand: _Hand) -> None:
        s = hand.score
        assert s is not None
        counted = s.card_points[0] + s.card_points[1]
        if hand.unseen is not None and (hand.discards is not None or not self.options.blind_cards):
            unseen = sum(card_points(c) for c in hand.unseen)
            if counted + unseen != PACK_POINTS:
                self._flag(event, "point_total", f"hand {hand.number}: card points {counted} counted + "
                           f"{unseen} in the unseen blind = {counted + unseen}, not 80 (a probable misread)")
        elif counted > PACK_POINTS:
            self._flag(event, "point_total", f"hand {hand.number}: {counted} card points counted, more than "
                       "the pack's 80 (a probable misread)")

    def _close_hand(self, event: TableEvent) -> None:
        """A new deal ends the hand before it: score it or say why it cannot be."""
        hand = self._hand
        if hand is None or hand.score is not None or hand.abandoned:
            return
        if hand.played_out:
            self._flag(event, "missing_discards", f"hand {hand.number} ended without the bidder's discards "
                       "being shown: scored without them", hand.bidder)
            self._score(event, hand)
            return
        # §4.5: the deal passes only after a completed hand, so a hand given up unfinished leaves
        # due the seat that was due for it (a wrong seat's stray deal does not move the deal).
        if hand.due is not None:
            self._next_dealer = hand.due
        if hand.auction_over and hand.tricks is not None:
            n = len(hand.tricks.completed)
            if hand.tricks.current.plays:
                self._flag(event, WRONG_COUNT, f"hand {hand.number} ended with trick {n + 1} unfinished "
                           f"({hand.tricks.current.format(self.seats)})")
            self._flag(event, "incomplete_hand", f"hand {hand.number} ended after {n} of 6 tricks: "
                       "not scored (correct the score by hand if the table agrees)")
            self._rows.append((None, (0, 0), f"ended after {n} of 6 tricks"))
        else:
            self._flag(event, "incomplete_hand", f"hand {hand.number} ended during the auction: not scored")
            self._rows.append((None, (0, 0), "ended during the auction"))
        # Its row is on the sheet now: a correction logged before may name it (then the deal that
        # ended it comes after the game).
        self._end_on_corrections(event)

    # -- public view -------------------------------------------------------------------------
    def public_view(self) -> SmearTableView:
        """What everyone at the table can see: the auction, the contract, trump, the trick in
        play, tricks won, the shown discards and the team scores.

        >>> ref = SmearReferee(["Ana", "Ben", "Cal", "Dee"], SmearOptions(blind_cards=0))
        >>> _ = ref.feed(TableEvent("deal", 0, seat="Ana"))
        >>> _ = ref.feed_all(TableEvent("pass" if s != "Cal" else "bid", t, seat=s, data={"bid": 3})
        ...                  for t, s in ((1, "Ben"), (2, "Cal"), (3, "Dee"), (4, "Ana")))
        >>> _ = ref.feed(TableEvent("play", 5, seat="Cal", data={"card": "AH"}))
        >>> v = ref.public_view()
        >>> v.hand, v.phase, v.calls, v.bidder, v.bid, v.trump.letter, v.to_play
        (1, 'play', ((1, None), (2, 3), (3, None), (0, None)), 2, 3, 'H', 3)
        """
        hand = self._hand
        scores = (self._scores[0], self._scores[1])
        over = self._winner is not None
        if hand is None:
            return SmearTableView(0, None, "over" if over else "deal", (), None, None, 0, None, None, None,
                                  None, None, (0,) * NUM_SEATS, None, scores, self._winner, over)
        tricks = hand.tricks
        to_bid: int | None = None
        if not hand.auction_over and not hand.abandoned:
            to_bid = auction_order(hand.dealer)[len(hand.calls)]
        if over:
            phase = "over"
        elif hand.abandoned:
            phase = "abandoned"
        elif hand.score is not None:
            phase = "scored"
        elif tricks is None:
            phase = "auction"
        elif hand.played_out:
            phase = "discards"
        else:
            phase = "play"
        return SmearTableView(
            hand=hand.number,
            dealer=hand.dealer,
            phase=phase,
            calls=tuple(hand.calls),
            to_bid=to_bid,
            bidder=hand.bidder,
            bid=hand.high,
            trump=hand.trump if hand.trump is not None else hand.announced,
            trick_number=None if tricks is None else tricks.trick_number,
            current_trick=None if tricks is None else tricks.current,
            last_trick=None if tricks is None else tricks.last,
            to_play=tricks.to_play if tricks is not None and phase == "play" else None,
            tricks_won=tuple(tricks.tricks_won(s) if tricks is not None else 0 for s in range(NUM_SEATS)),
            discards=hand.discards,
            team_scores=scores,
            winner_team=self._winner,
            game_over=over,
        )

    # -- report -------------------------------------------------------------------------------
    def feed(self, event: TableEvent) -> list[Ruling]:
        rulings = super().feed(event)
        if event.type == "score_correction":
            rulings.extend(self._resettle(event))
        return rulings

    def _resettle(self, event: TableEvent) -> list[Ruling]:
        """The end of the game follows the corrected scores (docs/table-log.md): a correction
        may end the game, announced with the ``game_over`` ruling that ends every Smear game
        (§9), or, undoing a win, let the table play on."""
        before = self._winner
        _, scores, winner = self._settled(len(self._rows))
        self._scores, self._winner = list(scores), winner
        # Only a correction that ends the game announces it; one that changes the winners of a
        # game already over changes the seats and text of that game_over (docs/table-log.md),
        # which report() brings up to date: a second announcement would end the game twice.
        if winner is None or before is not None:
            return []
        return [self._rule(event, "game_over", f"{self._team_name(winner)} win, {scores[winner]} to "
                           f"{scores[1 - winner]}", [winner, winner + 2])]

    def _refold_correction(self, fix: TableEvent) -> None:
        # An undo re-folds with each correction back in its place, so a game the table's
        # correction ended (§9) stays ended.
        self._resettle(fix)

    def report(self) -> RefereeReport:
        """The report with the table's score corrections applied, shared by partners (§3: a
        team's score belongs to both), and every hand re-settled on the corrected scores with
        the game's own rules (§9, :func:`~kiosk.games.smear_rules.settle_hand`): the cap of an
        uncorrected hand applies to the corrected score before it, and the first hand that
        ends the game names the winners."""
        rep = super().report()
        if not self._corrections:
            return rep
        rows, _, winner = self._settled(len(rep.hands))
        rep.hands = [{name: d[team_of(s)] for s, name in enumerate(self.seats)} for d in rows]
        rep.totals = {name: sum(h[name] for h in rep.hands) for name in self.seats}
        team_names = self._team_name(0), self._team_name(1)
        rep.extra["teams"] = {team_names[t]: rep.totals[self.seats[t]] for t in (0, 1)}
        # Each scored hand's "change" is what went onto the score sheet: the corrected row, or
        # the hand re-settled (and capped) on the corrected scores before it.
        for detail, d in zip(rep.extra["hands"], rows, strict=False):
            if "change" in detail:
                detail["change"] = {team_names[0]: d[0], team_names[1]: d[1]}
        rep.finished = winner is not None
        rep.winners = [] if winner is None else [self.seats[winner], self.seats[winner + 2]]
        text = "" if winner is None else (
            f"{team_names[winner]} win, {rep.totals[self.seats[winner]]} to "
            f"{rep.totals[self.seats[1 - winner]]}")
        sync_end_ruling(rep, "game_over", text, max(c.t_ns for c in self._corrections))
        return rep

    def _settled(self, n_hands: int) -> tuple[list[tuple[int, int]], tuple[int, int], int | None]:
        """The first ``n_hands`` hands settled on corrected scores (§8.5, §9): each hand's change
        per team, the scores after them, and the winning team (None while the game goes on).

        A correction replaces a team's change for a hand (the later correction wins); what the
        table agreed is not capped again. An uncorrected hand is capped against the corrected
        score before it (``nonbidder_score_cap``: ``max(old, min(old + gained, cap))``)."""
        fixed: dict[tuple[int, int], int] = {}
        for c in self._corrections:
            fixed[int(c.data["hand"]) - 1, team_of(self.seat_index(c.seat))] = int(c.data["score"])
        uncapped = dataclasses.replace(self.options, nonbidder_score_cap=None)
        target = self.options.target_score
        rows: list[tuple[int, int]] = []
        scores = (0, 0)
        winner: int | None = None
        for i in range(n_hands):
            score = self._rows[i][0] if i < len(self._rows) else None
            if score is not None:
                natural = settle_hand(self.options, scores, score).scores
                deltas = (fixed.get((i, 0), natural[0] - scores[0]),
                          fixed.get((i, 1), natural[1] - scores[1]))
                result = settle_hand(uncapped, scores, dataclasses.replace(score, deltas=deltas))
                new, won = result.scores, result.winner
            else:
                # A hand without a contract (not scored, or corrected by hand only): no bidder to
                # favour, so only one team over the target or a strictly higher score ends the game.
                new = (scores[0] + fixed.get((i, 0), 0), scores[1] + fixed.get((i, 1), 0))
                reached = [t for t in (0, 1) if new[t] >= target]
                won = None
                if not self.options.win_requires_made_bid and reached and new[0] != new[1]:
                    won = reached[0] if len(reached) == 1 else (0 if new[0] > new[1] else 1)
            rows.append((new[0] - scores[0], new[1] - scores[1]))
            scores = new
            if winner is None:
                winner = won
        return rows, scores, winner

    def _report(self) -> RefereeReport:
        hands = [{self.seats[s]: d[team_of(s)] for s in range(NUM_SEATS)} for _, d, _ in self._rows]
        totals = {self.seats[s]: self._scores[team_of(s)] for s in range(NUM_SEATS)}
        winners = [] if self._winner is None else [self.seats[self._winner], self.seats[self._winner + 2]]
        names = self._team_name(0), self._team_name(1)
        details: list[dict[str, Any]] = []
        for h, d, why in self._rows:
            if h is None:
                details.append({"not_scored": why})
                continue
            details.append({
                "bidder": self.seats[h.bidder], "bid": h.bid, "trump": h.trump.letter,
                "high": None if h.high is None else names[h.high],
                "low": None if h.low is None else names[h.low],
                "jack": None if h.jack is None else names[h.jack],
                "game": None if h.game is None else names[h.game],
                # The cards that decided High and Low (smear.md §13's "Decided by" column).
                "high_card": None if h.high_card is None else str(h.high_card),
                "low_card": None if h.low_card is None else str(h.low_card),
                "points": {names[0]: h.points[0], names[1]: h.points[1]},
                "card_points": {names[0]: h.card_points[0], names[1]: h.card_points[1]},
                "made": h.made,
                "change": {names[0]: d[0], names[1]: d[1]},
            })
        notes = list(self._repeats)
        if self._hand is not None and self._hand.score is None and self._hand.played_out:
            notes.append(f"hand {self._hand.number} is waiting for the bidder's discards to be shown")
        return RefereeReport(
            game=self.game_name, seats=self.seats, rulings=list(self._rulings),
            infractions=list(self._infractions), hands=hands, totals=totals,
            finished=self._winner is not None, winners=winners, notes=notes,
            extra={"teams": {names[0]: self._scores[0], names[1]: self._scores[1]}, "hands": details},
        )


def history_to_events(history: Sequence[object], seats: Sequence[str], options: SmearOptions, *,
                      start_ns: int = 0, step_ns: int = 1_000_000_000) -> list[TableEvent]:
    """The table log a kiosk would record for a game played on the strict path.

    ``history`` is a :meth:`~kiosk.games.base.State.history` of a Smear state
    (deals, calls, discards, plays). Each hand gives a ``deal`` event, its
    calls, its plays, and after its last card the bidder's discards and the
    unseen blind turned face up. Times start at ``start_ns`` and go up by
    ``step_ns``; nothing here reads a clock. The table simulator feeds these
    events to the referee, and tests use them to check that the referee and
    the strict engine agree.
    """
    from kiosk.games.smear import Bid, Deal, Discard, Pass, PlayCard

    events: list[TableEvent] = []

    def add(kind: str, seat: int | None = None, **data: Any) -> None:
        t = start_ns + step_ns * len(events)
        events.append(TableEvent(kind, t, seat=seats[seat] if seat is not None else None, data=data))

    deal: Deal | None = None
    discard: Discard | None = None
    plays = 0
    for action in history:
        if isinstance(action, Deal):
            deal, discard, plays = action, None, 0
            add("deal", action.dealer)
        elif isinstance(action, Bid):
            add("bid", action.seat, bid=action.bid)
        elif isinstance(action, Pass):
            add("pass", action.seat)
        elif isinstance(action, Discard):
            discard = action
        elif isinstance(action, PlayCard):
            add("play", action.seat, card=str(action.card))
            plays += 1
            if plays == NUM_SEATS * TRICKS_PER_HAND and deal is not None:
                if discard is not None:
                    add("discard", discard.seat, cards=[str(c) for c in discard.cards])
                add("blind", cards=[str(c) for c in deal.blind[options.blind_cards:]])
        else:
            raise TypeError(f"not a Smear action: {action!r}")
    return events
