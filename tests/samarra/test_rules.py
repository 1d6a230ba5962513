import pytest

from samarra import Rules, setups
from samarra.rules import BLACK, WHITE


def test_defaults_are_rules_md():
    rules = Rules()
    assert (rules.width, rules.length, rules.first) == (3, 5, "black")
    assert rules.adjacency == "orthogonal"
    assert not (rules.auto_death or rules.allow_pass or rules.no_repetition)
    assert rules.max_actions == 400 and rules.horizon is None
    assert not rules.win_on_arrival_only
    # RULES.md §3: "with width 3: a permutation of three figures, 6 setups each, 36 setup pairs"
    assert len(setups(rules)) == 6 and len(setups(rules)) ** 2 == 36


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 2}, "width must be 3..40, got 2"),
        ({"length": 1}, "length must be 3..40, got 1"),
        ({"width": 7, "length": 7}, "width \\* length must be <= 40"),
        ({"first": "red"}, "first must be one of"),
        ({"adjacency": "diagonal"}, "adjacency must be one of"),
        ({"max_actions": 0}, "max_actions must be >= 1, got 0"),
        ({"horizon": -1}, "horizon must be >= 0, got -1"),
        ({"auto_death": 1}, "auto_death must be True or False"),
        ({"width": 3.0}, "width must be an int"),
    ],
)
def test_bad_knobs_name_field_value_and_range(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Rules(**kwargs)


def test_geometry():
    rules = Rules()
    assert rules.city_row(BLACK) == 0 and rules.city_row(WHITE) == 4
    assert rules.steps(0) == [1, 3] and rules.steps(7) == [4, 6, 8, 10]
    assert rules.neighbours(7) == [4, 6, 8, 10]
    assert Rules(adjacency="king").neighbours(0) == [1, 3, 4]
    assert len(Rules(adjacency="king").neighbours(7)) == 8
    assert rules.rows_to_go(1, BLACK) == 4 and rules.rows_to_go(1, WHITE) == 0
