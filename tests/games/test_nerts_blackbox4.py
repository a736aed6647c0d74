"""Black-box Nerts tests, round 4 (time: races, the call, the Go, the one-hand rule, stalemates, the
audit): table logs written from ``rules/nerts.md`` and ``docs/table-log.md`` alone, refereed through
``kiosk replay --json`` as an outsider would run it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.replay_logs import replay

SEATS = ["Ana", "Ben", "Cal"]


def _play(t: float | str, seat: str, card: str, pile: str, **extra: Any) -> dict[str, Any]:
    return {"t": t, "type": "foundation_play", "seat": seat, "card": card, "pile": pile, **extra}


def _end(t: int) -> list[dict[str, Any]]:
    """Ana calls; the audit counts every Nerts pile empty, so F alone decides the scores."""
    return [{"t": t, "type": "call", "seat": "Ana", "nerts_left": 0},
            *({"t": t + 1, "type": "count", "seat": s, "nerts": 0} for s in SEATS),
            {"t": t + 2, "type": "hand_end"}]


def test_a_card_lifted_before_the_go_goes_back_and_one_lifted_at_the_go_counts(tmp_path: Path) -> None:
    """§4 step 6: play begins on the start signal and no card may be moved before it. Ben's A♥ left his
    layout 100 ms before the Go: it must go back and does not score (the same ``after_hand`` breach as a
    card moved between a ``hand_end`` and the next Go, docs). Cal's A♠, lifted at the Go itself, and Ana's
    A♦, whose lift is before the Go by no more than its ``err_lift`` (measured to within a frame, §12),
    count."""
    lines = [{"table_log": 1, "game": "nerts", "seats": SEATS},
             {"t": 10, "type": "hand_start"},
             _play("10.3", "Ben", "AH", "F1", t_lift="9.9"),
             _play("10.4", "Cal", "AS", "F2", t_lift="10"),
             _play("10.5", "Ana", "AD", "F3", t_lift="9.99", err_lift=0.01),
             *_end(20)]
    report = replay(tmp_path, lines)
    kinds = [(i["kind"], i["seat"], i["line"]) for i in report["infractions"]]
    assert kinds == [("after_hand", "Ben", 3)]
    assert report["hands"] == [{"Ana": 1, "Ben": 0, "Cal": 1}]


def test_a_lift_err_lift_after_the_call_goes_back_and_one_a_nanosecond_sooner_lands(tmp_path: Path) -> None:
    """§7.1: no move may start at or after ``t_call``. Ben's 5♥ was lifted 10 ms after the call with
    ``err_lift`` 10 ms: at the earliest it left at the call itself, so it goes back (docs: ``t_lift -
    err_lift`` at or after the call). Cal's A♠, a nanosecond sooner, may have left before it: it counts."""
    lines = [{"table_log": 1, "game": "nerts", "seats": SEATS},
             {"t": 0, "type": "hand_start"},
             *(_play(i + 1, "Ana", r + "H", "F1") for i, r in enumerate("A234")),
             {"t": "45.3", "type": "call", "seat": "Ana", "nerts_left": 0},
             _play("45.6", "Ben", "5H", "F1", t_lift="45.31", err_lift=0.01),
             _play("45.7", "Cal", "AS", "F2", t_lift="45.309999999", err_lift=0.01),
             *({"t": 50, "type": "count", "seat": s, "nerts": 0} for s in SEATS),
             {"t": 51, "type": "hand_end"}]
    report = replay(tmp_path, lines)
    assert [(i["kind"], i["seat"]) for i in report["infractions"]] == [("after_call", "Ben")]
    assert [r["seats"] for r in report["rulings"] if r["kind"] == "air"] == [["Cal"]]
    assert report["hands"] == [{"Ana": 4, "Ben": 0, "Cal": 1}]
