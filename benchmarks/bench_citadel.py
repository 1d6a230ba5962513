"""Speed of Master Citadel's engine, simulator and whole-game solve, beside baselines.

Prints, in one run:
* ``resolve`` rounds per second on the numba path (one core), beside the plain-Python
  reference ``citadel.resolve.resolve_reference`` (goal: >= 5e6 rounds/s);
* complete 4-player games per second with heuristic agents, on one thread and on every
  thread, beside the plain-Python game loop (goal: >= 1e5 games/s per core);
* the two-player whole-game solve (default rules, N vs S) at a bid grid of 5 (goal:
  under 10 minutes on 2 cores), with its exploitability;
* the two-against-two solves (N + E vs S + W, N + S vs E + W; pooled capital, default
  rules) at a bid grid of 20, with their exploitability.

Run: ``.venv/bin/python benchmarks/bench_citadel.py`` (``--quick`` for tiny sizes).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from citadel import Rules, agent, play_game
from citadel.resolve import resolve_many, resolve_reference
from citadel.sides import check_sides, solve_sides
from citadel.simulate import simulate_games
from citadel.whole_game import check_solution, solve_duel_game

MIX = ["straight", "ally_cw", "counter", "random"]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def bench_resolve(n_rounds: int, batch: int = 100_000) -> None:
    rng = np.random.default_rng(0)
    amounts = rng.choice([0, 5, 10, 20, 40], size=(n_rounds, 4))
    directions = rng.integers(0, 8, size=(n_rounds, 4))
    rules = Rules()
    resolve_many(amounts[:10], directions[:10], rules)  # compile

    def batches():  # calls of `batch` rounds, as a simulation or a sweep would make them
        for start in range(0, n_rounds, batch):
            resolve_many(amounts[start:start + batch], directions[start:start + batch], rules)

    fast, _ = timed(batches)
    whole, _ = timed(lambda: resolve_many(amounts, directions, rules))
    n_ref = max(n_rounds // 100, 100)
    slow, _ = timed(lambda: [resolve_reference(amounts[i], directions[i])
                             for i in range(n_ref)])  # fmt: skip
    print(
        f"resolve: numba {n_rounds / fast:,.0f} rounds/s (one core, {n_rounds:,} rounds in "
        f"calls of {batch:,}; {n_rounds / whole:,.0f} rounds/s in a single call, which "
        f"allocates {n_rounds * 10 * 8 / 1e9:.1f} GB of fresh result arrays); "
        f"plain reference {n_ref / slow:,.0f} rounds/s; "
        f"speed-up {n_rounds / fast * slow / n_ref:,.0f}x"
    )


def bench_games(n_games: int) -> None:
    rules = Rules()
    simulate_games(rules, MIX, 100, seed=0)  # compile
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    one, games = timed(lambda: simulate_games(rules, MIX, n_games, seed=1))
    numba.set_num_threads(threads)
    many, _ = timed(lambda: simulate_games(rules, MIX, n_games, seed=1))
    n_ref = max(n_games // 200, 20)
    agents = [agent(a) for a in MIX]
    slow, _ = timed(lambda: [play_game(rules, agents, seed=i) for i in range(n_ref)])
    print(
        f"games ({'/'.join(MIX)}, mean {games.rounds.mean():.1f} rounds): "
        f"{n_games / one:,.0f} games/s on 1 thread, {n_games / many:,.0f} on {threads}; "
        f"plain Python {n_ref / slow:,.0f} games/s"
    )


def bench_solve(bid_step: int, capital: int) -> None:
    rules = Rules(n_players=2, bid_step=bid_step, capital=capital)
    seconds, sol = timed(lambda: solve_duel_game(rules))
    chk_seconds, chk = timed(lambda: check_solution(sol, "axis"))
    print(
        f"whole game 1 vs 1 (capital {capital}, bid_step {bid_step}): {seconds:.1f} s for "
        f"{sol.values.size:,} states; V(start) = {sol.value():+.2e}, exploitability "
        f"{chk.exploitability:.1e} (checked in {chk_seconds:.1f} s)"
    )


def bench_sides(bid_step: int, capital: int) -> None:
    rules = Rules(bid_step=bid_step, capital=capital)
    for side in ("NE", "NS"):
        seconds, sol = timed(lambda side=side: solve_sides(rules, side))
        chk = check_sides(sol)
        print(
            f"two sides {sol.names[0]} vs {sol.names[1]} (capital {capital} each, bid_step "
            f"{bid_step}): {seconds:.1f} s for {sol.values.size:,} states; "
            f"V(start) = {chk.value:+.2e}, draw {chk.p_draw:.3f}, exploitability "
            f"{chk.exploitability:.1e}"
        )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to test the script")
    args = parser.parse_args(argv)
    print(f"Master Citadel, numba {numba.__version__}, {numba.get_num_threads()} threads")
    if args.quick:
        bench_resolve(20_000, batch=5_000)
        bench_games(2_000)
        bench_solve(20, 40)
        bench_sides(10, 20)
    else:
        bench_resolve(10_000_000)
        bench_games(1_000_000)
        bench_solve(5, 100)
        bench_sides(20, 100)


if __name__ == "__main__":
    main()
