"""The trick-taking core shared by Kierki and Smear (and any other trick game).

Rule source: the common core of kierki.md §5 and smear.md (follow suit if able,
otherwise play any card; the highest trump wins, else the highest card of the
suit led). Each game adds its own phases, lead restrictions and scoring on top;
nothing here knows which game is being played.

Glossary:

- **seat**: a player's index around the table, 0..n-1, clockwise; play passes
  to ``seat + 1``. Names (``"N"``, ``"Ana"``) are only for printing.
- **trick**: one card from each seat, in turn; the first card is the **lead**,
  its suit the **led suit**, the other cards **follow**.
- **follow rule**: a seat holding a card of the led suit must play one;
  a seat without one (**void**) may play anything (a **discard**, or a
  **trump** where there are trumps).
- **trump**: a suit whose cards beat every card of the other suits.
- **rank order**: the ranks from low to high, e.g. :data:`ACE_HIGH`.
- **revoke**: failing to follow suit while able. The kiosk never sees a hand,
  so a revoke is *proven by later play*: a seat that showed out of clubs in
  trick 5 and plays a club in trick 9 revoked in trick 5. A :class:`Claim`
  records what a play implies ("W holds no clubs"); a :class:`Proof` is the
  later card that contradicts it.
- **seen twice**: the same card recognised twice in one deal (a misread or a
  foul deck).

>>> seats = ("N", "E", "S", "W")
>>> t = Trick.parse("E:3C S:8C W:7C N:2C", seats)
>>> t.led_suit, seats[t.winner], str(t.winning_card)
(<Suit.CLUBS: 0>, 'S', '8C')
>>> seats[Trick.parse("W:JH N:10H E:QH S:8C", seats, trump=Suit.CLUBS).winner]
'S'
>>> Trick.parse("E:JC S:QC", seats, trump=Suit.HEARTS)
Trick.parse('1:JC 2:QC', trump=Suit.HEARTS)
>>> [str(c) for c in legal_follows(parse_cards("AS 3C 9C KH"), Suit.CLUBS)]
['3C', '9C']
>>> [str(c) for c in legal_follows(parse_cards("AS KH"), Suit.CLUBS)]
['AS', 'KH']

A revoke proven five tricks later (kierki.md §14.17):

>>> problems = audit_tricks([Trick.parse("E:5C S:QC W:10D N:AC", seats),
...                          Trick.parse("N:2D E:5D S:6D W:3D", seats),
...                          Trick.parse("S:6S W:JS N:QS E:10S", seats),
...                          Trick.parse("N:4H E:9H S:7H W:JC", seats)],
...                         n_seats=4, first_leader=1, names=seats, first_number=5)
>>> [(p.kind, p.trick, p.proof_trick, seats[p.seat]) for p in problems]
[('revoke', 5, 8, 'W')]
>>> print(problems[0].text)
revoke by W in trick 5: clubs led, W played 10D; proven in trick 8: W played JC
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from kiosk.games.cards import Card, Rank, Suit, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError

__all__ = [
    "ACE_HIGH",
    "ACE_LOW",
    "Play",
    "PlayOutcome",
    "Trick",
    "TrickHistory",
    "Claim",
    "Proof",
    "ClaimBook",
    "SeenCards",
    "TrickProblem",
    "TrickAuditor",
    "REVOKE",
    "OUT_OF_TURN",
    "SEEN_TWICE",
    "WRONG_COUNT",
    "audit_tricks",
    "can_follow",
    "deal_round_robin",
    "deal_shuffled",
    "follow_claim",
    "legal_follows",
    "next_seat",
    "parse_hand",
    "proof_problem",
    "rank_value",
    "shuffled",
    "suit_name",
    "suit_cards",
]

ACE_HIGH: tuple[Rank, ...] = (
    Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
    Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)
"""Ranks from low to high with the Ace above the King (Kierki, Smear)."""
ACE_LOW: tuple[Rank, ...] = (Rank.ACE, *ACE_HIGH[:-1])
"""Ranks from low to high with the Ace below the Two."""

Play = tuple[int, Card]
"""One card played to a trick: ``(seat, card)``."""

_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}


def suit_name(suit: Suit) -> str:
    """The suit's plural name for messages: ``"clubs"``."""
    return _SUIT_NAMES[suit]


