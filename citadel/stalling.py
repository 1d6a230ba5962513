"""Stalling under optimal play: draws, game length and mutual abstention, exactly.

A solved two-sided game (the duel, :func:`citadel.solve_duel_game`, or two sides,
:func:`citadel.solve_sides`) fixes a stationary mixed strategy for each side in
every state. Played together they make a Markov chain on the states. Every round
that changes the state costs an author capital (a move is paid by its authors under
either payment rule, a cancelled tie under ``payment="all"``), so apart from a
state repeating itself the chain only goes down in capital: taking the states in the
solve's order (increasing capitals), each one's absorption odds follow from those
already computed. With ``q`` the chance that the round changes nothing (both sides'
strategies, the *loop* entries of the stage game) and ``p_ij`` the chance of the
order pair (i, j),

.. math::

    P_A(s) = \\frac{\\sum_{(i,j)\\,\\text{off the loop}} p_{ij}\\, P_A(s_{ij})}{1 - q},
    \\qquad
    T(s) = \\frac{1 + \\sum_{(i,j)\\,\\text{off the loop, not ended}} p_{ij}\\, T(s_{ij})}
    {1 - q},

with ``P_A`` of a finished game its score. A state with ``q = 1`` (both sides' every
order pair repeats it) is **stalled for good**: the game never ends (a draw at
``max_rounds``), and ``T = 0`` there. So

* ``draw`` = ``1 - P_A - P_B`` is the chance that the game stalls for good, the only
  way a game without a round limit fails to end;
* ``rounds`` is the expected number of rounds until the game is won or has stalled
  for good (the rounds a stalled game then repeats are not counted).

**Mutual abstention.** Each side's *minimal orders* are its legal orders of least
total amount at the start: the abstention when ``min_bid`` is 0, else the smallest
amount a member must write. Mutual abstention (or mutual minimal bidding) is an
equilibrium at the start when some pair of minimal orders is a saddle point of the
start's stage game, with the solved values after any other round and a round that
changes nothing worth the draw (0) it leads to if repeated: neither side gains by
another order for one round, optimal play following.

References
----------
Kemeny, J. G. and Snell, J. L. (1960). *Finite Markov Chains*, ch. III (absorbing
chains: absorption probabilities and expected times to absorption).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from citadel.rules import Rules
from citadel.sides import SidesSolution, exit_scores, order_name, pawn_moves, side_weights
from citadel.whole_game import DuelGameSolution
from tabletop.frozen import same_fields
from tabletop.validate import PROBABILITY, PROBABILITY_DIFFERENCE, check_fields

if TYPE_CHECKING:
    import pandas as pd

#: A state whose solved strategies repeat it with at least this chance is stalled for good.
STALLED = 1.0 - 1e-12
#: Largest one-round gain that still counts as no gain (the LP's tolerance).
NO_GAIN = 1e-9


@dataclass(frozen=True, eq=False)
class StallOdds:
    """How a solved game ends from the start, both sides playing the solution.

    Built anew by each call. ``==`` compares values.

    Attributes
    ----------
    value : float
        The solution's value at the start (its objective, to side A / N).
    score_a, score_b : float
        Each side's expected score (1 a win, 1/2 a shared corner).
    draw : float
        The chance that the game never ends: it stalls for good.
    rounds : float
        Expected rounds until the game is won or stalled for good.
    repeat_first : float
        The chance that the first round changes nothing (pawn and capitals).
    minimal_orders : tuple of two tuples of str
        Each side's minimal orders at the start (see the module docstring).
    minimal_equilibrium : bool
        Whether some pair of minimal orders is an equilibrium at the start.
    minimal_gain : float
        The larger one-round gain of a side deviating from the best such pair
        (0 when it is an equilibrium).

    ``value`` is in -1..1, the scores and chances in 0..1 (within 1e-9, rounding),
    ``rounds`` and ``minimal_gain`` finite and >= 0.

    Examples
    --------
    >>> from citadel import Rules, solve_duel_game
    >>> odds = stall_odds(solve_duel_game(Rules(n_players=2, radius=1, capital=10,
    ...                                         bid_step=5)))
    >>> round(odds.score_a + odds.score_b + odds.draw, 9), odds.minimal_gain
    (1.0, 0.0)
    """

    value: float
    score_a: float
    score_b: float
    draw: float
    rounds: float
    repeat_first: float
    minimal_orders: tuple
    minimal_equilibrium: bool
    minimal_gain: float

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, score_a=PROBABILITY,
                     score_b=PROBABILITY, draw=PROBABILITY, rounds=(0.0, None),
                     repeat_first=PROBABILITY, minimal_gain=(0.0, None))


class _Walk:
    """The chain of a solution: its states in solve order and, at each, the order
    pairs' chances, where they lead and the scores of the pairs that end the game."""

    def __init__(self, sol):
        self.sol = sol
        if isinstance(sol, DuelGameSolution):
            self.duel = True
            space = sol.space
            r = sol.rules.radius
            self.shape = (2 * r + 1, space.levels.size, space.levels.size)
            self.start = (0, sol.rules.capital, sol.rules.capital)
        else:
            self.duel = False
            space = sol.space
            r = sol.rules.radius
            self.shape = (2 * r + 1, 2 * r + 1, space.levels[0].size, space.levels[1].size)
            self.start = (0, 0, space.pool(0), space.pool(1))
        self.space = space

    def states(self):
        """State keys in solve order (successors come first)."""
        if self.duel:
            from citadel.whole_game import _states

            yield from _states(self.space)
        else:
            from citadel.sides import _states

            for x, y, _, _, ca, cb in _states(self.space):
                yield (x, y, ca, cb)

    def index(self, key):
        r = self.sol.rules.radius
        sp = self.space
        if self.duel:
            y, cn, cs = key
            return (y + r, sp.level_of[cn], sp.level_of[cs])
        x, y, ca, cb = key
        return (x + r, y + r, sp.level_of[0][ca], sp.level_of[1][cb])

    def key_of(self, index):
        """The state key of an index of :meth:`index` (the inverse)."""
        r = self.sol.rules.radius
        sp = self.space
        if self.duel:
            iy, a, b = (int(v) for v in index)
            return (iy - r, int(sp.levels[a]), int(sp.levels[b]))
        ix, iy, a, b = (int(v) for v in index)
        return (ix - r, iy - r, int(sp.levels[0][a]), int(sp.levels[1][b]))

    def _step(self, key, block):
        """Where the order pairs ``block`` (an ``np.ix_`` of rows and columns) lead from
        ``key``: ``after`` (the next state's components, arrays over the block), ``ends``,
        ``score_a``, ``score_b`` and ``loop`` (the pair leaves the state unchanged)."""
        sp, rules = self.space, self.sol.rules
        if self.duel:
            y, cn, cs = key
            y2 = y + sp.dy[block]
            cn2 = np.maximum(cn - sp.cost_n[block], 0)
            cs2 = np.maximum(cs - sp.cost_s[block], 0)
            score_a = (y2 > rules.radius).astype(float)
            score_b = (y2 < -rules.radius).astype(float)
            ends = (score_a + score_b) > 0
            loop = (y2 == y) & (cn2 == cn) & (cs2 == cs)
            return (y2, cn2, cs2), ends, score_a, score_b, loop
        x, y, ca, cb = key
        x2, y2 = pawn_moves(rules, x, y, sp.dx[block], sp.dy[block])
        ca2 = np.maximum(ca - sp.cost[0][block], 0)
        cb2 = np.maximum(cb - sp.cost[1][block], 0)
        score_a, ends = exit_scores(rules, x2, y2, side_weights(sp, (1.0, 0.0)))
        score_b, _ = exit_scores(rules, x2, y2, side_weights(sp, (0.0, 1.0)))
        loop = (x2 == x) & (y2 == y) & (ca2 == ca) & (cb2 == cb)
        return (x2, y2, ca2, cb2), ends, score_a, score_b, loop

    def table(self, key):
        """``rows, cols, next (list of keys or None), ends (bool), score_a, score_b,
        loop`` of the state's legal order pairs (matrices of shape (rows, cols))."""
        sp = self.space
        capitals = key[-2:]
        rows, cols = sp.legal(0, capitals[0]), sp.legal(1, capitals[1])
        after, ends, score_a, score_b, loop = self._step(key, np.ix_(rows, cols))
        return rows, cols, np.stack(after, axis=-1), ends, score_a, score_b, loop

    def support(self, key):
        """``x, y, later, ends, score_a, score_b, loop`` over the pairs of the solution's
        supports at ``key`` only (those with a chance): ``x``, ``y`` the two sides'
        probabilities, ``later`` the index arrays of the states the pairs lead to (valid
        where the pair does not end the game), the rest as in :meth:`table`."""
        sp, r = self.space, self.sol.rules.radius
        acts_a, x = (np.asarray(v) for v in self.sol.row[key])
        acts_b, y = (np.asarray(v) for v in self.sol.column[key])
        after, ends, score_a, score_b, loop = self._step(key, np.ix_(acts_a, acts_b))
        if self.duel:
            y2, cn2, cs2 = after
            later = (np.clip(y2 + r, 0, 2 * r), sp.level_of[cn2], sp.level_of[cs2])
        else:
            x2, y2, ca2, cb2 = after
            later = (np.clip(x2 + r, 0, 2 * r), np.clip(y2 + r, 0, 2 * r),
                     sp.level_of[0][ca2], sp.level_of[1][cb2])  # fmt: skip
        return x, y, later, ends, score_a, score_b, loop

    def strategy(self, key, rows, cols):
        """The solution's mixed orders at ``key`` as vectors over ``rows`` / ``cols``."""
        out = []
        for table, legal in ((self.sol.row, rows), (self.sol.column, cols)):
            actions, probs = table[key]
            vec = np.zeros(legal.size)
            vec[np.searchsorted(legal, actions)] = probs
            out.append(vec)
        return out


