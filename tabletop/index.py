"""Build the report index: ``python -m tabletop.index [--report-dir DIR] [--no-balance]``.

``reports/index.md`` opens with

* the cross-game balance table (:mod:`tabletop.balance_table`): for each game under
  the seed's rules its first-mover or seat edge, draw or stall rate, typical length,
  strongest exploit and best fix, every figure computed from the balance cards (read
  from the card cache, computed there when missing), each cell linked to its report
  section; ``--no-balance`` leaves the table out and computes nothing;
* the glossary of the reports' technical terms (:mod:`tabletop.glossary`), one
  heading per term;

then lists every report of the report folder (each ``<name>.md`` but the index
itself) with its title, a link, and its headline findings quoted from the report,
never typed in. The findings of a report are, by priority:

1. the paragraphs a notebook marked with :meth:`tabletop.report.Report.headline`
   (each follows the line ``<!-- headline -->``);
2. else the items of its summary section, a heading named "In short", "Headline
   findings", "Headlines", "Key findings", "Summary" or "Conclusions" (its list
   items, or its paragraphs when it has no list);
3. else its first paragraph of text.

Reports are grouped under "Reports by game" by game, the part of the file name
before the first ``_`` (``panache_turn.md`` → ``panache``); a group is titled by the
part of its first report's title before a colon (``Master Panache: the turn roll`` →
``Master Panache``). The index is written atomically; ``make report`` rebuilds it after
running the notebooks.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from tabletop.cli import ArgumentParser, one_line_errors
from tabletop.files import FileMissingError, atomic_write_text
from tabletop.glossary import glossary_markdown
from tabletop.report import HEADLINE_MARK, report_dir

INDEX_NAME = "index.md"
SUMMARY_HEADINGS = (
    "in short", "headline findings", "headlines", "key findings", "summary", "conclusions",
)  # fmt: skip
MAX_FINDINGS = 6
BALANCE_INTRO = (
    "Each game under its seed rules, from its balance card (the same table the library "
    "prints for any rules with `python -m <game> balance`): a simulated figure is followed "
    "by its 95% interval in brackets and its sample size n (the games the figure is "
    "computed over: the games simulated, or the finished ones where the cell says so; "
    "for a difference, the games of each of its two runs), an exact one is marked (exact). The "
    "note under the table says whether a game's card simulates its own games or shares "
    "the report's: where it has its own, the report sections the § links lead to hold "
    "other runs of the same rules, so their figures differ within their intervals. A "
    "share's interval is Wilson's, as in the reports; a mean's is the mean ± 1.96 "
    "standard errors, or a difference's the difference ± 1.96 standard errors of the "
    "two runs. The fix is the knob setting, among those the card tries (the cell names "
    "how many), that brings the exploit down most (the mildest one when several do), "
    "compared with the seed rules as "
    "`python -m <game> compare` does; when none brings it down, the cell says so."
)
GLOSSARY_INTRO = "The technical terms of the reports, in plain words."


@dataclass(frozen=True)
class ReportSummary:
    """One report as the index shows it.

    Attributes
    ----------
    name : str
        File stem (``panache_turn``).
    title : str
        The report's first heading.
    findings : tuple of str
        Headline findings, Markdown, one line each.
    source : str
        Where they come from: ``"headline"``, ``"summary"`` or ``"first paragraph"``.
    """

    name: str
    title: str
    findings: tuple[str, ...]
    source: str


def _blocks(text: str) -> list[str]:
    return [b.strip("\n") for b in re.split(r"\n[ \t]*\n", text) if b.strip()]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_list(block: str) -> bool:
    return re.match(r"\s*([*+-]|\d+\.)\s", block) is not None


def _items(block: str) -> list[str]:
    """A Markdown list block as its items (continuation lines joined); else the block."""
    if not _is_list(block):
        return [_one_line(block)]
    items: list[str] = []
    for line in block.splitlines():
        match = re.match(r"\s*(?:[*+-]|\d+\.)\s+(.*)", line)
        if match:
            items.append(match.group(1))
        elif items:
            items[-1] += " " + line.strip()
    return [_one_line(i) for i in items]


def _is_text(block: str) -> bool:
    """A paragraph or list: not a heading, table, figure, caption, comment or code."""
    first = block.lstrip()
    if first.startswith(("#", "|", "![", "<!--", "```", "<")):
        return False
    return not (first.startswith("*") and first.endswith("*") and not first.startswith("* "))


def summarize(path: str | os.PathLike) -> ReportSummary:
    """Title and headline findings of one Markdown report (see the module docstring).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "demo_dice.md"
    >>> _ = p.write_text("# Demo: dice\\n\\nSixes come up 1/6 of the time.\\n")
    >>> summarize(p).findings
    ('Sixes come up 1/6 of the time.',)
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    blocks = _blocks(text)
    if not blocks or not blocks[0].startswith("# "):
        raise ValueError(f"{path.name}: a report must start with a '# title' line")
    title = blocks[0].splitlines()[0][2:].strip()
    rest = blocks[1:]
    marked = [
        item
        for b in rest
        if b.startswith(HEADLINE_MARK)
        for item in _items(b[len(HEADLINE_MARK) :].strip())
    ]
    if marked:
        return ReportSummary(path.stem, title, tuple(marked), "headline")
    for i, block in enumerate(rest):
        heading = re.fullmatch(r"(#{2,6})\s+(.*)", block.splitlines()[0])
        if heading and heading.group(2).strip().lower().rstrip(".:") in SUMMARY_HEADINGS:
            level = len(heading.group(1))
            section = []
            for b in rest[i + 1 :]:
                deeper = re.match(r"(#{1,6})\s", b)
                if deeper and len(deeper.group(1)) <= level:
                    break
                if _is_text(b):
                    section.append(b)
            lists = [item for b in section if _is_list(b) for item in _items(b)]
            found = lists or [_one_line(b) for b in section]
            if found:
                return ReportSummary(path.stem, title, tuple(found[:MAX_FINDINGS]), "summary")
    for block in rest:
        if _is_text(block):
            return ReportSummary(path.stem, title, (_one_line(block),), "first paragraph")
    return ReportSummary(path.stem, title, (), "first paragraph")


