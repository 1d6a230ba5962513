import dataclasses
import json
import math
import re
from pathlib import Path

import pytest

from tabletop.balance import Metric, build_card, compare_rules, estimate, exact
from tabletop.balance_table import (
    COLUMNS,
    KINDS,
    balance_table,
    choose_fix,
    fact_card,
    fill,
    format_figure,
    game_row,
    improves,
    seed_card,
)
from tabletop.games import GAMES, Cell, get
from tabletop.markdown import anchor, anchors
from tabletop.stats import estimate_mean

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{(?:1-)?(?:base|fix|diff)\.(\w+)(?::(\w+))?\}")
METRICS = (Metric("p", "exact", "probability", "p"), Metric("r", "monte carlo", "rounds", "r"))


def card(p: float, rounds) -> "pd.DataFrame":  # noqa: F821
    return build_card(METRICS, {"p": exact(p, 10), "r": estimate(estimate_mean(rounds))})


def fake_source(game: str, knobs) -> "pd.DataFrame":  # noqa: F821
    """Cards with every metric of the game and its facts: 0.5 under the seed's rules,
    0.25 under a fix (exact), and a Monte Carlo mean of (0, 1) or (0, 0, 1, 1)."""
    entry = get(game)
    facts = [Metric(f.name, "exact", f.unit, f.meaning) for f in entry.index_row.facts]
    metrics = [Metric(m.name, m.method, m.unit, "a test figure") for m in entry.metrics]
    metrics += facts
    value = 0.25 if knobs else 0.5
    entries = {m.name: exact(value, 1) if m.method == "exact" else
               estimate(estimate_mean([0.0, 1.0] if not knobs else [0.0, 0.0, 1.0, 1.0]))
               for m in metrics}  # fmt: skip
    return build_card(metrics, entries)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((0.4947, 0.4947, 0.4947, "exact", 1600, "pct"), "49.47% (exact)"),
        ((1.0, 1.0, 1.0, "exact", 36, "pct"), "100% (exact)"),
        ((0.494, 0.494, 0.494, "exact", 1600, "pct"), "49.40% (exact)"),  # as beside 49.47%
        ((0.0422, 0.0371, 0.0472, "monte carlo", 50000, "pp"),
         "+4.2 pp [+3.7, +4.7] (n = 50,000)"),
        ((-0.0006, -0.0009, -0.0003, "monte carlo", 10**6, "pp"),
         "-0.06 pp [-0.09, -0.03] (n = 1,000,000)"),
        ((-0.188, -0.191, -0.184, "monte carlo", (100000, 100000), "pp"),
         "-18.8 pp [-19.1, -18.4] (n = 100,000 each)"),
        ((17.8, 17.7, 17.9, "monte carlo", 100, "num"), "17.80 [17.70, 17.90] (n = 100)"),
        ((0.0569, 0.0569, 0.0569, "exact", 1, "signed"), "+0.057 (exact)"),
        ((0.0, 0.0, 0.0, "exact", 1, "signed"), "0 (exact)"),
        ((-0.0, -0.0, -0.0, "exact", 1, "pp"), "0 pp (exact)"),
        ((0.0, 0.0, 0.0, "exact", 1, "pct"), "0% (exact)"),
        ((10.0, 9.98, 10.02, "monte carlo", 100, "num"), "10.00 [9.98, 10.02] (n = 100)"),
        ((0.25, 0.25, 0.25, "exact", 1, "num"), "0.250 (exact)"),
        ((1.0, 1.0, 1.0, "exact", 1, "num"), "1.00 (exact)"),
        ((9.0, 9.0, 9.0, "exact", 60, "turn"), "9 (exact)"),
        ((5.0, 5.0, 5.0, "exact", 0, "setting"), "5"),
        ((math.nan, math.nan, math.nan, "exact", 0, "turn"), "never (exact)"),
        ((math.nan, math.nan, math.nan, "exact", 400, "turn"), "never (exact, 400 turns searched)"),
        ((math.nan, math.nan, math.nan, "monte carlo", 0, "num"), "n/a"),
        ((200.0, 200.0, 200.0, "monte carlo", 20000, "num"), "200 in every game (n = 20,000)"),
        # every game agreed on a share: Wilson's interval, never an empty one
        ((1.0, 1.0, 1.0, "monte carlo", 20000, "pct"), "100.00% [99.98%, 100.00%] (n = 20,000)"),
        ((0.0, 0.0, 0.0, "monte carlo", 20000, "pct"), "0.00% [0.00%, 0.02%] (n = 20,000)"),
    ],
)  # fmt: skip
def test_format_figure(args, expected):
    assert format_figure(*args) == expected


