"""The grid-convergence table of the duel: its values are those of the solves it
reports, its states are the standard ones, and bad arguments are refused."""

import dataclasses

import numpy as np
import pytest

from citadel import Rules, grid_convergence, solve_duel_game, standard_states
from citadel.stage import distinct_orders

RULES = Rules(n_players=2, radius=2, capital=8)


def test_table_holds_each_grids_solution_at_the_standard_states():
    table = grid_convergence(RULES, [4, 2, 1], check=True)
    assert table.index.name == "bid_step" and table.index.tolist() == [4, 2, 1]
    states = standard_states(RULES)
    assert states == {"start": (0, 8, 8), "one-row lead": (1, 8, 8),
                      "two-row deficit": (-2, 8, 8), "2:1 capital": (0, 8, 4)}  # fmt: skip
    assert table.attrs["states"] == states
    for step in (4, 2, 1):
        sol = solve_duel_game(dataclasses.replace(RULES, bid_step=step), "all")
        for name, state in states.items():
            assert table.loc[step, name] == sol.value(*state), (step, name)
        assert table.loc[step, "states"] == sol.values.size == 5 * 9 * 9
        assert table.loc[step, "orders"] == 1 + 8 * (8 // step)
        assert table.loc[step, "distinct"] == distinct_orders(sol.space, 0).size
    assert (table["seconds"] > 0).all()
    assert (table["exploitability"] < 1e-6).all()
    # mirror-image seats: the start is worth 0; a lead never hurts, a deficit never
    # helps; the coarse grids miss what the finest sees (a lead worth 0 on the grid of 4)
    assert np.abs(table["start"]).max() < 1e-9
    assert (table["one-row lead"] >= -1e-12).all() and (table["two-row deficit"] <= 1e-12).all()
    assert table.loc[4, "one-row lead"] == pytest.approx(0.0, abs=1e-12)
    assert table.loc[1, "one-row lead"] > 0.1 and table.loc[1, "two-row deficit"] < -0.1
    assert (table["2:1 capital"] >= -1e-12).all() and table.loc[1, "2:1 capital"] > 0.1


def test_a_state_off_the_grid_is_nan():
    """With one direction a side no fee is paid, so capitals stay on the grid: half of
    12 is not a capital of the grid of 5 (levels 2, 7, 12). On a board of radius 1
    there is no two-row deficit."""
    table = grid_convergence(Rules(n_players=2, radius=1, capital=12), [5, 3], "axis")
    assert np.isnan(table.loc[5, "2:1 capital"])
    assert not np.isnan(table.loc[3, "2:1 capital"])
    assert table["two-row deficit"].isna().all() and table["one-row lead"].notna().all()
    assert "exploitability" not in table.columns


@pytest.mark.parametrize(("steps", "error", "message"), [
    ([], ValueError, "steps must hold at least one bid step"),
    ([2, 0], ValueError, r"steps\[1\] must be"),
    ([20], ValueError, r"steps\[0\] must be"),
    ([2.5], TypeError, r"steps\[0\]"),
    ("4", TypeError, "steps must be a sequence"),
    (4, TypeError, "steps must be a sequence"),
])  # fmt: skip
def test_bad_steps_are_refused(steps, error, message):
    with pytest.raises(error, match=message):
        grid_convergence(RULES, steps)


def test_bad_rules_and_directions_are_refused():
    with pytest.raises(ValueError, match="two-player"):
        grid_convergence(Rules(capital=8), [4])
    with pytest.raises(ValueError, match="directions must be one of"):
        grid_convergence(RULES, [4], "diagonal")
