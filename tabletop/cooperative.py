"""Cooperative games with transferable utility: Shapley value and (least) core.

A game on players ``1..n`` is a characteristic function ``v`` giving each coalition
``S`` the total it can secure; ``v(empty) = 0``. Here ``v`` is a mapping from
coalitions (any iterable of player names, order ignored) to numbers, with an entry
for every non-empty coalition.

* **Shapley value** (L. S. Shapley, "A value for n-person games", 1953): player i
  receives its marginal contribution averaged over the orders in which the grand
  coalition can form,

      phi_i = sum over S not containing i of |S|! (n - |S| - 1)! / n! (v(S + i) - v(S)).

* **Core**: the allocations ``x`` of ``v(N)`` (``sum x = v(N)``) that no coalition
  can improve on (``sum_{i in S} x_i >= v(S)`` for every S). The **least core**
  relaxes every constraint by the same ``eps`` and takes the smallest ``eps`` that
  leaves an allocation (M. Maschler, B. Peleg, L. S. Shapley, 1979): the core is
  non-empty exactly when that ``eps <= 0``. It is one linear programme, solved with
  HiGHS (``scipy.optimize.linprog``).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tabletop.frozen import same_fields
from tabletop.validate import check_fields

if TYPE_CHECKING:
    import pandas as pd


def _players_and_values(v: Mapping, players) -> tuple[tuple, dict]:
    if not isinstance(v, Mapping):
        raise TypeError(f"v must be a mapping from coalitions to numbers, got {type(v).__name__}")
    if not hasattr(players, "__iter__"):  # a string is a sequence of one-letter players
        raise TypeError(f"players must be a sequence of players, got {players!r}")
    players = tuple(players)
    if len(set(players)) != len(players) or not players:
        raise ValueError(f"players must be distinct and at least one, got {players!r}")
    table = {}
    for coalition, value in v.items():
        key = frozenset(coalition)
        if not key <= set(players):
            raise ValueError(f"v's coalition {coalition!r} names a player not in "
                             f"players={players!r}")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"v({coalition!r}) must be a real number (not a bool or a "
                            f"string), got {value!r}")
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"v({coalition!r}) must be finite, got {value!r}")
        table[key] = value
    table.setdefault(frozenset(), 0.0)
    if table[frozenset()] != 0.0:
        raise ValueError(f"v(empty coalition) must be 0, got {table[frozenset()]}")
    if len(table) < 2 ** len(players):  # counted first: listing 2**30 coalitions takes hours
        raise ValueError(f"v must give a value to every one of the {2 ** len(players) - 1:,} "
                         f"non-empty coalitions of {len(players)} players, got "
                         f"{len(table) - 1:,}")  # fmt: skip
    return players, table  # every key a distinct subset of the players: all are there


def shapley_value(v: Mapping, players) -> pd.Series:
    """Each player's Shapley value.

    Parameters
    ----------
    v : mapping
        Coalition (iterable of players) -> value, for every non-empty coalition.
    players : sequence
        The players, in the order of the result.

    Returns
    -------
    pandas.Series
        Indexed by player; sums to ``v(all players)``.

    Examples
    --------
    The glove game: player "L" holds a left glove, "R1" and "R2" a right one each; a
    pair is worth 1.

    >>> v = {c: float("L" in c and len(c) > 1) for n in (1, 2, 3)
    ...      for c in itertools.combinations(["L", "R1", "R2"], n)}
    >>> shapley_value(v, ["L", "R1", "R2"]).round(4).tolist()
    [0.6667, 0.1667, 0.1667]
    """
    import pandas as pd

    players, table = _players_and_values(v, players)
    n = len(players)
    phi = np.zeros(n)
    for i, p in enumerate(players):
        others = [q for q in players if q != p]
        for size in range(n):
            weight = math.factorial(size) * math.factorial(n - size - 1) / math.factorial(n)
            for coalition in itertools.combinations(others, size):
                s = frozenset(coalition)
                phi[i] += weight * (table[s | {p}] - table[s])
    return pd.Series(phi, index=pd.Index(players, name="player"), name="shapley")


@dataclass(frozen=True, eq=False)
class LeastCore:
    """The least core of a game.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    epsilon : float
        The smallest uniform relaxation leaving an allocation; the core is non-empty
        exactly when ``epsilon <= 0`` (up to the LP tolerance, 1e-9). Finite: never
        NaN or infinite.
    allocation : pandas.Series
        An allocation in the least core (indexed by player).
    excess : pandas.Series
        ``v(S) - sum of the allocation over S`` for every proper coalition, largest
        first (the coalitions that most want to leave).

    Examples
    --------
    >>> v = {c: float(len(c) >= 2) for n in (1, 2, 3)
    ...      for c in itertools.combinations("AB", n)}
    >>> res = least_core(v, "AB")
    >>> round(float(res.allocation.sum()), 9), res.core_is_empty
    (1.0, False)
    """

    epsilon: float
    allocation: pd.Series
    excess: pd.Series

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, epsilon=(None, None))

    @property
    def core_is_empty(self) -> bool:
        return self.epsilon > 1e-9


def least_core(v: Mapping, players) -> LeastCore:
    """The least core: minimise eps subject to ``x(S) >= v(S) - eps`` for every proper
    coalition S and ``x(N) = v(N)``.

    Parameters
    ----------
    v : mapping
        Coalition (iterable of players) -> value, for every non-empty coalition.
    players : sequence
        The players, in the order of the allocation.

    Returns
    -------
    LeastCore
        ``epsilon``, one allocation in the least core and every proper coalition's excess.

    Examples
    --------
    Three players, any two of them win 1: every allocation leaves a pair short by
    1/3 at best, so the core is empty.

    >>> v = {c: float(len(c) >= 2) for n in (1, 2, 3)
    ...      for c in itertools.combinations("ABC", n)}
    >>> res = least_core(v, "ABC")
    >>> round(res.epsilon, 9), res.core_is_empty
    (0.333333333, True)
    """
    import pandas as pd
    from scipy.optimize import linprog

    players, table = _players_and_values(v, players)
    n = len(players)
    if n < 2:  # no proper coalition: no excess to bound
        raise ValueError(f"players must hold at least 2 players for a least core (one player "
                         f"simply gets v of itself), got {players!r}")
    proper = [frozenset(c) for size in range(1, n) for c in itertools.combinations(players, size)]
    # variables: x_1..x_n, eps; minimise eps
    cost = np.zeros(n + 1)
    cost[-1] = 1.0
    a_ub = np.zeros((len(proper), n + 1))
    b_ub = np.zeros(len(proper))
    for k, s in enumerate(proper):
        a_ub[k, [players.index(p) for p in s]] = -1.0
        a_ub[k, -1] = -1.0
        b_ub[k] = -table[s]
    a_eq = np.zeros((1, n + 1))
    a_eq[0, :n] = 1.0
    b_eq = [table[frozenset(players)]]
    res = linprog(cost, A_ub=a_ub if proper else None, b_ub=b_ub if proper else None,
                  A_eq=a_eq, b_eq=b_eq, bounds=[(None, None)] * (n + 1),
                  method="highs")  # fmt: skip
    if res.status != 0:  # pragma: no cover - the programme is always feasible and bounded
        raise RuntimeError(f"least-core LP failed: {res.message}")
    x = res.x[:n]
    names = ["".join(map(str, sorted(s, key=players.index))) for s in proper]
    excess = pd.Series([table[s] - sum(x[players.index(p)] for p in s) for s in proper],
                       index=pd.Index(names, name="coalition"), name="excess")  # fmt: skip
    return LeastCore(
        epsilon=float(res.x[-1]) if proper else 0.0,
        allocation=pd.Series(x, index=pd.Index(players, name="player"), name="allocation"),
        excess=excess.sort_values(ascending=False, kind="stable"),
    )
