"""The Master & Commander command line: ``python -m commander <subcommand> [options]``.

Subcommands (every rule knob of :class:`commander.Rules` is an option: ``--win-gold 8``,
``--sale-price after``, ``--exchange-rates 13:1,10:2,7:3,4:4,1:5,0:6``,
``--votes-by-rank boatswain:1,captain:4``...):

* ``race``: the exact race to ``win_gold`` through the market from a state
  (:func:`commander.solve_race`): ``--gold``, ``--doublons``, ``--stock`` (default
  the starting stock), ``--income`` and ``--drain`` (comma lists, the last value
  repeats), ``--horizon``; ``--show summary`` (the minimum winning turn, the purse
  left, the net cost and the cheapest plan) or ``by-turn`` (the cheapest plan's
  purse and cost for every later winning turn);
* ``battle``: exact odds of a battle (:func:`commander.battle_odds`) when each side
  engages a random draw from its pool (``--attackers 1,2,3 --n-attackers 2
  --defenders 1,2 --n-defenders 1 --target-value 1``); ``--show margin`` gives the
  law of the strength difference;
* ``conflict``: exact odds that a referendum passes (:func:`commander.referendum_odds`);
* ``validate``: every construction rule each deck of a decks file breaks
  (:func:`commander.validate_deck`; ``--cards``/``--decks`` files, default the
  samples shipped); exits with code 1 when some deck is illegal;
* ``simulate``: ``--games`` games of the economy model between ``--players`` decks
  (:func:`commander.simulate_economy`); ``--show wins`` (each player's wins),
  ``seats`` (each seat's) or ``turns`` (the law of the winning round); ``--jobs``
  numba threads;
* ``balance``: the balance card (:func:`commander.balance`): one row per metric with its
  95 % interval, exact or Monte Carlo; ``compare``: the card of the rules given
  beside the seed's rules (or ``--baseline KNOB=V``, repeatable), each metric's
  difference with its interval, ``*`` where significant, and a verdict;
  ``--format md`` writes a Markdown card with one figure (:mod:`tabletop.balance`);
* ``sweep``: ``race``, ``simulate`` or ``balance`` over a ``--grid`` of knobs
  (``--grid win_gold=8,10 max_gold_per_transaction=2,3``), one row per variant, run by
  :func:`tabletop.sweep.sweep` on ``--jobs`` local processes or a dask scheduler
  (``--dask ADDRESS``); ``--store DIR`` keeps finished variants. The two tuple
  knobs (``exchange_rates``, ``votes_by_rank``) are options only, not grid knobs;
* ``report``: runs the Master & Commander notebooks (:mod:`tabletop.notebooks`), which
  write their reports, then rebuilds the report index (:mod:`tabletop.index`).

Output: ``--format table|csv|json``. A mistake prints one line ``error: ...`` on
stderr and exits with a non-zero code.
"""

from __future__ import annotations

import argparse
import functools

import pandas as pd

from commander.cards import CardDataError, load_cards, load_decks
from commander.conflicts import KINDS, battle_odds, referendum_odds
from commander.decks import validate_deck
from commander.economy import seat_advantage, simulate_economy, strategy_wins, win_turns
from commander.race import DEFAULT_HORIZON, solve_race
from commander.rules import Rules
from tabletop import cli
from tabletop.balance import balance_task
from tabletop.sweep import expand_grid

ANALYSES = ("race", "simulate", "balance")
PAIR_KNOBS = {"exchange_rates": int, "votes_by_rank": str}  # tuples of (key, int) pairs
DEFAULT_PLAYERS = ("spanish_sample", "ghost_sample")


