"""Bad fields and arguments of Panache's classes: each a TypeError or ValueError naming
``Class.field`` or the parameter; a sequence given for an input class's tuple is stored
as a tuple."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

import panache as P
from tests.fields import bad_field_test

NAN = float("nan")


@functools.cache
def _made(name: str):
    small = P.Rules(n_dice=3, start_points=8)
    return {
        "exchange": lambda: P.exchange(P.Rules(), 3),
        "samples": lambda: P.simulate_exchanges(P.Rules(), 3, 200, seed=1),
        "distribution": lambda: P.evaluate_policy(P.Rules(), P.solve_turn(P.Rules()).policy),
        "turn": lambda: P.solve_turn(P.Rules()),
        "duel": lambda: P.solve_duel(small),
        "committed": lambda: P.committed_duel(small),
        "search": lambda: P.search_rules(P.Rules(n_dice=2), "ev", max_clauses=1),
    }[name]()


BAD_FIELDS = [
    ("exchange", "p_target_hit", NAN, ValueError),
    ("exchange", "p_fail", 1.5, ValueError),
    ("exchange", "expected_attempts", 0.5, ValueError),
    ("samples", "attempts", np.full(200, 1.5), TypeError),
    ("samples", "attacker_damage", np.zeros(3, int), ValueError),
    ("samples", "target_damage", np.full(200, -1), ValueError),
    ("samples", "attempts", list(range(1, 201)), TypeError),
    ("distribution", "expected_rolls", NAN, ValueError),
    ("distribution", "expected_dice", -1.0, ValueError),
    ("turn", "value", NAN, ValueError),
    ("turn", "expected_dice", -1.0, ValueError),
    ("duel", "first_player_win", 1.5, ValueError),
    ("duel", "win", np.zeros((2, 2)), TypeError),
    ("duel", "rules", "default", TypeError),
    ("committed", "mp_success", -0.1, ValueError),
    ("committed", "cost", "0", TypeError),
    ("committed", "cost", 0.75, ValueError),
    ("committed", "first_player_win", NAN, ValueError),
    ("search", "optimum", float("inf"), ValueError),
]  # fmt: skip


test_a_bad_field_is_named = bad_field_test(_made, BAD_FIELDS)


BAD_CALLS = [
    (lambda: P.Clause("rolled", "stop", arg=-2), ValueError, r"arg .* must be 1\.\.8, got -2"),
    (lambda: P.Clause("rolled_at_most", "stop", arg=9), ValueError, r"arg .* got 9"),
    (lambda: P.Clause("always", "ladder", value=[0, 1.5, 1]), TypeError,
     r"value\[1\] of 'ladder' must be an int, got 1\.5"),
    (lambda: P.Clause("always", "ladder", value="abc"), TypeError, r"value of 'ladder' must"),
    (lambda: P.DecisionList((P.Clause("rolled", "stop", arg=3),)), ValueError,
     r"clauses\[-1\] must have condition 'always'.*got Clause\(condition='rolled'"),
    (lambda: P.DecisionList(["x"]), TypeError, r"clauses must be a non-empty sequence"),
    (lambda: P.Rules(face_values=[-4, -3, -2, -1, 0, 1.5]), TypeError, r"face_values\[5\]"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS)
def test_a_bad_argument_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_sequence_is_stored_as_a_tuple():
    assert P.Rules(face_values=[-4, -3, -2, -1, 0, 1]).face_values == (-4, -3, -2, -1, 0, 1)
    rule = P.DecisionList([P.Clause("always", "stop")])
    assert type(rule.clauses) is tuple and rule == P.DecisionList((P.Clause("always", "stop"),))
    assert P.Clause("always", "ladder", value=[0, 1, 1]).value == (0, 1, 1)
    assert P.Clause("rolled", "stop", arg=2).arg == 2



@pytest.mark.parametrize("cls", [P.ThreeSolution, P.PlayerSheet], ids=lambda c: c.__name__)
def test_a_solved_record_names_its_bad_rules(cls):
    n = len(dataclasses.fields(cls))
    with pytest.raises(TypeError, match=rf"^{cls.__name__}\.rules must be a panache\.Rules"):
        cls(*["x"] * n)


def test_a_three_player_solution_names_its_bad_table():
    with pytest.raises(TypeError, match=r"^ThreeSolution\.win must be a pandas\.DataFrame"):
        P.ThreeSolution(P.Rules(n_players=3), *[None] * 5)


def test_a_player_sheet_names_its_bad_margin():
    rule = P.DecisionList((P.Clause("always", "stop"),))
    with pytest.raises(ValueError, match=r"PlayerSheet\.turn_margin must be a finite "
                                         r"number >= 0\.0, got -1\.0"):  # fmt: skip
        P.PlayerSheet(P.Rules(), rule, rule, -1.0, 0.0, {}, None, None)
