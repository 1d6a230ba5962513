"""The Ce soir, à Samarra balance card against the library's own solvers and games."""

import logging

import numpy as np
import pytest

from samarra import Rules, analyses, balance, play_games, setup_game, solve_horizon
from samarra.agents import DeterminizingAgent
from samarra.analyses import solve_estimate
from tabletop.sweep import task_seed

RULES = Rules(length=3)
N = 20
SEED = 5


@pytest.fixture(scope="module")
def card(table33, cache):
    card = balance(RULES, n_games=N, seed=SEED, adjudication_horizon=4, cache_dir=cache)
    return card.set_index("metric")


def test_horizon_in_the_meaning(card):
    assert "after 4 actions" in card.loc["horizon_pairs_drawn", "meaning"]


def test_exact_rows_equal_the_solvers(card, table33, cache):
    game = setup_game(table=table33)
    shares = game.outcome_shares()
    assert card.loc["setup_value_first_mover", "value"] == game.first_move_value
    assert card.loc["setup_pairs_first_mover_wins", "value"] == shares["black wins"]
    assert card.loc["setup_pairs_drawn", "value"] == shares["draw"]
    assert card.loc["setup_pairs_second_mover_wins", "value"] == shares["white wins"]
    row = solve_horizon(table=table33, max_horizon=4).summary.loc[4]
    assert card.loc["horizon_value_first_mover", "value"] == row["value to first mover"]
    assert card.loc["horizon_pairs_drawn", "value"] == row["draw"]
    assert card.loc["setup_value_first_mover", "n"] == sum(table33.counts.values())
    assert len(list(cache.glob("horizon-3x3-*-H4-v1.json"))) == 1  # kept for the next card


def test_monte_carlo_rows_equal_the_games_with_the_same_seed(card, table33):
    agent = DeterminizingAgent(table33)
    games = play_games(RULES, agent, agent, N, seed=task_seed(np.random.SeedSequence(SEED), 0))
    winner = games["winner"].to_numpy()
    assert card.loc["selfplay_first_mover_edge", "value"] == np.mean(
        (winner == 0).astype(float) - (winner == 1))
    assert card.loc["selfplay_draws", "value"] == np.mean(winner < 0)
    assert card.loc["selfplay_actions", "value"] == games["actions"].mean()


def test_the_report_plays_the_games_of_the_balance_table(table33, cache):
    # notebooks/samarra.ipynb replays the index's self-play with the card's seed
    # (play_games on child 0 of card_seed), so that every self-play figure of the report
    # is one of the balance table's
    from tabletop.balance_table import card_seed

    card = balance(RULES, n_games=N, seed=card_seed({}), adjudication_horizon=4,
                   cache_dir=cache).set_index("metric")  # fmt: skip
    agent = DeterminizingAgent(table33)
    games = play_games(RULES, agent, agent, N, seed=task_seed(card_seed({}), 0))
    winner = games["winner"].to_numpy()
    assert card.loc["selfplay_draws", "value"] == np.mean(winner < 0)
    assert card.loc["selfplay_actions", "value"] == games["actions"].mean()


def test_a_solve_says_its_estimate_first(tmp_path, cache, caplog, monkeypatch):
    assert solve_estimate(RULES, cache_dir=cache) == 0  # cached by the fixture
    assert solve_estimate(RULES, cache_dir=tmp_path) == pytest.approx(2_473_632 / 1.1e6)

    class Started(Exception):
        pass

    def solve(*args, **kwargs):
        raise Started  # stop where the solve would start

    monkeypatch.setattr(analyses, "solve", solve)
    with caplog.at_level(logging.WARNING, logger="samarra.analyses"), pytest.raises(Started):
        balance(RULES, n_games=2, adjudication_horizon=1, cache_dir=tmp_path, progress=True)
    assert "solving the 3 x 3 table (2,473,632 positions): about 2 s" in caplog.text


def test_bad_input(cache):
    with pytest.raises(TypeError, match=r"rules must be a samarra\.Rules or None"):
        balance("3x3")
    with pytest.raises(ValueError, match="n_games must be >= 2, got 0"):
        balance(RULES, n_games=0, cache_dir=cache)


def test_tournament_games_are_the_tournaments(table33):
    from samarra import tournament
    from samarra.agents import GreedyAgent, RandomAgent
    from samarra.analyses import results_summary, tournament_games

    agents = {"random": RandomAgent(), "greedy": GreedyAgent(),
              "determinising": DeterminizingAgent(table33)}
    pairings = [("random", "greedy"), ("determinising", "random"), ("greedy", "greedy")]
    summary = tournament(RULES, agents, 30, seed=11, pairings=pairings)
    games = tournament_games(RULES, agents, 30, seed=11, pairings=pairings)
    assert list(games) == pairings
    for pair, g in games.items():
        row, s = summary.loc[pair], results_summary(g)
        assert s["games"] == row["games"] == 30
        assert s["black wins"] + s["draws"] + s["white wins"] == 30
        for column in ("black wins", "draws", "white wins"):
            assert s[column] / 30 == row[column]
        assert (s["black wins low"], s["black wins high"]) == \
            (row["black wins low"], row["black wins high"])
        assert s["mean actions"] == row["mean actions"]
        assert s["mean actions low"] < s["mean actions"] < s["mean actions high"] or \
            g["actions"].nunique() == 1


def test_results_summary_intervals():
    import pandas as pd

    from samarra.analyses import results_summary
    from tabletop.stats import proportion_ci

    rng = np.random.default_rng(3)
    games = pd.DataFrame({"winner": rng.choice([-1, 0, 1], 500, p=[0.2, 0.3, 0.5]),
                          "actions": rng.integers(1, 60, 500)})
    s = results_summary(games)
    for name, code in (("black wins", 0), ("draws", -1), ("white wins", 1)):
        k = int((games["winner"] == code).sum())
        assert s[name] == k
        assert (s[f"{name} low"], s[f"{name} high"]) == proportion_ci(k, 500)
    half = 1.96 * games["actions"].std(ddof=1) / 500**0.5
    assert s["mean actions high"] - s["mean actions"] == pytest.approx(half, rel=1e-3)
    with pytest.raises(ValueError, match="winner"):
        results_summary(games.assign(winner=2))
    with pytest.raises(TypeError, match="games"):
        results_summary(games["winner"])
    with pytest.raises(ValueError, match="at least 2"):
        results_summary(games.iloc[:1])


def test_tournament_games_bad_input():
    from samarra.agents import RandomAgent
    from samarra.analyses import tournament_games

    with pytest.raises(ValueError, match="pairings"):
        tournament_games(RULES, {"random": RandomAgent()}, 2, pairings=[("random", "x")])
    with pytest.raises(ValueError, match="agents"):
        tournament_games(RULES, {}, 2)
    with pytest.raises(ValueError, match="n_games"):
        tournament_games(RULES, {"random": RandomAgent()}, 0)
