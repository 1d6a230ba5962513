import concurrent.futures as cf
import importlib
import json
import os

import numpy as np
import pandas as pd
import pytest

from tabletop.files import CacheWarning
from tabletop.sweep import (
    LOCK_NAME,
    STORE_VERSION,
    StoreWarning,
    _checksum,
    code_digest,
    expand_grid,
    sweep,
    task_seed,
)

GRID = {"n": [3, 10], "p": [0.25, 0.5, 0.75]}
CALLS: list[tuple] = []


def noisy(n, p, seed):
    """A small stochastic analysis: binomial draws from the task's seed."""
    draws = np.random.default_rng(seed).binomial(n, p, size=200)
    return {"mean": float(draws.mean()), "first": int(draws[0]), "even": bool(draws[0] % 2 == 0)}


STOP_AT: list[int] = []  # the call of `counted` that stops the whole sweep (like Ctrl-C)


def counted(n, p, seed):
    CALLS.append((n, p))
    if STOP_AT and len(CALLS) == STOP_AT[0]:
        raise KeyboardInterrupt
    return noisy(n, p, seed)


def fragile(n, p, seed):
    CALLS.append((n, p))
    if n == 10 and p == 0.5:
        raise ValueError(f"p={p} is not allowed with n={n}\nsecond line")
    return noisy(n, p, seed)


def table_knob(bands, seed):
    """An analysis whose knob is a table of (threshold, value) pairs."""
    CALLS.append(bands)
    return {"top": max(value for _, value in bands), "rows": len(bands)}


def series_result(n, p, seed):
    return pd.Series({"np": n * p, "label": f"{n}/{p}"})


@pytest.fixture(autouse=True)
def _reset_calls():
    CALLS.clear()
    STOP_AT.clear()


def expected_frame(seed) -> pd.DataFrame:
    """The sweep's contract written out: task i runs on the i-th spawned child."""
    variants = [(n, p) for n in GRID["n"] for p in GRID["p"]]
    children = np.random.SeedSequence(seed).spawn(len(variants))
    rows = [
        {"n": n, "p": p, **noisy(n, p, c)} for (n, p), c in zip(variants, children, strict=True)
    ]
    return pd.DataFrame(rows, index=pd.Index(range(len(rows)), name="task", dtype=np.int64))


def test_grid_order_and_explicit_variants():
    assert expand_grid({"a": [1, 2], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"},
    ]  # fmt: skip
    variants = expand_grid([{"a": np.int64(3), "f": [1, 2]}, {"a": 4, "f": (0,)}])
    assert variants == [{"a": 3, "f": (1, 2)}, {"a": 4, "f": (0,)}]
    assert type(variants[0]["a"]) is int


@pytest.mark.parametrize(
    ("grid", "error", "match"),
    [
        ({}, ValueError, "no knob"),
        ([], ValueError, "no variant"),
        ({"n": []}, ValueError, "'n' has no values"),
        ({"n": 5}, TypeError, "'n' must map to a list"),
        ({"n": "456"}, TypeError, "'n' must map to a list"),
        ({"seed": [1]}, ValueError, "may not be named 'seed'"),
        ({"n-dice": [1]}, ValueError, "identifiers"),
        ({"n": [object()]}, TypeError, "grid knob 'n': values must be"),
        ({"n": [float("nan")]}, ValueError, "finite"),
        ([5], TypeError, r"grid\[0\] must be a mapping"),
        ("n=1", TypeError, "grid must be a mapping"),
    ],
)
def test_bad_grids(grid, error, match):
    with pytest.raises(error, match=match):
        sweep(noisy, grid, seed=0, jobs=1)


def test_table_valued_knobs_sweep_and_resume(tmp_path):
    # a rule knob can be a table (e.g. an exchange-rate table of (stock, rate) pairs)
    tables = [((13, 1), (10, 2), (0, 6)), ((10, 1), (0, 3))]
    first = sweep(table_knob, {"bands": tables}, seed=4, jobs=1, store=tmp_path)
    assert first.frame["bands"].tolist() == tables
    assert first.frame["top"].tolist() == [6, 3]
    assert first.frame["rows"].tolist() == [3, 2]
    assert len(CALLS) == 2
    again = sweep(table_knob, {"bands": tables}, seed=4, jobs=1, store=tmp_path)
    assert len(CALLS) == 2  # both read back from the store, none recomputed
    pd.testing.assert_frame_equal(again.frame, first.frame)


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError, match="analysis must be callable"):
        sweep(5, GRID, jobs=1)
    with pytest.raises(ValueError, match="jobs must be >= 1"):
        sweep(noisy, GRID, jobs=0)
    with pytest.raises(ValueError, match="'n' is both a grid knob and a fixed argument"):
        sweep(noisy, GRID, fixed={"n": 3}, jobs=1)
    with pytest.raises(ValueError, match="store needs a reproducible seed"):
        sweep(noisy, GRID, store=tmp_path, jobs=1)
    with pytest.raises(TypeError, match="executor must be"):
        sweep(noisy, GRID, seed=0, executor="cluster")
    with pytest.raises(TypeError, match="cannot be sent to worker processes"):
        sweep(lambda n, p, seed: {}, GRID, seed=0, jobs=2)


