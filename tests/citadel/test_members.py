"""citadel.members: the best response with individual orders against the abstraction."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

import tabletop.budget
from citadel.members import MemberResponse, member_response, member_response_size
from citadel.resolve import resolve_reference
from citadel.rules import Rules
from citadel.sides import compass_check, evaluate_sides, solve_sides

TINY = Rules(radius=1, capital=10, bid_step=5)


@functools.cache
def _solution(n_players: int, capital: int, side: str, objective: str):
    rules = Rules(radius=1, capital=capital, bid_step=5, n_players=n_players)
    return solve_sides(rules, side, objective=objective, progress=False)


# (players, capital, side) of every split the report values, on the tiny board (the
# four-player solves take longest: all but one are marked slow)
SLOW = pytest.mark.slow
SPLITS = [pytest.param(4, 10, "N", marks=SLOW), (4, 10, "NE"),
          pytest.param(4, 10, "NS", marks=SLOW), pytest.param(4, 10, "NES", marks=SLOW),
          (3, 10, "N"), (3, 10, "E"), (3, 10, "NE"), (3, 10, "NS"), (2, 10, "N")]  # fmt: skip


@pytest.mark.parametrize("objective", ["difference", "score"])
@pytest.mark.parametrize(("n_players", "capital", "side"), SPLITS)
def test_never_worse_than_the_abstraction(n_players, capital, side, objective):
    # (a) the responder may write the abstraction's own orders, so it never does worse
    # than the abstraction's value: A gets at least it, B concedes at most it
    sol = _solution(n_players, capital, side, objective)
    follow = evaluate_sides(sol)
    a = member_response(sol, 0, progress=False)
    b = member_response(sol, 1, progress=False)
    assert a.abstraction == pytest.approx(sol.value(), abs=0)
    assert a.value >= follow - 1e-9
    assert b.value <= follow + 1e-9
    assert a.gain >= -1e-9 and b.gain >= -1e-9
    lo, hi = (-1.0, 1.0) if objective == "difference" else (0.0, 1.0)
    assert lo - 1e-9 <= b.value <= a.value <= hi + 1e-9  # rounding of the loop division


@pytest.mark.parametrize("objective", ["difference", "score"])
@pytest.mark.parametrize(("n_players", "capital", "side"), SPLITS)
def test_one_member_is_the_pooled_compass_responder(n_players, capital, side, objective):
    # (b) a side of one seat pools nothing and authors alone: its individual orders
    # (any legal amount of its capital, any direction) are exactly compass_check's
    # combined orders, at the same states (every reachable capital, the fixed side at
    # the level at or below its pool), so the two best responses have the same value.
    # With two or three members neither order set holds the other (a pool pays an
    # author's amount from a partner's points; members split amounts and directions),
    # so no inequality holds in general; on this board the members do at least as well.
    sol = _solution(n_players, capital, side, objective)
    pooled = compass_check(sol)
    for respond, key in ((0, "b_concedes"), (1, "a_guarantees")):
        res = member_response(sol, respond, progress=False)
        if len(sol.space.sides[respond]) == 1:
            assert res.value == pytest.approx(float(pooled[key]), abs=1e-12)
        elif respond == 0:
            assert res.value >= float(pooled[key]) - 1e-9
        else:
            assert res.value <= float(pooled[key]) + 1e-9


def _brute_force(sol, respond):
    """Every state reached from the start, by memoised recursion in plain Python: at each
    state, every joint order (one legal order per member, no symmetry) resolved by the
    reference rules against each order of the fixed side's mixed strategy; the best
    stationary value (a pair that repeats the state for sure is a draw)."""
    rules, space = sol.rules, sol.space
    r = rules.radius
    fixed = 1 - respond
    members, others = space.sides[respond], space.sides[fixed]
    table = sol.row if fixed == 0 else sol.column
    low = rules.smallest_bid
    weight = [0.0] * rules.n_players
    per_side = (1.0, -1.0) if sol.objective == "difference" else (1.0, 0.0)
    for side, seats in enumerate(space.sides):
        for s in seats:
            weight[s] = per_side[side]

    def floor(levels, c):
        below = [int(v) for v in levels if v <= c]
        return below[-1] if below else int(levels[0])

    def own_orders(c):
        return [(0, 0)] * (0 in rules.legal_amounts(c)) + [
            (int(a), d) for a in rules.legal_amounts(c) if a > 0 for d in range(8)
        ]

    def exit_value(x, y):
        out = {"N": y > r, "S": y < -r, "E": x > r, "W": x < -r}
        crossed = [i for i, s in enumerate(rules.seats) if out[s]]
        return sum(weight[i] for i in crossed) / len(crossed) if crossed else None

    def wall(x, y, dx, dy):
        x2, y2 = x + dx, y + dy
        if abs(x2) > r and ("E" if x2 > 0 else "W") not in rules.seats:
            x2 = x
        if abs(y2) > r and ("N" if y2 > 0 else "S") not in rules.seats:
            y2 = y
        return x2, y2

    memo = {}

    def value(x, y, caps, pool):
        key = (x, y, caps, pool)
        if key in memo:
            return memo[key]
        mine, theirs = floor(space.levels[respond], sum(caps)), floor(space.levels[fixed], pool)
        a, p = table[(x, y, mine, theirs) if respond == 0 else (x, y, theirs, mine)]
        support = [
            (int(b), float(q)) for b, q in zip(a, p, strict=True) if space.spend[fixed][b] <= pool
        ]
        total = sum(q for _, q in support)
        support = [(b, q / total) for b, q in support] or [(0, 1.0)]
        best = None
        for joint in itertools.product(*(own_orders(c) for c in caps)):
            off = stay = 0.0
            for b, q in support:
                amounts = [0] * rules.n_players
                directions = [0] * rules.n_players
                for (amt, d), seat in zip(joint, members, strict=False):
                    amounts[seat], directions[seat] = amt, d
                for rank, seat in enumerate(others):
                    if rank < space.authors[fixed][b]:
                        amounts[seat] = int(space.amounts[fixed][b])
                    elif rank < space.writers[fixed][b]:
                        amounts[seat] = low
                    directions[seat] = int(space.dirs[fixed][b])
                res = resolve_reference(amounts, directions, rules.resolution, rules.payment)
                x2, y2 = wall(x, y, *res.step)
                lose = [res.pays[i] + res.fee[i] for i in range(rules.n_players)]
                caps2 = tuple(max(c - lose[s], 0) for c, s in zip(caps, members, strict=False))
                pool2 = max(pool - sum(lose[s] for s in others), 0)
                ends = exit_value(x2, y2)
                if ends is not None:
                    off += q * ends
                elif (x2, y2, caps2, pool2) == key:
                    stay += q
                else:
                    off += q * value(x2, y2, caps2, pool2)
            w = off / (1 - stay) if stay < 1 - 1e-9 else 0.0
            if best is None or (w > best if respond == 0 else w < best):
                best = w
        memo[key] = best
        return best

    start = value(0, 0, (rules.capital,) * len(members), space.pool(fixed))
    return start, memo


@pytest.mark.parametrize(("n_players", "capital", "side", "objective", "respond"), [
    (4, 10, "NE", "score", 0), (4, 10, "NE", "difference", 1), (4, 10, "NS", "score", 1),
    (3, 10, "NE", "difference", 0), (3, 10, "E", "score", 1), (4, 5, "N", "score", 1),
    (4, 5, "NES", "difference", 0), (2, 10, "N", "difference", 0),
])  # fmt: skip
def test_brute_force_enumeration(n_players, capital, side, objective, respond):
    # (c) every state the recursion reaches, to rounding
    sol = _solution(n_players, capital, side, objective)
    res = member_response(sol, respond, progress=False)
    start, memo = _brute_force(sol, respond)
    assert res.value == pytest.approx(start, abs=1e-12)
    r = sol.rules.radius
    for (x, y, caps, pool), v in memo.items():
        at = tuple(int(np.flatnonzero(res.capitals == c)[0]) for c in caps)
        p = int(np.flatnonzero(res.pools == pool)[0])
        assert res.values[(*at, p, x + r, y + r)] == pytest.approx(v, abs=1e-12)
    assert len(memo) > 10


def test_values_symmetric_in_the_members():
    res = member_response(_solution(4, 5, "N", "score"), 1, progress=False)
    v = res.values
    assert np.array_equal(v, np.swapaxes(v, 0, 1)) and np.array_equal(v, np.swapaxes(v, 1, 2))


def test_reachable_capitals():
    # payment "all": a fee comes with a paid amount, so 10 by 5 reaches 10, 5, 4, 0
    res = member_response(_solution(4, 10, "NE", "score"), 0, progress=False)
    assert res.capitals.tolist() == [0, 4, 5, 10]
    assert res.pools[-1] == 20 and 0 in res.pools.tolist()


def test_size_and_refusal(monkeypatch):
    sol = _solution(4, 10, "NE", "score")
    est = member_response_size(sol, 0)
    res = member_response(sol, 0, progress=False)
    assert est.knobs["states"] == res.states and est.knobs["pairs"] == res.pairs
    assert est.knobs["joint orders"] == 17**2 and res.orders == 17**2
    monkeypatch.setattr(tabletop.budget, "available_memory", lambda: 1000.0)
    monkeypatch.delenv("TABLETOP_ALLOW_LARGE", raising=False)
    with pytest.raises(MemoryError, match=r"citadel\.member_response needs about"):
        member_response(sol, 0)
    assert isinstance(member_response(sol, 0, allow_large=True), MemberResponse)


def test_bad_arguments():
    sol = _solution(4, 10, "NE", "score")
    with pytest.raises(ValueError, match="respond"):
        member_response(sol, 2)
    with pytest.raises(TypeError, match="respond"):
        member_response_size(sol, True)
    with pytest.raises(TypeError, match="sol"):
        member_response("NE", 0)
    with pytest.raises((TypeError, ValueError), match="allow_large"):
        member_response(sol, 0, allow_large="yes")


def test_same_result_twice():
    sol = _solution(3, 10, "NE", "score")
    assert (
        member_response(sol, 1, progress=False).values.tolist()
        == member_response(sol, 1, progress=False).values.tolist()
    )
