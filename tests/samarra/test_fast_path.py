"""The engine's fast path against the checked reference path (``checked_positions``).

Outside ``checked_positions`` the engine builds the positions that follow a checked one
without checking them and the table computes an index in plain Python; inside it every
position goes through ``Position``'s checks and every index through ``state_of`` and
the kernel's ``encode``. The games played, decision by decision, and every index must
be the same.
"""

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samarra import Rules
from samarra import _kernels as K
from samarra.agents import (
    DeterminizingAgent,
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
    View,
    determinizations,
)
from samarra.engine import _order, legal_actions, next_position
from samarra.position import Position, checked_positions
from samarra.simulate import play_game
from samarra.solve import Table, geometry, solve, state_of
from tests.samarra.strategies import positions, random_play, rules_strategy

FIELDS = [f.name for f in dataclasses.fields(Position)]


def _fields(p: Position) -> dict:
    return {name: getattr(p, name) for name in FIELDS}


def _draw_table(rules: Rules) -> Table:
    """A table of the board of ``rules`` that holds a draw everywhere, without the memory
    of a solve (one entry, broadcast): games on 3 × 5 under every knob then exercise
    the agents' lookups, which the index tests below check entry by entry."""
    return Table(rules, np.broadcast_to(np.zeros(1, np.int16), (geometry(rules).n_states,)))


class _Recorder:
    """An agent that records what it was shown and what it chose."""

    def __init__(self, agent, log):
        self.agent, self.log = agent, log

    def choose(self, view, opts, rng):
        choice = self.agent.choose(view, opts, rng)
        self.log.append((view.position, tuple(opts), choice))
        return choice


