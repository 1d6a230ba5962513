"""The balance card machinery (tabletop.balance), the registry (tabletop.games) and
cards in sweeps, on toy cards and on the small rules of the registry."""

import base64
import math
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from tabletop import balance as B
from tabletop import games
from tabletop.stats import MonteCarloEstimate
from tabletop.sweep import sweep

METRICS = (
    B.Metric("p_first", "exact", "probability", "first player wins on grid {grid}"),
    B.Metric("rounds", "monte carlo", "rounds", "mean length"),
    B.Metric("share", "monte carlo", "probability", "a share"),
)


def toy(p=0.5, rounds=(10.0, 0.5), share=(0.3, 0.01), grid=5):
    return B.build_card(METRICS, {
        "p_first": B.exact(p, 100),
        "rounds": B.estimate(MonteCarloEstimate(rounds[0], rounds[1], 1000)),
        "share": B.estimate(MonteCarloEstimate(share[0], share[1], 1000)),
    }, grid=grid)  # fmt: skip


def test_card_schema_and_intervals():
    card = toy()
    assert tuple(card.columns) == B.COLUMNS
    assert card["metric"].tolist() == ["p_first", "rounds", "share"]
    assert card.loc[0, "meaning"] == "first player wins on grid 5"
    exact = card[card["method"] == "exact"]
    assert (exact["low"] == exact["value"]).all() and (exact["high"] == exact["value"]).all()
    low, high = MonteCarloEstimate(10.0, 0.5, 1000).ci(0.95)
    assert card.loc[1, ["low", "high"]].tolist() == [low, high]
    # the standard error is read back from the interval
    assert B.stderr_of(card).tolist() == pytest.approx([0.0, 0.5, 0.01], rel=1e-12)


def test_card_errors():
    with pytest.raises(ValueError, match=r"missing \['share'\], extra \['other'\]"):
        B.build_card(METRICS, {"p_first": B.exact(0.5, 1), "rounds": B.exact(1, 1),
                               "other": B.exact(1, 1)}, grid=1)  # fmt: skip
    with pytest.raises(ValueError, match="exact metric 'p_first' has an interval"):
        B.build_card(METRICS[:1], {"p_first": B.normal(0.5, 0.1, 10)}, grid=1)
    with pytest.raises(ValueError, match="method of 'x' must be one of"):
        B.Metric("x", "guess", "u", "m")
    with pytest.raises(ValueError, match="a card has the columns"):
        B.check_card(toy().drop(columns="unit"))
    with pytest.raises(TypeError, match="est must be a MonteCarloEstimate"):
        B.estimate(0.5)


def test_compare_differences_intervals_and_markers():
    base = toy()
    variant = toy(p=0.55, rounds=(8.0, 0.5), share=(0.31, 0.01))
    table = B.compare(variant, base).set_index("metric")
    assert tuple(B.compare(variant, base).columns) == B.COMPARE_COLUMNS
    # exact: the exact difference, no interval, significant
    assert table.loc["p_first", "difference"] == pytest.approx(0.05, abs=1e-15)
    assert table.loc["p_first", "low"] == table.loc["p_first", "high"]
    assert table.loc["p_first", "marker"] == "*"
    # Monte Carlo: independent runs, standard errors in quadrature
    half = B.Z * math.hypot(0.5, 0.5)
    assert table.loc["rounds", ["low", "high"]].tolist() == pytest.approx([-2 - half, -2 + half])
    assert table.loc["rounds", "significant"] and table.loc["rounds", "marker"] == "*"
    # 0.01 apart with standard errors 0.01 each: within noise
    assert not table.loc["share", "significant"] and table.loc["share", "marker"] == ""
    # a card against itself differs nowhere
    same = B.compare(base, base)
    assert not same["significant"].any() and (same["difference"] == 0).all()


def test_compare_needs_matching_cards():
    with pytest.raises(ValueError, match="the cards list different metrics"):
        B.compare(toy(), toy().iloc[:2])
    other = toy()
    other.loc[0, "method"] = "monte carlo"
    with pytest.raises(ValueError, match="by different methods"):
        B.compare(other, toy())


def test_verdict_is_written_from_the_numbers():
    base, variant = toy(), toy(p=0.55, rounds=(8.0, 0.5), share=(0.31, 0.01))
    table = B.compare(variant, base)
    text = B.verdict(table, {"p_first": "the first player's chance", "share": "the share"},
                     length="rounds", note="Runs are independent.")  # fmt: skip
    assert text.startswith("The variant moves the first player's chance from 0.5 to 0.55; ")
    assert "leaves the share within noise (0.3 vs 0.31" in text
    assert "games get 20% shorter (10 to 8 rounds)" in text
    assert "2 of 3 metrics differ significantly." in text and text.endswith("independent.")
    longer = B.verdict(B.compare(base, variant), {}, length="rounds")
    assert longer.startswith("Games get 25% longer (8 to 10 rounds)")
    flat = B.verdict(B.compare(base, base), {"p_first": "p"}, length="rounds")
    assert "leaves p at 0.5" in flat and "game length does not change significantly" in flat
    with pytest.raises(ValueError, match="headline 'nope' is not a metric"):
        B.verdict(table, {"nope": "x"})


def test_missing_values_compare_as_not_significant():
    card = B.build_card(METRICS, {"p_first": B.exact(np.nan, 0), "rounds": B.missing(0),
                                  "share": B.missing(3)}, grid=1)  # fmt: skip
    table = B.compare(card, toy())
    assert not table["significant"].any()
    assert "cannot compare p (0.5 vs n/a)" in B.verdict(table, {"p_first": "p"})


