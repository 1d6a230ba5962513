"""The Ce soir, à Samarra command line: ``python -m samarra <subcommand> [options]``.

Subcommands (every rule knob of :class:`samarra.Rules` is an option: ``--length 3``,
``--adjacency king``, ``--auto-death``...):

* ``solve``: the perfect-information table of a board solved by retrograde analysis
  (:func:`samarra.solve`): the shares of states won, lost and drawn for the side to
  move; with ``--position FILE`` (a text board, :func:`samarra.parse_position`) the
  position's value and the value of each legal action;
* ``setup``: the setup game (:func:`samarra.setup_game`): ``--show summary`` (its
  value to Black and to the first mover, outcome shares), ``payoff`` (Black's result
  for each pair of setups) or ``strategy`` (both optimal mixed setups);
* ``play``: ``--games`` hidden-information games between ``--black`` and ``--white``
  agents (:func:`samarra.play_games`), one row per game;
* ``tournament``: every ordered pair of ``--agents`` (:func:`samarra.tournament`);
* ``balance``: the balance card (:func:`samarra.balance`): one row per metric with its
  95 % interval, exact or Monte Carlo; ``compare``: the card of the rules given
  beside the seed's rules (or ``--baseline KNOB=V``, repeatable), each metric's
  difference with its interval, ``*`` where significant, and a verdict;
  ``--format md`` writes a Markdown card with one figure (:mod:`tabletop.balance`);
* ``sweep``: ``solve`` (one :func:`samarra.compare_variants` row per variant),
  ``play`` or ``balance`` (one card per variant) over a ``--grid`` of knobs
  (``--grid length=3,4 adjacency=orthogonal,king``),
  run by :func:`tabletop.sweep.sweep` on ``--jobs`` local processes or a dask
  scheduler (``--dask ADDRESS``); ``--store DIR`` keeps finished variants;
* ``report``: runs the Samarra notebooks (:mod:`tabletop.notebooks`), which write
  their reports, then rebuilds the report index (:mod:`tabletop.index`).

Agents are written ``random``, ``greedy``, ``determinizing`` or
``ismcts:iterations=200,depth=4`` (the last two read the solved table). Solved tables
are cached on disk (``--cache-dir DIR``, default :func:`samarra.solve.cache_dir`).
Output: ``--format table|csv|json``. A mistake prints one line ``error: ...`` on
stderr and exits with a non-zero code.
"""

from __future__ import annotations

import functools
from dataclasses import fields

import pandas as pd

from samarra import analyses
from samarra.agents import DeterminizingAgent, GreedyAgent, ISMCTSAgent, RandomAgent
from samarra.position import parse_position
from samarra.rules import Rules
from samarra.setup import setup_game
from samarra.simulate import play_games, tournament
from samarra.solve import check_solvable, solve
from samarra.variants import compare_variants
from tabletop import cli
from tabletop.balance import balance_task
from tabletop.files import read_user_text
from tabletop.sweep import expand_grid
from tabletop.validate import check_float, check_int

ANALYSES = ("solve", "play", "balance")
AGENT_KINDS = ("random", "greedy", "determinizing", "ismcts")
_AGENT_FIELDS = {"determinizing": {"use_merchant": bool},
                 "ismcts": {"iterations": int, "depth": int, "exploration": float}}  # fmt: skip


def parse_agent(spec: str, table_of=None):
    """An agent from its command-line form (see the module docstring).

    ``table_of()`` returns the solved table the table-reading agents need.

    Examples
    --------
    >>> type(parse_agent("greedy")).__name__
    'GreedyAgent'
    >>> parse_agent("greedy:depth=3")
    Traceback (most recent call last):
    ...
    ValueError: agent 'greedy:depth=3': a greedy agent takes no options
    """
    kind = spec.partition(":")[0]
    if kind not in AGENT_KINDS:
        raise ValueError(f"agent {spec!r}: the kind must be one of {', '.join(AGENT_KINDS)}")
    kwargs = cli.parse_spec_options(spec, _AGENT_FIELDS.get(kind, {}))
    # the agent checks its options again; checked here, a bad one costs no solve first
    for key in ("iterations", "depth"):
        if key in kwargs:
            check_int(f"agent {key}", kwargs[key], 1)
    if "exploration" in kwargs:
        check_float("agent exploration", kwargs["exploration"], 0.0)
    if kind == "random":
        return RandomAgent()
    if kind == "greedy":
        return GreedyAgent()
    table = table_of()
    return (
        DeterminizingAgent(table, **kwargs)
        if kind == "determinizing"
        else (ISMCTSAgent(table, **kwargs))
    )


def _table_maker(rules: Rules, cache_dir):
    tables = {}

    def table_of():
        if "table" not in tables:  # only the table-reading agents solve
            tables["table"] = solve(_solvable(rules), directory=cache_dir)
        return tables["table"]

    return table_of


def _solvable(rules: Rules) -> Rules:
    """The rules the perfect-information solve uses (played-game knobs dropped)."""
    import dataclasses

    return dataclasses.replace(rules, max_actions=Rules().max_actions, horizon=None)


# --- the analyses, one row each: module-level so worker processes can import them ---


def solve_analysis(*, seed=None, cache_dir=None, **knobs) -> dict:
    """One :func:`samarra.compare_variants` row for ``Rules(**knobs)`` (one sweep row)."""
    rules = Rules(**knobs)
    row = compare_variants({"v": rules}, directory=cache_dir).iloc[0]
    knob_names = {f.name for f in fields(Rules)}
    return {k: v for k, v in row.items() if k not in knob_names}


