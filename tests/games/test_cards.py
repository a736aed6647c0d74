"""The card model: notation round-trips, decks, and the Gnoming deck."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games import (
    Back,
    Card,
    GnomeCard,
    InvalidActionError,
    Rank,
    Suit,
    gnoming_deck,
    multi_deck,
    parse_cards,
    parse_face,
    piquet_deck,
    standard_deck,
)

cards = st.builds(
    Card,
    st.sampled_from([r for r in Rank if r is not Rank.JOKER]),
    st.sampled_from(list(Suit)),
    st.integers(0, 12),
) | st.builds(Card.joker, st.integers(0, 12))


@given(cards)
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(st.text(max_size=8))
def test_any_text_parses_or_raises_invalid(text: str) -> None:
    try:
        card = Card.parse(text)
    except InvalidActionError as exc:
        assert exc.input == text
    else:
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("QS", "QS"), ("a♣", "AC"), ("JOKER", "JOKER"),
     ("10♥", "10H"), ("5H@3", "5H@3"), ("joker@1", "JOKER@1")],
)
def test_parse_accepts_common_spellings(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1", "11H", "QX", "H10", "10 H S", "JOKERS", "5H@-1", "BACK"])
def test_parse_rejects_garbage_with_the_input_named(text: str) -> None:
    with pytest.raises(InvalidActionError, match="invalid"):
        Card.parse(text)


def test_display_uses_unicode_suits() -> None:
    assert [c.display() for c in parse_cards("10H QS AD 2C JOKER")] == ["10♥", "Q♠", "A♦", "2♣", "JOKER"]


def test_equal_faces_of_two_decks_are_distinct_cards() -> None:
    ana, ben = Card.parse("5H@0"), Card.parse("5H@1")
    assert ana != ben
    assert ana.face == ben.face
    assert len({ana, ben}) == 2


def test_decks_have_the_right_cards() -> None:
    assert len(set(standard_deck())) == 52
    assert Counter(c.is_joker for c in standard_deck(jokers=2))[True] == 2
    piquet = piquet_deck()
    assert len(piquet) == 32 and {c.rank for c in piquet} == {
        Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}
    four = multi_deck(4)
    assert len(four) == 208 and len(set(four)) == 208
    assert Counter(c.face for c in four)[Card.parse("QS")] == 4


def test_gnoming_deck_matches_the_spec_counts() -> None:
    deck = gnoming_deck()
    counts = Counter(str(c) for c in deck)
    assert len(deck) == 110
    assert counts["G8"] == 13 and counts["G3"] == 14 and counts["G-4"] == 3
    assert counts["HAZARD"] == 3 and counts["MULLIGAN"] == 3
    assert sum(1 for c in deck if c.value is not None and c.value < 0) == 22


@pytest.mark.parametrize("text", ["G0", "G9", "G-5", "G", "GX", "HAZARDS"])
def test_gnoming_rejects_values_not_printed(text: str) -> None:
    with pytest.raises(InvalidActionError):
        GnomeCard.parse(text)


def test_parse_face_knows_backs_gnoming_and_standard_cards() -> None:
    assert parse_face("BACK") == Back()
    assert parse_face("BACK@2") == Back(2)
    assert parse_face("G-2") == GnomeCard.of(-2)
    assert parse_face("kd") == Card(Rank.KING, Suit.DIAMONDS)
    with pytest.raises(InvalidActionError):
        parse_face("ZZ")
