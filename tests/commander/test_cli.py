import io
import json
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import commander
import commander.cli as mcli
from commander import (
    Rules,
    battle_odds,
    load_cards,
    load_decks,
    referendum_odds,
    simulate_economy,
    solve_race,
    strategy_wins,
    validate_deck,
)
from commander.cli import main, parse_pairs
from tests import cli_helpers

RACE = ["--doublons", "5", "--stock", "10", "--income", "4"]
PLAYERS = ["--players", "spanish_sample", "ghost_sample"]


run = partial(cli_helpers.run, main)
run_json = partial(cli_helpers.run_json, main)


def test_pair_knobs():
    assert parse_pairs("exchange_rates", "13:1,7:3,0:6") == ((13, 1), (7, 3), (0, 6))
    with pytest.raises(ValueError, match="expected KEY:INT pairs"):
        parse_pairs("exchange_rates", "13-1")


def test_race_matches_the_solver(capsys):
    (row,) = run_json(capsys, "race", *RACE)
    res = solve_race(Rules(), gold=0, doublons=5, stock=10, income=4)
    assert (row["win_turn"], row["doublons_left"], row["net_cost"]) == (
        res.win_turn, res.doublons_left, res.net_cost)  # fmt: skip
    assert row["plan"] == "+1 -1 +1 -1 +1 +3 +3 +3"  # the example of solve_race's docstring
    code, out, _ = run(capsys, "race", *RACE, "--show", "by-turn", "--horizon", "15",
                       "--format", "csv")  # fmt: skip
    frame = pd.read_csv(io.StringIO(out), index_col="turn")
    want = solve_race(Rules(), 0, 5, 10, 4, horizon=15).by_turn
    assert code == 0 and frame.to_numpy().tolist() == want.to_numpy().tolist()


def test_race_knobs_and_streams(capsys):
    argv = ["race", "--gold", "2", "--income", "3,2,1", "--drain", "0,1", "--win-gold", "6",
            "--exchange-rates", "9:1,4:3,0:5", "--sale-price", "after"]  # fmt: skip
    (row,) = run_json(capsys, *argv)
    rules = Rules(win_gold=6, exchange_rates=((9, 1), (4, 3), (0, 5)), sale_price="after")
    res = solve_race(rules, 2, rules.start_doublons, rules.start_stock, (3, 2, 1), (0, 1))
    assert row["win_turn"] == res.win_turn and row["net_cost"] == res.net_cost


def test_battle_and_conflict(capsys):
    (row,) = run_json(capsys, "battle", "--attackers", "1,2,3", "--n-attackers", "2",
                      "--defenders", "1,2", "--target-value", "1")  # fmt: skip
    odds = battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, target_value=1)
    assert row["p_attacker"] == odds.p_attacker == pytest.approx(5 / 6)
    assert row["p_capture"] == odds.p_capture
    code, out, _ = run(capsys, "battle", "--kind", "economic", "--attackers", "1,2,3",
                       "--defenders", "2,4", "--n-defenders", "2", "--bankruptcy-cap", "2",
                       "--show", "margin", "--format", "csv")  # fmt: skip
    law = pd.read_csv(io.StringIO(out), index_col="margin")["probability"]
    want = battle_odds("economic", [1, 2, 3], 1, [2, 4], 2, 0, rules=Rules(bankruptcy_cap=2))
    assert code == 0 and law.index.tolist() == want.margin.index.tolist()
    np.testing.assert_allclose(law.to_numpy(), want.margin.to_numpy(), rtol=1e-15)
    (row,) = run_json(capsys, "conflict", "--for-votes", "1,2,4", "--against-votes", "3")
    assert row["p_pass"] == referendum_odds([1, 2, 4], 1, [3], 1) == 1 / 3
    (row,) = run_json(capsys, "conflict", "--for-votes", "1,2,4", "--against-votes", "3",
                      "--no-launched", "--launcher-bonus", "0")  # fmt: skip
    assert row["p_pass"] == referendum_odds([1, 2, 4], 1, [3], 1, launched=False)


def test_validate_lists_every_broken_rule(capsys, tmp_path):
    cards = load_cards()
    decks = load_decks(cards=cards)
    code, out, err = run(capsys, "validate", "--format", "json")
    rows = json.loads(out)
    assert code == 1 and err == "error: 1 of 5 decks break the rules: broken_example\n"
    broken = [r["rule"] for r in rows if r["deck"] == "broken_example"]
    assert broken == [v.rule for v in validate_deck(decks["broken_example"], cards)]
    assert {r["deck"] for r in rows if r["rule"] == "-"} == set(decks) - {"broken_example"}
    (row,) = run_json(capsys, "validate", "--deck", "spanish_sample")
    assert row == {"deck": "spanish_sample", "rule": "-", "message": "legal"}
    # a knob makes a legal deck illegal
    code, out, err = run(capsys, "validate", "--deck", "spanish_sample", "--min-crew", "500")
    assert code == 1 and "min_crew" in out and err.count("\n") == 1
    # a user's decks file
    path = tmp_path / "decks.csv"
    sample = Path(commander.__file__).parent / "data" / "decks.csv"
    lines = [line for line in sample.read_text().splitlines()
             if line.startswith(("deck,", "ghost_sample,"))]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    (row,) = run_json(capsys, "validate", "--decks", str(path))
    assert row["deck"] == "ghost_sample" and row["message"] == "legal"


