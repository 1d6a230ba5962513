import numpy as np
import pytest

from panache import Rules, solve_turn
from panache.duel import max_points, solve_duel
from tests.panache import brute

SMALL = [
    Rules(n_dice=2, start_points=4),
    Rules(n_dice=2, start_points=5, counter_attacks=False),
    Rules(n_dice=3, start_points=3, first_round_gain=False, mp_stake_cap=2),
    Rules(n_dice=2, start_points=4, face_values=(-2, -1, 0, 1, 1, 2), mp_stake_factor=1),
]


@pytest.mark.parametrize("rules", SMALL, ids=range(len(SMALL)))
def test_duel_matches_plain_value_iteration(rules):
    sol = solve_duel(rules)
    win, first = brute.duel(
        rules.face_values, rules.n_dice, rules.start_points, rules.first_round_gain,
        rules.counter_attacks, rules.mp_stake_factor, rules.mp_stake_cap,
    )  # fmt: skip
    top = max_points(rules)
    assert sol.win.shape == (top, top)
    for (a, b), w in win.items():
        assert sol.win.loc[a, b] == pytest.approx(w, abs=1e-12), (a, b)
    assert sol.first_player_win == pytest.approx(first, abs=1e-12)


def test_default_duel_properties():
    sol = solve_duel(Rules())
    w = sol.win.to_numpy()
    assert np.all((w > 0) & (w < 1))
    # more points never hurt, fewer opponent points never hurt
    assert np.all(np.diff(w, axis=0) > -1e-12)
    assert np.all(np.diff(w, axis=1) < 1e-12)
    assert 0 < sol.first_player_win < 1
    assert sol.win.index.name == "my_points" and sol.win.columns.name == "opponent_points"


def test_turn_policy_and_decisions_are_consistent():
    rules = Rules()
    sol = solve_duel(rules)
    u = sol.turn_utility(20, 15)
    assert solve_turn(rules, u).value == pytest.approx(sol.win.loc[20, 15], abs=1e-12)
    d = sol.decisions(20, 15)
    assert d["win"] == sol.win.loc[20, 15]
    assert len(d["attack"]) == 6 and d["mp_stake"] in [*rules.legal_stakes(20).tolist(), 0]
    with pytest.raises(ValueError, match=r"my_points must be 1\.\.40"):
        sol.decisions(41, 3)


def test_one_point_each_the_mover_cannot_afford_a_negative_total():
    # with 1 point against 1, the mover loses on any negative total
    sol = solve_duel(Rules())
    u = sol.turn_utility(1, 1)
    assert (u[u.index < 0] == 0).all()


@pytest.mark.parametrize("n_players", [3, 4])
def test_the_duel_refuses_rules_for_a_larger_table(n_players):
    # the duel used to be solved for Rules(n_players=3) as if they said 2
    rules = Rules(start_points=6, n_dice=3, n_players=n_players)
    with pytest.raises(ValueError, match=rf"rules\.n_players must be 2, got n_players={n_players}"):
        solve_duel(rules)
    import dataclasses

    assert solve_duel(dataclasses.replace(rules, n_players=2)).first_player_win > 0


def test_the_duel_refuses_what_is_not_panache_rules():
    import citadel

    for bad in (citadel.Rules(), "default", None):
        with pytest.raises(TypeError, match=r"^rules must be a panache\.Rules, got"):
            solve_duel(bad)


def test_duel_size_is_the_peak_memory_and_a_huge_start_is_refused_at_once():
    from panache.duel import duel_size
    from panache.master import mp_success
    from panache.turn import turn_tables
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    rules = Rules(n_players=2, start_points=100)  # large enough for the tables to dominate
    turn_tables(rules), mp_success(rules)  # cached pieces out of the measure
    solve_duel(Rules(n_players=2, start_points=6, n_dice=3))
    assert_estimate(duel_size(rules), peak_bytes(lambda: solve_duel(rules)))
    refused_at_once(lambda: solve_duel(Rules(n_players=2, start_points=10**7)),
                    "start_points=10000000")  # fmt: skip


def test_the_duel_in_ranges_of_sums_is_the_duel_in_one_pass():
    from panache._duel_kernels import solve_duel_kernel
    from panache.duel import duel_kernel_inputs

    rules = Rules(n_players=2, start_points=60, mp_stake_cap=20)
    win, bad = solve_duel_kernel(max_points(rules), *duel_kernel_inputs(rules))
    assert bad == 0
    assert np.array_equal(solve_duel(rules)._win, win, equal_nan=True)
