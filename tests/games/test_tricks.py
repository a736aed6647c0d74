"""The shared trick-taking core: follow rule, winner, dealing, history, audits."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.cards import Card, Suit, parse_cards, standard_deck
from kiosk.games.errors import IllegalActionError, InvalidActionError
from kiosk.games.tricks import (
    ACE_LOW,
    OUT_OF_TURN,
    REVOKE,
    SEEN_TWICE,
    WRONG_COUNT,
    ClaimBook,
    Trick,
    TrickAuditor,
    TrickHistory,
    audit_tricks,
    deal_round_robin,
    deal_shuffled,
    follow_claim,
    legal_follows,
    parse_hand,
)

SEATS = ("N", "E", "S", "W")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_follow_rule_requires_the_led_suit_when_held() -> None:
    hand = cards("AS 3C 9C KH")
    assert legal_follows(hand, Suit.CLUBS) == cards("3C 9C")


def test_follow_rule_allows_anything_when_void_or_leading() -> None:
    hand = cards("AS KH")
    assert legal_follows(hand, Suit.CLUBS) == hand
    assert legal_follows(hand, None) == hand


def test_no_trump_winner_is_highest_of_led_suit() -> None:
    # kierki.md §14.6 trick 13: QC is the only club and wins.
    t = Trick.parse("N:QC E:JD S:3S W:9D", SEATS)
    assert SEATS[t.winner] == "N"


def test_ace_is_high_by_default() -> None:
    t = Trick.parse("E:KH S:3H W:2H N:AH", SEATS)
    assert SEATS[t.winner] == "N"


def test_ace_low_order_changes_the_winner() -> None:
    t = Trick.parse("E:KH S:3H W:2H N:AH", SEATS, order=ACE_LOW)
    assert SEATS[t.winner] == "E"


def test_lowest_trump_beats_led_suit_ace() -> None:
    # kierki.md §14.8 trick 8: W trumps the club lead with 7H.
    t = Trick.parse("E:JC S:QC W:7H N:3C", SEATS, trump=Suit.HEARTS)
    assert SEATS[t.winner] == "W"
    assert t.winning_card == Card.parse("7H")


def test_highest_trump_wins_among_trumps() -> None:
    t = Trick.parse("N:QS E:2C S:4S W:9C", SEATS, trump=Suit.CLUBS)
    assert SEATS[t.winner] == "W"


def test_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError):
        _ = Trick(0).winner


def test_trick_parse_rejects_bad_entries() -> None:
    with pytest.raises(InvalidActionError, match="SEAT:CARD"):
        Trick.parse("E3C", SEATS)
    with pytest.raises(InvalidActionError, match="unknown seat"):
        Trick.parse("X:3C", SEATS)


@given(st.permutations(standard_deck()).map(lambda d: d[:4]), st.integers(0, 3),
       st.sampled_from([None, *Suit]))
def test_trick_format_round_trips(four: list[Card], leader: int, trump: Suit | None) -> None:
    plays = tuple(((leader + i) % 4, c) for i, c in enumerate(four))
    t = Trick(leader, plays, trump)
    assert Trick.parse(t.format(SEATS), SEATS, trump=trump) == t
    assert Trick.parse(str(t), trump=trump) == t
    # The winner always played the led suit or a trump.
    win = t.winning_card
    assert win.suit is t.led_suit or win.suit is trump


def test_round_robin_deal_starts_left_of_dealer() -> None:
    deck = standard_deck()
    hands, rest = deal_round_robin(deck, 4, 13, first=1)
    assert rest == []
    assert hands[1][0] == deck[0] and hands[2][0] == deck[1] and hands[0][0] == deck[3]
    assert sorted(c for h in hands for c in h) == sorted(deck)


def test_two_stage_deal_keeps_the_order() -> None:
    deck = standard_deck()
    first, rest = deal_round_robin(deck, 4, 5, first=0)
    second, rest2 = deal_round_robin(rest, 4, 8, first=0)
    assert rest2 == [] and all(len(a) + len(b) == 13 for a, b in zip(first, second, strict=True))


def test_deal_shuffled_is_seeded() -> None:
    a, _ = deal_shuffled(standard_deck(), random.Random(7), 4, 13)
    b, _ = deal_shuffled(standard_deck(), random.Random(7), 4, 13)
    c, _ = deal_shuffled(standard_deck(), random.Random(8), 4, 13)
    assert a == b and a != c


def test_deal_needs_enough_cards() -> None:
    with pytest.raises(ValueError, match="cannot deal"):
        deal_round_robin(standard_deck()[:10], 4, 3)


def test_history_winner_leads_next_and_turn_is_checked() -> None:
    h = TrickHistory(4, leader=1)
    h.play(1, Card.parse("3C"))
    with pytest.raises(IllegalActionError, match="out of turn"):
        h.play(0, Card.parse("2C"))
    for seat, card in [(2, "8C"), (3, "7C"), (0, "2C")]:
        h.play(seat, Card.parse(card))
    assert h.leader == 2 and h.to_play == 2 and len(h.completed) == 1
    assert h.taken_by(2) == cards("3C 8C 7C 2C")


def test_parse_hand_reads_rule_sheet_lines() -> None:
    hand = parse_hand("N: S K Q 3 | H A Q J 8 4 2 | D 4 2 | C A 2".split(":", 1)[1])
    assert len(hand) == 13 and Card.parse("10H") not in hand and Card.parse("JH") in hand
    assert parse_hand("S 10 8 7 6 5 2 | H 10 | D J 6 3 2 | C 10 5")[0] == Card.parse("10S")


def test_claim_book_proves_a_revoke_several_tricks_later() -> None:
    book = ClaimBook()
    book.add(follow_claim(3, 5, Card.parse("10D"), Suit.CLUBS, "W"))
    assert book.observe(3, Card.parse("9D"), 6) == []
    assert book.observe(0, Card.parse("9C"), 7) == []  # another seat's club proves nothing
    proofs = book.observe(3, Card.parse("6C"), 11)
    assert [(p.claim.where, p.where) for p in proofs] == [(5, 11)]
    assert book.observe(3, Card.parse("4C"), 12) == []  # proven once


def test_following_suit_makes_no_claim() -> None:
    assert follow_claim(0, 1, Card.parse("3C"), Suit.CLUBS) is None
    assert follow_claim(0, 1, Card.parse("3C"), None) is None


def test_audit_finds_revoke_out_of_turn_seen_twice_and_wrong_count() -> None:
    tricks = [
        Trick.parse("E:5C S:QC W:10D N:AC", SEATS),   # W shows out of clubs
        Trick.parse("N:2D E:5D W:3D S:6D", SEATS),    # W plays before S
        Trick.parse("S:6S W:JS N:QS", SEATS),         # three cards
        Trick.parse("S:5S W:6S N:QS E:10S", SEATS),   # QS again
        Trick.parse("N:4H E:9H S:7H W:JC", SEATS),    # W's club proves trick 1's revoke
    ]
    problems = audit_tricks(tricks, n_seats=4, first_leader=1, names=SEATS)
    kinds = [(p.kind, p.trick) for p in problems]
    assert (OUT_OF_TURN, 2) in kinds
    assert (WRONG_COUNT, 3) in kinds
    assert (SEEN_TWICE, 4) in kinds
    revoke = next(p for p in problems if p.kind == REVOKE)
    assert (revoke.trick, revoke.proof_trick, SEATS[revoke.seat or 0]) == (1, 5, "W")
    assert "trick 1" in revoke.text and "trick 5" in revoke.text


def test_auditor_refuses_out_of_turn_and_keeps_trick_open_after_short_collect() -> None:
    aud = TrickAuditor(4, 1, names=SEATS)
    out = aud.play(0, Card.parse("2C"))
    assert not out.accepted and out.problems[0].kind == OUT_OF_TURN
    for seat, card in [(1, "3C"), (2, "8C")]:
        assert aud.play(seat, Card.parse(card)).accepted
    short = aud.collect()
    assert short is not None and short.kind == WRONG_COUNT and "2 of 4" in short.text
    aud.play(3, Card.parse("7C"))
    done = aud.play(0, Card.parse("2C"))
    assert done.completed is not None and SEATS[done.completed.winner] == "S"
    assert aud.collect() is None


def test_trick_repr_rebuilds_it() -> None:
    for t in (Trick.parse("E:3C S:8C W:7C", SEATS, trump=Suit.SPADES), Trick(2),
              Trick.parse("N:AH E:2H", SEATS, order=ACE_LOW)):
        assert eval(repr(t), {"Trick": Trick, "Suit": Suit, "ACE_LOW": ACE_LOW}) == t