def test_simulate_matches_the_library(capsys):
    rows = run_json(capsys, "simulate", *PLAYERS, "--games", "300", "--seed", "5",
                    "--jobs", "1")  # fmt: skip
    cards = load_cards()
    decks = load_decks(cards=cards)
    res = simulate_economy(Rules(), [decks["spanish_sample"], decks["ghost_sample"]], cards,
                           n=300, seed=5, record=False)  # fmt: skip
    wins = strategy_wins(res)
    assert [r["wins"] for r in rows] == wins["wins"].tolist()
    assert [r["deck"] for r in rows] == ["spanish_sample", "ghost_sample"]
    rows = run_json(capsys, "simulate", "--games", "100", "--seed", "5", "--show", "seats")
    assert [r["seat"] for r in rows] == [0, 1]
    code, out, _ = run(capsys, "simulate", "--games", "100", "--seed", "5", "--show", "turns")
    assert code == 0 and out.split()[0] == "share"


def test_sweep_of_races(capsys):
    rows = run_json(capsys, "sweep", "--grid", "win_gold=6,8", "max_gold_per_transaction=2,3",
                    *RACE, "--jobs", "1")  # fmt: skip
    assert [(r["win_gold"], r["max_gold_per_transaction"]) for r in rows] == [
        (6, 2), (6, 3), (8, 2), (8, 3)]  # fmt: skip
    for r in rows:
        cap = r["max_gold_per_transaction"]
        rules = Rules(win_gold=r["win_gold"], max_gold_per_transaction=cap)
        res = solve_race(rules, 0, 5, 10, 4)
        assert (r["win_turn"], r["net_cost"]) == (res.win_turn, res.net_cost)


def test_sweep_over_exchange_rate_tables(capsys):
    rows = run_json(capsys, "sweep", "--grid", "exchange-rates=13:1,10:2,0:6;10:1,0:3",
                    "win_gold=6,8", *RACE, "--jobs", "1")  # fmt: skip
    tables = [((13, 1), (10, 2), (0, 6)), ((10, 1), (0, 3))]
    assert len(rows) == 4
    for r, (table, win) in zip(rows, [(t, w) for t in tables for w in (6, 8)], strict=True):
        assert r["win_gold"] == win
        res = solve_race(Rules(win_gold=win, exchange_rates=table), 0, 5, 10, 4)
        assert (r["win_turn"], r["net_cost"]) == (res.win_turn, res.net_cost)


def test_sweep_of_economies_is_seeded_and_resumes(capsys, tmp_path):
    argv = ["sweep", "--analysis", "simulate", "--grid", "win_gold=6,8", "--games", "200",
            "--seed", "9", "--jobs", "1"]  # fmt: skip
    first = run_json(capsys, *argv)
    cards = load_cards()
    decks = load_decks(cards=cards)
    children = np.random.SeedSequence(9).spawn(2)
    for row, win, child in zip(first, (6, 8), children, strict=True):
        pair = [decks["spanish_sample"], decks["ghost_sample"]]
        res = simulate_economy(Rules(win_gold=win), pair, cards, n=200, seed=child, record=False)
        assert row["player_0_share"] == strategy_wins(res)["share"].iloc[0]
    stored = run_json(capsys, *argv, "--store", str(tmp_path))
    assert stored == first and len(list(tmp_path.glob("*.json"))) == 2
    assert run_json(capsys, *argv, "--store", str(tmp_path)) == first  # read back


def test_sweep_reports_failed_tasks_and_keeps_the_rest(capsys, monkeypatch):
    def picky(*, seed=None, **knobs):
        if knobs["win_gold"] == 8:
            raise ValueError("eight is out today")
        return {"ok": 1}

    monkeypatch.setitem(mcli._ANALYSIS, "race", picky)
    code, out, err = run(capsys, "sweep", "--grid", "win_gold=6,8,9", "--jobs", "1",
                         "--format", "csv")  # fmt: skip
    assert code == 1
    assert err == ("error: 1 of 3 sweep tasks failed: task 1 (win_gold=8): "
                   "ValueError: eight is out today\n")  # fmt: skip
    assert pd.read_csv(io.StringIO(out), index_col="task")["win_gold"].tolist() == [6, 9]


