"""The seats of a simulated game are the rules' ``n_players``: a lineup of another size
is refused with an error naming ``agents``, never played under rules it does not match."""

import dataclasses
import random
from functools import partial

import numpy as np
import pytest

from panache import Agent, Rules, simulate_games, tournament
from panache.cli import main
from panache.engine import play_game
from tests import cli_helpers

SMALL = Rules(n_dice=2, start_points=5)
TINY = ["--n-dice", "3", "--start-points", "6"]

run = partial(cli_helpers.run, main)
run_json = partial(cli_helpers.run_json, main)


def at(rules: Rules, n: int) -> Rules:
    return dataclasses.replace(rules, n_players=n)


@pytest.mark.parametrize("n_players, n_agents", [(2, 3), (4, 3), (3, 2), (2, 4), (12, 11)])
@pytest.mark.parametrize("play", [simulate_games, tournament], ids=lambda f: f.__name__)
def test_a_lineup_of_another_size_than_the_rules_is_refused(play, n_players, n_agents):
    message = (rf"agents: need {n_players} agents \(rules.n_players={n_players}\), "
               rf"got {n_agents}; for a game of {n_agents} players pass "
               rf"dataclasses.replace\(rules, n_players={n_agents}\)")  # fmt: skip
    with pytest.raises(ValueError, match=message):
        play(at(SMALL, n_players), [Agent.random()] * n_agents, 20, seed=1)


def test_the_default_rules_are_a_two_player_game():
    # the default n_players=2 means two players here, not "not set"
    with pytest.raises(ValueError, match=r"need 2 agents \(rules.n_players=2\), got 3"):
        simulate_games(SMALL, [Agent.three()] * 3, 20, seed=1)
    with pytest.raises(ValueError, match=r"need 2 agents \(rules.n_players=2\), got 0$"):
        simulate_games(SMALL, [], 20, seed=1)


def test_the_plain_python_game_refuses_another_size_too():
    with pytest.raises(ValueError, match=r"agents: need 3 agents \(rules.n_players=3\), got 2"):
        play_game(at(SMALL, 3), [Agent.random()] * 2, random.Random(1))
    state, _ = play_game(at(SMALL, 3), [Agent.duel(), Agent.random(), Agent.random()],
                         random.Random(1))  # fmt: skip
    assert state.n_players == 3 and state.winner in range(3)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_a_table_of_k_players_has_k_seats(k):
    res = simulate_games(at(SMALL, k), [Agent.random()] * k, 300, seed=1)
    assert res.elimination_order.shape == (300, k)
    for order, winner in zip(res.elimination_order, res.winners, strict=True):
        assert sorted(order) == list(range(k)) and order[-1] == winner
    table = tournament(at(SMALL, k), [Agent.random()] * k, 30, seed=1)
    assert list(table.columns[-k:]) == [f"seat_{s}" for s in range(k)]
    assert (table["games"] == 30 * k).all() and table["wins"].sum() == 30 * k


def test_the_tables_an_agent_reads_do_not_depend_on_the_seat_count():
    # the turn policies, the duel's and the three-player game's tables: one set, shared
    # by every table size (built once, the same arrays)
    from panache.game import _kernel_inputs

    rules = Rules(n_dice=2, start_points=4)
    lineups = {k: [Agent.three(), Agent.duel()] + [Agent.heuristic()] * (k - 2)
               for k in (3, 4, 6)}  # fmt: skip
    inputs = {k: _kernel_inputs(at(rules, k), agents) for k, agents in lineups.items()}
    tables3, _ = inputs[3]
    for k in (4, 6):
        tables, rows = inputs[k]
        for part3, part in zip(tables3, tables, strict=True):
            for a, b in zip(part3, part, strict=True):
                if isinstance(a, np.ndarray):
                    assert np.array_equal(a, b)
                else:
                    assert a == b
        assert len(rows) == k


def test_command_line_agents_fill_the_seats_of_n_players(capsys):
    code, out, err = run(capsys, "simulate", *TINY, "--agents", "heuristic", "random", "duel",
                         "--games", "50", "--seed", "1", "--jobs", "1")  # fmt: skip
    assert code == 2 and out == ""
    assert err.strip() == ("error: --agents: need 2 agents (--n-players 2), got 3; for a game "
                           "of 3 players pass --n-players 3")  # fmt: skip
    rows = run_json(capsys, "simulate", *TINY, "--n-players", "3", "--agents", "heuristic",
                    "random", "duel", "--games", "50", "--seed", "1", "--jobs", "1")  # fmt: skip
    agents = [Agent.heuristic(), Agent.random(), Agent.duel()]
    expected = simulate_games(Rules(n_dice=3, start_points=6, n_players=3), agents, 50, seed=1)
    assert [r["win_rate"] for r in rows] == expected.win_rates()["win_rate"].tolist()


def test_a_sweep_over_n_players_with_fixed_agents_is_refused_before_any_work(capsys):
    code, out, err = run(capsys, "sweep", "--analysis", "simulate", "--grid", "n_players=2,3",
                         *TINY, "--agents", "heuristic", "random", "--games", "20",
                         "--jobs", "1")  # fmt: skip
    assert code == 2 and out == ""
    assert "--agents: need 3 agents (--n-players 3), got 2" in err
