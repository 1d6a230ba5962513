"""Double oracle for large zero-sum matrix games, on one simplex tableau kept between
its steps. Private: no validation.

As in :mod:`tabletop._simplex`, the matrix is shifted and scaled to ``B`` with entries
in [1, 2] and the column player's programme

.. math::

    \\max\\ \\mathbf 1^\\top q \\quad \\text{s.t.}\\quad B_{R, C}\\, q \\le \\mathbf 1,\\ q \\ge 0

is solved over a restricted set R of rows and C of columns (McMahan, Gordon and Blum
2003): each side's best response over the whole matrix to the other's restricted
solution is added until neither gains more than the tolerance. The restricted
programme is not solved again from the start at each step: its optimal tableau is
kept and

* a new column j enters as a new variable, its tableau column ``B_R^{-1} b_j`` read
  from the slack columns (which hold the basis inverse) and its reduced cost from the
  duals; the basis stays primal feasible and primal simplex pivots finish;
* a new row i enters as a new constraint with its slack basic, the basic variables
  eliminated from it; its right-hand side ``1 - b_i q`` is negative (the row is a
  best response that beats the restricted value), the objective row stays dual
  feasible, and dual simplex pivots finish.

So each step costs a few pivots over the restricted tableau instead of a whole solve.
Pivots: Dantzig's rule, Bland's after a degenerate pivot (primal); the most negative
right-hand side (dual); in both ratio tests Harris's two passes pick the largest pivot
entry among the near ties (``tabletop._simplex.leaving_row``). The answer
is checked by best responses over the whole matrix; the caller falls back to a solve
from scratch when the gap is not met (rounding accumulates over many pivots).

References
----------
.. [1] McMahan, H. B., Gordon, G. J. and Blum, A., "Planning in the presence of cost
   functions controlled by an adversary", *ICML* (2003) (the double oracle).
.. [2] Chvátal, V., *Linear Programming*, Freeman (1983), ch. 10 (the dual simplex
   method, and adding constraints and variables to a solved programme).
.. [3] Harris, P. M. J., "Pivot selection methods of the Devex LP code", *Mathematical
   Programming* 5 (1973), 1-28 (the two-pass ratio test).
"""

import numpy as np

from tabletop._simplex import (
    EPS,
    HARRIS,
    ORACLE_SIZE,
    game_value,
    leaving_row,
    saddle_point,
    solve_game,
)
from tabletop.jit import jit


@jit
def _pivot(T, z, rhs, basis, act, n_act, kr, leave, enter):
    """Pivot the restricted tableau on (row ``leave``, variable ``enter``).

    ``T`` (rows, variables): constraint rows 0..kr-1, only the ``act[:n_act]``
    columns meaningful; ``z`` the objective row (reduced costs), ``rhs`` the
    right-hand sides with the objective's value last."""
    p = T[leave, enter]
    for a in range(n_act):
        T[leave, act[a]] /= p
    rhs[leave] /= p
    for r in range(kr):
        if r != leave:
            f = T[r, enter]
            if f != 0.0:
                for a in range(n_act):
                    v = act[a]
                    T[r, v] -= f * T[leave, v]
                rhs[r] -= f * rhs[leave]
    f = z[enter]
    if f != 0.0:
        for a in range(n_act):
            v = act[a]
            z[v] -= f * T[leave, v]
        rhs[-1] -= f * rhs[leave]
    basis[leave] = enter


@jit
def _primal(T, z, rhs, basis, act, n_act, kr, max_pivots):
    """Primal simplex pivots to optimality from a primal feasible basis; False when they
    do not finish."""
    bland = False
    for _ in range(max_pivots):
        enter = -1
        if bland:
            for a in range(n_act):
                v = act[a]
                if z[v] < -EPS and (enter < 0 or v < enter):
                    enter = v
        else:
            most = -EPS
            for a in range(n_act):
                v = act[a]
                if z[v] < most:
                    most = z[v]
                    enter = v
        if enter < 0:
            return True
        leave, ratio = leaving_row(T, enter, rhs, basis, kr)
        if leave < 0:  # unbounded: impossible for B > 0
            return False
        bland = ratio <= EPS
        _pivot(T, z, rhs, basis, act, n_act, kr, leave, enter)
    return False


