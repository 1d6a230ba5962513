"""Bad fields and arguments of Citadel's classes: each a TypeError or ValueError naming
``Class.field`` or the parameter; a sequence given for a state's tuple is stored as a
tuple."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import citadel as C
from tests.fields import bad_field_test

NAN = float("nan")
DUEL_RULES = C.Rules(n_players=2, radius=1, capital=10, bid_step=5)


@functools.cache
def _made(name: str):
    duel = functools.partial(C.solve_duel_game, DUEL_RULES)
    return {
        "duel": duel,
        "sides": lambda: C.solve_sides(C.Rules(radius=1, capital=10, bid_step=5), "NE"),
        "check": lambda: C.check_solution(duel()),
        "stall": lambda: C.stall_odds(duel()),
        "empirical": lambda: C.empirical_game(DUEL_RULES, 3, agents=("straight", "random"),
                                              seed=1),
        "samples": lambda: C.simulate_games(DUEL_RULES, "straight", 20, seed=1),
    }[name]()  # fmt: skip


BAD_FIELDS = [
    ("duel", "residual", NAN, ValueError),
    ("duel", "lp_gap", -1.0, ValueError),
    ("sides", "lp_gap", -float("inf"), ValueError),
    ("sides", "residual", NAN, ValueError),
    ("check", "p_draw", 1.5, ValueError),
    ("check", "value", NAN, ValueError),
    ("check", "bracket", -0.5, ValueError),
    ("stall", "draw", -0.5, ValueError),
    ("stall", "rounds", NAN, ValueError),
    ("stall", "score_a", 2.0, ValueError),
    ("empirical", "n", 2.5, TypeError),
    ("empirical", "n", 0, ValueError),
    ("empirical", "agents", ["straight", "random"], TypeError),
    ("empirical", "payoffs", [np.zeros((2, 2))], ValueError),
    ("empirical", "stderr", [np.zeros((2, 2)), np.zeros((3, 3))], ValueError),
    ("samples", "rounds", np.arange(20) + 0.5, TypeError),
    ("samples", "capitals", np.zeros((3, 2), int), ValueError),
    ("samples", "scores", np.full((20, 2), 2.0), ValueError),
    ("samples", "agents", ("straight",), ValueError),
]  # fmt: skip


test_a_bad_field_is_named = bad_field_test(_made, BAD_FIELDS)


def test_a_seat_without_orders_is_refused():
    state = C.GameState((0, 0), (10, 10))
    with pytest.raises(ValueError, match=r"orders\[0\] must hold at least one order .*got \[\]"):
        C.stage_payoffs(DUEL_RULES, state, [[], [(0, "S")]], lambda s: (0.0, 0.0))
    with pytest.raises(TypeError, match=r"orders\[1\] must be a sequence"):
        C.stage_payoffs(DUEL_RULES, state, [[(0, "N")], "S"], lambda s: (0.0, 0.0))


def test_a_sequence_is_stored_as_a_tuple():
    state = C.GameState(pawn=[0, 0], capitals=[10, 10])
    assert state == C.GameState((0, 0), (10, 10))
    assert type(state.pawn) is tuple and type(state.capitals) is tuple
    with pytest.raises(TypeError, match=r"capitals\[1\] must be an int"):
        C.GameState(pawn=[0, 0], capitals=[10, 7.5])
