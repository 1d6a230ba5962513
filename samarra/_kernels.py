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

The index has three sections (``layout``, see ``samarra.solve.geometry``, holds
where each lives under the names ``L_*`` below):

* the mid-turn states with the free tag or a pass tag: one copy of the plain
  ``a == 1`` blocks per such tag (``FREE`` first, then ``pass0 + r``);
* the mid-turn states with an undo tag, numbered without the undo tags that name no
  possible way back (a dead figure, or a cell off the board or occupied): inside a
  block of ``(status, f)`` the entry is the directed edge ``e`` (``f``'s cell and the
  empty cell it came from, a step apart; ``edge``: ``E`` of them on the board), then
  the other live figures' cells, in figure order, ranked as a partial permutation of
  the ``n - 2`` cells left. Every entry of the index is a state of the game;
* the turn-start states (``a == 2``): one copy of the plain ``a == 2`` blocks per
  run of passed turns.

The previous layout held twelve copies of the plain ``a == 1`` blocks for the undo
tags and let the infeasible ones stay 0: 46% of the index under ``no_repetition``
on 3 x 5.

**Mirror images.** The board's left-right reflection (column ``x`` to
``width - 1 - x``) maps a state to one with the same value and distance: the rules
read rows (the cities, the tie-break) and adjacency, never a column. The index
keeps one of the two: a state is stored as itself when the first live figure, in
figure order, off the mirror axis stands left of it (or every live figure is on the
axis), else as its mirror image (:func:`mirrored`); an undo tag's state first
follows its edge, the moves being paired with their mirror images (``edge_kind``:
the second of a pair is stored as the first). To stay a dense rank, a plain block
holds the states whose servant stands left of the axis or on it (``H`` of the ``n``
cells: the top digit of the rank, ``half_digit``), and the undo section the edges
that are first of their pair or their own mirror (``E_C``): on an odd width the
entries whose servant (or edge) is on the axis hold both images of a state, and
the one stored as its mirror is an idle copy (:func:`mirror_fill` gives it its
value once the solve is over). ``encode`` reads every state at its stored image, so
the actions and the predecessors the solve follows are between stored images. On
3 x 5 a plain block keeps 10 of 15 servant cells and the undo section 26 of 44
edges: 63.8% of the entries with both optional rules; on an even width half.

**Solving array.** The solve keeps one ``int16`` per state: ``+d`` (won in ``d``),
``-d`` (lost in ``d``), or, while a state is open, ``OPEN + k`` with ``k`` the number
of its next states not yet decided against its mover (at most ``MAX_ACTIONS``); at
the end the open states become draws (0).
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
#: An open state's entry while solving: ``OPEN + k``, ``k`` its undecided next states.
OPEN = -32768
OPEN_TOP = OPEN + MAX_ACTIONS

# ``layout``: the tags (``L_TAGS1``: at ``a == 1``, ``L_TAGS2``: at ``a == 2``), the plain
# states of each ``a`` (``L_PLAIN1``, ``L_PLAIN2``), the first undo and pass tags (-1:
# rule off), the copies of the plain ``a == 1`` blocks (free and pass tags), the first
# index of the undo and of the ``a == 2`` sections, the directed edges ``E``, the cells
# ``H`` a servant of the index may stand on (``L_HALF``) and the edges ``E_C`` of the undo
# section (``L_CANON_EDGES``); then the tables: ``edge_id`` (``n * 4``: the edge of a
# figure on cell ``c`` that came by step ``k``, -1 off the board), ``edge_cell``,
# ``edge_origin``, ``edge_slot`` (``E`` each), ``undo_start`` (243: the first index of the
# ``(status code, f)`` undo blocks), ``mirror_cell`` (``n``: the cell seen in the mirror),
# ``side`` (``n``: -1 left of the axis, 0 on it, +1 right), ``half_digit`` (``n``: a
# servant's cell as the top digit of a plain rank, -1 where none stands), ``half_cell``
# (``H``: back), ``edge_kind`` and ``edge_mirror`` (``E``: see ``EDGE_FIRST``..).
L_TAGS1, L_TAGS2, L_PLAIN1, L_PLAIN2, L_UNDO0, L_PASS0 = 0, 1, 2, 3, 4, 5
L_COPIES1, L_UNDO_START, L_A2_START, L_EDGES, L_HALF, L_CANON_EDGES = 6, 7, 8, 9, 10, 11
L_EDGE_ID, L_EDGE_CELL, L_EDGE_ORIGIN, L_EDGE_SLOT, L_UNDO_BLOCK = 12, 13, 14, 15, 16
L_MIRROR_CELL, L_SIDE, L_HALF_DIGIT, L_HALF_CELL, L_EDGE_KIND, L_EDGE_MIRROR = (
    17, 18, 19, 20, 21, 22)
