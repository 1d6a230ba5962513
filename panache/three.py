r"""Three players solved by max-n: each decision maximises the decider's own chance.

The game is the same for every seat once rotated, so a state is canonical: the
points ``(a, b, c)`` of the player to move, the next one clockwise and the last,
and its value is the vector of their three winning chances. The mover's turn roll
is a :func:`panache.solve_turn` roll whose outcomes are vectors; the mover picks the
options, targets (ties: the first clockwise), counters, stakes (ties: the smallest)
and declines (ties: decline) that maximise its own chance, and the others' chances
follow its choices. Once a player is out the other two play the solved duel.

Outcomes that change nothing pass the turn: ``(a, b, c) -> (b, c, a) -> (c, a, b)``.
Each rotation class is solved by policy iteration: with the decisions fixed the
three values satisfy ``V_k = alpha_k + beta_k R(V_{k+1})`` (``R`` re-reads the next
state's vector in the mover's frame), a linear cycle solved in closed form.
Classes of one total ``a + b + c`` are independent and solved in parallel.

Unlike the duel, a three-player game is not zero-sum, and a rotation class need
not have a stationary equilibrium in pure decisions: the movers' best responses
can cycle (one attacks the next player because the other would answer by
attacking, and so on). Such a class is first played by fictitious play over the
movers' turn plans (see :func:`panache._three_kernels.solve_class`): each mover
mixes the plans met so far, and the class keeps the mixture whose *regret* is
smallest. From those values an exact mixed equilibrium is then sought
(:func:`panache._three_exact.search_class`): a state's turn reads the class's
own values only through the mover's chance when nothing changes, so its best turn
is the upper envelope of lines in that one number; the equilibrium mixes two plans
at a breakpoint of the envelope (in one, two or three of the class's states) and
plays a piece elsewhere, and each such choice is a small system solved exactly
(one mixed state: a linear equation; none: a pure equilibrium the best-response
steps circled without meeting). A candidate replaces the fictitious-play
values only when every state's stored mover chance equals the mover's best
one-turn reply at the candidate's own values.

The regret recorded per class is measured afterwards on the finished table,
independently of the solve (:func:`panache._three_kernels.class_gaps`): for each of
its states, the stored mover chance minus the mover's best one-turn reply computed
afresh, taken on **both sides** (a stored value above every reply is no
equilibrium value either), and the most any counter decision of a held exchange
(below) loses to its best; at most ``REGRET_TOLERANCE`` (1e-9) in an exact
equilibrium, else the one-turn regret of an approximate one (a bound on what a
deviation for one turn gains, not on a whole change of strategy).

An exchange can have several equilibria in its counter decisions. Each plays the
first pure one in the order of :func:`panache._three_kernels.exchange` (counters
whenever consistent), both in the solve and in the check, except where a class has
no stationary equilibrium under that selection: as the mover's no-change chance
crosses a threshold the selected equilibrium switches (one side's counter becomes
worth more or less than not countering), the mover's best turn jumps, and no mixture
of the mover's plans bridges the jump. There the search holds the exchanges that
switch near the class's values at one side's counters (another pure equilibrium of
the exchange), and keeps a candidate only when, at its own values, those counters are
best replies too (:func:`panache._three_exact.search_class`). Where no hold passes,
the *switch stage* (:func:`panache._three_switch.solve_mixed_class`) plays an
exchange that switches near the values at its mixed equilibrium: the target counters
and the attacker counters back with chances that leave both indifferent, found by
Newton's method together with the plan mixtures of the other states, and accepted by
the same two-sided check ("mixed counter" in ``method``). The exchanges so held,
pure or mixed, are listed by :attr:`ThreeSolution.held` and counted per class in
``classes["held_exchanges"]``; the states whose mover mixes two plans are listed by
:attr:`ThreeSolution.mixed` with the chance of each (:meth:`ThreeSolution.mixture`).
The decisions, the three-player agent and the game simulator play both. A class
the search leaves unsolved keeps its fictitious-play values and one-turn regret
(``method`` in :attr:`ThreeSolution.classes` says "counter switch" when such a
switch lies near its values, "not found" otherwise). At default rules 17,584 of the
21,360 classes (82.3%) are exact, 486 of them with held exchanges (192 with an
exchange at its mixed equilibrium); the 3,776 left have a two-sided gap of at most
1.7e-3 (median 9.9e-5).

Round 1 is solved by backward induction over the three first turns, each player
seeing the earlier results (docs/rules.md, Master Panache).
"""