def test_task_seeds_follow_spawn():
    root = np.random.SeedSequence(11)
    root.spawn(4)  # spawning before does not shift the tasks' seeds
    fresh = np.random.SeedSequence(11).spawn(6)
    for i in range(6):
        assert (task_seed(root, i).generate_state(4) == fresh[i].generate_state(4)).all()


def test_serial_matches_the_seeding_contract():
    res = sweep(noisy, GRID, seed=42, jobs=1)
    assert res.ok and res.n_tasks == 6 and res.n_cached == 0
    pd.testing.assert_frame_equal(res.frame, expected_frame(42))
    again = sweep(noisy, GRID, seed=np.random.SeedSequence(42), jobs=1)
    pd.testing.assert_frame_equal(again.frame, res.frame)
    other = sweep(noisy, GRID, seed=43, jobs=1)
    assert not other.frame["mean"].equals(res.frame["mean"])


def test_same_numbers_on_every_executor():
    expected = expected_frame(7)
    pool = sweep(noisy, GRID, seed=7, jobs=2)
    pd.testing.assert_frame_equal(pool.frame, expected)
    with cf.ThreadPoolExecutor(3) as threads:
        pd.testing.assert_frame_equal(sweep(noisy, GRID, seed=7, executor=threads).frame, expected)
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = sweep(noisy, GRID, seed=7, executor=client)
    pd.testing.assert_frame_equal(on_dask.frame, expected)


def test_interrupted_sweep_resumes(tmp_path):
    STOP_AT.append(4)
    with pytest.raises(KeyboardInterrupt):
        sweep(counted, GRID, seed=3, jobs=1, store=tmp_path, name="demo")
    assert len(list(tmp_path.glob("task-*.json"))) == 3  # the tasks finished before the stop
    CALLS.clear()
    STOP_AT.clear()
    res = sweep(counted, GRID, seed=3, jobs=1, store=tmp_path, name="demo")
    assert CALLS == [(10, 0.25), (10, 0.5), (10, 0.75)]  # only the unfinished tasks ran
    assert res.n_cached == 3
    pd.testing.assert_frame_equal(res.frame, expected_frame(3))
    CALLS.clear()
    res = sweep(counted, GRID, seed=3, jobs=1, store=tmp_path, name="demo")
    assert CALLS == [] and res.n_cached == 6
    pd.testing.assert_frame_equal(res.frame, expected_frame(3))


def test_store_is_keyed_by_seed_name_and_fixed(tmp_path):
    sweep(counted, GRID, seed=3, jobs=1, store=tmp_path, name="demo")
    assert sweep(counted, GRID, seed=4, jobs=1, store=tmp_path, name="demo").n_cached == 0
    assert sweep(counted, GRID, seed=3, jobs=1, store=tmp_path, name="other").n_cached == 0
    sub = sweep(counted, {"n": [10], "p": [0.5]}, seed=3, jobs=1, store=tmp_path, name="demo")
    assert sub.n_cached == 0  # task 0 of another grid has another seed


def test_one_failing_task_is_reported_and_the_rest_kept(tmp_path):
    res = sweep(fragile, GRID, seed=5, jobs=1, store=tmp_path, name="fragile")
    assert not res.ok
    assert res.failures.index.tolist() == [4]
    assert res.failures.loc[4].to_dict() == {
        "n": 10, "p": 0.5, "error": "ValueError: p=0.5 is not allowed with n=10",
    }  # fmt: skip
    expected = expected_frame(5).drop(index=4)
    pd.testing.assert_frame_equal(res.frame, expected)
    with pytest.raises(RuntimeError, match=r"1 of 6 sweep tasks failed: task 4 \(n=10, p=0.5\)"):
        res.check()
    CALLS.clear()
    again = sweep(fragile, GRID, seed=5, jobs=1, store=tmp_path, name="fragile")
    assert CALLS == [(10, 0.5)] and again.n_cached == 5  # only the failed task is retried


def test_failures_on_a_process_pool_keep_the_rest(tmp_path):
    res = sweep(fragile, GRID, seed=5, jobs=2, store=tmp_path)
    assert res.failures.index.tolist() == [4]
    pd.testing.assert_frame_equal(res.frame, expected_frame(5).drop(index=4))
    CALLS.clear()
    again = sweep(fragile, GRID, seed=5, jobs=1, store=tmp_path)  # what the workers stored
    assert CALLS == [(10, 0.5)] and again.n_cached == 5