def build_index(folder: str | os.PathLike | None = None, balance: bool = False,
                source=None) -> str:  # fmt: skip
    """The Markdown of the index of the reports in ``folder`` (default: the report folder).

    With ``balance`` the index opens with the balance table of the seed rules, its
    cards from ``source`` (default :func:`tabletop.balance_table.seed_card`: the card
    cache, computing a missing card); off by default, so that an index of other
    reports (a variant's, a test's) computes nothing. ``python -m tabletop.index``
    turns it on.
    """
    folder = Path(folder) if folder is not None else report_dir()
    paths = sorted(p for p in folder.glob("*.md") if p.name != INDEX_NAME)
    groups: dict[str, list[ReportSummary]] = {}
    for path in paths:
        groups.setdefault(path.stem.split("_")[0], []).append(summarize(path))
    contents = ["[Reports by game](#reports-by-game)", "[Glossary](#glossary)"]
    if balance:
        contents.insert(0, "[Balance at a glance](#balance-at-a-glance)")
    lines = [
        "# Reports",
        "",
        "<!-- generated from the reports and the balance cards; do not edit by hand -->",
        "",
        f"{len(paths)} reports. " + " · ".join(contents),
    ]
    if balance:
        from tabletop.balance_table import balance_table

        table = balance_table(folder, source=source)
        lines += ["", "## Balance at a glance", "", BALANCE_INTRO, "", table]
    lines += ["", "## Reports by game", "", "Under each report, its headline findings as the "
              "report states them."]  # fmt: skip
    for game, summaries in groups.items():
        first = summaries[0].title
        lines += ["", f"### {first.split(':')[0].strip() if ':' in first else game}"]
        for s in summaries:
            lines += ["", f"#### [{s.title}]({s.name}.md)"]
            if s.findings:
                lines += [""] + [f"* {finding}" for finding in s.findings]
    lines += ["", "## Glossary", "", GLOSSARY_INTRO, "", glossary_markdown(level=3)]
    return "\n".join(lines) + "\n"


def write_index(folder: str | os.PathLike | None = None, balance: bool = False,
                source=None) -> Path:  # fmt: skip
    """Write ``index.md`` in ``folder`` (default: the report folder) atomically;
    ``balance`` and ``source`` as in :func:`build_index`."""
    folder = Path(folder) if folder is not None else report_dir()
    if not folder.is_dir():
        raise FileMissingError(f"no report folder at {folder}")
    return atomic_write_text(folder / INDEX_NAME, build_index(folder, balance, source))


@one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m tabletop.index`` with ``argv``; errors are one line on stderr."""
    parser = ArgumentParser(prog="python -m tabletop.index", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report-dir", default=None, help="the report folder (default: reports/)")
    parser.add_argument("--no-balance", action="store_true",
                        help="leave the balance table out (computes no card)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="balance cards computed at a time (default: 2, or 1 on one core)")
    parser.add_argument("--cards-only", action="store_true",
                        help="compute the balance cards into the card cache and stop "
                             "(`make report` runs this beside the notebooks)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.cards_only and args.no_balance:
        parser.error("--cards-only computes the balance table's cards: drop --no-balance")
    if args.cards_only and args.report_dir is not None:  # the cards go to the card cache
        parser.error("--cards-only writes no report: drop --report-dir")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    folder = Path(args.report_dir) if args.report_dir is not None else report_dir()
    if not args.cards_only and not folder.is_dir():  # before any card is computed
        raise FileMissingError(f"no report folder at {folder}")
    if not args.no_balance:
        from tabletop.balance_table import card_requests, prefetch_cards

        prefetch_cards(args.jobs)
        if args.cards_only:
            print(f"computed {len(card_requests())} balance cards (or read them cached)")
            return 0
    path = write_index(args.report_dir, balance=not args.no_balance)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
