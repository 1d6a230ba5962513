"""Speed of the Master Panache turn engine, beside its baselines, in one run.

Prints:
* dice per second drawn by a bare numba loop that only draws dice (the limit),
  on one thread and on every thread;
* dice per second drawn inside ``simulate_turns`` under the optimal "ev" policy,
  on one thread and on every thread, and its ratio to the bare loop;
* the same simulation in pure Python (``random`` and the policy as a dict);
* ``solve_turn`` after warm-up (median of repeated calls), beside the pure-Python
  expectimax over ordered dice of the test suite on fewer dice.

Run: ``make bench`` or ``.venv/bin/python benchmarks/bench_panache_turn.py``.
"""

from __future__ import annotations

import random
import statistics
import time

import numba
import numpy as np
from numba import prange

from panache import Rules, solve_turn
from panache.dice import dice_space
from panache.simulate import _simulate_turns
from tabletop.draws import roll_die
from tabletop.jit import parallel_jit
from tabletop.seeding import chunk_seeds

CHUNK = 1 << 14


@parallel_jit
def bare_draws(seeds, chunk_size, n_draws):
    """Draw ``n_draws`` dice in chunks, as the simulator does, and do nothing else."""
    sums = np.zeros(seeds.shape[0], dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        s = 0
        for _ in range(c * chunk_size, min((c + 1) * chunk_size, n_draws)):
            s += roll_die()
        sums[c] = s
    return sums


@parallel_jit
def bare_randint_draws(seeds, chunk_size, n_draws):
    """The same bare loop with numba's ``np.random.randint(0, 6)`` (rejects 1 draw in 4)."""
    sums = np.zeros(seeds.shape[0], dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        s = 0
        for _ in range(c * chunk_size, min((c + 1) * chunk_size, n_draws)):
            s += np.random.randint(0, 6)
        sums[c] = s
    return sums


def best_of(fn, repeat=5):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def bare_rate(n_draws, kernel=bare_draws):
    seeds = chunk_seeds(1, -(-n_draws // CHUNK))
    seconds, _ = best_of(lambda: kernel(seeds, CHUNK, n_draws))
    return n_draws / seconds


def simulator_rate(rules, policy, n_turns):
    seconds, (_, dice) = best_of(lambda: _simulate_turns(rules, policy, n_turns, 1, CHUNK))
    return dice.sum() / seconds


def python_rate(rules, policy, n_turns):
    """The same turn simulation in pure Python: random.randrange and a dict policy."""
    space = dice_space(rules.n_dice)
    n = rules.n_dice
    table = {}
    frame = policy.to_frame()
    for (set_aside, rolled), keep in frame["keep"].items():
        key = (tuple(map(int, set_aside.split())), tuple(map(int, rolled.split())))
        table[key] = tuple(map(int, keep.split()))
    value = dict(enumerate(rules.face_values, start=1))
    rng = random.Random(1)
    start = time.perf_counter()
    dice = 0
    for _ in range(n_turns):
        held: tuple[int, ...] = ()
        while len(held) < n:
            rolled = tuple(
                sorted((rng.randrange(6) + 1 for _ in range(n - len(held))), reverse=True)
            )
            dice += len(rolled)
            held = tuple(sorted(held + table[(held, rolled)], reverse=True))
        sum(value[f] for f in held)
    del space
    return dice / (time.perf_counter() - start)


def solve_time(rules, repeat=200):
    solve_turn(rules, "ev")
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        solve_turn(rules, "ev")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    rules = Rules()
    policy = solve_turn(rules, "ev").policy
    threads = numba.get_num_threads()
    _simulate_turns(rules, policy, 10, 1, CHUNK)  # compile
    bare_draws(chunk_seeds(1, 1), CHUNK, 10)
    bare_randint_draws(chunk_seeds(1, 1), CHUNK, 10)

    rows = []
    for t in sorted({1, threads}):
        numba.set_num_threads(t)
        bare = bare_rate(200_000_000)
        randint = bare_rate(100_000_000, bare_randint_draws)
        sim = simulator_rate(rules, policy, 10_000_000)
        rows.append((t, bare, randint, sim))
    numba.set_num_threads(threads)
    py = python_rate(rules, policy, 50_000)

    print(
        f"Master Panache turn engine, default rules ({rules.n_dice} dice), numba "
        f"{numba.__version__}, {threads} threads available"
    )
    print("dice per second; 'bare' loops only draw dice (Lemire draw, and numba's randint)")
    print(
        "| threads | bare draws | bare randint draws | simulator | simulator / bare "
        "| simulator / bare randint |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for t, bare, randint, sim in rows:
        print(
            f"| {t} | {bare:.3e} | {randint:.3e} | {sim:.3e} | {sim / bare:.2f} "
            f"| {sim / randint:.2f} |"
        )
    if len(rows) > 1:
        scaling = rows[-1][3] / rows[0][3]
        print(f"scaling of the simulator from 1 to {threads} threads: {scaling:.2f}x")
    print(
        f"pure Python simulator: {py:.3e} dice/s "
        f"({rows[0][3] / py:.0f}x slower than numba on one thread)"
    )
    print(f"solve_turn(rules, 'ev') after warm-up: {solve_time(rules) * 1e3:.2f} ms (median)")
    eight = Rules(n_dice=8)
    print(
        f"solve_turn(Rules(n_dice=8), 'ev') after warm-up: "
        f"{solve_time(eight, repeat=20) * 1e3:.1f} ms (median)"
    )


if __name__ == "__main__":
    main()
