"""Four-Point Northeastern Wisconsin Smear: the strict engine.

Rule source: ``rules/smear.md`` (version 1.0). Four players in two
partnerships (N-S against E-W), a 32-card pack, six cards each and an
8-card blind; one round of bidding from 2 to 4; the bidder takes
``blind_cards`` (0 to 3, agreed before the game) blind cards and discards as
many; the bidder's first lead names trump; High, Low, Jack and Game score one
Point each; the game goes to 15. Every variant of smear.md §11 is an option of
:class:`~kiosk.games.smear_rules.SmearOptions`, with the spec's default.

Glossary (see also :mod:`kiosk.games.smear_rules`): **deal** (a chance action
naming the dealer, the four hands and the blind, top card first), **bid** /
**pass** (the auction, §5), **discard** (the bidder's face-down cards, §6),
**play** (a card to a trick, §7). Phases follow OpenSpiel's euchre: deal,
bidding, discard, play, game over.

Notation (seats are the positions N, E, S, W whatever the players are called):

>>> game = SmearGame({"blind_cards": 0, "first_dealer": "N"})
>>> state = game.new_initial_state()
>>> state.apply_action(state.sample_chance(7))
>>> state.phase, state.current_player()
(<Phase.BIDDING: 'bidding'>, 1)
>>> [str(a) for a in state.legal_actions()]
['E:pass', 'E:bid 2', 'E:bid 3', 'E:bid 4']
>>> state.apply_text("E:bid 4")
Bid(seat=1, bid=4)
>>> state.phase, state.current_player()
(<Phase.PLAY: 'play'>, 1)

The strict path applies the trump-discard rule (§6.4), which is judged
against the suit the bidder actually leads, in two steps: a discard is legal
when some suit left in the hand could still be led as trump, and the bidder's
first lead must then be of such a suit.
"""

from __future__ import annotations

import copy
import enum
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.games.base import CHANCE, Game, State
from kiosk.games.cards import Card, Suit, parse_cards
from kiosk.games.errors import InvalidActionError
from kiosk.games.referee import Referee
from kiosk.games.smear_rules import (
    BLIND_SIZE,
    HAND_SIZE,
    MAX_BID,
    MIN_BID,
    NUM_SEATS,
    SEAT_LETTERS,
    TEAM_NAMES,
    TRICKS_PER_HAND,
    HandScore,
    SmearOptions,
    auction_order,
    discard_is_legal,
    left_of,
    legal_bids,
    legal_discards,
    legal_first_leads,
    may_pass,
    score_hand,
    settle_hand,
    smear_deck,
    team_of,
)
from kiosk.games.tricks import ACE_HIGH, Trick, TrickHistory, deal_shuffled, legal_follows, rank_value

__all__ = [
    "Phase",
    "Deal",
    "Bid",
    "Pass",
    "Discard",
    "PlayCard",
    "SmearAction",
    "SmearPublicView",
    "SmearState",
    "SmearGame",
    "SmearOptions",
    "smear_legal_plays",
    "seat_letter",
    "parse_seat",
    "trick_record",
]


class Phase(enum.Enum):
    """Where a hand stands (after OpenSpiel's euchre ``Phase``)."""

    DEAL = "deal"
    BIDDING = "bidding"
    DISCARD = "discard"
    PLAY = "play"
    GAME_OVER = "game_over"


def seat_letter(seat: int) -> str:
    """``0`` -> ``"N"``, ``1`` -> ``"E"``, ``2`` -> ``"S"``, ``3`` -> ``"W"``."""
    return SEAT_LETTERS[seat]


def parse_seat(text: str) -> int:
    """Parses a seat letter (``N``, ``E``, ``S``, ``W``; any case).

    Raises InvalidActionError naming the input.
    """
    t = text.strip().upper()
    if len(t) == 1 and t in SEAT_LETTERS:
        return SEAT_LETTERS.index(t)
    raise InvalidActionError(f"invalid seat {text!r}: write N, E, S or W", input=text)


