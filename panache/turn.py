r"""The turn roll solved exactly: optimal set-aside policies and their distributions.

A turn roll (docs/rules.md, The turn roll) is a finite Markov decision process. Its
state is the number of dice left to roll ``m`` and the total ``s`` of the dice set
aside (the set-aside faces matter only through their total); the final reward is a utility
``u`` of the final total. With ``R`` ranging over the multisets of ``m`` dice and
``K`` over the non-empty sub-multisets of ``R``,

.. math::

    V_0(s) = u(s), \qquad
    V_m(s) = \sum_R P(R)\, \max_{\emptyset \ne K \subseteq R} V_{m-|K|}\bigl(s + v(K)\bigr),

where ``v(K)`` is the value of the faces in ``K``. Keeping every die rolled is
stopping. Sub-multisets with the same size and value lead to the same state, so
the options of a roll are the distinct pairs ``(|K|, v(K))``. Ties (to 1e-12) go to
the option with the higher expected total under the policy that follows (so that among
the policies optimal for a goal, the one chosen loses the least expected total; for
``"ev"`` this changes nothing), then to keeping more dice, then to the higher value.
The optimal policy is then evaluated exactly by forward propagation of probabilities
over the set-aside multisets, which gives the full distribution of the total; the same
propagation evaluates any other policy (:func:`evaluate_policy`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from panache._kernels import evaluate_policy_kernel, expand_policy_kernel, solve_turn_kernel
from panache.dice import DiceSpace, dice_space
from panache.policy import TurnPolicy, policy_layout, tabulate_policy
from panache.rules import Rules
from tabletop.frozen import memoize, same_fields
from tabletop.validate import PROBABILITY_TOLERANCE, check_fields, check_probabilities

if TYPE_CHECKING:
    import pandas as pd


UTILITY_NAMES = ("ev", "zero", "positive", "at_least:k")


@dataclass(frozen=True, eq=False)
class TurnTables:
    """Everything the turn solver needs that depends on the dice only (cached per rules).

    Shared by every solve of the same dice: its arrays are read-only. ``==`` compares
    the arrays.
    """

    space: DiceSpace
    values: np.ndarray  # value of every multiset
    sums: np.ndarray  # sorted distinct values of multisets of 0..n dice
    sum_index: np.ndarray  # position of each multiset's value in sums
    state_start: np.ndarray  # sums of j dice: state_sum[state_start[j]:state_start[j+1]]
    state_sum: np.ndarray
    opt_start: np.ndarray  # options of roll r: opt_start[r]:opt_start[r+1]
    opt_size: np.ndarray
    opt_value: np.ndarray
    opt_kept: np.ndarray  # a canonical multiset realising the option
    choice_offset: np.ndarray

    __eq__ = same_fields

    @property
    def totals(self) -> np.ndarray:
        """The reachable final totals, lowest first."""
        n = self.space.n
        return self.sums[self.state_sum[self.state_start[n] : self.state_start[n + 1]]]


@memoize(maxsize=9)
def _submultisets(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (roll R, non-empty K within R) of sizes up to n, as index arrays."""
    space = dice_space(n)
    rolls, kept = [], []
    for k in range(1, n + 1):
        ks = np.arange(space.size_offset[k], space.size_offset[k + 1])
        for rest in range(0, n - k + 1):
            ls = np.arange(space.size_offset[rest], space.size_offset[rest + 1])
            codes = space.codes[ks][:, None] + space.codes[ls][None, :]
            rolls.append(space.index_of_code[codes].ravel())
            kept.append(np.repeat(ks, ls.size))
    return np.concatenate(rolls), np.concatenate(kept)


