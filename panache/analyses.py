"""The Master Panache balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): exact figures from the solvers, Monte Carlo figures from
the game simulator with their 95 % intervals. The list is fixed, so the cards of two
variants line up (``python -m panache compare``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from panache.agents import Agent
from panache.duel import solve_duel
from panache.game import games_size, simulate_games, tournament
from panache.master import mp_success
from panache.policy import HUMAN_POLICIES, human_policy
from panache.rules import Rules
from panache.turn import evaluate_policy, solve_turn
from tabletop.balance import Entry, Metric, build_card, estimate, exact, normal
from tabletop.budget import check_memory
from tabletop.seeding import as_generator, as_seed_sequence, check_count
from tabletop.stats import estimate_mean, estimate_proportion
from tabletop.sweep import task_seed

SEAT_COUNTS = (3, 4, 6)


def _seat_metrics() -> tuple[Metric, ...]:
    out = []
    for k in SEAT_COUNTS:
        for s in range(k):
            meaning = (f"seat {s}'s winning chance in {k}-player games of 'leader' "
                       "rule-of-thumb players (Agent.heuristic() on every seat: attack the "
                       "leader, always counter, stake the most allowed when ahead; seat 0 "
                       "starts)")
            out.append(Metric(f"seat_{s}_share_{k}p", "monte carlo", "probability", meaning))
        out.append(Metric(f"seat_spread_{k}p", "monte carlo", "probability",
                          f"how far the seat furthest from its fair share 1/{k} lies from it, "
                          f"with {k} 'leader' rule-of-thumb players: max over seats of "
                          f"|share - 1/{k}|; "
                          "interval: 95% bounds on the true largest distance, from every "
                          "seat's interval widened until all hold at once (critical value "
                          "calibrated by simulating equal seats); a distance cannot be "
                          "negative, so its low end is 0 unless equal seats are rejected at "
                          "the 5% level (seat_deviation)"))  # fmt: skip
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


@dataclass(frozen=True)
class SeatDeviation:
    """How far the seats of a table lie from their fair share (:func:`seat_deviation`).

    Attributes
    ----------
    value : float
        The observed largest distance ``max_s |share_s - 1/k|``.
    low, high : float
        Bounds on the true largest distance, holding together with probability
        ``level`` or more (``low`` is 0 unless equal seats are rejected).
    n : int
        Games.
    critical : float
        The simultaneous critical value: every seat's interval is its share plus or
        minus ``critical`` standard errors.
    p_value : float
        The chance, with equal seats, of a largest standardised distance at least the
        observed one (from the calibration draws; never below ``1 / (n_null + 1)``).
    """

    value: float
    low: float
    high: float
    n: int
    critical: float
    p_value: float

    def entry(self) -> Entry:
        """The card entry: value, interval and games."""
        return Entry(self.value, self.low, self.high, self.n)


def _standardised(counts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's share and its standard error (rows: tables, columns: seats).

    The standard error uses the share shifted by half a game toward 1/2,
    ``(wins + 1/2) / (n + 1)``, so a seat that never wins still has one.
    """
    shares = counts / n
    shrunk = (counts + 0.5) / (n + 1)
    return shares, np.sqrt(shrunk * (1 - shrunk) / n)


