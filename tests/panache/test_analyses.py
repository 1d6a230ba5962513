"""The Master Panache balance card against the library's own solvers and simulators."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from panache import (
    Agent,
    Rules,
    balance,
    mp_success,
    simulate_games,
    solve_duel,
    solve_turn,
    tournament,
)
from panache.analyses import best_rule_of_thumb
from tabletop.sweep import task_seed
from tests.conftest import Z_TOL

RULES = Rules(n_dice=3, start_points=6)
N = 2000
SEED = 5


@pytest.fixture(scope="module")
def card():
    return balance(RULES, n_games=N, seed=SEED).set_index("metric")


def test_exact_rows_equal_the_solvers(card):
    duel = solve_duel(dataclasses.replace(RULES, n_players=2))
    assert card.loc["first_player_win", "value"] == duel.first_player_win
    assert card.loc["turn_value", "value"] == solve_turn(RULES, "ev").value
    assert card.loc["mp_success", "value"] == mp_success(RULES)


def test_monte_carlo_rows_equal_the_simulator_with_the_same_seed(card):
    root = np.random.SeedSequence(SEED)
    for i, k in enumerate((3, 4, 6)):
        res = simulate_games(RULES, [Agent.heuristic()] * k, N, seed=task_seed(root, i))
        for s in range(k):
            assert card.loc[f"seat_{s}_share_{k}p", "value"] == np.mean(res.winners == s)
        shares = [np.mean(res.winners == s) for s in range(k)]
        assert card.loc[f"seat_spread_{k}p", "value"] == max(shares) - min(shares)
    res = simulate_games(RULES, [Agent.duel()] * 2, N, seed=task_seed(root, 3))
    assert card.loc["duel_rounds", "value"] == np.mean(np.ceil(res.stats["turns"] / 2))
    assert card.loc["mp_elimination_share", "value"] == np.mean(res.stats["out_by_mp"] > 0)
    thumb = best_rule_of_thumb(RULES)
    table = tournament(RULES, [Agent.duel(), Agent.heuristic(turn_policy=thumb)], N,
                       seed=task_seed(root, 4))  # fmt: skip
    assert card.loc["duel_gain", "value"] == table["win_rate"].iloc[0] - 0.5
    assert thumb in card.loc["duel_gain", "meaning"]


def test_an_independent_run_falls_within_the_intervals(card):
    other = balance(RULES, n_games=N, seed=SEED + 1).set_index("metric")
    mc = card["method"] == "monte carlo"
    se = (card["high"] - card["low"]) / (2 * 1.959963984540054)
    se_other = (other["high"] - other["low"]) / (2 * 1.959963984540054)
    gap = (card["value"] - other["value"])[mc].abs()
    assert (gap <= Z_TOL * np.hypot(se, se_other)[mc] + 1e-12).all()


def test_reproducible_on_any_thread_count(card, one_thread):
    pd.testing.assert_frame_equal(balance(RULES, n_games=N, seed=SEED).set_index("metric"),
                                  card)  # fmt: skip


def test_bad_input():
    with pytest.raises(TypeError, match=r"rules must be a panache\.Rules or None"):
        balance("seed")
    with pytest.raises(ValueError, match="n_games must be >= 2, got 1"):
        balance(RULES, n_games=1)