def _games(rules, black, white, n, seed):
    """``n`` games from one seeded generator: results, setups and every decision."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        log = []
        result, b, w = play_game(rules, _Recorder(black, log), _Recorder(white, log), rng)
        out.append((result, b, w, log))
    return out


def _same_games(rules, black, white, n, seed):
    fast = _games(rules, black, white, n, seed)
    with checked_positions():
        checked = _games(rules, black, white, n, seed)
    assert len(fast) == len(checked) == n
    for f, c in zip(fast, checked, strict=True):
        assert f == c  # result (final position included), setups, every decision
    return fast


def _agents(table):
    return {"random": RandomAgent(), "greedy": GreedyAgent(),
            "determinizing": DeterminizingAgent(table),
            "no merchant": DeterminizingAgent(table, use_merchant=False),
            "ismcts": ISMCTSAgent(table, iterations=12, depth=3)}  # fmt: skip


PAIRS = [("determinizing", "determinizing"), ("random", "greedy"), ("ismcts", "determinizing"),
         ("greedy", "no merchant"), ("no merchant", "random")]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("knobs", [{}, {"allow_pass": True, "no_repetition": True}])
def test_games_on_3x3_are_those_of_the_checked_path(knobs, table33, table33_optional):
    table = table33_optional if knobs else table33
    rules = Rules(length=3, max_actions=120, **knobs)
    agents = _agents(table)
    for k, (black, white) in enumerate(PAIRS):
        games = _same_games(rules, agents[black], agents[white], 6, seed=100 + k)
        assert sum(len(g[3]) for g in games) > 6  # games of several decisions were compared


@pytest.mark.slow
@pytest.mark.parametrize("knobs", [{"allow_pass": True}, {"no_repetition": True},
                                   {"adjacency": "king"}, {"auto_death": True},
                                   {"win_on_arrival_only": True}])  # fmt: skip
def test_games_on_3x3_under_each_knob_are_those_of_the_checked_path(knobs, cache):
    rules = Rules(length=3, max_actions=120, **knobs)
    agents = _agents(solve(dataclasses.replace(rules, max_actions=400), directory=cache))
    for k, (black, white) in enumerate(PAIRS[:2]):
        _same_games(rules, agents[black], agents[white], 4, seed=200 + k)


@pytest.mark.slow
def test_games_on_3x4_with_the_solved_table_are_those_of_the_checked_path(table34):
    agents = _agents(table34)
    rules = Rules(length=4, max_actions=200)
    _same_games(rules, agents["determinizing"], agents["determinizing"], 4, seed=7)
    _same_games(rules, agents["no merchant"], agents["greedy"], 4, seed=8)


@pytest.mark.slow
@pytest.mark.parametrize("knobs", [{}, {"allow_pass": True}, {"no_repetition": True},
                                   {"allow_pass": True, "no_repetition": True,
                                    "auto_death": True}])  # fmt: skip
def test_games_on_3x5_are_those_of_the_checked_path(knobs):
    rules = Rules(max_actions=200, **knobs)
    agents = _agents(_draw_table(dataclasses.replace(rules, max_actions=400)))
    _same_games(rules, agents["determinizing"], agents["determinizing"], 3, seed=11)
    _same_games(rules, agents["random"], agents["greedy"], 3, seed=12)
    _same_games(rules, agents["ismcts"], agents["random"], 1, seed=13)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_each_action_gives_the_position_the_checks_give(p):
    """The unchecked successor equals the position the checking constructor builds from
    its fields (the checks pass, and normalise nothing away)."""
    for a in legal_actions(p):
        q = next_position(p, a)
        assert type(q) is Position
        assert Position(**_fields(q)) == q
        with checked_positions():
            assert next_position(p, a) == q
    if not p.is_over:
        for side in (0, 1):
            view = View.of(p, side)
            fast = determinizations(view)
            with checked_positions():
                assert determinizations(view) == fast
            for w in fast:
                assert Position(**_fields(w)) == w
        assert legal_actions(p) == sorted(legal_actions(p), key=_order)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_table_index_is_the_kernels(data):
    """The plain-Python index equals ``encode(state_of(p))`` on boards to 4 × 5 under every
    knob, mid-turn tags (passes, the move that may not be undone) included."""
    rules = data.draw(rules_strategy())
    table = _draw_table(rules)
    geo = table.geometry
    seed = data.draw(st.integers(0, 2**32))
    for n_actions in (0, 1, 2, 7, 30):
        p = random_play(rules, n_actions, seed + n_actions)
        expected = int(K.encode(*state_of(p), geo.n, geo.offset, geo.layout))
        assert table.index(p) == expected
        with checked_positions():
            assert table.index(p) == expected


def test_the_table_index_under_no_repetition_reads_the_undo_tag():
    rules = Rules(length=3, no_repetition=True)
    table = _draw_table(rules)
    p = random_play(rules, 2, 5)  # white's first action of its first turn, a move
    assert p.last_move is not None
    cells, status, a, tag = state_of(p)
    assert tag != K.FREE
    geo = table.geometry
    free = table.index(dataclasses.replace(p, last_move=None))
    assert table.index(p) == K.encode(cells, status, a, tag, geo.n, geo.offset, geo.layout)
    assert table.index(p) >= geo.layout[K.L_UNDO_START] > free  # the undo section
    back = np.empty(6, np.int64), np.empty(4, np.int64)
    assert K.decode(table.index(p), geo.n, *geo.blocks, geo.layout, *back) == (a, tag)
    assert back[0].tolist() == cells.tolist() and back[1].tolist() == status.tolist()


def test_checked_positions_checks_and_restores():
    p = random_play(Rules(length=3), 3, 1)
    bad = dict(_fields(p), cells=(0, 0, 1, 6, 7, 8))
    with checked_positions(), pytest.raises(ValueError, match="two figures on one cell"):
        Position._trusted(**bad)
    assert Position._trusted(**bad).cells == (0, 0, 1, 6, 7, 8)  # unchecked outside


def test_the_table_refuses_positions_of_another_board(table33):
    p = random_play(Rules(length=4), 2, 3)
    with pytest.raises(ValueError, match="do not match the table's"):
        table33.index(p)
    q = random_play(Rules(length=3, max_actions=50), 2, 3)  # another rules object, same board
    assert table33.index(q) == table33.index(dataclasses.replace(q, rules=Rules(length=3)))
