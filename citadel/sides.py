"""Two coalitions facing each other as sides, solved exactly.

Alliances are not binding (docs/rules.md, Master Citadel), but once the seats split
into two sides that each play for the side, the game is zero-sum (a side's payoff is
its members' scores minus the other side's). :func:`solve_sides` solves it by
Shapley's value iteration over the states (pawn cell, pooled capital of each side),
in order of increasing capitals as :mod:`citadel.whole_game` does for 1 vs 1: every
round that changes nothing leaves the state as it is, so each state is a stochastic
game of its own whose loop entries repeat it (:func:`citadel.stage.solve_with_loop`).

Abstraction, stated (and measured by :func:`check_sides` within it):

* **Pooled capital.** A side holds the sum of its members' points and pays from it;
  an author's amount is at most one seat's starting capital.
* **One combined order per side.** A side writes one order (amount ``a``, a member's
  own direction, ``k`` authors): ``k`` members write ``a`` that way and merge
  (strength ``k a``, cost ``k a``), the others abstain. So a side can combine, and be
  countered (docs/rules.md, Resolution, step 2: a single order of the same amount the
  opposite way cancels a combined one); it never splits its members over two
  directions. With each side pulling only toward its own lines no tie can cost a fee,
  so capitals stay on the grid of ``bid_step``.
* **min_bid.** With ``min_bid`` 0 the other members abstain. With ``min_bid`` > 0 a
  member who can bid must (docs/rules.md), so the other members write the smallest
  legal amount ``s`` (:attr:`citadel.Rules.smallest_bid`) in the same direction: the
  side still pulls one way, its ``n - k`` fillers merging among themselves (and with
  the authors when ``a = s``). A pool that cannot pay every member's ``s`` lets as many
  members write ``s`` as it can pay (``pool // s``, all in one direction); an empty one
  abstains.
* **No round limit**: a game that stalls for ever is a draw, as in the 1 vs 1 solve.

Precision: each state's value is bracketed by what its two strategies guarantee
exactly against every reply (:func:`citadel.stage.reply_range`), to a width of
:data:`citadel.stage.BRACKET` of the payoffs where the search reaches it;
``SidesSolution.residual`` is the largest width. A fixed point of ``val(payoff + loop
v) = v`` found by a test on the residual would not do: where a side is indifferent
between ending the game and letting it loop (a *tangent* fixed point, ``val(payoff +
loop v) - v ~ (v - v*)^2``) a residual of 1e-10 leaves the value up to ``sqrt(1e-10) =
1e-5`` from the exact one; the tests measure the values against such a plain solve.

Scores: a win is worth 1 to the seat whose line the pawn crosses, a corner exit 1/2
to each of its two seats; an empty seat's edge is a wall (docs/rules.md, Master Citadel).

The cooperative game these solves define is :mod:`citadel.coalitions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from citadel._kernels import resolve_many_kernel
from citadel.rules import DIRECTIONS, Rules
from citadel.stage import solve_with_loop, stationary_value
from tabletop.budget import Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.validate import (
    NON_NEGATIVE,
    PROBABILITY,
    PROBABILITY_DIFFERENCE,
    check_fields,
    check_instance,
)

if TYPE_CHECKING:
    import pandas as pd


#: Seat names in seat order for four players; a side is a string of them ("NE").
SEATS = ("N", "E", "S", "W")


def check_side(rules: Rules, side) -> tuple[int, ...]:
    """The seat indices of ``side`` (a string such as "NE" or a sequence of seat names),
    a non-empty proper subset of the rules' seats."""
    rules = Rules.check(rules, default=False)
    names = list(side) if isinstance(side, str) else side
    try:
        names = [str(s).strip().upper() for s in names]
    except TypeError:
        raise TypeError(f"side must be a string of seat names such as 'NE', got {side!r}") from None
    unknown = [s for s in names if s not in rules.seats]
    if unknown:
        raise ValueError(f"side {side!r}: seat(s) {unknown} not among {rules.seats}")
    seats = tuple(sorted({rules.seats.index(s) for s in names}))
    if not seats or len(seats) == rules.n_players or len(seats) != len(names):
        raise ValueError(f"side {side!r} must name distinct seats, at least one and not all "
                         f"of {rules.seats}")  # fmt: skip
    return seats