def rank_value(card: Card, order: Sequence[Rank] = ACE_HIGH) -> int:
    """The card's position in ``order`` (0 = lowest).

    >>> rank_value(Card.parse("AS")), rank_value(Card.parse("AS"), ACE_LOW)
    (12, 0)
    """
    return order.index(card.rank)


def next_seat(seat: int, n_seats: int, step: int = 1) -> int:
    """The seat ``step`` places to the left (clockwise) of ``seat``.

    >>> next_seat(3, 4), next_seat(0, 4, 3)
    (0, 3)
    """
    return (seat + step) % n_seats


# -- the follow rule --------------------------------------------------------------


def can_follow(hand: Iterable[Card], suit: Suit) -> bool:
    """True if ``hand`` holds a card of ``suit``."""
    return any(c.suit is suit for c in hand)


def suit_cards(hand: Iterable[Card], suit: Suit) -> list[Card]:
    """The cards of ``suit`` in ``hand``, in hand order."""
    return [c for c in hand if c.suit is suit]


def legal_follows(hand: Sequence[Card], led_suit: Suit | None) -> list[Card]:
    """The cards a seat may play to a trick under the follow rule.

    With ``led_suit`` ``None`` (the seat leads) every card is legal; otherwise
    the cards of the led suit if the hand holds any, else every card. Games add
    their own restrictions (a lead ban, a duty to trump) on top.
    """
    if led_suit is None:
        return list(hand)
    same = suit_cards(hand, led_suit)
    return same if same else list(hand)


# -- the trick --------------------------------------------------------------------


def _beats(card: Card, best: Card, trump: Suit | None, order: Sequence[Rank]) -> bool:
    """True if ``card`` beats the card ``best`` now winning the trick."""
    if card.suit is best.suit:
        return order.index(card.rank) > order.index(best.rank)
    return trump is not None and card.suit is trump


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick as played: who led, the cards in the order they were played,
    the trump suit (``None`` in a no-trump deal) and the rank order.

    A trick is a value: :meth:`add` returns a new one. It does not check the
    follow rule or the turn order (a referee records what happened); the
    winner is found from the cards, never observed.
    """

    leader: int
    """The seat that led."""
    plays: tuple[Play, ...] = ()
    """``(seat, card)`` pairs in playing order; the first is the lead."""
    trump: Suit | None = None
    """The trump suit, or ``None`` when there are no trumps."""
    order: tuple[Rank, ...] = ACE_HIGH
    """Ranks from low to high."""

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card, ``None`` while the trick is empty."""
        return self.plays[0][1].suit if self.plays else None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in playing order."""
        return tuple(c for _, c in self.plays)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in playing order."""
        return tuple(s for s, _ in self.plays)

    def __len__(self) -> int:
        return len(self.plays)

    def __contains__(self, card: object) -> bool:
        return any(c == card for _, c in self.plays)

    def add(self, seat: int, card: Card) -> Trick:
        """Returns the trick with one more card played by ``seat``."""
        return replace(self, plays=(*self.plays, (seat, card)))

    def card_of(self, seat: int) -> Card | None:
        """The (first) card ``seat`` played to this trick, if any."""
        for s, c in self.plays:
            if s == seat:
                return c
        return None

    @property
    def winning_play(self) -> Play:
        """The ``(seat, card)`` now winning the trick (final once complete).

        Raises ValueError for an empty trick.
        """
        if not self.plays:
            raise ValueError("an empty trick has no winner")
        best = self.plays[0]
        for play in self.plays[1:]:
            if _beats(play[1], best[1], self.trump, self.order):
                best = play
        return best

    @property
    def winner(self) -> int:
        """The seat now winning the trick: the highest trump, else the highest
        card of the led suit. Raises ValueError for an empty trick."""
        return self.winning_play[0]

    @property
    def winning_card(self) -> Card:
        """The card now winning the trick. Raises ValueError for an empty trick."""
        return self.winning_play[1]

    def format(self, names: Sequence[str] | None = None) -> str:
        """The trick record of the rule sheets: ``"E:3C S:8C W:7C N:2C"``.

        Seats print as ``names[seat]`` or, without names, as their index.
        """
        return " ".join(f"{names[s] if names else s}:{c}" for s, c in self.plays)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        """Code that rebuilds the trick: ``Trick.parse('1:3C 2:8C', trump=Suit.HEARTS)``."""
        extra = f", trump=Suit.{self.trump.name}" if self.trump is not None else ""
        if self.order != ACE_HIGH:
            extra += ", order=ACE_LOW" if self.order == ACE_LOW else f", order={self.order!r}"
        if not self.plays:
            return f"Trick({self.leader}{extra})"
        return f"Trick.parse({self.format()!r}{extra})"

    @classmethod
    def parse(
        cls,
        text: str,
        names: Sequence[str] | None = None,
        *,
        trump: Suit | None = None,
        order: tuple[Rank, ...] = ACE_HIGH,
    ) -> Trick:
        """Parses a trick record, ``"E:3C S:8C W:7C N:2C"`` (seat names from
        ``names``) or ``"1:3C 2:8C"`` (seat indices). The first seat led.
        An empty text is an empty trick led by seat 0.

        Raises InvalidActionError naming the bad token.
        """
        plays: list[Play] = []
        for tok in text.split():
            seat_text, sep, card_text = tok.partition(":")
            if not sep:
                raise InvalidActionError(
                    f"invalid trick entry {tok!r}: write SEAT:CARD, e.g. 'E:3C'", input=tok
                )
            plays.append((_parse_seat(seat_text, names), Card.parse(card_text)))
        leader = plays[0][0] if plays else 0
        return cls(leader, tuple(plays), trump, order)


