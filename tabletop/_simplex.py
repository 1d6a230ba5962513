"""Dense simplex for small zero-sum matrix games. Private: no validation.

For a payoff matrix ``B`` with every entry in [1, 2] (any matrix, shifted and
scaled), the column player's programme

.. math::

    \\max\\ \\mathbf 1^\\top q \\quad \\text{s.t.}\\quad B q \\le \\mathbf 1,\\ q \\ge 0

is feasible at q = 0 with the slacks as basis, and bounded. At its optimum
:math:`\\mathbf 1^\\top q = 1 / v` with v the value of B; ``q / sum(q)`` is an optimal
column strategy and the duals of the constraints (the objective row's entries
under the slacks), normalised, an optimal row strategy. Pivots follow Dantzig's
rule (most negative reduced cost), and Bland's rule (smallest index) after a
degenerate pivot, which rules out cycling. The leaving row is the one with the largest
pivot entry among those within a rounding-sized margin of the smallest ratio (Harris's
two passes, :func:`leaving_row`): the smallest ratio alone may pick an entry of 1e-11
in a degenerate tie, whose rounding then ruins the tableau (the double oracle of the
Citadel duel missed its gap on 2% of its stage games that way). A pure saddle point
is found first, without a tableau.

References
----------
.. [1] Dantzig, G. B., *Linear Programming and Extensions*, Princeton (1963), ch. 13
   (matrix games as linear programmes).
.. [2] Bland, R. G., "New finite pivoting rules for the simplex method",
   *Mathematics of Operations Research* 2 (1977), 103-107.
.. [3] Harris, P. M. J., "Pivot selection methods of the Devex LP code", *Mathematical
   Programming* 5 (1973), 1-28.
"""

import numpy as np

from tabletop.jit import jit

#: Reduced costs and pivot entries below this are treated as 0 (entries of B are in [1, 2]).
EPS = 1e-12
#: How far below 0 the ratio tests let a basic variable (or a reduced cost) go so as to
#: pivot on the largest entry among near ties (Harris 1973): a pivot on an entry of
#: 1e-11 where a larger one was as good would spread its rounding over the tableau.
HARRIS = 1e-14


@jit
def leaving_row(T, enter, rhs, basis, k):
    """The primal ratio test on column ``enter`` of the constraint rows ``0..k-1`` of
    ``T`` (right-hand sides ``rhs``): ``(row, ratio)``, row -1 when no entry exceeds
    ``EPS``. Harris's two passes: the smallest ratio with each right-hand side
    loosened by :data:`HARRIS` bounds the step; among the rows within the bound the
    largest pivot entry leaves, ties to the smallest basic index. A right-hand side
    already below 0 (by at most ``HARRIS``) counts as 0."""
    bound = np.inf
    for r in range(k):
        t = T[r, enter]
        if t > EPS:
            q = (max(rhs[r], 0.0) + HARRIS) / t
            if q < bound:
                bound = q
    leave = -1
    best = 0.0
    ratio = np.inf
    for r in range(k):
        t = T[r, enter]
        if t > EPS:
            q = max(rhs[r], 0.0) / t
            if q <= bound and (t > best or (t == best and basis[r] < basis[leave])):
                best = t
                leave = r
                ratio = q
    return leave, ratio


@jit
def saddle_point(A):
    """A pure saddle point (i, j) of ``A`` (shape (m, n)), or (-1, -1) if there is none."""
    m, n = A.shape
    best_i, best_low = 0, np.inf
    lows = np.empty(m)
    for i in range(m):
        low = A[i, 0]
        for j in range(1, n):
            if A[i, j] < low:
                low = A[i, j]
        lows[i] = low
    best_low = lows.max()
    best_i = int(np.argmax(lows))
    best_j, best_high = 0, -np.inf
    highs = np.empty(n)
    for j in range(n):
        high = A[0, j]
        for i in range(1, m):
            if A[i, j] > high:
                high = A[i, j]
        highs[j] = high
    best_high = highs.min()
    best_j = int(np.argmin(highs))
    if best_low == best_high:
        return best_i, best_j
    return -1, -1


