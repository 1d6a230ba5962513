"""The rules page is complete, and the repository's prose links only inside itself.

* ``docs/rules.md`` has, in the section of each game of :mod:`tabletop.games`, a row
  for every knob of the game's ``Rules`` class with its default (so a new knob, a new
  game or a changed default without its documentation fails here);
* every relative Markdown link of the README, the docs, the reports, the notebooks'
  text cells and the packages' docstrings and comments resolves to a file inside the
  repository, and none of them names a file outside it;
* every reference to a section of ``docs/rules.md`` names one of its headings.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import re
import tokenize
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest

from tabletop import games

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
PACKAGES = ("tabletop", *games.names())
#: Text that points outside the repository, whatever the syntax.
OUTSIDE = ("../shared", "shared/RULES.md")

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HTML = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']""")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ANCHOR = re.compile(r"(?<![\w/.-])(?:\.\./)*docs/rules\.md#([\w%-]+)")
SECTION = re.compile(r"docs/rules\.md, ")


# -- reading Markdown ----------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(markdown: str) -> list[str]:
    """The text of each heading, in order (fenced code blocks skipped)."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)):
            out.append(m.group(2))
    return out


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings (a repeated slug gets ``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in headings(markdown):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


@cache
def rules_doc() -> str:
    assert RULES_DOC.is_file(), "docs/rules.md is missing"
    return RULES_DOC.read_text(encoding="utf-8")


def game_section(title: str) -> str:
    """The text of ``## <title>`` in docs/rules.md, up to the next ``## `` heading."""
    lines = rules_doc().splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == f"## {title}"]
    assert len(starts) == 1, f"docs/rules.md must have one heading '## {title}'"
    end = next((j for j in range(starts[0] + 1, len(lines)) if lines[j].startswith("## ")),
               len(lines))
    return "\n".join(lines[starts[0]:end])


def knob_rows(section: str) -> dict[str, str]:
    """``{knob: default}`` from the table rows ``| `knob` | `default` | ...``."""
    rows = re.findall(r"^\|\s*`(\w+)`\s*\|\s*`([^`]*)`\s*\|", section, re.MULTILINE)
    return dict(rows)


