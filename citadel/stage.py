"""The one-round game: every seat writes an order at once, for given continuation values.

**Two sides (zero-sum).** In the two-player game (seats N and S; E and W are walls,
docs/rules.md, Master Citadel, so only the pawn's row y matters) the round from
state (y, capital N, capital S) is a matrix game: N picks a row (amount, direction),
S a column; the
entry is the continuation value ``V`` (to N: P(N wins) - P(S wins)) of the state the
orders lead to, or +1 / -1 when the pawn leaves the board. It is solved exactly with
:func:`tabletop.matrix_games.solve_zero_sum`. :class:`DuelSpace` tabulates, once per
rules, what every pair of orders does.

Direction sets (each side's directions; every amount is offered with each):

* ``"axis"``: toward one's own line only (N writes N, S writes S). Tied orders are
  then opposite and cancel: no fee is ever paid. Capitals stay on the bid grid.
* ``"fees"``: N writes N or NE, S writes S or SW. A tie is then either cancelled
  (N vs S, NE vs SW) or 135° apart (a fee for both): every outcome a tie can have in
  this game (a 90° pair, e.g. NE vs SE, moves E: no row change, no fee, like a
  cancel). Capitals take every integer value (fees are 1 point).
* ``"all"``: the eight directions for both sides.

**Three or four independent seats (general-sum)**: :func:`regret_matching`
approximates a Nash equilibrium of any n-player game given as payoff tensors, and
:func:`exploitability` measures, exactly, what each player gains by its best
unilateral deviation against the others' mixed strategies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from citadel._kernels import duel_stage_kernel, loop_solve_kernel, resolve_many_kernel
from citadel.rules import Rules
from tabletop.frozen import same_fields
from tabletop.matrix_games import SMALL_GAP, solve_small_zero_sum, solve_zero_sum

DIRECTION_SETS = {"axis": ((0,), (4,)), "fees": ((0, 1), (4, 5)), "all": (tuple(range(8)),) * 2}


@dataclass(frozen=True, eq=False)
class DuelSpace:
    """Orders and their outcomes in the two-player game (N vs S) under ``rules``.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
        Two-player rules.
    directions : str
        Key of :data:`DIRECTION_SETS`.
    amounts, dirs : tuple of numpy.ndarray
        Per side (0 = N, 1 = S): each action's amount and direction (amount-major,
        an abstention listed once).
    dy, cost_n, cost_s : numpy.ndarray
        ``(actions N, actions S)``: the row step, and what each seat loses (payment
        plus fee) when N plays row i and S plays column j.
    levels : numpy.ndarray
        The capitals a seat can hold, ascending.
    """

    rules: Rules
    directions: str
    amounts: tuple
    dirs: tuple
    dy: np.ndarray
    cost_n: np.ndarray
    cost_s: np.ndarray
    levels: np.ndarray
    level_of: np.ndarray = field(repr=False)

    __eq__ = same_fields

    def legal(self, side: int, capital: int) -> np.ndarray:
        """Indices of the actions side ``side`` may play holding ``capital``."""
        return np.flatnonzero(np.isin(self.amounts[side], self.rules.legal_amounts(capital)))


def duel_space(rules: Rules, directions: str = "axis") -> DuelSpace:
    """Tabulate the two-player stage game's orders and outcomes.

    Examples
    --------
    >>> space = duel_space(Rules(n_players=2, capital=10, bid_step=5))
    >>> space.amounts[0].tolist(), space.dy.tolist()
    ([0, 5, 10], [[0, -1, -1], [1, 0, -1], [1, 1, 0]])
    """
    if rules.n_players != 2:
        raise ValueError(f"the duel is the two-player game, got n_players={rules.n_players}")
    from tabletop.validate import check_choice

    check_choice("directions", directions, tuple(DIRECTION_SETS))
    grid = np.arange(0, rules.capital + 1, rules.bid_step, dtype=np.int64)
    grid = grid[np.isin(grid, rules.legal_amounts(rules.capital)) | (grid == 0)]
    amounts, dirs = [], []
    for side, home in enumerate((0, 4)):
        a = [0] + [int(g) for g in grid if g > 0 for _ in DIRECTION_SETS[directions][side]]
        d = [home] + [dd for g in grid if g > 0 for dd in DIRECTION_SETS[directions][side]]
        amounts.append(np.array(a, dtype=np.int64))
        dirs.append(np.array(d, dtype=np.int64))
    m, n = amounts[0].size, amounts[1].size
    pair_a = np.stack([np.repeat(amounts[0], n), np.tile(amounts[1], m)], axis=1)
    pair_d = np.stack([np.repeat(dirs[0], n), np.tile(dirs[1], m)], axis=1)
    steps, pays, fee = resolve_many_kernel(
        pair_a, pair_d, rules.resolution == "variant", rules.payment == "winners"
    )
    cost = (pays + fee).reshape(m, n, 2)
    if fee.any():
        levels = np.arange(rules.capital + 1, dtype=np.int64)
    else:
        levels = np.arange(rules.capital % rules.bid_step, rules.capital + 1, rules.bid_step)
    level_of = np.full(rules.capital + 1, -1, dtype=np.int64)
    level_of[levels] = np.arange(levels.size)
    return DuelSpace(
        rules, directions, tuple(amounts), tuple(dirs), steps[:, 1].reshape(m, n).copy(),
        cost[:, :, 0].copy(), cost[:, :, 1].copy(), levels, level_of,
    )  # fmt: skip


def duel_matrix(space: DuelSpace, y: int, cap_n: int, cap_s: int, values: np.ndarray):
    """The stage game at (y, cap_n, cap_s) for continuation ``values``.

    Parameters
    ----------
    space : DuelSpace
    y, cap_n, cap_s : int
        The pawn's row and the two capitals (levels of ``space``).
    values : numpy.ndarray
        ``values[y + radius, level N, level S]``: N's continuation value of each state.

    Returns
    -------
    rows, cols : numpy.ndarray
        The legal actions of N and of S (indices into ``space.amounts``).
    payoff : numpy.ndarray
        N's payoff; entries that leave the state unchanged hold 0.
    loop : numpy.ndarray
        True where the orders leave the state unchanged (the entry is then the
        state's own value).
    """
    r = space.rules.radius
    rows = space.legal(0, cap_n)
    cols = space.legal(1, cap_s)
    dy = space.dy[np.ix_(rows, cols)]
    cn = np.maximum(cap_n - space.cost_n[np.ix_(rows, cols)], 0)
    cs = np.maximum(cap_s - space.cost_s[np.ix_(rows, cols)], 0)
    y2 = y + dy
    inside = np.abs(y2) <= r
    payoff = np.where(y2 > r, 1.0, np.where(y2 < -r, -1.0, 0.0))
    loop = (dy == 0) & (cn == cap_n) & (cs == cap_s)
    look = inside & ~loop
    payoff[look] = values[y2[look] + r, space.level_of[cn[look]], space.level_of[cs[look]]]
    return rows, cols, payoff, loop


def distinct_orders(space: DuelSpace, side: int) -> np.ndarray:
    """The orders of ``side`` left when orders of one amount with identical outcomes
    are merged (the first of each class kept), ascending.

    Two orders of the same amount whose row step and costs are the same against every
    order of the other side give identical rows (columns) of every stage game, at
    every state: they are legal together and dropping one changes neither the value
    nor the optimal strategies of the rest. With ``"all"`` eight directions and
    ``payment="all"``, a direction's mirror image across the column (NE and NW, E
    and W, ...) matches it; when only the winners pay it need not (NE against SE
    moves east and both pay, NW against SE cancels and nobody pays).

    Examples
    --------
    >>> space = duel_space(Rules(n_players=2, capital=10, bid_step=5), "all")
    >>> space.amounts[0].size, distinct_orders(space, 0).size
    (17, 11)
    """
    table = np.stack([space.dy, space.cost_n, space.cost_s], axis=-1)
    if side == 1:
        table = table.transpose(1, 0, 2)
    seen, keep = set(), []
    for k, amount in enumerate(space.amounts[side]):
        key = (int(amount), table[k].tobytes())
        if key not in seen:
            seen.add(key)
            keep.append(k)
    return np.array(keep, dtype=np.int64)


class StageBuilder:
    """Stage games of a :class:`DuelSpace` built by a compiled kernel, over the
    :func:`distinct_orders` of each side (``merge=True``) or every order.

    ``legal[side][capital]`` holds the offered orders of each side at each capital.
    """

    def __init__(self, space: DuelSpace, merge: bool = True):
        self.space = space
        rules = space.rules
        self.legal = []
        for side in (0, 1):
            keep = distinct_orders(space, side) if merge else np.arange(space.amounts[side].size)
            by_cap = []
            for cap in range(rules.capital + 1):
                ok = np.isin(space.amounts[side][keep], rules.legal_amounts(cap))
                by_cap.append(np.ascontiguousarray(keep[ok]))
            self.legal.append(by_cap)

    def matrix(self, y: int, cap_n: int, cap_s: int, values: np.ndarray,
               win_n: float = 1.0, win_s: float = -1.0):  # fmt: skip
        """``(rows, cols, payoff, loop)`` as :func:`duel_matrix` returns them, with the
        exit payoffs ``win_n`` / ``win_s``."""
        space = self.space
        rows, cols = self.legal[0][cap_n], self.legal[1][cap_s]
        payoff = np.empty((rows.size, cols.size))
        loop = np.empty((rows.size, cols.size), dtype=np.bool_)
        duel_stage_kernel(y, cap_n, cap_s, rows, cols, space.dy, space.cost_n, space.cost_s,
                          space.level_of, values, space.rules.radius, win_n, win_s,
                          payoff, loop)  # fmt: skip
        return rows, cols, payoff, loop


#: Width of the bracket [low, high] on a state's value at which the search stops,
#: relative to the largest |payoff| of its stage game (:func:`solve_with_loop`).
BRACKET = 1e-10
#: The most stage games solved for one state, the first included.
MAX_STAGES = 60
#: Stage games in a row that move neither end of the bracket after which the search
#: stops (the LP's precision, or a strategy that would need weights below 1e-9).
STALLS = 3


@dataclass(frozen=True, eq=False)
class LoopSolution:
    """A state's stage game solved with its loop entries worth the state itself.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    value : float
        The state's value, inside ``[low, high]`` (see :func:`solve_with_loop`).
    row, column : numpy.ndarray
        The mixed strategies with the best exact guarantees found
        (:func:`reply_range`).
    gap : float
        Largest saddle-point gap of the LPs used.
    low, high : float
        The bracket on the value: what ``row`` guarantees against every reply, and
        what ``column`` concedes at most (:func:`reply_range`).
    """

    value: float
    row: np.ndarray
    column: np.ndarray
    gap: float
    low: float
    high: float

    __eq__ = same_fields

    @property
    def residual(self) -> float:
        """``high - low``: how far ``value`` may lie from the state's exact value (given
        its continuation values), and how much either strategy may give up."""
        return self.high - self.low


def reply_range(payoff, loop, row, column) -> tuple[float, float]:
    """What a mixed strategy of each player guarantees in a state that its ``loop``
    entries repeat, against every reply.

    The opponent of the row strategy x may answer with any order j, repeated until
    the state changes: x then earns (x R'_j) / (x E_j) with R' the payoff off the loop
    (loop entries count 0) and E = 1 - L the chance of leaving the state (a pair that
    never leaves it is a draw, worth 0). A stationary pure reply is a best one (the
    state is a one-state decision problem for the opponent), so

    .. math::

        \\text{low} = \\min_j \\frac{x R'_j}{x E_j}, \\qquad
        \\text{high} = \\max_i \\frac{R'_i y}{E_i y},

    each ratio read as 0 where its denominator is 0. The state's value lies in
    ``[low, high]`` for any x and y; both ends are the value when x and y are optimal.
    The chance of leaving is summed from the entries off the loop, not taken from
    1 - x L_j, so a small chance is not lost to rounding.

    Parameters
    ----------
    payoff : array_like, shape (m, n)
        The row player's payoff; loop entries are ignored.
    loop : array_like of bool, shape (m, n)
        True where the pair of orders leaves the state as it is.
    row, column : array_like
        Mixed strategies of the row player (m) and of the column player (n).

    Returns
    -------
    low, high : float
        The row strategy's guarantee and the column strategy's.

    Examples
    --------
    Abstaining together repeats the state; N gains 1 by bidding when S abstains:

    >>> payoff = np.array([[0.0, -1.0], [1.0, -0.5]])
    >>> loop = np.array([[True, False], [False, False]])
    >>> reply_range(payoff, loop, [0.0, 1.0], [0.0, 1.0])
    (-0.5, -0.5)

    Abstaining for good (row 0) only draws against S's abstention, and loses 1 to a bid:

    >>> reply_range(payoff, loop, [1.0, 0.0], [1.0, 0.0])
    (-1.0, 1.0)
    """
    from tabletop.validate import check_probabilities

    payoff = np.asarray(payoff, dtype=np.float64)
    loop = np.asarray(loop)
    if payoff.ndim != 2 or 0 in payoff.shape or not np.isfinite(payoff).all():
        raise ValueError(f"payoff must be a 2-D array of finite numbers with at least one "
                         f"entry, got shape {payoff.shape}")  # fmt: skip
    if loop.shape != payoff.shape or loop.dtype != np.bool_:
        raise ValueError(f"loop must be a boolean array of the payoff's shape {payoff.shape}, "
                         f"got {loop.dtype} of shape {loop.shape}")  # fmt: skip
    m, n = payoff.shape
    row = check_probabilities("row", row, m)
    column = check_probabilities("column", column, n)
    rest, leave = _off_loop(payoff, loop)
    return _guarantee(row @ rest, row @ leave, min), _guarantee(rest @ column, leave @ column, max)


def _off_loop(payoff: np.ndarray, loop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The payoff off the loop (loop entries 0) and the indicator of leaving, as floats."""
    return np.where(loop, 0.0, payoff), (~loop).astype(np.float64)


def _guarantee(gain: np.ndarray, leave: np.ndarray, worst) -> float:
    """``worst`` (min or max) over the replies of gain / leave (0 where leave is 0)."""
    ratio = np.divide(gain, leave, out=np.zeros_like(gain), where=leave > 0.0)
    return float(worst(ratio))


def _pair_value(rest: np.ndarray, leave: np.ndarray, row: np.ndarray, column: np.ndarray):
    """The stationary value of a pair of mixed strategies: (x R' y) / (x E y), 0 when
    the pair never leaves the state."""
    out = float(row @ leave @ column)
    return float(row @ rest @ column) / out if out > 0.0 else 0.0


def solve_with_loop(payoff: np.ndarray, loop: np.ndarray, tol: float = BRACKET,
                    max_iter: int = MAX_STAGES, solver=solve_zero_sum) -> LoopSolution:  # fmt: skip
    """Value and strategies of a state whose ``loop`` entries are worth the state itself.

    The state is a stochastic game of its own: a round whose orders change nothing
    repeats it, and a game repeated for ever is a draw (0). With f(v) = val(payoff +
    loop v) its value is the fixed point of f nearest 0, but a fixed point found by a
    test on |f(v) - v| can lie far from it where the state repeats with a chance near
    1 (f - v is then nearly flat), and a strategy optimal at v = value may let the
    game loop for ever. So the value is *bracketed by guarantees* instead:

    1. Each stage game solved, at a point v, gives a row strategy x and a column
       strategy y; :func:`reply_range` measures exactly what each guarantees against
       every reply, repeated until the state changes. ``low`` is the best row
       guarantee seen, ``high`` the best column one (each strategy kept with it); the
       value lies in ``[low, high]``. The first stage game is at v = 0.
    2. The next point v is the Newton step on f(v) - v: the stationary value of the
       last pair solved (exact once the supports are right), while it lies strictly
       inside the bracket and the last step at least halved it; otherwise the middle
       of the bracket. At v below the value x guarantees more than v, above it y
       concedes less than v: every step narrows the bracket.
    3. Where one end stays put while the other keeps approaching it, the value is
       likely that end, which the other side can only approach (its strategies would
       need a weight that vanishes at the value): the points go toward that end
       geometrically faster (see ``_Bracket.next_point``).
    4. The search stops when ``high - low <= tol`` times the largest |payoff|, after
       ``STALLS`` stage games in a row that move neither end (the LP's precision, or
       the 1e-9 below which weights are dropped), or after ``max_iter`` stage games.
       The value returned is that stuck end if there is one, else the stationary
       value of the pair kept; either lies inside the bracket.

    The side the value favours (N if low > 0, S if high < 0) then makes progress
    against every reply: a reply that let the game loop for ever would hold its
    strategy to 0, below its guarantee. No margin is given up for it.

    Parameters
    ----------
    payoff : numpy.ndarray, shape (m, n)
        The row player's payoff; loop entries hold 0.
    loop : numpy.ndarray of bool, shape (m, n)
        True where the orders leave the state as it is.
    tol : float
        Width of the bracket, relative to the largest |payoff|, at which to stop.
    max_iter : int
        The most stage games to solve.
    solver : callable
        Solves each matrix game (:func:`tabletop.matrix_games.solve_zero_sum`, or
        :func:`tabletop.matrix_games.solve_small_zero_sum` for small float64 arrays).

    Returns
    -------
    LoopSolution

    References
    ----------
    Shapley, L. S. (1953). Stochastic games. *PNAS* 39(10), 1095-1100. Hoffman, A. J.
    and Karp, R. M. (1966). On nonterminating stochastic games. *Management Science*
    12(5), 359-370 (the guarantee of a stationary strategy as the value of the
    opponent's one-state decision problem).

    Examples
    --------
    Abstaining together repeats the state; N gains 1 by bidding when S abstains:

    >>> out = solve_with_loop(np.array([[0.0, -1.0], [1.0, -0.5]]),
    ...                       np.array([[True, False], [False, False]]))
    >>> round(out.value, 9), out.column.round(6).tolist(), out.high - out.low <= 1e-9
    (-0.5, [0.0, 1.0], True)
    """
    first = solver(payoff)
    rest, leave = _off_loop(payoff, loop)
    if not loop.any():
        low = _guarantee(first.row @ rest, first.row @ leave, min)
        high = _guarantee(rest @ first.column, leave @ first.column, max)
        return LoopSolution(first.value, first.row, first.column, first.gap, low, high)
    width = tol * float(np.abs(payoff).max())
    best = _Bracket(rest, leave)
    best.add(first, width)
    gap, last_width = first.gap, np.inf
    sol = first
    for _ in range(max_iter - 1):
        if best.high - best.low <= width or best.stalls >= STALLS:
            break
        v = best.next_point(sol, last_width, width)
        last_width = best.high - best.low
        sol = solver(payoff + loop * v)
        gap = max(gap, sol.gap)
        best.add(sol, width)
    value = best.value()
    return LoopSolution(value, best.row, best.column, gap, best.low, best.high)


class _Bracket:
    """The best guarantee of each side seen so far, the strategy that gives it, and
    how the last steps moved the bracket (see :meth:`next_point`)."""

    def __init__(self, rest: np.ndarray, leave: np.ndarray):
        self.rest, self.leave = rest, leave
        self.low, self.high = -np.inf, np.inf
        self.row = self.column = None
        self.stuck = 0  # +k: only high moved k steps in a row, -k: only low moved
        self.stalls = 0  # steps in a row that moved neither end
        self.share = 0.5  # the last step's distance from the stuck end, a share of the bracket

    def add(self, sol, width: float) -> None:
        """Keep the (cleaned) strategies of a stage game solved where they guarantee
        more than the best seen, and note which ends moved by more than an eighth of
        the target ``width`` (less is the LP's noise, not progress)."""
        x, y = _clean(sol.row), _clean(sol.column)
        low = _guarantee(x @ self.rest, x @ self.leave, min)
        high = _guarantee(self.rest @ y, self.leave @ y, max)
        up, down = low > self.low + 0.125 * width, high < self.high - 0.125 * width
        if low > self.low:
            self.low, self.row = low, x
        if high < self.high:
            self.high, self.column = high, y
        if not (up or down):
            self.stalls += 1
            self.share = np.sqrt(self.share)  # too near the stuck end: back off
            return
        self.stalls = 0
        if up and down:
            self.stuck, self.share = 0, 0.5
            return
        moved = 1 if down else -1
        self.stuck = self.stuck + moved if self.stuck * moved > 0 else moved
        self.share = self.share**2 if abs(self.stuck) >= 2 else 0.5

    def value(self) -> float:
        """The value inside the bracket: the end that has stayed put for two steps or
        more while the other approached it (a value its side's strategies reach and
        the other's only approach); otherwise the stationary value of the pair kept."""
        if abs(self.stuck) >= 2:
            return self.low if self.stuck > 0 else self.high
        value = _pair_value(self.rest, self.leave, self.row, self.column)
        return min(max(value, self.low), self.high)

    def next_point(self, sol, last_width: float, width: float) -> float:
        """The next point to solve the stage game at, strictly inside the bracket.

        Where one end has stayed put for two steps or more while the other moved, the
        value is likely at (or next to) that end, which its side cannot quite reach (a
        strategy that would need a vanishing weight): the point goes to a share of the
        bracket from it that squares at each such step (1/4, 1/16, 1/256, ...) and
        backs off to its square root after a step that moves neither end; no nearer
        than a quarter of the target ``width``. Otherwise the Newton step from
        ``sol``'s pair, where it is strictly inside and the last step at least halved
        the bracket; else the middle."""
        low, high = self.low, self.high
        if abs(self.stuck) >= 2:
            share = max(self.share * (high - low), 0.25 * width)
            self.share = share / (high - low)
            return low + share if self.stuck > 0 else high - share
        if high - low <= 0.5 * last_width:
            u = _pair_value(self.rest, self.leave, sol.row, sol.column)
            if low < u < high:
                return u
        return 0.5 * (low + high)


def solve_with_loop_small(payoff: np.ndarray, loop: np.ndarray, tol: float = BRACKET,
                          max_iter: int = MAX_STAGES, warm=None,
                          kept: bool = True) -> LoopSolution:  # fmt: skip
    """:func:`solve_with_loop` in compiled code, every matrix game solved by the dense
    simplex, by double oracle past 400 entries; the same steps, so a bracket on the
    same value (of width ``tol`` where both reach it). Where a matrix game is not
    solved to its gap tolerance, :func:`solve_with_loop` solves the state, with HiGHS
    behind the simplex.

    ``warm``: ``(row, column)`` weights of lengths m and n whose supports start the
    double oracle of the first matrix game (a neighbouring state's solution, say);
    the value does not depend on it, only the work to reach it. ``kept``: the double
    oracle keeps one simplex tableau while it adds orders
    (:func:`citadel._kernels.loop_solve_kernel`); otherwise it solves each restricted
    game from the start (:func:`tabletop.matrix_games.solve_small_zero_sum`, the solver before it,
    kept as the benchmark's baseline).

    Examples
    --------
    >>> out = solve_with_loop_small(np.array([[0.0, -1.0], [1.0, -0.5]]),
    ...                             np.array([[True, False], [False, False]]))
    >>> round(out.value, 9), out.column.round(6).tolist(), out.high - out.low <= 1e-9
    (-0.5, [0.0, 1.0], True)
    """
    row, column = np.empty(payoff.shape[0]), np.empty(payoff.shape[1])
    if warm is None:
        warm = (np.zeros(payoff.shape[0]), np.zeros(payoff.shape[1]))
    settings = (float(tol), int(max_iter), float(STALLS), SMALL_GAP)
    value, gap, low, high, ok = loop_solve_kernel(payoff, loop, settings, (warm[0], warm[1]),
                                                  (row, column), bool(kept))  # fmt: skip
    if not ok:
        return solve_with_loop(payoff, loop, tol, max_iter, solver=solve_small_zero_sum)
    return LoopSolution(value, row, column, gap, low, high)


def stationary_value(payoff: np.ndarray, loop: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                     row=None, column=None) -> float:  # fmt: skip
    """A state's value when its ``loop`` entries repeat it and each player either plays
    a fixed mixed order or best-responds with a stationary pure one.

    ``row`` / ``column``: ``(actions, probabilities)`` (actions among ``rows`` /
    ``cols``, the legal ones the matrix is built on) or None, the row player then
    maximising, the column player minimising; at least one is given. An order pair
    repeated for ever is a draw (0); otherwise the value is the payoff off the loop
    divided by the chance of leaving it, summed from the entries off the loop (as in
    :func:`reply_range`: taken as 1 minus the chance of staying, a chance of leaving
    of 1e-9 would lose its eighth digit to rounding).
    """
    gain = np.where(loop, 0.0, payoff)
    leave = (~loop).astype(np.float64)
    if row is not None:
        pick = np.searchsorted(rows, row[0])
        gain, leave = (row[1] @ gain[pick])[None, :], (row[1] @ leave[pick])[None, :]
    if column is not None:
        pick = np.searchsorted(cols, column[0])
        gain, leave = (gain[:, pick] @ column[1])[:, None], (leave[:, pick] @ column[1])[:, None]
    v = np.divide(gain, leave, out=np.zeros_like(gain), where=leave > 0.0)
    if row is None:
        v = v.max(axis=0, keepdims=True)
    if column is None:
        v = v.min(axis=1, keepdims=True)
    return v.item()


def _clean(p: np.ndarray) -> np.ndarray:
    """Drop LP noise (weights below 1e-9) from a mixed strategy: with loops, a weight
    of 1e-10 on a move would change the stationary value after ~1e10 rounds."""
    p = np.where(p < 1e-9, 0.0, p)
    return p / p.sum()


# ---- n independent seats ----------------------------------------------------------------


def _check_payoffs(payoffs) -> list[np.ndarray]:
    if isinstance(payoffs, str) or not hasattr(payoffs, "__iter__"):
        raise TypeError(f"payoffs must be a sequence of payoff arrays, got {payoffs!r:.80}")
    try:
        payoffs = [np.asarray(p, dtype=np.float64) for p in payoffs]
    except (TypeError, ValueError):
        raise TypeError(f"payoffs must be a sequence of arrays of numbers, "
                        f"got {payoffs!r:.80}") from None
    n = len(payoffs)
    if n < 2:
        raise ValueError(f"need payoffs for at least 2 players, got {n}")
    shape = payoffs[0].shape
    if len(shape) != n or any(p.shape != shape for p in payoffs):
        raise ValueError(f"payoffs must be {n} arrays of the same {n}-D shape")
    if 0 in shape:
        raise ValueError(f"payoffs must give every player at least one action, got shape {shape}")
    if not all(np.isfinite(p).all() for p in payoffs):
        raise ValueError("payoffs must hold finite numbers only (no NaN or infinity)")
    return payoffs


def _check_strategies(strategies, shape: tuple[int, ...]) -> list[np.ndarray]:
    """One probability vector per player, of that player's number of actions."""
    from tabletop.validate import check_probabilities

    if isinstance(strategies, np.ndarray) and strategies.ndim == 2:
        strategies = list(strategies)
    try:
        n = len(strategies)
    except TypeError:
        raise TypeError(f"strategies must be a sequence of {len(shape)} probability vectors, "
                        f"got {type(strategies).__name__}") from None  # fmt: skip
    if n != len(shape):
        raise ValueError(f"strategies must hold one mixed strategy per player ({len(shape)}), "
                         f"got {n}")  # fmt: skip
    return [check_probabilities(f"strategies[{i}]", s, k)
            for i, (s, k) in enumerate(zip(strategies, shape, strict=True))]  # fmt: skip


def _action_values(payoff: np.ndarray, strategies, player: int) -> np.ndarray:
    """Expected payoff of each pure action of ``player`` against the others' mixes."""
    out = payoff
    for other in reversed(range(len(strategies))):
        if other != player:
            out = np.tensordot(out, strategies[other], axes=([other], [0]))
    return out


def exploitability(payoffs, strategies) -> np.ndarray:
    """Each player's gain from its best unilateral deviation (exact; 0 at a Nash point).

    Parameters
    ----------
    payoffs : sequence of n arrays, each of shape (m_1, ..., m_n)
        ``payoffs[i][a_1, ..., a_n]``: player i's payoff.
    strategies : sequence of n 1-D arrays
        Mixed strategies: ``strategies[i]`` has one entry per action of player i, each
        >= 0, summing to 1 within 1e-9 (anything else is a ValueError, not a number).

    Examples
    --------
    >>> pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> exploitability([pennies, -pennies], [np.array([0.5, 0.5])] * 2).tolist()
    [0.0, 0.0]
    """
    payoffs = _check_payoffs(payoffs)
    strategies = _check_strategies(strategies, payoffs[0].shape)
    gains = []
    for i, p in enumerate(payoffs):
        values = _action_values(p, strategies, i)
        gains.append(float(values.max() - values @ strategies[i]))
    return np.array(gains)


@dataclass(frozen=True, eq=False)
class RegretResult:
    """Average strategies of regret matching and their exact exploitability.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).
    """

    strategies: tuple[np.ndarray, ...]
    exploitability: np.ndarray
    iterations: int

    __eq__ = same_fields


def regret_matching(payoffs, iterations: int = 2000, *, progress=None) -> RegretResult:
    """Approximate a Nash equilibrium of an n-player game by regret matching.

    Every player updates at once: each action's cumulative regret grows by what it
    would have earned against the others' current strategies less what the current
    strategy earned; the next strategy is proportional to the positive regrets
    (uniform if none). The average strategies are returned with their exact
    :func:`exploitability`. In two-player zero-sum games the averages converge to
    optimal strategies; in general they need not reach a Nash equilibrium, which is
    why the exploitability is measured, not assumed. ``iterations`` is an int >= 1
    (with none there is no average to return). A long run shows a tqdm bar on a
    terminal (``progress=True/False`` forces it on or off) and stops at Ctrl-C.

    Examples
    --------
    >>> rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    >>> res = regret_matching([rps, -rps], 5000)
    >>> bool(res.exploitability.max() < 0.01)
    True
    """
    from tabletop.budget import progress_bar
    from tabletop.validate import check_int

    payoffs = _check_payoffs(payoffs)
    iterations = check_int("iterations", iterations, 1)
    shape = payoffs[0].shape
    n = len(payoffs)
    regrets = [np.zeros(k) for k in shape]
    current = [np.full(k, 1.0 / k) for k in shape]
    total = [np.zeros(k) for k in shape]
    with progress_bar(iterations, "regret matching", progress) as bar:
        for done in range(iterations):
            for i in range(n):
                total[i] += current[i]
            values = [_action_values(payoffs[i], current, i) for i in range(n)]
            for i in range(n):
                regrets[i] += values[i] - values[i] @ current[i]
                positive = np.maximum(regrets[i], 0.0)
                s = positive.sum()
                current[i] = positive / s if s > 0 else np.full(shape[i], 1.0 / shape[i])
            if done % 1024 == 1023:
                bar.update(1024)
        bar.update(iterations % 1024)
    average = tuple(t / t.sum() for t in total)
    return RegretResult(average, exploitability(payoffs, average), iterations)


def stage_payoffs(rules: Rules, state, orders, continuation) -> list[np.ndarray]:
    """Payoff tensors of the one-round game between every seat (general-sum).

    Parameters
    ----------
    rules : Rules
    state : citadel.GameState
    orders : sequence of sequences of (amount, direction)
        The orders each seat may choose from (legal in ``state``; at least one a seat).
    continuation : callable
        ``continuation(next_state) -> sequence of n_players values`` for a state where
        the game goes on; a finished game is worth its scores (1, 1/2 or 0 each).

    Returns
    -------
    list of numpy.ndarray
        ``payoffs[i][a_1, ..., a_n]``: seat i's payoff.

    Examples
    --------
    Two seats, one step from N's line: N's bid of 5 beats S's abstention.

    >>> from citadel.game import GameState
    >>> rules = Rules(n_players=2, radius=1)
    >>> pay = stage_payoffs(rules, GameState((0, 1), (10, 10)),
    ...                     [[(0, "N"), (5, "N")], [(0, "S"), (5, "S")]], lambda s: (0.0, 0.0))
    >>> pay[0].tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    rules = Rules.check(rules, default=False)
    import itertools

    from citadel.game import check_state, play_round

    state = check_state(state, rules)
    if not callable(continuation):
        raise TypeError(f"continuation must be callable, got {type(continuation).__name__}")
    if isinstance(orders, str) or not hasattr(orders, "__iter__"):
        raise TypeError(f"orders must hold one order list per seat, got {orders!r:.80}")
    orders = list(orders)
    if len(orders) != rules.n_players:
        raise ValueError(f"orders must hold one order list for each of the "
                         f"{rules.n_players} seats, got {len(orders)}")
    for seat, choices in enumerate(orders):
        if isinstance(choices, str) or not hasattr(choices, "__len__"):
            raise TypeError(f"orders[{seat}] must be a sequence of (amount, direction) orders, "
                            f"got {choices!r:.80}")  # fmt: skip
        if not len(choices):
            raise ValueError(f"orders[{seat}] must hold at least one order (every seat "
                             f"chooses one), got {choices!r:.80}")  # fmt: skip
    shape = tuple(len(o) for o in orders)
    payoffs = [np.zeros(shape) for _ in range(rules.n_players)]
    for index in itertools.product(*(range(k) for k in shape)):
        result = play_round(state, [orders[i][k] for i, k in enumerate(index)], rules)
        if result.scores is not None:
            values = result.scores
        else:
            values = continuation(result.state)
            try:
                values = np.asarray(values, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError(f"continuation({result.state!r}) must return numbers, "
                                f"got {values!r:.80}") from None
            if values.shape != (rules.n_players,) or not np.isfinite(values).all():
                raise ValueError(f"continuation({result.state!r}) must return "
                                 f"{rules.n_players} finite values, got {values.tolist()!r:.80}")
        for i in range(rules.n_players):
            payoffs[i][index] = values[i]
    return payoffs
