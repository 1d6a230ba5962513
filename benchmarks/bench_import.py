"""What importing each package costs in a fresh process, beside its baselines.

Each line is the median of ``RUNS`` fresh interpreters (``sys.executable -c ...``):

* ``import`` is the time the import statement itself takes, read inside the process
  (``time.perf_counter`` around it), so the interpreter's start-up is left out;
* ``process`` is the whole process from outside, start-up and exit included.

The baselines are measured in the same run: an empty interpreter (``pass``), numpy,
and numba (every game's kernels need it, so it is the floor of a game's import; it
imports scipy's top package and its private ``scipy._lib`` helpers, no other part of
scipy). The packages import pandas, the rest of scipy and tqdm only where they are
used (``tests/test_imports.py`` holds them to that).

Run: ``.venv/bin/python benchmarks/bench_import.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 9
ROOT = Path(__file__).resolve().parent.parent
BASELINES = {"python -c pass": "pass", "import numpy": "import numpy",
             "import numba": "import numba"}  # fmt: skip
PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")

_TIMED = ("import time; _t = time.perf_counter(); {statement}; "
          "print(time.perf_counter() - _t)")  # fmt: skip


def one_run(statement: str) -> tuple[float, float]:
    """(seconds of the statement inside the process, seconds of the whole process)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))  # fmt: skip
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _TIMED.format(statement=statement)],
                         capture_output=True, text=True, check=True, env=env)  # fmt: skip
    whole = time.perf_counter() - start
    return float(out.stdout.strip()), whole


def median_run(statement: str, runs: int = RUNS) -> tuple[float, float]:
    """Medians over ``runs`` fresh processes, after one that is not counted."""
    one_run(statement)  # disk caches warm
    inner, whole = zip(*(one_run(statement) for _ in range(runs)), strict=True)
    return statistics.median(inner), statistics.median(whole)


def main() -> None:
    print(f"median of {RUNS} fresh processes each (seconds)")
    print(f"{'':24s} {'import':>8s} {'process':>8s}")
    for label, statement in BASELINES.items():
        inner, whole = median_run(statement)
        print(f"{label:24s} {inner:8.3f} {whole:8.3f}")
    for name in PACKAGES:
        inner, whole = median_run(f"import {name}")
        print(f"{'import ' + name:24s} {inner:8.3f} {whole:8.3f}")


if __name__ == "__main__":
    main()
