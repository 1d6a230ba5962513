import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from panache import (
    HUMAN_POLICIES,
    Rules,
    evaluate_policy,
    human_policy,
    reachable_totals,
    solve_turn,
    utility_vector,
)
from tests.panache import brute

FACE_SETS = [
    (-4, -3, -2, -1, 0, 1),  # the seed's
    (-3, -2, -1, 0, 1, 2),
    (0, 0, 0, 0, 0, 10),  # ties everywhere
    (5, -7, 0, 2, 2, -1),  # unsorted, repeated
]
UTILITIES = {
    "ev": lambda t: float(t),
    "zero": lambda t: float(t == 0),
    "positive": lambda t: float(t > 0),
    "at_least:-2": lambda t: float(t >= -2),
}


def test_reachable_totals_default():
    # seed: a turn ends on a total between -20 and +5
    assert reachable_totals(Rules()).tolist() == list(range(-20, 6))


@pytest.mark.parametrize("faces", FACE_SETS)
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("utility", list(UTILITIES))
def test_optimal_value_matches_brute_force(faces, n, utility):
    rules = Rules(n_dice=n, face_values=faces)
    solution = solve_turn(rules, utility)
    expected = brute.optimal_value(faces, n, UTILITIES[utility])
    assert solution.value == pytest.approx(expected, abs=1e-12)
    # the distribution of the optimal policy gives back the value
    assert solution.distribution.to_numpy() @ solution.utility.to_numpy() == pytest.approx(
        solution.value, abs=1e-12
    )


@pytest.mark.parametrize("faces", FACE_SETS)
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("utility", ["zero", "positive", "at_least:-2"])
def test_among_optimal_keeps_the_policy_loses_the_least_expected_total(faces, n, utility):
    rules = Rules(n_dice=n, face_values=faces)
    solution = solve_turn(rules, utility)
    value, total = brute.optimal_value_and_total(faces, n, UTILITIES[utility])
    assert solution.value == pytest.approx(value, abs=1e-12)
    dist = solution.distribution
    assert float(dist.index.to_numpy() @ dist.to_numpy()) == pytest.approx(total, abs=1e-9)


@pytest.mark.parametrize("faces", FACE_SETS)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_evaluation_matches_enumeration_of_sequences(faces, n):
    rules = Rules(n_dice=n, face_values=faces)
    policies = [solve_turn(rules, "ev").policy, solve_turn(rules, "zero").policy]
    policies += [human_policy(rules, name) for name in HUMAN_POLICIES]
    for policy in policies:
        exact = evaluate_policy(rules, policy).distribution
        enumerated = brute.policy_distribution(faces, n, policy.choose)
        for total, p in exact.items():
            assert p == pytest.approx(enumerated.get(total, 0.0), abs=1e-12), policy.name
        assert set(enumerated) <= set(exact.index)


@settings(max_examples=25, deadline=None)
@given(
    faces=st.tuples(*[st.integers(-6, 6)] * 6),
    n=st.integers(1, 3),
    weights=st.lists(st.floats(-10, 10), min_size=64, max_size=64),
)
def test_optimal_value_random_faces_and_utilities(faces, n, weights):
    rules = Rules(n_dice=n, face_values=faces)
    totals = reachable_totals(rules)
    u = np.array(weights[: totals.size])
    solution = solve_turn(rules, u)
    lookup = dict(zip(totals.tolist(), u, strict=True))
    assert solution.value == pytest.approx(
        brute.optimal_value(faces, n, lookup.__getitem__), abs=1e-9
    )


@pytest.mark.parametrize("n", [4, 5, 6, 8])
def test_optimum_beats_every_human_policy(n):
    rules = Rules(n_dice=n)
    for utility in ("ev", "zero", "positive"):
        best = solve_turn(rules, utility).value
        for name in HUMAN_POLICIES:
            got = evaluate_policy(rules, human_policy(rules, name)).expect(rules, utility)
            assert got <= best + 1e-12, (utility, name)


def test_solution_fields():
    rules = Rules()
    sol = solve_turn(rules, "ev")
    assert isinstance(sol.distribution, pd.Series)
    assert sol.distribution.index.tolist() == list(range(-20, 6))
    assert sol.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert (sol.distribution >= 0).all()
    assert sol.value == pytest.approx(sol.values.loc[5, 0])
    # one die left holding four: the value is the mean of the last die
    assert sol.values.loc[1, 0] == pytest.approx(np.mean(rules.face_values))
    assert 5 <= sol.expected_dice <= 15
    frame = sol.policy.to_frame(rules)
    assert len(frame) == 4116
    assert frame["n_keep"].between(1, 5).all()


def test_minimising_by_negating():
    rules = Rules(n_dice=3)
    worst = solve_turn(rules, lambda t: -t)
    assert -worst.value == pytest.approx(
        -brute.optimal_value(rules.face_values, 3, lambda t: -float(t)), abs=1e-12
    )
    assert worst.distribution.to_numpy() @ reachable_totals(rules) == pytest.approx(-worst.value)


def test_utility_forms_agree():
    rules = Rules()
    totals = reachable_totals(rules)
    by_name = solve_turn(rules, "at_least:1").value
    by_array = solve_turn(rules, (totals >= 1).astype(float)).value
    by_callable = solve_turn(rules, lambda t: t >= 1).value
    assert by_name == by_array == by_callable == solve_turn(rules, "positive").value


@pytest.mark.parametrize(
    ("utility", "message"),
    [
        ("median", "utility name must be one of"),
        ("at_least:x", "utility name must be one of"),
        (np.zeros(3), "one value per reachable total"),
        (lambda t: float("nan"), "finite"),
    ],
)
def test_bad_utility(utility, message):
    with pytest.raises(ValueError, match=message):
        utility_vector(Rules(), utility)


def test_policy_is_legal_everywhere_for_eight_dice():
    rules = Rules(n_dice=8, face_values=(-5, 3, -1, 0, 2, 7))
    sol = solve_turn(rules, "ev")
    assert sol.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert sol.distribution.to_numpy() @ sol.utility.to_numpy() == pytest.approx(sol.value)
    # TurnPolicy validates every entry on construction; spot-check a decision
    kept = sol.policy.choose(set_aside=(6, 6), rolled=(6, 5, 4, 3, 2, 1))
    assert 6 in kept and set(kept) <= {6, 5, 4, 3, 2, 1}


def test_seed_roger_first_roll_optimal_and_roger():
    rules = Rules()
    roger = human_policy(rules, "roger")
    # seed: 6,5,5,3,1 -> Roger keeps his 6; 6,6,5,2 -> keeps 6,6,5; then rolls a 1
    assert roger.choose((), (6, 5, 5, 3, 1)) == (6,)
    assert roger.choose((6,), (6, 6, 5, 2)) == (6, 6, 5)
    assert roger.choose((6, 6, 6, 5), (1,)) == (1,)
    assert rules.total((6, 6, 6, 5, 1)) == -1


@pytest.mark.parametrize("text", ["at_least:--3", "at_least:", "at_least:1.5"])
def test_bad_threshold_names(text):
    with pytest.raises(ValueError, match="utility name must be one of"):
        utility_vector(Rules(), text)


def test_threshold_with_plus_sign():
    assert np.array_equal(
        utility_vector(Rules(), "at_least:+1"), utility_vector(Rules(), "positive")
    )
