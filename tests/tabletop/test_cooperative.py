"""Shapley value and least core: closed forms, a brute force over orders, bad input."""

import itertools
import math

import numpy as np
import pytest

from tabletop.cooperative import least_core, shapley_value


def game(players, worth):
    return {c: worth(frozenset(c)) for n in range(1, len(players) + 1)
            for c in itertools.combinations(players, n)}  # fmt: skip


def shapley_by_orders(v, players):
    """Average marginal contribution over every order of arrival (the definition)."""
    table = {frozenset(k): x for k, x in v.items()} | {frozenset(): 0.0}
    phi = dict.fromkeys(players, 0.0)
    orders = list(itertools.permutations(players))
    for order in orders:
        before = frozenset()
        for p in order:
            phi[p] += (table[before | {p}] - table[before]) / len(orders)
            before = before | {p}
    return np.array([phi[p] for p in players])


def test_closed_forms():
    # glove game (one left glove, two right): Shapley (2/3, 1/6, 1/6); core {(1, 0, 0)}
    glove = game(["L", "R1", "R2"], lambda s: float("L" in s and len(s) > 1))
    assert np.allclose(shapley_value(glove, ["L", "R1", "R2"]), [2 / 3, 1 / 6, 1 / 6])
    lc = least_core(glove, ["L", "R1", "R2"])
    assert abs(lc.epsilon) < 1e-9 and not lc.core_is_empty
    assert np.allclose(lc.allocation, [1, 0, 0], atol=1e-9)
    # simple majority of three: Shapley 1/3 each; least core eps = 1/3 (core empty)
    majority = game("ABC", lambda s: float(len(s) >= 2))
    assert np.allclose(shapley_value(majority, "ABC"), 1 / 3)
    lc = least_core(majority, "ABC")
    assert lc.epsilon == pytest.approx(1 / 3, abs=1e-9) and lc.core_is_empty
    # an additive game: everyone gets its own worth; the core is that single point
    w = {"a": 0.5, "b": 1.5, "c": -1.0, "d": 2.0}
    additive = game("abcd", lambda s: sum(w[p] for p in s))
    assert np.allclose(shapley_value(additive, "abcd"), list(w.values()))
    lc = least_core(additive, "abcd")
    assert abs(lc.epsilon) < 1e-9
    assert np.allclose(lc.allocation, list(w.values()), atol=1e-9)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_against_the_definition(n):
    rng = np.random.default_rng(n)
    players = list("NESW")[:n]
    for _ in range(20):
        v = game(players, lambda s: float(rng.random() * len(s)))
        phi = shapley_value(v, players)
        assert np.allclose(phi.to_numpy(), shapley_by_orders(v, players), atol=1e-12)
        assert phi.sum() == pytest.approx(v[tuple(players)])  # efficiency
        lc = least_core(v, players)
        # the allocation shares v(N), and eps is exactly its largest excess
        assert lc.allocation.sum() == pytest.approx(v[tuple(players)], abs=1e-9)
        if n > 1:
            assert lc.excess.max() == pytest.approx(lc.epsilon, abs=1e-8)
        # no allocation on a coarse grid of the simplex does better than the LP
        total = v[tuple(players)]
        best = math.inf
        grid = np.linspace(-total, 2 * total, {2: 61, 3: 31, 4: 13}[n])
        for x in itertools.product(grid, repeat=n - 1):
            alloc = dict(zip(players, [*x, total - sum(x)], strict=True))
            best = min(best, max(val - sum(alloc[p] for p in c) for c, val in v.items()
                                 if len(c) < n))  # fmt: skip
        assert lc.epsilon <= best + 1e-9


def test_bad_games():
    with pytest.raises(TypeError, match="v must be a mapping"):
        shapley_value([1, 2], "AB")
    with pytest.raises(ValueError, match="every one of the 3 non-empty coalitions of 2 "
                                         "players, got 2"):  # fmt: skip
        shapley_value({("A",): 1.0, ("B",): 0.0}, "AB")
    with pytest.raises(TypeError, match=r"v\(\('A', 'B'\)\) must be a real number \(not a "
                                        r"bool or a string\), got 'one'"):
        shapley_value({("A",): 1.0, ("B",): 0.0, ("A", "B"): "one"}, "AB")
    with pytest.raises(ValueError, match="names a player not in"):
        least_core({("A",): 1.0, ("Z",): 0.0, ("A", "B"): 1.0, ("B",): 0.0}, "AB")
    with pytest.raises(ValueError, match="empty coalition"):
        shapley_value({(): 1.0, ("A",): 1.0}, "A")
    with pytest.raises(ValueError, match="must be finite"):
        least_core({("A",): float("nan")}, "A")
    with pytest.raises(ValueError, match="distinct"):
        shapley_value({("A",): 1.0}, "AA")
