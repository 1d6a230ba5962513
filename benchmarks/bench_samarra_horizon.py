"""Speed of the adjudicated game's induction (``samarra.horizon``), beside the sweep.

For each (board, horizon H) the values of the 36 start positions with 0..H actions
left are computed twice on the same solved table: by the induction over the states
reachable from them (what ``horizon_values`` and ``solve_horizon`` use) and, as the
baseline measured in the same run, by the sweep over the whole state index once per
action (what they used before). Both must give the same values. Prints the states
each visits, the times and the ratio.

Run: ``.venv/bin/python benchmarks/bench_samarra_horizon.py`` (3 x 4 to 10 and 60
actions, 3 x 5 to 10; the tables come from the disk cache or are solved first, not
timed), or ``--cases 3x3:12`` for a quick check.
"""

from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np

from samarra import Rules, setups, solve, start_position
from samarra import horizon as H


def case(text: str) -> tuple[Rules, int]:
    """``3x5:10``: the board and the horizon."""
    size, horizon = text.split(":")
    width, length = (int(v) for v in size.split("x"))
    return Rules(width=width, length=length), int(horizon)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*", default=["3x4:10", "3x4:60", "3x5:10"])
    args = parser.parse_args(argv)
    print(f"numba threads: {numba.get_num_threads()}")
    warm = solve(Rules(length=3))
    start = start_position(warm.rules, "SMD", "DMS")
    H.horizon_values(warm, [start], 2)  # compile (or load compiled code) first
    H._induction(warm, np.array([warm.index(start)]), 2, False)
    for text in args.cases:
        rules, horizon = case(text)
        table = solve(rules)
        names = setups(rules)
        targets = np.array([table.index(start_position(rules, b, w))
                            for b in names for w in names])  # fmt: skip
        began = time.perf_counter()
        reach = H._reachable_induction(table, targets, horizon, False)
        reach_s = time.perf_counter() - began
        began = time.perf_counter()
        sweep = H._induction(table, targets, horizon, False)
        sweep_s = time.perf_counter() - began
        if reach is None:
            print(f"{text}: the reachable induction gave way to the sweep "
                  f"({reach_s:.1f} s spent); sweep {sweep_s:.1f} s")
            continue
        same = "same values" if np.array_equal(reach, sweep) else "VALUES DIFFER"
        print(f"{text}: reachable induction {reach_s:.1f} s, whole-index sweep "
              f"{sweep_s:.1f} s over {table.dist.size:,} states "
              f"({sweep_s / reach_s:,.1f}x faster; {same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