@memoize(maxsize=64)
def _tables(n: int, face_values: tuple[int, ...]) -> TurnTables:
    space = dice_space(n)
    values = space.counts @ np.array(face_values, dtype=np.int64)
    sums = np.unique(values)
    sum_index = np.searchsorted(sums, values)
    per_size = [np.unique(sum_index[space.of_size(j)]) for j in range(n + 1)]
    state_start = np.concatenate([[0], np.cumsum([p.size for p in per_size])])
    state_sum = np.concatenate(per_size)

    roll, kept = _submultisets(n)
    size, value, code = space.sizes[kept], values[kept], space.codes[kept]
    order = np.lexsort((-code, -value, -size, roll))  # per roll: more dice, higher value
    roll, kept, size, value = roll[order], kept[order], size[order], value[order]
    first = np.ones(roll.size, dtype=bool)
    first[1:] = (roll[1:] != roll[:-1]) | (size[1:] != size[:-1]) | (value[1:] != value[:-1])
    roll, kept, size, value = roll[first], kept[first], size[first], value[first]
    opt_start = np.searchsorted(roll, np.arange(len(space.sizes) + 1))

    n_rolls = np.diff(space.size_offset)
    n_states = np.diff(state_start)
    blocks = [0] + [int(n_states[n - m] * n_rolls[m]) for m in range(1, n + 1)]
    choice_offset = np.concatenate([[0], np.cumsum(blocks)])
    return TurnTables(
        space, values, sums, sum_index, state_start, state_sum,
        opt_start, size, value, kept, choice_offset,
    )  # fmt: skip


def turn_tables(rules: Rules) -> TurnTables:
    """The :class:`TurnTables` of ``rules`` (cached)."""
    return _tables(rules.n_dice, rules.face_values)


def reachable_totals(rules: Rules) -> np.ndarray:
    """Every total a turn roll can end on, lowest first.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    numpy.ndarray of int
        The totals, a copy the caller may write.

    Examples
    --------
    >>> reachable_totals(Rules()).tolist() == list(range(-20, 6))
    True
    """
    rules = Rules.check(rules, default=False)
    return turn_tables(rules).totals.copy()


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def utility_vector(rules: Rules, utility) -> np.ndarray:
    """The utility of each reachable total (lowest first) as a float array.

    ``utility`` is a name (``"ev"``: the total; ``"zero"``: 1 if the total is 0;
    ``"positive"``: 1 if it is > 0; ``"at_least:k"``: 1 if it is >= k), an array over
    :func:`reachable_totals`, or a callable of one total.

    Parameters
    ----------
    rules : Rules
    utility : str, array_like or callable
        As above; every value must be finite.

    Returns
    -------
    numpy.ndarray of float
        One value per reachable total.

    Examples
    --------
    >>> from panache import Rules
    >>> u = utility_vector(Rules(), "at_least:4")
    >>> u.size, float(u.sum())
    (26, 2.0)
    >>> bool((utility_vector(Rules(), lambda t: 2 * t) == 2 * reachable_totals(Rules())).all())
    True
    """
    rules = Rules.check(rules, default=False)
    totals = reachable_totals(rules)
    if isinstance(utility, str):
        name, _, arg = utility.partition(":")
        if name == "ev" and not arg:
            out = totals.astype(np.float64)
        elif name == "zero" and not arg:
            out = (totals == 0).astype(np.float64)
        elif name == "positive" and not arg:
            out = (totals > 0).astype(np.float64)
        elif name == "at_least" and _is_int(arg):
            out = (totals >= int(arg)).astype(np.float64)
        else:
            raise ValueError(f"utility name must be one of {UTILITY_NAMES}, got {utility!r}")
    elif callable(utility):
        out = np.empty(totals.size)
        for k, t in enumerate(totals):
            try:
                value = utility(int(t))
            except TypeError as exc:  # not a function of one total
                raise TypeError(f"utility must be a function of one total, such as "
                                f"lambda t: t; calling it failed: {exc}") from None
            try:
                out[k] = float(value)
            except (TypeError, ValueError):
                raise TypeError(f"utility({int(t)}) must be a number, got {value!r:.80}") from None
    else:
        try:
            out = np.asarray(utility, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"utility must be a name, an array of numbers or a callable, "
                            f"got {utility!r:.80}") from None
        if out.shape != totals.shape:
            raise ValueError(
                f"utility array must have one value per reachable total ({totals.size}: "
                f"{totals[0]}..{totals[-1]}), got shape {out.shape}"
            )
    if not np.all(np.isfinite(out)):
        raise ValueError("utility must be finite for every reachable total")
    return np.ascontiguousarray(out)


