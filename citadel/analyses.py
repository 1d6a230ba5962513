"""The Master Citadel balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): the 1-vs-1 game and the coalition values solved exactly on
a stated bid grid, draws, stalls and game length simulated (exact for the heuristic
``straight``, which draws nothing at random: every game is the same game). The list is
fixed, so the cards of two variants line up (``python -m citadel compare``).

The exact rows and their abstractions (see :mod:`citadel.whole_game` and
:mod:`citadel.coalitions`): amounts on a bid grid (the finest grid that keeps the
card within its time budget at the default rules: 5 for the duel, checked against
the grid twice as coarse and against a finer one, 2, on which the draw chance and the
worth of a lead are solved again; 50 for the coalitions; a grid is always a multiple of
``bid_step``), and a game that stalls for ever is a draw. The 1 vs 1 solve lets each
side write any of the eight directions, as the rules do (``duel_directions``); the
coalition solves let each side write only its own directions. The card measures what
remains approximate: the exploitability of the duel's solution against responders
free to write any of the eight directions (the solver's own error, near 0), and that
of the two-against-two solutions on a small board (:data:`COMPASS_BOARD`: what the
own-directions abstraction costs). Exploitability is the two responders' gains added
together, out of a payoff range of 2 (P(win) - P(loss) runs from -1 to 1).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from citadel.agents import AGENTS
from citadel.coalitions import alliance_analysis, coalition_classes
from citadel.rules import Rules
from citadel.sides import compass_check, sides_space, solve_sides
from citadel.simulate import simulate_games
from citadel.stage import DIRECTION_SETS
from citadel.stalling import stall_odds
from citadel.whole_game import check_solution, solve_duel_game
from tabletop.balance import Metric, build_card, estimate, exact
from tabletop.budget import quiet_resource_tracker, stop_pool
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.stats import estimate_mean
from tabletop.sweep import exit_with_parent, task_seed
from tabletop.validate import check_bool, check_choice

PLAY = {"heuristic": "straight", "random": "random"}  # agent on every seat
#: The agents that draw nothing at random (:func:`citadel.agents.agent`: only ``"random"``
#: uses its generator), and the rules hold no chance: with one of them on every seat every
#: game is the same game, so the card's figures of their games are exact.
DETERMINISTIC = frozenset(a for a in AGENTS if a != "random")
#: How the card's text names each direction set of the 1 vs 1 solve.
DIRECTION_WORDS = {"all": "all eight directions (the game as written)",
                   "axis": "own directions (an abstraction)",
                   "fees": "own direction and the diagonal next to it (an abstraction)"}
#: The small board on which the two-against-two solutions meet full-compass responders:
#: its radius and capital a seat (bid grid 5), and the sides measured.
COMPASS_BOARD = {"radius": 1, "capital": 10, "bid_step": 5, "sides": ("NE", "NS")}

#: The card's rows, in order.
METRICS = (
    Metric("duel_grid", "exact", "points",
           "the bid grid of the 1 vs 1 solve: amounts are multiples of it (a setting)"),
    Metric("duel_value_start", "exact", "P(N wins) - P(S wins)",
           "1 vs 1 from the start, both playing the solved game (solve_duel_game, bid grid "
           "{duel_grid}, {duel_directions}; n: states solved)"),
    Metric("duel_value_lead", "exact", "P(N wins) - P(S wins)",
           "1 vs 1 with the pawn one row toward N, equal capitals (bid grid {duel_grid})"),
    Metric("duel_coarse_grid", "exact", "points",
           "the coarser bid grid the 1 vs 1 solve is checked against (a setting)"),
    Metric("duel_value_lead_coarse", "exact", "P(N wins) - P(S wins)",
           "the same one-row lead on the coarser grid {coarse_grid}: how far the values "
           "still move as the grid refines"),
    Metric("duel_fine_grid", "exact", "points",
           "the finer bid grid on which the 1 vs 1 lead and draw chance are solved again "
           "(a setting)"),
    Metric("duel_value_lead_fine", "exact", "P(N wins) - P(S wins)",
           "the same one-row lead on the finer grid {fine_grid}"),
    Metric("duel_draw_start", "exact", "probability",
           "P(the 1 vs 1 game from the start is drawn: it stalls for ever, or the capital "
           "runs out) when both play the computed equilibrium (stall_odds, bid grid "
           "{duel_grid}, {duel_directions}); another optimal strategy pair may draw more "
           "or less"),
    Metric("duel_draw_start_fine", "exact", "probability",
           "the same draw chance on the finer grid {fine_grid} (stall_odds, "
           "{duel_directions}): how far it still moves as the grid refines"),
    Metric("duel_exploitability_compass", "exact", "score (range 2)",
           "what two best responses free to write any of the eight directions gain together "
           "against the 1 vs 1 solution of grid {duel_grid}, {duel_directions} "
           "(check_solution(..., 'all'))"),
    Metric("duel_exploitability_compass_coarse", "exact", "score (range 2)",
           "the same gain against the 1 vs 1 solution of the coarser grid {coarse_grid}"),
    Metric("duel_exploitability_compass_fine", "exact", "score (range 2)",
           "the same gain against the 1 vs 1 solution of the finer grid {fine_grid}"),
    Metric("sides_exploitability_compass", "exact", "score (range 2)",
           "the largest such gain against the own-directions solutions of {compass_sides} "
           "on a board of radius {compass_radius}, capital {compass_capital} a seat, bid grid "
           "{compass_step} (compass_check)"),
    *(m for name, agent in PLAY.items()
      for method, how in [("exact", "; exact: the agents draw nothing at random, so every "
                                    "game is the same game (n: games simulated)")
                          if agent in DETERMINISTIC else ("monte carlo", "")]
      for m in (
        Metric(f"draw_rate_{name}", method, "probability",
               f"share of {{n_players}}-player games nobody wins, '{agent}' agents on every "
               f"seat{how}"),
        Metric(f"stall_rate_{name}", method, "probability",
               f"share of {{n_players}}-player games still running at max_rounds "
               f"({{max_rounds}}), '{agent}' agents{how}"),
        Metric(f"rounds_{name}", method, "rounds",
               f"mean length of {{n_players}}-player games, '{agent}' agents{how}"),
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

#: Rows of the card that say how the abstraction was set up, not what it found.
SETTINGS = ("duel_grid", "duel_coarse_grid", "duel_fine_grid")


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
            duel_grid: int = 5, coalition_grid: int = 50, jobs: int = 2,
            compass: bool = True, compass_capital: int = COMPASS_BOARD["capital"],
            duel_directions: str = "all", fine_grid: int | None = None):  # fmt: skip
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
        (:func:`grid_for`; default 5); the solve is repeated on a grid twice as coarse
        (rounded likewise) to show how far the values still move.
    fine_grid : int, optional
        A finer bid grid, rounded up likewise, at most ``duel_grid`` (default: 2, or
        ``duel_grid`` when that is finer), on which the 1 vs 1 lead and draw chance are
        solved again: how far they still move as the grid refines (the duel's own
        solve is reused when the two grids are one).
    coalition_grid : int
        Bid grid of the coalition solves, rounded up likewise (default 50).
    jobs : int
        Processes: with 2 (default) the coalition solves run in a second process
        while this one solves the duel and simulates; 1 runs everything here.
    compass : bool
        Measure the exploitability rows against full-compass responders (default
        True; False leaves them NaN, for quick cards).
    compass_capital : int
        Capital a seat of the small board of ``sides_exploitability_compass``
        (default :data:`COMPASS_BOARD`'s, 10).
    duel_directions : {"all", "axis", "fees"}
        The directions each side of the 1 vs 1 solve may write
        (:data:`citadel.stage.DIRECTION_SETS`): ``"all"`` (default) is the game as the
        rules write it, every side free to write any of the eight directions;
        ``"axis"`` the own-directions abstraction (faster, for quick cards).

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``duel_grid``, ``duel_coarse_grid``, ``duel_fine_grid`` (settings): the
          three bid grids solved;
        * ``duel_value_start``, ``duel_value_lead`` (exact): the 1-vs-1 value
          P(N wins) - P(S wins) from the start and with the pawn one row toward N;
          ``duel_value_lead_coarse`` and ``duel_value_lead_fine`` the lead on the
          coarser and the finer grid;
        * ``duel_draw_start`` (exact): the chance that the solved 1 vs 1 game
          from the start is drawn (it stalls for ever, or the capital runs out), both
          playing the computed equilibrium (another optimal strategy pair may draw more
          or less); ``duel_draw_start_fine`` the same on the finer grid;
        * ``duel_exploitability_compass`` (exact): what full-compass responders gain
          against the 1 vs 1 solution (with ``duel_directions="all"``, the solver's
          own error; with ``"axis"``, what the abstraction costs);
          ``duel_exploitability_compass_coarse`` and ``_fine`` the same on the coarser
          and the finer grid;
          ``sides_exploitability_compass`` (exact): the same against the
          own-directions two-against-two solutions on a small board;
        * ``draw_rate_<play>``, ``stall_rate_<play>``, ``rounds_<play>`` for heuristic
          (``straight``) and random play: games nobody wins, games still running at
          ``max_rounds``, mean length; Monte Carlo for random play, exact for
          ``straight``, which draws nothing at random (:data:`DETERMINISTIC`: every
          game is the same game, checked on the ``n_games`` simulated);
        * ``coalition_neighbours``, ``coalition_opposite``, ``coalition_trio``
          (exact): what N+E, N+S and N+E+S can guarantee themselves;
        * ``least_core_epsilon`` and ``core_empty`` (exact).

    Examples
    --------
    >>> card = balance(Rules(radius=1, capital=10, bid_step=5), n_games=500,
    ...                duel_grid=5, coalition_grid=5, jobs=1, compass=False)
    >>> card = card.set_index("metric")
    >>> float(card.loc["duel_value_lead", "value"]), float(card.loc["duel_draw_start", "value"])
    (0.5, 1.0)
    """
    rules = Rules.check(rules)
    n_games = check_count("n_games", n_games, 2)
    g_duel, g_coarse, g_fine = _duel_grids(rules, duel_grid, fine_grid)
    g_coal = grid_for(rules, coalition_grid, "coalition_grid")
    root = as_seed_sequence(seed)
    jobs = check_count("jobs", jobs, 1)
    compass_capital = check_count("compass_capital", compass_capital, 1)
    compass = check_bool("compass", compass)
    duel_directions = check_choice("duel_directions", duel_directions, tuple(DIRECTION_SETS))
    coalition_text = str(g_coal)
    pool = None
    if jobs > 1:  # coalitions in a second process, the rest here
        quiet_resource_tracker()
        # the worker ends with this process, even when it is killed (SIGKILL)
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=exit_with_parent, initargs=(os.getpid(),))
    try:
        if pool is not None:
            coalitions = pool.submit(_coalition_entries, rules, g_coal)
        entries = _main_entries(rules, (g_duel, g_coarse, g_fine), n_games, root,
                                compass_capital if compass else None, duel_directions)
        if pool is not None:
            entries.update(coalitions.result())
        else:
            entries.update(_coalition_entries(rules, g_coal))
    except BaseException:  # an error or Ctrl-C: the coalition solve stops now
        if pool is not None:
            stop_pool(pool)
            pool = None
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    board = COMPASS_BOARD
    return build_card(METRICS, entries, duel_grid=g_duel, coarse_grid=g_coarse, fine_grid=g_fine,
                      duel_directions=DIRECTION_WORDS[duel_directions],
                      coalition_grid=coalition_text, n_players=rules.n_players,
                      max_rounds=rules.max_rounds, compass_radius=board["radius"],
                      compass_capital=compass_capital, compass_step=board["bid_step"],
                      compass_sides=" and ".join(board["sides"]))  # fmt: skip


