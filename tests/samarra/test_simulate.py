import re

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
    with pytest.raises(TypeError, match=r"agents\['a'\] must be an agent"):  # not 'black'
        tournament(table33.rules, {"a": "random"}, 2)


def test_setup_pairs_white_wins_with_perfect_information_are_lost_to_a_repetition(table34):
    """The report's 3 x 4 table: setup pairs that White wins with perfect information end
    with Black winning most determinizing self-play games. Not a labelling bug: from
    ``MSD`` against ``MSD`` the table's own best actions give White the win by the rules,
    at the distance the table states. A real effect of hidden information: once White's
    Death has killed an unnamed Black figure, White cannot tell whether Black's Death is
    still alive with its power; the agent's move that is safe in both cases gives up
    progress, a position comes back a third time, and the tie-break, which counts rows,
    gives the game to Black's servant."""
    import random

    from samarra import setup_values, start_position
    from samarra.agents import View, determinizations, options, to_action
    from samarra.engine import Game

    rules = Rules(length=4, max_actions=200)
    payoff, distance = setup_values(table34)
    assert payoff.loc["MSD", "MSD"] == -1  # Black's result: White forces a win
    game = Game(start_position(rules, "MSD", "MSD"))
    while game.result is None:
        game.play(table34.best_actions(game.position)[0])
    assert (game.result.winner, game.result.reason) == (1, "win")
    assert game.result.n_actions == distance.loc["MSD", "MSD"]

    agent = DeterminizingAgent(table34)
    rng = random.Random(0)
    game = Game(start_position(rules, "MSD", "MSD"))
    doubt = None
    while game.result is None:
        p = game.position
        choice = to_action(p, agent.choose(View.of(p, p.to_move), options(p), rng))
        if doubt is None and p.to_move == 1 and choice not in table34.best_actions(p):
            doubt = p
        game.play(choice)
    assert (game.result.winner, game.result.reason) == (0, "repetition")
    assert game.result.n_actions < distance.loc["MSD", "MSD"]
    # where White first leaves the table's best play, it is winning, a Black figure is
    # dead unnamed, and one placement it cannot rule out has Black's Death alive, with
    # its power, and White lost
    assert table34.value(doubt).outcome == "win"
    worlds = determinizations(View.of(doubt, 1))
    assert len(worlds) == 2
    other = [w for w in worlds if w.cells != doubt.cells]
    assert len(other) == 1 and other[0].cells[2] >= 0 and not other[0].death_used[0]
    assert table34.value(other[0]).outcome == "loss"


def test_games_size_is_within_its_factor_of_the_peak_and_huge_runs_are_refused():
    from samarra.simulate import games_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    rules = Rules(length=3)
    play_games(rules, RandomAgent(), RandomAgent(), 5, seed=1)
    peak = peak_bytes(lambda: play_games(rules, RandomAgent(), RandomAgent(), 1000, seed=1))
    assert_estimate(games_size(1000), peak)
    refused_at_once(lambda: play_games(rules, RandomAgent(), RandomAgent(), 10**13),
                    "n_games=10000000000000")  # fmt: skip
    refused_at_once(lambda: tournament(rules, {"random": RandomAgent()}, 10**13),
                    "n_games=10000000000000")  # fmt: skip


def test_tournament_bar_counts_every_game(capsys):
    agents = {"random": RandomAgent(), "other": RandomAgent()}
    plain = tournament(Rules(length=3), agents, 3, seed=2)
    shown = tournament(Rules(length=3), agents, 3, seed=2, progress=True)
    assert shown.equals(plain)
    err = capsys.readouterr().err
    assert "samarra tournament" in err and re.search(r"\b12(\.0)?/12(\.0)?\b", err), err
    with pytest.raises(TypeError, match="progress"):
        play_games(Rules(length=3), RandomAgent(), RandomAgent(), 2, progress="yes")


def test_setup_game_refuses_a_table_too_large_before_any_work(tmp_path):
    from samarra.setup import setup_game
    from tests.tabletop.test_budget import refused_at_once

    refused_at_once(lambda: setup_game(Rules(length=12), directory=tmp_path), "length=12")
    assert not list(tmp_path.iterdir())
