"""Smear audited rule by rule against ``rules/smear.md``: one test per rule the worked examples leave open.

Two kinds of test live here. Short cases pin one rule each (the section is named in
the test). Cross-checks play seeded random games through the strict engine under
mixed options and compare every auction, discard, play, hand score and game end
with a small model of the spec written here from the rule text alone (card ranks,
trick winners and Points computed from card strings, not with the engine's helpers),
so a rule implemented wrongly anywhere in a game shows up as a difference.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from kiosk.games.base import options_to_dict
from kiosk.games.cards import Card, Suit, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.referee import RefereeReport, TableEvent
from kiosk.games.smear import Bid, Deal, Discard, Pass, Phase, PlayCard, SmearGame, SmearState
from kiosk.games.smear_referee import history_to_events
from kiosk.games.smear_rules import HandScore, SmearOptions, score_hand, settle_hand
from kiosk.games.tricks import Trick
from tests.games.smear_fixtures import (
    EX_13_3,
    EX_13_4,
    EX_13_5,
    EX_13_6,
    EXAMPLES,
    SEATS,
    EventClock,
    example_events,
)

NS, EW = 0, 1

# -- the spec as a model ---------------------------------------------------------------------------

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]  # §1: low to high in every suit, trumps included
VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}  # §1: card points for Game


def rank(card: Card) -> str:
    return str(card)[:-1]


def suit(card: Card) -> str:
    return str(card)[-1]


def strength(card: Card) -> int:
    return RANKS.index(rank(card))


def value(card: Card) -> int:
    return VALUES.get(rank(card), 0)


def team(seat: int) -> int:
    return seat % 2  # §0, §2: N and S against E and W


def model_winner(plays: Sequence[tuple[int, Card]], trump: str) -> int:
    """§7.3: the highest trump, else the highest card of the suit led."""
    trumps = [p for p in plays if suit(p[1]) == trump]
    pool = trumps or [p for p in plays if suit(p[1]) == suit(plays[0][1])]
    return max(pool, key=lambda p: strength(p[1]))[0]


def model_legal_follow(hand: Sequence[Card], led: str, trump: str, follow_rule: str) -> set[Card]:
    """§7.2 for a seat that follows."""
    same = {c for c in hand if suit(c) == led}
    trumps = {c for c in hand if suit(c) == trump}
    if led == trump:
        return trumps or set(hand)
    if not same:
        return set(hand)
    return same if follow_rule == "strict" else same | trumps


def model_keeps_enough(opts: SmearOptions, held: Sequence[Card], discards: Sequence[Card], lead: str) -> bool:
    """§6.4 and the ``trump_discard_rule`` option, judged against the suit led."""
    t = sum(1 for c in held if suit(c) == lead)
    kept = t - sum(1 for c in discards if suit(c) == lead)
    if opts.trump_discard_rule == "only_if_over_six":
        return t >= 7 or kept == t
    return kept >= min(t, 6)


def model_bids(opts: SmearOptions, high: int, is_dealer: bool) -> set[int]:
    """§5.2 with ``dealer_may_match``."""
    low = max(2, high + 1)
    if is_dealer and opts.dealer_may_match and high >= 2:
        low = high
    return set(range(low, 5))


@dataclasses.dataclass
class ModelHand:
    high: int | None
    low: int | None
    jack: int | None
    game: int | None
    card_points: tuple[int, int]
    points: tuple[int, int]
    made: bool
    deltas: tuple[int, int]


def model_score(opts: SmearOptions, bidder: int, bid: int, tricks: Sequence[Sequence[tuple[int, Card]]],
                discards: Sequence[Card]) -> ModelHand:
    """§8: High, Low, Jack, Game and the made/set changes (no revoke)."""
    trump = suit(tricks[0][0][1])
    winners = [model_winner(t, trump) for t in tricks]
    played = [(s, c, w) for t, w in zip(tricks, winners, strict=True) for s, c in t if suit(c) == trump]
    top = max(played, key=lambda p: strength(p[1]))
    bottom = min(played, key=lambda p: strength(p[1]))
    ace_seven = opts.high_low_basis == "ace_and_seven_only"
    high = None if ace_seven and rank(top[1]) != "A" else team(top[0])
    low_seat = bottom[2] if opts.low_credit == "trick_winner" else bottom[0]
    low = None if ace_seven and rank(bottom[1]) != "7" else team(low_seat)
    jack = None
    jack_name = "J" + trump
    for t, w in zip(tricks, winners, strict=True):
        if any(str(c) == jack_name for _, c in t):
            jack = team(w)
    if jack is None and opts.jack_in_discard == "bidder_team" and any(str(c) == jack_name for c in discards):
        jack = team(bidder)
    cp = [0, 0]
    for t, w in zip(tricks, winners, strict=True):
        cp[team(w)] += sum(value(c) for _, c in t)
    cp[team(bidder)] += sum(value(c) for c in discards)
    game = None if cp[0] == cp[1] else (0 if cp[0] > cp[1] else 1)
    won = [sum(1 for p in (high, low, jack, game) if p == k) for k in (0, 1)]
    bt = team(bidder)
    made = won[bt] >= bid
    deltas = list(won)
    if not made:
        deltas[bt] = -bid
    return ModelHand(high, low, jack, game, (cp[0], cp[1]), (won[0], won[1]), made, (deltas[0], deltas[1]))


def model_settle(opts: SmearOptions, scores: Sequence[int], bt: int, deltas: Sequence[int],
                 made: bool) -> tuple[tuple[int, int], int | None]:
    """§9 with ``nonbidder_score_cap``, ``win_requires_made_bid`` and ``both_reach_rule``."""
    new = [scores[k] + deltas[k] for k in (0, 1)]
    cap = opts.nonbidder_score_cap
    if cap is not None:
        old = scores[1 - bt]
        new[1 - bt] = max(old, min(old + deltas[1 - bt], cap))
    target = opts.target_score
    if opts.win_requires_made_bid:
        return (new[0], new[1]), (bt if made and new[bt] >= target else None)
    reached = [k for k in (0, 1) if new[k] >= target]
    if not reached:
        return (new[0], new[1]), None
    if len(reached) == 1:
        return (new[0], new[1]), reached[0]
    if opts.both_reach_rule == "bidder_wins" or new[0] == new[1]:
        return (new[0], new[1]), bt
    return (new[0], new[1]), (0 if new[0] > new[1] else 1)


# -- cross-checks over seeded random games ---------------------------------------------------------


def random_options(rng: random.Random) -> dict[str, Any]:
    """A random pick from every option's allowed values (§3, §11)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(SmearOptions):
        choices = f.metadata.get("choices")
        if choices is not None:
            out[f.name] = rng.choice(choices)
        elif isinstance(f.default, bool):
            out[f.name] = rng.random() < 0.5
    out["target_score"] = rng.choice([1, 4, 7, 15])
    out["nonbidder_score_cap"] = rng.choice([None, None, 3, 6, 14, 15])
    return out


