import io
import re
import subprocess
import sys
from functools import partial

import numpy as np
import pandas as pd
import pytest

import panache.cli as pcli
from panache import Agent, Rules, simulate_games, solve_duel, solve_turn, tournament
from panache.cli import main, parse_agent
from tests import cli_helpers

TINY = ["--n-dice", "3", "--start-points", "6"]


run = partial(cli_helpers.run, main)
run_json = partial(cli_helpers.run_json, main)


def test_turn_summary_matches_the_solver(capsys):
    (row,) = run_json(capsys, "turn", "--n-dice", "3", "--utility", "zero")
    sol = solve_turn(Rules(n_dice=3), "zero")
    assert row["utility"] == "zero" and row["value"] == sol.value
    assert row["p_zero"] == pytest.approx(sol.value, abs=1e-12)  # playing for zero
    assert row["p_negative"] + row["p_zero"] + row["p_positive"] == pytest.approx(1, abs=1e-12)
    assert row["expected_dice"] == sol.expected_dice


def test_turn_policy_and_distribution(capsys):
    rules = Rules(n_dice=2, face_values=(-3, -2, -1, 0, 1, 2))
    code, out, _ = run(capsys, "turn", "--n-dice", "2", "--face-values=-3,-2,-1,0,1,2",
                       "--show", "distribution", "--format", "csv")  # fmt: skip
    frame = pd.read_csv(io.StringIO(out), index_col="total")["probability"]
    expected = solve_turn(rules).distribution
    assert code == 0 and frame.index.tolist() == expected.index.tolist()
    np.testing.assert_allclose(frame.to_numpy(), expected.to_numpy(), rtol=1e-15)
    rows = run_json(capsys, "turn", "--n-dice", "2", "--show", "policy")
    policy = solve_turn(Rules(n_dice=2)).policy.to_frame(Rules(n_dice=2))
    assert len(rows) == len(policy)
    first = next(r for r in rows if r["set_aside"] == "" and r["rolled"] == "6 1")
    assert first["keep"] == policy.loc[("", "6 1"), "keep"]


def test_duel(capsys):
    (row,) = run_json(capsys, "duel", *TINY)
    sol = solve_duel(Rules(n_dice=3, start_points=6))
    assert row == {"game": "duel", "first_player_win": sol.first_player_win,
                   "second_player_win": 1 - sol.first_player_win, "max_points": 9}  # fmt: skip
    code, out, _ = run(capsys, "duel", *TINY, "--show", "win", "--format", "csv")
    win = pd.read_csv(io.StringIO(out), index_col="my_points")
    np.testing.assert_allclose(win.to_numpy(), sol.win.to_numpy(), rtol=1e-15)
    code, out, _ = run(capsys, "duel", *TINY, "--show", "decisions")
    assert code == 0 and out.split()[:3] == ["win", "mp_stake", "attack_levels"]


def test_simulate_matches_the_library(capsys):
    rules = Rules(n_dice=3, start_points=6)
    rows = run_json(capsys, "simulate", *TINY, "--games", "300", "--seed", "5", "--jobs", "1",
                    "--agents", "heuristic:target=weakest,mp=never", "random")  # fmt: skip
    agents = [Agent.heuristic(target="weakest", mp="never"), Agent.random()]
    expected = simulate_games(rules, agents, 300, seed=5).win_rates()
    assert [r["win_rate"] for r in rows] == expected["win_rate"].tolist()
    assert [r["agent"] for r in rows] == expected["agent"].tolist()
    rows = run_json(capsys, "simulate", *TINY, "--games", "100", "--seed", "5", "--tournament",
                    "--agents", "heuristic", "duel")  # fmt: skip
    table = tournament(rules, [Agent.heuristic(), Agent.duel()], 100, seed=5)
    assert [r["wins"] for r in rows] == table["wins"].tolist()
    rows = run_json(capsys, "simulate", *TINY, "--n-players", "3", "--games", "50", "--seed",
                    "1", "--show", "stats")  # fmt: skip
    assert rows[0]["statistic"] == "turns" and rows[0]["mean"] > 0


def test_agent_specs():
    assert parse_agent("random") == Agent.random()
    assert parse_agent("duel:label=solved") == Agent.duel(label="solved")
    assert parse_agent("heuristic:counter=false,min_level=7,turn_policy=positive") == (
        Agent.heuristic(counter=False, min_level=7, turn_policy="positive")
    )
    with pytest.raises(ValueError, match="KEY one of target"):
        parse_agent("heuristic:speed=3")
    with pytest.raises(ValueError, match="takes no options but label"):
        parse_agent("random:mp=never")


