"""Independent brute-force references for the commander tests.

They re-derive prices token by token from ``Rules.exchange_rates`` and search whole
states without the dominance shortcuts of the library.
"""

from __future__ import annotations

import itertools


def band_rate(rules, stock):
    for low, rate in rules.exchange_rates:
        if stock >= low:
            return rate
    raise AssertionError


def move(rules, gold, doublons, stock, k):
    """Apply a signed transaction token by token; None if illegal."""
    for _ in range(abs(k)):
        if k > 0:
            price = band_rate(rules, stock)
            if stock == 0 or price > doublons:
                return None
            doublons -= price
            stock -= 1
            gold += 1
        else:
            if gold == 0:
                return None
            before = band_rate(rules, stock)
            stock += 1
            gold -= 1
            doublons += before if rules.sale_price == "before" else band_rate(rules, stock)
    return gold, doublons, stock


def stream(value, t):
    items = [value] if isinstance(value, int) else list(value)
    return items[min(t, len(items) - 1)]


def race_bfs(rules, gold, doublons, stock, income, drain, horizon):
    """{turn: largest purse among states first winning at that turn}, by plain BFS."""
    cap = rules.max_gold_per_transaction
    if gold >= rules.win_gold:
        return {1: doublons}
    frontier = {(gold, doublons, stock)}
    wins = {}
    for t in range(horizon):
        nxt = set()
        for g, d, s in frontier:
            for k in range(-cap, cap + 1):
                after = move(rules, g, d + stream(income, t), s, k)
                if after is None:
                    continue
                g2, d2, s2 = after
                s2 = max(s2 - stream(drain, t), 0)
                if g2 >= rules.win_gold:
                    wins[t + 2] = max(wins.get(t + 2, -1), d2)
                else:
                    nxt.add((g2, d2, s2))
        frontier = nxt
    return wins


def sum_distribution(values, k):
    """{sum: number of k-subsets of the list ``values`` (cards distinct) with that sum}."""
    out = {}
    for combo in itertools.combinations(range(len(values)), k):
        total = sum(values[i] for i in combo)
        out[total] = out.get(total, 0) + 1
    return out
