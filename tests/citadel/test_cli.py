import io
from functools import partial

import numpy as np
import pandas as pd
import pytest

import citadel.cli as ccli
from citadel import Rules, check_solution, resolve, simulate_games, solve_duel_game
from citadel.cli import main, parse_order
from tests import cli_helpers

DUEL = ["--radius", "1", "--capital", "10", "--bid-step", "5"]
SMALL = ["--radius", "1", "--capital", "10"]


run = partial(cli_helpers.run, main)
run_json = partial(cli_helpers.run_json, main)


def test_order_specs():
    assert parse_order("32N") == (32, "N") and parse_order(" 5 : sw ") == (5, "SW")
    assert parse_order("0") == (0, None) and parse_order("7 2") == (7, 2)
    with pytest.raises(ValueError, match="needs a direction"):
        parse_order("12")
    with pytest.raises(ValueError, match="write AMOUNT DIRECTION"):
        parse_order("north")


def test_resolve_the_seed_example(capsys):
    (row,) = run_json(capsys, "resolve", "32N", "32E", "18S", "5NW")
    res = resolve([(32, "N"), (32, "E"), (18, "S"), (5, "NW")])
    assert row["move"] == "NE" and (row["dx"], row["dy"]) == res.step
    assert [row[f"pays_{s}"] for s in "NESW"] == list(res.pays)
    assert [row[f"fee_{s}"] for s in "NESW"] == list(res.fee)


def test_resolve_knobs_and_capitals(capsys):
    # three seats, a tie 135 degrees apart: no move, both tied authors lose the point
    argv = ["resolve", "10 N", "10:SE", "-", "--n-players", "3", "--capitals", "20,10,5"]
    code, out, _ = run(capsys, *argv, "--format", "csv")
    frame = pd.read_csv(io.StringIO(out), index_col="move")
    res = resolve([(10, "N"), (10, "SE"), (0, None)], Rules(n_players=3), [20, 10, 5])
    assert code == 0 and frame.index.tolist() == ["none"] and res.step == (0, 0)
    assert frame[["fee_N", "fee_E", "fee_S"]].iloc[0].tolist() == list(res.fee) == [1, 1, 0]
    code, out, _ = run(capsys, "resolve", "10N", "5S", "--n-players", "2", "--payment", "winners")
    assert code == 0 and out.split()[:3] == ["dx", "dy", "pays_N"]
    assert out.splitlines()[-1].split() == ["N", "0", "1", "10", "0", "0", "0"]


def test_simulate_matches_the_library(capsys):
    rows = run_json(capsys, "simulate", *SMALL, "--games", "300", "--seed", "5", "--jobs", "1",
                    "--agents", "straight", "random", "saver", "counter")  # fmt: skip
    agents = ["straight", "random", "saver", "counter"]
    summary = simulate_games(Rules(radius=1, capital=10), agents, 300, seed=5).summary()
    assert [r["seat"] for r in rows] == summary.index.tolist()
    assert [r["mean"] for r in rows] == summary["mean"].tolist()
    assert [r["agent"] for r in rows] == summary["agent"].tolist()


