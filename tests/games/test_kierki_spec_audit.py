"""Kierki audited rule by rule against ``rules/kierki.md`` (version 1.0).

Two kinds of test live here. Cross-checks play seeded random matches under every
variant of §12 and compare each step with a small model of the spec written here
from the rule text alone (card strings, no engine helpers): on the strict path
(who acts, the exact legal set, trick winners, every trick's penalty or bonus,
early stops, deal scores, the dealer, who names trumps and leads, Fan Tan turns,
passes, first and second out, the end of the match), and on the referee path (a
table where players sometimes revoke, lead a banned heart, pass while able, fail
to trump or keep KH, play out of turn or misplace a Fan Tan card: the referee must
prove exactly the breaches the model knows of, name the seat and the trick or
turn, refuse what §11 refuses, and score each deal as the model does, under both
``revoke_policy`` values). Short cases then pin the rules that random play reaches
only rarely; each names its section.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kiosk.games.cards import Card, Suit, parse_cards
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.kierki import (
    ChooseDealer,
    Deal,
    KierkiGame,
    KierkiOptions,
    KierkiState,
    NameTrump,
    Pass,
    PlayCard,
    match_deals,
    standings,
)
from kiosk.games.kierki.deals import NegativeDeal
from kiosk.games.referee import RefereeReport, Ruling, TableEvent
from kiosk.games.tricks import Trick
from kiosk.tablelog import read_table_log

SEATS = ("N", "E", "S", "W")

# -- the spec as a model ---------------------------------------------------------------------------

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # §1: low to high
DECK = [r + s for s in "SHDC" for r in RANKS]
FIXED_TOTAL = {1: -260, 2: -260, 3: -240, 4: -240, 5: -150, 6: -150, 7: -1300,
               8: 325, 9: 325, 10: 325, 11: 325}  # §6.3, §7.2


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def left(seat: int, step: int = 1) -> int:
    return (seat + step) % 4  # §0: play and the deal go clockwise


def deal6(text: str) -> dict[int, int]:
    """§12 ``deal6_penalty_tricks``: ``"3,8 @ 75"`` -> {3: 75, 8: 75}."""
    tricks, amount = text.split("@")
    return {int(t): int(amount) for t in tricks.split(",")}


def penalty(k: int, cards: Sequence[str], t: int, o: KierkiOptions) -> int:
    """§6.2: what the winner of trick ``t`` of negative deal ``k`` loses (a positive amount)."""
    items = set(range(1, 7)) if k == 7 else {k}
    cost = 0
    if 1 in items:
        cost += 20
    if 2 in items:
        cost += 20 * sum(suit(c) == "H" for c in cards)
    if 3 in items:
        cost += 60 * sum(rank(c) == "Q" for c in cards)
    if 4 in items:
        cost += 30 * sum(rank(c) in ("K", "J") for c in cards)
    if 5 in items and "KH" in cards:
        cost += 150
    if 6 in items:
        cost += deal6(o.deal6_penalty_tricks).get(t, 0)
    return cost


def penalty_cards_left(k: int, taken: set[str]) -> bool:
    """§12 ``stop_when_penalties_exhausted``: True while deal ``k`` (2 to 5) has an untaken penalty card."""
    costly = {2: {c for c in DECK if suit(c) == "H"}, 3: {c for c in DECK if rank(c) == "Q"},
              4: {c for c in DECK if rank(c) in ("K", "J")}, 5: {"KH"}}[k]
    return bool(costly - taken)


def winner(plays: Sequence[tuple[int, str]], trump: str | None) -> int:
    """§5.3: the highest trump, else the highest card of the suit led."""
    pool = [p for p in plays if suit(p[1]) == trump] or [p for p in plays if suit(p[1]) == suit(plays[0][1])]
    return max(pool, key=lambda p: RANKS.index(rank(p[1])))[0]


def ban_active(k: int, o: KierkiOptions, hearts_played: bool) -> bool:
    """§5.2 and §12: the heart-lead ban of deal ``k``, lifted only by ``hearts_broken_lifts_ban``."""
    return k <= 7 and k in o.heart_lead_ban_deals and not (o.hearts_broken_lifts_ban and hearts_played)


def legal_trick(k: int, hand: Sequence[str], plays: Sequence[tuple[int, str]], hearts_played: bool,
                trump: str | None, o: KierkiOptions) -> set[str]:
    """§5.2 with the lead ban, ``king_of_hearts_forced_discard`` and ``must_trump_when_void``."""
    if not plays:
        if ban_active(k, o, hearts_played):
            if k == 5 and o.deal5_lead_ban_scope == "king_of_hearts_only":
                others = {c for c in hand if c != "KH"}
            else:
                others = {c for c in hand if suit(c) != "H"}
            if others:
                return others
        return set(hand)
    led = suit(plays[0][1])
    same = {c for c in hand if suit(c) == led}
    legal = same or set(hand)
    if k == 5 and o.king_of_hearts_forced_discard and "KH" in hand:
        if not same or (led == "H" and "AH" in [c for _, c in plays]):
            return {"KH"}
    if 8 <= k <= 11 and o.must_trump_when_void and not same and led != trump:
        trumps = {c for c in hand if suit(c) == trump}
        if trumps:
            return trumps
    return legal


def fan_order(o: KierkiOptions) -> list[str]:
    """§8.2 and ``fan_tan_ace``: the ranks of a row from its bottom to its top."""
    return RANKS if o.fan_tan_ace == "high" else ["A", *RANKS[:-1]]


@dataclass
class FanLayout:
    """§8.2: one row per suit as (lo, hi) positions in the rank order, and the start rank."""

    order: list[str]
    start: str | None
    rows: dict[str, tuple[int, int]] = field(default_factory=dict)

    def fits(self, card: str) -> bool:
        row = self.rows.get(suit(card))
        if row is None:
            return self.start is None or rank(card) == self.start
        pos = self.order.index(rank(card))
        return pos in (row[0] - 1, row[1] + 1)

    def fitting(self) -> set[str]:
        return {c for c in DECK if self.fits(c)}

    def place(self, card: str) -> None:
        assert self.fits(card)
        pos = self.order.index(rank(card))
        lo, hi = self.rows.get(suit(card), (pos, pos))
        self.rows[suit(card)] = (min(lo, pos), max(hi, pos))
        if self.start is None:
            self.start = rank(card)  # fan_tan_start_rank = first_card


def new_layout(o: KierkiOptions) -> FanLayout:
    return FanLayout(fan_order(o), None if o.fan_tan_start_rank == "first_card" else o.fan_tan_start_rank)


def fan_prizes(options: Mapping[str, Any]) -> tuple[int, int]:
    """§8.5 and §12: 800 and 500; with four rounds 200 and 125 unless the prizes are set."""
    if "fan_tan_prizes" in options:
        first, second = options["fan_tan_prizes"]
        return int(first), int(second)
    return (200, 125) if options.get("fan_tan_rounds", 1) == 4 else (800, 500)


def trump_setup(o: KierkiOptions, dealer: int) -> tuple[int, int]:
    """§4, §7.1 and ``trump_chooser``: (who names trumps and leads, cards each holds when they do)."""
    if o.trump_chooser == "dealer_after_five":
        return dealer, o.trump_choice_cards
    return left(dealer), 13


def places(totals: Sequence[int]) -> list[int]:
    """§10: a seat's place is 1 + the number of seats with a higher score (ties share)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


