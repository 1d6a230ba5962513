"""The double oracle on a kept tableau (tabletop._oracle), against HiGHS and the
double oracle that re-solves each restricted game."""

import numpy as np
import pytest

import tabletop.matrix_games as mg
from tabletop._oracle import solve_checked_kept, solve_incremental
from tabletop._simplex import solve_oracle
from tabletop.matrix_games import solve_zero_sum


def _gap(A, row, column):
    return float((A @ column).max() - (row @ A).min())


def _matrix(rng, kind, m, n):
    if kind == "normal":
        return rng.normal(size=(m, n))
    if kind == "integers":  # ties in the ratio tests, degenerate pivots
        return rng.integers(-3, 4, size=(m, n)).astype(float)
    return rng.integers(0, 2, size=(m, n)).astype(float)


@pytest.mark.parametrize("kind", ["normal", "integers", "binary"])
@pytest.mark.parametrize("warm", [False, True])
def test_kept_tableau_is_optimal_on_the_whole_matrix(kind, warm):
    """Its gap, recomputed here over every row and column, is within the tolerance,
    and its value is HiGHS's."""
    rng = np.random.default_rng(31)
    for _ in range(80):
        m, n = rng.integers(2, 90, size=2)
        A = _matrix(rng, kind, m, n)
        w_r, w_c = np.zeros(m), np.zeros(n)
        if warm:
            w_r[rng.integers(m, size=5)] = 1.0
            w_c[rng.integers(n, size=5)] = 1.0
        row, column = np.empty(m), np.empty(n)
        tol = 0.5 * mg.SMALL_GAP * max(np.ptp(A), 1.0)
        gap = solve_incremental(A, row, column, w_r, w_c, tol)
        assert 0.0 <= gap <= tol
        assert _gap(A, row, column) == pytest.approx(gap, abs=1e-15)
        assert row.min() >= 0.0 and row.sum() == pytest.approx(1.0, abs=1e-12)
        assert column.min() >= 0.0 and column.sum() == pytest.approx(1.0, abs=1e-12)
        assert float(row @ A @ column) == pytest.approx(solve_zero_sum(A).value, abs=1e-9)


def test_kept_tableau_on_large_supports():
    """A 200 x 200 game whose optimal strategies mix about half the orders: the many
    added rows and columns leave the answer exact (the basis is solved afresh where
    rounding builds up), as the oracle that re-solves each restricted game finds it."""
    rng = np.random.default_rng(5)
    A = rng.normal(size=(200, 200))
    tol = 0.5 * mg.SMALL_GAP * np.ptp(A)
    row, column = np.empty(200), np.empty(200)
    gap = solve_incremental(A, row, column, np.zeros(200), np.zeros(200), tol)
    assert 0.0 <= gap <= tol and (row > 0).sum() > 50
    r2, c2 = np.empty(200), np.empty(200)
    assert solve_oracle(A, r2, c2, np.zeros(200), np.zeros(200), tol) <= tol
    assert float(row @ A @ column) == pytest.approx(float(r2 @ A @ c2), abs=1e-12)


@pytest.mark.parametrize("shape", [(3, 4), (15, 20), (40, 60)])
def test_checked_kept_matches_highs(shape):
    """Below and past the size where the double oracle starts, with a value
    recomputed from the strategies."""
    rng = np.random.default_rng(sum(shape))
    for k in range(40):
        A = _matrix(rng, ("normal", "integers", "binary")[k % 3], *shape)
        row, column = np.empty(shape[0]), np.empty(shape[1])
        value, gap = solve_checked_kept(A, row, column, mg.SMALL_GAP, np.zeros(shape[0]),
                                        np.zeros(shape[1]))  # fmt: skip
        assert 0.0 <= gap <= mg.SMALL_GAP * max(np.ptp(A), 1.0)
        assert value == pytest.approx(float(row @ A @ column), abs=1e-15)
        assert value == pytest.approx(solve_zero_sum(A).value, abs=1e-9)
