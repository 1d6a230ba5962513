"""Speed and memory of the Samarra retrograde solve under the optional turn rules.

For each board (3 × 4 with ``allow_pass``, ``no_repetition`` and both; 3 × 5 with
``--large``), a fresh process solves the table (no cache, compiled code warmed up
first on 3 × 3) and reports the states, the index entries, the wall and CPU time
(all threads) and the peak resident memory; beside it, with ``--baseline DIR`` (a
checkout of an earlier version: ``git archive <commit> | tar -x -C DIR``), the same
solve by that version's code, in its own process.

Both print a hash of the table *mapped to positions*: the sum, modulo 2^64, of a
mixed 64-bit word per state of the game built from its cells, statuses, actions
left, tag and value. It does not depend on how the index numbers the states (the
previous layout held the infeasible undo tags as entries, which the hash skips), so
equal hashes mean equal values state by state.

CPU time is the measure to read on a shared machine: the wall clock there follows
the load. Issue 19's goal: 3 × 5 with both rules under 5 minutes and 2 GB.

Run: ``.venv/bin/python benchmarks/bench_samarra_rules.py --baseline /tmp/before``
(about 10 minutes of CPU), ``--boards 3x3+pass+norep`` for a quick look, ``--large``
to add 3 × 5 with both rules (about 15 minutes more).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

# run in a fresh process by the code on its path (this version's or the baseline's)
_ONE = r"""
import json, resource, sys, time
import numba
import numpy as np
from samarra import Rules
from samarra import _kernels as K
from samarra.solve import geometry, solve

@numba.njit
def _mix(x):
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    return x

@numba.njit
def position_hash(n, block_start, block_a, block_code, layout, steps, dist):
    cells, status = np.empty(6, np.int64), np.empty(4, np.int64)
    total = np.uint64(0)
    states = 0
    for s in range(dist.size):
        a, tag = K.decode(s, n, block_start, block_a, block_code, layout, cells, status)
        if not K.feasible(cells, a, tag, steps, layout):
            continue
        word = np.uint64(a * 64 + tag)
        for i in range(6):
            word = _mix(word * np.uint64(31) + np.uint64(cells[i] + 1))
        for i in range(4):
            word = _mix(word * np.uint64(7) + np.uint64(status[i]))
        total += _mix(word + np.uint64(dist[s] + 1000))
        states += 1
    return total, states

text = sys.argv[1]
size, *options = text.split("+")
width, length = (int(v) for v in size.split("x"))
names = {"pass": "allow_pass", "norep": "no_repetition"}
rules = Rules(width=width, length=length, **{names[o]: True for o in options})
solve(Rules(length=3), cache=False)  # compile (or load compiled code) first
wall, cpu = time.perf_counter(), time.process_time()
table = solve(rules, cache=False)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9
geo = geometry(rules)
digest, states = position_hash(geo.n, *geo.blocks, geo.layout, geo.steps, table.dist)
print(json.dumps({"entries": int(table.dist.size), "states": int(states), "wall": wall,
                  "cpu": cpu, "peak_gb": peak, "hash": f"{int(digest):016x}"}))
"""

BOARDS = ["3x4+pass", "3x4+norep", "3x4+pass+norep"]


def one(text: str, folder: str) -> dict:
    """Solve board ``text`` in a fresh process with the code in ``folder``."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(folder))
    out = subprocess.run([sys.executable, "-c", _ONE, text], env=env, cwd=folder,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def line(r: dict) -> str:
    return (
        f"{r['states']:>13,} {r['entries']:>13,} {r['wall']:>8.1f} {r['cpu']:>8.1f} "
        f"{r['peak_gb']:>6.2f}  {r['hash']}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="*", default=BOARDS)
    parser.add_argument("--large", action="store_true", help="add 3x5 with both rules")
    parser.add_argument("--baseline", default=None, help="a checkout of an earlier version")
    args = parser.parse_args(argv)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    boards = args.boards + (["3x5+pass+norep"] if args.large else [])
    print(
        f"{'board':<16} {'code':<9} {'states':>13} {'entries':>13} {'wall s':>8} "
        f"{'CPU s':>8} {'GB':>6}  position hash"
    )
    for text in boards:
        now = one(text, here)
        print(f"{text:<16} {'this':<9} {line(now)}", flush=True)
        if args.baseline and not text.startswith("3x5"):  # 3 x 5: 4 GB before
            before = one(text, args.baseline)
            same = "same values" if before["hash"] == now["hash"] else "VALUES DIFFER"
            print(
                f"{'':<16} {'baseline':<9} {line(before)}  {same}; CPU "
                f"{before['cpu'] / now['cpu']:.1f}x, memory "
                f"{before['peak_gb'] / now['peak_gb']:.1f}x",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
