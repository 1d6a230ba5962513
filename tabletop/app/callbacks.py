"""What the web page computes, as plain functions (the tests call them directly).

Each function takes the page's raw input (the text typed, the boxes ticked), checks it
as the command line does and raises ``ValueError``/``TypeError`` naming the field; the
page shows :func:`error_text` of the error beside the field it names
(:func:`named_field`), or beside the form when it names none. Nothing here imports
Panel.

Examples
--------
>>> advice = advise_roll("6 5 5 3 1")
>>> advice.best
'Keep 6 and reroll 5 5 3 1: expected total -0.156.'
>>> advice.command
'python -m panache advise 6 5 5 3 1'
>>> read_knobs("panache", {"n_dice": 6, "face_values": "-4,-3,-2,-1,0,1"})
{'n_dice': 6}
>>> command_line("panache", "compare", {"n_dice": 6, "face_values": (-3, -2, -1, 0, 1, 2)})
'python -m panache compare --n-dice=6 --face-values=-3,-2,-1,0,1,2'
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.cli import error_line, parse_value, rule_fields, value_text

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from tabletop.balance import Comparison

#: What a turn can play for, by the advisor's choice: the name ``advise`` takes.
GOALS = {
    "points (the expected total)": "ev",
    "a Master Panache (a total of exactly zero)": "zero",
    "a positive total": "positive",
    "a total of at least k": "at_least",
    "winning the duel (both players' points)": "duel",
}

_DICE = re.compile(r"[1-6]")


def error_text(exc: BaseException) -> str:
    """The page's message for ``exc``: the command line's one line, ``error: ...``.

    Examples
    --------
    >>> error_text(ValueError("roll: expected dice faces 1..6, got '7'"))
    "error: roll: expected dice faces 1..6, got '7'"
    """
    return f"error: {error_line(exc)}"


def named_field(exc: BaseException, names) -> str | None:
    """The field among ``names`` that the message of ``exc`` names first, or ``None``.

    The library's errors start with the parameter they are about (``capital must be
    ...``, ``roll: expected ...``), so the page shows each message beside that field; a
    message that names none of them goes beside the form.

    Examples
    --------
    >>> named_field(ValueError("roll and kept must hold n_dice=5 dice"), ["kept", "roll"])
    'roll'
    >>> named_field(ValueError("min_bid must be at most capital=100"), ["capital", "min_bid"])
    'min_bid'
    >>> named_field(ValueError("out of memory"), ["roll"]) is None
    True
    """
    message = error_line(exc)
    found = [(m.start(), name) for name in names
             if (m := re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message))]  # fmt: skip
    return min(found)[1] if found else None


def parse_dice(name: str, text: str) -> tuple[int, ...]:
    """Dice faces from ``text``: digits 1..6, separated by spaces or commas or not at all.

    Examples
    --------
    >>> parse_dice("roll", "6 5 5,3 1"), parse_dice("kept", "66"), parse_dice("kept", "")
    ((6, 5, 5, 3, 1), (6, 6), ())
    >>> parse_dice("roll", "6 7")
    Traceback (most recent call last):
    ...
    ValueError: roll: expected dice faces 1..6 separated by spaces, got '6 7'
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected text such as '6 5 5 3 1', got {type(text).__name__}")
    cleaned = re.sub(r"[\s,]+", "", text)
    if not all(_DICE.fullmatch(c) for c in cleaned):
        raise ValueError(f"{name}: expected dice faces 1..6 separated by spaces, got {text!r}")
    return tuple(int(c) for c in cleaned)


@dataclass(frozen=True)
class Advice:
    """The advisor's answer.

    Attributes
    ----------
    best : str
        One sentence: the best keep, the dice rerolled and the value.
    table : pandas.DataFrame
        Every distinct keep, best first: ``keep``, ``reroll``, ``value`` and ``loss``
        (the best value minus this one), indexed by ``rank``.
    command : str
        The command line that prints the same table.
    """

    best: str
    table: pd.DataFrame
    command: str


