"""Speed of the whole-game analyses of Master Panache, beside their baselines.

Prints, in one run:
* ``solve_duel`` (default rules) and the cost of the turn roll DP it calls per state;
* ``solve_three`` (default rules), with the share of rotation classes solved exactly
  and the largest two-sided gap elsewhere; the three-player agent's tables and its games;
* complete 4-player games per second with heuristic agents, on one thread and on
  every thread, beside the plain-Python reference game (``panache.engine``).

Run: ``.venv/bin/python benchmarks/bench_panache_game.py``.
"""

from __future__ import annotations

import random
import time

import numba

from panache import Agent, Rules, simulate_games, solve_duel, solve_three, solve_turn
from panache.duel import max_points
from panache.engine import play_game
from panache.game import three_tables
from panache.three import REGRET_TOLERANCE

AGENTS = [
    Agent.heuristic(),
    Agent.heuristic(target="weakest"),
    Agent.heuristic(mp="never"),
    Agent.heuristic(min_level=3),
]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main():
    rules = Rules()
    four = Rules(n_players=len(AGENTS))  # the seats of a simulation are the rules' n_players
    three_players = Rules(n_players=3)
    threads = numba.get_num_threads()
    # warm-up: compile everything on tiny rules
    solve_three(Rules(start_points=3, n_dice=2, n_players=3))
    simulate_games(four, AGENTS, 100, seed=0)

    solve_duel.cache_clear()
    duel_seconds, duel = timed(lambda: solve_duel(rules))
    top = max_points(rules)
    turn_seconds, _ = timed(lambda: [solve_turn(rules, "ev") for _ in range(100)])
    print(f"Master Panache whole game, default rules, numba {numba.__version__}, {threads} threads")
    print(
        f"solve_duel: {duel_seconds:.2f} s for {top * top} states "
        f"(first player wins {duel.first_player_win:.4f}); one solve_turn call: "
        f"{turn_seconds * 10:.2f} ms"
    )

    solve_three.cache_clear()
    three_seconds, three = timed(lambda: solve_three(three_players))
    settled = (three.classes["period"] == 1).mean()
    exact = (three.classes["regret"] <= REGRET_TOLERANCE).mean()
    print(
        f"solve_three: {three_seconds:.1f} s for {len(three.classes)} rotation classes "
        f"({top**3} states), two-sided check included; {settled:.1%} pure equilibria, "
        f"{exact:.1%} exact, largest two-sided gap {three.max_regret:.1e}"
    )

    tables_seconds, tables = timed(lambda: three_tables(three_players))
    three_games = 100_000
    games_seconds, _ = timed(lambda: simulate_games(three_players, [Agent.three()] * 3,
                                                    three_games, seed=2))  # fmt: skip
    print(
        f"three-player agent: its tables ({top**3} states, {len(tables['steps'])} distinct turn "
        f"policies) built in {tables_seconds:.1f} s; 3-player games of solved players "
        f"{three_games / games_seconds:.3e}/s"
    )

    n_games = 400_000
    print("| threads | 4-player games/s | per core |")
    print("|---:|---:|---:|")
    for t in sorted({1, threads}):
        numba.set_num_threads(t)
        seconds, _ = timed(lambda: simulate_games(four, AGENTS, n_games, seed=1))
        print(f"| {t} | {n_games / seconds:.3e} | {n_games / seconds / t:.3e} |")
    numba.set_num_threads(threads)
    rng = random.Random(1)
    n_py = 300
    seconds, _ = timed(lambda: [play_game(four, AGENTS, rng) for _ in range(n_py)])
    print(f"plain-Python reference game: {n_py / seconds:.3e} games/s")


if __name__ == "__main__":
    main()
