"""Sizes, time and accuracy of the hidden-information solve of Ce soir, à Samarra.

Prints, per (board, H): the game's states (histories), information sets and sequences
of both players, the wall time of ``samarra.solve_hidden`` (the enumeration, the LP
and the exact best responses), its exploitability and Black's value, beside the
perfect-information horizon value at the same H (``samarra.solve_horizon``, the value
of the setup game when both players see everything). Each (board, H) runs in a fresh
process limited to ``--seconds`` of CPU time and ``--gigabytes`` of address space; one
that exceeds either is reported as such, and the larger H of that board are skipped.
CPU time (user + system, every thread) is the measure: on a shared machine the wall
time says more about the other jobs; on 2 idle cores the wall time is at least half
of it. With ``--baseline REV`` the same (board, H) is solved again by the code of git
revision ``REV`` (its ``samarra`` and ``tabletop`` packages, in a fresh process under
the same limits) and printed beside, with the difference of the two values. Goals
(issue 19): exploitability <= 1e-9 on 3 × 3 for H = 1..9 and on 3 × 4 for H = 1..8,
each H within 5 minutes and 4 GB on 2 cores.

Measured on 2026-11-26 (CPU seconds of the solve and peak resident GiB, this code
beside 6f4147b, the code before the mirror reduction; exploitability <= 1e-15 and
values equal to 1e-13 throughout; the machine was shared with about 20 runnable jobs,
so wall times were 10 to 15 times the CPU times)::

    board  H   histories  B / W sequences       CPU s  GiB   6f4147b CPU s  GiB
    3x3    7     601,869     11,327 /   240,879    5.6  0.40           7.2  0.49
    3x3    8   2,329,545    856,291 /   240,879   20.6  1.11         155    1.75
    3x3    9   9,319,485  4,477,197 /   240,879   63.9  2.97             -     -
    3x4    6     470,823     16,027 /    80,135    3.5  0.31           4.3  0.31
    3x4    7   2,714,801     16,027 /   579,175   12.3  0.67             -     -
    3x4    8  15,476,779  3,122,181 /   579,175  213.8  2.55             -     -

(3x3 H = 8 by phase: the walk 9.1 s, the LP 10.9 s, best responses 0.6 s.)

Run: ``.venv/bin/python benchmarks/bench_samarra_hidden.py`` (3x3 to H = 9, 3x4 to
H = 8), ``--baseline 6f4147b`` to compare with the code before the mirror reduction,
or ``--boards 3x3 --max-horizon 5`` for a quick check.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = """
import json, resource, sys, time
from samarra import Rules
from samarra.hidden import solve_hidden
width, length, horizon = (int(v) for v in sys.argv[1:4])
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
start, start_cpu = time.perf_counter(), cpu()
s = solve_hidden(Rules(width=width, length=length), horizon)
seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps({"states": s.n_states, "infosets": list(s.n_infosets),
                  "sequences": list(s.n_sequences), "seconds": seconds, "cpu": cpu_seconds,
                  "exploitability": s.exploitability, "value": s.value, "peak_gb": peak}))
"""


def perfect_information_values(width: int, length: int, max_horizon: int) -> list[float]:
    """The perfect-information horizon values (setup game, value to Black) for H = 0..max."""
    from samarra import Rules, solve_horizon

    game = solve_horizon(Rules(width=width, length=length), max_horizon, progress=False)
    return game.summary["value to black"].tolist()


def checkout(revision: str, into: str) -> str:
    """The ``samarra`` and ``tabletop`` packages of git ``revision``, unpacked in ``into``."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", revision, "samarra", "tabletop"],
                             capture_output=True, check=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return into


def run_one(width: int, length: int, horizon: int, seconds: float, gigabytes: float,
            path: str | None = None) -> dict:  # fmt: skip
    """One solve in a fresh process (with ``path`` first on its ``PYTHONPATH``), limited
    in CPU time and address space."""
    limit = int(gigabytes * 2**30)

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds) + 5))

    env = dict(os.environ)
    if path is not None:  # run from ``path`` too: ``-c`` puts the working directory first
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _CHILD, str(width), str(length), str(horizon)],
                         capture_output=True, text=True, preexec_fn=cap, env=env, cwd=path,
                         check=False)  # fmt: skip
    if out.returncode != 0:
        if out.returncode in (-9, -24):  # SIGKILL / SIGXCPU: the CPU limit
            return {"failed": f"over {seconds:.0f} CPU s"}
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        return {"failed": "out of memory" if "MemoryError" in out.stderr else last[:60]}
    return json.loads(out.stdout)


def row(r: dict) -> str:
    """A solve's time, memory and exploitability, or why it failed."""
    if "failed" in r:
        return f"{r['failed']:>30}"
    return (f"{r['cpu']:>8.1f} {r['seconds']:>7.1f} {r['peak_gb']:>5.2f} "
            f"{r['exploitability']:>8.1e}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", default=["3x3", "3x4"])
    parser.add_argument("--max-horizon", type=int, nargs="+", default=[9, 8],
                        help="largest H, one per board (the last repeats)")
    parser.add_argument("--min-horizon", type=int, default=1, help="smallest H")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--gigabytes", type=float, default=4.0)
    parser.add_argument("--baseline", default=None,
                        help="a git revision whose solve is run beside (e.g. 6f4147b)")
    parser.add_argument("--baseline-max-horizon", type=int, nargs="+", default=[8, 7],
                        help="largest H of the baseline, one per board (the last repeats)")
    parser.add_argument("--skip-perfect", action="store_true",
                        help="leave out the perfect-information values (a table solve)")
    args = parser.parse_args(argv)
    old_path = checkout(args.baseline, tempfile.mkdtemp()) if args.baseline else None
    head = f"{'CPU s':>8} {'wall s':>7} {'GiB':>5} {'exploit.':>8}"
    print(f"{'board':5} {'H':>2} {'states':>10} {'infosets B/W':>17} {'sequences B/W':>19} "
          f"{head} {'value':>9} {'perfect':>8}"
          + (f" | baseline {args.baseline}: {head} {'|dvalue|':>8}" if old_path else ""))
    for k, text in enumerate(args.boards):
        width, length = (int(v) for v in text.split("x"))
        max_h = args.max_horizon[min(k, len(args.max_horizon) - 1)]
        perfect = [float("nan")] * (max_h + 1)
        if not args.skip_perfect:
            t0 = time.perf_counter()
            perfect = perfect_information_values(width, length, max_h)
            print(f"# {text}: perfect-information horizon values in "
                  f"{time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
        old_max = args.baseline_max_horizon[min(k, len(args.baseline_max_horizon) - 1)]
        for h in range(args.min_horizon, max_h + 1):
            r = run_one(width, length, h, args.seconds, args.gigabytes)
            if "failed" in r:
                print(f"{text:5} {h:>2} {r['failed']}; larger H skipped", flush=True)
                break
            info, seq = r["infosets"], r["sequences"]
            line = (f"{text:5} {h:>2} {r['states']:>10,} {info[0]:>8,}/{info[1]:<8,} "
                    f"{seq[0]:>9,}/{seq[1]:<9,} {row(r)} {r['value']:>9.5f} {perfect[h]:>8.4f}")
            if old_path and h <= old_max:
                old = run_one(width, length, h, args.seconds, args.gigabytes, old_path)
                diff = abs(old["value"] - r["value"]) if "value" in old else float("nan")
                line += f" | {'':>{len(args.baseline) + 11}} {row(old)} {diff:>8.1e}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
