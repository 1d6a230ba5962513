"""Independent brute-force references for the tests."""

from functools import cache
from itertools import product

from citadel.resolve import resolve_reference
from citadel.rules import Rules


def random_vs_random_two_players(rules: Rules) -> tuple[float, float]:
    """Exact P(N wins), P(S wins) when both seats play the uniform ``random`` agent.

    The random agent ignores the pawn and a 2-player game never ends through x, so the
    state is (y, capital N, capital S). Each round enumerates every pair of orders
    (legal amount, 8 directions, uniformly); an all-abstain round repeats the state, so
    V = (sum over other outcomes) / (1 - P(repeat)). The round limit is ignored (the
    chance of reaching it is below 1e-30 for the small capitals used).
    """
    assert rules.n_players == 2
    radius = rules.radius

    @cache
    def value(y, cn, cs):
        if y > radius:
            return (1.0, 0.0)
        if y < -radius:
            return (0.0, 1.0)
        if cn < rules.smallest_bid and cs < rules.smallest_bid:
            return (0.0, 0.0)
        an = rules.legal_amounts(cn).tolist()
        as_ = rules.legal_amounts(cs).tolist()
        p = 1.0 / (len(an) * len(as_) * 64)
        stay = 0.0
        win_n = win_s = 0.0
        for a, b, d, e in product(an, as_, range(8), range(8)):
            res = resolve_reference([a, b], [d, e], rules.resolution, rules.payment)
            ncn = max(0, cn - res.pays[0] - res.fee[0])
            ncs = max(0, cs - res.pays[1] - res.fee[1])
            ny = y + res.step[1]
            if (ny, ncn, ncs) == (y, cn, cs):
                stay += p
                continue
            vn, vs = value(ny, ncn, ncs)
            win_n += p * vn
            win_s += p * vs
        return (win_n / (1 - stay), win_s / (1 - stay))

    return value(0, rules.capital, rules.capital)


def duel_value_iteration(rules: Rules, n_dirs, s_dirs, iterations: int = 400, tol=1e-11,
                         start=None):  # fmt: skip
    """Synchronous Shapley iteration V_{k+1} = val(stage(V_k)) from V_0 = 0 over every
    state (y, capital N, capital S) with integer capitals: the value of the k-round game
    (a draw, 0, at the end), which tends to the game's value. Orders are enumerated
    directly from ``rules.legal_amounts`` and resolved by the plain reference. With
    ``start`` (an array V) and ``iterations=1`` it applies Shapley's operator once."""
    import numpy as np

    from tabletop.matrix_games import solve_zero_sum

    r, c = rules.radius, rules.capital
    V = np.zeros((2 * r + 1, c + 1, c + 1)) if start is None else np.array(start, dtype=float)

    def orders(cap, dirs):
        return [(0, dirs[0])] + [(a, d) for a in rules.legal_amounts(cap) if a > 0 for d in dirs]

    tables = {}
    for cn in range(c + 1):
        for cs in range(c + 1):
            rows, cols = orders(cn, n_dirs), orders(cs, s_dirs)
            out = []
            for a, d in rows:
                line = []
                for b, e in cols:
                    res = resolve_reference([a, b], [d, e], rules.resolution, rules.payment)
                    line.append((res.step[1], max(0, cn - res.pays[0] - res.fee[0]),
                                 max(0, cs - res.pays[1] - res.fee[1])))  # fmt: skip
                out.append(line)
            tables[(cn, cs)] = out
    for _ in range(iterations):
        new = np.zeros_like(V)
        for y in range(-r, r + 1):
            for (cn, cs), table in tables.items():
                A = np.zeros((len(table), len(table[0])))
                for i, line in enumerate(table):
                    for j, (dy, n2, s2) in enumerate(line):
                        y2 = y + dy
                        A[i, j] = 1.0 if y2 > r else -1.0 if y2 < -r else V[y2 + r, n2, s2]
                new[y + r, cn, cs] = solve_zero_sum(A).value
        change = np.abs(new - V).max()
        V = new
        if change < tol:
            break
    return V