def _chain(walk: _Walk):
    """P_A, P_B and T (see the module docstring) at every state."""
    p_a, p_b, rounds = np.zeros(walk.shape), np.zeros(walk.shape), np.zeros(walk.shape)
    for key in walk.states():
        # only the pairs of the two supports carry a chance: the table is built on them
        x, y, nxt, ends, score_a, score_b, loop = walk.support(key)
        p = np.outer(x, y)
        stay = float(p[loop].sum())
        here = walk.index(key)
        if stay >= STALLED:
            continue  # stalled for good: no score, no further rounds counted
        go = ~loop & ~ends & (p > 0)
        later = tuple(k[go] for k in nxt)
        weights = p[go]
        a = float((p * score_a)[~loop].sum())
        b = float((p * score_b)[~loop].sum())
        t = 1.0
        if weights.size:
            a += float(weights @ p_a[later])
            b += float(weights @ p_b[later])
            t += float(weights @ rounds[later])
        p_a[here], p_b[here], rounds[here] = a / (1 - stay), b / (1 - stay), t / (1 - stay)
    return p_a, p_b, rounds


def _objective_matrix(walk: _Walk, score_a, score_b, ends, nxt, loop):
    """The start's stage game in the solution's objective, the loop worth 0 (a draw)."""
    if walk.duel:
        per = (1.0, -1.0)
    else:
        from citadel.sides import OBJECTIVES

        per = OBJECTIVES[walk.sol.objective]
    values = walk.sol.values
    M = per[0] * score_a + per[1] * score_b
    for i, j in np.argwhere(~ends & ~loop):
        M[i, j] = values[walk.index(tuple(int(v) for v in nxt[i, j]))]
    M[loop] = 0.0
    return M


