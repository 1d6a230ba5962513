import json
import re
from pathlib import Path

import pytest

from tabletop.games import GAMES
from tabletop.glossary import (
    GLOSSARY_FILE,
    Term,
    definition,
    glossary_markdown,
    load_glossary,
    term,
    used_in,
)
from tabletop.index import BALANCE_INTRO, GLOSSARY_INTRO, INDEX_NAME
from tabletop.markdown import anchor, anchors

ROOT = Path(__file__).resolve().parents[2]

#: Technical terms the reports, the notebooks and the index's own text use (found by
#: reading them); each must be a glossary term or one of its spellings.
KNOWN_TERMS = (
    "max-n", "regret", "regret matching", "exploitability", "least core", "least-core epsilon",
    "Shapley value", "rotation classes", "horizon", "setup pair", "setup game", "attack level",
    "capped swing", "epsilon-equilibrium", "fictitious play", "retrograde analysis",
    "tie-break", "adjudicated game", "determinising agent", "determinizing", "ismcts",
    "information-set MCTS", "Wilson interval", "|z|", "stage game", "bid grid",
    "bid_step", "abstraction", "core", "empty core", "coalition", "coalition values",
    "equilibrium", "best reply", "best response", "empirical game",
    "chi-square", "p-value", "95% interval", "Monte Carlo", "exact", "perfect information",
    "minimax", "backward induction", "zero-sum", "linear programming",
    "dynamic programming", "own directions", "full compass",
    "tie fee", "tacit alliance", "counter-attack", "stake", "Master Panache attempt",
    "money loop", "round trip", "band edge", "rule of thumb", "heuristic", "self-play",
    "fair share", "expected total", "policy", "forced win", "value",
    "mirror image", "draw", "stall", "state", "knob", "variant", "seed rules", "seat edge",
    "balance card", "percentage points", "bluff", "information set", "sequence",
    "Markov chain", "value iteration",
    "Shapley's value iteration", "matrix game", "characteristic function",
    "turn plans", "turn", "round", "shared corner",
    "diplomats", "attachments", "lair", "pillage", "conquest bonus", "independents",
    "seven seas", "fixed point", "stalled for good", "capital runs out",
)  # fmt: skip


def corpus() -> str:
    """Every report but the index, every notebook cell, and the index's own text (its
    introductions and the balance table's cells and notes), as one text."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "reports").glob("*.md"))
             if p.name != INDEX_NAME]  # fmt: skip
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells]
    texts += [BALANCE_INTRO, GLOSSARY_INTRO]
    for game in GAMES.values():
        if game.index_row is not None:
            texts += [c.text for c in game.index_row.cells()] + [game.index_row.note]
    return "\n".join(texts)


def test_entries_are_sorted_unique_and_short():
    terms = load_glossary()
    assert len(terms) >= 40
    assert [t.name.lower() for t in terms] == sorted(t.name.lower() for t in terms)
    assert len({anchor(t.name) for t in terms}) == len(terms)
    for t in terms:
        sentences = re.findall(r"[.!?](?:\s|$)", t.definition)
        assert 1 <= len(sentences) <= 3, (t.name, t.definition)  # one or two, a third at most
        assert "{" not in t.definition and "\n" not in t.definition


def test_every_term_appears_in_a_report_or_notebook():
    text = corpus()
    unused = [t.name for t in load_glossary() if not used_in(t, text)]
    assert unused == []


@pytest.mark.parametrize("word", KNOWN_TERMS)
def test_known_terms_are_defined(word):
    assert any(used_in(t, word) and any(s.lower().replace("-", " ") == word.lower()
                                        .replace("-", " ") for s in t.spellings)
               for t in load_glossary()), word  # fmt: skip


def test_known_terms_are_used():
    text = corpus()
    missing = [w for w in KNOWN_TERMS if not used_in(Term(w, (), "x."), text)]
    assert missing == []


def test_lookup_and_markdown(tmp_path):
    assert term("MAX-N").name == "max-n"
    assert definition("stall").startswith("In Master Citadel, a game that goes on")
    with pytest.raises(ValueError, match="no glossary term 'checkmate'"):
        term("checkmate")
    md = glossary_markdown(level=3)
    assert anchors(md) == [anchor(t.name) for t in load_glossary()]
    path = tmp_path / "g.md"
    path.write_text("# G\n\n## b\nAlso: bee; B\nThe b.\n\n## a\nThe a,\nover two lines.\n")
    assert load_glossary(path) == (Term("a", (), "The a, over two lines."),
                                   Term("b", ("bee", "B"), "The b."))  # fmt: skip
    path.write_text("# G\n\n## a\nAlso: x\n\n## b\nB.\n")
    with pytest.raises(ValueError, match="'a' has no definition"):
        load_glossary(path)
    path.write_text("# G\n\n## a\nA.\n\n## A\nA.\n")
    with pytest.raises(ValueError, match="repeat"):
        load_glossary(path)


def test_used_in_matches_whole_words_and_spellings():
    least = term("least core")
    assert used_in(least, "its least-core epsilon") and used_in(least, "the Least Core")
    assert not used_in(Term("core", (), "x."), "the scores")
    assert used_in(term("z-score"), "largest |z| = 2.3")


def test_the_data_file_ships_with_the_package():
    text = (ROOT / "pyproject.toml").read_text()
    assert GLOSSARY_FILE.name in text