@pytest.mark.parametrize("k", [0, 3, 20000])
def test_a_unanimous_share_gets_the_wilson_interval(k):
    from tabletop.stats import proportion_ci, share_percent

    n = 20000
    low, high = proportion_ci(k, n)
    text = format_figure(k / n, k / n, k / n, "monte carlo", n, "pct")
    share = share_percent(k, n, 2)  # 3 / 20,000 is 0.015% exactly: 0.02%, halves up
    assert text == f"{share} [{100 * low:.2f}%, {100 * high:.2f}%] (n = 20,000)"
    assert low < high


def test_format_figure_checks_its_kind():
    with pytest.raises(ValueError, match="kind must be one of"):
        format_figure(1.0, 1.0, 1.0, "exact", 1, "percent")


def test_fill_reads_both_cards_their_difference_and_the_knobs():
    base, fix = card(0.5, [1.0, 2.0, 3.0]), card(0.25, [1.0, 1.0, 1.0])
    assert fill("{base.p:pct} then {fix.p:pct} ({diff.p:pp}); {1-base.p:pct}", base, fix,
                {"min_bid": 1}) == "50% (exact) then 25% (exact) (-25.00 pp (exact)); 50% (exact)"
    text = fill("{base.r} rounds, {knobs}", base, fix, {"sale_price": "after"})
    assert text == '2.00 [0.87, 3.13] (n = 3) rounds, `sale_price = "after"`'
    assert fill("{diff.r:num}", base, fix) == "-1.00 [-2.13, 0.13] (n = 3 each)"
    assert fill("{1-base.r:num}", base) == "-1.00 [-2.13, 0.13] (n = 3)"
    with pytest.raises(ValueError, match="no metric 'q'"):
        fill("{base.q}", base)
    with pytest.raises(ValueError, match="needs the fix's card"):
        fill("{fix.p}", base)
    with pytest.raises(ValueError, match="needs the fix's knob setting"):
        fill("{knobs}", base, fix)


def test_choose_fix_takes_the_mildest_of_the_best():
    exact_cards = [card(p, [1.0, 2.0]) for p in (0.3, 0.1, 0.1)]
    assert choose_fix("p", exact_cards) == 1
    # Monte Carlo: the first whose interval reaches the lowest value
    mc = [card(0.0, [5.0, 6.0, 7.0]), card(0.0, [4.0, 5.0, 6.0]), card(0.0, [0.9, 1.0, 1.1])]
    assert choose_fix("r", mc) == 2
    assert choose_fix("r", [card(0.0, [0.0, 2.0]), card(0.0, [0.9, 1.0, 1.1])]) == 0
    with pytest.raises(ValueError, match="at least one card"):
        choose_fix("p", [])


def test_every_index_row_reads_existing_metrics():
    for game in GAMES.values():
        spec = game.index_row
        assert spec is not None, game.name
        names = {m.name for m in game.metrics} | {f.name for f in spec.facts}
        assert spec.objective in names
        extra = [spec.no_fix.text] if spec.no_fix is not None else []
        for text in [c.text for c in spec.cells()] + [spec.note, *extra]:
            for metric, kind in FIELD.findall(text):
                assert metric in names, (game.name, metric)
                assert kind in ("", *KINDS)
        cls = game.rules_class()
        for knobs in spec.fixes:
            assert cls(**knobs) != cls()  # a fix changes the rules


