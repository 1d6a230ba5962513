"""The probe of the public API at a larger size: how many calls, and what became of them.

Draws calls from the same list as ``tests/test_probe.py`` (:data:`tests.test_probe.API`):
for every exported callable, ``--bad`` calls with one argument replaced by a value its
kind refuses and ``--valid`` calls with small legal arguments (one for a solve), then
prints a Markdown table of the outcomes (:func:`tests.test_probe.classify`): calls
tried, clear errors (a TypeError/ValueError naming the parameter), unclear errors,
silent wrong results and crashes (another exception, or no answer within the
deadline), by package and in total, and a line for each call that was not what it
should be (``--details``).

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_probe.py [--bad 40] [--valid 4]``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _run(qualified: str, bad: bool, n: int, tmp: Path, counts, problems: list) -> None:
    """Draw ``n`` calls of ``qualified`` (bad or valid) and count their outcomes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.test_probe import classify, draw_call

    @settings(max_examples=n, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(data=st.data())
    def probe(data):
        kwargs, name, value = draw_call(data, qualified, bad, tmp)
        outcome, detail = classify(qualified, kwargs, name)
        counts[outcome] += 1
        counts["tried"] += 1
        counts["bad calls"] += bad
        if outcome != ("clear error" if bad else "ok"):
            shown = f"{name}={value!r}" if bad else "valid"
            problems.append(f"{qualified}({shown}): {outcome}: {detail}"[:300])

    probe()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bad", type=int, default=40, help="bad calls per callable")
    parser.add_argument("--valid", type=int, default=4, help="valid calls per callable")
    parser.add_argument("--only", nargs="*", default=None, help="qualified names to probe")
    parser.add_argument("--details", action="store_true", help="list every failed call")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="probe-"))
    os.environ["TABLETOP_CACHE_DIR"] = str(tmp)

    from tests.test_probe import API, OUTCOMES, PROBED

    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    problems: list[str] = []
    names = args.only or PROBED
    start = time.perf_counter()
    for qualified in names:
        entry = API[qualified]
        package = qualified.split(".")[0]
        can_be_bad = any(k and k.bad for k in entry.params.values())
        for bad, n in ((True, args.bad if can_be_bad else 0),
                       (False, 1 if entry.slow else args.valid)):  # fmt: skip
            if n == 0:
                continue

            _run(qualified, bad, n, tmp, counts[package], problems)
    seconds = time.perf_counter() - start

    total = collections.Counter()
    for c in counts.values():
        total.update(c)
    columns = ("tried", "ok", "clear error", "unclear error", "silent wrong", "crash")
    assert set(columns) - {"tried"} == set(OUTCOMES)
    print(f"Probe of {len(names)} exported callables: {args.bad} bad and {args.valid} valid "
          f"calls each (one valid call of a solve), {seconds:.0f} s")
    print()
    print("| package | calls tried | valid ok | clear errors | unclear errors | "
          "silent wrong | crashes | clear share of bad calls |")
    print("|---|---|---|---|---|---|---|---|")
    for package, c in [*sorted(counts.items()), ("total", total)]:
        share = 100 * c["clear error"] / max(c["bad calls"], 1)
        print(f"| {package} | " + " | ".join(str(c[k]) for k in columns) + f" | {share:.1f}% |")
    unique = sorted(set(problems))
    print()
    print(f"{len(problems)} calls not as they should be ({len(unique)} distinct)")
    if args.details:
        for line in unique:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
