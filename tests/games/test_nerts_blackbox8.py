"""Black-box Nerts tests, round 8: the fully tracked hand (a ``hand_start`` carrying every seat's deck
order, ``docs/table-log.md``) under the layout options of ``rules/nerts.md`` §11, with decks built so
that specific moves become legal or illegal, refereed through ``kiosk replay --json``.

A *probe* is a non-Ace played to a new pile id: the referee refuses it as ``illegal_play`` ("only an
Ace can") when the card is where the log says, and as ``not_available`` when the tracked layout does not
have it there, which shows what the referee believes lies on top of a source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_DECK = [r + s for s in "SHDC" for r in _RANKS]


def _deck(nerts: list[str], work: list[str], stock: list[str], nerts_size: int = 13) -> list[str]:
    """A deck in dealing order (§4): the Nerts pile (``nerts`` last, its last card the face-up top,
    filled up from below), then the work piles, then the stock (first card on top), then the rest."""
    rest = [c for c in _DECK if c not in {*nerts, *work, *stock}]
    filler = [rest.pop() for _ in range(nerts_size - len(nerts))]
    return [*filler, *nerts, *work, *stock, *rest]


def _log(deals: dict[str, list[str]], events: list[dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    header = {"table_log": 1, "game": "nerts", "seats": list(deals), "options": options}
    start = {"t": 0, "type": "hand_start", "deal": {s: " ".join(d) for s, d in deals.items()}}
    return [header, start, *events]


def _ev(t: float, kind: str, seat: str = "Ana", **more: Any) -> dict[str, Any]:
    return {"t": t, "type": kind, "seat": seat, **more}


def _play(t: float, card: str, pile: str, src: str, seat: str = "Ana") -> dict[str, Any]:
    return _ev(t, "foundation_play", seat, card=card, pile=pile, **{"from": src})


def _probe(t: float, card: str, src: str) -> dict[str, Any]:
    return _play(t, card, f"P{t}", src)


def _kinds(report: dict[str, Any], key: str = "infractions") -> list[tuple[str, str]]:
    return [(x["t"], x["kind"]) for x in report[key]]


def test_a_reset_under_one_card_turns_restores_the_stock_then_rotates_one_card(tmp_path: Path) -> None:
    """§7.2 with ``stock_turn_count = 1``: after all 35 stock cards are turned, the reset puts the waste
    back as the stock in its first order and moves its top card (the first stock card) to the bottom,
    so the next one-card turn shows the second stock card, and the first is not the waste top."""
    ana = _deck(["KD"], ["QS", "JS", "10S", "9S"], ["2C", "3C", "4C"])
    ben = _deck([], [], [])
    events = [_ev(1 + i, "turn") for i in range(35)]
    events += [_ev(40, "stuck"), _ev(41, "stuck", "Ben"), _ev(42, "turn"),
               _probe(43, "3C", "waste"), _probe(44, "2C", "waste")]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events, stock_turn_count=1))
    assert [x["kind"] for x in report["rulings"]] == ["hand_start", "reset"]
    assert _kinds(report) == [("43", "illegal_play"), ("44", "not_available")]


def test_a_short_one_card_turn_with_two_card_turns_recycles_at_once(tmp_path: Path) -> None:
    """§6 short stock with ``stock_turn_count = 2`` and ``short_stock = recycle_immediately``: the 35-card
    stock is turned 17 times two at a time; the 18th turn finds one card, which goes on the waste and
    the waste is turned over at once, so it is not playable and the next turn shows the second card."""
    ana = _deck(["KD"], ["QS", "JS", "10S", "9S"], ["2C", "3C", "4C"])
    last = ana[-1]
    events = [_ev(1 + i, "turn") for i in range(18)]
    events += [_probe(20, last, "waste"), _ev(21, "turn"), _probe(22, "3C", "waste")]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": _deck([], [], [])}, events,
                                   stock_turn_count=2, short_stock="recycle_immediately"))
    assert _kinds(report) == [("20", "not_available"), ("22", "illegal_play")]


def test_a_ten_card_nerts_pile_and_five_work_piles_are_dealt_and_scored(tmp_path: Path) -> None:
    """§4 with ``nerts_pile_size = 10`` and ``work_piles = 5``: the 10th card is the Nerts top, the next
    five start the work piles; Ana plays A♥ from the Nerts pile and 2♥-6♥ from the five work piles, and
    the hand ends by stalemate. §8: Ana F = 6, N = 9 scores 6 - 18 = -12; Ben 0 - 20 = -20."""
    ana = _deck(["AH"], ["2H", "3H", "4H", "5H", "6H"], [], nerts_size=10)
    ben = _deck([], [], [], nerts_size=10)
    events = [_play(1, "AH", "F1", "nerts")]
    events += [_play(2 + i, f"{i + 2}H", "F1", f"work{i + 1}") for i in range(5)]
    events += [_ev(10, "stuck"), _ev(11, "stuck", "Ben"), _ev(12, "stuck"), _ev(13, "stuck", "Ben")]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events, nerts_pile_size=10, work_piles=5))
    assert report["infractions"] == []
    assert report["hands"] == [{"Ana": -12, "Ben": -20}]


def test_a_card_slid_under_moves_with_its_pile_and_partial_blocks_follow_the_invariant(
        tmp_path: Path) -> None:
    """§6 M5-M7: 8♥ builds on 9♠, 10♥ from the Nerts pile slides under 9♠ as the new base, the whole
    pile (10♥ 9♠ 8♥) moves onto J♣, the partial block 9♠ 8♥ moves to the emptied pile, and J♣ 10♥
    moves to an empty pile; 8♥ is then the exposed card of work pile 2. 9♠ 8♥ may not go onto Q♦."""
    ana = _deck(["10H"], ["9S", "8H", "JC", "QD"], [])
    mv = [("8H", "work2", "work1"), ("10H", "nerts", "under1"), ("10H", "work1", "work3"),
          ("9S", "work3", "work2"), ("JC", "work3", "work1"), ("9S", "work2", "work4")]
    events = [_ev(1 + i, "move", card=c, **{"from": a, "to": b}) for i, (c, a, b) in enumerate(mv)]
    events.append(_probe(10, "8H", "work2"))
    report = replay(tmp_path, _log({"Ana": ana, "Ben": _deck([], [], [])}, events))
    assert _kinds(report) == [("6", "illegal_move"), ("10", "illegal_play")]


def test_a_card_refused_as_not_available_may_be_taken_back_from_its_pile(tmp_path: Path) -> None:
    """§5 rule 3 (no card leaves a foundation, except an illegal card sent back) and §6.1 (it goes back
    where it came from): after a turn Ana's waste is 5♣ 6♣ A♣ with A♣ on top, so her 6♣ played from the
    waste is not available, and the referee tells her to take it back. Taking it back from the pile (a
    new id, or the A♥ pile) is that return: no breach, and the replay does not stop on the pile id."""
    ana = _deck(["2H", "AH"], ["3H", "KS", "QS", "JS"], ["5C", "6C", "AC"])
    ben = _deck([], [], [])
    back = {"from": "F9", "to": "waste"}
    events = [_ev(1, "turn"), _play(2, "6C", "F9", "waste"), _ev(3, "move", card="6C", **back)]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
    assert _kinds(report) == [("2", "not_available")]
    back = {"from": "F1", "to": "waste"}
    events = [_play(1, "AH", "F1", "nerts"), _ev(1.5, "turn"), _play(2, "6C", "F1", "waste"),
              _ev(3, "move", card="6C", **back), _play(4, "AC", "F2", "waste")]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
    assert _kinds(report) == [("2", "not_available")]


def test_a_card_played_from_the_stock_may_be_put_back_on_the_stock(tmp_path: Path) -> None:
    """§3 (a stock card is never available), §5 rule 3 and §6.1: Ana's 5♣ played from her stock is
    refused and she is told to put it back; putting it back on the stock, from the A♥ pile or from a
    new pile id, is that return, not a card taken off a foundation. The same card taken from the pile
    to the waste instead is redirected (it must go back where it came from first)."""
    ana = _deck(["2H", "AH"], ["3H", "KS", "QS", "JS"], ["5C", "6C", "AC"])
    ben = _deck([], [], [])
    for pile in ("F1", "F9"):
        events = [_play(1, "AH", "F1", "nerts"), _play(2, "5C", pile, "stock"),
                  _ev(3, "move", card="5C", **{"from": pile, "to": "stock"})]
        report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
        assert _kinds(report) == [("2", "not_available")]
    events = [_play(1, "AH", "F1", "nerts"), _play(2, "5C", "F1", "stock"),
              _ev(3, "move", card="5C", **{"from": "F1", "to": "waste"})]
    report = replay(tmp_path, _log({"Ana": ana, "Ben": ben}, events))
    assert _kinds(report) == [("2", "not_available"), ("3", "redirected")]
