"""The Master Citadel balance card against the library's own solvers and simulators."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from citadel import Rules, alliance_analysis, balance, simulate_games, solve_duel_game
from citadel.analyses import COALITION_METRICS, COMPASS_BOARD, grid_for
from citadel.sides import compass_check, solve_sides
from citadel.stalling import stall_odds
from citadel.whole_game import check_solution
from tabletop.balance import Z
from tabletop.stats import estimate_mean
from tabletop.sweep import task_seed
from tests.conftest import Z_TOL

RULES = Rules(radius=1, capital=10, bid_step=5)
SIZES = {"n_games": 2000, "duel_grid": 5, "coalition_grid": 10, "jobs": 1, "compass": False}
SEED = 5


@pytest.fixture(scope="module")
def card():
    return balance(RULES, seed=SEED, **SIZES).set_index("metric")


def test_grids(card):
    assert "bid grid 5" in card.loc["duel_value_start", "meaning"]
    assert grid_for(Rules(bid_step=3), 10) == 12


def test_exact_rows_equal_the_solvers(card):
    """The 1 vs 1 rows solve the game as written: every side free to write any of the
    eight directions."""
    duel = solve_duel_game(dataclasses.replace(RULES, n_players=2, bid_step=5), "all")
    coarse = solve_duel_game(dataclasses.replace(RULES, n_players=2, bid_step=10), "all")
    assert card.loc["duel_grid", "value"] == 5 and card.loc["duel_coarse_grid", "value"] == 10
    assert card.loc["duel_value_start", "value"] == duel.value()
    assert card.loc["duel_value_lead", "value"] == duel.value(1)
    assert card.loc["duel_value_lead_coarse", "value"] == coarse.value(1)
    assert card.loc["duel_draw_start", "value"] == stall_odds(duel).draw
    # the finer grid rounds up to bid_step 5, the duel's own grid: its solve is reused
    assert card.loc["duel_fine_grid", "value"] == 5
    assert card.loc["duel_value_lead_fine", "value"] == duel.value(1)
    assert card.loc["duel_draw_start_fine", "value"] == stall_odds(duel).draw
    assert "all eight directions" in card.loc["duel_value_start", "meaning"]
    # quick cards leave the exploitability rows out
    assert card.loc[["duel_exploitability_compass", "duel_exploitability_compass_coarse",
                     "duel_exploitability_compass_fine", "sides_exploitability_compass"],
                    "value"].isna().all()
    res = alliance_analysis(dataclasses.replace(RULES, n_players=4, bid_step=10))
    values = res.values["value"]
    assert card.loc["coalition_neighbours", "value"] == values["NE"]
    assert card.loc["coalition_opposite", "value"] == values["NS"]
    assert card.loc["coalition_trio", "value"] == values["NES"]
    assert card.loc["least_core_epsilon", "value"] == res.least_core.epsilon
    assert card.loc["core_empty", "value"] == float(res.least_core.core_is_empty)


def test_the_finer_grid_is_solved_again():
    """On a grid of 1 point the finer grid 2 is a solve of its own; a finer grid
    coarser than the duel's is refused."""
    rules = dataclasses.replace(RULES, bid_step=1)
    card = balance(rules, seed=SEED, **{**SIZES, "n_games": 200, "fine_grid": 2}
                   ).set_index("metric")  # fmt: skip
    fine = solve_duel_game(dataclasses.replace(rules, n_players=2, bid_step=2), "all")
    assert card.loc["duel_fine_grid", "value"] == 2
    assert card.loc["duel_value_lead_fine", "value"] == fine.value(1)
    assert card.loc["duel_draw_start_fine", "value"] == stall_odds(fine).draw
    assert "finer grid 2" in card.loc["duel_draw_start_fine", "meaning"]
    with pytest.raises(ValueError, match="fine_grid must be at most duel_grid=5, got 10"):
        balance(rules, seed=SEED, **{**SIZES, "n_games": 200, "fine_grid": 10})


