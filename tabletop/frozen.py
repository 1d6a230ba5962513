"""Results that are safe to hold and to edit: read-only caches and value equality.

A memoised function hands the same answer to every caller. If that answer holds a
writable array or DataFrame, one caller's edit changes what every later caller
gets. :func:`memoize` stores each answer once, *frozen*, and hands out a *safe*
version of it on every call:

* **arrays** are stored read-only, and as views: ``flags.writeable`` cannot be set
  back to True on a view whose memory belongs to a read-only array, so an array
  handed out is read-only for good (only a deliberate walk up ``array.base`` could
  reach the owner). Arrays are not copied, however large, except once, when cached,
  those whose memory belongs to a foreign owner such as a numba kernel's result
  (:func:`read_only`).
* **pandas objects** are copied on every call (``copy(deep=True)``): the caller gets
  its own DataFrame, to edit at will (``.iloc``, ``.loc``, new columns, index names,
  ``inplace=True``). A copy is chosen over read-only backing arrays: pandas 3.1
  honours those (``.iloc``, ``.loc``, ``.values`` and ``.to_numpy()`` writes raise
  ``ValueError: assignment destination is read-only``, checked), but a caller could
  still add a column, rename the index or drop rows in place on a shared object,
  and a copy does not depend on the copy-on-write rules of the pandas version
  (the project allows pandas >= 2.1). The copy costs microseconds to a millisecond
  for the tables cached here (see ``benchmarks/bench_cache.py``).
* **dicts and lists** are handed out as new containers (their items handed out in
  turn), so adding, replacing or removing an entry does not reach the cache.
* **frozen dataclasses** and the library's other fixed objects are shared when
  everything they hold is read-only, else copied shallowly with their fields
  handed out. Tuples, scalars, strings and functions are shared.

:func:`freeze` does the first step for any result (it also serves results read back
from a disk cache); :func:`same_fields` and :func:`equal` give result classes a
value ``==`` (arrays compared with ``numpy.array_equal``, NaN equal to NaN;
pandas objects with ``equals``, their axis names included).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import math
import sys
from collections.abc import Callable

import numpy as np

#: Modules whose objects :func:`freeze` walks into (attributes of plain classes).
_OWN_PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")


def _is_pandas(obj) -> bool:
    """A pandas DataFrame, Series or Index. pandas is not imported for the question: no
    object of pandas exists before pandas is imported."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, pd.DataFrame | pd.Series | pd.Index)