@dataclass(frozen=True, eq=False)
class TurnDistribution:
    """The exact outcome of a turn roll under a policy.

    Built anew by each call: its Series is the caller's own and may be written.
    ``==`` compares values (NaN equal to NaN).

    Attributes
    ----------
    distribution : pandas.Series
        P(total = t), indexed by every reachable total (``total``).
    expected_dice : float
        Expected number of dice thrown (finite, >= 0).
    expected_rolls : float
        Expected number of rolls (finite, >= 0).

    Examples
    --------
    >>> from panache import Rules, evaluate_policy, solve_turn
    >>> rules = Rules()
    >>> sol = solve_turn(rules)
    >>> d = evaluate_policy(rules, sol.policy)
    >>> round(float(d.distribution.sum()), 12), abs(d.expect(rules, "ev") - sol.value) < 1e-12
    (1.0, True)
    """

    distribution: pd.Series
    expected_dice: float
    expected_rolls: float

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, expected_dice=(0.0, None), expected_rolls=(0.0, None))
        check_probabilities("TurnDistribution.distribution", self.distribution,
                            rounding=PROBABILITY_TOLERANCE)  # fmt: skip

    def expect(self, rules: Rules, utility) -> float:
        """Expected utility (see :func:`utility_vector`) of the total."""
        return float(self.distribution.to_numpy() @ utility_vector(rules, utility))


@dataclass(frozen=True, eq=False)
class TurnSolution:
    """The optimal turn roll for a utility.

    Built anew by each call (only the dice tables behind it are cached): its pandas
    objects are the caller's own and may be written; the policy's table is read-only.
    ``==`` compares values (NaN equal to NaN).

    Attributes
    ----------
    value : float
        Optimal expected utility from the first roll (finite).
    distribution : pandas.Series
        P(total = t) under the optimal policy, indexed by every reachable total.
    policy : TurnPolicy
        The optimal policy, queryable with ``policy.choose(set_aside, rolled)``.
    values : pandas.DataFrame
        The value function: expected utility with ``dice_left`` dice to roll (rows)
        and a set-aside total (columns); NaN where unreachable.
    expected_dice : float
        Expected number of dice thrown under the optimal policy (finite, >= 0).
    utility : pandas.Series
        The utility of each reachable total.

    Examples
    --------
    >>> from panache import Rules, solve_turn
    >>> sol = solve_turn(Rules(), "positive")
    >>> abs(sol.value - float((sol.distribution * sol.utility).sum())) < 1e-12
    True
    """

    value: float
    distribution: pd.Series
    policy: TurnPolicy
    values: pd.DataFrame
    expected_dice: float
    utility: pd.Series

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, value=(None, None), expected_dice=(0.0, None))


def _distribution(rules: Rules, reach: np.ndarray) -> pd.Series:
    import pandas as pd

    tables = turn_tables(rules)
    final = tables.space.of_size(rules.n_dice)
    totals = tables.totals
    probs = np.bincount(
        np.searchsorted(totals, tables.values[final]), weights=reach[final], minlength=totals.size
    )
    return pd.Series(probs, index=pd.Index(totals, name="total"), name="probability")


