"""Numba kernels of Ce soir, à Samarra. Private: no validation, deterministic given inputs.

A *state* is a position seen by the side to move ("me"), with the board turned so
that my city is row 0 and the enemy city row ``length - 1`` (Black's view is the
board itself; White's is the board with its rows reversed and the sides swapped).
It holds ``cells[6]`` (my servant, merchant, Death, then the enemy's; -1 dead),
``status[4]`` (my merchant, my Death, the enemy merchant, the enemy Death: 0 alive
with its power unused, 1 alive with its power used, 2 dead) and the actions left
``a`` (1 or 2). Revealed identities are not part of a state: in a
perfect-information solve they matter only to the merchant's power, and which
figures are hidden follows from the four statuses (see ``samarra.solve``).

Index: the states are cut into blocks by ``(a, status)``; inside a block the live
figures' cells, in figure order, form a partial permutation ranked in the
factorial number system. ``offset[(a - 1) * 81 + code]`` is a block's first index
(``code = sum(status[i] * 3**i)``, -1 for an impossible status: two dead figures on
one side, or a dead figure while the enemy Death's power is unused).

The optional rules add a *tag* to a state, the part of the turn's history the rules
look at (``layout`` holds where each tag lives, see ``samarra.solve.geometry``):

* at a turn's start (``a == 2``) the tag is the run of full turns passed in a row
  before it (``allow_pass``; else always 0);
* mid-turn (``a == 1``) the tag is ``FREE`` (0), or ``undo0 + 4 * f + k``
  (``no_repetition``: my figure ``f`` arrived by the turn's first action from
  ``steps[cells[f], k]`` and may not go back), or ``pass0 + r`` (``allow_pass``: the
  turn's first action was a pass, after ``r`` full turns passed; the opening single
  action is such a state with ``r = 0``, since passing it passes a full turn).

The index holds one copy of the plain blocks per tag: ``layout = [tags at a == 1,
tags at a == 2, states per tag at a == 1, states per tag at a == 2, undo0, pass0]``
(``undo0``/``pass0`` -1 when the rule is off). An undo tag naming a dead figure or a
cell off the board or occupied is no state of the game (*infeasible*): such entries
keep the value 0 and are never visited.
"""

import numpy as np
from numba import prange

from samarra.position import PASS_LIMIT
from tabletop.jit import jit, parallel_jit

#: Result codes of an action for the side that plays it.
CONTINUE, WIN, LOSS = 0, 1, -1
MAX_ACTIONS = 32
MAX_PREDECESSORS = 160 * 20  # plain predecessors (at most 160) times the tags
CHUNK = 4096
FREE = 0


@jit
def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@jit
def encode(cells, status, a, tag, n, offset, layout):
    """Index of a state (see the module docstring)."""
    code = status[0] + 3 * status[1] + 9 * status[2] + 27 * status[3]
    rank = 0
    k = 0
    for i in range(6):
        c = cells[i]
        if c < 0:
            continue
        r = c
        for j in range(i):
            if 0 <= cells[j] < c:
                r -= 1
        rank = rank * (n - k) + r
        k += 1
    plain = offset[(a - 1) * 81 + code] + rank
    if a == 1:
        return plain + tag * layout[2]
    return plain + (layout[0] - 1) * layout[2] + tag * layout[3]


@jit
def tag_stride(a, layout):
    """Distance in the index between the same position under consecutive tags."""
    return layout[2] if a == 1 else layout[3]


@jit
def decode(index, n, block_start, block_a, block_code, layout, cells, status):
    """Fill ``cells`` and ``status`` of state ``index``; return its ``(a, tag)``."""
    s1 = layout[2]
    if index < layout[0] * s1:
        tag = index // s1
        index -= tag * s1
    else:
        rest = index - layout[0] * s1
        tag = rest // layout[3]
        index = s1 + rest - tag * layout[3]
    b = np.searchsorted(block_start, index, side="right") - 1
    code = block_code[b]
    for i in range(4):
        status[i] = code % 3
        code //= 3
    dead_mask = 0
    if status[0] == 2:
        dead_mask |= 2
    if status[1] == 2:
        dead_mask |= 4
    if status[2] == 2:
        dead_mask |= 16
    if status[3] == 2:
        dead_mask |= 32
    k = 0
    for i in range(6):
        if not (dead_mask >> i) & 1:
            k += 1
    rank = index - block_start[b]
    # digits from the least significant: the last live figure's radix is n - k + 1
    j = k - 1
    for i in range(5, -1, -1):
        if (dead_mask >> i) & 1:
            cells[i] = -1
            continue
        cells[i] = rank % (n - j)
        rank //= n - j
        j -= 1
    used = np.int64(0)
    for i in range(6):
        r = cells[i]
        if r < 0:
            continue
        for c in range(n):
            if not (used >> c) & 1:
                if r == 0:
                    cells[i] = c
                    used |= np.int64(1) << c
                    break
                r -= 1
    return block_a[b], tag


