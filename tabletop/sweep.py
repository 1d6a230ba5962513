"""Run one analysis over a grid of rule variants, on one machine or a cluster.

:func:`sweep` calls ``analysis(**knobs, **fixed, seed=child)`` once per variant
(a *task*) and gathers the results in a tidy :class:`pandas.DataFrame`: one row per
variant, the knobs as the first columns, the analysis's results after them.

* **Grid.** A mapping ``knob -> list of values`` stands for the Cartesian product of
  the lists (the first knob varies slowest, as in :func:`itertools.product`); an
  explicit list of mappings gives the variants one by one. Task ``i`` is the ``i``-th
  variant in that order.
* **Seeds.** Task ``i`` receives the ``i``-th child of the root
  :class:`numpy.random.SeedSequence` (:func:`tabletop.seeding.as_seed_sequence` of
  ``seed``): ``SeedSequence(root.entropy, spawn_key=root.spawn_key + (i,))``, which is
  what ``root.spawn`` returns for a fresh root. A task's numbers therefore depend on
  the seed and on its place in the grid, never on the executor, the number of
  workers or the order in which tasks finish. Deterministic analyses ignore it.
* **Results.** The analysis returns a mapping (or a :class:`pandas.Series`) of
  scalars: numbers, strings, booleans or None. Each becomes a column. An analysis
  may also return a :class:`pandas.DataFrame` of such scalars (a *table*, e.g. a
  balance card): each of its rows becomes a row of the sweep's frame, the knobs
  repeated, so a grid of variants gives one tidy frame of tables.
* **Named analyses.** ``analysis="<game>.balance"`` runs the balance card of a game
  of the registry (:mod:`tabletop.games`, :func:`tabletop.balance.balance_task`): a
  grid knob that is a field of the game's rules changes the rules, a fixed argument
  that is not (``n_games``...) goes to its ``balance``.
* **Executors.** ``executor=None`` runs ``jobs`` local worker processes
  (:class:`concurrent.futures.ProcessPoolExecutor`, started with ``spawn``; ``jobs=1``
  runs every task in the calling process). Each worker watches its parent and ends
  within a fraction of a second when the sweep's process is gone (killed with
  SIGKILL, for instance), so no orphan goes on computing (:func:`exit_with_parent`).
  Any :class:`concurrent.futures.Executor` or a ``dask.distributed.Client`` may be
  passed instead: the sweep submits one task per variant and gathers the results as
  they finish, unchanged on a cluster; the workers of an executor passed in are its
  owner's to manage. Local processes need an analysis defined at module level (it is
  pickled by reference).
* **Store.** With ``store=<folder>``, every finished task is written at once, as one
  small JSON file (atomically, :mod:`tabletop.files`), keyed by the analysis name,
  the code that computes it, the knobs, the fixed arguments and the task's seed. A
  later sweep with the same store reads these back instead of recomputing, so an
  interrupted sweep resumes where it stopped. Only JSON is stored: no pickle. Since
  the key holds the seed, a store needs a reproducible seed (not ``seed=None``).

  - *Code.* The key holds the library's version, a SHA-256 of the library's sources
    (the shared package and every game's) and one of the analysis's own source
    (:func:`inspect.getsource`; for a ``functools.partial`` also its arguments; for
    a function without source, its byte code), so a result computed by other code is
    never reused. Code the analysis calls outside this library and outside its own
    body is not covered: give such a change a new ``name=`` or a new store.
  - *Checksum.* Each record holds a SHA-256 of its key and result, checked on read.
    A record that is damaged (not JSON, wrong checksum, another format or version,
    another task's key, results that are not scalars) is never trusted: its task is
    computed again and written whole, with a :class:`StoreWarning` naming the file.
  - *Lock.* A sweep holds an exclusive :func:`fcntl.flock` on ``<store>/sweep.lock``
    from its first read to its last write; a second sweep on the same store stops
    at once with a ValueError naming the process that holds it. The kernel releases
    the lock when its holder ends, killed or not. (Where ``fcntl`` does not exist,
    Windows, no lock is taken.)
  - *Temporaries.* A write killed mid-way leaves a temporary that the next sweep on
    the store removes (:func:`tabletop.files.remove_stale_temporaries`).
  - A folder that cannot be written is refused before any task runs; a write that
    fails later (a full disk) gives a :class:`tabletop.files.CacheWarning` and the
    sweep goes on, the task's result kept in the frame.
* **Failures.** A task that raises is recorded with its knobs and the one-line error
  in :attr:`SweepResult.failures`; the other tasks are kept (and stored).

A progress bar (tqdm) is shown on a terminal (``progress=None``) or on request.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import hashlib
import inspect
import itertools
import json
import multiprocessing
import numbers
import os
import pickle
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tabletop.budget import quiet_resource_tracker, stop_pool
from tabletop.files import atomic_write_text, remove_stale_temporaries, warn_if_unwritable
from tabletop.frozen import same_fields
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.validate import check_fields

if TYPE_CHECKING:
    import pandas as pd


STORE_FORMAT = "tabletop.sweep"
STORE_VERSION = 2
#: The lock file in a store folder (see the module docstring).
LOCK_NAME = "sweep.lock"
#: Seconds between a worker's looks at its parent.
_WATCH_SECONDS = 0.2


class StoreWarning(UserWarning):
    """A record of a sweep store could not be trusted; its task is computed again."""


@dataclass(frozen=True, eq=False)
class SweepResult:
    """What a :func:`sweep` returns.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per successful task (one per row of its table when the analysis
        returns tables), indexed by its number in grid order (``task``): the knobs,
        then the results.
    failures : pandas.DataFrame
        One row per failed task, indexed by ``task``: the knobs and ``error``, the
        exception's type and first line.
    n_tasks : int
        Tasks in the grid.
    n_cached : int
        Tasks read back from the store rather than computed.
    fixed : dict
        The arguments passed to every task.

    Examples
    --------
    >>> def square(x, seed):
    ...     return {"y": x * x}
    >>> res = sweep(square, {"x": [1, 2, 3]}, seed=0, jobs=1)
    >>> res.ok, res.n_tasks, res.check()["y"].tolist()
    (True, 3, [1, 4, 9])
    """

    frame: pd.DataFrame
    failures: pd.DataFrame
    n_tasks: int
    n_cached: int
    fixed: dict = field(default_factory=dict)

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, n_tasks=(0, None), n_cached=(0, None))
        if self.n_cached > self.n_tasks:
            raise ValueError(f"SweepResult.n_cached must be at most SweepResult.n_tasks "
                             f"({self.n_tasks}), got {self.n_cached}")  # fmt: skip

    @property
    def ok(self) -> bool:
        """True when every task succeeded."""
        return self.failures.empty

    def check(self) -> pd.DataFrame:
        """Return :attr:`frame`, or raise RuntimeError listing the failed tasks."""
        if self.ok:
            return self.frame
        lines = [
            f"task {task} ({_knob_text(row.drop('error'))}): {row['error']}"
            for task, row in self.failures.iterrows()
        ]
        raise RuntimeError(
            f"{len(lines)} of {self.n_tasks} sweep tasks failed: " + "; ".join(lines)
        )


def _knob_text(knobs: Mapping) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in knobs.items())


def _plain(name: str, value, what: str):
    """A knob or fixed value as plain JSON-able Python (tuples stay tuples, nested ones
    too, e.g. a table of (stock, rate) pairs)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"{what} {name!r}: values must be finite, got {value!r}")
        return value
    if isinstance(value, tuple | list):
        return tuple(_plain(name, v, what) for v in value)
    raise TypeError(
        f"{what} {name!r}: values must be numbers, strings, booleans, None or tuples of "
        f"them, got {value!r} ({type(value).__name__})"
    )


