import random
from dataclasses import replace

import pytest
from hypothesis import given, settings

from samarra import Action, Rules, legal_actions, parse_position, start_position
from samarra.agents import (
    DeterminizingAgent,
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
    View,
    determinizations,
    options,
    to_action,
)
from tests.samarra.strategies import positions, random_play


def _view_fields(view):
    return (view.side, view.own, view.own_used, view.tents, view.enemy_dead, view.enemy_used)


@settings(max_examples=150, deadline=None)
@given(positions(optional=False))
def test_determinizations_hold_the_truth_and_only_what_the_view_allows(p):
    if p.is_over:
        return
    for side in (0, 1):
        view = View.of(p, side)
        worlds = determinizations(view)
        assert p in worlds
        assert len(set(worlds)) == len(worlds) <= 6
        for w in worlds:
            assert _view_fields(View.of(w, side)) == _view_fields(view)
            # the side's own figures and every legal action as named by cells are unchanged
            assert w.cells[3 * side : 3 * side + 3] == p.cells[3 * side : 3 * side + 3]
            if side == p.to_move:
                assert options(w) == options(p)


def test_determinizations_do_not_depend_on_the_hidden_truth():
    rules = Rules()
    a = start_position(rules, "SMD", "SMD")
    b = start_position(rules, "SMD", "DMS")
    assert _view_fields(View.of(a, 0)) == _view_fields(View.of(b, 0))
    assert set(determinizations(View.of(a, 0))) == set(determinizations(View.of(b, 0)))
    assert len(determinizations(View.of(a, 0))) == 6  # nothing revealed yet


@settings(max_examples=100, deadline=None)
@given(positions(optional=False))
def test_options_are_the_legal_actions(p):
    assert sorted(to_action(p, o) for o in options(p)) == sorted(legal_actions(p))


def test_agents_choose_legal_options(table33):
    rng = random.Random(3)
    agents = [RandomAgent(), GreedyAgent(), DeterminizingAgent(table33),
              DeterminizingAgent(table33, use_merchant=False), ISMCTSAgent(table33, 30)]
    for i in range(60):
        p = random_play(table33.rules, rng.randrange(40), i)
        if p.is_over or not legal_actions(p):
            continue
        opts = options(p)
        for agent in agents:
            assert agent.choose(View.of(p, p.to_move), opts, rng) in opts


def test_with_everything_revealed_the_determinizing_agent_plays_a_best_action(table33):
    rules = table33.rules
    # Black's merchant revealed White's servant; White used both powers: nothing is hidden
    text = """to move: black, actions left: 2, played: 12
used: black MD, white MD
2 | .  m* .
1 | M* s* S
0 | .  .  ."""
    p = parse_position(text, rules)
    p = replace(p, cells=(5, 3, -1, 4, 7, -1))
    view = View.of(p, 0)
    assert determinizations(view) == [p]
    agent = DeterminizingAgent(table33)
    rng = random.Random(0)
    best = table33.best_actions(p)
    for _ in range(10):
        assert to_action(p, agent.choose(view, options(p), rng)) in best


def test_agent_needs_a_table():
    with pytest.raises(TypeError, match="table must be"):
        DeterminizingAgent("table")


def test_ismcts_takes_a_win_in_one_and_is_reproducible(table33):
    rules = table33.rules
    # no white tent is in Samarra: the black servant steps in and wins, whatever is hidden
    text = """to move: black, actions left: 1, played: 6
used: black -, white -
2 | .  .  .
1 | S  s  d
0 | M  m  D"""
    p = parse_position(text, rules)
    agent = ISMCTSAgent(table33, iterations=150)
    view = View.of(p, 0)
    picks = {agent.choose(view, options(p), random.Random(s)) for s in range(3)}
    assert {to_action(p, o) for o in picks} == {Action("move", 0, 6)}
    a = [ISMCTSAgent(table33, 40).choose(View.of(q, q.to_move), options(q), random.Random(9))
         for q in [random_play(rules, 12, 4)] if legal_actions(q)]
    b = [ISMCTSAgent(table33, 40).choose(View.of(q, q.to_move), options(q), random.Random(9))
         for q in [random_play(rules, 12, 4)] if legal_actions(q)]
    assert a == b