@jit
def _dual(T, z, rhs, basis, act, n_act, kr, max_pivots):
    """Dual simplex pivots to optimality from a dual feasible basis (``z >= 0``); False
    when they do not finish."""
    for _ in range(max_pivots):
        leave = -1
        low = -EPS
        for r in range(kr):
            if rhs[r] < low:
                low = rhs[r]
                leave = r
        if leave < 0:
            return True
        bound = np.inf  # Harris's two passes, as in ``leaving_row``
        for a in range(n_act):
            v = act[a]
            t = T[leave, v]
            if t < -EPS:
                bound = min(bound, (max(z[v], 0.0) + HARRIS) / -t)
        enter = -1
        best = 0.0
        for a in range(n_act):
            v = act[a]
            t = -T[leave, v]
            if t > EPS and max(z[v], 0.0) / t <= bound and (t > best or (t == best and v < enter)):
                best = t
                enter = v
        if enter < 0:  # the restricted programme is infeasible: impossible (q = 0)
            return False
        _pivot(T, z, rhs, basis, act, n_act, kr, leave, enter)
    return False


@jit
def _scaled(A, i, j, low, scale):
    return (A[i, j] - low) / scale + 1.0


@jit
def _add_row(A, i, low, scale, n, T, z, rhs, basis, act, n_act, kr, in_row_of):
    """Append row i of the game as constraint ``kr`` (its slack basic), the basic
    variables eliminated from it. Returns the new number of active variables."""
    slack = n + i
    act[n_act] = slack
    n_act += 1
    for a in range(n_act):
        v = act[a]
        T[kr, v] = _scaled(A, i, v, low, scale) if v < n else 0.0
    T[kr, slack] = 1.0
    rhs[kr] = 1.0
    for r in range(kr):
        T[r, slack] = 0.0
    for r in range(kr):
        b = basis[r]
        f = T[kr, b]
        if f != 0.0:
            for a in range(n_act):
                v = act[a]
                T[kr, v] -= f * T[r, v]
            rhs[kr] -= f * rhs[r]
    z[slack] = 0.0
    basis[kr] = slack
    in_row_of[i] = kr
    return n_act


@jit
def _add_column(A, j, low, scale, n, rows, T, z, rhs, act, n_act, kr):
    """Add column j of the game as a new variable: its tableau column (the basis
    inverse, read from the slack columns, times ``b_j``) and its reduced cost."""
    for r in range(kr):
        t = 0.0
        for c in range(kr):
            t += T[r, n + rows[c]] * _scaled(A, rows[c], j, low, scale)
        T[r, j] = t
    t = -1.0
    for c in range(kr):
        t += z[n + rows[c]] * _scaled(A, rows[c], j, low, scale)
    z[j] = t
    act[n_act] = j
    return n_act + 1


@jit
def _fresh(A, low, scale, n, T, z, rhs, basis, act, n_q, kr, rows):
    """The restricted game over ``rows[:kr]`` and the q's ``act[:n_q]`` in its slack
    basis (q = 0): fills ``T``, ``z``, ``rhs``, ``basis`` and appends the slacks to
    ``act``. Returns the number of active variables."""
    n_act = n_q
    for r in range(kr):
        act[n_act] = n + rows[r]
        n_act += 1
        z[n + rows[r]] = 0.0
        basis[r] = n + rows[r]
        rhs[r] = 1.0
    for a in range(n_q):
        z[act[a]] = -1.0
    for r in range(kr):
        for a in range(n_q):
            T[r, act[a]] = _scaled(A, rows[r], act[a], low, scale)
        for c in range(kr):
            T[r, n + rows[c]] = 1.0 if c == r else 0.0
    rhs[-1] = 0.0
    return n_act


