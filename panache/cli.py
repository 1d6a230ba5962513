"""The Master Panache command line: ``python -m panache <subcommand> [options]``.

Subcommands (every rule knob of :class:`panache.Rules` is an option: ``--n-dice 6``,
``--face-values=-3,-2,-1,0,1,2``, ``--no-counter-attacks``...):

* ``advise``: the dice to set aside from one roll (``advise 6 5 5 3 1``, ``--kept``
  the dice already set aside) and the value of every distinct choice, best first
  (:func:`panache.advise`), for ``--utility`` or, with ``--points P --against Q``,
  for the solved duel's winning chance;
* ``turn``: the optimal turn roll (:func:`panache.solve_turn`) for ``--utility``;
  ``--show summary`` (value and outcome odds), ``policy`` (every decision) or
  ``distribution`` (P(total = t));
* ``duel``: the two-player game solved (:func:`panache.solve_duel`); ``--show
  summary`` (each seat's chance), ``win`` (the mover's chance in every state) or
  ``decisions`` (attacks, counters and stakes in every state);
* ``simulate``: ``--games`` simulated games (:func:`panache.simulate_games`) between
  ``--agents`` (one per seat of ``--n-players``; default: a rule-of-thumb player on
  every seat), or a ``--tournament`` over every seating (:func:`panache.tournament`);
  ``--jobs`` numba threads;
* ``balance``: the balance card (:func:`panache.balance`): one row per metric with its
  95 % interval, exact or Monte Carlo; ``compare``: the card of the rules given
  beside the seed's rules (or ``--baseline KNOB=V``, repeatable), each metric's
  difference with its interval, ``*`` where significant, and a verdict;
  ``--format md`` writes a Markdown card with one figure (:mod:`tabletop.balance`);
* ``sweep``: one of the analyses above (``balance``: one card per variant, ``--games``
  games per simulation) over a ``--grid`` of knobs
  (``--grid start_points=25,35,50 n_dice=4,5,6``), one row per variant, run by
  :func:`tabletop.sweep.sweep` on ``--jobs`` local processes or a dask scheduler
  (``--dask ADDRESS``); ``--store DIR`` keeps finished variants so a rerun resumes;
* ``report``: runs the Master Panache notebooks (:mod:`tabletop.notebooks`), which
  write their reports, then rebuilds the report index (:mod:`tabletop.index`).

Agents are written ``random``, ``duel``, ``three`` (the three-player solution),
``heuristic`` or
``heuristic:target=weakest,mp=always,min_level=3,counter=false,turn_policy=positive``
(the fields of :meth:`panache.Agent.heuristic`). Output: ``--format table|csv|json``.
A mistake prints one line ``error: ...`` on stderr and exits with a non-zero code.
"""

from __future__ import annotations

import functools

import pandas as pd

from panache.advise import advise
from panache.agents import Agent
from panache.duel import max_points, solve_duel
from panache.game import check_agents, simulate_games, tournament
from panache.rules import Rules
from panache.turn import solve_turn, utility_vector
from tabletop import cli
from tabletop.balance import balance_task
from tabletop.sweep import expand_grid

ANALYSES = ("turn", "duel", "simulate", "balance")
_AGENT_FIELDS = {"target": str, "min_level": int, "counter": bool, "mp": str,
                 "turn_policy": str, "label": str}  # fmt: skip


def parse_agent(spec: str) -> Agent:
    """An :class:`panache.Agent` from its command-line form (see the module docstring).

    Examples
    --------
    >>> parse_agent("heuristic:target=weakest,min_level=3").name
    'weakest/ev/L3/counter/mp-ahead'
    """
    kind = spec.partition(":")[0]
    kwargs = cli.parse_spec_options(spec, _AGENT_FIELDS)
    if kind == "heuristic":
        return Agent.heuristic(**kwargs)
    if kind in ("random", "duel", "three"):
        if set(kwargs) - {"label"}:
            raise ValueError(f"agent {spec!r}: a {kind} agent takes no options but label")
        return getattr(Agent, kind)(**kwargs)
    raise ValueError(
        f"agent {spec!r}: the kind must be heuristic, random, duel or three, got {kind!r}"
    )


def _agents(rules: Rules, specs) -> list[Agent]:
    """The agents of ``--agents``, one per seat of ``--n-players`` (default: a rule of
    thumb on every seat); another count is refused, never played as another game."""
    if not specs:
        return [Agent.heuristic()] * rules.n_players
    return list(check_agents(rules, [parse_agent(s) for s in specs], option="--agents"))


# --- the analyses, one row each: module-level so worker processes can import them ---


def turn_analysis(*, seed=None, utility: str = "ev", **knobs) -> dict:
    """The optimal turn roll for ``utility`` under ``Rules(**knobs)`` (one sweep row)."""
    rules = Rules(**knobs)
    sol = solve_turn(rules, utility)
    dist = sol.distribution
    totals = dist.index.to_numpy()
    return {
        "value": sol.value,
        "expected_total": float(dist.to_numpy() @ totals),
        "p_negative": float(dist[totals < 0].sum()),
        "p_zero": float(dist[totals == 0].sum()),
        "p_positive": float(dist[totals > 0].sum()),
        "expected_dice": sol.expected_dice,
    }


def duel_analysis(*, seed=None, **knobs) -> dict:
    """The two-player game solved under ``Rules(**knobs)`` (one sweep row)."""
    rules = Rules(**knobs)
    sol = solve_duel(rules)
    return {
        "first_player_win": sol.first_player_win,
        "second_player_win": 1.0 - sol.first_player_win,
        "max_points": max_points(rules),
    }


