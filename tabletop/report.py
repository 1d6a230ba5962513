"""Report helpers: notebooks write their findings as Markdown with PNG figures.

A notebook builds a :class:`Report` piece by piece (text, tables, figures); every
number in it comes from a computed object, never from typed-in text. ``write()``
stores ``<name>.md`` and ``figures/<name>-<figure>.png`` in the report folder, each
file atomically, so a failed run leaves the previous report whole.

The report folder is ``$TABLETOP_REPORT_DIR`` when set (the notebook runner and the
tests set it), else ``reports/`` of the source tree; a *variant* report (one whose
rules differ from the seed's) goes to ``reports/variants/<game>-<slug>/`` instead, so
the seed-rule reports are never overwritten by a variant run.

Notebook sizes (:data:`SIZES`): ``"small"`` for the test suite, ``"full"`` for
``make report`` (every headline that fits in its 15-minute budget) and
``"extended"`` for ``make report-extended`` (the long solves too). Notebooks take
their size and rules as parameters (:mod:`tabletop.notebooks`).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.files import atomic_write_bytes, atomic_write_text

if TYPE_CHECKING:
    import pandas as pd


SIZES = ("small", "full", "extended")
MISSING = "–"  # how a table prints a missing value
HEADLINE_MARK = "<!-- headline -->"  # marks a paragraph the report index quotes
APPENDIX_HEADING = "Appendix: checks and timings"
APPENDIX_INTRO = (
    "The Monte Carlo cross-checks of the exact figures (each with its z-score: the "
    "difference in standard errors) and the run's timings, kept here so that the "
    "sections above read as findings."
)
SEED_REPORT_DIR = Path(__file__).resolve().parents[1] / "reports"


def notebook_size() -> str:
    """The size notebooks run at: ``"small"`` or ``"full"`` (default)."""
    size = os.environ.get("TABLETOP_NOTEBOOK_SIZE", "full")
    if size not in SIZES:
        raise ValueError(f"TABLETOP_NOTEBOOK_SIZE must be one of {SIZES}, got {size!r}")
    return size


def report_dir() -> Path:
    """The folder reports are written to (see the module docstring)."""
    env = os.environ.get("TABLETOP_REPORT_DIR")
    if env:
        return Path(env)
    return SEED_REPORT_DIR


def changed_knobs(rules) -> dict:
    """The knobs of a rules object that differ from the seed's, in field order.

    Examples
    --------
    >>> import panache
    >>> changed_knobs(panache.Rules(n_dice=6))
    {'n_dice': 6}
    >>> changed_knobs(panache.Rules())
    {}
    """
    seed = type(rules)()
    return {f.name: getattr(rules, f.name) for f in fields(rules)
            if f.init and not f.name.startswith("_")
            and getattr(rules, f.name) != getattr(seed, f.name)}  # fmt: skip


def variant_slug(game: str, knobs: dict) -> str:
    """The folder name of a variant's reports: the game, then each changed knob and value.

    Examples
    --------
    >>> variant_slug("citadel", {"min_bid": 10})
    'citadel-min-bid-10'
    >>> variant_slug("panache", {"face_values": (-3, -2, -1, 0, 1, 2)})
    'panache-face-values-m3-m2-m1-0-1-2'
    """
    parts = [game]
    for name, value in knobs.items():
        text = str(value).lower().replace("-", "m")
        parts += [name.replace("_", "-"), re.sub(r"[^a-z0-9.]+", "-", text).strip("-")]
    return "-".join(p for p in parts if p)


def variant_dir(game: str, knobs: dict) -> Path:
    """Where a variant's reports go: ``reports/variants/<slug>/`` of the source tree."""
    return SEED_REPORT_DIR / "variants" / variant_slug(game, knobs)


def headlines(markdown: str) -> list[str]:
    """The headline paragraphs of a report's Markdown, in order."""
    out = []
    for block in re.split(r"\n[ \t]*\n", markdown):
        block = block.strip()
        if block.startswith(HEADLINE_MARK):
            out.append(block[len(HEADLINE_MARK):].strip())
    return out