@jit
def _strategies(T, z, rhs, basis, n, rows, kr, row, column):
    """The restricted solution as strategies over the whole matrix: ``row`` from the
    duals (the objective row under the slacks), ``column`` from the basic q's; False
    when either is empty."""
    row[:] = 0.0
    column[:] = 0.0
    for r in range(kr):
        if basis[r] < n:
            column[basis[r]] = max(rhs[r], 0.0)
    for c in range(kr):
        row[rows[c]] = max(z[n + rows[c]], 0.0)
    s_row, s_col = row.sum(), column.sum()
    if s_row <= 0.0 or s_col <= 0.0:
        return False
    row /= s_row
    column /= s_col
    return True


@jit
def _refined(A, low, scale, n, rows, kr, basis, row, column):
    """The basic solution of the current basis recomputed from the matrix itself (one
    LU solve each for the primal and the dual values), which undoes the rounding
    the pivots accumulated: writes ``row`` and ``column``; False when the basis
    matrix is singular or a strategy is empty."""
    M = np.zeros((kr, kr))
    pos = np.full(A.shape[0], -1, dtype=np.int64)
    for c in range(kr):
        pos[rows[c]] = c
    cost = np.zeros(kr)
    for b in range(kr):
        v = basis[b]
        if v < n:
            for r in range(kr):
                M[r, b] = _scaled(A, rows[r], v, low, scale)
            cost[b] = 1.0
        else:
            M[pos[v - n], b] = 1.0
    try:
        x = np.linalg.solve(M, np.ones(kr))
        y = np.linalg.solve(M.T.copy(), cost)
    except Exception:  # numba raises a plain error on a singular M
        return False
    row[:] = 0.0
    column[:] = 0.0
    for b in range(kr):
        if basis[b] < n:
            column[basis[b]] = max(x[b], 0.0)
    for c in range(kr):
        row[rows[c]] = max(y[c], 0.0)
    s_row, s_col = row.sum(), column.sum()
    if not (s_row > 0.0 and s_col > 0.0):
        return False
    row /= s_row
    column /= s_col
    return True


@jit
def _gap(A, row, column, by_row, by_col):
    """``max(A @ column) - min(row @ A)``, the two products written to ``by_row`` and
    ``by_col``."""
    m, n = A.shape
    by_row[:] = 0.0
    by_col[:] = 0.0
    for j in range(n):
        w = column[j]
        if w != 0.0:
            for i in range(m):
                by_row[i] += A[i, j] * w
    for i in range(m):
        w = row[i]
        if w != 0.0:
            for j in range(n):
                by_col[j] += w * A[i, j]
    return by_row.max() - by_col.min()