def _seat_or_dash(seat: int | None) -> str:
    return "-" if seat is None else seat_letter(seat)


def _check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < NUM_SEATS:
        raise InvalidActionError(f"invalid seat index {seat!r}: 0 (N) to 3 (W)", input=repr(seat))


def _display_key(card: Card) -> tuple[int, int]:
    # Spades, hearts, diamonds, clubs; high to low within a suit (the rule sheet's hand lines).
    assert card.suit is not None
    return (-int(card.suit), -rank_value(card))


_PACK = frozenset(smear_deck())


def _check_pack_cards(cards: Sequence[Card], what: str) -> None:
    for c in cards:
        if not isinstance(c, Card) or c not in _PACK:
            raise InvalidActionError(
                f"{what}: {c!s} is not a card of the 32-card Smear pack (A K Q J 10 9 8 7)", input=str(c)
            )


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance action of a hand: the dealer, each seat's six cards and the
    eight-card blind, top card first."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """Six cards for each seat, indexed by seat."""
    blind: tuple[Card, ...]
    """The eight undealt cards; the bidder takes them from the front."""

    def __post_init__(self) -> None:
        _check_seat(self.dealer)
        if len(self.hands) != NUM_SEATS or any(len(h) != HAND_SIZE for h in self.hands):
            raise InvalidActionError(
                f"a deal gives {HAND_SIZE} cards to each of {NUM_SEATS} seats", input=str(self.hands)
            )
        if len(self.blind) != BLIND_SIZE:
            raise InvalidActionError(f"the blind has {BLIND_SIZE} cards, got {len(self.blind)}",
                                     input=str(self.blind))
        cards = [c for h in self.hands for c in h] + list(self.blind)
        _check_pack_cards(cards, "deal")
        if len(set(cards)) != len(cards):
            raise InvalidActionError("a deal must use each card of the pack once", input=str(self))

    def __str__(self) -> str:
        parts = [f"deal {seat_letter(self.dealer)}"]
        parts += [f"{seat_letter(s)}:{' '.join(map(str, h))}" for s, h in enumerate(self.hands)]
        parts.append(f"blind:{' '.join(map(str, self.blind))}")
        return " | ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parses ``"deal N | N:KS ... | E:... | S:... | W:... | blind:AD 9S ..."``.

        Raises InvalidActionError naming the problem.
        """
        parts = [p.strip() for p in text.split("|")]
        m = re.fullmatch(r"deal\s+(\S+)", parts[0], re.I)
        if not m or len(parts) != NUM_SEATS + 2:
            raise InvalidActionError(
                f"invalid deal {text!r}: write "
                "'deal N | N:<6 cards> | E:... | S:... | W:... | blind:<8 cards>'",
                input=text,
            )
        dealer = parse_seat(m.group(1))
        hands: list[tuple[Card, ...]] = []
        for seat, part in enumerate(parts[1:1 + NUM_SEATS]):
            label, sep, cards = part.partition(":")
            if not sep or parse_seat(label) != seat:
                raise InvalidActionError(
                    f"invalid deal: part {part!r} should start with {seat_letter(seat)}:", input=part
                )
            hands.append(tuple(parse_cards(cards)))
        label, sep, cards = parts[-1].partition(":")
        if not sep or label.strip().lower() != "blind":
            raise InvalidActionError(
                f"invalid deal: the last part should start with blind:, got {parts[-1]!r}", input=parts[-1]
            )
        return cls(dealer, tuple(hands), tuple(parse_cards(cards)))


