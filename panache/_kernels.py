"""Numba kernels of Master Panache. Private: no validation, deterministic given inputs.

Multisets of dice are indices into a :class:`panache.dice.DiceSpace`; a tabulated
turn policy is a flat array ``kept`` where ``kept[table_offset[a] + r]`` is the
multiset set aside when the dice set aside so far are the multiset ``a`` and the
roll is the ``r``-th multiset of the remaining dice.
"""

import numpy as np
from numba import prange

from tabletop.draws import randbelow, roll_die
from tabletop.jit import jit, parallel_jit

#: Two values closer than this are a tie; ties go to the option listed first.
TIE_TOLERANCE = 1e-12


@jit
def stake_ceiling(points, stake_factor, stake_cap):
    """The largest Master Panache stake of a player with ``points`` (``stake_cap`` 0:
    no cap; the stakes are the even numbers from 2 to it): :meth:`panache.Rules.stake_ceiling`
    in the kernels."""
    top = stake_factor * points
    if stake_cap > 0 and stake_cap < top:
        top = stake_cap
    return top


@jit
def solve_turn_kernel(
    n, sums, state_start, state_sum, size_offset, probability,
    opt_start, opt_size, opt_value, final_utility, final_secondary, choice_offset,
):  # fmt: skip
    """Backward induction over (dice left m, set-aside total); see ``panache.turn``.

    Among the options whose value ties the best (to ``TIE_TOLERANCE``), the one with the
    highest ``final_secondary`` in expectation (under the choices made after it) is
    taken, then the one listed first. Returns ``value[m, g]`` (expected utility with
    ``m`` dice to roll and set-aside total ``sums[g]``), ``secondary[m, g]`` (the
    expected secondary utility of the chosen policy) and ``choice`` (the option taken
    for each state and roll).
    """
    n_sums = sums.shape[0]
    value = np.full((n + 1, n_sums), np.nan)
    secondary = np.full((n + 1, n_sums), np.nan)
    for i in range(state_start[n], state_start[n + 1]):
        value[0, state_sum[i]] = final_utility[state_sum[i]]
        secondary[0, state_sum[i]] = final_secondary[state_sum[i]]
    choice = np.empty(choice_offset[n + 1], dtype=np.int64)
    for m in range(1, n + 1):
        j = n - m
        r_first = size_offset[m]
        n_rolls = size_offset[m + 1] - r_first
        for s_local in range(state_start[j + 1] - state_start[j]):
            g = state_sum[state_start[j] + s_local]
            acc = 0.0
            acc_secondary = 0.0
            for r_local in range(n_rolls):
                r = r_first + r_local
                best = -np.inf
                best_secondary = -np.inf
                best_o = -1
                for o in range(opt_start[r], opt_start[r + 1]):
                    target = np.searchsorted(sums, sums[g] + opt_value[o])
                    v = value[m - opt_size[o], target]
                    w = secondary[m - opt_size[o], target]
                    if v > best + TIE_TOLERANCE or (
                            v >= best - TIE_TOLERANCE and w > best_secondary + TIE_TOLERANCE):
                        best = v
                        best_secondary = w
                        best_o = o
                acc += probability[r] * best
                acc_secondary += probability[r] * best_secondary
                choice[choice_offset[m] + s_local * n_rolls + r_local] = best_o
            value[m, g] = acc
            secondary[m, g] = acc_secondary
    return value, secondary, choice


@jit
def expand_policy_kernel(
    n, sizes, size_offset, sum_index, state_start, state_sum,
    choice, choice_offset, opt_kept, table_offset,
):  # fmt: skip
    """Write a total-based choice table as a multiset-keyed ``kept`` table."""
    kept = np.empty(table_offset[-1], dtype=np.int64)
    for a in range(size_offset[n]):
        j = sizes[a]
        m = n - j
        states = state_sum[state_start[j] : state_start[j + 1]]
        s_local = np.searchsorted(states, sum_index[a])
        n_rolls = size_offset[m + 1] - size_offset[m]
        for r_local in range(n_rolls):
            o = choice[choice_offset[m] + s_local * n_rolls + r_local]
            kept[table_offset[a] + r_local] = opt_kept[o]
    return kept


