"""The Master Citadel balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): the 1-vs-1 game and the coalition values solved exactly on
a stated bid grid, draws, stalls and game length simulated. The list is fixed, so the
cards of two variants line up (``python -m citadel compare``).

Abstractions of the exact rows (see :mod:`citadel.whole_game` and
:mod:`citadel.coalitions`): amounts on a bid grid (the finest grid that keeps the
card within its time budget at the default rules: 10 for the duel, 50 for the
coalitions; a grid is always a multiple of ``bid_step``), each side writes only its
own directions, and a game that stalls for ever is a draw.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from citadel.coalitions import alliance_analysis, coalition_classes
from citadel.rules import Rules
from citadel.sides import sides_space
from citadel.simulate import simulate_games
from citadel.whole_game import solve_duel_game
from tabletop.balance import Metric, build_card, estimate, exact
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.stats import estimate_mean
from tabletop.sweep import task_seed

PLAY = {"heuristic": "straight", "random": "random"}  # agent on every seat

#: The card's rows, in order.
METRICS = (
    Metric("duel_value_start", "exact", "P(N wins) - P(S wins)",
           "1 vs 1 from the start, both playing the solved game (solve_duel_game, bid grid "
           "{duel_grid}, own directions; n: states solved)"),
    Metric("duel_value_lead", "exact", "P(N wins) - P(S wins)",
           "1 vs 1 with the pawn one row toward N, equal capitals (bid grid {duel_grid})"),
    *(m for name, agent in PLAY.items() for m in (
        Metric(f"draw_rate_{name}", "monte carlo", "probability",
               f"share of {{n_players}}-player games nobody wins, '{agent}' agents on every seat"),
        Metric(f"stall_rate_{name}", "monte carlo", "probability",
               f"share of {{n_players}}-player games still running at max_rounds "
               f"({{max_rounds}}), '{agent}' agents"),
        Metric(f"rounds_{name}", "monte carlo", "rounds",
               f"mean length of {{n_players}}-player games, '{agent}' agents"),
    )),
    Metric("coalition_neighbours", "exact", "score",
           "what two neighbouring seats (N+E) can guarantee themselves against the other two, "
           "4 players (coalition_values, bid grid {coalition_grid}; n: states solved)"),
    Metric("coalition_opposite", "exact", "score",
           "what two opposite seats (N+S) can guarantee themselves, 4 players "
           "(bid grid {coalition_grid})"),
    Metric("coalition_trio", "exact", "score",
           "what three seats (N+E+S) can guarantee themselves against the fourth "
           "(bid grid {coalition_grid})"),
    Metric("least_core_epsilon", "exact", "score",
           "the least core's epsilon of those coalition values (> 0: the core is empty)"),
    Metric("core_empty", "exact", "1 = yes",
           "1 when no division of the win keeps every coalition content (the core is empty)"),
)  # fmt: skip

COALITION_METRICS = ("coalition_neighbours", "coalition_opposite", "coalition_trio",
                     "least_core_epsilon", "core_empty")

#: What the verdict of ``compare`` speaks of.
VERDICT = {
    "headlines": {"duel_value_lead": "the worth of a one-row lead in the 1 vs 1 game",
                  "draw_rate_random": "the draw rate under random play",
                  "coalition_opposite": "what two opposite seats can guarantee"},
    "length": "rounds_random",
}  # fmt: skip


def grid_for(rules: Rules, grid: int, name: str = "grid") -> int:
    """The bid grid used: the smallest multiple of ``rules.bid_step`` that is >= ``grid``.

    Examples
    --------
    >>> grid_for(Rules(), 5), grid_for(Rules(bid_step=3), 5)
    (5, 6)
    """
    grid = check_count(name, grid, 1)
    return -(-grid // rules.bid_step) * rules.bid_step


def balance(rules: Rules | None = None, *, n_games: int = 20_000, seed=0,
            duel_grid: int = 10, coalition_grid: int = 50, jobs: int = 2):  # fmt: skip
    """The balance card of ``rules`` (default: the rules of docs/rules.md).

    Parameters
    ----------
    rules : Rules, optional
        The simulations use them as they are; the duel with ``n_players=2``, the
        coalitions with 4 players, both with ``bid_step`` set to their grid.
    n_games : int
        Games per simulation (default 20 000).
    seed : None, int, SeedSequence or Generator
        Root seed; the heuristic games run on child 0, the random ones on child 1
        (:func:`tabletop.sweep.task_seed`).
    duel_grid : int
        Bid grid of the 1 vs 1 solve, rounded up to a multiple of bid_step
        (:func:`grid_for`; default 10; 5 costs about 22 s more).
    coalition_grid : int
        Bid grid of the coalition solves, rounded up likewise (default 50).
    jobs : int
        Processes: with 2 (default) the coalition solves run in a second process
        while this one solves the duel and simulates; 1 runs everything here.

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``duel_value_start``, ``duel_value_lead`` (exact): the 1-vs-1 value
          P(N wins) - P(S wins) from the start and with the pawn one row toward N;
        * ``draw_rate_<play>``, ``stall_rate_<play>``, ``rounds_<play>`` (MC) for
          heuristic (``straight``) and random play: games nobody wins, games still
          running at ``max_rounds``, mean length;
        * ``coalition_neighbours``, ``coalition_opposite``, ``coalition_trio``
          (exact): what N+E, N+S and N+E+S can guarantee themselves;
        * ``least_core_epsilon`` and ``core_empty`` (exact).

    Examples
    --------
    >>> card = balance(Rules(radius=1, capital=10, bid_step=5), n_games=500,
    ...                duel_grid=5, coalition_grid=5, jobs=1)
    >>> float(card.set_index("metric").loc["duel_value_lead", "value"])
    0.5
    """
    rules = Rules.check(rules)
    n_games = check_count("n_games", n_games, 2)
    g_duel = grid_for(rules, duel_grid, "duel_grid")
    g_coal = grid_for(rules, coalition_grid, "coalition_grid")
    root = as_seed_sequence(seed)
    jobs = check_count("jobs", jobs, 1)
    coalition_text = str(g_coal)
    pool = None
    if jobs > 1:  # coalitions in a second process, the rest here
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        if pool is not None:
            coalitions = pool.submit(_coalition_entries, rules, g_coal)
        entries = _main_entries(rules, g_duel, n_games, root)
        if pool is not None:
            entries.update(coalitions.result())
        else:
            entries.update(_coalition_entries(rules, g_coal))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return build_card(METRICS, entries, duel_grid=g_duel, coalition_grid=coalition_text,
                      n_players=rules.n_players, max_rounds=rules.max_rounds)  # fmt: skip


def _main_entries(rules: Rules, g_duel: int, n_games: int, root) -> dict:
    """The 1 vs 1 rows and the simulated rows."""
    entries = {}
    duel = solve_duel_game(dataclasses.replace(rules, n_players=2, bid_step=g_duel))
    entries["duel_value_start"] = exact(duel.value(), duel.values.size)
    entries["duel_value_lead"] = exact(duel.value(1), duel.values.size)

    for i, (name, agent) in enumerate(PLAY.items()):
        games = simulate_games(rules, agent, n_games, seed=task_seed(root, i))
        stalled = games.draws & (games.rounds >= rules.max_rounds)
        entries[f"draw_rate_{name}"] = estimate(estimate_mean(games.draws))
        entries[f"stall_rate_{name}"] = estimate(estimate_mean(stalled))
        entries[f"rounds_{name}"] = estimate(estimate_mean(games.rounds))
    return entries


def _coalition_entries(rules: Rules, g_coal: int) -> dict:
    """The coalition rows (4 players on the coalition grid)."""
    entries = {}
    four = dataclasses.replace(rules, n_players=4, bid_step=g_coal)
    alliances = alliance_analysis(four)
    states = 0
    for name in coalition_classes(four):
        space = sides_space(four, name)
        states += (2 * four.radius + 1) ** 2 * len(space.levels[0]) * len(space.levels[1])
    value = alliances.values["value"]
    for metric, coalition in (("coalition_neighbours", "NE"), ("coalition_opposite", "NS"),
                              ("coalition_trio", "NES")):  # fmt: skip
        entries[metric] = exact(value[coalition], states)
    eps = alliances.least_core.epsilon
    entries["least_core_epsilon"] = exact(eps, states)
    entries["core_empty"] = exact(float(alliances.least_core.core_is_empty), states)
    return entries

