"""Rule variants a designer would try, compared on the exact race and on the economy.

A variant is a :class:`~commander.rules.Rules` (another exchange-rate table, starting
stock, transaction cap, win threshold, ...). :func:`race_variants` gives, for each, the
exact minimum winning turn of a lone buyer from the opening position (docs/rules.md,
Victory: no gold, ``start_doublons``, the starting stock) with a given income, alone and
with rivals draining the stock. :func:`economy_variants` simulates the economy model
under each variant with the same seed (common random numbers) and reports game length
and who wins: give the players different strategies (e.g. buying from turn 1 against
buying from turn 5) to measure buying early against late.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from commander.cards import CardSet
from commander.economy import simulate_economy
from commander.race import DEFAULT_HORIZON, solve_race
from commander.rules import Rules

if TYPE_CHECKING:
    import pandas as pd


def _check_variants(variants) -> dict[str, Rules]:
    if not isinstance(variants, Mapping) or not variants:
        raise TypeError(f"variants must be a non-empty mapping name -> Rules, got {variants!r}")
    for name, rules in variants.items():
        Rules.check(rules, f"variants[{name!r}]", default=False)
    return dict(variants)


def race_variants(variants, income, drain=0, horizon: int = DEFAULT_HORIZON) -> pd.DataFrame:
    """Exact opening race under each variant.

    Parameters
    ----------
    variants : mapping of str to Rules
    income : int or sequence of int
        Doublons collected per turn (see :func:`commander.race.solve_race`).
    drain : int or sequence of int
        Gold the rivals take from the stock per turn, for the drained columns.
    horizon : int

    Returns
    -------
    pandas.DataFrame
        Index ``variant``; columns ``start_stock``, ``win_turn``, ``net_cost``,
        ``uses_sales`` (the fastest cheapest plan sells gold), ``win_turn_drained``.

    Examples
    --------
    >>> t = race_variants({"seed": Rules(), "win 8": Rules(win_gold=8)}, income=4)
    >>> t["win_turn"].tolist()
    [9, 7]
    """
    import pandas as pd

    variants = _check_variants(variants)
    rows = {}
    for name, rules in variants.items():
        start = (rules.start_gold, rules.start_doublons, rules.start_stock)
        alone = solve_race(rules, *start, income=income, horizon=horizon)
        drained = solve_race(rules, *start, income=income, drain=drain, horizon=horizon)
        rows[name] = {
            "start_stock": rules.start_stock,
            "win_turn": alone.win_turn if alone.win_turn is not None else pd.NA,
            "net_cost": alone.net_cost if alone.net_cost is not None else pd.NA,
            "uses_sales": bool(any(k < 0 for k in alone.plan)),
            "win_turn_drained": drained.win_turn if drained.win_turn is not None else pd.NA,
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "variant"
    for col in ("start_stock", "win_turn", "net_cost", "win_turn_drained"):
        frame[col] = frame[col].astype("Int64")
    return frame


def economy_variants(
    variants, decks, cards: CardSet, strategies=None, n: int = 4000, seed=None,
    max_rounds: int = 60,
) -> pd.DataFrame:
    """Game length and win shares under each variant (economy model, same seed).

    Parameters
    ----------
    variants : mapping of str to Rules
        All with ``n_players == len(decks)``.
    decks, cards, strategies
        As in :func:`commander.economy.simulate_economy` (seats rotate).
    n : int
        Games per variant.
    seed : None, int, SeedSequence or Generator
        The same seed serves every variant.
    max_rounds : int

    Returns
    -------
    pandas.DataFrame
        Index ``variant``; columns ``finished`` (share of games won within
        ``max_rounds``), ``mean_round`` and ``median_round`` of the finished games,
        ``first_seat`` (win share of seat 0 among finished games),
        ``player_<i>`` (win share of player ``i`` among all games), and the sample
        sizes behind the shares: ``games`` (``n``) and ``finished_games``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> t = economy_variants({"seed": Rules(), "win 8": Rules(win_gold=8)},
    ...                      [d["spanish_sample"], d["ghost_sample"]], cards, n=100, seed=0)
    >>> list(t.index)
    ['seed', 'win 8']
    """
    import pandas as pd

    variants = _check_variants(variants)
    rows = {}
    for name, rules in variants.items():
        res = simulate_economy(rules, decks, cards, strategies, n=n, seed=seed,
                               record=False, max_rounds=max_rounds)
        done = res.win_round > 0
        row = {
            "finished": float(done.mean()) if n else np.nan,
            "mean_round": float(res.win_round[done].mean()) if done.any() else np.nan,
            "median_round": float(np.median(res.win_round[done])) if done.any() else np.nan,
            "first_seat": float((res.win_seat[done] == 0).mean()) if done.any() else np.nan,
        }
        for p in range(rules.n_players):
            row[f"player_{p}"] = float((res.win_player == p).mean()) if n else np.nan
        row["games"] = n
        row["finished_games"] = int(done.sum())
        rows[name] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "variant"
    return frame
