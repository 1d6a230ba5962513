r"""Two players, solved exactly: every decision maximises the decider's winning chance.

After round 1, points never grow. Write :math:`W(a, b)` for the winning chance of the
player to move with ``a`` points against ``b``. Its turn roll is a turn of
:func:`panache.solve_turn` whose utility is the winning chance after each total T:

* T < 0: ``0`` if ``a + T <= 0``, else ``1 - W(b, a + T)``;
* T = 0: the better of declining, ``D = 1 - W(b, a)``, and the best Master Panache
  stake X: ``p (1 - W(b - X, a)) + (1 - p)(1 - W(b, a - X/2))`` (a player at 0 or less
  has lost), with ``p`` the optimal attempt's success chance;
* T > 0: the better of declining (``D``) and attacking at ``k = min(T, 6)``, whose
  value ``X`` comes from the counter-attack game: with ``s = 1 - q`` the chance
  that an attempt hits, ``X = s H_t + q min(D, Y)`` and ``Y = s H_a + q max(D, X)``,
  ``H_t`` / ``H_a`` the chance once the target / the attacker is hit (see
  :func:`panache._duel_kernels.exchange_value`).

Every outcome lowers someone's points except those where nothing changes, which
lead to ``W(b, a)``. So the states are solved pair by pair, {(a, b), (b, a)}, by
increasing ``a + b``; within a pair the two values form a fixed point of a
piecewise-linear map, solved by Newton's method (exact once the active choices are
right) and checked by a final evaluation. Ties go to declining and to the smallest
stake (docs/rules.md, Master Panache).

Round 1 (no attacks, no Master Panache, gains if ``first_round_gain``) is solved by
backward induction: the second player answers the first one's points, and the
first player's turn utility is its chance against that answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from panache._duel_kernels import (
    MAX_LEVEL,
    DuelOdds,
    TurnArrays,
    exchange_value,
    solve_duel_range,
    state_parts,
    state_utility,
)
from panache.attack import chain_odds
from panache.master import mp_success
from panache.policy import TurnPolicy
from panache.rules import Rules
from panache.turn import solve_turn, turn_tables
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import memoize, same_fields
from tabletop.validate import PROBABILITY, check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


def duel_rules(rules, game: str) -> Rules:
    """``rules`` checked as the rules of a two-player game (``game`` opens the error)."""
    rules = Rules.check(rules, default=False)
    if rules.n_players != 2:
        raise ValueError(
            f"{game}: rules.n_players must be 2, got n_players={rules.n_players} (for the "
            f"duel of a larger game pass dataclasses.replace(rules, n_players=2))"
        )
    return rules


def max_points(rules: Rules) -> int:
    """The most points a player can hold after round 1."""
    gain = max(0, rules.total_range[1]) if rules.first_round_gain else 0
    return rules.start_points + gain


@dataclass(frozen=True, eq=False)
class DuelSolution:
    """The two-player game solved exactly.

    :func:`solve_duel` caches the solve and hands each call its own copy of the
    DataFrames (edit them at will: the cache keeps its own); the arrays behind the
    methods are shared and read-only. ``==`` compares the rules and the tables.

    Attributes
    ----------
    rules : Rules
    win : pandas.DataFrame
        Winning chance of the player to move, indexed by ``my_points`` (rows) and
        ``opponent_points`` (columns), 1..max points after round 1.
    first_player_win : float
        The first player's winning chance from the start, round 1 included (0..1
        within 1e-9).
    round1 : pandas.DataFrame
        Indexed by the first player's points after round 1: the second player's
        winning chance after its best round-1 answer (``second_player_win``).

    Examples
    --------
    >>> sol = solve_duel(Rules(start_points=6, n_dice=3))
    >>> sol.win.index.name, sol.win.columns.name
    ('my_points', 'opponent_points')
    >>> bool(sol.win.to_numpy().min() >= 0 and sol.win.to_numpy().max() <= 1)
    True
    """

    rules: Rules
    win: pd.DataFrame
    first_player_win: float
    round1: pd.DataFrame
    _win: np.ndarray
    _params: dict = field(compare=False)  # derived from rules and _win

    def __post_init__(self):
        check_fields(self, first_player_win=PROBABILITY)

    __eq__ = same_fields

    @property
    def win_table(self) -> np.ndarray:
        """:attr:`win` as the read-only array the kernels read: ``win_table[a, b]`` is
        the mover's winning chance with ``a`` points against ``b``, from 0 (row and
        column 0 are the finished game's and unused)."""
        return self._win

    def _check_state(self, my_points: int, opponent_points: int) -> tuple[int, int]:
        top = self._win.shape[0] - 1
        a = check_int("my_points", my_points, 1, top)
        b = check_int("opponent_points", opponent_points, 1, top)
        return a, b

    def turn_utility(self, my_points: int, opponent_points: int) -> pd.Series:
        """The mover's winning chance after each total, played optimally from there."""
        a, b = self._check_state(my_points, opponent_points)
        u, _ = self._utility(a, b)
        return u

    def _utility(self, a, b):
        import pandas as pd

        p = self._params
        odds: DuelOdds = p["odds"]
        parts = state_parts(a, b, self._win, p["n"], odds.hit_given, p["pi"],
                            self.rules.stake_ceiling(a))  # fmt: skip
        u = np.full(p["tables"].sums.size, np.nan)
        du = np.full(p["tables"].sums.size, np.nan)
        state_utility(a, b, 1.0 - self._win[b, a], self._win, parts, odds, u, du)
        series = pd.Series(u[odds.final_index], index=pd.Index(odds.totals, name="total"),
                           name="win")  # fmt: skip
        return series, parts

    def round1_utility(self, first_player_points: int | None = None) -> pd.Series:
        """A round-1 turn's utility: the first player's (``None``), or the second
        player's once the first has ``first_player_points`` points."""
        import pandas as pd

        totals = self._params["tables"].totals
        if first_player_points is None:
            values = self._params["round1_first"]
        else:
            answers = self._params["round1_second"]
            if first_player_points not in answers:
                raise ValueError(
                    f"first_player_points must be one of {sorted(answers)} (points after a "
                    f"round-1 turn), got {first_player_points!r}"
                )
            values = answers[first_player_points]
        return pd.Series(values, index=pd.Index(totals, name="total"), name="win")

    def turn_policy(self, my_points: int, opponent_points: int) -> TurnPolicy:
        """The optimal set-aside policy of the mover's turn roll in this state."""
        return solve_turn(self.rules, self.turn_utility(my_points, opponent_points)).policy

    def decisions(self, my_points: int, opponent_points: int) -> dict:
        """What the mover does after each kind of total, in state (my, opponent's points).

        Returns a dict with ``win`` (the state's value), ``mp_stake`` (stake announced
        after a total of 0; 0 to decline), and per attack level k = 1..6 the lists
        ``attack`` (attack after a total giving level k), ``target_counters`` and
        ``attacker_counters`` (counter decisions in that exchange).
        """
        a, b = self._check_state(my_points, opponent_points)
        p = self._params
        _, parts = self._utility(a, b)
        hit_target, hit_attacker, best_mp, best_stake = parts
        decline = 1.0 - self._win[b, a]
        out = {
            "win": float(self._win[a, b]),
            "mp_stake": int(best_stake) if best_stake and best_mp > decline + 1e-12 else 0,
            "attack": [],
            "target_counters": [],
            "attacker_counters": [],
        }
        for k in range(1, MAX_LEVEL + 1):
            x, _, tc, ac = exchange_value(p["s"], p["q"], hit_target[k], hit_attacker[k],
                                          decline, p["counters"])  # fmt: skip
            out["attack"].append(bool(x > decline + 1e-12))
            out["target_counters"].append(bool(tc))
            out["attacker_counters"].append(bool(ac))
        return out

    def decision_table(self) -> pd.DataFrame:
        """Every state's decisions: attack levels, counters and Master Panache stakes."""
        import pandas as pd

        rows = []
        top = self._win.shape[0] - 1
        for a in range(1, top + 1):
            for b in range(1, top + 1):
                d = self.decisions(a, b)
                rows.append(
                    {
                        "my_points": a,
                        "opponent_points": b,
                        "win": d["win"],
                        "mp_stake": d["mp_stake"],
                        "attack_levels": "".join(
                            str(k + 1) for k, v in enumerate(d["attack"]) if v
                        ),
                        "counter_levels": "".join(
                            str(k + 1) for k, v in enumerate(d["target_counters"]) if v
                        ),
                    }
                )
        return pd.DataFrame(rows).set_index(["my_points", "opponent_points"])


