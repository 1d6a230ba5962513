"""The shared knob checks: values converted, errors naming field, value and range."""

import numpy as np
import pytest

from tabletop.validate import check_bool, check_choice, check_int


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
        (lambda: check_bool("flag", 1), TypeError, "flag must be True or False, got 1"),
        (lambda: check_choice("mode", "some", ("all", "winners")), ValueError,
         "mode must be one of ('all', 'winners'), got 'some'"),
    ],
)  # fmt: skip
def test_errors_name_the_field(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
