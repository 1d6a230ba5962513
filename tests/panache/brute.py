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
