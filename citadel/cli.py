"""The Master Citadel command line: ``python -m citadel <subcommand> [options]``.

Subcommands (every rule knob of :class:`citadel.Rules` is an option: ``--radius 2``,
``--n-players 3``, ``--payment winners``, ``--bid-step 5``...):

* ``resolve``: one round of orders (:func:`citadel.resolve`), one order per seat in
  seat order (N, E, S, W), written ``32N``, ``32:NE`` or ``"32 NE"`` (``0`` or ``-``
  for an abstention); ``--capitals`` checks the amounts against each seat's capital.
  One row: the pawn's move, then what each seat pays and who loses the tie point;
* ``simulate``: ``--games`` games between heuristic ``--agents``
  (:data:`citadel.AGENTS`, one per seat or one for every seat) on the numba fast path
  (:func:`citadel.simulate_games`): each seat's mean score and the draw rate;
  ``--jobs`` numba threads (the numbers do not depend on it);
* ``solve``: the two-player game solved on the ``--bid-step`` grid
  (:func:`citadel.solve_duel_game`; ``--n-players`` defaults to 2 here);
  ``--show summary`` (the value from the start and both sides' chances,
  :func:`citadel.check_solution` with the solution's own ``--directions``),
  ``opening`` (each side's optimal mixed first order) or ``values`` (V in every
  state);
* ``sides``: two coalitions solved as sides (:func:`citadel.sides.solve_sides`),
  ``--side NE`` against the other seats (``--objective difference`` or ``score``):
  the value from the start, each side's score, the draw chance and exploitability;
* ``alliances``: every coalition's value with the seats' Shapley values and the least
  core (:func:`citadel.coalitions.alliance_analysis`);
* ``balance``: the balance card (:func:`citadel.balance`): one row per metric with its
  95 % interval, exact or Monte Carlo; ``compare``: the card of the rules given
  beside the seed's rules (or ``--baseline KNOB=V``, repeatable), each metric's
  difference with its interval, ``*`` where significant, and a verdict;
  ``--format md`` writes a Markdown card with one figure (:mod:`tabletop.balance`);
* ``sweep``: ``simulate``, ``solve`` or ``balance`` over a ``--grid`` of knobs
  (``--grid radius=1,2 capital=10,20``), one row per variant, run by
  :func:`tabletop.sweep.sweep` on ``--jobs`` local processes or a dask scheduler
  (``--dask ADDRESS``); ``--store DIR`` keeps finished variants so a rerun resumes;
* ``report``: runs the Master Citadel notebooks (:mod:`tabletop.notebooks`), which
  write their reports, then rebuilds the report index (:mod:`tabletop.index`).

Output: ``--format table|csv|json``. A mistake prints one line ``error: ...`` on
stderr and exits with a non-zero code.
"""

from __future__ import annotations

import functools
import re

import pandas as pd

from citadel.agents import AGENTS
from citadel.coalitions import alliance_analysis
from citadel.resolve import resolve
from citadel.rules import DIRECTIONS, STEPS, Rules
from citadel.sides import OBJECTIVES, check_sides, solve_sides
from citadel.simulate import simulate_games
from citadel.whole_game import check_solution, solve_duel_game
from tabletop import cli
from tabletop.balance import balance_task
from tabletop.sweep import expand_grid

ANALYSES = ("simulate", "solve", "balance")
DIRECTION_CHOICES = ("axis", "fees", "all")
_ORDER = re.compile(r"^\s*(\d+)\s*[: ]?\s*([A-Za-z]+|[0-7])?\s*$")


def parse_order(text: str) -> tuple[int, str | int | None]:
    """One order from its command-line form: ``"32N"``, ``"32:NE"``, ``"32 6"``, ``"0"``, ``"-"``.

    Examples
    --------
    >>> parse_order("32NE"), parse_order("5 nw"), parse_order("-"), parse_order("12:6")
    ((32, 'NE'), (5, 'NW'), (0, None), (12, 6))
    >>> parse_order("N32")
    Traceback (most recent call last):
    ...
    ValueError: order 'N32': write AMOUNT DIRECTION, e.g. 32N or 32:NE (0 or - to abstain)
    """
    if text.strip() == "-":
        return 0, None
    match = _ORDER.match(text)
    if not match:
        raise ValueError(
            f"order {text!r}: write AMOUNT DIRECTION, e.g. 32N or 32:NE (0 or - to abstain)"
        )
    amount, direction = int(match.group(1)), match.group(2)
    if direction is None:
        if amount:
            raise ValueError(f"order {text!r}: a positive amount needs a direction {DIRECTIONS}")
        return 0, None
    return amount, int(direction) if direction.isdigit() else direction.upper()


