"""The cross-game balance table that opens the report index.

One row per registered game (:mod:`tabletop.games`) under the seed's rules: the first
mover's or a seat's edge, the draw or stall rate, the typical length, the strongest
exploit or degenerate strategy the analyses found, and the knob setting that best
fixes it. Each game's :class:`tabletop.games.IndexRow` says which figures fill which
cell; every figure is read from a balance card (:mod:`tabletop.balance`) or computed
by a solver (:class:`tabletop.games.Fact`), never typed in.

The cards are those :func:`tabletop.balance.compare_rules` sets side by side with
``seed=0``: the seed's rules on child 0 of the seed, a variant on child 1, kept in the
card cache (:func:`tabletop.balance.cached_balance`), so the table is rebuilt in
seconds once the cards exist. Among a row's candidate fixes the one shown is the first
(mildest) whose 95 % interval of the row's ``objective`` reaches the lowest value of
all candidates; when none brings the objective below the seed rules' value
(:func:`improves`), a row with a ``no_fix`` cell shows that cell instead, which says so.

A figure is written with its 95 % interval and sample size (``value [low, high] (n =
games)``) when it comes from Monte Carlo, and marked ``(exact)`` when it is exact; an
exact 0 reads ``0 (exact)``. A simulated share of games gets its Wilson interval
(:func:`tabletop.stats.proportion_ci`), as in the reports, computed from the count of
games: never an empty one, even when every game agrees (0% or 100%).
Field kinds:

======  ==================================================================
pct     a share, in percent
pp      a difference of shares, in signed percentage points (exactly 0: "0")
num     a number: two decimals (exact: whole from 100 on, three significant
        digits below 1)
signed  a signed number, three decimals
turn    a whole number of turns or doublons; NaN reads "never"
setting a whole number that sets up a computation (a bid grid): no mark
======  ==================================================================

Examples
--------
>>> from tabletop.balance import Metric, build_card, exact
>>> card = build_card([Metric("p_first", "exact", "probability", "first player wins")],
...                   {"p_first": exact(0.4947, 1600)})
>>> fill("the first player wins {base.p_first:pct}", card)
'the first player wins 49.47% (exact)'
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop.balance import Metric, build_card, compare, exact
from tabletop.markdown import anchor, anchors

logger = logging.getLogger(__name__)

SEED = 0
KINDS = ("pct", "pp", "num", "signed", "turn", "setting")

#: An exact figure closer to 0 than this is printed as 0: the float residue of an exact
#: solve (the Citadel duel's start, 0 by mirror symmetry, comes out at about 1e-17),
#: far below every solver's own error (1e-10 of the payoff range at best).
EXACT_ZERO = 1e-12
COLUMNS = ("Game", "First-mover or seat edge", "Draws or stalls", "Typical length",
           "Strongest exploit or degenerate strategy", "Best fix found")  # fmt: skip
_FIELD = re.compile(r"\{(1-)?(base|fix|diff)\.(\w+)(?::(\w+))?\}")
_NEEDS_FIX = re.compile(r"\{(?:1-)?(?:fix|diff)\.")

#: ``source(game, knobs)``: the card of ``Rules(**knobs)`` with the row's facts.
CardSource = Callable[[str, Mapping], pd.DataFrame]


def fact_card(game: str, rules) -> pd.DataFrame:
    """The figures of the game's :class:`tabletop.games.Fact` list under ``rules``, as
    a card (exact rows)."""
    from tabletop.games import get

    entry = get(game)
    facts = entry.index_row.facts if entry.index_row is not None else ()
    metrics, entries = [], {}
    for f in facts:
        kwargs = {k: getattr(rules, v) for k, v in f.rules_args.items()}
        value = getattr(entry.solver(f.role)(rules, **kwargs, **f.args), f.attribute)
        metrics.append(Metric(f.name, "exact", f.unit, f.meaning))
        entries[f.name] = exact(math.nan if value is None else value,
                                int(f.args.get("horizon", 0)))  # fmt: skip
    return build_card(metrics, entries)


def card_seed(knobs: Mapping):
    """The seed of the card of ``Rules(**knobs)`` in the balance table: child 0 of
    :data:`SEED` for the seed's rules (no knobs), child 1 for a variant, as
    :func:`tabletop.balance.compare_rules` seeds them. A report that shows the same
    simulation as a cell of the table calls the game's ``balance`` with this seed.

    Examples
    --------
    >>> card_seed({}).spawn_key, card_seed({"min_bid": 1}).spawn_key
    ((0,), (1,))
    """
    from tabletop.seeding import as_seed_sequence
    from tabletop.sweep import task_seed

    return task_seed(as_seed_sequence(SEED), 1 if knobs else 0)


def seed_card(game: str, knobs: Mapping) -> pd.DataFrame:
    """The default card source: the card of ``Rules(**knobs)`` that
    ``compare_rules(game, knobs, seed=0, cache=True)`` uses (child 0 of the seed for
    the seed's rules, child 1 for a variant), with the row's facts appended."""
    from tabletop.balance import cached_balance
    from tabletop.games import get

    entry = get(game)
    rules = entry.rules_class()(**dict(knobs))
    options = dict(entry.index_row.options) if entry.index_row is not None else {}
    child = card_seed(knobs)
    logger.info("balance card of %s %s (computed unless cached)", game, dict(knobs) or "seed rules")
    card = cached_balance(game, rules, seed=child, **options)
    facts = fact_card(game, rules)
    return pd.concat([card, facts], ignore_index=True) if len(facts) else card


# ---- figures as text -------------------------------------------------------------------


def _trim(text: str) -> str:
    """A whole number without its zero decimals ("100.00" -> "100"); other decimals kept
    ("49.40" stays "49.40", as beside "49.47")."""
    whole, _, decimals = text.partition(".")
    return whole if decimals.strip("0") == "" else text


def _number(x: float, kind: str, decimals: int | None = None) -> str:
    if kind == "pct":
        return f"{100 * x:.{decimals}f}%" if decimals is not None else _trim(f"{100 * x:.2f}") + "%"
    if kind == "pp":
        if x == 0:  # exactly 0 (a bound clipped at 0), not a small difference rounded
            return "0"
        return f"{100 * x:+.{decimals if decimals is not None else 2}f}"
    if kind == "signed":
        return f"{x:+.3f}"
    if kind == "turn":
        return f"{x:.0f}"
    if decimals is not None:
        return f"{x:.{decimals}f}"
    if abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.2f}" if abs(x) >= 1 else f"{x:#.3g}"


def _decimals(low: float, high: float) -> int:
    """Decimals of a percentage that keep the interval's width visible."""
    width = 100 * (high - low) / 2
    return 1 if width >= 0.05 else 2


def sample_text(n) -> str:
    """The sample size behind a Monte Carlo figure: ``n`` games, or the two runs of a
    difference.

    Examples
    --------
    >>> sample_text(20000), sample_text((500, 500)), sample_text((400, 500))
    ('n = 20,000', 'n = 500 each', 'n = 400 and 500')
    """
    if isinstance(n, tuple):
        a, b = (int(k) for k in n)
        return f"n = {a:,} each" if a == b else f"n = {a:,} and {b:,}"
    return f"n = {int(n):,}"


def format_figure(value: float, low: float, high: float, method: str, n,
                  kind: str) -> str:  # fmt: skip
    """One figure as text: exact ones marked ``(exact)``, Monte Carlo ones with their
    95 % interval and sample size (see the module docstring for ``kind``).

    ``n`` is the number of games (or draws) behind a Monte Carlo figure, or a pair of
    them for the difference of two runs; for an exact ``turn`` figure that is NaN, the
    turns searched. A Monte Carlo share of ``n`` games gets its Wilson interval from
    the count of games (``low`` and ``high`` are not read), as the reports print a
    share; when the games all agree (0% or 100%) it is not empty. A mean whose games
    all agree says so.

    Examples
    --------
    >>> format_figure(0.275, 0.272, 0.278, "monte carlo", 100000, "pct")
    '27.5% [27.2%, 27.8%] (n = 100,000)'
    >>> format_figure(float("nan"), float("nan"), float("nan"), "exact", 200, "turn")
    'never (exact, 200 turns searched)'
    >>> format_figure(1.0, 1.0, 1.0, "monte carlo", 20000, "pct")
    '100.00% [99.98%, 100.00%] (n = 20,000)'
    >>> format_figure(0.0, 0.0, 0.0, "exact", 1, "signed")
    '0 (exact)'
    >>> format_figure(3.7e-18, 3.7e-18, 3.7e-18, "exact", 1, "signed")  # a solve's residue
    '0 (exact)'
    >>> format_figure(541 / 2000, 0.2515, 0.2904, "monte carlo", 2000, "pct")  # 27.05%
    '27.1% [25.1%, 29.0%] (n = 2,000)'
    >>> format_figure(519 / 2000, 0.2408, 0.2792, "monte carlo", 2000, "pct")  # 25.95%
    '26.0% [24.1%, 27.9%] (n = 2,000)'
    >>> format_figure(487 / 2000, 0.2248, 0.2622, "monte carlo", 2000, "pct")  # Wilson's
    '24.4% [22.5%, 26.3%] (n = 2,000)'
    >>> format_figure(10.0, 9.98, 10.02, "monte carlo", 500, "num")
    '10.00 [9.98, 10.02] (n = 500)'
    >>> format_figure(0.003, 0.0, 0.006, "monte carlo", 100000, "pp")  # low end clipped at 0
    '+0.3 pp [0, +0.6] (n = 100,000)'
    >>> format_figure(0.003, 0.0004, 0.006, "monte carlo", 100000, "pp")  # rounded, not 0
    '+0.3 pp [+0.0, +0.6] (n = 100,000)'
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind == "setting":
        return f"{value:.0f}" if np.isfinite(value) else "n/a"
    if not np.isfinite(value):
        if kind == "turn" and method == "exact":
            return f"never (exact, {n:,} turns searched)" if n else "never (exact)"
        return "n/a"
    unit = " pp" if kind == "pp" else ""
    if method == "exact":
        if abs(value) < EXACT_ZERO:  # 0 (often by symmetry): no sign, no decimals
            return f"0{'%' if kind == 'pct' else ''}{unit} (exact)"
        return f"{_number(value, kind)}{unit} (exact)"
    size = sample_text(n)
    count = _share_count(value, n, kind)
    if count is not None:  # a share of n games: Wilson's interval
        from tabletop.stats import proportion_ci

        low, high = proportion_ci(count, int(n))
    elif low == high:  # every game gave the same figure
        return f"{_number(value, kind)}{unit} in every game ({size})"
    if kind in ("pct", "pp"):
        decimals = _decimals(low, high)
    elif kind == "num":
        decimals = 2 if max(abs(value), abs(low), abs(high)) < 1000 else 0
    else:
        decimals = None
    shown = _number(value, kind, decimals)
    if count is not None and decimals is not None:
        from tabletop.stats import share_percent  # a share of n games: rounded exactly

        shown = share_percent(count, int(n), decimals)
    return (f"{shown}{unit} [{_number(low, kind, decimals)}, "
            f"{_number(high, kind, decimals)}] ({size})")  # fmt: skip


def _share_count(value: float, n, kind: str) -> int | None:
    """The count of games behind a simulated share ``value`` of ``n`` games (``kind``
    "pct"), or None when the figure is no such share (another kind, a difference of two
    runs, or a value that is not a whole number of games out of ``n``)."""
    if kind != "pct" or isinstance(n, tuple) or not n or not 0 <= value <= 1:
        return None
    count = value * n
    return round(count) if abs(count - round(count)) < 1e-9 * n else None


def knobs_text(knobs: Mapping) -> str:
    """A knob setting as Markdown code.

    Examples
    --------
    >>> knobs_text({"sale_price": "after", "min_bid": 1})
    '`sale_price = "after"`, `min_bid = 1`'
    """
    return ", ".join(f"`{k} = {_value(v)}`" for k, v in knobs.items())


def _value(v) -> str:
    return f'"{v}"' if isinstance(v, str) else repr(v)


def fill(text: str, base: pd.DataFrame, fix: pd.DataFrame | None = None,
         knobs: Mapping | None = None) -> str:  # fmt: skip
    """``text`` with its fields (:class:`tabletop.games.Cell`) written from the cards
    ``base`` (seed rules) and ``fix`` (the fix), and ``{knobs}`` from ``knobs``."""
    rows = {"base": base.set_index("metric")}
    if fix is not None:
        rows["fix"] = fix.set_index("metric")
        rows["diff"] = compare(fix, base).set_index("metric")

    def one(match: re.Match) -> str:
        complement, which, metric, kind = match.groups()
        if which not in rows:
            raise ValueError(f"field {match.group(0)} needs the fix's card")
        table = rows[which]
        if metric not in table.index:
            raise ValueError(f"field {match.group(0)}: no metric {metric!r} on the card")
        r = table.loc[metric]
        kind = kind or "num"
        if which == "diff":
            value, low, high = r["difference"], r["low"], r["high"]
            n = (int(rows["fix"].loc[metric, "n"]), int(rows["base"].loc[metric, "n"]))
        else:
            value, low, high, n = r["value"], r["low"], r["high"], int(r["n"])
        if complement:
            value, low, high = 1 - value, 1 - high, 1 - low
        return format_figure(float(value), float(low), float(high), r["method"], n, kind)

    out = _FIELD.sub(one, text)
    if "{knobs}" in out:
        if knobs is None:
            raise ValueError("field {knobs} needs the fix's knob setting")
        out = out.replace("{knobs}", knobs_text(knobs))
    return out


# ---- the table ---------------------------------------------------------------------------


def improves(objective: str, fix: pd.DataFrame, base: pd.DataFrame) -> bool:
    """Whether ``fix`` brings ``objective`` below the seed rules' ``base``: for an exact
    figure by more than the rounding tolerance, for a Monte Carlo one with the 95 %
    interval of the difference below 0 (:func:`tabletop.balance.compare`)."""
    row = compare(fix, base).set_index("metric").loc[objective]
    return bool(row["significant"]) and float(row["difference"]) < 0


def choose_fix(objective: str, cards: list[pd.DataFrame]) -> int:
    """Index of the fix shown: the first card whose 95 % interval of ``objective``
    reaches the lowest value among ``cards`` (exact figures: the first lowest value)."""
    if not cards:
        raise ValueError("choose_fix needs at least one card")
    rows = [c.set_index("metric").loc[objective] for c in cards]
    values = [float(r["value"]) for r in rows]
    if all(not np.isfinite(v) for v in values):
        return 0
    best = np.nanmin(values)
    for i, r in enumerate(rows):
        if np.isfinite(r["value"]) and float(r["low"]) <= best:
            return i
    return int(np.nanargmin(values))


def _link(report: str, section: str, folder: Path) -> str:
    """The Markdown link to a section of a report: its anchor while the report has that
    heading, else the report itself; "" without a report."""
    if not report:
        return ""
    path = folder / f"{report}.md"
    if not path.is_file():
        return ""
    target = f"{report}.md"
    if section and anchor(section) in anchors(path.read_text(encoding="utf-8")):
        target += f"#{anchor(section)}"
    return f" [§]({target})"


#: ``{§Heading}`` in a cell's text: a link to that section of the cell's report, there
_SECTION = re.compile(r"\{§([^{}]+)\}")


def _with_links(cell, text: str, folder: Path) -> str:
    """A filled cell's text with its ``{§Heading}`` links written, then the link of
    the cell's own section."""
    text = _SECTION.sub(lambda m: _link(cell.report, m.group(1), folder), text)
    return text + _link(cell.report, cell.section, folder)


def game_row(game: str, folder: str | os.PathLike, source: CardSource | None = None) -> dict:
    """The rendered cells of one game (keys :data:`COLUMNS`), and ``"note"``."""
    from tabletop.games import get

    entry = get(game)
    spec = entry.index_row
    if spec is None:
        raise ValueError(f"game {game!r} has no index row")
    source = source or seed_card
    base = source(game, {})
    fixes = [source(game, dict(knobs)) for knobs in spec.fixes]
    chosen = choose_fix(spec.objective, fixes) if fixes else None
    fix = fixes[chosen] if chosen is not None else None
    knobs = dict(spec.fixes[chosen]) if chosen is not None else None
    folder = Path(folder)
    row = {"Game": f"**{entry.title}**"}
    cells = list(spec.cells())
    if fix is not None and spec.no_fix is not None and not any(
            improves(spec.objective, f, base) for f in fixes):  # fmt: skip
        cells[-1] = spec.no_fix  # no knob tried brings the objective down
    for column, cell in zip(COLUMNS[1:], cells, strict=True):
        needs_fix = "{knobs}" in cell.text or _NEEDS_FIX.search(cell.text)
        text = "none tried" if fix is None and needs_fix else fill(cell.text, base, fix, knobs)
        if column == COLUMNS[-1] and fix is not None:
            text += _tried(spec.fixes, spec.others, cell.section, cell is spec.no_fix)
        row[column] = _with_links(cell, text, folder)
    row["note"] = fill(spec.note, base, fix, knobs) if spec.note else ""
    return row


def _tried(fixes, others: str = "", section: str = "", none_helps: bool = False) -> str:
    """What the fix cell was chosen from: the settings the card tries (``none_helps``:
    none of them brings the objective down, so none is "the best"), and, with ``others``
    (a heading of the report), that the report tries other settings there: a
    ``{§others}`` link, left out when the cell's own ``section`` link goes there.

    Examples
    --------
    >>> _tried(({"horizon": 10},))
    ' (the only setting the card tries)'
    >>> text = _tried(({"min_bid": 1}, {"min_bid": 10}), "Variants")
    >>> text.partition(": ")[0]
    ' (the better of the 2 settings the card tries'
    >>> text.partition(": ")[2]
    '`min_bid = 1`; `min_bid = 10`; the report tries others{§Variants})'
    >>> _tried(({"horizon": 10},), "Tie-break", "Tie-break")
    ' (the only setting the card tries; the report tries others)'
    >>> _tried(({"min_bid": 1}, {"min_bid": 10}), none_helps=True)
    ' (the settings the card tries: `min_bid = 1`; `min_bid = 10`)'
    """
    if none_helps and len(fixes) > 1:
        text = f" (the settings the card tries: {'; '.join(knobs_text(k) for k in fixes)}"
    elif len(fixes) == 1:
        text = " (the only setting the card tries"
    else:
        best = "better" if len(fixes) == 2 else "best"
        text = (f" (the {best} of the {len(fixes)} settings the card tries: "
                f"{'; '.join(knobs_text(k) for k in fixes)}")  # fmt: skip
    if others:
        text += "; the report tries others" + ("" if others == section else f"{{§{others}}}")
    return text + ")"


def _indexed_games(games=None) -> list[str]:
    """``games``, or by default every registered game with an index row."""
    from tabletop.games import GAMES

    return [g for g in GAMES if GAMES[g].index_row is not None] if games is None else games


def card_requests(games=None) -> list[tuple[str, dict]]:
    """The (game, knobs) of every card the balance table reads: each game's seed rules
    and each of its candidate fixes."""
    from tabletop.games import GAMES

    games = _indexed_games(games)
    return [(g, dict(knobs)) for g in games for knobs in ({}, *GAMES[g].index_row.fixes)]


def _cards_logged(source: CardSource, requests: list[tuple[str, dict]]) -> list[pd.DataFrame]:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    return [source(*request) for request in requests]


def prefetch_cards(jobs: int, games=None, source: CardSource | None = None) -> list[pd.DataFrame]:
    """The cards of :func:`card_requests` from ``source`` (default :func:`seed_card`,
    which keeps them in the card cache for :func:`balance_table` to read), in the order
    of the requests. With ``jobs`` > 1 the games are computed that many at a time in
    worker processes, each game's cards in one worker (they share its solves). Each
    card is seeded by its own request, so the cards are the same on any number of
    workers.
    """
    import functools
    from concurrent.futures import ProcessPoolExecutor

    from tabletop.sweep import exit_with_parent

    source = source or seed_card
    requests = card_requests(games)
    if jobs <= 1:
        return [source(*request) for request in requests]
    by_game: dict[str, list] = {}
    for request in requests:
        by_game.setdefault(request[0], []).append(request)
    tasks = sorted(by_game.values(), key=len, reverse=True)  # the most cards first
    with ProcessPoolExecutor(max_workers=jobs, initializer=exit_with_parent,
                             initargs=(os.getpid(),)) as pool:  # fmt: skip
        done = pool.map(functools.partial(_cards_logged, source), tasks)
        cards = {repr(r): card for task, out in zip(tasks, done, strict=True)
                 for r, card in zip(task, out, strict=True)}  # fmt: skip
    return [cards[repr(r)] for r in requests]


def balance_table(folder: str | os.PathLike, games=None, source: CardSource | None = None) -> str:
    """The Markdown of the balance table (with its legend and notes) for ``games``
    (default: every registered game with an index row), links checked against the
    reports of ``folder``."""
    rows = [game_row(g, folder, source) for g in _indexed_games(games)]

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join(":---" for _ in COLUMNS) + "|"]
    lines += ["| " + " | ".join(cell(r[c]) for c in COLUMNS) + " |" for r in rows]
    notes = [f"* {r['Game']}: {r['note']}" for r in rows if r["note"]]
    return "\n".join(lines) + ("\n\n" + "\n".join(notes) if notes else "")
