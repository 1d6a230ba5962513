"""The two-player whole game: against synchronous value iteration, best responses and
Monte Carlo of the computed strategies."""

import functools

import numpy as np
import pytest

from citadel import Rules
from citadel.stage import duel_matrix, duel_space, reply_range
from citadel.whole_game import (
    _solve_states,
    _states,
    check_solution,
    solve_duel_game,
    value_by_grid,
)
from tabletop.stats import estimate_mean
from tests.citadel.brute import duel_value_iteration
from tests.conftest import Z_TOL

CASES = [
    (Rules(n_players=2, radius=1, capital=6, bid_step=2), "axis", (0,), (4,)),
    (Rules(n_players=2, radius=2, capital=4, bid_step=1, payment="winners"), "axis", (0,), (4,)),
    (Rules(n_players=2, radius=1, capital=4, bid_step=1), "fees", (0, 1), (4, 5)),
]


@pytest.mark.parametrize(("rules", "directions", "n_dirs", "s_dirs"), CASES[:2])
def test_values_match_synchronous_value_iteration(rules, directions, n_dirs, s_dirs):
    sol = solve_duel_game(rules, directions)
    brute = duel_value_iteration(rules, n_dirs, s_dirs)
    space = sol.space
    r = rules.radius
    for y in range(-r, r + 1):
        for cn in space.levels:
            for cs in space.levels:
                assert sol.value(y, int(cn), int(cs)) == pytest.approx(
                    brute[y + r, cn, cs], abs=1e-7
                ), (y, cn, cs)
    assert sol.residual < 1e-9 and sol.lp_gap < 1e-7


def test_fee_game_values_are_a_fixed_point_of_shapleys_operator():
    """With fees the plain iteration converges too slowly to test against; instead one
    application of the brute-force operator leaves the solution's values unchanged."""
    rules, directions, n_dirs, s_dirs = CASES[2]
    sol = solve_duel_game(rules, directions)
    assert sol.space.levels.tolist() == list(range(rules.capital + 1))
    again = duel_value_iteration(rules, n_dirs, s_dirs, iterations=1, start=sol.values)
    np.testing.assert_allclose(again, sol.values, atol=1e-8)
    assert np.abs(sol.values).max() > 0.1  # not the trivial fixed point


@pytest.mark.parametrize(("rules", "directions", "n_dirs", "s_dirs"), CASES)
def test_solution_is_not_exploitable(rules, directions, n_dirs, s_dirs):
    sol = solve_duel_game(rules, directions)
    chk = check_solution(sol, directions)
    assert chk.exploitability < 1e-6
    assert chk.n_guarantees == pytest.approx(chk.value, abs=1e-6)
    assert chk.s_concedes == pytest.approx(chk.value, abs=1e-6)
    # mirror-image seats from the start: value 0 and equal chances
    assert chk.value == pytest.approx(0.0, abs=1e-9)
    assert chk.p_n == pytest.approx(chk.p_s, abs=1e-9)
    assert chk.p_n + chk.p_s + chk.p_draw == pytest.approx(1.0)


def test_mirror_symmetry_of_values():
    """Swapping the seats (y -> -y, capitals swapped) negates the value."""
    sol = solve_duel_game(Rules(n_players=2, radius=2, capital=20, bid_step=5))
    v = sol.values
    np.testing.assert_allclose(v, -v[::-1].transpose(0, 2, 1), atol=1e-7)


def test_sure_wins():
    """N one step from its line with more capital than S wins surely (bid S's capital + 1)."""
    sol = solve_duel_game(Rules(n_players=2, radius=2, capital=10, bid_step=1))
    assert sol.value(2, 10, 9) == pytest.approx(1.0, abs=1e-7)
    assert sol.value(-2, 9, 10) == pytest.approx(-1.0, abs=1e-7)
    assert sol.value(0, 0, 0) == 0.0


def _sample(sol, start, n, seed):
    """Play the solution's mixed orders against each other from ``start`` (plain loop)."""
    rng = np.random.default_rng(seed)
    space, r = sol.space, sol.rules.radius
    out = np.zeros(n)
    for g in range(n):
        y, cn, cs = start
        for _ in range(500):
            ra, rp = sol.row[(y, cn, cs)]
            ca, cp = sol.column[(y, cn, cs)]
            i = ra[min(np.searchsorted(np.cumsum(rp), rng.random()), ra.size - 1)]
            j = ca[min(np.searchsorted(np.cumsum(cp), rng.random()), ca.size - 1)]
            y += int(space.dy[i, j])
            cn = max(0, cn - int(space.cost_n[i, j]))
            cs = max(0, cs - int(space.cost_s[i, j]))
            if abs(y) > r:
                out[g] = 1.0 if y > 0 else -1.0
                break
    return out