def check_legal_actions(state: SmearState) -> None:
    """The engine's legal actions are exactly the model's (§5.2, §5.3, §6.4, §7.2)."""
    opts = state.options
    legal = state.legal_actions()
    seat = state.current_player()
    if state.phase is Phase.BIDDING:
        assert state.dealer is not None
        assert seat == (state.dealer + 1 + len(state.bids)) % 4  # clockwise from the dealer's left
        high = max((b for _, b in state.bids if b is not None), default=0)
        dealer = seat == state.dealer
        expected: set[object] = {Bid(seat, b) for b in model_bids(opts, high, dealer)}
        if not (dealer and high == 0 and opts.all_pass == "dealer_must_bid"):
            expected.add(Pass(seat))
        assert set(legal) == expected
    elif state.phase is Phase.DISCARD:
        held = state.hands[seat]
        n = opts.blind_cards
        fits = set()
        for combo in itertools.combinations(held, n):
            kept_suits = {suit(c) for c in held if c not in combo}
            if any(model_keeps_enough(opts, held, combo, s) for s in kept_suits):
                fits.add(frozenset(combo))
        assert {frozenset(a.cards) for a in legal if isinstance(a, Discard)} == fits
        assert len(legal) == len(fits)
    else:
        assert state.tricks is not None
        hand = state.hands[seat]
        current = state.tricks.current.plays
        if not current and not state.tricks.completed:
            assert seat == state.bidder  # §7.1: the bidder leads to trick 1
            if n := opts.blind_cards:
                assert len(state.held) == 6 + n
                ok = {c for c in hand if model_keeps_enough(opts, state.held, state.discards, suit(c))}
            else:
                ok = set(hand)
        elif not current:
            ok = set(hand)
        else:
            assert state.trump is not None
            ok = model_legal_follow(hand, suit(current[0][1]), state.trump.letter, opts.follow_rule)
        assert {a.card for a in legal if isinstance(a, PlayCard)} == ok
        assert len(legal) == len(ok)


def play_checked_game(options: dict[str, Any], seed: int, max_hands: int = 25) -> SmearState:
    """Plays random legal actions, checking every step and every hand against the model."""
    rng = random.Random(seed)
    game = SmearGame(options)
    opts = game.options
    state = game.new_initial_state()
    expected_dealer: int | None = None
    scores = (0, 0)
    while not state.is_terminal() and state.deal_count < max_hands:
        if state.is_chance_node():
            deal = state.sample_chance(rng)
            assert isinstance(deal, Deal)
            if expected_dealer is not None:
                assert deal.dealer == expected_dealer
            state.apply_action(deal)
            dealt = deal
            continue
        check_legal_actions(state)
        legal = state.legal_actions()
        # Bids are rarer than passes so that all-pass hands come up too.
        passes = [a for a in legal if isinstance(a, Pass)]
        action = passes[0] if passes and rng.random() < 0.55 else rng.choice(legal)
        state.apply_action(action)
        if state.phase is Phase.DISCARD and state.bidder is not None:
            n = opts.blind_cards
            taken = state.hands[state.bidder]
            assert sorted(taken) == sorted(list(dealt.hands[state.bidder]) + list(dealt.blind[:n]))  # §6.2
        if isinstance(action, (Bid, Pass)) and state.phase is Phase.DEAL:
            # §5.3: all passed, nothing scored; who deals again depends on all_pass.
            assert state.scores == list(scores)
            assert state.dealer is not None
            same = opts.all_pass == "redeal_same_dealer"
            expected_dealer = state.dealer if same else (state.dealer + 1) % 4
        elif isinstance(action, PlayCard) and state.phase in (Phase.DEAL, Phase.GAME_OVER):
            assert state.tricks is not None and state.bidder is not None and state.dealer is not None
            tricks = [list(t.plays) for t in state.tricks.completed]
            assert len(tricks) == 6 and all(len(t) == 4 for t in tricks)
            trump = suit(tricks[0][0][1])  # §7.1: the first card names trump
            assert [t.winner for t in state.tricks.completed] == [model_winner(t, trump) for t in tricks]
            assert [t.plays[0][0] for t in state.tricks.completed[1:]] == \
                [model_winner(t, trump) for t in tricks[:-1]]  # §7.1: the winner leads next
            model = model_score(opts, state.bidder, state.high, tricks, state.discards)
            hand = state.results[-1]
            assert (hand.high, hand.low, hand.jack, hand.game) == \
                (model.high, model.low, model.jack, model.game)
            assert (hand.card_points, hand.points, hand.made, hand.deltas) == \
                (model.card_points, model.points, model.made, model.deltas)
            unseen = sum(value(c) for c in dealt.blind[opts.blind_cards:])
            assert sum(hand.card_points) + unseen == 80  # §8.4 check
            scores, winner = model_settle(opts, scores, team(state.bidder), model.deltas, model.made)
            assert tuple(state.scores) == scores
            assert state.winner == winner
            assert state.is_terminal() == (winner is not None)
            expected_dealer = (state.dealer + 1) % 4  # §4.5
    return state


