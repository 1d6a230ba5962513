"""Numba kernels of the exact three-player solve (see ``panache.three``). Private.

States are canonical: ``V[a, b, c]`` holds the winning chances of the player to move
(``a`` points), the next one clockwise (``b``) and the last (``c``).
"""

import numpy as np
from numba import prange

from panache._duel_kernels import MAX_LEVEL
from panache._kernels import TIE_TOLERANCE, stake_ceiling
from tabletop.jit import jit, parallel_jit


@jit
def rotate(v):
    """A state's values seen from the previous mover's frame: (v2, v0, v1)."""
    return np.array([v[2], v[0], v[1]])


@jit
def value_after(a, b, c, three, duel):
    """Chances of (mover, next, last) once the mover's turn left them with a, b, c points.

    Play passes to the next live player clockwise; with two left, the duel table
    gives the chance of the one to move.
    """
    out = np.zeros(3)
    alive0, alive1, alive2 = a > 0, b > 0, c > 0
    n_alive = int(alive0) + int(alive1) + int(alive2)
    if n_alive == 3:
        v = three[b, c, a]  # the next player moves: frame (1, 2, 0)
        out[0], out[1], out[2] = v[2], v[0], v[1]
    elif n_alive == 2:
        if not alive0:
            w = duel[b, c]
            out[1], out[2] = w, 1.0 - w
        elif not alive1:
            w = duel[c, a]
            out[2], out[0] = w, 1.0 - w
        else:
            w = duel[b, a]
            out[1], out[0] = w, 1.0 - w
    elif alive0:
        out[0] = 1.0
    elif alive1:
        out[1] = 1.0
    else:
        out[2] = 1.0
    return out


@jit
def _lose(points, who, amount):
    p = points.copy()
    p[who] -= amount
    return p