def parse_pairs(name: str, text: str, key_type=int) -> tuple[tuple, ...]:
    """A tuple of ``(key, int)`` pairs from ``KEY:INT,KEY:INT,...``.

    Examples
    --------
    >>> parse_pairs("exchange_rates", "13:1,0:6")
    ((13, 1), (0, 6))
    >>> parse_pairs("votes_by_rank", "captain:4", str)
    (('captain', 4),)
    """
    if not text.strip():
        raise ValueError(f"{name}: expected KEY:INT pairs separated by commas, got {text!r}")
    return cli.parse_value(name, text, tuple[tuple[key_type, int], ...])


def _pairs_option(name: str, key_type):
    def convert(text: str):
        try:
            return parse_pairs(name, text, key_type)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = "KEY:INT list"
    return convert


def _int_stream(name: str):
    def convert(text: str):
        try:
            values = cli.parse_value(name, text, tuple[int, ...])
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not values:
            raise argparse.ArgumentTypeError(f"{name}: expected at least one int")
        return values[0] if len(values) == 1 else values

    convert.__name__ = "comma list of ints"
    return convert


def _knobs(args) -> dict:
    """The rule options given, the pair knobs included."""
    knobs = cli.rules_kwargs(args)
    for name in PAIR_KNOBS:
        value = getattr(args, name, None)
        if value is not None:
            knobs[name] = value
    return knobs


def _load(cards_file, decks_file, rules: Rules):
    """The card set and the decks; bad data is one line: the first problem and a count."""
    try:
        cards = load_cards(cards_file, rules)
        return cards, load_decks(decks_file, cards)
    except CardDataError as exc:
        source, row, name, message = exc.problems[0]
        more = len(exc.problems) - 1
        extra = f" (and {more} more problem{'s' * (more > 1)})" if more else ""
        raise ValueError(f"{source}, row {row}, field {name!r}: {message}{extra}") from None


def _decks(cards_file, decks_file, names, rules: Rules):
    cards, decks = _load(cards_file, decks_file, rules)
    names = list(names or DEFAULT_PLAYERS)
    missing = [n for n in names if n not in decks]
    if missing:
        raise ValueError(f"unknown deck {missing[0]!r}; the decks are {', '.join(decks)}")
    if len(names) != rules.n_players:
        raise ValueError(f"need {rules.n_players} decks (one per player), got {len(names)}")
    return cards, [decks[n] for n in names]


# --- the analyses, one row each: module-level so worker processes can import them ---


def race_analysis(*, seed=None, gold=0, doublons=None, stock=None, income=0, drain=0,
                  horizon=DEFAULT_HORIZON, **knobs) -> dict:  # fmt: skip
    """The exact race under ``Rules(**knobs)`` (one sweep row); ``doublons`` and ``stock``
    default to the rules' starting purse and stock."""
    rules = Rules(**knobs)
    doublons = rules.start_doublons if doublons is None else doublons
    stock = rules.start_stock if stock is None else stock
    res = solve_race(rules, gold, doublons, stock, income, drain, horizon)
    return {
        "win_turn": res.win_turn,
        "doublons_left": res.doublons_left,
        "net_cost": res.net_cost,
        "plan": " ".join(f"{k:+d}" for k in res.plan),
    }


def simulate_analysis(*, seed=None, games: int = 2_000, players=(), cards_file=None,
                      decks_file=None, **knobs) -> dict:  # fmt: skip
    """Simulated economies under ``Rules(**knobs)`` (one sweep row): each player's win
    share, the share of unfinished games and the mean winning round."""
    rules = Rules(**knobs)
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    cards, decks = _decks(cards_file, decks_file, players, rules)
    res = simulate_economy(rules, decks, cards, n=games, seed=seed, record=False)
    wins = strategy_wins(res)
    row = {f"player_{p}_share": float(s) for p, s in wins["share"].items()}
    won = res.win_player >= 0
    row["unfinished"] = float(1 - won.mean())
    row["mean_win_round"] = float(res.win_round[won].mean()) if won.any() else None
    return row


_ANALYSIS = {"race": race_analysis, "simulate": simulate_analysis,
             "balance": functools.partial(balance_task, game="commander")}  # fmt: skip


