"""Kierki logs written the way an outsider would, from ``rules/kierki.md`` and
``docs/table-log.md`` alone, replayed through ``kiosk replay --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.games.replay_logs import replay_main

ROOT = Path(__file__).resolve().parents[2]
SEATS = ("N", "E", "S", "W")
DEAL1 = {"N": -120, "E": -60, "S": -80, "W": 0}


def spec_tricks(deal: int) -> list[list[tuple[str, str]]]:
    """The tricks of worked example 14.<deal> of kierki.md, as the bundled example log
    (examples/kierki_example.jsonl, the whole match of §14) plays them."""
    lines = (ROOT / "examples" / "kierki_example.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(ln) for ln in lines[1:] if ln.strip() and not ln.startswith("#")]
    start = next(i for i, e in enumerate(events) if e["type"] == "deal" and e.get("deal") == deal)
    plays: list[tuple[str, str]] = []
    for e in events[start + 1:]:
        if e["type"] == "deal":
            break
        if e["type"] == "play":
            plays.append((e["seat"], e["card"]))
    return [plays[i:i + 4] for i in range(0, len(plays), 4)]


class Log:
    """A table log under construction: a header, then events one second apart."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.lines: list[dict[str, Any]] = [
            {"table_log": 1, "game": "kierki", "seats": list(SEATS), "options": options or {}}]

    def ev(self, kind: str, **fields: Any) -> Log:
        self.lines.append({"t": len(self.lines), "type": kind, **fields})
        return self

    def tricks(self, tricks: list[list[tuple[str, str]]]) -> Log:
        for trick in tricks:
            for seat, card in trick:
                self.ev("play", seat=seat, card=card)
        return self

    def replay(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
        return replay_main(tmp_path, self.lines, capsys)


def kinds(report: dict[str, Any]) -> list[str]:
    return [i["kind"] for i in report["infractions"]]


def test_misdeal_then_play_without_a_second_deal_event(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §4 (misdeal: the same dealer deals again, the deal number does not advance) and
    the Kierki example of docs/table-log.md, where a ``misdeal`` is followed directly by plays: the
    ``misdeal`` event itself stands for the new deal."""
    log = Log().ev("deal", seat="N", deal=1).ev("misdeal", seat="N").tricks(spec_tricks(1))
    report = log.replay(tmp_path, capsys)
    assert report["hands"] == [DEAL1] and report["infractions"] == []
    # Logging the redeal as well is still fine.
    log = Log().ev("deal", seat="N", deal=1).ev("misdeal", seat="N").ev("deal", seat="N", deal=1)
    report = log.tricks(spec_tricks(1)).replay(tmp_path, capsys)
    assert report["hands"] == [DEAL1] and report["infractions"] == []


def test_replay_deal_with_the_rest_of_the_discarded_deal_logged(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §14.17 (W plays 10D on the club lead of trick 5, proven by its JC in trick 10) with
    §12 ``revoke_policy = replay_deal``: the deal is discarded and the same dealer deals it again.
    The camera still sees the rest of the discarded deal played out; those cards are not judged,
    and the log is not rejected."""
    bad = spec_tricks(1)
    bad[4] = [("E", "5C"), ("S", "QC"), ("W", "10D"), ("N", "AC")]
    bad[9] = [("S", "7S"), ("W", "JC"), ("N", "KS"), ("E", "9S")]
    log = Log({"revoke_policy": "replay_deal"}).ev("deal", seat="N", deal=1).tricks(bad)
    log.ev("deal", seat="N", deal=1).tricks(spec_tricks(1)).ev("deal", seat="E", deal=2)
    report = log.replay(tmp_path, capsys)
    assert kinds(report) == ["revoke"]
    assert report["hands"] == [DEAL1]
    assert any(r["kind"] == "replay_deal" for r in report["rulings"])


def test_deal_played_out_after_an_early_stop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 ``stop_when_penalties_exhausted``: deal 5 (§14.5) stops once KH is taken in
    trick 3. A table that plays the remaining cards out anyway shows them: the scores are those of
    the stop, the log is not rejected, and the cards are still checked for revokes (§13.3)."""
    log = Log({"stop_when_penalties_exhausted": True})
    for k in range(1, 6):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    log.ev("deal", seat="E", deal=6).tricks(spec_tricks(6))
    report = log.replay(tmp_path, capsys)
    assert report["infractions"] == []
    assert [h["W"] for h in report["hands"]] == [0, 0, -60, -30, -150, 0]
    assert [r["text"].split(":")[0] for r in report["rulings"] if r["kind"] == "stopped"] == [
        "deal 3", "deal 4", "deal 5"]
    # N keeps its 6D (10S on the diamond lead of trick 1, KH on that of trick 3) and plays it
    # after the stop: that proves both revokes.
    tricks = spec_tricks(5)
    tricks[0] = [("E", "2D"), ("S", "3D"), ("W", "KD"), ("N", "10S")]
    tricks[4] = [("S", "7D"), ("W", "AH"), ("N", "6D"), ("E", "4D")]
    log = Log({"stop_when_penalties_exhausted": True})
    for k in range(1, 5):
        log.ev("deal", seat=SEATS[(k - 1) % 4], deal=k).tricks(spec_tricks(k))
    report = log.ev("deal", seat="N", deal=5).tricks(tricks).replay(tmp_path, capsys)
    assert [i["text"].split(";")[0] for i in report["infractions"]] == [
        "revoke by N in trick 1: diamonds led, N played 10S",
        "revoke by N in trick 3: diamonds led, N played KH"]
    assert report["hands"][4] == {"N": 0, "E": 0, "S": 0, "W": -150}


def test_fan_tan_prizes_written_as_in_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kierki.md §12 writes the default of ``fan_tan_prizes`` as ``800, 500``: that spelling is
    accepted as well as a list."""
    for prizes in ("800, 500", "1000,300", [1000, 500]):
        report = Log({"fan_tan_prizes": prizes}).ev("deal", seat="N", deal=1).tricks(
            spec_tricks(1)).replay(tmp_path, capsys)
        assert report["hands"] == [DEAL1]
    assert report["notes"] and "1500" in report["notes"][0]