@jit
def solve_game(A, row, column):
    """Optimal mixed strategies of the zero-sum game ``A`` (row player's gains).

    Writes ``row`` (length m) and ``column`` (length n); returns the saddle-point gap
    ``max(A @ column) - min(row @ A)``, or -1.0 when the pivots did not finish (the
    caller then uses another solver). Work array: the tableau, shape (m + 1, n + m + 1):
    rows are the constraints ``B q + s = 1`` and the objective; columns q, s, rhs.
    """
    m, n = A.shape
    row[:] = 0.0
    column[:] = 0.0
    i0, j0 = saddle_point(A)
    if i0 >= 0:
        row[i0] = 1.0
        column[j0] = 1.0
        return 0.0
    low, high = A.min(), A.max()
    scale = high - low
    width = n + m + 1
    T = np.zeros((m + 1, width))
    basis = np.empty(m, dtype=np.int64)
    for i in range(m):
        for j in range(n):
            T[i, j] = (A[i, j] - low) / scale + 1.0
        T[i, n + i] = 1.0
        T[i, width - 1] = 1.0
        basis[i] = n + i
    for j in range(n):
        T[m, j] = -1.0
    bland = False
    done = False
    for _ in range(50 * (m + n) + 100):
        enter = -1
        if bland:
            for j in range(width - 1):
                if T[m, j] < -EPS:
                    enter = j
                    break
        else:
            most = -EPS
            for j in range(width - 1):
                if T[m, j] < most:
                    most = T[m, j]
                    enter = j
        if enter < 0:
            done = True
            break
        leave, ratio = leaving_row(T, enter, T[:, width - 1], basis, m)
        if leave < 0:  # unbounded: impossible for B > 0
            break
        bland = ratio <= EPS
        p = T[leave, enter]
        for j in range(width):
            T[leave, j] /= p
        for i in range(m + 1):
            if i != leave:
                f = T[i, enter]
                if f != 0.0:
                    for j in range(width):
                        T[i, j] -= f * T[leave, j]
        basis[leave] = enter
    if not done:
        return -1.0
    for i in range(m):
        if basis[i] < n:
            column[basis[i]] = max(T[i, width - 1], 0.0)
    for i in range(m):
        row[i] = max(T[m, n + i], 0.0)
    s_row, s_col = row.sum(), column.sum()
    if s_row <= 0.0 or s_col <= 0.0:
        return -1.0
    row /= s_row
    column /= s_col
    worst = np.inf  # min over columns of row @ A
    for j in range(n):
        t = 0.0
        for i in range(m):
            t += row[i] * A[i, j]
        worst = min(worst, t)
    best = -np.inf  # max over rows of A @ column
    for i in range(m):
        t = 0.0
        for j in range(n):
            t += A[i, j] * column[j]
        best = max(best, t)
    return max(best - worst, 0.0)


@jit
def game_value(A, row, column):
    """``row @ A @ column``."""
    m, n = A.shape
    total = 0.0
    for i in range(m):
        if row[i] != 0.0:
            t = 0.0
            for j in range(n):
                t += A[i, j] * column[j]
            total += row[i] * t
    return total


#: Matrices with more entries than this are solved by :func:`solve_oracle`.
ORACLE_SIZE = 400


@jit
def solve_oracle(A, row, column, warm_row, warm_column, tol):
    """:func:`solve_game` by double oracle (McMahan, Gordon and Blum 2003): solve the
    game restricted to a few orders of each side, add each side's best response to the
    other's restricted solution over the whole matrix, repeat until neither gains more
    than ``tol``. Starts from the supports of ``warm_row`` / ``warm_column`` (with the
    first and last order of each side). Writes ``row`` and ``column``; returns the
    saddle-point gap on the whole matrix, or -1.0 (see :func:`solve_game`).
    """
    m, n = A.shape
    in_r = warm_row > 0.0
    in_c = warm_column > 0.0
    in_r[0] = in_r[m - 1] = True
    in_c[0] = in_c[n - 1] = True
    by_row = np.empty(m)
    by_col = np.empty(n)
    for _ in range(m + n + 1):
        rows = np.flatnonzero(in_r)
        cols = np.flatnonzero(in_c)
        sub = np.empty((rows.size, cols.size))
        for a in range(rows.size):
            for b in range(cols.size):
                sub[a, b] = A[rows[a], cols[b]]
        sub_r, sub_c = np.empty(rows.size), np.empty(cols.size)
        if solve_game(sub, sub_r, sub_c) < 0.0:
            return -1.0
        row[:] = 0.0
        column[:] = 0.0
        row[rows] = sub_r
        column[cols] = sub_c
        for i in range(m):  # A @ column
            t = 0.0
            for b in range(cols.size):
                t += A[i, cols[b]] * sub_c[b]
            by_row[i] = t
        by_col[:] = 0.0  # row @ A
        for a in range(rows.size):
            w = sub_r[a]
            for j in range(n):
                by_col[j] += w * A[rows[a], j]
        i_best, j_best = int(np.argmax(by_row)), int(np.argmin(by_col))
        gap = by_row[i_best] - by_col[j_best]
        if gap <= tol:
            return max(gap, 0.0)
        grew = False
        if not in_r[i_best]:
            in_r[i_best] = True
            grew = True
        if not in_c[j_best]:
            in_c[j_best] = True
            grew = True
        if not grew:  # the restricted solve is not exact enough: let the caller decide
            return gap
    return -1.0


@jit
def solve_checked(A, row, column, small_gap, warm_row, warm_column):
    """:func:`solve_game` (:func:`solve_oracle` past ``ORACLE_SIZE`` entries, warm
    started from ``warm_row`` / ``warm_column``), then its value; the gap is -1.0 when
    it exceeds ``small_gap`` times the spread of the payoffs (or the pivots did not
    finish)."""
    tol = small_gap * max(A.max() - A.min(), 1.0)
    if A.size > ORACLE_SIZE:
        gap = solve_oracle(A, row, column, warm_row, warm_column, 0.5 * tol)
    else:
        gap = solve_game(A, row, column)
    if gap < 0.0 or gap > tol:
        return 0.0, -1.0
    return game_value(A, row, column), gap