def _option_mixes(count: int) -> list[dict[str, Any]]:
    rng = random.Random(2026)
    return [random_options(rng) for _ in range(count)]


MIXES = _option_mixes(24)


@pytest.mark.parametrize("index", range(len(MIXES)))
def test_engine_matches_the_spec_model_over_random_games(index: int) -> None:
    play_checked_game(MIXES[index], seed=100 + index)


def test_the_option_mixes_cover_every_allowed_value() -> None:
    for f in dataclasses.fields(SmearOptions):
        for choice in f.metadata.get("choices") or ():
            assert any(m[f.name] == choice for m in MIXES), (f.name, choice)
    assert {m["dealer_may_match"] for m in MIXES} == {True, False}
    assert {m["win_requires_made_bid"] for m in MIXES} == {True, False}


def referee_report(events: list[TableEvent], **options: Any) -> RefereeReport:
    ref = SmearGame(options, seats=SEATS).referee()
    ref.feed_all(events)
    return ref.report()


def kinds(report: RefereeReport) -> list[str]:
    return [i.kind for i in report.infractions]


@pytest.mark.parametrize("index", range(0, len(MIXES), 3))
def test_the_referee_reports_each_hand_as_the_model_scores_it(index: int) -> None:
    state = play_checked_game(MIXES[index], seed=100 + index)
    options = options_to_dict(state.options)
    report = referee_report(history_to_events(state.history(), SEATS, state.options), **options)
    assert kinds(report) == []
    names = ("NS", "EW")
    scored = iter(state.results)
    rows = report.extra["hands"]
    assert len(rows) == state.deal_count - (0 if state.is_terminal() else 1)
    for row in rows:
        if "not_scored" in row:
            assert row == {"not_scored": "all passed"}
            continue
        hand = next(scored)
        named = [None if t is None else names[t] for t in (hand.high, hand.low, hand.jack, hand.game)]
        assert [row["high"], row["low"], row["jack"], row["game"]] == named
        assert row["card_points"] == dict(zip(names, hand.card_points, strict=True))
        assert row["points"] == dict(zip(names, hand.points, strict=True))
        assert [row["high_card"], row["low_card"]] == [None if c is None else str(c)
                                                       for c in (hand.high_card, hand.low_card)]
        assert row["made"] is hand.made and row["bid"] == hand.bid and row["trump"] == hand.trump.letter
    assert next(scored, None) is None
    assert report.extra["teams"] == dict(zip(names, state.scores, strict=True))
    assert report.finished is state.is_terminal()


# -- §1 the pack, card points and ranking ----------------------------------------------------------


def test_1_the_pack_has_32_cards_no_joker_and_80_card_points() -> None:
    from kiosk.games.smear_rules import card_points, smear_deck

    deck = smear_deck()
    assert len(deck) == len(set(deck)) == 32
    assert {rank(c) for c in deck} == set(RANKS)
    for s in "SHDC":
        assert sum(card_points(c) for c in deck if suit(c) == s) == 20
    assert sum(card_points(c) for c in deck) == 80
    assert [card_points(Card.parse(f"{r}D")) for r in RANKS] == [0, 0, 0, 10, 1, 2, 3, 4]


@pytest.mark.parametrize(("record", "trump", "winner"), [
    ("N:10S E:JS S:9S W:7S", Suit.SPADES, "E"),  # the ten ranks between the jack and the nine
    ("N:9H E:10H S:8H W:7H", Suit.SPADES, "E"),
    ("N:KH E:JD S:7H W:8H", Suit.HEARTS, "N"),  # no left bower: JD is a plain diamond
    ("N:8C E:JS S:AC W:7H", Suit.CLUBS, "S"),  # JS is a plain spade when clubs are trump
    ("N:AD E:7S S:KD W:QD", Suit.SPADES, "E"),  # the lowest trump beats the ace of the suit led
    ("N:QD E:AH S:KC W:JD", Suit.SPADES, "N"),  # off-suit cards never win
])
def test_7_3_who_wins_a_trick(record: str, trump: Suit, winner: str) -> None:
    assert SEATS[Trick.parse(record, SEATS, trump=trump).winner] == winner


