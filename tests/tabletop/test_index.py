import re
from pathlib import Path

import pandas as pd
import pytest

from tabletop.balance_table import card_requests
from tabletop.games import GAMES
from tabletop.glossary import load_glossary
from tabletop.index import INDEX_NAME, build_index, main, summarize, write_index
from tabletop.markdown import anchors
from tabletop.report import HEADLINE_MARK, Report

from .test_balance_table import fake_source

REPORTS = Path(__file__).resolve().parents[2] / "reports"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.md"
    path.write_text(text)
    return path


def test_headlines_written_by_a_report_are_found(tmp_path):
    report = Report("dice_odds", "Dice: the odds")
    report.text("An introduction that is not a finding.")
    report.table(pd.DataFrame({"p": [0.5]}, index=pd.Index([1], name="n")), caption="A table")
    report.headline(f"A six comes up in **{1 - (5 / 6) ** 4:.1%}** of rolls of four dice.")
    report.text("More text.")
    report.headline("* First item\n  continued.\n* Second item.")
    path = report.write(tmp_path)
    assert HEADLINE_MARK in path.read_text()
    summary = summarize(path)
    assert summary.title == "Dice: the odds" and summary.source == "headline"
    assert summary.findings == (
        "A six comes up in **51.8%** of rolls of four dice.",
        "First item continued.",
        "Second item.",
    )


def test_headline_is_one_paragraph():
    report = Report("x", "X")
    with pytest.raises(ValueError, match="one non-empty paragraph"):
        report.headline("  ")
    with pytest.raises(ValueError, match="one non-empty paragraph"):
        report.headline("one\n\ntwo")


def test_summary_section_is_used_without_headlines(tmp_path):
    path = write(tmp_path, "game_long", """# Game: long

<!-- generated from notebooks/game_long.ipynb; edit the notebook, not this file -->

Intro.

## Results

*A caption*

| a |
|---|

## In short

* **One:** 1.
* **Two:** 2,
  over two lines.

A closing paragraph.

### A subsection

* still in the section

## Next

* not in the section
""")  # fmt: skip
    summary = summarize(path)
    assert summary.source == "summary"
    assert summary.findings == (
        "**One:** 1.",
        "**Two:** 2, over two lines.",
        "still in the section",
    )


def test_summary_paragraphs_without_a_list(tmp_path):
    path = write(tmp_path, "g_x", "# G\n\n## Summary\n\nFirst point.\n\nSecond\npoint.\n")
    assert summarize(path).findings == ("First point.", "Second point.")


def test_first_paragraph_is_the_last_resort(tmp_path):
    path = write(
        tmp_path, "g_y", "# G\n\n<!-- c -->\n\n![fig](f.png)\n\n*cap*\n\n| a |\n\nThe text.\n"
    )
    summary = summarize(path)
    assert summary.findings == ("The text.",) and summary.source == "first paragraph"
    assert summarize(write(tmp_path, "g_z", "# Only a title\n")).findings == ()
    with pytest.raises(ValueError, match="must start with a '# title' line"):
        summarize(write(tmp_path, "bad", "no title\n"))


def test_index_groups_reports_by_game_and_links_them(tmp_path):
    write(tmp_path, "alpha_turn", "# Alpha Game: turns\n\nTurns are short.\n")
    write(tmp_path, "alpha_end", "# Alpha Game: endings\n\nGames end.\n")
    write(tmp_path, "beta", "# Beta\n\nBeta wins.\n")
    write(tmp_path, INDEX_NAME[:-3], "# stale index\n")
    text = build_index(tmp_path, balance=False)
    assert text.startswith("# Reports\n")
    by_game = text.split("## Reports by game")[1].split("## Glossary")[0]
    headings = re.findall(r"^##+ .*$", by_game, re.M)
    assert headings == [
        "### Alpha Game",
        "#### [Alpha Game: endings](alpha_end.md)",
        "#### [Alpha Game: turns](alpha_turn.md)",
        "### beta",
        "#### [Beta](beta.md)",
    ]
    assert "* Turns are short." in text and "3 reports" in text
    path = write_index(tmp_path, balance=False)
    assert path == tmp_path / INDEX_NAME and path.read_text() == text
    assert build_index(tmp_path, balance=False) == text  # the index does not index itself


