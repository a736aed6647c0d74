"""Four-Point Northeastern Wisconsin Smear: options, auction, discard and scoring rules.

Rule source: ``rules/smear.md`` (version 1.0) of the project's shared specs. The
section numbers below (§5.2, §6.4, §8, §9) refer to it. These are the rules the
strict engine (:mod:`kiosk.games.smear`) and the referee
(:mod:`kiosk.games.smear_referee`) share, as plain functions of plain values.

Glossary:

- **seat**: 0..3 in clockwise order, written N, E, S, W; N and S (0, 2) are
  team 0 ("NS"), E and W (1, 3) team 1 ("EW").
- **bid**: 2, 3 or 4, the number of Points the bidder's team undertakes to win.
- **blind**: the 8 undealt cards; the bidder takes the top ``blind_cards`` of them
  and lays the same number of **discards** face down. The rest stay **unseen**.
- **Points** (capital P): High, Low, Jack and Game, one each. **Card points**
  (A 4, K 3, Q 2, J 1, ten 10) decide only the Game Point.
- **made** / **set**: the bidder's team won at least / fewer than its bid.
- **smear**: to play a counting card on a partner's winning trick.

>>> [str(c) for c in smear_deck()[:8]]
['AC', '7C', '8C', '9C', '10C', 'JC', 'QC', 'KC']
>>> card_points(Card.parse("10H")), card_points(Card.parse("9H")), card_points(Card.parse("AS"))
(10, 0, 4)
>>> auction_order(3)
[0, 1, 2, 3]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.games.base import Options, option
from kiosk.games.cards import Card, Rank, Suit, piquet_deck
from kiosk.games.errors import InvalidActionError
from kiosk.games.tricks import ACE_HIGH, Trick, rank_value

__all__ = [
    "SmearOptions",
    "SEAT_LETTERS",
    "TEAM_NAMES",
    "NUM_SEATS",
    "HAND_SIZE",
    "BLIND_SIZE",
    "TRICKS_PER_HAND",
    "MIN_BID",
    "MAX_BID",
    "PACK_POINTS",
    "smear_deck",
    "card_points",
    "team_of",
    "partner_of",
    "left_of",
    "auction_order",
    "legal_bids",
    "may_pass",
    "discard_fits_lead",
    "discard_is_legal",
    "legal_discards",
    "legal_first_leads",
    "HandScore",
    "score_hand",
    "settle_hand",
    "GameResult",
]

SEAT_LETTERS = "NESW"
"""Seat letters by index, clockwise (smear.md §0)."""
TEAM_NAMES = ("NS", "EW")
NUM_SEATS = 4
HAND_SIZE = 6
BLIND_SIZE = 8
TRICKS_PER_HAND = 6
MIN_BID = 2
MAX_BID = 4
PACK_POINTS = 80
"""Card points in the whole 32-card pack (20 per suit)."""

_CARD_POINTS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}


@dataclass(frozen=True)
class SmearOptions(Options):
    """The agreements made before a game (smear.md §3 and §11), with the spec's defaults."""

    blind_cards: int = option(0, "undealt cards the winning bidder takes and then discards",
                              choices=(0, 1, 2, 3))
    target_score: int = option(15, "score needed to win")
    all_pass: str = option(
        "redeal_same_dealer", "what happens when all four pass",
        choices=("redeal_same_dealer", "redeal_next_dealer", "dealer_must_bid"),
    )
    dealer_may_match: bool = option(False, "the dealer may take the contract by equalling the high bid")
    follow_rule: str = option(
        "follow_or_trump", "follow suit or trump (default), or strictly follow suit",
        choices=("follow_or_trump", "strict"),
    )
    high_low_basis: str = option(
        "in_play", "High/Low are the highest/lowest trumps played, or only the ace and the 7",
        choices=("in_play", "ace_and_seven_only"),
    )
    low_credit: str = option(
        "player_who_played", "Low scores for the team that played it, or that won its trick",
        choices=("player_who_played", "trick_winner"),
    )
    jack_in_discard: str = option(
        "no_point", "a discarded jack of trump scores for nobody, or for the bidder's team",
        choices=("no_point", "bidder_team"),
    )
    trump_discard_rule: str = option(
        "keep_max_trumps", "the bidder keeps min(trumps, 6) trumps, or may discard any with 7 or more",
        choices=("keep_max_trumps", "only_if_over_six"),
    )
    win_requires_made_bid: bool = option(False, "a team can win only in a hand where it bid and made it")
    nonbidder_score_cap: int | None = option(None, "cap on the non-bidding team's score after a hand "
                                             "(none, or e.g. 14 or 15)")
    both_reach_rule: str = option(
        "higher_score_then_bidder", "who wins when both teams reach the target in one hand",
        choices=("higher_score_then_bidder", "bidder_wins"),
    )
    revoke_policy: str = option(
        "flag_only", "a proven revoke is only flagged, or costs the offenders the bid",
        choices=("flag_only", "bid_setback"),
    )
    first_dealer: str = option("random", "the first dealer: drawn at random, or a seat letter",
                               choices=("random", "N", "E", "S", "W"))

    def __post_init__(self) -> None:
        if isinstance(self.target_score, bool) or not isinstance(self.target_score, int) \
                or self.target_score < 1:
            raise InvalidActionError(
                f"option 'target_score' must be a positive whole number, got {self.target_score!r}",
                input=repr(self.target_score),
            )
        cap = self.nonbidder_score_cap
        if isinstance(cap, str) and cap.strip().lower() == "none":
            # smear.md §11 lists the allowed values as "none, or an integer": a log written from
            # the spec may spell "no cap" as the string "none" rather than JSON null.
            object.__setattr__(self, "nonbidder_score_cap", None)
            cap = None
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)):
            raise InvalidActionError(
                f"option 'nonbidder_score_cap' must be null or a whole number such as 14, got {cap!r}",
                input=repr(cap),
            )


