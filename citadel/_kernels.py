"""Numba kernels of Master Citadel. Private: no validation, deterministic given inputs.

Orders are two int64 arrays, ``amounts`` and ``directions`` (0..7 = N, NE, ..., NW),
one entry per seat. Flags: ``variant`` (resolution "variant" rather than "basic")
and ``winners_pay`` (payment "winners" rather than "all"). The rules are those of
``citadel.resolve`` (the plain reference); tests hold the two against each other.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from tabletop._oracle import solve_checked_kept
from tabletop._simplex import solve_checked
from tabletop.draws import randbelow
from tabletop.jit import jit, parallel_jit

#: Unit steps of directions 0..7 (N, NE, E, SE, S, SW, W, NW).
STEP_X = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
STEP_Y = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
MAX_SEATS = 4


class GameRules(NamedTuple):
    """The rules' numbers a game reads, built once from the rules by
    :func:`citadel.simulate.game_rules` (a flat tuple: numba's parallel loops take no
    nested ones). The number of seats ``n`` is ``homes.shape[0]``."""

    radius: int
    max_rounds: int
    capital: int
    variant: bool             # resolution "variant" (not "basic")
    winners_pay: bool         # payment "winners" (not "all")
    bid_step: int
    min_bid: int
    smallest: int             # the smallest positive bid
    homes: np.ndarray         # (n,) int64, each seat's home direction 0..7
    seat_of_dir: np.ndarray   # (8,) int64, the seat at home in each direction, -1: none


class RoundWork(NamedTuple):
    """A game's work arrays, reused from round to round (and game to game)."""

    orders: np.ndarray   # int64 (6, MAX_SEATS): this round's amounts and directions,
    #                      last round's, pays and fees (:func:`play_round`)
    scratch: np.ndarray  # int64 (7, MAX_SEATS): :func:`resolve_into`'s groups


@jit
def resolve_into(amounts, directions, n, variant, winners_pay, pays, fee, scratch):
    """Resolve one round; write ``pays`` and ``fee`` (length ``n``); return (dx, dy).

    ``scratch`` is an int64 array of shape (7, MAX_SEATS) reused between calls: rows
    are the seat's group, then each group's amount, direction, strength (amount x
    authors), authors, winner and fee flags. A cancelled group's strength is 0.
    Directions differ by ``(d1 - d2) & 7`` (mod 8 without a sign test).
    """
    gid = scratch[0]
    g_amt = scratch[1]
    g_dir = scratch[2]
    g_str = scratch[3]
    g_cnt = scratch[4]
    g_win = scratch[5]
    g_fee = scratch[6]
    ng = 0
    for i in range(n):  # 1. merge
        a = amounts[i]
        gid[i] = -1
        if a <= 0:
            continue
        d = directions[i]
        g = 0
        while g < ng and (g_amt[g] != a or g_dir[g] != d):
            g += 1
        gid[i] = g
        if g < ng:
            g_cnt[g] += 1
            g_str[g] += a
        else:
            g_amt[g] = a
            g_dir[g] = d
            g_str[g] = a
            g_cnt[g] = 1
            g_win[g] = 0
            g_fee[g] = 0
            ng += 1
    if variant:  # 2. counter; a group has at most one opposite group of its amount
        for g in range(ng):
            for h in range(g + 1, ng):
                if (g_amt[g] == g_amt[h] and ((g_dir[g] - g_dir[h]) & 7) == 4
                        and (g_cnt[g] > 1 or g_cnt[h] > 1)):  # fmt: skip
                    g_str[g] = 0
                    g_str[h] = 0
    dx = 0
    dy = 0
    while True:  # 3.-4. strongest, ties
        top = 0
        n_tied = 0
        d1 = -1
        d2 = -1
        n_ways = 0
        for g in range(ng):
            st = g_str[g]
            if st < top:
                continue
            d = g_dir[g]
            if st > top:
                top = st
                n_tied = 1
                d1 = d
                d2 = -1
                n_ways = 1
                continue
            n_tied += 1
            if d != d1 and d != d2:
                if n_ways == 1:
                    d2 = d
                n_ways += 1
        if top == 0:
            break
        if not variant:
            if n_tied == 1:
                for g in range(ng):
                    if g_str[g] == top:
                        g_win[g] = 1
                dx = STEP_X[d1]
                dy = STEP_Y[d1]
            break
        if n_ways == 2 and ((d1 - d2) & 7) == 4:  # opposite: cancel, look again
            for g in range(ng):
                if g_str[g] == top:
                    g_str[g] = 0
            continue
        if n_ways == 1 or (n_ways == 2 and ((d1 - d2) & 3) == 2):  # one way, or 90°
            for g in range(ng):
                if g_str[g] == top:
                    g_win[g] = 1
            if n_ways == 1:
                dx = STEP_X[d1]
                dy = STEP_Y[d1]
            else:
                dx = max(-1, min(1, STEP_X[d1] + STEP_X[d2]))
                dy = max(-1, min(1, STEP_Y[d1] + STEP_Y[d2]))
            break
        for g in range(ng):  # 45°, 135°, or three or more ways: the fee
            if g_str[g] == top:
                g_fee[g] = 1
        break
    for i in range(n):
        g = gid[i]
        if g < 0:
            pays[i] = 0
            fee[i] = 0
        else:
            pays[i] = amounts[i] if (not winners_pay or g_win[g]) else 0
            fee[i] = g_fee[g]
    return dx, dy