def _check_names(names, what: str) -> None:
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"{what} names must be Python identifiers, got {name!r}")
        if name == "seed":
            raise ValueError(f"{what} may not be named 'seed': the sweep passes seed= itself")


def expand_grid(grid) -> list[dict]:
    """The variants of a grid, in task order (see the module docstring).

    Examples
    --------
    >>> expand_grid({"n_dice": [4, 5], "start_points": [25, 35]})[1]
    {'n_dice': 4, 'start_points': 35}
    >>> expand_grid([{"n_dice": 6}])
    [{'n_dice': 6}]
    """
    if isinstance(grid, Mapping):
        if not grid:
            raise ValueError("grid holds no knob")
        _check_names(grid, "grid knob")
        lists = []
        for name, values in grid.items():
            if isinstance(values, str | bytes) or not isinstance(values, Sequence | np.ndarray):
                raise TypeError(f"grid knob {name!r} must map to a list of values, got {values!r}")
            if len(values) == 0:
                raise ValueError(f"grid knob {name!r} has no values")
            lists.append([_plain(name, v, "grid knob") for v in values])
        variants = [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*lists)]
    elif isinstance(grid, Sequence) and not isinstance(grid, str | bytes):
        variants = []
        for i, variant in enumerate(grid):
            if not isinstance(variant, Mapping):
                raise TypeError(f"grid[{i}] must be a mapping of knob values, got {variant!r}")
            _check_names(variant, "grid knob")
            variants.append({k: _plain(k, v, "grid knob") for k, v in variant.items()})
    else:
        raise TypeError(
            f"grid must be a mapping knob -> list of values or a list of mappings, got "
            f"{type(grid).__name__}"
        )
    if not variants:
        raise ValueError("grid holds no variant")
    return variants


