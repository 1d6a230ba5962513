"""The Master Panache balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): exact figures from the solvers, Monte Carlo figures from
the game simulator with their 95 % intervals. The list is fixed, so the cards of two
variants line up (``python -m panache compare``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from panache.agents import Agent
from panache.duel import solve_duel
from panache.game import simulate_games, tournament
from panache.master import mp_success
from panache.policy import HUMAN_POLICIES, human_policy
from panache.rules import Rules
from panache.turn import evaluate_policy, solve_turn
from tabletop.balance import Metric, build_card, estimate, exact, normal
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.stats import estimate_mean, estimate_proportion
from tabletop.sweep import task_seed

SEAT_COUNTS = (3, 4, 6)


def _seat_metrics() -> tuple[Metric, ...]:
    out = []
    for k in SEAT_COUNTS:
        for s in range(k):
            meaning = (f"seat {s}'s winning chance in {k}-player games of rule-of-thumb "
                       "players (Agent.heuristic() on every seat; seat 0 starts)")
            out.append(Metric(f"seat_{s}_share_{k}p", "monte carlo", "probability", meaning))
        out.append(Metric(f"seat_spread_{k}p", "monte carlo", "probability",
                          f"largest minus smallest seat share with {k} players (interval: "
                          "that pair's difference, delta method)"))  # fmt: skip
    return tuple(out)


#: The card's rows, in order.
METRICS = (
    Metric("first_player_win", "exact", "probability",
           "the first player's winning chance in the duel, both playing the solved duel "
           "(solve_duel; n: states solved)"),
    *_seat_metrics(),
    Metric("duel_rounds", "monte carlo", "rounds",
           "mean length of a duel between two solved players (Agent.duel), in rounds "
           "(turns / 2, rounded up)"),
    Metric("mp_elimination_share", "monte carlo", "share",
           "share of the duels between solved players decided by a Master Panache (the "
           "target of a success or the announcer of a failure is eliminated)"),
    Metric("turn_value", "exact", "points",
           "the best expected total of a turn roll (solve_turn 'ev'; n: decision states)"),
    Metric("mp_success", "exact", "probability",
           "chance that a Master Panache attempt succeeds, played optimally (mp_success; "
           "n: rolls enumerated)"),
    Metric("duel_gain", "monte carlo", "probability",
           "the solved duel policy's winning chance minus 1/2 against the best named human "
           "turn rule of thumb ({rule_of_thumb}: best expected total of panache.HUMAN_POLICIES, "
           "played by Agent.heuristic), seats rotated; a rule-of-thumb search may replace "
           "this opponent"),
)  # fmt: skip

#: What the verdict of ``compare`` speaks of.
VERDICT = {
    "headlines": {"first_player_win": "the first player's winning chance in the duel",
                  "duel_gain": "the solved policy's edge over the best rule of thumb"},
    "length": "duel_rounds",
}  # fmt: skip


def best_rule_of_thumb(rules: Rules) -> str:
    """The named human turn policy with the best expected turn total under ``rules``.

    Examples
    --------
    >>> best_rule_of_thumb(Rules())
    'roger'
    """
    values = {name: evaluate_policy(rules, human_policy(rules, name)).expect(rules, "ev")
              for name in HUMAN_POLICIES}  # fmt: skip
    return max(values, key=lambda name: (values[name], name))


def balance(rules: Rules | None = None, *, n_games: int = 100_000, seed=0):
    """The balance card of ``rules`` (default: the seed's rules).

    Parameters
    ----------
    rules : Rules, optional
        The rules; the duel figures use them with ``n_players=2``, the seat shares
        with 3, 4 and 6 players.
    n_games : int
        Games per simulation (each seat count, the duels, and each seating of the
        rule-of-thumb match; default 100 000).
    seed : None, int, SeedSequence or Generator
        Root seed. The simulations run on its children
        (:func:`tabletop.sweep.task_seed`): child 0, 1, 2 for 3, 4 and 6 players,
        child 3 for the duels of solved players, child 4 for the match against the
        rule of thumb.

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``first_player_win`` (exact): the first player's chance in the solved duel;
        * ``seat_<s>_share_<k>p`` and ``seat_spread_<k>p`` (MC) for k = 3, 4, 6:
          each seat's winning chance among rule-of-thumb players, and the largest
          minus the smallest;
        * ``duel_rounds`` (MC): length of a duel of solved players, in rounds;
        * ``mp_elimination_share`` (MC): share of those duels decided by a Master
          Panache;
        * ``turn_value`` (exact): the best expected turn total;
        * ``mp_success`` (exact): a Master Panache attempt's chance, played optimally;
        * ``duel_gain`` (MC): the solved duel policy's winning chance minus 1/2
          against the best named human turn policy (:func:`best_rule_of_thumb`).

    Examples
    --------
    >>> card = balance(Rules(n_dice=3, start_points=6), n_games=1000, seed=1)
    >>> card.set_index("metric").loc["first_player_win", "method"]
    'exact'
    >>> len(card) == len(METRICS)
    True
    """
    rules = Rules.check(rules)
    n_games = check_count("n_games", n_games, 2)
    root = as_seed_sequence(seed)
    duel_rules = dataclasses.replace(rules, n_players=2)
    entries = {}

    duel = solve_duel(duel_rules)
    entries["first_player_win"] = exact(duel.first_player_win, duel.win.size)

    for i, k in enumerate(SEAT_COUNTS):
        res = simulate_games(rules, [Agent.heuristic()] * k, n_games, seed=task_seed(root, i))
        shares = []
        for s in range(k):
            est = estimate_mean(res.winners == s)
            entries[f"seat_{s}_share_{k}p"] = estimate(est)
            shares.append(est.mean)
        hi, lo = int(np.argmax(shares)), int(np.argmin(shares))
        p, q = shares[hi], shares[lo]
        se = math.sqrt(max(p * (1 - p) + q * (1 - q) + 2 * p * q, 0.0) / n_games)
        entries[f"seat_spread_{k}p"] = normal(p - q, se, n_games)

    res = simulate_games(duel_rules, [Agent.duel(), Agent.duel()], n_games,
                         seed=task_seed(root, 3))  # fmt: skip
    rounds = np.ceil(res.stats["turns"].to_numpy() / 2)
    entries["duel_rounds"] = estimate(estimate_mean(rounds))
    entries["mp_elimination_share"] = estimate(estimate_mean(res.stats["out_by_mp"] > 0))

    turn = solve_turn(rules, "ev")
    entries["turn_value"] = exact(turn.value, int(np.isfinite(turn.values.to_numpy()).sum()))
    entries["mp_success"] = exact(mp_success(rules), 6**rules.n_dice)

    thumb = best_rule_of_thumb(rules)
    table = tournament(duel_rules, [Agent.duel(), Agent.heuristic(turn_policy=thumb)], n_games,
                       seed=task_seed(root, 4))  # fmt: skip
    est = estimate_proportion(int(table["wins"].iloc[0]), int(table["games"].iloc[0]))
    entries["duel_gain"] = normal(est.mean - 0.5, est.stderr, est.n)
    return build_card(METRICS, entries, rule_of_thumb=thumb)
