import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samarra import Position, Rules, parse_position, setups, start_position
from tests.samarra.strategies import positions


def test_start_position_follows_the_setups():
    rules = Rules()
    p = start_position(rules, "DSM", "MDS")
    # RULES.md §3: a setup lists the figures from column 0 upward, for both players
    assert p.cells == (1, 2, 0, 14, 12, 13)
    assert p.to_move == 0 and p.actions_left == 1 and p.actions_played == 0
    assert start_position(Rules(first="white"), "SMD", "SMD").to_move == 1
    wide = start_position(Rules(width=4), "S.MD", "D.MS")
    assert wide.cells == (0, 2, 3, 19, 18, 16)


def test_setups_are_all_placements():
    for width, count in ((3, 6), (4, 24), (5, 60)):
        found = setups(Rules(width=width))
        assert len(found) == len(set(found)) == count


@settings(max_examples=150, deadline=None)
@given(positions())
def test_text_board_round_trip(position):
    text = str(position)
    assert parse_position(text, position.rules) == position


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cells": (0, 0, 2, 12, 13, 14)}, "two figures on one cell: cell 0"),
        ({"cells": (0, 1, 15, 12, 13, 14)}, "black death is off the board: cell 15"),
        ({"cells": (0, 1, -2, 12, 13, 14)}, "off the board"),
        ({"cells": (0, 1, 2, 12, 13)}, "cells must hold 6 cells"),
        ({"cells": (0, -1, 2, 12, 13, 14)}, "merchant is dead but merchant_used\\[0\\] is False"),
        ({"cells": (0, -1, 2, 12, 13, 14), "merchant_used": (True, False)},
         "black's merchant is dead but death_used\\[1\\] is False"),
        ({"cells": (0, -1, -1, 12, 13, 14), "merchant_used": (True, False),
          "death_used": (True, False)}, "black has 2 dead figures"),
        ({"cells": (-1, 1, 2, 12, 13, 14)}, "servant is dead, so white must be winner"),
        ({"death_used": (False, True)}, "death_used\\[1\\] is True but white's death is not "),
        ({"revealed": (True, False, False, False, False, False)}, "need the white merchant"),
        ({"to_move": 2}, "to_move must be 0..1, got 2"),
        ({"actions_left": 3}, "actions_left must be 1..2, got 3"),
        ({"winner": 5}, "winner must be None"),
    ],
)
def test_impossible_positions_are_refused(kwargs, message):
    base = {"rules": Rules(), "cells": (0, 1, 2, 12, 13, 14)}
    with pytest.raises(ValueError, match=message):
        Position(**(base | kwargs))


def test_a_revealed_servant_is_possible_after_the_enemy_merchant():
    p = Position(Rules(), (0, 1, 2, 12, 13, 14), revealed=(True, False, False, False, True, False),
                 merchant_used=(False, True))
    assert p.revealed[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("to move: black\nused: black -, white -\n2 | . . .\n1 | . . .\n0 | . . .",
         "expected 'to move"),
        ("to move: black, actions left: 1, played: 0\nused: black -, white -\n"
         "2 | s m d\n1 | . . .\n0 | S M X", "unknown cell 'X'"),
        ("to move: black, actions left: 1, played: 0\nused: black -, white -\n"
         "2 | s m d\n1 | . . .\n0 | S M", "expected 3 cells"),
        ("to move: black, actions left: 1, played: 0\nused: black -, white -\n"
         "2 | s m d\n1 | . S .\n0 | S M D", "black servant appears twice"),
        ("to move: black, actions left: 1, played: 0\nused: black -, white -\n"
         "2 | s m d\n1 | . . .\n0 | S M .", "merchant_used|dead"),
    ],
)
def test_bad_text_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        parse_position(text, Rules(length=3))


@given(st.integers(0, 5), st.integers(0, 5))
def test_every_setup_pair_starts_a_valid_game(i, j):
    rules = Rules()
    p = start_position(rules, setups(rules)[i], setups(rules)[j])
    assert sorted(p.cells) == [0, 1, 2, 12, 13, 14]
