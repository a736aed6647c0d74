"""3-13 Speed: a seventh outsider's table logs, written from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone: things that really happen at a table (a hand dealt again, a seat
that lays no starting pile card) are refereed, never a stopped replay; and large groups (many
seats, several decks, the pool running short) under the options ``hands``, ``decks``,
``caller`` and ``pool_empty`` together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay
from tests.games.test_rummy_blackbox6 import POOL, _round


def _replay(tmp_path: Path, seats: list[str], events: list[dict[str, Any]],
            options: dict[str, Any]) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats, "options": options}
    lines = [header] + [{"t": 0.1 * (i + 1), **ev} for i, ev in enumerate(events)]
    return replay(tmp_path, lines)


def _kinds(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(i["kind"], i["seat"]) for i in report["infractions"]]


TWO = ["Ana", "Ben"]


def test_a_hand_dealt_again_before_it_is_finished_is_refereed(tmp_path: Path) -> None:
    """§5: each hand is set up by gathering, shuffling and dealing. A table that deals hand 1
    again part way through it (a ``hand_start`` numbering the hand in play, docs/table-log.md)
    has not finished that deal: it is not scored (``hand_not_scored``) and the replay goes on
    with the new deal of hand 1, which is scored as played."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}}]
    ev += _round({"Ana": POOL, "Ben": {"from": "Ana", "card": "5H"}}, {"Ana": "9D", "Ben": "KD"})
    ev += [{"type": "hand_start", "hand": 1, "piles": {"Ana": "6H", "Ben": "7C"}}]
    ev += [{"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "6H"}}, {"Ben": "6H"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["KD", "KS", "4C"]}]
    report = _replay(tmp_path, TWO, ev, {"hands": [3, 4]})
    assert _kinds(report) == [("hand_not_scored", None)]
    assert report["hands"] == [{"Ana": 0, "Ben": 24}]
    assert [r["data"]["hand"] for r in report["rulings"] if r["kind"] == "hand_start"] == [1, 1]
    assert not report["finished"]


def test_a_seat_that_lays_no_starting_pile_card_is_refereed(tmp_path: Path) -> None:
    """§5.3: each player lays one card face up to start their pile. Ben lays none (the
    ``hand_start`` names no card for him): a breach of the setup, refereed (``no_pile_card``),
    not a malformed log. His pile starts empty, so Cal, his left neighbour, who takes from it
    before Ben has discarded finds it empty (``empty_pile``); the hand goes on and is scored."""
    seats = ["Ana", "Ben", "Cal"]
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Cal": "2C"}}]
    ev += _round({"Ana": POOL, "Ben": {"from": "Ana", "card": "5H"}, "Cal": {"from": "Ben"}},
                 {"Ana": "9D", "Ben": "KD", "Cal": "QC"})
    ev += [{"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": POOL, "Cal": {"from": "Ben", "card": "KD"}}, {"Ben": "8S", "Cal": "KD"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["5H", "5S", "5D"]},
           {"type": "show", "seat": "Cal", "cards": ["9C", "QS", "4C"]}]
    report = _replay(tmp_path, seats, ev, {"hands": [3]})
    assert _kinds(report) == [("no_pile_card", "Ben"), ("empty_pile", "Cal")]
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 23}]
    assert report["finished"]