@jit
def evaluate_policy_kernel(n, sizes, size_offset, probability, codes, index_of_code,
                           table_offset, kept):  # fmt: skip
    """Forward propagation of probability over set-aside multisets.

    Returns the probability of ever holding each multiset set aside (those of size
    ``n`` are the final hands), the expected number of dice thrown and of rolls.
    """
    reach = np.zeros(sizes.shape[0])
    reach[0] = 1.0
    expected_dice = 0.0
    expected_rolls = 0.0
    for a in range(size_offset[n]):
        pa = reach[a]
        if pa == 0.0:
            continue
        m = n - sizes[a]
        expected_rolls += pa
        expected_dice += pa * m
        r_first = size_offset[m]
        for r in range(r_first, size_offset[m + 1]):
            k = kept[table_offset[a] + r - r_first]
            reach[index_of_code[codes[a] + codes[k]]] += pa * probability[r]
    return reach, expected_dice, expected_rolls


#: A step of the turn simulator packs the dice left (low bits) with the next table offset.
STEP_BITS = 4


@parallel_jit
def simulate_turns_kernel(seeds, chunk_size, n_turns, n, powers, index_of_code,
                          first_offset, step, total_offset):  # fmt: skip
    """Play ``n_turns`` turn rolls under a tabulated policy.

    Chunk ``c`` (turns ``c * chunk_size`` onwards) seeds its thread's generator
    with ``seeds[c]``, so the output does not depend on the number of threads.
    Returns the totals and the number of dice thrown in each chunk.
    """
    totals = np.empty(n_turns, dtype=np.int64)
    dice = np.zeros(seeds.shape[0], dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        start = c * chunk_size
        stop = min(start + chunk_size, n_turns)
        dice[c] = _turns_chunk(totals, start, stop, n, powers, index_of_code,
                               first_offset, step, total_offset)  # fmt: skip
    return totals, dice


@jit
def _turns_chunk(totals, start, stop, n, powers, index_of_code, first_offset, step, total_offset):
    """Turns ``start:stop`` on the calling thread's generator; returns dice thrown.

    The loop of :func:`play_turn`, written out: calling it per turn measured 15-20%
    slower (benchmarks/bench_panache_turn.py).
    """
    mask = (1 << STEP_BITS) - 1
    thrown = 0
    for t in range(start, stop):
        offset = first_offset
        left = n
        while left > 0:
            roll = 0
            for _ in range(left):
                roll += powers[roll_die()]
            thrown += left
            packed = step[offset + index_of_code[roll]]
            left = packed & mask
            offset = packed >> STEP_BITS
        totals[t] = offset + total_offset
    return thrown


@jit
def play_turn(n, powers, index_of_code, first_offset, step, total_offset):
    """One turn roll under a packed step table; returns the total.

    With ``left`` dice to roll and table offset ``b`` (a function of the dice set
    aside), a roll with code ``r`` gives ``p = step[b + index_of_code[r]]``: the dice
    left after it are ``p & 15`` and, while some are left, ``p >> 4`` is the next
    offset; when none are, ``(p >> 4) + total_offset`` is the total.
    """
    mask = (1 << STEP_BITS) - 1
    offset = first_offset
    left = n
    while left > 0:
        roll = 0
        for _ in range(left):
            roll += powers[roll_die()]
        packed = step[offset + index_of_code[roll]]
        left = packed & mask
        offset = packed >> STEP_BITS
    return offset + total_offset


@jit
def play_random_turn(n, values):
    """One turn roll that sets aside a uniformly random non-empty subset of each roll."""
    total = 0
    left = n
    while left > 0:
        keep = 0
        while keep == 0:
            keep = randbelow(1 << left)
        kept = 0
        for i in range(left):
            face = roll_die()
            if keep & (1 << i):
                total += values[face]
                kept += 1
        left -= kept
    return total


@jit
def _attack_chain(n, level):
    """Dice showing ``level`` set aside in one attack chain (thread's generator)."""
    left = n
    hit = 0
    while left > 0:
        shown = 0
        for _ in range(left):
            if roll_die() + 1 == level:
                shown += 1
        if shown == 0:
            break
        hit += shown
        left -= shown
    return hit


@parallel_jit
def simulate_attacks_kernel(seeds, chunk_size, n_attacks, n, level):
    """Number of dice showing ``level`` in each of ``n_attacks`` attack chains."""
    hits = np.empty(n_attacks, dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        for t in range(c * chunk_size, min((c + 1) * chunk_size, n_attacks)):
            hits[t] = _attack_chain(n, level)
    return hits


@parallel_jit
def simulate_exchanges_kernel(seeds, chunk_size, n_exchanges, n, level,
                              target_counters, attacker_counters, max_attempts):  # fmt: skip
    """Attack / counter-attack exchanges.

    Attempt 0 is the attack, attempt 1 the target's counter, and so on; a side
    counters when its flag is set. Returns, per exchange, the dice hit (0 if no
    attempt succeeded), who was hit (0 target, 1 attacker, -1 nobody) and the
    number of attempts. ``max_attempts`` bounds the chain (an exchange still
    running then ends with nobody hit; pass a bound whose probability is negligible).
    """
    hits = np.zeros(n_exchanges, dtype=np.int64)
    victim = np.full(n_exchanges, -1, dtype=np.int64)
    attempts = np.zeros(n_exchanges, dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        for t in range(c * chunk_size, min((c + 1) * chunk_size, n_exchanges)):
            for attempt in range(max_attempts):
                attempts[t] = attempt + 1
                h = _attack_chain(n, level)
                if h > 0:
                    hits[t] = h
                    victim[t] = attempt % 2
                    break
                # attempt failed: the side just attacked may answer
                answers = target_counters if attempt % 2 == 0 else attacker_counters
                if not answers:
                    break
    return hits, victim, attempts


@jit
def turn_value_slope_kernel(
    n, sums, state_start, state_sum, size_offset, probability,
    opt_start, opt_size, opt_value, final_utility, final_slope, value, slope,
):  # fmt: skip
    """Optimal value of a turn roll and its derivative along a second utility.

    Same backward induction as :func:`solve_turn_kernel`, without the choice
    table: ``value`` and ``slope`` are scratch arrays of shape ``(n + 1, len(sums))``.
    The slope carried along is that of the chosen options, so it is the derivative
    of the optimal value when the utility moves along ``final_slope`` (exact
    while no choice changes). Returns both at the start (no die set aside).
    """
    for i in range(state_start[n], state_start[n + 1]):
        g = state_sum[i]
        value[0, g] = final_utility[g]
        slope[0, g] = final_slope[g]
    for m in range(1, n + 1):
        j = n - m
        for s_local in range(state_start[j + 1] - state_start[j]):
            g = state_sum[state_start[j] + s_local]
            acc = 0.0
            acc_slope = 0.0
            for r in range(size_offset[m], size_offset[m + 1]):
                best = -np.inf
                best_slope = 0.0
                for o in range(opt_start[r], opt_start[r + 1]):
                    target = np.searchsorted(sums, sums[g] + opt_value[o])
                    v = value[m - opt_size[o], target]
                    if v > best + TIE_TOLERANCE:
                        best = v
                        best_slope = slope[m - opt_size[o], target]
                acc += probability[r] * best
                acc_slope += probability[r] * best_slope
            value[m, g] = acc
            slope[m, g] = acc_slope
    start = np.searchsorted(sums, 0)
    return value[n, start], slope[n, start]
