"""The retrograde solve against the plain engine and a plain minimax (tests/samarra/brute.py)."""

import importlib
import math
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samarra import Position, Rules, apply_action, legal_actions, start_position
from samarra import _kernels as K
from samarra._kernels import L_A2_START, L_PLAIN2, L_TAGS2
from samarra.solve import (
    Table,
    geometry,
    load_table,
    n_entries,
    n_states,
    save_table,
    solve,
    state_of,
)
from tabletop.jit import jit
from tests.samarra.brute import explicit_graph, minimax_values
from tests.samarra.strategies import random_play

SOLVER_KNOBS = st.fixed_dictionaries({
    "width": st.integers(3, 4), "length": st.integers(3, 5),
    "adjacency": st.sampled_from(["orthogonal", "king"]),
    "first": st.sampled_from(["black", "white"]),
    "auto_death": st.booleans(), "win_on_arrival_only": st.booleans(),
    "allow_pass": st.booleans(), "no_repetition": st.booleans(),
})


def decode(geo, index):
    cells, status = np.empty(6, np.int64), np.empty(4, np.int64)
    a, tag = K.decode(index, geo.n, *geo.blocks, geo.layout, cells, status)
    return cells, status, a, tag


def kernel_actions(rules, geo, index):
    cells, status, a, tag = decode(geo, index)
    codes, nexts = np.empty(K.MAX_ACTIONS, np.int64), np.empty(K.MAX_ACTIONS, np.int64)
    m = K.actions(cells, status, a, tag, *geo.args(rules), codes, nexts,
                  np.empty(64, np.int64))
    cont = {int(nexts[i]) for i in range(m) if codes[i] == K.CONTINUE}
    return cont, {int(c) for c in codes[:m]} - {K.CONTINUE}


def kernel_predecessors(rules, geo, index):
    cells, status, a, tag = decode(geo, index)
    out = np.empty(K.MAX_PREDECESSORS, np.int64)
    m = K.predecessors(cells, status, a, tag, *geo.args(rules), out, np.empty(64, np.int64))
    return [int(x) for x in out[:m]]


def is_feasible(geo, index):
    cells, _, a, tag = decode(geo, index)
    return bool(K.feasible(cells, a, tag, geo.steps, geo.layout))


def index_of(geo, position):
    cells, status, a, tag = state_of(position)
    return int(K.encode(cells, status, a, tag, geo.n, geo.offset, geo.layout))


def test_state_counts():
    # 15 cells: (15!/9! * 16 + 15!/10! * 16 + 15!/11! * 9) * 2 states, see samarra.solve;
    # the mirror keeps the servant on 10 of the 15 cells (2 of the 3 columns)
    assert geometry(Rules(), mirror=False).n_states == (3603600 * 16 + 360360 * 16
                                                        + 32760 * 9) * 2  # fmt: skip
    assert n_entries(Rules()) == (3603600 * 16 + 360360 * 16 + 32760 * 9) * 2 * 10 // 15
    assert geometry(Rules(length=4), mirror=False).n_states == (665280 * 16 + 95040 * 16
                                                                + 11880 * 9) * 2  # fmt: skip
    assert n_entries(Rules(length=4)) == (665280 * 16 + 95040 * 16 + 11880 * 9) * 2 * 8 // 12
    # an even width has no axis: exactly half the states
    assert n_entries(Rules(width=4, length=3)) * 2 == geometry(Rules(width=4, length=3),
                                                               mirror=False).n_states
    # the positions are those of the index that keeps both images, whatever the storage
    for knobs in ({}, {"length": 4}, {"length": 3, "allow_pass": True, "no_repetition": True},
                  {"width": 4, "length": 3, "no_repetition": True}):
        rules = Rules(**knobs)
        assert n_states(rules) == geometry(rules, mirror=False).n_states
        assert n_entries(rules) == geometry(rules).n_states == solve_size_entries(rules)


