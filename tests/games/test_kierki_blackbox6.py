"""Kierki logs written from ``rules/kierki.md`` and ``docs/table-log.md`` alone (sixth black-box
round): events a real table produces in the wrong place are refereed as breaches, never a
stopped replay (docs/table-log.md: "Breaches of the rules are not errors"), and the variant
options of §12 in combination."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.games.test_kierki_blackbox import ROOT, Log, kinds, spec_tricks
from tests.games.test_kierki_blackbox5 import match_up_to


def fan_tan_events() -> list[dict[str, Any]]:
    """The Fan Tan deal of kierki.md §14.12 as the bundled example log logs it: its plays and
    passes, then the two reveals (E shows KD, S shows AD)."""
    lines = (ROOT / "examples" / "kierki_example.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(ln) for ln in lines[1:] if ln.strip() and not ln.startswith("#")]
    start = next(i for i, e in enumerate(events) if e["type"] == "deal" and e.get("deal") == 12)
    return [{k: v for k, v in e.items() if k != "t"} for e in events[start + 1:]]


def with_fan_tan(log: Log, events: list[dict[str, Any]]) -> Log:
    for e in events:
        log.ev(e["type"], **{k: v for k, v in e.items() if k != "type"})
    return log


def test_a_reveal_before_the_deal_ends_is_a_breach(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.3: the cards left are laid face up *at the end* of Fan Tan (or of a deal
    stopped early). A seat that lays its cards down in the middle of a deal breaks that at the
    table; the log is well formed, so the replay goes on (docs/table-log.md, Errors) and the
    deal is scored as played."""
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1)[:3])
    log.ev("reveal", seat="W", cards=["KC", "JC"]).tricks(spec_tricks(1)[3:])
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["early_reveal"]
    assert report["infractions"][0]["seat"] == "W"
    assert report["hands"] == [{"N": -120, "E": -60, "S": -80, "W": 0}]

    events = fan_tan_events()
    events.insert(10, {"type": "reveal", "seat": "E", "cards": ["KD"]})
    report = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events).replay(tmp_path, capsys)
    assert kinds(report) == ["early_reveal"]
    assert report["finished"] and report["hands"][11] == {"N": 500, "E": 0, "S": 0, "W": 800}


def test_a_second_reveal_by_the_same_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §13.3 / §14.16: after Fan Tan E shows KD. Showing the same cards again proves
    nothing new and is no breach; showing other cards contradicts the first showing
    (``wrong_count``: a reveal that does not hold the cards the seat has left). Neither stops
    the replay."""
    events = fan_tan_events() + [{"type": "reveal", "seat": "E", "cards": ["KD"]}]
    report = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["finished"]
    assert report["totals"] == {"N": -165, "E": 65, "S": -210, "W": 310}

    events = fan_tan_events() + [{"type": "reveal", "seat": "E", "cards": ["QD"]}]
    report = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events).replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["infractions"][0]["seat"] == "E"
    assert report["totals"] == {"N": -165, "E": 65, "S": -210, "W": 310}


def test_a_misdeal_after_the_deal_ended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §4: a misdeal is found "before the first card of the deal is played". A misdeal
    called once a deal is over is a breach of procedure (reported as ``wrong_count``, like a
    misdeal after play began), not a malformed log: the deal's scores stand and the match goes
    on with the next deal."""
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1)).ev("misdeal", seat="N")
    log.ev("deal", seat="E", deal=2).tricks(spec_tricks(2))
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count"]
    assert report["hands"] == [{"N": -120, "E": -60, "S": -80, "W": 0},
                               {"N": -120, "E": -20, "S": -120, "W": 0}]


