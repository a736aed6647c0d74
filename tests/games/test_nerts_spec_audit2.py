"""A second audit of the Nerts engine against ``rules/nerts.md``: what the first one
(``test_nerts_spec_audit.py``) missed.

Progress moves (§6) decide whether an all-stuck table resets again or ends the hand (§7.2), and
the seat's own moves of type M3-M7 clear its stuck flag (M9). On a camera-level log the referee
learns of some of those moves only indirectly: a card proven to have landed on a foundation
(``unseen_play``, a card seen twice) or a new card seen on top of a seat's Nerts pile
(``nerts_top``: the card that lay there left it).
"""

from __future__ import annotations

from tests.games.nerts_log import ev, header, run, texts

SEATS = ["Ana", "Ben"]


def _reset_then(*after_reset: str) -> list[str]:
    """A camera-level hand: Ana starts a ♣ pile, both seats go stuck (reset 1), then ``after_reset``,
    then both seats go stuck again."""
    return [header(SEATS), ev("0", "nerts_top", "Ana", card="5H"), ev("0.5", "hand_start"),
            ev("1", "foundation_play", "Ana", card="AC", pile="C1"),
            ev("2", "stuck", "Ana"), ev("3", "stuck", "Ben"), *after_reset,
            ev("5", "stuck", "Ana"), ev("6", "stuck", "Ben")]


def test_an_unseen_card_landing_after_a_reset_is_progress() -> None:
    """§6 (progress moves: any move that lands a card on a foundation) and §7.2 (stalemate end): a
    card the camera did not see land, but which the pile proves went there, is still a card landed on
    a foundation, so the next all-stuck brings reset 2, not the end of the hand."""
    report = run(_reset_then(ev("4", "unseen_play", card="2C", pile="C1")))
    assert len(texts(report, "reset")) == 2
    assert texts(report, "stalemate") == []


def test_a_card_seen_twice_still_lands_and_is_progress() -> None:
    """§6 and §7.2: a card seen twice (a misread, or another deck's card) lies on the pile all the
    same and raises it, so a card did land on a foundation after the reset."""
    lines = [header(SEATS), ev("0.5", "hand_start"),
             ev("1", "foundation_play", "Ana", card="AC", pile="C1"),
             ev("1.5", "foundation_play", "Ana", card="2C", pile="C1"),
             ev("1.8", "foundation_play", "Ben", card="AC", pile="C2"),
             ev("2", "stuck", "Ana"), ev("3", "stuck", "Ben"),
             ev("4", "foundation_play", "Ana", card="2C", pile="C2"),  # Ana's 2♣ is already on C1
             ev("5", "stuck", "Ana"), ev("6", "stuck", "Ben")]
    report = run(lines)
    assert len(texts(report, "reset")) == 2
    assert texts(report, "stalemate") == []


def test_a_new_nerts_top_after_a_reset_is_progress() -> None:
    """§6 (progress moves: any move that takes a card out of the Nerts pile) and §7.2, with §12 (the
    referee learns a Nerts card when it turns up): a new card on top of Ana's Nerts pile means the 5♥
    that lay there left it, by a move of type M3-M5 or M7 that the camera missed. That is progress:
    the next all-stuck resets again."""
    report = run(_reset_then(ev("4", "nerts_top", "Ana", card="9S")))
    assert len(texts(report, "reset")) == 2
    assert texts(report, "stalemate") == []


def test_the_same_nerts_top_seen_again_is_no_progress() -> None:
    """§7.2: seeing the same card on top again is no move at all, so the hand still ends by
    stalemate after the reset with no progress."""
    report = run(_reset_then(ev("4", "nerts_top", "Ana", card="5H")))
    assert len(texts(report, "reset")) == 1
    assert len(texts(report, "stalemate")) == 1


def test_a_card_leaving_the_nerts_pile_clears_its_seats_stuck_flag() -> None:
    """M9: a seat's stuck flag is cleared by its next move of type M3-M7. A new Nerts top proves
    that Ana moved her Nerts top card after declaring stuck, so when Ben declares stuck not every seat
    is stuck, and there is no reset (§7.2)."""
    lines = [header(SEATS), ev("0", "nerts_top", "Ana", card="5H"), ev("0.5", "hand_start"),
             ev("1", "stuck", "Ana"), ev("2", "nerts_top", "Ana", card="9S"), ev("3", "stuck", "Ben")]
    report = run(lines)
    assert texts(report, "reset") == []