@pytest.mark.parametrize("directions", ["all", "axis"])
def test_compass_rows_equal_the_checks(directions):
    """The exploitability rows: the duel's solution against responders with all eight
    directions (near 0 for the game as written, the abstraction's cost for own
    directions), and the two-sides solutions on the small board."""
    card = balance(RULES, seed=SEED, **{**SIZES, "n_games": 200, "compass": True,
                                        "compass_capital": 5, "duel_directions": directions}
                   ).set_index("metric")  # fmt: skip
    duel = solve_duel_game(dataclasses.replace(RULES, n_players=2, bid_step=5), directions)
    assert card.loc["duel_value_lead", "value"] == duel.value(1)
    exploitability = check_solution(duel, "all", progress=False).exploitability
    assert card.loc["duel_exploitability_compass", "value"] == exploitability
    # the coarser grid's solution (grid 10) met likewise; the finer grid is the duel's own
    coarse = solve_duel_game(dataclasses.replace(RULES, n_players=2, bid_step=10), directions)
    assert (card.loc["duel_exploitability_compass_coarse", "value"]
            == check_solution(coarse, "all", progress=False).exploitability)
    assert card.loc["duel_exploitability_compass_fine", "value"] == exploitability
    if directions == "all":
        assert exploitability < 1e-4  # the solver's own error
    small = dataclasses.replace(RULES, n_players=4, radius=1, capital=5, bid_step=5)
    gains = [float(compass_check(solve_sides(small, side))["exploitability"])
             for side in COMPASS_BOARD["sides"]]
    assert card.loc["sides_exploitability_compass", "value"] == max(gains)
    assert max(gains) > 0.1  # the own-directions abstraction is exploitable there
    assert "capital 5 a seat" in card.loc["sides_exploitability_compass", "meaning"]


def test_monte_carlo_rows_equal_the_simulator_with_the_same_seed(card):
    root = np.random.SeedSequence(SEED)
    for i, (name, agent) in enumerate((("heuristic", "straight"), ("random", "random"))):
        games = simulate_games(RULES, agent, SIZES["n_games"], seed=task_seed(root, i))
        assert card.loc[f"draw_rate_{name}", "value"] == games.draws.mean()
        assert card.loc[f"rounds_{name}", "value"] == games.rounds.mean()
        stalled = games.draws & (games.rounds >= RULES.max_rounds)
        assert card.loc[f"stall_rate_{name}", "value"] == stalled.mean()


@pytest.mark.parametrize("min_bid", [0, 1])
def test_straight_rows_are_exact(card, min_bid):
    """`straight` draws nothing at random: every game is the same game, so its rows are
    exact (and the index prints them so), whatever the rules; random play's are not."""
    rows = [f"{m}_heuristic" for m in ("draw_rate", "stall_rate", "rounds")]
    if min_bid:
        card = balance(dataclasses.replace(RULES, min_bid=min_bid), seed=SEED,
                       **{**SIZES, "n_games": 50}).set_index("metric")  # fmt: skip
    assert (card.loc[rows, "method"] == "exact").all()
    assert card.loc[rows, "low"].equals(card.loc[rows, "value"])
    assert (card.loc[[r.replace("heuristic", "random") for r in rows], "method"]
            == "monte carlo").all()
    games = simulate_games(dataclasses.replace(RULES, min_bid=min_bid), "straight", 3, seed=1)
    assert card.loc["rounds_heuristic", "value"] == games.rounds[0]
    assert "every game is the same game" in card.loc["draw_rate_heuristic", "meaning"]


def test_an_independent_run_falls_within_the_intervals(card):
    games = simulate_games(RULES, "random", 20_000, seed=99)
    for metric, samples in (("draw_rate_random", games.draws), ("rounds_random", games.rounds)):
        other = estimate_mean(samples)
        se = (card.loc[metric, "high"] - card.loc[metric, "low"]) / (2 * Z)
        assert abs(card.loc[metric, "value"] - other.mean) <= Z_TOL * np.hypot(se, other.stderr)


def test_a_second_process_gives_the_same_card(card):
    pd.testing.assert_frame_equal(
        balance(RULES, seed=SEED, **{**SIZES, "jobs": 2}).set_index("metric"), card)


def test_coalitions_are_solved_with_min_bid():
    rules = dataclasses.replace(RULES, min_bid=5)
    card = balance(rules, seed=SEED, **SIZES).set_index("metric")
    values = alliance_analysis(dataclasses.replace(rules, bid_step=10)).values["value"]
    assert card.loc["coalition_opposite", "value"] == values["NS"]
    assert card.loc["coalition_trio", "value"] == values["NES"]
    assert card.loc[list(COALITION_METRICS), "value"].notna().all()
    assert np.isfinite(card.loc["duel_value_lead", "value"])


def test_bad_input():
    with pytest.raises(TypeError, match=r"rules must be a citadel\.Rules or None"):
        balance(3)
    with pytest.raises(ValueError, match="grid must be >= 1, got 0"):
        balance(RULES, duel_grid=0)
    with pytest.raises(ValueError, match="duel_directions"):
        balance(RULES, duel_directions="north")
