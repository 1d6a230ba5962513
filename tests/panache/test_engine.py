"""The plain-Python game (panache.engine) against the game kernel, and the rule checks."""

import random

import numpy as np
import pytest

from panache import Agent, Rules, simulate_games
from panache.engine import GameState, attack_chain, play_game, turn_roll
from tabletop.stats import chi_square_test
from tests.conftest import P_FLOOR

LINEUPS = {
    "heuristic-random": (Rules(start_points=15), [Agent.heuristic(), Agent.random()]),
    "three-heuristics": (
        Rules(start_points=12, mp_stake_cap=10, n_players=3),
        [
            Agent.heuristic(),
            Agent.heuristic(target="weakest", mp="always"),
            Agent.heuristic(min_level=2, counter=False, turn_policy="positive"),
        ],
    ),
    "duel-heuristic": (Rules(start_points=10), [Agent.duel(), Agent.heuristic(mp="never")]),
    "human-turn-rules": (
        Rules(start_points=5, n_dice=3),
        [Agent.heuristic(turn_policy="roger"), Agent.heuristic(turn_policy="nonnegative")],
    ),
    "no-counters-no-gain": (
        Rules(start_points=12, counter_attacks=False, first_round_gain=False, n_players=3),
        [Agent.random(), Agent.heuristic(target="random"), Agent.duel()],
    ),
}


@pytest.mark.parametrize("name", list(LINEUPS))
def test_reference_games_follow_the_kernel_law(name):
    rules, agents = LINEUPS[name]
    fast = simulate_games(rules, agents, 300_000, seed=17)
    edges = np.unique(np.quantile(fast.stats["turns"], [0.2, 0.4, 0.6, 0.8]))
    n_bins = edges.size + 1

    def cell(winner, turns):
        return winner * n_bins + np.searchsorted(edges, turns, side="right")

    cells = len(agents) * n_bins
    expected = np.bincount(cell(fast.winners, fast.stats["turns"].to_numpy()), minlength=cells)
    rng = random.Random(23)
    observed = np.zeros(cells)
    for _ in range(1500):
        state, turns = play_game(rules, agents, rng)
        observed[cell(state.winner, turns)] += 1
    assert chi_square_test(observed, expected / expected.sum()) > P_FLOOR


def test_turn_and_attack_helpers():
    rules = Rules()
    rng = random.Random(0)
    totals = [turn_roll(rules, lambda held, rolled: rolled, rng) for _ in range(2000)]
    assert min(totals) >= -20 and max(totals) <= 5
    assert abs(np.mean(totals) - 5 * -1.5) < 5 * np.std(totals) / np.sqrt(2000)
    hits = [attack_chain(rules, 3, rng) for _ in range(2000)]
    assert min(hits) >= 0 and max(hits) <= 5


def test_illegal_decisions_name_the_rule():
    rules = Rules()
    state = GameState.start(rules, 3)
    with pytest.raises(ValueError, match="no attack in round 1"):
        state.check_attack(0, 1, 3)
    with pytest.raises(ValueError, match="no Master Panache in round 1"):
        state.check_master_panache(0, 1, 10, 0)
    state.played = [True] * 3
    with pytest.raises(ValueError, match="needs a positive total"):
        state.check_attack(0, 1, 0)
    with pytest.raises(ValueError, match="cannot target itself"):
        state.check_attack(0, 0, 2)
    state.lose(2, 40)
    assert state.eliminated == [2] and not state.alive[2]
    with pytest.raises(ValueError, match="target 2 is not a player still in the game"):
        state.check_attack(0, 2, 2)
    with pytest.raises(ValueError, match="needs a total of 0"):
        state.check_master_panache(0, 1, 10, 1)
    with pytest.raises(ValueError, match="stake 72 is illegal with 35 points"):
        state.check_master_panache(0, 1, 72, 0)
    assert state.check_attack(0, 1, 9) == 6  # a total above 6 attacks at 6
    state.to_move = 1
    state.pass_turn()
    assert state.to_move == 0  # seat 2 is out