def doc_value(value) -> str:
    """A default as docs/rules.md writes it: Python's repr, strings in double quotes."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        inner = ", ".join(doc_value(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


# -- the prose of the repository -----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Text:
    """A piece of prose: where it comes from, its text, and what its links are relative to."""

    where: str
    text: str
    bases: tuple[Path, ...]
    markdown: bool = True  # links count (False: only the mentions are checked)


def _python_prose(path: Path) -> str:
    """The docstrings and comments of a Python file, one paragraph each."""
    source = path.read_text(encoding="utf-8")
    parts = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                parts.append(doc)
    comments = [tok.string.lstrip("#").strip()
                for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                if tok.type == tokenize.COMMENT]  # fmt: skip
    parts.append("\n".join(comments))
    return "\n\n".join(parts)


@cache
def prose() -> tuple[Text, ...]:
    """README, docs, reports, notebooks' cells and the packages' docstrings and comments."""
    out = [Text("README.md", (ROOT / "README.md").read_text(encoding="utf-8"), (ROOT,))]
    for folder in ("docs", "reports"):
        for path in sorted((ROOT / folder).glob("*.md")):
            out.append(Text(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"),
                            (path.parent,)))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            source = cell["source"]
            text = "".join(source) if isinstance(source, list) else source
            out.append(Text(f"{path.relative_to(ROOT)} cell {i} ({cell['cell_type']})", text,
                            (path.parent,), markdown=cell["cell_type"] == "markdown"))
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            # a docstring is read as text of the package: relative to its file or the root
            out.append(Text(str(path.relative_to(ROOT)), _python_prose(path),
                            (path.parent, ROOT)))
    return tuple(out)


def link_targets(text: str) -> list[str]:
    """Targets of the inline, reference-style and HTML links of a Markdown text."""
    return LINK.findall(text) + REFERENCE.findall(text) + HTML.findall(text)


def link_problem(piece: Text, target: str) -> str | None:
    """Why ``target`` does not resolve inside the repository (None when it does)."""
    if not target or SCHEME.match(target):
        scheme = target.split(":", 1)[0].lower() if target else ""
        return "a file URL leaves the repository" if scheme == "file" else None
    path, _, anchor = target.partition("#")
    path = unquote(path)
    if not path:  # an anchor in the same page
        if piece.where.startswith("docs/") and unquote(anchor) not in anchors(piece.text):
            return f"no heading of {piece.where} has the anchor #{anchor}"
        return None
    if path.startswith("/"):
        return "an absolute path leaves the repository"
    for base in piece.bases:
        resolved = (base / path).resolve()
        if not resolved.is_relative_to(ROOT):
            return "the link leaves the repository"
        if resolved.exists():
            if resolved == RULES_DOC and anchor and unquote(anchor) not in anchors(rules_doc()):
                return f"docs/rules.md has no heading with the anchor #{anchor}"
            return None
    return "no such file in the repository"


# -- tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", games.names())
def test_every_knob_is_in_the_rules_page_with_its_default(name):
    game = games.get(name)
    rules_class = game.rules_class()
    defaults = rules_class()
    knobs = [f.name for f in dataclasses.fields(rules_class) if f.init]
    rows = knob_rows(game_section(game.title))
    missing = [k for k in knobs if k not in rows]
    assert not missing, f"docs/rules.md, {game.title}: no knob row for {missing}"
    wrong = {k: (rows[k], doc_value(getattr(defaults, k))) for k in knobs
             if rows[k] != doc_value(getattr(defaults, k))}  # fmt: skip
    assert not wrong, f"docs/rules.md, {game.title}: (written, actual) defaults {wrong}"
    stale = sorted(set(rows) - set(knobs))
    assert not stale, f"docs/rules.md, {game.title}: rows for knobs that do not exist {stale}"


def test_doc_value_writes_defaults_as_the_page_does():
    assert doc_value("all") == '"all"'
    assert doc_value((("a", 1),)) == '(("a", 1),)'
    assert doc_value((-4, 0, 1)) == "(-4, 0, 1)"
    assert [doc_value(v) for v in (None, True, 5)] == ["None", "True", "5"]


def test_slugs_are_githubs():
    assert slug("Master & Commander: knobs") == "master--commander-knobs"
    assert slug("Ce soir, à Samarra") == "ce-soir-à-samarra"
    assert slug("Knobs of `panache.Rules`") == "knobs-of-panacherules"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n## A") == {"a", "a-1", "a-2"}


def test_no_link_leaves_the_repository():
    problems = []
    for piece in prose():
        problems += [f"{piece.where}: {word!r} points outside the repository"
                     for word in OUTSIDE if word in piece.text]  # fmt: skip
        if piece.markdown:
            for target in link_targets(piece.text):
                why = link_problem(piece, target)
                if why:
                    problems.append(f"{piece.where}: link {target!r}: {why}")
    assert not problems, "\n".join(problems)


def test_link_check_catches_what_it_should(tmp_path):
    piece = Text("README.md", "", (ROOT,))
    assert link_problem(piece, "docs/rules.md") is None
    assert link_problem(piece, "docs/rules.md#master-panache") is None
    assert link_problem(piece, "https://example.org/x") is None
    assert "leaves" in link_problem(piece, "../shared/RULES.md")
    assert "anchor" in link_problem(piece, "docs/rules.md#no-such-section")
    assert "no such file" in link_problem(piece, "docs/nothing.md")
    assert "absolute" in link_problem(piece, "/etc/hosts")
    assert "file URL" in link_problem(piece, "file:///etc/hosts")
    text = '[a](x.md) ![b](fig.png "t") <img src="y.png">\n[ref]: z.md\n'
    assert link_targets(text) == ["x.md", "fig.png", "z.md", "y.png"]


def test_rules_page_anchors_and_sections_exist():
    """Every ``docs/rules.md#x`` resolves; every ``docs/rules.md, <section>`` names one."""
    known = anchors(rules_doc())
    titles = sorted({re.sub(r"[`*]", "", h) for h in headings(rules_doc())}, key=len,
                    reverse=True)
    problems = []
    for piece in prose():
        text = re.sub(r"\s+", " ", piece.text)
        problems += [f"{piece.where}: docs/rules.md#{a} is no heading's anchor"
                     for a in ANCHOR.findall(text) if unquote(a) not in known]  # fmt: skip
        problems += [f"{piece.where}: {text[m.start():m.end() + 30]!r} names no section"
                     for m in SECTION.finditer(text)
                     if not any(text.startswith(t, m.end()) for t in titles)]  # fmt: skip
    assert not problems, "\n".join(problems)


def test_rules_page_stays_inside_the_repository():
    text = rules_doc()
    assert not any(word in text for word in OUTSIDE)
    assert "RULES.md" not in text.replace("docs/rules.md", "")
    for name in games.names():
        assert f"[{games.get(name).title}](#{slug(games.get(name).title)})" in text