def _is_record(obj) -> bool:
    """A dataclass instance, or an object of one of this library's plain classes."""
    if dataclasses.is_dataclass(obj):
        return not isinstance(obj, type)
    module = type(obj).__module__.split(".")[0]
    return module in _OWN_PACKAGES and hasattr(obj, "__dict__")


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` read-only for good: a read-only view whose ``writeable`` flag cannot be set
    back to True.

    numpy refuses to make a view writeable again when the memory's owner is a
    read-only array, but allows it when the owner is some other object (the memory of
    an array a numba kernel returned, a writable buffer). Such an array is copied
    once; any other is frozen in place (with the arrays it views) and not copied.

    Examples
    --------
    >>> import numpy as np
    >>> a = read_only(np.arange(3))
    >>> a.flags.writeable
    False
    """
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root.base is not None:
        a = a.copy()
    view = a
    while isinstance(view, np.ndarray):
        view.flags.writeable = False
        view = view.base
    return a if a.base is not None else a.view()


def freeze(obj, _seen: dict | None = None):
    """Make every array ``obj`` holds read-only, in place where it can; return ``obj``
    (or, for a bare array or a tuple, its frozen replacement).

    Walks dicts, lists, tuples, dataclass fields and the attributes of this
    library's plain classes. Arrays that own their memory are replaced by read-only
    views of themselves, so that a caller cannot set their ``writeable`` flag back.
    pandas objects are left as they are: :func:`handout` copies them.

    Examples
    --------
    >>> import numpy as np
    >>> box = freeze({"a": np.arange(3)})
    >>> box["a"].flags.writeable
    False
    """
    seen = {} if _seen is None else _seen
    key = id(obj)
    if key in seen:
        return seen[key]
    if isinstance(obj, np.ndarray):
        out = read_only(obj)
    elif isinstance(obj, dict):
        seen[key] = obj
        for k, v in obj.items():
            obj[k] = freeze(v, seen)
        out = obj
    elif isinstance(obj, list):
        seen[key] = obj
        obj[:] = [freeze(v, seen) for v in obj]
        out = obj
    elif isinstance(obj, tuple):
        items = [freeze(v, seen) for v in obj]
        same = all(a is b for a, b in zip(items, obj, strict=True))
        out = obj if same else (type(obj)(*items) if hasattr(obj, "_fields") else tuple(items))
    elif _is_record(obj):
        seen[key] = obj
        for name, value in _attributes(obj):
            frozen = freeze(value, seen)
            if frozen is not value:
                object.__setattr__(obj, name, frozen)
        out = obj
    else:
        out = obj
    seen[key] = out
    return out


def _attributes(obj) -> list[tuple[str, object]]:
    if dataclasses.is_dataclass(obj):
        names = [f.name for f in dataclasses.fields(obj)]
    else:
        names = list(vars(obj))
    return [(name, getattr(obj, name)) for name in names]


def _plan(obj) -> frozenset[int]:
    """The ids of the parts of a frozen ``obj`` that :func:`handout` must rebuild: the
    pandas objects, dicts and lists, and whatever holds one of them."""
    verdict: dict[int, bool] = {}

    def visit(x) -> bool:
        key = id(x)
        if key in verdict:
            return verdict[key]
        verdict[key] = False  # a cycle adds nothing
        if isinstance(x, dict | list):
            for v in x.values() if isinstance(x, dict) else x:
                visit(v)
            mutable = True
        elif _is_pandas(x):
            mutable = True
        elif isinstance(x, tuple):
            mutable = any([visit(v) for v in x])
        elif _is_record(x):
            mutable = any([visit(v) for _, v in _attributes(x)])
        else:
            mutable = False
        verdict[key] = mutable
        return mutable

    visit(obj)
    return frozenset(k for k, v in verdict.items() if v)


def handout(obj, plan: frozenset[int] | None = None, _seen: dict | None = None):
    """A version of the frozen ``obj`` that a caller may hold and edit without
    reaching ``obj``: pandas objects copied, dicts and lists rebuilt, objects that
    hold them copied shallowly; read-only arrays and immutable objects shared.

    ``plan`` (from ``_plan(obj)``, computed here when not given) names the parts to
    rebuild; :func:`memoize` computes it once per cached answer.

    Examples
    --------
    >>> import pandas as pd
    >>> cached = freeze({"table": pd.DataFrame({"x": [1.0, 2.0]})})
    >>> mine = handout(cached)
    >>> mine["table"].iloc[0, 0] = 9.0
    >>> float(cached["table"].iloc[0, 0])
    1.0
    """
    plan = _plan(obj) if plan is None else plan
    key = id(obj)
    if key not in plan:
        return obj
    seen = {} if _seen is None else _seen
    if key in seen:
        return seen[key]
    if _is_pandas(obj):
        out = obj.copy(deep=True)
    elif isinstance(obj, dict):
        out = seen[key] = {}
        out.update((k, handout(v, plan, seen)) for k, v in obj.items())
    elif isinstance(obj, list):
        out = seen[key] = []
        out.extend(handout(v, plan, seen) for v in obj)
    elif isinstance(obj, tuple):
        items = [handout(v, plan, seen) for v in obj]
        out = type(obj)(*items) if hasattr(obj, "_fields") else tuple(items)
    else:  # a record holding something to rebuild
        out = seen[key] = copy.copy(obj)
        for name, value in _attributes(obj):
            mine = handout(value, plan, seen)
            if mine is not value:
                object.__setattr__(out, name, mine)
    seen[key] = out
    return out


#: Arguments that change how a call shows its work, never its answer: left out of the
#: key, so that ``f(rules)`` and ``f(rules, progress=False)`` share one cached answer.
UNKEYED = frozenset({"progress"})


def _check_unkeyed(name: str, value) -> None:
    """Check an argument of :data:`UNKEYED` as the function itself would (a cached
    answer must not let a bad one through)."""
    if name == "progress":
        from tabletop.budget import show_progress

        show_progress(value)
    else:  # pragma: no cover - every name of UNKEYED has its check above
        raise AssertionError(f"no check for the unkeyed argument {name!r}")


def _key_maker(signature: inspect.Signature) -> Callable:
    """``key(args, kwargs)``: the call's arguments by name in the signature's order, its
    defaults filled in, :data:`UNKEYED` left out, and the unkeyed arguments given;
    ``TypeError`` when they do not fit the signature. Each argument enters the key with
    its type: ``0`` and ``False`` (or ``1.0`` and ``1``) are equal in Python, but a
    function that refuses one must not be handed the answer it computed for the other.

    A signature of plain parameters (no ``*args``, ``**kwargs`` or positional-only
    ones) is matched directly, several times faster than ``Signature.bind``; any
    other goes through ``bind``.
    """
    params = list(signature.parameters.values())
    plain = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)

    def bound_key(args: tuple, kwargs: dict):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        key = tuple((n, type(v), v) for n, v in arguments.items() if n not in UNKEYED)
        return key, {n: arguments[n] for n in UNKEYED if n in arguments}

    if not all(p.kind in plain for p in params):
        return bound_key
    names = tuple(p.name for p in params)
    positional = sum(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    defaults = {p.name: p.default for p in params if p.default is not p.empty}
    kept = tuple(n for n in names if n not in UNKEYED)
    unkeyed = tuple(n for n in names if n in UNKEYED)

    def key(args: tuple, kwargs: dict):
        if len(args) > positional or not kwargs.keys() <= set(names[len(args):]):
            return bound_key(args, kwargs)  # raises bind's own TypeError
        values = {**defaults, **dict(zip(names, args, strict=False)), **kwargs}  # args: a prefix
        if len(values) < len(names):
            return bound_key(args, kwargs)  # a required argument is missing
        return tuple((n, type(values[n]), values[n]) for n in kept), {n: values[n] for n in unkeyed}

    return key


class _Call:
    """A call's own arguments, carried to the cache beside its key but no part of it:
    every ``_Call`` hashes and compares alike, so two calls with equal keys share one
    entry."""

    __slots__ = ("args", "kwargs")

    def __init__(self, args: tuple, kwargs: dict):
        self.args, self.kwargs = args, kwargs

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other) -> bool:
        return isinstance(other, _Call)


def memoize(maxsize: int | None = 128) -> Callable:
    """``functools.lru_cache`` that stores frozen answers and hands out safe ones.

    The decorated function computes its answer once per arguments; the answer is
    frozen (:func:`freeze`) and kept; every call, the first included, returns
    :func:`handout` of it. Answers that hold only read-only arrays and immutable
    objects are returned as they are (no copy); the others are rebuilt around
    their pandas objects and containers. ``cache_info`` and ``cache_clear`` work as
    for ``lru_cache``.

    The key is the call's arguments by name and type, its defaults filled in, so that a
    value passed by position, by keyword or left to its default is one entry, while
    ``flag=0`` is not the entry of ``flag=False``; the arguments of :data:`UNKEYED`
    (``progress``) are left out of it.

    Examples
    --------
    >>> import numpy as np
    >>> @memoize(maxsize=4)
    ... def squares(n, progress=None):
    ...     return {"squares": np.arange(n) ** 2}
    >>> a = squares(4)
    >>> a["squares"].flags.writeable, a is squares(4), equal(a, squares(4))
    (False, False, True)
    >>> _ = squares(n=4, progress=False)  # the same entry: one computed answer
    >>> squares.cache_info().misses
    1
    """

    def decorate(fn: Callable) -> Callable:
        make_key = _key_maker(inspect.signature(fn))

        @functools.lru_cache(maxsize=maxsize)
        def stored(key, call):
            answer = freeze(fn(*call.args, **call.kwargs))
            return answer, _plan(answer)

        @functools.wraps(fn)
        def memoized(*args, **kwargs):
            try:
                key, unkeyed = make_key(args, kwargs)
                hash(key)
            except TypeError:  # no key: the function's own checks name the bad argument
                answer = freeze(fn(*args, **kwargs))
                plan = _plan(answer)
            else:
                for name, value in unkeyed.items():  # left out of the key, checked all the same
                    _check_unkeyed(name, value)
                answer, plan = stored(key, _Call(args, kwargs))
            return handout(answer, plan) if plan else answer

        memoized.cache_info = stored.cache_info
        memoized.cache_clear = stored.cache_clear
        memoized.__memoized__ = True
        return memoized

    return decorate


def _float_like(a: np.ndarray) -> bool:
    return a.dtype.kind in "fc"


def equal(a, b) -> bool:
    """Value equality of results: arrays, pandas objects, containers, dataclasses.

    Arrays are equal when their dtypes, shapes and entries are (NaN equal to NaN);
    pandas objects when ``equals`` holds and their axis names and name agree;
    floats when equal or both NaN; containers and dataclasses entry by entry.

    Examples
    --------
    >>> import numpy as np
    >>> equal({"x": np.array([1.0, np.nan])}, {"x": np.array([1.0, np.nan])})
    True
    """
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        return bool(np.array_equal(a, b, equal_nan=_float_like(a)))
    if _is_pandas(a) or _is_pandas(b):
        return _pandas_equal(a, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if dataclasses.is_dataclass(a):
        generated = type(a).__dataclass_params__.eq  # a tuple ``==``: arrays would raise
        if generated or type(a).__eq__ is object.__eq__:
            return same_fields(a, b)
    return bool(a == b)


def _pandas_equal(a, b) -> bool:
    import pandas as pd

    if type(a) is not type(b) or not a.equals(b):
        return False
    if isinstance(a, pd.Index):
        return list(a.names) == list(b.names) and a.dtype == b.dtype
    if list(a.index.names) != list(b.index.names) or a.index.dtype != b.index.dtype:
        return False
    if isinstance(a, pd.Series):
        return a.name == b.name
    return list(a.columns.names) == list(b.columns.names) and a.columns.dtype == b.columns.dtype


def same_fields(self, other, skip: tuple[str, ...] = ()) -> bool:
    """``self == other`` for a dataclass: same type and every compared field equal
    (:func:`equal`). Assign it as ``__eq__`` (with ``eq=False`` in the decorator, so
    the instances are not hashable: their arrays are not).

    Fields declared with ``compare=False``, and those named in ``skip``, are left
    out.
    """
    if type(other) is not type(self):
        return NotImplemented
    return all(
        equal(getattr(self, f.name), getattr(other, f.name))
        for f in dataclasses.fields(self)
        if f.compare and f.name not in skip
    )