def test_solve(capsys):
    (row,) = run_json(capsys, "solve", *DUEL[:2], "--capital", "5", "--bid-step", "5",
                      "--directions", "fees")  # fmt: skip
    sol = solve_duel_game(Rules(n_players=2, radius=1, capital=5, bid_step=5), "fees")
    chk = check_solution(sol, "fees")
    assert row["directions"] == "fees" and row["value"] == sol.value()
    assert (row["p_n"], row["p_s"], row["p_draw"]) == (chk.p_n, chk.p_s, chk.p_draw)
    rows = run_json(capsys, "solve", *DUEL, "--show", "opening")
    sol = solve_duel_game(Rules(n_players=2, radius=1, capital=10, bid_step=5))
    north = [r for r in rows if r["side"] == "N"]
    assert [r["probability"] for r in north] == sol.opening(0).tolist()
    code, out, _ = run(capsys, "solve", *DUEL, "--show", "values", "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert code == 0 and len(table) == 3 * 3 * 3
    for r in table.itertuples():
        assert r.value == sol.value(r.y, r.cap_n, r.cap_s)
    assert table.query("y == 1 and cap_n == 10 and cap_s == 10")["value"].item() == 0.5


def test_sides_and_alliances_match_the_library(capsys):
    from citadel.coalitions import alliance_analysis, check_sides, solve_sides

    rules = Rules(radius=1, capital=10, bid_step=5)
    (row,) = run_json(capsys, "sides", *DUEL, "--side", "ns", "--objective", "score")
    chk = check_sides(solve_sides(rules, "NS", "score"))
    assert row["sides"] == "NS vs EW"
    assert (row["value"], row["score_NS"], row["p_draw"]) == (chk.value, chk.score_a, chk.p_draw)
    rows = {r["coalition"]: r for r in run_json(capsys, "alliances", *DUEL)}
    res = alliance_analysis(rules)
    assert list(rows) == list(res.values.index)
    for name, r in rows.items():
        assert r["value"] == res.values.loc[name, "value"]
    assert [rows[s]["shapley"] for s in "NESW"] == res.shapley.tolist()
    assert [rows[s]["least_core"] for s in "NESW"] == res.least_core.allocation.tolist()


def test_sweep_of_solves(capsys):
    rows = run_json(capsys, "sweep", "--analysis", "solve", "--grid", "capital=5,10",
                    "--radius", "1", "--bid-step", "5", "--jobs", "1")  # fmt: skip
    assert [(r["task"], r["capital"]) for r in rows] == [(0, 5), (1, 10)]
    for r in rows:
        sol = solve_duel_game(Rules(n_players=2, radius=1, capital=r["capital"], bid_step=5))
        assert r["value"] == sol.value()


def test_sweep_of_simulations_is_seeded_and_resumes(capsys, tmp_path):
    argv = ["sweep", "--grid", "n_players=2,3", *SMALL, "--games", "200", "--seed", "9",
            "--jobs", "1", "--agents", "random"]  # fmt: skip
    first = run_json(capsys, *argv)
    children = np.random.SeedSequence(9).spawn(2)
    for row, n, child in zip(first, (2, 3), children, strict=True):
        res = simulate_games(Rules(n_players=n, radius=1, capital=10), "random", 200, seed=child)
        assert row["score_N"] == res.scores[:, 0].mean()
        assert row["draw"] == res.draws.mean() and row["mean_rounds"] == res.rounds.mean()
    assert first[0]["score_E"] is None and first[1]["score_E"] is not None
    stored = run_json(capsys, *argv, "--store", str(tmp_path))
    assert stored == first and len(list(tmp_path.glob("*.json"))) == 2
    assert run_json(capsys, *argv, "--store", str(tmp_path)) == first  # read back


def test_sweep_reports_failed_tasks_and_keeps_the_rest(capsys, monkeypatch):
    def picky(*, seed=None, directions="axis", **knobs):
        if knobs["capital"] == 10:
            raise ValueError("ten is out today")
        return ccli.solve_analysis(directions=directions, **knobs)

    monkeypatch.setitem(ccli._ANALYSIS, "solve", picky)
    argv = ["sweep", "--analysis", "solve", "--grid", "capital=5,10,15", "--radius", "1",
            "--bid-step", "5", "--jobs", "1", "--format", "csv"]  # fmt: skip
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert err == ("error: 1 of 3 sweep tasks failed: task 1 (capital=10): "
                   "ValueError: ten is out today\n")  # fmt: skip
    assert pd.read_csv(io.StringIO(out), index_col="task")["capital"].tolist() == [5, 15]


def test_report_runs_the_citadel_notebooks(capsys, monkeypatch, tmp_path):
    calls = []

    def fake_run(path, size, report_directory, **options):
        calls.append((path.name, size))
        (report_directory / f"{path.stem}.md").write_text(f"# Fake: {path.stem}\n\nDone.\n")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", fake_run)
    rows = run_json(capsys, "report", "--size", "small", "--report-dir", str(tmp_path))
    assert calls and all(size == "small" and name.startswith("citadel") for name, size in calls)
    assert [r["notebook"] for r in rows] == [name for name, _ in calls]
    assert (tmp_path / "index.md").exists()


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["resolve", "1N", "--radius", "0"], 2, "error: radius must be 1..50, got 0"),
        (["resolve", "1N", "--radius", "big"], 2, "radius: expected an int, got 'big'"),
        (["resolve", "1N", "--payment", "nobody"], 2, "payment must be one of"),
        (["resolve", "32N", "32X", "18S", "5NW"], 2, "seat E (#1): unknown direction 'X'"),
        (["resolve", "32N", "north", "18S", "5NW"], 2, "order 'north': write AMOUNT"),
        (["resolve", "32N", "32E"], 2, "expected 4 orders (one per seat"),
        (["resolve", "32N", "32E", "18S", "101W"], 2, "over the seat's capital 100"),
        (["resolve", "1N", "1S", "--n-players", "2", "--capitals", "x"], 2,
         "capitals: expected an int"),
        (["resolve", "1N", "--colour", "red"], 2, "unrecognized arguments: --colour red"),
        (["resolve"], 2, "the following arguments are required: ORDER"),
        (["solve", "--seed", "3"], 2, "unrecognized arguments: --seed 3"),
        (["solve", "--n-players", "4"], 2, "the duel is the two-player game"),
        (["sides", "--side", "NX"], 2, "side 'NX': seat(s) ['X'] not among"),
        (["sides", "--side", "NESW"], 2, "at least one and not all"),
        (["sides", "--objective", "win"], 2, "invalid choice: 'win'"),
        (["simulate", "--agents", "robot"], 2, "unknown agent 'robot'"),
        (["simulate", "--games", "0"], 2, "games must be >= 2 (for a mean and its error), got 0"),
        (["sweep"], 2, "the following arguments are required: --grid"),
        (["sweep", "--grid", "radius=1,99"], 2, "error: radius must be 1..50, got 99"),
        (["sweep", "--grid", "radius=1", "--radius", "2"], 2, "both an option and in --grid"),
        (["sweep", "--grid", "size=4"], 2, "unknown knob 'size'"),
        (["sweep", "--grid", "radius=1", "--store", "x"], 2, "--store needs --seed"),
        (["sweep", "--grid", "radius=1", "--agents", "x"], 2, "unknown agent 'x'"),
        (["sweep", "--grid", "n_players=2,3", "--analysis", "solve", "--n-players", "x"], 2,
         "n_players: expected an int"),
        (["sweep", "--grid", "n_players=2,3", "--analysis", "solve"], 2,
         "the duel is the two-player game"),
    ],
)  # fmt: skip
def test_mistakes_print_one_line(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert got == code and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_python_dash_m(capsys, monkeypatch):
    def run_module(argv):
        return cli_helpers.run_module("citadel", capsys, monkeypatch, argv)

    code, out, _ = run_module(["resolve", "32N", "32E", "18S", "5NW"])
    assert code == 0 and out.splitlines()[-1].split()[:3] == ["NE", "1", "1"]
    assert run_module(["solve", "--radius", "0"]) == (2, "", "error: radius must be 1..50, got 0\n")


CARD = [*DUEL, "--n-games", "300", "--duel-grid", "5", "--coalition-grid", "10", "--jobs", "1"]


def test_compare_min_bid(capsys, tmp_path, monkeypatch):
    from tabletop.balance import compare_rules

    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))
    rows = run_json(capsys, "compare", *CARD, "--min-bid", "5", "--baseline", "radius=1",
                    "--baseline", "capital=10", "--baseline", "bid_step=5")  # fmt: skip
    knobs = {"radius": 1, "capital": 10, "bid_step": 5}
    # the command line stored its two cards in the cache: the library reads the same
    res = compare_rules("citadel", {**knobs, "min_bid": 5}, knobs, seed=0, n_games=300,
                        duel_grid=5, coalition_grid=10, jobs=1, cache=True)  # fmt: skip
    assert len(list((tmp_path / "cards").glob("citadel-*.json"))) == 2
    assert [r["difference"] for r in rows] == [
        None if np.isnan(d) else d for d in res.table["difference"]]
    assert [r["marker"] for r in rows] == res.table["marker"].tolist()
    by = {r["metric"]: r for r in rows}
    assert by["coalition_opposite"]["variant"] is not None  # min_bid's coalitions are solved


def test_compare_bad_input(capsys):
    for argv, message in [
        (["compare", "--baseline", "radius=0"], "error: radius must be 1..50, got 0\n"),
        (["compare", "--duel-grid", "0"], "expected a positive int, got 0"),
        (["compare", "--baseline", "payment=some"], "payment must be one of"),
    ]:
        code, out, err = run(capsys, *argv)
        assert code != 0 and out == "" and message in err and err.count("\n") == 1
