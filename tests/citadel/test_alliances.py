"""The empirical game over heuristics: reproducible, symmetric, solved with its exploitability."""

import itertools

import numpy as np
import pytest

from citadel import Rules
from citadel.alliances import empirical_game
from citadel.simulate import simulate_games
from citadel.stage import exploitability
from tabletop.seeding import as_seed_sequence
from tests.conftest import Z_TOL

AGENTS = ("straight", "ally_cw", "ally_ccw", "random")
RULES = Rules(radius=2, capital=20, max_rounds=50)


@pytest.fixture(scope="module")
def game():
    return empirical_game(RULES, 200, AGENTS, seed=7)


def test_entries_are_the_simulated_games(game):
    profiles = list(itertools.product(range(4), repeat=4))
    children = as_seed_sequence(7).spawn(len(profiles))
    for p in [0, 27, 255]:
        names = [AGENTS[a] for a in profiles[p]]
        games = simulate_games(RULES, names, 200, seed=children[p])
        for i in range(4):
            assert game.payoffs[i][profiles[p]] == games.scores[:, i].mean()


def test_rotating_the_seating_rotates_the_payoffs(game):
    """A quarter turn maps seat i to seat i+1 and the rules onto themselves, so seat i's
    payoff in profile p equals seat i+1's in the rotated profile (up to Monte Carlo)."""
    for profile in itertools.product(range(4), repeat=4):
        turned = profile[-1:] + profile[:-1]
        for i in range(4):
            a, sa = game.payoffs[i][profile], game.stderr[i][profile]
            b, sb = game.payoffs[(i + 1) % 4][turned], game.stderr[(i + 1) % 4][turned]
            assert abs(a - b) <= Z_TOL * np.hypot(sa, sb), (profile, i)


def test_solution_and_its_exploitability(game):
    res = game.solve(2000)
    np.testing.assert_allclose(
        res.exploitability, exploitability(game.payoffs, res.strategies), atol=1e-15
    )
    table = game.strategies_table(res)
    assert list(table.index) == ["N", "E", "S", "W"] and list(table.columns) == list(AGENTS)
    np.testing.assert_allclose(table.sum(axis=1), 1.0)


def test_validation():
    with pytest.raises(ValueError, match="unknown agent"):
        empirical_game(RULES, 10, ["straight", "bold"])