@jit
def solve_incremental(A, row, column, warm_row, warm_column, tol):
    """Optimal mixed strategies of ``A`` by double oracle on one kept tableau (see the
    module docstring), starting from the supports of ``warm_row`` / ``warm_column``
    with the first and last order of each side. Writes ``row`` and ``column``; returns
    the saddle-point gap ``max(A @ column) - min(row @ A)`` on the whole matrix, or
    -1.0 when the pivots did not finish or the oracle stalled above ``tol`` (the
    caller then solves another way).

    Work arrays: the tableau ``T``, shape (m, n + m) (rows: the restricted game's
    rows in the order they entered; columns: q_j for j < n, the slack of game row i
    at n + i; only the active ones are read), the reduced costs ``z`` (n + m), the
    right-hand sides with the objective's value last (m + 1), the basis (m), the
    active variables (n + m).
    """
    m, n = A.shape
    i0, j0 = saddle_point(A)
    if i0 >= 0:
        row[:] = 0.0
        column[:] = 0.0
        row[i0] = 1.0
        column[j0] = 1.0
        return 0.0
    low, high = A.min(), A.max()
    scale = high - low
    T = np.empty((m, n + m))
    z = np.empty(n + m)
    rhs = np.zeros(m + 1)
    basis = np.empty(m, dtype=np.int64)
    act = np.empty(n + m, dtype=np.int64)
    rows = np.empty(m, dtype=np.int64)
    in_row_of = np.full(m, -1, dtype=np.int64)
    in_c = np.zeros(n, dtype=np.bool_)
    max_pivots = 50 * (m + n) + 100
    n_act = 0
    for j in range(n):
        if warm_column[j] > 0.0 or j == 0 or j == n - 1:
            in_c[j] = True
            act[n_act] = j
            n_act += 1
    kr = 0
    for i in range(m):
        if warm_row[i] > 0.0 or i == 0 or i == m - 1:
            rows[kr] = i
            in_row_of[i] = kr
            kr += 1
    n_act = _fresh(A, low, scale, n, T, z, rhs, basis, act, n_act, kr, rows)
    if not _primal(T, z, rhs, basis, act, n_act, kr, max_pivots):
        return -1.0
    refreshed = False
    by_row = np.empty(m)
    by_col = np.empty(n)
    for _ in range(m + n + 1):
        if not _strategies(T, z, rhs, basis, n, rows, kr, row, column):
            return -1.0
        gap = _gap(A, row, column, by_row, by_col)
        i_best, j_best = int(np.argmax(by_row)), int(np.argmin(by_col))
        if gap <= tol:
            return max(gap, 0.0)
        grew = False
        if in_row_of[i_best] < 0:
            n_act = _add_row(A, i_best, low, scale, n, T, z, rhs, basis, act, n_act, kr,
                             in_row_of)  # fmt: skip
            rows[kr] = i_best
            kr += 1
            if not _dual(T, z, rhs, basis, act, n_act, kr, max_pivots):
                return -1.0
            grew = True
        if not in_c[j_best]:
            in_c[j_best] = True
            n_act = _add_column(A, j_best, low, scale, n, rows, T, z, rhs, act, n_act, kr)
            if not _primal(T, z, rhs, basis, act, n_act, kr, max_pivots):
                return -1.0
            grew = True
        if grew:
            refreshed = False
        else:  # rounding over many pivots: the basis's own solution, else start afresh
            if _refined(A, low, scale, n, rows, kr, basis, row, column):
                gap = _gap(A, row, column, by_row, by_col)
                if gap <= tol:
                    return max(gap, 0.0)
            if refreshed:
                return -1.0
            refreshed = True
            n_q = 0
            for a in range(n_act):
                if act[a] < n:
                    act[n_q] = act[a]
                    n_q += 1
            n_act = _fresh(A, low, scale, n, T, z, rhs, basis, act, n_q, kr, rows)
            if not _primal(T, z, rhs, basis, act, n_act, kr, max_pivots):
                return -1.0
    return -1.0


@jit
def solve_checked_kept(A, row, column, small_gap, warm_row, warm_column):
    """``tabletop._simplex.solve_checked`` with :func:`solve_incremental` past
    ``ORACLE_SIZE`` entries, the dense simplex on the whole matrix below (each behind
    the other where it misses the gap): ``(value, gap)``, the gap -1.0 when it
    exceeds ``small_gap`` times the spread of the payoffs."""
    tol = small_gap * max(A.max() - A.min(), 1.0)
    if A.size > ORACLE_SIZE:
        gap = solve_incremental(A, row, column, warm_row, warm_column, 0.5 * tol)
        if gap < 0.0 or gap > tol:
            gap = solve_game(A, row, column)
    else:
        gap = solve_game(A, row, column)
        if gap < 0.0 or gap > tol:
            gap = solve_incremental(A, row, column, warm_row, warm_column, 0.5 * tol)
    if gap < 0.0 or gap > tol:
        return 0.0, -1.0
    return game_value(A, row, column), gap
