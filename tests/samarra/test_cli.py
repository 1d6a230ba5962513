import io
from functools import partial

import numpy as np
import pandas as pd
import pytest

import samarra.cli as scli
from samarra import (
    GreedyAgent,
    RandomAgent,
    Rules,
    compare_variants,
    parse_position,
    play_games,
    setup_game,
    tournament,
)
from samarra.cli import main, parse_agent
from tests import cli_helpers

BOARD = """to move: black, actions left: 1, played: 4
used: black -, white -
2 | . m .
1 | S s d
0 | M . D"""


@pytest.fixture
def tiny(cache):
    return ["--length", "3", "--cache-dir", str(cache)]


run = partial(cli_helpers.run, main)
run_json = partial(cli_helpers.run_json, main)


def test_agent_specs(table33):
    assert isinstance(parse_agent("random"), RandomAgent)
    agent = parse_agent("ismcts:iterations=7,depth=2", lambda: table33)
    assert (agent.iterations, agent.depth) == (7, 2)
    with pytest.raises(ValueError, match="KEY one of iterations"):
        parse_agent("ismcts:speed=3", lambda: table33)
    with pytest.raises(ValueError, match="the kind must be one of"):
        parse_agent("robot")


def test_solve_summary_and_a_position(capsys, tiny, table33, tmp_path):
    (row,) = run_json(capsys, "solve", *tiny)
    total = sum(table33.counts.values())
    assert row["rules"] == "3x3-orthogonal-auto0-arrival0" and row["states"] == total
    assert [row[k] for k in ("win", "loss", "draw")] == [
        table33.counts[k] / total for k in ("win", "loss", "draw")
    ]
    board = tmp_path / "board.txt"
    board.write_text(BOARD)
    code, out, _ = run(capsys, "solve", *tiny, "--position", str(board), "--format", "csv")
    frame = pd.read_csv(io.StringIO(out), index_col="action")
    position = parse_position(BOARD, Rules(length=3))
    value = table33.value(position)
    assert code == 0 and frame.loc["(position)", "outcome"] == value.outcome == "win"
    values = table33.action_values(position)
    assert len(frame) == 1 + len(values)
    for action, v in values.items():
        assert frame.loc[str(action), "outcome"] == v.outcome
        assert frame.loc[str(action), "distance"] == v.distance


def test_setup(capsys, tiny, table33):
    game = setup_game(table=table33)
    (row,) = run_json(capsys, "setup", *tiny)
    assert row["value_black"] == game.value and row["value_first_mover"] == game.first_move_value
    shares = game.outcome_shares()
    assert (row["black_wins"], row["draw"], row["white_wins"]) == tuple(shares)
    code, out, _ = run(capsys, "setup", *tiny, "--show", "payoff", "--format", "csv")
    payoff = pd.read_csv(io.StringIO(out), index_col="black setup")
    assert code == 0 and payoff.to_numpy().tolist() == game.payoff.to_numpy().tolist()
    code, out, _ = run(capsys, "setup", *tiny, "--show", "strategy")
    assert code == 0 and out.split()[:2] == ["black", "white"]


def test_play_and_tournament_match_the_library(capsys, tiny):
    rows = run_json(capsys, "play", *tiny, "--games", "5", "--seed", "3", "--white", "greedy")
    games = play_games(Rules(length=3), GreedyAgent(), GreedyAgent(), 5, seed=3)
    assert [r["winner"] for r in rows] == games["winner"].tolist()
    assert [r["actions"] for r in rows] == games["actions"].tolist()
    rows = run_json(capsys, "tournament", *tiny, "--games", "4", "--seed", "2")
    agents = {"random": RandomAgent(), "greedy": GreedyAgent()}
    table = tournament(Rules(length=3), agents, 4, seed=2)
    assert [(r["black"], r["white"]) for r in rows] == table.index.tolist()
    assert [r["black wins"] for r in rows] == table["black wins"].tolist()


def test_sweep_of_solves(capsys, tiny, cache):
    rows = run_json(capsys, "sweep", *tiny, "--grid", "first=black,white", "--jobs", "1")
    assert [(r["task"], r["first"]) for r in rows] == [(0, "black"), (1, "white")]
    expected = compare_variants({f: Rules(length=3, first=f) for f in ("black", "white")},
                                directory=cache)  # fmt: skip
    for r in rows:
        want = expected.loc[r["first"]]
        assert r["setup game value (first mover)"] == want["setup game value (first mover)"]
        assert r["states won"] == want["states won"] and r["draw"] == want["draw"]


def test_sweep_of_games_is_seeded_and_resumes(capsys, tiny, tmp_path):
    argv = ["sweep", *tiny, "--analysis", "play", "--grid", "adjacency=orthogonal,king",
            "--games", "4", "--seed", "9", "--jobs", "1"]  # fmt: skip
    first = run_json(capsys, *argv)
    children = np.random.SeedSequence(9).spawn(2)
    for row, adjacency, child in zip(first, ("orthogonal", "king"), children, strict=True):
        games = play_games(Rules(length=3, adjacency=adjacency), GreedyAgent(), RandomAgent(),
                           4, seed=child)  # fmt: skip
        assert row["black_wins"] == (games["winner"] == 0).mean()
        assert row["mean_actions"] == games["actions"].mean()
    stored = run_json(capsys, *argv, "--store", str(tmp_path))
    assert stored == first and len(list(tmp_path.glob("*.json"))) == 2
    assert run_json(capsys, *argv, "--store", str(tmp_path)) == first  # read back