def play_analysis(*, seed=None, games: int = 100, black: str = "greedy",
                  white: str = "random", cache_dir=None, **knobs) -> dict:  # fmt: skip
    """Shares of Black wins, draws and White wins of played games (one sweep row)."""
    rules = Rules(**knobs)
    table_of = _table_maker(rules, cache_dir)
    res = play_games(rules, parse_agent(black, table_of), parse_agent(white, table_of),
                     games, seed=seed)  # fmt: skip
    return {
        "black_wins": float((res["winner"] == 0).mean()),
        "draws": float((res["winner"] == -1).mean()),
        "white_wins": float((res["winner"] == 1).mean()),
        "mean_actions": float(res["actions"].mean()),
    }


_ANALYSIS = {"solve": solve_analysis, "play": play_analysis,
             "balance": functools.partial(balance_task, game="samarra")}  # fmt: skip


# --- the subcommands: args -> DataFrame ---


def _solve(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    position = None
    if args.position is not None:
        position = parse_position(read_user_text(args.position), rules)
    table = solve(check_solvable(rules), directory=args.cache_dir)
    if position is None:
        total = sum(table.counts.values())
        row = {"states": total, **{k: v / total for k, v in table.counts.items()}}
        return pd.DataFrame([row], index=pd.Index([rules.solver_key()], name="rules"))
    value = table.value(position)
    rows = [{"action": "(position)", "outcome": value.outcome, "distance": value.distance}]
    rows += [{"action": str(a), "outcome": v.outcome, "distance": v.distance}
             for a, v in table.action_values(position).items()]  # fmt: skip
    return pd.DataFrame(rows).set_index("action")


def _setup(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    game = setup_game(check_solvable(rules), directory=args.cache_dir)
    if args.show == "payoff":
        return game.payoff
    if args.show == "strategy":
        return pd.DataFrame({"black": game.black, "white": game.white}).rename_axis("setup")
    shares = game.outcome_shares()
    row = {"value_black": game.value, "value_first_mover": game.first_move_value}
    row.update({k.replace(" ", "_"): float(v) for k, v in shares.items()})
    row["gap"] = game.gap
    return pd.DataFrame([row], index=pd.Index([rules.solver_key()], name="rules"))


def _play(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    table_of = _table_maker(rules, args.cache_dir)
    black, white = parse_agent(args.black, table_of), parse_agent(args.white, table_of)
    return play_games(rules, black, white, args.games, seed=args.seed)


def _tournament(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    table_of = _table_maker(rules, args.cache_dir)
    if len(set(args.agents)) != len(args.agents):
        raise ValueError(f"agents must be different, got {' '.join(args.agents)}")
    agents = {spec: parse_agent(spec, table_of) for spec in args.agents}
    return tournament(rules, agents, args.games, seed=args.seed)


def _sweep(args) -> pd.DataFrame:
    base = cli.rules_kwargs(args)
    grid = cli.sweep_grid(args, Rules, base)
    for variant in expand_grid(grid):  # every variant checked before any work starts
        rules = Rules(**base, **variant)
        if args.analysis in ("solve", "balance"):
            check_solvable(analyses.solvable_rules(rules))
    fixed = dict(base, cache_dir=args.cache_dir)
    if args.analysis == "play":
        for spec in (args.black, args.white):
            parse_agent(spec, lambda: None)
        fixed.update(games=args.games, black=args.black, white=args.white)
    elif args.analysis == "balance":
        fixed.update(n_games=args.games, progress=False)
    return cli.run_sweep(args, "samarra", _ANALYSIS[args.analysis], grid, fixed)


def build_parser() -> cli.ArgumentParser:
    """The argument parser of ``python -m samarra``."""
    parser = cli.ArgumentParser(
        prog="python -m samarra",
        description="Ce soir, à Samarra: solved boards, the setup game, played games, sweeps.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, seed: bool = True, jobs: bool = True):
        sub = cli.add_command(commands, name, help, run, Rules, seed=seed, jobs=jobs)
        sub.add_argument(
            "--cache-dir", default=None, metavar="DIR",
            help="where solved tables are cached (default: ~/.cache/tabletop/samarra)",
        )  # fmt: skip
        return sub

    def games(sub, n: int):
        sub.add_argument("--games", type=int, default=n, help=f"games to play (default: {n})")

    def pair(sub):
        sub.add_argument("--black", default="greedy", help="Black's agent (default: greedy)")
        sub.add_argument("--white", default="random", help="White's agent (default: random)")

    sub = command("solve", "the perfect-information table of a board", _solve,
                  seed=False, jobs=False)  # fmt: skip
    sub.add_argument(
        "--position", default=None, metavar="FILE",
        help="a text board: its value and the value of each legal action",
    )  # fmt: skip
    sub = command("setup", "the setup game solved", _setup, seed=False, jobs=False)
    sub.add_argument("--show", choices=("summary", "payoff", "strategy"), default="summary")
    sub = command("play", "hidden-information games between two agents", _play, jobs=False)
    games(sub, 10)
    pair(sub)
    sub = command("tournament", "every ordered pair of agents", _tournament, jobs=False)
    games(sub, 20)
    sub.add_argument(
        "--agents", nargs="+", metavar="AGENT", default=["random", "greedy"],
        help=f"agents of {', '.join(AGENT_KINDS)} (default: random greedy)",
    )  # fmt: skip
    sub = command("sweep", "an analysis over a grid of rule variants", _sweep)
    cli.add_sweep_options(sub, ANALYSES, "length=3,4 adjacency=orthogonal,king")
    games(sub, 100)
    pair(sub)
    cli.add_balance_commands(commands, "samarra", Rules)
    cli.add_report_command(commands, "Samarra", "samarra*.ipynb", game="samarra",
                           rules=Rules)
    return parser


@cli.one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m samarra`` with ``argv`` (default: the process's arguments)."""
    return cli.run_command(build_parser(), argv)
