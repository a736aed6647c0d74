"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (sixteenth black-box
round): a play line the camera logs twice in a row, in every place of a trick and of Fan Tan, and
cards shown at the end of Fan Tan that the seat had already placed in the layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, spec_tricks
from tests.games.test_kierki_blackbox5 import TRUMPS, match_up_to
from tests.games.test_kierki_blackbox6 import fan_tan_events, with_fan_tan
from tests.games.test_kierki_blackbox10 import _to_fan_tan

DEAL12 = {"N": 500, "E": 0, "S": 0, "W": 800}
"""The scores of the worked Fan Tan deal (§14.12)."""


def _deal_with_a_line_twice(deal: int, trick: int, place: int, later_s: float = 0.0) -> Log:
    """The worked match up to ``deal``, then that deal as in §14 with the play in ``place``
    (1 to 4) of ``trick`` logged twice in a row (``later_s`` seconds apart), then the next deal."""
    log = match_up_to(deal) if deal > 1 else Log()
    dealer = SEATS[(deal - 1) % 4]
    log.ev("deal", seat=dealer, deal=deal)
    if deal in TRUMPS:
        log.ev("trump", seat=dealer, suit=TRUMPS[deal])
    for n, cards in enumerate(spec_tricks(deal), start=1):
        for p, (seat, card) in enumerate(cards, start=1):
            log.ev("play", seat=seat, card=card)
            if (n, p) == (trick, place):
                log.ev("play", seat=seat, card=card)
                log.lines[-1]["t"] = log.lines[-2]["t"] + later_s
    return log.ev("deal", seat=SEATS[deal % 4], deal=deal + 1)


WORKED = {1: {"N": -120, "E": -60, "S": -80, "W": 0}, 8: {"N": 50, "E": 75, "S": 25, "W": 175}}


@pytest.mark.parametrize(("deal", "trick", "place"), [
    (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4),  # E:3C S:8C W:7C N:2C -> S
    (1, 5, 4),  # E:5C S:QC W:JC N:AC -> N: the winner's card, then it leads trick 6
    (1, 13, 1), (1, 13, 4),  # the last trick, its lead and the card that ends the deal
    (8, 1, 1), (8, 6, 3),  # W:AH leads; E:QH wins trick 6 third and leads trick 7
    (8, 11, 4),  # E:7D S:JD W:5D N:KD -> N: the winner's card in a trump deal
    (8, 13, 4),
])
@pytest.mark.parametrize("later_s", [0.0, 0.25])
def test_13_2_a_play_logged_twice_in_a_row_is_one_card_seen_twice(
        deal: int, trick: int, place: int, later_s: float, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.2 (no card seen twice in one deal: a duplicate means a misread) and §13.3
    (hands only shrink: a seat cannot play a card it has played): the camera logs one play of a
    worked deal (§14.1, §14.8) twice, with no other play between. It is the same card seen twice,
    not a card played out of turn, nor the next lead of a trick winner (which would send the rest
    of the deal out of turn), nor a card after the 13th trick: flagged once, and the deal is
    refereed as played."""
    report = _deal_with_a_line_twice(deal, trick, place, later_s).replay(tmp_path, capsys)
    seat = spec_tricks(deal)[trick - 1][place - 1][0]
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("seen_twice", seat)]
    assert report["hands"][deal - 1] == WORKED[deal]
    assert len([r for r in report["rulings"] if r["kind"] == "trick"]) == 13 * deal


def _fan_tan_with_a_line_twice(index: int) -> tuple[Log, dict[str, Any]]:
    """§14.12 with its ``index``-th play or pass logged twice in a row."""
    events = fan_tan_events()
    events.insert(index + 1, dict(events[index]))
    return with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events), events[index]


@pytest.mark.parametrize("turn", [1, 4, 13, 60, 67])
def test_13_2_a_fan_tan_play_logged_twice_in_a_row_is_one_card_seen_twice(
        turn: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same in Fan Tan (§8.4, §13.2): N's 7S opening (turn 1), W's 8C (turn 4), N's JC
    (turn 13), W's last card 3D that puts it out first (turn 60) and N's QD that ends the deal
    (turn 67), each logged twice in a row: one card seen twice, not a card out of turn (or from a
    seat already out, or after the deal ended); the deal is scored as §14.12."""
    log, twice = _fan_tan_with_a_line_twice(turn - 1)
    assert twice["type"] == "play"
    report = log.replay(tmp_path, capsys)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("seen_twice", twice["seat"])]
    assert report["hands"][11] == DEAL12 and report["finished"] and report["winners"] == ["W"]


@pytest.mark.parametrize("policy", ["flag_only", "replay_deal"])
def test_13_3_a_card_shown_after_fan_tan_that_the_seat_placed_proves_no_pass(
        policy: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.3 and §14.16 (the cards left are shown at the end and checked against every
    stored pass; a proof is a card still in the hand) and §13.2 (no card seen twice). In a Fan Tan
    deal where S passes at turns 47, 51, 55 and 59 while holding 4S, S's cards shown at the end
    name 7C, which S itself placed at turn 3, instead of 4S: a misread, flagged (seen twice), but
    7C had left S's hand, so it proves no pass and, under ``replay_deal``, discards nothing. E
    showing 5H, its own turn-34 card, instead of KD in §14.12 is the same."""
    log = _to_fan_tan({"revoke_policy": policy})
    log.lines[-1]["cards"] = ["3S", "7C"]
    report = log.replay(tmp_path, capsys)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("seen_twice", "S")]
    assert report["finished"] and report["winners"] == ["W"]
    events = [e for e in fan_tan_events() if e["type"] != "reveal"]
    events += [{"type": "reveal", "seat": "E", "cards": ["5H"]},
               {"type": "reveal", "seat": "S", "cards": ["AD"]}]
    log = with_fan_tan(match_up_to(12, {"revoke_policy": policy}).ev("deal", seat="W", deal=12), events)
    report = log.replay(tmp_path, capsys)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("seen_twice", "E")]
    assert report["hands"][11] == DEAL12 and report["finished"]
