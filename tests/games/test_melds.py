"""The exact 3-13 meld scorer: the worked examples of rummy_3_13.md §12, a brute-force
cross-check (§7.1) and permutation invariance."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.cards import Card, multi_deck, parse_cards
from kiosk.games.melds import (
    best_arrangement,
    card_points,
    is_valid_set,
    min_penalty,
    score_laid_out,
)
from tests.games.rummy_brute_force import brute_force_penalty, valid

DECK4 = multi_deck(4)


def _check_arrangement(hand: list[Card], wild: int, cap: int | None = None, fp: str = "10") -> int:
    a = best_arrangement(hand, wild, max_wilds_per_set=cap, face_card_points=fp)
    shown = [c for m in a.melds for c in m.cards] + list(a.orphans)
    assert sorted(shown) == sorted(hand), "the arrangement must use every card exactly once"
    for m in a.melds:
        assert is_valid_set(m.cards, wild, max_wilds_per_set=cap), m.display()
        assert valid(m.cards, wild, cap), m.display()
    assert a.penalty == sum(card_points(c, fp) for c in a.orphans)
    return a.penalty


# -- worked examples (rummy_3_13.md §12) ------------------------------------------

@pytest.mark.parametrize(
    ("hand", "wild", "penalty"),
    [
        ("7S 7D 3C", 3, 0),                                   # example 1
        ("3H 3S KD", 3, 0),                                   # example 2
        ("9H JH 2C", 3, 21),
        ("5C 6C 8C 4D", 4, 0),                                # example 3
        ("QS QH QD 2C", 4, 2),
        ("4C 2S 9H KD", 4, 25),
        ("8S 8H 8D 5C 2D", 5, 2),                             # example 4
        ("2H 3H 4H 3S 3D 3C", 6, 0),                          # example 5
        ("2C 3C 8D JS JH 5D 6D 8S", 8, 5),                    # example 6
        ("3H 4H 5H 6H 7H 5S 5D 7S 7D", 9, 10),                # example 7
        ("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS KC KD", 13, 0),  # example 8
        ("6H 7H 8H 9H 10H 8S 8C 10S 10C QH QS KC 2D", 13, 18),  # example 9
        ("9C 10C JC QC 4D 4S QH AH 2H 3H 7S KD", 12, 14),     # example 10
        ("5S 6S 7S JD JH 2C 9D 9H 9C KS KC", 11, 2),          # example 11
    ],
)
def test_worked_examples(hand: str, wild: int, penalty: int) -> None:
    cards = parse_cards(hand)
    assert _check_arrangement(cards, wild) == penalty
    assert brute_force_penalty(cards, wild) == penalty if len(cards) <= 9 else True


def test_example_6_places_the_wild_cards_with_the_jacks_and_the_diamonds() -> None:
    a = best_arrangement(parse_cards("2C 3C 8D JS JH 5D 6D 8S"), 8)
    assert [str(c) for c in a.orphans] == ["2C", "3C"]
    assert sorted(m.display() for m in a.melds) == ["5♦ 6♦ 8♠=7♦", "J♥ J♠ 8♦=J♦"]


def test_example_10_fills_a_run_gap_with_two_queens() -> None:
    a = best_arrangement(parse_cards("9C 10C JC QC 4D 4S QH AH 2H 3H 7S KD"), 12)
    assert sorted(str(c) for c in a.orphans) == ["4D", "KD"]
    runs = [m for m in a.melds if any(c.rank == 7 for c in m.cards)]
    assert runs and [str(f) for f in runs[0].faces] == ["4S", "5S", "6S", "7S"]


def test_example_12_final_hands() -> None:
    assert min_penalty(parse_cards("9S 9D 9H 4H"), 4) == 0
    assert min_penalty(parse_cards("6H 7H 8H 4S"), 4) == 0
    assert min_penalty(parse_cards("AC AD AS 2H"), 4) == 2
    assert min_penalty(parse_cards("5S 5H 8C 8D"), 4) == 26
    assert min_penalty(parse_cards("5S 5H 8C JD"), 4) == 28
    assert min_penalty(parse_cards("5S 8C 8D JD"), 4) == 31


def test_face_card_points_rank() -> None:
    assert min_penalty(parse_cards("9H JH 2C"), 3, face_card_points="rank") == 22
    # An unused wild King in hand 11 costs its face value.
    assert min_penalty(parse_cards("KS 2C 7D"), 13) == 19


def test_identical_cards_from_several_decks_make_a_group() -> None:
    assert min_penalty(parse_cards("5H 5H@1 5H@2"), 3) == 0
    assert not is_valid_set(parse_cards("5H 5H@1 6H"), 3)


def test_all_wild_set_and_capped_wilds() -> None:
    assert min_penalty(parse_cards("KS KH KD"), 13) == 0
    assert min_penalty(parse_cards("KS KH KD"), 13, max_wilds_per_set=0) == 0
    # Two wild cards may not both stand for other cards under a cap of one.
    assert min_penalty(parse_cards("3H 3S KD"), 3, max_wilds_per_set=1) == 16
    assert min_penalty(parse_cards("3H 3S KD"), 3) == 0


def test_aces_are_low_only() -> None:
    assert not is_valid_set(parse_cards("QH KH AH"), 5)
    assert is_valid_set(parse_cards("AH 2H 3H"), 5)
    assert min_penalty(parse_cards("QH KH AH 2H"), 7) == 23


def test_laid_out_arrangement_is_scored_as_shown() -> None:
    sets = [parse_cards("3S 3D 3C 3H")]
    assert score_laid_out(sets, parse_cards("2H 4H"), 6) == (6, [])
    assert score_laid_out([parse_cards("2H 3H 5H")], [], 6) == (10, [0])


def test_bad_input_is_rejected_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="at most 13 cards"):
        best_arrangement(DECK4[:14], 13)
    with pytest.raises(ValueError, match="without jokers"):
        best_arrangement([Card.joker(), *parse_cards("2C 3C")], 3)
    with pytest.raises(ValueError, match="wild_rank"):
        best_arrangement(parse_cards("2C 3C 4C"), 14)
    with pytest.raises(ValueError, match="face_card_points"):
        best_arrangement(parse_cards("2C 3C 4C"), 3, face_card_points="11")


# -- brute force ---------------------------------------------------------------------

def _random_hand(rng: random.Random) -> tuple[list[Card], int]:
    n = rng.randint(3, 8)
    wild = rng.randint(1, 13)
    if rng.random() < 0.75:
        # Few ranks and suits, so that sets and their conflicts are common.
        ranks = {*rng.sample(range(1, 14), rng.randint(2, 5)), wild}
        suits = set(rng.sample(range(4), rng.randint(1, 3)))
        pool = [c for c in DECK4 if int(c.rank) in ranks and int(c.suit or 0) in suits]
        return rng.sample(pool, min(n, len(pool))), wild
    return rng.sample(DECK4, n), wild


def test_scorer_matches_brute_force_on_thousands_of_hands() -> None:
    rng = random.Random(313)
    for _ in range(3000):
        hand, wild = _random_hand(rng)
        cap = rng.choice([None, None, None, 0, 1, 2])
        fp = rng.choice(["10", "rank"])
        expected = brute_force_penalty(hand, wild, max_wilds=cap, face_card_points=fp)
        assert _check_arrangement(hand, wild, cap, fp) == expected, (
            f"{' '.join(map(str, hand))} wild={wild} cap={cap} points={fp}"
        )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(DECK4), min_size=3, max_size=13, unique=True),
    st.integers(min_value=1, max_value=13),
    st.randoms(use_true_random=False),
)
def test_penalty_does_not_depend_on_card_order(hand: list[Card], wild: int, rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    a = best_arrangement(hand, wild)
    b = best_arrangement(shuffled, wild)
    assert a.penalty == b.penalty
    assert a == b, "the arrangement shown must not depend on the order the cards were read"