def card_seconds(rules: Rules | None = None, **options) -> float:
    """Seconds the exact solves of ``balance(rules, **options)`` are expected to take,
    from the rules alone: the solvers' own estimates (:func:`citadel.whole_game.
    solve_time` for the duel on its three grids, :func:`citadel.sides.sides_size` for each
    coalition class), on the grids :func:`balance` itself would use.

    Examples
    --------
    >>> card_seconds(Rules(capital=300)) > card_seconds(Rules()) > 0
    True
    """
    import inspect

    from citadel.sides import sides_size
    from citadel.whole_game import solve_time

    rules = Rules.check(rules)
    params = inspect.signature(balance).parameters
    duel_grid = options.get("duel_grid", params["duel_grid"].default)
    fine_grid = options.get("fine_grid", params["fine_grid"].default)
    coalition_grid = options.get("coalition_grid", params["coalition_grid"].default)
    directions = options.get("duel_directions", params["duel_directions"].default)
    duel = dataclasses.replace(rules, n_players=2)
    seconds = sum(solve_time(dataclasses.replace(duel, bid_step=g), directions).seconds
                  for g in set(_duel_grids(rules, duel_grid, fine_grid)))  # fmt: skip
    four = dataclasses.replace(rules, n_players=4,
                               bid_step=grid_for(rules, coalition_grid, "coalition_grid"))
    return float(seconds + sum(sides_size(four, name).seconds
                               for name in coalition_classes(four)))  # fmt: skip