from __future__ import annotations

import functools
import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from panache._duel_kernels import MAX_LEVEL
from panache._three_exact import MIX_SHIFT, Context
from panache._three_kernels import (
    announces,
    best_attack,
    class_gaps,
    exchange,
    forced_of,
    rotate,
    solve_level,
    state_parts,
    turn_outcomes,
    vector_turn,
)
from panache._three_switch import solve_mixed_class
from panache.attack import chain_odds
from panache.duel import duel_size, max_points, round_points, solve_duel
from panache.master import mp_success
from panache.policy import TurnPolicy
from panache.rules import Rules
from panache.turn import solve_turn, turn_tables
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import memoize, same_fields
from tabletop.seeding import check_count
from tabletop.validate import check_bool, check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


#: Regret below which a class counts as an exact equilibrium: every mover's stored
#: chance is within this of its best one-turn reply, on either side.
REGRET_TOLERANCE = 1e-9


def _cycles(top: int) -> tuple[np.ndarray, np.ndarray]:
    """Rotation classes of (a, b, c) in 1..top, by increasing total; level offsets."""
    reps = []
    for a in range(1, top + 1):
        for b in range(1, top + 1):
            for c in range(1, top + 1):
                if (a, b, c) == min((a, b, c), (b, c, a), (c, a, b)):
                    reps.append((a + b + c, a, b, c))
    reps.sort()
    array = np.array([r[1:] for r in reps], dtype=np.int64)
    totals = np.array([r[0] for r in reps])
    levels = np.searchsorted(totals, np.arange(3, 3 * top + 2)).astype(np.int64)
    return levels, array


