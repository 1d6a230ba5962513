"""Established solvers of zero-sum matrix games, for cross-checks (test-only).

* Gambit (``pygambit``): its linear-programming solver ``pygambit.nash.lp_solve``
  gives a value and an optimal mixed strategy of each player. On small matrices it is
  run in exact rational arithmetic on the floats' exact values (``Fraction(x)``): in
  floating point it can miss by 1e-7 when payoffs differ by about 1e-7 (measured: a
  5 x 5 game of 0.5 + 1e-7 noise, value off by 1.6e-7 with its own strategies 2.6e-7
  from a saddle point), which the rational solve does not. Large matrices (where the
  rational solve takes minutes) use floating point.
* OpenSpiel (``pyspiel``): the matrix game built with ``pyspiel.create_matrix_game``;
  a profile is evaluated on it by OpenSpiel's own code (the expected payoff with
  ``expected_game_score.policy_value``, the players' best-response gains with
  ``exploitability.nash_conv`` on the turn-based form). OpenSpiel's LP solver
  (``lp_solver.solve_zero_sum_matrix_game``) needs cvxpy, which this project does not
  require: :func:`openspiel_lp` is only used when cvxpy imports.

Both are optional test dependencies (the ``test`` extra); a test that needs one skips
with the reason when it does not import.
"""

from __future__ import annotations

import numpy as np
import pytest


def import_gambit():
    """pygambit, or skip the test with the reason."""
    return pytest.importorskip("pygambit", reason="pygambit (test extra) is not installed")


def import_openspiel():
    """pyspiel, or skip the test with the reason."""
    return pytest.importorskip("pyspiel", reason="open-spiel (test extra) is not installed")


#: Largest number of entries solved by Gambit in rational arithmetic.
RATIONAL_ENTRIES = 150


def gambit_lp(A: np.ndarray, rational: bool | None = None) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal strategies of ``A`` (row player's payoff) by Gambit's LP, in
    rational arithmetic when ``rational`` (default: up to RATIONAL_ENTRIES entries)."""
    from fractions import Fraction

    gbt = import_gambit()
    A = np.asarray(A, dtype=np.float64)
    rational = A.size <= RATIONAL_ENTRIES if rational is None else rational
    if rational:
        exact = np.array([[Fraction(v) for v in line] for line in A.tolist()], dtype=object)
        game = gbt.StrategicGame.from_arrays(exact, -exact)
    else:
        game = gbt.StrategicGame.from_arrays(A, -A)
    result = gbt.nash.lp_solve(game, rational=rational)
    assert result.success
    eq = result.equilibrium
    # players and strategies are labelled "1", "2", ... in order (StrategicGame.from_arrays)
    row = dict(eq["1"])
    column = dict(eq["2"])
    x = np.array([float(row[str(i + 1)]) for i in range(A.shape[0])])
    y = np.array([float(column[str(j + 1)]) for j in range(A.shape[1])])
    return float(eq.payoffs["1"]), x, y


def openspiel_evaluate(A: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """OpenSpiel's evaluation of the profile (x, y) on the matrix game ``A``.

    Returns the row player's expected payoff and the NashConv (the sum of both
    players' best-response gains), both computed by OpenSpiel on the turn-based form
    of ``pyspiel.create_matrix_game(A, -A)`` (the second mover does not see the first
    move, so it is the same game).
    """
    pyspiel = import_openspiel()
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import expected_game_score, exploitability

    A = np.asarray(A, dtype=np.float64)
    game = pyspiel.convert_to_turn_based(pyspiel.create_matrix_game(A.tolist(), (-A).tolist()))
    policy = policy_lib.TabularPolicy(game)
    first = game.new_initial_state()  # the row player moves, then the column player
    second = first.child(0)
    for state, probs in ((first, x), (second, y)):
        line = np.zeros(policy.action_probability_array.shape[1])
        line[state.legal_actions()] = probs
        policy.action_probability_array[policy.state_index(state)] = line
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    return float(value), float(exploitability.nash_conv(game, policy))


def openspiel_lp(A: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal strategies by OpenSpiel's LP (skips when cvxpy is missing)."""
    pyspiel = import_openspiel()
    pytest.importorskip("cvxpy", reason="OpenSpiel's lp_solver needs cvxpy (not installed)")
    from open_spiel.python.algorithms import lp_solver

    A = np.asarray(A, dtype=np.float64)
    x, y, value, _ = lp_solver.solve_zero_sum_matrix_game(
        pyspiel.create_matrix_game(A.tolist(), (-A).tolist())
    )
    return float(value), np.asarray(x, dtype=float).ravel(), np.asarray(y, dtype=float).ravel()


def assert_same_game_solution(A, value, x, y, other_value, other_x, other_y, tol=1e-9):
    """Two solutions of ``A``: equal values, and each one's strategies guarantee the
    other's value (the row strategy earns at least it against every column, the
    column strategy concedes at most it against every row)."""
    A = np.asarray(A, dtype=np.float64)
    scale = max(1.0, float(np.abs(A).max()))
    assert abs(value - other_value) <= tol * scale, (value, other_value)
    for v, (row, col) in ((other_value, (x, y)), (value, (other_x, other_y))):
        assert abs(row.sum() - 1) <= 1e-9 and abs(col.sum() - 1) <= 1e-9
        assert row.min() >= -1e-12 and col.min() >= -1e-12
        assert (row @ A).min() >= v - tol * scale
        assert (A @ col).max() <= v + tol * scale
