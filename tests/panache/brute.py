"""Plain brute-force references for the Master Panache tests.

They enumerate ordered dice (every sequence of faces, every subset of positions)
with no multisets, no codes and no tables, so they share no logic with the engine.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

FACES = range(1, 7)


def optimal_value(face_values, n, utility):
    """Expectimax over ordered rolls and subsets of positions; ``utility(total)``."""

    @functools.cache
    def value(total, left):
        if left == 0:
            return utility(total)
        acc = 0.0
        for roll in itertools.product(FACES, repeat=left):
            best = max(
                value(total + sum(face_values[roll[i] - 1] for i in subset), left - len(subset))
                for size in range(1, left + 1)
                for subset in itertools.combinations(range(left), size)
            )
            acc += best
        return acc / 6**left

    return value(0, n)


def policy_distribution(face_values, n, choose):
    """Distribution of the total when ``choose(set_aside, rolled)`` picks the dice."""
    dist = defaultdict(float)

    def walk(set_aside, prob):
        left = n - len(set_aside)
        if left == 0:
            dist[sum(face_values[f - 1] for f in set_aside)] += prob
            return
        for roll in itertools.product(FACES, repeat=left):
            rolled = tuple(sorted(roll, reverse=True))
            kept = choose(tuple(sorted(set_aside, reverse=True)), rolled)
            walk(set_aside + tuple(kept), prob / 6**left)

    walk((), 1.0)
    return dict(dist)


def attack_hits(n, level):
    """P(N = x) of the attack chain, enumerating ordered rolls."""
    dist = defaultdict(float)

    def walk(left, hit, prob):
        if left == 0:
            dist[hit] += prob
            return
        for roll in itertools.product(FACES, repeat=left):
            shown = sum(1 for f in roll if f == level)
            p = prob / 6**left
            if shown == 0:
                dist[hit] += p
            else:
                walk(left - shown, hit + shown, p)

    walk(n, 0, 1.0)
    return dict(dist)


def duel(face_values, n, start, first_round_gain=True, counters=True, stake_factor=2,
         stake_cap=None, tol=1e-15):  # fmt: skip
    """The two-player game by plain value iteration over every state at once.

    Returns ``(win, first)``: ``win[(a, b)]`` the mover's winning chance with ``a``
    points against ``b``, and the first player's chance from the start. The turn
    is the ordered-dice expectimax above; exchanges are iterated, not solved.
    """
    top = start + (max(0, n * max(face_values)) if first_round_gain else 0)
    hits = attack_hits(n, 1)
    q = hits.get(0, 0.0)
    s = 1 - q
    pi = optimal_value(face_values, n, lambda t: float(t == 0))
    states = [(a, b) for a in range(1, top + 1) for b in range(1, top + 1)]
    win = dict.fromkeys(states, 0.5)

    def after(w, a, b, t):
        decline = 1 - w[(b, a)]
        if t < 0:
            return 0.0 if a + t <= 0 else 1 - w[(b, a + t)]
        if t == 0:
            best = decline
            top_stake = stake_factor * a if stake_cap is None else min(stake_factor * a, stake_cap)
            for x in range(2, top_stake + 1, 2):
                ok = 1.0 if b - x <= 0 else 1 - w[(b - x, a)]
                ko = 0.0 if a - x // 2 <= 0 else 1 - w[(b, a - x // 2)]
                best = max(best, pi * ok + (1 - pi) * ko)
            return best
        k = min(t, 6)
        ht = sum(p / s * (1.0 if b - k * h <= 0 else 1 - w[(b - k * h, a)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        ha = sum(p / s * (0.0 if a - k * h <= 0 else 1 - w[(b, a - k * h)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        x = y = decline
        for _ in range(2000):
            x = s * ht + q * (min(decline, y) if counters else decline)
            y = s * ha + q * max(decline, x)
        return max(decline, x)

    for _ in range(100_000):
        new = {
            (a, b): optimal_value(face_values, n, lambda t, a=a, b=b, w=win: after(w, a, b, t))
            for a, b in states
        }
        change = max(abs(new[k] - win[k]) for k in states)
        win = new
        if change < tol:
            break

    def points(t):
        return start + t if t < 0 or (t > 0 and first_round_gain) else start

    def second(p1):
        return optimal_value(
            face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - win[(p1, points(t))]
        )

    first = optimal_value(
        face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - second(points(t))
    )
    return win, first
