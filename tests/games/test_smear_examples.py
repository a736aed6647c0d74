"""Every worked example of smear.md §13, from the deal to the exact result."""

from __future__ import annotations

import itertools

import pytest

from kiosk.games.cards import Card, Suit, parse_cards
from kiosk.games.errors import IllegalActionError
from kiosk.games.smear import Bid, Deal, Pass, Phase, SmearGame, SmearState, trick_record
from kiosk.games.smear_rules import (
    HandScore,
    SmearOptions,
    discard_fits_lead,
    legal_discards,
    score_hand,
    settle_hand,
)
from kiosk.games.tricks import Trick
from tests.games.smear_fixtures import (
    EX_13_1,
    EX_13_2,
    EX_13_3,
    EX_13_4,
    EX_13_5,
    EX_13_6,
    EX_13_10,
    EXAMPLES,
    SEATS,
)

NS, EW = 0, 1

# example: (High, Low, Jack, Game, card points NS/EW, made, score changes NS/EW)
EXPECTED = {
    "13.1": (NS, NS, NS, EW, (23, 49), True, (3, 1)),
    "13.2": (NS, NS, NS, NS, (64, 0), True, (4, 0)),
    "13.3": (EW, NS, NS, NS, (37, 36), False, (3, -3)),
    "13.4": (NS, NS, EW, None, (40, 40), True, (2, 1)),
    "13.5": (EW, EW, None, EW, (19, 41), True, (0, 3)),
    "13.6": (NS, NS, NS, NS, (59, 18), True, (4, 0)),
    "13.10": (NS, NS, EW, EW, (31, 49), True, (2, 2)),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_worked_example_tricks_print_as_the_rule_sheet_records_them(name: str) -> None:
    state = EXAMPLES[name].play()
    assert state.tricks is not None
    records = [" ".join(r.split()) for r in EXAMPLES[name].tricks]
    assert [trick_record(t) for t in state.tricks.completed] == records


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_worked_example_scores_exactly(name: str) -> None:
    state = EXAMPLES[name].play()
    hand = state.results[-1]
    high, low, jack, game, cp, made, deltas = EXPECTED[name]
    assert (hand.high, hand.low, hand.jack, hand.game) == (high, low, jack, game)
    assert hand.card_points == cp
    assert hand.made is made
    assert hand.deltas == deltas
    assert tuple(state.scores) == deltas
    assert state.phase is Phase.DEAL  # nobody reached 15: the next hand is dealt


def test_13_1_trick_winners_follow_the_trick_records() -> None:
    state = EX_13_1.play()
    assert state.tricks is not None
    assert ["NESW"[t.winner] for t in state.tricks.completed] == ["S", "S", "S", "W", "W", "E"]
    assert state.results[-1].high_card == Card.parse("AH")
    assert state.results[-1].low_card == Card.parse("7H")


def test_13_2_a_bid_of_4_ends_the_auction_before_the_dealer() -> None:
    state = EX_13_2.play()
    assert state.bids == [(2, None), (3, None), (0, 4)]
    assert state.results[-1].points == (4, 0)


def test_13_3_under_trick_winner_low_credit_the_bidder_is_still_set() -> None:
    hand = EX_13_3.play(low_credit="trick_winner").results[-1]
    assert hand.low == EW
    assert hand.points == (2, 2)
    assert hand.deltas == (2, -3)


def test_13_4_trumping_while_able_to_follow_is_a_revoke_under_strict() -> None:
    with pytest.raises(IllegalActionError):
        EX_13_4.play(follow_rule="strict")
    state = SmearGame({"follow_rule": "strict", "first_dealer": "W"}).new_initial_state()
    state.apply_action(EX_13_4.deal())
    for call in EX_13_4.auction:
        state.apply_text(call)
    for seat, card in itertools.chain(*EX_13_4.trick_plays()[:2]):
        state.apply_text(f"{seat}:{card}")
    for text in ("N:JC", "E:QC", "S:AC"):
        state.apply_text(text)
    assert [str(a) for a in state.legal_actions()] == ["W:KC"]


def test_13_5_one_trump_scores_high_and_low_and_jack_is_not_played() -> None:
    hand = EX_13_5.play().results[-1]
    assert hand.high_card == hand.low_card == Card.parse("9H")
    assert hand.jack is None
    # 20 card points lie in the unseen blind.
    assert sum(hand.card_points) == 60


def test_13_6_discards_count_for_the_bidder_and_the_unseen_blind_for_nobody() -> None:
    state = EX_13_6.play()
    assert set(state.discards) == set(parse_cards("10C 10D 8H"))
    assert state.results[-1].card_points == (59, 18)


def test_13_6_the_bidder_may_not_discard_a_trump_it_could_keep() -> None:
    state = SmearGame({"blind_cards": 3, "first_dealer": "S"}).new_initial_state()
    state.apply_action(EX_13_6.deal())
    for call in EX_13_6.auction:
        state.apply_text(call)
    assert state.phase is Phase.DISCARD
    assert sorted(map(str, state.hands[0])) == sorted("AS QS 9S 7S 9D 10C KS 10D 8H".split())
    # Discarding 7S keeps four of five spades: legal only if N then leads a non-spade.
    state.apply_text("N:discard 7S 10C 10D")
    assert all(a.card.suit is not Suit.SPADES for a in state.legal_actions())  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        state.apply_text("N:AS")


def _held_13_7() -> list[Card]:
    return parse_cards("AS KS QS JS 10S 8S 7S 9D 10C")


def test_13_7_seven_trumps_allow_exactly_seven_discards_for_a_spade_lead() -> None:
    held = _held_13_7()
    fits = [set(c) for c in itertools.combinations(held, 3)
            if discard_fits_lead(SmearOptions(blind_cards=3), held, c, Suit.SPADES)]
    assert len(fits) == 7
    assert all({Card.parse("9D"), Card.parse("10C")} <= f for f in fits)


def test_13_7_only_if_over_six_allows_any_84_discards() -> None:
    held = _held_13_7()
    opts = SmearOptions(blind_cards=3, trump_discard_rule="only_if_over_six")
    fits = [c for c in itertools.combinations(held, 3) if discard_fits_lead(opts, held, c, Suit.SPADES)]
    assert len(fits) == 84


def test_13_7_the_rule_is_judged_against_the_suit_actually_led() -> None:
    held = _held_13_7()
    three_spades = parse_cards("KS QS JS")
    assert not discard_fits_lead(SmearOptions(blind_cards=3), held, three_spades, Suit.SPADES)
    assert discard_fits_lead(SmearOptions(blind_cards=3), held, three_spades, Suit.CLUBS)
    assert tuple(sorted(three_spades)) in legal_discards(SmearOptions(blind_cards=3), held)


@pytest.mark.parametrize(("jack_in_discard", "jack"), [("no_point", None), ("bidder_team", NS)])
def test_13_7_a_discarded_jack_of_trump(jack_in_discard: str, jack: int | None) -> None:
    # N discarded 9D, 10C and JS and leads spades; one trick stands for the hand.
    trick = Trick.parse("N:AS E:9H S:8D W:7C", SEATS, trump=Suit.SPADES)
    opts = SmearOptions(blind_cards=3, jack_in_discard=jack_in_discard)
    hand = score_hand(opts, bidder=0, bid=2, tricks=[trick], discards=parse_cards("9D 10C JS"))
    assert hand.jack == jack
    assert hand.card_points == (4 + 10 + 1, 0)


def _hand_13_3() -> HandScore:
    return EX_13_3.play().results[-1]


@pytest.mark.parametrize(
    ("options", "after", "winner"),
    [
        ({}, (16, 9), NS),
        ({"win_requires_made_bid": True}, (16, 9), None),
        ({"nonbidder_score_cap": 14}, (14, 9), None),
        ({"nonbidder_score_cap": 15}, (15, 9), NS),
    ],
)
def test_13_9_the_non_bidders_reach_15_while_the_bidder_is_set(
    options: dict[str, object], after: tuple[int, int], winner: int | None
) -> None:
    result = settle_hand(SmearOptions(**options), (13, 12), _hand_13_3())  # type: ignore[arg-type]
    assert result.scores == after
    assert result.winner == winner


def test_13_9_with_trick_winner_low_credit_ns_wins_15_to_9() -> None:
    hand = EX_13_3.play(low_credit="trick_winner").results[-1]
    result = settle_hand(SmearOptions(low_credit="trick_winner"), (13, 12), hand)
    assert result == type(result)((15, 9), NS)


@pytest.mark.parametrize(
    ("options", "after", "winner"),
    [
        ({}, (15, 16), EW),
        ({"both_reach_rule": "bidder_wins"}, (15, 16), NS),
        ({"nonbidder_score_cap": 15}, (15, 15), NS),
        ({"win_requires_made_bid": True}, (15, 16), NS),
    ],
)
def test_13_10_both_teams_reach_15_in_the_same_hand(
    options: dict[str, object], after: tuple[int, int], winner: int
) -> None:
    hand = EX_13_10.play().results[-1]
    result = settle_hand(SmearOptions(**options), (13, 14), hand)  # type: ignore[arg-type]
    assert result.scores == after
    assert result.winner == winner


@pytest.mark.parametrize("options", [{}, {"both_reach_rule": "bidder_wins"}, {"nonbidder_score_cap": 15},
                                     {"win_requires_made_bid": True}])
def test_13_10_with_the_13_4_play_equal_scores_go_to_the_bidder(options: dict[str, object]) -> None:
    result = settle_hand(SmearOptions(**options), (13, 14), EX_13_4.play().results[-1])  # type: ignore[arg-type]
    assert result.scores == (15, 15)
    assert result.winner == NS


def _auction_state(**options: object) -> SmearState:
    state = SmearGame({**options, "first_dealer": "N"}).new_initial_state()
    state.apply_action(EX_13_1.deal())
    return state


@pytest.mark.parametrize(("all_pass", "next_dealer"), [("redeal_same_dealer", 0), ("redeal_next_dealer", 1)])
def test_13_11_everybody_passes(all_pass: str, next_dealer: int) -> None:
    state = _auction_state(all_pass=all_pass)
    for text in ("E:pass", "S:pass", "W:pass", "N:pass"):
        state.apply_text(text)
    assert state.is_chance_node()
    assert state.scores == [0, 0] and state.results == []
    deal = state.sample_chance(5)
    assert isinstance(deal, Deal) and deal.dealer == next_dealer
    wrong = EX_13_1.deal()
    if next_dealer != 0:
        with pytest.raises(IllegalActionError):
            state.apply_action(wrong)


def test_13_11_dealer_must_bid_after_three_passes() -> None:
    state = _auction_state(all_pass="dealer_must_bid")
    for text in ("E:pass", "S:pass", "W:pass"):
        state.apply_text(text)
    assert state.legal_actions() == [Bid(0, 2), Bid(0, 3), Bid(0, 4)]
    with pytest.raises(IllegalActionError):
        state.apply_action(Pass(0))


def test_13_11_legal_bids_during_an_auction() -> None:
    for match, dealer_bids in ((False, ["N:pass", "N:bid 4"]), (True, ["N:pass", "N:bid 3", "N:bid 4"])):
        state = _auction_state(dealer_may_match=match)
        state.apply_text("E:bid 2")
        assert [str(a) for a in state.legal_actions()] == ["S:pass", "S:bid 3", "S:bid 4"]
        state.apply_text("S:bid 3")
        assert [str(a) for a in state.legal_actions()] == ["W:pass", "W:bid 4"]
        state.apply_text("W:pass")
        assert [str(a) for a in state.legal_actions()] == dealer_bids
        state.apply_text("N:pass")
        assert state.bidder == 2 and state.high == 3
        assert state.current_player() == 2  # S leads to trick 1


def test_13_11_the_dealer_takes_the_contract_by_matching() -> None:
    state = _auction_state(dealer_may_match=True)
    for text in ("E:bid 2", "S:bid 3", "W:pass", "N:bid 3"):
        state.apply_text(text)
    assert (state.bidder, state.high, state.phase) == (0, 3, Phase.PLAY)


def test_13_12_score_history_of_the_six_examples_as_one_game() -> None:
    scores: tuple[int, int] = (0, 0)
    history = []
    winner = None
    for name in ("13.1", "13.2", "13.3", "13.4", "13.5", "13.6"):
        ex = EXAMPLES[name]
        result = settle_hand(SmearOptions(**ex.options), scores, ex.play().results[-1])
        scores, winner = result.scores, result.winner
        history.append(scores)
    assert history == [(3, 1), (7, 1), (10, -2), (12, -1), (12, 2), (16, 2)]
    assert winner == NS