def solve_size_entries(rules):
    from samarra.solve import solve_size

    return solve_size(rules, cache=False).nbytes // 2


def _mirror(rules, c):
    return c - c % rules.width + rules.width - 1 - c % rules.width


def _undo_states(rules, n, steps, mirror=False):
    """Mid-turn states with an undo tag naming an empty cell, counted over placements:
    for every status and every live figure of mine, each of its cells and each step
    from it to a cell that the other live figures leave empty; under the mirror, the
    moves ``c <- o`` that come first of themselves and their image (``(c, o)`` before
    the image's ``(c', o')``)."""
    from samarra.solve import _status_codes

    total = 0
    for code, live in _status_codes():
        status = [(code // 3**i) % 3 for i in range(4)]
        for f in range(3):
            if f > 0 and status[f - 1] == 2:
                continue
            # f on c, its origin o empty: the other live - 1 figures on the n - 2 left
            for c in range(n):
                for o in steps[c]:
                    if o >= 0 and (not mirror or (c, o) <= (_mirror(rules, c),
                                                             _mirror(rules, o))):
                        total += math.perm(n - 2, live - 1)
    return total


def test_the_undo_section_holds_only_feasible_states():
    """Every entry of the compact undo section decodes to a feasible state, and every
    feasible undo tag of every plain mid-turn state is in the index (3 x 3, exhaustive;
    the index that keeps both mirror images)."""
    rules = Rules(length=3, no_repetition=True)
    for mirror in (False, True):
        geo = geometry(rules, mirror)
        assert K.infeasible_count(geo.n, geo.steps, geo.layout, *geo.blocks) == 0
    geo = geometry(rules, mirror=False)
    plain = geometry(Rules(length=3), mirror=False)
    assert _feasible_undo_tags(plain, geo) == geo.n_states - plain.n_states


@jit
def _count_feasible(plain_size, n, block_start, block_a, block_code, plain_layout, steps,
                    offset, layout, seen):
    cells, status = np.empty(6, np.int64), np.empty(4, np.int64)
    total = 0
    for s in range(plain_size):
        K.decode(s, n, block_start, block_a, block_code, plain_layout, cells, status)
        for u in range(12):
            if K.feasible(cells, 1, 1 + u, steps, layout):
                seen[K.encode(cells, status, 1, 1 + u, n, offset, layout)] += 1
                total += 1
    return total


def _feasible_undo_tags(plain, geo):
    seen = np.zeros(geo.n_states, np.int64)
    size = plain.tags(1) * plain.layout[K.L_PLAIN1]
    total = _count_feasible(size, plain.n, *plain.blocks, plain.layout, geo.steps,
                            geo.offset, geo.layout, seen)
    undo = seen[geo.layout[K.L_UNDO_START] : geo.layout[K.L_A2_START]]
    assert (undo == 1).all() and seen.sum() == total
    return total


@jit
def _read_folded(n, block_start, block_a, block_code, full_layout, offset, layout, seen,
                 full_dist, folded_dist):  # fmt: skip
    """Read every state of the index that keeps both mirror images in the folded one:
    ``seen[t]`` counts the states read at entry ``t``; with the two tables (else empty
    arrays), returns the number of states whose entries differ."""
    cells, status = np.empty(6, np.int64), np.empty(4, np.int64)
    differ = 0
    for s in range(full_layout[L_A2_START] + full_layout[L_TAGS2] * full_layout[L_PLAIN2]):
        a, tag = K.decode(s, n, block_start, block_a, block_code, full_layout, cells, status)
        t = K.encode(cells, status, a, tag, n, offset, layout)
        seen[t] += 1
        if full_dist.size and full_dist[s] != folded_dist[t]:
            differ += 1
    return differ


@jit
def _idle(n, block_start, block_a, block_code, layout, idle, weight):
    """``idle[t]``: entry ``t`` holds a state the index reads at its mirror image;
    ``weight[t]``: the positions ``entry_weight`` says it stands for."""
    cells, status = np.empty(6, np.int64), np.empty(4, np.int64)
    for t in range(idle.size):
        a, tag = K.decode(t, n, block_start, block_a, block_code, layout, cells, status)
        idle[t] = K.mirrored(cells, a, tag, layout)
        weight[t] = K.entry_weight(cells, a, tag, layout)


def _folded_reads(full, folded, full_dist=None, folded_dist=None):
    seen, idle = np.zeros(folded.n_states, np.int64), np.zeros(folded.n_states, np.bool_)
    empty = np.zeros(0, np.int16)
    differ = _read_folded(full.n, *full.blocks, full.layout, folded.offset, folded.layout,
                          seen, empty if full_dist is None else full_dist,
                          empty if folded_dist is None else folded_dist)  # fmt: skip
    weight = np.zeros(folded.n_states, np.int64)
    _idle(folded.n, *folded.blocks, folded.layout, idle, weight)
    return seen, idle, differ, weight


@pytest.mark.parametrize(("width", "allow_pass"), [
    (3, True), (4, False), pytest.param(4, True, marks=pytest.mark.large)])
def test_the_folded_index_holds_each_state_with_its_mirror_image(width, allow_pass):
    """Every state of the index that keeps both images is read at an entry that holds
    it and its mirror image (twice, once on the axis), every entry but the idle copies
    is read, and the idle copies are the entries ``mirrored`` names (exhaustive)."""
    rules = Rules(width=width, length=3, allow_pass=allow_pass, no_repetition=True)
    full, folded = geometry(rules, mirror=False), geometry(rules)
    seen, idle, _, weight = _folded_reads(full, folded)
    assert ((seen == 0) == idle).all()
    assert (weight == seen).all()  # each entry's weight: the positions read at it
    assert set(np.unique(seen[~idle]).tolist()) <= {1, 2}
    assert seen.sum() == full.n_states
    if width % 2 == 0:
        assert not idle.any() and (seen == 2).all()  # no axis: exactly half
    else:
        assert 0 < idle.sum() < folded.n_states // 3


@pytest.mark.parametrize("mirror", [True, False])
@pytest.mark.parametrize("length", [3, 4, 5])
@pytest.mark.parametrize(("allow_pass", "no_repetition"), [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_index_round_trip(length, allow_pass, no_repetition, mirror):
    rules = Rules(length=length, allow_pass=bool(allow_pass), no_repetition=bool(no_repetition))
    geo = geometry(rules, mirror)
    # states per tag at each ``a``
    plain = geometry(Rules(length=length), mirror).n_states // 2
    # the free and pass tags, the runs at a turn's start, and the feasible undo tags
    copies = 1 + 4 * allow_pass + (4 if allow_pass else 1)
    assert geo.n_states == plain * copies + no_repetition * _undo_states(rules, geo.n,
                                                                        geo.steps, mirror)
    rng = np.random.default_rng(length)
    tags = set()
    for index in [0, geo.n_states - 1, *rng.integers(0, geo.n_states, 3000)]:
        cells, status, a, tag = decode(geo, int(index))
        tags.add((a, tag))
        live = cells[cells >= 0]
        assert len(set(live.tolist())) == live.size and live.max() < geo.n
        assert 0 <= tag < geo.tags(a)
        back = K.encode(cells, status, a, tag, geo.n, geo.offset, geo.layout)
        if not K.mirrored(cells, a, tag, geo.layout):
            assert back == index
            continue
        # an idle copy: read at its mirror image, stored elsewhere
        assert mirror and back != index
        image = decode(geo, int(back))
        assert image[0].tolist() == [-1 if c < 0 else _mirror(rules, c) for c in cells]
        assert image[1].tolist() == status.tolist() and image[2] == a
        assert not K.mirrored(image[0], a, image[3], geo.layout)
    assert len(tags) == geo.tags(1) + geo.tags(2)


@settings(max_examples=120, deadline=None)
@given(SOLVER_KNOBS, st.integers(0, 80), st.integers(0, 2**32))
def test_kernel_actions_match_the_engine(knobs, n_actions, seed):
    rules = Rules(**knobs)
    geo = geometry(rules)
    p = random_play(rules, n_actions, seed)
    if p.is_over:
        return
    cont, ends = set(), set()
    for action in legal_actions(p):
        q = apply_action(p, action)
        if q.is_over:
            ends.add(1 if q.winner == p.to_move else -1)
        else:
            cont.add(index_of(geo, q))
    assert kernel_actions(rules, geo, index_of(geo, p)) == (cont, ends)


@settings(max_examples=60, deadline=None)
@given(SOLVER_KNOBS, st.integers(0, 2**32))
def test_predecessors_invert_the_actions(knobs, seed):
    rules = Rules(**knobs)
    geo = geometry(rules)
    rng = np.random.default_rng(seed)
    for index in rng.integers(0, geo.n_states, 20):
        index = int(index)
        cells, _, a, tag = decode(geo, index)
        if not is_feasible(geo, index) or K.mirrored(cells, a, tag, geo.layout):
            continue  # an idle copy (the index reads that state at its mirror image)
        for q in kernel_actions(rules, geo, index)[0]:
            assert is_feasible(geo, q)
            assert index in kernel_predecessors(rules, geo, q)
        preds = kernel_predecessors(rules, geo, index)
        assert len(set(preds)) == len(preds)
        for p in preds:
            assert is_feasible(geo, p)
            assert index in kernel_actions(rules, geo, p)[0]


def _endgame(rules, seed, dead=(1, 5), used=(True, True)):
    """A random position with one figure dead on each side."""
    rng = random.Random(seed)
    while True:
        cells = rng.sample(range(rules.n_cells), 6)
        for i in dead:
            cells[i] = -1
        m_used = tuple(cells[3 * s + 1] < 0 or used[s] for s in (0, 1))
        # a dead figure means the enemy Death's power is used
        d_used = tuple(cells[3 * s + 2] < 0 or used[s] or -1 in cells[3 - 3 * s : 6 - 3 * s]
                       for s in (0, 1))
        revealed = tuple(
            c >= 0 and ((i % 3 == 1 and m_used[i // 3]) or (i % 3 == 2 and d_used[i // 3]))
            for i, c in enumerate(cells)
        )
        p = Position(rules, tuple(cells), revealed, m_used, d_used, rng.randrange(2),
                     rng.randrange(1, 3))
        if legal_actions(p):
            return p


@pytest.mark.parametrize(
    ("knobs", "dead", "used"),
    [
        ({"length": 3}, (1, 5), (True, True)),
        ({"length": 3, "adjacency": "king", "auto_death": True}, (2, 4), (False, True)),
        ({"length": 3, "win_on_arrival_only": True}, (2, 5), (True, True)),
        ({"length": 3, "allow_pass": True}, (1, 5), (True, True)),
        ({"length": 3, "no_repetition": True}, (2, 4), (True, True)),
        pytest.param({"length": 3, "allow_pass": True, "no_repetition": True, "auto_death": True},
                     (1, 4), (False, True), marks=pytest.mark.large),  # each rule above alone
        pytest.param({"length": 4}, (2, 4), (True, True), marks=pytest.mark.slow),
    ],
)
def test_table_matches_plain_minimax_on_endgames(knobs, dead, used, cache):
    rules = Rules(**knobs)
    table = solve(rules, directory=cache)
    graph = explicit_graph([_endgame(rules, s, dead, used) for s in range(3)])
    values = minimax_values(graph)
    assert {v > 0 for v in values.values()} == {True, False}  # wins and non-wins both occur
    for p, v in values.items():
        assert table.raw(p) == v, str(p)


@pytest.mark.parametrize(
    "knobs",
    [
        {"length": 3},
        {"length": 3, "allow_pass": True, "no_repetition": True},
        pytest.param({"length": 3, "adjacency": "king", "auto_death": True,
                      "no_repetition": True}, marks=pytest.mark.slow),
        pytest.param({"width": 4, "length": 3, "win_on_arrival_only": True},
                     marks=pytest.mark.large),  # no axis: every entry is two positions
        pytest.param({"width": 4, "length": 3, "win_on_arrival_only": True,
                      "allow_pass": True}, marks=pytest.mark.large),
        pytest.param({"length": 4, "allow_pass": True, "no_repetition": True},
                     marks=pytest.mark.large),
    ],
)
def test_the_folded_table_gives_every_state_its_unfolded_value(knobs, cache):
    """Solved with the index that keeps both mirror images (cache format 2) and with the
    folded one, every state of the game has one value and distance, and the two tables
    give the same published counts (exhaustive)."""
    solve_module = importlib.import_module("samarra.solve")
    rules = Rules(**knobs)
    full, folded = geometry(rules, mirror=False), geometry(rules)
    full_dist = solve_module._build(rules, full)
    # the folded solve as the library publishes it: the session's tables (the 3 x 3
    # fixtures' rules among them) are solved once and read back
    folded_table = solve(rules, directory=cache)
    seen, _, differ, _ = _folded_reads(full, folded, full_dist, folded_table.dist)
    assert differ == 0 and seen.sum() == full_dist.size
    assert (full_dist != 0).any() and (full_dist == 0).any()
    _assert_same_counts(folded_table, Table(rules, full_dist, full))


def _assert_same_counts(folded, full):
    """The published figures (positions won, lost and drawn, positions per distance) of
    the folded table ``folded`` are those of the table ``full`` that keeps both images."""
    rules = full.rules
    assert folded.dist.size < full.dist.size == n_states(rules)
    values, sizes = np.unique(full.dist, return_counts=True)
    by_distance = dict(zip(values.tolist(), sizes.tolist(), strict=True))
    assert full.positions_by_distance() == by_distance
    assert folded.positions_by_distance() == by_distance
    assert folded.counts == full.counts == {
        "win": int((full.dist > 0).sum()), "loss": int((full.dist < 0).sum()),
        "draw": int((full.dist == 0).sum())}  # fmt: skip
    assert sum(folded.counts.values()) == n_states(rules)
    assert len(by_distance) > 3  # several distances: a histogram that could differ


@pytest.mark.parametrize(
    "knobs",
    [
        # the values test checks the counts of its rules ({"length": 3} and both turn
        # rules, in make test) with the same two solves
        pytest.param({"length": 3, "allow_pass": True}, marks=pytest.mark.large),
        pytest.param({"length": 3, "no_repetition": True}, marks=pytest.mark.large),
        pytest.param({"width": 4, "length": 3, "no_repetition": True},
                     marks=pytest.mark.large),  # no axis: every entry is two positions
        pytest.param({"length": 4}, marks=pytest.mark.large),
    ],
)
def test_the_folded_table_counts_the_positions_of_the_unfolded_one(knobs):
    """The published figures (positions won, lost and drawn, positions per distance)
    do not depend on the storage: the folded table, whose entries stand for a state and
    its mirror image, gives those of the table that keeps both images (exhaustive)."""
    solve_module = importlib.import_module("samarra.solve")
    rules = Rules(**knobs)
    full_geo = geometry(rules, mirror=False)
    full = Table(rules, solve_module._build(rules, full_geo), full_geo)
    _assert_same_counts(solve(rules, cache=False), full)


@pytest.mark.parametrize("name", ["table33", "table34", "table33_optional"])
def test_table_satisfies_minimax_on_random_positions(name, request):
    """Each random position's value is the best of its actions' values (engine-made)."""
    table = request.getfixturevalue(name)
    rng = random.Random(table.rules.length)
    checked = {"win": 0, "loss": 0, "draw": 0}
    for i in range(400):
        p = random_play(table.rules, rng.randrange(0, 60), i)
        if p.is_over:
            continue
        v = table.value(p)
        checked[v.outcome] += 1
        children = table.action_values(p).values()
        scores = [c.score for c in children]
        if v.outcome == "win":
            assert v.distance == min(c.distance for c in children if c.score == 1)
        elif v.outcome == "loss":
            assert max(scores) == -1 and v.distance == max(c.distance for c in children)
        else:
            assert max(scores, default=0) == 0
    assert min(checked.values()) > 0


@pytest.mark.parametrize("name", ["table33", "table33_optional"])
def test_best_actions_keep_the_value(name, request):
    table = request.getfixturevalue(name)
    rng = random.Random(2)
    for i in range(100):
        p = random_play(table.rules, rng.randrange(0, 40), i)
        if p.is_over or not legal_actions(p):
            continue
        v = table.value(p)
        for a in table.best_actions(p):
            w = table.action_values(p)[a]
            assert (w.outcome, w.distance) == (v.outcome, v.distance)


@pytest.mark.parametrize("name", ["table33", "table33_optional"])
def test_optimal_play_wins_in_the_stated_number_of_actions(name, request):
    table = request.getfixturevalue(name)
    rules = table.rules
    decided = 0
    for black in ("SMD", "DSM", "MDS"):
        p = start_position(rules, black, "SDM")
        v = table.value(p)
        if v.outcome == "draw":
            continue
        decided += 1
        side = p.to_move if v.outcome == "win" else 1 - p.to_move
        played = 0
        while not p.is_over:
            p = apply_action(p, table.best_actions(p)[0])
            played += 1
        assert p.winner == side and played == v.distance
    assert decided > 0


def test_cache_is_reused_and_a_bad_file_is_rebuilt(tmp_path, monkeypatch):
    solve_module = importlib.import_module("samarra.solve")

    rules = Rules(length=3)
    first = solve(rules, directory=tmp_path)
    path = next(tmp_path.glob("*.npz"))
    calls = []
    real = solve_module._build
    monkeypatch.setattr(solve_module, "_build", lambda r, g: calls.append(1) or real(r, g))
    assert np.array_equal(solve(rules, directory=tmp_path).dist, first.dist) and not calls
    # corrupt: flipped bytes, a truncated file, another rules key, a wrong checksum
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    assert load_table(path, rules, first.dist.size) is None
    assert np.array_equal(solve(rules, directory=tmp_path).dist, first.dist) and len(calls) == 1
    path.write_bytes(path.read_bytes()[:1000])
    assert load_table(path, rules, first.dist.size) is None
    save_table(path, Rules(length=3, adjacency="king"), first.dist)
    assert load_table(path, rules, first.dist.size) is None
    bad = first.dist.copy()
    bad[0] += 1
    save_table(path, rules, first.dist)
    with np.load(path) as stored:
        data = dict(stored)
    data["dist"] = bad
    np.savez(path, **data)
    assert load_table(path, rules, first.dist.size) is None
    solve(rules, directory=tmp_path)
    assert len(calls) == 2


def test_two_callers_needing_one_table_solve_it_once(tmp_path, monkeypatch):
    import threading

    solve_module = importlib.import_module("samarra.solve")
    calls, real = [], solve_module._build
    monkeypatch.setattr(solve_module, "_build", lambda r, g: calls.append(1) or real(r, g))
    rules, tables = Rules(length=3), []
    threads = [threading.Thread(target=lambda: tables.append(solve(rules, directory=tmp_path)))
               for _ in range(2)]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(calls) == 1 and len(tables) == 2
    assert np.array_equal(tables[0].dist, tables[1].dist)


def test_solve_refuses_rules_it_does_not_cover():
    with pytest.raises(ValueError, match="horizon"):
        solve(Rules(length=3, horizon=10), cache=False)
    with pytest.raises(TypeError):
        solve("3x5")


def test_value_rejects_a_position_of_another_board(table33):
    with pytest.raises(ValueError, match="do not match"):
        table33.value(start_position(Rules(length=4), "SMD", "SMD"))
    with pytest.raises(ValueError, match="do not match"):
        table33.value(start_position(Rules(length=3, allow_pass=True), "SMD", "SMD"))
    won = replace(start_position(table33.rules, "SMD", "SMD"), winner=1)
    assert table33.value(won).outcome == "loss"


def test_one_thread_gives_the_same_table(table33, one_thread):
    assert np.array_equal(solve(table33.rules, cache=False).dist, table33.dist)


def test_the_pass_rule_wins_for_the_player_who_did_not_begin(table33_optional):
    rules = table33_optional.rules
    start = start_position(rules, "SMD", "DSM")
    # three full turns passed; the mover passed once already: a pass now is the fourth
    p = replace(start, to_move=1, actions_left=1, actions_played=7, pass_run=3, turn_passes=1)
    assert table33_optional.value(p).outcome == "win"
    assert table33_optional.value(p).distance == 1
    assert [a.kind for a in table33_optional.best_actions(p)] == ["pass"]
    # at the start of the turn two passes win: in at most two actions
    q = replace(p, actions_left=2, turn_passes=0)
    assert table33_optional.value(q).outcome == "win" and table33_optional.value(q).distance <= 2
    # one run fewer: the pass rule is out of reach this turn, the value is the board's
    r = replace(p, pass_run=2)
    assert table33_optional.value(r).distance != 1 or table33_optional.best_actions(r) != ["pass"]


def test_no_repetition_forbids_exactly_the_move_back(table33_optional):
    rules = table33_optional.rules
    p = apply_action(start_position(rules, "SMD", "DSM"), ("move", 0, 3))
    p = apply_action(p, ("move", 1, 5))  # White's merchant 8 -> 5: last_move set
    assert p.last_move == (4, 8)
    values = table33_optional.action_values(p)
    assert ("move", 1, 8) not in [tuple(a) for a in values]
    assert ("move", 1, 4) in [tuple(a) for a in values]
    assert table33_optional.value(p).score == max(v.score for v in values.values())


def test_solve_size_is_the_peak_memory_of_a_solve(tmp_path):
    from samarra.solve import solve_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes

    rules = Rules(length=3)
    solve(rules, cache=False)  # compiled code and geometry out of the measure
    assert_estimate(solve_size(rules, cache=False), peak_bytes(lambda: solve(rules, cache=False)))
    assert_estimate(solve_size(rules), peak_bytes(lambda: solve(rules, directory=tmp_path)))


@pytest.mark.parametrize("knobs", [dict(width=4, length=5, allow_pass=True, no_repetition=True),
                                   dict(width=4, length=6), dict(width=5, length=5)])  # fmt: skip
def test_a_board_larger_than_the_memory_is_refused_at_once(knobs, tmp_path, monkeypatch):
    from tests.tabletop.test_budget import refused_at_once

    monkeypatch.setattr("tabletop.budget.available_memory", lambda: 8e9)  # an 8 GB machine
    words = [f"{k}={v!r}" for k, v in knobs.items()]
    text = refused_at_once(lambda: solve(Rules(**knobs), directory=tmp_path), *words)
    assert text.startswith("samarra.solve needs about") and " GB (" in text
    assert not list(tmp_path.iterdir())


def test_the_solve_in_small_ranges_gives_the_same_table(monkeypatch):
    solve_module = importlib.import_module("samarra.solve")
    rules = Rules(length=3, allow_pass=True)
    whole = solve(rules, cache=False)

    def ranges(total, first=1):  # in chunks of ``CHUNK`` states
        return [(lo, min(total, lo + 7)) for lo in range(0, total, 7)]

    monkeypatch.setattr(solve_module, "Chunks", ranges)
    assert solve(rules, cache=False) == whole
