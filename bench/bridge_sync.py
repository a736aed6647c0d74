"""Benchmark: how well the bridge maps board time onto the host clock, and how it orders events.

Run: ``.venv/bin/python bench/bridge_sync.py`` (``--quick`` for a shorter run).

1. Simulated time (deterministic, seeded): ping-pongs every 0.25 s through USB
   latency 1 ms ± jitter, a board clock drifting 50 ppm; mapping error of events
   at random times, with the fit the host had at that moment. Medians over seeds.
2. End to end (real threads, a pty, the emulated board with the same model):
   mapping error of presses against the emulator's truth; the gap of press
   pairs 100 µs apart; time to reconnect after an unplug.
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from firmware_bridge import (  # noqa: E402
    BoardModel,
    BridgeEvent,
    BridgeReader,
    EmulatedBoard,
    LinkState,
    simulate_clock_sync,
)


def pct(values: list[int], q: float) -> float:
    ordered = sorted(abs(v) for v in values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))] / 1000


def simulated(seeds: int, seconds: float) -> None:
    print(f"simulated: {seconds:g} s per run, {seeds} seeds, sync every 0.25 s, drift 50 ppm")
    print("  jitter_us   p50_us   p95_us   max_us   (median over seeds)")
    for jitter in (0, 250, 500, 1000, 2000):
        model = BoardModel(drift_ppm=50.0, latency_us=max(1000, jitter), jitter_us=jitter)
        runs = [simulate_clock_sync(model, seconds=seconds, rng=random.Random(s)) for s in range(seeds)]
        p50 = statistics.median(pct(r, 0.5) for r in runs)
        p95 = statistics.median(pct(r, 0.95) for r in runs)
        mx = statistics.median(pct(r, 1.0) for r in runs)
        print(f"  {jitter:9d} {p50:8.1f} {p95:8.1f} {mx:8.1f}")


def end_to_end(presses: int) -> None:
    model = BoardModel(drift_ppm=50.0, latency_us=1000, jitter_us=1000)
    q: queue.SimpleQueue[BridgeEvent] = queue.SimpleQueue()
    with EmulatedBoard(model) as board, BridgeReader(board.link, on_event=q.put) as reader:
        if not reader.wait_for(LinkState.CONNECTED, 10):
            sys.exit("the reader did not connect to the emulated board")
        reader_health_start = time.monotonic_ns()
        while time.monotonic_ns() - reader_health_start < 10e9:  # let the fit span its window
            try:
                q.get(timeout=0.5)
            except queue.Empty:
                pass
        errors: list[int] = []
        gaps: list[int] = []
        order_ok = 0
        for k in range(presses):
            t = time.monotonic_ns() + 2_000_000
            first, second = (k % 8, 8 + k % 8) if k % 2 else (8 + k % 8, k % 8)
            board.press(first, at_ns=t)
            board.press(second, at_ns=t + 100_000)
            a, b = q.get(timeout=10), q.get(timeout=10)
            truth = {e.event_seq: e for e in board.truth[-2:]}
            errors += [a.t_ns - truth[a.event_seq].host_ns, b.t_ns - truth[b.event_seq].host_ns]
            gaps.append(b.t_ns - a.t_ns)
            order_ok += (a.input, b.input) == (first, second) and b.t_ns > a.t_ns
            try:
                q.get(timeout=0.05)
            except queue.Empty:
                pass
        print(f"end to end over a pty, {presses} pairs, drift 50 ppm, jitter ±1 ms:")
        print(f"  mapping error p50 {pct(errors, 0.5):.1f} us, p95 {pct(errors, 0.95):.1f} us, "
              f"max {pct(errors, 1.0):.1f} us")
        print(f"  pairs 100 us apart in order: {order_ok}/{presses}; gap median "
              f"{statistics.median(gaps) / 1000:.1f} us")
        h = reader.health
        print(f"  fit: board clock {h.drift_ppm:+.1f} ppm against the host (true +50), "
              f"residual {h.residual_ns / 1000:.0f} us")
        reconnects = []
        for _ in range(5):
            board.unplug()
            reader.wait_for(LinkState.LOST, 10)
            connects = reader.health.connects
            board.replug()
            t0 = time.monotonic_ns()
            reader.wait_until(lambda h: h.connects > connects, 10)  # noqa: B023 (called before the next turn)
            reconnects.append((time.monotonic_ns() - t0) / 1e6)
        print(f"  reconnect after replug: median {statistics.median(reconnects):.0f} ms, "
              f"max {max(reconnects):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print("command: .venv/bin/python bench/bridge_sync.py" + (" --quick" if args.quick else ""))
    simulated(seeds=3 if args.quick else 10, seconds=30 if args.quick else 120)
    end_to_end(presses=20 if args.quick else 100)


if __name__ == "__main__":
    main()
