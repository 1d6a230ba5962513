import random
from functools import cache

import numba
import numpy as np
import pytest

from samarra import Rules, apply_action, legal_actions, setups, start_position, tie_break
from samarra.horizon import horizon_values, solve_horizon
from tests.samarra.strategies import random_play


def brute_horizon(position, t):
    """Plain depth-limited minimax of the adjudicated game (engine only)."""

    @cache
    def value(p, left):
        actions = legal_actions(p)
        if left == 0 or not actions:
            tb = tie_break(p)
            return 0 if tb is None else (1 if tb == p.to_move else -1)
        best = -1
        for a in actions:
            q = apply_action(p, a)
            if q.is_over:
                v = 1 if q.winner == p.to_move else -1
            else:
                # only "is this the opening single action" matters to the rules
                played = min(q.actions_played, 1)
                v = value(q.__class__(**{**q.__dict__, "actions_played": played}), left - 1)
                v = v if q.to_move == p.to_move else -v
            best = max(best, v)
            if best == 1:
                break
        return best

    return value(position, t)


@pytest.mark.parametrize(("name", "t_max"), [("table33", 4), ("table33_optional", 3)])
def test_horizon_values_match_plain_minimax(name, t_max, request):
    table33 = request.getfixturevalue(name)
    rules = table33.rules
    rng = random.Random(4)
    positions = [start_position(rules, "SMD", "DSM"), start_position(rules, "MDS", "SDM")]
    while len(positions) < 14:
        p = random_play(rules, rng.randrange(5, 40), rng.randrange(10**6))
        if not p.is_over:
            positions.append(p)
    fast = horizon_values(table33, positions, t_max)
    for i, p in enumerate(positions):
        for t in range(t_max + 1):
            assert fast[t, i] == brute_horizon(p, t), (t, str(p))


@pytest.mark.parametrize(("name", "t_max"), [("table33", 40), ("table33_optional", 6)])
def test_long_horizons_agree_with_the_perfect_information_table(name, t_max, request):
    table33 = request.getfixturevalue(name)
    rules = table33.rules
    rng = random.Random(8)
    positions = []
    while len(positions) < 200:
        p = random_play(rules, rng.randrange(0, 50), rng.randrange(10**6))
        if not p.is_over:
            positions.append(p)
    values = horizon_values(table33, positions, t_max)
    checked = 0
    for i, p in enumerate(positions):
        v = table33.value(p)
        if v.outcome != "draw" and v.distance <= t_max:
            checked += 1
            # a forced result within t actions stands for every horizon t >= distance
            assert (values[v.distance:, i] == v.score).all()
    assert checked >= 20


def test_solve_horizon_summary(cache):
    game = solve_horizon(Rules(length=3), max_horizon=6, directory=cache)
    assert (game.summary.loc[0, "draw"], game.summary.loc[0, "value to black"]) == (1.0, 0.0)
    shares = game.summary[["black wins", "draw", "white wins"]].sum(axis=1)
    assert np.allclose(shares, 1)
    assert game.matrix(3).shape == (6, 6)
    names = setups(game.rules)
    b, w = names.index("SMD"), names.index("DMS")
    assert game.payoff[5, b, w] == brute_horizon(start_position(game.rules, "SMD", "DMS"), 5)
    with pytest.raises(ValueError, match="horizon must be <= 6"):
        game.matrix(7)


def test_horizon_values_do_not_depend_on_threads(table33, one_thread):
    starts = [start_position(table33.rules, b, "DSM") for b in setups(table33.rules)]
    one = horizon_values(table33, starts, 6)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert np.array_equal(one, horizon_values(table33, starts, 6))


def test_horizon_size_is_the_peak_memory_and_a_huge_maximum_is_refused_at_once():
    from samarra.horizon import SUMMARY_ROW_BYTES, horizon_size
    from samarra.solve import solve
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    table = solve(Rules(length=3))
    pairs = len(setups(table.rules)) ** 2
    solve_horizon(table=table, max_horizon=6)  # imports (the LP solver's) out of the measure
    for h in (4, 12):  # the size grows with h: two horizons check the slope
        size = horizon_size(table.dist.size, pairs, h).nbytes + (h + 1) * (16 * pairs
                                                                          + SUMMARY_ROW_BYTES)
        peak = peak_bytes(lambda h=h: solve_horizon(table=table, max_horizon=h))
        assert 1 / 1.5 < size / peak < 1.5
    start = start_position(table.rules, "SMD", "SMD")
    assert_estimate(horizon_size(table.dist.size, 1, 6),
                    peak_bytes(lambda: horizon_values(table, [start], 6)))  # fmt: skip
    refused_at_once(lambda: solve_horizon(table=table, max_horizon=10**12), "max_horizon=")
    refused_at_once(lambda: horizon_values(table, [start], 10**13), "max_horizon=")


@pytest.mark.parametrize(("name", "longest"), [("table33", 34), ("table33_optional", 6)])
def test_the_reachable_induction_equals_the_sweep_over_the_whole_index(name, longest, request):
    from samarra import horizon

    table = request.getfixturevalue(name)
    rules = table.rules
    starts = [start_position(rules, b, w) for b in setups(rules) for w in setups(rules)]
    # positions from the middle of random games too, not only the starts
    middle = [random_play(rules, n_actions, seed) for seed in range(40) for n_actions in (3, 9)]
    positions = starts + [p for p in middle if not p.is_over]
    targets = np.array([table.index(p) for p in positions], dtype=np.int64)
    # the sweep's row t does not depend on the largest horizon asked; the reachable
    # induction visits fewer states for a shorter one. On 3 x 3 every reachable state
    # is found within 31 actions, so 34 also covers the search that runs out of states.
    sweep = horizon._induction(table, targets, longest, False)
    for max_horizon in sorted({0, 1, longest // 2, longest}):
        reach = horizon._reachable_induction(table, targets, max_horizon, False)
        assert reach is not None  # far below the share that gives way to the sweep
        assert np.array_equal(reach, sweep[: max_horizon + 1])


def test_the_reachable_induction_gives_way_to_the_sweep_past_its_share(table33, monkeypatch):
    from samarra import horizon

    start = start_position(table33.rules, "SMD", "DMS")
    expected = horizon._induction(table33, np.array([table33.index(start)]), 12, False)
    monkeypatch.setattr(horizon, "REACHABLE_SHARE", 1e-4)
    calls = []
    real = horizon._induction
    monkeypatch.setattr(horizon, "_induction", lambda *a: calls.append(1) or real(*a))
    assert np.array_equal(horizon_values(table33, [start], 12), expected) and calls == [1]