def side_name(rules: Rules, seats) -> str:
    """The seats' names in seat order, e.g. ``"NE"``."""
    return "".join(rules.seats[i] for i in sorted(seats))


@dataclass(frozen=True, eq=False)
class SidesSpace:
    """Combined orders of two sides and what every pair of them does.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
    sides : tuple of two tuples of int
        Seat indices of side A and of side B (the other seats).
    amounts, dirs, authors : tuple of numpy.ndarray
        Per side: each action's per-author amount, direction and number of authors
        (action 0 is the abstention).
    writers : tuple of numpy.ndarray
        Per side: how many members write an order (the authors, then fillers who
        write ``rules.smallest_bid`` the same way; more than the authors only when
        ``min_bid`` > 0); 0 for the abstention.
    spend : tuple of numpy.ndarray
        Per side: the points its members write in all (at most the pooled capital).
    dx, dy : numpy.ndarray
        ``(actions A, actions B)``: the pawn's step before walls.
    cost : tuple of numpy.ndarray
        Per side, ``(actions A, actions B)``: what the side pays.
    levels : tuple of numpy.ndarray
        Per side, the pooled capitals it can hold (ascending).
    level_of : tuple of numpy.ndarray
        Per side, capital -> level index (-1 off the grid).
    compass : tuple of bool
        Per side, whether it may write any of the eight directions.
    """

    rules: Rules
    sides: tuple
    amounts: tuple
    dirs: tuple
    authors: tuple
    dx: np.ndarray
    dy: np.ndarray
    cost: tuple
    levels: tuple
    level_of: tuple = field(repr=False)
    compass: tuple = (False, False)
    writers: tuple = ()
    spend: tuple = ()

    __eq__ = same_fields

    def legal(self, side: int, capital: int) -> np.ndarray:
        """Indices of the actions side ``side`` may play holding pooled ``capital``.

        With ``min_bid`` > 0 every member writes while the pool can pay each one's
        smallest amount; below that as many members as it can pay write the smallest
        amount (none: the abstention).
        """
        spend = self.spend[side]
        if self.rules.min_bid == 0:
            return np.flatnonzero(spend <= capital)
        members = len(self.sides[side])
        every = np.flatnonzero((self.writers[side] == members) & (spend <= capital))
        if every.size:
            return every
        smallest = self.rules.smallest_bid
        can = capital // smallest
        return np.flatnonzero((self.writers[side] == can) & (spend == can * smallest))

    def pool(self, side: int) -> int:
        """The side's pooled starting capital."""
        return self.rules.capital * len(self.sides[side])