# -- §3, §11 the options table ---------------------------------------------------------------------

SPEC_OPTIONS: dict[str, tuple[object, tuple[object, ...] | None]] = {
    "blind_cards": (0, (0, 1, 2, 3)),
    "target_score": (15, None),
    "all_pass": ("redeal_same_dealer", ("redeal_same_dealer", "redeal_next_dealer", "dealer_must_bid")),
    "dealer_may_match": (False, None),
    "follow_rule": ("follow_or_trump", ("follow_or_trump", "strict")),
    "high_low_basis": ("in_play", ("in_play", "ace_and_seven_only")),
    "low_credit": ("player_who_played", ("player_who_played", "trick_winner")),
    "jack_in_discard": ("no_point", ("no_point", "bidder_team")),
    "trump_discard_rule": ("keep_max_trumps", ("keep_max_trumps", "only_if_over_six")),
    "win_requires_made_bid": (False, None),
    "nonbidder_score_cap": (None, None),
    "both_reach_rule": ("higher_score_then_bidder", ("higher_score_then_bidder", "bidder_wins")),
    "revoke_policy": ("flag_only", ("flag_only", "bid_setback")),
    "first_dealer": ("random", ("random", "N", "E", "S", "W")),
}


def test_11_every_option_has_the_spec_default_and_allowed_values() -> None:
    fields = {f.name: f for f in dataclasses.fields(SmearOptions)}
    assert set(fields) == set(SPEC_OPTIONS)
    for name, (default, choices) in SPEC_OPTIONS.items():
        assert fields[name].default == default and type(fields[name].default) is type(default), name
        assert fields[name].metadata.get("choices") == choices, name


@pytest.mark.parametrize("bad", [
    {"blind_cards": 4}, {"blind_cards": -1}, {"target_score": 0}, {"target_score": -15},
    {"target_score": "15"}, {"target_score": True}, {"nonbidder_score_cap": "14"},
    {"nonbidder_score_cap": True}, {"all_pass": "redeal"}, {"follow_rule": "must_trump"},
    {"dealer_may_match": "yes"}, {"joker": True},
])
def test_11_values_outside_the_table_are_refused_with_a_clear_error(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidActionError, match=next(iter(bad))):
        SmearGame(bad)


def test_3_any_positive_target_and_any_whole_cap_are_accepted() -> None:
    assert SmearGame({"target_score": 1}).options.target_score == 1
    assert SmearGame({"target_score": 31, "nonbidder_score_cap": 30}).options.nonbidder_score_cap == 30


# -- §4 dealing ------------------------------------------------------------------------------------


def test_4_the_deal_starts_left_of_the_dealer_and_the_blind_is_the_next_eight_cards() -> None:
    from kiosk.games.smear_rules import smear_deck

    for dealer in range(4):
        state = SmearGame({"first_dealer": "NESW"[dealer]}).new_initial_state()
        deal = state.sample_chance(random.Random(40 + dealer))
        deck = smear_deck()
        random.Random(40 + dealer).shuffle(deck)
        assert isinstance(deal, Deal) and deal.dealer == dealer
        assert deck[0] in deal.hands[(dealer + 1) % 4]  # the first card goes to the dealer's left
        assert list(deal.blind) == deck[24:]  # the blind's top card is the one that would come next


def test_4_4_a_misdeal_before_the_auction_is_redealt_by_the_same_dealer() -> None:
    events = [TableEvent("deal", 1, seat="E"), TableEvent("misdeal", 2, seat="E"),
              TableEvent("deal", 3, seat="E"), TableEvent("misdeal", 4),
              TableEvent("deal", 5, seat="S")]
    report = referee_report(events)
    assert kinds(report) == ["wrong_dealer"]  # the same dealer deals again, not the next one
    assert report.extra["hands"] == [{"not_scored": "misdeal"}] * 2


def test_4_4_a_misdeal_called_after_the_auction_started_is_ignored() -> None:
    events = [TableEvent("deal", 1, seat="W"), TableEvent("bid", 2, seat="N", data={"bid": 2}),
              TableEvent("misdeal", 3, seat="W")]
    events += example_events(EX_13_4, EventClock(10))[2:]  # the 13.4 hand goes on: E, S, W pass ...
    report = referee_report(events)
    assert kinds(report) == ["illegal_misdeal"]
    assert report.totals == {"N": 2, "E": 1, "S": 2, "W": 1}


def test_4_5_the_deal_passes_to_the_left_after_a_scored_hand() -> None:
    clock = EventClock()
    first = example_events(EX_13_4, clock)  # dealer W
    assert kinds(referee_report(first + [TableEvent("deal", clock(), seat="N")])) == []
    again = referee_report(first + [TableEvent("deal", clock(), seat="W")])
    assert kinds(again) == ["wrong_dealer"]
    assert "N was due to deal" in again.infractions[0].text


# -- §5 bidding ------------------------------------------------------------------------------------


