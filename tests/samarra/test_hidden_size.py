"""The hidden-information solve sized before any work: the horizon's range, the tree's
estimated size against its exact count, the one-line refusal, the bar, and Ctrl-C
during the walk and during the linear programme."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import replace

import pytest

from samarra import Rules, solve_hidden
from samarra.hidden import HIDDEN_BASE_BYTES, HIDDEN_STATE_BYTES, hidden_size
from samarra.hidden_tree import MAX_HORIZON, build, tree_size
from tests.tabletop.test_budget import peak_bytes, refused_at_once


@pytest.mark.parametrize("rules", [Rules(), Rules(length=3)], ids=["3x5", "3x3"])
@pytest.mark.parametrize("horizon", [MAX_HORIZON + 1, 10**6])
def test_a_horizon_beyond_the_walk_is_refused_at_once_naming_the_largest(rules, horizon):
    with pytest.raises(ValueError, match=rf"horizon must be 0\.\.{MAX_HORIZON} .*got {horizon}$"):
        solve_hidden(rules, horizon)
    with pytest.raises(ValueError, match=rf"horizon must be 0\.\.{MAX_HORIZON}"):
        solve_hidden(replace(rules, horizon=horizon))


def test_the_estimated_tree_is_within_20_percent_of_its_exact_size():
    for horizon in range(0, 8):
        exact = build(Rules(length=3, horizon=horizon)).n_states
        estimate = tree_size(Rules(length=3), horizon)
        assert abs(estimate / exact - 1) <= 0.2, (horizon, exact, estimate)
        if horizon <= 1:  # every probe sees every node of the first action
            assert estimate == exact


def test_a_tree_beyond_memory_is_refused_at_once_in_one_line():
    text = refused_at_once(lambda: solve_hidden(Rules(length=4), 40), "samarra.solve_hidden",
                           "horizon=40", "length=4", "histories")  # fmt: skip
    assert "days" in text  # the time estimate
    refused_at_once(lambda: solve_hidden(Rules(length=3), 20), "horizon=20", "length=3")
    assert hidden_size(Rules(length=3), 20).nbytes > 10**15


def test_the_estimate_is_an_upper_figure_of_the_traced_peak():
    rules = Rules(length=3)
    solve_hidden(rules, 2)  # the kernels compiled and scipy loaded before the trace
    estimate = hidden_size(rules, 5)
    peak = peak_bytes(lambda: solve_hidden(rules, 5))
    assert peak <= estimate.nbytes
    # the part per history is not a wild overstatement either
    assert HIDDEN_STATE_BYTES * build(replace(rules, horizon=5)).n_states <= 4 * peak
    assert estimate.nbytes >= HIDDEN_BASE_BYTES


def test_the_bar_counts_every_history(capsys):
    plain = solve_hidden(Rules(length=3), 3)
    shown = solve_hidden(Rules(length=3), 3, progress=True)
    assert shown == plain
    err = capsys.readouterr().err
    assert "samarra hidden-information tree" in err and f"{plain.n_states / 1000:.2f}k" in err
    solve_hidden(Rules(length=3), 3)
    assert capsys.readouterr().err == ""  # stderr is no terminal here: no bar
    with pytest.raises(TypeError, match="allow_large must be True or False"):
        solve_hidden(Rules(length=3), 3, allow_large="yes")


WALK = """
    from samarra import Rules, solve_hidden
    solve_hidden(Rules(length=3), 2)
    READY()
    solve_hidden(Rules(length=3), 8)
"""

# the programme of a large game: HiGHS on a sparse LP that runs for minutes, in place of
# the game's own (whose size needs minutes of walk first)
PROGRAMME = """
    import numpy as np
    import samarra.hidden as hidden
    from samarra import Rules, solve_hidden
    from scipy.optimize import linprog
    from scipy.sparse import random as sparse_random

    def long_programme(form, symmetric):
        n = 3000
        A = sparse_random(n, n, density=0.01, random_state=1, format="csr")
        c = -np.random.default_rng(0).random(n)
        READY()
        linprog(c, A_ub=A, b_ub=np.ones(n), bounds=(0, 1), method="highs")

    hidden._solve_lp = long_programme
    solve_hidden(Rules(length=3), 1)
"""


@pytest.mark.faults
@pytest.mark.parametrize("script", [WALK, PROGRAMME], ids=["walk", "programme"])
def test_sigint_ends_the_solve_within_2_s(script, tmp_path):
    from tests.test_interrupt import LATENCY, PRELUDE, _interrupt

    code, err, latency, _ = _interrupt(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(script), str(tmp_path)], tmp_path)
    assert "KeyboardInterrupt" in err.strip().splitlines()[-1], err[-2000:]
    assert code != 0
    assert latency < LATENCY, f"{latency:.2f} s from SIGINT to the end of the call"
