"""What the two-sides abstraction costs when every member writes its own order.

:func:`citadel.solve_sides` pools a side's capital and lets it write one combined order
(``k`` authors, one amount, a member's own direction). The game the rules describe is
richer: each member of a side holds its own capital and writes its own order, any
amount on the bid grid up to its own capital (at least ``min_bid`` when it can bid)
in any of the eight directions, or abstains. :func:`member_response` is the exact best
response of one side in that richer game against the other side's abstraction
strategy, the fixed side playing the solution's mixed combined orders as in
:func:`citadel.sides.evaluate_sides`.

**States** are (pawn cell, each responding member's capital, the fixed side's pooled
capital). The responder's stage value of a joint order ``j`` (one order per member)
against the fixed side's mixed order ``q`` at state ``s`` is

.. math::

    w_j(s) = \\frac{\\sum_b q_b\\, [s'_{jb} \\ne s]\\, V(s'_{jb})}
                  {1 - \\sum_b q_b\\, [s'_{jb} = s]}
    \\quad (0 \\text{ when the pair repeats } s \\text{ for sure: a draw}),

    V(s) = \\max_j w_j(s) \\ (\\text{side A}) \\text{ or } \\min_j w_j(s)
    \\ (\\text{side B}),

with ``V`` of a state past the board the (weighted) exit scores. Every round either
repeats the state or lowers some capital (a positive amount is paid by its author,
docs/rules.md, Payment and fees), so states are solved once each in order of increasing
capitals, and the stationary pure best response found this way is the exact best
response (Shapley 1953; the draw convention of :mod:`citadel.sides`). Orders are
resolved by :func:`citadel._kernels.resolve_many_kernel`, the rules' own code, on the
table of every joint order against every combined order of the fixed side.

**Capitals off the grid.** A fee (1 point) moves capitals off the ``bid_step`` grid.
The states hold every capital reachable from the start: the closure of the starting
capital under "pay a legal amount, perhaps plus a fee" (per member) and "pay a legal
combined order, perhaps plus a fee per writer" (the fixed side's pool), capitals
never below 0. With ``payment="all"`` a fee comes with a paid amount, so at capital
100 and ``bid_step`` 20 a member holds one of 16 capitals, not 101. The fixed side
plays its strategy at the solution's level at or below each pooled capital (its own,
and the responder's members' sum), as :func:`citadel.sides.evaluate_sides` does; a
pooled capital below the solution's lowest level plays as that level, where only
orders the actual capital pays for are kept (renormalised; none left: it abstains).

**Symmetry.** The rules never ask who wrote an order (merging, counters, ties and
payment read amounts and directions; scores read the pawn), and the fixed side reads
only the members' sum: the value is symmetric in the members' capitals. Each
multiset of capitals is solved once, and members with equal capitals enumerate their
orders up to permutation.

Its cost is given by :func:`member_response_size` before any work, and the call
refuses what does not fit in memory.

References
----------
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from citadel._kernels import resolve_many_kernel
from citadel.rules import Rules
from citadel.sides import (
    OBJECTIVES,
    SidesSolution,
    exit_scores,
    pawn_moves,
    side_name,
    side_weights,
)
from tabletop.budget import Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.jit import jit
from tabletop.validate import (
    NON_NEGATIVE,
    PROBABILITY_DIFFERENCE,
    check_bool,
    check_fields,
    check_instance,
)

__all__ = ["MemberResponse", "member_response", "member_response_size"]

#: Seconds per state and per (state, joint order) pair, measured on the 2-core
#: reference machine under a load of about 20 (benchmarks/bench_citadel_members.py at
#: radius 3, capital 100, bid_step 20: 1.34e9 pairs in 673 s, 6.4e7 in 28 s).
PAIR_SECONDS = (2e-5, 4.5e-7)


@dataclass(frozen=True, eq=False)
class MemberResponse:
    """One side's exact best response with individual orders (see the module docstring).

    Built anew by each call: its arrays are the caller's own. ``==`` compares values.

    Attributes
    ----------
    value : float
        Side A's payoff from the start (the solution's objective) when side ``respond``
        best-responds with individual orders and the other side plays its strategy.
    abstraction : float
        The solution's value at the start (both sides in the abstraction).
    respond : int
        The responding side: 0 (A, maximising) or 1 (B, minimising).
    side : str
        The responding side's seats, e.g. ``"NE"``.
    gain : float
        What the responder gains over the abstraction's value, in its own direction
        (``value - abstraction`` for A, ``abstraction - value`` for B).
    capitals : numpy.ndarray
        The capitals a member can hold (ascending).
    pools : numpy.ndarray
        The pooled capitals the fixed side can hold (ascending).
    values : numpy.ndarray
        ``values[c_1, ..., c_m, pool, x + radius, y + radius]``: side A's payoff at each
        state, indexed by capital levels (``capitals``, ``pools``).
    states, pairs : int
        States solved (one per multiset of member capitals) and (state, joint order)
        pairs evaluated.
    orders : int
        Joint orders of the responder at the start.
    seconds : float
        Wall time of the solve.

    Examples
    --------
    >>> from citadel.sides import solve_sides
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NS", objective="score")
    >>> res = member_response(sol, 1)   # E + W, each writing its own order
    >>> res.side, round(res.abstraction, 3), round(res.value, 3), round(res.gain, 3)
    ('EW', 0.5, 0.0, 0.5)
    """

    value: float
    abstraction: float
    respond: int
    side: str
    capitals: np.ndarray
    pools: np.ndarray
    values: np.ndarray
    states: int
    pairs: int
    orders: int
    seconds: float

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, abstraction=PROBABILITY_DIFFERENCE,
                     respond=(0, 1), states=(0, None), pairs=(0, None), orders=(0, None),
                     seconds=NON_NEGATIVE)  # fmt: skip

    @property
    def gain(self) -> float:
        return self.value - self.abstraction if self.respond == 0 else self.abstraction - self.value


def _member_orders(rules: Rules):
    """Every order one member may write: (amount, direction), the abstention first."""
    grid = [int(a) for a in rules.legal_amounts(rules.capital) if a > 0]
    amounts = [0] + [a for a in grid for _ in range(8)]
    dirs = [0] + [d for _ in grid for d in range(8)]
    return np.array(amounts, dtype=np.int64), np.array(dirs, dtype=np.int64)


def _closure(start: int, moves) -> np.ndarray:
    """Capitals reachable from ``start``: ``moves(c)`` lists the capitals one round leads to."""
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for c2 in moves(c):
            c2 = max(int(c2), 0)
            if c2 not in seen:
                seen.add(c2)
                todo.append(c2)
    return np.array(sorted(seen), dtype=np.int64)


def _member_levels(rules: Rules) -> np.ndarray:
    winners = rules.payment == "winners"

    def moves(c):
        for a in rules.legal_amounts(c):
            a = int(a)
            if a == 0:
                continue
            yield from ((c - a, c - 1, c) if winners else (c - a, c - a - 1))

    return _closure(rules.capital, moves)


def _pool_levels(space, fixed: int) -> np.ndarray:
    """Pooled capitals of the fixed side: it plays at the solution's level at or below
    its capital, paying a combined order and perhaps a fee per writer."""
    levels = space.levels[fixed]
    spend, writers = space.spend[fixed], space.writers[fixed]
    amounts, authors = space.amounts[fixed], space.authors[fixed]
    low = space.rules.smallest_bid
    winners = space.rules.payment == "winners"

    def moves(c):
        at = levels[max(np.searchsorted(levels, c, side="right") - 1, 0)]
        for act in space.legal(fixed, int(at)):
            if spend[act] > c or writers[act] == 0:
                continue
            w = int(writers[act])
            paid = ({0, int(amounts[act] * authors[act]), int((w - authors[act]) * low),
                     int(spend[act])} if winners else {int(spend[act])})  # fmt: skip
            for p in paid:
                for f in range(w + 1):
                    yield c - p - f

    return _closure(space.pool(fixed), moves)


def _canonical(n_levels: int, m: int):
    """Sorted tuples of member levels, in lexicographic (solving) order."""
    return list(itertools.combinations_with_replacement(range(n_levels), m))


def _legal_lists(rules: Rules, caps: np.ndarray, amounts: np.ndarray):
    """Per member capital level, the indices of the member orders it may write."""
    ptr, idx = [0], []
    for c in caps:
        legal = np.flatnonzero(np.isin(amounts, rules.legal_amounts(int(c))))
        idx.extend(legal.tolist())
        ptr.append(len(idx))
    return np.array(ptr, dtype=np.int64), np.array(idx, dtype=np.int64)


def _joint_count(counts: np.ndarray, combo) -> int:
    """Joint orders of members at levels ``combo``, equal levels up to permutation."""
    total = 1
    for lv in set(combo):
        k = combo.count(lv)
        total *= math.comb(int(counts[lv]) + k - 1, k)
    return total


def _prepare(sol: SidesSolution, respond: int):
    rules, space = sol.rules, sol.space
    fixed = 1 - respond
    m = len(space.sides[respond])
    caps = _member_levels(rules)
    pools = _pool_levels(space, fixed)
    amounts, dirs = _member_orders(rules)
    ptr, idx = _legal_lists(rules, caps, amounts)
    return rules, space, fixed, m, caps, pools, amounts, dirs, ptr, idx


def member_response_size(sol: SidesSolution, respond: int = 0) -> Estimate:
    """Memory and time of :func:`member_response`, before any work: the states (pawn
    cell x multiset of member capitals x the fixed side's pool), the joint orders
    (every order of every member), the outcome table (every joint order against every
    combined order of the fixed side) and the (state, joint order) pairs to evaluate.

    Examples
    --------
    >>> from citadel.sides import solve_sides
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> est = member_response_size(sol, 0)
    >>> est.knobs["member capitals"], est.knobs["joint orders"]
    (4, 289)
    """
    check_instance("sol", sol, SidesSolution)
    respond = _check_respond(respond)
    rules, space, fixed, m, caps, pools, amounts, _, ptr, _ = _prepare(sol, respond)
    counts = np.diff(ptr)
    cells = (2 * rules.radius + 1) ** 2
    combos = _canonical(caps.size, m)
    per_cell = sum(_joint_count(counts, c) for c in combos)
    states = len(combos) * pools.size * cells
    pairs = per_cell * pools.size * cells
    joint = amounts.size**m
    table = joint * space.amounts[fixed].size
    nbytes = (table * (32 * rules.n_players + 16 + 5 * (m + 2))
              + caps.size**m * pools.size * cells * 16)  # fmt: skip
    seconds = states * PAIR_SECONDS[0] + pairs * PAIR_SECONDS[1]
    return Estimate(
        "citadel.member_response", int(nbytes),
        {"radius": rules.radius, "capital": rules.capital, "bid_step": rules.bid_step,
         "side": side_name(rules, space.sides[respond]), "members": m,
         "member capitals": int(caps.size), "pools": int(pools.size), "states": states,
         "joint orders": int(joint), "pairs": int(pairs)},
        seconds, f"{states:,} states, {pairs:,} (state, joint order) pairs, outcome table "
        f"{joint:,} x {space.amounts[fixed].size}",
    )  # fmt: skip


def _check_respond(respond) -> int:
    """0 (side A) or 1 (side B)."""
    from tabletop.validate import check_int

    return check_int("respond", respond, 0, 1)


def member_response(sol: SidesSolution, respond: int = 0, *, allow_large: bool = False,
                    progress: bool | None = None) -> MemberResponse:  # fmt: skip
    """The exact best response of one side whose members write their own orders.

    Parameters
    ----------
    sol : SidesSolution
        The abstraction's solution (:func:`citadel.solve_sides`); the other side plays
        its mixed combined orders, mapped to its pooled state (see the module docstring).
    respond : {0, 1}
        The responding side: 0 (side A, maximising A's payoff) or 1 (side B,
        minimising it). Each member may write any legal amount of its own capital in
        any of the eight directions, or abstain where the rules allow it.
    allow_large : bool
        Go ahead even when :func:`member_response_size` exceeds the memory available
        (default False: refuse with a one-line ``MemoryError`` before any work).
    progress : bool, optional
        A progress bar over the multisets of member capitals (default: when stderr is
        a terminal).

    Returns
    -------
    MemberResponse

    Examples
    --------
    Two neighbours against two: writing their own orders, N + E get more than the
    abstraction gives them.

    >>> from citadel.sides import solve_sides
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> res = member_response(sol, 0)
    >>> res.value >= res.abstraction, res.states
    (True, 990)
    """
    check_instance("sol", sol, SidesSolution)
    respond = _check_respond(respond)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(member_response_size(sol, respond), allow_large,
                 hint="raise bid_step or lower the radius or the capital")  # fmt: skip
    began = time.perf_counter()
    rules, space, fixed, m, caps, pools, amounts, dirs, ptr, idx = _prepare(sol, respond)
    n_o = amounts.size
    n_b = space.amounts[fixed].size
    r = rules.radius
    side = 2 * r + 1
    cells = side * side
    # the outcome table: every joint order (member 0 the most significant digit) against
    # every combined order of the fixed side, resolved by the rules' kernel
    joint = np.array(list(itertools.product(range(n_o), repeat=m)), dtype=np.int64)
    joint = joint.reshape(-1, m)
    n_j = joint.shape[0]
    order_a = np.zeros((n_j, n_b, rules.n_players), dtype=np.int64)
    order_d = np.zeros((n_j, n_b, rules.n_players), dtype=np.int64)
    for i, seat in enumerate(space.sides[respond]):
        order_a[:, :, seat] = amounts[joint[:, i]][:, None]
        order_d[:, :, seat] = dirs[joint[:, i]][:, None]
    low = rules.smallest_bid
    for rank, seat in enumerate(space.sides[fixed]):
        au, wr = space.authors[fixed], space.writers[fixed]
        order_a[:, :, seat] = np.where(au > rank, space.amounts[fixed],
                                       np.where(wr > rank, low, 0))[None, :]  # fmt: skip
        order_d[:, :, seat] = space.dirs[fixed][None, :]
    steps, pays, fee = resolve_many_kernel(
        order_a.reshape(n_j * n_b, -1), order_d.reshape(n_j * n_b, -1),
        rules.resolution == "variant", rules.payment == "winners",
    )  # fmt: skip
    del order_a, order_d
    lose = (pays + fee).reshape(n_j, n_b, rules.n_players)
    step_id = ((steps[:, 0] + 1) * 3 + steps[:, 1] + 1).reshape(n_j, n_b).astype(np.int8)
    mcost = np.ascontiguousarray(lose[:, :, list(space.sides[respond])], dtype=np.int32)
    fcost = np.ascontiguousarray(lose[:, :, list(space.sides[fixed])].sum(axis=2),
                                 dtype=np.int32)  # fmt: skip
    del steps, pays, fee, lose
    # the pawn: next cell (-1 off the board) and exit payoff for each of the 9 steps
    weights = side_weights(space, OBJECTIVES[sol.objective])
    next_cell = np.full((cells, 9), -1, dtype=np.int64)
    exit_pay = np.zeros((cells, 9))
    sdx = np.repeat(np.arange(-1, 2), 3)
    sdy = np.tile(np.arange(-1, 2), 3)
    for x in range(-r, r + 1):
        for y in range(-r, r + 1):
            x2, y2 = pawn_moves(rules, x, y, sdx, sdy)
            pay, out = exit_scores(rules, x2, y2, weights)
            c = (x + r) * side + y + r
            inside = (np.abs(x2) <= r) & (np.abs(y2) <= r)
            next_cell[c] = np.where(inside, (x2 + r) * side + y2 + r, -1)
            exit_pay[c] = np.where(out, pay, 0.0)
            if not (inside | out).all():  # pragma: no cover - walls keep the pawn in
                raise AssertionError("a step leaves the board across a wall")
    # the fixed side's strategy, flat: pol_ptr[cell, level responder, level fixed]
    own = space
    table = sol.row if fixed == 0 else sol.column
    lv_r, lv_f = own.levels[respond], own.levels[fixed]
    pol_ptr = np.zeros((cells, lv_r.size, lv_f.size, 2), dtype=np.int64)
    acts, probs = [], []
    for (x, y, ca, cb), (a, p) in table.items():
        cr, cf = (ca, cb) if respond == 0 else (cb, ca)
        key = ((x + r) * side + y + r, own.level_of[respond][cr], own.level_of[fixed][cf])
        pol_ptr[key] = (len(acts), len(acts) + len(a))
        acts.extend(int(v) for v in a)
        probs.extend(float(v) for v in p)
    pol_act = np.array(acts, dtype=np.int64)
    pol_p = np.array(probs)
    spend_fixed = np.ascontiguousarray(space.spend[fixed], dtype=np.int64)

    def floor_map(levels, top):
        at = np.searchsorted(levels, np.arange(top + 1), side="right") - 1
        return np.maximum(at, 0).astype(np.int64)

    resp_sol = floor_map(lv_r, m * rules.capital)
    fix_sol = floor_map(lv_f, int(pools[-1]))
    level_of = np.full(rules.capital + 1, -1, dtype=np.int64)
    level_of[caps] = np.arange(caps.size)
    plevel_of = np.full(int(pools[-1]) + 1, -1, dtype=np.int64)
    plevel_of[pools] = np.arange(pools.size)
    values = np.zeros(caps.size**m * pools.size * cells)
    combos = _canonical(caps.size, m)
    sign = 1.0 if respond == 0 else -1.0
    pairs = 0
    bar = progress_bar(len(combos), f"citadel members {side_name(rules, space.sides[respond])}",
                       progress, "capitals")  # fmt: skip
    with bar:
        for combo in combos:
            lv = np.array(combo, dtype=np.int64)
            done = _respond_combo(
                lv, caps, level_of, pools, plevel_of, ptr, idx, n_o, step_id, mcost, fcost,
                next_cell, exit_pay, resp_sol, fix_sol, pol_ptr, pol_act, pol_p,
                spend_fixed, sign, values,
            )  # fmt: skip
            if done < 0:  # pragma: no cover - the closure holds every reachable capital
                raise AssertionError("a capital outside the reachable levels")
            pairs += done
            bar.update(1)
    full = values.reshape((caps.size,) * m + (pools.size, side, side))
    # every ordering of the members' capitals takes the value of its sorted one
    grids = np.meshgrid(*[np.arange(caps.size)] * m, indexing="ij")
    ordered = np.sort(np.stack([g.ravel() for g in grids], axis=1), axis=1)
    flat = np.ravel_multi_index(tuple(ordered.T), (caps.size,) * m)
    full = full.reshape((caps.size**m, pools.size, side, side))[flat]
    full = full.reshape((caps.size,) * m + (pools.size, side, side))
    start = full[(caps.size - 1,) * m + (pools.size - 1, r, r)]
    return MemberResponse(
        value=float(start), abstraction=sol.value(), respond=respond,
        side=side_name(rules, space.sides[respond]), capitals=caps, pools=pools,
        values=full, states=len(combos) * pools.size * cells, pairs=int(pairs),
        orders=int(np.prod([np.diff(ptr)[-1]] * m)),
        seconds=time.perf_counter() - began,
    )  # fmt: skip


@jit
def _respond_combo(lv, caps, level_of, pools, plevel_of, ptr, idx, n_o, step_id, mcost,
                   fcost, next_cell, exit_pay, resp_sol, fix_sol, pol_ptr, pol_act, pol_p,
                   spend_fixed, sign, values):  # fmt: skip
    """Solve every state whose member capital levels are the sorted tuple ``lv``.

    Work arrays: ``step_id`` (joint orders, fixed actions) int8, the step as
    ``(dx + 1) * 3 + dy + 1``; ``mcost`` (joint, fixed, members) and ``fcost`` (joint,
    fixed) what each member and the fixed side lose; ``values`` (member levels ** m x
    pools x cells,) flat, filled at sorted tuples only. Returns the (state, joint order)
    pairs evaluated, or -1 if a successor's capital is not a level.
    """
    m = lv.size
    n_l = caps.size
    n_p = pools.size
    cells = next_cell.shape[0]
    flat_m = 0
    total = 0
    for i in range(m):
        flat_m = flat_m * n_l + lv[i]
        total += caps[lv[i]]
    cnt = np.empty(m, dtype=np.int64)
    for i in range(m):
        cnt[i] = ptr[lv[i] + 1] - ptr[lv[i]]
    rs = resp_sol[total]
    pos = np.zeros(m, dtype=np.int64)
    nl = np.zeros(m, dtype=np.int64)
    sup_b = np.zeros(spend_fixed.size, dtype=np.int64)
    sup_q = np.zeros(spend_fixed.size)
    pairs = 0
    for lp in range(n_p):
        fs = fix_sol[pools[lp]]
        for cell in range(cells):
            here = (flat_m * n_p + lp) * cells + cell
            s0 = pol_ptr[cell, rs, fs, 0]
            s1 = pol_ptr[cell, rs, fs, 1]
            # orders the actual pool cannot pay (a pool below the lowest level) dropped;
            # none left: the fixed side abstains
            n_s = 0
            mass = 0.0
            for k in range(s0, s1):
                if spend_fixed[pol_act[k]] <= pools[lp]:
                    sup_b[n_s] = pol_act[k]
                    sup_q[n_s] = pol_p[k]
                    mass += pol_p[k]
                    n_s += 1
            if n_s == 0:
                sup_b[0] = 0
                sup_q[0] = 1.0
                mass = 1.0
                n_s = 1
            for k in range(n_s):
                sup_q[k] /= mass
            best = -np.inf
            for i in range(m):
                pos[i] = pos[i - 1] if i > 0 and lv[i] == lv[i - 1] else 0
            while True:
                j = 0
                for i in range(m):
                    j = j * n_o + idx[ptr[lv[i]] + pos[i]]
                off = 0.0
                stay = 0.0
                for k in range(n_s):
                    b = sup_b[k]
                    q = sup_q[k]
                    s = step_id[j, b]
                    nc = next_cell[cell, s]
                    if nc < 0:
                        off += q * exit_pay[cell, s]
                        continue
                    for i in range(m):
                        c = caps[lv[i]] - mcost[j, b, i]
                        if c < 0:
                            c = 0
                        nl[i] = level_of[c]
                        if nl[i] < 0:
                            return -1
                    for i in range(1, m):  # insertion sort: the sorted tuple
                        v = nl[i]
                        t = i - 1
                        while t >= 0 and nl[t] > v:
                            nl[t + 1] = nl[t]
                            t -= 1
                        nl[t + 1] = v
                    p2 = pools[lp] - fcost[j, b]
                    if p2 < 0:
                        p2 = 0
                    np2 = plevel_of[p2]
                    if np2 < 0:
                        return -1
                    flat2 = 0
                    for i in range(m):
                        flat2 = flat2 * n_l + nl[i]
                    there = (flat2 * n_p + np2) * cells + nc
                    if there == here:
                        stay += q
                    else:
                        off += q * values[there]
                w = off / (1.0 - stay) if stay < 1.0 - 1e-9 else 0.0
                if sign * w > best:
                    best = sign * w
                pairs += 1
                i = m - 1
                while i >= 0:
                    pos[i] += 1
                    if pos[i] < cnt[i]:
                        break
                    i -= 1
                if i < 0:
                    break
                for t in range(i + 1, m):
                    pos[t] = pos[t - 1] if lv[t] == lv[t - 1] else 0
            values[here] = sign * best
    return pairs