@dataclass(frozen=True, eq=False)
class ThreeSolution:
    """The three-player game solved: exactly in the classes whose ``regret`` is at most
    1e-9 (all of them when ``exact``), elsewhere an approximate equilibrium with that
    one-turn regret.

    :func:`solve_three` caches the solve and hands each call its own copy of the
    pandas objects (edit them at will: the cache keeps its own); the arrays behind the
    methods are shared and read-only. ``==`` compares the rules and the tables.

    Attributes
    ----------
    rules : Rules
    win : pandas.DataFrame
        Indexed by (``my_points``, ``next_points``, ``last_points``) of the player to
        move and the next two clockwise; columns ``mover``, ``next``, ``last``: their
        winning chances.
    start : pandas.Series
        Each seat's winning chance from the start, round 1 included (seat 0 first).
    classes : pandas.DataFrame
        One row per rotation class (a, b, c): ``period`` 1 where policy iteration
        settled on a pure stationary equilibrium, ``p > 1`` where the best responses
        cycle through ``p`` pure profiles, 0 where they did not repeat within 64
        steps; ``spread``, the largest range of a chance over those cycling profiles
        (how much the choice of equilibrium could matter); ``regret``, the largest
        ``|stored mover chance - best one-turn reply|`` over the class's states,
        measured on the finished table: at most 1e-9 where the class is an exact
        equilibrium; ``method``: "pure" (policy iteration), "pure search" (a pure
        stationary equilibrium that the best-response steps circled without meeting,
        found by the search for mixed ones), "mixed" (an exact mixed equilibrium),
        "mixed counter" (an exact equilibrium with an exchange at its mixed
        equilibrium, a counter played at a chance strictly between 0 and 1), or
        why a cycling class kept its fictitious-play values:
        "counter switch" (the selected exchange equilibrium switches within 0.01
        of the values, in the mover's no-change chance), "not found" (no candidate
        passed) or "no pure exchange".
    """

    rules: Rules
    win: pd.DataFrame
    start: pd.Series
    classes: pd.DataFrame
    _table: np.ndarray
    _params: dict

    def __post_init__(self):
        check_fields(self)

    def __eq__(self, other):
        return same_fields(self, other, skip=("_params",))  # _params: from rules and _table

    @property
    def exact(self) -> bool:
        """True when every class is an exact stationary equilibrium (regret <= 1e-9)."""
        return bool((self.classes["regret"] <= REGRET_TOLERANCE).all())

    @property
    def max_spread(self) -> float:
        """The largest spread over the classes with cycling best responses."""
        return float(self.classes["spread"].max())

    @property
    def max_regret(self) -> float:
        """The largest two-sided one-turn gap of any mover in any state (the
        solution's largest one-turn regret; at most 1e-9 when ``exact``)."""
        return float(self.classes["regret"].max())

    @property
    def held(self) -> pd.DataFrame:
        """The exchanges played at another of their equilibria than the selected one
        (counters whenever consistent, :func:`panache._three_kernels.exchange`): in
        classes with no stationary equilibrium under that selection. Indexed by
        (``my_points``, ``next_points``, ``last_points``, ``target`` 1 next / 2 last,
        ``level``); columns ``target_counters`` and ``attacker_counters``, the chance
        that the target counters after each miss and that the attacker counters back
        (1 or 0 where pure)."""
        import pandas as pd

        index, values = self._params["forced_index"], self._params["forced_values"]
        rows = []
        for a, b, c in zip(*np.nonzero(index >= 0), strict=True):
            forced = values[index[a, b, c]]
            for target, level in zip(*np.nonzero(~np.isnan(forced[:, :, 0])), strict=True):
                rows.append((int(a), int(b), int(c), int(target), int(level),
                             *map(float, forced[target, level])))  # fmt: skip
        names = ["my_points", "next_points", "last_points", "target", "level"]
        frame = pd.DataFrame(rows, columns=[*names, "target_counters", "attacker_counters"])
        return frame.set_index(names).sort_index()

    @property
    def mixed(self) -> pd.Series:
        """The states whose mover mixes two turn plans in the solution (classes with
        ``method`` "mixed"): indexed by (``my_points``, ``next_points``,
        ``last_points``), the chance of the first plan of :meth:`mixture`."""
        import pandas as pd

        mix = self._params["mix"]
        states = np.argwhere(~np.isnan(mix))
        index = pd.MultiIndex.from_arrays(states.T, names=["my_points", "next_points",
                                                           "last_points"])  # fmt: skip
        return pd.Series(mix[tuple(states.T)], index=index, name="first_plan_chance")

    def mixture(self, my_points: int, next_points: int, last_points: int) -> list:
        """The mover's play in a state as ``[(chance, decisions), ...]``, the
        decisions as in :meth:`decisions`: one plan with chance 1, or where the
        solution mixes (:attr:`mixed`) the two plans tied at the mover's no-change
        chance: the best turn just below it (first) and just above it.

        Examples
        --------
        >>> sol = solve_three(Rules(start_points=4, n_dice=2))
        >>> [chance for chance, _ in sol.mixture(4, 4, 4)]
        [1.0]
        """
        a, b, c = self._check_state(my_points, next_points, last_points)
        return [(chance, decisions) for chance, _, decisions in self._plans(a, b, c)]

    def plans(self, my_points: int, next_points: int,
              last_points: int) -> list[tuple[float, pd.DataFrame, dict]]:  # fmt: skip
        """:meth:`mixture` with each plan's turn utility: ``[(chance, utility,
        decisions), ...]``, the utility as in :meth:`turn_utility` (what the game
        simulator's tables are built from).

        Examples
        --------
        >>> sol = solve_three(Rules(start_points=4, n_dice=2))
        >>> [(chance, sorted(d)) for chance, _, d in sol.plans(4, 4, 4)][0][0]
        1.0
        """
        return self._plans(*self._check_state(my_points, next_points, last_points))

    def _plans(self, a: int, b: int, c: int) -> list[tuple[float, pd.DataFrame, dict]]:
        """``(chance, turn utility, decisions)`` of each plan the mover plays in state
        (a, b, c) (see :meth:`mixture`)."""
        chance = self._params["mix"][a, b, c]
        if np.isnan(chance):
            return [(1.0, *self._decide(a, b, c))]
        return [(float(chance), *self._decide(a, b, c, -MIX_SHIFT)),
                (1.0 - float(chance), *self._decide(a, b, c, MIX_SHIFT))]  # fmt: skip

    def _check_state(self, my_points, next_points, last_points) -> tuple[int, int, int]:
        top = self._table.shape[0] - 1
        return (check_int("my_points", my_points, 1, top),
                check_int("next_points", next_points, 1, top),
                check_int("last_points", last_points, 1, top))  # fmt: skip

    def chances(self, my_points: int, next_points: int, last_points: int) -> np.ndarray:
        """Winning chances of (mover, next, last) in a state after round 1."""
        a, b, c = self._check_state(my_points, next_points, last_points)
        return self._table[a, b, c].copy()

    def _turn(self, a: int, b: int, c: int, shift: float = 0.0):
        """The mover's best reply to the solved values: the three chances after each
        total, the state's parts (:func:`state_parts`) and the no-change chances.
        ``shift`` moves the mover's own no-change chance (the plans beside a
        breakpoint where the mover mixes, :meth:`mixture`)."""
        p = self._params
        t = p["tables"]
        parts = state_parts(a, b, c, self._table, p["duel"], p["n"], p["hit_given"], p["pi"],
                            p["max_stake"](a))  # fmt: skip
        decline = rotate(self._table[b, c, a])  # nothing changes: the next player moves
        decline[0] += shift
        cu = np.zeros((t.sums.size, 3))
        du = np.zeros(t.sums.size)
        decisions = np.zeros(t.totals.size, dtype=np.int64)
        turn_outcomes(a, b, c, parts, decline, self._table, p["duel"], t.totals, p["final"],
                      p["s"], p["q"], p["counters"], self._forced(a, b, c), cu, du,
                      decisions)  # fmt: skip
        after = cu[p["final"]] + du[p["final"], None] * decline[None, :]
        return after, parts, decline

    def _forced(self, a: int, b: int, c: int) -> np.ndarray:
        """The exchanges of state (a, b, c) that play another equilibrium than the
        selected one (:func:`panache._three_kernels.best_attack`)."""
        return forced_of(self._params["forced_index"], self._params["forced_values"], a, b, c)

    def turn_utility(self, my_points: int, next_points: int, last_points: int) -> pd.DataFrame:
        """The three chances (mover, next, last) after each total of the mover's turn,
        the mover's decisions after it chosen to maximise its own chance."""
        after, _, _ = self._turn(*self._check_state(my_points, next_points, last_points))
        return self._utility_frame(after)

    def _utility_frame(self, after: np.ndarray) -> pd.DataFrame:
        import pandas as pd

        totals = pd.Index(self._params["tables"].totals, name="total")
        return pd.DataFrame(after, index=totals, columns=["mover", "next", "last"])

    def turn_policy(self, my_points: int, next_points: int, last_points: int) -> TurnPolicy:
        """The mover's set-aside policy: the best for its own chance after each total."""
        utility = self.turn_utility(my_points, next_points, last_points)["mover"]
        return solve_turn(self.rules, utility.to_numpy()).policy

    def decisions(self, my_points: int, next_points: int, last_points: int) -> dict:
        """What the mover does after each kind of total, in state (a, b, c).

        The mover's best reply to the solved values (ties: decline, then the next
        player, then the smallest stake): in a state where the solution plays one
        plan these are the solution's decisions; where it mixes two plans
        (:attr:`mixed`) they are one best reply (a pure one) to its values, and
        :meth:`mixture` gives the two plans and their chances. Returns a dict with
        ``win`` (the three chances), ``mp_target`` (1 next, 2 last; 0: no Master
        Panache after a total of 0), ``mp_stake``, and per attack level k = 1..6 the
        lists ``attack`` (0 decline, 1 the next player, 2 the last), and per target
        (index 0 next, 1 last) ``target_counters`` and ``attacker_counters``, the
        exchange's counter decisions: a bool, or the chance of countering where the
        exchange plays a mixed equilibrium.

        Examples
        --------
        >>> sol = solve_three(Rules(start_points=4, n_dice=2))
        >>> d = sol.decisions(4, 4, 4)
        >>> len(d["attack"]), d["attack"][0] in (0, 1, 2)
        (6, True)
        """
        return self._decide(*self._check_state(my_points, next_points, last_points))[1]

    def _decide(self, a: int, b: int, c: int, shift: float = 0.0) -> tuple[pd.DataFrame, dict]:
        """The turn utility and the decisions of state (a, b, c), from one best reply
        (``shift``: see :meth:`_turn`)."""
        p = self._params
        after, parts, decline = self._turn(a, b, c, shift)
        hit_target, hit_attacker, best_mp, best_target, best_stake = parts
        announce = announces(best_mp, best_stake, decline)
        out = {
            "win": self._table[a, b, c].tolist(),
            "mp_target": int(best_target) if announce else 0,
            "mp_stake": int(best_stake) if announce else 0,
            "attack": [],
            "target_counters": [],
            "attacker_counters": [],
        }
        forced = self._forced(a, b, c)
        for k in range(1, MAX_LEVEL + 1):
            choice, _, _ = best_attack(p["s"], p["q"], hit_target, hit_attacker, decline,
                                       p["counters"], k, forced)  # fmt: skip
            counters = []
            for target in (1, 2):
                if p["counters"] and not np.isnan(forced[target, k, 0]):
                    counters.append((forced[target, k, 0], forced[target, k, 1]))
                else:
                    counters.append(exchange(p["s"], p["q"], hit_target[target, k],
                                             hit_attacker[target, k], decline, target,
                                             p["counters"])[2:])  # fmt: skip
            out["attack"].append(int(choice))
            out["target_counters"].append([_counter(tc) for tc, _ in counters])
            out["attacker_counters"].append([_counter(ac) for _, ac in counters])
        return self._utility_frame(after), out

    def round1_points(self, seat: int) -> list[tuple]:
        """The points the seats before ``seat`` (0, 1, 2) can have after their round-1
        turns, each a tuple :meth:`round1_utility` accepts as ``points_before``.

        Examples
        --------
        >>> solve_three(Rules(start_points=4, n_dice=2)).round1_points(0)
        [()]
        """
        seat = check_int("seat", seat, 0, 2)
        return list(self._params["round1"][seat])

    def round1_utility(self, seat: int, points_before=()) -> pd.Series:
        """A round-1 turn's utility for ``seat`` (0, 1, 2) once the seats before it
        have the given points (all alive): its winning chance after each total."""
        import pandas as pd

        seat = check_int("seat", seat, 0, 2)
        points_before = tuple(points_before)
        utilities = self._params["round1"][seat]
        if len(points_before) != seat or points_before not in utilities:
            raise ValueError(
                f"points_before must give the points of the {seat} seats before seat {seat} "
                f"after their round-1 turns (each one of the reachable totals), got "
                f"{points_before!r}"
            )
        totals = pd.Index(self._params["tables"].totals, name="total")
        return pd.Series(utilities[points_before], index=totals, name="win")