def sides_space(rules: Rules, side="NE", compass=(False, False)) -> SidesSpace:
    """Tabulate the stage game between ``side`` (A) and the other seats (B).

    ``compass[i]`` lets side i write its combined order in any of the eight
    directions rather than its members' own (to measure the abstraction: ties can
    then cost fees, so every integer capital is a level).

    Examples
    --------
    >>> space = sides_space(Rules(capital=10, bid_step=5), "NE")
    >>> [DIRECTIONS[d] for d in space.dirs[0]], space.authors[0].tolist()
    (['N', 'N', 'N', 'E', 'E', 'N', 'N', 'E', 'E'], [1, 1, 2, 1, 2, 1, 2, 1, 2])
    """
    seats_a = check_side(rules, side)
    seats_b = tuple(i for i in range(rules.n_players) if i not in seats_a)
    homes = rules.homes
    grid = [int(a) for a in rules.legal_amounts(rules.capital) if a > 0]
    low = rules.smallest_bid
    amounts, dirs, authors, writers = [], [], [], []
    for seats, everywhere in zip((seats_a, seats_b), compass, strict=True):
        ways = range(8) if everywhere else [int(homes[s]) for s in seats]
        n_m = len(seats)
        acts = [(0, int(homes[seats[0]]), 1, 0)]
        if rules.min_bid == 0:
            acts += [(a, d, k, k) for a in grid for d in ways for k in range(1, n_m + 1)]
        else:  # every member writes; fillers write the smallest amount the same way
            acts += [(low, d, w, w) for w in range(1, n_m) for d in ways]  # a short pool
            acts += [(a, d, k, n_m) for a in grid for d in ways for k in range(1, n_m + 1)
                     if a != low or k == n_m]  # fmt: skip
        for out, col in zip((amounts, dirs, authors, writers), zip(*acts, strict=True),
                            strict=True):  # fmt: skip
            out.append(np.array(col, dtype=np.int64))
    spend = tuple(a * k + (w - k).clip(0) * low
                  for a, k, w in zip(amounts, authors, writers, strict=True))  # fmt: skip
    m, n = amounts[0].size, amounts[1].size
    order_a = np.zeros((m, n, rules.n_players), dtype=np.int64)
    order_d = np.zeros((m, n, rules.n_players), dtype=np.int64)
    for side, seats in enumerate((seats_a, seats_b)):
        for rank, seat in enumerate(seats):
            a = np.where(authors[side] > rank, amounts[side],
                         np.where(writers[side] > rank, low, 0))  # fmt: skip
            d = dirs[side]
            if side == 0:
                order_a[:, :, seat] = a[:, None]
                order_d[:, :, seat] = d[:, None]
            else:
                order_a[:, :, seat] = a[None, :]
                order_d[:, :, seat] = d[None, :]
    steps, pays, fee = resolve_many_kernel(
        order_a.reshape(m * n, -1), order_d.reshape(m * n, -1),
        rules.resolution == "variant", rules.payment == "winners",
    )  # fmt: skip
    if fee.any() and not any(compass):  # pragma: no cover - own lines never tie at 45°/135°
        raise AssertionError("a fee in the two-sides game: capitals would leave the grid")
    pays = (pays + fee).reshape(m, n, -1)
    cost = tuple(pays[:, :, list(seats)].sum(axis=2) for seats in (seats_a, seats_b))
    levels, level_of = [], []
    for seats in (seats_a, seats_b):
        pool = rules.capital * len(seats)
        step = 1 if fee.any() else rules.bid_step
        lv = np.arange(pool % step, pool + 1, step, dtype=np.int64)
        of = np.full(pool + 1, -1, dtype=np.int64)
        of[lv] = np.arange(lv.size)
        levels.append(lv)
        level_of.append(of)
    return SidesSpace(
        rules, (seats_a, seats_b), tuple(amounts), tuple(dirs), tuple(authors),
        steps[:, 0].reshape(m, n).copy(), steps[:, 1].reshape(m, n).copy(), cost,
        tuple(levels), tuple(level_of), tuple(bool(c) for c in compass), tuple(writers),
        spend,
    )  # fmt: skip


def order_name(space: SidesSpace, side: int, action: int) -> str:
    """A combined order as text: ``"2 x 10 N"``, with fillers ``"1 x 10 N + 1 x 5 N"``."""
    a, k = int(space.amounts[side][action]), int(space.authors[side][action])
    if a == 0:
        return "abstain"
    way = DIRECTIONS[space.dirs[side][action]]
    name = f"{k} x {a} {way}"
    fill = int(space.writers[side][action]) - k
    return name + (f" + {fill} x {space.rules.smallest_bid} {way}" if fill > 0 else "")


def pawn_moves(rules: Rules, x: int, y: int, dx: np.ndarray, dy: np.ndarray):
    """The pawn's next cell from (x, y), an empty seat's edge acting as a wall."""
    r = rules.radius
    x2 = x + dx
    y2 = y + dy
    seated = set(rules.seats)
    for name, blocked in (("E", x2 > r), ("W", x2 < -r)):
        if name not in seated:
            x2 = np.where(blocked, x, x2)
    for name, blocked in (("N", y2 > r), ("S", y2 < -r)):
        if name not in seated:
            y2 = np.where(blocked, y, y2)
    return x2, y2


def exit_scores(rules: Rules, x2: np.ndarray, y2: np.ndarray, weights: np.ndarray):
    """Weighted sum of the seats' scores where the pawn is off the board (0 inside)."""
    r = rules.radius
    out = {"N": y2 > r, "S": y2 < -r, "E": x2 > r, "W": x2 < -r}
    crossed = sum(out[s].astype(np.int64) for s in rules.seats)
    total = np.zeros(x2.shape)
    for i, s in enumerate(rules.seats):
        total += np.where(out[s], weights[i] / np.maximum(crossed, 1), 0.0)
    return total, crossed > 0


