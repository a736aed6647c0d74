"""A second audit of Kierki against ``rules/kierki.md`` (version 1.0): cases the first audit
(``test_kierki_spec_audit.py``) does not reach. Each test names its section."""

from __future__ import annotations

from pathlib import Path

from kiosk.games.kierki import KierkiGame
from kiosk.games.referee import RefereeReport, TableEvent
from kiosk.tablelog import read_table_log

_, EXAMPLE = read_table_log(Path(__file__).resolve().parents[2] / "examples" / "kierki_example.jsonl")


def before_deal(k: int) -> list[TableEvent]:
    """The worked match's events (kierki.md §14) before the 'deal' event of deal ``k``."""
    starts = [i for i, e in enumerate(EXAMPLE) if e.type == "deal"]
    return list(EXAMPLE[: starts[k - 1]])


def then(events: list[TableEvent], *steps: tuple[str, str, dict[str, object]]) -> list[TableEvent]:
    """``events`` followed by (type, seat, data) steps, one second apart."""
    out = list(events)
    t = out[-1].t_ns if out else 0
    for n, (etype, seat, data) in enumerate(steps, start=1):
        out.append(TableEvent(etype, t + n * 1_000_000_000, 0, seat, dict(data)))
    return out


def judge(events: list[TableEvent]) -> RefereeReport:
    ref = KierkiGame().referee()
    ref.feed_all(events)
    return ref.report()


def test_redeal_after_trumps_named_but_before_any_card_is_a_plain_misdeal() -> None:
    """§4 misdeal and §11 (wrong number of cards: "misdeal if found before the first card is
    played"): in a trump deal the dealer names trumps after five cards; if the deal is then found
    faulty and dealt again before trick 1 begins, the same dealer simply deals again. Nothing is
    flagged, the deal number stays, and the new deal takes its own trumps."""
    events = then(before_deal(8), ("deal", "W", {"deal": 8}), ("trump", "W", {"suit": "H"}),
                  ("deal", "W", {"deal": 8}), ("trump", "W", {"suit": "S"}))
    report = judge(events)
    assert report.infractions == []
    ref = KierkiGame().referee()
    ref.feed_all(events)
    assert ref.record is not None and ref.record.deal.number == 8 and not ref.record.void
    assert [r.text for r in ref.rulings if r.kind == "trump"][-1] == "W names spades as trumps"


def test_next_seat_dealing_after_trumps_but_before_play_is_only_a_wrong_dealer() -> None:
    """§3 dealer rotation and §4: no card of deal 8 was played, so the deal cannot have moved on;
    a 'deal' by the next seat is the same deal dealt by the wrong seat (not an unfinished deal)."""
    report = judge(then(before_deal(8), ("deal", "W", {}), ("trump", "W", {"suit": "H"}),
                        ("deal", "N", {})))
    assert [(i.kind, i.seat) for i in report.infractions] == [("wrong_dealer", "N")]
    assert len(report.hands) == 7
