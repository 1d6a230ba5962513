"""solve_zero_sum against Gambit's LP solver and OpenSpiel's evaluation of profiles.

Random matrices of many shapes (seeded) and degenerate ones (ties, duplicated and
dominated lines, constant, rank one, one row or one column): the values agree within
1e-9 (relative to the payoffs' size), each solver's strategies guarantee the other's
value, and OpenSpiel finds this library's profile worth its value with no
best-response gain above 1e-9.
"""

import numpy as np
import pytest

from tabletop.matrix_games import solve_zero_sum
from tests.tabletop.external_solvers import (
    assert_same_game_solution,
    gambit_lp,
    openspiel_evaluate,
    openspiel_lp,
)

SHAPES = [(1, 1), (1, 5), (5, 1), (2, 2), (2, 7), (7, 2), (3, 3), (4, 6), (9, 5), (12, 12),
          (25, 40), (60, 60)]  # fmt: skip


def random_matrices(seed: int = 20):
    """Seeded random matrices of every shape in SHAPES: real entries and small integers
    (which tie often)."""
    rng = np.random.default_rng(seed)
    for m, n in SHAPES:
        yield f"normal {m}x{n}", rng.normal(size=(m, n))
        yield f"integers {m}x{n}", rng.integers(-2, 3, size=(m, n)).astype(float)


def degenerate_matrices(seed: int = 21):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(4, 5))
    yield "constant", np.full((3, 4), 0.25)
    yield "zeros", np.zeros((2, 3))
    yield "rank one", np.outer(rng.normal(size=5), rng.normal(size=6))
    yield "duplicated rows and columns", np.repeat(np.repeat(base, 2, axis=0), 2, axis=1)
    dominated = np.vstack([base, base.min(axis=0, keepdims=True) - 1.0])
    yield "a dominated row", dominated
    yield "a saddle point", np.array([[3.0, 1.0, 4.0], [2.0, 0.0, 1.0], [5.0, 1.0, 9.0]])
    yield "matching pennies", np.array([[1.0, -1.0], [-1.0, 1.0]])
    yield "rock paper scissors", np.array([[0.0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    yield "many optimal strategies", np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    yield "large payoffs", 1e4 * rng.normal(size=(6, 4))
    yield "tiny differences", 0.5 + 1e-7 * rng.normal(size=(5, 5))
    yield "wins and losses (stage-like)", rng.choice([-1.0, 0.0, 1.0], size=(11, 11))


CASES = list(random_matrices()) + list(degenerate_matrices())


@pytest.mark.parametrize("name, A", CASES, ids=[name for name, _ in CASES])
def test_solve_zero_sum_agrees_with_gambit(name, A):
    ours = solve_zero_sum(A)
    theirs = gambit_lp(A)
    assert_same_game_solution(A, ours.value, ours.row, ours.column, *theirs)


@pytest.mark.parametrize("name, A", CASES, ids=[name for name, _ in CASES])
def test_openspiel_finds_the_solution_optimal(name, A):
    ours = solve_zero_sum(A)
    scale = max(1.0, float(np.abs(A).max()))
    value, nash_conv = openspiel_evaluate(A, ours.row, ours.column)
    assert abs(value - ours.value) <= 1e-9 * scale
    assert nash_conv <= 1e-9 * scale
    # and Gambit's profile, evaluated by OpenSpiel, is worth our value
    _, g_row, g_col = gambit_lp(A)
    value, nash_conv = openspiel_evaluate(A, g_row, g_col)
    assert abs(value - ours.value) <= 1e-9 * scale
    assert nash_conv <= 1e-9 * scale


def test_openspiel_evaluation_catches_a_bad_profile():
    """The OpenSpiel check can fail: uniform play in a game with a saddle point."""
    A = np.array([[3.0, 1.0], [2.0, 0.0]])
    value, nash_conv = openspiel_evaluate(A, np.full(2, 0.5), np.full(2, 0.5))
    assert value == pytest.approx(1.5, abs=1e-12)
    # the row player gains 2 - 1.5 by row 0, the column player 1.5 - 0.5 by column 1
    assert nash_conv == pytest.approx(1.5, abs=1e-12)


@pytest.mark.parametrize("name, A", CASES[:10], ids=[name for name, _ in CASES[:10]])
def test_solve_zero_sum_agrees_with_openspiel_lp(name, A):
    ours = solve_zero_sum(A)
    assert_same_game_solution(A, ours.value, ours.row, ours.column, *openspiel_lp(A))
