"""Sizes, time and accuracy of the hidden-information solve of Ce soir, à Samarra.

Prints, per (board, H): the game's states (histories), information sets and sequences
of both players, the wall time of ``samarra.solve_hidden`` (the enumeration, the LP
and the exact best responses), its exploitability and Black's value, beside the
perfect-information horizon value at the same H (``samarra.solve_horizon``, the value
of the setup game when both players see everything). Each (board, H) runs in a fresh
process limited to ``--seconds`` of wall time and ``--gigabytes`` of address space;
one that exceeds either is reported as such, and the larger H of that board are
skipped. Goals (issue 19): exploitability <= 1e-9 on 3 × 3 for H = 1..9 and on 3 × 4
for H = 1..8, each H within 5 minutes and 4 GB on 2 cores.

Run: ``.venv/bin/python benchmarks/bench_samarra_hidden.py`` (3x3 to H = 9, 3x4 to
H = 8), or ``--boards 3x3 --max-horizon 5`` for a quick check.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

_CHILD = """
import json, resource, sys, time
from samarra import Rules
from samarra.hidden import solve_hidden
width, length, horizon = (int(v) for v in sys.argv[1:4])
start = time.perf_counter()
s = solve_hidden(Rules(width=width, length=length), horizon)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps({"states": s.n_states, "infosets": list(s.n_infosets),
                  "sequences": list(s.n_sequences), "seconds": seconds,
                  "exploitability": s.exploitability, "value": s.value, "peak_gb": peak}))
"""


def perfect_information_values(width: int, length: int, max_horizon: int) -> list[float]:
    """The perfect-information horizon values (setup game, value to Black) for H = 0..max."""
    from samarra import Rules, solve_horizon

    game = solve_horizon(Rules(width=width, length=length), max_horizon, progress=False)
    return game.summary["value to black"].tolist()


def run_one(width: int, length: int, horizon: int, seconds: float, gigabytes: float) -> dict:
    """One solve in a fresh process, limited in time and address space."""
    limit = int(gigabytes * 2**30)

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(width), str(length), str(horizon)],
                             capture_output=True, text=True, timeout=seconds, preexec_fn=cap,
                             check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"failed": f"over {seconds:.0f} s"}
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        return {"failed": "out of memory" if "MemoryError" in out.stderr else last[:60]}
    return json.loads(out.stdout)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", default=["3x3", "3x4"])
    parser.add_argument("--max-horizon", type=int, nargs="+", default=[9, 8],
                        help="largest H, one per board (the last repeats)")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--gigabytes", type=float, default=4.0)
    args = parser.parse_args(argv)
    print(f"{'board':5} {'H':>2} {'states':>10} {'infosets B/W':>17} {'sequences B/W':>19} "
          f"{'time s':>7} {'GB':>5} {'exploitab.':>10} {'value':>9} {'perfect':>8}")  # fmt: skip
    for k, text in enumerate(args.boards):
        width, length = (int(v) for v in text.split("x"))
        max_h = args.max_horizon[min(k, len(args.max_horizon) - 1)]
        t0 = time.perf_counter()
        perfect = perfect_information_values(width, length, max_h)
        print(f"# {text}: perfect-information horizon values in {time.perf_counter() - t0:.1f} s",
              flush=True)
        for h in range(1, max_h + 1):
            r = run_one(width, length, h, args.seconds, args.gigabytes)
            if "failed" in r:
                print(f"{text:5} {h:>2} {r['failed']}; larger H skipped", flush=True)
                break
            info, seq = r["infosets"], r["sequences"]
            print(f"{text:5} {h:>2} {r['states']:>10,} {info[0]:>8,}/{info[1]:<8,} "
                  f"{seq[0]:>9,}/{seq[1]:<9,} {r['seconds']:>7.1f} {r['peak_gb']:>5.2f} "
                  f"{r['exploitability']:>10.1e} {r['value']:>9.5f} {perfect[h]:>8.4f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
