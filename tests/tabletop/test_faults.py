"""Faults lose nothing: a process killed with SIGKILL mid-way, or a cache folder that
cannot be written.

Each kill test starts a fresh Python process on a small job (a Samarra table written
to its cache, a sweep with a store and two worker processes, the notebook runner on a
three-cell notebook), waits until it is inside the step under test, kills it with
SIGKILL (nothing in the process runs after that signal) and checks that

* no process it started survives it (worker processes, the notebook's kernel),
* the same job run again finishes with exactly the results of an uninterrupted run,
* no temporary file of the killed write is left in the folder afterwards.

A cache folder that cannot be written (here: a path through a regular file, which
fails even for root) never costs the computed result: it is returned with a
:class:`tabletop.files.CacheWarning` naming the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import selectors
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tabletop.files import CacheWarning

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[2]


# ---- running and killing a job -------------------------------------------------------


def _start(script: str, *args: str, path: tuple = (), env: dict | None = None):
    """Run ``script`` (Python source) in a new process group of its own."""
    environ = {**os.environ, **(env or {})}
    environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *map(str, path)])
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ,
        start_new_session=True,
    )  # fmt: skip


def _wait_line(proc, start: str, timeout: float) -> str:
    """The first line of ``proc``'s stdout beginning with ``start``."""
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if selector.select(deadline - time.monotonic()):
            line = proc.stdout.readline()
            if line.startswith(start):
                return line
            if not line:
                break
    raise AssertionError(f"no line {start!r} from the job: {proc.stderr.read()[-2000:]}")


def _wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _kill(proc, grace: float = 10.0) -> list:
    """SIGKILL ``proc`` alone; return its descendants still alive ``grace`` s later
    (then killed, so that no test leaves a process behind)."""
    family = psutil.Process(proc.pid).children(recursive=True)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(5)
    _, alive = psutil.wait_procs(family, timeout=grace)
    for child in alive:
        child.kill()
    return alive


def _finish(proc, timeout: float = 120) -> str:
    with proc:
        out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-3000:]
    return out


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.tmp"))


# ---- a cache write -------------------------------------------------------------------

SOLVE = """
    import hashlib, os, sys, time
    if len(sys.argv) > 2:  # hold the write after its data, before the rename
        def stall(fd):
            print("writing", flush=True)
            time.sleep(120)
        os.fsync = stall
    from samarra import Rules, solve
    table = solve(Rules(length=3), directory=sys.argv[1])
    print("digest", hashlib.sha256(table.dist.tobytes()).hexdigest(), flush=True)
"""


def _table_digest() -> str:
    from samarra import Rules, solve

    return hashlib.sha256(solve(Rules(length=3), cache=False).dist.tobytes()).hexdigest()


@pytest.mark.slow
def test_sigkill_during_a_cache_write(tmp_path):
    folder = tmp_path / "samarra"
    with _start(SOLVE, str(folder), "stall") as proc:
        try:
            # the solve compiles its kernels first when their cache is cold (a fresh
            # clone): more than a minute on a loaded machine
            _wait_line(proc, "writing", 240)
            assert len(_temporaries(folder)) == 1  # the killed write's temporary
            assert _kill(proc) == []
        finally:
            proc.kill()
    assert not list(folder.glob("*.npz"))
    rerun = _finish(_start(SOLVE, str(folder)))
    assert rerun.split() == ["digest", _table_digest()]
    assert _temporaries(folder) == []
    from samarra import Rules
    from samarra.solve import cache_path, load_table, n_states

    stored = load_table(cache_path(Rules(length=3), folder), Rules(length=3),
                        n_states(Rules(length=3)))  # fmt: skip
    assert hashlib.sha256(stored.tobytes()).hexdigest() == rerun.split()[1]  # whole


# ---- a sweep -------------------------------------------------------------------------

ANALYSES = """
import time

import numpy as np


def slow(n, p, seed):
    time.sleep(0.5)
    draws = np.random.default_rng(seed).binomial(n, p, size=500)
    return {"mean": float(draws.mean()), "first": int(draws[0])}
"""

GRID = {"n": [3, 10, 30], "p": [0.2, 0.4, 0.6, 0.8]}

SWEEP = f"""
    import json, sys
    from tabletop import sweep
    from fault_analyses import slow
    res = sweep(slow, {GRID!r}, seed=5, jobs=2, store=sys.argv[1], name="faults.slow",
                progress=False)
    print("cached", res.n_cached, flush=True)
    print("frame", json.dumps(res.frame.reset_index().to_dict("split")), flush=True)
"""


def _reference_frame(folder: Path) -> dict:
    """The frame of an uninterrupted sweep, in this process, with no store."""
    sys.path.insert(0, str(folder))
    try:
        from fault_analyses import slow

        from tabletop import sweep

        frame = sweep(slow, GRID, seed=5, jobs=1, name="faults.slow").frame
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("fault_analyses", None)
    return json.loads(json.dumps(frame.reset_index().to_dict("split")))


@pytest.mark.slow
def test_sigkill_during_a_sweep_leaves_no_worker_and_loses_nothing(tmp_path):
    (tmp_path / "fault_analyses.py").write_text(ANALYSES)
    store = tmp_path / "store"
    with _start(SWEEP, str(store), path=(tmp_path,)) as proc:
        try:
            _wait_until(lambda: len(list(store.glob("task-*.json"))) >= 3, 60, "3 stored tasks")
            workers = psutil.Process(proc.pid).children(recursive=True)
            assert len(workers) >= 2
            assert _kill(proc, grace=5) == []  # every worker ended with its parent
        finally:
            proc.kill()
    done = len(list(store.glob("task-*.json")))
    assert 3 <= done < 12
    rerun = _finish(_start(SWEEP, str(store), path=(tmp_path,))).splitlines()
    assert rerun[0] == f"cached {done}"  # what the killed sweep stored, nothing recomputed
    assert json.loads(rerun[1].removeprefix("frame ")) == _reference_frame(tmp_path)
    assert _temporaries(store) == [] and len(list(store.glob("task-*.json"))) == 12