def test_sweep_rows_are_the_analyses(capsys):
    rows = run_json(capsys, "sweep", "--analysis", "duel", "--grid", "n_dice=2,3",
                    "start_points=4,6", "--jobs", "1", "--counter-attacks")  # fmt: skip
    assert [(r["task"], r["n_dice"], r["start_points"]) for r in rows] == [
        (0, 2, 4), (1, 2, 6), (2, 3, 4), (3, 3, 6),
    ]  # fmt: skip
    for r in rows:
        sol = solve_duel(Rules(n_dice=r["n_dice"], start_points=r["start_points"]))
        assert r["first_player_win"] == sol.first_player_win
    rows = run_json(capsys, "sweep", "--grid", "face_values=-4,-3,-2,-1,0,1;-3,-2,-1,0,1,2",
                    "--n-dice", "2", "--utility", "positive", "--jobs", "1")  # fmt: skip
    assert [r["face_values"] for r in rows] == [[-4, -3, -2, -1, 0, 1], [-3, -2, -1, 0, 1, 2]]
    assert rows[1]["value"] == solve_turn(Rules(n_dice=2, face_values=(-3, -2, -1, 0, 1, 2)),
                                          "positive").value  # fmt: skip


def test_sweep_of_simulations_is_seeded_and_resumes(capsys, tmp_path):
    argv = ["sweep", "--analysis", "simulate", "--grid", "n_players=2,3", *TINY,
            "--games", "200", "--seed", "9", "--jobs", "1"]  # fmt: skip
    first = run_json(capsys, *argv)
    children = np.random.SeedSequence(9).spawn(2)
    for row, n, child in zip(first, (2, 3), children, strict=True):
        agents = [Agent.heuristic()] * n
        res = simulate_games(Rules(n_dice=3, start_points=6, n_players=n), agents, 200,
                             seed=child)  # fmt: skip
        assert row["seat_0_win"] == res.win_rates().loc[0, "win_rate"]
    assert first[0]["seat_2_win"] is None and first[1]["seat_2_win"] is not None
    stored = run_json(capsys, *argv, "--store", str(tmp_path))
    assert stored == first and len(list(tmp_path.glob("*.json"))) == 2
    assert run_json(capsys, *argv, "--store", str(tmp_path)) == first  # read back


def test_sweep_reports_failed_tasks_and_keeps_the_rest(capsys, monkeypatch):
    def picky(*, seed=None, utility="ev", **knobs):
        if knobs["n_dice"] == 3:
            raise ValueError("three dice are out today")
        return pcli.turn_analysis(utility=utility, **knobs)

    monkeypatch.setitem(pcli._ANALYSIS, "turn", picky)
    code, out, err = run(capsys, "sweep", "--grid", "n_dice=2,3,4", "--jobs", "1",
                         "--format", "csv")  # fmt: skip
    assert code == 1
    assert err == ("error: 1 of 3 sweep tasks failed: task 1 (n_dice=3): "
                   "ValueError: three dice are out today\n")  # fmt: skip
    frame = pd.read_csv(io.StringIO(out), index_col="task")
    assert frame["n_dice"].tolist() == [2, 4]


def test_sweep_on_a_dask_scheduler(capsys):
    distributed = pytest.importorskip("distributed")
    argv = ["sweep", "--grid", "n_dice=2,3", "--seed", "4"]
    local = run_json(capsys, *argv, "--jobs", "1")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        assert run_json(capsys, *argv, "--dask", cluster.scheduler_address) == local


