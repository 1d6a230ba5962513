"""Numba kernel of the duel with one player committed to a fixed turn roll. Private.

See ``panache.committed``. The helpers of ``panache._duel_kernels`` read the table of
the player *not* moving, so each player's state is filled from the other's table.
"""

import numpy as np

from panache._duel_kernels import state_parts, state_utility
from panache._kernels import turn_value_slope_kernel
from tabletop.jit import jit


@jit
def _pair(a, b, w, win_c, win_o, parts_c, parts_o, totals, final_index, s, q, counters,
          committed_dist, committed_turn, turn, u, du, value, slope):  # fmt: skip
    """O's value (and slope) when C's value is ``w``, then C's value (and slope) after it."""
    state_utility(b, a, 1.0 - w, win_c, totals, final_index, parts_o, s, q, counters, u, du)
    g, dg = turn_value_slope_kernel(*turn, u, du, value, slope)
    state_utility(a, b, 1.0 - g, win_o, totals, final_index, parts_c, s, q, counters, u, du)
    if not committed_turn:
        f, df = turn_value_slope_kernel(*turn, u, du, value, slope)
        return g, dg, f, df
    f = 0.0
    df = 0.0
    for i in range(totals.shape[0]):
        f += committed_dist[i] * u[final_index[i]]
        df += committed_dist[i] * du[final_index[i]]
    return g, dg, f, df


@jit
def committed_duel_kernel(
    max_points, stake_factor, stake_cap, n, sums, state_start, state_sum, size_offset,
    probability, opt_start, opt_size, opt_value, totals, final_index, hit_given, s, q,
    pi_optimal, pi_committed, committed_dist, committed_turn, counters,
):  # fmt: skip
    """Winning chances of the committed player C and the optimal player O.

    ``win_c[a, b]``: C to move with ``a`` points against O's ``b``; ``win_o[b, a]``: O
    to move with ``b`` against C's ``a``. C's turn roll ends on total ``totals[i]``
    with probability ``committed_dist[i]`` when ``committed_turn`` (else C rolls
    optimally); its Master Panache attempt succeeds with ``pi_committed``. Every other
    decision of both players maximises its own winning chance.

    States {C at (a, b), O at (b, a)} are solved in increasing order of a + b; within
    a pair the two values depend on each other only through "nothing changes"
    outcomes and are found by Newton's method on the piecewise-linear map, as in
    ``solve_duel_kernel``. Returns both tables and the number of pairs whose residual
    exceeded 1e-12.
    """
    win_c = np.full((max_points + 1, max_points + 1), np.nan)
    win_o = np.full((max_points + 1, max_points + 1), np.nan)
    value = np.empty((n + 1, sums.shape[0]))
    slope = np.empty((n + 1, sums.shape[0]))
    u = np.full(sums.shape[0], np.nan)
    du = np.full(sums.shape[0], np.nan)
    bad = 0
    turn = (n, sums, state_start, state_sum, size_offset, probability,
            opt_start, opt_size, opt_value)  # fmt: skip
    for total in range(2, 2 * max_points + 1):
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
            # final evaluation at the fixed point: the pair's values and residual
            g, _, f, _ = _pair(a, b, w, win_c, win_o, parts_c, parts_o, totals, final_index,
                               s, q, counters, committed_dist, committed_turn, turn, u, du,
                               value, slope)  # fmt: skip
            win_c[a, b] = f
            win_o[b, a] = g
            if abs(f - w) > 1e-12:
                bad += 1
    return win_c, win_o, bad
