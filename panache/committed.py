r"""The duel with one player committed to a fixed turn-roll policy, solved exactly.

What does a rule of thumb cost in the game, not just in the turn? Player C plays
every turn roll with a fixed policy (the same whatever the points), and every Master
Panache attempt with a second fixed policy; everything else it decides optimally
(attacks, counters, stakes), and its opponent O decides everything optimally,
knowing C's policies. This is the two-player game of :mod:`panache.duel` with C's
turn value replaced by an expectation over a fixed distribution: with ``d_T`` the
probability that C's policy ends on total ``T``, ``u`` the turn utility of
:mod:`panache.duel` and ``pi_C`` the success chance of C's attempt policy,

.. math::

    W_C(a, b) = \sum_T d_T\, u_C(T; a, b), \qquad
    W_O(b, a) = \max_{\text{policy}} \mathbb{E}\, u_O(T; b, a),

where ``u_C`` reads O's table ``W_O`` and ``u_O`` reads ``W_C`` (whoever moves next).
States are solved pair by pair, {C at (a, b), O at (b, a)}, by increasing ``a + b``,
by the same Newton iteration as :func:`panache.solve_duel`. Round 1 is solved by
backward induction with C as the first player, then as the second.

Since O best-responds, C's chance is the most C can guarantee with its policies: its
*cost* is the solved duel's chance minus C's, per seat and averaged over the two
seats. With no fixed policy (``None`` for both) the game is the solved duel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from panache._committed_kernels import committed_range_kernel
from panache.duel import duel_kernel_inputs, duel_rules, max_points, round_points, solve_duel
from panache.policy import TurnPolicy, tabulate_policy
from panache.rules import Rules
from panache.thumb import DecisionList
from panache.turn import evaluate_policy, solve_turn
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.validate import PROBABILITY, check_fields

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, eq=False)
class CommittedDuel:
    """The duel between a committed player C and an optimal player O.

    Attributes
    ----------
    rules : Rules
    win : pandas.DataFrame
        C's winning chance when C is to move, indexed by C's points (``my_points``)
        and O's (``opponent_points``), after round 1.
    opponent_win : pandas.DataFrame
        O's winning chance when O is to move, indexed by O's points (``my_points``)
        and C's (``opponent_points``).
    first_player_win, second_player_win : float
        C's winning chance from the start when C plays first, and when C plays second.
    mean_win : float
        Their average: C's chance when the first seat is drawn at random.
    cost : float
        ``0.5 - mean_win``: the winning chance C gives up against an optimal player
        (two optimal players have 1/2 each on average over the seats), -0.5..0.5.
    turn_distribution : pandas.Series
        P(total = t) of C's turn roll policy (the optimal ``"ev"`` one's if C's turns
        are optimal: only for display, the optimal player adapts to the points).
    mp_success : float
        The success chance of C's Master Panache attempt.

    Every chance is in 0..1 and ``cost`` in -0.5..0.5, within 1e-9 (rounding).

    Examples
    --------
    >>> res = committed_duel(Rules(n_dice=3, start_points=6))   # C plays optimally too
    >>> res.win.shape, round(res.mean_win, 12), round(res.first_player_win, 4)
    ((9, 9), 0.5, 0.4352)
    """

    __eq__ = same_fields

    rules: Rules
    win: pd.DataFrame
    opponent_win: pd.DataFrame
    first_player_win: float
    second_player_win: float
    mean_win: float
    cost: float
    turn_distribution: pd.Series
    mp_success: float

    def __post_init__(self):
        low, high = PROBABILITY
        check_fields(self, first_player_win=PROBABILITY, second_player_win=PROBABILITY,
                     mean_win=PROBABILITY, cost=(low - 0.5, high - 0.5), mp_success=PROBABILITY)


def _policy(rules: Rules, name: str, policy) -> TurnPolicy | None:
    if policy is None:
        return None
    if isinstance(policy, DecisionList):
        policy = policy.policy(rules)
    if isinstance(policy, TurnPolicy) or callable(policy):
        policy = tabulate_policy(rules.n_dice, policy)
        if policy.n_dice != rules.n_dice:
            raise ValueError(
                f"{name} is for {policy.n_dice} dice, rules have n_dice={rules.n_dice}"
            )
        return policy
    raise TypeError(
        f"{name} must be None, a TurnPolicy, a DecisionList or a callable, "
        f"got {type(policy).__name__}"
    )


#: Bytes :func:`committed_duel` holds beside its two tables (turn tables, policies, the
#: answers' caches), measured with tracemalloc: 1.3 MB in all at the default rules,
#: under 0.1 MB beside the tables with 3 dice.
COMMITTED_OVERHEAD = 1_000_000


def committed_size(rules: Rules) -> Estimate:
    """Memory of :func:`committed_duel`: C's and O's ``float64`` winning chances for
    every pair of points up to :func:`panache.duel.max_points`, each as an array and a
    DataFrame, beside :data:`COMMITTED_OVERHEAD`.

    Examples
    --------
    >>> committed_size(Rules(n_players=2, start_points=6, n_dice=3)).knobs
    {'start_points': 6}
    """
    top = max_points(rules)
    return Estimate("panache.committed_duel", 4 * 8 * (top + 1) ** 2 + COMMITTED_OVERHEAD,
                    {"start_points": rules.start_points},
                    detail=f"two {top + 1:,}² float64 tables, twice")  # fmt: skip


def committed_duel(rules: Rules, turn_policy: TurnPolicy | Callable | None = None,
                   mp_policy: TurnPolicy | Callable | None = None, *,
                   allow_large: bool = False,
                   progress: bool | None = None) -> CommittedDuel:  # fmt: skip
    """Solve the duel where one player rolls with fixed policies (module docstring).

    Parameters
    ----------
    rules : Rules
        ``n_players`` must be 2, as in :func:`panache.solve_duel` (a ValueError
        otherwise, never a duel silently solved for a larger table).
    turn_policy : TurnPolicy, DecisionList, callable or None
        C's policy for every turn roll (round 1 included); ``None``: optimal.
    mp_policy : TurnPolicy, DecisionList, callable or None
        C's policy for every Master Panache attempt; ``None``: the optimal ``"zero"``.
    allow_large : bool
        Solve even when the tables (:func:`committed_size`) exceed the memory
        available (default False: a one-line ``MemoryError`` before any work).
    progress : bool, optional
        Show a bar over the pairs of states (default: when stderr is a terminal); the
        kernel returns to Python between ranges of point sums, so Ctrl-C stops it.

    Returns
    -------
    CommittedDuel

    Examples
    --------
    >>> from panache import human_policy
    >>> rules = Rules(n_dice=3, start_points=6)
    >>> res = committed_duel(rules, human_policy(rules, "best_die"))
    >>> 0 < res.cost < 0.5
    True
    >>> abs(committed_duel(rules).cost) < 1e-12       # no commitment: the solved duel
    True
    """
    from tabletop.validate import check_bool

    rules = duel_rules(rules, "the committed duel is a two-player game")
    turn = _policy(rules, "turn_policy", turn_policy)
    attempt = _policy(rules, "mp_policy", mp_policy)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(committed_size(rules), allow_large)
    return _committed(rules, turn, attempt, progress)


def _committed(rules: Rules, turn: TurnPolicy | None, attempt: TurnPolicy | None,
               progress: bool | None = None):  # fmt: skip
    import pandas as pd

    top = max_points(rules)
    turn_arrays, odds, pi = duel_kernel_inputs(rules)
    totals = odds.totals
    pi_c = pi if attempt is None else float(evaluate_policy(rules, attempt).distribution.loc[0])
    if turn is None:
        dist = solve_turn(rules, "ev").distribution.to_numpy()
    else:
        dist = evaluate_policy(rules, turn).distribution.to_numpy()
    dist = np.ascontiguousarray(dist, dtype=np.float64)
    win_c = np.full((top + 1, top + 1), np.nan)
    win_o = np.full((top + 1, top + 1), np.nan)
    args = ((win_c, win_o), top, turn_arrays, odds, (pi, pi_c), (dist, turn is not None))
    # point sums 2..2 top in ranges that return to Python (bar, Ctrl-C); the bar counts
    # the pairs {C at (a, b), O at (b, a)}: a + b = v, a from max(1, v - top) to min(top, v - 1)
    v = np.arange(2, 2 * top + 1, dtype=np.int64)
    pairs = np.minimum(top, v - 1) - np.maximum(1, v - top) + 1
    bad = 0
    with progress_bar(int(pairs.sum()), "panache committed duel", progress, "pair") as bar:
        for lo, hi in Chunks(v.size, first=8):
            bad += committed_range_kernel(lo + 2, hi + 2, *args)
            bar.update(int(pairs[lo:hi].sum()))
    if bad:
        raise ValueError(
            f"the committed duel does not settle for these rules: {bad} pairs of states did "
            f"not converge (a game can go on forever)"
        )

    def c_turn(utility) -> float:
        utility = np.asarray(utility, dtype=np.float64)
        return float(dist @ utility) if turn is not None else solve_turn(rules, utility).value

    def o_turn(utility) -> float:
        return solve_turn(rules, np.asarray(utility, dtype=np.float64)).value

    points = [round_points(rules, int(x)) for x in totals]

    @functools.cache
    def o_answer(p1):  # O's chance as the second player once C (first) has p1
        return o_turn([0.0 if p2 <= 0 else 1.0 - win_c[p1, p2] for p2 in points])

    @functools.cache
    def c_answer(p1):  # C's chance as the second player once O (first) has p1
        return c_turn([0.0 if p2 <= 0 else 1.0 - win_o[p1, p2] for p2 in points])

    first = c_turn([0.0 if p <= 0 else 1.0 - o_answer(p) for p in points])
    second = 1.0 - o_turn([0.0 if p <= 0 else 1.0 - c_answer(p) for p in points])
    index = pd.Index(np.arange(1, top + 1), name="my_points")
    columns = pd.Index(np.arange(1, top + 1), name="opponent_points")
    mean = 0.5 * (first + second)
    return CommittedDuel(
        rules=rules,
        win=pd.DataFrame(win_c[1:, 1:], index=index, columns=columns),
        opponent_win=pd.DataFrame(win_o[1:, 1:], index=index, columns=columns.copy()),
        first_player_win=first,
        second_player_win=second,
        mean_win=mean,
        cost=0.5 - mean,
        turn_distribution=pd.Series(dist, index=pd.Index(totals, name="total"), name="probability"),
        mp_success=pi_c,
    )


def duel_cost(rules: Rules, turn_policy=None, mp_policy=None) -> pd.Series:
    """C's winning chances and costs against the solved duel, as a Series.

    ``first_player_win``, ``second_player_win``, ``mean_win``, ``cost_first``,
    ``cost_second`` and ``cost`` (the seat average), with the solved duel's chances
    (:func:`panache.solve_duel`) as the reference.
    """
    import pandas as pd

    res = committed_duel(rules, turn_policy, mp_policy)
    ref = solve_duel(rules).first_player_win
    return pd.Series(
        {
            "first_player_win": res.first_player_win,
            "second_player_win": res.second_player_win,
            "mean_win": res.mean_win,
            "cost_first": ref - res.first_player_win,
            "cost_second": (1.0 - ref) - res.second_player_win,
            "cost": res.cost,
        },
        name="committed",
    )
