"""The stage game at its own fixed point, each matrix game on a kept tableau. Private:
no validation, deterministic given its inputs.

:func:`loop_solve_kept` takes the steps of ``citadel._kernels.loop_solve_kernel``
(``citadel.stage.solve_with_loop``: Newton's method on the fixed point, safeguarded by
bisection, certified, the favoured side's strategy taken just short of it) in the same
order; its matrix games are solved by ``tabletop._oracle.solve_checked_kept``, whose
double oracle keeps one simplex tableau while it adds orders instead of re-solving
each restricted game, and each starts from the supports of the previous one (the
matrix changes only in its loop entries from one to the next).
"""

import numpy as np

from citadel._kernels import _clean_into, _pair_stats
from tabletop._oracle import solve_checked_kept
from tabletop.jit import jit


@jit
def _shifted_kept(shifted, loop_i, loop_j, sign, u, row, column, small_gap, warm_r, warm_c):
    """The matrix game with the loop entries (``loop_i``, ``loop_j``) worth ``sign * u``,
    solved into ``row``/``column`` from the warm start: ``(value, gap)``, a negative gap
    when it is not solved to ``small_gap``. Only the loop entries of ``shifted`` are
    written."""
    for k in range(loop_i.size):
        shifted[loop_i[k], loop_j[k]] = sign * u
    return solve_checked_kept(shifted, row, column, small_gap, warm_r, warm_c)


@jit
def loop_solve_kept(payoff, loop, tol, max_iter, certify, margin, small_gap, warm_r, warm_c,
                      row, column):  # fmt: skip
    """``citadel.stage.solve_with_loop`` in compiled code: the same steps in the same
    order (see its docstring), each matrix game solved by
    ``tabletop._oracle.solve_checked_kept``.

    The first matrix game (the loop worth 0) starts its double oracle from the
    supports of ``warm_r`` / ``warm_c`` (lengths m and n; zeros for none), e.g. a
    neighbouring state's solution; the later ones from the first one's solution.
    Writes ``row`` and ``column``; returns ``(value, residual, gap, ok)``. ``ok`` is
    False when a matrix game was not solved to ``small_gap`` (the caller then solves
    the state another way). Work arrays: the shifted matrix (m, n) and five pairs of
    strategies (first, current, below the fixed point, above it, trial), each of
    lengths m and n.
    """
    m, n = payoff.shape
    first_r, first_c = np.empty(m), np.empty(n)
    value, gap = solve_checked_kept(payoff, first_r, first_c, small_gap, warm_r, warm_c)
    if gap < 0.0:
        return 0.0, 0.0, 0.0, False
    n_loop = 0
    for i in range(m):
        for j in range(n):
            if loop[i, j]:
                n_loop += 1
    has_loop = n_loop > 0
    if not has_loop or abs(value) <= tol:
        row[:] = first_r
        column[:] = first_c
        if not has_loop:
            return value, 0.0, gap, True
        return 0.0, abs(value), gap, True
    sign = 1.0 if value > 0 else -1.0
    rest = payoff.copy()
    big = 0.0
    for i in range(m):
        for j in range(n):
            if loop[i, j]:
                rest[i, j] = 0.0
            big = max(big, abs(payoff[i, j]))
    shifted = rest.copy()
    loop_i = np.empty(n_loop, dtype=np.int64)
    loop_j = np.empty(n_loop, dtype=np.int64)
    k = 0
    for i in range(m):
        for j in range(n):
            if loop[i, j]:
                loop_i[k] = i
                loop_j[k] = j
                k += 1
    cur_r, cur_c = first_r.copy(), first_c.copy()
    lo_r, lo_c = first_r.copy(), first_c.copy()
    hi_r, hi_c = np.empty(m), np.empty(n)
    try_r, try_c = np.empty(m), np.empty(n)
    lo, hi = 0.0, big
    have_hi = False
    h_hi = 0.0
    current_is_lo = True

    for _ in range(max_iter):
        # the Newton step from the current pair, else from the pair below, else bisect
        u = np.nan
        p_loop, off = _pair_stats(loop, rest, cur_r, cur_c)
        if p_loop < 1.0 - 1e-12:
            u = sign * off / (1.0 - p_loop)
        if not (lo < u <= hi) and not current_is_lo:
            u = np.nan
            p_loop, off = _pair_stats(loop, rest, lo_r, lo_c)
            if p_loop < 1.0 - 1e-12:
                u = sign * off / (1.0 - p_loop)
        if not (lo < u <= hi):
            u = 0.5 * (lo + hi)
        # h(u)
        v_u, g_u = _shifted_kept(shifted, loop_i, loop_j, sign, u, cur_r, cur_c, small_gap,
                                  first_r, first_c)  # fmt: skip
        if g_u < 0.0:
            return 0.0, 0.0, 0.0, False
        h_u = sign * (v_u - sign * u)
        gap = max(gap, g_u)
        if h_u > tol:
            lo = u
            lo_r[:] = cur_r
            lo_c[:] = cur_c
            current_is_lo = True
        else:
            hi, h_hi, have_hi = u, h_u, True
            hi_r[:] = cur_r
            hi_c[:] = cur_c
            current_is_lo = False
            if h_u >= -tol:  # a fixed point: is it the one nearest 0?
                below = max(lo, u - certify)
                v_b, g_b = _shifted_kept(shifted, loop_i, loop_j, sign, below, try_r, try_c,
                                          small_gap, first_r, first_c)  # fmt: skip
                if g_b < 0.0:
                    return 0.0, 0.0, 0.0, False
                h_below = sign * (v_b - sign * below)
                if h_below > tol:
                    lo = below
                    lo_r[:] = try_r
                    lo_c[:] = try_c
                    break
                hi, h_hi = below, h_below
                hi_r[:] = try_r
                hi_c[:] = try_c
                cur_r[:] = lo_r
                cur_c[:] = lo_c
                current_is_lo = True
        if hi - lo <= tol:
            break
    if not have_hi:
        v_h, g_h = _shifted_kept(shifted, loop_i, loop_j, sign, hi, hi_r, hi_c, small_gap,
                                  first_r, first_c)  # fmt: skip
        if g_h < 0.0:
            return 0.0, 0.0, 0.0, False
        h_hi = sign * (v_h - sign * hi)
    favoured = hi * (1.0 - margin)
    _, g_f = _shifted_kept(shifted, loop_i, loop_j, sign, favoured, try_r, try_c, small_gap,
                            hi_r, hi_c)  # fmt: skip
    if g_f < 0.0:
        return 0.0, 0.0, 0.0, False
    if sign > 0:
        _clean_into(try_r, row)
        _clean_into(hi_c, column)
    else:
        _clean_into(hi_r, row)
        _clean_into(try_c, column)
    return sign * hi, abs(h_hi), gap, True
