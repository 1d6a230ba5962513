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

    def orders(cap, dirs):  # an abstention only where it is legal (min_bid)
        return [(int(a), d) for a in rules.legal_amounts(cap) for d in (dirs if a else dirs[:1])]

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


def sides_fixed_points(rules: Rules, side_a, bisections: int = 42, tol: float = 1e-12):
    """Value of the two-sides game (pooled capitals, one combined order per side, each
    side pulling toward its members' lines) at every state, by plain means: orders
    enumerated and resolved by the reference resolution, walls and corner scores
    written out, states taken in order of increasing capitals and each one's fixed
    point v = val(payoff + loop v) nearest 0 found by plain bisection (g(v) =
    val(payoff + loop v) - v is non-increasing; a game looping for ever is a draw).

    With ``min_bid`` > 0 every member writes: the authors their amount, the others the
    smallest legal amount the same way; a pool short of that lets ``pool // smallest``
    members write the smallest amount (none: everyone abstains).

    ``bisections``: halvings of [0, 1]; 42 leave 2.3e-13, below ``tol`` and far below
    the tests' 1e-8.

    Returns a dict ``(x, y, capital A, capital B) -> value`` (A's score minus B's).
    """
    import numpy as np

    from tabletop.matrix_games import solve_zero_sum

    seats = rules.seats
    side_b = [s for s in seats if s not in side_a]
    homes = {"N": 0, "E": 2, "S": 4, "W": 6}
    r, step = rules.radius, rules.bid_step

    low = rules.smallest_bid

    def actions(side, pool):  # (amount, direction, authors, members who write)
        n = len(side) if rules.min_bid else 0
        if pool < n * low:  # min_bid: as many members as the pool pays write the minimum
            w = pool // low
            return [(low, homes[s], w, w) for s in side] if w else [(0, homes[side[0]], 1, 0)]
        acts = [] if rules.min_bid else [(0, homes[side[0]], 1, 0)]
        for a in range(step, rules.capital + 1, step):
            if a < rules.min_bid:
                continue
            for s in side:
                for k in range(1, len(side) + 1):
                    w = max(n, k)
                    if a * k + (w - k) * low <= pool:
                        acts.append((a, homes[s], k, w))
        return acts

    def orders(side, act):
        a, d, k, w = act
        return {s: (a if i < k else low if i < w else 0, d) for i, s in enumerate(side)}

    def exit_value(x, y):
        out = {"N": y > r, "S": y < -r, "E": x > r, "W": x < -r}
        crossed = [s for s in seats if out[s]]
        if not crossed:
            return None
        return sum((1 if s in side_a else -1) / len(crossed) for s in crossed)

    pools = (rules.capital * len(side_a), rules.capital * len(side_b))
    values = {}
    for ca in range(0, pools[0] + 1, step):
        for cb in range(0, pools[1] + 1, step):
            rows, cols = actions(side_a, ca), actions(side_b, cb)
            outcomes = []
            for ra in rows:
                line = []
                for cb_act in cols:
                    placed = orders(side_a, ra) | orders(side_b, cb_act)
                    res = resolve_reference([placed[s][0] for s in seats],
                                            [placed[s][1] for s in seats],
                                            rules.resolution, rules.payment)  # fmt: skip
                    paid = [sum(res.pays[seats.index(s)] for s in side)
                            for side in (side_a, side_b)]
                    line.append((res.step, ca - paid[0], cb - paid[1]))
                outcomes.append(line)
            for x in range(-r, r + 1):
                for y in range(-r, r + 1):
                    payoff = np.zeros((len(rows), len(cols)))
                    loop = np.zeros((len(rows), len(cols)), dtype=bool)
                    for i, line in enumerate(outcomes):
                        for j, ((dx, dy), a2, b2) in enumerate(line):
                            x2, y2 = x + dx, y + dy
                            if (x2 > r and "E" not in seats) or (x2 < -r and "W" not in seats):
                                x2 = x
                            if (y2 > r and "N" not in seats) or (y2 < -r and "S" not in seats):
                                y2 = y
                            end = exit_value(x2, y2)
                            if end is not None:
                                payoff[i, j] = end
                            elif (x2, y2, a2, b2) == (x, y, ca, cb):
                                loop[i, j] = True
                            else:
                                payoff[i, j] = values[(x2, y2, a2, b2)]
                    g0 = solve_zero_sum(payoff).value
                    if not loop.any() or abs(g0) <= tol:
                        values[(x, y, ca, cb)] = g0 if not loop.any() else 0.0
                        continue
                    sign = 1.0 if g0 > 0 else -1.0  # search u = sign * v in [0, 1]
                    lo, hi = 0.0, 1.0
                    for _ in range(bisections):
                        u = 0.5 * (lo + hi)
                        g = sign * (solve_zero_sum(payoff + loop * (sign * u)).value - sign * u)
                        lo, hi = (u, hi) if g > tol else (lo, u)
                    values[(x, y, ca, cb)] = sign * hi
    return values