def test_a_false_match_penalty_carries_over_to_the_hand_dealt_again(tmp_path: Path) -> None:
    """§10 ``false_match_penalty``: the points are for the failed call itself. Ben's call
    fails in hand 1, which is then dealt again after a round (``hand_not_scored``); the new
    deal of hand 1 still carries his 5 points. In that deal the camera saw no card on Ben's
    pile (``null``): ``no_pile_card``."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}}]
    ev += _round({"Ana": POOL, "Ben": POOL}, {"Ana": "9D", "Ben": "KD"})
    ev += [{"type": "match", "seat": "Ben", "cards": ["2S", "9D", "KC"]},
           {"type": "hand_start", "hand": 1, "piles": {"Ana": "6H", "Ben": None}},
           {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "6H"}}, {"Ben": "6H"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["KD", "KS", "KC"]}]
    report = _replay(tmp_path, TWO, ev, {"hands": [3], "false_match_penalty": 5})
    assert _kinds(report) == [("hand_not_scored", None), ("no_pile_card", "Ben")]
    assert report["hands"] == [{"Ana": 0, "Ben": 5}]
    assert report["finished"] and report["winners"] == ["Ana"]


def _twelve_seats_pool_rounds(rounds: int) -> tuple[list[str], list[dict[str, Any]]]:
    """§6.2's large group: 12 seats, hand 11 (13 cards, Kings wild), every seat drawing from
    the pool each round and discarding 9♦."""
    seats = [f"P{i}" for i in range(12)]
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")}]
    for _ in range(rounds):
        ev += _round(dict.fromkeys(seats, POOL), dict.fromkeys(seats, "9D"))
    return seats, ev


def test_twelve_seats_in_hand_11_reform_the_pool_at_the_fourth_draw(tmp_path: Path) -> None:
    """§6.2: with 12 players in hand 11, 168 cards are dealt out and 40 remain in the pool.
    Three rounds of 12 pool draws leave 4, too few at the fourth "draw": the 36 discards under
    the 12 pile tops are gathered (``pool_reform``), and the round goes on. The re-formed pool
    (40) serves three more rounds before it runs short again."""
    seats, ev = _twelve_seats_pool_rounds(7)
    report = _replay(tmp_path, seats, ev, {"hands": [13], "decks": 4, "caller": "kiosk"})
    reforms = [r for r in report["rulings"] if r["kind"] == "pool_reform"]
    draws = [i for i, r in enumerate(report["rulings"]) if r["kind"] == "call" and r["text"] == "draw"]
    assert len(draws) == 7 and len(reforms) == 2 and "36" in reforms[0]["text"] and "36" in reforms[1]["text"]
    at = [report["rulings"].index(r) for r in reforms]
    assert at == [draws[3] - 1, draws[6] - 1]
    assert report["infractions"] == []


def test_twelve_seats_end_the_hand_when_the_pool_runs_short_under_end_hand(tmp_path: Path) -> None:
    """§10 ``pool_empty = end_hand`` with ``caller = kiosk``, four decks and ``hands`` [13]: at
    the fourth "draw" the pool holds 4 cards for 12 seats, so the hand ends as it stands
    (``pool_empty``); every seat spreads its 13 cards and the game of one hand is over."""
    seats, ev = _twelve_seats_pool_rounds(3)
    ev += [{"type": "call", "call": "draw"}]
    ev += [{"type": "show", "seat": s, "cards": ["KS"] * 12 + ["2H"]} for s in seats[:11]]
    ev += [{"type": "show", "seat": "P11", "cards": ["QS", "QH", "QD", "JC", "JD", "JH", "10S", "10D",
                                                     "10H", "9C", "9H", "9S", "2H"]}]
    report = _replay(tmp_path, seats, ev, {"hands": [13], "pool_empty": "end_hand", "caller": "kiosk"})
    assert [r["text"] for r in report["rulings"] if r["kind"] == "pool_empty"] == [
        "the pool has 4 cards for 12 seats: the hand ends now; everyone spreads their hand to be scored"]
    assert report["infractions"] == []
    assert report["hands"] == [{**dict.fromkeys(seats[:11], 0), "P11": 2}]
    assert report["finished"] and report["winners"] == seats[:11]


def test_a_hand_start_during_the_unfinished_last_hand_deals_it_again(tmp_path: Path) -> None:
    """§8: the game ends after the last hand. A ``hand_start`` without a number while that last
    hand is unfinished cannot be a hand past the game: the table dealt the last hand again
    (``hand_not_scored``), and the new deal is played and scored."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "piles": {"Ana": "5H", "Ben": "2C"}}]
    ev += _round({"Ana": POOL, "Ben": POOL}, {"Ana": "9D", "Ben": "KD"})
    ev += [{"type": "hand_start", "piles": {"Ana": "6H", "Ben": "7C"}},
           {"type": "match", "seat": "Ben", "cards": ["QS", "QD", "4C", "4H"]}]
    ev += _round({"Ana": {"from": "Ben", "card": "7C"}}, {"Ana": "7C"})
    ev += [{"type": "show", "seat": "Ana", "cards": ["KD", "KS", "4C", "2H"]}]
    report = _replay(tmp_path, TWO, ev, {"hands": [4]})
    assert _kinds(report) == [("hand_not_scored", None)]
    assert report["hands"] == [{"Ana": 2, "Ben": 0}]
    assert report["finished"] and report["winners"] == ["Ben"]


def test_a_hand_dealt_again_before_the_first_draw_is_a_plain_redeal(tmp_path: Path) -> None:
    """§5: the setup of a hand is gathering, shuffling and dealing. Dealt again before the
    caller's first "draw" with nobody out, nothing of the first deal was played: a plain
    redeal (as a misdeal in the other games), not an unfinished hand. Ben's failed setup
    match still costs its ``false_match_penalty`` (§10: the points are for the call)."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": "2C"}},
                                {"type": "match", "seat": "Ben", "cards": ["2S", "9D", "KC"]},
                                {"type": "hand_start", "hand": 1, "piles": {"Ana": "6H", "Ben": "8C"}},
           {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "6H"}}, {"Ben": "6H"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["KD", "KS", "4C"]}]
    report = _replay(tmp_path, TWO, ev, {"hands": [3, 4], "false_match_penalty": 3})
    assert _kinds(report) == []
    assert [r["text"] for r in report["rulings"] if r["kind"] == "hand_start"] == [
        "hand 1: 3 cards each, 3s wild", "hand 1 (dealt again): 3 cards each, 3s wild"]
    assert report["hands"] == [{"Ana": 0, "Ben": 27}]


def test_without_starting_piles_a_pile_named_null_is_simply_empty(tmp_path: Path) -> None:
    """§10 ``start_pile_each_hand = false``: no pile need start with a card, so a ``hand_start``
    whose ``piles`` names ``null`` for Ben (the camera saw none there) is no breach, and Ben's
    pile is empty until his first discard."""
    ev: list[dict[str, Any]] = [{"type": "hand_start", "hand": 1, "piles": {"Ana": "5H", "Ben": None}},
                                {"type": "match", "seat": "Ana", "cards": ["2S", "2S", "2S"]}]
    ev += _round({"Ben": {"from": "Ana", "card": "5H"}}, {"Ben": "KD"})
    ev += [{"type": "show", "seat": "Ben", "cards": ["5H", "5S", "5D"]}]
    report = _replay(tmp_path, TWO, ev, {"hands": [3], "start_pile_each_hand": False})
    assert _kinds(report) == []
    assert report["hands"] == [{"Ana": 0, "Ben": 0}]