def markdown_table(
    frame: pd.DataFrame | pd.Series, floatfmt: str = ".4g", index: bool = True
) -> str:
    """A DataFrame or Series as a GitHub Markdown table.

    A multi-level row index becomes one column per level (no tuples as row labels),
    columns with no value at all are left out, a missing value in the others (NaN,
    ``None``, ``<NA>``) is printed as "–" and a boolean as "yes" or "no".

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"v": [0.5, 1.0], "none": [None, None]},
    ...                      index=pd.MultiIndex.from_tuples([("NE", 20), ("NS", 20)],
    ...                                                      names=["sides", "step"]))
    >>> print(markdown_table(frame))
    | sides   |   step |   v |
    |:--------|-------:|----:|
    | NE      |     20 | 0.5 |
    | NS      |     20 | 1   |
    >>> print(markdown_table(pd.DataFrame({"p": [0.25, None], "pays": [True, False]})))
    |    |    p | pays   |
    |---:|-----:|:-------|
    |  0 | 0.25 | yes    |
    |  1 | –    | no     |

    A column of text is printed as written, even where it reads as a number:

    >>> gains = pd.DataFrame({"gain": ["1.1e-10", "0.583"], "value": [0.5, 1.0]})
    >>> print(markdown_table(gains, floatfmt=".3f", index=False))
    |    gain |   value |
    |--------:|--------:|
    | 1.1e-10 |   0.500 |
    |   0.583 |   1.000 |
    """
    import numpy as np
    import pandas as pd

    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    frame = frame.loc[:, frame.notna().any(axis=0)] if len(frame) else frame
    if index and isinstance(frame.index, pd.MultiIndex):
        frame, index = frame.reset_index(), False
    frame = frame.copy()
    for i in range(frame.shape[1]):  # by position: column names may repeat
        values = frame.iloc[:, i]
        is_bool = values.map(lambda v: isinstance(v, bool | np.bool_))
        if is_bool.any() and (is_bool | values.isna()).all():
            values = values.astype(object).where(~is_bool, values.map({True: "yes", False: "no"}))
        if values.isna().any():
            values = values.astype(object).where(values.notna(), None)
        frame.isetitem(i, values)
    # a column of text stays as written: tabulate would read "1.1e-10" back as a number
    # and print it in the column's float format ("0.000" under ".3f"); a text column of
    # numbers stays right-aligned, as numbers are
    shift = 1 if index else 0  # the row labels are tabulate's first column
    align = ["global"] * (shift + frame.shape[1])
    text = []
    for i in range(frame.shape[1]):
        cells = frame.iloc[:, i].dropna()
        if cells.size and cells.map(lambda v: isinstance(v, str)).all():
            text.append(i + shift)
            if cells.map(_reads_as_number).all():
                align[i + shift] = "right"
    return frame.to_markdown(index=index, floatfmt=floatfmt, missingval=MISSING,
                             disable_numparse=text or False, colalign=align)  # fmt: skip


def _reads_as_number(text: str) -> bool:
    """Whether ``text`` is a number as tabulate reads one ("1.1e-10", "-0.583",
    "48,859")."""
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