def test_markdown_card_is_self_contained_with_one_figure():
    table = B.compare(toy(p=0.55), toy())
    text = B.markdown_card(table, "Toy", "The verdict.", "`Rules(x=1)`", "`Rules()`")
    images = re.findall(r"!\[[^\]]*\]\(data:image/png;base64,([A-Za-z0-9+/=]+)\)", text)
    assert len(images) == 1
    png = base64.b64decode(images[0])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| p_first | 0.5 | 0.55 | 0.05 | * | exact | probability |" in text
    assert "| rounds | 10 [9.02, 11] | 10 [9.02, 11] | 0 [-1.39, 1.39] |  |" in text
    assert "The verdict." in text and "* `rounds`: mean length" in text


def test_registry_is_lazy_and_complete():
    code = ("import sys, tabletop, tabletop.games, tabletop.balance, tabletop.sweep, "
            "tabletop.cli; print(sorted(set(sys.modules) & {'panache', 'citadel', "
            "'samarra', 'commander'}))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]"
    for name in games.names():
        entry = games.get(name)
        cls = entry.rules_class()
        cls(**entry.small_rules)
        assert [m.name for m in entry.metrics] and set(entry.verdict["headlines"]) <= {
            m.name for m in entry.metrics}
        for role in entry.solvers:
            assert callable(entry.solver(role))
        for role in entry.simulators:
            assert callable(entry.simulator(role))
    with pytest.raises(ValueError, match="panache solver role must be one of"):
        games.get("panache").solver("nope")
    with pytest.raises(ValueError, match=r"path must be 'package\.module:name'"):
        games.load("panache")


def _table_analysis(n, seed):
    return pd.DataFrame({"metric": ["a", "b"], "value": [float(n), float(n) * 2]})


def test_sweep_of_tables_and_resume(tmp_path):
    res = sweep(_table_analysis, {"n": [1, 2]}, seed=0, jobs=1, store=tmp_path)
    frame = res.frame
    assert frame.index.tolist() == [0, 0, 1, 1] and frame.columns.tolist() == ["n", "metric",
                                                                                 "value"]
    assert frame["value"].tolist() == [1.0, 2.0, 2.0, 4.0]
    again = sweep(_table_analysis, {"n": [1, 2]}, seed=0, jobs=1, store=tmp_path)
    assert again.n_cached == 2
    pd.testing.assert_frame_equal(again.frame, frame)


def test_sweep_of_balance_cards_matches_the_cards():
    grid = {"win_gold": [6, 8]}
    res = sweep("commander.balance", grid, fixed={"n_games": 300}, seed=4, jobs=1)
    assert res.ok and res.n_tasks == 2
    from commander import Rules, balance
    from tabletop.sweep import task_seed

    root = np.random.SeedSequence(4)
    for task, win_gold in enumerate(grid["win_gold"]):
        card = balance(Rules(win_gold=win_gold), n_games=300, seed=task_seed(root, task))
        got = res.frame.loc[[task]].drop(columns="win_gold").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, card, check_dtype=False)
    with pytest.raises(ValueError, match=r"a named analysis must be '<game>\.balance'"):
        sweep("chess.balance", grid)


def test_card_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))
    from commander import Rules

    first = B.cached_balance("commander", Rules(win_gold=6), seed=1, n_games=200)
    files = list((tmp_path / "cards").glob("commander-*.json"))
    assert len(files) == 1
    again = B.cached_balance("commander", Rules(win_gold=6), seed=1, n_games=200)
    pd.testing.assert_frame_equal(again, first, check_exact=True)  # floats read back exactly
    files[0].write_text("{not json", encoding="utf-8")  # a broken file is recomputed
    pd.testing.assert_frame_equal(
        B.cached_balance("commander", Rules(win_gold=6), seed=1, n_games=200), first)
    B.cached_balance("commander", Rules(win_gold=6), seed=2, n_games=200)
    assert len(list((tmp_path / "cards").glob("*.json"))) == 2


def test_card_cache_key_fills_in_the_defaults():
    """A card asked for with a default written out (as the command line does) is the
    card asked for without it; a changed option or the worker count is not."""
    from citadel import Rules

    plain = B._card_key("citadel", Rules(), 0, {"n_games": 300})
    assert plain == B._card_key("citadel", Rules(), 0, {"n_games": 300, "duel_grid": 5,
                                                         "duel_directions": "all", "jobs": 1})
    assert plain != B._card_key("citadel", Rules(), 0, {"n_games": 300, "duel_grid": 10})
    assert plain != B._card_key("citadel", Rules(), 1, {"n_games": 300})
    assert "jobs" not in plain["options"] and plain["options"]["duel_grid"] == "5"


def test_compare_rules_seeds_the_two_cards_independently():
    from commander import Rules, balance
    from tabletop.sweep import task_seed

    res = B.compare_rules("commander", {"win_gold": 8}, {"win_gold": 6}, seed=3, n_games=300)
    root = np.random.SeedSequence(3)
    pd.testing.assert_frame_equal(res.baseline,
                                  balance(Rules(win_gold=6), n_games=300, seed=task_seed(root, 0)))
    pd.testing.assert_frame_equal(res.variant,
                                  balance(Rules(win_gold=8), n_games=300, seed=task_seed(root, 1)))
    assert "independent runs" in res.verdict
    assert res.table["marker"].tolist()[:3] == ["*", "*", "*"]  # the race is faster


def test_z_is_the_normal_quantile():
    from scipy import stats

    assert float(stats.norm.ppf(0.5 + B.LEVEL / 2)) == B.Z
