"""Read-only caches and value equality (tabletop.frozen)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import numpy as np
import pandas as pd
import pytest

from tabletop import solve_zero_sum
from tabletop.frozen import equal, freeze, handout, memoize, read_only, same_fields

PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")


def test_read_only_arrays_cannot_be_made_writeable_again():
    for a in (np.arange(4.0), np.arange(12).reshape(3, 4)[1:], np.zeros(3, dtype=bool)):
        frozen = read_only(a)
        assert not frozen.flags.writeable
        with pytest.raises(ValueError):
            frozen.flags.writeable = True
        with pytest.raises(ValueError):
            frozen[...] = 0


def test_read_only_copies_memory_owned_by_something_else():
    buffer = bytearray(np.arange(3, dtype=np.int64).tobytes())
    a = np.frombuffer(buffer, dtype=np.int64)  # a writable buffer owns the memory
    frozen = read_only(a)
    with pytest.raises(ValueError):
        frozen.flags.writeable = True
    assert not np.shares_memory(frozen, a) and frozen.tolist() == [0, 1, 2]


def test_freeze_walks_containers_and_dataclasses():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Box:
        a: np.ndarray
        more: dict

    box = freeze(Box(np.arange(3), {"b": [np.ones(2)], "c": (np.zeros(1),)}))
    for arr in (box.a, box.more["b"][0], box.more["c"][0]):
        assert not arr.flags.writeable


def test_handout_gives_own_pandas_and_containers_and_shares_arrays():
    cached = freeze({"frame": pd.DataFrame({"x": [1.0, 2.0]}), "arr": np.arange(3),
                     "items": [1, 2]})  # fmt: skip
    mine = handout(cached)
    mine["frame"].iloc[0, 0] = 9.0
    mine["frame"]["new"] = 1
    mine["frame"].index.name = "junk"
    mine["items"].append(3)
    mine["extra"] = 1
    assert cached["frame"].columns.tolist() == ["x"] and cached["frame"].iloc[0, 0] == 1.0
    assert cached["frame"].index.name is None and cached["items"] == [1, 2]
    assert "extra" not in cached and mine["arr"] is cached["arr"]


def test_memoize_hands_out_immutable_answers_as_they_are():
    calls = []

    @memoize(maxsize=2)
    def table(n):
        calls.append(n)
        return np.arange(n)

    @memoize(maxsize=2)
    def frame(n):
        return pd.Series(np.arange(n, dtype=float))

    assert table(3) is table(3) and len(calls) == 1 and not table(3).flags.writeable
    assert frame(3) is not frame(3) and frame(3).equals(frame(3))
    assert table.cache_info().hits == 2
    table.cache_clear()
    table(3)
    assert len(calls) == 2


def test_memoize_keys_a_call_by_its_arguments_not_by_how_they_are_written():
    calls = []

    @memoize(maxsize=4)
    def table(n, scale=1.0, *, progress=None):
        calls.append((n, scale, progress))
        return np.arange(n) * scale

    table(3)
    table(n=3)
    table(3, 1.0)
    table(3, scale=1.0, progress=False)  # how the work is shown: not part of the key
    assert len(calls) == 1 and table.cache_info().hits == 3
    table(3, 2.0)
    assert len(calls) == 2
    with pytest.raises(TypeError):  # a call the signature refuses is the function's own error
        table(3, bogus=1)
    with pytest.raises(TypeError, match="progress"):  # left out of the key, still checked
        table(3, progress="yes")


def _bound_key(signature, args, kwargs):
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    arguments = bound.arguments
    return (tuple((n, type(v), v) for n, v in arguments.items() if n != "progress"),
            {n: v for n, v in arguments.items() if n == "progress"})  # fmt: skip


def _plain(a, b=2, *, c=3, progress=None): ...


def _variadic(a, /, b=2, *more, progress=None, **rest): ...


CALLS = [((1,), {}), ((1, 5), {}), ((1,), {"b": 5}), ((), {"a": 1, "c": 4, "progress": False}),
         ((1, 2, 3), {}), ((1,), {"a": 1}), ((), {}), ((1,), {"d": 1}), ((), {"b": 1}),
         ((1, 2), {"c": 1, "progress": True}), ((1,), {"progress": "yes"})]  # fmt: skip


def test_an_equal_value_of_another_type_is_checked_not_served_from_the_cache():
    """``0 == False`` and ``1.0 == 1`` in Python: a cached answer for one is not the
    answer for the other, which the function checks (and here refuses)."""

    @memoize(maxsize=4)
    def strict(n, *, flag=False):
        if type(flag) is not bool or type(n) is not int:
            raise TypeError(f"bad argument: n={n!r}, flag={flag!r}")
        return {"n": n}

    strict(2, flag=False)
    with pytest.raises(TypeError, match="flag=0"):
        strict(2, flag=0)
    with pytest.raises(TypeError, match=r"n=2\.0"):
        strict(2.0)
    assert strict.cache_info().currsize == 1  # the refused calls stored nothing


@pytest.mark.parametrize("function", [_plain, _variadic])
def test_memoize_keys_match_signature_bind(function):
    """The key maker's fast path (plain parameters) gives ``Signature.bind``'s key, and
    its ``TypeError`` where ``bind`` refuses the call."""
    import inspect

    from tabletop.frozen import _key_maker

    signature = inspect.signature(function)
    make_key = _key_maker(signature)
    for args, kwargs in CALLS:
        try:
            expected = _bound_key(signature, args, kwargs)
        except TypeError as exc:
            with pytest.raises(TypeError, match=str(exc)):
                make_key(args, kwargs)
        else:
            assert make_key(args, kwargs) == expected, (args, kwargs)


def test_equal_compares_by_value():
    assert equal(np.array([1.0, np.nan]), np.array([1.0, np.nan]))
    assert not equal(np.array([1, 2]), np.array([1.0, 2.0]))  # dtypes differ
    assert not equal(np.zeros(2), np.zeros(3))
    assert equal(pd.Series([1.0, np.nan], name="p"), pd.Series([1.0, np.nan], name="p"))
    assert not equal(pd.Series([1.0], name="p"), pd.Series([1.0], name="q"))
    a = pd.DataFrame({"x": [1.0]}, index=pd.Index([0], name="i"))
    assert not equal(a, a.rename_axis("j"))
    assert equal({"a": (np.ones(2), [float("nan")])}, {"a": (np.ones(2), [float("nan")])})
    assert not equal({"a": 1}, {"b": 1})


def test_zero_sum_solutions_compare():
    A = [[3.0, -1.0], [-2.0, 1.0]]
    assert solve_zero_sum(A) == solve_zero_sum(A)
    assert solve_zero_sum(A) != solve_zero_sum([[1.0, -1.0], [-1.0, 1.0]])
    with pytest.raises(TypeError):
        hash(solve_zero_sum(A))


def test_same_fields_skips_fields_not_compared():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Result:
        x: np.ndarray
        note: str = dataclasses.field(compare=False)

        __eq__ = same_fields

    assert Result(np.ones(2), "a") == Result(np.ones(2), "b")
    assert Result(np.ones(2), "a") != Result(np.zeros(2), "a")
    assert Result(np.ones(2), "a") != "a"


def _result_classes():
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.iter_modules(module.__path__, f"{package}."):
            if info.name.endswith("__main__"):
                continue
            mod = importlib.import_module(info.name)
            for _, cls in inspect.getmembers(mod, inspect.isclass):
                if cls.__module__ == mod.__name__ and dataclasses.is_dataclass(cls):
                    yield cls


_ARRAY_HINTS = ("ndarray", "DataFrame", "Series")
_BARE_CONTAINERS = ("dict", "list", "tuple")  # of anything, arrays included


def _holds_arrays(annotation: str) -> bool:
    return any(h in annotation for h in _ARRAY_HINTS) or annotation in _BARE_CONTAINERS


def test_every_result_class_with_arrays_has_a_value_eq():
    """A dataclass holding arrays, pandas objects or untyped containers must not use
    the generated ``==`` (a tuple comparison, which raises on arrays)."""
    bad = []
    for cls in _result_classes():
        hints = [str(f.type) for f in dataclasses.fields(cls) if f.compare]
        if not any(_holds_arrays(t) for t in hints):
            continue
        if cls.__dataclass_params__.eq or "__eq__" not in vars(cls):
            bad.append(f"{cls.__module__}.{cls.__qualname__}")
    assert not bad, f"result classes with arrays and no value ==: {bad}"