def evaluate_policy(rules: Rules, policy: TurnPolicy | Callable) -> TurnDistribution:
    """Exact distribution of the total of a turn roll under ``policy``.

    Parameters
    ----------
    rules : Rules
    policy : TurnPolicy or callable
        A table, or ``f(set_aside, rolled) -> faces to set aside`` (faces 1..6).

    Returns
    -------
    TurnDistribution

    Examples
    --------
    >>> from panache import Rules, human_policy
    >>> d = evaluate_policy(Rules(n_dice=1), human_policy(Rules(n_dice=1), "best_die"))
    >>> d.distribution.round(4).tolist(), d.expected_dice
    ([0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667], 1.0)
    """
    rules = Rules.check(rules, default=False)
    policy = tabulate_policy(rules.n_dice, policy)
    if policy.n_dice != rules.n_dice:
        raise ValueError(f"policy is for {policy.n_dice} dice, rules have n_dice={rules.n_dice}")
    space = dice_space(rules.n_dice)
    table_offset, _, _ = policy_layout(rules.n_dice)
    reach, dice, rolls = evaluate_policy_kernel(
        rules.n_dice, space.sizes, space.size_offset, space.probability,
        space.codes, space.index_of_code, table_offset, policy.kept,
    )  # fmt: skip
    return TurnDistribution(_distribution(rules, reach), float(dice), float(rolls))


def solve_turn(rules: Rules, utility="ev") -> TurnSolution:
    """The optimal set-aside policy of one turn roll, its value and its distribution.

    Parameters
    ----------
    rules : Rules
    utility : str, array_like or callable
        What the player maximises, as a function of the final total: ``"ev"``
        (expected total), ``"zero"`` (P(total = 0), the Master Panache attempt),
        ``"positive"`` (P(total > 0)), ``"at_least:k"`` (P(total >= k)), an array over
        :func:`reachable_totals` (lowest first) or a callable of the total. To
        minimise, pass a negated utility. Where several keeps are optimal, the policy
        takes the one with the highest expected total (its value is the same; its
        other outcomes are the best an optimal policy can have).

    Returns
    -------
    TurnSolution

    Examples
    --------
    >>> from panache import Rules
    >>> sol = solve_turn(Rules(), "ev")
    >>> round(sol.value, 4)                 # the best expected total
    -0.5639
    >>> sol.policy.choose(set_aside=(), rolled=(6, 5, 5, 3, 1))
    (6,)
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    t = turn_tables(rules)
    n = rules.n_dice
    u = utility_vector(rules, utility)
    final_utility = np.full(t.sums.size, np.nan)
    final_utility[t.state_sum[t.state_start[n] : t.state_start[n + 1]]] = u
    # among optimal options, the one with the higher expected total (then keeping more
    # dice, then the higher value): the other outcomes of a goal's policy are its best
    final_total = np.where(np.isnan(final_utility), np.nan, t.sums.astype(np.float64))
    value, _, choice = solve_turn_kernel(
        n, t.sums, t.state_start, t.state_sum, t.space.size_offset, t.space.probability,
        t.opt_start, t.opt_size, t.opt_value, final_utility, final_total, t.choice_offset,
    )  # fmt: skip
    table_offset, _, _ = policy_layout(n)
    kept = expand_policy_kernel(
        n, t.space.sizes, t.space.size_offset, t.sum_index, t.state_start, t.state_sum,
        choice, t.choice_offset, t.opt_kept, table_offset,
    )  # fmt: skip
    name = utility if isinstance(utility, str) else "custom"
    policy = TurnPolicy(n, kept, name=f"optimal[{name}]")
    evaluated = evaluate_policy(rules, policy)
    frame = pd.DataFrame(
        value,
        index=pd.RangeIndex(n + 1, name="dice_left"),
        columns=pd.Index(t.sums, name="set_aside_total"),
    )
    start = int(np.searchsorted(t.sums, 0))
    return TurnSolution(
        value=float(value[n, start]),
        distribution=evaluated.distribution,
        policy=policy,
        values=frame,
        expected_dice=evaluated.expected_dice,
        utility=pd.Series(u, index=pd.Index(t.totals, name="total"), name="utility"),
    )
