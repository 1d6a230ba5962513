"""No edit of a returned result changes what a later call returns.

Every cache of the library is found by reading the package sources (decorators
``lru_cache``, ``functools.cache``, ``cached_property``, ``memoize``; functions that
read stored results back from disk; module-level dicts filled by functions) and must
have a case in :data:`CASES`, so that a new cache fails this test until it is
covered. Each case calls the cached function on small rules, scribbles on everything
writable in the answer (arrays, DataFrames through ``.iloc``, ``.loc``, ``.values``,
``.to_numpy()``, new columns and index names, dict and list entries, attributes),
calls again, and compares the digest of the answer with the one a fresh process
computes by the same calls without the edits (one subprocess for every case, digests
as JSON).

Run as a module (``python -m tests.tabletop.test_cache_safety DIR``) it prints the
fresh process's digests.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")

# -- discovery ---------------------------------------------------------------------------

_CACHE_DECORATOR = re.compile(r"\b(lru_cache|cache|cached_property|memoize)\b(?!\s*=)")
#: Calls that read stored results back from a file (a disk cache's read side).
_DISK_READ = re.compile(
    r"\b(np\.load|numpy\.load|np\.fromfile|np\.memmap|pickle\.loads?|pd\.read_pickle|"
    r"read_parquet|read_hdf|joblib|shelve\.open|json\.loads?\([^\n]*read_text)"
)
_EMPTY_DICT = ("{}", "dict()", "OrderedDict()", "weakref.WeakValueDictionary()")


def _qualified(module: str, stack: list[str], name: str) -> str:
    return f"{module}:{'.'.join([*stack, name])}"


def discover_caches() -> dict[str, str]:
    """Every cache in the package sources: qualified name -> kind."""
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
            module_dicts = {
                t.id
                for node in tree.body
                if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
                and ast.unparse(node.value) in _EMPTY_DICT
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(t, ast.Name)
            }  # fmt: skip

            def walk(node, stack, module=module, module_dicts=module_dicts):
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                        name = _qualified(module, stack, child.name)
                        if any(_CACHE_DECORATOR.search(ast.unparse(d))
                               for d in child.decorator_list):  # fmt: skip
                            found[name] = "memoised"
                        body = ast.unparse(child)
                        if _DISK_READ.search(body):
                            found[name] = "disk"
                        for sub in ast.walk(child):
                            target = getattr(sub, "targets", [getattr(sub, "target", None)])
                            for t in target or []:
                                if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                        and t.value.id in module_dicts):  # fmt: skip
                                    found[f"{module}:{t.value.id}"] = "module dict"
                        walk(child, [*stack, child.name, "<locals>"], module, module_dicts)
                    elif isinstance(child, ast.ClassDef):
                        walk(child, [*stack, child.name], module, module_dicts)

            walk(tree, [])
    return found


# -- the cases ---------------------------------------------------------------------------


def _panache_rules():
    import panache

    return panache.Rules(n_dice=2, start_points=4)


def _samarra_rules():
    import samarra

    return samarra.Rules(length=3)


def case_mp_success(workdir):
    from panache.master import mp_success

    return mp_success(_panache_rules())


def case_dice_space(workdir):
    from panache.dice import dice_space

    return dice_space(2)


def case_submultisets(workdir):
    from panache.turn import _submultisets

    return _submultisets(2)


def case_turn_tables(workdir):
    from panache.turn import turn_tables

    return turn_tables(_panache_rules())


def case_policy_layout(workdir):
    from panache.policy import policy_layout

    return policy_layout(2)


def case_hits_pmf(workdir):
    from panache.attack import _hits_pmf

    return _hits_pmf(2)


def case_turn_steps(workdir):
    from panache.game import _turn_steps

    return _turn_steps(_panache_rules(), "zero")


def case_duel_tables(workdir):
    from panache.game import duel_tables

    return duel_tables(_panache_rules())


def case_entry_tables(workdir):
    from panache.thumb import _entry_tables

    return _entry_tables(_panache_rules())


def case_committed_duel(workdir):
    from panache.committed import committed_duel

    return committed_duel(_panache_rules())


def case_three_tables(workdir):
    from panache.game import three_tables

    return three_tables(_panache_rules())


def case_solve_duel(workdir):
    from panache import solve_duel

    return solve_duel(_panache_rules())


def case_solve_three(workdir):
    from panache import solve_three

    return solve_three(_panache_rules())


def case_geometry(workdir):
    from samarra.solve import geometry

    geo = geometry(_samarra_rules())
    return geo, geo.n_infeasible


def case_folded_geometry(workdir):
    """The folded index the plain-Python lookups share (one per rules)."""
    from samarra.solve import _geometry

    return _geometry(_samarra_rules())


def case_samarra_solve(workdir):
    """Built and written on the first call, read back from disk on the next ones."""
    from samarra import solve

    table = solve(_samarra_rules(), directory=Path(workdir) / "samarra")
    return table, table.counts


def case_horizon_row(workdir):
    """The adjudicated game's row, solved and written on the first call, read back later."""
    from samarra import solve
    from samarra.analyses import horizon_row

    table = solve(_samarra_rules(), directory=Path(workdir) / "samarra")
    return horizon_row(table, 2, cache_dir=Path(workdir) / "horizon")


