"""Benchmark: complete four-seat Nerts hands played by bots, per second.

Each hand is dealt, played by four seeded bots (``kiosk.games.nerts_bots``) to its
end (a call or a stalemate) and refereed move by move on one core, the way the
table simulator produces them. Prints hands per second (median over repeats),
simulated table time per wall second, and how the hands ended.

Run from the repository root:

    .venv/bin/python bench/bench_nerts_bots.py [--hands 50] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from kiosk.games.nerts_bots import simulate_hand

SEATS = ("Ana", "Ben", "Cal", "Dee")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"command: .venv/bin/python bench/bench_nerts_bots.py --hands {args.hands} "
          f"--repeats {args.repeats}")
    rates, table_s, moves = [], 0.0, 0
    ends: Counter[str] = Counter()
    for _ in range(args.repeats):
        table_s, moves = 0.0, 0
        ends.clear()
        t0 = time.perf_counter()
        for seed in range(args.hands):
            hand = simulate_hand(seed, seats=SEATS)
            ends[hand.end] += 1
            table_s += hand.duration_ns / 1e9
            moves += len(hand.moves)
        rates.append(args.hands / (time.perf_counter() - t0))
    rate = statistics.median(rates)
    print(f"four-seat hands: {rate:,.1f} hands/s (median of {args.repeats} runs of {args.hands} hands)")
    print(f"  table time simulated: {table_s * rate / args.hands:,.0f} s per wall second; "
          f"{moves / args.hands:.0f} moves per hand; ends: {dict(ends)}")


if __name__ == "__main__":
    main()