def advise_roll(roll: str, kept: str = "", goal: str = "ev", k: int | None = None,
                points: int | None = None, against: int | None = None,
                knobs: Mapping | None = None) -> Advice:  # fmt: skip
    """The best dice to keep from a roll, and every option's value (:func:`panache.advise`).

    Parameters
    ----------
    roll, kept : str
        The dice just rolled and those set aside earlier this turn (:func:`parse_dice`).
    goal : str
        A value of :data:`GOALS`: ``"ev"``, ``"zero"``, ``"positive"``, ``"at_least"``
        (with ``k``) or ``"duel"`` (with ``points`` and ``against``).
    k : int, optional
        The total to reach for ``"at_least"``.
    points, against : int, optional
        The mover's and the opponent's points for ``"duel"``.
    knobs : mapping, optional
        Rule knobs of Master Panache that differ from the seed's (:func:`read_knobs`).

    Returns
    -------
    Advice

    Examples
    --------
    >>> advise_roll("6 5 2", kept="6 6", goal="zero").best
    'Keep 6 5 2 and stop: chance 1.0000.'
    >>> advise_roll("6 5 5 3 1", goal="duel", points=20).best
    Traceback (most recent call last):
    ...
    ValueError: against: the duel needs both players' points, got points=20, against=None
    """
    from panache import Rules, advise

    if goal not in GOALS.values():
        raise ValueError(f"goal must be one of {', '.join(GOALS.values())}, got {goal!r}")
    dice, aside = parse_dice("roll", roll), parse_dice("kept", kept)
    changed = dict(knobs or {})
    rules = Rules(**changed)
    argv = ["python", "-m", "panache", "advise", *map(str, dice)]
    if aside:
        argv += ["--kept", *map(str, aside)]
    options: dict = {}
    if goal == "duel":
        if points is None or against is None:
            raise ValueError(f"against: the duel needs both players' points, "
                             f"got points={points}, against={against}")  # fmt: skip
        options = {"points": points, "against": against}
        argv += ["--points", str(points), "--against", str(against)]
    elif goal == "at_least":
        if k is None:
            raise ValueError("k: a total of at least k needs k, got None")
        options = {"utility": f"at_least:{k}"}
        argv += ["--utility", f"at_least:{k}"]
    else:
        options = {"utility": goal}
        if goal != "ev":
            argv += ["--utility", goal]
    argv += _knob_options(Rules, changed)
    table = advise(dice, kept=aside, rules=rules, **options)
    top = table.iloc[0]
    what = "expected total" if goal == "ev" else "chance"
    value = f"{top['value']:.3f}" if goal == "ev" else f"{top['value']:.4f}"
    action = f"reroll {top['reroll']}" if top["reroll"] else "stop"
    best = f"Keep {top['keep']} and {action}: {what} {value}."
    shown = table[["keep", "reroll", "value", "loss"]]
    return Advice(best, shown, " ".join(shlex.quote(a) for a in argv))


# ---- the variant explorer ---------------------------------------------------------------


@dataclass(frozen=True)
class Knob:
    """One rule knob of a game, as the page shows it.

    Attributes
    ----------
    name : str
        The field of the game's ``Rules``.
    kind : str
        ``"int"`` (a number field), ``"bool"`` (a tick box) or ``"text"`` (typed in
        the command line's form: ``-4,-3,-2``, ``13:1,0:6``, ``none``).
    default
        The seed rules' value.
    text : str
        The default in the command line's form.
    help : str
        The first sentence of the field's documentation.
    hint : object
        The field's type annotation (how ``text`` is read).
    """

    name: str
    kind: str
    default: object
    text: str
    help: str
    hint: object


def knobs(game: str) -> tuple[Knob, ...]:
    """The rule knobs of ``game``, from its ``Rules`` class in the registry.

    Examples
    --------
    >>> [(k.name, k.kind, k.text) for k in knobs("panache")][:2]
    [('n_dice', 'int', '5'), ('face_values', 'text', '-4,-3,-2,-1,0,1')]
    """
    from tabletop.cli import _field_docs
    from tabletop.games import get

    cls = get(game).rules_class()
    docs = _field_docs(cls)
    out = []
    for name, hint, default in rule_fields(cls):
        kind = "bool" if hint is bool else "int" if hint is int else "text"
        text = docs.get(name, name.replace("_", " ")).replace("``", "")
        out.append(Knob(name, kind, default, value_text(default), text, hint))
    return tuple(out)