def case_cached_balance(workdir):
    """A balance card, computed and stored on the first call, read back later."""
    import os

    from commander import Rules
    from tabletop.balance import cached_balance

    before = os.environ.get("TABLETOP_CACHE_DIR")
    os.environ["TABLETOP_CACHE_DIR"] = str(Path(workdir) / "cards")
    try:
        return cached_balance("commander", Rules(win_gold=6), n_games=200, seed=0)
    finally:
        if before is None:
            del os.environ["TABLETOP_CACHE_DIR"]
        else:
            os.environ["TABLETOP_CACHE_DIR"] = before


def _odds(n_dice, sides, seed):
    return {"p_all_ones": (1 / sides) ** n_dice, "label": f"{n_dice}d{sides}"}


def case_sweep_store(workdir):
    """Computed and stored on the first call, read back from the store later."""
    from tabletop import sweep

    grid = {"n_dice": [1, 2], "sides": [4, 6]}
    return sweep(_odds, grid, seed=0, jobs=1, store=Path(workdir) / "sweep", progress=False,
                 name="cache_safety.odds")  # fmt: skip


# -- results built on the caches: an edit upstream must not show downstream ------------


def case_solve_turn(workdir):
    from panache import solve_turn

    return solve_turn(_panache_rules(), "ev")


def case_simulate_games(workdir):
    from panache import Agent, simulate_games

    agents = [Agent.three(), Agent.duel(), Agent.heuristic()]
    rules = dataclasses.replace(_panache_rules(), n_players=3)  # one seat per agent
    return simulate_games(rules, agents, 300, seed=3)


def case_mp_stakes(workdir):
    from panache import mp_stakes

    return mp_stakes(_panache_rules(), points=4, target_points=4)


#: Each cache found in the sources -> the case that exercises it.
COVERED = {
    "panache.master:mp_success": case_mp_success,
    "panache.dice:dice_space": case_dice_space,
    "panache.turn:_submultisets": case_submultisets,
    "panache.turn:_tables": case_turn_tables,
    "panache.policy:policy_layout": case_policy_layout,
    "panache.attack:_hits_pmf": case_hits_pmf,
    "panache.game:_turn_steps": case_turn_steps,
    "panache.game:duel_tables": case_duel_tables,
    "panache.game:three_tables": case_three_tables,
    "panache.thumb:_entry_tables": case_entry_tables,
    # caches local to one call of the committed duel's round 1
    "panache.committed:_committed.<locals>.o_answer": case_committed_duel,
    "panache.committed:_committed.<locals>.c_answer": case_committed_duel,
    "panache.duel:solve_duel": case_solve_duel,
    "panache.three:solve_three": case_solve_three,
    # caches local to one call of the round-1 solve, dropped when solve_three returns
    "panache.three:_round_one.<locals>.after_last": case_solve_three,
    "panache.three:_round_one.<locals>.after_second": case_solve_three,
    "samarra.solve:Geometry.n_infeasible": case_geometry,
    "samarra.solve:load_table": case_samarra_solve,
    "samarra.solve:_geometry": case_folded_geometry,
    "tabletop.sweep:_Store.read": case_sweep_store,
    "samarra.analyses:horizon_row": case_horizon_row,
    "tabletop.balance:cached_balance": case_cached_balance,
}

#: Caches found in the sources that need no case of their own, and why.
EXEMPT = {
    "samarra.engine:_board":
        "each cell's steps and power neighbours per rules, as tuples of tuples of ints: "
        "nothing a caller can edit",
    "samarra.solve:Table._lookup":
        "a table's plain-Python copy of its index layout for Table.index, tuples of ints "
        "only (test_fast_path.py holds Table.index to the kernel's encoding)",
    "tabletop.frozen:memoize.<locals>.decorate.<locals>.stored":
        "the store of tabletop.frozen.memoize itself: every memoised case runs through it",
    "tabletop.validate:_FIELD_CHECKS":
        "each result class's field checks, a list of predicates built from the class's "
        "annotations: no result is read from it (its own test: test_result_classes.py)",
    "tabletop.notebooks:Timings.__init__":
        "the notebook runner's last run times, read into a fresh dict per run to order the "
        "notebooks; no result is read from it (its own test: test_notebooks.py)",
}  # fmt: skip

