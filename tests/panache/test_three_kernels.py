"""The fast paths of the three-player kernels against their plain forms."""

import itertools

import numpy as np
import pytest

from panache import Rules
from panache._three_kernels import (
    TIE_TOLERANCE,
    cycle_values,
    solve_choice,
    solve_choices,
    turn_work,
    vector_turn,
)
from panache.turn import turn_tables


def _plain_turn(n, sums, state_start, state_sum, size_offset, probability, opt_start, opt_size,
                opt_value, cu, du, a_mover):  # fmt: skip
    """The turn roll of :func:`vector_turn` in plain Python (np.searchsorted per option)."""
    value = {}
    for i in range(state_start[n], state_start[n + 1]):
        g = state_sum[i]
        value[0, g] = (cu[g].copy(), du[g])
    for m in range(1, n + 1):
        j = n - m
        for i in range(state_start[j], state_start[j + 1]):
            g = state_sum[i]
            acc = np.zeros(3)
            acc_slope = 0.0
            for r in range(size_offset[m], size_offset[m + 1]):
                best, best_key = -np.inf, None
                for o in range(opt_start[r], opt_start[r + 1]):
                    key = (m - opt_size[o], int(np.searchsorted(sums, sums[g] + opt_value[o])))
                    v = value[key][0][0] + value[key][1] * a_mover
                    if v > best + TIE_TOLERANCE:
                        best, best_key = v, key
                acc += probability[r] * value[best_key][0]
                acc_slope += probability[r] * value[best_key][1]
            value[m, g] = (acc, acc_slope)
    return value[n, int(np.searchsorted(sums, 0))]


@pytest.mark.parametrize("rules", [Rules(n_dice=3),
                                   Rules(n_dice=4, face_values=(-2, 0, 0, 1, 3, 5))],
                         ids=["default-faces", "other-faces"])  # fmt: skip
def test_vector_turn_matches_the_plain_turn(rules):
    t = turn_tables(rules)
    n = rules.n_dice
    rng = np.random.default_rng(5)
    value, slope, cu, du, _ = turn_work(n, t.sums.size, t.totals.size)
    for _ in range(5):
        cu[:] = rng.random(cu.shape)
        du[:] = rng.random(du.shape) * (rng.random(du.shape) < 0.5)
        a_mover = float(rng.random())
        args = (n, t.sums, t.state_start, t.state_sum, t.space.size_offset,
                t.space.probability, t.opt_start, t.opt_size, t.opt_value, cu, du,
                a_mover)  # fmt: skip
        alpha, beta = vector_turn(*args, value, slope)
        plain_alpha, plain_beta = _plain_turn(*args)
        assert np.array_equal(alpha, plain_alpha)  # the same operations: the same bits
        assert beta == plain_beta


def _plain_solve_choice(alpha_below, beta_below, alpha_above, beta_above, mixed, at, low, high,
                        steps):  # fmt: skip
    """:func:`solve_choice` with the class's values from :func:`cycle_values`."""

    def values(theta):
        alpha = theta[:, None] * alpha_below + (1 - theta[:, None]) * alpha_above
        beta = theta * beta_below + (1 - theta) * beta_above
        return cycle_values(alpha, beta), 1.0 - beta[0] * beta[1] * beta[2]

    def residual(theta):
        v, denom = values(theta)
        return np.array([(v[(k + 1) % 3, 2] - at[k]) * denom for k in mixed]), v

    theta = np.full(3, 0.5)
    m = len(mixed)
    r, v = residual(theta)
    for _ in range(steps if m else 0):
        if np.max(np.abs(r)) <= 1e-16:
            break
        jac = np.empty((m, m))
        for j in range(m):
            up = theta.copy()
            up[mixed[j]] += 1.0
            jac[:, j] = residual(up)[0] - r
        if not np.all(np.isfinite(jac)) or abs(np.linalg.det(jac)) < 1e-300:
            return False, theta, v
        theta[mixed] += np.linalg.solve(jac, -r)
        if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > 1e6:
            return False, theta, v
        r, v = residual(theta)
    if m and np.max(np.abs(r)) > 1e-13:
        return False, theta, v
    if any(theta[k] < -1e-12 or theta[k] > 1 + 1e-12 for k in mixed):
        return False, theta, v
    theta[mixed] = np.clip(theta[mixed], 0.0, 1.0)
    v, _ = values(theta)
    ok = all(low[k] - 1e-9 <= v[(k + 1) % 3, 2] <= high[k] + 1e-9 for k in range(3))
    return ok, theta, v


