"""solve_zero_sum against closed forms and an independent support enumeration."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.matrix_games import solve_zero_sum

TOL = 1e-7


def support_enumeration_value(A):
    """Brute force: the value of ``A`` from every pair of equal-size supports.

    For supports I (rows) and J (columns) of size k, solve the indifference
    equations ``A[I, J] y = w``, ``x A[I, J] = v``, ``sum = 1``; keep the pair if both
    strategies are non-negative and no pure strategy outside the supports does
    better (the Nash conditions). Every matrix game has such an equilibrium with
    equal-size supports when A is nondegenerate; random real matrices are.
    """
    m, n = A.shape
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                sub = A[np.ix_(rows, cols)]
                M = np.zeros((k + 1, k + 1))
                M[:k, :k] = sub
                M[:k, k] = -1.0
                M[k, :k] = 1.0
                rhs = np.zeros(k + 1)
                rhs[k] = 1.0
                try:
                    y_sol = np.linalg.solve(M, rhs)
                    Mx = np.zeros((k + 1, k + 1))
                    Mx[:k, :k] = sub.T
                    Mx[:k, k] = -1.0
                    Mx[k, :k] = 1.0
                    x_sol = np.linalg.solve(Mx, rhs)
                except np.linalg.LinAlgError:
                    continue
                y_s, w = y_sol[:k], y_sol[k]
                x_s, v = x_sol[:k], x_sol[k]
                if (y_s < -1e-12).any() or (x_s < -1e-12).any():
                    continue
                x = np.zeros(m)
                x[list(rows)] = x_s
                y = np.zeros(n)
                y[list(cols)] = y_s
                if (A @ y).max() <= w + 1e-9 and (x @ A).min() >= v - 1e-9:
                    return v, x, y
    raise AssertionError("no equilibrium found")  # pragma: no cover


def check_optimal(sol, A):
    A = np.asarray(A, dtype=float)
    assert sol.row.sum() == pytest.approx(1.0) and (sol.row >= 0).all()
    assert sol.column.sum() == pytest.approx(1.0) and (sol.column >= 0).all()
    # the row strategy guarantees the value, the column strategy concedes no more
    assert (sol.row @ A).min() >= sol.value - TOL
    assert (A @ sol.column).max() <= sol.value + TOL
    assert sol.gap <= 2 * TOL


def test_matching_pennies():
    sol = solve_zero_sum([[1, -1], [-1, 1]])
    assert sol.value == pytest.approx(0.0, abs=TOL)
    np.testing.assert_allclose(sol.row, [0.5, 0.5], atol=TOL)
    np.testing.assert_allclose(sol.column, [0.5, 0.5], atol=TOL)


def test_rock_paper_scissors_is_uniform_with_value_zero():
    A = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    sol = solve_zero_sum(A)
    assert sol.value == pytest.approx(0.0, abs=TOL)
    np.testing.assert_allclose(sol.row, [1 / 3] * 3, atol=TOL)
    np.testing.assert_allclose(sol.column, [1 / 3] * 3, atol=TOL)


@given(st.lists(st.integers(-20, 20), min_size=4, max_size=4))
@settings(max_examples=60, deadline=None)
def test_two_by_two_closed_form(entries):
    """No saddle point: v = (ad - bc) / (a + d - b - c), p = (d - c) / (a + d - b - c)."""
    a, b, c, d = entries
    A = np.array([[a, b], [c, d]], dtype=float)
    sol = solve_zero_sum(A)
    check_optimal(sol, A)
    maximin = A.min(axis=1).max()
    minimax = A.max(axis=0).min()
    if maximin == minimax:  # a saddle point: the value is the pure one
        assert sol.value == pytest.approx(maximin, abs=1e-6)
    else:
        den = a + d - b - c
        assert sol.value == pytest.approx((a * d - b * c) / den, abs=1e-6)
        assert sol.row[0] == pytest.approx((d - c) / den, abs=1e-6)
        assert sol.column[0] == pytest.approx((d - b) / den, abs=1e-6)


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (3, 4), (4, 4), (5, 3)])
def test_random_matrices_against_support_enumeration(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(15):
        A = rng.normal(size=shape)
        sol = solve_zero_sum(A)
        check_optimal(sol, A)
        value, _, _ = support_enumeration_value(A)
        assert sol.value == pytest.approx(value, abs=1e-7)


def test_scaling_and_shifting():
    rng = np.random.default_rng(3)
    A = rng.integers(-5, 6, size=(4, 5)).astype(float)
    sol = solve_zero_sum(A)
    moved = solve_zero_sum(3.0 * A + 7.0)
    assert moved.value == pytest.approx(3.0 * sol.value + 7.0, abs=1e-6)
    check_optimal(moved, 3.0 * A + 7.0)


def test_constant_and_single_entry():
    sol = solve_zero_sum([[2.5, 2.5], [2.5, 2.5]])
    assert sol.value == 2.5 and sol.gap == 0.0
    assert solve_zero_sum([[4]]).value == pytest.approx(4.0)


def test_payoffs_closer_than_the_tolerances():
    # met in a Citadel fixed-point search: payoffs 1e-10 apart made HiGHS stop with a
    # solve error at tight tolerances; the solve falls back to HiGHS's defaults
    near = [
        [0.9999999995343387, 0.9999999998980001, 0.999999999999, 0.9999999998980001,
         0.9999999998990001, 0.999999999999, 0.9999999998990001],
        [1.0, 0.9999999999985, 0.999999999999, 1.0, 0.999999999999, 0.999999999999,
         0.999999999999],
        [1.0, 0.9999999993528225, 0.9999999998999901, 1.0, 1.0, 0.9999999998999901, 1.0],
        [1.0, 1.0, 0.999999999999, 0.9999999999985, 0.999999999999, 0.999999999999,
         0.999999999999],
        [1.0, 1.0, 1.0, 0.9999999993528225, 0.9999999998999901, 1.0, 0.9999999998999901],
        [1.0, 1.0, 0.9999999998999901, 1.0, 1.0, 0.9999999998999901, 1.0],
        [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0],
        [1.0, 1.0, 1.0, 1.0, 0.9999999998999901, 1.0, 0.9999999998999901],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0],
    ]  # fmt: skip
    sol = solve_zero_sum(near)
    assert sol.gap < 1e-9
    # row 2 alone guarantees 1 - 6.5e-10 and nothing beats 1: the value is 1 up to 1e-9
    assert sol.value == pytest.approx(1.0, abs=1e-9)
    assert sol.value >= 0.9999999993528225 - 1e-12


def test_column_dominance():
    """A column player facing a dominated column never plays it."""
    A = [[3, 1, 5], [0, 2, 4]]  # column 3 is dominated by column 2 (and by 1)
    sol = solve_zero_sum(A)
    check_optimal(sol, A)
    assert sol.column[2] == pytest.approx(0.0, abs=TOL)


@pytest.mark.parametrize(
    ("A", "error", "match"),
    [
        ([1, 2], ValueError, "2-D"),
        ([[]], ValueError, "non-empty"),
        ([[1.0, np.nan]], ValueError, "finite"),
        ([["a", "b"]], TypeError, "numbers"),
    ],
)
def test_bad_input(A, error, match):
    with pytest.raises(error, match=match):
        solve_zero_sum(A)


def test_payoffs_near_the_float_limit_are_solved():
    res = solve_zero_sum([[1e308, -1e308], [-1e308, 1e308]])
    assert res.value == 0.0 and res.row.tolist() == [0.5, 0.5] and res.gap == 0.0
    res = solve_zero_sum([[1.7e308, 0.0], [0.0, -1.7e308]])
    assert np.isfinite(res.value) and abs(res.row.sum() - 1) < 1e-12