def _states(space: SidesSpace):
    r = space.rules.radius
    for la, ca in enumerate(space.levels[0]):
        for lb, cb in enumerate(space.levels[1]):
            for x in range(-r, r + 1):
                for y in range(-r, r + 1):
                    yield x, y, la, lb, int(ca), int(cb)


def _stage(space: SidesSpace, values, weights, x, y, ca, cb, rows=None, cols=None):
    """Payoff (weighted scores or continuation values) and loop flags at one state."""
    rows = space.legal(0, ca) if rows is None else rows
    cols = space.legal(1, cb) if cols is None else cols
    block = np.ix_(rows, cols)
    x2, y2 = pawn_moves(space.rules, x, y, space.dx[block], space.dy[block])
    ca2 = np.maximum(ca - space.cost[0][block], 0)
    cb2 = np.maximum(cb - space.cost[1][block], 0)
    payoff, out = exit_scores(space.rules, x2, y2, weights)
    loop = (x2 == x) & (y2 == y) & (ca2 == ca) & (cb2 == cb)
    look = ~out & ~loop
    r = space.rules.radius
    payoff[look] = values[x2[look] + r, y2[look] + r,
                          space.level_of[0][ca2[look]], space.level_of[1][cb2[look]]]  # fmt: skip
    return rows, cols, payoff, loop


@dataclass(frozen=True, eq=False)
class SidesSolution:
    """The game between two sides solved on a bid grid.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    space : SidesSpace
    values : numpy.ndarray
        ``values[x + radius, y + radius, level A, level B]``: side A's payoff under
        optimal play: its expected score minus side B's (``objective="difference"``)
        or its expected score (``"score"``, side B minimising it).
    row, column : dict
        ``(x, y, capital A, capital B) -> (actions, probabilities)``: optimal mixed
        combined orders of side A and of side B.
    residual, lp_gap : float
        Largest width of a state's bracket on its value (see the module docstring)
        and largest LP saddle-point gap over the states (finite, >= 0 within 1e-9).
    objective : str
        ``"difference"`` or ``"score"`` (:func:`solve_sides`).

    Examples
    --------
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> sol.names, sol.values.shape[:2], sol.objective
    (('NE', 'SW'), (3, 3), 'difference')
    """

    space: SidesSpace
    values: np.ndarray
    row: dict
    column: dict
    residual: float
    lp_gap: float
    objective: str = "difference"

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, residual=NON_NEGATIVE, lp_gap=NON_NEGATIVE,
                     objective=tuple(OBJECTIVES))

    @property
    def rules(self) -> Rules:
        return self.space.rules

    @property
    def names(self) -> tuple[str, str]:
        """The two sides' names, e.g. ``("NE", "SW")``."""
        return tuple(side_name(self.rules, s) for s in self.space.sides)

    def value(self, x: int = 0, y: int = 0, cap_a: int | None = None,
              cap_b: int | None = None) -> float:  # fmt: skip
        """Side A's value at a state (default: the start), see ``values``."""
        r = self.rules.radius
        if not (-r <= x <= r and -r <= y <= r):
            raise ValueError(f"(x, y) must be on the board (-{r}..{r}), got ({x}, {y})")
        levels = []
        for side, cap in enumerate((cap_a, cap_b)):
            cap = self.space.pool(side) if cap is None else cap
            of = self.space.level_of[side]
            if not (0 <= cap < of.size) or of[cap] < 0:
                raise ValueError(f"capital {cap} is not a pooled capital of side "
                                 f"{self.names[side]} on this grid "
                                 f"({self.space.levels[side][0]}..{self.space.levels[side][-1]} "
                                 f"by {self.rules.bid_step})")  # fmt: skip
            levels.append(of[cap])
        return float(self.values[x + r, y + r, levels[0], levels[1]])

    def opening(self, side: int = 0) -> pd.Series:
        """Side A's (0) or B's (1) optimal mixed combined order at the start."""
        import pandas as pd

        start = (0, 0, self.space.pool(0), self.space.pool(1))
        actions, probs = (self.row if side == 0 else self.column)[start]
        sp = self.space
        names = [order_name(sp, side, a) for a in actions]
        return pd.Series(probs, index=pd.Index(names, name="order"), name="probability")