def test_report_runs_the_commander_notebooks(capsys, monkeypatch, tmp_path):
    calls = []

    def fake_run(path, size, report_directory, **options):
        calls.append((path.name, size))
        (report_directory / f"{path.stem}.md").write_text(f"# Fake: {path.stem}\n\nDone.\n")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", fake_run)
    rows = run_json(capsys, "report", "--size", "small", "--report-dir", str(tmp_path))
    assert calls and all(size == "small" and name.startswith("commander") for name, size in calls)
    assert [r["notebook"] for r in rows] == [name for name, _ in calls]


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["race", "--win-gold", "0"], 2, "error: win_gold must be 1..50, got 0"),
        (["race", "--win-gold", "ten"], 2, "win_gold: expected an int, got 'ten'"),
        (["race", "--sale-price", "never"], 2, "sale_price must be one of"),
        (["race", "--exchange-rates", "13:1,0:x"], 2, "exchange_rates: expected an int"),
        (["race", "--exchange-rates", "13:1,5:6"], 2, "must end with a band starting at stock 0"),
        (["race", "--income", "1,a"], 2, "income: expected an int, got 'a'"),
        (["race", "--gold", "-1"], 2, "gold must be"),
        (["race", "--colour", "red"], 2, "unrecognized arguments: --colour red"),
        (["race", "--seed", "3"], 2, "unrecognized arguments: --seed 3"),
        (["battle", "--attackers", "1,2"], 2, "the following arguments are required: --defenders"),
        (["battle", "--attackers", "1", "--defenders", "1", "--n-attackers", "2"], 2,
         "n_attackers must be"),
        (["battle", "--attackers", "1", "--defenders", "1", "--kind", "naval"], 2,
         "invalid choice: 'naval'"),
        (["validate", "--decks", "/nonexistent/decks.csv"], 2, "No such file or directory"),
        (["validate", "--cards", "/nonexistent/cards.csv"], 2, "No such file or directory"),
        (["validate", "--deck", "pirates"], 2, "unknown deck 'pirates'"),
        (["simulate", "--players", "spanish_sample"], 2, "need 2 decks (one per player), got 1"),
        (["simulate", "--games", "0"], 2, "games must be >= 1, got 0"),
        (["sweep", "--grid", "win_gold=8", "--analysis", "simulate", "--games", "0"], 2,
         "games must be >= 1, got 0"),
        (["sweep"], 2, "the following arguments are required: --grid"),
        (["sweep", "--grid", "win_gold=8,99"], 2, "error: win_gold must be 1..50, got 99"),
        (["sweep", "--grid", "win_gold=8", "--win-gold", "9"], 2, "both an option and in --grid"),
        (["sweep", "--grid", "gold=4"], 2, "unknown knob 'gold'"),
        (["sweep", "--grid", "exchange-rates=13:1,0:6", "--exchange-rates", "13:1,0:6"], 2,
         "'exchange_rates' is given twice or also as an option"),
        (["sweep", "--grid", "exchange-rates=13:1,0:x"], 2, "exchange_rates: expected an int"),
        (["sweep", "--grid", "win_gold=8", "--store", "x"], 2, "--store needs --seed"),
        (["sweep", "--grid", "n_players=2,3", "--analysis", "simulate"], 2, "need 3 decks"),
    ],
)  # fmt: skip
def test_mistakes_print_one_line(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert got == code and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_a_broken_decks_file(capsys, tmp_path):
    path = tmp_path / "decks.csv"
    path.write_text("deck,card_id,copies\nmine,no_such_card,0\n")
    got, out, err = run(capsys, "validate", "--decks", str(path))
    assert got == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert err.endswith("row 2, field 'card_id': unknown card 'no_such_card' (not in "
                        "commander/data/cards.csv) (and 1 more problem)\n")


def test_python_dash_m(capsys, monkeypatch):
    def run_module(argv):
        return cli_helpers.run_module("commander", capsys, monkeypatch, argv)

    code, out, _ = run_module(["race", *RACE])
    assert code == 0 and out.split()[:3] == ["win_turn", "doublons_left", "net_cost"]
    bad = run_module(["race", "--win-gold", "0"])
    assert bad == (2, "", "error: win_gold must be 1..50, got 0\n")


def test_compare_and_pair_baseline(capsys, tmp_path, monkeypatch):
    from tabletop.balance import compare_rules

    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))
    argv = ["compare", "--win-gold", "8", "--baseline", "exchange_rates=13:1,0:5",
            "--baseline", "win_gold=6", "--n-games", "400", "--seed", "3"]  # fmt: skip
    rows = run_json(capsys, *argv)
    res = compare_rules("commander", {"win_gold": 8},
                        {"win_gold": 6, "exchange_rates": ((13, 1), (0, 5))}, seed=3,
                        n_games=400)  # fmt: skip
    assert [r["difference"] for r in rows] == res.table["difference"].tolist()
    assert [r["marker"] for r in rows] == res.table["marker"].tolist()
    code, out, err = run(capsys, *argv[:3], "--format", "csv", "--n-games", "400")
    assert code == 0 and out.startswith("metric,baseline,baseline_low,")
    code, out, err = run(capsys, "compare", "--baseline", "exchange_rates=13")
    assert code == 2 and err.startswith("error: exchange_rates: expected KEY:INT pairs")


def test_compare_output_into_a_folder_that_cannot_be_made_is_refused_first(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    target = blocker / "sub" / "card.md"
    started = __import__("time").monotonic()
    code, _out, err = run(capsys, "compare", "--win-gold", "8", "--format", "md", "--output",
                         str(target))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: --output {target}: cannot create the folder")
    assert __import__("time").monotonic() - started < 5  # before any card is computed