#: Bytes :func:`solve_duel` holds beside its tables (round 1, the parameters of the
#: solution), measured with tracemalloc at 150 and 400 start points.
DUEL_OVERHEAD = 300_000


def duel_size(rules: Rules) -> Estimate:
    """Memory of :func:`solve_duel` from the rules: the ``float64`` table of every
    (own, opponent's) points up to :func:`max_points`, its DataFrame, and the caller's
    copy of that DataFrame, beside about :data:`DUEL_OVERHEAD` bytes for round 1 and
    the solution's parameters.

    Examples
    --------
    >>> rules = Rules(start_points=99, n_players=2)
    >>> duel_size(rules).nbytes == 3 * 8 * (max_points(rules) + 1) ** 2 + DUEL_OVERHEAD
    True
    """
    top = max_points(rules)
    return Estimate("panache.solve_duel", 3 * 8 * (top + 1) ** 2 + DUEL_OVERHEAD,
                    {"start_points": rules.start_points},
                    detail=f"{top + 1:,}² float64 winning chances, three times")  # fmt: skip


@memoize(maxsize=32)
def solve_duel(rules: Rules, *, allow_large: bool = False,
               progress: bool | None = None) -> DuelSolution:  # fmt: skip
    """Solve the two-player game exactly (see the module docstring).

    Parameters
    ----------
    rules : Rules
        ``n_players`` must be 2: this is the two-player game. Rules for a larger
        table are refused rather than solved as a duel without a word; the duel of
        such a game is ``solve_duel(dataclasses.replace(rules, n_players=2))``.
    allow_large : bool
        Solve even when :func:`duel_size` exceeds the memory available (default
        False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal). The solve runs in
        ranges of point sums that return to Python several times a second, so Ctrl-C
        stops it (a few thousand start points take minutes). The answer is cached per
        arguments: the same rules with another ``progress`` are solved again.

    Returns
    -------
    DuelSolution

    Raises
    ------
    TypeError
        If ``rules`` is not a ``panache.Rules``.
    ValueError
        If ``rules.n_players`` is not 2, or if the rules let a game go on forever with
        positive probability under optimal play (some pair of states never converges).
    MemoryError
        If the table does not fit in the memory available (and not ``allow_large``).

    Examples
    --------
    >>> sol = solve_duel(Rules(start_points=6, n_dice=3))
    >>> 0 < sol.first_player_win < 1
    True
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = duel_rules(rules, "the duel is the two-player game")
    allow_large = check_bool("allow_large", allow_large)
    progress = show_progress(progress)
    check_memory(duel_size(rules), allow_large)
    t = turn_tables(rules)
    top = max_points(rules)
    turn, odds, pi = duel_kernel_inputs(rules)
    win = np.full((top + 1, top + 1), np.nan)
    bad = 0
    # point sums 2..2 top, in ranges that return to Python (bar, Ctrl-C); the bar counts
    # the pairs {(a, b), (b, a)} of each sum v: a from max(1, v - top) to v // 2
    sums = 2 * top - 1
    v = np.arange(2, 2 * top + 1, dtype=np.int64)
    pairs = v // 2 - np.maximum(1, v - top) + 1
    with progress_bar(int(pairs.sum()), "panache duel", progress, "pair") as bar:
        for lo, hi in Chunks(sums, first=8):
            bad += solve_duel_range(lo + 2, hi + 2, win, top, turn, odds, pi)
            bar.update(int(pairs[lo:hi].sum()))
    if bad:
        raise ValueError(
            f"the duel does not settle for these rules: {bad} pairs of states did not converge "
            f"(a game can go on forever under optimal play)"
        )
    points = pd.Index(np.arange(1, top + 1), name="my_points")
    frame = pd.DataFrame(
        win[1:, 1:], index=points, columns=pd.Index(points.to_numpy(), name="opponent_points")
    )
    first, round1, first_utility, second_utility = _round_one(rules, win)
    params = {
        "tables": t,
        "turn": turn,
        "odds": odds,
        "n": rules.n_dice,
        "hit_given": odds.hit_given,
        "pi": pi,
        "s": odds.s,
        "q": odds.q,
        "counters": rules.counter_attacks,
        "round1_first": first_utility,
        "round1_second": second_utility,
        "max_stake": rules.stake_ceiling,
    }  # fmt: skip
    win.setflags(write=False)
    return DuelSolution(rules, frame, first, round1, win, params)



def duel_kernel_inputs(rules: Rules) -> tuple[TurnArrays, DuelOdds, float]:
    """The duel kernels' inputs, built once from the rules: the optimal turn roll's
    tables, the odds a state's turn utility reads, and the Master Panache success
    chance (also read by :func:`panache.committed_duel`)."""
    t = turn_tables(rules)
    n = rules.n_dice
    s, q, hit_given = chain_odds(n)
    turn = TurnArrays(n, t.sums, t.state_start, t.state_sum, t.space.size_offset,
                      t.space.probability, t.opt_start, t.opt_size, t.opt_value)  # fmt: skip
    odds = DuelOdds(t.totals, t.state_sum[t.state_start[n] : t.state_start[n + 1]], hit_given,
                    s, q, rules.counter_attacks, rules.mp_stake_factor, rules.mp_stake_cap or 0)
    return turn, odds, mp_success(rules)


def round_points(rules: Rules, total: int) -> int:
    """Points after a round-1 total, from the start."""
    if total < 0 or (total > 0 and rules.first_round_gain):
        return rules.start_points + total
    return rules.start_points


def _round_one(rules: Rules, win: np.ndarray):
    """First player's chance, the table of second-player answers, and the utilities."""
    import pandas as pd

    totals = turn_tables(rules).totals
    points = [round_points(rules, int(t)) for t in totals]
    answers: dict[int, float] = {}
    second_utility: dict[int, np.ndarray] = {}
    for p1 in points:
        if p1 <= 0 or p1 in answers:
            continue
        utility = np.array([0.0 if p2 <= 0 else 1.0 - win[p1, p2] for p2 in points])
        second_utility[p1] = utility
        answers[p1] = solve_turn(rules, utility).value
    first_utility = np.array([0.0 if p1 <= 0 else 1.0 - answers[p1] for p1 in points])
    first = solve_turn(rules, first_utility).value
    table = pd.DataFrame({"second_player_win": pd.Series(answers).sort_index()})
    table.index.name = "first_player_points"
    return first, table, first_utility, second_utility