# -- the strict path against the model -------------------------------------------------------------


@dataclass
class Coverage:
    """Rule situations met by the cross-checks (so a test that never reaches a rule fails)."""

    seen: Counter[str] = field(default_factory=Counter)

    def hit(self, what: str, cond: bool = True) -> None:
        if cond:
            self.seen[what] += 1


def strict_match(options: dict[str, Any], seed: int, cov: Coverage) -> KierkiState:
    """Plays a seeded random match on the strict path and checks every step against the model."""
    game = KierkiGame(options)
    o = game.options
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert state.is_chance_node()
    d1 = rng.randrange(4)
    state.apply_action(ChooseDealer(d1))
    n_deals = 11 + o.fan_tan_rounds
    totals = [0, 0, 0, 0]
    namers: list[int] = []

    def chance(per_seat: int, hands: list[list[str]]) -> None:
        assert state.is_chance_node()
        action = state.sample_chance(rng)
        assert isinstance(action, Deal)
        assert [len(h) for h in action.hands] == [per_seat] * 4
        state.apply_action(action)
        for seat, cards in enumerate(action.hands):
            hands[seat].extend(str(c) for c in cards)

    for k in range(1, n_deals + 1):
        dealer = left(d1, k - 1)  # §3: deal k is dealt by the seat k - 1 places left of D1
        assert state.dealer == dealer, (k, state.notation())
        hands: list[list[str]] = [[], [], [], []]
        trump: str | None = None
        if 8 <= k <= 11:
            chooser, first_cards = trump_setup(o, dealer)
            chance(first_cards, hands)
            assert state.current_player() == chooser
            assert {str(a) for a in state.legal_actions()} == {f"{chooser}:trump {s}" for s in "SHDC"}
            trump = rng.choice("SHDC")
            state.apply_action(NameTrump(chooser, Suit.parse(trump)))
            namers.append(chooser)
            if first_cards < 13:
                chance(13 - first_cards, hands)
            leader = chooser
        else:
            chance(13, hands)
            leader = left(dealer)  # §6.1, §8.4: left of the dealer leads or starts
        scores = fan_tan_deal(state, o, options, dealer, hands, rng, cov) if k >= 12 else \
            trick_deal(state, o, k, leader, hands, trump, rng, cov)
        if k <= 11:
            assert sum(scores) == FIXED_TOTAL[k]
        assert state.sheet[k - 1] == tuple(scores), (k, state.sheet[k - 1], scores)
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        assert state.returns() == totals
    assert state.is_terminal()
    assert sorted(namers) == [0, 1, 2, 3]  # §3: every player names trumps exactly once
    assert sum(sum(r) for r in state.sheet[:7]) == -2600  # §9
    first, second = fan_prizes(options)
    if o.fan_tan_rounds * (first + second) == 1300:
        assert sum(totals) == 0 and not o.warnings()
    else:
        assert o.warnings()  # §12: changed prizes break the zero-sum check; the kiosk warns
    best = max(totals)
    assert state.winners() == [s for s in range(4) if totals[s] == best]
    assert {seat: place for place, seat, _ in standings(totals)} == dict(enumerate(places(totals)))
    assert state.legal_actions() == []
    return state


