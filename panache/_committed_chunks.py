"""The committed duel's kernel over a range of point sums, so that it returns to Python.

:func:`panache._committed_kernels.committed_duel_kernel` solves every pair of states
{C at (a, b), O at (b, a)} in increasing order of ``a + b`` in one call: at the default
start that is a minute of work out of reach of Ctrl-C. :func:`committed_range_kernel`
solves the sums ``lo .. hi - 1`` only, reading the smaller sums from ``win_c`` and
``win_o`` as the one-call kernel does, so calling it over consecutive ranges fills the
same tables (the pairs, their order and their arithmetic are the same).
"""

import numpy as np

from panache._committed_kernels import _pair
from panache._duel_kernels import state_parts
from tabletop.jit import jit


@jit
def committed_range_kernel(
    lo, hi, win_c, win_o, max_points, stake_factor, stake_cap, n, sums, state_start,
    state_sum, size_offset, probability, opt_start, opt_size, opt_value, totals,
    final_index, hit_given, s, q, pi_optimal, pi_committed, committed_dist,
    committed_turn, counters,
):  # fmt: skip
    """Solve the pairs of point sums ``lo <= a + b < hi`` into ``win_c`` and ``win_o``
    (``(max_points + 1)``-square, NaN where not solved yet); return the number of pairs
    whose residual exceeded 1e-12. The arguments are those of ``committed_duel_kernel``."""
    value = np.empty((n + 1, sums.shape[0]))
    slope = np.empty((n + 1, sums.shape[0]))
    u = np.full(sums.shape[0], np.nan)
    du = np.full(sums.shape[0], np.nan)
    bad = 0
    turn = (n, sums, state_start, state_sum, size_offset, probability,
            opt_start, opt_size, opt_value)  # fmt: skip
    for total in range(lo, hi):
        for a in range(max(1, total - max_points), min(max_points, total - 1) + 1):
            b = total - a
            stake_a = stake_factor * a if stake_cap == 0 else min(stake_factor * a, stake_cap)
            stake_b = stake_factor * b if stake_cap == 0 else min(stake_factor * b, stake_cap)
            parts_c = state_parts(a, b, win_o, n, hit_given, pi_committed, stake_a)
            parts_o = state_parts(b, a, win_c, n, hit_given, pi_optimal, stake_b)
            w = 0.5
            for _ in range(100):
                g, dg, f, df = _pair(a, b, w, win_c, win_o, parts_c, parts_o, totals,
                                     final_index, s, q, counters, committed_dist,
                                     committed_turn, turn, u, du, value, slope)  # fmt: skip
                w_new = (f - df * dg * w) / (1.0 - df * dg)
                if not 0.0 <= w_new <= 1.0:
                    w_new = f  # a plain fixed-point step
                step = abs(w_new - w)
                w = w_new
                if step < 1e-15:
                    break
            g, _, f, _ = _pair(a, b, w, win_c, win_o, parts_c, parts_o, totals, final_index,
                               s, q, counters, committed_dist, committed_turn, turn, u, du,
                               value, slope)  # fmt: skip
            win_c[a, b] = f
            win_o[b, a] = g
            if abs(f - w) > 1e-12:
                bad += 1
    return bad