def _counter(chance) -> bool | float:
    """A counter decision: a bool when pure, else its chance of countering."""
    chance = float(chance)
    return bool(chance) if chance in (0.0, 1.0) else chance


def _turn_vector(tables, n, utility: np.ndarray, decider: int) -> np.ndarray:
    """Chances after the best turn of ``decider`` when totals give ``utility`` (T x 3)."""
    order = [decider] + [k for k in range(3) if k != decider]
    cu = np.zeros((tables.sums.size, 3))
    final = tables.state_sum[tables.state_start[n] : tables.state_start[n + 1]]
    cu[final] = utility[:, order]
    du = np.zeros(tables.sums.size)
    value = np.empty((n + 1, tables.sums.size, 3))
    slope = np.empty((n + 1, tables.sums.size))
    v, _ = vector_turn(
        n, tables.sums, tables.state_start, tables.state_sum, tables.space.size_offset,
        tables.space.probability, tables.opt_start, tables.opt_size, tables.opt_value,
        cu, du, 0.0, value, slope,
    )  # fmt: skip
    out = np.empty(3)
    out[order] = v
    return out


#: Fictitious-play rounds in a rotation class with no pure stationary equilibrium.
PLAY_ROUNDS = 50

#: Bytes per state (mover's, next's, last's points) of :func:`solve_three`: the
#: ``float64`` chances (24), the held-exchange index and the mixing chances (8 + 8),
#: the ``win`` DataFrame and the caller's copy of it with their index (2 x 24 + 3),
#: and the temporaries of building them. With the two-player endgame the estimate is
#: 0.87 times the peak measured with tracemalloc at 6 start points (3 dice), where the
#: endgame's fixed part weighs most.
THREE_STATE_BYTES = 136

