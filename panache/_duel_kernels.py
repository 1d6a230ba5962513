"""Numba kernels of the two-player game solve (see ``panache.duel``). Private."""

from typing import NamedTuple

import numpy as np

from panache._kernels import TIE_TOLERANCE, stake_ceiling, turn_value_slope_kernel
from tabletop.jit import jit

#: Largest attacked face.
MAX_LEVEL = 6


class TurnArrays(NamedTuple):
    """The optimal turn roll's tables (:func:`panache.turn.turn_tables`) in the order
    :func:`panache._kernels.turn_value_slope_kernel` reads them (``*turn``)."""

    n: int                    # dice
    sums: np.ndarray
    state_start: np.ndarray
    state_sum: np.ndarray
    size_offset: np.ndarray
    probability: np.ndarray
    opt_start: np.ndarray
    opt_size: np.ndarray
    opt_value: np.ndarray


class DuelOdds(NamedTuple):
    """What a duel state's turn utility reads besides the table of values."""

    totals: np.ndarray       # the turn's final totals
    final_index: np.ndarray  # each total's column in the utility vector
    hit_given: np.ndarray    # P(x hits | the attack hits), x = 1..n
    s: float                 # P(a roll hits)
    q: float                 # P(a roll misses)
    counters: bool           # counter-attacks allowed
    stake_factor: int        # Master Panache stake ceiling: factor x points,
    stake_cap: int           # capped (0: no cap)


@jit
def turn_value(turn, final_utility, final_slope, value, slope):
    """:func:`panache._kernels.turn_value_slope_kernel` on the tables ``turn``
    (:class:`TurnArrays`): the optimal turn's value and slope."""
    n, sums, state_start, state_sum, size_offset, probability, opt_start, opt_size, opt_value = (
        turn)
    return turn_value_slope_kernel(n, sums, state_start, state_sum, size_offset, probability,
                                   opt_start, opt_size, opt_value, final_utility, final_slope,
                                   value, slope)  # fmt: skip


@jit
def exchange_value(s, q, hit_target, hit_attacker, decline, counters):
    """The attacker's winning chance from an attack, with optimal counter decisions.

    ``hit_target`` / ``hit_attacker``: the attacker's winning chance once the target /
    the attacker has been hit (averaged over the damage); ``decline``: its chance if
    the exchange ends with nothing. ``X`` (attacker about to roll) and ``Y`` (target
    about to roll) satisfy ``X = s Ht + q min(A, Y)``, ``Y = s Ha + q max(A, X)``: a
    contraction with factor ``q``, iterated to its fixed point; the decisions read off
    it (ties: decline) then give the exact values in closed form.

    Returns ``X``, ``dX/dA``, whether the target counters, whether the attacker
    counters back.
    """
    if not counters:
        return s * hit_target + q * decline, q, False, False
    x = s * hit_target + q * decline
    y = s * hit_attacker + q * decline
    for _ in range(200):
        x_new = s * hit_target + q * min(decline, y)
        y_new = s * hit_attacker + q * max(decline, x_new)
        done = abs(x_new - x) < 1e-17 and abs(y_new - y) < 1e-17
        x, y = x_new, y_new
        if done:
            break
    target_counters = y < decline - TIE_TOLERANCE
    attacker_counters = target_counters and x > decline + TIE_TOLERANCE
    if not target_counters:
        return s * hit_target + q * decline, q, False, False
    if not attacker_counters:
        return s * hit_target + q * (s * hit_attacker + q * decline), q * q, True, False
    return (s * hit_target + q * s * hit_attacker) / (1 - q * q), 0.0, True, True


@jit
def state_parts(a, b, win, n, hit_given, pi, max_stake):
    """What a state's turn utility needs from smaller states.

    Returns, per level k, the attacker's chance once the target / itself is hit,
    and the best Master Panache (chance, stake; stake 0 if none is legal).
    """
    hit_target = np.zeros(MAX_LEVEL + 1)
    hit_attacker = np.zeros(MAX_LEVEL + 1)
    for k in range(1, MAX_LEVEL + 1):
        for x in range(1, n + 1):
            d = k * x
            hit_target[k] += hit_given[x] * (1.0 if b - d <= 0 else 1.0 - win[b - d, a])
            hit_attacker[k] += hit_given[x] * (0.0 if a - d <= 0 else 1.0 - win[b, a - d])
    best_mp = -1.0
    best_stake = 0
    for stake in range(2, max_stake + 1, 2):
        success = 1.0 if b - stake <= 0 else 1.0 - win[b - stake, a]
        fail = 0.0 if a - stake // 2 <= 0 else 1.0 - win[b, a - stake // 2]
        v = pi * success + (1 - pi) * fail
        if v > best_mp + TIE_TOLERANCE:
            best_mp = v
            best_stake = stake
    return hit_target, hit_attacker, best_mp, best_stake