# --- the subcommands: args -> DataFrame ---


def _race_fixed(args) -> dict:
    return {"gold": args.gold, "doublons": args.doublons, "stock": args.stock,
            "income": args.income, "drain": args.drain, "horizon": args.horizon}  # fmt: skip


def _race(args) -> pd.DataFrame:
    knobs = _knobs(args)
    if args.show == "summary":
        row = race_analysis(**_race_fixed(args), **knobs)
        return pd.DataFrame([row], index=pd.Index(["race"], name="from"))
    rules = Rules(**knobs)
    doublons = rules.start_doublons if args.doublons is None else args.doublons
    stock = rules.start_stock if args.stock is None else args.stock
    return solve_race(rules, args.gold, doublons, stock, args.income, args.drain,
                      args.horizon).by_turn  # fmt: skip


def _battle(args) -> pd.DataFrame:
    rules = Rules(**_knobs(args))
    odds = battle_odds(args.kind, args.attackers, args.n_attackers, args.defenders,
                       args.n_defenders, args.target_value, args.commands,
                       args.attacker_bonus, args.defender_bonus, rules)  # fmt: skip
    if args.show == "margin":
        return odds.margin.to_frame()
    row = {
        "p_attacker": odds.p_attacker,
        "p_defender": 1 - odds.p_attacker,
        "p_capture": odds.p_capture,
        "expected_bankruptcy": odds.expected_bankruptcy,
    }
    return pd.DataFrame([row], index=pd.Index([args.kind], name="kind"))


def _conflict(args) -> pd.DataFrame:
    rules = Rules(**_knobs(args))
    p = referendum_odds(args.for_votes, args.n_for, args.against_votes, args.n_against, rules,
                        launched=args.launched)  # fmt: skip
    return pd.DataFrame({"p_pass": [p]}, index=pd.Index(["referendum"], name="conflict"))


def _validate(args) -> pd.DataFrame:
    rules = Rules(**_knobs(args))
    cards, decks = _load(args.cards, args.decks, rules)
    names = args.deck or list(decks)
    for name in names:
        if name not in decks:
            raise ValueError(f"unknown deck {name!r}; the decks are {', '.join(decks)}")
    rows, broken = [], []
    for name in names:
        violations = validate_deck(decks[name], cards, rules)
        if violations:
            broken.append(name)
        rows += [{"deck": name, "rule": v.rule, "message": v.message} for v in violations]
        if not violations:
            rows.append({"deck": name, "rule": "-", "message": "legal"})
    if broken:
        args.problem = f"{len(broken)} of {len(names)} decks break the rules: {', '.join(broken)}"
    return pd.DataFrame(rows).set_index(["deck", "rule"])


def _simulate(args) -> pd.DataFrame:
    rules = Rules(**_knobs(args))
    if args.games < 1:
        raise ValueError(f"games must be >= 1, got {args.games}")
    cards, decks = _decks(args.cards, args.decks, args.players, rules)
    res = cli.with_threads(args.jobs, lambda: simulate_economy(
        rules, decks, cards, n=args.games, seed=args.seed, record=False))  # fmt: skip
    if args.show == "seats":
        return seat_advantage(res)
    if args.show == "turns":
        return win_turns(res).to_frame()
    wins = strategy_wins(res)
    wins.insert(0, "deck", [d.name for d in decks])
    return wins