def _auction(dealer: str, calls: list[tuple[str, int | None]], **options: Any) -> RefereeReport:
    events = [TableEvent("deal", 1, seat=dealer)]
    for i, (seat, bid) in enumerate(calls):
        if bid is None:
            events.append(TableEvent("pass", 2 + i, seat=seat))
        else:
            events.append(TableEvent("bid", 2 + i, seat=seat, data={"bid": bid}))
    return referee_report(events, **options)


@pytest.mark.parametrize(("high", "dealer", "match", "bids"), [
    (0, False, False, {2, 3, 4}), (0, True, False, {2, 3, 4}), (0, True, True, {2, 3, 4}),
    (2, False, False, {3, 4}), (2, False, True, {3, 4}), (2, True, False, {3, 4}), (2, True, True, {2, 3, 4}),
    (3, False, True, {4}), (3, True, False, {4}), (3, True, True, {3, 4}),
])
def test_5_2_legal_bids(high: int, dealer: bool, match: bool, bids: set[int]) -> None:
    from kiosk.games.smear_rules import legal_bids

    assert set(legal_bids(SmearOptions(dealer_may_match=match), high, is_dealer=dealer)) == bids


def test_5_2_a_bid_of_4_ends_the_auction_at_once_in_the_referee() -> None:
    report = _auction("W", [("N", 4), ("E", None)])
    assert kinds(report) == ["illegal_bid"] and "after the auction ended" in report.infractions[0].text
    assert [r.kind for r in report.rulings] == ["deal", "contract"]


def test_5_2_only_the_dealer_may_match_and_then_takes_the_contract() -> None:
    refused = _auction("W", [("N", 2), ("E", 2)], dealer_may_match=True)
    assert kinds(refused) == ["illegal_bid"]
    matched = _auction("W", [("N", 2), ("E", None), ("S", None), ("W", 2)], dealer_may_match=True)
    assert kinds(matched) == []
    assert matched.rulings[-1].kind == "contract" and matched.rulings[-1].seats == ("W",)
    assert kinds(_auction("W", [("N", 2), ("E", None), ("S", None), ("W", 2)])) == ["illegal_bid"]


def test_5_2_the_dealer_may_not_match_when_nobody_has_bid() -> None:
    state = SmearGame({"first_dealer": "W", "dealer_may_match": True}).new_initial_state()
    state.apply_action(EX_13_4.deal())
    for text in ("N:pass", "E:pass", "S:pass"):
        state.apply_text(text)
    assert [str(a) for a in state.legal_actions()] == ["W:pass", "W:bid 2", "W:bid 3", "W:bid 4"]


def test_5_2_every_player_calls_once_then_the_high_bidder_leads() -> None:
    state = SmearGame({"first_dealer": "W"}).new_initial_state()
    state.apply_action(EX_13_4.deal())
    for text in ("N:pass", "E:bid 2", "S:pass", "W:pass"):
        state.apply_text(text)
    assert state.phase is Phase.PLAY and state.bidder == 1 and state.current_player() == 1
    with pytest.raises(IllegalActionError):
        state.apply_text("N:bid 3")  # N has had its chance


@pytest.mark.parametrize(("all_pass", "next_dealer", "flagged"), [
    ("redeal_same_dealer", "N", []), ("redeal_same_dealer", "E", ["wrong_dealer"]),
    ("redeal_next_dealer", "E", []), ("redeal_next_dealer", "N", ["wrong_dealer"]),
])
def test_5_3_after_an_all_pass_the_referee_expects_the_right_dealer(
    all_pass: str, next_dealer: str, flagged: list[str]
) -> None:
    events = [TableEvent("deal", 1, seat="N")]
    events += [TableEvent("pass", 2 + i, seat=s) for i, s in enumerate("ESWN")]
    events.append(TableEvent("deal", 9, seat=next_dealer))
    report = referee_report(events, all_pass=all_pass)
    assert kinds(report) == flagged
    assert report.totals == dict.fromkeys(SEATS, 0)


# -- §6 the blind and the discard ------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_6_2_the_bidder_takes_the_top_n_blind_cards_and_must_discard_n(n: int) -> None:
    state = SmearGame({"first_dealer": "S", "blind_cards": n}).new_initial_state()
    state.apply_action(EX_13_6.deal())
    for call in EX_13_6.auction:
        state.apply_text(call)
    assert state.phase is Phase.DISCARD and state.current_player() == 0
    assert sorted(state.hands[0]) == sorted(list(EX_13_6.deal().hands[0]) + list(EX_13_6.deal().blind[:n]))
    assert {len(a.cards) for a in state.legal_actions() if isinstance(a, Discard)} == {n}
    with pytest.raises(IllegalActionError):
        state.apply_action(Discard(0, tuple(parse_cards("10C 9D 8H 10D")[: n + 1 if n < 3 else 2])))


def _fits(rule: str, held: str, discards: str, lead: Suit) -> bool:
    from kiosk.games.smear_rules import discard_fits_lead

    return discard_fits_lead(SmearOptions(blind_cards=3, trump_discard_rule=rule), parse_cards(held),
                             parse_cards(discards), lead)