@dataclass(frozen=True, slots=True)
class Bid:
    """A seat bids 2, 3 or 4 Points."""

    seat: int
    bid: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if isinstance(self.bid, bool) or not isinstance(self.bid, int) or not MIN_BID <= self.bid <= MAX_BID:
            raise InvalidActionError(f"a bid is 2, 3 or 4, got {self.bid!r}", input=repr(self.bid))

    def __str__(self) -> str:
        return f"{seat_letter(self.seat)}:bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat passes in the auction."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def __str__(self) -> str:
        return f"{seat_letter(self.seat)}:pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """The bidder lays ``blind_cards`` cards face down (kept in display order)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        cards = tuple(self.cards)
        if not 1 <= len(cards) <= 3 or len(set(cards)) != len(cards):
            raise InvalidActionError(f"a discard is 1 to 3 different cards, got {len(cards)}",
                                     input=" ".join(map(str, cards)))
        _check_pack_cards(cards, "discard")
        object.__setattr__(self, "cards", tuple(sorted(cards, key=_display_key)))

    def __str__(self) -> str:
        return f"{seat_letter(self.seat)}:discard {' '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A seat plays a card to the current trick."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_pack_cards([self.card], "play")

    def __str__(self) -> str:
        return f"{seat_letter(self.seat)}:{self.card}"


SmearAction = Deal | Bid | Pass | Discard | PlayCard
"""Any action of the strict engine."""


def smear_legal_plays(
    hand: Sequence[Card], led: Suit | None, trump: Suit | None, follow_rule: str
) -> list[Card]:
    """The cards a seat may play (smear.md §7.2).

    ``led`` is None when the seat leads. Under ``follow_or_trump`` a seat that
    can follow may also trump instead; on a trump lead it must play a trump if
    it has one; a void seat may play anything.

    >>> h = parse_cards("KC 10S 7D")
    >>> [str(c) for c in smear_legal_plays(h, Suit.CLUBS, Suit.SPADES, "follow_or_trump")]
    ['KC', '10S']
    >>> [str(c) for c in smear_legal_plays(h, Suit.CLUBS, Suit.SPADES, "strict")]
    ['KC']
    """
    follows = legal_follows(hand, led)
    if led is None or led is trump or follow_rule == "strict" or trump is None:
        return follows
    if any(c.suit is led for c in hand):
        return [c for c in hand if c.suit is led or c.suit is trump]
    return follows


@dataclass(frozen=True, slots=True)
class SmearPublicView:
    """What everyone at the table can see (never a hidden hand)."""

    phase: Phase
    hand_number: int
    """1-based number of the deal being played (redeals count)."""
    dealer: int | None
    to_act: int | None
    """The seat to act, or None at a deal or when the game is over."""
    bids: tuple[tuple[int, int | None], ...]
    """``(seat, bid)`` in auction order; ``None`` is a pass."""
    bidder: int | None
    bid: int | None
    trump: Suit | None
    current_trick: tuple[tuple[int, Card], ...]
    """``(seat, card)`` played to the trick in progress."""
    trick_number: int
    tricks_won: tuple[int, int]
    """Tricks won this hand by NS and EW."""
    last_trick: tuple[tuple[int, Card], ...]
    hand_sizes: tuple[int, int, int, int]
    scores: tuple[int, int]
    """NS and EW game scores."""
    target_score: int
    blind_cards: int
    last_hand: HandScore | None
    """The scoring of the last completed hand."""
    winner: int | None
    """The winning team once the game is over."""