def trick_deal(state: KierkiState, o: KierkiOptions, k: int, leader: int, hands: list[list[str]],
               trump: str | None, rng: random.Random, cov: Coverage) -> list[int]:
    scores = [0, 0, 0, 0]
    hearts_played = False
    taken: set[str] = set()
    for t in range(1, 14):
        plays: list[tuple[int, str]] = []
        for i in range(4):
            seat = left(leader, i)
            assert state.current_player() == seat, (k, t, state.notation())
            legal = legal_trick(k, hands[seat], plays, hearts_played, trump, o)
            got = state.legal_actions()
            assert all(isinstance(a, PlayCard) and a.seat == seat for a in got)
            assert {str(a.card) for a in got if isinstance(a, PlayCard)} == legal, (k, t, hands[seat], plays)
            _coverage(cov, k, o, hands[seat], plays, legal, hearts_played, trump)
            card = rng.choice(sorted(legal))
            illegal = sorted(set(hands[seat]) - legal)
            if illegal and rng.random() < 0.2:
                with pytest.raises(IllegalActionError):
                    state.apply_action(PlayCard(seat, Card.parse(rng.choice(illegal))))
            state.apply_action(PlayCard(seat, Card.parse(card)))
            hands[seat].remove(card)
            plays.append((seat, card))
            hearts_played = hearts_played or suit(card) == "H"
        won = winner(plays, trump)
        cards = [c for _, c in plays]
        scores[won] += 25 if k >= 8 else -penalty(k, cards, t, o)
        taken.update(cards)
        leader = won
        if o.stop_when_penalties_exhausted and 2 <= k <= 5 and not penalty_cards_left(k, taken):
            cov.hit(f"early stop in deal {k}", t < 13)
            break
        assert t == 13 or state.deal_index == k - 1, f"deal {k} ended after trick {t}"
    return scores


def _coverage(cov: Coverage, k: int, o: KierkiOptions, hand: Sequence[str], plays: Sequence[tuple[int, str]],
              legal: set[str], hearts_played: bool, trump: str | None) -> None:
    if not plays:
        cov.hit("lead ban bites", ban_active(k, o, hearts_played) and any(suit(c) == "H" for c in hand)
                and len(legal) < len(hand))
        cov.hit("heart lead from an all-heart hand", ban_active(k, o, hearts_played)
                and all(suit(c) == "H" for c in hand))
        cov.hit("ban lifted by a heart played", o.hearts_broken_lifts_ban and k in o.heart_lead_ban_deals
                and hearts_played and any(suit(c) == "H" for c in hand))
        return
    cov.hit("KH forced", legal == {"KH"} and k == 5 and o.king_of_hearts_forced_discard and len(hand) > 1)
    cov.hit("trump forced", 8 <= k <= 11 and o.must_trump_when_void
            and all(suit(c) == trump for c in legal) and len(legal) < len(hand)
            and suit(plays[0][1]) != trump)