def test_sweep_reports_failed_tasks_and_keeps_the_rest(capsys, monkeypatch, tiny):
    def picky(*, seed=None, **knobs):
        if knobs["adjacency"] == "king":
            raise ValueError("kings are out today")
        return {"ok": 1}

    monkeypatch.setitem(scli._ANALYSIS, "solve", picky)
    code, out, err = run(capsys, "sweep", *tiny, "--grid", "adjacency=king,orthogonal",
                         "--jobs", "1", "--format", "csv")  # fmt: skip
    assert code == 1
    assert err == ("error: 1 of 2 sweep tasks failed: task 0 (adjacency='king'): "
                   "ValueError: kings are out today\n")  # fmt: skip
    assert pd.read_csv(io.StringIO(out), index_col="task")["adjacency"].tolist() == ["orthogonal"]


def test_report_runs_the_samarra_notebooks(capsys, monkeypatch, tmp_path):
    calls = []

    def fake_run(path, size, report_directory, **options):
        calls.append((path.name, size))
        (report_directory / f"{path.stem}.md").write_text(f"# Fake: {path.stem}\n\nDone.\n")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", fake_run)
    rows = run_json(capsys, "report", "--size", "small", "--report-dir", str(tmp_path))
    assert calls and all(size == "small" and name.startswith("samarra") for name, size in calls)
    assert [r["notebook"] for r in rows] == [name for name, _ in calls]


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["solve", "--width", "2"], 2, "error: width must be 3..40, got 2"),
        (["solve", "--length", "long"], 2, "length: expected an int, got 'long'"),
        (["solve", "--adjacency", "diagonal"], 2, "adjacency must be one of"),
        (["solve", "--width", "8", "--length", "8"], 2, "width * length must be <= 40"),
        (["solve", "--horizon", "10"], 2, "solve ignores the horizon"),
        (["solve", "--horizon", "soon"], 2, "horizon: expected int or none, got 'soon'"),
        (["solve", "--position", "/nonexistent/board.txt"], 2, "No such file or directory"),
        (["solve", "--colour", "red"], 2, "unrecognized arguments: --colour red"),
        (["setup", "--seed", "3"], 2, "unrecognized arguments: --seed 3"),
        (["play", "--black", "robot"], 2, "the kind must be one of random"),
        (["play", "--games", "0"], 2, "n_games must be >= 1, got 0"),
        (["tournament", "--agents", "random", "random"], 2, "agents must be different"),
        (["sweep"], 2, "the following arguments are required: --grid"),
        (["sweep", "--grid", "width=3,2"], 2, "error: width must be 3..40, got 2"),
        (["sweep", "--grid", "length=3", "--length", "4"], 2, "both an option and in --grid"),
        (["sweep", "--grid", "size=4"], 2, "unknown knob 'size'"),
        (["sweep", "--grid", "length=3", "--store", "x"], 2, "--store needs --seed"),
        (["sweep", "--grid", "horizon=5,10"], 1, "solve ignores the horizon"),
        (["sweep", "--grid", "length=3", "--analysis", "play", "--white", "x"], 2, "agent 'x'"),
    ],
)  # fmt: skip
def test_mistakes_print_one_line(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert got == code and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_solve_with_the_optional_turn_rules(capsys, tiny, table33_optional):
    (row,) = run_json(capsys, "solve", *tiny, "--allow-pass", "--no-repetition")
    counts = table33_optional.counts
    assert row["rules"] == "3x3-orthogonal-auto0-arrival0-pass-norep"
    # the command counts positions (every one a state of the game: no infeasible undo
    # tags), each pair of mirror images stored once in the table
    from samarra.solve import n_entries, n_states

    rules = table33_optional.rules
    assert row["states"] == sum(counts.values()) == n_states(rules)
    assert table33_optional.dist.size == n_entries(rules) < n_states(rules)
    assert row["win"] == counts["win"] / row["states"]


def test_a_bad_position_file(capsys, tiny, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("to move: black\n")
    got, out, err = run(capsys, "solve", *tiny, "--position", str(board))
    assert got == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: text: a 3 x 3 position needs a header")


def test_python_dash_m(capsys, monkeypatch, tiny):
    def run_module(argv):
        return cli_helpers.run_module("samarra", capsys, monkeypatch, argv)

    code, out, _ = run_module(["setup", *tiny])
    assert code == 0 and out.split()[0] == "value_black"
    assert run_module(["solve", "--width", "2"]) == (2, "", "error: width must be 3..40, got 2\n")


def test_compare_a_played_game_knob(capsys, cache):
    argv = ["compare", "--length", "3", "--max-actions", "300", "--baseline", "length=3",
            "--n-games", "4", "--adjudication-horizon", "2", "--cache-dir", str(cache),
            "--no-cache"]  # fmt: skip
    rows = run_json(capsys, *argv)
    exact = [r for r in rows if r["method"] == "exact"]
    assert exact and all(r["difference"] == 0 and r["marker"] == "" for r in exact)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "leaves the setup game's value to the first mover at -0.1" in out
    code, out, err = run(capsys, "compare", "--baseline", "width=2")
    assert code == 2 and err == "error: width must be 3..40, got 2\n"
