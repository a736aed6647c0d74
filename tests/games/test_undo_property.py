"""``undo`` after any event of a log takes back exactly that event, in every game.

docs/table-log.md: ``undo`` "takes back the last effective event". So for every position ``i`` of
each example log, refereeing ``L[:i] + [undo]`` must give the same report (rulings other than
``undo`` and ``correction``, infractions, hands, totals, finished, winners, extra) as ``L[:i-1]``;
and a second undo takes back the event before it too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.games.referee import RefereeReport, TableEvent
from kiosk.replay import referee_for
from kiosk.tablelog import read_table_log
from tests.games.replay_logs import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*_example.jsonl"))


def _outcome(report: RefereeReport) -> dict[str, Any]:
    # Through JSON: a report must not change when later events are fed.
    j: dict[str, Any] = json.loads(json.dumps(report.to_json()))
    j["rulings"] = [r for r in j["rulings"] if r["kind"] not in ("correction", "undo")]
    j.pop("notes", None)
    return j


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name.removesuffix("_example.jsonl"))
def test_undo_after_every_event_gives_the_report_without_it(example: Path) -> None:
    header, events = read_table_log(example)
    referee = referee_for(header)
    before = [_outcome(referee.report())]
    assert not [r for r in referee.feed(TableEvent("undo", 0)) if "nothing" not in r.text]
    assert _outcome(referee.report()) == before[0]
    for event in events:
        if event.type in ("note", "undo"):
            referee.feed(event)
            if event.type == "undo" and len(before) > 1:
                before.pop()
            continue
        referee.feed(event)
        referee.feed(TableEvent("undo", event.t_ns))
        assert _outcome(referee.report()) == before[-1], f"undo of line {event.line} ({event.type})"
        referee.feed(event)
        before.append(_outcome(referee.report()))
    # Two undos take back the last two events.
    referee.feed(TableEvent("undo", events[-1].t_ns))
    referee.feed(TableEvent("undo", events[-1].t_ns))
    assert _outcome(referee.report()) == before[-3]


def test_a_kierki_report_does_not_change_when_a_later_trump_is_fed() -> None:
    # The report's per-deal details were the referee's own dicts: naming trumps after the report
    # was taken changed that earlier report (a prefix report then disagreed with its replay).
    header, events = read_table_log(ROOT / "examples" / "kierki_example.jsonl")
    referee = referee_for(header)
    i = next(n for n, e in enumerate(events) if e.type == "trump")
    for event in events[:i]:
        referee.feed(event)
    report = referee.report()
    before = json.loads(json.dumps(report.to_json()))
    referee.feed(events[i])
    assert report.to_json() == before
