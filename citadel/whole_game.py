"""The whole two-player game (N vs S), solved by Shapley's value iteration on a bid grid.

The game is zero-sum: N's payoff is +1 if N wins, -1 if S wins, 0 for a draw, so the
value V = P(N wins) - P(S wins). The state is (y, capital N, capital S): with two
players E and W are walls, so the pawn's column never matters. Shapley's operator
maps V to the value of every state's stage game (:mod:`citadel.stage`) with V as
continuation. Capitals never rise and every round that changes nothing but the
round count leaves the state as it is, so the states are solved in order of
increasing capitals, each as the fixed point of its own stage game
(:func:`citadel.stage.solve_with_loop`): one sweep of value iteration, exact up to
the LP tolerance.

Abstractions, stated and measured:

* **Bid grid.** Amounts are multiples of ``rules.bid_step``; coarsening it is part
  of the answer (``value_by_grid``).
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
from tabletop.budget import Estimate, duration, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.validate import check_choice, check_instance

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
        Largest fixed-point residual over the states.
    lp_gap : float
        Largest saddle-point gap reported by the LP solver.
    """

    space: DuelSpace
    values: np.ndarray
    row: dict
    column: dict
    residual: float
    lp_gap: float

    __eq__ = same_fields

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


#: Seconds per state and per order of a side, of the stage games' LPs on 2 cores: the
#: default rules (71,407 states of 101 orders a side) take about 30 min. A rough figure:
#: on 2 busy cores a grid of 31 orders took up to 3 times longer per state and order.
SECONDS_PER_STATE_ORDER = 2.5e-4


def solve_time(rules: Rules, directions: str = "axis") -> Estimate:
    """Time (and memory) of :func:`solve_duel_game`, from the size of the grid: one
    stage game per state ``(y, capital N, capital S)``, each an LP over the orders.

    Examples
    --------
    >>> est = solve_time(Rules(n_players=2))
    >>> est.knobs, 20 * 60 < est.seconds < 60 * 60
    ({'radius': 3, 'capital': 100, 'bid_step': 1, 'directions': 'axis'}, True)
    """
    from citadel.stage import DIRECTION_SETS

    levels = rules.capital // rules.bid_step + 1
    if directions != "axis":  # fees take capitals off the grid: every integer is a level
        levels = rules.capital + 1
    orders = 1 + (rules.capital // rules.bid_step) * len(DIRECTION_SETS[directions][0])
    states = (2 * rules.radius + 1) * levels**2
    knobs = {"radius": rules.radius, "capital": rules.capital, "bid_step": rules.bid_step,
             "directions": directions}  # fmt: skip
    # the values, and each state's optimal orders: two vectors of at most `orders` floats
    nbytes = 8 * states * (1 + 4 * orders)
    return Estimate("citadel.solve_duel_game", nbytes, knobs,
                    states * orders * SECONDS_PER_STATE_ORDER,
                    f"{states:,} states of {orders} orders a side")  # fmt: skip


def _announce(estimate: Estimate) -> None:
    """Log the time of a solve that takes more than half a minute, before it starts."""
    if estimate.seconds is not None and estimate.seconds > 30:
        logger.warning("%s: about %s for %s (Ctrl-C stops it)", estimate.what,
                       duration(estimate.seconds), estimate.detail)  # fmt: skip


def solve_duel_game(rules: Rules, directions: str = "axis", *,
                    progress: bool | None = None) -> DuelGameSolution:  # fmt: skip
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
        take about half an hour) says so first, as a logged warning.

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
    rules = Rules.check(rules, default=False)
    show = show_progress(progress)
    space = duel_space(rules, directions)
    _announce(solve_time(rules, directions))
    return _solve_states(space, show)


def _solve_states(space: DuelSpace, show: bool = False, fast: bool = True) -> DuelGameSolution:
    """Solve every state in order of increasing capitals.

    ``fast``: stage games over the :func:`citadel.stage.distinct_orders`, built by a
    compiled kernel and solved by the dense simplex
    (:func:`tabletop.matrix_games.solve_small_zero_sum`); otherwise over every order,
    built with numpy and solved by HiGHS (the plain solver the fast one is tested and
    timed against).
    """
    r = space.rules.radius
    n_lev = space.levels.size
    values = np.zeros((2 * r + 1, n_lev, n_lev))
    row, column = {}, {}
    residual = 0.0
    lp_gap = 0.0
    if fast:
        build = StageBuilder(space).matrix
        solve = solve_with_loop_small
    else:
        build = partial(duel_matrix, space)
        solve = solve_with_loop
    level_of = space.level_of
    with progress_bar(values.size, "citadel duel", show, "state") as bar:
        for y, cn, cs in _states(space):
            rows, cols, payoff, loop = build(y, cn, cs, values)
            sol = solve(payoff, loop)
            values[y + r, level_of[cn], level_of[cs]] = sol.value
            keep_r = sol.row > 1e-12
            keep_c = sol.column > 1e-12
            row[(y, cn, cs)] = (rows[keep_r], sol.row[keep_r] / sol.row[keep_r].sum())
            column[(y, cn, cs)] = (cols[keep_c], sol.column[keep_c] / sol.column[keep_c].sum())
            residual = max(residual, sol.residual)
            lp_gap = max(lp_gap, sol.gap)
            bar.update(1)
    return DuelGameSolution(space, values, row, column, residual, lp_gap)


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
    """

    value: float
    n_guarantees: float
    s_concedes: float
    exploitability: float
    p_n: float
    p_s: float
    p_draw: float


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
