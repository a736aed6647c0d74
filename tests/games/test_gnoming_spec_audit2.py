"""A second audit of Gnoming A Round against ``rules/gnoming.md``: what the first one
(``test_gnoming_spec_audit.py``) did not cover. Each test names the section it checks.
"""

from __future__ import annotations

from tests.games.test_gnoming_spec_audit import Log


def _play_until_ann_goes_out(log: Log) -> None:
    """Ann fills her seven face-down positions with -1s; Bob passes a 7 each turn."""
    log.opening()
    for pos in ("12", "13", "21", "23", "31", "32", "33"):
        log("draw", "Ann", from_="deck")
        log("keep", "Ann", pos=pos, card="G-1", out="G8")
        log("discard", "Ann", card="G8", pile="A")
        log("draw", "Bob", from_="deck")
        log("discard", "Bob", card="G7", pile="B")


def test_cards_turned_up_in_place_at_the_end_of_the_round_are_no_breach() -> None:
    """§5.6: once the round is over every face-down card is turned up where it lies. A log
    that records those turns as ``flip`` events (before the ``reveal``) is no illegal flip."""
    log = Log(rounds=1)
    _play_until_ann_goes_out(log)
    assert log.ref.public_view().stage == "reveal"
    for pos, card in (("12", "G5"), ("13", "G6"), ("33", "G4")):
        log("flip", "Bob", pos=pos, card=card)
    log("reveal", "Ann", grid=["G3", "G-1", "G-1", "G-1", "G-2", "G-1", "G-1", "G-1", "G-1"])
    log("reveal", "Bob", grid=["G3", "G5", "G6", "G8", "G-2", "G8", "G8", "G7", "G4"])
    assert log.kinds() == []
    assert log.report().finished


def test_a_card_turned_up_in_place_must_match_the_reveal() -> None:
    """§5.6 and §9: a card turned up at the end is seen; the revealed grid must agree with it."""
    log = Log(rounds=1)
    _play_until_ann_goes_out(log)
    log("flip", "Bob", pos="12", card="G5")
    log("reveal", "Ann", grid=["G3", "G-1", "G-1", "G-1", "G-2", "G-1", "G-1", "G-1", "G-1"])
    log("reveal", "Bob", grid=["G3", "G6", "G6", "G8", "G-2", "G8", "G8", "G7", "G4"])
    assert log.kinds() == ["misread"]


def test_a_flip_without_a_hazard_during_play_is_still_a_breach() -> None:
    """§5.4 and §9: before the round is over a flip needs a Hazard discarded by another seat."""
    log = Log()
    log.opening()
    log("draw", "Ann", from_="deck")
    log("discard", "Ann", card="G7", pile="A")
    log("flip", "Ann", pos="33", card="G5")
    assert log.kinds() == ["illegal_flip"]