def _parse_seat(text: str, names: Sequence[str] | None) -> int:
    if names and text in names:
        return list(names).index(text)
    if re.fullmatch(r"\d+", text) and (not names or int(text) < len(names)):
        return int(text)
    known = ", ".join(names) if names else "a seat index"
    raise InvalidActionError(f"unknown seat {text!r} (seats: {known})", input=text)


# -- dealing ----------------------------------------------------------------------


def shuffled(cards: Iterable[Card], rng: random.Random) -> list[Card]:
    """Returns the cards in a random order drawn from ``rng`` (the input is untouched)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def deal_round_robin(
    cards: Sequence[Card], n_seats: int, per_seat: int, *, first: int = 0
) -> tuple[list[list[Card]], list[Card]]:
    """Deals ``per_seat`` cards to each seat one at a time from the top of
    ``cards`` (index 0), starting with seat ``first`` and going clockwise.

    Returns the hands indexed by seat and the undealt rest. Raises ValueError
    when there are not enough cards.

    >>> hands, rest = deal_round_robin(parse_cards("2C 3C 4C 5C 6C"), 2, 2, first=1)
    >>> [[str(c) for c in h] for h in hands], [str(c) for c in rest]
    ([['3C', '5C'], ['2C', '4C']], ['6C'])
    """
    need = n_seats * per_seat
    if need > len(cards):
        raise ValueError(f"cannot deal {per_seat} cards to {n_seats} seats from {len(cards)} cards")
    hands: list[list[Card]] = [[] for _ in range(n_seats)]
    for i in range(need):
        hands[(first + i) % n_seats].append(cards[i])
    return hands, list(cards[need:])


def deal_shuffled(
    deck: Iterable[Card], rng: random.Random, n_seats: int, per_seat: int, *, first: int = 0
) -> tuple[list[list[Card]], list[Card]]:
    """Shuffles ``deck`` with ``rng`` and deals it round-robin (see :func:`deal_round_robin`)."""
    return deal_round_robin(shuffled(deck, rng), n_seats, per_seat, first=first)


# -- trick history and who leads next --------------------------------------------------


class TrickHistory:
    """The tricks of one deal: the completed ones and the one being played.

    Knows whose turn it is and who leads next (the winner of the last trick).
    :meth:`play` checks only the turn; the follow rule and any lead
    restriction are the game's to check (see :func:`legal_follows`).

    >>> h = TrickHistory(4, leader=1)
    >>> for seat, card in [(1, "3C"), (2, "8C"), (3, "7C"), (0, "2C")]:
    ...     done = h.play(seat, Card.parse(card))
    >>> done.winner, h.leader, h.to_play, h.trick_number, h.tricks_won(2)
    (2, 2, 2, 2, 1)
    """

    __slots__ = ("n_seats", "trump", "order", "_completed", "_current")

    def __init__(
        self, n_seats: int, leader: int, *, trump: Suit | None = None, order: tuple[Rank, ...] = ACE_HIGH
    ) -> None:
        self.n_seats = n_seats
        self.trump = trump
        """The trump suit; a game that sets trump by the first lead may assign it."""
        self.order = order
        self._completed: list[Trick] = []
        self._current = Trick(leader, (), trump, order)

    @property
    def completed(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(self._completed)

    @property
    def current(self) -> Trick:
        """The trick being played (possibly empty)."""
        return self._current

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self._current.leader

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return (self._current.leader + len(self._current.plays)) % self.n_seats

    @property
    def trick_number(self) -> int:
        """The 1-based number of the current trick."""
        return len(self._completed) + 1

    @property
    def last(self) -> Trick | None:
        """The last completed trick."""
        return self._completed[-1] if self._completed else None

    def play(self, seat: int, card: Card) -> Trick | None:
        """Adds ``seat``'s card to the current trick; returns the trick when this
        card completes it (the winner then leads the next one), else ``None``.

        Raises IllegalActionError when it is not ``seat``'s turn.
        """
        if seat != self.to_play:
            raise IllegalActionError(
                f"seat {seat} played {card} out of turn (seat {self.to_play} is to play)", input=str(card)
            )
        trick = Trick(self._current.leader, (*self._current.plays, (seat, card)), self.trump, self.order)
        if len(trick.plays) < self.n_seats:
            self._current = trick
            return None
        self._completed.append(trick)
        self._current = Trick(trick.winner, (), self.trump, self.order)
        return trick

    def tricks_won(self, seat: int) -> int:
        """How many completed tricks ``seat`` won."""
        return sum(1 for t in self._completed if t.winner == seat)

    def taken_by(self, seat: int) -> list[Card]:
        """The cards of the tricks ``seat`` won."""
        return [c for t in self._completed if t.winner == seat for c in t.cards]

    def played_cards(self) -> list[Card]:
        """Every card played so far, the current trick included."""
        return [c for t in self._completed for c in t.cards] + list(self._current.cards)


# -- the referee path: claims, proofs and trick audits ------------------------------


@dataclass(frozen=True, slots=True)
class Claim:
    """What a play implies about a hand the camera cannot see.

    A seat that plays a diamond on a club lead claims "I hold no clubs"; the
    claim is contradicted by any later play of a card in :attr:`refuted_by`.
    """

    seat: int
    where: int
    """The trick (or turn) number where the claim was made."""
    card: Card | None
    """The card played then (``None`` for a pass)."""
    refuted_by: frozenset[Card]
    """The cards whose later play proves the claim false."""
    reason: str
    """What happened, for the message: ``"clubs led, W played 10D"``."""
    kind: str = "revoke"
    """The infraction proven if the claim is refuted."""


@dataclass(frozen=True, slots=True)
class Proof:
    """A claim contradicted by a later play."""

    claim: Claim
    where: int
    """The trick (or turn) number of the proving play."""
    card: Card
    """The card that proves it."""


class ClaimBook:
    """Open claims per seat; a later card that contradicts one proves it.

    Each claim is proven at most once (by the first contradicting card).

    >>> book = ClaimBook()
    >>> book.add(follow_claim(3, 5, Card.parse("10D"), Suit.CLUBS, "W"))
    >>> book.observe(3, Card.parse("4D"), 6)
    []
    >>> [(p.claim.where, p.where, str(p.card)) for p in book.observe(3, Card.parse("9C"), 8)]
    [(5, 8, '9C')]
    """

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: list[Claim] = []

    def add(self, claim: Claim | None) -> None:
        """Records a claim (``None`` is ignored, for convenience)."""
        if claim is not None:
            self._open.append(claim)

    def observe(self, seat: int, card: Card, where: int) -> list[Proof]:
        """Checks ``seat`` playing ``card`` at ``where`` against the seat's open
        claims; returns (and closes) the claims it proves false."""
        proofs: list[Proof] = []
        keep: list[Claim] = []
        for claim in self._open:
            if claim.seat == seat and claim.where < where and card in claim.refuted_by:
                proofs.append(Proof(claim, where, card))
            else:
                keep.append(claim)
        self._open = keep
        return proofs

    def observe_shown(self, seat: int, cards: Iterable[Card], where: int) -> list[Proof]:
        """Checks cards ``seat`` shows face up (say at the end of a deal)."""
        proofs: list[Proof] = []
        for card in cards:
            proofs.extend(self.observe(seat, card, where))
        return proofs

    def withdraw(self, claim: Claim) -> bool:
        """Closes ``claim`` unproven (a later fact showed it never applied); True if it was open."""
        if claim in self._open:
            self._open.remove(claim)
            return True
        return False

    def open_claims(self, seat: int | None = None) -> list[Claim]:
        """The claims not (yet) proven, of one seat or of all."""
        return [c for c in self._open if seat is None or c.seat == seat]

    def clear(self) -> None:
        """Forgets every claim (a new deal)."""
        self._open.clear()


def follow_claim(
    seat: int, where: int, card: Card, led_suit: Suit | None, seat_name: str | None = None
) -> Claim | None:
    """The claim a follow implies: ``None`` if the card follows suit (or leads),
    else "``seat`` holds no card of the led suit"."""
    if led_suit is None or card.suit is led_suit:
        return None
    name = seat_name if seat_name is not None else str(seat)
    refuted = frozenset(Card(r, led_suit) for r in Rank if r is not Rank.JOKER)
    return Claim(seat, where, card, refuted, f"{suit_name(led_suit)} led, {name} played {card}")


class SeenCards:
    """The cards seen face up in one deal, and where each was first seen.

    >>> seen = SeenCards()
    >>> seen.see(Card.parse("QS"), 3), seen.see(Card.parse("QS"), 9)
    (None, 3)
    """

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: dict[Card, int] = {}

    def see(self, card: Card, where: int) -> int | None:
        """Records ``card`` at ``where``; returns where it was seen before, or ``None``."""
        before = self._where.get(card)
        if before is None:
            self._where[card] = where
        return before

    def __contains__(self, card: object) -> bool:
        return card in self._where

    def __len__(self) -> int:
        return len(self._where)

    def clear(self) -> None:
        self._where.clear()


REVOKE = "revoke"
OUT_OF_TURN = "out_of_turn"
SEEN_TWICE = "seen_twice"
WRONG_COUNT = "wrong_count"


@dataclass(frozen=True, slots=True)
class TrickProblem:
    """An irregularity found in recorded tricks."""

    kind: str
    """:data:`REVOKE`, :data:`OUT_OF_TURN`, :data:`SEEN_TWICE`, :data:`WRONG_COUNT`,
    or a game's own kind (a claim's ``kind``)."""
    trick: int
    """The trick where it happened (for a revoke: where the seat failed to follow)."""
    seat: int | None
    text: str
    card: Card | None = None
    proof_trick: int | None = None
    """For a proven claim: the trick whose play proves it."""
    proof_card: Card | None = None


def proof_problem(proof: Proof, names: Sequence[str] | None = None, *, unit: str = "trick") -> TrickProblem:
    """Turns a proof into a problem whose text names both tricks (or turns: ``unit``)."""
    claim = proof.claim
    name = names[claim.seat] if names else str(claim.seat)
    what = "revoke" if claim.kind == REVOKE else claim.kind.replace("_", " ")
    text = (
        f"{what} by {name} in {unit} {claim.where}: {claim.reason}; "
        f"proven in {unit} {proof.where}: {name} played {proof.card}"
    )
    return TrickProblem(claim.kind, claim.where, claim.seat, text, claim.card, proof.where, proof.card)


@dataclass
class PlayOutcome:
    """What :meth:`TrickAuditor.play` made of one recorded card."""

    accepted: bool
    """False when the card was refused (played out of turn): it goes back to the hand."""
    problems: list[TrickProblem] = field(default_factory=list)
    completed: Trick | None = None
    """The trick this card completed, if any."""
    number: int = 0
    """The number of the trick the card was played to."""


class TrickAuditor:
    """Records the cards a camera sees played to tricks and finds irregularities.

    Turn order is checked at once (a card out of turn is refused and reported);
    a card seen twice in the deal is reported and kept (it is on the table); a
    follow that fails to follow suit records a claim, and a later card of that
    suit proves the revoke, naming both tricks. :meth:`collect` reports a trick
    swept with too few cards, which stays open to be re-shown.

    Games add their own claims (a banned lead) through :attr:`claims`.
    """

    def __init__(
        self,
        n_seats: int,
        leader: int,
        *,
        names: Sequence[str] | None = None,
        trump: Suit | None = None,
        order: tuple[Rank, ...] = ACE_HIGH,
        first_number: int = 1,
    ) -> None:
        self.names = tuple(names) if names else tuple(str(i) for i in range(n_seats))
        self.history = TrickHistory(n_seats, leader, trump=trump, order=order)
        self.claims = ClaimBook()
        self.seen = SeenCards()
        self.first_number = first_number

    @property
    def trick_number(self) -> int:
        return self.history.trick_number + self.first_number - 1

    def play(self, seat: int, card: Card) -> PlayOutcome:
        """Records ``seat`` playing ``card``; see the class docstring."""
        number = self.trick_number
        expected = self.history.to_play
        if seat != expected:
            text = (
                f"{self.names[seat]} played {card} out of turn in trick {number}: "
                f"{self.names[expected]} is to {'lead' if not self.history.current.plays else 'play'}; "
                f"the card goes back to the hand"
            )
            return PlayOutcome(False, [TrickProblem(OUT_OF_TURN, number, seat, text, card)], None, number)
        problems: list[TrickProblem] = []
        before = self.seen.see(card, number)
        if before is not None:
            problems.append(TrickProblem(
                SEEN_TWICE, number, seat,
                f"{card} seen twice: in trick {before} and again from {self.names[seat]} in trick {number} "
                f"(a misread or a foul deck)", card,
            ))
        for proof in self.claims.observe(seat, card, number):
            problems.append(proof_problem(proof, self.names))
        self.claims.add(follow_claim(seat, number, card, self.history.current.led_suit, self.names[seat]))
        done = self.history.play(seat, card)
        return PlayOutcome(True, problems, done, number)

    def collect(self) -> TrickProblem | None:
        """The table swept the current trick: a problem if it holds some but
        not all of the cards (the trick stays open to be re-shown), else ``None``."""
        current = self.history.current
        if 0 < len(current.plays) < self.history.n_seats:
            number = self.trick_number
            return TrickProblem(
                WRONG_COUNT, number, None,
                f"trick {number} was collected with {len(current.plays)} of {self.history.n_seats} cards "
                f"seen ({current.format(self.names)}): show the trick again", None,
            )
        return None


def audit_tricks(
    tricks: Sequence[Trick],
    *,
    n_seats: int,
    first_leader: int,
    names: Sequence[str] | None = None,
    first_number: int = 1,
) -> list[TrickProblem]:
    """Checks a sequence of recorded tricks of one deal: each trick has
    ``n_seats`` cards, is led by the last winner and played clockwise, no card
    appears twice, and no failure to follow is contradicted by later play.

    A trick with the wrong number of cards is reported and not used to find
    the next leader (the trick after it is expected from the same leader).
    """
    label = tuple(names) if names else tuple(str(i) for i in range(n_seats))
    claims = ClaimBook()
    seen = SeenCards()
    problems: list[TrickProblem] = []
    leader = first_leader
    for i, trick in enumerate(tricks):
        number = first_number + i
        if len(trick.plays) != n_seats:
            problems.append(TrickProblem(
                WRONG_COUNT, number, None,
                f"trick {number} has {len(trick.plays)} cards, not {n_seats} ({trick.format(label)})",
            ))
        for pos, (seat, card) in enumerate(trick.plays):
            expected = (leader + pos) % n_seats
            if seat != expected:
                problems.append(TrickProblem(
                    OUT_OF_TURN, number, seat,
                    f"{label[seat]} played {card} out of turn in trick {number} "
                    f"({label[expected]} was to play)",
                    card,
                ))
            before = seen.see(card, number)
            if before is not None:
                problems.append(TrickProblem(
                    SEEN_TWICE, number, seat,
                    f"{card} seen twice: in trick {before} and in trick {number}", card,
                ))
            problems.extend(proof_problem(p, label) for p in claims.observe(seat, card, number))
            if pos > 0:
                claims.add(follow_claim(seat, number, card, trick.led_suit, label[seat]))
        if len(trick.plays) == n_seats:
            leader = trick.winner
    return problems


def parse_hand(text: str) -> list[Card]:
    """Parses a hand line of the rule sheets, ``"S K Q 3 | H A Q J 8 | D - | C A 2"``,
    or a plain card list ``"KS QS 3S"``.

    >>> [str(c) for c in parse_hand("S K 10 | H - | D 4 | C A")]
    ['KS', '10S', '4D', 'AC']
    """
    if "|" not in text and not re.match(r"^\s*[SHDC]\s+(?:[AKQJT2-9]|10|-)(?:\s|$)", text, re.I):
        return parse_cards(text)
    cards: list[Card] = []
    for group in text.split("|"):
        toks = group.split()
        if not toks:
            continue
        suit = Suit.parse(toks[0])
        for tok in toks[1:]:
            if tok == "-":
                continue
            cards.append(Card(Rank.parse(tok), suit))
    return cards