def _agents(rules: Rules, agents) -> list[str]:
    agents = list(agents or ("straight",))
    return agents * rules.n_players if len(agents) == 1 else agents


# --- the analyses, one row each: module-level so worker processes can import them ---


def simulate_analysis(*, seed=None, games: int = 10_000, agents=(), **knobs) -> dict:
    """Simulated games under ``Rules(**knobs)`` (one sweep row): each seat's mean score,
    the draw rate and the mean game length. ``agents``: one name per seat or one for
    all (default ``straight``)."""
    rules = Rules(**knobs)
    res = simulate_games(rules, _agents(rules, agents), games, seed=seed)
    row = {f"score_{seat}": float(s) for seat, s in zip(rules.seats, res.scores.mean(axis=0),
                                                        strict=True)}  # fmt: skip
    row["draw"] = float(res.draws.mean())
    row["mean_rounds"] = float(res.rounds.mean())
    return row


def _duel_rules(knobs: dict) -> Rules:
    rules = Rules(**{"n_players": 2, **knobs})
    if rules.n_players != 2:
        raise ValueError(f"the duel is the two-player game, got n_players={rules.n_players}")
    return rules


def solve_analysis(*, seed=None, directions: str = "axis", **knobs) -> dict:
    """The two-player game solved under ``Rules(n_players=2, **knobs)`` (one sweep row):
    the value from the start, each side's chance and the draw chance when both play the
    solution, the solver's residual and LP gap."""
    sol = solve_duel_game(_duel_rules(knobs), directions)
    chk = check_solution(sol, directions)
    return {
        "value": chk.value,
        "p_n": chk.p_n,
        "p_s": chk.p_s,
        "p_draw": chk.p_draw,
        "residual": sol.residual,
        "lp_gap": sol.lp_gap,
    }


_ANALYSIS = {"simulate": simulate_analysis, "solve": solve_analysis,
             "balance": functools.partial(balance_task, game="citadel")}  # fmt: skip


# --- the subcommands: args -> DataFrame ---


