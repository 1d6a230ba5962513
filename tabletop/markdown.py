"""Headings of Markdown text and the anchors GitHub gives them.

GitHub turns a heading into an anchor by rendering it to text, lowering its case,
dropping every character that is neither a letter, a digit, a space, ``-`` nor ``_``,
and writing each space as ``-``; a heading whose anchor is already taken gets ``-1``,
``-2``, ... (the rule of GitHub's ``github-slugger``). Links to a report section are
written with :func:`anchor` and checked with :func:`anchors`.

Examples
--------
>>> anchor("The tie-break as a game: the `horizon` knob")
'the-tie-break-as-a-game-the-horizon-knob'
>>> anchor("Ce soir, à Samarra")
'ce-soir-à-samarra'
>>> anchors("# A\\n\\n## Notes\\n\\n```\\n# not a heading\\n```\\n\\n## Notes\\n")
['a', 'notes', 'notes-1']
"""

from __future__ import annotations

import re

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_DROP = re.compile(r"[^\w\- ]")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading of text ``heading`` (without the ``#`` marks)."""
    text = _LINK.sub(r"\1", heading.strip())
    text = re.sub(r"<[^>]*>", "", text).replace("`", "").replace("*", "")
    return _DROP.sub("", text.lower()).replace(" ", "-")


def headings(markdown: str) -> list[tuple[int, str]]:
    """The ``(level, text)`` of every ATX heading (``#`` to ``######``), outside code."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if match and not fenced:
            out.append((len(match.group(1)), match.group(2)))
    return out


def anchors(markdown: str) -> list[str]:
    """The anchors of every heading of ``markdown``, in order, repeats numbered."""
    seen: dict[str, int] = {}
    out = []
    for _, text in headings(markdown):
        base = slug = anchor(text)
        while slug in seen:
            seen[base] += 1
            slug = f"{base}-{seen[base]}"
        seen[slug] = 0
        out.append(slug)
    return out
