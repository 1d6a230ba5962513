"""Speed of the Master & Commander economy model and race solver, beside their baselines.

Prints, in one run:
* 4-player economies per second, each played to its winning turn (or to the round
  cap), on one thread and on every thread, beside the plain-Python reference game
  (``commander.engine``); the goal is >= 1e5 per second per core;
* the exact race table (every start ``(gold, stock)``) beside single ``solve_race``
  calls.

Run: ``.venv/bin/python benchmarks/bench_commander.py [--games N]``.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from commander import Rules, Strategy, load_cards, load_decks, race_table, simulate_economy
from commander.economy import kernel_inputs
from commander.engine import play_reference, random_orders

DECKS = ("spanish_sample", "ghost_sample", "brethren_sample", "english_sample")
STRATEGIES = [Strategy(hire_target=2), Strategy(hire_target=2, buy_from_turn=5),
              Strategy(hire_target=3), Strategy(hire_target=2, raid_margin=0)]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000)
    parser.add_argument("--reference-games", type=int, default=200)
    args = parser.parse_args(argv)
    rules = Rules(n_players=4)
    cards = load_cards()
    decks = [load_decks(cards=cards)[k] for k in DECKS]
    threads = numba.get_num_threads()
    simulate_economy(rules, decks, cards, STRATEGIES, n=100, seed=0, record=False)  # compile
    print(f"Master & Commander economy, 4 players, sample decks, numba {numba.__version__}, "
          f"{threads} threads")
    print("| threads | games/s | per core | finished | mean winning round |")
    print("|---:|---:|---:|---:|---:|")
    for t in sorted({1, threads}):
        numba.set_num_threads(t)
        seconds, res = timed(lambda: simulate_economy(rules, decks, cards, STRATEGIES,
                                                      n=args.games, seed=1, record=False))
        done = res.win_round > 0
        print(f"| {t} | {args.games / seconds:.3e} | {args.games / seconds / t:.3e} | "
              f"{done.mean():.3f} | {res.win_round[done].mean():.1f} |")
    numba.set_num_threads(threads)
    data = kernel_inputs(rules, decks, cards, STRATEGIES, max_rounds=60)
    rng = np.random.default_rng(1)

    def reference():
        for g in range(args.reference_games):
            seats = np.array([(s + g) % 4 for s in range(4)])
            play_reference(data, seats, *random_orders(data, seats, rng))

    seconds, _ = timed(reference)
    print(f"plain-Python reference game: {args.reference_games / seconds:.3e} games/s")

    race_table(Rules(win_gold=4), doublons=5, income=4, horizon=10)  # compile
    seconds, table = timed(lambda: race_table(rules, doublons=5, income=4))
    print(f"exact race table, 4 players: {seconds:.3f} s for {len(table)} starts "
          f"({len(table) / seconds:.3e} starts/s)")


if __name__ == "__main__":
    main()
