"""Time of each game's balance card at default rules and default sizes.

Prints one row per game: the card's time with warm numba caches (a small card of the
game runs first, so every kernel is compiled or loaded from the on-disk cache), its
metrics and how many are exact, beside the 60 s goal (Samarra's card reads the
cached perfect-information table; its first run solves it, about 2 minutes). Cards
are computed afresh (the card cache of ``compare`` is not used).

Run: ``.venv/bin/python benchmarks/bench_balance.py [--games panache citadel ...]``.
"""

from __future__ import annotations

import argparse
import time

import numba

from tabletop.games import get, names

GOAL = 60.0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=names(), default=list(names()))
    args = parser.parse_args(argv)
    print(f"Balance cards at default rules and sizes, numba {numba.__version__}, "
          f"{numba.get_num_threads()} threads")
    print("| game | card | metrics (exact) | goal |")
    print("|---|---:|---:|---:|")
    for game in args.games:
        entry = get(game)
        cls = entry.rules_class()
        entry.balance(cls(**entry.small_rules), seed=0, **entry.small_balance)  # warm up
        start = time.perf_counter()
        card = entry.balance(None, seed=0)
        seconds = time.perf_counter() - start
        n_exact = int((card["method"] == "exact").sum())
        goal = f"<= {GOAL:.0f} s" if game != "samarra" else "cached table"
        print(f"| {game} | {seconds:.1f} s | {len(card)} ({n_exact}) | {goal} |", flush=True)


if __name__ == "__main__":
    main()
