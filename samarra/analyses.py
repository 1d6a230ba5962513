"""The Ce soir, à Samarra balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): the setup game and the adjudicated game solved exactly from
the perfect-information table (read from the disk cache when it is there, else solved
and cached; a solve says its estimated time before it starts; the adjudicated game's
two figures are cached beside the table, :func:`horizon_row`), and played games of
hidden-information self-play. The list is fixed, so the cards of two variants line up
(``python -m samarra compare``).
"""

from __future__ import annotations

import dataclasses
import logging
import sys
from pathlib import Path

import numpy as np

from samarra.agents import DeterminizingAgent
from samarra.horizon import horizon_size, solve_horizon
from samarra.position import setups
from samarra.rules import Rules
from samarra.setup import setup_game
from samarra.simulate import play_games
from samarra.solve import cache_path, check_solvable, load_table, n_states, solve
from tabletop.balance import Metric, build_card, estimate, exact
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.stats import estimate_mean
from tabletop.sweep import task_seed

logger = logging.getLogger(__name__)

#: Positions per second of the retrograde solve on 2 cores (README benchmarks, 3 x 5).
SOLVE_RATE = 1.1e6

#: States per second of the adjudicated game's induction over the reachable states on 2
#: cores (measured on 3 x 4 to 60 actions and 3 x 5 to 10).
HORIZON_RATE = 2e6
HORIZON_VERSION = 1

#: The card's rows, in order.
METRICS = (
    Metric("setup_value_first_mover", "exact", "score",
           "value of the setup game to the side that moves first, perfect information "
           "(setup_game; n: positions solved)"),
    Metric("setup_pairs_first_mover_wins", "exact", "share",
           "share of setup pairs the first mover wins with perfect information"),
    Metric("setup_pairs_drawn", "exact", "share",
           "share of setup pairs drawn with perfect information"),
    Metric("setup_pairs_second_mover_wins", "exact", "share",
           "share of setup pairs the second mover wins with perfect information"),
    Metric("horizon_value_first_mover", "exact", "score",
           "value of the setup game to the first mover when the tie-break decides after "
           "{horizon} actions (solve_horizon)"),
    Metric("horizon_pairs_drawn", "exact", "share",
           "share of setup pairs drawn after {horizon} actions and the tie-break"),
    Metric("selfplay_first_mover_edge", "monte carlo", "score",
           "P(first mover wins) - P(second mover wins) in hidden-information self-play "
           "(DeterminizingAgent on both sides, random setups)"),
    Metric("selfplay_draws", "monte carlo", "probability",
           "share of those self-play games drawn"),
    Metric("selfplay_actions", "monte carlo", "actions",
           "mean length of those self-play games, in actions"),
)  # fmt: skip

#: What the verdict of ``compare`` speaks of.
VERDICT = {
    "headlines": {"setup_value_first_mover": "the setup game's value to the first mover",
                  "selfplay_first_mover_edge": "the first mover's edge in self-play"},
    "length": "selfplay_actions",
}  # fmt: skip


def solvable_rules(rules: Rules) -> Rules:
    """The rules the perfect-information solve uses (the played-game knobs dropped)."""
    return dataclasses.replace(rules, max_actions=Rules().max_actions, horizon=None)


def solve_estimate(rules: Rules, cache_dir=None) -> float:
    """Seconds the table of ``rules`` would take to solve (0 when it is cached).

    Examples
    --------
    >>> solve_estimate(Rules(), cache_dir="/nonexistent") > 60
    True
    """
    rules = check_solvable(solvable_rules(rules))
    path = cache_path(rules, cache_dir)
    n = n_states(rules)
    if path.is_file() and load_table(path, rules, n) is not None:
        return 0.0
    return n / SOLVE_RATE


def card_seconds(rules: Rules | None = None, **options) -> float:
    """Seconds the long work of ``balance(rules, **options)`` is expected to take: the
    perfect-information table's solve (:func:`solve_estimate`; 0 when it is cached).

    Examples
    --------
    >>> card_seconds(Rules(width=4, length=6), cache_dir="/nonexistent") > 60
    True
    """
    return solve_estimate(Rules.check(rules), options.get("cache_dir"))