def test_index_opens_with_the_balance_table_then_the_reports_and_ends_with_the_glossary(tmp_path):
    write(tmp_path, "citadel", "# Master Citadel: x\n\n## The whole two-player game\n\nX.\n")
    text = build_index(tmp_path, balance=True, source=fake_source)
    top = re.findall(r"^## .*$", text, re.M)
    assert top == ["## Balance at a glance", "## Reports by game", "## Glossary"]
    table = text.split("## Balance at a glance")[1].split("## Reports by game")[0]
    rows = re.findall(r"^\| \*\*(.*?)\*\* \|", table, re.M)
    assert rows == [g.title for g in GAMES.values()]
    assert "(citadel.md#the-whole-two-player-game)" in table
    glossary = text.split("## Glossary")[1]
    assert re.findall(r"^### (.*)$", glossary, re.M) == [t.name for t in load_glossary()]
    own = set(anchors(text))
    for target in re.findall(r"\]\((#[^)]*)\)", text):
        assert target[1:] in own
    assert build_index(tmp_path).count("Balance at a glance") == 0  # off by default


def test_command_line(tmp_path, capsys, monkeypatch):
    write(tmp_path, "g", "# G\n\nG.\n")
    assert main(["--report-dir", str(tmp_path), "--no-balance"]) == 0
    assert (tmp_path / INDEX_NAME).is_file()
    assert "Balance at a glance" not in (tmp_path / INDEX_NAME).read_text()
    assert "wrote" in capsys.readouterr().out
    asked = []
    monkeypatch.setattr("tabletop.balance_table.seed_card",
                        lambda game, knobs: asked.append((game, knobs)) or fake_source(game, knobs))
    assert main(["--report-dir", str(tmp_path), "--jobs", "1"]) == 0
    assert "## Balance at a glance" in (tmp_path / INDEX_NAME).read_text()
    # every card the table reads was computed first (the prefetch), then read again
    assert asked[: len(card_requests())] == card_requests()
    assert sorted(map(repr, asked[len(card_requests()):])) == sorted(map(repr, card_requests()))
    capsys.readouterr()
    assert main(["--report-dir", str(tmp_path), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1, got 0" in capsys.readouterr().err
    assert main(["--report-dir", str(tmp_path / "missing"), "--no-balance"]) == 2
    assert capsys.readouterr().err == f"error: no report folder at {tmp_path / 'missing'}\n"
    assert main(["--cards-only", "--report-dir", str(tmp_path / "missing")]) == 2  # no work
    assert "--cards-only writes no report: drop --report-dir" in capsys.readouterr().err


def test_cards_computed_two_at_a_time_are_those_computed_one_at_a_time():
    from tabletop.balance_table import prefetch_cards

    one = prefetch_cards(1, source=fake_source)
    two = prefetch_cards(2, source=fake_source)
    assert len(one) == len(card_requests()) and len(two) == len(one)
    for a, b in zip(one, two, strict=True):
        pd.testing.assert_frame_equal(a, b)


def test_the_cards_asked_for_are_each_games_seed_rules_and_fixes():
    requests = card_requests()
    for name, game in GAMES.items():
        if game.index_row is not None:
            assert (name, {}) in requests
            for knobs in game.index_row.fixes:
                assert (name, dict(knobs)) in requests
    assert len(requests) == len(set(map(repr, requests)))


def test_committed_index_links_to_committed_reports():
    text = (REPORTS / INDEX_NAME).read_text()
    links = re.findall(r"^#### \[.*\]\((.*)\)$", text, re.M)
    assert links
    for link in links:
        assert (REPORTS / link).is_file(), link
    assert "## Balance at a glance" in text and "## Glossary" in text
