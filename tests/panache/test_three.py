import numpy as np
import pytest

from panache import Rules
from panache.duel import max_points
from panache.three import solve_three
from tests.panache import brute

SMALL = [
    Rules(n_dice=2, start_points=2),
    Rules(n_dice=2, start_points=3, counter_attacks=False, mp_stake_factor=1),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", SMALL, ids=["default-faces", "no-counters"])
def test_three_players_match_plain_value_iteration(rules):
    sol = solve_three(rules)
    win, first = brute.three(
        rules.face_values, rules.n_dice, rules.start_points, rules.counter_attacks,
        rules.mp_stake_factor,
    )  # fmt: skip
    assert sol.exact  # every class settled on a pure equilibrium
    for key, chances in win.items():
        assert np.allclose(sol.chances(*key), chances, atol=1e-12, rtol=0), key
    assert np.allclose(sol.start.to_numpy(), first, atol=1e-12, rtol=0)


def test_three_player_table_is_a_distribution():
    rules = Rules(start_points=10)
    sol = solve_three(rules)
    top = max_points(rules)
    assert sol.win.shape == (top**3, 3)
    assert np.allclose(sol.win.sum(axis=1), 1.0, atol=1e-12)
    assert (sol.win.to_numpy() >= -1e-15).all()
    assert sol.start.sum() == pytest.approx(1.0, abs=1e-12)
    # a player with more points, everything else equal, is better off
    assert sol.chances(9, 5, 5)[0] > sol.chances(3, 5, 5)[0]
    with pytest.raises(ValueError, match="next_points must be"):
        sol.chances(1, 0, 1)


def test_classes_are_flagged():
    sol = solve_three(Rules(start_points=10))
    classes = sol.classes
    assert len(classes) == (15**3 - 15) // 3 + 15  # rotation classes of 1..15
    settled = classes["period"] == 1
    assert (classes.loc[settled, "spread"] == 0).all()
    assert sol.exact == settled.all()
    assert sol.max_spread == classes["spread"].max()
