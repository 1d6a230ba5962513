"""Speed and memory of the Ce soir, à Samarra retrograde solver, beside a baseline.

Prints, for each board, the wall and CPU time of ``samarra.solve`` (no cache, compiled
code warmed up first), the index entries per second it solves, and the peak resident
memory of a fresh process doing only that solve; beside it, the plain-Python engine's
rate (positions whose actions are generated and applied per second, the work the
solver does for every position in its first pass), measured in the same run. With
``--previous DIR`` (a checkout of earlier code, e.g. ``git worktree add DIR <commit>``)
each board is solved by that code too, in its own fresh process, and the two are
printed side by side. Goals (issues 5 and 19): 3 × 4 under 30 s, 3 × 5 under 5 minutes
and 2 GB on 2 cores, with both optional turn rules too.

Run: ``.venv/bin/python benchmarks/bench_samarra.py`` (boards 3x4 and 3x5, and 3x4
with the optional turn rules), ``--boards 3x3 3x3+pass+norep`` for a quick check, or
``--boards 3x5+pass+norep --previous /tmp/previous`` for the goal beside the code
before it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import numba

from samarra import Rules, apply_action, legal_actions, n_states, setups, start_position
from samarra.solve import solve

GOALS = {"3x4": (30.0, None), "3x5": (300.0, 2.0), "3x5+pass+norep": (300.0, 2.0)}


OPTIONS = {"pass": "allow_pass", "norep": "no_repetition"}


def board(text: str) -> Rules:
    """``3x5``, or with optional turn rules: ``3x4+pass``, ``3x4+norep``, ``3x4+pass+norep``."""
    size, *options = text.split("+")
    width, length = (int(v) for v in size.split("x"))
    return Rules(width=width, length=length, **{OPTIONS[o]: True for o in options})


def one_solve(text: str) -> dict:
    """Solve one board in this process; report time, rate and peak memory."""
    rules = board(text)
    solve(Rules(length=3), cache=False)  # compile (or load compiled code) first
    start, cpu = time.perf_counter(), time.process_time()
    table = solve(rules, cache=False)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9
    return {"board": text, "entries": table.dist.size, "states": sum(table.counts.values()),
            "seconds": seconds, "cpu": cpu, "rate": table.dist.size / seconds,
            "peak_gb": peak_gb, "load": os.getloadavg()[0]}


def run_one(text: str, path: str | None = None) -> dict:
    """:func:`one_solve` in a fresh process, on the code at ``path`` (default: this)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(Path(path).resolve())
        env["NUMBA_CACHE_DIR"] = str(Path(path).resolve() / ".numba-cache")
    out = subprocess.run([sys.executable, __file__, "--one", text], check=True,
                         capture_output=True, text=True, env=env)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def describe(r: dict, baseline: float) -> str:
    entries = f"{r['entries']:,} entries"
    return (f"{entries} solved in {r['seconds']:.1f} s wall, {r['cpu']:.1f} s CPU "
            f"({r['rate']:,.0f} entries/s, {r['rate'] / baseline:,.0f}x the baseline), "
            f"peak memory {r['peak_gb']:.2f} GB, load {r['load']:.1f}")


def python_rate(seconds: float = 3.0) -> float:
    """Positions per second whose actions the plain-Python engine generates and applies."""
    rules = Rules()
    rng = random.Random(0)
    sample = []
    while len(sample) < 500:  # random positions of the default board, not timed
        p = start_position(rules, rng.choice(setups(rules)), rng.choice(setups(rules)))
        for _ in range(rng.randrange(40)):
            actions = legal_actions(p)
            if not actions:
                break
            p = apply_action(p, rng.choice(actions))
        if not p.is_over:
            sample.append(p)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in legal_actions(sample[done % len(sample)]):
            apply_action(sample[done % len(sample)], a)
        done += 1
    return done / (time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="*",
                        default=["3x4", "3x5", "3x4+pass", "3x4+norep", "3x4+pass+norep"])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--previous", help="a checkout of earlier code to solve beside")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one_solve(args.one)))
        return 0
    print(f"numba threads: {numba.get_num_threads()}, load {os.getloadavg()[0]:.1f}")
    baseline = python_rate()
    print(f"baseline, plain-Python engine: {baseline:,.0f} positions/s "
          f"(one pass over 3x5 would take {n_states(Rules()) / baseline / 3600:,.1f} h)")
    for text in args.boards:
        r = run_one(text)
        goal_s, goal_gb = GOALS.get(text, (None, None))
        line = f"{text}: {describe(r, baseline)}"
        if goal_s is not None:
            line += f"; goal < {goal_s:.0f} s" + (f", < {goal_gb:.0f} GB" if goal_gb else "")
        print(line, flush=True)
        if args.previous:
            print(f"{text} previous code: {describe(run_one(text, args.previous), baseline)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
