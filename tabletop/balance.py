"""Balance cards: one tidy table of a rules set's headline figures, and comparisons.

A *card* is a :class:`pandas.DataFrame` with one row per metric and the columns

=========  ==================================================================
metric     the metric's name (fixed per game, so cards of two variants line up)
value      the figure
low, high  its 95 % interval (equal to ``value`` when exact)
method     ``"exact"`` or ``"monte carlo"``
n          games simulated, or states solved
unit       what ``value`` counts
meaning    one line saying what the figure is and how it was obtained
=========  ==================================================================

Each game declares its metrics once, as a tuple of :class:`Metric` (name, method,
unit and a meaning whose ``{fields}`` the card fills, e.g. the bid grid of a solve),
and builds its card with :func:`build_card` from :func:`exact` and
:func:`estimate` entries. A Monte Carlo interval is always the normal interval
``mean ± z·se`` of :meth:`tabletop.stats.MonteCarloEstimate.ci`, so the standard
error can be read back from a card: ``se = (high - low) / (2 z)``.

:func:`compare` sets two cards of the same game side by side: the difference
``variant - baseline`` of each metric with its 95 % interval. An exact difference is
exact; a Monte Carlo difference of two independent runs has the standard error
``sqrt(se_variant² + se_baseline²)``. A difference is *significant* (marker ``*``)
when its interval excludes 0 (for an exact metric: when the two values differ by
more than a rounding tolerance). :func:`verdict` writes a short paragraph from these
numbers, and :func:`markdown_card` a self-contained Markdown card with one figure
(:func:`comparison_figure`).

Examples
--------
>>> from tabletop.stats import estimate_mean
>>> METRICS = (Metric("p_first", "exact", "probability", "first player wins"),
...            Metric("rounds", "monte carlo", "rounds", "mean length, {agents}"))
>>> card = build_card(METRICS, {"p_first": exact(0.5, 10),
...                             "rounds": estimate(estimate_mean([3, 4, 5, 4]))},
...                   agents="random play")
>>> card[["metric", "value", "method", "n"]].values.tolist()
[['p_first', 0.5, 'exact', 10], ['rounds', 4.0, 'monte carlo', 4]]
>>> card.loc[1, "meaning"]
'mean length, random play'
"""

from __future__ import annotations

import base64
import io
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from tabletop.frozen import same_fields
from tabletop.stats import MonteCarloEstimate

if TYPE_CHECKING:
    import pandas as pd


COLUMNS = ("metric", "value", "low", "high", "method", "n", "unit", "meaning")
METHODS = ("exact", "monte carlo")
LEVEL = 0.95
# scipy.stats.norm.ppf(0.5 + LEVEL / 2), written out so that importing the cards does not
# import scipy.stats (tests/tabletop/test_balance.py holds the two equal)
Z = 1.959963984540054
EXACT_TOL = 1e-9  # exact values closer than this (relative to their size) are equal
COMPARE_COLUMNS = ("metric", "baseline", "baseline_low", "baseline_high", "variant",
                   "variant_low", "variant_high", "difference", "low", "high",
                   "significant", "marker", "method", "unit", "meaning")  # fmt: skip


@dataclass(frozen=True)
class Metric:
    """One row of a game's card: its name, method, unit and meaning.

    ``meaning`` may hold ``{fields}`` that :func:`build_card` fills from its keyword
    arguments (the grid of a solve, the agents of a simulation...).
    """

    name: str
    method: str
    unit: str
    meaning: str

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"metric name must be a Python identifier, got {self.name!r}")
        if self.method not in METHODS:
            raise ValueError(f"method of {self.name!r} must be one of {METHODS}, got "
                             f"{self.method!r}")  # fmt: skip


class Entry(NamedTuple):
    """A computed figure: value, 95 % interval, games or states behind it."""

    value: float
    low: float
    high: float
    n: int


def exact(value, n: int) -> Entry:
    """An exact figure (its interval is the value itself); ``n`` states solved."""
    value = float(value) if value is not None else math.nan
    return Entry(value, value, value, int(n))


def estimate(est: MonteCarloEstimate) -> Entry:
    """A Monte Carlo mean with its 95 % normal interval (see the module docstring)."""
    if not isinstance(est, MonteCarloEstimate):
        raise TypeError(f"est must be a MonteCarloEstimate, got {type(est).__name__}")
    low, high = est.ci(LEVEL)
    return Entry(est.mean, low, high, est.n)


