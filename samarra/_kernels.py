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
"""

import numpy as np
from numba import prange

from tabletop.jit import jit, parallel_jit

#: Result codes of an action for the side that plays it.
CONTINUE, WIN, LOSS = 0, 1, -1
MAX_ACTIONS = 32
MAX_PREDECESSORS = 160
CHUNK = 4096


@jit
def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@jit
def encode(cells, status, a, n, offset):
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
    return offset[(a - 1) * 81 + code] + rank


@jit
def decode(index, n, block_start, block_a, block_code, cells, status):
    """Fill ``cells`` and ``status`` of state ``index``; return its ``a``."""
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
    return block_a[b]


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
def _finish(cells, status, a, n, width, length, offset, fc, fs):
    if a == 2:
        return encode(cells, status, 1, n, offset)
    flip(cells, status, width, length, fc, fs)
    return encode(fc, fs, 2, n, offset)


@jit
def actions(cells, status, a, n, width, length, steps, adj, auto_death, arrival_only,
            offset, out_code, out_next, work):  # fmt: skip
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
    m = 0
    for f in range(3):
        origin = cells[f]
        if origin < 0:
            continue
        for s in range(4):
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
                out_next[m] = _finish(nc, ns, a, n, width, length, offset, fc, fs)
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
                out_next[m] = _finish(cells, ns, a, n, width, length, offset, fc, fs)
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
                out_next[m] = _finish(nc, ns, a, n, width, length, offset, fc, fs)
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
def predecessors(cells, status, a, n, width, length, steps, adj, auto_death, arrival_only,
                 offset, out, work):  # fmt: skip
    """The distinct states with an action (not a win) leading to this state; see
    ``actions``. Returns their number; they are written, sorted, to ``out``.

    The side that acted is the side to move here if ``a == 1`` (same turn), else
    the other side.
    """
    top = n - width
    xc = work[20:26]
    xs = work[26:30]
    if a == 1:
        xc[:] = cells
        xs[:] = status
        pa = 2
    else:
        flip(cells, status, width, length, xc, xs)
        pa = 1
    # now "me" acted from state (.., pa) to (xc, xs)
    if _arrival(xc, n, width) and not arrival_only:
        return 0  # any action of mine reaching this would have won
    pc = work[30:36]
    ps = work[36:40]
    pc[:] = xc
    ps[:] = xs
    m = 0
    for f in range(3):
        dest = xc[f]
        if dest < 0:
            continue
        for s in range(4):
            origin = steps[dest, s]
            if origin < 0 or _occupied(xc, origin):
                continue
            entered = dest >= top and origin < top
            if auto_death and entered and xs[3] == 0 and xc[5] >= top:
                continue  # it would have died on the way in
            if arrival_only and f == 0 and entered and _arrival(xc, n, width):
                continue  # it would have won
            pc[:] = xc
            pc[f] = origin
            out[m] = encode(pc, xs, pa, n, offset)
            m += 1
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
                        out[m] = encode(pc, ps, pa, n, offset)
                        m += 1
    if xs[0] == 1:
        hidden_near = False
        for g in range(3):
            c = xc[3 + g]
            if c >= 0 and adj[xc[1], c] and (g == 0 or xs[1 + g] == 0):
                hidden_near = True
        if hidden_near:
            ps[:] = xs
            ps[0] = 0
            out[m] = encode(xc, ps, pa, n, offset)
            m += 1
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
                        out[m] = encode(pc, ps, pa, n, offset)
                        m += 1
    return _unique(out, m)


@parallel_jit
def count_kernel(n_states, n, width, length, steps, adj, auto_death, arrival_only,
                 offset, block_start, block_a, block_code, dist, count):  # fmt: skip
    """Seed the retrograde solve: wins and losses in one action, and for every other
    state the number of distinct next states."""
    n_chunks = (n_states + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        for s in range(chunk * CHUNK, min(n_states, (chunk + 1) * CHUNK)):
            a = decode(s, n, block_start, block_a, block_code, cells, status)
            m = actions(cells, status, a, n, width, length, steps, adj, auto_death,
                        arrival_only, offset, codes, nexts, work)
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
def retrograde_kernel(n_states, n, width, length, steps, adj, auto_death, arrival_only,
                      offset, block_start, block_a, block_code, dist, count):  # fmt: skip
    """Layered retrograde analysis (see ``samarra.solve``); returns the last layer."""
    cells = np.empty(6, np.int64)
    status = np.empty(4, np.int64)
    preds = np.empty(MAX_PREDECESSORS, np.int64)
    work = np.empty(64, np.int64)
    d = 1
    while True:
        found = False
        for s in range(n_states):
            v = dist[s]
            if v != d and v != -d:
                continue
            found = True
            a = decode(s, n, block_start, block_a, block_code, cells, status)
            m = predecessors(cells, status, a, n, width, length, steps, adj, auto_death,
                             arrival_only, offset, preds, work)
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
        if not found:
            return d - 1
        d += 1


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
def horizon_kernel(t_max, n_states, n, width, length, steps, adj, auto_death, arrival_only,
                   offset, block_start, block_a, block_code, dist, targets):  # fmt: skip
    """Backward induction of the adjudicated game (see ``samarra.horizon``).

    Returns ``out[t, i]``: the value (+1, 0, -1) of state ``targets[i]`` for its side
    to move when ``t`` actions remain before the tie-break.
    """
    prev = np.empty(n_states, np.int8)
    cur = np.empty(n_states, np.int8)
    out = np.empty((t_max + 1, targets.size), np.int8)
    n_chunks = (n_states + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        for s in range(chunk * CHUNK, min(n_states, (chunk + 1) * CHUNK)):
            decode(s, n, block_start, block_a, block_code, cells, status)
            prev[s] = tie_break_value(cells, n, width, length)
    for i in range(targets.size):
        out[0, i] = prev[targets[i]]
    for t in range(1, t_max + 1):
        for chunk in prange(n_chunks):
            cells = np.empty(6, np.int64)
            status = np.empty(4, np.int64)
            codes = np.empty(MAX_ACTIONS, np.int64)
            nexts = np.empty(MAX_ACTIONS, np.int64)
            work = np.empty(64, np.int64)
            for s in range(chunk * CHUNK, min(n_states, (chunk + 1) * CHUNK)):
                d = dist[s]
                if 0 < d <= t:
                    cur[s] = 1
                    continue
                if 0 < -d <= t:
                    cur[s] = -1
                    continue
                a = decode(s, n, block_start, block_a, block_code, cells, status)
                m = actions(cells, status, a, n, width, length, steps, adj, auto_death,
                            arrival_only, offset, codes, nexts, work)
                if m == 0:
                    cur[s] = tie_break_value(cells, n, width, length)
                    continue
                best = -1
                for i in range(m):
                    if codes[i] == WIN:
                        best = 1
                        break
                    if codes[i] == CONTINUE:
                        v = prev[nexts[i]] if a == 2 else -prev[nexts[i]]
                        if v > best:
                            best = v
                cur[s] = best
        for i in range(targets.size):
            out[t, i] = cur[targets[i]]
        prev, cur = cur, prev
    return out