def _resolve(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    orders = [parse_order(text) for text in args.orders]
    res = resolve(orders, rules, args.capitals)
    move = next((DIRECTIONS[d] for d in range(8)
                 if tuple(int(v) for v in STEPS[d]) == res.step), "none")  # fmt: skip
    row = {"dx": res.step[0], "dy": res.step[1]}
    row.update({f"pays_{seat}": p for seat, p in zip(rules.seats, res.pays, strict=True)})
    row.update({f"fee_{seat}": f for seat, f in zip(rules.seats, res.fee, strict=True)})
    return pd.DataFrame([row], index=pd.Index([move], name="move"))


def _simulate(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    agents = _agents(rules, args.agents)
    if args.games < 2:
        raise ValueError(f"games must be >= 2 (for a mean and its error), got {args.games}")
    res = cli.with_threads(args.jobs, lambda: simulate_games(rules, agents, args.games, args.seed))
    return res.summary()


def _solve(args) -> pd.DataFrame:
    knobs = cli.rules_kwargs(args)
    if args.show == "summary":
        row = solve_analysis(directions=args.directions, **knobs)
        return pd.DataFrame([row], index=pd.Index([args.directions], name="directions"))
    sol = solve_duel_game(_duel_rules(knobs), args.directions)
    if args.show == "opening":
        frames = [sol.opening(side).to_frame().assign(side=name) for side, name in
                  enumerate(("N", "S"))]  # fmt: skip
        return pd.concat(frames).reset_index().set_index(["side", "order"])
    rows = [{"y": y, "cap_n": int(cn), "cap_s": int(cs), "value": sol.value(y, int(cn), int(cs))}
            for cn in sol.space.levels for cs in sol.space.levels
            for y in range(-sol.rules.radius, sol.rules.radius + 1)]  # fmt: skip
    return pd.DataFrame(rows).set_index(["cap_n", "cap_s", "y"])


def _sides(args) -> pd.DataFrame:
    rules = cli.rules_from_args(Rules, args)
    sol = solve_sides(rules, args.side, args.objective)
    chk = check_sides(sol)
    a, b = sol.names
    row = {"value": chk.value, f"score_{a}": chk.score_a, f"score_{b}": chk.score_b,
           "p_draw": chk.p_draw, "exploitability": chk.exploitability}  # fmt: skip
    return pd.DataFrame([row], index=pd.Index([f"{a} vs {b}"], name="sides"))


def _alliances(args) -> pd.DataFrame:
    res = alliance_analysis(cli.rules_from_args(Rules, args))
    frame = res.values[["value", "draw", "exploitability"]].copy()
    for seat, phi in res.shapley.items():
        frame.loc[seat, "shapley"] = phi
        frame.loc[seat, "least_core"] = res.least_core.allocation[seat]
    return frame


def _sweep(args) -> pd.DataFrame:
    base = cli.rules_kwargs(args)
    grid = cli.sweep_grid(args, Rules, base)
    fixed = dict(base)
    if args.analysis == "solve":
        for variant in expand_grid(grid):  # every variant checked before any work starts
            _duel_rules({**base, **variant})
        fixed["directions"] = args.directions
    elif args.analysis == "balance":  # one process per variant
        fixed.update(n_games=args.games, jobs=1)
    else:
        fixed.update(games=args.games, agents=tuple(args.agents or ()))
        for variant in expand_grid(grid):
            rules = Rules(**base, **variant)
            _check_agents(rules, _agents(rules, fixed["agents"]))
    return cli.run_sweep(args, "citadel", _ANALYSIS[args.analysis], grid, fixed)


def _check_agents(rules: Rules, agents) -> None:
    if len(agents) != rules.n_players:
        raise ValueError(f"need {rules.n_players} agents (one per seat), got {len(agents)}")
    for name in agents:
        if name not in AGENTS:
            raise ValueError(f"unknown agent {name!r}, use one of {', '.join(AGENTS)}")


def build_parser() -> cli.ArgumentParser:
    """The argument parser of ``python -m citadel``."""
    parser = cli.ArgumentParser(
        prog="python -m citadel",
        description="Master Citadel: rounds resolved, simulated games, the duel solved, sweeps.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, seed: bool = True, jobs: bool = True):
        sub = cli.add_command(commands, name, help, run, Rules, seed=seed, jobs=jobs)
        return sub

    def directions(sub):
        sub.add_argument(
            "--directions",
            choices=DIRECTION_CHOICES,
            default="axis",
            help="each side's directions in the solved duel (default: axis)",
        )

    def simulation(sub, games: int):
        sub.add_argument(
            "--games", type=int, default=games, help=f"games to simulate (default: {games})"
        )
        sub.add_argument(
            "--agents",
            nargs="+",
            metavar="AGENT",
            help=f"one agent per seat or one for all, of {', '.join(AGENTS)} (default: straight)",
        )

    sub = command("resolve", "one round of orders resolved", _resolve, seed=False, jobs=False)
    sub.add_argument(
        "orders", nargs="+", metavar="ORDER",
        help="one order per seat in seat order: 32N, 32:NE or '32 NE'; 0 or - abstains",
    )  # fmt: skip
    sub.add_argument(
        "--capitals", type=cli.int_list_option("capitals"), default=None, metavar="INT,...",
        help="each seat's capital, to check the amounts (default: the starting capital)",
    )  # fmt: skip
    sub = command("simulate", "simulated games between heuristic agents", _simulate)
    simulation(sub, 10_000)
    sub = command("solve", "the two-player game solved on a bid grid", _solve,
                  seed=False, jobs=False)  # fmt: skip
    for action in sub._actions:  # argparse keeps its options there; the duel has 2 seats
        if action.dest == cli.RULE_DEST + "n_players":
            action.help = "seats: the solved duel is the two-player game (default here: 2)"
    directions(sub)
    sub.add_argument("--show", choices=("summary", "opening", "values"), default="summary")
    sub = command("sides", "two coalitions solved as sides on a bid grid", _sides,
                  seed=False, jobs=False)  # fmt: skip
    sub.add_argument("--side", default="NE",
                     help="the first side's seats, e.g. NE or N (default: NE)")  # fmt: skip
    sub.add_argument("--objective", choices=tuple(OBJECTIVES), default="difference",
                     help="the first side's payoff: its score minus the other's (default) "
                          "or its own score")  # fmt: skip
    command("alliances", "coalition values, Shapley values and the least core", _alliances,
            seed=False, jobs=False)  # fmt: skip
    sub = command("sweep", "an analysis over a grid of rule variants", _sweep)
    cli.add_sweep_options(sub, ANALYSES, "radius=1,2 capital=10,20")
    directions(sub)
    simulation(sub, 2_000)
    cli.add_balance_commands(commands, "citadel", Rules)
    cli.add_report_command(commands, "Master Citadel", "citadel*.ipynb", game="citadel",
                           rules=Rules)
    return parser


@cli.one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m citadel`` with ``argv`` (default: the process's arguments)."""
    return cli.run_command(build_parser(), argv)