#: Side A's payoff per point scored by side A and by side B, for each objective.
OBJECTIVES = {"difference": (1.0, -1.0), "score": (1.0, 0.0)}


#: Bytes a solved state keeps: its value and both sides' mixed orders (dict entries with
#: their small arrays), measured with tracemalloc on radius 1, capital 10-20, bid step 5.
STATE_BYTES = 1100

#: Seconds per state: a fixed part and a part per entry of the state's stage game, fitted
#: to 15 solves (radius 1 to 3, capital 10 to 100, bid_step 5 to 50, sides NE, NS and N;
#: 189 to 3,969 states, 3 x 19 to 17 x 17 orders) in CPU seconds on the 2-core reference
#: machine (2026-11-26): 6.7 ms + 2.9 us an entry, rounded up by about 20%.
STATE_SECONDS = (0.008, 5e-6)


def sides_size(rules: Rules, side="NE", compass: bool = False) -> Estimate:
    """Memory and time of :func:`solve_sides`, from the rules alone: the stage tables
    (``m x n`` combined orders of the two sides, resolved for every pair) and, per
    state (pawn cell x pooled capital of each side), its value and both mixed orders.

    Examples
    --------
    >>> est = sides_size(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> est.knobs["states"], est.knobs["orders"]
    (225, '9 x 9')
    """
    seats_a = check_side(rules, side)
    seats_b = tuple(i for i in range(rules.n_players) if i not in seats_a)
    grid = rules.capital // rules.bid_step - (rules.smallest_bid - 1) // rules.bid_step
    grid = max(grid, 0)  # positive legal amounts of one seat's capital
    low_in_grid = rules.smallest_bid <= rules.capital
    orders, levels = [], []
    for seats in (seats_a, seats_b):
        n_m = len(seats)
        ways = 8 if compass else n_m
        if rules.min_bid == 0:
            m = 1 + grid * ways * n_m
        else:
            m = 1 + (n_m - 1) * ways + grid * ways * n_m - (ways * (n_m - 1) if low_in_grid else 0)
        orders.append(m)
        step = 1 if compass else rules.bid_step
        levels.append(rules.capital * n_m // step + 1)
    m, n = orders
    states = (2 * rules.radius + 1) ** 2 * levels[0] * levels[1]
    nbytes = m * n * (40 * rules.n_players + 128) + states * STATE_BYTES
    seconds = states * (STATE_SECONDS[0] + STATE_SECONDS[1] * m * n)
    return Estimate("citadel.solve_sides", int(nbytes),
                    {"radius": rules.radius, "capital": rules.capital,
                     "bid_step": rules.bid_step, "compass": compass, "states": states,
                     "orders": f"{m} x {n}"},
                    seconds, f"{states:,} states x {STATE_BYTES} bytes, stage tables "
                    f"{m} x {n}")  # fmt: skip


def solve_sides(rules: Rules, side="NE", objective: str = "difference",
                compass: bool = False, *, allow_large: bool = False,
                progress: bool | None = None) -> SidesSolution:  # fmt: skip
    """Solve the game between ``side`` and the other seats (see the module docstring).

    Parameters
    ----------
    rules : Rules
        Any number of players; with ``min_bid`` > 0 the members who are not authors
        write the smallest legal amount the same way (see the module docstring).
    side : str or sequence of str
        Side A's seats, e.g. ``"NE"`` (N + E against S + W) or ``"N"`` (N alone
        against the others).
    objective : {"difference", "score"}
        Side A's payoff: its score minus side B's (the zero-sum game between two
        coalitions, default) or its own score, side B minimising it (what side A can
        guarantee itself: its coalition value).
    compass : bool
        Let both sides write their combined order in any of the eight directions
        (default: their members' own directions). Ties can then cost fees, so every
        integer capital is a state: for small boards.
    allow_large : bool
        Solve even when the tables (:func:`sides_size`) exceed the memory available
        (default False: refuse with a one-line ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar over the states (default: when stderr is a terminal). The
        states are solved one by one in Python, so Ctrl-C stops the solve between two.

    Returns
    -------
    SidesSolution

    Examples
    --------
    N + E against S + W: the board's half-turn swaps the sides, so the start is worth 0;
    with the pawn one step from N's line, N + E are favoured.

    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> abs(sol.value()) < 1e-9, sol.value(0, 1) > 0.2
    (True, True)
    """
    from tabletop.validate import check_bool, check_choice

    rules = Rules.check(rules, default=False)
    objective = check_choice("objective", objective, tuple(OBJECTIVES))
    compass = check_bool("compass", compass)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(sides_size(rules, side, compass), allow_large,
                 hint="lower the radius or the capital, or raise bid_step")  # fmt: skip
    space = sides_space(rules, side, (compass, compass))
    r = rules.radius
    shape = (2 * r + 1, 2 * r + 1, space.levels[0].size, space.levels[1].size)
    values = np.zeros(shape)
    weights = side_weights(space, OBJECTIVES[objective])
    row, column = {}, {}
    residual = lp_gap = 0.0
    bar = progress_bar(values.size, f"citadel sides {side_name(rules, space.sides[0])}",
                       progress, "state")  # fmt: skip
    with bar:
        for state in _states(space):
            residual, lp_gap = _solve_state(space, values, weights, state, row, column,
                                            residual, lp_gap)  # fmt: skip
            bar.update(1)
    return SidesSolution(space, values, row, column, residual, lp_gap, objective)


def _solve_state(space, values, weights, state, row, column, residual, lp_gap):
    """Solve one state into ``values``, ``row`` and ``column``; the running maxima."""
    x, y, la, lb, ca, cb = state
    r = space.rules.radius
    rows, cols, payoff, loop = _stage(space, values, weights, x, y, ca, cb)
    sol = solve_with_loop(payoff, loop)
    values[x + r, y + r, la, lb] = sol.value
    keep_r = sol.row > 1e-12
    keep_c = sol.column > 1e-12
    row[(x, y, ca, cb)] = (rows[keep_r], sol.row[keep_r] / sol.row[keep_r].sum())
    column[(x, y, ca, cb)] = (cols[keep_c], sol.column[keep_c] / sol.column[keep_c].sum())
    residual = max(residual, sol.residual)
    lp_gap = max(lp_gap, sol.gap)
    return residual, lp_gap


def side_weights(space: SidesSpace, per_side) -> np.ndarray:
    """Each seat's weight in a side's objective: ``per_side[k]`` for the seats of side
    ``k``."""
    w = np.zeros(space.rules.n_players)
    for side, seats in enumerate(space.sides):
        w[list(seats)] = per_side[side]
    return w


def _policy(sol: SidesSolution, side: int, space: SidesSpace):
    """Side ``side``'s solution strategy as actions of ``space`` (a space with the same
    or more orders); a capital off the solution's grid plays as the level below it."""
    own = sol.space
    table = sol.row if side == 0 else sol.column
    def keys(sp):
        return list(zip(sp.amounts[side].tolist(), sp.dirs[side].tolist(),
                        sp.authors[side].tolist(), sp.writers[side].tolist(),
                        strict=True))  # fmt: skip

    index = {key: i for i, key in enumerate(keys(space))}
    mapped = np.array([index[key] for key in keys(own)])

    def floor(levels, capital):
        return int(levels[np.searchsorted(levels, capital, side="right") - 1])

    def act(x, y, ca, cb):
        actions, probs = table[(x, y, floor(own.levels[0], ca), floor(own.levels[1], cb))]
        return mapped[actions], probs

    return act


def evaluate_sides(sol: SidesSolution, per_side=None, respond: int | None = None,
                   full: bool = False, compass: bool = False):  # fmt: skip
    """Side A's expected payoff from the start under the solution's strategies.

    The payoff is ``per_side[0]`` per point side A scores plus ``per_side[1]`` per
    point side B scores (default: the solution's objective; ``(1, 0)``: A's expected
    score). With ``respond=0`` (1) side A (B) best-responds instead of following its
    strategy: it maximises (minimises) the payoff over stationary orders, states in
    order of increasing capitals, a state repeated for ever being a draw. Exact.
    With ``compass`` the responder may write its combined order in any of the eight
    directions (the other side keeps its strategy; a capital that fees take off the
    grid plays as the level below it): what the abstraction leaves on the table.
    Returns the start's value, or with ``full`` every state's.
    """
    from tabletop.validate import check_bool

    compass, full = check_bool("compass", compass), check_bool("full", full)
    if compass and respond not in (0, 1):
        raise ValueError(f"compass needs a responder (respond=0 or 1), got respond={respond!r}")
    own = sol.space.compass
    space = sides_space(sol.rules, sol.names[0], (own[0] or respond == 0, own[1] or respond == 1)) \
        if compass else sol.space
    fixed = {side: _policy(sol, side, space) for side in (0, 1) if side != respond}
    r = space.rules.radius
    values = np.zeros((2 * r + 1, 2 * r + 1, space.levels[0].size, space.levels[1].size))
    weights = side_weights(space, OBJECTIVES[sol.objective] if per_side is None else per_side)
    for x, y, la, lb, ca, cb in _states(space):
        rows, cols, payoff, loop = _stage(space, values, weights, x, y, ca, cb)
        values[x + r, y + r, la, lb] = stationary_value(
            payoff, loop, rows, cols,
            fixed[0](x, y, ca, cb) if 0 in fixed else None,
            fixed[1](x, y, ca, cb) if 1 in fixed else None,
        )  # fmt: skip
    if full:
        return values
    return float(values[r, r, -1, -1])


def compass_check(sol: SidesSolution) -> pd.Series:
    """What a side gains against the solution by writing its combined order in any of
    the eight directions (the abstraction's price, measured exactly).

    Returns
    -------
    pandas.Series
        ``a_guarantees`` (A's payoff when B responds with the full compass),
        ``b_concedes`` (A's payoff when A does), and ``exploitability``, their
        difference (compare ``check_sides(sol).exploitability``, within the
        abstraction).

    Examples
    --------
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
    >>> float(compass_check(sol)["exploitability"]) >= check_sides(sol).exploitability - 1e-9
    True
    """
    import pandas as pd

    guaranteed = evaluate_sides(sol, respond=1, compass=True)
    conceded = evaluate_sides(sol, respond=0, compass=True)
    return pd.Series({"a_guarantees": guaranteed, "b_concedes": conceded,
                      "exploitability": max(conceded - guaranteed, 0.0)}, name=sol.names[0])


@dataclass(frozen=True)
class SidesCheck:
    """How good a two-sides solution is, from the start (within the abstraction).

    Attributes
    ----------
    value : float
        The solution's value to side A (in its objective).
    a_guarantees, b_concedes : float
        A's payoff (in the objective) when A plays its strategy and B best-responds /
        when B plays its strategy and A best-responds.
    exploitability : float
        ``b_concedes - a_guarantees`` (>= 0; 0 for an exact equilibrium).
    score_a, score_b, p_draw : float
        Expected scores of the two sides and the draw chance under the solution.

    ``value``, ``a_guarantees`` and ``b_concedes`` are in -1..1, the scores and the
    draw chance in 0..1, each within 1e-9 (rounding).

    Examples
    --------
    One seat against the other three cannot win: its guaranteed score is 0.

    >>> chk = check_sides(solve_sides(Rules(radius=1, capital=10, bid_step=5), "N",
    ...                               objective="score"))
    >>> abs(chk.value) < 1e-9, abs(chk.score_a) < 1e-9
    (True, True)
    """

    value: float
    a_guarantees: float
    b_concedes: float
    exploitability: float
    score_a: float
    score_b: float
    p_draw: float

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, a_guarantees=PROBABILITY_DIFFERENCE,
                     b_concedes=PROBABILITY_DIFFERENCE, exploitability=(0.0, None),
                     score_a=PROBABILITY, score_b=PROBABILITY, p_draw=PROBABILITY)