def smear_deck() -> list[Card]:
    """Returns the 32-card pack (A K Q J 10 9 8 7 of each suit) in a fixed order."""
    return piquet_deck()


def card_points(card: Card) -> int:
    """Card points for the Game Point: A 4, K 3, Q 2, J 1, ten 10, others 0."""
    return _CARD_POINTS.get(card.rank, 0)


def team_of(seat: int) -> int:
    """The team of a seat: 0 for N and S, 1 for E and W."""
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat opposite."""
    return (seat + 2) % NUM_SEATS


def left_of(seat: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % NUM_SEATS


def auction_order(dealer: int) -> list[int]:
    """The seats in bidding order: left of the dealer first, the dealer last (§5.2)."""
    return [(dealer + k) % NUM_SEATS for k in range(1, NUM_SEATS + 1)]


def legal_bids(options: SmearOptions, high: int, *, is_dealer: bool) -> list[int]:
    """The bids a seat may make over the highest bid so far (0 when none; §5.2).

    >>> legal_bids(SmearOptions(), 2, is_dealer=False), legal_bids(SmearOptions(), 3, is_dealer=True)
    ([3, 4], [4])
    >>> legal_bids(SmearOptions(dealer_may_match=True), 3, is_dealer=True)
    [3, 4]
    """
    low = max(MIN_BID, high + 1)
    if is_dealer and options.dealer_may_match and high >= MIN_BID:
        low = high
    return list(range(low, MAX_BID + 1))


def may_pass(options: SmearOptions, high: int, *, is_dealer: bool) -> bool:
    """False only for the dealer after three passes under ``all_pass = dealer_must_bid``."""
    return not (is_dealer and high == 0 and options.all_pass == "dealer_must_bid")


def _count(cards: Iterable[Card], suit: Suit) -> int:
    return sum(1 for c in cards if c.suit is suit)


def discard_fits_lead(options: SmearOptions, held: Iterable[Card], discards: Iterable[Card],
                      lead_suit: Suit) -> bool:
    """True if the discards obey the trump-discard rule (§6.4) when ``lead_suit``
    becomes trump. ``held`` is the bidder's hand after taking the blind.

    >>> held = [Card.parse(c) for c in "AS KS QS JS 10S 8S 7S 9D 10C".split()]
    >>> discard_fits_lead(SmearOptions(), held, [Card.parse(c) for c in "9D 10C JS".split()], Suit.SPADES)
    True
    >>> discard_fits_lead(SmearOptions(), held, [Card.parse(c) for c in "KS QS JS".split()], Suit.SPADES)
    False
    """
    held = list(held)
    trumps = _count(held, lead_suit)
    kept = trumps - _count(discards, lead_suit)
    if options.trump_discard_rule == "only_if_over_six":
        return trumps > HAND_SIZE or kept == trumps
    return kept >= min(trumps, HAND_SIZE)


def discard_is_legal(options: SmearOptions, held: Sequence[Card], discards: Sequence[Card]) -> bool:
    """True if ``discards`` are ``len(held) - 6`` different cards of ``held`` and some
    suit left in the kept hand could still be led as trump (see :func:`legal_discards`)."""
    if len(discards) != len(held) - HAND_SIZE or len(set(discards)) != len(discards):
        return False
    if any(c not in held for c in discards):
        return False
    kept_suits = {c.suit for c in held if c not in discards and c.suit is not None}
    return any(discard_fits_lead(options, held, discards, s) for s in kept_suits)


def legal_discards(options: SmearOptions, held: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every discard the bidder may make from ``held`` (6 + n cards), sorted.

    A discard is legal when at least one suit left in the kept hand could be led
    as trump without breaking the trump-discard rule; the first lead is then
    restricted to such suits (:func:`legal_first_leads`), which is how the
    strict engine applies a rule that is judged against the suit actually led.
    """
    n = len(held) - HAND_SIZE
    if n <= 0:
        return []
    totals = Counter(c.suit for c in held)
    over_six = options.trump_discard_rule == "only_if_over_six"
    out = []
    for combo in itertools.combinations(sorted(held), n):
        dropped = Counter(c.suit for c in combo)
        # Same test as discard_fits_lead, with the suit counts made once per hand.
        for suit, total in totals.items():
            kept = total - dropped[suit]
            fits = (total > HAND_SIZE or kept == total) if over_six else kept >= min(total, HAND_SIZE)
            if kept > 0 and fits:
                out.append(combo)
                break
    return out