@pytest.mark.slow
def test_monte_carlo_of_the_strategies_matches_the_value():
    sol = solve_duel_game(Rules(n_players=2, radius=2, capital=12, bid_step=2))
    start = (1, 12, 12)
    exact = sol.value(*start)
    assert 0.05 < exact < 1  # a position worth having
    est = estimate_mean(_sample(sol, start, 3000, seed=3))
    assert abs(est.z_score(exact)) < Z_TOL


def test_direction_abstraction_costs_nothing_here():
    """Against responders with all eight directions the axis solution loses nothing."""
    sol = solve_duel_game(Rules(n_players=2, radius=1, capital=6, bid_step=2))
    chk = check_solution(sol, "all")
    assert chk.exploitability < 1e-6


def test_grid_table_and_validation():
    table = value_by_grid(Rules(n_players=2, radius=1, capital=12), [6, 3],
                          states=[(1, None, None), (0, 12, 9)])  # fmt: skip
    assert list(table.index) == [6, 3]
    assert np.isnan(table.loc[6, "V(y=0, 12, 9)"])  # 9 is off the grid of 6
    sol = solve_duel_game(Rules(n_players=2, radius=1, capital=12, bid_step=6))
    with pytest.raises(ValueError, match="cap_s=9 is not a capital of this grid"):
        sol.value(0, 12, 9)
    with pytest.raises(ValueError, match=r"y must be in -1\.\.1"):
        sol.value(2)
    with pytest.raises(ValueError, match="two-player"):
        duel_space(Rules())
    with pytest.raises(ValueError, match="directions must be one of"):
        duel_space(Rules(n_players=2), "diagonal")
    with pytest.raises(ValueError, match="must include"):
        check_solution(solve_duel_game(Rules(n_players=2, radius=1, capital=4), "fees"), "axis")


def _assert_same_values(one, other, atol):
    """Two solves of the same duel agree: within ``atol`` at every state where both
    brackets are narrower than 1e-9; elsewhere (a side that needs a weight near the
    1e-9 below which weights are dropped, so its value is approached, not reached:
    brackets up to 1e-8 wide) the two brackets meet, within ``atol`` (each holds the
    state's value given its own solve's values of the states after it)."""
    narrow = (np.diff(one.bracket, axis=-1)[..., 0] < 1e-9) & \
        (np.diff(other.bracket, axis=-1)[..., 0] < 1e-9)  # fmt: skip
    np.testing.assert_allclose(one.values[narrow], other.values[narrow], rtol=0, atol=atol)
    low = np.maximum(one.bracket[..., 0], other.bracket[..., 0])
    high = np.minimum(one.bracket[..., 1], other.bracket[..., 1])
    assert (low <= high + atol).all()
    assert narrow.mean() > 0.9


FAST_CASES = [
    Rules(n_players=2, radius=1, capital=6, bid_step=2),
    Rules(n_players=2, radius=2, capital=6, bid_step=3),
    Rules(n_players=2, radius=1, capital=6, bid_step=2, min_bid=2),
    Rules(n_players=2, radius=2, capital=6, bid_step=2, min_bid=4),
    Rules(n_players=2, radius=1, capital=6, bid_step=1, payment="winners"),
    Rules(n_players=2, radius=1, capital=6, bid_step=2, resolution="basic", min_bid=2),
]


@pytest.mark.parametrize("rules", FAST_CASES)
def test_fast_solve_equals_the_plain_solver_with_every_direction(rules):
    """Merged orders, the compiled stage games and the dense simplex leave every
    state's value as the plain solver (every order, HiGHS) finds it; the solution is
    not exploitable by an exact best response over every legal order."""
    space = duel_space(rules, "all")
    fast = solve_duel_game(rules, "all")
    plain = _solve_states(space, fast=False)
    assert fast.values.shape == plain.values.shape
    _assert_same_values(fast, plain, 1e-9)
    assert fast.residual <= 1e-8 and fast.lp_gap < 1e-11
    chk = check_solution(fast, "all")
    assert chk.exploitability < 1e-8
    assert chk.value == pytest.approx(0.0, abs=1e-9)


def test_fast_solve_is_a_fixed_point_of_the_brute_force_operator_with_every_direction():
    """One application of the brute-force Shapley operator (orders enumerated and
    resolved by the plain reference) leaves the eight-direction values unchanged."""
    rules = Rules(n_players=2, radius=1, capital=4, bid_step=1, min_bid=1)
    sol = solve_duel_game(rules, "all")
    dirs = tuple(range(8))
    again = duel_value_iteration(rules, dirs, dirs, iterations=1, start=sol.values)
    np.testing.assert_allclose(again, sol.values, atol=1e-8)
    assert np.abs(sol.values).max() > 0.1