def fan_tan_deal(state: KierkiState, o: KierkiOptions, options: Mapping[str, Any], dealer: int,
                 hands: list[list[str]], rng: random.Random, cov: Coverage) -> list[int]:
    """§8.3 to §8.5 and the Fan Tan options."""
    layout = new_layout(o)
    opening = None if o.fan_tan_opening == "left_of_dealer" else str(Card.parse(o.fan_tan_opening))
    turn = next(s for s in range(4) if opening in hands[s]) if opening else left(dealer)
    prizes = fan_prizes(options)
    out: list[int] = []
    scores = [0, 0, 0, 0]
    first = True
    while len(out) < 2:
        assert state.current_player() == turn, state.notation()
        hand = hands[turn]
        legal = {opening} if first and opening else {c for c in hand if layout.fits(c)}
        got = state.legal_actions()
        if not legal:
            assert got == [Pass(turn)]
            cov.hit("Fan Tan pass")
            state.apply_action(Pass(turn))
        else:
            assert {str(a.card) for a in got if isinstance(a, PlayCard)} == legal and len(got) == len(legal)
            with pytest.raises(IllegalActionError):
                state.apply_action(Pass(turn))  # §8.3: never pass while holding a legal card
            misfit = [c for c in hand if c not in legal]
            if misfit:
                with pytest.raises(IllegalActionError):
                    state.apply_action(PlayCard(turn, Card.parse(rng.choice(misfit))))
            card = rng.choice(sorted(legal))
            state.apply_action(PlayCard(turn, Card.parse(card)))
            layout.place(card)
            hand.remove(card)
            first = False
            if not hand:
                scores[turn] += prizes[len(out)]
                out.append(turn)
                if len(out) == 2:
                    break
        turn = left(turn)
        while turn in out:
            cov.hit("out player skipped")
            turn = left(turn)
    return scores


STRICT_VARIANTS: list[dict[str, Any]] = [
    {},
    {"heart_lead_ban_deals": [1, 2, 3, 4, 5, 6, 7], "hearts_broken_lifts_ban": True},
    {"deal5_lead_ban_scope": "king_of_hearts_only", "king_of_hearts_forced_discard": True,
     "deal6_penalty_tricks": "12,13 @ 75"},
    {"stop_when_penalties_exhausted": True, "deal6_penalty_tricks": "13 @ 150", "heart_lead_ban_deals": []},
    {"trump_chooser": "left_of_dealer_full_hand", "must_trump_when_void": True,
     "deal6_penalty_tricks": "3,7 @ 75"},
    {"trump_choice_cards": 13, "fan_tan_start_rank": "8", "fan_tan_ace": "low",
     "deal6_penalty_tricks": "3,8 @ 75"},
    {"trump_choice_cards": 1, "fan_tan_start_rank": "first_card", "fan_tan_rounds": 4},
    {"fan_tan_opening": "7H", "fan_tan_prizes": [1000, 300], "stop_when_penalties_exhausted": True},
    {"fan_tan_opening": "AD", "fan_tan_start_rank": "first_card", "fan_tan_ace": "low",
     "fan_tan_rounds": 4, "fan_tan_prizes": [250, 100]},
]


