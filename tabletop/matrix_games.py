"""Two-player zero-sum matrix games, solved exactly by linear programming.

The row player picks a mixed strategy ``x`` and receives ``x @ A @ y``; the column
player picks ``y`` and pays it. By von Neumann's minimax theorem

    max_x min_y x A y = min_y max_x x A y = v,

and each side's optimal strategy is the solution of a linear programme:

    row:     maximise v  subject to  A^T x >= v 1,  sum(x) = 1,  x >= 0;
    column:  minimise w  subject to  A y   <= w 1,  sum(y) = 1,  y >= 0.

The two programmes are each other's duals, so one solve gives both: the row
strategy from the primal solution, the column strategy from the duals. It is solved
with HiGHS (``scipy.optimize.linprog(method="highs")``, feasibility
tolerances tightened to 1e-10). The matrix is
first shifted and scaled to [0, 1] (which changes neither optimal strategy), so the
solver's tolerances are relative to the spread of the payoffs; the value is then
recomputed from the strategies in the original units. :attr:`ZeroSumSolution.gap`
reports how far the pair is from an exact saddle point, ``max(A y) - min(x A)``,
which is 0 for exact optimal strategies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop.frozen import same_fields


@dataclass(frozen=True, eq=False)
class ZeroSumSolution:
    """Value and optimal mixed strategies of a zero-sum matrix game.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    value : float
        The game's value to the row player.
    row : numpy.ndarray
        An optimal mixed strategy of the row player (sums to 1).
    column : numpy.ndarray
        An optimal mixed strategy of the column player (sums to 1).
    gap : float
        ``max(A @ column) - min(row @ A)`` (>= 0): the sum of what each player could
        gain by deviating; 0 up to the solver's tolerance.
    """

    value: float
    row: np.ndarray
    column: np.ndarray
    gap: float

    __eq__ = same_fields


def _check_matrix(A) -> np.ndarray:
    try:
        A = np.array(A, dtype=np.float64, order="C")
    except (TypeError, ValueError):
        raise TypeError(f"A must be a 2-D array of numbers, got {type(A).__name__}") from None
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"A must be a non-empty 2-D array, got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError("A must hold finite numbers only")
    return A


#: Tighter than HiGHS's defaults (1e-7): values feed long chains of stage games. When
#: payoffs differ by less than those tolerances HiGHS can stop with a solve error; the
#: programme is then solved again with its defaults (the reported ``gap`` still says
#: how exact the answer is).
_HIGHS_OPTIONS = (
    {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    {},
)


def _maximin(B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Optimal mixed strategies of both players of ``B`` (entries in [0, 1]).

    The row player's from the primal solution; the column player's from the duals of
    the constraints ``v <= (B^T x)_j`` (LP duality is the minimax theorem).
    """
    from scipy.optimize import linprog

    m, n = B.shape
    # variables (x_1..x_m, v); minimise -v subject to v - (B^T x)_j <= 0
    c = np.zeros(m + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-B.T, np.ones((n, 1))])
    A_eq = np.ones((1, m + 1))
    A_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * m + [(None, None)]
    for options in _HIGHS_OPTIONS:
        res = linprog(c, A_ub=A_ub, b_ub=np.zeros(n), A_eq=A_eq, b_eq=[1.0], bounds=bounds,
                      method="highs", options=options)  # fmt: skip
        if res.status == 0:
            break
    else:  # pragma: no cover - a bounded feasible LP always solves with the defaults
        raise RuntimeError(f"linear programme failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    y = np.clip(-res.ineqlin.marginals, 0.0, None)
    return x / x.sum(), y / y.sum()


#: Largest saddle-point gap, relative to the spread of the payoffs, accepted from the
#: dense simplex of :func:`solve_small_zero_sum` before it falls back to HiGHS.
SMALL_GAP = 1e-12


def solve_small_zero_sum(A: np.ndarray) -> ZeroSumSolution:
    """:func:`solve_zero_sum` for a small float64 matrix, without the LP set-up cost.

    A pure saddle point is looked for first, then a dense simplex runs in compiled
    code (:mod:`tabletop._simplex`), by double oracle over growing sub-games past 400
    entries (each answer checked by best responses over the whole matrix); where its
    saddle-point gap exceeds ``SMALL_GAP`` times the spread of the payoffs (or its
    pivots do not finish), HiGHS solves the game instead. For matrices of up to a few
    hundred rows called many times, as the stage games of a stochastic game are.
    ``A`` is not checked: a C-ordered 2-D float64 array of finite numbers.

    Examples
    --------
    >>> sol = solve_small_zero_sum(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    >>> round(sol.value, 12), sol.row.round(12).tolist(), sol.gap < 1e-12
    (0.0, [0.5, 0.5], True)
    """
    from tabletop._simplex import solve_checked

    row = np.empty(A.shape[0])
    column = np.empty(A.shape[1])
    value, gap = solve_checked(A, row, column, SMALL_GAP, np.zeros(A.shape[0]),
                               np.zeros(A.shape[1]))  # fmt: skip
    if gap < 0.0:
        return solve_zero_sum(A)
    return ZeroSumSolution(value, row, column, gap)


def solve_zero_sum(A) -> ZeroSumSolution:
    """Solve the zero-sum game with payoff matrix ``A`` (row player's gains).

    Parameters
    ----------
    A : array_like, shape (m, n)
        Payoff to the row player; the column player receives ``-A``.

    Returns
    -------
    ZeroSumSolution
        The value and an optimal mixed strategy of each player.

    Examples
    --------
    Matching pennies: value 0, both players mix half and half.

    >>> sol = solve_zero_sum([[1, -1], [-1, 1]])
    >>> round(sol.value, 9), sol.row.round(9).tolist(), sol.column.round(9).tolist()
    (0.0, [0.5, 0.5], [0.5, 0.5])
    """
    A = _check_matrix(A)
    low, high = A.min(), A.max()
    if high == low:
        m, n = A.shape
        return ZeroSumSolution(float(low), np.full(m, 1.0 / m), np.full(n, 1.0 / n), 0.0)
    # payoffs so large that their range overflows (1e308 and -1e308) are scaled first;
    # any other matrix is used as it is, so its results stay the same to the last bit
    with np.errstate(over="ignore"):
        spread = high - low
    scale = 1.0 if np.isfinite(spread) else float(max(abs(low), abs(high)))
    S = A / scale if scale != 1.0 else A
    B = (S - low / scale) / (high / scale - low / scale)
    row, column = _maximin(B)
    guaranteed = float((row @ S).min())
    conceded = float((S @ column).max())
    return ZeroSumSolution(
        value=float(row @ S @ column) * scale,
        row=row,
        column=column,
        gap=max(conceded - guaranteed, 0.0) * scale,
    )
