"""The two-sides abstraction against individual orders, split by split.

For each coalition the Citadel report values (four players: N, NE, NS, NES against the
other seats; three players: N, E, NE, NS), at the seed's board and capital: the
abstraction's coalition value (:func:`citadel.solve_sides`, ``objective="score"``;
``--objective difference`` for the zero-sum game between the two sides),
side A's payoff when A, then B, best-responds with individual full-compass orders
(:func:`citadel.members.member_response`), what each gains, the exploitability (the
sum), and the time and peak memory of each step. Baseline: the abstraction's own
solve time, printed beside. Rows are printed as they are done (a row takes minutes at
``bid_step`` 20 on the reference machine).

Run: ``PYTHONPATH=. nice -n 19 python benchmarks/bench_citadel_members.py --bid-step 20``
(``--radius 1 --capital 10 --bid-step 5`` for a quick run; ``--sizes`` prints the
sizes from :func:`citadel.members.member_response_size` and stops).

Measured 2026-11-26 at radius 3, capital 100, bid_step 20, under a load of 20-31 on
the 2-core machine (seconds: the abstraction's solve, then each response)::

    objective  players split  abstraction  A_responds  B_responds  exploit.  solve  respA  respB
    score            3  N|ES      0.000000    0.000000    0.000000  0.000000    231    1.5   13.6
    score            3  E|NS      0.000000    0.677007    0.000000  0.677007    137    1.1    9.7
    score            3  NE|S      1.000000    1.000000    1.000000  0.000000    313    4.8    0.4
    score            3  NS|E      1.000000    1.000000    1.000000  0.000000    577    4.6    0.7
    score            4  N|ESW     0.000000    1.000000    0.000000  1.000000    260    4.3  673.1
    score            4  NE|SW     0.000000    1.000000    0.000000  1.000000    616   27.5   30.9
    score            4  NS|EW     0.474958    1.000000    0.000000  1.000000    732   31.6   46.5
    score            4  NES|W     1.000000    1.000000    1.000000  0.000000    886  911.9    0.8
    difference       4  NE|SW     0.000000    1.000000   -1.000000  2.000000   1186   43.8   22.2
    difference       4  NS|EW     0.000000    0.999999   -0.999999  1.999997    689   15.4   15.2

Peak RSS 289 MB. ``bid_step`` 10 does not fit: the abstraction's solve alone takes
40 min (three players) to 4.2 h (NE) by :func:`citadel.sides.sides_size`, and a trio's
response is 8.5e7 states and 1.4e12 (state, joint order) pairs in 8.7 GB.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import sys
import time

from citadel.members import member_response, member_response_size
from citadel.rules import Rules
from citadel.sides import solve_sides

SPLITS = {4: ("N", "NE", "NS", "NES"), 3: ("N", "E", "NE", "NS")}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--radius", type=int, default=3)
    parser.add_argument("--capital", type=int, default=100)
    parser.add_argument("--bid-step", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--splits", nargs="+", default=None)
    parser.add_argument("--objective", choices=("score", "difference"), default="score")
    parser.add_argument("--sizes", action="store_true")
    args = parser.parse_args(argv)
    base = Rules(radius=args.radius, capital=args.capital, bid_step=args.bid_step)
    print(f"radius {args.radius}, capital {args.capital}, bid_step {args.bid_step}; "
          f"side A's payoff (objective {args.objective!r})", flush=True)  # fmt: skip
    print("players split      abstraction  A_responds  B_responds  gain_A  gain_B  "
          "exploitability  solve_s  respA_s  respB_s  statesA  statesB  pairsA  pairsB  "
          "peak_MB", flush=True)  # fmt: skip
    for n in args.players:
        rules = dataclasses.replace(base, n_players=n)
        for split in args.splits or SPLITS[n]:
            began = time.perf_counter()
            sol = solve_sides(rules, split, objective=args.objective, progress=False)
            solved = time.perf_counter() - began
            if args.sizes:
                for respond in (0, 1):
                    print(n, split, respond, member_response_size(sol, respond).describe(),
                          flush=True)  # fmt: skip
                continue
            a = member_response(sol, 0, progress=False)
            b = member_response(sol, 1, progress=False)
            print(f"{n:7d} {sol.names[0]:>3}|{sol.names[1]:<4} {a.abstraction:11.6f} "
                  f"{a.value:11.6f} {b.value:11.6f} {a.gain:7.4f} {b.gain:7.4f} "
                  f"{a.value - b.value:15.6f} {solved:8.1f} {a.seconds:8.1f} {b.seconds:8.1f} "
                  f"{a.states:8d} {b.states:8d} {a.pairs:.2e} {b.pairs:.2e} {peak_mb():8.0f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
