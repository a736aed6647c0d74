"""Kierki on the strict path: conformance over seeded random play under every
variant, fixed deal totals over many matches, legality, notation, options, and
the referee cross-checked against the strict engine."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.cards import Card, Suit, parse_cards, standard_deck
from kiosk.games.errors import GameError, IllegalActionError, InvalidActionError
from kiosk.games.kierki import (
    ChooseDealer,
    Deal,
    KierkiAction,
    KierkiGame,
    KierkiState,
    Layout,
    NameTrump,
    Pass,
    Phase,
    PlayCard,
    find_deal,
    match_deals,
)
from kiosk.games.kierki.deals import NegativeDeal, TrumpDeal
from kiosk.games.kierki.options import DEAL6_CHOICES, KierkiOptions
from kiosk.games.kierki_bots import HeuristicKierkiBot, KierkiBot, RandomKierkiBot, play_bot_match
from kiosk.games.referee import TableEvent
from kiosk.games.tricks import Trick
from tests.games.conformance import check_determinism, play_random_game

SEATS = ("N", "E", "S", "W")
FIXED = [-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325]

VARIANTS: list[dict[str, Any]] = [
    {},
    {"fan_tan_start_rank": "first_card", "fan_tan_ace": "low"},
    {"fan_tan_start_rank": "8", "fan_tan_opening": "8D", "fan_tan_ace": "low"},
    {"fan_tan_opening": "7D", "fan_tan_rounds": 4},
    {"trump_chooser": "left_of_dealer_full_hand", "must_trump_when_void": True},
    {"trump_choice_cards": 13},
    {"trump_choice_cards": 1, "revoke_policy": "replay_deal"},
    {"stop_when_penalties_exhausted": True, "king_of_hearts_forced_discard": True,
     "deal5_lead_ban_scope": "king_of_hearts_only"},
    {"hearts_broken_lifts_ban": True, "deal6_penalty_tricks": "3,8 @ 75",
     "heart_lead_ban_deals": [1, 2, 3, 4, 5, 6, 7]},
    {"deal6_penalty_tricks": "13 @ 150", "heart_lead_ban_deals": [], "fan_tan_prizes": [900, 400]},
]


def _id(v: dict[str, Any]) -> str:
    return ",".join(f"{k}={v[k]}" for k in v) or "defaults"


@pytest.mark.parametrize("options", VARIANTS, ids=_id)
def test_conformance_under_each_variant(options: dict[str, Any]) -> None:
    state = play_random_game(KierkiGame(options), seed=len(_id(options)), max_steps=4000, check_every=40)
    assert state.is_terminal()
    assert isinstance(state, KierkiState)
    _check_sheet(state)


def _check_sheet(state: KierkiState) -> None:
    opts = state.options
    first, second = opts.fan_tan_prize_pair
    assert [sum(r) for r in state.sheet] == FIXED + [first + second] * opts.fan_tan_rounds
    assert sum(sum(r) for r in state.sheet[:7]) == -2600
    if not opts.warnings():
        assert sum(state.returns()) == 0


def test_fixed_deal_totals_over_many_random_matches() -> None:
    rng = random.Random(2024)
    for n in range(40):
        options = {"deal6_penalty_tricks": DEAL6_CHOICES[n % 5], "fan_tan_rounds": (1, 4)[n % 2],
                   "stop_when_penalties_exhausted": n % 3 == 0}
        bots: list[KierkiBot] = [
            RandomKierkiBot(rng) if (n + s) % 2 else HeuristicKierkiBot() for s in range(4)
        ]
        state = play_bot_match(KierkiGame(options), bots, seed=rng.randrange(1 << 30))
        _check_sheet(state)


def test_seeded_play_is_deterministic() -> None:
    check_determinism(KierkiGame(), 11, max_steps=800)


def _conserved(state: KierkiState) -> None:
    held = [c for h in state.hands for c in h]
    if state.phase is Phase.PLAY:
        assert state.tricks is not None
        on_table = state.tricks.played_cards()
        assert len(held) + len(on_table) == 52 and set(held) | set(on_table) == set(standard_deck())
    elif state.phase is Phase.FAN_TAN:
        assert state.layout is not None
        assert len(held) + state.layout.card_count == 52 and len(set(held)) == len(held)


def test_cards_are_conserved_through_a_match() -> None:
    rng = random.Random(3)
    for options in ({}, {"fan_tan_rounds": 4, "fan_tan_start_rank": "first_card"}):
        state = KierkiGame(options).new_initial_state()
        bots: list[KierkiBot] = [HeuristicKierkiBot(), RandomKierkiBot(1), RandomKierkiBot(2),
                                 HeuristicKierkiBot()]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(bots[state.current_player()].choose(state))
            _conserved(state)


def _dealt(options: dict[str, Any] | None = None, deal_to: int = 1, seed: int = 0) -> KierkiState:
    """A state at the first decision of deal ``deal_to`` (random play before it)."""
    rng = random.Random(seed)
    state = KierkiGame(options).new_initial_state()
    state.apply_action(ChooseDealer(0))
    while state.deal_index + 1 < deal_to or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = _dealt()
    seat = state.current_player()
    before = state.notation()
    other = state.hand((seat + 1) % 4)[0]
    bads: list[KierkiAction] = [PlayCard(seat, other), PlayCard((seat + 1) % 4, other), Pass(seat),
                                NameTrump(seat, Suit.HEARTS), Deal(((),) * 4)]
    for bad in bads:
        with pytest.raises(IllegalActionError, match="illegal action"):
            state.apply_action(bad)
    assert state.notation() == before


def test_heart_lead_is_illegal_in_deal_2_while_holding_another_suit() -> None:
    state = _dealt(deal_to=2)
    hand = state.hand(state.current_player())
    legal = {a.card for a in state.legal_actions() if isinstance(a, PlayCard)}
    if any(c.suit is not Suit.HEARTS for c in hand):
        assert legal == {c for c in hand if c.suit is not Suit.HEARTS}
    heart = next((c for c in hand if c.suit is Suit.HEARTS), None)
    if heart is not None and legal != set(hand):
        with pytest.raises(IllegalActionError):
            state.apply_action(PlayCard(state.current_player(), heart))


def test_follow_rule_is_enforced() -> None:
    state = _dealt(seed=4)
    leader = state.current_player()
    lead = state.legal_actions()[0]
    state.apply_action(lead)
    assert isinstance(lead, PlayCard)
    seat = state.current_player()
    hand = state.hand(seat)
    same = [c for c in hand if c.suit is lead.card.suit]
    legal = [a.card for a in state.legal_actions() if isinstance(a, PlayCard)]
    assert legal == (same or list(hand))
    assert seat == (leader + 1) % 4


def test_trump_deal_dealer_names_trumps_after_five_cards() -> None:
    state = _dealt(deal_to=8, seed=2)
    assert state.phase is Phase.NAME_TRUMP
    dealer = state.dealer
    assert state.current_player() == dealer and all(len(h) == 5 for h in state.hands)
    assert {a.suit for a in state.legal_actions() if isinstance(a, NameTrump)} == set(Suit)
    assert dealer is not None
    state.apply_action(NameTrump(dealer, Suit.SPADES))
    assert state.is_chance_node() and state.public_view().phase == "deal_rest"
    state.apply_action(state.sample_chance(1))
    assert all(len(h) == 13 for h in state.hands)
    assert state.current_player() == dealer and state.public_view().trump is Suit.SPADES


def test_left_of_dealer_names_trumps_with_the_full_hand() -> None:
    state = _dealt({"trump_chooser": "left_of_dealer_full_hand"}, deal_to=8, seed=2)
    assert state.dealer is not None
    assert state.current_player() == (state.dealer + 1) % 4 and all(len(h) == 13 for h in state.hands)


def test_bad_chance_outcomes_are_rejected() -> None:
    state = KierkiGame().new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(ChooseDealer(7))
    state.apply_action(ChooseDealer(2))
    deck = standard_deck()
    dup = Deal((tuple(deck[:13]), tuple(deck[:13]), tuple(deck[26:39]), tuple(deck[39:])))
    with pytest.raises(IllegalActionError):
        state.apply_action(dup)
    short = Deal((tuple(deck[:12]), tuple(deck[13:26]), tuple(deck[26:39]), tuple(deck[39:])))
    with pytest.raises(IllegalActionError):
        state.apply_action(short)
    state.apply_action(Deal((tuple(deck[:13]), tuple(deck[13:26]), tuple(deck[26:39]), tuple(deck[39:]))))
    assert state.current_player() == 3  # left of dealer S leads


def test_undo_restores_and_replay_rebuilds() -> None:
    state = _dealt(seed=9)
    snapshot = state.clone()
    action = state.legal_actions()[-1]
    state.apply_action(action)
    assert state != snapshot
    assert state.undo() == action
    assert state == snapshot
    assert KierkiState.replay(state.game, state.history()) == state


def test_stop_when_penalties_exhausted_ends_deal_5_at_the_king() -> None:
    opts = {"stop_when_penalties_exhausted": True}
    state = _dealt(opts, deal_to=5, seed=1)
    rng = random.Random(1)
    while state.deal_index == 4:
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.sheet[4]) == -150
    assert state.deal_index == 5


def test_public_view_hides_hands() -> None:
    state = _dealt(seed=5)
    view = state.public_view()
    assert view.cards_left == (13, 13, 13, 13) and view.deal_name == "no_tricks"
    assert view.to_play == state.current_player() and view.current_trick == Trick(view.to_play or 0)
    assert "hands" not in {f.name for f in dataclasses.fields(view)}


def test_notation_is_one_line_and_distinguishes_states() -> None:
    state = _dealt(seed=6)
    a = state.notation()
    state.apply_action(state.legal_actions()[0])
    assert "\n" not in a and a != state.notation()
    assert a.startswith("kierki 1/12 no_tricks dealer=0 phase=play")


card_st = st.sampled_from(standard_deck())
seat_st = st.integers(0, 3)
action_st: st.SearchStrategy[KierkiAction] = st.one_of(
    st.builds(PlayCard, seat_st, card_st),
    st.builds(Pass, seat_st),
    st.builds(NameTrump, seat_st, st.sampled_from(list(Suit))),
    st.builds(ChooseDealer, seat_st),
    st.permutations(standard_deck()).flatmap(
        lambda deck: st.integers(0, 13).map(
            lambda n: Deal(tuple(tuple(deck[i * n:(i + 1) * n]) for i in range(4)))
        )
    ),
)
_STATE = _dealt(seed=8)


@given(action_st)
def test_action_notation_round_trips(action: KierkiAction) -> None:
    assert _STATE.parse_action(str(action)) == action


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_invalid(text: str) -> None:
    try:
        action = _STATE.parse_action(text)
    except InvalidActionError:
        return
    assert _STATE.parse_action(str(action)) == action


def test_actions_parse_with_seat_names_and_without_seat() -> None:
    seat = _STATE.current_player()
    card = _STATE.hand(seat)[0]
    assert _STATE.parse_action(f"{SEATS[seat]}:{card}") == PlayCard(seat, card)
    assert _STATE.parse_action(str(card)) == PlayCard(seat, card)
    assert _STATE.parse_action("pass") == Pass(seat)
    with pytest.raises(InvalidActionError, match="unknown seat"):
        _STATE.parse_action("X:QS")
    with pytest.raises(InvalidActionError, match="expected a card"):
        _STATE.parse_action("1:QQ")


# -- deal classes and options -------------------------------------------------------------


def test_every_deal6_choice_keeps_the_total() -> None:
    for choice in DEAL6_CHOICES:
        deals = match_deals(KierkiOptions(deal6_penalty_tricks=choice))
        assert deals[5].fixed_total == -150 and deals[6].fixed_total == -1300


def test_king_of_hearts_forced_discard_restricts_plays() -> None:
    deal = find_deal("no_king_of_hearts")(KierkiOptions(king_of_hearts_forced_discard=True), number=5)
    assert isinstance(deal, NegativeDeal)
    hand = parse_cards("KH 2S 3H")
    void = Trick.parse("0:4D")
    assert deal.legal_plays(hand, void, hearts_played=False) == parse_cards("KH")
    ace_in = Trick.parse("0:5H 1:AH")
    assert deal.legal_plays(hand, ace_in, hearts_played=False) == parse_cards("KH")
    no_ace = Trick.parse("0:5H")
    assert deal.legal_plays(hand, no_ace, hearts_played=False) == parse_cards("KH 3H")


def test_king_of_hearts_only_lead_ban() -> None:
    deal = find_deal("no_king_of_hearts")(KierkiOptions(deal5_lead_ban_scope="king_of_hearts_only"), number=5)
    assert isinstance(deal, NegativeDeal)
    hand = parse_cards("KH 2H 3S")
    assert deal.legal_plays(hand, Trick(0), hearts_played=False) == parse_cards("2H 3S")


def test_must_trump_when_void() -> None:
    deal = find_deal("trumps")(KierkiOptions(must_trump_when_void=True), number=8)
    assert isinstance(deal, TrumpDeal)
    hand = parse_cards("2S 9D 4C")
    led = Trick.parse("0:AH", trump=Suit.SPADES)
    assert deal.legal_plays(hand, led, hearts_played=False, trump=Suit.SPADES) == parse_cards("2S")
    plain = find_deal("trumps")(KierkiOptions(), number=8)
    assert isinstance(plain, TrumpDeal)
    assert plain.legal_plays(hand, led, hearts_played=False, trump=Suit.SPADES) == hand


def test_fan_tan_layout_variants() -> None:
    low = Layout.new(ace_high=False).place(Card.parse("7S"))
    for r in "65432":
        low = low.place(Card.parse(f"{r}S"))
    assert low.fits(Card.parse("AS")) and str(low) == "C- D- H- S2-7"
    high = Layout.new().place(Card.parse("7S"))
    for r in "65432":
        high = high.place(Card.parse(f"{r}S"))
    assert not high.fits(Card.parse("AS"))
    first = Layout.new(start=None)
    assert first.fits(Card.parse("QD"))
    first = first.place(Card.parse("QD"))
    assert first.fits(Card.parse("QS")) and not first.fits(Card.parse("7S"))
    with pytest.raises(InvalidActionError, match="does not fit"):
        first.place(Card.parse("2C"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"heart_lead_ban_deals": [8]}, "deal numbers 1 to 7"),
        ({"fan_tan_prizes": [800]}, "two positive whole numbers"),
        ({"fan_tan_opening": "7X"}, "a card such as '7D'"),
        ({"fan_tan_opening": "9D"}, "does not start a row"),
        ({"trump_choice_cards": 14}, "1 to 13"),
        ({"revoke_policy": "shrug"}, "must be one of"),
        ({"deal6_penalty_tricks": "7 @ 75"}, "must be one of"),
        ({"bidding": True}, "has no option 'bidding'"),
    ],
)
def test_bad_options_are_rejected(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        KierkiGame(options)


def test_kierki_needs_four_seats() -> None:
    with pytest.raises(InvalidActionError, match="4 to 4 seats"):
        KierkiGame(seats=3)


def test_engine_bug_guard_raises_on_a_wrong_total() -> None:
    state = _dealt(seed=12)
    state.deal_scores[0] += 5
    rng = random.Random(0)
    with pytest.raises(GameError, match="fixed total"):
        while state.deal_index == 0:
            state.apply_action(rng.choice(state.legal_actions()))


# -- the referee agrees with the strict engine ---------------------------------------------------


def _play_and_log(options: dict[str, Any], seed: int) -> tuple[KierkiState, list[TableEvent]]:
    """Plays a bot match and writes the table log the kiosk would have recorded."""
    game = KierkiGame(options)
    rng = random.Random(seed)
    bots: list[KierkiBot] = [HeuristicKierkiBot(), RandomKierkiBot(seed), HeuristicKierkiBot(),
                             RandomKierkiBot(seed + 1)]
    state = game.new_initial_state()
    events: list[TableEvent] = []

    def add(etype: str, seat: int | None, **data: Any) -> None:
        name = None if seat is None else SEATS[seat]
        events.append(TableEvent(etype, len(events) * 1_000_000_000, 0, name, data))

    while not state.is_terminal():
        if state.is_chance_node():
            if state.phase is not Phase.DEAL_REST and state.phase is not Phase.CHOOSE_DEALER:
                add("deal", state.dealer, deal=state.deal_index + 1)
            state.apply_action(state.sample_chance(rng))
            continue
        action = bots[state.current_player()].choose(state)
        hands = [list(h) for h in state.hands]
        sheet = len(state.sheet)
        state.apply_action(action)
        if isinstance(action, NameTrump):
            add("trump", action.seat, suit=action.suit.letter)
        elif isinstance(action, Pass):
            add("pass", action.seat)
        else:
            assert isinstance(action, PlayCard)
            add("play", action.seat, card=str(action.card))
            hands[action.seat].remove(action.card)
        if len(state.sheet) > sheet:
            for seat, left in enumerate(hands):
                if left:
                    add("reveal", seat, cards=[str(c) for c in left])
    return state, events


@pytest.mark.parametrize("options", [VARIANTS[i] for i in (0, 1, 2, 3, 4, 7)], ids=_id)
def test_referee_scores_bot_matches_like_the_engine(options: dict[str, Any]) -> None:
    state, events = _play_and_log(options, seed=21)
    ref = KierkiGame(options).referee()
    ref.feed_all(events)
    report = ref.report()
    assert report.infractions == []
    assert [tuple(h[s] for s in SEATS) for h in report.hands] == state.sheet
    assert tuple(report.totals[s] for s in SEATS) == tuple(state.returns())
    assert report.finished
