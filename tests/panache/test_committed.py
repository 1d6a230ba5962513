import numpy as np
import pytest

from panache import Rules, human_policy, solve_duel, solve_turn
from panache.committed import committed_duel, duel_cost
from panache.thumb import Clause, DecisionList
from tests.panache import brute

SMALL = Rules(n_dice=2, start_points=4)


def _best_die(rules):
    value = dict(enumerate(rules.face_values, start=1))
    return lambda set_aside, rolled: (max(rolled, key=lambda f: (value[f], f)),)


def _keep_all_with_a_five(set_aside, rolled):
    return rolled if 5 in rolled else (rolled[0],)


@pytest.mark.parametrize("mp", [None, _keep_all_with_a_five], ids=["mp-optimal", "mp-fixed"])
def test_matches_plain_value_iteration(mp):
    rules = SMALL
    choose = _best_die(rules)
    res = committed_duel(rules, choose, mp)
    wc, wo, first, second = brute.committed_duel(rules.face_values, rules.n_dice,
                                                 rules.start_points, choose, mp)  # fmt: skip
    for (a, b), w in wc.items():
        assert res.win.loc[a, b] == pytest.approx(w, abs=1e-12), (a, b)
        assert res.opponent_win.loc[a, b] == pytest.approx(wo[(a, b)], abs=1e-12), (a, b)
    assert res.first_player_win == pytest.approx(first, abs=1e-12)
    assert res.second_player_win == pytest.approx(second, abs=1e-12)
    assert res.cost == pytest.approx(0.5 - (first + second) / 2, abs=1e-12)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(n_dice=3, start_points=6),
        Rules(n_dice=2, start_points=5, counter_attacks=False),
        Rules(n_dice=3, start_points=3, first_round_gain=False, mp_stake_cap=2),
    ],
)
def test_no_commitment_is_the_solved_duel(rules):
    res = committed_duel(rules)
    sol = solve_duel(rules)
    np.testing.assert_allclose(res.win.to_numpy(), sol.win.to_numpy(), atol=1e-12, rtol=0)
    np.testing.assert_allclose(res.opponent_win.to_numpy(), sol.win.to_numpy(), atol=1e-12,
                               rtol=0)  # fmt: skip
    assert res.first_player_win == pytest.approx(sol.first_player_win, abs=1e-12)
    assert abs(res.cost) < 1e-12


def test_a_fixed_policy_never_helps_and_the_opponent_gains_what_it_loses():
    rules = Rules(n_dice=3, start_points=6)
    sol = solve_duel(rules)
    for policy in (solve_turn(rules).policy, human_policy(rules, "best_die")):
        res = committed_duel(rules, policy)
        # C cannot beat optimal play, and O, best-responding, does at least as well
        assert np.all(res.win.to_numpy() <= sol.win.to_numpy() + 1e-12)
        assert np.all(res.opponent_win.to_numpy() >= sol.win.to_numpy() - 1e-12)
        assert res.first_player_win <= sol.first_player_win + 1e-12
        assert res.second_player_win <= 1 - sol.first_player_win + 1e-12
        cost = duel_cost(rules, policy)
        assert cost["cost"] == pytest.approx(res.cost, abs=0)
        assert cost["cost"] == pytest.approx((cost["cost_first"] + cost["cost_second"]) / 2)


def test_accepts_a_decision_list_and_checks_its_inputs():
    rules = Rules(n_dice=3, start_points=6)
    rule = DecisionList((Clause("always", "at_least", value=0),))
    a = committed_duel(rules, rule)
    b = committed_duel(rules, rule.policy(rules))
    assert a.first_player_win == b.first_player_win
    with pytest.raises(TypeError, match="turn_policy must be None, a TurnPolicy"):
        committed_duel(rules, 3)
    with pytest.raises(ValueError, match="is for 5 dice, rules have n_dice=3"):
        committed_duel(rules, None, solve_turn(Rules(), "zero").policy)
    with pytest.raises(TypeError, match=r"rules must be a panache\.Rules"):
        committed_duel("rules")


def test_the_committed_duel_refuses_rules_for_a_larger_table():
    with pytest.raises(ValueError, match=r"rules\.n_players must be 2, got n_players=3"):
        committed_duel(Rules(n_dice=3, start_points=6, n_players=3))


@pytest.mark.parametrize("policy", [None, "best_die"])
def test_ranges_of_point_sums_fill_the_tables_of_the_one_call_kernel(monkeypatch, policy):
    """Ranges of 1 or 3 point sums (each a return to Python) give the tables of
    the kernel that solves every sum in one call, bit for bit."""
    import panache.committed as module
    from panache._committed_kernels import committed_duel_kernel

    rules = Rules(n_players=2, start_points=12, n_dice=3)
    turn = None if policy is None else module._policy(rules, "turn_policy",
                                                      human_policy(rules, policy))  # fmt: skip
    captured = {}
    real = module.committed_range_kernel

    def spy(lo, hi, *args):
        captured["args"] = args
        return real(lo, hi, *args)

    for width in (1, 3):
        monkeypatch.setattr(module, "committed_range_kernel", spy)
        monkeypatch.setattr(module, "Chunks", lambda total, first=1, width=width: [
            (lo, min(total, lo + width)) for lo in range(0, total, width)])
        got = module._committed(rules, turn, None)
        whole = committed_duel_kernel(*captured["args"][1:])  # all but the tables
        assert np.array_equal(got.win.to_numpy(), whole[0][1:, 1:])
        assert np.array_equal(got.opponent_win.to_numpy(), whole[1][1:, 1:])
        assert whole[2] == 0


@pytest.mark.slow
def test_committed_size_and_the_refusal_of_a_huge_start():
    """Within its factor of the peak where the tables dominate (3 dice, 300 points:
    2.9 MB of tables beside the 1 MB allowed for the rest); huge starts refused."""
    from panache.committed import committed_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    committed_duel(Rules(n_players=2, start_points=6, n_dice=3))
    rules = Rules(n_players=2, start_points=300, n_dice=3)
    assert_estimate(committed_size(rules), peak_bytes(lambda: committed_duel(rules)))
    refused_at_once(lambda: committed_duel(Rules(n_players=2, start_points=10**6)),
                    "start_points=1000000")  # fmt: skip
    with pytest.raises(TypeError, match="allow_large"):
        committed_duel(Rules(n_players=2, start_points=6, n_dice=3), allow_large="no")