def _sweep(args) -> pd.DataFrame:
    base = _knobs(args)
    # the table knobs take tables separated by ";": exchange_rates=13:1,0:6;10:1,0:3
    tables = {}
    plain = []
    order = []
    for spec in args.grid:
        knob, _, values = spec.partition("=")
        knob = knob.strip().replace("-", "_")
        order.append(knob)
        if knob not in PAIR_KNOBS:
            plain.append(spec)
        elif knob in tables or knob in base:
            raise cli.UsageError(f"--grid: knob {knob!r} is given twice or also as an option")
        else:
            tables[knob] = [
                parse_pairs(knob, text, PAIR_KNOBS[knob]) for text in values.split(";")
            ]
    args.grid = plain
    parsed = {**(cli.sweep_grid(args, Rules, base) if plain else {}), **tables}
    grid = {knob: parsed[knob] for knob in dict.fromkeys(order) if knob in parsed}
    fixed = dict(base)
    if args.analysis == "race":
        fixed.update(_race_fixed(args))
    elif args.analysis == "balance":
        fixed["n_games"] = args.games
    else:
        fixed.update(games=args.games, players=tuple(args.players or DEFAULT_PLAYERS),
                     cards_file=args.cards, decks_file=args.decks)  # fmt: skip
    for variant in expand_grid(grid):  # every variant checked before any work starts
        rules = Rules(**base, **variant)
        if args.analysis == "simulate":
            if args.games < 1:
                raise ValueError(f"games must be >= 1, got {args.games}")
            _decks(args.cards, args.decks, fixed["players"], rules)
    return cli.run_sweep(args, "commander", _ANALYSIS[args.analysis], grid, fixed)


def _pair_options(sub) -> None:
    """The two pair knobs as options (they have no plain option form)."""
    group = sub.add_argument_group("rules (pairs)")
    group.add_argument(
        "--exchange-rates", type=_pairs_option("exchange_rates", int), default=None,
        metavar="STOCK:RATE,...", help="ICROE bands (default: 13:1,10:2,7:3,4:4,1:5,0:6)",
    )  # fmt: skip
    group.add_argument(
        "--votes-by-rank", type=_pairs_option("votes_by_rank", str), default=None,
        metavar="RANK:VOTES,...", help="votes per rank in a referendum",
    )  # fmt: skip


def _parse_pair_knob(name: str, text: str):
    """A ``--baseline`` value of a pair knob (``exchange_rates=13:1,0:6``)."""
    if name in PAIR_KNOBS:
        return parse_pairs(name, text, PAIR_KNOBS[name])
    return NotImplemented