def notebook_headings(report: str) -> set[str]:
    """The ``## `` headings of the notebook that writes ``report``."""
    cells = json.loads((ROOT / "notebooks" / f"{report}.ipynb").read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return set(re.findall(r"^## (.*?)\s*$", text, re.M))


def linked_sections(cell) -> list[str]:
    """The headings a cell links to: its inline ``{§heading}`` links, then its own."""
    return [*re.findall(r"\{§([^{}]+)\}", cell.text), *([cell.section] if cell.section else [])]


def test_every_linked_section_is_a_heading_of_its_notebook():
    for game in GAMES.values():
        spec = game.index_row
        cells = [*spec.cells(), *([spec.no_fix] if spec.no_fix is not None else [])]
        for cell in cells:
            for section in linked_sections(cell):
                assert section in notebook_headings(cell.report), (game.name, section)
        if spec.others:  # where the report tries other settings than the card's
            assert spec.others in notebook_headings(spec.fix.report), game.name


def test_an_inline_link_goes_where_it_is_written(monkeypatch, tmp_path):
    entry = get("commander")
    edge = Cell("first{§Alpha}, then the rest", "commander", "Beta")
    monkeypatch.setitem(GAMES, "commander", dataclasses.replace(
        entry, index_row=dataclasses.replace(entry.index_row, edge=edge)))
    (tmp_path / "commander.md").write_text("# C\n\n## Alpha\n\nA.\n\n## Beta\n\nB.\n")
    row = game_row("commander", tmp_path, fake_source)
    assert row[COLUMNS[1]] == ("first [§](commander.md#alpha), then the rest "
                               "[§](commander.md#beta)")


def test_rows_fill_every_cell_and_link_only_to_existing_sections(tmp_path):
    for game in GAMES.values():
        sections = [s for c in game.index_row.cells() for s in linked_sections(c)]
        report = {c.report for c in game.index_row.cells() if c.report}
        for name in report:  # the report has the first linked heading only
            (tmp_path / f"{name}.md").write_text(f"# {name}\n\n## {sections[0]}\n\nText.\n")
        row = game_row(game.name, tmp_path, fake_source)
        assert set(row) == {*COLUMNS, "note"}
        for column in COLUMNS:
            assert row[column] and "{" not in row[column], (game.name, column)
        for target in re.findall(r"\[§\]\(([^)]*)\)", "".join(row[c] for c in COLUMNS)):
            name, _, fragment = target.partition("#")
            assert (tmp_path / name).is_file()
            assert fragment in ("", anchor(sections[0]))
            if fragment == "":  # fell back to the report: the heading is missing there
                assert not all(anchor(s) == anchor(sections[0]) for s in sections)
    table = balance_table(tmp_path, source=fake_source)
    assert table.count("\n| **") == len(GAMES) and table.startswith("| Game |")


def test_a_row_without_fixes_says_so(monkeypatch, tmp_path):
    entry = get("commander")
    spec = dataclasses.replace(entry.index_row, fixes=(), fix=Cell("{knobs}: {fix.win_round}"))
    monkeypatch.setitem(GAMES, "commander", dataclasses.replace(entry, index_row=spec))
    row = game_row("commander", tmp_path, fake_source)
    assert row["Best fix found"] == "none tried"
    assert "[§]" not in row["Game"]


def test_facts_are_solver_values():
    from commander import Rules
    from commander.race import solve_race

    rules = Rules(win_gold=6)
    facts = fact_card("commander", rules).set_index("metric")
    spec = get("commander").index_row.facts[0]
    race = solve_race(rules, rules.start_gold, rules.start_doublons, rules.start_stock,
                      **spec.args)  # fmt: skip
    assert facts.loc[spec.name, "value"] == race.win_turn
    assert facts.loc[spec.name, "method"] == "exact"
    after = fact_card("commander", Rules(win_gold=6, sale_price="after"))
    assert math.isnan(after.set_index("metric").loc[spec.name, "value"])  # no loop: never


def test_seed_cards_are_those_compare_rules_uses(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))
    entry = get("commander")
    small = dataclasses.replace(entry.index_row, options={"n_games": 200})
    monkeypatch.setitem(GAMES, "commander", dataclasses.replace(entry, index_row=small))
    knobs = {"sale_price": "after"}
    res = compare_rules("commander", knobs, seed=0, cache=True, n_games=200)
    n = len(res.variant)
    assert seed_card("commander", knobs).iloc[:n].equals(res.variant)
    assert seed_card("commander", {}).iloc[:n].equals(res.baseline)
    assert len(list((tmp_path / "cards").glob("*.json"))) == 2  # read back, not recomputed


def test_committed_index_links_exist():
    text = (ROOT / "reports" / "index.md").read_text()
    own = set(anchors(text))
    for target in re.findall(r"\]\(([^)\s]*)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        name, _, fragment = target.partition("#")
        if not name:
            assert fragment in own, target
            continue
        path = ROOT / "reports" / name
        assert path.is_file(), target
        if fragment:
            assert fragment in anchors(path.read_text()), target


def test_a_row_whose_fixes_do_not_help_says_so(tmp_path):
    """Citadel's fixes are judged on the solved duel's draws: when no knob brings them
    below the seed rules' value the row shows its ``no_fix`` cell, else its ``fix`` cell."""
    spec = get("citadel").index_row
    assert spec.no_fix is not None and spec.objective == "duel_draw_start"

    def source(better):
        def cards(game, knobs):
            card = fake_source(game, knobs).set_index("metric")
            value = 0.5 if not knobs else (0.25 if better else 1.0)
            card.loc[spec.objective, ["value", "low", "high"]] = value
            return card.reset_index()
        return cards

    helped = game_row("citadel", tmp_path, source(True))["Best fix found"]
    stuck = game_row("citadel", tmp_path, source(False))["Best fix found"]
    assert helped.startswith("`min_bid = 1`: the solved 1 vs 1 game is drawn")
    assert stuck.startswith("no minimum bid tried reduces draws under optimal play: with "
                            "`min_bid = 1`")
    assert "100% (exact), against 50% (exact)" in stuck


def test_improves_needs_a_significant_drop():
    base = card(0.5, [1.0, 2.0, 3.0])
    assert improves("p", card(0.25, [1.0, 2.0, 3.0]), base)
    assert not improves("p", card(0.5, [1.0, 2.0, 3.0]), base)
    assert not improves("p", card(0.75, [1.0, 2.0, 3.0]), base)
    assert not improves("r", card(0.5, [1.5, 2.0, 2.5]), base)  # within noise
    assert improves("r", card(0.5, [0.0] * 50 + [0.1] * 50), base)
