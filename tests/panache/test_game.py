import dataclasses

import numpy as np
import pytest

from panache import Agent, Rules, simulate_games, solve_duel, solve_three, tournament
from tabletop.stats import estimate_proportion
from tests.conftest import Z_TOL

SMALL = Rules(start_points=15)
SMALL3 = Rules(start_points=15, n_players=3)
HEURISTICS = [
    Agent.heuristic(),
    Agent.heuristic(target="weakest", mp="never"),
    Agent.heuristic(min_level=3, counter=False),
    Agent.random(),
]


def test_solved_duel_policy_wins_as_often_as_the_solve_says():
    n = 100_000
    res = simulate_games(SMALL, [Agent.duel(), Agent.duel()], n, seed=21)
    first = estimate_proportion(int((res.winners == 0).sum()), n)
    assert abs(first.z_score(solve_duel(SMALL).first_player_win)) <= Z_TOL
    assert (res.winners >= 0).all()


def test_solved_three_player_policy_wins_as_often_as_the_solve_says():
    # rules whose every class is solved exactly in pure decisions, three of them with an
    # exchange held at another of its equilibria: the agent's best replies (held
    # counters included) are the solution itself
    rules = Rules(start_points=4, n_dice=2, n_players=3)
    sol = solve_three(rules)
    assert sol.exact and not sol.held.empty
    assert (sol.classes["method"] != "mixed").all()
    n = 100_000
    res = simulate_games(rules, [Agent.three()] * 3, n, seed=22)
    for seat in range(3):
        observed = estimate_proportion(int((res.winners == seat).sum()), n)
        assert abs(observed.z_score(sol.start[seat])) <= Z_TOL, seat


def test_three_player_agent_in_other_games():
    rules = Rules(start_points=6, n_dice=3, n_players=3)
    # with heuristic rivals, and in a five-player game (the two strongest rivals)
    mixed = simulate_games(rules, [Agent.heuristic(), Agent.three(), Agent.random()], 3000,
                           seed=3)  # fmt: skip
    five = simulate_games(dataclasses.replace(rules, n_players=5), [Agent.three()] * 5, 3000,
                          seed=4)  # fmt: skip
    for res in (mixed, five):
        assert (res.winners >= 0).all()
        assert (res.stats["turns"] > 0).all()
    assert mixed.win_rates().loc[1, "win_rate"] > mixed.win_rates().loc[2, "win_rate"]


@pytest.mark.parametrize("opponent", HEURISTICS, ids=lambda a: a.name)
def test_solved_duel_guarantees_half_against_anyone(opponent):
    # a minimax policy of a zero-sum game wins at least the game's value from each
    # seat; averaged over the two seats that value is 1/2
    table = tournament(SMALL, [Agent.duel(), opponent], 20_000, seed=5)
    duel = table.loc["duel"]
    se = np.sqrt(0.25 / duel["games"])
    assert duel["win_rate"] >= 0.5 - Z_TOL * se


def test_tournament_tells_agents_of_one_name_apart():
    table = tournament(SMALL3, [Agent.random(), Agent.duel(), Agent.random()], 300, seed=2)
    assert list(table.index) == ["random #1", "duel", "random #2"]
    assert table["wins"].sum() == table["games"].iloc[0]  # every game has one winner
    # the two copies are the same player: their win rates agree within sampling error
    a, b = table.loc["random #1"], table.loc["random #2"]
    p = (a["wins"] + b["wins"]) / (2 * a["games"])
    se = np.sqrt(2 * p * (1 - p) / a["games"])
    assert abs(a["win_rate"] - b["win_rate"]) <= Z_TOL * se


