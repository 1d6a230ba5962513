"""The dense simplex behind solve_small_zero_sum, against HiGHS and closed forms."""

import numpy as np
import pytest

import tabletop.matrix_games as mg
from tabletop._simplex import saddle_point, solve_game, solve_oracle
from tabletop.matrix_games import solve_small_zero_sum, solve_zero_sum


def _gap(A, row, column):
    return float((A @ column).max() - (row @ A).min())


@pytest.mark.parametrize("kind", ["normal", "integers", "binary"])
def test_random_games_against_highs(kind):
    """Integer and 0/1 matrices are degenerate (ties in the ratio test) on purpose."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        m, n = rng.integers(1, 25, size=2)
        if kind == "normal":
            A = rng.normal(size=(m, n))
        elif kind == "integers":
            A = rng.integers(-3, 4, size=(m, n)).astype(float)
        else:
            A = rng.integers(0, 2, size=(m, n)).astype(float)
        row, column = np.empty(m), np.empty(n)
        gap = solve_game(A, row, column)
        assert 0.0 <= gap <= 1e-12 * max(np.ptp(A), 1.0)
        assert gap == pytest.approx(_gap(A, row, column), abs=1e-14)
        assert row.min() >= 0 and column.min() >= 0
        assert row.sum() == pytest.approx(1.0, abs=1e-14)
        assert column.sum() == pytest.approx(1.0, abs=1e-14)
        assert solve_small_zero_sum(A).value == pytest.approx(solve_zero_sum(A).value, abs=1e-9)


def test_closed_forms():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    sol = solve_small_zero_sum(rps)
    assert sol.value == pytest.approx(0.0, abs=1e-15)
    np.testing.assert_allclose(sol.row, 1 / 3, atol=1e-15)
    np.testing.assert_allclose(sol.column, 1 / 3, atol=1e-15)
    # 2 x 2 without a saddle point: v = (ad - bc) / (a + d - b - c)
    a, b, c, d = 3.0, -1.0, -2.0, 4.0
    sol = solve_small_zero_sum(np.array([[a, b], [c, d]]))
    assert sol.value == pytest.approx((a * d - b * c) / (a + d - b - c), abs=1e-15)
    assert sol.row[0] == pytest.approx((d - c) / (a + d - b - c), abs=1e-15)


def test_saddle_point_found_without_pivots():
    A = np.array([[1.0, 2.0, 3.0], [0.0, 5.0, 4.0], [2.0, 2.5, 6.0]])
    assert saddle_point(A) == (2, 0)
    sol = solve_small_zero_sum(A)
    assert sol.value == 2.0 and sol.gap == 0.0
    assert saddle_point(np.array([[1.0, -1.0], [-1.0, 1.0]])) == (-1, -1)
    assert solve_small_zero_sum(np.full((3, 2), 0.25)).value == 0.25


def test_falls_back_to_highs_when_the_gap_is_not_met(monkeypatch):
    A = np.random.default_rng(2).normal(size=(6, 7))
    monkeypatch.setattr(mg, "SMALL_GAP", -1.0)  # no simplex answer is accepted
    assert solve_small_zero_sum(A) == solve_zero_sum(A)


@pytest.mark.parametrize("warm", [False, True])
def test_double_oracle_is_checked_on_the_whole_matrix(warm):
    """The restricted games' answer is optimal in the whole game: its gap, computed
    here from scratch over every row and column, is within the tolerance."""
    rng = np.random.default_rng(12)
    for k in range(60):
        m, n = rng.integers(20, 80, size=2)
        A = rng.normal(size=(m, n)) if k % 2 else rng.integers(-2, 3, size=(m, n)) * 1.0
        w_r, w_c = np.zeros(m), np.zeros(n)
        if warm:
            w_r[rng.integers(m, size=3)] = 1.0
            w_c[rng.integers(n, size=3)] = 1.0
        row, column = np.empty(m), np.empty(n)
        tol = 0.5 * mg.SMALL_GAP * np.ptp(A)  # as solve_checked asks
        gap = solve_oracle(A, row, column, w_r, w_c, tol)
        assert 0.0 <= gap <= tol
        assert _gap(A, row, column) == pytest.approx(gap, abs=1e-15)
        assert float(row @ A @ column) == pytest.approx(solve_zero_sum(A).value, abs=1e-9)
