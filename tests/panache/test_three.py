import itertools

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
    assert (classes.loc[settled, ["spread", "regret"]] == 0).all().all()
    assert (~settled).any()  # these rules have cycling classes, solved as mixtures
    assert (classes.loc[~settled, "spread"] > 0).all()
    assert (classes["regret"] >= 0).all()
    assert sol.exact == (classes["regret"] <= 1e-12).all()
    assert sol.max_spread == classes["spread"].max()
    assert sol.max_regret == classes["regret"].max()
    with pytest.raises(ValueError, match="play_rounds must be >= 1"):
        solve_three(Rules(start_points=10), play_rounds=0)


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [Rules(n_dice=2, start_points=4), Rules(n_dice=3, start_points=2)],
    ids=["mixed-exact", "mixed-approximate"],
)
def test_regret_bounds_every_one_turn_deviation(rules):
    # classes with no pure stationary equilibrium are solved as mixtures; the regret
    # they report must bound what any mover gains by deviating for one turn, which a
    # plain enumeration of every turn measures independently of the solver
    sol = solve_three(rules)
    assert (sol.classes["period"] != 1).any()  # the case this test is about
    top = max_points(rules)
    table = {
        key: tuple(sol.chances(*key))
        for key in itertools.product(range(1, top + 1), repeat=3)
    }
    replies = brute.three(
        rules.face_values, rules.n_dice, rules.start_points, rules.counter_attacks,
        rules.mp_stake_factor, reply_to=table,
    )  # fmt: skip
    regret = sol.classes["regret"]
    worst = 0.0
    for key, reply in replies.items():
        cls = min(key, key[1:] + key[:1], key[2:] + key[:2])
        gain = reply[0] - table[key][0]
        assert gain <= regret.loc[cls] + 1e-12, (key, gain, regret.loc[cls])
        worst = max(worst, gain)
    # and the bound is tight: the largest reported regret is reached by some deviation
    assert worst == pytest.approx(sol.max_regret, abs=1e-12)
