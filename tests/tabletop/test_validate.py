"""The shared knob checks: values converted, errors naming field, value and range."""

import numpy as np
import pytest

from tabletop.validate import (
    check_bool,
    check_choice,
    check_counts,
    check_float,
    check_int,
    check_probabilities,
    check_rules,
)


def test_accepted_values_are_converted():
    assert check_int("n", np.int64(4), 1, 8) == 4 and type(check_int("n", np.int64(4), 1)) is int
    assert check_bool("flag", np.bool_(True)) is True
    assert check_choice("mode", "all", ("all", "winners")) == "all"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: check_int("n", 9, 1, 8), ValueError, "n must be 1..8, got 9"),
        (lambda: check_int("n", -1, 0), ValueError, "n must be >= 0, got -1"),
        (lambda: check_int("n", True, 0), TypeError, "n must be an int, got True (bool)"),
        (lambda: check_int("n", 2.0, 0), TypeError, "n must be an int, got 2.0 (float)"),
        (lambda: check_bool("flag", 1), TypeError, "flag must be True or False, got 1 (int)"),
        (lambda: check_choice("mode", "some", ("all", "winners")), ValueError,
         "mode must be one of ('all', 'winners'), got 'some'"),
    ],
)  # fmt: skip
def test_errors_name_the_field(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_new_checks_convert_what_they_accept():
    import citadel

    assert check_float("x", np.float32(0.5), 0.0, 1.0) == 0.5 and type(check_float("x", 1)) is float
    assert check_rules("rules", None, citadel.Rules) == citadel.Rules()
    rules = citadel.Rules(n_players=2)
    assert check_rules("rules", rules, citadel.Rules) is rules
    p = check_probabilities("p", [0.5, 0.25, 0.25 + 1e-10], 3)
    assert p.dtype == np.float64 and p.flags.c_contiguous and p.tolist()[0] == 0.5
    assert check_counts("c", np.array([3, 0, 1], dtype=np.int64)).tolist() == [3.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: check_int("amount", 32.7, 0), TypeError,
         "amount must be an int, got 32.7 (float)"),
        (lambda: check_int("n", np.bool_(True), 0), TypeError,
         "n must be an int, got np.True_ (numpy.bool)"),
        (lambda: check_float("x", float("nan"), 0.0), ValueError,
         "x must be a finite number >= 0.0, got nan"),
        (lambda: check_float("x", float("inf")), ValueError, "x must be a finite number, got inf"),
        (lambda: check_float("x", True), TypeError, "x must be a real number, got True (bool)"),
        (lambda: check_float("x", "0.5", 0.0, 1.0), TypeError,
         "x must be a real number, got '0.5' (str)"),
        (lambda: check_float("x", 0.0, 0.0, 1.0, low_open=True), ValueError,
         "x must be a finite number in (0.0, 1.0], got 0.0"),
        (lambda: check_bool("compass", "yes"), TypeError,
         "compass must be True or False, got 'yes' (str)"),
        (lambda: check_choice("mode", ["all"], ("all",)), ValueError,
         "mode must be one of ('all',), got ['all']"),
        (lambda: check_rules("rules", "default", _citadel_rules()), TypeError,
         "rules must be a citadel.Rules or None, got 'default' (str)"),
        (lambda: check_rules("rules", None, _citadel_rules(), default=False), TypeError,
         "rules must be a citadel.Rules, got None (NoneType)"),
        (lambda: check_probabilities("p", [0.5, 0.6]), ValueError,
         "p must be non-negative and sum to 1 (within 1e-09), got [0.5, 0.6] (sum 1.1)"),
        (lambda: check_probabilities("p", [1.5, -0.5]), ValueError,
         "p must be non-negative and sum to 1 (within 1e-09), got [1.5, -0.5] (sum 1.0)"),
        (lambda: check_probabilities("p", [np.nan, 1.0]), ValueError,
         "p must hold finite probabilities, got [nan, 1.0]"),
        (lambda: check_probabilities("p", [1.0], 2), ValueError,
         "p must hold 2 probabilities, got 1"),
        (lambda: check_probabilities("p", [[1.0]]), ValueError,
         "p must be a non-empty 1-D array, got shape (1, 1)"),
        (lambda: check_probabilities("p", ["a", "b"]), TypeError,
         "p must be a probability vector (ints or floats), got ['a', 'b'] (dtype <U1)"),
        (lambda: check_counts("c", [1, -1]), ValueError,
         "c must hold finite counts >= 0, got [1.0, -1.0]"),
        (lambda: check_counts("c", [1, np.inf]), ValueError,
         "c must hold finite counts >= 0, got [1.0, inf]"),
        (lambda: check_counts("c", [True, False]), TypeError,
         "c must be an array of counts (ints or floats), got [True, False] (dtype bool)"),
    ],
)  # fmt: skip
def test_new_checks_name_parameter_value_and_range(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_another_games_rules_are_refused():
    import citadel
    import panache

    with pytest.raises(TypeError, match=r"^rules must be a citadel\.Rules or None, got Rules\(.*"
                                        r"\(panache\.Rules\)$"):  # fmt: skip
        check_rules("rules", panache.Rules(), citadel.Rules)


def _citadel_rules():
    import citadel

    return citadel.Rules
