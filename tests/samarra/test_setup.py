import random

import numpy as np
import pytest

from samarra import Rules, apply_action, legal_actions, setups, start_position
from samarra.setup import setup_game, setup_values
from samarra.solve import solve


def mirror(setup):
    return setup[::-1]


def test_payoff_is_symmetric_under_the_column_mirror(table33):
    payoff, distance = setup_values(table33)
    for b in payoff.index:
        for w in payoff.columns:
            assert payoff.loc[b, w] == payoff.loc[mirror(b), mirror(w)]
            assert distance.loc[b, w] == distance.loc[mirror(b), mirror(w)]


def test_moving_second_is_the_colour_swap_of_moving_first(cache):
    black_first, _ = setup_values(solve(Rules(length=3), directory=cache))
    white_first = setup_game(Rules(length=3, first="white"), directory=cache)
    # the game with White first is the game with Black first, colours swapped
    assert np.array_equal(white_first.payoff.to_numpy(), -black_first.to_numpy().T)
    black = setup_game(Rules(length=3), directory=cache)
    assert white_first.first_move_value == pytest.approx(black.first_move_value, abs=1e-9)


def test_equilibrium_is_a_saddle_point(cache):
    game = setup_game(Rules(length=3), directory=cache)
    A = game.payoff.to_numpy()
    x, y = game.black.to_numpy(), game.white.to_numpy()
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
    assert (x @ A).min() >= game.value - 1e-9  # Black guarantees the value
    assert (A @ y).max() <= game.value + 1e-9  # White concedes no more
    # brute force over pure strategies: the value lies between maximin and minimax
    assert A.min(axis=1).max() <= game.value <= A.max(axis=0).min()
    assert game.outcome_shares().sum() == pytest.approx(1)


def test_setup_outcomes_hold_against_a_random_opponent(table33):
    """Whoever the table says wins a start wins it, in at most the stated actions,
    when it plays the table's best actions and the other side plays at random."""
    rng = random.Random(11)
    payoff, distance = setup_values(table33)
    decided = [(b, w) for b in setups(table33.rules) for w in setups(table33.rules)
               if payoff.loc[b, w] != 0]
    assert decided
    for b, w in decided:
        winner = 0 if payoff.loc[b, w] > 0 else 1
        for _ in range(5):
            p = start_position(table33.rules, b, w)
            while not p.is_over:
                actions = (table33.best_actions(p) if p.to_move == winner
                           else legal_actions(p))
                p = apply_action(p, rng.choice(actions))
            assert p.winner == winner and p.actions_played <= distance.loc[b, w]


def test_setup_game_needs_a_table():
    with pytest.raises(TypeError, match="table must be"):
        setup_game(table="table")


def test_rules_that_disagree_with_the_table_are_refused():
    """The table decides the board; rules given beside it must name the same one (a 3 x 4
    question answered from a 3 x 3 table was a silent wrong answer)."""
    table = solve(Rules(length=3))
    with pytest.raises(ValueError, match="rules and table disagree"):
        setup_game(Rules(length=4), table=table)
    same = setup_game(Rules(length=3, horizon=5, max_actions=50), table=table)
    assert same == setup_game(table=table) == setup_game(Rules(length=3))
