import pytest

from samarra import Rules
from samarra.agents import DeterminizingAgent, RandomAgent
from samarra.simulate import play_games, tournament
from tabletop.stats import estimate_proportion
from tests.conftest import Z_TOL


def test_same_seed_same_games(table33):
    agents = {"random": RandomAgent(), "det": DeterminizingAgent(table33)}
    a = tournament(table33.rules, agents, 10, seed=5)
    b = tournament(table33.rules, agents, 10, seed=5)
    assert a.equals(b)
    assert a.loc[("det", "random"), "games"] == 10
    row = a.loc[("det", "random")]
    assert row["black wins"] + row["draws"] + row["white wins"] == pytest.approx(1)
    assert row["black wins low"] <= row["black wins"] <= row["black wins high"]


def test_random_games_are_symmetric_between_colours():
    """Random against random, Black moving first: the colours are swapped when White
    moves first, so Black's win rate with Black first equals White's with White first."""
    n = 400
    first = play_games(Rules(length=3, max_actions=60), RandomAgent(), RandomAgent(), n, seed=1)
    second = play_games(Rules(length=3, max_actions=60, first="white"), RandomAgent(),
                        RandomAgent(), n, seed=2)
    p = estimate_proportion(int((first["winner"] == 0).sum()), n)
    q = estimate_proportion(int((second["winner"] == 1).sum()), n)
    z = (p.mean - q.mean) / (p.stderr**2 + q.stderr**2) ** 0.5
    assert abs(z) < Z_TOL


def test_the_table_helps_under_hidden_information(table33):
    games = play_games(table33.rules, DeterminizingAgent(table33), RandomAgent(), 200, seed=3)
    wins = estimate_proportion(int((games["winner"] == 0).sum()), 200)
    assert wins.mean - Z_TOL * wins.stderr > 0.5


def test_bad_input():
    with pytest.raises(ValueError, match="non-empty dict"):
        tournament(Rules(length=3), {}, 5)
    with pytest.raises(ValueError, match="n_games must be >= 1"):
        play_games(Rules(length=3), RandomAgent(), RandomAgent(), 0)


def test_pairings_restrict_the_tournament(table33):
    agents = {"random": RandomAgent(), "det": DeterminizingAgent(table33)}
    out = tournament(table33.rules, agents, 4, seed=1, pairings=[("det", "random")])
    assert list(out.index) == [("det", "random")]
    with pytest.raises(ValueError, match="pairings must name agents"):
        tournament(table33.rules, agents, 4, pairings=[("det", "nobody")])