#: Wall seconds per rotation class of :func:`solve_three` on the 2-core reference
#: machine: 428 s wall (342 s of CPU) for the 21,360 classes of the default rules
#: (``benchmarks/bench_three.py``, load 1.7-3.8).
THREE_CLASS_SECONDS = 0.020


def n_classes(top: int) -> int:
    """Rotation classes of the states (a, b, c) in 1..top: ``(top³ + 2 top) / 3``
    (Burnside: the identity fixes every state, each rotation the ``top`` diagonal ones).

    Examples
    --------
    >>> n_classes(40), len(_cycles(5)[1]) == n_classes(5)
    (21360, True)
    """
    return (top**3 + 2 * top) // 3


def three_size(rules: Rules) -> Estimate:
    """Memory and time of :func:`solve_three` from the rules: :data:`THREE_STATE_BYTES`
    per state (a, b, c) up to :func:`panache.duel.max_points`, beside the two-player
    endgame it solves first (:func:`panache.duel.duel_size`); about
    :data:`THREE_CLASS_SECONDS` per rotation class.

    Examples
    --------
    >>> est = three_size(Rules())
    >>> est.nbytes // 10**6, round(est.seconds / 60)
    (9, 7)
    """
    top = max_points(rules)
    states = (top + 1) ** 3
    duel = duel_size(rules).nbytes
    return Estimate("panache.solve_three", THREE_STATE_BYTES * states + duel,
                    {"start_points": rules.start_points}, n_classes(top) * THREE_CLASS_SECONDS,
                    detail=f"{states:,} states x {THREE_STATE_BYTES} bytes")  # fmt: skip