def horizon_row(table, horizon: int, cache_dir=None, bar=None) -> dict:
    """The adjudicated game's summary row at ``horizon`` (:func:`samarra.solve_horizon`),
    kept beside the solved table in the cache folder: the induction over the states
    reachable in ``horizon`` actions takes seconds on 3 x 5 to 10 actions, and its
    answer is two numbers.
    """
    import json

    from samarra.solve import cache_dir as default_cache_dir
    from tabletop.files import atomic_write_text, warn_if_unwritable

    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    path = folder / f"horizon-{table.rules.solver_key()}-H{horizon}-v{HORIZON_VERSION}.json"
    try:
        row = json.loads(path.read_text(encoding="utf-8"))
        if set(row) == {"value to first mover", "draw"}:
            return row
    except (OSError, ValueError):
        pass
    pairs = len(setups(table.rules)) ** 2
    seconds = horizon_size(n_states(table.rules), pairs, horizon).seconds
    message = f"solving the adjudicated game to horizon {horizon}: about {seconds:.0f} s"
    logger.warning(message)
    if bar is not None:
        bar.set_description(message)
    summary = solve_horizon(table=table, max_horizon=horizon).summary.loc[horizon]
    row = {k: float(summary[k]) for k in ("value to first mover", "draw")}
    with warn_if_unwritable(path, f"the horizon-{horizon} row"):  # the row is returned
        atomic_write_text(path, json.dumps(row) + "\n")
    return row


def balance(rules: Rules | None = None, *, n_games: int = 2000, seed=0,
            adjudication_horizon: int = 10, cache_dir=None,
            progress: bool | None = None):  # fmt: skip
    """The balance card of ``rules`` (default: the 3 x 5 board of docs/rules.md).

    Parameters
    ----------
    rules : Rules, optional
        The rules. Their ``horizon``, when set, is the adjudicated game's horizon.
    n_games : int
        Self-play games (default 2,000, the size of a headline figure: the card's
        self-play figures are quoted by the index; a game on 3 x 5 takes about
        0.01 s).
    seed : None, int, SeedSequence or Generator
        Root seed; the self-play games run on its child 0
        (:func:`tabletop.sweep.task_seed`).
    adjudication_horizon : int
        Actions before the tie-break in the adjudicated game when ``rules.horizon``
        is None (default 10; the first actions cost most: minutes on 3 x 5, then
        cached beside the table).
    cache_dir : path-like, optional
        Folder of solved tables (default :func:`samarra.solve.cache_dir`).
    progress : bool, optional
        Show a progress bar over the card's steps (default: when stderr is a terminal).

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``setup_value_first_mover`` (exact): the setup game's value to the first mover;
        * ``setup_pairs_first_mover_wins``, ``setup_pairs_drawn``,
          ``setup_pairs_second_mover_wins`` (exact): shares of setup pairs;
        * ``horizon_value_first_mover``, ``horizon_pairs_drawn`` (exact): the same game
          adjudicated after ``rules.horizon`` (else ``adjudication_horizon``) actions;
        * ``selfplay_first_mover_edge``, ``selfplay_draws``, ``selfplay_actions`` (MC):
          hidden-information self-play of two determinizing agents.

    Examples
    --------
    >>> card = balance(Rules(length=3), n_games=10, adjudication_horizon=4)
    >>> float(card.set_index("metric").loc["setup_value_first_mover", "value"])
    -0.1
    """
    from tqdm import tqdm

    from tabletop.validate import check_bool, check_path

    rules = Rules.check(rules)
    check_path("cache_dir", cache_dir, optional=True)
    if progress is not None:
        progress = check_bool("progress", progress)
    n_games = check_count("n_games", n_games, 2)
    horizon = rules.horizon if rules.horizon is not None else adjudication_horizon
    horizon = check_count("adjudication_horizon", horizon)
    root = as_seed_sequence(seed)
    solved = check_solvable(solvable_rules(rules))
    show = sys.stderr.isatty() if progress is None else progress
    seconds = solve_estimate(solved, cache_dir)
    steps = ["table", "setup game", f"horizon {horizon}", "self-play"]
    with tqdm(total=len(steps), disable=not show, file=sys.stderr, unit="step",
              desc="samarra card") as bar:  # fmt: skip
        if seconds:
            message = (f"solving the {solved.width} x {solved.length} table "
                       f"({n_states(solved):,} positions): about {seconds:.0f} s")  # fmt: skip
            logger.warning(message)
            bar.set_description(message)
        table = solve(solved, directory=cache_dir)
        bar.update()
        bar.set_description("samarra card")
        states = int(n_states(solved))
        entries = {}
        game = setup_game(table=table)
        shares = game.outcome_shares()
        first, second = ("black wins", "white wins") if solved.first_side == 0 else \
                        ("white wins", "black wins")  # fmt: skip
        entries["setup_value_first_mover"] = exact(game.first_move_value, states)
        entries["setup_pairs_first_mover_wins"] = exact(shares[first], states)
        entries["setup_pairs_drawn"] = exact(shares["draw"], states)
        entries["setup_pairs_second_mover_wins"] = exact(shares[second], states)
        bar.update()
        row = horizon_row(table, horizon, cache_dir, bar)
        entries["horizon_value_first_mover"] = exact(row["value to first mover"], states)
        entries["horizon_pairs_drawn"] = exact(row["draw"], states)
        bar.update()
        agent = DeterminizingAgent(table)
        games = play_games(rules, agent, agent, n_games, seed=task_seed(root, 0))
        winner = games["winner"].to_numpy()
        edge = np.where(winner == solved.first_side, 1.0, np.where(winner < 0, 0.0, -1.0))
        entries["selfplay_first_mover_edge"] = estimate(estimate_mean(edge))
        entries["selfplay_draws"] = estimate(estimate_mean(winner < 0))
        entries["selfplay_actions"] = estimate(estimate_mean(games["actions"].to_numpy()))
        bar.update()
    return build_card(METRICS, entries, horizon=horizon)