@jit
def flip(cells, status, width, length, out_cells, out_status):
    """The same position seen by the other side (sides swapped, rows reversed)."""
    for i in range(6):
        c = cells[(i + 3) % 6]
        if c < 0:
            out_cells[i] = -1
        else:
            out_cells[i] = (length - 1 - c // width) * width + c % width
    for i in range(4):
        out_status[i] = status[(i + 2) % 4]


@jit
def _occupied(cells, c):
    for i in range(6):  # noqa: SIM110 (a plain loop: numba compiles it without a generator)
        if cells[i] == c:
            return True
    return False


@jit
def _arrival(cells, n, width):
    """My servant stands in the enemy city and the enemy Death does not."""
    top = n - width
    return cells[0] >= top and (cells[5] < 0 or cells[5] < top)


@jit
def feasible(cells, a, tag, steps, layout):
    """False for an undo tag naming no possible way back (see the module docstring)."""
    u = tag - layout[4]
    if a == 2 or layout[4] < 0 or not 0 <= u < 12:
        return True
    c = cells[u // 4]
    if c < 0:
        return False
    back = steps[c, u % 4]
    return back >= 0 and not _occupied(cells, back)


@jit
def _slot(steps, cell, target):
    """``k`` with ``steps[cell, k] == target``."""
    for k in range(4):
        if steps[cell, k] == target:
            return k
    return -1


@jit
def _finish(cells, status, a, tag, n, width, length, offset, layout, fc, fs):
    """Index of the next state: same mover mid-turn (``a == 2``, tag ``tag``), or the
    other side's turn start (``a == 1``, run ``tag``)."""
    if a == 2:
        return encode(cells, status, 1, tag, n, offset, layout)
    flip(cells, status, width, length, fc, fs)
    return encode(fc, fs, 2, tag, n, offset, layout)


@jit
def actions(cells, status, a, tag, n, width, length, steps, adj, auto_death, arrival_only,
            offset, layout, out_code, out_next, work):  # fmt: skip
    """The actions of the side to move, one record each: ``out_code`` (CONTINUE, WIN
    or LOSS for the side playing it) and ``out_next`` (the next state when CONTINUE).

    The merchant's power is one record whatever its target (the state it leads to
    does not depend on it). Returns the number of records.
    """
    top = n - width
    nc = work[0:6]
    ns = work[6:10]
    fc = work[10:16]
    fs = work[16:20]
    undo0 = layout[4]
    pass0 = layout[5]
    forbidden = tag - undo0 if a == 1 and undo0 >= 0 else -1
    m = 0
    for f in range(3):
        origin = cells[f]
        if origin < 0:
            continue
        for s in range(4):
            if 4 * f + s == forbidden:
                continue  # no_repetition: the turn would end where it began
            dest = steps[origin, s]
            if dest < 0 or _occupied(cells, dest):
                continue
            nc[:] = cells
            ns[:] = status
            nc[f] = dest
            entered = dest >= top and origin < top
            code = CONTINUE
            if auto_death and entered and status[3] == 0 and cells[5] >= top:
                if f == 0:
                    code = LOSS
                else:
                    nc[f] = -1
                    ns[f - 1] = 2
                    ns[3] = 1
            elif _arrival(nc, n, width) and (not arrival_only or (f == 0 and entered)):
                code = WIN
            out_code[m] = code
            if code == CONTINUE:
                next_tag = FREE
                if a == 2 and undo0 >= 0 and nc[f] >= 0:
                    next_tag = undo0 + 4 * f + _slot(steps, dest, origin)
                out_next[m] = _finish(nc, ns, a, next_tag, n, width, length, offset, layout,
                                      fc, fs)  # fmt: skip
            m += 1
    if status[0] == 0:
        hidden_near = False
        for g in range(3):
            c = cells[3 + g]
            if c >= 0 and adj[cells[1], c] and (g == 0 or status[1 + g] == 0):
                hidden_near = True
        if hidden_near:
            ns[:] = status
            ns[0] = 1
            if _arrival(cells, n, width) and not arrival_only:
                out_code[m] = WIN
            else:
                out_code[m] = CONTINUE
                out_next[m] = _finish(cells, ns, a, FREE, n, width, length, offset, layout,
                                      fc, fs)  # fmt: skip
            m += 1
    if status[1] == 0:
        for g in range(3):
            c = cells[3 + g]
            if c < 0 or not adj[cells[2], c]:
                continue
            if g == 0:
                out_code[m] = WIN
                m += 1
                continue
            nc[:] = cells
            ns[:] = status
            nc[3 + g] = -1
            ns[1 + g] = 2
            ns[1] = 1
            if _arrival(nc, n, width) and not arrival_only:
                out_code[m] = WIN
            else:
                out_code[m] = CONTINUE
                out_next[m] = _finish(nc, ns, a, FREE, n, width, length, offset, layout,
                                      fc, fs)  # fmt: skip
            m += 1
    if pass0 >= 0:  # allow_pass: nothing moves, no arrival check
        out_code[m] = CONTINUE
        if a == 2:
            out_next[m] = encode(cells, status, 1, pass0 + tag, n, offset, layout)
        else:
            run = tag - pass0 + 1 if tag >= pass0 else 0
            if run >= PASS_LIMIT:
                out_code[m] = WIN  # the opponent began the passing
            else:
                out_next[m] = _finish(cells, status, 1, run, n, width, length, offset, layout,
                                      fc, fs)  # fmt: skip
        m += 1
    return m


@jit
def _possible(status, a, offset):
    return offset[(a - 1) * 81 + status[0] + 3 * status[1] + 9 * status[2] + 27 * status[3]] >= 0


@jit
def _unique(values, m):
    """Sort ``values[:m]`` in place (insertion sort: m is small) and return the number
    of distinct values, moved to the front."""
    for i in range(1, m):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v
    if m == 0:
        return 0
    k = 1
    for i in range(1, m):
        if values[i] != values[k - 1]:
            values[k] = values[i]
            k += 1
    return k


@jit
def _emit(pc, ps, pa, skip, tags, n, steps, offset, layout, out, m):
    """Write the predecessor ``(pc, ps)`` at ``pa`` under its tags ``0 .. tags - 1``
    (all runs at a turn's start; the feasible mid-turn tags but ``skip``)."""
    base = encode(pc, ps, pa, 0, n, offset, layout)
    stride = tag_stride(pa, layout)
    for t in range(tags):
        if t != skip and (pa == 2 or feasible(pc, 1, t, steps, layout)):
            out[m] = base + t * stride
            m += 1
    return m


@jit
def predecessors(cells, status, a, tag, n, width, length, steps, adj, auto_death,
                 arrival_only, offset, layout, out, work):  # fmt: skip
    """The distinct states with an action (not a win) leading to this state; see
    ``actions``. Returns their number, written to ``out`` (unsorted).

    The side that acted is the side to move here if ``a == 1`` (same turn), else
    the other side.
    """
    top = n - width
    undo0 = layout[4]
    pass0 = layout[5]
    xc = work[20:26]
    xs = work[26:30]
    if a == 1:
        xc[:] = cells
        xs[:] = status
        pa = 2
        if pass0 >= 0 and tag >= pass0:  # the turn began with a pass
            out[0] = encode(xc, xs, 2, tag - pass0, n, offset, layout)
            return 1
    else:
        flip(cells, status, width, length, xc, xs)
        pa = 1
        if tag > 0:  # a run of passed turns: this one was passed too
            out[0] = encode(xc, xs, 1, pass0 + tag - 1, n, offset, layout)
            return 1
    # now "me" acted from state (.., pa) to (xc, xs)
    n_tags = layout[pa - 1]
    m = 0
    if pa == 1 and pass0 >= 0:  # a pass after a first action that was not one
        m = _emit(xc, xs, 1, -1, pass0, n, steps, offset, layout, out, m)
    if _arrival(xc, n, width) and not arrival_only:
        return m  # any other action of mine reaching this would have won
    pc = work[30:36]
    ps = work[36:40]
    pc[:] = xc
    ps[:] = xs
    # no_repetition, mid-turn: an undo tag names the one move that led here, and a
    # free tag follows no move of a figure that lived
    moves = pa == 1 or undo0 < 0 or tag >= undo0
    only = tag - undo0 if pa == 2 and undo0 >= 0 and tag >= undo0 else -1
    for f in range(3):
        dest = xc[f]
        if dest < 0 or not moves:
            continue
        for s in range(4):
            origin = steps[dest, s]
            if origin < 0 or _occupied(xc, origin):
                continue
            if only >= 0 and 4 * f + s != only:
                continue
            entered = dest >= top and origin < top
            if auto_death and entered and xs[3] == 0 and xc[5] >= top:
                continue  # it would have died on the way in
            if arrival_only and f == 0 and entered and _arrival(xc, n, width):
                continue  # it would have won
            pc[:] = xc
            pc[f] = origin
            skip = -1
            if pa == 1 and undo0 >= 0:
                skip = undo0 + 4 * f + _slot(steps, origin, dest)
            m = _emit(pc, xs, pa, skip, n_tags, n, steps, offset, layout, out, m)
    if only >= 0:
        return m
    if auto_death and xs[3] == 1 and xc[5] >= top:
        for f in range(1, 3):
            if xs[f - 1] != 2:
                continue
            for dest in range(top, n):
                origin = dest - width
                if _occupied(xc, dest) or _occupied(xc, origin):
                    continue
                for old in range(2):
                    pc[:] = xc
                    ps[:] = xs
                    pc[f] = origin
                    ps[f - 1] = old
                    ps[3] = 0
                    if _possible(ps, pa, offset):
                        skip = -1
                        if pa == 1 and undo0 >= 0:
                            skip = undo0 + 4 * f + _slot(steps, origin, dest)
                        m = _emit(pc, ps, pa, skip, n_tags, n, steps, offset, layout, out, m)
    if xs[0] == 1:
        hidden_near = False
        for g in range(3):
            c = xc[3 + g]
            if c >= 0 and adj[xc[1], c] and (g == 0 or xs[1 + g] == 0):
                hidden_near = True
        if hidden_near:
            ps[:] = xs
            ps[0] = 0
            m = _emit(xc, ps, pa, -1, n_tags, n, steps, offset, layout, out, m)
    if xs[1] == 1:
        for g in range(1, 3):
            if xs[1 + g] != 2:
                continue
            for c in range(n):
                if not adj[xc[2], c] or _occupied(xc, c):
                    continue
                for old in range(2):
                    pc[:] = xc
                    ps[:] = xs
                    pc[3 + g] = c
                    ps[1 + g] = old
                    ps[1] = 0
                    if _possible(ps, pa, offset):
                        m = _emit(pc, ps, pa, -1, n_tags, n, steps, offset, layout, out, m)
    return m


@parallel_jit
def count_kernel(lo, hi, n, width, length, steps, adj, auto_death, arrival_only,
                 offset, layout, block_start, block_a, block_code, dist, count):  # fmt: skip
    """Seed the retrograde solve on the states ``lo..hi - 1``: wins and losses in one
    action, and for every other state the number of distinct next states (0 for an
    infeasible entry). Each state is independent: any split of the index into
    ranges gives the same arrays."""
    n_chunks = (hi - lo + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        for s in range(lo + chunk * CHUNK, min(hi, lo + (chunk + 1) * CHUNK)):
            a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
            if not feasible(cells, a, tag, steps, layout):
                count[s] = 0
                continue
            m = actions(cells, status, a, tag, n, width, length, steps, adj, auto_death,
                        arrival_only, offset, layout, codes, nexts, work)
            win = False
            loss = False
            k = 0
            for i in range(m):
                if codes[i] == WIN:
                    win = True
                elif codes[i] == LOSS:
                    loss = True
                else:
                    nexts[k] = nexts[i]
                    k += 1
            k = _unique(nexts, k)
            if win:
                dist[s] = 1
            elif k == 0 and loss:
                dist[s] = -1
            count[s] = k


@jit
def retrograde_layer(d, lo, hi, n, width, length, steps, adj, auto_death, arrival_only,
                     offset, layout, block_start, block_a, block_code, dist,
                     count):  # fmt: skip
    """Layer ``d`` of the layered retrograde analysis (see ``samarra.solve``) on the
    states ``lo..hi - 1``: each state decided in ``d`` actions gives its predecessors
    their value in ``d + 1`` or a decremented counter. Returns whether the range held
    a state of layer ``d``.

    Running a layer as consecutive ranges, in index order, does exactly what one
    pass over the whole index does: a range only writes ``d + 1`` layer entries and
    counters, which no later range of the same layer reads as layer ``d``.
    """
    cells = np.empty(6, np.int64)
    status = np.empty(4, np.int64)
    preds = np.empty(MAX_PREDECESSORS, np.int64)
    work = np.empty(64, np.int64)
    found = False
    for s in range(lo, hi):
        v = dist[s]
        if v != d and v != -d:
            continue
        found = True
        a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
        m = predecessors(cells, status, a, tag, n, width, length, steps, adj,
                         auto_death, arrival_only, offset, layout, preds, work)
        good = (v > 0) == (a == 1)  # the edge wins for the predecessor's mover
        for i in range(m):
            p = preds[i]
            if dist[p] != 0:
                continue
            if good:
                dist[p] = d + 1
            else:
                count[p] -= 1
                if count[p] == 0:
                    dist[p] = -(d + 1)
    return found


@jit
def tie_break_value(cells, n, width, length):
    """The seed's tie-break for the side to move: +1 if its servant has fewer rows to go."""
    mine = length - 1 - cells[0] // width
    theirs = cells[3] // width
    if mine < theirs:
        return 1
    if mine > theirs:
        return -1
    return 0


@parallel_jit
def horizon_start(lo, hi, n, width, length, block_start, block_a, block_code, layout, prev):
    """``prev[s]``: the tie-break value of the states ``lo..hi - 1`` (no action left)."""
    n_chunks = (hi - lo + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        for s in range(lo + chunk * CHUNK, min(hi, lo + (chunk + 1) * CHUNK)):
            decode(s, n, block_start, block_a, block_code, layout, cells, status)
            prev[s] = tie_break_value(cells, n, width, length)


@jit
def _forced(d, t):
    """+1 (-1) when the side to move forces a win (a loss) within ``t`` actions, from the
    table's distance ``d``; else 0."""
    if 0 < d <= t:
        return 1
    if 0 < -d <= t:
        return -1
    return 0


@jit
def _best_action(a, m, has_win, codes, nexts, cells, n, width, length, prev, states):
    """The value (+1, 0, -1) of a state whose ``m`` actions are ``codes``/``nexts``, from
    its children's values ``prev`` with one action fewer left: read at the child's index,
    or, when ``states`` is not empty, at the child's position in ``states`` (sorted)."""
    if m == 0:
        return tie_break_value(cells, n, width, length)
    if has_win:
        return 1
    best = -1
    for j in range(m):
        if codes[j] == CONTINUE:
            c = nexts[j] if states.size == 0 else np.searchsorted(states, nexts[j])
            v = prev[c] if a == 2 else -prev[c]
            if v > best:
                best = v
    return best


@parallel_jit
def horizon_step(t, lo, hi, n, width, length, steps, adj, auto_death, arrival_only,
                 offset, layout, block_start, block_a, block_code, dist, prev,
                 cur):  # fmt: skip
    """One step of the adjudicated game's backward induction (see ``samarra.horizon``)
    on the states ``lo..hi - 1``: ``cur[s]``, the value (+1, 0, -1) for the side to
    move with ``t`` actions left, from ``prev`` (``t - 1`` left). Work arrays: ``prev``
    and ``cur`` are ``int8`` of shape ``(n_states,)``; only ``cur[lo:hi]`` is written.
    """
    n_chunks = (hi - lo + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        by_index = np.empty(0, np.int64)  # children are read at their own index
        for s in range(lo + chunk * CHUNK, min(hi, lo + (chunk + 1) * CHUNK)):
            forced = _forced(dist[s], t)
            if forced != 0:
                cur[s] = forced
                continue
            a, m, has_win = _layer_moves(s, n, width, length, steps, adj, auto_death,
                                         arrival_only, offset, layout, block_start, block_a,
                                         block_code, cells, status, codes, nexts, work)  # fmt: skip
            cur[s] = _best_action(a, m, has_win, codes, nexts, cells, n, width, length, prev,
                                  by_index)  # fmt: skip


@parallel_jit
def infeasible_count(n, steps, layout, block_start, block_a, block_code):
    """The number of infeasible entries of the index (undo tags with no way back)."""
    if layout[4] < 0:
        return 0
    lo = layout[4] * layout[2]
    size = 12 * layout[2]
    n_chunks = (size + CHUNK - 1) // CHUNK
    total = 0
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        bad = 0
        for s in range(lo + chunk * CHUNK, lo + min(size, (chunk + 1) * CHUNK)):
            a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
            if not feasible(cells, a, tag, steps, layout):
                bad += 1
        total += bad
    return total


@jit
def _layer_moves(s, n, width, length, steps, adj, auto_death, arrival_only, offset, layout,
                 block_start, block_a, block_code, cells, status, codes, nexts, work):  # fmt: skip
    """Decode state ``s`` and list its actions: returns ``(a, m, has_win)``."""
    a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
    m = actions(cells, status, a, tag, n, width, length, steps, adj, auto_death, arrival_only,
                offset, layout, codes, nexts, work)  # fmt: skip
    has_win = False
    for i in range(m):
        if codes[i] == WIN:
            has_win = True
    return a, m, has_win


@parallel_jit
def horizon_fanout(states, fill, first, n, width, length, steps, adj, auto_death,
                   arrival_only, offset, layout, block_start, block_a, block_code, dist,
                   out):  # fmt: skip
    """The states one action after ``states`` whose values the reachable induction needs
    (see ``samarra.horizon``). A state needs none of its children's values when one
    action settles it whatever is left: a forced result in one action (``dist`` of
    +-1), an action that wins, or no legal action (the tie-break). With ``fill`` False,
    ``out[i]`` receives the count of state ``i``'s children; with ``fill`` True they are
    written to ``out[first[i]:first[i + 1]]``.
    """
    for i in prange(states.size):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        s = states[i]
        k = 0
        if dist[s] != 1 and dist[s] != -1:
            _, m, has_win = _layer_moves(s, n, width, length, steps, adj, auto_death,
                                         arrival_only, offset, layout, block_start, block_a,
                                         block_code, cells, status, codes, nexts, work)  # fmt: skip
            if not has_win:
                for j in range(m):
                    if codes[j] == CONTINUE:
                        if fill:
                            out[first[i] + k] = nexts[j]
                        k += 1
        if not fill:
            out[i] = k


@parallel_jit
def reach_start(states, n, width, length, block_start, block_a, block_code, layout, prev):
    """``prev[i]``: the tie-break value of ``states[i]`` (no action left)."""
    for i in prange(states.size):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        decode(states[i], n, block_start, block_a, block_code, layout, cells, status)
        prev[i] = tie_break_value(cells, n, width, length)


@parallel_jit
def reach_step(t, last, states, depth, n, width, length, steps, adj, auto_death,
               arrival_only, offset, layout, block_start, block_a, block_code, dist, prev,
               cur):  # fmt: skip
    """:func:`horizon_step` over the reachable states only: ``cur[i]``, the value of
    ``states[i]`` (sorted) with ``t`` actions left, for the states first reached after
    at most ``last`` actions (``depth[i] <= last``), from ``prev`` (``t - 1`` left;
    a child's value is found by binary search in ``states``). The others keep ``cur``
    as it is: their value with ``t`` left is never needed.
    """
    for i in prange(states.size):
        if depth[i] > last:
            continue
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        s = states[i]
        forced = _forced(dist[s], t)
        if forced != 0:
            cur[i] = forced
            continue
        a, m, has_win = _layer_moves(s, n, width, length, steps, adj, auto_death, arrival_only,
                                     offset, layout, block_start, block_a, block_code, cells,
                                     status, codes, nexts, work)  # fmt: skip
        cur[i] = _best_action(a, m, has_win, codes, nexts, cells, n, width, length, prev,
                              states)  # fmt: skip
