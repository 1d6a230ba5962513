"""Two coalitions: the solve against plain references, symmetries, Monte Carlo, and the
cooperative game of coalition values."""

import numpy as np
import pytest

from citadel import Rules
from citadel.coalitions import alliance_analysis, coalition_classes, coalition_values
from citadel.sides import (
    check_sides,
    compass_check,
    evaluate_sides,
    order_name,
    sides_space,
    simulate_sides,
    solve_sides,
)
from citadel.whole_game import solve_duel_game
from tests.citadel.brute import sides_fixed_points

TINY = {"radius": 1, "capital": 10, "bid_step": 5}
# The plain reference finds each state's fixed point by bisection on g(v) =
# val(payoff + loop v) - v. Where a side is indifferent between ending the game and
# letting it loop (a tangent fixed point: g ~ (v - v*)^2), a residual of 1e-10 moves
# its value by up to sqrt(1e-10) = 1e-5; the value feeds the states solved after it
# unchanged (no loop, no amplification). The solve brackets each value by its
# strategies' exact guarantees (citadel.stage.solve_with_loop) instead.
TANGENT = 2e-5


def test_two_players_is_the_duel():
    # N alone against S with E and W walls is the 1-vs-1 game of citadel.whole_game,
    # solved there without the pawn's column: every column must repeat it exactly
    rules = Rules(n_players=2, radius=2, capital=20, bid_step=5)
    duel = solve_duel_game(rules)
    sides = solve_sides(rules, "N")
    for column in sides.values:
        assert np.abs(column - duel.values).max() < 1e-12


def test_full_compass_with_two_players_is_the_duel_in_all_directions():
    rules = Rules(n_players=2, radius=1, capital=10, bid_step=5)
    duel = solve_duel_game(rules, "all")
    sides = solve_sides(rules, "N", compass=True)
    assert sides.space.levels[0].size == rules.capital + 1  # fees: every integer capital
    for column in sides.values:
        assert np.abs(column - duel.values).max() < 1e-12


def test_compass_check_measures_the_abstraction():
    rules = Rules(radius=1, capital=5, bid_step=5)
    own = solve_sides(rules, "NE")
    full = solve_sides(rules, "NE", compass=True)
    # a best response with more orders can only gain more
    assert compass_check(own)["exploitability"] >= check_sides(own).exploitability - 1e-12
    # the full-compass solution leaves nothing to a full-compass responder
    assert compass_check(full)["exploitability"] < 1e-6
    assert check_sides(full).exploitability < 1e-6
    with pytest.raises(ValueError, match="compass needs a responder"):
        evaluate_sides(own, compass=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n_players", "side", "resolution", "payment", "tol"),
    [
        (4, "NS", "variant", "all", 1e-8),  # no tangent fixed point on this board
        (3, "E", "basic", "winners", 1e-8),
        # neighbours, winners' payment and a tangent fixed point each run in make test
        # (the min_bid cases below, the case above): together, with -m large
        pytest.param(4, "NE", "variant", "winners", TANGENT, marks=pytest.mark.large),
    ],
)
def test_against_plain_fixed_points(n_players, side, resolution, payment, tol):
    rules = Rules(n_players=n_players, resolution=resolution, payment=payment, **TINY)
    reference = sides_fixed_points(rules, side)
    sol = solve_sides(rules, side)
    assert sol.values.size == len(reference)
    worst = max(abs(sol.value(x, y, a, b) - v) for (x, y, a, b), v in reference.items())
    assert worst <= tol


@pytest.mark.parametrize(
    ("n_players", "side", "min_bid", "payment", "tol"),
    [
        (4, "NE", 5, "all", 1e-8),
        (4, "N", 5, "winners", TANGENT),
        (3, "E", 10, "all", 1e-8),
    ],
)
def test_min_bid_against_plain_fixed_points(n_players, side, min_bid, payment, tol):
    """min_bid > 0: every member writes (fillers the smallest amount the same way), a
    short pool lets as many members write as it pays; enumerated apart in brute.py."""
    rules = Rules(n_players=n_players, min_bid=min_bid, payment=payment, **TINY)
    reference = sides_fixed_points(rules, side)
    sol = solve_sides(rules, side)
    assert sol.values.size == len(reference)
    worst = max(abs(sol.value(x, y, a, b) - v) for (x, y, a, b), v in reference.items())
    assert worst <= tol
    assert check_sides(sol).exploitability < 1e-6