def _random_options(rng, sizes):
    """Options of three states around a common point, so that some choices solve."""
    rows = []
    for k, size in enumerate(sizes):
        for _ in range(size):
            alpha = rng.dirichlet([1, 1, 1]) * 0.5
            beta = 0.3 + 0.4 * rng.random()
            if rng.random() < 0.5:
                alpha2 = rng.dirichlet([1, 1, 1]) * 0.5
                beta2 = 0.3 + 0.4 * rng.random()
                rows.append((k, round(rng.random(), 2), True, alpha, beta, alpha2, beta2,
                             0.2 + 0.3 * rng.random(), -np.inf, np.inf))  # fmt: skip
            else:
                lo = 0.6 * rng.random()
                rows.append((k, round(rng.random(), 2), False, alpha, beta, alpha, beta, 0.0,
                             lo, lo + 0.4 * rng.random()))  # fmt: skip
    start = np.searchsorted([r[0] for r in rows], [0, 1, 2, 3]).astype(np.int64)
    cols = list(zip(*rows, strict=True))[1:]
    return (start, np.array(cols[0]), np.array(cols[1]), np.array(cols[2]), np.array(cols[3]),
            np.array(cols[4]), np.array(cols[5]), np.array(cols[6]), np.array(cols[7]),
            np.array(cols[8]))  # fmt: skip


def test_solve_choices_tries_the_nearest_choices_as_solve_choice_does():
    rng = np.random.default_rng(11)
    solved = 0
    for _ in range(30):
        options = _random_options(rng, rng.integers(1, 5, size=3))
        start, dist, mix, a_below, b_below, a_above, b_above, at, low, high = options
        rows, found, thetas, values = solve_choices(*options, 20, 30)
        # the order: sum of distances, ties in itertools.product's order (a stable sort)
        combos = list(itertools.product(*(range(start[k], start[k + 1]) for k in range(3))))
        combos.sort(key=lambda c: sum(dist[i] for i in c))
        assert [tuple(r) for r in rows] == combos[:20]
        for t, combo in enumerate(combos[:20]):
            c = np.array(combo)
            mixed = np.flatnonzero(mix[c]).astype(np.int64)
            args = (a_below[c], b_below[c], a_above[c], b_above[c], mixed,
                    np.where(mix[c], at[c], 0.0), np.where(mix[c], -np.inf, low[c]),
                    np.where(mix[c], np.inf, high[c]), 30)  # fmt: skip
            ok, theta, v = solve_choice(*args)
            plain_ok, plain_theta, plain_v = _plain_solve_choice(*args)
            assert found[t] == ok == plain_ok
            assert np.array_equal(thetas[t], theta) and np.array_equal(theta, plain_theta)
            assert np.array_equal(values[t], v) and np.array_equal(v, plain_v)
            solved += ok
    assert solved > 0  # the comparison met choices that solve


def test_a_choice_whose_cycle_never_ends_is_refused_as_the_plain_form_refuses_it():
    # every state's plans keep the turn with chance 1: the cycle's denominator is 0
    alpha = np.zeros((3, 3))
    beta = np.ones(3)
    for mixed in (np.array([], dtype=np.int64), np.array([0], dtype=np.int64),
                  np.array([0, 2], dtype=np.int64)):  # fmt: skip
        args = (alpha, beta, alpha + 0.1, beta, mixed, np.full(3, 0.3), np.full(3, -np.inf),
                np.full(3, np.inf), 30)  # fmt: skip
        with np.errstate(divide="ignore", invalid="ignore"):
            plain_ok, plain_theta, plain_v = _plain_solve_choice(*args)
        ok, theta, v = solve_choice(*args)
        assert ok == plain_ok
        assert np.array_equal(theta, plain_theta, equal_nan=True)
        assert np.array_equal(v, plain_v, equal_nan=True)