def missing(n: int) -> Entry:
    """A Monte Carlo figure with no value (``n`` samples were too few); NaN throughout."""
    return Entry(math.nan, math.nan, math.nan, int(n))


def normal(value: float, stderr: float, n: int) -> Entry:
    """A Monte Carlo figure that is not a plain mean (a spread, a ratio), given its
    standard error from the delta method; the interval is ``value ± z·stderr``."""
    return estimate(MonteCarloEstimate(float(value), float(stderr), int(n)))


def build_card(metrics: Sequence[Metric], entries: Mapping[str, Entry], **context) -> pd.DataFrame:
    """The card of ``metrics`` (in their order) from ``entries`` (one per metric).

    Raises ValueError when an entry is missing, unexpected, or of the wrong method
    (an exact metric needs ``low == value == high``).
    """
    import pandas as pd

    names = [m.name for m in metrics]
    missing = [n for n in names if n not in entries]
    extra = [n for n in entries if n not in names]
    if missing or extra:
        raise ValueError(f"card entries must match the metrics: missing {missing}, extra {extra}")
    rows = []
    for m in metrics:
        e = entries[m.name]
        if not isinstance(e, Entry):
            raise TypeError(f"entry {m.name!r} must be an Entry, got {type(e).__name__}")
        if m.method == "exact" and not (_same(e.low, e.value) and _same(e.high, e.value)):
            raise ValueError(f"exact metric {m.name!r} has an interval: {e}")
        rows.append((m.name, e.value, e.low, e.high, m.method, e.n, m.unit,
                     m.meaning.format(**context)))  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame.astype({"value": float, "low": float, "high": float, "n": np.int64})


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def check_card(card) -> pd.DataFrame:
    """Return ``card`` if it has the card columns and methods, else raise ValueError."""
    import pandas as pd

    if not isinstance(card, pd.DataFrame):
        raise TypeError(f"a card must be a pandas DataFrame, got {type(card).__name__}")
    if tuple(card.columns) != COLUMNS:
        raise ValueError(f"a card has the columns {COLUMNS}, got {tuple(card.columns)}")
    bad = sorted(set(card["method"]) - set(METHODS))
    if bad:
        raise ValueError(f"card methods must be one of {METHODS}, got {bad}")
    if card["metric"].duplicated().any():
        raise ValueError(f"card metrics repeat: {card['metric'][card['metric'].duplicated()]}")
    return card


def stderr_of(card: pd.DataFrame) -> pd.Series:
    """The standard error behind each row's interval (0 for exact rows), by metric."""
    import pandas as pd

    se = (card["high"] - card["low"]) / (2 * Z)
    se = se.where(card["method"] != "exact", 0.0)
    return pd.Series(se.to_numpy(), index=card["metric"].to_numpy(), name="stderr")