# ---- a report run --------------------------------------------------------------------


def _tiny_notebook(path: Path) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    parameters = nbformat.v4.new_code_cell('SIZE = "full"\nRULES = {}')
    parameters.metadata["tags"] = ["parameters"]
    stall = textwrap.dedent("""\
        import os, pathlib, time
        if os.environ.get("FAULT_MARK"):  # hold the report's write, as the kill finds it
            def stall(fd):
                pathlib.Path(os.environ["FAULT_MARK"]).write_text("writing")
                time.sleep(120)
            os.fsync = stall""")
    nb.cells = [
        parameters,
        nbformat.v4.new_markdown_cell("# Tiny\n\nA report of three cells."),
        nbformat.v4.new_code_cell(
            "import numpy as np\nfrom tabletop.report import Report\n"
            'report = Report("tiny", "Tiny")\n'
            "report.text(f\"Sum of squares: {int((np.arange(SIZE == 'small' and 10 or 20) "
            '** 2).sum())}.")'
        ),
        nbformat.v4.new_code_cell(stall),
        nbformat.v4.new_code_cell("report.write()"),
    ]
    nbformat.write(nb, path)
    return path


RUNNER = """
    import sys
    from tabletop.notebooks import main
    jobs = sys.argv[3] if len(sys.argv) > 3 else "1"
    sys.exit(main([sys.argv[1], "--size", "small", "--report-dir", sys.argv[2], "--jobs", jobs]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])  # the kernel under the runner, or under a worker
def test_sigkill_during_a_report_run(tmp_path, jobs):
    notebook = _tiny_notebook(tmp_path / "tiny.ipynb")
    reports, fresh, mark = tmp_path / "reports", tmp_path / "fresh", tmp_path / "mark"
    env = {"FAULT_MARK": str(mark)}
    with _start(RUNNER, str(notebook), str(reports), jobs, env=env) as proc:
        try:
            _wait_until(mark.exists, 60, "the report's write")
            assert len(_temporaries(reports)) == 1
            alive = _kill(proc)
        finally:
            proc.kill()
    assert alive == []  # the notebook's kernel (and worker) ended with the runner
    assert not (reports / "tiny.md").exists()
    _finish(_start(RUNNER, str(notebook), str(reports)))
    _finish(_start(RUNNER, str(notebook), str(fresh)))
    assert (reports / "tiny.md").read_text() == (fresh / "tiny.md").read_text()
    assert "Sum of squares: 285." in (reports / "tiny.md").read_text()
    assert _temporaries(reports) == []


# ---- unwritable cache folders --------------------------------------------------------


CARD = """
    import time
    import citadel.analyses as analyses
    from citadel import Rules

    def stall(*args, **kwargs):  # the card's own part, held while its worker runs
        print("ready", flush=True)
        time.sleep(120)

    analyses._main_entries = stall
    analyses.balance(Rules(radius=1, capital=10, bid_step=5), n_games=10, duel_grid=5,
                     coalition_grid=5, jobs=2, compass=False)
"""


@pytest.mark.slow
def test_sigkill_during_a_citadel_card_leaves_no_worker():
    # the coalitions of a Citadel card solved in a worker process (jobs=2): the worker,
    # idle or busy, ends with the process that started it
    with _start(CARD) as proc:
        try:
            _wait_line(proc, "ready", 240)
            _wait_until(lambda: psutil.Process(proc.pid).children(), 60, "the worker")
            time.sleep(2)  # the worker past its start-up
            assert _kill(proc) == []
        finally:
            proc.kill()


@pytest.fixture
def blocked(tmp_path) -> Path:
    """A folder path that cannot be created: it runs through a regular file."""
    (tmp_path / "file").write_text("a file, not a folder")
    return tmp_path / "file" / "cache"


def test_a_solved_table_is_returned_when_its_cache_folder_is_unwritable(blocked):
    from samarra import Rules, solve

    with pytest.warns(CacheWarning, match=rf"solved table .* cache folder {blocked} \("):
        table = solve(Rules(length=3), directory=blocked)
    assert np.array_equal(table.dist, solve(Rules(length=3), cache=False).dist)


def test_a_horizon_row_is_returned_when_its_cache_folder_is_unwritable(blocked):
    from samarra import Rules, solve
    from samarra.analyses import horizon_row

    table = solve(Rules(length=3), cache=False)
    with pytest.warns(CacheWarning, match=rf"horizon-2 row .* cache folder {blocked} \("):
        row = horizon_row(table, 2, cache_dir=blocked)
    assert set(row) == {"value to first mover", "draw"}


def test_a_balance_card_is_returned_when_its_cache_folder_is_unwritable(blocked, monkeypatch):
    from commander import Rules
    from tabletop.balance import cached_balance

    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(blocked))
    with pytest.warns(CacheWarning, match=rf"commander balance card .* {blocked / 'cards'} \("):
        card = cached_balance("commander", Rules(win_gold=6), n_games=200, seed=0)
    fresh = cached_balance("commander", Rules(win_gold=6), n_games=200, seed=0, cache=False)
    pd.testing.assert_frame_equal(card, fresh)