def task_seed(root: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """The seed of task ``i``: the ``i``-th child of ``root``, whatever was spawned before.

    Examples
    --------
    >>> import numpy as np
    >>> a = task_seed(np.random.SeedSequence(5), 2).generate_state(2)
    >>> b = np.random.SeedSequence(5).spawn(3)[2].generate_state(2)
    >>> bool((a == b).all())
    True
    """
    return np.random.SeedSequence(
        root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size
    )


def _canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _jsonable(obj):
    """Tuples to lists, recursively, as JSON reads them back."""
    return json.loads(_canonical(obj))


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def _result_value(key, value):
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(
        f"result {key!r} must be a scalar (number, string, boolean or None), got "
        f"{type(value).__name__}"
    )


def _results(out: Mapping, knobs: dict) -> dict:
    results = {}
    for key, value in out.items():
        if not isinstance(key, str):
            raise TypeError(f"result names must be strings, got {key!r}")
        if key in knobs:
            raise ValueError(f"result {key!r} has the name of a knob")
        results[key] = _result_value(key, value)
    return results


def _run_task(analysis: Callable, knobs: dict, fixed: dict, seed) -> tuple[str, object]:
    """Worker side: run one task; return ("ok", results) or ("error", one line).

    The results are a dict, or a list of dicts when the analysis returns a table."""
    import pandas as pd

    try:
        out = analysis(**knobs, **fixed, seed=seed)
        if isinstance(out, pd.Series):
            out = out.to_dict()
        if isinstance(out, pd.DataFrame):
            records = out.to_dict("records")
            if not records:
                raise ValueError("the analysis returned an empty table")
            return "ok", [_results(r, knobs) for r in records]
        if not isinstance(out, Mapping):
            raise TypeError(
                "the analysis must return a mapping, a pandas Series or a pandas DataFrame, "
                f"got {type(out).__name__}"
            )
        return "ok", _results(out, knobs)
    except Exception as exc:  # reported beside the frame; the other tasks go on
        return "error", _one_line(exc)


def _library_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tabletop-odds")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "not installed"


def _library_digest() -> str:
    """SHA-256 of the sources of the shared package and of every game package."""
    from tabletop.games import names

    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for package in ("tabletop", *names()):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _code_text(code) -> str:
    """Byte code, names and constants of a code object, nested ones included (their
    ``repr`` would hold a memory address)."""
    consts = [_code_text(c) if inspect.iscode(c) else repr(c) for c in code.co_consts]
    return f"{code.co_code.hex()}|{code.co_names}|{code.co_varnames}|{consts}"


def code_digest(analysis: Callable) -> str:
    """SHA-256 of what identifies an analysis's code: its source, or its byte code when
    it has no source file; for a :class:`functools.partial`, also its arguments.

    Examples
    --------
    >>> def a(seed):
    ...     return {"x": 1}
    >>> def b(seed):
    ...     return {"x": 2}
    >>> code_digest(a) == code_digest(a), code_digest(a) == code_digest(b)
    (True, False)
    """
    parts = []
    while isinstance(analysis, functools.partial):
        parts.append(repr((analysis.args, sorted(analysis.keywords.items()))))
        analysis = analysis.func
    analysis = inspect.unwrap(analysis)
    target = analysis
    if not (inspect.isroutine(target) or inspect.isclass(target)):
        target = type(target)  # a callable object: its class
    try:
        parts.append(inspect.getsource(target))
    except (OSError, TypeError):  # defined at a prompt, or built in
        code = getattr(target, "__code__", None)
        parts.append(_code_text(code) if code is not None else repr(target))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _checksum(key: dict, result) -> str:
    """SHA-256 of a record's key and result as canonical JSON (NaN written as ``NaN``,
    as the record itself holds it)."""
    text = json.dumps({"key": key, "result": result}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class _Store:
    """One JSON file per finished task, validated on read; see the module docstring."""

    def __init__(self, folder, name: str, fixed: dict, root: np.random.SeedSequence,
                 analysis: Callable):  # fmt: skip
        self.folder = Path(folder)
        code = {
            "library": _library_version(),
            "sources": _library_digest(),
            "analysis": code_digest(analysis),
        }
        self.base = {"analysis": name, "code": code, "fixed": _jsonable(fixed)}
        self.entropy = _jsonable(root.entropy)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock (refused at once when another sweep holds it)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = open(self.folder / LOCK_NAME, "a+", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise ValueError(
                f"store={str(self.folder)!r} cannot be written ({exc.strerror or exc}): "
                "pass a folder this process may create files in"
            ) from None
        with handle:
            try:
                import fcntl
            except ImportError:  # no flock on this system: no lock
                fcntl = None
            if fcntl is not None:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    raise ValueError(
                        f"store={str(self.folder)!r} is being written by another sweep "
                        f"({holder} holds {LOCK_NAME}): wait for it to end, or pass "
                        "another store"
                    ) from None
            handle.seek(0)
            handle.truncate()
            handle.write(f"process {os.getpid()} on {socket.gethostname()}\n")
            handle.flush()
            remove_stale_temporaries(self.folder)  # of writes killed mid-way
            yield  # closing the file releases the lock

    def key(self, knobs: dict, seed: np.random.SeedSequence) -> dict:
        return {
            **self.base,
            "knobs": _jsonable(knobs),
            "seed": {"entropy": self.entropy, "spawn_key": list(seed.spawn_key)},
        }

    def path(self, key: dict) -> Path:
        text = _canonical({"version": STORE_VERSION, "key": key})
        return self.folder / f"task-{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"

    def read(self, key: dict) -> dict | None:
        """The stored result of ``key``; None (with a StoreWarning when a file is there
        but cannot be trusted) when it must be computed."""
        path = self.path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            return self._distrust(path, f"cannot be read as JSON ({_one_line(exc)})")
        problem = self._problem(data, key)
        if problem is not None:
            return self._distrust(path, problem)
        return data["result"]

    @staticmethod
    def _problem(data, key: dict) -> str | None:
        """What is wrong with a record read for ``key``; None when it can be trusted."""
        if not isinstance(data, dict) or data.get("format") != STORE_FORMAT:
            return f"is not a {STORE_FORMAT} record"
        if data.get("version") != STORE_VERSION:
            return f"has format version {data.get('version')!r}, not {STORE_VERSION}"
        result = data.get("result")
        if data.get("checksum") != _checksum(data.get("key"), result):
            return "fails its checksum"
        if data.get("key") != key:
            return "holds another task"
        tables = result if isinstance(result, list) and result else [result]
        for table in tables:
            if not isinstance(table, dict):
                return "holds a result that is not a table of scalars"
            ok = (type(v) in (int, float, str, bool) or v is None for v in table.values())
            if not all(ok) or any(k in key["knobs"] for k in table):
                return "holds a result that is not a table of scalars"
        return None

    @staticmethod
    def _distrust(path: Path, problem: str) -> None:
        warnings.warn(f"sweep store record {path} {problem}: its task is computed again",
                      StoreWarning, stacklevel=5)  # fmt: skip
        return None

    def write(self, key: dict, result: dict | list) -> None:
        record = {
            "format": STORE_FORMAT,
            "version": STORE_VERSION,
            "key": key,
            "result": result,
            "checksum": _checksum(key, result),
        }
        path = self.path(key)
        with warn_if_unwritable(path, "a sweep task's result"):  # the frame keeps it
            atomic_write_text(path, json.dumps(record, indent=1) + "\n", tidy=False)


def _with_knobs(knobs: dict, result: dict | list) -> dict | list:
    if isinstance(result, list):
        return [{**knobs, **r} for r in result]
    return {**knobs, **result}


def _named_analysis(analysis: str, name):
    """``"<game>.balance"``: the registry's balance task for that game, and its name."""
    from tabletop.games import names

    game, _, what = analysis.partition(".")
    if what != "balance" or game not in names():
        raise ValueError(
            f"a named analysis must be '<game>.balance' with game one of {names()}, "
            f"got {analysis!r}"
        )
    from tabletop.balance import balance_task

    return functools.partial(balance_task, game=game), name or analysis


def _analysis_name(analysis, name) -> str:
    if name is not None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        return name
    qualname = getattr(analysis, "__qualname__", None)
    if qualname is None:
        raise ValueError(
            f"analysis {analysis!r} has no __qualname__: pass name= to identify it in the store"
        )
    return f"{getattr(analysis, '__module__', '')}.{qualname}"


def _is_dask_client(executor) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "submit")


def _outcome(future) -> tuple[str, object]:
    try:
        return future.result()
    except Exception as exc:  # a broken worker, an unpicklable argument...
        return "error", _one_line(exc)


def exit_with_parent(parent: int) -> None:
    """Initializer of a worker process: end it soon after its parent ``parent`` is gone.

    A worker whose parent was killed (SIGKILL runs no clean-up) is adopted by another
    process (``init`` or a subreaper), so its parent PID changes; a daemon thread
    looks every :data:`_WATCH_SECONDS` and ends the process at once, whatever task it
    runs. Use it as ``ProcessPoolExecutor(initializer=exit_with_parent,
    initargs=(os.getpid(),))``.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _run_pending(analysis, pending, fixed, executor, jobs, handle) -> None:
    """Run the pending tasks ``(i, knobs, seed)``; call ``handle(i, outcome)`` as each ends."""
    if not pending:
        return
    owned = None
    if executor is None:
        if jobs == 1:
            for i, knobs, seed in pending:
                handle(i, _run_task(analysis, knobs, fixed, seed))
            return
        context = multiprocessing.get_context("spawn")
        quiet_resource_tracker()
        owned = executor = cf.ProcessPoolExecutor(
            min(jobs, len(pending)), mp_context=context,
            initializer=exit_with_parent, initargs=(os.getpid(),),
        )  # fmt: skip
    try:
        if isinstance(executor, cf.ProcessPoolExecutor):
            try:
                pickle.dumps(analysis)
            except Exception as exc:
                raise TypeError(
                    f"analysis {analysis!r} cannot be sent to worker processes (define it at "
                    f"module level, or use jobs=1): {_one_line(exc)}"
                ) from None
        if _is_dask_client(executor):
            from distributed import as_completed

            futures = [
                executor.submit(_run_task, analysis, knobs, fixed, seed, pure=False)
                for _, knobs, seed in pending
            ]
            which = {f.key: i for f, (i, _, _) in zip(futures, pending, strict=True)}
            try:
                for future in as_completed(futures):
                    handle(which[future.key], _outcome(future))
            finally:
                executor.cancel([f for f in futures if not f.done()])
        elif isinstance(executor, cf.Executor):
            futures = {
                executor.submit(_run_task, analysis, knobs, fixed, seed): i
                for i, knobs, seed in pending
            }
            try:
                for future in cf.as_completed(futures):
                    handle(futures[future], _outcome(future))
            finally:
                # a pool of our own is stopped below: its manager thread fails the tasks
                # that wait when their workers go, and a task cancelled here meanwhile
                # would make it raise (InvalidStateError, printed at a Ctrl-C)
                if owned is None:
                    for future in futures:
                        future.cancel()
        else:
            raise TypeError(
                f"executor must be None, a concurrent.futures.Executor or a "
                f"dask.distributed.Client, got {type(executor).__name__}"
            )
    except BaseException:  # an error or Ctrl-C: stop at once, finished tasks are stored
        if owned is not None:
            stop_pool(owned)
        raise
    if owned is not None:
        owned.shutdown(wait=True)


def _records(result) -> list[dict]:
    return result if isinstance(result, list) else [result]


def _frame(rows: dict[int, dict | list], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    tasks = [t for t in sorted(rows) for _ in _records(rows[t])]
    records = [r for t in sorted(rows) for r in _records(rows[t])]
    index = pd.Index(tasks, name="task", dtype=np.int64)
    data = {c: [r.get(c) for r in records] for c in columns}
    if not tasks:
        return pd.DataFrame({c: pd.Series([], dtype=object) for c in columns}, index=index)
    return pd.DataFrame(data, index=index, columns=columns)


def sweep(
    analysis: Callable,
    grid,
    *,
    fixed: Mapping | None = None,
    seed=None,
    executor=None,
    jobs: int | None = None,
    store=None,
    progress: bool | None = None,
    name: str | None = None,
) -> SweepResult:
    """Run ``analysis`` for every variant of ``grid`` (see the module docstring).

    Parameters
    ----------
    analysis : callable or str
        ``analysis(**knobs, **fixed, seed=SeedSequence) -> mapping of scalars`` (or a
        DataFrame of them, a table); or ``"<game>.balance"``, the game's balance card.
    grid : mapping or list of mappings
        ``{knob: [values]}`` (the Cartesian product) or explicit variants.
    fixed : mapping, optional
        Keyword arguments passed to every task (part of the store key, not columns).
    seed : None, int, SeedSequence or Generator
        The root seed; task ``i`` gets its ``i``-th child.
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        Where tasks run; ``None``: ``jobs`` local processes.
    jobs : int, optional
        Worker processes when ``executor`` is None (default: the CPU count; 1 runs
        the tasks in this process); unused with an executor.
    store : path-like, optional
        Folder of finished tasks, read back on the next run (needs a fixed seed).
    progress : bool, optional
        Show a progress bar; default: when stderr is a terminal.
    name : str, optional
        The analysis's name in the store (default ``module.qualname``).

    Returns
    -------
    SweepResult
        ``.frame`` (one row per variant), ``.failures`` (one row per failed task).

    Examples
    --------
    >>> def odds(n_dice, sides, seed):
    ...     return {"p_all_ones": (1 / sides) ** n_dice}
    >>> res = sweep(odds, {"n_dice": [1, 2], "sides": [4, 6]}, seed=0, jobs=1)
    >>> res.frame.columns.tolist()
    ['n_dice', 'sides', 'p_all_ones']
    >>> res.frame["p_all_ones"].round(4).tolist()
    [0.25, 0.1667, 0.0625, 0.0278]
    >>> res.ok, res.n_tasks
    (True, 4)
    """
    from tabletop.validate import check_bool, check_path

    if progress is not None:
        progress = check_bool("progress", progress)
    game = None
    if isinstance(analysis, str):
        game = analysis.partition(".")[0]
        analysis, name = _named_analysis(analysis, name)
    if not callable(analysis):
        raise TypeError(f"analysis must be callable, got {type(analysis).__name__}")
    variants = expand_grid(grid)
    if fixed is not None and not isinstance(fixed, Mapping):
        raise TypeError(f"fixed must be a mapping of argument names to values, got {fixed!r:.80}")
    fixed = dict(fixed or {})
    _check_names(fixed, "fixed argument")
    fixed = {k: _plain(k, v, "fixed argument") for k, v in fixed.items()}
    for variant in variants:
        both = sorted(set(variant) & set(fixed))
        if both:
            raise ValueError(f"{both[0]!r} is both a grid knob and a fixed argument")
    _check_accepted(analysis, variants, fixed, game)
    if executor is None:
        jobs = check_count("jobs", (os.cpu_count() or 1) if jobs is None else jobs, 1)
    store = check_path("store", store, optional=True)
    if store is None and seed is None:
        root = as_seed_sequence(None)
    elif seed is None:
        raise ValueError(
            "a store needs a reproducible seed (an int or a SeedSequence), got seed=None"
        )
    else:
        root = as_seed_sequence(seed)
    label = _analysis_name(analysis, name)
    keeper = _Store(store, label, fixed, root, analysis) if store is not None else None
    with keeper.locked() if keeper else contextlib.nullcontext():
        return _sweep(analysis, variants, fixed, root, executor, jobs, keeper, progress, label)


def _accepted(analysis, game: str | None) -> set | None:
    """The argument names ``analysis`` takes (None where they cannot be read): for
    ``"<game>.balance"`` the game's rule knobs and its card's options, else the names of
    its signature (None with ``**kwargs`` or no signature)."""
    import inspect

    if game is not None:
        from tabletop.balance import knob_names
        from tabletop.games import get

        entry = get(game)
        return (set(inspect.signature(entry.balance).parameters) - {"rules"}
                | knob_names(entry.rules_class()))
    try:
        params = inspect.signature(analysis).parameters
    except (TypeError, ValueError):  # a callable without a signature: its tasks will say
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return None
    return {name for name, p in params.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}  # fmt: skip


def _check_accepted(analysis, variants, fixed, game: str | None = None) -> None:
    """Refuse, before any task runs, a grid knob or fixed argument that ``analysis``
    does not take (where its arguments can be read): every task would fail on it."""
    takes = _accepted(analysis, game)
    if takes is None:
        return
    for names, kind in [(set().union(*variants), "grid knob"), (set(fixed), "fixed argument")]:
        unknown = sorted(names - takes)
        if unknown:
            what = (f"a knob of {game}'s rules nor an option of its balance card" if game
                    else "an argument of the analysis")
            raise ValueError(f"{kind} {unknown[0]!r} is not {what}; it takes "
                             f"{', '.join(sorted(takes - {'seed'}))}")
    if "seed" not in takes:
        raise ValueError("the analysis must take a seed= argument (each task gets its own), "
                         f"it takes {', '.join(sorted(takes)) or 'no argument'}")


def _sweep(analysis, variants, fixed, root, executor, jobs, keeper, progress, label):
    """The body of :func:`sweep`, its arguments checked and its store locked."""
    from tqdm import tqdm

    seeds = [task_seed(root, i) for i in range(len(variants))]
    rows: dict[int, dict] = {}
    errors: dict[int, str] = {}
    pending = []
    for i, (knobs, child) in enumerate(zip(variants, seeds, strict=True)):
        cached = keeper.read(keeper.key(knobs, child)) if keeper else None
        if cached is None:
            pending.append((i, knobs, child))
        else:
            rows[i] = _with_knobs(knobs, cached)
    n_cached = len(rows)
    show = sys.stderr.isatty() if progress is None else progress
    with tqdm(
        total=len(variants), initial=n_cached, disable=not show, desc=label.rsplit(".")[-1],
        unit="task", file=sys.stderr,
    ) as bar:  # fmt: skip

        def handle(i: int, outcome: tuple[str, object]) -> None:
            status, value = outcome
            if status == "ok":
                rows[i] = _with_knobs(variants[i], value)
                if keeper:
                    keeper.write(keeper.key(variants[i], seeds[i]), value)
            else:
                errors[i] = str(value)
            bar.update(1)

        _run_pending(analysis, pending, fixed, executor, jobs, handle)

    knob_names = list(dict.fromkeys(k for v in variants for k in v))
    result_names = list(
        dict.fromkeys(
            k for i in sorted(rows) for r in _records(rows[i]) for k in r if k not in knob_names
        )
    )
    failed = {i: {**variants[i], "error": errors[i]} for i in errors}
    return SweepResult(
        frame=_frame(rows, knob_names + result_names),
        failures=_frame(failed, [*knob_names, "error"]),
        n_tasks=len(variants),
        n_cached=n_cached,
        fixed=fixed,
    )
