"""Equilibrium play and agents' exploitability against independent references.

* the equilibrium's use of the powers, its moves and bluffs, summed again over
  OpenSpiel's own states (``pyspiel``), reading the strategies by information string;
* agents' exploitability against OpenSpiel's ``exploitability`` of the same behaviour
  loaded into a tabular policy; the agents' stated probabilities against their draws.
"""

import dataclasses
import random

import numpy as np
import pytest

from samarra import DeterminizingAgent, GreedyAgent, RandomAgent, Rules, solve, solve_hidden
from samarra.agents import View, options
from samarra.engine import Action
from samarra.hidden_play import (
    agent_behaviour,
    agent_exploitability,
    equilibrium_play,
    is_bluff,
)
from samarra.hidden_tree import build
from samarra.information import code_action
from samarra.position import start_position

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

import samarra.openspiel as sos  # noqa: E402


@pytest.fixture(scope="module")
def table():
    return solve(Rules(length=3))


def openspiel_usage(game, solution):
    """Expected merchant and Death powers, moves and bluffs per side, over pyspiel states."""
    strategies = [solution.strategy(s) for s in (0, 1)]
    n = solution.rules.n_cells
    out = np.zeros((2, 4))

    def walk(state, reach):
        if state.is_terminal() or reach == 0.0:
            return
        me = state.current_player()
        probs = strategies[me][state.information_state_string(me)]
        for a in state.legal_actions():
            r = reach * probs[a]
            if r == 0.0:
                continue
            if a < 5 * n:
                kind = a // n
                if kind == 3:
                    out[me, 0] += r
                elif kind == 4:
                    out[me, 1] += r
                elif kind < 3:
                    out[me, 2] += r
                    position = state._game.position
                    out[me, 3] += r * is_bluff(position, code_action(position, a))
            walk(state.child(a), r)

    walk(game.new_initial_state(), 1.0)
    return out


@pytest.mark.parametrize("horizon", [3, 4, 5])
def test_equilibrium_play_matches_a_walk_over_openspiel_states(horizon):
    rules = Rules(length=3, horizon=horizon)
    solution = solve_hidden(rules)
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    expected = openspiel_usage(game, solution)
    got = equilibrium_play(solution)
    cols = ["merchant's power", "Death's power", "moves", "bluffs"]
    np.testing.assert_allclose(got[cols].to_numpy(), expected, atol=1e-12)
    assert got[cols].to_numpy().max() > 0


def test_powers_are_used_at_most_once():
    for horizon in (4, 5):
        got = equilibrium_play(solve_hidden(Rules(length=3), horizon))
        assert (got[["merchant's power", "Death's power"]].to_numpy() <= 1 + 1e-12).all()


def test_bluff_by_hand():
    rules = Rules(length=3)
    p = start_position(rules, "SMD", "DSM")
    assert is_bluff(p, Action("move", 1, 4))  # the hidden merchant steps forward
    assert is_bluff(p, Action("move", 2, 5))  # Death too
    assert not is_bluff(p, Action("move", 0, 3))  # the servant's own step
    q = dataclasses.replace(p, cells=(3, 1, 2, 6, 7, 8))  # Black's servant stepped up
    assert is_bluff(q, Action("move", 1, 4))
    assert not is_bluff(q, Action("move", 1, 0))  # sideways: no row gained
    q = dataclasses.replace(q, revealed=(False, True, False) + (False,) * 3,
                            merchant_used=(True, False))
    assert not is_bluff(q, Action("move", 1, 4))  # the merchant is revealed
    assert is_bluff(q, Action("move", 2, 5))


def openspiel_policy(game, form, behaviour):
    table = os_policy.TabularPolicy(game)
    for side in (0, 1):
        for i in range(form.n_infosets[side]):
            row = table.policy_for_key(form.information_string(side, i))
            row[:] = 0.0
            first = int(form.first[side][i])
            for s in range(first, first + int(form.n_actions[side][i])):
                row[int(form.codes[side][s])] = behaviour[side][s]
    return table


@pytest.mark.parametrize("horizon", [2, 3])
@pytest.mark.parametrize("name", ["random", "greedy", "determinizing"])
def test_agent_exploitability_matches_openspiel(table, name, horizon):
    agent = {"random": RandomAgent(), "greedy": GreedyAgent(),
             "determinizing": DeterminizingAgent(table)}[name]  # fmt: skip
    rules = Rules(length=3, horizon=horizon)
    solution = solve_hidden(rules)
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    measured = agent_exploitability(solution, agent)
    behaviour = tuple(agent_behaviour(solution.form, agent, s) for s in (0, 1))
    expected = exploitability.exploitability(game, openspiel_policy(game, solution.form, behaviour))
    assert measured.exploitability == pytest.approx(expected, abs=1e-12)
    assert measured.black <= solution.value + 1e-12 <= measured.white + 2e-12


def test_random_agent_is_the_uniform_policy():
    rules = Rules(length=3, horizon=3)
    form = build(rules)
    got = agent_behaviour(form, RandomAgent(), 1)
    expected = np.concatenate([[1.0], np.repeat(1.0 / form.n_actions[1], form.n_actions[1])])
    np.testing.assert_allclose(got, expected)


def test_stated_probabilities_are_what_the_agents_draw(table):
    rng = random.Random(4)
    p = start_position(Rules(length=3), "SMD", "DSM")
    from samarra.engine import apply_action

    p = apply_action(p, Action("move", 1, 4))
    for agent in (RandomAgent(), GreedyAgent(), DeterminizingAgent(table)):
        view, opts = View.of(p, p.to_move), options(p)
        probs = agent.probabilities(view, opts)
        assert sum(probs) == pytest.approx(1.0)
        draws = [agent.choose(view, opts, rng) for _ in range(400)]
        drawn = {o for o in draws}
        assert drawn == {o for o, q in zip(opts, probs, strict=True) if q > 0}


def test_a_sampled_agent_is_reproducible(table):
    from samarra import ISMCTSAgent

    solution = solve_hidden(Rules(length=3), 2)
    agent = ISMCTSAgent(table, iterations=10, depth=2)
    a = agent_exploitability(solution, agent, seed=3, samples=2)
    b = agent_exploitability(solution, agent, seed=3, samples=2)
    assert a == b
    assert a.black <= solution.value + 1e-12 <= a.white + 1e-12


def test_bad_arguments_are_refused(table):
    solution = solve_hidden(Rules(length=3), 1)
    with pytest.raises(TypeError, match="solution"):
        equilibrium_play("no")
    with pytest.raises(TypeError, match="agent"):
        agent_exploitability(solution, object())
    with pytest.raises(ValueError, match="samples"):
        agent_exploitability(solution, RandomAgent(), samples=0)
    with pytest.raises(ValueError, match="side"):
        agent_behaviour(solution.form, RandomAgent(), 2)
    with pytest.raises(TypeError, match="action"):
        is_bluff(start_position(Rules(length=3), "SMD", "SMD"), "move")