def test_kept_tableau_solve_equals_the_solver_before_at_bid_step_1():
    """Every amount and every direction, with stage games of up to 41 distinct orders a
    side (the double oracle on a kept tableau): every state's value is the one the
    solver before it finds within the brackets' precision, and an exact best
    response over every legal order gains nothing."""
    rules = Rules(n_players=2, radius=2, capital=8, bid_step=1)
    kept = solve_duel_game(rules, "all")
    before = _solve_states(duel_space(rules, "all"), kept=False)
    _assert_same_values(kept, before, 1e-10)
    assert kept.residual <= 1e-8 and kept.lp_gap < 1e-11
    assert np.abs(kept.values).max() > 0.5
    assert check_solution(kept, "all").exploitability < 1e-8


def test_a_duel_too_large_for_memory_is_refused_before_any_work():
    with pytest.raises(MemoryError, match=r"capital=100000.*allow_large=True"):
        solve_duel_game(Rules(n_players=2, capital=10**5))


def test_a_continuation_that_is_not_finite_is_refused():
    from citadel import GameState, stage_payoffs

    rules = Rules(n_players=2, radius=1, capital=10, bid_step=5)
    with pytest.raises(ValueError, match="must return 2 finite values"):
        stage_payoffs(rules, GameState((0, 0), (10, 10)), [[(0, "N")], [(0, "S")]],
                      lambda state: (float("nan"), 0.0))  # fmt: skip


#: Eight-direction duels whose exploitability the stationary guarantees bring from
#: 2.3e-6, 3.5e-6 and 6.6e-6 (a fixed point found by |f(v) - v| <= 1e-10 and a
#: relative margin of 1e-6 for the favoured side) to below 1e-9.
CERTIFIED = {
    "radius 1, capital 6, grid 1": Rules(n_players=2, radius=1, capital=6, bid_step=1),
    "radius 2, capital 10, grid 1": Rules(n_players=2, radius=2, capital=10, bid_step=1),
    "radius 3, capital 40, grid 2": Rules(n_players=2, capital=40, bid_step=2),
}


@functools.cache
def _certified(name):
    return solve_duel_game(CERTIFIED[name], "all")


@pytest.mark.parametrize("name", list(CERTIFIED))
def test_certified_duel_is_not_exploitable(name):
    """An exact best response over every legal order of the eight directions gains
    at most 1e-8 against either side, from the start."""
    certified = _certified(name)
    chk = check_solution(certified, "all")
    assert chk.exploitability <= 1e-8
    assert chk.n_guarantees <= chk.value + 1e-8 and chk.s_concedes >= chk.value - 1e-8
    assert chk.bracket == certified.residual <= 1e-8


def _stored(strategy, actions, size):
    """A stored ``(actions, probabilities)`` as weights over ``actions``."""
    out = np.zeros(size)
    out[np.searchsorted(actions, strategy[0])] = strategy[1]
    return out


@pytest.mark.parametrize("name", list(CERTIFIED)[:2])
def test_each_state_bracket_is_the_guarantee_of_its_strategies(name):
    """State by state, over every legal order (not only the merged ones the solver
    sees): the stored strategies guarantee exactly the stored bracket, the value lies
    inside it, and the favoured side (the bracket above 0: N; below: S) leaves the
    state with positive chance against every reply, so it is never held to a draw."""
    sol = _certified(name)
    space = sol.space
    r = sol.rules.radius
    favoured = 0
    for y, cn, cs in _states(space):
        rows, cols, payoff, loop = duel_matrix(space, y, cn, cs, sol.values)
        x = _stored(sol.row[(y, cn, cs)], rows, rows.size)
        z = _stored(sol.column[(y, cn, cs)], cols, cols.size)
        low, high = sol.bracket[y + r, space.level_of[cn], space.level_of[cs]]
        assert reply_range(payoff, loop, x, z) == pytest.approx((low, high), abs=1e-13)
        assert low - 1e-15 <= sol.value(y, cn, cs) <= high + 1e-15
        assert high - low <= 1e-8
        if low > 0:
            assert (x @ ~loop > 0).all(), (y, cn, cs)
            favoured += loop.any()
        if high < 0:
            assert (~loop @ z > 0).all(), (y, cn, cs)
            favoured += loop.any()
        if abs(sol.value(y, cn, cs)) > 1e-8:
            assert low > 0 or high < 0
    assert favoured > 50  # states that repeat and favour a side