@jit
def first_bad_order(amounts, directions, capital, bid_step):
    """The first (row, seat, problem) among ``m`` rounds of orders, or (-1, -1, 0).

    Problems: 1, an amount that is negative, above ``capital`` or not a multiple of
    ``bid_step``; 2, a direction outside 0..7. One pass, for ``resolve_many``.
    """
    m, n = amounts.shape
    for r in range(m):
        for i in range(n):
            a = amounts[r, i]
            if a < 0 or a > capital or a % bid_step != 0:
                return r, i, 1
            if directions[r, i] < 0 or directions[r, i] > 7:
                return r, i, 2
    return -1, -1, 0


@jit
def resolve_many_kernel(amounts, directions, variant, winners_pay):
    """Resolve ``m`` rounds (rows of ``amounts``/``directions``): steps, pays, fees."""
    m, n = amounts.shape
    steps = np.empty((m, 2), dtype=np.int64)
    pays = np.empty((m, n), dtype=np.int64)
    fee = np.empty((m, n), dtype=np.int64)
    scratch = np.zeros((7, MAX_SEATS), dtype=np.int64)
    for r in range(m):
        dx, dy = resolve_into(amounts[r], directions[r], n, variant, winners_pay,
                              pays[r], fee[r], scratch)  # fmt: skip
        steps[r, 0] = dx
        steps[r, 1] = dy
    return steps, pays, fee


# ---- heuristic agents and the game loop ------------------------------------------------

STRAIGHT, ALLY_CW, ALLY_CCW, COUNTER, SAVER, RANDOM = 0, 1, 2, 3, 4, 5


