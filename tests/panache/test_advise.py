import itertools
import math
from collections import Counter

import numpy as np
import pytest

from panache import Rules, solve_duel, solve_turn
from panache.advise import COLUMNS, advise
from panache.dice import dice_space
from tests.panache import brute

UTILITIES = {
    "ev": float,
    "zero": lambda t: float(t == 0),
    "positive": lambda t: float(t > 0),
    "at_least:2": lambda t: float(t >= 2),
}


@pytest.mark.parametrize("name", list(UTILITIES))
@pytest.mark.parametrize(
    ("n", "kept", "roll"),
    [(2, (), (6, 1)), (3, (), (5, 5, 2)), (3, (6,), (4, 1)), (3, (2, 1), (6,)), (3, (), (6, 4, 1))],
)
def test_every_option_matches_a_plain_enumeration(name, n, kept, roll):
    rules = Rules(n_dice=n, face_values=(-3, -2, -1, 0, 1, 2))
    fv = rules.face_values
    table = advise(roll, kept, rules, name)
    # every distinct non-empty sub-multiset of the roll, once
    subsets = {
        tuple(sorted((roll[i] for i in idx), reverse=True))
        for size in range(1, len(roll) + 1)
        for idx in itertools.combinations(range(len(roll)), size)
    }
    assert sorted(table["keep"]) == sorted(" ".join(map(str, k)) for k in subsets)
    start = sum(fv[f - 1] for f in kept)
    for _, row in table.iterrows():
        keep = [int(f) for f in row["keep"].split()]
        rest = Counter(roll) - Counter(keep)
        assert sorted(rest.elements(), reverse=True) == [int(f) for f in row["reroll"].split()]
        total = start + sum(fv[f - 1] for f in keep)
        expected = brute.continuation_value(fv, total, len(roll) - len(keep), UTILITIES[name])
        assert row["value"] == pytest.approx(expected, abs=1e-12), row["keep"]
        assert row["set_aside_total"] == total and row["dice_left"] == sum(rest.values())
    assert table["value"].is_monotonic_decreasing or np.all(np.diff(table["value"]) < 1e-12)
    assert table.index[0] == 1 and table["loss"].iloc[0] == 0 and table["best"].iloc[0]


@pytest.mark.parametrize("utility", ["ev", "zero", "positive", "at_least:1"])
def test_the_first_row_is_the_optimal_policy(utility):
    rules = Rules(n_dice=4)
    policy = solve_turn(rules, utility).policy
    space = dice_space(4)
    rng = np.random.default_rng(3)
    for _ in range(40):
        faces = tuple(int(f) for f in rng.integers(1, 7, size=4))
        n_kept = int(rng.integers(0, 4))
        kept, roll = faces[:n_kept], faces[n_kept:]
        best = advise(roll, kept, rules, utility).loc[1, "keep"]
        assert best == " ".join(map(str, policy.choose(kept, roll))), (kept, roll)
    assert space.n == 4


def test_roger_worked_example():
    # RULES.md: Roger rolls 6,5,5,3,1 and keeps the 6; rolls 6,6,5,2 and keeps 6,6,5;
    # rolls a 1: total -1. Both of his choices are the best expected total's.
    first = advise([6, 5, 5, 3, 1])
    assert first.columns.tolist() == list(COLUMNS)
    assert first.loc[1, "keep"] == "6" and first.loc[1, "reroll"] == "5 5 3 1"
    assert len(first) == 2 * 3 * 2 * 2 - 1
    assert first.loc[1, "value"] == solve_turn(Rules()).values.loc[4, 1]
    second = advise([6, 6, 5, 2], kept=[6])
    assert second.loc[1, "keep"] == "6 6 5" and second.loc[1, "reroll"] == "2"
    assert second.loc[1, "value"] == pytest.approx(1 + 1 + 1 + 0 + (1 + 0 - 1 - 2 - 3 - 4) / 6)
    last = advise([1], kept=[6, 6, 6, 5])
    assert last["keep"].tolist() == ["1"] and last.loc[1, "set_aside_total"] == -1


def test_duel_utility_agrees_with_the_solved_duel():
    rules = Rules(n_dice=3, start_points=6)
    sol = solve_duel(rules)
    for a, b in [(1, 1), (5, 2), (3, 9)]:
        # averaging the best choice over every first roll gives the mover's win chance
        space = dice_space(3)
        acc = 0.0
        for r in range(space.size_offset[3], space.size_offset[4]):
            table = advise(space.faces(r), (), rules, points=a, against=b)
            acc += space.probability[r] * table.loc[1, "value"]
        assert acc == pytest.approx(sol.win.loc[a, b], abs=1e-12)


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match=r"roll must hold faces 1\.\.6, got 7"):
        advise([7, 1, 1, 1, 1])
    with pytest.raises(ValueError, match="n_dice=5 dice together"):
        advise([6, 5, 5, 3, 1], kept=[6])
    with pytest.raises(ValueError, match="n_dice=5 dice together"):
        advise([], kept=[6, 6, 6, 6, 6])
    with pytest.raises(TypeError, match="roll must be a sequence"):
        advise("65531")
    with pytest.raises(ValueError, match="points and against go together"):
        advise([6, 5, 5, 3, 1], points=20)
    with pytest.raises(ValueError, match=r"against must be 1\.\.40, got 41"):
        advise([6, 5, 5, 3, 1], points=20, against=41)
    with pytest.raises(ValueError, match="either utility or points"):
        advise([6, 5, 5, 3, 1], utility="zero", points=20, against=12)
    with pytest.raises(ValueError, match="utility name must be one of"):
        advise([6, 5, 5, 3, 1], utility="win")
    with pytest.raises(TypeError, match=r"rules must be a panache\.Rules"):
        advise([6, 5, 5, 3, 1], rules={"n_dice": 5})


def test_options_count_is_the_product_of_counts():
    table = advise([6, 6, 6, 6, 6], rules=Rules())
    assert table["keep"].tolist() == ["6 6 6 6 6", "6 6 6 6", "6 6 6", "6 6", "6"]
    assert math.prod(c + 1 for c in Counter([1, 2, 3, 4, 5]).values()) - 1 == len(
        advise([1, 2, 3, 4, 5])
    )