@pytest.mark.parametrize(("rule", "held", "discards", "fits"), [
    # Six spades: every one must be kept, under both rules.
    ("keep_max_trumps", "AS KS QS JS 10S 9S 9D 10C 8H", "9D 10C 8H", True),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 9D 10C 8H", "9S 10C 8H", False),
    ("only_if_over_six", "AS KS QS JS 10S 9S 9D 10C 8H", "9S 10C 8H", False),
    # Seven spades: keep six (default), or discard anything (only_if_over_six).
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 10C 8H", "8S 10C 8H", True),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 10C 8H", "8S 9S 8H", False),
    ("only_if_over_six", "AS KS QS JS 10S 9S 8S 10C 8H", "8S 9S 10S", True),
    # Eight and nine spades: keep six, the surplus may go.
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 7S 8H", "7S 8S 8H", True),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 7S 8H", "7S 8S 9S", False),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 7S 8H", "AS 8S 7S", False),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 7S 8H", "AS 8H 7S", True),
    ("keep_max_trumps", "AS KS QS JS 10S 9S 8S 7S 8H", "AS KS 8H", True),
    # Fewer than six: keep them all.
    ("keep_max_trumps", "AH KS QS JS 10S 9S 8H 10C 8D", "AH 10C 8D", True),
    ("keep_max_trumps", "AH KS QS JS 10S 9S 8H 10C 8D", "10C 8D KS", False),
    ("only_if_over_six", "AH KS QS JS 10S 9S 8H 10C 8D", "10C 8D KS", False),
])
def test_6_4_the_trump_discard_rule(rule: str, held: str, discards: str, fits: bool) -> None:
    assert _fits(rule, held, discards, Suit.SPADES) is fits


def test_6_4_a_discarded_suit_member_forbids_only_that_lead() -> None:
    # One club held and discarded: clubs may not be led; spades (all kept) may.
    assert not _fits("keep_max_trumps", "AH KS QS JS 10S 9S 8S 10C 8D", "10C 8D AH", Suit.CLUBS)
    assert _fits("keep_max_trumps", "AH KS QS JS 10S 9S 8S 10C 8D", "10C 8D AH", Suit.SPADES)
    assert not _fits("keep_max_trumps", "AH KH QS JS 10S 9S 8S 10C 8D", "10C 8D AH", Suit.HEARTS)


def _hand_with_discards(discards: str, tricks: list[str], bid: int = 2, **options: Any) -> HandScore:
    played = [Trick.parse(t, SEATS, trump=Suit.SPADES) for t in tricks]
    return score_hand(SmearOptions(blind_cards=3, **options), bidder=0, bid=bid, tricks=played,
                      discards=parse_cards(discards))


# N bid 2, discarded AS 7S JS and led spades; E-W won tricks 2 and 6.
TRICKS_6_5 = ["N:KS E:QS S:9S W:10S", "N:QH E:AH S:7H W:KH", "E:10D S:8S W:AD N:KD",
              "S:AC W:JC N:8C E:9C", "S:QD W:JD N:9D E:7D", "S:9H W:10H N:8D E:KC"]


def test_6_5_discards_are_out_of_play_for_high_and_low_but_count_for_game() -> None:
    hand = _hand_with_discards("AS 7S JS", TRICKS_6_5)
    assert (hand.high_card, hand.low_card) == (Card.parse("KS"), Card.parse("8S"))
    assert (hand.high, hand.low) == (NS, NS)  # N's KS and S's 8S, not the discarded AS and 7S
    assert hand.jack is None  # the jack of trump was discarded: nobody (default)
    # NS tricks: 15 + 17 + 5 + 3 = 40, and the discards AS 4 + JS 1; EW tricks: 9 + 13.
    assert hand.card_points == (45, 22)
    assert (hand.game, hand.points, hand.made, hand.deltas) == (NS, (3, 0), True, (3, 0))
    assert _hand_with_discards("AS 7S JS", TRICKS_6_5, jack_in_discard="bidder_team").jack == NS
    basis = _hand_with_discards("AS 7S JS", TRICKS_6_5, high_low_basis="ace_and_seven_only")
    assert (basis.high, basis.low, basis.points) == (None, None, (1, 0))  # only Game is awarded
    assert (basis.made, basis.deltas) == (False, (-2, 0))


def test_8_4_discards_count_for_the_bidder_even_when_the_bidder_is_set() -> None:
    # N bid 3 and kept only trick 1: its discards (AS, JS: 5 card points) still count for NS.
    tricks = ["N:KS E:QS S:9S W:10S", "N:QH E:AH S:7H W:KH", "E:10D S:7D W:AD N:KD",
              "W:AC N:8C E:9C S:JC", "W:QD N:9D E:8D S:JD", "W:10H N:8H E:KC S:9H"]
    hand = _hand_with_discards("AS 7S JS", tricks, bid=3)
    assert hand.card_points == (15 + 5, 9 + 17 + 5 + 3 + 13)
    assert (hand.high, hand.low, hand.jack, hand.game) == (NS, NS, None, EW)
    assert (hand.points, hand.made, hand.deltas) == ((2, 1), False, (-3, 1))


def test_6_6_the_unseen_blind_counts_for_nobody() -> None:
    hand = EX_13_6.play().results[-1]
    unseen = parse_cards("8S KH 7D 9C 8C")
    assert sum(hand.card_points) == 80 - sum(value(c) for c in unseen)