@jit
def state_parts(a, b, c, three, duel, n, hit_given, pi, max_stake):
    """What the state's turn needs from states with fewer points (independent of the
    no-change value): per target (1 next, 2 last) and level, the chances once the
    target / the attacker is hit; and the best Master Panache (chances, target, stake)."""
    points = np.array([a, b, c])
    hit_target = np.zeros((3, MAX_LEVEL + 1, 3))
    hit_attacker = np.zeros((3, MAX_LEVEL + 1, 3))
    for target in (1, 2):
        for k in range(1, MAX_LEVEL + 1):
            for x in range(1, n + 1):
                p = _lose(points, target, k * x)
                hit_target[target, k] += hit_given[x] * value_after(p[0], p[1], p[2], three, duel)
                p = _lose(points, 0, k * x)
                hit_attacker[target, k] += hit_given[x] * value_after(p[0], p[1], p[2], three, duel)
    best_mp = np.full(3, -1.0)
    best_stake = 0
    best_target = 0
    for target in (1, 2):
        for stake in range(2, max_stake + 1, 2):
            p = _lose(points, target, stake)
            ok = value_after(p[0], p[1], p[2], three, duel)
            p = _lose(points, 0, stake // 2)
            ko = value_after(p[0], p[1], p[2], three, duel)
            v = pi * ok + (1 - pi) * ko
            if v[0] > best_mp[0] + TIE_TOLERANCE:
                best_mp = v
                best_stake = stake
                best_target = target
    return hit_target, hit_attacker, best_mp, best_target, best_stake


@jit
def exchange(s, q, ht, ha, decline, target, counters):
    """Chances (mover, next, last) from the mover attacking ``target``: ``x0 + dx * A``.

    With three players the exchange is not zero-sum and can have several stationary
    equilibria (a target that counters because the attacker would not answer, or
    that does not because the attacker would). Each pair of decisions (target
    counters, attacker counters back) gives ``X`` and ``Y`` in closed form; the first
    pair that is an equilibrium (each side counters exactly when that raises its
    own chance by more than 1e-12) in the order (yes, yes), (yes, no), (no, yes),
    (no, no) is taken: counters are played whenever that is consistent.
    Returns x0, dx, target counters, attacker counters; ``dx = -1`` when no pair is
    an equilibrium.
    """
    if not counters:
        return s * ht, q, False, False
    for choice in range(4):
        tc = choice < 2
        ac = choice % 2 == 0
        # closed forms of X = s Ht + q (Y if tc else A), Y = s Ha + q (X if ac else A)
        if tc and ac:
            x0, dx = (s * ht + q * s * ha) / (1 - q * q), 0.0
            y0, dy = (s * ha + q * s * ht) / (1 - q * q), 0.0
        elif tc:
            y0, dy = s * ha, q
            x0, dx = s * ht + q * y0, q * q
        elif ac:
            x0, dx = s * ht, q
            y0, dy = s * ha + q * x0, q * q
        else:
            x0, dx = s * ht, q
            y0, dy = s * ha, q
        x = x0 + dx * decline
        y = y0 + dy * decline
        if tc != (y[target] > decline[target] + TIE_TOLERANCE):
            continue
        if ac != (x[0] > decline[0] + TIE_TOLERANCE):
            continue
        return x0, dx, tc, ac
    return s * ht, -1.0, False, False


@jit
def exchange_with(s, q, ht, ha, decline, sigma, tau):
    """Chances (mover, next, last) from an attack whose target counters with chance
    ``sigma`` after each miss and whose attacker counters back with chance ``tau``:
    ``x0 + dx * A``. From ``X = s Ht + q (sigma Y + (1 - sigma) A)`` and
    ``Y = s Ha + q (tau X + (1 - tau) A)``; with ``sigma, tau`` in {0, 1} these are the
    closed forms of :func:`exchange`."""
    den = 1.0 - q * q * sigma * tau
    x0 = (s * ht + q * sigma * s * ha) / den
    dx = (q * (1.0 - sigma) + q * q * sigma * (1.0 - tau)) / den
    return x0, dx


@jit
def counter_incentives(s, q, ht, ha, decline, target, sigma, tau):
    """What each side of an exchange played with ``(sigma, tau)`` gains by its counter:
    the target's chance after countering minus after not (``Y_t - A_t``) and the
    attacker's after countering back minus after not (``X_0 - A_0``)."""
    x0, dx = exchange_with(s, q, ht, ha, decline, sigma, tau)
    x = x0 + dx * decline
    y = s * ha + q * (tau * x + (1.0 - tau) * decline)
    return y[target] - decline[target], x[0] - decline[0]


@jit
def counter_violation(gain, chance):
    """How much a counter decision played with ``chance`` loses to its best: the gain
    of countering ``gain`` forgone (chance < 1) or its loss taken (chance > 0)."""
    out = 0.0
    if chance < 1.0:
        out = max(out, (1.0 - chance) * max(gain, 0.0))
    if chance > 0.0:
        out = max(out, chance * max(-gain, 0.0))
    return out


@jit
def forced_counter_gap(s, q, hit_target, hit_attacker, decline, forced):
    """The most a counter decision of an exchange in ``forced`` (NaN: not held) loses
    to its best (:func:`counter_violation`), the no-change vector being ``decline``."""
    worst = 0.0
    for target in (1, 2):
        for k in range(1, MAX_LEVEL + 1):
            sigma, tau = forced[target, k, 0], forced[target, k, 1]
            if np.isnan(sigma):
                continue
            gain_target, gain_attacker = counter_incentives(
                s, q, hit_target[target, k], hit_attacker[target, k], decline, target,
                sigma, tau,
            )  # fmt: skip
            worst = max(worst, counter_violation(gain_target, sigma),
                        counter_violation(gain_attacker, tau))  # fmt: skip
    return worst


@jit
def no_forced():
    """A state's exchanges all playing :func:`exchange`'s selection: the ``forced``
    argument of the turn kernels, ``(3, MAX_LEVEL + 1, 2)`` NaN."""
    return np.full((3, MAX_LEVEL + 1, 2), np.nan)


@jit
def announces(best_mp, best_stake, decline):
    """Whether the mover announces its best Master Panache after a total of 0."""
    return best_stake > 0 and best_mp[0] > decline[0] + TIE_TOLERANCE


@jit
def best_attack(s, q, hit_target, hit_attacker, decline, counters, k, forced):
    """The mover's best use of an attack of level ``k``: ``(target, x0, dx)`` with
    target 0 to decline (chances ``0 + 1 * A``), 1 / 2 to attack the next / last
    player (chances ``x0 + dx * A``, see :func:`exchange`), -1 when an exchange has no
    equilibrium in pure counter decisions. ``forced[target, k]`` holds the counter
    chances ``(sigma, tau)`` of an exchange that plays another of its equilibria
    than :func:`exchange` selects (:func:`exchange_with`); NaN: the selection. Ties
    (to 1e-12, like every other choice of the solve): decline, then the next player."""
    best = decline[0]
    choice = 0
    best_x0 = np.zeros(3)
    best_dx = 1.0
    for target in (1, 2):
        if counters and not np.isnan(forced[target, k, 0]):
            x0, dx = exchange_with(s, q, hit_target[target, k], hit_attacker[target, k],
                                   decline, forced[target, k, 0], forced[target, k, 1])  # fmt: skip
        else:
            x0, dx, _, _ = exchange(s, q, hit_target[target, k], hit_attacker[target, k],
                                    decline, target, counters)  # fmt: skip
        if dx < 0:
            return -1, best_x0, best_dx
        v = x0[0] + dx * decline[0]
        if v > best + TIE_TOLERANCE:
            best = v
            choice = target
            best_x0 = x0
            best_dx = dx
    return choice, best_x0, best_dx


@jit
def state_utility(decline, totals, final_index, parts, s, q, counters, forced, cu, du,
                  decisions):  # fmt: skip
    """Fill the turn utility: chances ``cu[g] + du[g] * A`` after each total.

    ``decisions[i]`` records, for total ``totals[i]``: 0 decline, 1/2 the target
    attacked or challenged (next / last player); -1 marks an exchange with no
    equilibrium in pure decisions (the fill stops there).
    """
    hit_target, hit_attacker, best_mp, best_target, best_stake = parts
    for i in range(totals.shape[0]):
        t = totals[i]
        g = final_index[i]
        decisions[i] = 0
        if t < 0:
            continue  # filled by the caller (depends on the mover's loss only)
        if t == 0:
            if announces(best_mp, best_stake, decline):
                cu[g] = best_mp
                du[g] = 0.0
                decisions[i] = best_target
            else:
                cu[g] = 0.0
                du[g] = 1.0
            continue
        target, x0, dx = best_attack(s, q, hit_target, hit_attacker, decline, counters,
                                     min(t, MAX_LEVEL), forced)  # fmt: skip
        decisions[i] = target
        if target < 0:
            return
        cu[g] = x0
        du[g] = dx


@jit
def vector_turn(n, sums, state_start, state_sum, size_offset, probability, opt_start,
                opt_size, opt_value, cu, du, a_mover, value, slope):  # fmt: skip
    """The mover's optimal turn roll when totals give chances ``cu + du * A``.

    The mover maximises its own chance ``cu[., 0] + du * a_mover``; the chances of
    all three (with A = 0) and the slope in A are carried along the chosen options.
    Returns the three chances at A = 0 and the slope.

    The set-aside total after an option is found through a table over the range of
    ``sums`` (what ``np.searchsorted`` would give, read in one step), and each
    reached state's own chance ``value[., ., 0] + slope * a_mover`` is computed once
    instead of once per option that leads to it: the same numbers, the hot loop of
    the three-player solve.
    """
    low = sums[0]
    where = np.searchsorted(sums, np.arange(low, sums[-1] + 1))
    own = np.empty((n + 1, sums.shape[0]))
    for i in range(state_start[n], state_start[n + 1]):
        g = state_sum[i]
        value[0, g] = cu[g]
        slope[0, g] = du[g]
        own[0, g] = value[0, g, 0] + slope[0, g] * a_mover
    acc = np.zeros(3)
    for m in range(1, n + 1):
        j = n - m
        for s_local in range(state_start[j + 1] - state_start[j]):
            g = state_sum[state_start[j] + s_local]
            base = sums[g] - low
            acc[:] = 0.0
            acc_slope = 0.0
            for r in range(size_offset[m], size_offset[m + 1]):
                best = -np.inf
                best_t = 0
                best_m = 0
                for o in range(opt_start[r], opt_start[r + 1]):
                    at = base + opt_value[o]
                    if 0 <= at < where.shape[0]:
                        target = where[at]
                    else:
                        target = np.searchsorted(sums, sums[g] + opt_value[o])
                    mm = m - opt_size[o]
                    v = own[mm, target]
                    if v > best + TIE_TOLERANCE:
                        best = v
                        best_t = target
                        best_m = mm
                p = probability[r]
                acc[0] += p * value[best_m, best_t, 0]
                acc[1] += p * value[best_m, best_t, 1]
                acc[2] += p * value[best_m, best_t, 2]
                acc_slope += p * slope[best_m, best_t]
            value[m, g] = acc
            slope[m, g] = acc_slope
            own[m, g] = value[m, g, 0] + slope[m, g] * a_mover
    start = np.searchsorted(sums, 0)
    return value[n, start].copy(), slope[n, start]


@jit
def cycle_values(alpha, beta):
    """Values of a rotation class's three states when state ``k`` gives
    ``alpha[k] + beta[k] * R(V[k + 1])``: the linear cycle in closed form."""
    out = np.empty((3, 3))
    denom = 1.0 - beta[0] * beta[1] * beta[2]
    for k in range(3):
        k1, k2 = (k + 1) % 3, (k + 2) % 3
        out[k] = (
            alpha[k] + beta[k] * rotate(alpha[k1]) + beta[k] * beta[k1] * rotate(rotate(alpha[k2]))
        ) / denom
    return out


@jit
def turn_outcomes(x, y, z, part, decline, three, duel, totals, final_index, s, q, counters,
                  forced, cu, du, decisions):  # fmt: skip
    """Fill the chances ``cu[g] + du[g] * A`` after each total of the mover's turn in
    state (x, y, z): a loss of points read from the table, else the mover's best
    attack, Master Panache or decline (:func:`state_utility`)."""
    for i in range(totals.shape[0]):
        if totals[i] < 0:
            cu[final_index[i]] = value_after(x + totals[i], y, z, three, duel)
            du[final_index[i]] = 0.0
    state_utility(decline, totals, final_index, part, s, q, counters, forced, cu, du, decisions)


@jit
def best_turn(x, y, z, part, decline, three, duel, n, sums, state_start, state_sum,
              size_offset, probability, opt_start, opt_size, opt_value, totals, final_index,
              s, q, counters, forced, cu, du, decisions, value, slope):  # fmt: skip
    """The mover's best turn in state (x, y, z) when no change leads to ``decline``
    (the exchanges as :func:`best_attack` with ``forced``).

    Returns the turn's chances as ``alpha + beta * decline`` (``alpha`` a 3-vector,
    ``beta`` the chance that nothing changes) and whether some exchange had no
    equilibrium in pure counter decisions.
    """
    turn_outcomes(x, y, z, part, decline, three, duel, totals, final_index, s, q, counters,
                  forced, cu, du, decisions)  # fmt: skip
    alpha, beta = vector_turn(
        n, sums, state_start, state_sum, size_offset, probability, opt_start,
        opt_size, opt_value, cu, du, decline[0], value, slope,
    )  # fmt: skip
    return alpha, beta, np.any(decisions < 0)


@jit
def turn_work(n, n_sums, n_totals):
    """The work arrays of :func:`best_turn`: ``value`` (n + 1, n_sums, 3), ``slope``
    (n + 1, n_sums), ``cu`` (n_sums, 3), ``du`` (n_sums,), ``decisions`` (n_totals,)."""
    return (np.empty((n + 1, n_sums, 3)), np.empty((n + 1, n_sums)), np.zeros((n_sums, 3)),
            np.zeros(n_sums), np.zeros(n_totals, dtype=np.int64))  # fmt: skip


#: Policy-iteration steps before a class is declared cycling.
MAX_STEPS = 64
#: A plan is a known one when its chances agree to this precision.
PLAN_TOLERANCE = 1e-13


@jit
def solve_class(
    a, b, c, three, duel, stake_factor, stake_cap, n, sums, state_start, state_sum,
    size_offset, probability, opt_start, opt_size, opt_value, totals, final_index,
    hit_given, s, q, pi, counters, play_rounds,
):  # fmt: skip
    """Solve one rotation class {(a, b, c), (b, c, a), (c, a, b)}.

    First policy iteration: each step takes every mover's best turn against the
    current values, then solves the cycle's linear system for those turns. A repeat
    of the values after one step is a pure stationary equilibrium (exact, regret 0).

    A repeat after ``p > 1`` steps means the best responses cycle through ``p``
    profiles: no pure stationary equilibrium was found. The class then plays
    fictitious play over mixed stationary plans: each state's mover mixes the turn
    plans met so far (each plan is an affine map ``alpha + beta * decline``), starting
    from the cycle's plans in equal weights; every round the values of the mixture
    are solved exactly, each mover's best turn against them joins its mixture with
    weight ``1 / t``, and the *regret* of the mixture, the most any mover gains by
    playing its best turn instead, is measured exactly. The class keeps the values of
    the mixture with the smallest regret: an epsilon-equilibrium with epsilon that
    regret (0 up to rounding when the mixture is an exact mixed equilibrium).

    Writes the three states' values into ``three``; returns (period, spread of the
    cycle's values, regret, evaluations that met an exchange with no pure
    equilibrium); period 0 means no repeat within ``MAX_STEPS``. A separate function,
    not inlined in the parallel loop: numba's parfor pass hoists allocations out of
    inner loops.
    """
    value, slope, cu, du, decisions = turn_work(n, sums.shape[0], totals.shape[0])
    free = no_forced()  # policy iteration and fictitious play: the selected exchanges
    states = np.empty((3, 3), dtype=np.int64)
    states[0] = (a, b, c)
    states[1] = (b, c, a)
    states[2] = (c, a, b)
    parts = []
    for k in range(3):
        x, y, z = states[k]
        parts.append(
            state_parts(
                x, y, z, three, duel, n, hit_given, pi, stake_ceiling(x, stake_factor, stake_cap)
            )
        )
    history = np.empty((MAX_STEPS + 1, 3, 3))
    history[0] = 1.0 / 3.0
    plan_alpha = np.empty((MAX_STEPS + 1, 3, 3))
    plan_beta = np.empty((MAX_STEPS + 1, 3))
    period = 0
    spread = 0.0
    no_equilibrium = 0
    step = 0
    while step < MAX_STEPS and period == 0:
        v = history[step]
        for k in range(3):
            x, y, z = states[k]
            plan_alpha[step, k], plan_beta[step, k], missing = best_turn(
                x, y, z, parts[k], rotate(v[(k + 1) % 3]), three, duel, n, sums,
                state_start, state_sum, size_offset, probability, opt_start, opt_size,
                opt_value, totals, final_index, s, q, counters, free, cu, du, decisions,
                value, slope,
            )  # fmt: skip
            no_equilibrium += missing
        step += 1
        history[step] = cycle_values(plan_alpha[step - 1], plan_beta[step - 1])
        for j in range(step - 1, 0, -1):
            if np.max(np.abs(history[step] - history[j])) < 1e-14:
                period = step - j
                break
    if period == 1:
        for k in range(3):
            x, y, z = states[k]
            three[x, y, z] = history[step, k]
        return period, spread, 0.0, no_equilibrium
    # the best responses cycle: their spread, then fictitious play over mixed plans
    window = period if period > 0 else 16
    first = step - window  # plans of steps first .. step - 1 give values first + 1 .. step
    for k in range(3):
        for comp in range(3):
            low = np.min(history[first + 1 : step + 1, k, comp])
            high = np.max(history[first + 1 : step + 1, k, comp])
            spread = max(spread, high - low)
    capacity = window + play_rounds
    pool_alpha = np.empty((3, capacity, 3))
    pool_beta = np.empty((3, capacity))
    weight = np.zeros((3, capacity))
    size = np.zeros(3, dtype=np.int64)
    for k in range(3):
        for j in range(first, step):
            found = _find_plan(pool_alpha[k], pool_beta[k], size[k],
                               plan_alpha[j, k], plan_beta[j, k])  # fmt: skip
            if found < 0:
                found = size[k]
                pool_alpha[k, found] = plan_alpha[j, k]
                pool_beta[k, found] = plan_beta[j, k]
                size[k] += 1
            weight[k, found] += 1.0 / window
    best_regret = np.inf
    best = np.zeros((3, 3))
    alpha = np.zeros((3, 3))
    beta = np.zeros(3)
    reply = np.zeros(3, dtype=np.int64)
    for t in range(play_rounds):
        for k in range(3):
            alpha[k] = 0.0
            beta[k] = 0.0
            for j in range(size[k]):
                alpha[k] += weight[k, j] * pool_alpha[k, j]
                beta[k] += weight[k, j] * pool_beta[k, j]
        v = cycle_values(alpha, beta)
        regret = 0.0
        for k in range(3):
            x, y, z = states[k]
            decline = rotate(v[(k + 1) % 3])
            br_alpha, br_beta, missing = best_turn(
                x, y, z, parts[k], decline, three, duel, n, sums, state_start, state_sum,
                size_offset, probability, opt_start, opt_size, opt_value, totals,
                final_index, s, q, counters, free, cu, du, decisions, value, slope,
            )  # fmt: skip
            no_equilibrium += missing
            # two-sided: a value above every reply is as wrong as one below the best
            regret = max(regret, abs(br_alpha[0] + br_beta * decline[0] - v[k, 0]))
            found = _find_plan(pool_alpha[k], pool_beta[k], size[k], br_alpha, br_beta)
            if found < 0:
                found = size[k]
                pool_alpha[k, found] = br_alpha
                pool_beta[k, found] = br_beta
                size[k] += 1
            reply[k] = found
        if regret < best_regret:
            best_regret = regret
            best[:] = v
        if regret <= PLAN_TOLERANCE:
            break
        eta = 1.0 / (t + 2.0)
        for k in range(3):
            weight[k] *= 1.0 - eta
            weight[k, reply[k]] += eta
    for k in range(3):
        x, y, z = states[k]
        three[x, y, z] = best[k]
    return period, spread, best_regret, no_equilibrium


@jit
def _find_plan(pool_alpha, pool_beta, size, alpha, beta):
    """Index of a known plan with these chances, or -1."""
    for j in range(size):
        if (abs(pool_beta[j] - beta) <= PLAN_TOLERANCE
                and np.max(np.abs(pool_alpha[j] - alpha)) <= PLAN_TOLERANCE):  # fmt: skip
            return j
    return -1


@parallel_jit
def solve_level(
    lo, hi, cycles, three, stake_factor, stake_cap, n, sums, state_start, state_sum,
    size_offset, probability, opt_start, opt_size, opt_value, totals, final_index,
    hit_given, s, q, pi, counters, duel, play_rounds, periods, spreads, regrets,
    no_equilibrium,
):  # fmt: skip
    """Solve the rotation classes ``cycles[lo:hi]`` (one total ``a + b + c``) into
    ``three``, in parallel: they read only states with fewer points, already solved
    (see :func:`solve_class`). Writes each class's period, spread, the solver's own
    regret and the number of evaluations that met an exchange with no pure
    equilibrium into the arrays of those names."""
    for ci in prange(lo, hi):
        periods[ci], spreads[ci], regrets[ci], no_equilibrium[ci] = solve_class(
            cycles[ci, 0], cycles[ci, 1], cycles[ci, 2], three, duel, stake_factor,
            stake_cap, n, sums, state_start, state_sum, size_offset, probability,
            opt_start, opt_size, opt_value, totals, final_index, hit_given, s, q, pi,
            counters, play_rounds,
        )  # fmt: skip


@jit
def state_gap(x, y, z, three, duel, stake_factor, stake_cap, n, sums, state_start, state_sum,
              size_offset, probability, opt_start, opt_size, opt_value, totals, final_index,
              hit_given, s, q, pi, counters, forced):  # fmt: skip
    """Stored mover chance minus the mover's best one-turn reply in state (x, y, z),
    and the most a counter decision of an exchange in ``forced`` loses to its best.

    The reply is computed afresh against the finished table (the no-change chances
    are the next state's stored ones): every keep, target and stake, the exchanges
    played as :func:`best_attack` with ``forced``. An equilibrium value has a gap of 0
    (to rounding); a positive gap is a value no play reaches, a negative one a
    profitable deviation. The exchanges :func:`exchange` selects are equilibria of
    their exchange by construction; those in ``forced`` are checked here.
    """
    value, slope, cu, du, decisions = turn_work(n, sums.shape[0], totals.shape[0])
    part = state_parts(
        x, y, z, three, duel, n, hit_given, pi, stake_ceiling(x, stake_factor, stake_cap)
    )
    decline = rotate(three[y, z, x])
    alpha, beta, _ = best_turn(
        x, y, z, part, decline, three, duel, n, sums, state_start, state_sum, size_offset,
        probability, opt_start, opt_size, opt_value, totals, final_index, s, q, counters,
        forced, cu, du, decisions, value, slope,
    )  # fmt: skip
    counter_gap = forced_counter_gap(s, q, part[0], part[1], decline, forced)
    return three[x, y, z, 0] - (alpha[0] + beta * decline[0]), counter_gap


@jit
def forced_of(forced_index, forced_values, x, y, z):
    """The ``forced`` exchanges of state (x, y, z) (:func:`best_attack`): its row of
    ``forced_values`` when ``forced_index[x, y, z] >= 0``, else :func:`no_forced`."""
    i = forced_index[x, y, z]
    if i < 0:
        return no_forced()
    return forced_values[i]


@parallel_jit
def class_gaps(
    cycles, three, stake_factor, stake_cap, n, sums, state_start, state_sum, size_offset,
    probability, opt_start, opt_size, opt_value, totals, final_index, hit_given, s, q, pi,
    counters, duel, forced_index, forced_values,
):  # fmt: skip
    """Per rotation class: the largest ``|gap|`` of its three states and the largest
    loss of a counter decision in an exchange that plays another equilibrium than the
    selected one (:func:`state_gap`): the two-sided distance of the stored values from
    an equilibrium, measured on the finished table independently of how it was solved.
    ``forced_index`` (top + 1, top + 1, top + 1) gives each state's row of
    ``forced_values`` (m, 3, MAX_LEVEL + 1, 2), -1 for none."""
    out = np.zeros(cycles.shape[0])
    for i in prange(cycles.shape[0]):
        a, b, c = cycles[i, 0], cycles[i, 1], cycles[i, 2]
        worst = 0.0
        for k in range(3):
            if k == 0:
                x, y, z = a, b, c
            elif k == 1:
                x, y, z = b, c, a
            else:
                x, y, z = c, a, b
            gap, counter_gap = state_gap(
                x, y, z, three, duel, stake_factor, stake_cap, n, sums, state_start,
                state_sum, size_offset, probability, opt_start, opt_size, opt_value, totals,
                final_index, hit_given, s, q, pi, counters,
                forced_of(forced_index, forced_values, x, y, z),
            )  # fmt: skip
            worst = max(worst, abs(gap), counter_gap)
        out[i] = worst
    return out


@jit
def turn_plan(x, y, z, part, decline, three, duel, n, sums, state_start, state_sum,
              size_offset, probability, opt_start, opt_size, opt_value, totals, final_index,
              s, q, counters, forced):  # fmt: skip
    """The mover's best turn in state (x, y, z) against ``decline`` as a plan: its
    chances ``alpha + beta * D`` for any no-change vector ``D`` under the same
    decisions (keeps, targets, the exchanges' counters, ``forced`` as in
    :func:`best_attack`); ``beta`` < 0 when an exchange has no equilibrium in pure
    counter decisions."""
    value, slope, cu, du, decisions = turn_work(n, sums.shape[0], totals.shape[0])
    alpha, beta, missing = best_turn(
        x, y, z, part, decline, three, duel, n, sums, state_start, state_sum, size_offset,
        probability, opt_start, opt_size, opt_value, totals, final_index, s, q, counters,
        forced, cu, du, decisions, value, slope,
    )  # fmt: skip
    if missing:
        return alpha, -1.0
    return alpha, beta


@jit
def _choice_into(alpha_below, beta_below, alpha_above, beta_above, theta, alpha, beta, out):
    """:func:`_choice_cycle` written into ``out`` without allocating (the same
    operations in the same order: the same numbers); returns the denominator."""
    for k in range(3):
        for i in range(3):
            alpha[k, i] = theta[k] * alpha_below[k, i] + (1 - theta[k]) * alpha_above[k, i]
        beta[k] = theta[k] * beta_below[k] + (1 - theta[k]) * beta_above[k]
    denom = 1.0 - beta[0] * beta[1] * beta[2]
    for k in range(3):
        k1, k2 = (k + 1) % 3, (k + 2) % 3
        both = beta[k] * beta[k1]
        # rotate(alpha[k1]) = (2, 0, 1), rotate(rotate(alpha[k2])) = (1, 2, 0)
        out[k, 0] = _divide(alpha[k, 0] + beta[k] * alpha[k1, 2] + both * alpha[k2, 1], denom)
        out[k, 1] = _divide(alpha[k, 1] + beta[k] * alpha[k1, 0] + both * alpha[k2, 2], denom)
        out[k, 2] = _divide(alpha[k, 2] + beta[k] * alpha[k1, 1] + both * alpha[k2, 0], denom)
    return denom


@jit
def _divide(x, y):
    """``x / y`` as numpy divides arrays: by zero gives inf or NaN, not an error (the
    scalar ``/`` of a kernel raises ZeroDivisionError, as Python's does)."""
    if y == 0.0:
        if x == 0.0 or np.isnan(x):
            return np.nan
        return np.copysign(np.inf, x) * np.copysign(1.0, y)
    return x / y


@jit
def _residual_into(alpha_below, beta_below, alpha_above, beta_above, theta, mixed, at,
                   alpha, beta, v, r):  # fmt: skip
    """:func:`_choice_residual` into ``v`` and ``r`` without allocating."""
    denom = _choice_into(alpha_below, beta_below, alpha_above, beta_above, theta, alpha, beta,
                         v)  # fmt: skip
    for j in range(mixed.shape[0]):
        k = mixed[j]
        r[j] = (v[(k + 1) % 3, 2] - at[k]) * denom


@jit
def solve_choices(start, dist, mix, alpha_below, beta_below, alpha_above, beta_above, at,
                  low, high, max_tries, steps):  # fmt: skip
    """Every choice of one option per state of a rotation class, nearest first, each
    solved by :func:`solve_choice`.

    The options of state ``k`` are rows ``start[k]:start[k + 1]``: a piece (``mix``
    False: its plan in ``*_below`` and ``*_above`` alike, its interval of ``d_k`` in
    ``low``, ``high``) or a breakpoint (``mix`` True: the plans below and above it,
    its ``d_k`` in ``at``), and ``dist``, how far it lies from the start values. The
    choices are ordered by the sum of their options' distances (ties: in the order of
    ``itertools.product`` over the states), and the first ``max_tries`` solved.
    Returns ``(choices, found, theta, values)``: per choice tried the option row of
    each state, whether it solved, its mixing chances and the class's values.
    """
    n0 = start[1] - start[0]
    n1 = start[2] - start[1]
    n2 = start[3] - start[2]
    total = n0 * n1 * n2
    keys = np.empty(total)
    combos = np.empty((total, 3), dtype=np.int64)
    i = 0
    for i0 in range(start[0], start[1]):
        for i1 in range(start[1], start[2]):
            for i2 in range(start[2], start[3]):
                keys[i] = dist[i0] + dist[i1] + dist[i2]
                combos[i, 0] = i0
                combos[i, 1] = i1
                combos[i, 2] = i2
                i += 1
    order = np.argsort(keys, kind="mergesort")[:max_tries]
    m = order.shape[0]
    choices = np.empty((m, 3), dtype=np.int64)
    found = np.zeros(m, dtype=np.bool_)
    thetas = np.empty((m, 3))
    values = np.empty((m, 3, 3))
    a_below = np.empty((3, 3))
    a_above = np.empty((3, 3))
    b_below = np.empty(3)
    b_above = np.empty(3)
    point = np.zeros(3)
    lo = np.empty(3)
    hi = np.empty(3)
    work = (np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty((3, 3)), np.empty(3),
            np.empty(3), np.empty(3))  # fmt: skip
    for t in range(m):
        count = 0
        for k in range(3):
            row = combos[order[t], k]
            choices[t, k] = row
            a_below[k] = alpha_below[row]
            a_above[k] = alpha_above[row]
            b_below[k] = beta_below[row]
            b_above[k] = beta_above[row]
            if mix[row]:
                point[k] = at[row]
                lo[k] = -np.inf
                hi[k] = np.inf
                count += 1
            else:
                point[k] = 0.0
                lo[k] = low[row]
                hi[k] = high[row]
        mixed = np.empty(count, dtype=np.int64)
        j = 0
        for k in range(3):
            if mix[combos[order[t], k]]:
                mixed[j] = k
                j += 1
        found[t], theta, v = _solve_choice_work(a_below, b_below, a_above, b_above, mixed,
                                                point, lo, hi, steps, work)  # fmt: skip
        thetas[t] = theta
        values[t] = v
    return choices, found, thetas, values


@jit
def _choice_cycle(alpha_below, beta_below, alpha_above, beta_above, theta):
    alpha = np.empty((3, 3))
    beta = np.empty(3)
    for k in range(3):
        alpha[k] = theta[k] * alpha_below[k] + (1 - theta[k]) * alpha_above[k]
        beta[k] = theta[k] * beta_below[k] + (1 - theta[k]) * beta_above[k]
    return cycle_values(alpha, beta), 1.0 - beta[0] * beta[1] * beta[2]


@jit
def _choice_residual(alpha_below, beta_below, alpha_above, beta_above, theta, mixed, at):
    v, denom = _choice_cycle(alpha_below, beta_below, alpha_above, beta_above, theta)
    r = np.empty(mixed.shape[0])
    for j in range(mixed.shape[0]):
        k = mixed[j]
        r[j] = (v[(k + 1) % 3, 2] - at[k]) * denom
    return r, v


@jit
def solve_choice(alpha_below, beta_below, alpha_above, beta_above, mixed, at, low, high,
                 steps):  # fmt: skip
    """Values of a rotation class whose state ``k`` plays the plan ``alpha + beta * D``
    mixed with chance ``theta[k]`` on the plan below (``*_below``) and the rest on the
    one above, the chances of the states in ``mixed`` solved so that each one's
    ``d_k`` (its mover's no-change chance) is its breakpoint ``at[k]``.

    Each equation times the cycle's denominator is affine in every chance
    separately, so the unit secant is its exact partial derivative and Newton's
    method solves one mixed state in one step. Returns (found, theta, values): found
    when the chances lie in [0, 1] and every state's ``d_k`` in ``[low[k], high[k]]``
    (a pure state's piece).
    """
    work = (np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty((3, 3)), np.empty(3),
            np.empty(3), np.empty(3))  # fmt: skip
    return _solve_choice_work(alpha_below, beta_below, alpha_above, beta_above, mixed, at, low,
                              high, steps, work)  # fmt: skip


@jit
def _solve_choice_work(alpha_below, beta_below, alpha_above, beta_above, mixed, at, low, high,
                       steps, work):  # fmt: skip
    """:func:`solve_choice` with its work arrays given (``alpha``, ``beta``, ``v``,
    ``v_up``, ``r``, ``r_up``, ``up``); the same steps, without allocating in them."""
    alpha, beta, v, v_up, r_all, r_up_all, up = work
    m = mixed.shape[0]
    r = r_all[:m]
    r_up = r_up_all[:m]
    theta = np.full(3, 0.5)
    _residual_into(alpha_below, beta_below, alpha_above, beta_above, theta, mixed, at, alpha,
                   beta, v, r)  # fmt: skip
    jac = np.empty((m, m))
    for _ in range(steps if m > 0 else 0):
        if np.max(np.abs(r)) <= 1e-16:
            break
        for j in range(m):
            up[:] = theta
            up[mixed[j]] += 1.0
            _residual_into(alpha_below, beta_below, alpha_above, beta_above, up, mixed, at,
                           alpha, beta, v_up, r_up)  # fmt: skip
            for i in range(m):
                jac[i, j] = r_up[i] - r[i]
        if not np.all(np.isfinite(jac)) or abs(np.linalg.det(jac)) < 1e-300:
            return False, theta, v.copy()
        step = np.linalg.solve(jac, -r)
        for j in range(m):
            theta[mixed[j]] += step[j]
        if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > 1e6:
            return False, theta, v.copy()
        _residual_into(alpha_below, beta_below, alpha_above, beta_above, theta, mixed, at,
                       alpha, beta, v, r)  # fmt: skip
    if m > 0 and np.max(np.abs(r)) > 1e-13:
        return False, theta, v.copy()
    for j in range(m):
        k = mixed[j]
        if theta[k] < -1e-12 or theta[k] > 1 + 1e-12:
            return False, theta, v.copy()
        theta[k] = min(1.0, max(0.0, theta[k]))
    _choice_into(alpha_below, beta_below, alpha_above, beta_above, theta, alpha, beta, v)
    for k in range(3):
        d = v[(k + 1) % 3, 2]
        if d < low[k] - 1e-9 or d > high[k] + 1e-9:
            return False, theta, v.copy()
    return True, theta, v.copy()