def test_report_runs_the_panache_notebooks(capsys, monkeypatch, tmp_path):
    calls = []

    def fake_run(path, size, report_directory, **options):
        calls.append((path.name, size))
        (report_directory / f"{path.stem}.md").write_text(f"# Fake: {path.stem}\n\nDone.\n")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", fake_run)
    rows = run_json(capsys, "report", "--size", "small", "--report-dir", str(tmp_path))
    assert calls and all(size == "small" and name.startswith("panache_") for name, size in calls)
    assert [r["notebook"] for r in rows] == [name for name, _ in calls]
    assert "* Done." in (tmp_path / "index.md").read_text()

    def broken(path, size, report_directory, **options):
        raise RuntimeError("CellExecutionError\n...\nZeroDivisionError: division by zero")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", broken)
    code, _, err = run(capsys, "report", "--report-dir", str(tmp_path))
    assert code == 1 and err.endswith("failed: ZeroDivisionError: division by zero\n")


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["turn", "--n-dice", "9"], 2, "error: n_dice must be 1..8, got 9"),
        (["turn", "--n-dice", "many"], 2, "n_dice: expected an int, got 'many'"),
        (["turn", "--face-values=1,2"], 2, "face_values must hold six ints"),
        (["turn", "--utility", "luck"], 2, "utility name must be one of"),
        (["turn", "--colour", "red"], 2, "unrecognized arguments: --colour red"),
        (["duel", "--seed", "3"], 2, "unrecognized arguments: --seed 3"),
        (["simulate", "--agents", "robot"], 2, "the kind must be heuristic, random, duel or three"),
        (["simulate", "--games", "0"], 2, "n_games must be >= 1, got 0"),
        (["sweep"], 2, "the following arguments are required: --grid"),
        (["sweep", "--grid", "n_dice=4,9"], 2, "error: n_dice must be 1..8, got 9"),
        (["sweep", "--grid", "n_dice=4", "--n-dice", "5"], 2, "both an option and in --grid"),
        (["sweep", "--grid", "dice=4"], 2, "unknown knob 'dice'"),
        (["sweep", "--grid", "n_dice=4", "--store", "x"], 2, "--store needs --seed"),
        (["sweep", "--grid", "n_dice=4", "--utility", "luck"], 2, "utility name must be"),
        (["sweep", "--grid", "n_dice=4", "--analysis", "simulate", "--agents", "x"], 2,
         "agent 'x'"),
    ],
)  # fmt: skip
def test_mistakes_print_one_line(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert got == code and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


@pytest.mark.slow
def test_python_dash_m(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "panache", "turn", "--n-dice", "2"],
                        capture_output=True, text=True, check=False)  # fmt: skip
    assert ok.returncode == 0 and ok.stdout.splitlines()[0].split()[0] == "value"
    bad = subprocess.run([sys.executable, "-m", "panache", "duel", "--n-dice", "0"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert bad.returncode == 2 and bad.stderr == "error: n_dice must be 1..8, got 0\n"


def test_advise_matches_the_library(capsys):
    from panache.advise import advise

    rows = run_json(capsys, "advise", "6", "5", "5", "3", "1")
    expected = advise([6, 5, 5, 3, 1])
    assert [r["keep"] for r in rows] == expected["keep"].tolist()
    assert [r["value"] for r in rows] == expected["value"].tolist()
    assert rows[0]["rank"] == 1 and rows[0]["keep"] == "6"
    rows = run_json(capsys, "advise", "6", "5", "2", "--kept", "6", "6", "--utility", "zero")
    assert rows[0]["keep"] == "6 5 2" and rows[0]["value"] == 1.0
    code, out, _ = run(capsys, "advise", *TINY, "4", "2", "1", "--points", "5", "--against", "3",
                       "--format", "csv")  # fmt: skip
    frame = pd.read_csv(io.StringIO(out), index_col="rank", keep_default_na=False)
    expected = advise([4, 2, 1], rules=Rules(n_dice=3, start_points=6), points=5, against=3)
    assert code == 0 and frame["keep"].astype(str).tolist() == expected["keep"].tolist()
    np.testing.assert_allclose(frame["value"].to_numpy(), expected["value"].to_numpy(), rtol=1e-15)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["advise", "6", "5", "5", "3", "1", "--kept", "6"], "n_dice=5 dice together"),
        (["advise", "6", "5", "5", "3", "9"], r"roll must hold faces 1\.\.6, got 9"),
        (["advise", "6", "x"], "invalid int value: 'x'"),
        (["advise", "6", "5", "5", "3", "1", "--points", "20"], "points and against go together"),
        (
            ["advise", "6", "5", "5", "3", "1", "--utility", "zero", "--points", "2", "--against",
             "3"],
            "either utility or points",
        ),
    ],
)
def test_advise_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert re.search(message, err), err


def test_compare_matches_the_library(capsys, tmp_path, monkeypatch):
    from tabletop.balance import compare_rules

    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))
    argv = ["compare", "--n-dice", "4", "--start-points", "6", "--baseline", "n_dice=3",
            "--baseline", "start-points=6", "--n-games", "500", "--seed", "2"]  # fmt: skip
    rows = run_json(capsys, *argv)
    res = compare_rules("panache", {"n_dice": 4, "start_points": 6},
                        {"n_dice": 3, "start_points": 6}, seed=2, n_games=500,
                        cache=True)  # fmt: skip
    assert [r["metric"] for r in rows] == res.table["metric"].tolist()
    assert [r["difference"] for r in rows] == res.table["difference"].tolist()
    assert [r["marker"] for r in rows] == res.table["marker"].tolist()
    first = rows[0]
    exact = solve_duel(Rules(n_dice=4, start_points=6)).first_player_win - solve_duel(
        Rules(n_dice=3, start_points=6)).first_player_win
    assert first["metric"] == "first_player_win" and first["difference"] == exact
    assert first["low"] == first["high"] == exact and first["marker"] == "*"
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == "" and "The variant moves the first player's winning" in out
    path = tmp_path / "card.md"
    code, out, _ = run(capsys, *argv, "--format", "md", "--output", str(path))
    assert code == 0 and str(path) in out
    text = path.read_text(encoding="utf-8")
    assert text.count("data:image/png;base64,") == 1 and res.verdict in text


def test_compare_bad_input(capsys):
    for argv, message in [
        (["compare", "--baseline", "n_dice=9"], "error: n_dice must be 1..8, got 9\n"),
        (["compare", "--baseline", "dice=3"], "error: --baseline: unknown knob 'dice'"),
        (["compare", "--baseline", "n_dice"], "error: --baseline: expected KNOB=VALUE"),
        (["compare", "--n-games", "0"], "expected a positive int, got 0"),
    ]:
        code, out, err = run(capsys, *argv)
        assert code != 0 and out == "" and err.startswith("error: ") and message in err
        assert err.count("\n") == 1