def _rewrite(path, record, *, seal: bool) -> None:
    """Write ``record`` to ``path``, with a matching checksum when ``seal``."""
    if seal:
        record["checksum"] = _checksum(record["key"], record["result"])
    path.write_text(json.dumps(record))


def test_damaged_or_foreign_store_files_are_recomputed_with_a_warning(tmp_path):
    first = sweep(counted, GRID, seed=8, jobs=1, store=tmp_path, name="demo")
    files = sorted(tmp_path.glob("task-*.json"))
    records = {f: json.loads(f.read_text()) for f in files}
    by_task = sorted(files, key=lambda f: records[f]["key"]["seed"]["spawn_key"][-1])
    by_task[0].write_text('{"format": "tabletop.sweep", "version"')  # truncated
    rec = records[by_task[1]]
    rec["version"] = STORE_VERSION + 1
    _rewrite(by_task[1], rec, seal=True)
    rec = records[by_task[2]]
    rec["key"]["knobs"]["p"] = 0.9  # a file holding another task, checksum and all
    _rewrite(by_task[2], rec, seal=True)
    rec = records[by_task[3]]
    rec["result"]["mean"] = [1, 2]  # not a scalar, checksum and all
    _rewrite(by_task[3], rec, seal=True)
    rec = records[by_task[4]]
    rec["result"]["mean"] += 1e-12  # one figure changed, the checksum not
    _rewrite(by_task[4], rec, seal=False)
    CALLS.clear()
    with pytest.warns(StoreWarning) as caught:
        res = sweep(counted, GRID, seed=8, jobs=1, store=tmp_path, name="demo")
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 5
    for path, problem in [
        (by_task[0], "cannot be read as JSON"),
        (by_task[1], f"has format version {STORE_VERSION + 1}, not {STORE_VERSION}"),
        (by_task[2], "holds another task"),
        (by_task[3], "holds a result that is not a table of scalars"),
        (by_task[4], "fails its checksum"),
    ]:
        start = f"sweep store record {path} {problem}"
        assert any(m.startswith(start) and m.endswith(": its task is computed again")
                   for m in messages), (start, messages)  # fmt: skip
    assert CALLS == [(3, 0.25), (3, 0.5), (3, 0.75), (10, 0.25), (10, 0.5)]
    assert res.n_cached == 1
    pd.testing.assert_frame_equal(res.frame, first.frame)
    record = json.loads(by_task[0].read_text())
    assert record["result"] == noisy(3, 0.25, task_seed(np.random.SeedSequence(8), 0))
    assert record["checksum"] == _checksum(record["key"], record["result"])  # rewritten whole
    CALLS.clear()
    again = sweep(counted, GRID, seed=8, jobs=1, store=tmp_path, name="demo")
    assert CALLS == [] and again.n_cached == 6


def nan_result(n, p, seed):
    return {"value": float("nan") if n == 3 else n * p}


def test_nan_results_pass_their_checksum(tmp_path):
    first = sweep(nan_result, GRID, seed=1, jobs=1, store=tmp_path)
    again = sweep(nan_result, GRID, seed=1, jobs=1, store=tmp_path)  # warnings are errors
    assert again.n_cached == 6
    pd.testing.assert_frame_equal(again.frame, first.frame)


def version_one(n, p, seed):
    CALLS.append((n, p))
    return {"value": n * p}


def test_results_of_other_code_are_not_reused(tmp_path, monkeypatch):
    S = importlib.import_module("tabletop.sweep")  # tabletop.sweep is also the function

    sweep(version_one, GRID, seed=2, jobs=1, store=tmp_path, name="demo")
    record = json.loads(next(tmp_path.glob("task-*.json")).read_text())
    assert record["key"]["code"] == {
        "library": S._library_version(),
        "sources": S._library_digest(),
        "analysis": code_digest(version_one),
    }
    CALLS.clear()
    assert sweep(version_one, GRID, seed=2, jobs=1, store=tmp_path, name="demo").n_cached == 6

    def version_two(n, p, seed):  # stored under the same name, other code
        CALLS.append((n, p))
        return {"value": n * p + 1}

    res = sweep(version_two, GRID, seed=2, jobs=1, store=tmp_path, name="demo")
    assert res.n_cached == 0 and res.frame["value"].tolist()[0] == 3 * 0.25 + 1
    for what, value in [("_library_version", "9.9.9"), ("_library_digest", "0" * 64)]:
        monkeypatch.setattr(S, what, lambda value=value: value)
        assert sweep(version_one, GRID, seed=2, jobs=1, store=tmp_path, name="demo").n_cached == 0
        monkeypatch.undo()


class Scaled:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, n, seed):
        return {"value": n * self.factor}