def compare(variant: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """The difference ``variant - baseline`` of every metric, with its 95 % interval.

    Both cards must list the same metrics with the same methods. Monte Carlo rows
    are taken as independent runs (the standard errors add in quadrature).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COMPARE_COLUMNS`: both values with their intervals, the
        difference and its interval,
        ``significant`` (the interval excludes 0; exact: the values differ), the
        ``marker`` ``*`` where significant, and the metric's method, unit and meaning
        (the variant's).

    Examples
    --------
    >>> a = build_card([Metric("p", "exact", "probability", "p")], {"p": exact(0.5, 1)})
    >>> b = build_card([Metric("p", "exact", "probability", "p")], {"p": exact(0.6, 1)})
    >>> row = compare(b, a).iloc[0]
    >>> round(float(row["difference"]), 12), row["marker"]
    (0.1, '*')
    """
    import pandas as pd

    variant, baseline = check_card(variant), check_card(baseline)
    if variant["metric"].tolist() != baseline["metric"].tolist():
        raise ValueError(
            "the cards list different metrics: "
            f"{variant['metric'].tolist()} vs {baseline['metric'].tolist()}"
        )
    if variant["method"].tolist() != baseline["method"].tolist():
        raise ValueError("the cards compute some metric by different methods")
    se = np.hypot(stderr_of(variant).to_numpy(), stderr_of(baseline).to_numpy())
    v, b = variant["value"].to_numpy(), baseline["value"].to_numpy()
    diff = v - b
    is_exact = (variant["method"] == "exact").to_numpy()
    low = np.where(is_exact, diff, diff - Z * se)
    high = np.where(is_exact, diff, diff + Z * se)
    scale = np.maximum(1.0, np.maximum(np.abs(v), np.abs(b)))
    with np.errstate(invalid="ignore"):
        significant = np.where(is_exact, np.abs(diff) > EXACT_TOL * scale,
                               (low > 0) | (high < 0))  # fmt: skip
    significant &= np.isfinite(diff)
    out = pd.DataFrame({
        "metric": variant["metric"].to_numpy(), "baseline": b,
        "baseline_low": baseline["low"].to_numpy(), "baseline_high": baseline["high"].to_numpy(),
        "variant": v, "variant_low": variant["low"].to_numpy(),
        "variant_high": variant["high"].to_numpy(),
        "difference": diff, "low": low, "high": high, "significant": significant,
        "marker": np.where(significant, "*", ""), "method": variant["method"].to_numpy(),
        "unit": variant["unit"].to_numpy(), "meaning": variant["meaning"].to_numpy(),
    })  # fmt: skip
    return out


def _num(x: float) -> str:
    if not np.isfinite(x):
        return "n/a"
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    return f"{x:.3g}" if abs(x) >= 0.001 else f"{x:.2e}"


def verdict(comparison: pd.DataFrame, headlines: Mapping[str, str],
            length: str | None = None, note: str | None = None) -> str:  # fmt: skip
    """A short paragraph from a :func:`compare` table, every number computed.

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`compare`'s table.
    headlines : mapping of str to str
        Metrics to speak of, each with its name in prose ("the first player's
        winning chance").
    length : str, optional
        A metric of game length: the paragraph says by how much games get shorter
        or longer, when significant.
    note : str, optional
        A last sentence (how the Monte Carlo differences were obtained...).

    Examples
    --------
    >>> M = [Metric("p", "exact", "probability", "p"), Metric("t", "exact", "rounds", "t")]
    >>> a = build_card(M, {"p": exact(0.5, 1), "t": exact(10, 1)})
    >>> b = build_card(M, {"p": exact(0.55, 1), "t": exact(8, 1)})
    >>> text = verdict(compare(b, a), {"p": "the first player's chance"}, length="t")
    >>> for part in text.split("; "): print(part)
    The variant moves the first player's chance from 0.5 to 0.55
    games get 20% shorter (10 to 8 rounds). 2 of 2 metrics differ significantly.
    """
    rows = comparison.set_index("metric")
    parts = []
    for metric, phrase in headlines.items():
        if metric not in rows.index:
            raise ValueError(f"headline {metric!r} is not a metric of the comparison")
        r = rows.loc[metric]
        if not np.isfinite(r["difference"]):
            parts.append(f"cannot compare {phrase} ({_num(r['baseline'])} vs "
                         f"{_num(r['variant'])})")  # fmt: skip
        elif r["significant"]:
            parts.append(f"moves {phrase} from {_num(r['baseline'])} to {_num(r['variant'])}")
        elif r["method"] == "exact":
            parts.append(f"leaves {phrase} at {_num(r['baseline'])}")
        else:
            parts.append(f"leaves {phrase} within noise ({_num(r['baseline'])} vs "
                         f"{_num(r['variant'])}, difference interval {_num(r['low'])} to "
                         f"{_num(r['high'])})")  # fmt: skip
    text = "The variant " + "; ".join(parts) if parts else ""
    if length is not None:
        r = rows.loc[length]
        if r["significant"] and r["baseline"] and np.isfinite(r["baseline"]):
            change = r["difference"] / r["baseline"]
            way = "shorter" if change < 0 else "longer"
            clause = (f"games get {abs(change):.0%} {way} ({_num(r['baseline'])} to "
                      f"{_num(r['variant'])} {r['unit']})")  # fmt: skip
        else:
            clause = f"game length does not change significantly ({_num(r['baseline'])} " \
                     f"vs {_num(r['variant'])} {r['unit']})"  # fmt: skip
        text = f"{text}; {clause}" if text else clause[0].upper() + clause[1:]
    n_sig = int(comparison["significant"].sum())
    text += f". {n_sig} of {len(comparison)} metrics differ significantly"
    changed = comparison.loc[comparison["significant"], "metric"].tolist()
    shown = [m for m in changed if m not in headlines and m != length]
    if shown:
        text += " (also " + ", ".join(shown[:6]) + (", ..." if len(shown) > 6 else "") + ")"
    text += "."
    if note:
        text += " " + note
    return text


def _markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a GitHub Markdown table (numbers to 4 significant digits)."""

    def cell(x) -> str:
        if isinstance(x, bool | np.bool_):
            return "yes" if x else ""
        if isinstance(x, numbers.Real) and not isinstance(x, numbers.Integral):
            return "n/a" if not np.isfinite(x) else f"{x:.4g}"
        return str(x).replace("|", "\\|")

    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---:" if frame[c].dtype.kind in "fiu" else ":---"
                          for c in frame.columns) + "|"  # fmt: skip
    body = ["| " + " | ".join(cell(x) for x in row) + " |" for row in frame.itertuples(False)]
    return "\n".join([head, rule, *body])


def comparison_figure(comparison: pd.DataFrame, title: str = ""):
    """One figure of a comparison: each metric's difference with its 95 % interval.

    Metrics have different units, so each row is scaled by the largest absolute end
    of its interval (the axis runs from -1 to 1); the numbers themselves are written
    at the right. Significant rows are drawn in colour. Returns a matplotlib Figure.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    n = len(comparison)
    height = 0.3 * n + 1.2  # inches: 0.75 below the rows for the axis, 0.45 above
    fig = Figure(figsize=(9, height))
    ax = fig.add_axes((0.30, 0.75 / height, 0.40, 1 - 1.2 / height))
    for i, r in enumerate(comparison.itertuples(False)):
        y = n - 1 - i
        ends = [abs(x) for x in (r.low, r.high, r.difference) if np.isfinite(x)]
        scale = max(ends) if ends and max(ends) > 0 else 1.0
        colour = "tab:red" if r.significant else "0.45"
        if np.isfinite(r.difference):
            ax.plot([r.low / scale, r.high / scale], [y, y], color=colour, lw=2)
            ax.plot([r.difference / scale], [y], "o", color=colour,
                    ms=5 if r.method == "exact" else 4)  # fmt: skip
            label = (f"{_num(r.difference)}" if r.method == "exact" else
                     f"{_num(r.difference)} [{_num(r.low)}, {_num(r.high)}]")  # fmt: skip
        else:
            label = "n/a"
        ax.text(1.04, y, f"{label}{' *' if r.significant else ''}", va="center", fontsize=8,
                transform=ax.get_yaxis_transform())  # fmt: skip
    ax.axvline(0, color="0.2", lw=0.8)
    ax.set_yticks(range(n))
    ax.set_yticklabels([f"{m} ({'exact' if k == 'exact' else 'MC'})"
                        for m, k in zip(comparison["metric"][::-1], comparison["method"][::-1],
                                        strict=True)], fontsize=8)  # fmt: skip
    ax.set_xlim(-1.1, 1.1)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlabel("variant - baseline, scaled per metric (the numbers at the right)", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="0.9")
    if title:
        ax.set_title(title, fontsize=10)
    return fig


def figure_png(fig) -> bytes:
    """A matplotlib figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()


def markdown_card(comparison: pd.DataFrame, title: str, verdict_text: str,
                  variant: str, baseline: str, methods: str = "") -> str:  # fmt: skip
    """A self-contained Markdown card: title, verdict, the comparison table and one
    figure embedded as a PNG data URI (so the card is a single file).

    ``variant`` and ``baseline`` describe the two rules sets; ``methods`` is a
    closing paragraph on how the figures were obtained.
    """
    png = figure_png(comparison_figure(comparison, f"{title}: variant - baseline"))
    image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    table = compare_text(comparison).reset_index()  # Monte Carlo: value [95% interval]
    meanings = "\n".join(f"* `{m}`: {t}" for m, t in zip(comparison["metric"],
                                                          comparison["meaning"], strict=True))
    parts = [
        f"# {title}: balance card",
        f"**Variant:** {variant}  \n**Baseline:** {baseline}",
        verdict_text,
        _markdown_table(table),
        "`*`: the 95 % interval of the difference excludes 0 (exact rows: the values differ).",
        f"![{title}: each metric's difference, variant - baseline, with its 95 % interval]"
        f"({image})",
        "## What each metric is\n\n" + meanings,
    ]
    if methods:
        parts.append(methods)
    return "\n\n".join(parts) + "\n"


# ---- running cards by game name (the registry, :mod:`tabletop.games`) ----------------


def knob_names(rules_class) -> set[str]:
    """The knobs of a ``Rules`` class: its public fields set at construction."""
    from dataclasses import fields

    return {f.name for f in fields(rules_class) if f.init and not f.name.startswith("_")}


def split_knobs(rules_class, kwargs: Mapping) -> tuple[dict, dict]:
    """``kwargs`` split into the rules' knobs and the other (card) options."""
    names = knob_names(rules_class)
    knobs = {k: v for k, v in kwargs.items() if k in names}
    return knobs, {k: v for k, v in kwargs.items() if k not in names}


def balance_task(*, game: str, seed=None, **kwargs) -> pd.DataFrame:
    """The card of ``game`` for ``Rules(**knobs)``; the other keyword arguments go to its
    ``balance`` (sizes). What :func:`tabletop.sweep.sweep` runs for ``"<game>.balance"``.

    Examples
    --------
    >>> card = balance_task(game="commander", seed=1, win_gold=6, n_games=200)
    >>> card.columns.tolist() == list(COLUMNS)
    True
    """
    from tabletop.games import get

    entry = get(game)
    cls = entry.rules_class()
    knobs, options = split_knobs(cls, kwargs)
    return entry.balance(cls(**knobs), seed=seed, **options)


@dataclass(frozen=True, eq=False)
class Comparison:
    """What :func:`compare_rules` returns.

    Attributes
    ----------
    table : pandas.DataFrame
        :func:`compare`'s table.
    verdict : str
        :func:`verdict`'s paragraph.
    variant, baseline : pandas.DataFrame
        The two cards.
    variant_rules, baseline_rules : object
        The two rules sets.
    """

    __eq__ = same_fields

    table: pd.DataFrame
    verdict: str
    variant: pd.DataFrame
    baseline: pd.DataFrame
    variant_rules: object
    baseline_rules: object

    def markdown(self, title: str) -> str:
        """The self-contained Markdown card (:func:`markdown_card`)."""
        return markdown_card(self.table, title, self.verdict, _rules_text(self.variant_rules),
                             _rules_text(self.baseline_rules))  # fmt: skip


def _rules_text(rules) -> str:
    from dataclasses import fields

    changed = [f"{f.name}={getattr(rules, f.name)!r}" for f in fields(rules)
               if f.init and not f.name.startswith("_")
               and getattr(rules, f.name) != f.default]  # fmt: skip
    return f"`{type(rules).__name__}({', '.join(changed)})`"


def compare_rules(game: str, variant: Mapping, baseline: Mapping | None = None, *,
                  seed=0, cache: bool = False, **options) -> Comparison:  # fmt: skip
    """The card of ``Rules(**variant)`` beside that of ``Rules(**baseline)`` (default:
    the seed's rules) for ``game``, their differences and the verdict.

    The two cards' Monte Carlo runs are independent: the baseline runs on child 0 of
    ``seed``, the variant on child 1 (:func:`tabletop.sweep.task_seed`), so their
    standard errors add. ``options`` go to both cards' ``balance`` (sizes). With
    ``cache``, cards are read from and stored in :func:`card_cache_dir`
    (:func:`cached_balance`).

    Examples
    --------
    >>> res = compare_rules("commander", {"win_gold": 8}, {"win_gold": 6}, n_games=300)
    >>> res.table.set_index("metric").loc["fastest_win_income_4", ["baseline", "variant"]].tolist()
    [5.0, 7.0]
    """
    from tabletop.games import get
    from tabletop.seeding import as_seed_sequence
    from tabletop.sweep import task_seed

    entry = get(game)
    cls = entry.rules_class()
    variant_rules, baseline_rules = cls(**dict(variant)), cls(**dict(baseline or {}))
    root = as_seed_sequence(seed)
    base_card = cached_balance(game, baseline_rules, seed=task_seed(root, 0), cache=cache,
                               **options)  # fmt: skip
    var_card = cached_balance(game, variant_rules, seed=task_seed(root, 1), cache=cache,
                              **options)  # fmt: skip
    table = compare(var_card, base_card)
    spec = entry.verdict
    note = ("Monte Carlo differences come from independent runs (children 0 and 1 of "
            f"seed {root.entropy}); exact differences are exact.")  # fmt: skip
    text = verdict(table, spec["headlines"], spec.get("length"), note)
    return Comparison(table, text, var_card, base_card, variant_rules, baseline_rules)


def compare_text(table: pd.DataFrame) -> pd.DataFrame:
    """A :func:`compare` table for reading: each figure with its interval as text.

    Exact figures are written alone; Monte Carlo ones as ``value [low, high]``.
    """
    import pandas as pd

    def fig(value, low, high, method) -> str:
        if method == "exact" or not np.isfinite(value):
            return _num(value)
        return f"{_num(value)} [{_num(low)}, {_num(high)}]"

    rows = []
    for r in table.itertuples(False):
        rows.append({
            "metric": r.metric,
            "baseline": fig(r.baseline, r.baseline_low, r.baseline_high, r.method),
            "variant": fig(r.variant, r.variant_low, r.variant_high, r.method),
            "difference": fig(r.difference, r.low, r.high, r.method),
            "sig": r.marker, "method": r.method, "unit": r.unit,
        })  # fmt: skip
    return pd.DataFrame(rows).set_index("metric")


# ---- a disk cache of cards ----------------------------------------------------------------

CACHE_VERSION = 1


def card_cache_dir():
    """``$TABLETOP_CACHE_DIR/cards`` if set, else ``~/.cache/tabletop/cards``."""
    from tabletop.files import cache_root

    return cache_root("cards")


def _source_digest(game: str) -> str:
    """A digest of the game's and the shared package's sources: a card computed by other
    code is never read back."""
    import hashlib
    import importlib.util
    from pathlib import Path

    digest = hashlib.sha256()
    for package in (game, "tabletop"):
        folder = Path(importlib.util.find_spec(package).origin).parent
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


#: Options of a game's ``balance`` that do not change the card: the seed is keyed on its
#: own, and a card is the same on any number of workers, with or without a bar.
_NOT_IN_KEY = frozenset({"seed", "jobs", "progress", "cache_dir"})


def _card_key(game: str, rules, seed, options: Mapping) -> dict | None:
    """The cache key of a card, or None when the seed is not reproducible. The options
    are completed with the defaults of the game's ``balance``, so a card asked for with
    a default written out (as the command line does) is the card asked for without it;
    the options that do not change the card (:data:`_NOT_IN_KEY`) are left out."""
    import inspect

    from tabletop.games import get
    from tabletop.seeding import as_seed_sequence

    if seed is None or isinstance(seed, np.random.Generator):
        return None
    seq = as_seed_sequence(seed)
    params = inspect.signature(get(game).balance).parameters.values()
    defaults = {p.name: p.default for p in params
                if p.kind is p.KEYWORD_ONLY and p.default is not p.empty}  # fmt: skip
    options = {name: value for name, value in {**defaults, **options}.items()
               if name not in _NOT_IN_KEY}  # fmt: skip
    return {"format": "tabletop.balance", "version": CACHE_VERSION, "game": game,
            "rules": repr(rules), "options": {k: repr(v) for k, v in sorted(options.items())},
            "seed": [repr(seq.entropy), list(seq.spawn_key)],
            "source": _source_digest(game)}  # fmt: skip


def cached_balance(game: str, rules, *, seed=0, cache: bool = True, **options) -> pd.DataFrame:
    """The card of ``rules`` for ``game``, read from :func:`card_cache_dir` when a card
    of the same rules, options, seed and source code is stored there, else computed
    (and stored, with ``cache``). A seed of None is never cached. A cache folder that
    cannot be written gives a :class:`tabletop.files.CacheWarning`; the card is returned.

    Examples
    --------
    >>> from commander import Rules
    >>> card = cached_balance("commander", Rules(win_gold=6), n_games=200, cache=False)
    >>> list(card.columns) == list(COLUMNS)
    True
    """
    import hashlib
    import json

    import pandas as pd

    from tabletop.files import atomic_write_text, remove_stale_temporaries, warn_if_unwritable
    from tabletop.games import get

    entry = get(game)
    key = _card_key(game, rules, seed, options) if cache else None
    path = None
    if key is not None:
        name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
        path = card_cache_dir() / f"{game}-{name}.json"
        remove_stale_temporaries(path.parent)  # of writes killed mid-way
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") == key:
                card = pd.DataFrame(data["rows"], columns=list(COLUMNS))
                return check_card(card.astype({"value": float, "low": float, "high": float,
                                               "n": np.int64}))  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            pass
    card = check_card(entry.balance(rules, seed=seed, **options))
    if path is not None:
        rows = [[None if isinstance(x, float) and math.isnan(x) else
                 (x.item() if isinstance(x, np.generic) else x) for x in row]
                for row in card.itertuples(False)]  # exact floats (repr), NaN as null
        with warn_if_unwritable(path, f"the {game} balance card"):  # the card is kept
            atomic_write_text(path, json.dumps({"key": key, "rows": rows}) + "\n")
    return card