def test_min_bid_orders_of_a_side():
    space = sides_space(Rules(radius=1, capital=10, bid_step=5, min_bid=5), "NE")
    names = [order_name(space, 0, a) for a in range(space.amounts[0].size)]
    assert names == ["abstain", "1 x 5 N", "1 x 5 E", "2 x 5 N", "2 x 5 E",
                     "1 x 10 N + 1 x 5 N", "2 x 10 N", "1 x 10 E + 1 x 5 E", "2 x 10 E"]
    # a full pool: every member writes; 5 points: one member writes 5; none: abstain
    assert [names[a] for a in space.legal(0, 20)] == [n for n in names if "2 x" in n
                                                       or "+" in n]  # fmt: skip
    assert [names[a] for a in space.legal(0, 5)] == ["1 x 5 N", "1 x 5 E"]
    assert [names[a] for a in space.legal(0, 0)] == ["abstain"]
    assert [names[a] for a in space.legal(0, 15)] == ["2 x 5 N", "2 x 5 E", "1 x 10 N + 1 x 5 N",
                                                      "1 x 10 E + 1 x 5 E"]


def test_half_turn_swaps_the_sides():
    # rotating the board by 180 degrees maps N+E onto S+W: V(x, y, a, b) = -V(-x, -y, b, a)
    sol = solve_sides(Rules(**TINY), "NE")
    flipped = -sol.values[::-1, ::-1].transpose(0, 1, 3, 2)
    assert np.abs(sol.values - flipped).max() <= TANGENT
    assert abs(sol.value()) <= TANGENT


def test_solution_is_unexploitable_and_scores_add_up():
    for side in ("NE", "NS", "N"):
        chk = check_sides(solve_sides(Rules(**TINY), side))
        assert chk.exploitability < 1e-6
        assert chk.score_a + chk.score_b + chk.p_draw == pytest.approx(1.0, abs=1e-12)
        assert chk.score_a - chk.score_b == pytest.approx(chk.value, abs=TANGENT)
        own = check_sides(solve_sides(Rules(**TINY), side, objective="score"))
        assert own.exploitability < 1e-6
        assert own.score_a == pytest.approx(own.value, abs=TANGENT)


def test_monte_carlo_matches_the_solve():
    rules = Rules(radius=1, capital=15, bid_step=5)
    sol = solve_sides(rules, "NS")
    chk = check_sides(sol)
    games = simulate_sides(sol, 3000, seed=11)
    assert 0.05 < chk.score_a < 0.95  # a game worth checking: both sides score
    for column, expected in (("score_a", chk.score_a), ("score_b", chk.score_b)):
        x = games[column].to_numpy()
        se = x.std(ddof=1) / np.sqrt(x.size)
        assert abs(x.mean() - expected) < 4 * se
    again = simulate_sides(sol, 50, seed=11)
    assert again.equals(games.iloc[:50])


def test_symmetric_shortcut_matches_every_split():
    rules = Rules(**TINY)
    assert coalition_classes(rules) == ["N", "NE", "NS", "NES"]
    assert len(coalition_classes(rules, use_symmetry=False)) == 14
    short = coalition_values(rules)
    full = coalition_values(rules, use_symmetry=False)
    assert list(short.index) == list(full.index)
    assert np.abs(short["value"] - full["value"]).max() <= TANGENT
    assert short.loc["NESW", "value"] == 1.0


def test_alliance_analysis_is_consistent():
    res = alliance_analysis(Rules(**TINY))
    assert res.shapley.sum() == pytest.approx(1.0)
    assert res.least_core.allocation.sum() == pytest.approx(1.0)
    assert res.least_core.excess.max() == pytest.approx(res.least_core.epsilon, abs=1e-8)
    # the seats are symmetric, so is the Shapley value
    assert np.allclose(res.shapley, 0.25)


