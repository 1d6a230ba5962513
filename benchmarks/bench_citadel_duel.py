"""Speed of the exact duel with all eight directions (issue 20), beside the plain solver.

For each bid step (default rules otherwise: radius 3, capital 100, N vs S), prints the
time of ``solve_duel_game(rules, "all")``, the number of states, the orders a side has
and the distinct orders left after merging those with identical outcomes, the largest
difference to the plain solver's values where it ran, and the exploitability of the
solution measured by an exact best response over every legal order of the eight
directions (``check_solution(sol, "all")``, timed apart).

The plain solver (every order, stage games built with numpy, each solved by HiGHS:
the solver before issue 20) runs in the same process for the bid steps given to
``--plain`` (default 20: about two minutes at its best; bid step 10 takes several
times that). ``--warm`` times beside it the solve whose double oracle starts each
state from the optimal orders of its neighbour (``_solve_states(warm=True)``, not the
default: its values move within the fixed-point tolerance, 1e-10). The check runs
for the steps given to ``--check`` (default 20; it takes several times the solve).
Goals: bid step 20 under 10 s, 10 under 30 s, 1 under 5 minutes, under 4 GB.

Run: ``.venv/bin/python benchmarks/bench_citadel_duel.py`` (``--quick`` for tiny sizes;
``--steps 20 10 5 2 1`` to choose the grids).
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from citadel import Rules
from citadel.stage import distinct_orders, duel_space
from citadel.whole_game import _solve_states, check_solution, solve_duel_game


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def bench(bid_step: int, capital: int, plain: bool, warm: bool, check: bool) -> None:
    rules = Rules(n_players=2, bid_step=bid_step, capital=capital)
    seconds, sol = timed(lambda: solve_duel_game(rules, "all", progress=False))
    space = sol.space
    orders = space.amounts[0].size
    kept = distinct_orders(space, 0).size
    line = (f"bid_step {bid_step:>2} (capital {capital}): {seconds:7.1f} s, "
            f"{sol.values.size:,} states, {orders} orders a side ({kept} distinct)")  # fmt: skip
    if plain:
        old_seconds, old = timed(lambda: _solve_states(duel_space(rules, "all"), fast=False))
        diff = float(np.abs(old.values - sol.values).max())
        line += (f"; plain solver {old_seconds:.1f} s ({old_seconds / seconds:.0f}x), "
                 f"largest value difference {diff:.1e}")  # fmt: skip
    if warm:
        warm_seconds, hot = timed(lambda: _solve_states(duel_space(rules, "all"), warm=True))
        diff = float(np.abs(hot.values - sol.values).max())
        line += f"; warm-started {warm_seconds:.1f} s, largest value difference {diff:.1e}"
    line += f"; V(start) = {sol.value():+.2e}, V(one row ahead) = {sol.value(1):.6f}"
    if check:
        chk_seconds, chk = timed(lambda: check_solution(sol, "all", progress=False))
        line += f", exploitability {chk.exploitability:.1e} (checked in {chk_seconds:.1f} s)"
    print(line, flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to test the script")
    parser.add_argument("--steps", type=int, nargs="+", default=[20, 10, 5])
    parser.add_argument("--plain", type=int, nargs="*", default=[20],
                        help="bid steps at which the plain solver runs too")  # fmt: skip
    parser.add_argument("--warm", action="store_true", help="time the warm-started solve too")
    parser.add_argument("--check", type=int, nargs="*", default=[20],
                        help="bid steps whose solution is checked by best responses")  # fmt: skip
    args = parser.parse_args(argv)
    capital = 20 if args.quick else 100
    steps = [10, 5] if args.quick else args.steps
    plain = [10] if args.quick else args.plain
    check = [10, 5] if args.quick else args.check
    solve_duel_game(Rules(n_players=2, radius=1, capital=4), "all", progress=False)  # compile
    print("Master Citadel duel, all eight directions, radius 3")
    for step in steps:
        bench(step, capital, step in plain, args.warm, step in check)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"peak memory {peak:.2f} GB")


if __name__ == "__main__":
    main()