def _duel_grids(rules: Rules, duel_grid: int, fine_grid: int | None) -> tuple[int, int, int]:
    """The 1 vs 1 bid grids of the card: the duel's, the one twice as coarse and the
    finer one (``None``: 2, or the duel's when finer), each a multiple of ``bid_step``."""
    g_duel = grid_for(rules, duel_grid, "duel_grid")
    if fine_grid is None:
        fine_grid = min(2, duel_grid)
    g_fine = grid_for(rules, fine_grid, "fine_grid")
    if fine_grid > duel_grid:
        raise ValueError(f"fine_grid must be at most duel_grid={duel_grid}, got {fine_grid}")
    return g_duel, grid_for(rules, 2 * g_duel, "duel_grid"), g_fine


def _main_entries(rules: Rules, grids: tuple[int, int, int], n_games: int, root,
                  compass_capital: int | None, directions: str = "all") -> dict:  # fmt: skip
    """The 1 vs 1 rows on the ``grids`` (the duel's, the coarser and the finer one),
    their exploitability and the simulated rows."""
    entries = {}
    solved = {}
    for g in dict.fromkeys(grids):  # each grid solved once
        solved[g] = solve_duel_game(dataclasses.replace(rules, n_players=2, bid_step=g),
                                    directions)  # fmt: skip
    g_duel, g_coarse, g_fine = grids
    duel, coarse, fine = solved[g_duel], solved[g_coarse], solved[g_fine]
    size = duel.values.size
    entries["duel_grid"] = exact(g_duel, 0)
    entries["duel_coarse_grid"] = exact(g_coarse, 0)
    entries["duel_fine_grid"] = exact(g_fine, 0)
    entries["duel_value_start"] = exact(duel.value(), size)
    entries["duel_value_lead"] = exact(duel.value(1), size)
    entries["duel_value_lead_coarse"] = exact(coarse.value(1), coarse.values.size)
    entries["duel_value_lead_fine"] = exact(fine.value(1), fine.values.size)
    draw = stall_odds(duel).draw
    entries["duel_draw_start"] = exact(draw, size)
    entries["duel_draw_start_fine"] = exact(draw if fine is duel else stall_odds(fine).draw,
                                            fine.values.size)  # fmt: skip
    # each grid's solution against best responses over every legal order, checked once
    gains = ({g: check_solution(solved[g], "all", progress=False).exploitability
              for g in solved} if compass_capital is not None else {})
    for metric, g in (("duel_exploitability_compass", g_duel),
                      ("duel_exploitability_compass_coarse", g_coarse),
                      ("duel_exploitability_compass_fine", g_fine)):  # fmt: skip
        entries[metric] = (exact(gains[g], solved[g].values.size) if gains
                           else exact(None, 0))  # fmt: skip
    entries["sides_exploitability_compass"] = (
        _sides_exploitability(rules, compass_capital) if compass_capital is not None
        else exact(None, 0))

    for i, (name, agent) in enumerate(PLAY.items()):
        games = simulate_games(rules, agent, n_games, seed=task_seed(root, i))
        stalled = games.draws & (games.rounds >= rules.max_rounds)
        for metric, samples in (("draw_rate", games.draws), ("stall_rate", stalled),
                                ("rounds", games.rounds)):  # fmt: skip
            entries[f"{metric}_{name}"] = (_same_game(samples, agent)
                                           if agent in DETERMINISTIC
                                           else estimate(estimate_mean(samples)))  # fmt: skip
    return entries


def _same_game(samples, agent: str):
    """The exact figure of games between deterministic ``agent`` players: every game
    is the same game (checked), so the mean is the figure of each."""
    samples = np.asarray(samples, dtype=float)
    if samples.min() != samples.max():
        raise RuntimeError(f"games between deterministic {agent!r} players differ")
    return exact(samples[0], samples.size)


def _sides_exploitability(rules: Rules, capital: int):
    """The largest full-compass exploitability of the own-directions two-against-two
    solutions on :data:`COMPASS_BOARD` with ``capital`` a seat (``rules``' other knobs
    kept)."""
    board = COMPASS_BOARD
    small = dataclasses.replace(rules, n_players=4, radius=board["radius"], capital=capital,
                                bid_step=board["bid_step"])  # fmt: skip
    gains, states = [], 0
    for side in board["sides"]:
        sol = solve_sides(small, side)
        gains.append(float(compass_check(sol)["exploitability"]))
        states += sol.values.size
    return exact(max(gains), states)


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

