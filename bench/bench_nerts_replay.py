"""Benchmark: replaying a 10,000-event Nerts table log through the referee.

Builds the log from seeded bot hands (``kiosk.games.nerts_bots``), back to back,
with ``target_score`` raised so that every hand stays in play. Two logs are timed:

- **full**: every layout move, the deal in ``hand_start`` (the referee tracks each layout);
- **camera**: only what an overhead camera reliably sees (foundation plays, calls,
  stuck declarations, counts).

For each it prints events per second (median of the repeats) for the referee fold
alone (events already parsed) and end to end from JSON Lines text
(``parse_table_log`` + ``replay_events``, what ``kiosk replay`` does). One core;
the target is >= 50,000 events/s for the fold.

Run from the repository root:

    .venv/bin/python bench/bench_nerts_replay.py [--events 10000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from kiosk.games.nerts_bots import camera_events, simulate_hand
from kiosk.games.nerts_options import NertsOptions
from kiosk.games.nerts_referee import NertsReferee
from kiosk.games.referee import LogHeader, TableEvent
from kiosk.replay import replay_events
from kiosk.tablelog import parse_table_log, write_table_log

SEATS = ("Ana", "Ben", "Cal", "Dee")
OPTIONS = {"target_score": 1_000_000}


def build_log(n_events: int, camera: bool) -> list[TableEvent]:
    """Bot hands back to back until the log holds ``n_events`` events (cut at a hand's end)."""
    events: list[TableEvent] = []
    seed, start = 0, 0
    while len(events) < n_events:
        hand = simulate_hand(seed, seats=SEATS, options=OPTIONS, start_ns=start)
        events.extend(camera_events(hand.events) if camera else hand.events)
        start = events[-1].t_ns + 60_000_000_000
        seed += 1
    return events[:n_events]


def time_it(fn: Callable[[], object], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    opts = NertsOptions(target_score=OPTIONS["target_score"])
    print("command: .venv/bin/python bench/bench_nerts_replay.py "
          f"--events {args.events} --repeats {args.repeats}")
    for name, camera in (("full", False), ("camera", True)):
        events = build_log(args.events, camera)
        header = LogHeader("nerts", SEATS, OPTIONS)
        buf = io.StringIO()
        write_table_log(buf, header, events)
        lines = buf.getvalue().splitlines()

        def fold(events: list[TableEvent] = events) -> None:
            referee = NertsReferee(SEATS, opts)
            for e in events:
                referee.feed(e)
            referee.report()

        def end_to_end(lines: list[str] = lines) -> None:
            head, evs = parse_table_log(lines)
            replay_events(head, evs)

        check = NertsReferee(SEATS, opts)
        for e in events:
            check.feed(e)
        report = check.report()
        fold_s = statistics.median(time_it(fold, args.repeats))
        e2e_s = statistics.median(time_it(end_to_end, args.repeats))
        print(f"{name:6} log: {len(events)} events, {len(report.hands)} hands, "
              f"{len(report.infractions)} infractions")
        print(f"  referee fold : {len(events) / fold_s:10,.0f} events/s (median of {args.repeats}, "
              f"{fold_s * 1000:.1f} ms)")
        print(f"  from JSONL   : {len(events) / e2e_s:10,.0f} events/s (parse + referee, "
              f"{e2e_s * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
