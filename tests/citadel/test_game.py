"""The plain game loop: walls, corners, payment, the end of a game."""

import numpy as np
import pytest

from citadel import Rules, agent, initial_state, play_game, play_round
from citadel.game import GameState, move_pawn, scores_at


def test_initial_state():
    assert initial_state(Rules()) == GameState((0, 0), (100, 100, 100, 100), 0)


def test_walls_of_empty_seats():
    """RULES.md: with fewer than 4 players the edge of an empty seat is a wall."""
    two = Rules(n_players=2, radius=2)
    assert move_pawn((2, 0), (1, 1), two) == (2, 1)
    assert move_pawn((-2, 0), (-1, 0), two) == (-2, 0)
    three = Rules(n_players=3, radius=2)
    assert move_pawn((2, 0), (1, 0), three) == (3, 0)  # E exists
    assert move_pawn((-2, 0), (-1, -1), three) == (-2, -1)  # W is a wall
    assert move_pawn((-2, 0), (-1, 0), Rules(radius=2)) == (-3, 0)


def test_winners_and_the_shared_corner():
    """RULES.md: N wins across y > R, ...; through a corner both score 1/2."""
    rules = Rules(radius=2)
    assert scores_at((0, 3), rules) == (1.0, 0.0, 0.0, 0.0)
    assert scores_at((-3, 1), rules) == (0.0, 0.0, 0.0, 1.0)
    assert scores_at((3, -3), rules) == (0.0, 0.5, 0.5, 0.0)
    assert scores_at((2, 2), rules) is None


def test_corner_step_against_a_wall_is_a_single_win():
    rules = Rules(n_players=2, radius=1)
    r = play_round(GameState((1, 1), (10, 10)), [(5, "NE"), (0, None)], rules)
    assert r.state.pawn == (1, 2) and r.scores == (1.0, 0.0)


def test_fee_never_takes_capital_below_zero():
    """RULES.md: "Capital never goes below 0"."""
    rules = Rules(n_players=2)
    r = play_round(GameState((0, 0), (20, 30)), [(20, "N"), (20, "NE")], rules)
    assert r.resolution.fee == (1, 1)
    assert r.state.capitals == (0, 9)


def test_winners_pay_in_a_round():
    rules = Rules(n_players=2, payment="winners")
    r = play_round(GameState((0, 0), (20, 30)), [(20, "N"), (10, "S")], rules)
    assert r.state.capitals == (0, 30) and r.state.pawn == (0, 1)


def test_round_limit_is_a_draw():
    rules = Rules(n_players=2, max_rounds=3)
    rec = play_game(rules, [agent("saver"), agent("saver")])
    assert rec.rounds == 3 and rec.scores == (0.0, 0.0)


def test_no_bid_possible_is_a_draw_at_once():
    rules = Rules(n_players=2, capital=4, bid_step=5)
    rec = play_game(rules, [agent("straight"), agent("straight")])
    assert rec.rounds == 0 and rec.scores == (0.0, 0.0)


def test_straight_against_savers_in_two_players():
    """N spreads 100 over 4 steps (25 each); S saves, then goes all in (100 S) when N
    needs one step: S wins that round, then neither can bid: a draw."""
    rules = Rules(n_players=2)
    rec = play_game(rules, [agent("straight"), agent("saver")])
    assert rec.orders[:3] == (((25, 0), (0, 4)),) * 3
    assert rec.orders[3] == ((25, 0), (100, 4))
    assert rec.final == GameState((0, 2), (0, 0), 4)
    assert rec.scores == (0.0, 0.0)


def test_agents_validate():
    with pytest.raises(ValueError, match="need 4 agents"):
        play_game(Rules(), [agent("straight")])
    with pytest.raises(ValueError, match="unknown agent"):
        agent("bold")


@pytest.mark.parametrize(
    ("state", "error", "message"),
    [
        (GameState((0, 2), (10, 10)), ValueError,
         r"state.pawn \(0, 2\) is off the board: cells are -1..1"),
        (GameState((-5, 0), (10, 10)), ValueError, r"state.pawn \(-5, 0\) is off the board"),
        (GameState((0, 0), (10,)), ValueError,
         r"state.capitals must hold one capital per seat \(2\)"),
        (GameState((0, 0), (10, 10), 200), ValueError, r"state.round must be 0..199, got 200"),
        ("start", TypeError, "state must be a citadel.GameState, got str"),
    ],
)  # fmt: skip
def test_a_round_is_played_only_from_a_state_on_the_board(state, error, message):
    # a pawn off the board used to be moved further and scored as a win
    rules = Rules(n_players=2, radius=1, max_rounds=200)
    with pytest.raises(error, match=message):
        play_round(state, [(3, "N"), (2, "S")], rules)


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        (((0, 0.5), (10, 10)), TypeError, r"pawn\[1\] must be an int, got 0.5"),
        (((0, 0, 0), (10, 10)), ValueError, r"pawn must be a cell \(x, y\)"),
        (("N", (10, 10)), ValueError, r"pawn must be a cell"),
        (((0, 0), (10, -3)), ValueError, r"capitals\[1\] must be >= 0, got -3"),
        (((0, 0), (10, 7.5)), TypeError, r"capitals\[1\] must be an int, got 7.5"),
        (((0, 0), ()), ValueError, r"capitals must hold one capital per seat"),
        (((0, 0), 100), ValueError, r"capitals must hold one capital per seat"),
        (((0, 0), (10, 10), -1), ValueError, r"round must be >= 0, got -1"),
        (((0, 0), (10, 10), True), TypeError, r"round must be an int, got True"),
    ],
)  # fmt: skip
def test_a_state_is_built_only_from_integers(fields, error, message):
    with pytest.raises(error, match=message):
        GameState(*fields)
    assert GameState((np.int64(0), 1), (np.int64(5), 0)).capitals == (5, 0)


def test_agents_given_by_name_are_a_clear_error():
    rules = Rules(n_players=2, radius=1, capital=10, bid_step=5)
    with pytest.raises(TypeError, match=r"agents\[0\] must be an agent callable, got "
                                        r"'straight' \(a name: use citadel.agents.agent"):
        play_game(rules, ["straight", "straight"])
