"""A plain search of the race to the win threshold: the reference the exact race is
checked against.

It re-derives every price gold by gold from ``Rules.exchange_rates`` and keeps every
position reached (gold, doublons, stock), without the dominance shortcut of
:func:`commander.solve_race` (which keeps only the largest purse of a (gold, stock)
pair). It is slow and meant for small horizons: the tests and the report's appendix use
it to confirm the exact race.
"""

from __future__ import annotations

from collections.abc import Sequence

from commander.rules import Rules

__all__ = ["band_rate", "move", "race_search", "stream"]


def band_rate(rules: Rules, stock: int) -> int:
    """The exchange rate (doublons for one gold) at ``stock``, read band by band."""
    for low, rate in rules.exchange_rates:
        if stock >= low:
            return rate
    raise ValueError(f"stock must be >= 0 (no exchange band holds it), got {stock}")


def move(rules: Rules, gold: int, doublons: int, stock: int, k: int) -> tuple | None:
    """A transaction of ``k`` gold (``k > 0`` buys, ``k < 0`` sells) made one gold at a
    time: the position after it, ``(gold, doublons, stock)``, or None if some gold of it
    cannot move (no stock, too few doublons, no gold to sell)."""
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


def stream(value: int | Sequence[int], turn: int) -> int:
    """The value of a per-turn quantity at ``turn`` (0-based): a constant, or a sequence
    whose last value holds from its end on."""
    items = [value] if isinstance(value, int) else list(value)
    return items[min(turn, len(items) - 1)]


def race_search(rules: Rules, gold: int, doublons: int, stock: int,
                income: int | Sequence[int], horizon: int, drain: int | Sequence[int] = 0,
                first_only: bool = False) -> dict[int, int]:  # fmt: skip
    """The turns at which the win threshold can first be reached, each with the largest
    purse left then, by a breadth-first search over whole positions.

    Parameters
    ----------
    rules : Rules
        Prices (``exchange_rates``, ``sale_price``), ``max_gold_per_transaction`` and
        ``win_gold``.
    gold, doublons, stock : int
        The position at the start of turn 1.
    income, drain : int or sequence of int
        Doublons received at the start of each turn, and gold leaving the Company's stock
        after each transaction (a sequence: one value a turn, its last one from then on).
    horizon : int
        Turns searched.
    first_only : bool
        Stop at the first turn with a win (the earliest win and its purse only).

    Returns
    -------
    dict of int to int
        ``{turn: largest doublons left among the positions first reaching win_gold at
        the start of that turn}``; ``{1: doublons}`` when ``gold`` is already enough, and
        empty when no win is found within ``horizon`` turns.
    """
    cap = rules.max_gold_per_transaction
    if gold >= rules.win_gold:
        return {1: doublons}
    frontier = {(gold, doublons, stock)}
    wins: dict[int, int] = {}
    for t in range(horizon):
        reached = set()
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
                    reached.add((g2, d2, s2))
        if first_only and wins:
            break
        frontier = reached
    return wins
