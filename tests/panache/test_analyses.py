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
from panache.analyses import SeatDeviation, best_rule_of_thumb, seat_deviation
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
        res = simulate_games(dataclasses.replace(RULES, n_players=k), [Agent.heuristic()] * k, N,
                             seed=task_seed(root, i))  # fmt: skip
        for s in range(k):
            assert card.loc[f"seat_{s}_share_{k}p", "value"] == np.mean(res.winners == s)
        shares = np.array([np.mean(res.winners == s) for s in range(k)])
        assert card.loc[f"seat_spread_{k}p", "value"] == pytest.approx(
            np.abs(shares - 1 / k).max(), abs=1e-15)
        deviation = seat_deviation(res.winners, k, seed=task_seed(root, 5 + i))
        row = card.loc[f"seat_spread_{k}p"]
        assert (row["value"], row["low"], row["high"], row["n"]) == tuple(deviation.entry())
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


# ---- the seat deviation: honest under equal seats, covering when they are not ----------


def _tables(shares, n_games, n_tables, seed):
    """Winners of ``n_tables`` simulated tables of ``n_games`` games each."""
    rng = np.random.default_rng(seed)
    return [rng.choice(len(shares), size=n_games, p=shares) for _ in range(n_tables)]


def test_equal_seats_suggest_an_effect_at_most_at_the_nominal_rate():
    # the old statistic (best minus worst seat, with a fixed-pair interval) excluded 0
    # in most runs of equal seats; the simultaneous bounds must do so in about 5%
    n_tables = 1000
    flagged, small_p = 0, 0
    for r, winners in enumerate(_tables([0.25] * 4, 1000, n_tables, seed=11)):
        d = seat_deviation(winners, 4, n_null=4000, seed=r)
        flagged += d.low > 0
        small_p += d.p_value <= 0.05
    se = np.sqrt(0.05 * 0.95 / n_tables)
    assert flagged / n_tables <= 0.05 + Z_TOL * se
    assert flagged / n_tables >= 0.05 - Z_TOL * se  # not so conservative it never rejects
    # the interval misses 1/k exactly when the p-value is at most 5% (same statistic)
    assert abs(small_p - flagged) <= 0.01 * n_tables


def test_unequal_seats_are_covered_and_found():
    shares = np.array([0.30, 0.25, 0.25, 0.20])
    theta = np.abs(shares - 0.25).max()
    n_tables = 400
    covered, found = 0, 0
    for r, winners in enumerate(_tables(shares, 4000, n_tables, seed=12)):
        d = seat_deviation(winners, 4, n_null=4000, seed=r)
        covered += d.low <= theta <= d.high
        found += d.low > 0
    assert covered / n_tables >= 0.95 - Z_TOL * np.sqrt(0.05 * 0.95 / n_tables)
    assert found / n_tables > 0.9  # a 5 pp effect in 4,000 games is plain to see


def test_two_seats_need_the_ordinary_critical_value():
    # with two seats |share_0 - 1/2| = |share_1 - 1/2|: the joint interval is the plain
    # one, critical value z(0.975) = 1.96 up to the calibration's sampling error
    winners = np.repeat([0, 1], [5000, 5000])
    d = seat_deviation(winners, 2, n_null=100_000, seed=3)
    assert d.critical == pytest.approx(1.959963984540054, abs=0.05)
    assert d.value == 0.0 and d.low == 0.0 and d.p_value == 1.0


def test_seat_deviation_is_reproducible_and_checks_its_input():
    winners = np.repeat([0, 1, 2], [40, 30, 30])
    assert seat_deviation(winners, 3, seed=1) == seat_deviation(winners, 3, seed=1)
    assert isinstance(seat_deviation(winners, 3, seed=1), SeatDeviation)
    with pytest.raises(ValueError, match="n_seats"):
        seat_deviation(winners, 1)
    with pytest.raises(ValueError, match="level must be in"):
        seat_deviation(winners, 3, level=1.0)
    with pytest.raises(ValueError, match="n_null"):
        seat_deviation(winners, 3, n_null=10)
    with pytest.raises(TypeError, match="winners must be a 1-D array of seat numbers"):
        seat_deviation([0.5, 1.5], 3)
