"""What safe cached results cost, beside their baselines, in one run.

Prints:
* a cached ``solve_duel`` (default rules) and ``solve_three`` (start_points=12) call,
  which copies the result's DataFrames on return (``tabletop.frozen.memoize``), beside
  a plain ``functools.lru_cache`` hit on the same solve (the shared object, no copy);
* the copy of a ``ThreeSolution.win``-shaped DataFrame at the default rules (64,000
  rows, a 3-level MultiIndex), which ``solve_three(Rules())`` pays per call;
* ``simulate_games`` with duel-solved agents reading the cached, read-only duel tables,
  beside the same kernel given writable copies of them (numba compiles a separate
  specialisation for read-only arrays; the speed must not change);
* the Samarra retrograde solve on 3 x 3 with its read-only geometry, beside the same
  kernels given writable copies.

Run: ``.venv/bin/python benchmarks/bench_cache.py``.
"""

from __future__ import annotations

import dataclasses
import functools
import statistics
import time

import numpy as np
import pandas as pd

from panache import Agent, Rules, solve_duel, solve_three
from panache._game_kernels import simulate_games_kernel
from panache.game import _kernel_inputs
from samarra import Rules as SamarraRules
from samarra.solve import _build, geometry
from tabletop.seeding import chunk_seeds


def per_call(fn, calls: int, repeat: int = 7) -> float:
    """Median seconds per call over ``repeat`` runs of ``calls`` calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        runs.append((time.perf_counter() - start) / calls)
    return statistics.median(runs)


def cached_call(solver, rules, calls: int) -> tuple[float, float]:
    """Seconds per cached call: safe (copy on return) and a plain lru_cache hit."""
    plain = functools.lru_cache(maxsize=None)(solver.__wrapped__)
    solver(rules)
    plain(rules)
    return per_call(lambda: solver(rules), calls), per_call(lambda: plain(rules), calls)


def games_rate(tables, rows, n_games: int) -> float:
    seeds = chunk_seeds(1, -(-n_games // 1024))
    run = functools.partial(simulate_games_kernel, seeds, 1024, n_games, *tables, rows)
    run()  # compile this specialisation
    return n_games / per_call(run, 1, repeat=5)


def main():
    rules = Rules()
    safe, plain = cached_call(solve_duel, rules, 2000)
    print(f"cached solve_duel(Rules()): {safe * 1e6:.1f} us per call with the copy on return; "
          f"plain lru_cache hit {plain * 1e6:.2f} us")  # fmt: skip
    small = Rules(start_points=12)
    safe, plain = cached_call(solve_three, small, 200)
    rows = len(solve_three(small).win)
    print(f"cached solve_three(Rules(start_points=12)), {rows} states: {safe * 1e6:.1f} us per "
          f"call with the copy on return; plain lru_cache hit {plain * 1e6:.2f} us")  # fmt: skip

    top = 40
    index = pd.MultiIndex.from_product(
        [range(1, top + 1)] * 3, names=["my_points", "next_points", "last_points"]
    )
    win = pd.DataFrame(np.random.default_rng(0).random((top**3, 3)), index=index,
                       columns=["mover", "next", "last"])  # fmt: skip
    copy = per_call(lambda: win.copy(deep=True), 50)
    print(f"copy of a ThreeSolution.win at the default rules ({top**3} rows): "
          f"{copy * 1e3:.3f} ms per call (solve_three(Rules()) itself: about 430 s wall)")

    agents = [Agent.duel(), Agent.heuristic()]
    tables, rows = _kernel_inputs(rules, agents)
    writable = type(tables)(*(type(part)(*(v.copy() if isinstance(v, np.ndarray) else v
                                            for v in part)) for part in tables))
    shared = sum(isinstance(v, np.ndarray) and not v.flags.writeable
                 for part in tables for v in part)
    n_games = 200_000
    read_only_rate = games_rate(tables, rows, n_games)
    writable_rate = games_rate(writable, rows, n_games)
    print(f"2-player games, duel-solved agent vs heuristic ({shared} read-only table arrays): "
          f"{read_only_rate:.3e} games/s; with writable copies of the tables "
          f"{writable_rate:.3e} games/s (ratio {read_only_rate / writable_rate:.2f})")

    board = SamarraRules(length=3)
    geo = geometry(board)
    copies = dataclasses.replace(geo, **{
        f.name: getattr(geo, f.name).copy() for f in dataclasses.fields(geo)
        if isinstance(getattr(geo, f.name), np.ndarray)})  # fmt: skip
    _build(board, geo)
    _build(board, copies)  # compile both specialisations
    frozen_s = per_call(lambda: _build(board, geo), 1, repeat=3)
    writable_s = per_call(lambda: _build(board, copies), 1, repeat=3)
    print(f"Samarra retrograde solve, 3 x 3 ({geo.n_states} states): {frozen_s:.2f} s with the "
          f"read-only geometry; {writable_s:.2f} s with writable copies "
          f"(ratio {writable_s / frozen_s:.2f})")


if __name__ == "__main__":
    main()