def seat_deviation(winners, n_seats: int, *, level: float = 0.95, n_null: int = 20_000,
                   seed=None) -> SeatDeviation:  # fmt: skip
    """The largest distance of a seat's winning share from the fair share ``1/k``,
    with simultaneous bounds that stay honest although the seat is picked after the
    games are seen.

    Each seat s gets the interval ``share_s ± c·se_s``; the critical value ``c`` is the
    ``level`` quantile of ``max_s |share_s - 1/k| / se_s`` over ``n_null`` simulated
    tables of ``n`` games with equal seats (multinomial counts), so with equal seats
    every interval holds 1/k at once with probability ``level``. When they all hold the
    true shares ``p_s``, ``theta = max_s |p_s - 1/k|`` lies between

    * ``low = max_s max(0, |share_s - 1/k| - c·se_s)`` (0 unless some seat's interval
      misses 1/k, which happens, with equal seats, in a share ``1 - level`` of runs), and
    * ``high = max_s (|share_s - 1/k| + c·se_s)``.

    Parameters
    ----------
    winners : array_like of int
        The winning seat of each game, 0 to ``n_seats - 1`` (any other value: a game
        no seat won, counted in ``n`` for no seat).
    n_seats : int
        Seats at the table (at least 2).
    level : float
        Joint coverage of the bounds, in (0, 1).
    n_null : int
        Simulated equal-seat tables for the critical value (at least 100).
    seed : None, int, SeedSequence or Generator
        Seed of the calibration draws.

    Returns
    -------
    SeatDeviation

    Examples
    --------
    >>> winners = np.repeat([0, 1, 2, 3], [2600, 2500, 2450, 2450])
    >>> d = seat_deviation(winners, 4, seed=0)
    >>> round(d.value, 4), d.low == 0.0, 2.3 < d.critical < 2.8
    (0.01, True, True)
    """
    from tabletop.validate import check_float, check_int

    n_seats = check_int("n_seats", n_seats, 2)
    n_null = check_int("n_null", n_null, 100)
    level = check_float("level", level)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    w = np.asarray(winners)
    if w.ndim != 1 or not np.issubdtype(w.dtype, np.integer):
        raise TypeError(f"winners must be a 1-D array of seat numbers, got {winners!r:.80}")
    n = check_count("len(winners)", w.size, 2)
    counts = np.bincount(w[(w >= 0) & (w < n_seats)], minlength=n_seats).astype(np.float64)
    fair = 1.0 / n_seats
    rng = as_generator(seed)
    null = rng.multinomial(n, np.full(n_seats, fair), size=n_null).astype(np.float64)
    null_shares, null_se = _standardised(null, n)
    null_stat = (np.abs(null_shares - fair) / null_se).max(axis=1)
    critical = float(np.quantile(null_stat, level, method="higher"))
    shares, se = _standardised(counts[None, :], n)
    gap, se = np.abs(shares[0] - fair), se[0]
    stat = float((gap / se).max())
    p_value = float((1 + np.count_nonzero(null_stat >= stat)) / (n_null + 1))
    low = float(np.maximum(gap - critical * se, 0.0).max())
    high = float((gap + critical * se).max())
    return SeatDeviation(float(gap.max()), low, high, n, critical, p_value)


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
        rule of thumb, children 5, 6, 7 for the equal-seat calibration of 3, 4 and 6
        players (:func:`seat_deviation`).

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``first_player_win`` (exact): the first player's chance in the solved duel;
        * ``seat_<s>_share_<k>p`` and ``seat_spread_<k>p`` (MC) for k = 3, 4, 6:
          each seat's winning chance among rule-of-thumb players, and how far the seat
          furthest from the fair share ``1/k`` lies from it, with simultaneous bounds
          (:func:`seat_deviation`);
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
    # the largest table's games are refused before the exact solves, not after them
    check_memory(games_size(max(SEAT_COUNTS), n_games))
    root = as_seed_sequence(seed)
    duel_rules = dataclasses.replace(rules, n_players=2)
    entries = {}

    duel = solve_duel(duel_rules)
    entries["first_player_win"] = exact(duel.first_player_win, duel.win.size)

    for i, k in enumerate(SEAT_COUNTS):
        res = simulate_games(dataclasses.replace(rules, n_players=k), [Agent.heuristic()] * k,
                             n_games, seed=task_seed(root, i))  # fmt: skip
        for s in range(k):
            entries[f"seat_{s}_share_{k}p"] = estimate(estimate_mean(res.winners == s))
        deviation = seat_deviation(res.winners, k, seed=task_seed(root, 5 + i))
        entries[f"seat_spread_{k}p"] = deviation.entry()

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