@pytest.mark.parametrize(
    ("side", "kwargs", "error", "match"),
    [
        ("NX", {}, ValueError, r"seat\(s\) \['X'\] not among"),
        ("NESW", {}, ValueError, "at least one and not all"),
        ("", {}, ValueError, "at least one and not all"),
        ("NN", {}, ValueError, "distinct seats"),
        (5, {}, TypeError, "side must be a string of seat names"),
        ("NE", {"n_players": 2}, ValueError, r"seat\(s\) \['E'\] not among \('N', 'S'\)"),
        ("N", {"objective": "win"}, ValueError, "objective must be one of"),
    ],
)
def test_bad_sides(side, kwargs, error, match):
    objective = kwargs.pop("objective", "difference")
    with pytest.raises(error, match=match):
        solve_sides(Rules(**{**TINY, **kwargs}), side, objective)


def test_bad_states_and_counts():
    sol = solve_sides(Rules(**TINY), "N")
    with pytest.raises(ValueError, match="on the board"):
        sol.value(2, 0)
    with pytest.raises(ValueError, match="not a pooled capital of side ESW"):
        sol.value(0, 0, 10, 7)
    with pytest.raises(ValueError, match="n must be >= 1"):
        simulate_sides(sol, 0)


@pytest.mark.parametrize("bad", ["yes", "no", 1, None])
def test_truthy_values_are_not_booleans(bad):
    # compass="yes" (and "no") used to be taken as True, and the larger game solved
    rules = Rules(radius=1, capital=10, bid_step=5)
    with pytest.raises(TypeError, match=f"compass must be True or False, got {bad!r}"):
        solve_sides(rules, "NE", compass=bad)
    with pytest.raises(TypeError, match=f"compass must be True or False, got {bad!r}"):
        coalition_values(rules, compass=bad)
    with pytest.raises(TypeError, match=f"use_symmetry must be True or False, got {bad!r}"):
        alliance_analysis(rules, use_symmetry=bad)


@pytest.mark.parametrize(("kwargs", "side", "compass"), [
    ({"radius": 1, "capital": 10, "bid_step": 5}, "NE", False),
    ({"radius": 2, "capital": 12, "bid_step": 4, "n_players": 3}, "N", False),
    ({"radius": 1, "capital": 12, "bid_step": 2, "min_bid": 3}, "NS", False),
    ({"radius": 1, "capital": 6, "bid_step": 5, "min_bid": 7}, "N", False),
    ({"radius": 1, "capital": 10, "bid_step": 5, "n_players": 2}, "N", True),
    ({"radius": 1, "capital": 6, "bid_step": 3, "min_bid": 1}, "NE", True),
])  # fmt: skip
def test_sides_size_counts_the_orders_and_states_of_the_solve(kwargs, side, compass):
    """The estimate, computed from the rules alone, has the stage tables' shape and
    the number of states of the space the solve builds."""
    from citadel.sides import sides_size

    rules = Rules(**kwargs)
    est = sides_size(rules, side, compass)
    space = sides_space(rules, side, (compass, compass))
    m, n = space.dx.shape
    assert est.knobs["orders"] == f"{m} x {n}"
    states = (2 * rules.radius + 1) ** 2 * space.levels[0].size * space.levels[1].size
    assert est.knobs["states"] == states


def test_sides_size_is_within_its_factor_of_the_peak_and_huge_solves_are_refused():
    from citadel.sides import sides_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    rules = Rules(radius=1, capital=10, bid_step=5)
    solve_sides(rules, "NE")
    assert_estimate(sides_size(rules, "NE"), peak_bytes(lambda: solve_sides(rules, "NE")))
    text = refused_at_once(lambda: solve_sides(Rules(capital=10**6), "NE"),
                           "capital=1000000", "bid_step=1", "radius=3")  # fmt: skip
    assert "raise bid_step" in text
    for call in (coalition_values, alliance_analysis):
        refused_at_once(lambda call=call: call(Rules(capital=10**6)), "capital=1000000")


@pytest.mark.parametrize("name", ["allow_large", "progress"])
def test_solve_sides_switches_are_booleans(name):
    with pytest.raises(TypeError, match=name):
        solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE", **{name: "no"})