def test_code_digest_of_partials_objects_and_functions_without_source():
    import functools

    a = functools.partial(nan_result, p=0.5)
    assert code_digest(a) == code_digest(functools.partial(nan_result, p=0.5))
    assert code_digest(a) != code_digest(functools.partial(nan_result, p=0.25))
    assert code_digest(Scaled(2)) == code_digest(Scaled(3))  # its class's source
    space: dict = {}
    exec("def f(seed):\n    return {'x': 1}\ndef g(seed):\n    return {'x': 2}\n", space)
    assert code_digest(space["f"]) != code_digest(space["g"])
    exec("def f(seed):\n    return {'x': 1}\n", space)
    first = space["f"]
    exec("def f(seed):\n    return {'x': 1}\n", space)
    assert code_digest(space["f"]) == code_digest(first)


def test_a_second_sweep_on_a_locked_store_stops_at_once(tmp_path):
    import fcntl

    with open(tmp_path / LOCK_NAME, "a+") as other:
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        other.write("process 4242 on elsewhere\n")
        other.flush()
        with pytest.raises(ValueError, match=r"store='.*' is being written by another sweep "
                           r"\(process 4242 on elsewhere holds sweep.lock\)"):  # fmt: skip
            sweep(counted, GRID, seed=1, jobs=1, store=tmp_path)
        assert CALLS == []
    res = sweep(counted, GRID, seed=1, jobs=1, store=tmp_path)  # released: it runs
    assert res.ok and len(CALLS) == 6
    assert f"process {os.getpid()} on " in (tmp_path / LOCK_NAME).read_text()


def nested(n, seed, store):
    return sweep(counted, GRID, seed=1, jobs=1, store=store).frame.iloc[0].to_dict()


def test_a_sweep_inside_a_sweep_may_not_write_the_same_store(tmp_path):
    res = sweep(nested, {"n": [1]}, fixed={"store": str(tmp_path)}, seed=1, jobs=1,
                store=tmp_path)  # fmt: skip
    assert res.failures["error"].str.contains("is being written by another sweep").all()


def test_an_unwritable_store_is_refused_before_any_task(tmp_path):
    (tmp_path / "file").write_text("a file, not a folder")
    with pytest.raises(ValueError, match=r"store='.*file/store' cannot be written"):
        sweep(counted, GRID, seed=1, jobs=1, store=tmp_path / "file" / "store")
    assert CALLS == []


def test_a_write_failing_mid_sweep_keeps_the_result(tmp_path, monkeypatch):
    import errno

    S = importlib.import_module("tabletop.sweep")  # tabletop.sweep is also the function

    def full(path, text, tidy=True):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(S, "atomic_write_text", full)
    with pytest.warns(CacheWarning, match=rf"cache folder {tmp_path} \(No space left"):
        res = sweep(noisy, GRID, seed=42, jobs=1, store=tmp_path)
    pd.testing.assert_frame_equal(res.frame, expected_frame(42))


def test_a_sweep_removes_temporaries_of_killed_writes(tmp_path):
    import subprocess

    from tabletop import files

    proc = subprocess.Popen(["true"])
    proc.wait()
    stale = tmp_path / f".task-x.json.tabletop-{files._TAG}-{proc.pid}-abc.tmp"
    stale.write_text("{")
    sweep(counted, GRID, seed=1, jobs=1, store=tmp_path)
    assert not stale.exists()
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json"] * 6 + [".lock"]


def test_results_as_series_and_bad_results():
    res = sweep(series_result, {"n": [2], "p": [0.5]}, jobs=1)
    assert res.frame.loc[0].to_dict() == {"n": 2, "p": 0.5, "np": 1.0, "label": "2/0.5"}

    def bad(n, seed):
        return {"n": 1} if n == 1 else ({"x": [n]} if n == 2 else n)

    res = sweep(bad, {"n": [1, 2, 3]}, jobs=1)
    assert res.frame.empty and res.frame.columns.tolist() == ["n"]
    assert res.failures["error"].tolist() == [
        "ValueError: result 'n' has the name of a knob",
        "TypeError: result 'x' must be a scalar (number, string, boolean or None), got list",
        "TypeError: the analysis must return a mapping, a pandas Series or a pandas "
        "DataFrame, got int",
    ]


def test_fixed_arguments_and_progress(capsys):
    def scaled(n, scale, seed):
        return {"value": n * scale}

    res = sweep(scaled, {"n": [1, 2]}, fixed={"scale": 3}, jobs=1, progress=True)
    assert res.frame["value"].tolist() == [3, 6] and res.fixed == {"scale": 3}
    assert "2/2" in capsys.readouterr().err
    sweep(scaled, {"n": [1, 2]}, fixed={"scale": 3}, jobs=1)
    assert capsys.readouterr().err == ""  # no bar when not on a terminal
