"""Benchmark of the Kierki strict engine: random complete matches (12 deals) per second on one core.

Run: ``python bench/bench_kierki.py [--matches 50] [--repeat 5] [--seed 1] [--referee]``

Each match draws its first dealer and every deal as chance actions from a
seeded RNG and is played to the end by seeded random legal actions through the
checked public API (``legal_actions`` then ``apply_action``, which checks
legality again), so the figure is what the table simulator or a bot search
pays per match. With ``--referee`` it also times re-refereeing the shipped
example log (``examples/kierki_example.jsonl``, one whole match) instead. The
run is repeated ``--repeat`` times; the script prints the median and the best
rate, with the command line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.games.kierki import KierkiGame  # noqa: E402
from kiosk.tablelog import read_table_log  # noqa: E402


def play_matches(game: KierkiGame, n_matches: int, seed: int) -> int:
    """Plays ``n_matches`` random matches; returns the actions applied."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(n_matches):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        if sum(state.returns()) != 0:
            raise SystemExit(f"match is not zero-sum: {state.returns()}")
    return actions


def referee_example(game: KierkiGame, n: int) -> int:
    """Re-referees the example log ``n`` times; returns the events fed."""
    _, events = read_table_log(ROOT / "examples" / "kierki_example.jsonl")
    for _ in range(n):
        ref = game.referee()
        ref.feed_all(events)
        if ref.report().infractions:
            raise SystemExit("the example log should referee cleanly")
    return n * len(events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--referee", action="store_true", help="time the referee on the example log instead")
    args = parser.parse_args()
    game = KierkiGame()
    rates: list[float] = []
    per_action: list[float] = []
    for r in range(args.repeat):
        start = time.perf_counter()
        if args.referee:
            count = referee_example(game, args.matches)
        else:
            count = play_matches(game, args.matches, args.seed + r)
        elapsed = time.perf_counter() - start
        rates.append(args.matches / elapsed)
        per_action.append(elapsed / count * 1e6)
    what = "example logs refereed" if args.referee else "random matches"
    unit = "event" if args.referee else "action"
    print(f"command: python {' '.join(sys.argv)}")
    print(f"{what} per second (one core): median {statistics.median(rates):.1f}, best {max(rates):.1f}")
    print(f"microseconds per {unit}: median {statistics.median(per_action):.1f}")


if __name__ == "__main__":
    main()