def tournament_games(rules: Rules, agents: dict, n_games: int, seed=None,
                     pairings: list | None = None) -> dict:  # fmt: skip
    """The games behind :func:`samarra.tournament`, one DataFrame per pairing.

    The same seed gives the very games the tournament summarises (each pairing's games
    are drawn, in order, from one generator seeded by ``seed``), so that a report can
    give every share of a pairing, and its mean length, with an interval
    (:func:`results_summary`).

    Parameters
    ----------
    rules : Rules
    agents : dict
        Name -> agent.
    n_games : int
        Games per pairing, at least 1.
    seed : None, int, SeedSequence or Generator
        Seeds every pairing's games, as in :func:`samarra.tournament`.
    pairings : list of (str, str), optional
        The (Black, White) name pairs to play (default: every ordered pair).

    Returns
    -------
    dict
        (black name, white name) -> the games (columns of :func:`samarra.play_games`).

    Examples
    --------
    >>> from samarra.agents import RandomAgent
    >>> games = tournament_games(Rules(length=3), {"random": RandomAgent()}, 3, seed=0)
    >>> list(games), len(games[("random", "random")])
    ([('random', 'random')], 3)
    """
    from tabletop.seeding import as_generator

    rules = Rules.check(rules, default=False)
    if not isinstance(agents, dict) or len(agents) < 1:
        raise ValueError(f"agents must be a non-empty dict name -> agent, got {agents!r:.80}")
    n_games = check_count("n_games", n_games, 1)
    if pairings is None:
        pairings = [(b, w) for b in agents for w in agents]
    if isinstance(pairings, str | bytes) or not hasattr(pairings, "__iter__"):
        raise TypeError(f"pairings must be a list of (black name, white name) or None, got "
                        f"{pairings!r:.80}")  # fmt: skip
    pairings = [tuple(p) if isinstance(p, tuple | list) else p for p in pairings]
    for pair in pairings:
        if not isinstance(pair, tuple) or len(pair) != 2 or pair[0] not in agents \
                or pair[1] not in agents:  # fmt: skip
            raise ValueError(f"pairings must name agents of {list(agents)}, got {pair!r}")
    seeds = as_generator(seed)
    return {(b, w): play_games(rules, agents[b], agents[w], n_games, seed=seeds, progress=False)
            for b, w in pairings}  # fmt: skip


def results_summary(games) -> dict:
    """A pairing's results as counts with Wilson 95 % intervals, and its mean length
    with a normal 95 % interval.

    Parameters
    ----------
    games : pandas.DataFrame
        Played games (columns ``winner``: 0 Black, 1 White, -1 a draw; ``actions``), at
        least two.

    Returns
    -------
    dict
        ``games`` (n); ``black wins``, ``draws``, ``white wins`` (counts, summing to n),
        each with ``... low`` and ``... high`` (the Wilson 95 % interval of its share);
        ``mean actions`` with ``mean actions low`` and ``mean actions high``.

    Examples
    --------
    >>> import pandas as pd
    >>> games = pd.DataFrame({"winner": [0, 0, -1, 1], "actions": [3, 5, 7, 9]})
    >>> s = results_summary(games)
    >>> s["games"], s["black wins"], s["draws"], s["white wins"], s["mean actions"]
    (4, 2, 1, 1, 6.0)
    """
    import pandas as pd

    from tabletop.stats import proportion_ci

    if not isinstance(games, pd.DataFrame) or not {"winner", "actions"} <= set(games.columns):
        raise TypeError(f"games must be a DataFrame with columns 'winner' and 'actions', "
                        f"got {games!r:.80}")  # fmt: skip
    if len(games) < 2:
        raise ValueError(f"games must hold at least 2 games, got {len(games)}")
    winner = games["winner"].to_numpy()
    if not np.isin(winner, (-1, 0, 1)).all():
        raise ValueError(f"games['winner'] must be 0, 1 or -1, got {sorted(set(winner))}")
    n = len(games)
    out = {"games": n}
    for name, code in (("black wins", 0), ("draws", -1), ("white wins", 1)):
        k = int((winner == code).sum())
        low, high = proportion_ci(k, n)
        out.update({name: k, f"{name} low": low, f"{name} high": high})
    length = estimate_mean(games["actions"].to_numpy(dtype=float))
    low, high = length.ci()
    out.update({"mean actions": length.mean, "mean actions low": low,
                "mean actions high": high})  # fmt: skip
    return out