def read_knobs(game: str, values: Mapping[str, object]) -> dict:
    """The knobs of ``values`` (the page's fields, by knob name) that differ from the
    seed's rules, read and checked by the game's ``Rules``.

    A text field is read as the command line reads it; a number field must hold an int,
    a tick box a bool. Errors name the knob.

    Examples
    --------
    >>> read_knobs("citadel", {"min_bid": 10, "payment": "all"})
    {'min_bid': 10}
    >>> read_knobs("citadel", {"min_bid": -1})
    Traceback (most recent call last):
    ...
    ValueError: min_bid must be 0..1000000, got -1
    """
    from tabletop.games import get

    by_name = {k.name: k for k in knobs(game)}
    changed = {}
    for name, raw in values.items():
        if name not in by_name:
            raise ValueError(f"{name}: not a knob of {game}; knobs are {', '.join(by_name)}")
        knob = by_name[name]
        if knob.kind == "text":
            if not isinstance(raw, str):
                raise TypeError(f"{name}: expected text, got {type(raw).__name__}")
            value = parse_value(name, raw, knob.hint)
        elif knob.kind == "bool":
            if not isinstance(raw, bool):
                raise TypeError(f"{name}: expected true or false, got {raw!r}")
            value = raw
        else:
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise TypeError(f"{name}: expected an int, got {raw!r}")
            value = raw
        if value != knob.default:
            changed[name] = value
    get(game).rules_class()(**changed)  # the rules' own checks, naming the knob
    return changed


def _knob_options(cls, changed: Mapping) -> list[str]:
    hints = {name: hint for name, hint, _ in rule_fields(cls)}
    argv = []
    for name, value in changed.items():
        flag = "--" + name.replace("_", "-")
        if hints[name] is bool:
            argv.append(flag if value else "--no-" + name.replace("_", "-"))
        else:  # --flag=value: a value that starts with "-" is not taken for an option
            argv.append(f"{flag}={value_text(value)}")
    return argv


def command_line(game: str, subcommand: str, changed: Mapping, seed: int = 0) -> str:
    """The command line that computes what the page shows for ``changed`` knobs.

    Examples
    --------
    >>> command_line("samarra", "compare", {"allow_pass": True, "horizon": None})
    'python -m samarra compare --allow-pass --horizon=none'
    >>> command_line("citadel", "compare", {"min_bid": 10}, seed=3)
    'python -m citadel compare --min-bid=10 --seed 3'
    """
    from tabletop.games import get

    argv = ["python", "-m", game, subcommand, *_knob_options(get(game).rules_class(), changed)]
    if seed != 0:
        argv += ["--seed", str(seed)]
    return " ".join(shlex.quote(a) for a in argv)


#: Seconds a card may take before the page asks to go ahead (about a minute: the seed
#: rules' cards take 0.3 to 35 s on 2 cores, Citadel's about 60-75 s since its duel is
#: solved as the rules write it, with all eight directions, so the page asks first).
CARD_BUDGET = 60.0


def card_estimate(game: str, changed: Mapping) -> float:
    """Seconds the variant's card is expected to take in its exact solves, from the
    rules alone: the game's own ``card_seconds`` beside its ``balance`` (Samarra's table,
    Citadel's duel grids and coalitions); 0 for a game without one (the Master Panache
    and Master & Commander cards are fast at every legal setting tried, and their
    solvers check memory themselves).

    Examples
    --------
    >>> card_estimate("samarra", {"width": 4, "length": 6}) > CARD_BUDGET
    True
    >>> card_estimate("commander", {"win_gold": 8})
    0.0
    """
    from tabletop.games import get

    entry = get(game)
    rules = entry.rules_class()(**dict(changed))
    seconds = getattr(entry.analyses_module(), "card_seconds", None)
    return 0.0 if seconds is None else float(seconds(rules))