CASES = {
    case.__name__.removeprefix("case_"): case
    for case in [
        *dict.fromkeys(COVERED.values()),
        case_solve_turn,
        case_simulate_games,
        case_mp_stakes,
    ]
}


# -- digests -----------------------------------------------------------------------------


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def _pandas_digest(obj) -> list:
    def values(x) -> str:
        return _sha(pd.util.hash_pandas_object(x, index=False).to_numpy().tobytes())

    if isinstance(obj, pd.Index):
        return ["Index", [str(n) for n in obj.names], str(obj.dtype), values(obj)]
    out = [type(obj).__name__, _pandas_digest(obj.index)]
    if isinstance(obj, pd.Series):
        return [*out, str(obj.name), str(obj.dtype), values(obj)]
    columns = [[str(c), str(obj[c].dtype), values(obj.iloc[:, i])]
               for i, c in enumerate(obj.columns)]  # fmt: skip
    return [*out, _pandas_digest(obj.columns), columns]


def digest(obj, _depth: int = 0):
    """A JSON-able fingerprint of a result: equal results, equal fingerprints."""
    if _depth > 50:
        raise RecursionError("result nested too deeply")
    d = _depth + 1
    if isinstance(obj, np.ndarray):
        data = _sha(np.ascontiguousarray(obj).tobytes())
        return ["ndarray", obj.dtype.str, list(obj.shape), data]
    if isinstance(obj, pd.DataFrame | pd.Series | pd.Index):
        return _pandas_digest(obj)
    if obj is None or isinstance(obj, bool | int | str | slice | np.generic):
        return [type(obj).__name__, repr(obj)]
    if isinstance(obj, float):
        return ["float", repr(obj)]
    if isinstance(obj, dict):
        return ["dict", sorted([repr(k), digest(v, d)] for k, v in obj.items())]
    if isinstance(obj, list | tuple):
        return [type(obj).__name__, [digest(v, d) for v in obj]]
    if callable(obj) and hasattr(obj, "__qualname__"):
        return ["callable", obj.__qualname__]
    if dataclasses.is_dataclass(obj):
        fields = [f.name for f in dataclasses.fields(obj)]
    elif type(obj).__module__.split(".")[0] in PACKAGES and hasattr(obj, "__dict__"):
        fields = sorted(vars(obj))
    else:
        raise TypeError(f"no digest for {type(obj).__qualname__}: extend digest()")
    return [type(obj).__qualname__, [[f, digest(getattr(obj, f), d)] for f in fields]]


def digests(workdir) -> dict[str, str]:
    """Each case called twice in this process, the second answer's digest."""
    out = {}
    for name, case in CASES.items():
        case(workdir)
        out[name] = _sha(json.dumps(digest(case(workdir))).encode())
    return out


# -- scribbling --------------------------------------------------------------------------


def _junk_like(a: np.ndarray):
    if a.dtype == np.bool_:
        return ~a
    if a.dtype.kind in "iufc":
        return a * 3 + 7
    return a[::-1].copy()