def stall_odds(sol) -> StallOdds:
    """Draws, length and mutual abstention of a solved game, from the start.

    Parameters
    ----------
    sol : DuelGameSolution or SidesSolution
        A solution of :func:`citadel.solve_duel_game` or :func:`citadel.solve_sides`.

    Returns
    -------
    StallOdds

    Examples
    --------
    On a small board with ``min_bid`` 0 the duel is drawn for sure under optimal play,
    and abstaining together is an equilibrium at the start.

    >>> from citadel import Rules, solve_duel_game
    >>> odds = stall_odds(solve_duel_game(Rules(n_players=2, radius=1, capital=10,
    ...                                         bid_step=5)))
    >>> round(odds.draw, 9), odds.minimal_equilibrium, odds.minimal_orders
    (1.0, True, (('abstain',), ('abstain',)))
    """
    if not isinstance(sol, (DuelGameSolution, SidesSolution)):
        raise TypeError(f"sol must be a DuelGameSolution or a SidesSolution, "
                        f"got {type(sol).__name__}")  # fmt: skip
    walk = _Walk(sol)
    p_a, p_b, rounds = _chain(walk)
    key = walk.start
    here = walk.index(key)
    rows, cols, nxt, ends, score_a, score_b, loop = walk.table(key)
    x, y = walk.strategy(key, rows, cols)
    M = _objective_matrix(walk, score_a, score_b, ends, nxt, loop)
    spend = _spend(walk)
    mins = [legal[spend[side][legal] == spend[side][legal].min()]
            for side, legal in enumerate((rows, cols))]  # fmt: skip
    best = np.inf
    for i0 in np.searchsorted(rows, mins[0]):
        for j0 in np.searchsorted(cols, mins[1]):
            gain = max(M[:, j0].max() - M[i0, j0], M[i0, j0] - M[i0, :].min())
            best = min(best, gain)
    names = tuple(tuple(_name(walk, side, a) for a in m) for side, m in enumerate(mins))
    return StallOdds(
        value=float(sol.values[here]),
        score_a=float(p_a[here]),
        score_b=float(p_b[here]),
        draw=max(0.0, 1.0 - float(p_a[here]) - float(p_b[here])),
        rounds=float(rounds[here]),
        repeat_first=float(x @ loop @ y),
        minimal_orders=names,
        minimal_equilibrium=bool(best <= NO_GAIN),
        minimal_gain=float(max(best, 0.0)),
    )


