"""Numba kernel of the duel with one player committed to a fixed turn roll. Private.

See ``panache.committed``. The helpers of ``panache._duel_kernels`` read the table of
the player *not* moving, so each player's state is filled from the other's table.
"""

import numpy as np

from panache._duel_kernels import state_parts, state_utility, turn_value
from panache._kernels import stake_ceiling
from tabletop.jit import jit


@jit
def _pair(a, b, w, wins, parts, odds, committed, turn, work):
    """O's value (and slope) when C's value is ``w``, then C's value (and slope) after it.

    ``wins`` = (C's table, O's table), ``parts`` = (C's, O's) :func:`state_parts`,
    ``committed`` = (C's distribution of final totals, whether C's turn is fixed),
    ``work`` = the scratch arrays (u, du, value, slope)."""
    win_c, win_o = wins
    parts_c, parts_o = parts
    committed_dist, committed_turn = committed
    u, du, value, slope = work
    state_utility(b, a, 1.0 - w, win_c, parts_o, odds, u, du)
    g, dg = turn_value(turn, u, du, value, slope)
    state_utility(a, b, 1.0 - g, win_o, parts_c, odds, u, du)
    if not committed_turn:
        f, df = turn_value(turn, u, du, value, slope)
        return g, dg, f, df
    f = 0.0
    df = 0.0
    final_index = odds.final_index
    for i in range(odds.totals.shape[0]):
        f += committed_dist[i] * u[final_index[i]]
        df += committed_dist[i] * du[final_index[i]]
    return g, dg, f, df


@jit
def committed_duel_kernel(max_points, turn, odds, pis, committed):
    """Winning chances of the committed player C and the optimal player O.

    ``win_c[a, b]``: C to move with ``a`` points against O's ``b``; ``win_o[b, a]``: O
    to move with ``b`` against C's ``a``. ``committed`` = (``committed_dist``,
    ``committed_turn``): C's turn roll ends on total ``totals[i]`` with probability
    ``committed_dist[i]`` when ``committed_turn`` (else C rolls optimally); ``pis`` =
    (O's, C's) Master Panache success chance. Every other decision of both players
    maximises its own winning chance. ``turn`` and ``odds`` are the duel's
    :class:`panache._duel_kernels.TurnArrays` and ``DuelOdds``.

    States {C at (a, b), O at (b, a)} are solved in increasing order of a + b; within
    a pair the two values depend on each other only through "nothing changes"
    outcomes and are found by Newton's method on the piecewise-linear map, as in
    ``solve_duel_kernel``. Returns both tables and the number of pairs whose residual
    exceeded 1e-12.
    """
    win_c = np.full((max_points + 1, max_points + 1), np.nan)
    win_o = np.full((max_points + 1, max_points + 1), np.nan)
    bad = committed_range_kernel(2, 2 * max_points + 1, (win_c, win_o), max_points, turn, odds,
                                 pis, committed)  # fmt: skip
    return win_c, win_o, bad


@jit
def committed_range_kernel(lo, hi, wins, max_points, turn, odds, pis, committed):
    """The pairs of :func:`committed_duel_kernel` with ``lo <= a + b < hi``, written
    into ``wins`` = (``win_c``, ``win_o``) (``(max_points + 1)``-square, every smaller
    sum already solved, NaN elsewhere). Returns the number of those pairs that did not
    converge. A pair reads only pairs of smaller sums, so consecutive ranges give
    exactly the tables of one call over all of them."""
    n, sums = turn.n, turn.sums
    win_c, win_o = wins
    pi_optimal, pi_committed = pis
    work = (np.full(sums.shape[0], np.nan), np.full(sums.shape[0], np.nan),
            np.empty((n + 1, sums.shape[0])), np.empty((n + 1, sums.shape[0])))  # fmt: skip
    bad = 0
    for total in range(lo, hi):
        for a in range(max(1, total - max_points), min(max_points, total - 1) + 1):
            b = total - a
            stake_a = stake_ceiling(a, odds.stake_factor, odds.stake_cap)
            stake_b = stake_ceiling(b, odds.stake_factor, odds.stake_cap)
            parts = (state_parts(a, b, win_o, n, odds.hit_given, pi_committed, stake_a),
                     state_parts(b, a, win_c, n, odds.hit_given, pi_optimal, stake_b))
            w = 0.5
            for _ in range(100):
                g, dg, f, df = _pair(a, b, w, wins, parts, odds, committed, turn, work)
                w_new = (f - df * dg * w) / (1.0 - df * dg)
                if not 0.0 <= w_new <= 1.0:
                    w_new = f  # a plain fixed-point step
                step = abs(w_new - w)
                w = w_new
                if step < 1e-15:
                    break
            # final evaluation at the fixed point: the pair's values and residual
            g, _, f, _ = _pair(a, b, w, wins, parts, odds, committed, turn, work)
            win_c[a, b] = f
            win_o[b, a] = g
            if abs(f - w) > 1e-12:
                bad += 1
    return bad
