"""3-13 Speed, fifth outside round: table logs written from ``rules/rummy_3_13.md`` and
``docs/table-log.md`` alone (the variant options of §10 above all), replayed through
``kiosk replay --json``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.games.replay_logs import ROOT, replay, write_log

SEATS = ["Ana", "Ben", "Cal", "Dee"]
PILES = {"Ana": "2S", "Ben": "10C", "Cal": "7D", "Dee": "9H"}


def _replay(tmp_path: Path, options: dict[str, Any], events: list[dict[str, Any]],
            seats: list[str] | None = None) -> dict[str, Any]:
    header = {"table_log": 1, "game": "rummy_3_13", "seats": seats or SEATS, "options": options}
    lines = [header] + [{"t": round(0.1 * (i + 1), 1), **ev} for i, ev in enumerate(events)]
    return replay(tmp_path, lines)


def _kinds(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(i["kind"], i["seat"]) for i in report["infractions"]]


def test_only_the_tied_seats_cards_decide_the_caller_on_a_redraw(tmp_path: Path) -> None:
    """§2: players who tie for highest draw again *among themselves*. Cal, who did not tie,
    drawing the highest card in the second draw is a breach (``caller_draw_seats``), and his
    card does not make him the caller: of the tied seats Ben drew higher."""
    report = _replay(tmp_path, {"hands": [3]}, [
        {"type": "caller_draw", "cards": {"Ana": "KS", "Ben": "KC", "Cal": "AD", "Dee": "AH"}},
        {"type": "caller_draw", "cards": {"Ana": "2S", "Ben": "3C", "Cal": "QD"}},
    ])
    assert _kinds(report) == [("caller_draw_seats", None)]
    assert [r["kind"] for r in report["rulings"]] == ["caller_tie", "caller"]
    assert report["rulings"][-1]["seats"] == ["Ben"]
    assert report["extra"]["caller"] == "Ben"


def test_a_table_the_largest_hand_can_be_dealt_to_is_refereed(tmp_path: Path) -> None:
    """§2: two or more players, no upper limit; §6.1: every pile holds a card to draw, and §6.2
    re-forms a short pool. Fourteen seats with four decks can be dealt hand 11 (14 x 13 cards
    plus 14 pile cards = 196 of 208), so the log is refereed, not refused; so is a table of
    more than 40 seats with the decks it needs."""
    seats = [f"P{i}" for i in range(14)]
    piles = dict.fromkeys(seats, "2C")
    report = _replay(tmp_path, {"hands": [13]}, [
        {"type": "hand_start", "hand": 1, "piles": piles},
        {"type": "match", "seat": "P0", "cards": ["KS"] * 13},
    ], seats)
    assert [r["kind"] for r in report["rulings"]] == ["hand_start", "match"]
    seats = [f"P{i}" for i in range(45)]
    report = _replay(tmp_path, {"hands": [3], "decks": 4}, [
        {"type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")},
    ], seats)
    assert [r["kind"] for r in report["rulings"]] == ["hand_start"]
    # 45 x (13 + 1) cards need 13 decks (676 cards): a deck count §10 does not forbid.
    report = _replay(tmp_path, {"decks": 13}, [
        {"type": "hand_start", "hand": 1, "piles": dict.fromkeys(seats, "2C")},
    ], seats)
    assert report["rulings"][0]["text"] == "hand 1: 3 cards each, 3s wild"


def _discards(cards: list[str]) -> list[dict[str, Any]]:
    """Ana, Ben, Cal and Dee turn up ``cards``, in that order."""
    return [{"type": "discard", "seat": s, "card": c} for s, c in zip(SEATS, cards, strict=True)]


def _example_12_round_1(match: dict[str, Any]) -> list[dict[str, Any]]:
    """§12 example 12, round 1: Ana takes 9H from Dee's pile, everyone holds and turns up,
    then ``match`` is laid out in the window."""
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": PILES},
        {"type": "call", "call": "draw"},
        {"type": "draw", "seat": "Ana", "from": "Dee", "card": "9H"},
        {"type": "draw", "seat": "Ben", "from": "pool"},
        {"type": "draw", "seat": "Cal", "from": "Ben", "card": "10C"},
        {"type": "draw", "seat": "Dee", "from": "Cal", "card": "7D"},
    ]
    ev += [{"type": "hold", "seat": s} for s in SEATS]
    ev += [{"type": "call", "call": "discard"}]
    ev += _discards(["JC", "KS", "10C", "7D"])
    return [*ev, match]


def test_matcher_plays_final_round_match_ruling_sends_everyone_to_the_final_round(tmp_path: Path) -> None:
    """§10 ``matcher_plays_final_round = true``: the matched players also draw and discard in
    the final round, so the confirmation must not tell the table that only the others do;
    Ana plays the final round, stays complete and scores 0."""
    ev = _example_12_round_1({"type": "match", "seat": "Ana", "sets": [["9S", "9D", "9H", "4H"]]})
    ev += [{"type": "call", "call": "draw"}]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in SEATS]
    ev += [{"type": "hold", "seat": s} for s in SEATS]
    ev += [{"type": "call", "call": "discard"}]
    ev += _discards(["2C", "3D", "QH", "JD"])
    ev += [{"type": "show", "seat": "Ana", "cards": ["9S", "9D", "9H", "4H"]},
           {"type": "show", "seat": "Ben", "cards": ["6H", "7H", "8H", "4S"]},
           {"type": "show", "seat": "Cal", "cards": ["AC", "AD", "AS", "2H"]},
           {"type": "show", "seat": "Dee", "cards": ["5S", "5H", "8C", "8D"]}]
    report = _replay(tmp_path, {"hands": [4], "matcher_plays_final_round": True}, ev)
    match = next(r for r in report["rulings"] if r["kind"] == "match")
    assert "everyone else" not in match["text"] and "everyone draws" in match["text"]
    assert _kinds(report) == []
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}]
    # By default the matched seat sits the final round out, and the ruling says so.
    default = _replay(tmp_path, {"hands": [4]}, _example_12_round_1(
        {"type": "match", "seat": "Ana", "sets": [["9S", "9D", "9H", "4H"]]}))
    assert "everyone else draws" in default["rulings"][-1]["text"]


def test_false_match_penalty_stands_in_a_hand_that_is_never_finished(tmp_path: Path) -> None:
    """§10 ``false_match_penalty``: the points are added for a "match" call that fails the check.
    Hand 1 is abandoned before anyone spreads a hand (``hand_not_scored``), but Ana's failed
    call in its setup window still costs her the 5 points; the other seats score nothing."""
    wild_group = ["4S", "4H", "4D", "4C"]
    report = _replay(tmp_path, {"hands": [3, 4], "false_match_penalty": 5}, [
        {"type": "hand_start", "hand": 1, "piles": PILES},
        {"type": "match", "seat": "Ana", "cards": ["2S", "5H", "9D"]},
        {"type": "hand_start", "hand": 2, "piles": PILES},
        *({"type": "match", "seat": s, "cards": wild_group} for s in SEATS),
    ])
    assert _kinds(report) == [("hand_not_scored", None)]
    assert report["hands"] == [{"Ana": 5, "Ben": 0, "Cal": 0, "Dee": 0}, dict.fromkeys(SEATS, 0)]
    assert report["finished"] and report["winners"] == ["Ben", "Cal", "Dee"]


def test_a_table_the_cards_cannot_serve_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    """§2, §5: the largest hand must be dealt with one more card a seat (the starting pile card,
    or without starting piles the first draw). Fifteen seats need 15 x 14 = 210 cards for
    hand 11, more than four decks hold: the header is refused, naming the fix."""
    seats = [f"P{i}" for i in range(15)]
    for start_piles in (True, False):
        header = {"table_log": 1, "game": "rummy_3_13", "seats": seats,
                  "options": {"hands": [13], "start_pile_each_hand": start_piles}}
        log = write_log(tmp_path / "table.jsonl", [header])
        run = subprocess.run([sys.executable, "-m", "kiosk", "replay", str(log), "--json"],
                             capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 2
        assert "line 1" in run.stderr and "210 cards" in run.stderr and "add a deck" in run.stderr


def test_a_matched_seat_spreading_its_frozen_hand_in_the_final_round_changes_nothing(
        tmp_path: Path) -> None:
    """§6.1, §6.3: a matched player's cards were laid out face up for the check and the hand
    stays frozen (default ``matcher_plays_final_round = false``). Ana spreading it again during
    the final round is not an early show, and it does not end the final round before Ben, Cal
    and Dee turn up their discards."""
    frozen = ["9S", "9D", "9H", "4H"]
    ev: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": PILES},
        {"type": "match", "seat": "Ana", "cards": frozen},
        {"type": "call", "call": "draw"},
    ]
    ev += [{"type": "draw", "seat": s, "from": "pool"} for s in SEATS[1:]]
    ev += [{"type": "show", "seat": "Ana", "cards": frozen}]
    ev += [{"type": "hold", "seat": s} for s in SEATS[1:]]
    ev += [{"type": "call", "call": "discard"}, {"type": "show", "seat": "Ana", "cards": frozen}]
    ev += _discards(["2C", "3D", "QH", "JD"])[1:]
    ev += [{"type": "show", "seat": "Ben", "cards": ["6H", "7H", "8H", "4S"]},
           {"type": "show", "seat": "Cal", "cards": ["AC", "AD", "AS", "2H"]},
           {"type": "show", "seat": "Dee", "cards": ["5S", "5H", "8C", "8D"]}]
    report = _replay(tmp_path, {"hands": [4]}, ev)
    assert _kinds(report) == []
    assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}]


def test_a_matched_seat_turning_up_a_card_in_the_final_round_is_not_in_round_in_any_order(
        tmp_path: Path) -> None:
    """§6.3: the matched player does not draw or discard in the final round; every held card is
    turned up at the same moment (§6.1), so Ana's card logged after the others' is the same
    breach as before them: ``not_in_round`` (not ``extra_discard``)."""
    frozen = ["9S", "9D", "9H", "4H"]
    shows = [{"type": "show", "seat": "Ben", "cards": ["6H", "7H", "8H", "4S"]},
             {"type": "show", "seat": "Cal", "cards": ["AC", "AD", "AS", "2H"]},
             {"type": "show", "seat": "Dee", "cards": ["5S", "5H", "8C", "8D"]}]
    head: list[dict[str, Any]] = [
        {"type": "hand_start", "hand": 1, "piles": PILES},
        {"type": "match", "seat": "Ana", "cards": frozen},
        {"type": "call", "call": "draw"},
    ]
    head += [{"type": "draw", "seat": s, "from": "pool"} for s in SEATS[1:]]
    head += [{"type": "hold", "seat": s} for s in SEATS[1:]]
    head += [{"type": "call", "call": "discard"}]
    others = _discards(["2C", "3D", "QH", "JD"])[1:]
    ana = {"type": "discard", "seat": "Ana", "card": "9S"}
    for order in ([ana, *others], [*others, ana]):
        report = _replay(tmp_path, {"hands": [4]}, [*head, *order, *shows])
        assert _kinds(report) == [("not_in_round", "Ana")]
        assert report["hands"] == [{"Ana": 0, "Ben": 0, "Cal": 2, "Dee": 26}]
