"""Benchmark of the Smear strict engine: random hands per second on one core.

Run: ``python bench/bench_smear.py [--hands 2000] [--repeat 5] [--seed 1] [--blind 0]``

Each hand is dealt (a chance action drawn from a seeded RNG) and played to the
end by seeded random legal actions through the checked public API
(``legal_actions`` then ``apply_action``, which checks legality again), so the
figure is what the table simulator or a bot search pays per hand. An all-pass
counts as a hand (it is one deal). The run is repeated ``--repeat`` times and
the script prints the median and the best rate, with the command line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.games.smear import Phase, SmearGame  # noqa: E402


def play_hands(game: SmearGame, n_hands: int, seed: int) -> int:
    """Plays ``n_hands`` random hands (new games as needed); returns the actions applied."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    hands = actions = 0
    while hands < n_hands:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            if state.phase is Phase.DEAL and state.deal_count:
                hands += 1
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blind", type=int, default=0, choices=(0, 1, 2, 3))
    args = parser.parse_args()
    game = SmearGame({"blind_cards": args.blind})
    rates = []
    actions = 0
    for r in range(args.repeat):
        t0 = time.perf_counter()
        actions = play_hands(game, args.hands, args.seed + r)
        rates.append(args.hands / (time.perf_counter() - t0))
    print(f"command: python bench/bench_smear.py --hands {args.hands} --repeat {args.repeat} "
          f"--seed {args.seed} --blind {args.blind}")
    print(f"Smear random hands per second (one core, blind_cards={args.blind}): "
          f"median {statistics.median(rates):.0f}, best {max(rates):.0f} over {args.repeat} runs "
          f"of {args.hands} hands (~{actions / args.hands:.1f} actions a hand)")


if __name__ == "__main__":
    main()