def exhausted_draw(sol) -> float:
    """The chance that the game, both sides playing the solution from the start, ends
    drawn because no side can write a positive amount any more (capital run out).

    :func:`stall_odds`'s ``draw`` counts such a state as stalled for good (no order
    changes it); the rules end the game there as a draw at once. ``draw`` minus this
    chance is the chance that the game stalls for good while a side could still bid.
    The chance follows by the recursion of the module docstring, a state where no side
    can bid scoring 1.

    Examples
    --------
    On a small board with ``min_bid`` 0 the duel stalls at the start, with capital
    left; with a minimum bid every draw comes from capital running out.

    >>> import dataclasses
    >>> from citadel import Rules, solve_duel_game
    >>> rules = Rules(n_players=2, radius=1, capital=10, bid_step=5)
    >>> exhausted_draw(solve_duel_game(rules))
    0.0
    >>> sol = solve_duel_game(dataclasses.replace(rules, min_bid=5))
    >>> bool(abs(exhausted_draw(sol) - stall_odds(sol).draw) < 1e-9)
    True
    """
    if not isinstance(sol, (DuelGameSolution, SidesSolution)):
        raise TypeError(f"sol must be a DuelGameSolution or a SidesSolution, "
                        f"got {type(sol).__name__}")  # fmt: skip
    walk = _Walk(sol)
    spend = _spend(walk)
    p_dead = np.zeros(walk.shape)
    for key in walk.states():
        here = walk.index(key)
        capitals = key[-2:]
        if all(float(spend[side][walk.space.legal(side, capitals[side])].max()) == 0.0
               for side in (0, 1)):  # fmt: skip
            p_dead[here] = 1.0  # no side can write a positive amount: a draw at once
            continue
        x, y, nxt, ends, _, _, loop = walk.support(key)
        p = np.outer(x, y)
        stay = float(p[loop].sum())
        if stay >= STALLED:
            continue  # stalled for good with capital left
        go = ~loop & ~ends & (p > 0)
        if go.any():
            p_dead[here] = float(p[go] @ p_dead[tuple(k[go] for k in nxt)]) / (1 - stay)
    return float(p_dead[walk.index(walk.start)])


def won_within(sol, rounds: int) -> tuple[float, float]:
    """Each side's expected score from wins within ``rounds`` rounds of the start.

    Both sides play the solution, as in :func:`stall_odds`; a game not won after
    ``rounds`` rounds scores nothing. This is the event a simulation with
    ``max_rounds=rounds`` measures, whereas :func:`stall_odds` counts every win however
    late: ``stall_odds(sol).score_a - won_within(sol, k)[0]`` is side A's score from
    wins after round ``k``. Only the states reachable from the start are visited; the
    scores follow by iterating the chain ``rounds`` times,

    .. math::

        W_0 = 0, \\qquad W_{k}(s) = \\sum_{(i,j)} p_{ij}\\,
        \\bigl(\\text{score}_{ij} \\text{ if the pair ends the game, else }
        W_{k-1}(s_{ij})\\bigr).

    Parameters
    ----------
    sol : DuelGameSolution or SidesSolution
        A solution of :func:`citadel.solve_duel_game` or :func:`citadel.solve_sides`.
    rounds : int
        Rounds played (>= 0).

    Returns
    -------
    tuple of float
        Side A's (N's) and side B's (S's) expected scores from wins within ``rounds``.

    Examples
    --------
    >>> from citadel import Rules, solve_sides
    >>> sol = solve_sides(Rules(radius=1, capital=20, bid_step=5), "NE")
    >>> a, b = won_within(sol, 1000)
    >>> odds = stall_odds(sol)
    >>> bool(abs(a - odds.score_a) < 1e-9), won_within(sol, 0)
    (True, (0.0, 0.0))
    """
    a, b, _ = limited_outcome(sol, rounds)
    return a, b