# -- §7 the play -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "led", "rule", "legal"), [
    ("KS 7S AH 9D", Suit.SPADES, "follow_or_trump", "KS 7S"),  # trump led: a trump is due
    ("KS 7S AH 9D", Suit.SPADES, "strict", "KS 7S"),
    ("AH 9D 8C", Suit.SPADES, "follow_or_trump", "AH 9D 8C"),  # no trump: anything
    ("KC 10S 7D", Suit.CLUBS, "follow_or_trump", "KC 10S"),  # follow or trump, never a third suit
    ("KC 10S 7D", Suit.CLUBS, "strict", "KC"),
    ("KC 9C 7D", Suit.CLUBS, "follow_or_trump", "KC 9C"),  # no trump to ruff with
    ("10S 7D AH", Suit.CLUBS, "follow_or_trump", "10S 7D AH"),  # void: trump or discard anything
    ("10S 7D AH", Suit.CLUBS, "strict", "10S 7D AH"),
])
def test_7_2_legal_follows(hand: str, led: Suit, rule: str, legal: str) -> None:
    from kiosk.games.smear import smear_legal_plays

    assert set(smear_legal_plays(parse_cards(hand), led, Suit.SPADES, rule)) == set(parse_cards(legal))
    assert set(smear_legal_plays(parse_cards(hand), None, Suit.SPADES, rule)) == set(parse_cards(hand))


# -- §8 scoring a hand -----------------------------------------------------------------------------


def test_8_2_ace_and_seven_only_can_leave_high_and_low_unawarded() -> None:
    hand = EX_13_4.play(high_low_basis="ace_and_seven_only").results[-1]
    assert (hand.high, hand.low) == (NS, NS)  # AS and 7S were both played
    hand = EX_13_5.play(high_low_basis="ace_and_seven_only").results[-1]  # 9H is the only trump
    assert (hand.high, hand.low, hand.jack, hand.game) == (None, None, None, EW)
    assert (hand.points, hand.made, hand.deltas) == ((0, 1), False, (0, -2))


def test_8_5_a_set_bidder_may_go_negative_and_the_opponents_still_score() -> None:
    hand = EX_13_3.play().results[-1]
    result = settle_hand(SmearOptions(), (1, 2), hand)
    assert result.scores == (1 + 3, 2 - 3) and result.winner is None


# -- §9 the end of the game ------------------------------------------------------------------------


def _made_ns_2_1() -> HandScore:
    """13.4: N bid 2 and made it; NS +2, EW +1."""
    return EX_13_4.play().results[-1]


@pytest.mark.parametrize(("options", "before", "after", "winner"), [
    ({"target_score": 7}, (5, 0), (7, 1), NS),  # exactly the target wins
    ({"target_score": 7}, (4, 5), (6, 6), None),
    ({}, (0, 14), (2, 15), EW),  # the non-bidders reach 15 alone: they win
    ({"win_requires_made_bid": True}, (0, 14), (2, 15), None),  # ... not under win_requires_made_bid
    ({"win_requires_made_bid": True}, (13, 30), (15, 31), NS),  # the made bidder wins, whatever EW has
    ({}, (14, 14), (16, 15), NS),  # both reach: the higher score wins
    ({"both_reach_rule": "bidder_wins"}, (13, 14), (15, 15), NS),
    ({"nonbidder_score_cap": 14}, (13, 0), (15, 1), NS),  # the cap never limits the bidders
    ({"nonbidder_score_cap": 14}, (0, 14), (2, 14), None),
    ({"nonbidder_score_cap": 14, "target_score": 21}, (0, 16), (2, 16), None),  # max(old, ...): no loss
    ({"nonbidder_score_cap": 14}, (0, 13), (2, 14), None),
])
def test_9_end_of_game(options: dict[str, Any], before: tuple[int, int], after: tuple[int, int],
                       winner: int | None) -> None:
    result = settle_hand(SmearOptions(**options), before, _made_ns_2_1())
    assert result.scores == after
    assert result.winner == winner


def test_9_a_game_to_a_low_target_ends_in_the_engine() -> None:
    state = SmearGame({"first_dealer": "W", "target_score": 2}).new_initial_state()
    state.apply_action(EX_13_4.deal())
    for call in EX_13_4.auction:
        state.apply_text(call)
    for trick in EX_13_4.trick_plays():
        for seat, card in trick:
            state.apply_text(f"{seat}:{card}")
    assert state.is_terminal() and state.winner == NS and state.scores == [2, 1]
    assert state.legal_actions() == []


# -- §10 irregularities ----------------------------------------------------------------------------


def _tricks(ex: Any) -> list[Trick]:
    state = ex.play()
    assert state.tricks is not None
    return list(state.tricks.completed)


@pytest.mark.parametrize(("revoke_team", "deltas", "made"), [
    (NS, (-2, 1), False),  # the bidders revoked: they lose the bid and score none of their Points
    (EW, (2, -2), True),  # the other team revoked: it loses the bid; the bidders score theirs
])
def test_10_bid_setback(revoke_team: int, deltas: tuple[int, int], made: bool) -> None:
    opts = SmearOptions(revoke_policy="bid_setback")
    hand = score_hand(opts, bidder=0, bid=2, tricks=_tricks(EX_13_4), revoke_team=revoke_team)
    assert (hand.deltas, hand.made, hand.revoke_team) == (deltas, made, revoke_team)
    flag_only = score_hand(SmearOptions(), bidder=0, bid=2, tricks=_tricks(EX_13_4), revoke_team=revoke_team)
    assert (flag_only.deltas, flag_only.made, flag_only.revoke_team) == ((2, 1), True, None)