def simulate_analysis(*, seed=None, games: int = 10_000, agents=(), **knobs) -> dict:
    """Win rates of simulated games under ``Rules(**knobs)`` (one sweep row).

    ``agents`` are command-line agent specs (default: ``n_players`` rule-of-thumb
    players); the columns are each seat's win rate and the mean game length.
    """
    rules = Rules(**knobs)
    res = simulate_games(rules, _agents(rules, agents), games, seed=seed)
    rates = res.win_rates()
    row = {"mean_turns": float(res.stats["turns"].mean())}
    row.update({f"seat_{seat}_win": float(rate) for seat, rate in rates["win_rate"].items()})
    return row


_ANALYSIS = {"turn": turn_analysis, "duel": duel_analysis, "simulate": simulate_analysis,
             "balance": functools.partial(balance_task, game="panache")}  # fmt: skip


# --- the subcommands: args -> DataFrame ---


def _turn(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    if args.show == "summary":
        row = turn_analysis(utility=args.utility, **cli.rules_kwargs(args))
        return pd.DataFrame([row], index=pd.Index([args.utility], name="utility"))
    sol = solve_turn(rules, args.utility)
    if args.show == "policy":
        return sol.policy.to_frame(rules)
    return sol.distribution.to_frame()


def _advise(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    return advise(args.roll, args.kept, rules, args.utility, args.points, args.against)


def _duel(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    if args.show == "summary":
        row = duel_analysis(**cli.rules_kwargs(args))
        return pd.DataFrame([row], index=pd.Index(["duel"], name="game"))
    sol = solve_duel(rules)
    return sol.win if args.show == "win" else sol.decision_table()


def _simulate(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    agents = _agents(rules, args.agents)
    if args.tournament:
        return cli.with_threads(args.jobs, lambda: tournament(rules, agents, args.games, args.seed))
    res = cli.with_threads(
        args.jobs, lambda: simulate_games(rules, agents, args.games, seed=args.seed)
    )
    if args.show == "stats":
        return res.stats.mean().rename("mean").rename_axis("statistic").to_frame()
    return res.win_rates()


def _sweep(args) -> pd.DataFrame:
    base = cli.rules_kwargs(args)
    grid = cli.sweep_grid(args, Rules, base)
    for variant in expand_grid(grid):  # every variant checked before any work starts
        Rules(**base, **variant)
    fixed = dict(base)
    if args.analysis == "turn":
        utility_vector(Rules(**base), args.utility)  # a bad --utility fails here, once
        fixed["utility"] = args.utility
    elif args.analysis == "balance":
        fixed["n_games"] = args.games
    elif args.analysis == "simulate":
        fixed.update(games=args.games, agents=tuple(args.agents or ()))
        for variant in expand_grid(grid):  # one agent per seat of every variant
            _agents(Rules(**base, **variant), fixed["agents"])
    return cli.run_sweep(args, "panache", _ANALYSIS[args.analysis], grid, fixed)


def build_parser() -> cli.ArgumentParser:
    """The argument parser of ``python -m panache``."""
    parser = cli.ArgumentParser(
        prog="python -m panache",
        description="Master Panache: exact odds, solved duels, simulations and variant sweeps.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, seed: bool = True, jobs: bool = True):
        sub = cli.add_command(commands, name, help, run, Rules, seed=seed, jobs=jobs)
        return sub

    def utility(sub):
        sub.add_argument(
            "--utility",
            default="ev",
            help="what the turn maximises: ev, zero, positive or at_least:K (default: ev)",
        )

    def simulation(sub, games: int):
        sub.add_argument(
            "--games", type=int, default=games, help=f"games to simulate (default: {games})"
        )
        sub.add_argument(
            "--agents",
            nargs="+",
            metavar="AGENT",
            help="one agent per seat of --n-players (default: heuristic on every seat)",
        )

    sub = command("advise", "the best dice to keep from a roll, and every choice's value",
                  _advise, seed=False, jobs=False)  # fmt: skip
    sub.add_argument("roll", nargs="+", type=int, metavar="FACE", help="the dice just rolled")
    sub.add_argument("--kept", nargs="+", type=int, default=(), metavar="FACE",
                     help="the dice set aside earlier in this turn roll")  # fmt: skip
    sub.add_argument(
        "--utility",
        default=None,
        help="what the turn maximises: ev, zero, positive or at_least:K (default: ev)",
    )
    sub.add_argument("--points", type=int, default=None,
                     help="your points: value choices by the solved duel's winning chance")
    sub.add_argument("--against", type=int, default=None, help="your opponent's points")
    sub = command("turn", "the optimal turn roll", _turn, seed=False, jobs=False)
    utility(sub)
    sub.add_argument("--show", choices=("summary", "policy", "distribution"), default="summary")
    sub = command("duel", "the two-player game solved exactly", _duel, seed=False, jobs=False)
    sub.add_argument("--show", choices=("summary", "win", "decisions"), default="summary")
    sub = command("simulate", "simulated games between agents", _simulate)
    simulation(sub, 10_000)
    sub.add_argument("--tournament", action="store_true", help="rotate the agents over every seat")
    sub.add_argument(
        "--show",
        choices=("win", "stats"),
        default="win",
        help="win rates per seat, or mean game statistics",
    )
    sub = command("sweep", "an analysis over a grid of rule variants", _sweep)
    cli.add_sweep_options(sub, ANALYSES, "n_dice=4,5,6 start_points=25,35")
    utility(sub)
    simulation(sub, 2_000)
    cli.add_balance_commands(commands, "panache", Rules)
    cli.add_report_command(commands, "Master Panache", "panache_*.ipynb", game="panache",
                           rules=Rules)
    return parser


@cli.one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m panache`` with ``argv`` (default: the process's arguments)."""
    return cli.run_command(build_parser(), argv)