def limited_outcome(sol, rounds: int) -> tuple[float, float, float]:
    """:func:`won_within`'s two scores and the expected length of the game under a
    round limit of ``rounds``, both sides playing the solution.

    The length counts the rounds played as the rules count them: a game ends when it
    is won, when no side can write a positive amount any more (the rules' draw at
    once), or after ``rounds`` rounds; a game stalled for good while a side could
    still bid lasts the whole ``rounds``. It is the sum over ``k < rounds`` of the
    chance that round ``k + 1`` is played.

    Returns
    -------
    tuple of float
        Side A's and side B's expected scores from wins within ``rounds``, and the
        expected number of rounds played.

    Examples
    --------
    On a small board with ``min_bid`` 0 the duel stalls at the start: it lasts the
    whole limit; with a minimum bid the capitals run out and the game ends drawn.

    >>> import dataclasses
    >>> from citadel import Rules, solve_duel_game
    >>> rules = Rules(n_players=2, radius=1, capital=10, bid_step=5)
    >>> limited_outcome(solve_duel_game(rules), 200)
    (0.0, 0.0, 200.0)
    >>> a, b, length = limited_outcome(
    ...     solve_duel_game(dataclasses.replace(rules, min_bid=5)), 200)
    >>> length < 200
    True
    """
    from scipy import sparse

    from tabletop.validate import check_int

    if not isinstance(sol, (DuelGameSolution, SidesSolution)):
        raise TypeError(f"sol must be a DuelGameSolution or a SidesSolution, "
                        f"got {type(sol).__name__}")  # fmt: skip
    rounds = check_int("rounds", rounds, 0, 10**6)
    walk = _Walk(sol)
    spend = _spend(walk)
    first = int(np.ravel_multi_index(walk.index(walk.start), walk.shape))
    at = {first: 0}  # flat state index -> row of the chain, in order of discovery
    todo = [first]
    now_a, now_b, src, dst, weight, dead = [], [], [], [], [], []
    while todo:
        flat = todo.pop()
        here = at[flat]
        key = walk.key_of(np.unravel_index(flat, walk.shape))
        capitals = key[-2:]
        if all(float(spend[side][walk.space.legal(side, capitals[side])].max()) == 0.0
               for side in (0, 1)):  # fmt: skip
            dead.append(here)  # no side can write a positive amount: a draw at once
            continue
        x, y, nxt, ends, score_a, score_b, _ = walk.support(key)
        p = np.outer(x, y)
        now_a.append((here, float((p * score_a).sum())))
        now_b.append((here, float((p * score_b).sum())))
        go = ~ends & (p > 0)
        for later, w in zip(np.ravel_multi_index(tuple(k[go] for k in nxt), walk.shape).tolist(),
                            p[go].tolist(), strict=True):
            if later not in at:
                at[later] = len(at)
                todo.append(later)
            src.append(here)
            dst.append(at[later])
            weight.append(w)
    n = len(at)
    step = sparse.csr_matrix((weight, (src, dst)), shape=(n, n))
    immediate_a, immediate_b = np.zeros(n), np.zeros(n)
    for k, v in now_a:
        immediate_a[k] = v
    for k, v in now_b:
        immediate_b[k] = v
    w_a, w_b = np.zeros(n), np.zeros(n)
    for _ in range(rounds):
        w_a, w_b = immediate_a + step @ w_a, immediate_b + step @ w_b
    # the chance of being at each state before round k + 1, summed over k < rounds
    live = np.ones(n)
    live[dead] = 0.0
    at_k = np.zeros(n)
    at_k[0] = 1.0
    length = 0.0
    step_t = step.T.tocsr()
    for _ in range(rounds):
        length += float(at_k @ live)
        at_k = step_t @ at_k
    return float(w_a[0]), float(w_b[0]), length


def _spend(walk: _Walk):
    """What each order writes in all, per side."""
    sp = walk.space
    if walk.duel:
        return sp.amounts
    return sp.spend


def _name(walk: _Walk, side: int, action: int) -> str:
    sp = walk.space
    if walk.duel:
        from citadel.rules import DIRECTIONS

        a = int(sp.amounts[side][action])
        return f"{a} {DIRECTIONS[sp.dirs[side][action]]}" if a else "abstain"
    return order_name(sp, side, action)