def test_game_records_are_consistent():
    res = simulate_games(Rules(n_players=4), HEURISTICS, 5000, seed=3)
    n_players = len(HEURISTICS)
    for order, winner in zip(res.elimination_order, res.winners, strict=True):
        assert sorted(order) == list(range(n_players))
        assert order[-1] == winner
    s = res.stats
    assert (s["mp_won"] <= s["mp_announced"]).all()
    assert (s["hits"] <= s["attacks"] + s["counters"]).all()
    out = s[["out_by_roll", "out_by_attack", "out_by_mp"]].sum(axis=1)
    assert (out == n_players - 1).all()
    # a Master Panache eliminates its target when it succeeds, its announcer when not
    assert (s["out_by_mp"] == s["out_by_mp_hit"] + s["out_by_mp_failed"]).all()
    assert (s["out_by_mp_hit"] <= s["mp_won"]).all()
    assert (s["out_by_mp_failed"] <= s["mp_announced"] - s["mp_won"]).all()
    assert s["out_by_mp_hit"].sum() > 0 and s["out_by_mp_failed"].sum() > 0
    assert (s["turns"] >= n_players).all()
    rates = res.win_rates()
    assert rates["win_rate"].sum() == pytest.approx(1.0)
    assert (rates["ci_low"] <= rates["win_rate"]).all()


def test_counter_attacks_off_means_none():
    res = simulate_games(Rules(counter_attacks=False, n_players=4), HEURISTICS, 2000, seed=4)
    assert res.stats["counters"].sum() == 0


def test_twelve_players():
    agents = [Agent.heuristic(target=t) for t in ("leader", "weakest", "random")] * 4
    res = simulate_games(Rules(n_players=12), agents, 500, seed=2)
    assert res.elimination_order.shape == (500, 12)
    assert (res.winners >= 0).all()


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"agents: need 2 agents \(rules.n_players=2\), got 1"):
        simulate_games(Rules(), [Agent.random()], 10)
    with pytest.raises(TypeError, match=r"agents\[1\] must be a panache.Agent"):
        simulate_games(Rules(), [Agent.random(), "random"], 10)
    with pytest.raises(ValueError, match="n_games must be >= 1"):
        simulate_games(Rules(), [Agent.random(), Agent.random()], 0)


def test_tables_no_agent_reads_are_not_built():
    from panache.game import _kernel_inputs

    tables, _ = _kernel_inputs(Rules(start_points=300), (Agent.heuristic(), Agent.random()))
    assert tables.three.policy.size == 2 and tables.three.attack.size == 14
    assert tables.duel.policy.size == 1
    total = sum(v.nbytes for part in tables for v in part if isinstance(v, np.ndarray))
    assert total < 10**7  # (top + 1)³ tables of zeros would be 3 GB


def test_three_player_tables_are_sized_first_and_huge_ones_refused_at_once():
    from panache.game import games_size, three_tables, three_tables_size
    from tests.tabletop.test_budget import peak_bytes, refused_at_once

    rules = Rules(start_points=6, n_dice=3)
    solve_three(rules)
    # an upper figure: the distinct policies are fewer than POLICY_SHARE per state here
    assert three_tables_size(rules).nbytes >= peak_bytes(lambda: three_tables.__wrapped__(rules))
    refused_at_once(lambda: three_tables(Rules(start_points=400)), "start_points=400",
                    "turn policies")  # fmt: skip
    refused_at_once(lambda: simulate_games(Rules(start_points=400, n_players=3),
                                           [Agent.three()] * 3, 10),
                    "three-player game tables")  # fmt: skip
    refused_at_once(lambda: simulate_games(Rules(), [Agent.random()] * 2, 10**12),
                    "n_games=1000000000000")  # fmt: skip
    assert games_size(2, 10).nbytes == 2960


def test_batches_of_game_chunks_play_the_games_of_one_kernel_call(monkeypatch):
    import panache.game as game

    agents = [Agent.heuristic(), Agent.random(), Agent.heuristic()]
    whole = simulate_games(Rules(n_players=3), agents, 500, seed=3, chunk_size=32)
    monkeypatch.setattr(game, "Chunks", lambda total, first: ((c, c + 1) for c in range(total)))
    one_by_one = simulate_games(Rules(n_players=3), agents, 500, seed=3, chunk_size=32)
    assert np.array_equal(whole.winners, one_by_one.winners)
    assert np.array_equal(whole.elimination_order, one_by_one.elimination_order)
    assert whole.stats.equals(one_by_one.stats)
