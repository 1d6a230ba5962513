"""The glossary of the reports' technical terms, kept in ``tabletop/glossary.md``.

The data file holds one entry per term: a ``## term`` heading, an optional line
``Also: a; b`` with the other spellings the reports use, and one or two plain
sentences. :func:`load_glossary` reads it (sorted by term, case ignored);
:func:`glossary_markdown` writes it as Markdown with one heading, so one anchor, per
term; :func:`used_in` says whether a text uses a term under any of its spellings.
The report index renders it; notebooks and other pages may quote a definition with
``definition("max-n")``.

Examples
--------
>>> definition("max-n").split(":")[0]
'The rule for solving a game of three or more players'
>>> used_in(term("least core"), "the least-core epsilon is +0.250")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

GLOSSARY_FILE = Path(__file__).with_name("glossary.md")


@dataclass(frozen=True)
class Term:
    """One glossary entry.

    Attributes
    ----------
    name : str
        The term as the glossary heads it.
    aliases : tuple of str
        Other spellings the reports use.
    definition : str
        One or two sentences, Markdown, on one line.
    """

    name: str
    aliases: tuple[str, ...]
    definition: str

    @property
    def spellings(self) -> tuple[str, ...]:
        """The name and its aliases."""
        return (self.name, *self.aliases)

    @property
    def shown_aliases(self) -> tuple[str, ...]:
        """The aliases a reader needs told: not a plural or a change of case or of spacing
        of a spelling listed before it (``MPs`` after ``MP``, ``95 % interval``)."""
        shown: list[str] = []
        seen = {_plain(self.name)}
        for alias in self.aliases:
            plain = _plain(alias)
            if not any(plain in (s, s + "s", s + "es") for s in seen):
                shown.append(alias)
            seen.add(plain)
        return tuple(shown)


def _plain(spelling: str) -> str:
    """A spelling with case, spaces and hyphens ignored."""
    return re.sub(r"[\s-]+", "", spelling.lower())


def load_glossary(path=None) -> tuple[Term, ...]:
    """The entries of the glossary file (default :data:`GLOSSARY_FILE`), by name.

    Raises ValueError when an entry has no definition or a name repeats.
    """
    text = Path(path if path is not None else GLOSSARY_FILE).read_text(encoding="utf-8")
    terms = []
    for chunk in re.split(r"^## ", text, flags=re.M)[1:]:
        head, _, body = chunk.partition("\n")
        name = head.strip()
        lines = [line.strip() for line in body.strip().splitlines()]
        aliases: tuple[str, ...] = ()
        if lines and lines[0].startswith("Also:"):
            aliases = tuple(a.strip() for a in lines.pop(0)[5:].split(";") if a.strip())
        definition = " ".join(line for line in lines if line)
        if not definition:
            raise ValueError(f"glossary term {name!r} has no definition")
        terms.append(Term(name, aliases, definition))
    names = [t.name.lower() for t in terms]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"glossary terms repeat: {repeated}")
    return tuple(sorted(terms, key=lambda t: t.name.lower()))


def term(name: str, path=None) -> Term:
    """The entry named ``name`` (case ignored); ValueError when there is none."""
    for t in load_glossary(path):
        if t.name.lower() == name.lower():
            return t
    raise ValueError(f"no glossary term {name!r}")


def definition(name: str, path=None) -> str:
    """The definition of the term ``name``."""
    return term(name, path).definition


def used_in(entry: Term, text: str) -> bool:
    """Whether ``text`` holds the term or one of its aliases as a whole word (case
    ignored; a hyphen and a space count as the same)."""

    def pattern(spelling: str) -> str:
        words = [re.escape(w) for w in re.split(r"[\s-]+", spelling.strip())]
        return r"(?<!\w)" + r"[\s-]+".join(words) + r"(?!\w)"

    return any(re.search(pattern(s), text, re.I) for s in entry.spellings)


def glossary_markdown(terms=None, level: int = 3) -> str:
    """The glossary as Markdown: one heading of ``level`` per term, then the other
    spellings the reports use (``Also written: V, V(start).``, where there are any a
    reader would not guess) and the definition.

    Examples
    --------
    >>> print(glossary_markdown([term("value")]).splitlines()[2])
    *Also written:* V, V(start), value to.
    """
    terms = load_glossary() if terms is None else terms
    marks = "#" * level

    def entry(t: Term) -> str:
        also = f"*Also written:* {', '.join(t.shown_aliases)}.\n\n" if t.shown_aliases else ""
        return f"{marks} {t.name}\n\n{also}{t.definition}"

    return "\n\n".join(entry(t) for t in terms)