@jit
def legal_amount(target, capital, bid_step, min_bid, smallest):
    """Round ``target`` to a legal amount (see ``citadel.agents.legal_amount``)."""
    if capital < smallest:
        return 0
    a = (min(target, capital) // bid_step) * bid_step
    if target > 0 or min_bid > 0:
        a = max(a, smallest)
    return a


@jit
def need(x, y, home, radius):
    """Steps the pawn still has to take toward the line of the seat at ``home``."""
    return radius + 1 - (x * STEP_X[home] + y * STEP_Y[home])


@jit
def agent_order(rules, kind, seat, x, y, has_last, caps, orders):
    """The order (amount, direction) of heuristic ``kind`` at ``seat`` with the pawn at
    ``(x, y)``; ``caps``: every seat's capital; rows 2 and 3 of ``orders``
    (:class:`RoundWork`): last round's amounts and directions, read when ``has_last``."""
    radius = rules.radius
    bid_step = rules.bid_step
    min_bid = rules.min_bid
    smallest = rules.smallest
    homes = rules.homes
    n = homes.shape[0]
    last_amt = orders[2]
    last_dir = orders[3]
    cap = caps[seat]
    home = homes[seat]
    if kind in (ALLY_CW, ALLY_CCW):
        turn = 1 if kind == ALLY_CW else -1
        partner = rules.seat_of_dir[(home + 2 * turn) % 8]
        if partner >= 0:
            steps = min(need(x, y, home, radius), need(x, y, homes[partner], radius))
            pot = min(cap, caps[partner])
            return legal_amount(pot // steps, cap, bid_step, min_bid, smallest), (home + turn) % 8
    elif kind == COUNTER and has_last:
        best_strength = 0
        best_amt = 0
        best_dir = 0
        for i in range(n):
            a = last_amt[i]
            if a <= 0:
                continue
            authors = 0
            mine = False
            for j in range(n):
                if last_amt[j] == a and last_dir[j] == last_dir[i]:
                    authors += 1
                    if j == seat:
                        mine = True
            if authors >= 2 and not mine and a * authors > best_strength:
                best_strength = a * authors
                best_amt = a
                best_dir = last_dir[i]
        if best_strength > 0 and best_amt <= cap:
            return best_amt, (best_dir + 4) % 8
    elif kind == SAVER:
        closest = radius + 1000
        for s in range(n):
            closest = min(closest, need(x, y, homes[s], radius))
        target = cap if closest <= 1 else 0
        return legal_amount(target, cap, bid_step, min_bid, smallest), home
    elif kind == RANDOM:
        n_pos = (cap - smallest) // bid_step + 1 if cap >= smallest else 0
        zero = 1 if (min_bid == 0 or n_pos == 0) else 0
        k = randbelow(n_pos + zero)
        amount = 0 if k < zero else smallest + (k - zero) * bid_step
        return amount, randbelow(8)
    return legal_amount(cap // need(x, y, home, radius), cap, bid_step, min_bid, smallest), home


@jit(inline="always")
def play_round(rules, kinds, x, y, has_last, caps, scores, work):
    """One round of a game from pawn ``(x, y)``: every seat's order (seat ``i`` played
    by heuristic ``kinds[i]``), their resolution and payment, the pawn's move; returns
    ``(x, y, over, alive)``, ``over`` when the pawn left the board (``scores`` written),
    ``alive`` while some seat can still bid. ``rules`` is a :class:`GameRules`;
    ``caps`` (n,) the capitals, paid from in place; ``work`` a :class:`RoundWork`.
    Read by :func:`play_game_kernel` and the chunked games of ``citadel._game_chunks``."""
    radius = rules.radius
    smallest = rules.smallest
    homes = rules.homes
    n = homes.shape[0]
    orders = work.orders
    amounts = orders[0]
    dirs = orders[1]
    last_amt = orders[2]
    last_dir = orders[3]
    pays = orders[4]
    fee = orders[5]
    for i in range(n):
        a, d = agent_order(rules, kinds[i], i, x, y, has_last, caps, orders)
        amounts[i] = a
        dirs[i] = d
    dx, dy = resolve_into(amounts, dirs, n, rules.variant, rules.winners_pay, pays, fee,
                          work.scratch)  # fmt: skip
    alive = False
    for i in range(n):
        caps[i] = max(0, caps[i] - pays[i] - fee[i])
        last_amt[i] = amounts[i]
        last_dir[i] = dirs[i]
        if caps[i] >= smallest:
            alive = True
    nx = x + dx
    ny = y + dy
    if nx > radius and n < 3:
        nx = x
    if nx < -radius and n < 4:
        nx = x
    x = nx
    y = ny
    out_n = y > radius
    out_s = y < -radius
    out_e = x > radius
    out_w = x < -radius
    k = out_n + out_s + out_e + out_w
    if k > 0:
        for i in range(n):
            h = homes[i]
            if (
                (h == 0 and out_n)
                or (h == 2 and out_e)
                or (h == 4 and out_s)
                or (h == 6 and out_w)
            ):
                scores[i] = 1.0 / k
        return x, y, True, alive
    return x, y, False, alive


@jit
def play_game_kernel(rules, kinds, scores, caps, work):
    """Play one game (:class:`GameRules` ``rules``, seat ``i`` played by ``kinds[i]``);
    write ``scores`` and the final ``caps`` (n,); return (rounds, x, y). ``work`` is a
    :class:`RoundWork`."""
    n = kinds.shape[0]
    capital = rules.capital
    for i in range(n):
        caps[i] = capital
        scores[i] = 0.0
    x = 0
    y = 0
    if capital < rules.smallest:
        return 0, x, y
    rounds = 0
    has_last = False
    max_rounds = rules.max_rounds
    while True:
        x, y, over, alive = play_round(rules, kinds, x, y, has_last, caps, scores, work)
        has_last = True
        rounds += 1
        if over or rounds >= max_rounds or not alive:
            return rounds, x, y


@parallel_jit
def simulate_games_kernel(seeds, chunk_size, n_games, kinds, rules):
    """Play ``n_games`` games; chunk ``c`` seeds its generator with ``seeds[c]``; seat
    ``i`` played by heuristic ``kinds[i]`` under the :class:`GameRules` ``rules``.

    Returns scores ``(n_games, n)``, rounds ``(n_games,)``, final capitals
    ``(n_games, n)`` and final pawn cells ``(n_games, 2)``.
    """
    n = kinds.shape[0]
    scores = np.zeros((n_games, n))
    rounds = np.zeros(n_games, dtype=np.int64)
    caps = np.zeros((n_games, n), dtype=np.int64)
    pawn = np.zeros((n_games, 2), dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        work = RoundWork(np.zeros((6, MAX_SEATS), dtype=np.int64),
                         np.zeros((7, MAX_SEATS), dtype=np.int64))  # fmt: skip
        for g in range(c * chunk_size, min((c + 1) * chunk_size, n_games)):
            r, x, y = play_game_kernel(rules, kinds, scores[g], caps[g], work)
            rounds[g] = r
            pawn[g, 0] = x
            pawn[g, 1] = y
    return scores, rounds, caps, pawn


@jit
def duel_stage_kernel(y, cap_n, cap_s, rows, cols, dy, cost_n, cost_s, level_of, values,
                      radius, win_n, win_s, payoff, loop):  # fmt: skip
    """Fill the two-player stage game at (y, cap_n, cap_s) (``citadel.stage.duel_matrix``).

    ``rows`` / ``cols``: the orders of N / S offered (indices into the (m, n) outcome
    tables ``dy``, ``cost_n``, ``cost_s``); ``values[y + radius, level N, level S]``:
    the continuation values; ``win_n`` / ``win_s``: the payoff when the pawn leaves
    the board north / south. Writes ``payoff`` and ``loop``, shape (rows, cols): a
    loop entry (the orders leave the state as it is) holds 0.
    """
    for a in range(rows.size):
        i = rows[a]
        for b in range(cols.size):
            j = cols[b]
            y2 = y + dy[i, j]
            cn = max(cap_n - cost_n[i, j], 0)
            cs = max(cap_s - cost_s[i, j], 0)
            stay = y2 == y and cn == cap_n and cs == cap_s
            loop[a, b] = stay
            if y2 > radius:
                payoff[a, b] = win_n
            elif y2 < -radius:
                payoff[a, b] = win_s
            elif stay:
                payoff[a, b] = 0.0
            else:
                payoff[a, b] = values[y2 + radius, level_of[cn], level_of[cs]]


@jit
def _solve(payoff, into, small_gap, warm, kept):
    """One matrix game solved into ``into`` (row and column strategies) from the warm
    start ``warm`` (a pair likewise): ``(value, gap)``, a negative gap when it is not
    solved to ``small_gap``. With ``kept`` the double oracle keeps one simplex tableau as
    it adds orders (``tabletop._oracle.solve_checked_kept``); otherwise it solves each
    restricted game afresh (``tabletop._simplex.solve_checked``, the benchmark's
    baseline)."""
    if kept:
        return solve_checked_kept(payoff, into[0], into[1], small_gap, warm[0], warm[1])
    return solve_checked(payoff, into[0], into[1], small_gap, warm[0], warm[1])


@jit
def _solve_shifted(shifted, loops, worth, into, small_gap, warm, kept):
    """The matrix game with the loop entries (``loops``: their row and column indices,
    two int64 arrays) worth ``worth`` (v: a round that changes nothing, continued at
    value v), solved by :func:`_solve`. ``shifted`` holds the payoffs off
    the loop; only its loop entries are written."""
    loop_i, loop_j = loops
    for k in range(loop_i.size):
        shifted[loop_i[k], loop_j[k]] = worth
    return _solve(shifted, into, small_gap, warm, kept)


@jit
def _guarantees(rest, loop, row, column):
    """``citadel.stage.reply_range`` of ``row`` and ``column``: ``(low, high)``, each
    reply's ratio of the payoff off the loop to the chance of leaving it (0 where that
    chance is 0), the worst over the replies."""
    m, n = rest.shape
    low = np.inf
    for j in range(n):
        gain = 0.0
        leave = 0.0
        for i in range(m):
            if row[i] != 0.0 and not loop[i, j]:
                gain += row[i] * rest[i, j]
                leave += row[i]
        low = min(low, gain / leave if leave > 0.0 else 0.0)
    high = -np.inf
    for i in range(m):
        gain = 0.0
        leave = 0.0
        for j in range(n):
            if column[j] != 0.0 and not loop[i, j]:
                gain += rest[i, j] * column[j]
                leave += column[j]
        high = max(high, gain / leave if leave > 0.0 else 0.0)
    return low, high


@jit
def _pair_value(rest, loop, row, column):
    """The stationary value of a pair of mixed strategies: the payoff off the loop over
    the chance of leaving it, 0 when the pair never leaves the state."""
    gain = 0.0
    leave = 0.0
    for i in range(row.size):
        if row[i] != 0.0:
            a = 0.0
            b = 0.0
            for j in range(column.size):
                if not loop[i, j]:
                    a += rest[i, j] * column[j]
                    b += column[j]
            gain += row[i] * a
            leave += row[i] * b
    return gain / leave if leave > 0.0 else 0.0


@jit
def _clean_into(p, out):
    """``citadel.stage._clean``: weights below 1e-9 dropped, the rest normalised."""
    total = 0.0
    for k in range(p.size):
        out[k] = p[k] if p[k] >= 1e-9 else 0.0
        total += out[k]
    out /= total


@jit
def _keep_best(rest, loop, sol, best, clean, bracket, width):
    """``citadel.stage._Bracket.add`` on the pair ``sol`` (row, column): keep each
    cleaned strategy in ``best`` where its guarantee beats the bracket's end, and update
    ``bracket``, a float array ``(low, high, stuck, stalls, share)``."""
    _clean_into(sol[0], clean[0])
    _clean_into(sol[1], clean[1])
    low, high = _guarantees(rest, loop, clean[0], clean[1])
    up = low > bracket[0] + 0.125 * width
    down = high < bracket[1] - 0.125 * width
    if low > bracket[0]:
        bracket[0] = low
        best[0][:] = clean[0]
    if high < bracket[1]:
        bracket[1] = high
        best[1][:] = clean[1]
    if not (up or down):
        bracket[3] += 1.0
        bracket[4] = np.sqrt(bracket[4])
        return
    bracket[3] = 0.0
    if up and down:
        bracket[2] = 0.0
        bracket[4] = 0.5
        return
    moved = 1.0 if down else -1.0
    bracket[2] = bracket[2] + moved if bracket[2] * moved > 0.0 else moved
    bracket[4] = bracket[4] * bracket[4] if abs(bracket[2]) >= 2.0 else 0.5


@jit
def _next_point(rest, loop, sol, bracket, last_width, width):
    """``citadel.stage._Bracket.next_point``: the next point strictly inside the bracket
    (``bracket`` as :func:`_keep_best` keeps it; ``sol`` the last pair solved)."""
    low = bracket[0]
    high = bracket[1]
    if abs(bracket[2]) >= 2.0:
        share = max(bracket[4] * (high - low), 0.25 * width)
        bracket[4] = share / (high - low)
        return low + share if bracket[2] > 0.0 else high - share
    if high - low <= 0.5 * last_width:
        u = _pair_value(rest, loop, sol[0], sol[1])
        if low < u < high:
            return u
    return 0.5 * (low + high)


@jit
def loop_solve_kernel(payoff, loop, settings, warm, into, kept):
    """``citadel.stage.solve_with_loop`` in compiled code: the same steps in the same
    order (see its docstring), each matrix game solved by :func:`_solve` (``kept``: with
    the double oracle that keeps its simplex tableau). ``settings`` is ``(tol, max_iter,
    stalls, small_gap)``, ``warm`` the pair ``(warm_r, warm_c)`` and ``into`` the pair
    ``(row, column)`` written.

    The first matrix game (the loop worth 0) starts its double oracle from the
    supports of ``warm_r`` / ``warm_c`` (lengths m and n; zeros for none), e.g. a
    neighbouring state's solution; each later one from the one before.
    Writes ``row`` and ``column``; returns ``(value, gap, low, high, ok)``.
    ``ok`` is False when a matrix game was not solved to ``small_gap`` (the caller then
    solves the state another way). Work arrays: the shifted matrix (m, n), the payoff
    off the loop (m, n), four pairs of strategies (the first solved, the current one,
    the one before it, the current one cleaned), each of lengths m and n, and the
    bracket's five numbers.
    """
    tol, max_iter, max_stalls, small_gap = settings
    row, column = into
    m, n = payoff.shape
    first_r, first_c = np.empty(m), np.empty(n)
    value, gap = _solve(payoff, (first_r, first_c), small_gap, warm, kept)
    if gap < 0.0:
        return 0.0, 0.0, 0.0, 0.0, False
    rest = payoff.copy()
    big = 0.0
    n_loop = 0
    for i in range(m):
        for j in range(n):
            big = max(big, abs(payoff[i, j]))
            if loop[i, j]:
                rest[i, j] = 0.0
                n_loop += 1
    if n_loop == 0:
        row[:] = first_r
        column[:] = first_c
        low, high = _guarantees(rest, loop, first_r, first_c)
        return value, gap, low, high, True
    shifted = rest.copy()
    loop_i = np.empty(n_loop, dtype=np.int64)
    loop_j = np.empty(n_loop, dtype=np.int64)
    k = 0
    for i in range(m):
        for j in range(n):
            if loop[i, j]:
                loop_i[k] = i
                loop_j[k] = j
                k += 1
    loops = (loop_i, loop_j)
    first = (first_r, first_c)
    cur = (first_r.copy(), first_c.copy())
    prev = (first_r.copy(), first_c.copy())
    clean = (np.empty(m), np.empty(n))
    best = (row, column)
    width = tol * big
    bracket = np.array([-np.inf, np.inf, 0.0, 0.0, 0.5])
    _keep_best(rest, loop, first, best, clean, bracket, width)
    last_width = np.inf
    for _ in range(max_iter - 1):
        if bracket[1] - bracket[0] <= width or bracket[3] >= max_stalls:
            break
        v = _next_point(rest, loop, cur, bracket, last_width, width)
        last_width = bracket[1] - bracket[0]
        prev[0][:] = cur[0]
        prev[1][:] = cur[1]
        g_u = _solve_shifted(shifted, loops, v, cur, small_gap, prev, kept)[1]
        if g_u < 0.0:
            return 0.0, 0.0, 0.0, 0.0, False
        gap = max(gap, g_u)
        _keep_best(rest, loop, cur, best, clean, bracket, width)
    if abs(bracket[2]) >= 2.0:  # ``citadel.stage._Bracket.value``
        value = bracket[0] if bracket[2] > 0.0 else bracket[1]
    else:
        value = min(max(_pair_value(rest, loop, row, column), bracket[0]), bracket[1])
    return value, gap, bracket[0], bracket[1], True