L_HEADER = 24
#: ``edge_kind``: the first edge of a mirror pair (kept), an edge its own mirror (a move
#: along the axis: kept), the second of a pair (its states are stored as their mirror).
EDGE_FIRST, EDGE_SELF, EDGE_SECOND = 0, 1, 2


@jit
def falling(n, k):
    out = 1
    for i in range(k):
        out *= n - i
    return out


@jit
def _live_mask(status):
    """Bit ``i`` set for each dead figure ``i`` (from the four statuses)."""
    dead_mask = 0
    if status[0] == 2:
        dead_mask |= 2
    if status[1] == 2:
        dead_mask |= 4
    if status[2] == 2:
        dead_mask |= 16
    if status[3] == 2:
        dead_mask |= 32
    return dead_mask


@jit
def _n_live(dead_mask):
    """Number of live figures (of the six) given the bit mask of the dead ones."""
    k = 0
    for i in range(6):
        if not (dead_mask >> i) & 1:
            k += 1
    return k


@jit
def _seen(cells, i, mir, layout):
    """Cell of figure ``i``, in the mirror when ``mir`` (-1 dead)."""
    c = cells[i]
    if mir and c >= 0:
        return layout[layout[L_MIRROR_CELL] + c]
    return c


@jit
def mirrored(cells, a, tag, layout):
    """True when the index stores this state as its mirror image (see the module
    docstring): an undo tag's edge is the second of a mirror pair, or else the first
    live figure, in figure order, off the mirror axis stands right of it."""
    u = tag - layout[L_UNDO0]
    if a == 1 and layout[L_UNDO0] >= 0 and 0 <= u < 12:
        e = layout[layout[L_EDGE_ID] + 4 * cells[u // 4] + u % 4]
        kind = layout[layout[L_EDGE_KIND] + e]
        if kind != EDGE_SELF:
            return kind == EDGE_SECOND
    side = layout[L_SIDE]
    for i in range(6):
        c = cells[i]
        if c >= 0:
            s = layout[side + c]
            if s != 0:
                return s > 0
    return False


@jit
def _undo_index(cells, code, u, n, layout, mir):
    """Index of the mid-turn state ``cells`` with the undo tag ``undo0 + u`` (feasible),
    read in the mirror when ``mir``."""
    f = u // 4
    e = layout[layout[L_EDGE_ID] + 4 * cells[f] + u % 4]
    if mir:
        e = layout[layout[L_EDGE_MIRROR] + e]
    c = layout[layout[L_EDGE_CELL] + e]
    o = layout[layout[L_EDGE_ORIGIN] + e]
    rank = 0
    k = 0
    for i in range(6):
        x = _seen(cells, i, mir, layout)
        if x < 0 or i == f:
            continue
        r = x
        if c < x:
            r -= 1
        if o < x:
            r -= 1
        for j in range(i):
            if j != f and 0 <= _seen(cells, j, mir, layout) < x:
                r -= 1
        rank = rank * (n - 2 - k) + r
        k += 1
    return layout[layout[L_UNDO_BLOCK] + 3 * code + f] + e * falling(n - 2, k) + rank


@jit
def encode(cells, status, a, tag, n, offset, layout):
    """Index of a state, or of its mirror image when the index stores that one (see the
    module docstring): a state and its mirror have one index."""
    code = status[0] + 3 * status[1] + 9 * status[2] + 27 * status[3]
    mir = mirrored(cells, a, tag, layout)
    if a == 1:
        u = tag - layout[L_UNDO0]
        if layout[L_UNDO0] >= 0 and 0 <= u < 12:
            return _undo_index(cells, code, u, n, layout, mir)
    # the servant (alive but in a finished game) is the top digit, over the ``H`` cells
    # it may stand on
    rank = 0
    k = 0
    c = _seen(cells, 0, mir, layout)
    if c >= 0:
        rank = layout[layout[L_HALF_DIGIT] + c]
        k = 1
    for i in range(1, 6):
        c = _seen(cells, i, mir, layout)
        if c < 0:
            continue
        r = c
        for j in range(i):
            if 0 <= _seen(cells, j, mir, layout) < c:
                r -= 1
        rank = rank * (n - k) + r
        k += 1
    plain = offset[(a - 1) * 81 + code] + rank
    if a == 1:
        copy = 0 if tag == FREE else 1 + tag - layout[L_PASS0]
        return plain + copy * layout[L_PLAIN1]
    return layout[L_A2_START] + plain - layout[L_PLAIN1] + tag * layout[L_PLAIN2]


@jit
def _place(cells, dead_mask, rank, n, skip, taken):
    """Cells of the live figures but ``skip`` from their ``rank`` as a partial
    permutation of the cells free of ``taken`` (a bit mask); see :func:`encode`."""
    k = 0
    for i in range(6):
        if not (dead_mask >> i) & 1 and i != skip:
            k += 1
    free = n
    for c in range(n):
        if (taken >> c) & 1:
            free -= 1
    # digits from the least significant: the last live figure's radix is free - k + 1
    j = k - 1
    for i in range(5, -1, -1):
        if (dead_mask >> i) & 1:
            cells[i] = -1
            continue
        if i == skip:
            continue
        cells[i] = rank % (free - j)
        rank //= free - j
        j -= 1
    used = np.int64(taken)
    for i in range(6):
        r = cells[i]
        if r < 0 or i == skip:
            continue
        for c in range(n):
            if not (used >> c) & 1:
                if r == 0:
                    cells[i] = c
                    used |= np.int64(1) << c
                    break
                r -= 1


@jit
def _status_of(code, status):
    for i in range(4):
        status[i] = code % 3
        code //= 3


@jit
def decode(index, n, block_start, block_a, block_code, layout, cells, status):
    """Fill ``cells`` and ``status`` of state ``index``; return its ``(a, tag)``."""
    s1 = layout[L_PLAIN1]
    if index >= layout[L_A2_START]:
        rest = index - layout[L_A2_START]
        tag = rest // layout[L_PLAIN2]
        index = s1 + rest - tag * layout[L_PLAIN2]
    elif index >= layout[L_UNDO_START]:
        first = layout[L_UNDO_BLOCK]
        b = np.searchsorted(layout[first : first + 243], index, side="right") - 1
        code = b // 3
        f = b % 3
        _status_of(code, status)
        dead_mask = _live_mask(status)
        per_edge = falling(n - 2, _n_live(dead_mask) - 1)
        rank = index - layout[first + b]
        e = rank // per_edge
        c = layout[layout[L_EDGE_CELL] + e]
        o = layout[layout[L_EDGE_ORIGIN] + e]
        cells[f] = c
        taken = (np.int64(1) << c) | (np.int64(1) << o)
        _place(cells, dead_mask, rank - e * per_edge, n, f, taken)
        return 1, layout[L_UNDO0] + 4 * f + layout[layout[L_EDGE_SLOT] + e]
    else:
        copy = index // s1
        index -= copy * s1
        tag = FREE if copy == 0 else layout[L_PASS0] + copy - 1
    b = np.searchsorted(block_start, index, side="right") - 1
    _status_of(block_code[b], status)
    dead_mask = _live_mask(status)
    per_cell = falling(n - 1, _n_live(dead_mask) - 1)
    rank = index - block_start[b]
    top = rank // per_cell
    cells[0] = layout[layout[L_HALF_CELL] + top]
    _place(cells, dead_mask, rank - top * per_cell, n, 0, np.int64(1) << cells[0])
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
    u = tag - layout[L_UNDO0]
    if a == 2 or layout[L_UNDO0] < 0 or not 0 <= u < 12:
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
    undo0 = layout[L_UNDO0]
    pass0 = layout[L_PASS0]
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
    if pa == 2:
        for t in range(tags):
            out[m] = base + t * layout[L_PLAIN2]
            m += 1
        return m
    undo0 = layout[L_UNDO0]
    code = ps[0] + 3 * ps[1] + 9 * ps[2] + 27 * ps[3]
    for t in range(tags):
        if t == skip:
            continue
        u = t - undo0
        if undo0 >= 0 and 0 <= u < 12:
            if feasible(pc, 1, t, steps, layout):
                out[m] = _undo_index(pc, code, u, n, layout, mirrored(pc, 1, t, layout))
                m += 1
        else:
            copy = 0 if t == FREE else 1 + t - layout[L_PASS0]
            out[m] = base + copy * layout[L_PLAIN1]
            m += 1
    return m


@jit
def predecessors(cells, status, a, tag, n, width, length, steps, adj, auto_death,
                 arrival_only, offset, layout, out, work):  # fmt: skip
    """The distinct entries of the index with an action (not a win) leading to this
    state or to its mirror image; see ``actions``. Returns their number, written to
    ``out`` (sorted when the index folds mirror images).

    A state and its mirror have mirrored predecessors, so the predecessors of one, each
    read at its index (which folds it with its mirror), are those of both; a
    predecessor whose two mirror images both lead here appears once.
    """
    m = _predecessors(cells, status, a, tag, n, width, length, steps, adj, auto_death,
                      arrival_only, offset, layout, out, work)  # fmt: skip
    if layout[L_HALF] < n:
        m = _unique(out, m)
    return m


@jit
def _predecessors(cells, status, a, tag, n, width, length, steps, adj, auto_death,
                  arrival_only, offset, layout, out, work):  # fmt: skip
    """The states with an action (not a win) leading to this state, each read at its
    index (distinct before the index folds mirror images). The side that acted is the
    side to move here if ``a == 1`` (same turn), else the other side.
    """
    top = n - width
    undo0 = layout[L_UNDO0]
    pass0 = layout[L_PASS0]
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
                 offset, layout, block_start, block_a, block_code, dist, marks):  # fmt: skip
    """Seed the retrograde solve on the states ``lo..hi - 1`` (``lo`` a multiple of
    ``CHUNK``): +1 and -1 for the wins and losses in one action, ``OPEN + k`` for every
    other state with ``k`` distinct next states, and bit 1 of ``marks[s // CHUNK]``
    (layer 1, odd) where a chunk holds a state decided in one. Each state is
    independent: any split of the index into such ranges gives the same arrays.
    Work arrays: ``dist`` ``int16`` of shape ``(n_states,)``, ``marks`` ``uint8`` of
    shape ``(ceil(n_states / CHUNK),)``.
    """
    n_chunks = (hi - lo + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        codes = np.empty(MAX_ACTIONS, np.int64)
        nexts = np.empty(MAX_ACTIONS, np.int64)
        work = np.empty(64, np.int64)
        decided = False
        for s in range(lo + chunk * CHUNK, min(hi, lo + (chunk + 1) * CHUNK)):
            a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
            if mirrored(cells, a, tag, layout):
                dist[s] = OPEN  # a mirror image of a stored state: filled at the end
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
                decided = True
            elif k == 0 and loss:
                dist[s] = -1
                decided = True
            else:
                dist[s] = OPEN + k
        if decided:
            marks[lo // CHUNK + chunk] = 2


@jit
def retrograde_layer(d, lo, hi, n, width, length, steps, adj, auto_death, arrival_only,
                     offset, layout, block_start, block_a, block_code, dist,
                     marks):  # fmt: skip
    """Layer ``d`` of the layered retrograde analysis (see ``samarra.solve``) on the
    chunks ``lo..hi - 1`` of ``CHUNK`` states: each state decided in ``d`` actions
    gives its predecessors their value in ``d + 1`` or one undecided next state
    fewer, the predecessor lost in ``d + 1`` when none is left. Only the chunks marked
    for layer ``d`` (bit ``d % 2`` of ``marks``) are read; their mark is cleared, and
    a chunk that receives a state of layer ``d + 1`` is marked for it. Returns whether
    the range held a state of layer ``d``.

    Running a layer as consecutive ranges, in index order, does exactly what one
    pass over the whole index does: a range only writes ``d + 1`` layer entries,
    open entries and the marks of layer ``d + 1``, which no later range of the same
    layer reads as layer ``d``. The order of the states inside a layer does not
    change the result either: a predecessor with an edge that wins for it keeps that
    next state among its undecided ones until the edge is read.
    """
    cells = np.empty(6, np.int64)
    status = np.empty(4, np.int64)
    preds = np.empty(MAX_PREDECESSORS, np.int64)
    work = np.empty(64, np.int64)
    found = False
    bit = np.uint8(1 << (d % 2))
    nxt = np.uint8(1 << ((d + 1) % 2))
    total = dist.size
    for chunk in range(lo, hi):
        if not marks[chunk] & bit:
            continue
        marks[chunk] &= ~bit
        for s in range(chunk * CHUNK, min(total, (chunk + 1) * CHUNK)):
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
                w = dist[p]
                if w > OPEN_TOP:
                    continue  # decided
                if good:
                    dist[p] = d + 1
                elif w == OPEN + 1:
                    dist[p] = -(d + 1)
                else:
                    dist[p] = w - 1
                    continue
                marks[p // CHUNK] |= nxt
    return found


@parallel_jit
def close_kernel(dist):
    """The end of the solve: every state still open is a draw (0)."""
    n_chunks = (dist.size + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        for s in range(chunk * CHUNK, min(dist.size, (chunk + 1) * CHUNK)):
            if dist[s] <= OPEN_TOP:
                dist[s] = 0


@parallel_jit
def mirror_fill(lo, hi, n, block_start, block_a, block_code, offset, layout, dist):
    """Give the entries ``lo..hi - 1`` that hold a mirror image (a state on the mirror
    axis's side of the index whose mirror is stored: see the module docstring) the value
    of the state they mirror. Run after the solve: the stored entries it reads are final
    and none of them is written."""
    n_chunks = (hi - lo + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        for s in range(lo + chunk * CHUNK, min(hi, lo + (chunk + 1) * CHUNK)):
            a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
            if mirrored(cells, a, tag, layout):
                dist[s] = dist[encode(cells, status, a, tag, n, offset, layout)]


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
    """The number of entries of the index that are no state of the game (undo tags
    with no way back): 0 by construction, counted over the undo section."""
    lo = layout[L_UNDO_START]
    size = layout[L_A2_START] - lo
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


@jit
def entry_weight(cells, a, tag, layout):
    """Positions of the unfolded index (both mirror images kept) the entry of this
    state stands for in the folded one: 0 for an idle copy (a state the index stores as
    its mirror, whose stored image counts it), 1 for a state that is its own mirror
    image (every live figure on the axis, an undo tag's move along it), else 2."""
    if mirrored(cells, a, tag, layout):
        return 0
    u = tag - layout[L_UNDO0]
    if a == 1 and layout[L_UNDO0] >= 0 and 0 <= u < 12:
        e = layout[layout[L_EDGE_ID] + 4 * cells[u // 4] + u % 4]
        if layout[layout[L_EDGE_KIND] + e] != EDGE_SELF:
            return 2
    side = layout[L_SIDE]
    for i in range(6):
        c = cells[i]
        if c >= 0 and layout[side + c] != 0:
            return 2
    return 1


@parallel_jit
def weighted_histogram(folded, top, n, block_start, block_a, block_code, layout, dist):
    """Positions per entry value: ``out[v + top]`` sums the weights (:func:`entry_weight`
    when ``folded``, else 1) of the entries holding ``v`` (``|v| <= top``). Integer sums
    over fixed parts: the same result on any number of threads."""
    parts = 64
    size = dist.size
    step = (size + parts - 1) // parts
    hist = np.zeros((parts, 2 * top + 1), np.int64)
    for p in prange(parts):
        cells = np.empty(6, np.int64)
        status = np.empty(4, np.int64)
        for s in range(p * step, min(size, (p + 1) * step)):
            w = 1
            if folded:
                a, tag = decode(s, n, block_start, block_a, block_code, layout, cells, status)
                w = entry_weight(cells, a, tag, layout)
            hist[p, dist[s] + top] += w
    out = np.zeros(2 * top + 1, np.int64)
    for p in range(parts):
        for j in range(2 * top + 1):
            out[j] += hist[p, j]
    return out
