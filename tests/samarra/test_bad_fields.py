"""Bad fields and arguments of Samarra's classes: each a TypeError or ValueError naming
``Class.field`` or the parameter; an unknown solve option is refused before any work."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

import samarra as S
from tests.fields import bad_field_test

NAN = float("nan")
RULES = S.Rules(length=3)


@functools.cache
def _made(name: str):
    return {
        "setup": lambda: S.setup_game(RULES),
        "horizon": lambda: S.solve_horizon(RULES, 3),
        "hidden": lambda: S.solve_hidden(RULES, 1),
    }[name]()


BAD_FIELDS = [
    ("setup", "value", NAN, ValueError),
    ("setup", "gap", -1.0, ValueError),
    ("setup", "black", "doubled", ValueError),
    ("setup", "white", "doubled", ValueError),
    ("horizon", "payoff", "list", TypeError),
    ("horizon", "payoff", None, TypeError),
    ("horizon", "payoff", np.full((4, 6, 6), 0.5), TypeError),
    ("horizon", "payoff", np.zeros((4, 2, 6), int), ValueError),
    ("horizon", "payoff", np.full((4, 6, 6), 2), ValueError),
    ("hidden", "value", NAN, ValueError),
    ("hidden", "n_states", -1, ValueError),
    ("hidden", "bounds", [0.0, 1.0], TypeError),
    ("hidden", "bounds", (0.0, 1.5), ValueError),
    ("hidden", "exploitability", -0.5, ValueError),
    ("hidden", "n_infosets", (7, -1), ValueError),
]  # fmt: skip


def _bad_value(result, made, field, bad):
    """"doubled": the field's items twice over; another string: the field as a list."""
    if not isinstance(bad, str):
        return bad
    value = getattr(result, field)
    return value * 2 if bad == "doubled" else value.tolist()


test_a_bad_field_is_named = bad_field_test(_made, BAD_FIELDS, _bad_value)


def test_horizon_game_without_a_payoff_is_refused():
    game = _made("horizon")
    with pytest.raises(TypeError, match=r"HorizonSolution\.payoff must be a numpy\.ndarray, "
                                        r"got None"):  # fmt: skip
        S.HorizonGame(rules=RULES, payoff=None, setups=game.setups, summary=game.summary)


BAD_CALLS = [
    (lambda: S.setup_game(RULES, S.solve(RULES), bogus_option=3), r"setup_game\(\) .*'bogus"),
    (lambda: S.setup_game(RULES, bogus_option=3), r"unknown solve option 'bogus_option'"),
    (lambda: S.setup_game(RULES, S.solve(RULES), cache=False),
     r"setup_game\(\) got solve options \['cache'\] with a table"),
    (lambda: S.compare_variants({"a": RULES}, bogus=1),
     r"compare_variants\(\) got an unknown solve option 'bogus': solve_options must"),
    (lambda: S.solve_horizon(RULES, 3, bogus=1), r"solve_horizon\(\) .*'bogus'"),
    (lambda: S.solve_horizon(RULES, 3, allow_large="yes"), r"allow_large must be True or"),
    (lambda: S.setup_game(RULES, cache="no"), r"cache must be True or False, got 'no'"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "message"), BAD_CALLS)
def test_a_bad_option_is_named(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_a_position_stores_its_sequences_as_tuples():
    position = S.start_position(RULES, "SMD", "DMS")
    again = dataclasses.replace(position, cells=list(position.cells),
                                revealed=list(position.revealed))  # fmt: skip
    assert again == position and type(again.cells) is tuple and type(again.revealed) is tuple
    with pytest.raises(ValueError, match=r"cells\[2\]: black death is off the board"):
        dataclasses.replace(position, cells=(0, 1, 99, 6, 7, 8))