#: The min_bid values of issue 15's question, in points.
MIN_BIDS = (0, 1, 5, 10, 20)


def stalling(rules: Rules, min_bids=MIN_BIDS, sides=None, duel: bool = True,
             objective: str = "difference") -> pd.DataFrame:  # fmt: skip
    """Draw chance, game length and mutual abstention under optimal play, by min_bid.

    For each ``min_bid``, the duel (N vs S, ``rules`` with two players, each side
    writing its own direction) and each two-sides game of ``sides`` are solved
    exactly on ``rules.bid_step``'s grid, and :func:`stall_odds` is read from the
    start. A min_bid below the grid's step acts as the step (:attr:`Rules.smallest_bid`):
    such rows repeat the solve of their smallest bid.

    Parameters
    ----------
    rules : Rules
        The board, capital, payment, resolution and bid grid of every solve.
    min_bids : sequence of int
        The ``min_bid`` values (default 0, 1, 5, 10, 20).
    sides : sequence of str, optional
        Side A of each two-sides game, e.g. ``("NE", "NS", "N")`` (default: one
        coalition of each symmetry class with at most half the seats, or none with
        two players).
    duel : bool
        Include the duel (default True).
    objective : {"difference", "score"}
        The two-sides games' objective (:func:`citadel.solve_sides`).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``game`` (``"duel N vs S"`` or ``"sides NE vs SW"``) and
        ``min_bid``, with columns ``smallest_bid``, ``value``, ``score_a``, ``score_b``,
        ``draw``, ``rounds``, ``repeat_first``, ``abstention_equilibrium`` (mutual
        minimal orders an equilibrium at the start), ``deviation_gain`` and ``states``.

    Examples
    --------
    >>> table = stalling(Rules(radius=1, capital=10, bid_step=5), min_bids=(0, 5),
    ...                  sides=("NS",))
    >>> table["draw"].round(6).tolist()
    [1.0, 1.0, 0.0, 0.0]
    """
    import pandas as pd

    from citadel.coalitions import coalition_classes
    from citadel.sides import check_side, solve_sides
    from citadel.whole_game import solve_duel_game
    from tabletop.validate import check_bool, check_choice, check_int

    rules = Rules.check(rules, default=False)
    duel = check_bool("duel", duel)
    objective = check_choice("objective", objective, ("difference", "score"))
    if isinstance(min_bids, (str, bytes)) or not hasattr(min_bids, "__iter__"):
        raise TypeError(f"min_bids must be a sequence of ints, got {min_bids!r}")
    min_bids = [check_int("min_bids", m, 0, 10**6) for m in min_bids]
    if not min_bids:
        raise ValueError("min_bids must hold at least one min_bid, got none")
    if sides is None:
        sides = [] if rules.n_players == 2 else [
            s for s in coalition_classes(rules) if 2 * len(s) <= rules.n_players]
    else:
        if isinstance(sides, str):
            sides = [sides]
        if not hasattr(sides, "__iter__"):
            raise TypeError(f"sides must be a sequence of sides such as ('NE', 'NS'), "
                            f"got {sides!r}")  # fmt: skip
        sides = list(sides)
        for side in sides:
            try:
                check_side(rules, side)
            except (TypeError, ValueError) as err:
                raise type(err)(f"sides: {err}") from None
    games = ([("duel", None)] if duel else []) + [("sides", s) for s in sides]
    rows, cache = {}, {}
    for kind, side in games:
        for m in min_bids:
            r = dataclasses.replace(rules, min_bid=m)
            if kind == "duel":
                r = dataclasses.replace(r, n_players=2)
            tag = (kind, side, r.smallest_bid if m else 0)
            if tag not in cache:
                sol = solve_duel_game(r) if kind == "duel" else solve_sides(r, side, objective)
                cache[tag] = (stall_odds(sol), sol.values.size, sol)
            odds, size, sol = cache[tag]
            name = ("duel N vs S" if kind == "duel"
                    else f"sides {sol.names[0]} vs {sol.names[1]}")  # fmt: skip
            rows[(name, m)] = {
                "smallest_bid": r.smallest_bid if m else 0,
                "value": odds.value,
                "score_a": odds.score_a,
                "score_b": odds.score_b,
                "draw": odds.draw,
                "rounds": odds.rounds,
                "repeat_first": odds.repeat_first,
                "abstention_equilibrium": odds.minimal_equilibrium,
                "deviation_gain": odds.minimal_gain,
                "states": size,
            }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.names = ["game", "min_bid"]
    return frame
