"""The whole two-player game (N vs S), solved by Shapley's value iteration on a bid grid.

The game is zero-sum: N's payoff is +1 if N wins, -1 if S wins, 0 for a draw, so the
value V = P(N wins) - P(S wins). The state is (y, capital N, capital S): with two
players E and W are walls, so the pawn's column never matters. Shapley's operator
maps V to the value of every state's stage game (:mod:`citadel.stage`) with V as
continuation. Capitals never rise and every round that changes nothing but the
round count leaves the state as it is, so the states are solved in order of
increasing capitals, each as a stochastic game of its own whose loop entries repeat it
(:func:`citadel.stage.solve_with_loop`): one sweep of value iteration. Each state's
value is bracketed by the exact guarantees of its two stored strategies
(``DuelGameSolution.bracket``, :func:`citadel.stage.reply_range`), to a width of
:data:`citadel.stage.BRACKET`, and the side a state favours always makes progress there
(it never lets the game stall into a draw).

Abstractions, stated and measured:

* **Bid grid.** Amounts are multiples of ``rules.bid_step``; coarsening it is part
  of the answer (``value_by_grid``; :func:`grid_convergence` tabulates the standard
  states grid by grid, with every direction by default).
* **Directions.** ``"axis"`` (default) offers each side only its own direction;
  ``"fees"`` adds the 45° neighbour, which lets a side provoke a fee at a tie. The
  ``best_response`` measure plays against the solution with every legal order of
  the eight directions, so the loss from the abstraction is measured.
* **Round limit.** The state has no round counter: a game that stalls for ever is a
  draw, as it is at ``max_rounds`` (the finite limit is ignored).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from citadel.rules import DIRECTIONS, Rules
from citadel.stage import (
    DuelSpace,
    StageBuilder,
    duel_matrix,
    duel_space,
    solve_with_loop,
    solve_with_loop_small,
    stationary_value,
)
from tabletop.budget import Estimate, check_memory, duration, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.validate import (
    NON_NEGATIVE,
    PROBABILITY,
    PROBABILITY_DIFFERENCE,
    check_choice,
    check_fields,
    check_instance,
)

if TYPE_CHECKING:
    import pandas as pd

logger = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class DuelGameSolution:
    """The two-player game solved on a bid grid.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    space : DuelSpace
        Orders and outcomes.
    values : numpy.ndarray
        ``values[y + radius, level N, level S]``: V = P(N wins) - P(S wins).
    row, column : dict
        ``(y, cap_n, cap_s) -> (actions, probabilities)``: optimal mixed orders of
        N and of S in each state (actions index ``space.amounts``).
    residual : float
        Largest width of a state's bracket, ``(bracket[..., 1] - bracket[..., 0]).max()``
        (finite, >= 0 within 1e-9).
    lp_gap : float
        Largest saddle-point gap reported by the LP solver (finite, >= 0 within 1e-9).
    bracket : numpy.ndarray
        ``bracket[y + radius, level N, level S] = (low, high)``: what N's strategy
        there guarantees against every reply of S, and what S's strategy concedes at
        most, each reply repeated until the state changes and the other states worth
        ``values`` (:func:`citadel.stage.reply_range`); the state's value lies inside.
        The width is at most :data:`citadel.stage.BRACKET` where the search reaches it
        (a strategy that would need weights below 1e-9 to reach the value stops it
        earlier).
    """

    space: DuelSpace
    values: np.ndarray
    row: dict
    column: dict
    residual: float
    lp_gap: float
    bracket: np.ndarray

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, residual=NON_NEGATIVE, lp_gap=NON_NEGATIVE)

    @property
    def rules(self) -> Rules:
        return self.space.rules

    def value(self, y: int = 0, cap_n: int | None = None, cap_s: int | None = None) -> float:
        """V at a state (default: the start)."""
        c = self.rules.capital
        cap_n = c if cap_n is None else cap_n
        cap_s = c if cap_s is None else cap_s
        lv = self.space.level_of
        r = self.rules.radius
        for name, cap in (("cap_n", cap_n), ("cap_s", cap_s)):
            if not 0 <= cap <= self.rules.capital or lv[cap] < 0:
                raise ValueError(
                    f"{name}={cap} is not a capital of this grid "
                    f"(levels {self.space.levels[0]}..{self.space.levels[-1]})"
                )
        if not -r <= y <= r:
            raise ValueError(f"y must be in -{r}..{r}, got {y}")
        return float(self.values[y + r, lv[cap_n], lv[cap_s]])

    def opening(self, side: int = 0) -> pd.Series:
        """The optimal mixed order at the start for N (side 0) or S (side 1)."""
        import pandas as pd

        c = self.rules.capital
        actions, probs = (self.row if side == 0 else self.column)[(0, c, c)]
        names = [f"{a} {DIRECTIONS[d]}" if a else "abstain"
                 for a, d in zip(self.space.amounts[side][actions],
                                 self.space.dirs[side][actions], strict=True)]  # fmt: skip
        return pd.Series(probs, index=pd.Index(names, name="order"), name="probability")


def _states(space: DuelSpace):
    r = space.rules.radius
    for cn in space.levels:
        for cs in space.levels:
            for y in range(-r, r + 1):
                yield y, int(cn), int(cs)


#: Seconds per state of the compiled solve (:func:`solve_duel_game`): a fixed part plus
#: parts growing with the square and the cube of the distinct orders a side has at the
#: starting capital (the stage games' size; their supports grow with it too). Fitted by
#: least squares on the relative error to the processor times of the eight-direction
#: solves at capital 100 of the extended Citadel report (71,407 states; 21 / 26 / 51 /
#: 101 / 126 / 251 distinct orders at bid step 25 / 20 / 10 / 5 / 4 / 2 took 2.5 / 2.5 /
#: 4.2 / 10.2 / 14.0 / 62.2 s): the fit is within 6% of each. Fitted without bid step 2,
#: it puts bid step 2 18% low: beyond the orders timed the estimate may be off by more.
#: The square term dominates up to about 570 distinct orders. Processor time: on busy cores
#: the wall time is longer.
SECONDS_PER_STATE = 3.0e-5
#: See :data:`SECONDS_PER_STATE`: seconds per state and per squared distinct order.
SECONDS_PER_STATE_ORDER = 9.1e-9
#: See :data:`SECONDS_PER_STATE`: seconds per state and per cubed distinct order.
SECONDS_PER_STATE_ORDER3 = 1.6e-11


def _distinct_orders(rules: Rules, directions: str) -> int:
    """The distinct orders of a side at the starting capital (see
    :func:`citadel.stage.distinct_orders`): with ``"all"`` and everyone paying, a
    direction and its mirror image across the column merge (five classes)."""
    from citadel.stage import DIRECTION_SETS

    n_dirs = len(DIRECTION_SETS[directions][0])
    if directions == "all" and rules.payment == "all":
        n_dirs = 5
    amounts = int(np.count_nonzero(rules.legal_amounts(rules.capital)))
    return 1 + amounts * n_dirs


def solve_time(rules: Rules, directions: str = "axis") -> Estimate:
    """Time (and memory) of :func:`solve_duel_game`, from the size of the grid: one
    stage game per state ``(y, capital N, capital S)``, each over the distinct orders
    (:data:`SECONDS_PER_STATE`, :data:`SECONDS_PER_STATE_ORDER`,
    :data:`SECONDS_PER_STATE_ORDER3`).

    Examples
    --------
    >>> est = solve_time(Rules(n_players=2))
    >>> est.knobs, 5 < est.seconds < 20
    ({'radius': 3, 'capital': 100, 'bid_step': 1, 'directions': 'axis'}, True)
    >>> 3 * 60 < solve_time(Rules(n_players=2), "all").seconds < 8 * 60
    True
    """
    levels = rules.capital // rules.bid_step + 1
    if directions != "axis":  # fees take capitals off the grid: every integer is a level
        levels = rules.capital + 1
    orders = _distinct_orders(rules, directions)
    states = (2 * rules.radius + 1) * levels**2
    knobs = {"radius": rules.radius, "capital": rules.capital, "bid_step": rules.bid_step,
             "directions": directions}  # fmt: skip
    # the values, and each state's optimal orders: two vectors of at most `orders` floats
    nbytes = 8 * states * (1 + 4 * orders)
    seconds = states * (SECONDS_PER_STATE + SECONDS_PER_STATE_ORDER * orders**2
                        + SECONDS_PER_STATE_ORDER3 * orders**3)
    return Estimate("citadel.solve_duel_game", nbytes, knobs, seconds,
                    f"{states:,} states of {orders} distinct orders a side")  # fmt: skip


def _announce(estimate: Estimate) -> None:
    """Log the time of a solve that takes more than half a minute, before it starts."""
    if estimate.seconds is not None and estimate.seconds > 30:
        logger.warning("%s: about %s for %s (Ctrl-C stops it)", estimate.what,
                       duration(estimate.seconds), estimate.detail)  # fmt: skip


def solve_duel_game(rules: Rules, directions: str = "axis", *, progress: bool | None = None,
                    allow_large: bool = False) -> DuelGameSolution:  # fmt: skip
    """Solve the two-player game on ``rules.bid_step``'s grid (see the module docstring).

    Parameters
    ----------
    rules : Rules
        Two-player rules (``n_players=2``).
    directions : {"axis", "fees", "all"}
        Each side's directions (:data:`citadel.stage.DIRECTION_SETS`).
    progress : bool, optional
        Show a progress bar over the states (default: when stderr is a terminal). A
        solve estimated to take more than 30 s (:func:`solve_time`; the default rules
        take about ten seconds of processor time, with ``"all"`` directions about five
        minutes) says so first, as a
        logged warning.
    allow_large : bool
        Solve even when :func:`solve_time`'s memory estimate exceeds the memory
        available (refused before any work otherwise, in one line naming the knobs).

    Returns
    -------
    DuelGameSolution

    Examples
    --------
    With 10 points each and radius 1 on a grid of 5, the seats are mirror images, so
    the value from the start is 0; one step from its line, N is worth +1/2.

    >>> sol = solve_duel_game(Rules(n_players=2, radius=1, capital=10, bid_step=5))
    >>> abs(sol.value()) < 1e-9, round(sol.value(1, 10, 10), 6)
    (True, 0.5)
    """
    from citadel.stage import DIRECTION_SETS
    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    show = show_progress(progress)
    directions = check_choice("directions", directions, tuple(DIRECTION_SETS))
    estimate = solve_time(rules, directions)
    check_memory(estimate, check_bool("allow_large", allow_large))
    space = duel_space(rules, directions)
    _announce(estimate)
    return _solve_states(space, show)


def _solve_states(space: DuelSpace, show: bool = False, fast: bool = True,
                  warm: bool = False, kept: bool = True) -> DuelGameSolution:  # fmt: skip
    """Solve every state in order of increasing capitals.

    ``fast``: stage games over the :func:`citadel.stage.distinct_orders`, built by a
    compiled kernel and solved by the dense simplex
    (:func:`tabletop.matrix_games.solve_small_zero_sum`); otherwise over every order,
    built with numpy and solved by HiGHS (the plain solver the fast one is tested and
    timed against). ``warm`` (fast only): each state's double oracle starts from the
    optimal orders of the state one capital of S below at the same row, solved just
    before (the supports of neighbouring states differ by a few orders); without it,
    from the first and last order of each side (the solver before warm starts, kept
    as the benchmark's baseline). ``kept`` (fast only): the double oracle keeps one
    simplex tableau as it adds orders (:func:`citadel._kernels.loop_solve_kernel`); without it, it
    solves each restricted game from the start (the solver before, the benchmark's
    baseline).
    """
    r = space.rules.radius
    n_lev = space.levels.size
    values = np.zeros((2 * r + 1, n_lev, n_lev))
    bracket = np.zeros((*values.shape, 2))
    row, column = {}, {}
    lp_gap = 0.0
    if fast:
        build = StageBuilder(space).matrix
        solve = partial(solve_with_loop_small, kept=kept)
    else:
        build = partial(duel_matrix, space)
        solve = solve_with_loop
    level_of = space.level_of
    # each state's first matrix game starts from the solution one capital level of S
    # below at the same row (the previous state of that row): weights on every order
    last_row = np.zeros((2 * r + 1, space.amounts[0].size))
    last_col = np.zeros((2 * r + 1, space.amounts[1].size))
    with progress_bar(values.size, "citadel duel", show, "state") as bar:
        for y, cn, cs in _states(space):
            rows, cols, payoff, loop = build(y, cn, cs, values)
            if fast and warm:
                sol = solve(payoff, loop, warm=(last_row[y + r, rows], last_col[y + r, cols]))
                last_row[y + r] = 0.0
                last_col[y + r] = 0.0
                last_row[y + r, rows] = sol.row
                last_col[y + r, cols] = sol.column
            else:
                sol = solve(payoff, loop)
            values[y + r, level_of[cn], level_of[cs]] = sol.value
            bracket[y + r, level_of[cn], level_of[cs]] = sol.low, sol.high
            keep_r = sol.row > 1e-12
            keep_c = sol.column > 1e-12
            row[(y, cn, cs)] = (rows[keep_r], sol.row[keep_r] / sol.row[keep_r].sum())
            column[(y, cn, cs)] = (cols[keep_c], sol.column[keep_c] / sol.column[keep_c].sum())
            lp_gap = max(lp_gap, sol.gap)
            bar.update(1)
    residual = float((bracket[..., 1] - bracket[..., 0]).max())
    return DuelGameSolution(space, values, row, column, residual, lp_gap, bracket)


def _policy(sol: DuelGameSolution, side: int, space: DuelSpace):
    """Side's solution strategy as actions of ``space``; off-grid capitals play as the
    grid level below them (fees take capitals off the grid)."""
    levels = sol.space.levels
    table = sol.row if side == 0 else sol.column
    index = {(int(a), int(d)): k for k, (a, d) in
             enumerate(zip(space.amounts[side], space.dirs[side], strict=True))}  # fmt: skip
    own = sol.space

    def floor(c):
        return int(levels[np.searchsorted(levels, c, side="right") - 1]) if c >= levels[0] else -1

    def act(y, cn, cs):
        fn, fs = floor(cn), floor(cs)
        if fn < 0 or fs < 0:  # below every level: nothing to bid
            home = 0 if side == 0 else 4
            return np.array([index[(0, home)]]), np.ones(1)
        actions, probs = table[(y, fn, fs)]
        mapped = [index[(int(own.amounts[side][a]), int(own.dirs[side][a]))] for a in actions]
        return np.array(mapped), probs

    return act


def _evaluate(space: DuelSpace, policy_n, policy_s, payoff_of_exit=(1.0, -1.0),
              full: bool = False, bar=None):  # fmt: skip
    """N's expected payoff from the start when each side follows its policy, or, where a
    policy is None, best-responds (N maximises, S minimises). Exact: states in order of
    increasing capitals; a repeated state is a draw if repeated for ever."""
    rules = space.rules
    r = rules.radius
    n_lev = space.levels.size
    values = np.zeros((2 * r + 1, n_lev, n_lev))
    win_n, win_s = payoff_of_exit
    build = StageBuilder(space, merge=False).matrix  # every legal order
    for y, cn, cs in _states(space):
        rows, cols, payoff, loop = build(y, cn, cs, values, win_n, win_s)
        values[y + r, space.level_of[cn], space.level_of[cs]] = stationary_value(
            payoff, loop, rows, cols,
            None if policy_n is None else policy_n(y, cn, cs),
            None if policy_s is None else policy_s(y, cn, cs),
        )  # fmt: skip
        if bar is not None:
            bar.update(1)
    if full:
        return values
    c = rules.capital
    return float(values[r, space.level_of[c], space.level_of[c]])


@dataclass(frozen=True)
class DuelCheck:
    """How good a solution is, from the start.

    Attributes
    ----------
    value : float
        The solution's V from the start.
    n_guarantees, s_concedes : float
        V when N plays its solution and S best-responds / when S plays its solution
        and N best-responds, the responder using ``directions``' orders.
    exploitability : float
        ``s_concedes - n_guarantees`` (>= 0; 0 for an exact equilibrium).
    p_n, p_s, p_draw : float
        Winning chances and draw chance when both play the solution.
    bracket : float
        The solution's largest state bracket width (``DuelGameSolution.residual``):
        what either stored strategy may give up in one state, given the stored values
        of the others. The exploitability adds up such shortfalls along the states a
        game passes through, so it may exceed this width.

    ``value``, ``n_guarantees`` and ``s_concedes`` are in -1..1, the chances in 0..1 and
    ``bracket`` >= 0, each within 1e-9 (rounding).
    """

    value: float
    n_guarantees: float
    s_concedes: float
    exploitability: float
    p_n: float
    p_s: float
    p_draw: float
    bracket: float

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, n_guarantees=PROBABILITY_DIFFERENCE,
                     s_concedes=PROBABILITY_DIFFERENCE, exploitability=(0.0, None),
                     p_n=PROBABILITY, p_s=PROBABILITY, p_draw=PROBABILITY, bracket=NON_NEGATIVE)


def check_solution(sol: DuelGameSolution, directions: str = "all", *,
                   progress: bool | None = None) -> DuelCheck:  # fmt: skip
    """Best responses to the solution (with ``directions``' orders) and outcome odds.

    Four sweeps over the states (``progress``: a bar, by default when stderr is a
    terminal).

    Examples
    --------
    >>> sol = solve_duel_game(Rules(n_players=2, radius=1, capital=10, bid_step=5))
    >>> chk = check_solution(sol, "axis")
    >>> chk.exploitability < 1e-9, round(chk.p_n, 9) == round(chk.p_s, 9)
    (True, True)
    """
    from citadel.stage import DIRECTION_SETS

    check_instance("sol", sol, DuelGameSolution)
    check_choice("directions", directions, tuple(DIRECTION_SETS))

    own_sets, big_sets = DIRECTION_SETS[sol.space.directions], DIRECTION_SETS[directions]
    if not all(set(a) <= set(b) for a, b in zip(own_sets, big_sets, strict=True)):
        raise ValueError(
            f"the responder's directions {directions!r} must include the solution's "
            f"({sol.space.directions!r})"
        )
    show = show_progress(progress)
    big = duel_space(sol.rules, directions)
    own = sol.space
    n_big = (2 * sol.rules.radius + 1) * big.levels.size**2
    n_own = (2 * sol.rules.radius + 1) * own.levels.size**2
    with progress_bar(2 * (n_big + n_own), "citadel duel check", show, "state") as bar:
        n_pol, s_pol = _policy(sol, 0, big), _policy(sol, 1, big)
        guaranteed = _evaluate(big, n_pol, None, bar=bar)
        conceded = _evaluate(big, None, s_pol, bar=bar)
        p_n = _evaluate(own, _policy(sol, 0, own), _policy(sol, 1, own), (1.0, 0.0), bar=bar)
        p_s = _evaluate(own, _policy(sol, 0, own), _policy(sol, 1, own), (0.0, 1.0), bar=bar)
    return DuelCheck(
        value=sol.value(),
        n_guarantees=guaranteed,
        s_concedes=conceded,
        exploitability=max(conceded - guaranteed, 0.0),
        p_n=p_n,
        p_s=p_s,
        p_draw=max(1.0 - p_n - p_s, 0.0),
        bracket=sol.residual,
    )


def value_by_grid(rules: Rules, steps, directions: str = "axis", states=((0, None, None),)):
    """The solution's values as ``bid_step`` refines: a DataFrame indexed by bid_step.

    ``states`` are (y, cap_n, cap_s) tuples (None: the starting capital); a state whose
    capitals are off a grid is reported as NaN for it.
    """
    import dataclasses

    import pandas as pd

    rows = {}
    for step in steps:
        sol = solve_duel_game(dataclasses.replace(rules, bid_step=int(step)), directions)
        out = {}
        for y, cn, cs in states:
            cn = rules.capital if cn is None else cn
            cs = rules.capital if cs is None else cs
            on_grid = sol.space.level_of[cn] >= 0 and sol.space.level_of[cs] >= 0
            out[f"V(y={y}, {cn}, {cs})"] = sol.value(y, cn, cs) if on_grid else np.nan
        rows[int(step)] = out
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("bid_step")


#: The states of :func:`grid_convergence`: name -> (y, N's capital, S's capital) as
#: shares of the starting capital (S's rounded down): the start, N one row ahead, N two
#: rows behind, N holding twice S's capital at the start's row.
STANDARD_STATES = {
    "start": (0, 1.0, 1.0),
    "one-row lead": (1, 1.0, 1.0),
    "two-row deficit": (-2, 1.0, 1.0),
    "2:1 capital": (0, 1.0, 0.5),
}


def standard_states(rules: Rules) -> dict:
    """:data:`STANDARD_STATES` at ``rules``' capital: name -> ``(y, cap_n, cap_s)``.

    Parameters
    ----------
    rules : Rules
        A two-player game's rules; its ``capital`` scales the capitals.

    Returns
    -------
    dict
        The start, a one-row lead, a two-row deficit and 2:1 capital, each as the pawn's
        row ``y`` (toward N's edge) and the two capitals.

    Examples
    --------
    >>> standard_states(Rules(n_players=2))["2:1 capital"]
    (0, 100, 50)
    """
    rules = Rules.check(rules, default=False)
    if rules.n_players != 2:
        raise ValueError(f"rules: the duel is the two-player game, got n_players={rules.n_players}")
    c = rules.capital
    return {name: (y, int(c * n), int(c * s)) for name, (y, n, s) in STANDARD_STATES.items()}


def grid_convergence(rules: Rules, steps, directions: str = "all", *, check: bool = False,
                     progress: bool | None = None) -> pd.DataFrame:  # fmt: skip
    """The duel solved on each bid grid of ``steps``: where a coarse grid misleads.

    Each step solves :func:`solve_duel_game` on ``rules`` with that ``bid_step`` and
    reads the value of the :func:`standard_states` (the start, a one-row lead, a
    two-row deficit, 2:1 capital); a state whose capitals are off a grid (possible
    with ``directions="axis"``, whose capitals stay on the grid), or whose row is off
    the board (radius 1), is NaN there.

    Parameters
    ----------
    rules : Rules
        Two-player rules; their ``bid_step`` is replaced by each of ``steps``.
    steps : sequence of int
        Bid steps (each >= 1), in the order of the rows.
    directions : {"all", "fees", "axis"}
        Each side's directions (default: all eight, the game as written).
    check : bool
        Also measure each solution's exploitability by an exact best response over
        every legal order of the eight directions (:func:`check_solution`; it takes
        several times as long as the solve).
    progress : bool, optional
        A progress bar for each solve (default: when stderr is a terminal).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``bid_step``: ``seconds`` (wall time of the solve), ``states``,
        ``orders`` (a side's legal orders at the start), ``distinct`` (those left
        after merging orders with identical outcomes, the ones the solver sees), the
        value V = P(N wins) - P(S wins) at each standard state, and with ``check``
        the ``exploitability``. ``attrs["states"]`` holds the states' coordinates.

    Examples
    --------
    On a board of radius 2 with 8 points each, the grid of 4 sees no worth in a
    one-row lead; every amount (bid_step 1) does:

    >>> table = grid_convergence(Rules(n_players=2, radius=2, capital=8), [4, 1])
    >>> table.index.tolist(), table.columns[4:].tolist()
    ([4, 1], ['start', 'one-row lead', 'two-row deficit', '2:1 capital'])
    >>> bool(abs(table.loc[4, "one-row lead"]) < 1e-12), bool(table.loc[1, "one-row lead"] > 0.1)
    (True, True)
    """
    import dataclasses
    import time

    import pandas as pd

    from citadel.stage import distinct_orders
    from tabletop.validate import check_bool, check_int

    rules = Rules.check(rules, default=False)
    if isinstance(steps, (str, bytes)) or not hasattr(steps, "__iter__"):
        raise TypeError(f"steps must be a sequence of bid steps, got {steps!r:.80}")
    steps = [check_int(f"steps[{k}]", s, 1, rules.capital) for k, s in enumerate(steps)]
    if not steps:
        raise ValueError("steps must hold at least one bid step, got none")
    check_choice("directions", directions, ("axis", "fees", "all"))
    check = check_bool("check", check)
    states = standard_states(rules)
    rows = {}
    for step in steps:
        start = time.perf_counter()
        sol = solve_duel_game(dataclasses.replace(rules, bid_step=step), directions,
                              progress=progress)  # fmt: skip
        seconds = time.perf_counter() - start
        space = sol.space
        out = {
            "seconds": seconds,
            "states": int(sol.values.size),
            "orders": int(space.amounts[0].size),
            "distinct": int(distinct_orders(space, 0).size),
        }
        for name, (y, cn, cs) in states.items():
            on_grid = space.level_of[cn] >= 0 and space.level_of[cs] >= 0
            out[name] = sol.value(y, cn, cs) if on_grid and abs(y) <= rules.radius else np.nan
        if check:
            out["exploitability"] = check_solution(sol, "all", progress=progress).exploitability
        rows[step] = out
    table = pd.DataFrame.from_dict(rows, orient="index").rename_axis("bid_step")
    table = table.astype({"states": np.int64, "orders": np.int64, "distinct": np.int64})
    table.attrs["states"] = states
    return table