@memoize(maxsize=4)
def solve_three(rules: Rules, play_rounds: int = PLAY_ROUNDS, *, allow_large: bool = False,
                progress: bool | None = None) -> ThreeSolution:  # fmt: skip
    """Solve the three-player game: exactly where a class's best responses settle on a
    pure stationary equilibrium or an exact mixed one is found, approximately (regret
    recorded) elsewhere; see the module docstring.

    Parameters
    ----------
    rules : Rules
        ``n_players`` 3, or 2, the default, which here reads as "not set": the
        solve is always of three players. Four or more players are refused (a
        ValueError naming ``n_players``): there is no solve of those tables, and a
        three-player answer is not theirs.
    play_rounds : int
        Fictitious-play rounds in each rotation class that has no pure stationary
        equilibrium; more rounds lower the regret recorded in ``classes`` where no
        exact mixed equilibrium is found, and move the values the search starts from.
    allow_large : bool
        Solve even when :func:`three_size` exceeds the memory available (default
        False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar over the rotation classes (default: when stderr is a
        terminal). The classes of one total go to the kernels in batches that return
        to Python, so Ctrl-C stops the solve between two batches (at the default rules
        a class takes a fraction of a second to a few seconds). The answer is cached
        per arguments.

    Raises
    ------
    ValueError
        If ``rules.n_players`` is above 3, if ``play_rounds`` is below 1, or if some
        exchange has no equilibrium in pure counter decisions (no rule set met so far).
    TypeError
        If ``rules`` is not a ``panache.Rules`` or ``play_rounds`` is not an integer.
    MemoryError
        If the tables do not fit in the memory available (and not ``allow_large``).

    Examples
    --------
    >>> sol = solve_three(Rules(start_points=4, n_dice=2))
    >>> round(float(sol.start.sum()), 12)
    1.0
    """
    import dataclasses

    import pandas as pd

    rules = Rules.check(rules, default=False)
    if rules.n_players > 3:
        raise ValueError(
            f"solve_three is the three-player game: rules.n_players must be 3 (or the "
            f"default 2), got n_players={rules.n_players}"
        )
    play_rounds = check_count("play_rounds", play_rounds, minimum=1)
    allow_large = check_bool("allow_large", allow_large)
    progress = show_progress(progress)
    check_memory(three_size(rules), allow_large)
    t = turn_tables(rules)
    n = rules.n_dice
    top = max_points(rules)
    duel = solve_duel(dataclasses.replace(rules, n_players=2), allow_large=allow_large,
                      progress=progress)  # its two-player endgames
    duel_win = duel.win_table
    s, q, hit_given = chain_odds(n)
    shared = {"tables": t, "n": n, "hit_given": hit_given, "pi": mp_success(rules), "s": s,
              "q": q, "counters": rules.counter_attacks, "max_stake": rules.stake_ceiling}
    final = t.state_sum[t.state_start[n] : t.state_start[n + 1]]
    levels, cycles = _cycles(top)
    table = np.zeros((top + 1, top + 1, top + 1, 3))
    periods = np.zeros(len(cycles), dtype=np.int64)
    spreads = np.zeros(len(cycles))
    own_regrets = np.zeros(len(cycles))
    missing = np.zeros(len(cycles), dtype=np.int64)
    method = np.full(len(cycles), "pure", dtype=object)
    held_exchanges = np.zeros(len(cycles), dtype=np.int64)
    forced_index = np.full((top + 1, top + 1, top + 1), -1, dtype=np.int64)
    mix = np.full((top + 1, top + 1, top + 1), np.nan)  # chance of the plan below
    forced_rows: list[np.ndarray] = []
    ctx = Context(duel_win, rules.mp_stake_factor, rules.mp_stake_cap or 0, n, t, final,
                  hit_given, s, q, shared["pi"], rules.counter_attacks)  # fmt: skip
    threads = numba.get_num_threads()
    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        with progress_bar(len(cycles), "panache three players", progress, "class") as bar:
            for level_lo, level_hi in itertools.pairwise(levels):
                # the classes of one total are independent: batches of them (whole
                # groups of one class per thread) return to Python (bar, Ctrl-C) without
                # changing what each class's solve computes
                for a, b in Chunks(-(-(level_hi - level_lo) // threads)):
                    lo, hi = level_lo + a * threads, min(level_lo + b * threads, level_hi)
                    solve_level(
                        lo, hi, cycles, table, rules.mp_stake_factor, rules.mp_stake_cap or 0,
                        n, t.sums, t.state_start, t.state_sum, t.space.size_offset,
                        t.space.probability, t.opt_start, t.opt_size, t.opt_value, t.totals,
                        final, hit_given, s, q, shared["pi"], rules.counter_attacks, duel_win,
                        play_rounds, periods, spreads, own_regrets, missing,
                    )  # fmt: skip
                    todo = [ci for ci in range(lo, hi) if periods[ci] != 1 and missing[ci] == 0]
                    # the kernels release the GIL; classes of one total are independent
                    found = pool.map(lambda ci: solve_mixed_class(ctx, table, *cycles[ci]), todo)
                    for ci, (how, held, mixes) in zip(todo, found, strict=True):
                        method[ci] = how
                        for state, chance in mixes.items():
                            mix[state] = chance
                        held_exchanges[ci] = sum(int((~np.isnan(f[:, :, 0])).sum())
                                                 for f in held.values())  # fmt: skip
                        for state, f in held.items():
                            forced_index[state] = len(forced_rows)
                            forced_rows.append(f)
                    bar.update(hi - lo)
    finally:  # on Ctrl-C: no class search left queued
        pool.shutdown(cancel_futures=True)
    forced_values = (np.array(forced_rows) if forced_rows
                     else np.empty((0, 3, MAX_LEVEL + 1, 2)))  # fmt: skip
    no_equilibrium = int(missing.sum())
    # the regret recorded is measured on the finished table, not the solver's own
    regrets = class_gaps(
        cycles, table, rules.mp_stake_factor, rules.mp_stake_cap or 0, n, t.sums,
        t.state_start, t.state_sum, t.space.size_offset, t.space.probability, t.opt_start,
        t.opt_size, t.opt_value, t.totals, final, hit_given, s, q, shared["pi"],
        rules.counter_attacks, duel_win, forced_index, forced_values,
    )  # fmt: skip
    if no_equilibrium:
        raise ValueError(
            f"{no_equilibrium} exchanges have no equilibrium in pure counter decisions "
            f"for these rules; the three-player solve does not cover them"
        )
    classes = pd.DataFrame(
        {
            "period": periods,
            "spread": spreads,
            "regret": regrets,
            "method": method,
            "held_exchanges": held_exchanges,
        },
        index=pd.MultiIndex.from_arrays(cycles.T, names=["a", "b", "c"]),
    )
    index = pd.MultiIndex.from_product(
        [range(1, top + 1)] * 3, names=["my_points", "next_points", "last_points"]
    )
    win = pd.DataFrame(table[1:, 1:, 1:].reshape(-1, 3), index=index,
                       columns=["mover", "next", "last"])  # fmt: skip
    round1: tuple[dict, dict, dict] = ({}, {}, {})
    start = _round_one(rules, t, table, duel, round1)
    for array in (table, forced_index, forced_values, mix):
        array.setflags(write=False)
    params = {**shared, "final": final, "duel": duel_win, "round1": round1,
              "forced_index": forced_index, "forced_values": forced_values,
              "mix": mix}  # fmt: skip
    return ThreeSolution(rules, win, start, classes, table, params)


def _round_one(rules, tables, table, duel, utilities) -> pd.Series:
    """Seat chances from the start: the three first turns by backward induction.

    Fills ``utilities[seat][points of the seats before]`` with the seat's round-1
    turn utility (its chance after each total).
    """
    import pandas as pd

    n = rules.n_dice
    points = [round_points(rules, int(x)) for x in tables.totals]
    round1 = duel.round1["second_player_win"]

    def turn(rows, seat, before):
        rows = np.array(rows)
        utilities[seat][before] = rows[:, seat].copy()
        return _turn_vector(tables, n, rows, seat)

    @functools.cache
    def after_last(p0, p1):  # seat 2 plays its first turn, seats 0 and 1 have played
        utility = [
            [duel.win_table[p0, p1], 1 - duel.win_table[p0, p1], 0.0] if p2 <= 0
            else table[p0, p1, p2]
            for p2 in points
        ]  # fmt: skip
        return turn(utility, 2, (p0, p1))

    @functools.cache
    def after_second(p0):  # seat 1 plays its first turn
        rows = []
        for p1 in points:
            if p1 <= 0:  # seat 2 still has its first turn, answering seat 0
                w2 = round1[p0]
                rows.append([1 - w2, 0.0, w2])
            else:
                rows.append(after_last(p0, p1))
        return turn(rows, 1, (p0,))

    rows = []
    for p0 in points:
        if p0 <= 0:  # seats 1 and 2 play a duel from the start
            w1 = duel.first_player_win
            rows.append([0.0, w1, 1 - w1])
        else:
            rows.append(after_second(p0))
    start = turn(rows, 0, ())
    return pd.Series(start, index=pd.Index([0, 1, 2], name="seat"), name="win")