@jit
def state_utility(a, b, decline, win, parts, odds, u, du):
    """Fill the turn utility ``u`` (and its derivative ``du`` in ``decline``) of state
    (a, b): the mover's winning chance after each total, ``decline`` being its
    chance when the turn changes nothing (opponent to move at (b, a)); ``parts`` from
    :func:`state_parts`, ``odds`` a :class:`DuelOdds`."""
    hit_target, hit_attacker, best_mp, best_stake = parts
    totals, final_index, _, s, q, counters, _, _ = odds
    for i in range(totals.shape[0]):
        t = totals[i]
        g = final_index[i]
        if t < 0:
            u[g] = 0.0 if a + t <= 0 else 1.0 - win[b, a + t]
            du[g] = 0.0
        elif t == 0:
            if best_stake > 0 and best_mp > decline + TIE_TOLERANCE:
                u[g] = best_mp
                du[g] = 0.0
            else:
                u[g] = decline
                du[g] = 1.0
        else:
            k = min(t, MAX_LEVEL)
            x, dx, _, _ = exchange_value(s, q, hit_target[k], hit_attacker[k], decline, counters)
            if x > decline + TIE_TOLERANCE:
                u[g] = x
                du[g] = dx
            else:
                u[g] = decline
                du[g] = 1.0


@jit
def solve_duel_kernel(max_points, turn, odds, pi):
    """Winning chance of the player to move, for every (own, opponent's) points, with
    the turn roll's tables ``turn`` (:class:`TurnArrays`), ``odds`` (:class:`DuelOdds`)
    and the Master Panache success chance ``pi``.

    Pairs of states {(a, b), (b, a)} are solved in increasing order of a + b; within a
    pair, the two values depend on each other only through "nothing changes"
    outcomes, and the pair's fixed point is found by Newton's method on the
    piecewise-linear map (exact once the active choices are right), checked by
    a final evaluation. Returns the table and the number of pairs whose residual
    exceeded 1e-12 (0 when every pair converged).
    """
    win = np.full((max_points + 1, max_points + 1), np.nan)
    bad = solve_duel_range(2, 2 * max_points + 1, win, max_points, turn, odds, pi)
    return win, bad


@jit
def solve_duel_range(first, stop, win, max_points, turn, odds, pi):
    """The pairs of :func:`solve_duel_kernel` with ``first <= a + b < stop``, written
    into ``win`` (shape ``(max_points + 1, max_points + 1)``, every smaller sum
    already solved). Returns the number of those pairs that did not converge.

    A pair reads only pairs of smaller sums, so solving the sums in consecutive
    ranges gives exactly the table of one call over all of them.
    """
    n, sums = turn.n, turn.sums
    value = np.empty((n + 1, sums.shape[0]))
    slope = np.empty((n + 1, sums.shape[0]))
    u = np.full(sums.shape[0], np.nan)
    du = np.full(sums.shape[0], np.nan)
    bad = 0
    for total in range(first, stop):
        for a in range(max(1, total - max_points), total // 2 + 1):
            b = total - a
            stake_a = stake_ceiling(a, odds.stake_factor, odds.stake_cap)
            stake_b = stake_ceiling(b, odds.stake_factor, odds.stake_cap)
            parts_ab = state_parts(a, b, win, n, odds.hit_given, pi, stake_a)
            parts_ba = state_parts(b, a, win, n, odds.hit_given, pi, stake_b)
            w = 0.5
            for _ in range(100):
                if a == b:
                    state_utility(a, b, 1.0 - w, win, parts_ab, odds, u, du)
                    f, df = turn_value(turn, u, du, value, slope)
                    w_new = (f + df * w) / (1.0 + df)
                else:
                    state_utility(b, a, 1.0 - w, win, parts_ba, odds, u, du)
                    g, dg = turn_value(turn, u, du, value, slope)
                    state_utility(a, b, 1.0 - g, win, parts_ab, odds, u, du)
                    f, df = turn_value(turn, u, du, value, slope)
                    w_new = (f - df * dg * w) / (1.0 - df * dg)
                if not 0.0 <= w_new <= 1.0:
                    w_new = f  # a plain fixed-point step
                step = abs(w_new - w)
                w = w_new
                if step < 1e-15:
                    break
            # final evaluation at the fixed point: the pair's values and residual
            if a == b:
                state_utility(a, b, 1.0 - w, win, parts_ab, odds, u, du)
                f, _ = turn_value(turn, u, du, value, slope)
                win[a, a] = f
                residual = abs(f - w)
            else:
                state_utility(b, a, 1.0 - w, win, parts_ba, odds, u, du)
                g, _ = turn_value(turn, u, du, value, slope)
                state_utility(a, b, 1.0 - g, win, parts_ab, odds, u, du)
                f, _ = turn_value(turn, u, du, value, slope)
                win[a, b] = f
                win[b, a] = g
                residual = abs(f - w)
            if residual > 1e-12:
                bad += 1
    return bad
