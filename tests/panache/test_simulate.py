import numpy as np
import pytest

from panache import (
    Rules,
    attack_distribution,
    evaluate_policy,
    exchange,
    human_policy,
    mp_success,
    reachable_totals,
    simulate_attacks,
    simulate_exchanges,
    simulate_mp_attempts,
    simulate_turns,
    solve_turn,
)
from tabletop.stats import chi_square_test, estimate_mean, estimate_proportion
from tests.conftest import P_FLOOR, Z_TOL

N = 200_000


def counts(samples, support):
    return np.array([(samples == s).sum() for s in support])


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(n_dice=3), Rules(n_dice=6, face_values=(-3, -2, -1, 0, 1, 2))],
    ids=["default", "3 dice", "6 dice, shifted faces"],
)
def test_turns_agree_with_exact(rules):
    sol = solve_turn(rules, "ev")
    totals = simulate_turns(rules, sol.policy, N, seed=11)
    assert estimate_mean(totals).z_score(sol.value) == pytest.approx(0, abs=Z_TOL)
    observed = counts(totals, reachable_totals(rules))
    assert observed.sum() == N  # no total outside the reachable ones
    assert chi_square_test(observed, sol.distribution.to_numpy()) > P_FLOOR


def test_human_policy_simulation_agrees():
    rules = Rules()
    policy = human_policy(rules, "roger")
    exact = evaluate_policy(rules, policy).distribution
    totals = simulate_turns(rules, policy, N, seed=5)
    assert chi_square_test(counts(totals, exact.index), exact.to_numpy()) > P_FLOOR


def test_callable_policy_is_tabulated():
    rules = Rules(n_dice=2)
    a = simulate_turns(rules, lambda s, r: r, 1000, seed=3)
    b = simulate_turns(rules, human_policy(rules, "stop_at_nonnegative"), 10, seed=3)
    assert a.shape == (1000,) and b.shape == (10,)


def test_same_seed_same_numbers_on_any_thread_count(one_thread):
    rules = Rules()
    policy = solve_turn(rules).policy
    single = simulate_turns(rules, policy, 50_000, seed=42, chunk_size=4096)
    import numba

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    multi = simulate_turns(rules, policy, 50_000, seed=42, chunk_size=4096)
    assert np.array_equal(single, multi)
    again = simulate_turns(rules, policy, 50_000, seed=42, chunk_size=4096)
    assert np.array_equal(multi, again)
    other = simulate_turns(rules, policy, 50_000, seed=43, chunk_size=4096)
    assert not np.array_equal(multi, other)
    # a shorter run is a prefix of a longer one
    assert np.array_equal(simulate_turns(rules, policy, 5000, seed=42, chunk_size=4096),
                          multi[:5000])  # fmt: skip


def test_attacks_agree_with_exact():
    rules = Rules()
    exact = attack_distribution(rules, 4)
    damage = simulate_attacks(rules, 4, N, seed=8)
    assert chi_square_test(counts(damage, exact.index), exact.to_numpy()) > P_FLOOR


@pytest.mark.parametrize("counter", ["always", "never", "target_only"])
def test_exchanges_agree_with_exact(counter):
    rules = Rules()
    exact = exchange(rules, 2, counter=counter)
    sim = simulate_exchanges(rules, 2, N, counter=counter, seed=9)
    hit_target = estimate_proportion(int((sim.target_damage > 0).sum()), N)
    hit_attacker = estimate_proportion(int((sim.attacker_damage > 0).sum()), N)
    assert abs(hit_target.z_score(exact.p_target_hit)) <= Z_TOL
    if exact.p_attacker_hit > 0:
        assert abs(hit_attacker.z_score(exact.p_attacker_hit)) <= Z_TOL
    else:
        assert hit_attacker.mean == 0
    assert abs(estimate_mean(sim.attempts).z_score(exact.expected_attempts)) <= Z_TOL
    target = exact.target_damage
    assert chi_square_test(counts(sim.target_damage, target.index), target.to_numpy()) > P_FLOOR


def test_mp_attempts_agree_with_exact():
    rules = Rules()
    wins = simulate_mp_attempts(rules, N, seed=4)
    assert abs(estimate_proportion(int(wins.sum()), N).z_score(mp_success(rules))) <= Z_TOL


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"n": -1}, ValueError), ({"n": 2.5}, TypeError), ({"n": 10, "seed": -3}, ValueError),
     ({"n": 10, "chunk_size": 0}, ValueError), ({"n": 10, "seed": "x"}, TypeError)],
)  # fmt: skip
def test_bad_arguments(kwargs, error):
    rules = Rules()
    with pytest.raises(error):
        simulate_turns(rules, human_policy(rules, "best_die"), **kwargs)


def test_policy_for_other_dice_is_refused():
    with pytest.raises(ValueError, match="policy is for 3 dice"):
        simulate_turns(Rules(), solve_turn(Rules(n_dice=3)).policy, 10, seed=1)


def test_batches_of_chunks_draw_the_samples_of_one_kernel_call(monkeypatch):
    """The chunks go to the kernels in batches (bar, Ctrl-C); one chunk per batch draws
    the very samples of the usual batches."""
    import panache.simulate as simulate

    rules = Rules()
    policy = solve_turn(rules).policy
    calls = {
        "turns": lambda: simulate.simulate_turns(rules, policy, 1000, seed=4, chunk_size=64),
        "attacks": lambda: simulate.simulate_attacks(rules, 3, 1000, seed=4, chunk_size=64),
        "exchanges": lambda: simulate.simulate_exchanges(rules, 2, 1000, seed=4, chunk_size=64),
    }
    whole = {name: call() for name, call in calls.items()}
    monkeypatch.setattr(simulate, "Chunks", lambda total, first: ((c, c + 1) for c in range(total)))
    for name, call in calls.items():
        one_by_one = call()
        same = (one_by_one == whole[name]) if name == "exchanges" else \
            np.array_equal(one_by_one, whole[name])  # fmt: skip
        assert same, name


def test_huge_runs_are_refused_at_once_and_bars_shown_when_asked(capsys):
    from tests.tabletop.test_budget import refused_at_once

    rules = Rules()
    refused_at_once(lambda: simulate_turns(rules, solve_turn(rules).policy, 10**13),
                    "n=10000000000000")  # fmt: skip
    refused_at_once(lambda: simulate_exchanges(rules, 1, 10**13), "panache.simulate_exchanges")
    simulate_attacks(rules, 2, 100, seed=1, progress=True)
    assert "panache.simulate_attacks" in capsys.readouterr().err