@dataclass(frozen=True)
class Exploration:
    """A variant's balance card beside the seed's rules, ready to show.

    Attributes
    ----------
    comparison : tabletop.balance.Comparison
        The two cards, their differences and the verdict.
    table : pandas.DataFrame
        The differences for reading (:func:`tabletop.balance.compare_text`).
    markdown : str
        The self-contained Markdown card (the figure embedded).
    csv : str
        Every column of the comparison, as CSV.
    command : str
        The command line that reproduces it.
    title : str
        The game's title.
    """

    comparison: Comparison
    table: pd.DataFrame
    markdown: str
    csv: str
    command: str
    title: str

    def figure(self):
        """The comparison figure (:func:`tabletop.balance.comparison_figure`), titled."""
        from tabletop.balance import comparison_figure

        return comparison_figure(self.comparison.table,
                                 f"{self.title}: the variant against the seed's rules")  # fmt: skip


def explore(game: str, values: Mapping[str, object], seed: int = 0,
            cache: bool = True) -> Exploration:  # fmt: skip
    """The balance card of the variant the page's fields describe, beside the seed's.

    Parameters
    ----------
    game : str
        A game of the registry (:func:`tabletop.games.names`).
    values : mapping
        The knob fields, by knob name (:func:`read_knobs`).
    seed : int
        Root seed of the cards' Monte Carlo rows (default 0, the command line's).
    cache : bool
        Read and keep cards in :func:`tabletop.balance.card_cache_dir`, as the
        command line does.

    Returns
    -------
    Exploration

    Examples
    --------
    >>> res = explore("commander", {"win_gold": 8})
    >>> res.command
    'python -m commander compare --win-gold=8'
    >>> res.table.loc["fastest_win_income_4", ["baseline", "variant"]].tolist()
    ['9', '7']
    """
    from tabletop.balance import compare_rules, compare_text
    from tabletop.games import get

    changed = read_knobs(game, values)
    res = compare_rules(game, changed, seed=seed, cache=cache)
    title = get(game).title
    return Exploration(res, compare_text(res.table), res.markdown(title),
                       res.table.to_csv(index=False), command_line(game, "compare", changed, seed),
                       title)  # fmt: skip


# ---- the reports ------------------------------------------------------------------------


def report_files(folder: Path | None = None) -> dict[str, Path]:
    """The reports of ``folder`` (default: the project's ``reports/``) by title, the
    index first.

    Examples
    --------
    >>> next(iter(report_files()))
    'Index'
    """
    from tabletop.report import SEED_REPORT_DIR

    folder = Path(folder) if folder is not None else SEED_REPORT_DIR
    found = {}
    paths = sorted(folder.glob("*.md"), key=lambda p: (p.stem != "index", p.stem))
    for path in paths:
        first = path.read_text(encoding="utf-8").lstrip().splitlines()[:1]
        title = first[0].lstrip("# ").strip() if first and first[0].startswith("#") else path.stem
        found["Index" if path.stem == "index" else title] = path
    return found


def report_markdown(text: str, figures_url: str, reports_url: str = "/report") -> str:
    """A report's Markdown ``text`` with its figure links pointing at ``figures_url`` and
    its links to other reports (``index.md``, ``citadel.md#a-section``) at the page's
    routes under ``reports_url``.

    Examples
    --------
    >>> link = "[the duel]" + "(panache_game.md#the-duel)"
    >>> report_markdown(link, "/reports/figures").removeprefix("[the duel]")
    '(/report/panache_game#the-duel)'
    >>> report_markdown("![Odds]" + "(figures/odds.png)", "/reports/figures")[7:]
    '(/reports/figures/odds.png)'
    """
    text = re.sub(r"\]\(figures/", f"]({figures_url.rstrip('/')}/", text)
    return re.sub(r"\]\(([\w-]+)\.md(#[^)\s]*)?\)",
                  lambda m: f"]({reports_url.rstrip('/')}/{m.group(1)}{m.group(2) or ''})", text)