class Report:
    """A Markdown report assembled by a notebook.

    Parameters
    ----------
    name : str
        File stem: the report is ``<name>.md``.
    title : str
        The first heading.
    rules : rules object, optional
        The rules the notebook analyses. When they differ from the seed's, the report
        is a *variant* report: it opens with the changed knobs, follows each headline
        with the seed-rule report's headline in the same place (read from
        ``reports/<name>.md``), and is written to :func:`variant_dir` unless
        ``$TABLETOP_REPORT_DIR`` or ``write(directory)`` says otherwise.

    Notes
    -----
    ``text``, ``table`` and ``figure`` take ``appendix=True`` for material that checks
    or times the findings rather than states them (Monte Carlo z-tables, timing
    tables): it goes, in the order given, under one heading
    (:data:`APPENDIX_HEADING`) at the end of the report.

    Examples
    --------
    >>> r = Report("demo", "A demo")
    >>> r.text("Two and two make {}.".format(2 + 2))
    >>> print(r.markdown().splitlines()[0])
    # A demo
    """

    def __init__(self, name: str, title: str, rules=None):
        if not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"name must be letters, digits, '-' or '_', got {name!r}")
        self.name = name
        self.title = title
        self.rules = rules
        self.variant = changed_knobs(rules) if rules is not None else {}
        self._parts: list[str] = []
        self._appendix: list[str] = []
        self._figures: dict[str, bytes] = {}

    def _add(self, part: str, appendix: bool) -> None:
        (self._appendix if appendix else self._parts).append(part)

    def text(self, markdown: str, appendix: bool = False) -> None:
        """Append a paragraph (Markdown); to the appendix if ``appendix``."""
        self._add(markdown.strip(), appendix)

    def headline(self, markdown: str) -> None:
        """Append a headline finding: a paragraph shown as usual and quoted by the index.

        The paragraph is preceded by the invisible line ``<!-- headline -->``, which
        :mod:`tabletop.index` looks for when it builds ``reports/index.md``.
        """
        text = markdown.strip()
        if not text or "\n\n" in text:
            raise ValueError(f"a headline is one non-empty paragraph, got {markdown!r}")
        self._parts.append(f"{HEADLINE_MARK}\n{text}")

    def heading(self, title: str, level: int = 2) -> None:
        """Append a section heading."""
        self._parts.append("#" * level + " " + title)

    def table(
        self,
        frame: pd.DataFrame | pd.Series,
        caption: str | None = None,
        floatfmt: str = ".4g",
        index: bool = True,
        appendix: bool = False,
    ) -> None:
        """Append a table, with an optional caption above it; to the appendix if
        ``appendix``."""
        if caption:
            self._add(f"*{caption.strip()}*", appendix)
        self._add(markdown_table(frame, floatfmt=floatfmt, index=index), appendix)

    def figure(self, fig, key: str, caption: str, appendix: bool = False) -> None:
        """Append a matplotlib figure, stored as ``figures/<name>-<key>.png``; to the
        appendix if ``appendix``."""
        if key in self._figures:
            raise ValueError(f"figure key {key!r} is used twice in report {self.name!r}")
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
        self._figures[key] = buffer.getvalue()
        self._add(f"![{caption}](figures/{self.name}-{key}.png)\n\n*{caption}*", appendix)

    @property
    def game(self) -> str:
        """The game this report belongs to: its name up to the first ``_``."""
        return self.name.split("_", 1)[0]

    def _variant_header(self) -> str:
        seed = type(self.rules)()
        knobs = ", ".join(f"`{k} = {v!r}` (seed: `{getattr(seed, k)!r}`)"
                          for k, v in self.variant.items())  # fmt: skip
        return (f"**Variant report.** Every figure below is computed under the seed's "
                f"rules with {knobs}. Each headline finding is followed by the same "
                "finding under the seed's rules, quoted from the seed-rule report.")

    def _appendix_parts(self) -> list[str]:
        if not self._appendix:
            return []
        return [f"## {APPENDIX_HEADING}", APPENDIX_INTRO, *self._appendix]

    def markdown(self) -> str:
        """The report's Markdown text."""
        header = (f"# {self.title}\n\n<!-- generated from notebooks/{self.name}.ipynb; "
                  "edit the notebook, not this file -->")
        if not self.variant:
            return "\n\n".join([header, *self._parts, *self._appendix_parts()]) + "\n"
        seed_file = SEED_REPORT_DIR / f"{self.name}.md"
        seed = headlines(seed_file.read_text()) if seed_file.is_file() else []
        parts, k = [header, self._variant_header()], 0
        for part in self._parts:
            parts.append(part)
            if part.startswith(HEADLINE_MARK):
                quoted = seed[k] if k < len(seed) else "(no matching headline)"
                parts.append("> *Seed rules:* " + " ".join(quoted.split()))
                k += 1
        return "\n\n".join([*parts, *self._appendix_parts()]) + "\n"

    def write(self, directory: str | os.PathLike | None = None) -> Path:
        """Write the figures, then the Markdown, atomically; return the Markdown path."""
        if directory is not None:
            folder = Path(directory)
        elif self.variant and not os.environ.get("TABLETOP_REPORT_DIR"):
            folder = variant_dir(self.game, self.variant)
        else:
            folder = report_dir()
        for key, png in self._figures.items():
            atomic_write_bytes(folder / "figures" / f"{self.name}-{key}.png", png)
        return atomic_write_text(folder / f"{self.name}.md", self.markdown())