def check_sides(sol: SidesSolution) -> SidesCheck:
    """Best responses to the solution and the outcome's odds.

    Each side's best response to the other's strategy is computed exactly over the
    solution's abstraction (its bid grid and directions), from the start.

    Parameters
    ----------
    sol : SidesSolution

    Returns
    -------
    SidesCheck

    Examples
    --------
    >>> chk = check_sides(solve_sides(Rules(radius=1, capital=10, bid_step=5), "N"))
    >>> chk.exploitability < 1e-9, round(chk.score_a + chk.score_b + chk.p_draw, 12)
    (True, 1.0)
    """
    check_instance("sol", sol, SidesSolution)
    guaranteed = evaluate_sides(sol, respond=1)
    conceded = evaluate_sides(sol, respond=0)
    score_a = evaluate_sides(sol, (1.0, 0.0))
    score_b = evaluate_sides(sol, (0.0, 1.0))
    return SidesCheck(
        value=sol.value(),
        a_guarantees=guaranteed,
        b_concedes=conceded,
        exploitability=max(conceded - guaranteed, 0.0),
        score_a=score_a,
        score_b=score_b,
        p_draw=max(1.0 - score_a - score_b, 0.0),
    )


def simulate_sides(sol: SidesSolution, n: int, seed=None, max_rounds: int | None = None
                   ) -> pd.DataFrame:  # fmt: skip
    """Play ``n`` games of the two-sides game with the solution's mixed orders.

    Plain Python, independent of the solve's tables: each round both sides draw a
    combined order from their strategy at the current state, the members' orders are
    resolved by the reference resolution (``citadel.resolve.resolve_reference``), the
    side pays what its members pay, and walls and scores follow docs/rules.md.

    Parameters
    ----------
    sol : SidesSolution
    n : int
        Games.
    seed : None, int, SeedSequence or Generator
    max_rounds : int, optional
        Rounds before a game is called a draw (default ``sol.rules.max_rounds``).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``score_a``, ``score_b`` (0, 1/2 or 1) and ``rounds``.

    Examples
    --------
    >>> sol = solve_sides(Rules(radius=1, capital=10, bid_step=5), "N")
    >>> simulate_sides(sol, 3, seed=1)["score_b"].tolist()   # three seats beat one
    [1.0, 1.0, 1.0]
    """
    check_instance("sol", sol, SidesSolution)
    import pandas as pd

    from citadel.resolve import resolve_reference
    from tabletop.seeding import as_generator, check_count

    n = check_count("n", n, 1)
    rules, space = sol.rules, sol.space
    max_rounds = rules.max_rounds if max_rounds is None else check_count("max_rounds",
                                                                         max_rounds, 1)
    rng = as_generator(seed)
    r = rules.radius
    weights = [side_weights(space, (1.0, 0.0)), side_weights(space, (0.0, 1.0))]
    rows = []
    for _ in range(n):
        x = y = 0
        caps = [space.pool(0), space.pool(1)]
        scores = (0.0, 0.0)
        played = 0
        while played < max_rounds:
            played += 1
            amounts = np.zeros(rules.n_players, dtype=np.int64)
            directions = np.zeros(rules.n_players, dtype=np.int64)
            for side, table in enumerate((sol.row, sol.column)):
                actions, probs = table[(x, y, caps[0], caps[1])]
                act = actions[rng.choice(len(actions), p=probs)]
                for rank, seat in enumerate(space.sides[side]):
                    if rank < space.authors[side][act]:
                        amounts[seat] = space.amounts[side][act]
                    elif rank < space.writers[side][act]:  # a filler (min_bid > 0)
                        amounts[seat] = rules.smallest_bid
                    directions[seat] = space.dirs[side][act]
            res = resolve_reference(amounts, directions, rules.resolution, rules.payment)
            for side, seats in enumerate(space.sides):
                caps[side] -= sum(res.pays[i] + res.fee[i] for i in seats)
            x2, y2 = pawn_moves(rules, x, y, np.array(res.step[0]), np.array(res.step[1]))
            x, y = int(x2), int(y2)
            if max(abs(x), abs(y)) > r:
                scores = tuple(float(exit_scores(rules, np.array(x), np.array(y), w)[0])
                               for w in weights)  # fmt: skip
                break
        rows.append((scores[0], scores[1], played))
    return pd.DataFrame(rows, columns=["score_a", "score_b", "rounds"]).rename_axis("game")