class SmearState(State[SmearAction]):
    """A game of Smear on the strict path: every action is checked."""

    def __init__(self, game: SmearGame) -> None:
        super().__init__(game)
        self.options: SmearOptions = game.options
        self.phase = Phase.DEAL
        self.scores: list[int] = [0, 0]
        self.deal_count = 0
        self.dealer: int | None = None
        self.next_dealer: int | None = (
            None if self.options.first_dealer == "random" else SEAT_LETTERS.index(self.options.first_dealer)
        )
        self.hands: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        self.blind: tuple[Card, ...] = ()
        self.bids: list[tuple[int, int | None]] = []
        self.high = 0
        self.bidder: int | None = None
        self.held: tuple[Card, ...] = ()
        """The bidder's hand after taking the blind (for the trump-discard rule)."""
        self.discards: tuple[Card, ...] = ()
        self.tricks: TrickHistory | None = None
        self.results: list[HandScore] = []
        self.winner: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> SmearState:
        # Actions, cards, options and hand scores are immutable and the game is
        # shared, so only the containers need copying: clone() stays cheap on long games.
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        new.scores = list(self.scores)
        new.hands = [list(h) for h in self.hands]
        new.bids = list(self.bids)
        new.results = list(self.results)
        new.tricks = copy.deepcopy(self.tricks, memo)
        return new

    def clone(self) -> SmearState:
        """An independent copy."""
        return copy.deepcopy(self)

    # -- hooks ------------------------------------------------------------------
    def _current_player(self) -> int:
        if self.phase is Phase.DEAL:
            return CHANCE
        if self.phase is Phase.BIDDING:
            assert self.dealer is not None
            return auction_order(self.dealer)[len(self.bids)]
        if self.phase is Phase.DISCARD:
            assert self.bidder is not None
            return self.bidder
        assert self.tricks is not None
        return self.tricks.to_play

    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def trump(self) -> Suit | None:
        """The trump suit, once the bidder has led."""
        return self.tricks.trump if self.tricks is not None else None

    def _legal_actions(self, player: int | None) -> list[SmearAction]:
        seat = self._current_player()
        if player is not None and player != seat:
            return []
        if self.phase is Phase.BIDDING:
            assert self.dealer is not None
            is_dealer = seat == self.dealer
            out: list[SmearAction] = []
            if may_pass(self.options, self.high, is_dealer=is_dealer):
                out.append(Pass(seat))
            out.extend(Bid(seat, b) for b in legal_bids(self.options, self.high, is_dealer=is_dealer))
            return out
        if self.phase is Phase.DISCARD:
            return [Discard(seat, combo) for combo in legal_discards(self.options, self.held)]
        return [PlayCard(seat, c) for c in self._legal_cards(seat)]

    def _legal_cards(self, seat: int) -> list[Card]:
        assert self.tricks is not None
        hand = sorted(self.hands[seat], key=_display_key)
        if not self.tricks.completed and not self.tricks.current.plays:
            return legal_first_leads(self.options, self.held, self.discards, hand)
        led = self.tricks.current.led_suit
        return smear_legal_plays(hand, led, self.tricks.trump, self.options.follow_rule)

    def _is_legal(self, action: SmearAction, player: int | None) -> bool:
        if self.phase is Phase.PLAY:
            return (isinstance(action, PlayCard) and action.seat == self._current_player()
                    and action.card in self._legal_cards(action.seat))
        if self.phase is Phase.DISCARD:
            return (isinstance(action, Discard) and action.seat == self._current_player()
                    and discard_is_legal(self.options, self.held, action.cards))
        return action in self._legal_actions(player)

    def _is_legal_chance(self, action: SmearAction) -> bool:
        return isinstance(action, Deal) and (self.next_dealer is None or action.dealer == self.next_dealer)

    def _sample_chance(self, rng: random.Random) -> SmearAction:
        dealer = self.next_dealer if self.next_dealer is not None else rng.randrange(NUM_SEATS)
        hands, rest = deal_shuffled(smear_deck(), rng, NUM_SEATS, HAND_SIZE, first=left_of(dealer))
        return Deal(dealer, tuple(tuple(h) for h in hands), tuple(rest))

    def _apply_action(self, action: SmearAction) -> None:
        if isinstance(action, Deal):
            self._start_hand(action)
        elif isinstance(action, (Bid, Pass)):
            self._apply_call(action)
        elif isinstance(action, Discard):
            self.hands[action.seat] = [c for c in self.hands[action.seat] if c not in action.cards]
            self.discards = action.cards
            self._start_play()
        else:
            self._apply_play(action)

    # -- the phases ---------------------------------------------------------------
    def _start_hand(self, deal: Deal) -> None:
        self.deal_count += 1
        self.dealer = deal.dealer
        self.next_dealer = deal.dealer
        self.hands = [list(h) for h in deal.hands]
        self.blind = deal.blind
        self.bids = []
        self.high = 0
        self.bidder = None
        self.held = ()
        self.discards = ()
        self.tricks = None
        self.phase = Phase.BIDDING

    def _apply_call(self, call: Bid | Pass) -> None:
        assert self.dealer is not None
        if isinstance(call, Bid):
            self.bids.append((call.seat, call.bid))
            self.high, self.bidder = call.bid, call.seat
        else:
            self.bids.append((call.seat, None))
        if self.high < MAX_BID and len(self.bids) < NUM_SEATS:
            return
        if self.bidder is None:
            # All passed (§5.3): the hand is abandoned without score.
            if self.options.all_pass == "redeal_next_dealer":
                self.next_dealer = left_of(self.dealer)
            self.phase = Phase.DEAL
            return
        n = self.options.blind_cards
        if n:
            self.hands[self.bidder].extend(self.blind[:n])
            self.held = tuple(self.hands[self.bidder])
            self.phase = Phase.DISCARD
        else:
            self._start_play()

    def _start_play(self) -> None:
        assert self.bidder is not None
        self.tricks = TrickHistory(NUM_SEATS, self.bidder, order=ACE_HIGH)
        self.phase = Phase.PLAY

    def _apply_play(self, play: PlayCard) -> None:
        tricks = self.tricks
        assert tricks is not None and self.bidder is not None and self.dealer is not None
        if tricks.trump is None:
            tricks.trump = play.card.suit  # the first card of the hand names trump (§7.1)
        self.hands[play.seat].remove(play.card)
        tricks.play(play.seat, play.card)
        if len(tricks.completed) < TRICKS_PER_HAND:
            return
        hand = score_hand(self.options, bidder=self.bidder, bid=self.high, tricks=tricks.completed,
                          discards=self.discards)
        result = settle_hand(self.options, self.scores, hand)
        self.results.append(hand)
        self.scores = list(result.scores)
        self.next_dealer = left_of(self.dealer)
        if result.winner is not None:
            self.winner = result.winner
            self.phase = Phase.GAME_OVER
        else:
            self.phase = Phase.DEAL

    # -- views ----------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Each seat's team score."""
        return [self.scores[team_of(s)] for s in range(NUM_SEATS)]

    def public_view(self) -> SmearPublicView:
        tricks = self.tricks
        current: tuple[tuple[int, Card], ...] = ()
        last: tuple[tuple[int, Card], ...] = ()
        won = [0, 0]
        number = 0
        if tricks is not None:
            current = tricks.current.plays
            last = tricks.last.plays if tricks.last is not None else ()
            for t in tricks.completed:
                won[team_of(t.winner)] += 1
            number = min(tricks.trick_number, TRICKS_PER_HAND)
        to_act = self._current_player() if self.phase in (Phase.BIDDING, Phase.DISCARD, Phase.PLAY) else None
        return SmearPublicView(
            phase=self.phase,
            hand_number=self.deal_count,
            dealer=self.dealer,
            to_act=to_act,
            bids=tuple(self.bids),
            bidder=self.bidder if self.phase in (Phase.DISCARD, Phase.PLAY) else None,
            bid=self.high if self.bidder is not None and self.phase in (Phase.DISCARD, Phase.PLAY) else None,
            trump=self.trump if self.phase is Phase.PLAY else None,
            current_trick=current,
            trick_number=number,
            tricks_won=(won[0], won[1]),
            last_trick=last,
            hand_sizes=(len(self.hands[0]), len(self.hands[1]), len(self.hands[2]), len(self.hands[3])),
            scores=(self.scores[0], self.scores[1]),
            target_score=self.options.target_score,
            blind_cards=self.options.blind_cards,
            last_hand=self.results[-1] if self.results else None,
            winner=self.winner,
        )

    def notation(self) -> str:
        """One line, complete enough to rebuild the state with :meth:`from_notation`:
        scores, deal count, dealer, next dealer, phase, then (in a hand) the calls,
        trump, hands, blind (top card first, as dealt), discards, finished tricks
        (leader first), the trick in progress and the seat to act.

        >>> SmearGame({"first_dealer": "W"}).new_initial_state().notation()
        'NS 0 EW 0 | deal 0 | dealer - | next W | deal'
        """
        parts = [f"NS {self.scores[0]} EW {self.scores[1]}", f"deal {self.deal_count}",
                 f"dealer {_seat_or_dash(self.dealer)}", f"next {_seat_or_dash(self.next_dealer)}",
                 self.phase.value]
        if self.phase is Phase.GAME_OVER:
            assert self.winner is not None
            parts.append(f"winner {TEAM_NAMES[self.winner]}")
            return " | ".join(parts)
        if self.phase is Phase.DEAL:
            return " | ".join(parts)
        calls = " ".join(f"{seat_letter(s)}:{'pass' if b is None else b}" for s, b in self.bids)
        parts.append(f"bids {calls or '-'}")
        parts.append(f"trump {self.trump.letter if self.trump is not None else '-'}")
        parts.append(" ".join(
            f"{seat_letter(s)}[{' '.join(map(str, sorted(h, key=_display_key)))}]"
            for s, h in enumerate(self.hands)
        ))
        parts.append(f"blind[{' '.join(map(str, self.blind))}]")
        parts.append(f"discards[{' '.join(map(str, self.discards))}]")
        done = ", ".join(t.format(SEAT_LETTERS) for t in self.tricks.completed) if self.tricks else ""
        current = self.tricks.current.format(SEAT_LETTERS) if self.tricks else ""
        parts.append(f"tricks {done or '-'}")
        parts.append(f"trick {current or '-'}")
        parts.append(f"to {seat_letter(self._current_player())}")
        return " | ".join(parts)

    @classmethod
    def from_notation(cls, game: SmearGame, text: str) -> SmearState:
        """Rebuilds a state from :meth:`notation` (a test fixture, a bug report).

        The rebuilt state has no history (so no undo) and no earlier hands'
        scoring; it acts and scores like the original from here on. Raises
        InvalidActionError naming the part that is wrong.

        >>> game = SmearGame()
        >>> text = ("NS 3 EW 1 | deal 2 | dealer E | next E | bidding | bids S:pass | trump - | "
        ...         "N[KS JH 10H QD 10C 9C] E[QS 8H JD 10D AC KC] S[10S AH KH 7H 9D 8C] "
        ...         "W[AS 8S QH 9H KD 7C] | "
        ...         "blind[AD 9S 7S JS 8D 7D QC JC] | discards[] | tricks - | trick - | to W")
        >>> state = SmearState.from_notation(game, text)
        >>> state.notation() == text, [str(a) for a in state.legal_actions()]
        (True, ['W:pass', 'W:bid 2', 'W:bid 3', 'W:bid 4'])
        """
        return _StateReader(game, text).read()

    def parse_action(self, text: str) -> SmearAction:
        """Parses action notation: ``"deal N | N:... | blind:..."``, ``"E:pass"``,
        ``"S:bid 3"``, ``"N:discard 10C 10D 8H"``, ``"N:7S"``. The seat may be left
        out (``"7S"``, ``"pass"``) when a seat is to act.

        Raises InvalidActionError naming the input.
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"invalid action {text!r}: expected text", input=repr(text))
        t = text.strip()
        if re.match(r"deal\b", t, re.I):
            return Deal.parse(t)
        m = re.fullmatch(r"(?:([NESWnesw])\s*[:\s]\s*)?(.+)", t)
        if not m or (m.group(1) is None and re.fullmatch(r"[NESWnesw]", t)):
            raise InvalidActionError(
                f"invalid action {text!r}: write e.g. 'E:pass', 'S:bid 3', 'N:discard 10C 8H', 'N:7S'",
                input=text,
            )
        if m.group(1) is not None:
            seat = parse_seat(m.group(1))
        else:
            seat = self.current_player()
            if not 0 <= seat < NUM_SEATS:
                raise InvalidActionError(f"no seat is to act here; name the seat, as in 'N:{t}'", input=text)
        body = m.group(2).strip()
        low = body.lower()
        if low == "pass":
            return Pass(seat)
        bm = re.fullmatch(r"bid\s*(\S+)", low)
        if bm:
            if not bm.group(1).isdigit():
                raise InvalidActionError(f"invalid bid {text!r}: a bid is 2, 3 or 4", input=text)
            return Bid(seat, int(bm.group(1)))
        dm = re.fullmatch(r"discard\s+(.+)", body, re.I)
        if dm:
            return Discard(seat, tuple(parse_cards(dm.group(1))))
        return PlayCard(seat, Card.parse(re.sub(r"^play\s+", "", body, flags=re.I)))


class _StateReader:
    """Parses :meth:`SmearState.notation` back into a state."""

    def __init__(self, game: SmearGame, text: str) -> None:
        self.game = game
        self.text = text
        self.parts = [p.strip() for p in text.split("|")] if isinstance(text, str) else []

    def fail(self, problem: str) -> InvalidActionError:
        return InvalidActionError(f"invalid Smear state notation ({problem}): {self.text!r}", input=self.text)

    def take(self, pattern: str, what: str) -> re.Match[str]:
        if not self.parts:
            raise self.fail(f"{what} missing")
        m = re.fullmatch(pattern, self.parts.pop(0))
        if not m:
            raise self.fail(f"expected {what}")
        return m

    def seat_or_none(self, text: str) -> int | None:
        return None if text == "-" else parse_seat(text)

    def cards(self, text: str) -> list[Card]:
        return parse_cards(text) if text.strip() else []

    def read(self) -> SmearState:
        state = SmearState(self.game)
        m = self.take(r"NS (-?\d+) EW (-?\d+)", "'NS <score> EW <score>'")
        state.scores = [int(m.group(1)), int(m.group(2))]
        state.deal_count = int(self.take(r"deal (\d+)", "'deal <count>'").group(1))
        state.dealer = self.seat_or_none(self.take(r"dealer ([NESW-])", "'dealer <seat>'").group(1))
        state.next_dealer = self.seat_or_none(self.take(r"next ([NESW-])", "'next <seat>'").group(1))
        phase_text = self.take(r"\w+", "the phase").group(0)
        try:
            state.phase = Phase(phase_text)
        except ValueError:
            raise self.fail(f"unknown phase {phase_text!r}") from None
        if state.phase is Phase.GAME_OVER:
            winner = self.take(r"winner (NS|EW)", "'winner NS' or 'winner EW'").group(1)
            state.winner = TEAM_NAMES.index(winner)
        elif state.phase is not Phase.DEAL:
            self.read_hand(state)
        if self.parts:
            raise self.fail(f"unexpected {self.parts[0]!r}")
        return state

    def read_hand(self, state: SmearState) -> None:
        if state.dealer is None:
            raise self.fail("a hand needs a dealer")
        bids = self.take(r"bids (.+)", "'bids ...'").group(1)
        for tok in ([] if bids == "-" else bids.split()):
            seat_text, _, call = tok.partition(":")
            seat = parse_seat(seat_text)
            if call == "pass":
                state.bids.append((seat, None))
            elif call.isdigit():
                bid = Bid(seat, int(call))
                state.bids.append((seat, bid.bid))
                state.high, state.bidder = bid.bid, seat
            else:
                raise self.fail(f"bad call {tok!r}")
        if [s for s, _ in state.bids] != auction_order(state.dealer)[:len(state.bids)]:
            raise self.fail("the calls are not in auction order")
        trump_text = self.take(r"trump ([SHDC-])", "'trump <suit>'").group(1)
        hands = self.take(r"N\[(.*)\] E\[(.*)\] S\[(.*)\] W\[(.*)\]", "the four hands")
        state.hands = [self.cards(hands.group(k)) for k in range(1, NUM_SEATS + 1)]
        state.blind = tuple(self.cards(self.take(r"blind\[(.*)\]", "'blind[...]'").group(1)))
        state.discards = tuple(self.cards(self.take(r"discards\[(.*)\]", "'discards[...]'").group(1)))
        done = self.take(r"tricks (.+)", "'tricks ...'").group(1)
        current = self.take(r"trick (.+)", "'trick ...'").group(1)
        to = parse_seat(self.take(r"to ([NESW])", "'to <seat>'").group(1))
        if len(state.blind) != BLIND_SIZE:
            raise self.fail(f"the blind has {len(state.blind)} cards, not {BLIND_SIZE}")
        if state.phase in (Phase.DISCARD, Phase.PLAY):
            if state.bidder is None:
                raise self.fail("no bidder")
            if state.phase is Phase.DISCARD:
                state.held = tuple(state.hands[state.bidder])
            elif done == "-" and current == "-":
                state.held = tuple(state.hands[state.bidder]) + state.discards
        if state.phase is Phase.PLAY:
            assert state.bidder is not None
            state.tricks = TrickHistory(NUM_SEATS, state.bidder, order=ACE_HIGH)
            records = ([] if done == "-" else [r.split() for r in done.split(",")])
            records.append([] if current == "-" else current.split())
            for record in records:
                for tok in record:
                    seat_text, _, card_text = tok.partition(":")
                    seat, card = parse_seat(seat_text), Card.parse(card_text)
                    if state.tricks.trump is None:
                        state.tricks.trump = card.suit
                    if seat != state.tricks.to_play:
                        raise self.fail(f"{tok} played out of turn")
                    state.tricks.play(seat, card)
            if len(records) - 1 != len(state.tricks.completed):
                raise self.fail("a finished trick does not have four cards")
        expected_trump = state.trump.letter if state.trump is not None else "-"
        if trump_text != expected_trump:
            raise self.fail(f"trump {trump_text} is not the suit of the first card led ({expected_trump})")
        if to != state._current_player():
            raise self.fail(f"{seat_letter(to)} is not the seat to act")
        self.check_cards(state)

    def check_cards(self, state: SmearState) -> None:
        taken = state.options.blind_cards if state.phase is not Phase.BIDDING else 0
        played = [c for t in state.tricks.completed for c in t.cards] if state.tricks else []
        current = list(state.tricks.current.cards) if state.tricks else []
        every = [c for h in state.hands for c in h] + list(state.blind[taken:]) + list(state.discards)
        every += played + current
        if sorted(every) != sorted(smear_deck()):
            raise self.fail("the cards are not the 32-card pack, each once")


class SmearGame(Game):
    """Four-Point Northeastern Wisconsin Smear for four seats (N, E, S, W in table order)."""

    name = "smear"
    title = "Four-Point Northeastern Wisconsin Smear"
    options_type = SmearOptions
    min_seats = NUM_SEATS
    max_seats = NUM_SEATS

    def new_initial_state(self) -> SmearState:
        return SmearState(self)

    def referee(self) -> Referee:
        from kiosk.games.smear_referee import SmearReferee

        referee: Referee = SmearReferee(self.seats, self.options)
        return referee


def trick_record(trick: Trick) -> str:
    """The rule sheet's trick record: ``"N:7S E:KS S:JS W:QS -> E"``."""
    return f"{trick.format(SEAT_LETTERS)} -> {seat_letter(trick.winner)}"