def scribble(obj, _seen: set | None = None) -> int:
    """Try to edit everything ``obj`` holds; return how many edits went through."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    done = 0

    def attempt(edit) -> None:
        nonlocal done
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                edit()
            except (ValueError, TypeError, AttributeError, KeyError, IndexError,
                    dataclasses.FrozenInstanceError):  # fmt: skip
                return
        done += 1

    if isinstance(obj, np.ndarray):
        if obj.size:
            attempt(lambda: setattr(obj.flags, "writeable", True))
            attempt(lambda: obj.__setitem__(Ellipsis, _junk_like(obj)))
        return done
    if isinstance(obj, pd.DataFrame | pd.Series):
        if obj.size:
            two_d = isinstance(obj, pd.DataFrame)
            first = (0, 0) if two_d else 0
            label = (obj.index[0], obj.columns[0]) if two_d else obj.index[0]
            attempt(lambda: obj.iloc.__setitem__(first, -123))
            attempt(lambda: obj.loc.__setitem__(label, -321))
            attempt(lambda: obj.values.__setitem__(Ellipsis, -5))
            attempt(lambda: obj.to_numpy().__setitem__(Ellipsis, -6))
            attempt(lambda: np.asarray(obj).__setitem__(Ellipsis, -8))
        if isinstance(obj, pd.DataFrame):
            attempt(lambda: obj.__setitem__("__junk__", 1))
            attempt(lambda: setattr(obj.columns, "name", "junk"))
        else:
            attempt(lambda: setattr(obj, "name", "junk"))
        attempt(lambda: setattr(obj.index, "name", "junk"))
        attempt(lambda: setattr(obj.index, "names", ["junk"] * obj.index.nlevels))
        return done
    if isinstance(obj, dict):
        for value in list(obj.values()):
            done += scribble(value, seen)
        if obj:
            first = next(iter(obj))
            attempt(lambda: obj.__setitem__(first, "junk"))
        attempt(lambda: obj.__setitem__("__junk__", 1))
        return done
    if isinstance(obj, list | tuple):
        for value in obj:
            done += scribble(value, seen)
        if isinstance(obj, list):
            attempt(lambda: obj.append("junk"))
        return done
    if dataclasses.is_dataclass(obj) or (
        type(obj).__module__.split(".")[0] in PACKAGES and hasattr(obj, "__dict__")
    ):
        names = ([f.name for f in dataclasses.fields(obj)] if dataclasses.is_dataclass(obj)
                 else list(vars(obj)))  # fmt: skip
        for name in names:
            done += scribble(getattr(obj, name), seen)
        for name in names:
            attempt(lambda name=name: setattr(obj, name, "junk"))
    return done


# -- the tests ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fresh_digests(tmp_path_factory) -> dict[str, str]:
    """The digests of a fresh process (one for every case), as JSON on its stdout."""
    workdir = tmp_path_factory.mktemp("fresh")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), *sys.path]))
    out = subprocess.run(
        [sys.executable, "-m", "tests.tabletop.test_cache_safety", str(workdir)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=1200,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_every_cache_is_covered():
    found = discover_caches()
    missing = sorted(set(found) - set(COVERED) - set(EXEMPT))
    stale = sorted((set(COVERED) | set(EXEMPT)) - set(found))
    assert not missing, f"caches with no case in COVERED (add one): {missing}"
    assert not stale, f"COVERED names no cache found in the sources: {stale}"


def test_discovery_sees_the_kinds():
    found = discover_caches()
    assert found["panache.duel:solve_duel"] == "memoised"
    assert found["samarra.solve:Geometry.n_infeasible"] == "memoised"
    assert found["samarra.solve:load_table"] == "disk"
    assert found["tabletop.sweep:_Store.read"] == "disk"


@pytest.mark.parametrize("name", list(CASES))
def test_edits_do_not_reach_later_calls(name, fresh_digests, tmp_path):
    case = CASES[name]
    first = case(tmp_path)
    scribble(first)
    second = case(tmp_path)
    before = _sha(json.dumps(digest(second)).encode())
    scribble(second)
    third = case(tmp_path)
    after = _sha(json.dumps(digest(third)).encode())
    assert before == fresh_digests[name]
    assert after == fresh_digests[name]


def test_edits_of_every_result_reach_no_other(fresh_digests, tmp_path):
    """Scribble on every case's answer first, then call every case again."""
    answers = [case(tmp_path) for case in CASES.values()]
    edits = sum(scribble(a) for a in answers)
    assert edits > 0  # the handed-out DataFrames and containers are the caller's own
    assert digests(tmp_path) == fresh_digests


def test_cached_arrays_are_read_only_for_good():
    from panache import solve_duel, solve_three
    from panache.game import three_tables

    rules = _panache_rules()
    arrays = [solve_duel(rules)._win, solve_three(rules)._table, *[
        v for v in three_tables(rules).values() if isinstance(v, np.ndarray)]]  # fmt: skip
    for a in arrays:
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a.flags.writeable = True


def test_handed_out_dataframes_are_the_callers_own():
    from panache import solve_duel

    rules = _panache_rules()
    a = solve_duel(rules)
    a.win.iloc[0, 0] = 123.0
    b = solve_duel(rules)
    assert b is not a and b.win.iloc[0, 0] != 123.0
    assert b == solve_duel(rules) and a != b


if __name__ == "__main__":
    with contextlib.ExitStack() as stack:
        folder = sys.argv[1] if len(sys.argv) > 1 else stack.enter_context(
            tempfile.TemporaryDirectory())  # fmt: skip
        print(json.dumps(digests(folder)))
