import pytest

from panache import Rules, mp_outcome, mp_stakes, mp_success, solve_turn
from tests.panache import brute


@pytest.mark.parametrize("n", [1, 2, 3])
def test_mp_success_brute_force(n):
    rules = Rules(n_dice=n)
    assert mp_success(rules) == pytest.approx(
        brute.optimal_value(rules.face_values, n, lambda t: float(t == 0)), abs=1e-12
    )


def test_hildeberte():
    rules = Rules()
    # seed: a failed MP at 12 costs her 6; a success would cost the target 12
    assert mp_outcome(rules, 12, points=20, success=False) == (6, 0)
    assert mp_outcome(rules, 12, points=20, success=True) == (0, 12)
    # she ends on 6, 6, 6, 5 with one die to roll: only a 2 makes the total 0
    assert rules.total((6, 6, 6, 5, 2)) == 0
    values = solve_turn(rules, "zero").values
    assert values.loc[1, rules.total((6, 6, 6, 5))] == pytest.approx(1 / 6)


def test_childeric_cannot_stake_20_with_3_points():
    with pytest.raises(ValueError, match="stake 20 is illegal with 3 points"):
        mp_outcome(Rules(), 20, points=3, success=False)


def test_stake_table():
    rules = Rules()
    p = mp_success(rules)
    table = mp_stakes(rules, points=20, target_points=10)
    assert table.index.tolist() == list(range(2, 41, 2))
    assert (table["p_success"] == p).all()
    assert table.loc[12, "expected_swing"] == pytest.approx(p * 12 - (1 - p) * 6)
    # a stake of 10 or more can eliminate the target; only 40 can eliminate the announcer
    assert table.loc[8, "p_target_eliminated"] == 0
    assert table.loc[10, "p_target_eliminated"] == pytest.approx(p)
    assert table.loc[38, "p_self_eliminated"] == 0
    assert table.loc[40, "p_self_eliminated"] == pytest.approx(1 - p)
    # capped: the target cannot lose more than its 10 points
    assert table.loc[30, "expected_target_loss"] == pytest.approx(p * 10)
    with pytest.raises(ValueError, match="points must be >= 1"):
        mp_stakes(rules, points=0, target_points=10)


def test_mp_outcome_takes_only_a_boolean_success():
    # success="no" used to count as a success
    with pytest.raises(TypeError, match="success must be True or False, got 'no'"):
        mp_outcome(Rules(), 12, points=20, success="no")


def test_stakes_size_is_the_peak_memory_and_a_huge_list_is_refused_at_once():
    from panache.master import stakes_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    rules = Rules(mp_stake_factor=4)
    mp_success(rules)
    for points in (1000, 200_000):
        assert_estimate(stakes_size(rules, points),
                        peak_bytes(lambda points=points: mp_stakes(rules, points, 50)))  # fmt: skip
    huge = Rules(mp_stake_factor=10**9)
    refused_at_once(lambda: mp_stakes(huge, 10**6, 5), "points=1000000",
                    "mp_stake_factor=1000000000", "mp_stake_cap=None")  # fmt: skip
    assert len(mp_stakes(Rules(mp_stake_factor=10**9, mp_stake_cap=20), 10**6, 5)) == 10