def test_10_a_bidder_that_could_be_set_cannot_be_when_the_other_team_revokes() -> None:
    # 13.3: EW bid 3 and won 1 Point; with an NS revoke EW keeps its Point and NS loses 3.
    opts = SmearOptions(revoke_policy="bid_setback")
    hand = score_hand(opts, bidder=1, bid=3, tricks=_tricks(EX_13_3), revoke_team=NS)
    assert (hand.deltas, hand.made) == ((-3, 1), True)


def test_10_a_revoking_bidder_cannot_win_under_win_requires_made_bid() -> None:
    opts = SmearOptions(revoke_policy="bid_setback", win_requires_made_bid=True, target_score=1)
    hand = score_hand(opts, bidder=0, bid=2, tricks=_tricks(EX_13_4), revoke_team=NS)
    assert settle_hand(opts, (20, 0), hand) == type(settle_hand(opts, (0, 0), hand))((18, 1), None)


# 13.4 with S revoking: on the club lead of trick 3 S plays 8D although it holds AC and 10C.
EX_REVOKE_BY_BIDDERS = dataclasses.replace(
    EX_13_4,
    tricks=[*EX_13_4.tricks[:2], "N:JC E:QC S:8D W:10S -> W", "W:7D N:KD E:10D S:AC -> N",
            *EX_13_4.tricks[4:]],
)


@pytest.mark.parametrize(("policy", "change", "made"), [
    ("flag_only", {"NS": 3, "EW": 1}, True),
    ("bid_setback", {"NS": -2, "EW": 1}, False),
])
def test_10_the_referee_charges_a_revoke_by_the_bidding_team(policy: str, change: dict[str, int],
                                                              made: bool) -> None:
    report = referee_report(example_events(EX_REVOKE_BY_BIDDERS, EventClock()), revoke_policy=policy)
    assert kinds(report) == ["revoke"] and report.infractions[0].seat == "S"
    assert "trick 3: clubs led, S played 8D" in report.infractions[0].text
    row = report.extra["hands"][0]
    assert row["card_points"] == {"NS": 44, "EW": 36}
    assert (row["change"], row["made"]) == (change, made)


# -- §12 what the camera referee checks ------------------------------------------------------------


def test_12_3_a_non_trump_on_a_trump_lead_is_proven_by_a_later_trump() -> None:
    clock = EventClock()
    events = example_events(EX_13_4, clock)[:5]  # deal and auction
    for seat, card in [("N", "7S"), ("E", "KS"), ("S", "JS"), ("W", "7D"), ("E", "9D"), ("S", "QD"),
                       ("W", "QS")]:
        events.append(TableEvent("play", clock(), seat=seat, data={"card": card}))
    report = referee_report(events)
    assert kinds(report) == ["revoke"]
    assert "trick 1: spades led, W played 7D" in report.infractions[0].text
    assert "trick 2: W played QS" in report.infractions[0].text


def test_12_2_discards_shown_without_a_blind_are_ignored() -> None:
    # 13.1 is played with no blind; "discards" from its unseen blind must not count for the bidder.
    events = example_events(EXAMPLES["13.1"], EventClock())
    events.insert(5, dataclasses.replace(events[4], type="discard", seat="S", data={"cards": ["AD"]}))
    report = referee_report(events)
    assert kinds(report) == ["illegal_discard"]
    assert report.extra["hands"][0]["card_points"] == {"NS": 23, "EW": 49}
    assert report.totals == {"N": 3, "E": 1, "S": 3, "W": 1}


def test_12_2_an_illegal_trump_discard_under_only_if_over_six() -> None:
    # 13.6 with N discarding 7S instead of 10C and leading spades: N held five spades.
    ex = dataclasses.replace(EX_13_6, discard="N:discard 7S 10D 8H",
                             tricks=[*EX_13_6.tricks[:4], "N:10C E:AC S:KC W:JH -> E",
                                     "E:AH S:10H W:AD N:9D -> E"])
    report = referee_report(example_events(ex, EventClock()), blind_cards=3,
                            trump_discard_rule="only_if_over_six")
    assert kinds(report) == ["illegal_discard"] and "7S" in report.infractions[0].text


# The "Decided by" cards and the Points of each worked example's table (§13).
DECIDED_BY = {
    "13.1": ("AH", "7H", (3, 1)), "13.2": ("AS", "7S", (4, 0)), "13.3": ("AC", "7C", (3, 1)),
    "13.4": ("AS", "7S", (2, 1)), "13.5": ("9H", "9H", (0, 3)), "13.6": ("AS", "7S", (4, 0)),
    "13.10": ("AS", "7S", (2, 2)),
}


@pytest.mark.parametrize("name", sorted(DECIDED_BY))
def test_12_the_referee_reports_the_cards_that_decided_high_and_low(name: str) -> None:
    ex = EXAMPLES[name]
    row = referee_report(example_events(ex, EventClock()), **ex.options).extra["hands"][0]
    high, low, points = DECIDED_BY[name]
    assert (row["high_card"], row["low_card"]) == (high, low)
    assert row["points"] == {"NS": points[0], "EW": points[1]}