def build_parser() -> cli.ArgumentParser:
    """The argument parser of ``python -m commander``."""
    parser = cli.ArgumentParser(
        prog="python -m commander",
        description="Master & Commander: races, conflicts, deck checks, economies, sweeps.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, seed: bool = True, jobs: bool = True):
        sub = cli.add_command(commands, name, help, run, Rules, seed=seed, jobs=jobs,
                              exclude=tuple(PAIR_KNOBS))  # fmt: skip
        _pair_options(sub)
        return sub

    def race_options(sub):
        sub.add_argument("--gold", type=int, default=0, help="the player's gold (default: 0)")
        sub.add_argument("--doublons", type=int, default=None,
                         help="the player's doublons (default: start_doublons)")  # fmt: skip
        sub.add_argument("--stock", type=int, default=None,
                         help="the Company's stock (default: the starting stock)")  # fmt: skip
        sub.add_argument(
            "--income",
            type=_int_stream("income"),
            default=0,
            metavar="INT,...",
            help="doublons collected each turn, the last repeats (default: 0)",
        )
        sub.add_argument(
            "--drain",
            type=_int_stream("drain"),
            default=0,
            metavar="INT,...",
            help="gold the rivals take each turn, the last repeats (default: 0)",
        )
        sub.add_argument("--horizon", type=int, default=DEFAULT_HORIZON,
                         help=f"turns searched (default: {DEFAULT_HORIZON})")  # fmt: skip

    def deck_files(sub):
        sub.add_argument("--cards", default=None, metavar="FILE",
                         help="cards.csv (default: the sample shipped)")  # fmt: skip
        sub.add_argument("--decks", default=None, metavar="FILE",
                         help="decks.csv (default: the sample shipped)")  # fmt: skip

    def economy(sub, games: int):
        deck_files(sub)
        sub.add_argument("--games", type=int, default=games,
                         help=f"games to simulate (default: {games})")  # fmt: skip
        sub.add_argument(
            "--players",
            nargs="+",
            metavar="DECK",
            default=None,
            help=f"one deck per player (default: {' '.join(DEFAULT_PLAYERS)})",
        )

    sub = command("race", "the exact race to the win threshold", _race, seed=False, jobs=False)
    race_options(sub)
    sub.add_argument("--show", choices=("summary", "by-turn"), default="summary")
    sub = command("battle", "exact battle odds with drawn characters", _battle,
                  seed=False, jobs=False)  # fmt: skip
    sub.add_argument("--kind", choices=KINDS, default="tactical")
    sub.add_argument("--attackers", type=cli.int_list_option("attackers"), required=True,
                     metavar="INT,...", help="strength of each attacker pool card")  # fmt: skip
    sub.add_argument("--n-attackers", type=int, default=1, help="attackers drawn (default: 1)")
    sub.add_argument("--defenders", type=cli.int_list_option("defenders"), required=True,
                     metavar="INT,...", help="strength of each defender pool card")  # fmt: skip
    sub.add_argument("--n-defenders", type=int, default=1, help="defenders drawn (default: 1)")
    sub.add_argument("--target-value", type=int, default=0,
                     help="the territory's or agreement's value (default: 0)")  # fmt: skip
    sub.add_argument("--commands", type=cli.int_list_option("commands"), default=None,
                     metavar="INT,...",
                     help="command of each attacker pool card (default: all 0)")  # fmt: skip
    sub.add_argument("--attacker-bonus", type=int, default=0)
    sub.add_argument("--defender-bonus", type=int, default=0)
    sub.add_argument("--show", choices=("summary", "margin"), default="summary")
    sub = command("conflict", "exact odds that a referendum passes", _conflict,
                  seed=False, jobs=False)  # fmt: skip
    sub.add_argument(
        "--for-votes",
        type=cli.int_list_option("for_votes"),
        required=True,
        metavar="INT,...",
        help="votes of each card of the pool voting for",
    )
    sub.add_argument("--n-for", type=int, default=1, help="voters for drawn (default: 1)")
    sub.add_argument(
        "--against-votes",
        type=cli.int_list_option("against_votes"),
        required=True,
        metavar="INT,...",
        help="votes of each card of the pool voting against",
    )
    sub.add_argument("--n-against", type=int, default=1, help="voters against (default: 1)")
    sub.add_argument("--launched", action=argparse.BooleanOptionalAction, default=True,
                     help="a character of the for side launched it (default: yes)")  # fmt: skip
    sub = command("validate", "every construction rule a deck breaks", _validate,
                  seed=False, jobs=False)  # fmt: skip
    deck_files(sub)
    sub.add_argument("--deck", nargs="+", metavar="NAME", default=None,
                     help="the decks to check (default: every deck of the file)")  # fmt: skip
    sub = command("simulate", "simulated economies between decks", _simulate)
    economy(sub, 2_000)
    sub.add_argument("--show", choices=("wins", "seats", "turns"), default="wins")
    sub = command("sweep", "an analysis over a grid of rule variants", _sweep)
    cli.add_sweep_options(sub, ANALYSES, "win_gold=8,10 exchange_rates='13:1,0:6;10:1,0:3'")
    race_options(sub)
    economy(sub, 500)
    cli.add_balance_commands(commands, "commander", Rules, knobs=_knobs, parse=_parse_pair_knob,
                             extra=_pair_options, exclude=tuple(PAIR_KNOBS))  # fmt: skip
    cli.add_report_command(commands, "Master & Commander", "commander*.ipynb", game="commander",
                           rules=Rules, knobs=_knobs, extra=_pair_options,
                           exclude=tuple(PAIR_KNOBS))  # fmt: skip
    return parser


@cli.one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m commander`` with ``argv`` (default: the process's arguments)."""
    return cli.run_command(build_parser(), argv)
