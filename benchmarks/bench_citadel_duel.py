"""Speed of the exact duel with all eight directions (issue 20), beside the solver before.

For each bid step (default rules otherwise: radius 3, capital 100, N vs S), prints the
time of ``solve_duel_game(rules, "all")``, the number of states, the orders a side has
and the distinct orders left after merging those with identical outcomes, the largest
difference to the plain solver's values where it ran, the widest bracket on a state's
value (what a stored strategy may give up there, certified by its exact guarantee:
``DuelGameSolution.residual``), and the exploitability of the solution measured by an
exact best response over every legal order of the eight directions
(``check_solution(sol, "all")``, timed apart).

Beside each solve, in the same process, the solver before the kept tableau (its
double oracle re-solves each restricted game from the start: ``_solve_states(kept=
False)``) solves the same grid: CPU time of each (the machine is shared, so CPU time,
not wall time, is compared), the largest difference between their values, and the
peak memory of the process after each. ``--step1`` adds bid step 1 (801 orders a
side; long). The plain solver (every order, stage games built with numpy, each
solved by HiGHS: the solver before issue 20) runs in the same process for the bid
steps given to ``--plain`` (default none: about two minutes at bid step 20).
``--warm`` times beside it the solve whose double oracle starts each
state from the optimal orders of its neighbour (``_solve_states(warm=True)``, not the
default: its values move within the brackets' width). The check runs for the steps
given to ``--check`` (default 20, 10 and 5; it takes several times the solve).
Goals: bid step 20 under 10 s, 10 under 30 s, 1 under 5 minutes, under 4 GB.

Run: ``.venv/bin/python benchmarks/bench_citadel_duel.py`` (``--quick`` for tiny sizes;
``--steps 20 10 5 2`` to choose the grids, ``--step1`` to add bid step 1).
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
    """CPU seconds of ``fn()`` (this process) and its result."""
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def bench(bid_step: int, capital: int, plain: bool, warm: bool, check: bool,
          before: bool = True) -> None:  # fmt: skip
    rules = Rules(n_players=2, bid_step=bid_step, capital=capital)
    seconds, sol = timed(lambda: solve_duel_game(rules, "all", progress=False))
    space = sol.space
    orders = space.amounts[0].size
    kept = distinct_orders(space, 0).size
    line = (f"bid_step {bid_step:>2} (capital {capital}): {seconds:7.1f} s CPU "
            f"(peak {peak_gb():.2f} GB), {sol.values.size:,} states, {orders} orders a "
            f"side ({kept} distinct)")  # fmt: skip
    if before:
        old_seconds, old = timed(lambda: _solve_states(duel_space(rules, "all"), kept=False))
        diff = float(np.abs(old.values - sol.values).max())
        line += (f"; solver before {old_seconds:.1f} s CPU ({old_seconds / seconds:.1f}x), "
                 f"largest value difference {diff:.1e}")  # fmt: skip
    if plain:
        old_seconds, old = timed(lambda: _solve_states(duel_space(rules, "all"), fast=False))
        diff = float(np.abs(old.values - sol.values).max())
        line += (f"; plain solver {old_seconds:.1f} s ({old_seconds / seconds:.0f}x), "
                 f"largest value difference {diff:.1e}")  # fmt: skip
    if warm:
        warm_seconds, hot = timed(lambda: _solve_states(duel_space(rules, "all"), warm=True))
        diff = float(np.abs(hot.values - sol.values).max())
        line += f"; warm-started {warm_seconds:.1f} s, largest value difference {diff:.1e}"
    line += (f"; V(start) = {sol.value():+.2e}, V(one row ahead) = {sol.value(1):.9f}, "
             f"widest bracket {sol.residual:.1e}")  # fmt: skip
    if check:
        chk_seconds, chk = timed(lambda: check_solution(sol, "all", progress=False))
        line += f", exploitability {chk.exploitability:.1e} (checked in {chk_seconds:.1f} s)"
    print(line, flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to test the script")
    parser.add_argument("--steps", type=int, nargs="+", default=[20, 10, 5])
    parser.add_argument("--step1", action="store_true", help="add bid step 1 (long)")
    parser.add_argument("--no-before", action="store_true",
                        help="skip the solver before the kept tableau")  # fmt: skip
    parser.add_argument("--plain", type=int, nargs="*", default=[],
                        help="bid steps at which the plain solver runs too")  # fmt: skip
    parser.add_argument("--warm", action="store_true", help="time the warm-started solve too")
    parser.add_argument("--check", type=int, nargs="*", default=[20, 10, 5],
                        help="bid steps whose solution is checked by best responses")  # fmt: skip
    args = parser.parse_args(argv)
    capital = 20 if args.quick else 100
    steps = [10, 5] if args.quick else args.steps + ([1] if args.step1 else [])
    plain = [10] if args.quick else args.plain
    check = [10, 5] if args.quick else args.check
    tiny = Rules(n_players=2, radius=1, capital=4)
    solve_duel_game(tiny, "all", progress=False)  # compile
    _solve_states(duel_space(tiny, "all"), kept=False)
    print("Master Citadel duel, all eight directions, radius 3 (CPU seconds)")
    for step in steps:
        bench(step, capital, step in plain, args.warm, step in check, not args.no_before)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"peak memory {peak:.2f} GB")


if __name__ == "__main__":
    main()