def _id(options: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def test_strict_path_follows_the_model_under_every_variant() -> None:
    """§3 to §12 on the strict path, every variant value at least once, checked step by step."""
    cov = Coverage()
    for n, options in enumerate(STRICT_VARIANTS):
        for seed in (n, 100 + n):
            strict_match(options, seed, cov)
    for what in ("lead ban bites", "heart lead from an all-heart hand", "ban lifted by a heart played",
                 "KH forced", "trump forced", "Fan Tan pass", "out player skipped",
                 "early stop in deal 2", "early stop in deal 3", "early stop in deal 4",
                 "early stop in deal 5"):
        assert cov.seen[what], f"the cross-check never reached: {what}"


# -- the referee path against the model ------------------------------------------------------------


@dataclass
class SpecClaim:
    """§13.3: what a choice implies about a hidden hand, and whether it is false."""

    kind: str
    seat: int
    where: int
    refuted_by: frozenset[str]
    false: bool
    void_duty: bool = False
    """A duty that binds only a seat void in the suit led (§12 ``must_trump_when_void``,
    ``king_of_hearts_forced_discard`` (a)): a revoke proven in the same trick cancels it."""


Expected = tuple[str, str, int | None]
"""An infraction the referee must report: (kind, seat name, trick or turn number)."""

_WHERE = re.compile(r"(?:in|at) (?:trick|turn) (\d+)")


def found(report: RefereeReport) -> Counter[Expected]:
    out: Counter[Expected] = Counter()
    for inf in report.infractions:
        m = _WHERE.search(inf.text)
        out[(inf.kind, inf.seat or "", int(m.group(1)) if m else None)] += 1
    return out


class SloppyTable:
    """A table that breaks the rules now and then, logged as the kiosk would log it, fed
    event by event to the referee; the model knows the hands and so every true breach."""

    def __init__(self, options: dict[str, Any], seed: int, sloppy: float) -> None:
        self.options = options
        self.game = KierkiGame(options)
        self.o = self.game.options
        self.ref = self.game.referee()
        self.rng = random.Random(seed)
        self.sloppy = sloppy
        self.clock = itertools.count()
        self.expected: Counter[Expected] = Counter()
        self.claims: list[SpecClaim] = []
        self.duties_proven: dict[Expected, bool] = {}
        self.replays = 0
        self.cov = Coverage()

    def feed(self, etype: str, seat: int | None, **data: Any) -> list[Ruling]:
        name = None if seat is None else SEATS[seat]
        return self.ref.feed(TableEvent(etype, next(self.clock) * 1_000_000_000, 0, name, data))

    def claim(self, kind: str, seat: int, where: int, refuted_by: set[str], hand: Sequence[str],
              void_duty: bool = False) -> None:
        self.claims.append(SpecClaim(kind, seat, where, frozenset(refuted_by), bool(refuted_by & set(hand)),
                                     void_duty))

    def shown(self, seat: int, cards: Sequence[str], where: int | None, rulings: list[Ruling]) -> bool:
        """Proves the open claims of ``seat`` that ``cards`` contradict; True if the deal is discarded."""
        proven = [c for c in self.claims if c.seat == seat and c.where != where and c.refuted_by & set(cards)]
        for c in proven:
            assert c.false, "a true claim can never be contradicted"
            if c not in self.claims:
                continue  # a void seat's duty cancelled by the revoke just proven
            self.claims.remove(c)
            self.expected[(c.kind, SEATS[seat], c.where)] += 1
            if c.kind == "revoke":
                # The seat could follow: the duty of a void seat in that trick never applied.
                for duty in [d for d in self.claims if d.void_duty and (d.seat, d.where) == (seat, c.where)]:
                    self.claims.remove(duty)
                for kind in ("failure_to_trump", "king_of_hearts_not_played"):
                    key = (kind, SEATS[seat], c.where)
                    if self.duties_proven.pop(key, False):
                        self.expected[key] -= 1
                        if not self.expected[key]:
                            del self.expected[key]
            elif c.void_duty:
                self.duties_proven[(c.kind, SEATS[seat], c.where)] = True
            self.cov.hit(f"proven {c.kind}")
        replay = any(r.kind == "replay_deal" for r in rulings)
        assert replay == (bool(proven) and self.o.revoke_policy == "replay_deal"), (proven, rulings)
        return replay

    def play_match(self) -> list[tuple[int, ...]]:
        d1 = self.rng.randrange(4)
        rows: list[tuple[int, ...]] = []
        n_deals = 11 + self.o.fan_tan_rounds
        k = 1
        attempts = 0
        while k <= n_deals:
            dealer = left(d1, k - 1)
            self.claims = []
            self.duties_proven = {}
            attempts += 1
            sloppy = self.sloppy if attempts == 1 else 0.0  # a replayed deal is played cleanly
            scores = self.fan_tan(k, dealer, sloppy) if k >= 12 else self.tricks(k, dealer, sloppy)
            if scores is None:
                self.replays += 1
                continue  # §12 replay_deal: the same dealer deals the same deal again
            assert not [c for c in self.claims if c.false], "every false claim is proven by the end"
            rows.append(tuple(scores))
            k += 1
            attempts = 0
        return rows

    def start(self, k: int, dealer: int) -> list[list[str]]:
        rulings = self.feed("deal", dealer, **({"deal": k} if self.rng.random() < 0.7 else {}))
        assert rulings[-1].kind == "deal" and f"deal {k} " in rulings[-1].text
        if self.rng.random() < 0.08:  # §4 misdeal: the same dealer deals again, the number stays
            assert [r.kind for r in self.feed("misdeal", dealer)] == ["misdeal"]
            self.feed("deal", dealer, deal=k)
        deck = list(DECK)
        self.rng.shuffle(deck)
        return [deck[i::4] for i in range(4)]

    def tricks(self, k: int, dealer: int, sloppy: float) -> list[int] | None:
        o, rng = self.o, self.rng
        hands = self.start(k, dealer)
        trump: str | None = None
        leader = left(dealer)
        if 8 <= k <= 11:
            leader, _ = trump_setup(o, dealer)
            trump = rng.choice("SHDC")
            assert [r.kind for r in self.feed("trump", leader, suit=trump)] == ["trump"]
        scores = [0, 0, 0, 0]
        hearts_played = False
        taken: set[str] = set()
        for t in range(1, 14):
            plays: list[tuple[int, str]] = []
            for i in range(4):
                seat = left(leader, i)
                hand = hands[seat]
                if rng.random() < sloppy / 3:  # §11: a card out of turn is refused
                    other = rng.choice([s for s in range(4) if s != seat and hands[s]
                                        and s not in [p[0] for p in plays]] or [seat])
                    if other != seat:
                        rulings = self.feed("play", other, card=rng.choice(hands[other]))
                        assert [r.kind for r in rulings] == ["refused"]
                        self.expected[("out_of_turn", SEATS[other], t)] += 1
                legal = legal_trick(k, hand, plays, hearts_played, trump, o)
                illegal = sorted(set(hand) - legal)
                card = rng.choice(illegal) if illegal and rng.random() < sloppy else rng.choice(sorted(legal))
                self.claims_of_trick_play(k, seat, t, card, hand, plays, hearts_played, trump)
                rulings = self.feed("play", seat, card=card)
                hand.remove(card)
                if self.shown(seat, [card], t, rulings):
                    return None
                plays.append((seat, card))
                hearts_played = hearts_played or suit(card) == "H"
            won = winner(plays, trump)
            cards = [c for _, c in plays]
            scores[won] += 25 if k >= 8 else -penalty(k, cards, t, o)
            assert any(r.kind == "trick" and f"trick {t}: {SEATS[won]} wins" in r.text for r in rulings)
            taken.update(cards)
            leader = won
            if rng.random() < 0.3:
                assert self.feed("collect", won) == []
            if o.stop_when_penalties_exhausted and 2 <= k <= 5 and not penalty_cards_left(k, taken):
                assert any(r.kind == "stopped" for r in rulings) == (t < 13)
                break
        assert any(r.kind == "deal_end" for r in rulings)
        for seat in range(4):  # §12, §13.3: after an early stop the unplayed cards are shown
            if hands[seat]:
                rulings = self.feed("reveal", seat, cards=list(hands[seat]))
                if self.shown(seat, hands[seat], None, rulings):
                    return None
        return scores

    def claims_of_trick_play(self, k: int, seat: int, t: int, card: str, hand: Sequence[str],
                             plays: Sequence[tuple[int, str]], hearts_played: bool,
                             trump: str | None) -> None:
        """§13.3: the claims a play records (from what is seen, never from the hand)."""
        o = self.o
        if not plays:
            if ban_active(k, o, hearts_played):
                if k == 5 and o.deal5_lead_ban_scope == "king_of_hearts_only":
                    if card == "KH":
                        self.claim("illegal_lead", seat, t, set(DECK) - {"KH"}, hand)
                elif suit(card) == "H":
                    self.claim("illegal_lead", seat, t, {c for c in DECK if suit(c) != "H"}, hand)
            return
        led = suit(plays[0][1])
        if suit(card) == led:
            showed_void = False
        else:
            showed_void = True
            self.claim("revoke", seat, t, {c for c in DECK if suit(c) == led}, hand)
        if k == 5 and o.king_of_hearts_forced_discard and card != "KH":
            # (a) binds a seat that cannot follow, which the holder of KH always can on a heart lead.
            if (showed_void and led != "H") or (led == "H" and "AH" in [c for _, c in plays]):
                self.claim("king_of_hearts_not_played", seat, t, {"KH"}, hand, void_duty=led != "H")
        if 8 <= k <= 11 and o.must_trump_when_void and showed_void and led != trump and suit(card) != trump:
            self.claim("failure_to_trump", seat, t, {c for c in DECK if suit(c) == trump}, hand,
                       void_duty=True)

    def fan_tan(self, k: int, dealer: int, sloppy: float) -> list[int] | None:
        o, rng = self.o, self.rng
        hands = self.start(k, dealer)
        layout = new_layout(o)
        opening = None if o.fan_tan_opening == "left_of_dealer" else str(Card.parse(o.fan_tan_opening))
        turn = next(s for s in range(4) if opening in hands[s]) if opening else left(dealer)
        prizes = fan_prizes(self.options)
        out: list[int] = []
        scores = [0, 0, 0, 0]
        number = 1
        first = True
        while True:
            hand = hands[turn]
            if not first and rng.random() < sloppy / 3:  # §11: out of turn, refused
                other = rng.choice([s for s in range(4) if s != turn and s not in out])
                if rng.random() < 0.5:
                    rulings = self.feed("play", other, card=rng.choice(hands[other]))
                else:
                    rulings = self.feed("pass", other)
                assert [r.kind for r in rulings] == ["refused"]
                self.expected[("out_of_turn", SEATS[other], number)] += 1
            legal = {opening} if first and opening else {c for c in hand if layout.fits(c)}
            misfit = [c for c in hand if c not in legal]
            if not first and misfit and rng.random() < sloppy:  # §11: a card that does not fit, refused
                rulings = self.feed("play", turn, card=rng.choice(misfit))
                assert [r.kind for r in rulings] == ["refused"]
                self.expected[("misfit", SEATS[turn], number)] += 1
            if not legal or (not first and rng.random() < sloppy / 2):
                self.claim("illegal_pass", turn, number, layout.fitting(), hand)
                assert self.feed("pass", turn) == []
            else:
                card = rng.choice(sorted(legal))
                rulings = self.feed("play", turn, card=card)
                hand.remove(card)
                if self.shown(turn, [card], number, rulings):
                    return None
                layout.place(card)
                first = False
                if not hand:
                    scores[turn] += prizes[len(out)]
                    out.append(turn)
                    assert any(r.kind == "out" for r in rulings)
                    if len(out) == 2:
                        assert any(r.kind == "deal_end" for r in rulings)
                        # §13.3: the kiosk asks the two players left to show their cards
                        assert [set(r.seats) for r in rulings if r.kind == "show_cards"] == [
                            {SEATS[s] for s in range(4) if s not in out}]
                        break
            number += 1
            turn = left(turn)
            while turn in out:
                turn = left(turn)
        for seat in range(4):  # §13.3: the two players left lay their cards face up
            if hands[seat]:
                rulings = self.feed("reveal", seat, cards=list(hands[seat]))
                if self.shown(seat, hands[seat], None, rulings):
                    return None
        return scores


REFEREE_VARIANTS: list[dict[str, Any]] = [
    {},
    {"revoke_policy": "replay_deal"},
    {"king_of_hearts_forced_discard": True, "must_trump_when_void": True, "hearts_broken_lifts_ban": True,
     "deal6_penalty_tricks": "12,13 @ 75"},
    {"deal5_lead_ban_scope": "king_of_hearts_only", "heart_lead_ban_deals": [1, 3, 5, 7],
     "stop_when_penalties_exhausted": True, "trump_chooser": "left_of_dealer_full_hand"},
    {"stop_when_penalties_exhausted": True, "revoke_policy": "replay_deal", "fan_tan_rounds": 4,
     "fan_tan_start_rank": "first_card", "king_of_hearts_forced_discard": True},
    {"fan_tan_opening": "8S", "fan_tan_start_rank": "8", "fan_tan_ace": "low", "must_trump_when_void": True,
     "deal6_penalty_tricks": "13 @ 150"},
]


def test_referee_proves_exactly_the_breaches_of_a_sloppy_table() -> None:
    """§11 and §13: each breach proven once (kind, seat, trick or turn), nothing else flagged, and
    every deal scored as the model scores it; under replay_deal a proven deal is dealt again."""
    cov = Coverage()
    replays = 0
    for (n, options), seed in itertools.product(enumerate(REFEREE_VARIANTS), range(5)):
        table = SloppyTable(options, seed=40 + n + 100 * seed, sloppy=0.06)
        rows = table.play_match()
        report = table.ref.report()
        assert found(report) == table.expected, (_id(options), seed)
        assert [tuple(h[s] for s in SEATS) for h in report.hands] == rows
        totals = [sum(col) for col in zip(*rows, strict=True)]
        assert [report.totals[s] for s in SEATS] == totals
        assert report.finished
        assert report.winners == [SEATS[s] for s in range(4) if totals[s] == max(totals)]
        assert [e["place"] for e in sorted(report.extra["standings"], key=lambda e: SEATS.index(e["seat"]))] \
            == places(totals)
        cov.seen.update(table.cov.seen)
        replays += table.replays
    for kind in ("revoke", "illegal_lead", "illegal_pass", "failure_to_trump", "king_of_hearts_not_played"):
        assert cov.seen[f"proven {kind}"], f"the cross-check never proved a {kind}"
    assert replays, "replay_deal was never exercised"


# -- short cases: rules that random play reaches rarely --------------------------------------------

_, EXAMPLE = read_table_log(Path(__file__).resolve().parents[2] / "examples" / "kierki_example.jsonl")


def before_deal(k: int) -> list[TableEvent]:
    """The worked match's events (kierki.md §14) before the 'deal' event of deal ``k``."""
    starts = [i for i, e in enumerate(EXAMPLE) if e.type == "deal"]
    return list(EXAMPLE[: starts[k - 1]])


def then(events: list[TableEvent], *steps: tuple[str, str, str | None]) -> list[TableEvent]:
    """``events`` followed by (type, seat, card) steps, one second apart."""
    out = list(events)
    t = out[-1].t_ns if out else 0
    for n, (etype, seat, card) in enumerate(steps, start=1):
        out.append(TableEvent(etype, t + n * 1_000_000_000, 0, seat, {} if card is None else {"card": card}))
    return out


def judge(events: Sequence[TableEvent], options: Mapping[str, Any] | None = None) -> RefereeReport:
    ref = KierkiGame(options).referee()
    ref.feed_all(events)
    return ref.report()


def test_king_of_hearts_forced_on_a_heart_lead_once_the_ace_is_in_the_trick() -> None:
    """§12 king_of_hearts_forced_discard (b): hearts led and AH already in the trick. W follows
    with 3H and plays KH a trick later, which proves W held it; N's 2H stays a claim (N may lack KH)."""
    events = then(before_deal(5), ("deal", "N", None), ("play", "E", "5H"), ("play", "S", "AH"),
                  ("play", "W", "3H"), ("play", "N", "2H"), ("play", "S", "2S"), ("play", "W", "KH"))
    assert judge(events).infractions == []
    report = judge(events, {"king_of_hearts_forced_discard": True})
    assert [(i.kind, i.seat) for i in report.infractions] == [("king_of_hearts_not_played", "W")]
    assert report.infractions[0].text == (
        "king of hearts not played by W in trick 1: hearts were led and AH was in the trick "
        "and played 3H, not KH; proven in trick 2: W played KH")
    # The strict path allows W nothing but KH there.
    deal5 = [d for d in match_deals(KierkiOptions(king_of_hearts_forced_discard=True)) if d.number == 5][0]
    assert isinstance(deal5, NegativeDeal)
    trick = Trick.parse("E:5H S:AH", SEATS)
    assert deal5.legal_plays(parse_cards("3H KH 2S"), trick, hearts_played=True) == parse_cards("KH")
    assert deal5.legal_plays(parse_cards("3H KH 2S"), Trick.parse("E:5H", SEATS), hearts_played=True) \
        == parse_cards("3H KH")


def test_tied_final_scores_share_the_place_after_a_correction() -> None:
    """§10: equal final scores share the place and all win; the kiosk invents no tie-break. The
    standings and the winners follow the table's score corrections."""
    events = list(EXAMPLE)
    t = events[-1].t_ns
    events.append(TableEvent("score_correction", t + 1, 0, "E", {"hand": 12, "score": 245}))
    events.append(TableEvent("score_correction", t + 2, 0, "N", {"hand": 12, "score": 255}))
    report = judge(events)
    assert report.totals == {"N": -410, "E": 310, "S": -210, "W": 310}
    assert report.winners == ["E", "W"]
    assert [(e["place"], e["seat"]) for e in report.extra["standings"]] == [(1, "E"), (1, "W"), (3, "S"),
                                                                             (4, "N")]
    assert standings([0, 0, 0, 0]) == [(1, 0, 0), (1, 1, 0), (1, 2, 0), (1, 3, 0)]


def test_half_totals_and_the_zero_sum_are_checked_at_the_end() -> None:
    """§9: a misread QD (seen as KD, which keeps E the winner of trick 7 of deal 3) breaks the deal's
    -240, the first half's -2600 and the match's 0; each is reported."""
    events = list(EXAMPLE)
    start = len(before_deal(3))
    i = next(i for i, e in enumerate(events) if i > start and e.type == "play" and e.get("card") == "QD")
    events[i] = TableEvent("play", events[i].t_ns, 0, events[i].seat, {"card": "KD"})
    texts = [i.text for i in judge(events).infractions if i.kind == "misread"]
    assert len(texts) == 3
    assert "scores add up to -180" in texts[0] and "-240" in texts[0]
    assert texts[1] == "the first half totals -2540, not -2600"
    assert texts[2] == "the final scores add up to 60, not 0"


def test_fan_tan_opening_card_is_played_first_by_whoever_holds_it() -> None:
    """§12 fan_tan_opening = 7D: nobody may pass or play another card before 7D; its holder (S here)
    plays it and the turn passes to S's left (W)."""
    events = then(before_deal(12), ("deal", "W", None), ("pass", "N", None), ("play", "N", "7S"),
                  ("play", "S", "7D"), ("play", "N", "7S"), ("play", "W", "8D"))
    report = judge(events, {"fan_tan_opening": "7D"})
    assert [(i.kind, i.seat) for i in report.infractions] == [("out_of_turn", "N"), ("misfit", "N"),
                                                               ("out_of_turn", "N")]
    assert "N passed, but the holder of 7D opens the deal" in report.infractions[0].text
    assert "it is W's turn" in report.infractions[2].text
    state = KierkiGame({"fan_tan_opening": "7D"}).new_initial_state()
    play_until_fan_tan(state)
    holder = next(s for s in range(4) if Card.parse("7D") in state.hand(s))
    assert state.current_player() == holder
    assert state.legal_actions() == [PlayCard(holder, Card.parse("7D"))]


def play_until_fan_tan(state: KierkiState) -> None:
    """Applies seeded random legal actions up to Fan Tan's first turn."""
    rng = random.Random(7)
    state.apply_action(ChooseDealer(3))
    while state.deal_index < 11 or state.is_chance_node():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))


def test_no_trumps_cannot_be_named() -> None:
    """§4: the dealer names one of the four suits; "no trumps" is not allowed (the strict path
    offers the four suits only: checked in the cross-check above)."""
    events = then(before_deal(8), ("deal", "W", None))
    events.append(TableEvent("trump", events[-1].t_ns + 1, 0, "W", {"suit": "NT"}))
    with pytest.raises(InvalidActionError, match=r"must be S, H, D or C \("):
        judge(events)


def test_options_cannot_change_during_a_match() -> None:
    """The variants are chosen before the match and fixed for its whole length (§12)."""
    game = KierkiGame({"revoke_policy": "replay_deal"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.options.revoke_policy = "flag_only"  # type: ignore[misc]
