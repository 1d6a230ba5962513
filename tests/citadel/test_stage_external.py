"""Citadel's stage games, taken from exact solves, against Gambit and OpenSpiel.

Every state of a small duel solve and of a small two-sides solve gives the matrix
game its value is the fixed point of: ``payoff + loop * v``, the loop entries worth
the state's own value v. Gambit's LP solves each matrix again; its value must equal
``tabletop.solve_zero_sum``'s and the state's v within 1e-9, each solver's strategies
must guarantee the other's value, and OpenSpiel must find the solve's own strategies
(the ones the solution stores) worth v with no best-response gain above the state's
bracket width (plus 1e-9).
"""

import numpy as np
import pytest

from citadel import Rules, solve_duel_game, solve_sides
from citadel.sides import _stage
from citadel.stage import duel_matrix
from tabletop.matrix_games import solve_zero_sum
from tests.tabletop.external_solvers import (
    assert_same_game_solution,
    gambit_lp,
    openspiel_evaluate,
)


def duel_stage_games(rules, directions):
    sol = solve_duel_game(rules, directions)
    r = rules.radius
    for y in range(-r, r + 1):
        for cn in sol.space.levels:
            for cs in sol.space.levels:
                _, _, payoff, loop = duel_matrix(sol.space, y, int(cn), int(cs), sol.values)
                v = sol.value(y, int(cn), int(cs))
                yield (y, int(cn), int(cs)), payoff + loop * v, v, loop.any()


def sides_stage_games(rules, side):
    sol = solve_sides(rules, side)
    r = rules.radius
    weights = np.zeros(rules.n_players)
    for i in range(rules.n_players):
        weights[i] = 1.0 if i in sol.space.sides[0] else -1.0
    levels = sol.space.levels
    for x in range(-r, r + 1):
        for y in range(-r, r + 1):
            for ca in levels[0]:
                for cb in levels[1]:
                    _, _, payoff, loop = _stage(sol.space, sol.values, weights, x, y,
                                                int(ca), int(cb))  # fmt: skip
                    v = sol.value(x, y, int(ca), int(cb))
                    yield (x, y, int(ca), int(cb)), payoff + loop * v, v, loop.any()


CASES = {
    "duel axis": lambda: duel_stage_games(
        Rules(n_players=2, radius=1, capital=10, bid_step=2), "axis"
    ),
    "duel fees, winners pay": lambda: duel_stage_games(
        Rules(n_players=2, radius=1, capital=6, bid_step=2, payment="winners"), "fees"
    ),
    "duel all directions, basic": lambda: duel_stage_games(
        Rules(n_players=2, radius=1, capital=4, bid_step=2, resolution="basic"), "all"
    ),
    "sides NE vs SW": lambda: sides_stage_games(Rules(radius=1, capital=10, bid_step=5), "NE"),
    "sides N vs ESW, winners pay": lambda: sides_stage_games(
        Rules(radius=1, capital=10, bid_step=5, payment="winners"), "N"
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_stage_games_agree_with_gambit(case):
    checked = 0
    for state, M, v, _ in CASES[case]():
        ours = solve_zero_sum(M)
        theirs = gambit_lp(M)
        assert_same_game_solution(M, ours.value, ours.row, ours.column, *theirs)
        assert abs(theirs[0] - v) <= 1e-9, (state, theirs[0], v)  # v is the fixed point
        checked += 1
    assert checked >= 27  # every state (the smallest case has 3 rows x 3 x 3 levels)


def test_duel_strategies_are_optimal_for_openspiel():
    """The strategies a duel solve stores, checked by OpenSpiel state by state.

    Each stored strategy comes with its exact stationary guarantee: N's guarantees
    low and S's concedes at most high, with low <= v <= high (the state's bracket,
    citadel.stage.solve_with_loop). Against an order j that stays with chance q_j,
    N's strategy earns x R_j >= low (1 - q_j) off the loop, so x (R_j + q_j v) >=
    v - (v - low) (1 - q_j) >= low in the matrix game at v, and S's likewise concedes at
    most high: the profile's NashConv there is at most high - low (plus 1e-9 for
    OpenSpiel's arithmetic)."""
    rules = Rules(n_players=2, radius=1, capital=8, bid_step=2)
    sol = solve_duel_game(rules, "axis")
    checked = 0
    for y in range(-1, 2):
        for cn in sol.space.levels:
            for cs in sol.space.levels:
                key = (y, int(cn), int(cs))
                rows, cols, payoff, loop = duel_matrix(sol.space, *key, sol.values)
                v = sol.value(*key)
                M = payoff + loop * v
                x = np.zeros(rows.size)
                x[np.searchsorted(rows, sol.row[key][0])] = sol.row[key][1]
                z = np.zeros(cols.size)
                z[np.searchsorted(cols, sol.column[key][0])] = sol.column[key][1]
                value, nash_conv = openspiel_evaluate(M, x, z)
                low, high = sol.bracket[y + 1, sol.space.level_of[cn], sol.space.level_of[cs]]
                assert low <= v <= high, key
                slack = high - low
                assert abs(value - v) <= slack + 1e-9, key
                assert nash_conv <= slack + 1e-9, key
                checked += 1
    assert checked == sol.values.size == 75