def test_a_collect_with_no_trick_in_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``collect``: the table swept the trick. Fan Tan has no tricks (§8: a
    shared layout) and a trump deal has none before trumps are named (§7.1): a sweep there
    changes nothing, like a sweep of an empty trick, and never stops the replay."""
    events = fan_tan_events()
    events.insert(4, {"type": "collect"})
    events.append({"type": "collect", "seat": "N"})
    report = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["finished"]
    assert report["totals"] == {"N": -165, "E": 65, "S": -210, "W": 310}

    log = match_up_to(8).ev("deal", seat="W", deal=8).ev("collect").ev("trump", seat="W", suit="H")
    report = log.tricks(spec_tricks(8)).replay(tmp_path, capsys)
    assert report["infractions"] == [] and report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}


def test_trumps_named_again_during_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §4 and §7.1: trumps are named before trick 1 and hold for the deal. A seat that
    names another suit once play began breaks that (``late_trump``); the trumps stay as first
    named, so the worked deal 8 (§14.8, hearts) scores as written. Repeating the same suit is
    no breach."""
    tricks = spec_tricks(8)
    log = match_up_to(8).ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H").tricks(tricks[:3])
    log.ev("trump", seat="W", suit="S").ev("trump", seat="W", suit="H").tricks(tricks[3:])
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["late_trump"]
    assert report["hands"][7] == {"N": 50, "E": 75, "S": 25, "W": 175}
    # After the deal's last trick, before the next deal: the same.
    log = match_up_to(8).ev("deal", seat="W", deal=8).ev("trump", seat="W", suit="H").tricks(tricks)
    log.ev("trump", seat="N", suit="D").ev("deal", seat="N", deal=9).ev("trump", seat="N", suit="H")
    report = log.tricks(spec_tricks(9)).replay(tmp_path, capsys)
    assert kinds(report) == ["late_trump"]
    assert report["hands"][8] == {"N": 125, "E": 125, "S": 25, "W": 50}


def test_another_seat_deals_during_the_last_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``deal``: "the next dealer dealing closes [an unfinished deal], scored
    from the tricks seen and flagged". Fan Tan (deal 12) has no next deal, and the match is over
    only when its second player goes out (§10): N dealing in the middle of it deals it again,
    out of turn (``wrong_count`` and ``wrong_dealer``), not a deal after the match; the match
    goes on, and E (left of the seat that dealt) starts the new deal."""
    events = fan_tan_events()
    log = with_fan_tan(match_up_to(12).ev("deal", seat="W", deal=12), events[:10]).ev("deal", seat="N")
    report = log.ev("play", seat="E", card="7C").replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count", "wrong_dealer"]
    assert not report["finished"] and len(report["hands"]) == 11


def test_the_same_dealer_deals_the_next_deal_before_this_one_is_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table-log.md ``deal`` (its optional number is checked) and kierki.md §3: N deals
    deal 1, the table stops after 12 tricks and N deals again, the log numbering it deal 2.
    The number says the table moved on: deal 1 is scored from the tricks seen (``wrong_count``,
    and its total is short, ``misread``) and deal 2 was dealt by the wrong seat
    (``wrong_dealer``: it is E's), not a redeal of deal 1 and not a malformed log."""
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1)[:12]).ev("deal", seat="N", deal=2)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count", "misread", "wrong_dealer"]
    assert report["hands"] == [{"N": -100, "E": -60, "S": -80, "W": 0}]
    assert [d["dealer"] for d in report["extra"]["deals"]] == ["N", "N"]


def test_another_seat_deals_this_deal_again_before_it_is_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other way round: N deals deal 1 and after 5 tricks E deals, the log numbering it deal 1
    again. The number says deal 1 is dealt again (discarded, ``wrong_count``) by the wrong seat
    (``wrong_dealer``: N deals it again, §4), not the next deal and not a malformed log; E's
    left-hand neighbour S leads the new deal 1."""
    log = Log().ev("deal", seat="N", deal=1).tricks(spec_tricks(1)[:5]).ev("deal", seat="E", deal=1)
    report = log.ev("play", seat="S", card="2C").replay(tmp_path, capsys)
    assert kinds(report) == ["wrong_count", "wrong_dealer"]
    assert report["hands"] == [] and not report["finished"]
    assert [d["dealer"] for d in report["extra"]["deals"]] == ["E"]
