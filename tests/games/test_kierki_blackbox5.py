"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (fifth black-box
round: the variant options of §12), replayed through ``kiosk replay --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import SEATS, Log, kinds, spec_tricks

TRUMPS = {8: "H", 9: "H", 10: "H", 11: "C"}
"""The trumps named in the worked deals 8 to 11 (kierki.md §14.8 to §14.11)."""


def changed(deal: int, plays: dict[tuple[int, str], str]) -> list[list[tuple[str, str]]]:
    """The tricks of worked deal ``deal`` with ``{(trick, seat): card}`` played instead."""
    tricks = spec_tricks(deal)
    return [[(s, plays.get((n, s), c)) for s, c in trick] for n, trick in enumerate(tricks, start=1)]


def match_up_to(deal: int, options: dict[str, Any] | None = None) -> Log:
    """A log of the worked match (§14, first dealer N) up to, not including, ``deal``."""
    log = Log(options)
    for k in range(1, deal):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k)
        if k in TRUMPS:
            log.ev("trump", seat=SEATS[(k - 1) % 4], suit=TRUMPS[k])
        log.tricks(spec_tricks(k))
    return log


def proven(report: dict[str, Any]) -> list[str]:
    """Each infraction as "kind seat: where it happened; where it was proven"."""
    return [f"{i['kind']} {i['seat']}: {i['text'].split(': ', 1)[1]}" for i in report["infractions"]]


def test_a_proven_revoke_is_not_also_a_failure_to_trump(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``must_trump_when_void``: "a player *void in the suit led* must play a trump".
    A revoke proven in a trick (§13.3) shows the player held the suit led, so the duty to trump
    did not bind them there: one breach (the revoke), whichever of the two cards shows first.

    Deal 8 (§14.8, hearts trumps). Revoke first: S plays JS on the club lead of trick 2 and 4C on
    the spade lead of trick 3 (proving the revoke; S, now really void in spades, fails to trump
    there), then 4H in trick 4. Trump first: N plays 3D on the spade lead of trick 3, 5H in
    trick 4, then 3S in trick 5."""
    log = match_up_to(8, {"must_trump_when_void": True}).ev("deal", seat="W", deal=8)
    log.ev("trump", seat="W", suit="H").tricks(changed(8, {(2, "S"): "JS", (3, "S"): "4C"}))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["revoke", "failure_to_trump"]
    assert proven(report) == [
        "revoke S: clubs led, S played JS; proven in trick 3: S played 4C",
        "failure_to_trump S: spades led, S played 4C without trumping; proven in trick 4: S played 4H"]
    assert report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}

    log = match_up_to(8, {"must_trump_when_void": True}).ev("deal", seat="W", deal=8)
    log.ev("trump", seat="W", suit="H").tricks(changed(8, {(3, "N"): "3D", (9, "N"): "2S"}))
    report = log.replay(tmp_path, capsys)
    assert proven(report) == ["revoke N: spades led, N played 3D; proven in trick 5: N played 3S"]
    deal_end = [r["text"] for r in report["rulings"] if r["kind"] == "deal_end"][7]
    assert "failure to trump" not in deal_end and "revoke by N (trick 3)" in deal_end


def test_a_proven_revoke_is_not_also_a_kept_king_of_hearts(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``king_of_hearts_forced_discard`` (a): the holder of KH must play it "whenever
    they cannot follow the suit led". A revoke proven in that trick shows they could follow, so
    KH was not forced there.

    Deal 5 (§14.5). Revoke first: N plays 2C on the spade lead of trick 2, 4S on the diamond
    lead of trick 3 (proving the revoke; N, really void in diamonds, keeps KH there) and KH on
    the diamond lead of trick 5. KH first: N plays 2C in trick 2, KH in trick 3, 10S in trick 5."""
    opts = {"king_of_hearts_forced_discard": True}
    plays = {(2, "N"): "2C", (3, "N"): "4S", (5, "N"): "KH", (11, "N"): "10S"}
    report = match_up_to(5, opts).ev("deal", seat="N", deal=5).tricks(changed(5, plays)).replay(
        tmp_path, capsys)
    assert proven(report) == [
        "revoke N: spades led, N played 2C; proven in trick 3: N played 4S",
        "king_of_hearts_not_played N: N could not follow diamonds and played 4S, not KH; "
        "proven in trick 5: N played KH"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": -150, "W": 0}

    plays = {(2, "N"): "2C", (11, "N"): "4S"}
    report = match_up_to(5, opts).ev("deal", seat="N", deal=5).tricks(changed(5, plays)).replay(
        tmp_path, capsys)
    assert proven(report) == ["revoke N: spades led, N played 2C; proven in trick 5: N played 10S"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": 0, "W": -150}


def rotated(tricks: list[list[tuple[str, str]]], places: int) -> list[list[tuple[str, str]]]:
    """The same tricks with every seat moved ``places`` to the left (the hands go with them)."""
    return [[(SEATS[(SEATS.index(s) + places) % 4], c) for s, c in trick] for trick in tricks]


def test_a_wrong_dealer_does_not_shift_the_dealer_rotation(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §3: "If seat D1 deals deal 1, deal k is dealt by the seat (k - 1) places to the
    left of D1" (so every seat deals three deals and names trumps once). With N dealing deal 1,
    S dealing deal 2 is a wrong dealer (E's deal), but deal 3 is still S's and W dealing it is
    wrong too; the deals are played with the hands moved with the dealer."""
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
    log.ev("deal", seat="S", deal=2).tricks(rotated(spec_tricks(2), 1))
    report = log.ev("deal", seat="S", deal=3).tricks(spec_tricks(3)).replay(tmp_path, capsys)
    assert [(i["kind"], i["text"]) for i in report["infractions"]] == [
        ("wrong_dealer", "S dealt deal 2, but it was E's deal")]
    assert [h["E"] for h in report["hands"]] == [-60, -120, -180]

    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1))
    log.ev("deal", seat="S", deal=2).tricks(rotated(spec_tricks(2), 1))
    report = log.ev("deal", seat="W", deal=3).tricks(rotated(spec_tricks(3), 1)).replay(tmp_path, capsys)
    assert [(i["kind"], i["text"]) for i in report["infractions"]] == [
        ("wrong_dealer", "S dealt deal 2, but it was E's deal"),
        ("wrong_dealer", "W dealt deal 3, but it was S's deal")]