def legal_first_leads(options: SmearOptions, held: Sequence[Card], discards: Sequence[Card],
                      hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` the bidder may lead to trick 1 after discarding.

    With no blind every card may be led; otherwise only cards of a suit that
    the discard rule allows as trump.
    """
    if not discards:
        return list(hand)
    return [c for c in hand if c.suit is not None and discard_fits_lead(options, held, discards, c.suit)]


@dataclass(frozen=True, slots=True)
class HandScore:
    """The scoring of one hand (smear.md §8): who won each Point and the score changes."""

    bidder: int
    bid: int
    trump: Suit
    high: int | None
    """The team scoring High, or None if it is not awarded."""
    low: int | None
    jack: int | None
    game: int | None
    high_card: Card | None
    low_card: Card | None
    card_points: tuple[int, int]
    """Card points per team (the bidder's discards included for the bidder's team)."""
    points: tuple[int, int]
    """Points won per team (0 to 4)."""
    made: bool
    """True if the bidding team made its bid. Under ``revoke_policy = bid_setback`` a revoke
    decides it: True when the other team revoked (the bidder cannot be set), False when the
    bidding team revoked (it loses the bid whatever it won)."""
    deltas: tuple[int, int]
    """The score change per team before any ``nonbidder_score_cap`` (§8.5, §10)."""
    revoke_team: int | None = None
    """The team charged under ``revoke_policy = bid_setback`` with a revoke, or (the bidder's
    team) with an illegal trump discard, which §10 handles the same way."""

    @property
    def bidder_team(self) -> int:
        return team_of(self.bidder)

    def point_names(self, team: int) -> list[str]:
        """The Points a team won, by name: ``['High', 'Low']``."""
        named = (("High", self.high), ("Low", self.low), ("Jack", self.jack), ("Game", self.game))
        return [name for name, who in named if who == team]


def score_hand(options: SmearOptions, *, bidder: int, bid: int, tricks: Sequence[Trick],
               discards: Sequence[Card] = (), revoke_team: int | None = None) -> HandScore:
    """Scores a played hand: High, Low, Jack, Game and the made/set changes (§8, §10).

    ``tricks`` are the six tricks as played; trump is the suit of the first
    card led (§7.1), and each trick's winner is found here with that trump and
    the ranks A K Q J 10 9 8 7 (ace high, §1, §7.3), whatever trump or rank
    order the given :class:`Trick` values carry. ``revoke_team``, when set and
    the policy is ``bid_setback``, applies the revoke penalty of §10.

    Raises ValueError if no card was played (there is no trump to score).
    """
    if not tricks or not tricks[0].plays:
        raise ValueError("a hand without a first lead has no trump and cannot be scored")
    trump = tricks[0].plays[0][1].suit
    assert trump is not None
    # A trick parsed or built without this hand's trump would give a ruffed trick to the
    # suit led and move Jack and Game: judge every trick with the trump the first lead named.
    tricks = [t if t.trump is trump and t.order == ACE_HIGH else Trick(t.leader, t.plays, trump, ACE_HIGH)
              for t in tricks]
    order = rank_value
    trump_plays = [(seat, card, t.winner) for t in tricks for seat, card in t.plays if card.suit is trump]
    high: int | None = None
    low: int | None = None
    high_card = low_card = None
    if trump_plays:
        hi = max(trump_plays, key=lambda p: order(p[1]))
        lo = min(trump_plays, key=lambda p: order(p[1]))
        if options.high_low_basis == "in_play" or hi[1].rank is Rank.ACE:
            high, high_card = team_of(hi[0]), hi[1]
        if options.high_low_basis == "in_play" or lo[1].rank is Rank.SEVEN:
            low_seat = lo[2] if options.low_credit == "trick_winner" else lo[0]
            low, low_card = team_of(low_seat), lo[1]
    jack_of_trump = Card(Rank.JACK, trump)
    jack: int | None = None
    for t in tricks:
        if any(card == jack_of_trump for _, card in t.plays):
            jack = team_of(t.winner)
            break
    else:
        if jack_of_trump in discards and options.jack_in_discard == "bidder_team":
            jack = team_of(bidder)
    cp = [0, 0]
    for t in tricks:
        cp[team_of(t.winner)] += sum(card_points(c) for _, c in t.plays)
    cp[team_of(bidder)] += sum(card_points(c) for c in discards)
    game = None if cp[0] == cp[1] else (0 if cp[0] > cp[1] else 1)
    won = [0, 0]
    for who in (high, low, jack, game):
        if who is not None:
            won[who] += 1
    bt = team_of(bidder)
    deltas = [won[0], won[1]]
    made = won[bt] >= bid
    charged: int | None = None
    if revoke_team is not None and options.revoke_policy == "bid_setback":
        charged = revoke_team
        deltas[revoke_team] = -bid
        # The bidding team cannot be set when the other team revoked, and is set
        # (loses the bid, scores none of its Points) when it revoked itself (§10).
        made = revoke_team != bt
    elif not made:
        deltas[bt] = -bid
    return HandScore(
        bidder=bidder, bid=bid, trump=trump, high=high, low=low, jack=jack, game=game,
        high_card=high_card, low_card=low_card, card_points=(cp[0], cp[1]),
        points=(won[0], won[1]), made=made, deltas=(deltas[0], deltas[1]), revoke_team=charged,
    )


@dataclass(frozen=True, slots=True)
class GameResult:
    """The scores after a hand and the winning team, if the game is over (§9)."""

    scores: tuple[int, int]
    winner: int | None


def settle_hand(options: SmearOptions, scores: Sequence[int], hand: HandScore) -> GameResult:
    """Applies a hand's score changes (with ``nonbidder_score_cap``) and the end rules (§9).

    >>> o = SmearOptions()
    >>> h = HandScore(bidder=1, bid=3, trump=Suit.CLUBS, high=1, low=0, jack=0, game=0, high_card=None,
    ...               low_card=None, card_points=(37, 36), points=(3, 1), made=False, deltas=(3, -3))
    >>> settle_hand(o, (13, 12), h)
    GameResult(scores=(16, 9), winner=0)
    >>> settle_hand(SmearOptions(win_requires_made_bid=True), (13, 12), h).winner is None
    True
    """
    bt = hand.bidder_team
    new = list(scores)
    for team in (0, 1):
        old, gained = scores[team], hand.deltas[team]
        cap = options.nonbidder_score_cap
        if team != bt and cap is not None and gained > 0:
            new[team] = max(old, min(old + gained, cap))
        else:
            new[team] = old + gained
    target = options.target_score
    winner: int | None = None
    if options.win_requires_made_bid:
        if hand.made and hand.revoke_team != bt and new[bt] >= target:
            winner = bt
    else:
        reached = [t for t in (0, 1) if new[t] >= target]
        if len(reached) == 1:
            winner = reached[0]
        elif len(reached) == 2:
            if options.both_reach_rule == "bidder_wins" or new[0] == new[1]:
                winner = bt
            else:
                winner = 0 if new[0] > new[1] else 1
    return GameResult((new[0], new[1]), winner)
