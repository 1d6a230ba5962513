"""Speed of ``panache.solve_three`` at a few start points, and its per-class results.

For each ``--start`` value (default 8 12 20) the solve runs once after a warm-up on tiny
rules; printed: wall seconds, process CPU seconds, the exact share and the time of the
exact search (thread time of :func:`panache._three_exact.solve_mixed_class`, by method).
With ``--save DIR`` each solve's per-class results (methods, regrets, held exchanges)
and its whole table of chances and mixing chances are written to
``DIR/three_<start>.npz``; ``--compare OLD NEW`` reads two such directories and
reports, per start point, whether the same classes are exact and the largest
difference of the values of the classes exact in both.

Run: ``.venv/bin/python benchmarks/bench_three.py [--start 8 12 20] [--save DIR]`` or
``.venv/bin/python benchmarks/bench_three.py --compare OLD_DIR NEW_DIR``.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import threading
import time

import numpy as np

REGRET = 1e-9


def _timed_search(times):
    """Wrap the exact search so its thread time is summed per method."""
    import panache.three as three_module

    original = three_module.solve_mixed_class
    lock = threading.Lock()

    def timed(ctx, three, a, b, c):
        start = time.thread_time()
        out = original(ctx, three, a, b, c)
        spent = time.thread_time() - start
        with lock:
            times[out[0]][0] += spent
            times[out[0]][1] += 1
        return out

    three_module.solve_mixed_class = timed
    return original


def run(starts, save):
    import numba

    from panache import Rules, solve_three

    solve_three(Rules(start_points=3, n_dice=2))  # compile
    print(f"solve_three, numba {numba.__version__}, {numba.get_num_threads()} threads")
    for start in starts:
        rules = Rules(start_points=start)
        solve_three.cache_clear()
        times = collections.defaultdict(lambda: [0.0, 0])
        _timed_search(times)
        wall, cpu = time.perf_counter(), time.process_time()
        sol = solve_three(rules)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        classes = sol.classes
        exact = classes["regret"] <= REGRET
        search = ", ".join(f"{m} {t:.1f} s / {n}" for m, (t, n) in sorted(times.items()))
        print(f"start {start}: {len(classes):,} classes, {wall:.1f} s wall, {cpu:.1f} s CPU, "
              f"{int(exact.sum()):,} exact ({exact.mean():.1%}); search thread time: "
              f"{search}", flush=True)  # fmt: skip
        if save:
            path = pathlib.Path(save)
            path.mkdir(parents=True, exist_ok=True)
            np.savez(path / f"three_{start}.npz",
                     cycles=np.array(classes.index.to_list()),
                     regret=classes["regret"].to_numpy(),
                     method=classes["method"].to_numpy().astype(str),
                     held=classes["held_exchanges"].to_numpy(),
                     table=sol._table, mix=sol._params["mix"],
                     wall=wall, cpu=cpu)  # fmt: skip


def compare(old_dir, new_dir):
    for path in sorted(pathlib.Path(old_dir).glob("three_*.npz")):
        new_path = pathlib.Path(new_dir) / path.name
        if not new_path.exists():
            continue
        old, new = np.load(path), np.load(new_path)
        assert np.array_equal(old["cycles"], new["cycles"])
        ex_old, ex_new = old["regret"] <= REGRET, new["regret"] <= REGRET
        both = ex_old & ex_new
        worst = 0.0
        for a, b, c in old["cycles"][both]:
            for s in ((a, b, c), (b, c, a), (c, a, b)):
                worst = max(worst, float(np.abs(old["table"][s] - new["table"][s]).max()))
        same_method = old["method"] == new["method"]
        print(f"{path.stem}: exact {ex_old.sum():,} -> {ex_new.sum():,}; lost "
              f"{int((ex_old & ~ex_new).sum())}, gained {int((~ex_old & ex_new).sum())}; "
              f"largest value difference over classes exact in both {worst:.2e}; methods "
              f"differ in {int((~same_method).sum())} classes; wall {float(old['wall']):.1f} "
              f"-> {float(new['wall']):.1f} s, CPU {float(old['cpu']):.1f} -> "
              f"{float(new['cpu']):.1f} s")  # fmt: skip
        for i in np.flatnonzero(~same_method)[:20]:
            print(f"    {tuple(old['cycles'][i])}: {old['method'][i]} ({old['regret'][i]:.1e}) "
                  f"-> {new['method'][i]} ({new['regret'][i]:.1e})")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, nargs="+", default=[8, 12, 20])
    parser.add_argument("--save", default=None)
    parser.add_argument("--compare", nargs=2, default=None)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        run(args.start, args.save)


if __name__ == "__main__":
    main()
