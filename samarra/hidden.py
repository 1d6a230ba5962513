"""The equilibrium of Ce soir, à Samarra with hidden roles, adjudicated after H actions.

The game is the one of docs/rules.md (Information) stopped after action ``H`` and
scored by the tie-break (the adjudicated game of :func:`samarra.solve_horizon`, with
the identities under the tents hidden): see :mod:`samarra.hidden_tree` for its
sequence form. As in :func:`samarra.solve_horizon`, only ``horizon`` ends it early:
``max_actions`` and a position's third occurrence (which end a *played* game, and the
OpenSpiel game ``samarra.openspiel``) are not read. The two games are the same for
H <= 7 (and H <= ``max_actions``): a third occurrence needs at least 8 actions, since a
position comes back with the same side to move and actions left only every 4 actions.

With Black's realization plan ``x`` (``E x = e, x >= 0``), White's ``y``
(``F y = f, y >= 0``) and the sparse payoff matrix ``A`` (Black's payoff at each leaf,
indexed by the two players' sequences), the value is

.. math::

    v = \\max_{x} \\min_{y} x^\\top A y
      = \\max_{x, q} \\; f^\\top q \\quad \\text{s.t.} \\quad
        F^\\top q - A^\\top x \\le 0, \\; E x = e, \\; x \\ge 0,

one linear programme (Koller, Megiddo and von Stengel 1994, eq. (8)); White's
realization plan is the programme's dual on the constraints ``F^T q - A^T x <= 0``.
It is solved by scipy's HiGHS (dual simplex, tolerances 1e-10), after two exact
reductions:

* the mirror. The rules read no column, so reflecting the board left-right (a setup's
  row reversed, every action on the mirrored cells) maps the game onto itself with the
  same payoffs (:func:`samarra.hidden_tree.mirror` builds the map and checks it on the
  form). If ``(x, q)`` is optimal so is its mirror, and so their average: the programme
  restricted to mirror-symmetric ``x`` and ``q`` has the same value, with one variable
  per orbit ``{s, sigma(s)}`` and one constraint per orbit (a constraint and its mirror
  coincide on symmetric plans). No setup is its own mirror (three different figures
  cannot fill a row symmetrically), so every orbit but the empty sequence's and the
  setup choice's has two members and the programme is about half as large in rows and
  columns; White's plan is the dual of an orbit's constraint shared by its two members;
* identical rows and columns. A constraint equal to another (a *twin* sequence of
  White: no information set below it and the same payoffs as another action of its
  set) is dropped, its dual 0; a variable whose column equals another's (a twin of
  Black) is fixed at 0. An optimum of the smaller programme is one of the larger.

OpenSpiel's own
``sequence_form_lp`` needs ``cvxpy``, which the library does not depend on, and builds
its programme from Python dicts one state at a time.

The realization plans are turned into behavioural strategies (at each information set,
each action's share of the plan; uniform where the set is never reached), and the
exploitability is measured on those behavioural strategies by exact best responses:
a backward pass over each player's information sets against the other's realization
plan, which is the best response over the full game tree. With ``v_B`` what Black's
strategy guarantees and ``v_W`` what White's concedes at most,
``exploitability = (v_W - v_B) / 2`` (OpenSpiel's ``exploitability``: NashConv over
the two players).

References
----------
D. Koller, N. Megiddo and B. von Stengel, "Fast algorithms for finding randomized
strategies in game trees", STOC 1994.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from samarra.hidden_tree import SequenceForm, build, check_horizon, mirror, tree_size
from samarra.rules import SIDES, Rules
from tabletop.budget import Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.jit import jit
from tabletop.validate import (
    NON_NEGATIVE,
    PROBABILITY_DIFFERENCE,
    check_fields,
    check_float,
    check_int,
)

if TYPE_CHECKING:
    import pandas as pd

#: Primal and dual feasibility tolerances given to HiGHS.
LP_TOLERANCE = 1e-10


@dataclass(frozen=True, eq=False)
class HiddenSolution:
    """The equilibrium of the hidden-information adjudicated game (:func:`solve_hidden`).

    ``==`` compares values (arrays entry by entry).

    Attributes
    ----------
    rules : Rules
        With ``horizon`` the solved H.
    value : float
        Black's expected payoff (win +1, draw 0, loss -1) when both play the returned
        strategies (-1..1 within 1e-9).
    exploitability : float
        ``(v_W - v_B) / 2`` for the returned behavioural strategies, from exact best
        responses (see the module docstring); 0 for an exact equilibrium (>= 0 within
        1e-9).
    bounds : tuple of float
        ``(v_B, v_W)``: what Black's strategy guarantees against every White strategy,
        and what White's strategy concedes at most against every Black strategy (each
        -1..1 within 1e-9).
    n_states : int
        Histories of the game (setup moves and terminal histories included).
    n_leaves : int
        Terminal histories.
    n_infosets, n_sequences : tuple of int
        Black's and White's information sets and sequences (the empty sequence
        included).
    form : SequenceForm
        The game's sequence form (information sets, sequences, payoff entries).
    behaviour : tuple of two float64 arrays
        Per side and sequence, the probability of its last action at its information
        set (1.0 for the empty sequence).

    Examples
    --------
    >>> sol = solve_hidden(Rules(length=3), 1)
    >>> v_b, v_w = sol.bounds
    >>> bool(v_b - 1e-9 <= sol.value <= v_w + 1e-9), sol.n_leaves <= sol.n_states
    (True, True)
    """

    rules: Rules
    value: float
    exploitability: float
    bounds: tuple[float, float]
    n_states: int
    n_leaves: int
    n_infosets: tuple[int, int]
    n_sequences: tuple[int, int]
    form: SequenceForm
    behaviour: tuple[np.ndarray, np.ndarray]

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, exploitability=NON_NEGATIVE,
                     n_states=(0, None), n_leaves=(0, None))
        for i, bound in enumerate(self.bounds):
            check_float(f"HiddenSolution.bounds[{i}]", bound, *PROBABILITY_DIFFERENCE)
        for field in ("n_infosets", "n_sequences"):
            for side, count in enumerate(getattr(self, field)):
                check_int(f"HiddenSolution.{field}[{side}]", count, 0)

    __eq__ = same_fields

    def setup_mix(self, side: int | str) -> pd.Series:
        """The side's equilibrium mix of setups, indexed by setup.

        Examples
        --------
        >>> solution = solve_hidden(Rules(length=3), 1)
        >>> float(solution.setup_mix("black").sum())
        1.0
        """
        import pandas as pd

        side = _side(side)
        first = int(self.form.first[side][0])
        probs = self.behaviour[side][first : first + len(self.form.setups)]
        return pd.Series(probs, index=pd.Index(self.form.setups, name=f"{SIDES[side]} setup"),
                         name="probability")  # fmt: skip

    def strategy(self, side: int | str) -> dict[str, dict[int, float]]:
        """The side's behavioural strategy: information-state string -> {action: prob}.

        Strings and action codes are those of the OpenSpiel game (``samarra.openspiel``),
        so the strategy can be loaded into an OpenSpiel policy.

        Examples
        --------
        >>> solution = solve_hidden(Rules(length=3), 1)
        >>> strategy = solution.strategy("black")
        >>> len(strategy), sorted(strategy["black: setup to choose"])[:2]
        (7, [46, 47])
        """
        side = _side(side)
        form, probs = self.form, self.behaviour[side]
        out = {}
        for i in range(form.n_infosets[side]):
            first, k = int(form.first[side][i]), int(form.n_actions[side][i])
            out[form.information_string(side, i)] = {
                int(form.codes[side][s]): float(probs[s]) for s in range(first, first + k)
            }
        return out


def _side(side) -> int:
    if side in (0, 1) and not isinstance(side, bool):
        return int(side)
    if side in SIDES:
        return SIDES.index(side)
    raise ValueError(f"side must be 0, 1, 'black' or 'white', got {side!r}")


def _constraints(form: SequenceForm, side: int):
    """``E`` of a side as (row, column, value) triplets: row 0 is ``x_0 = 1``, row
    ``1 + I`` is ``sum_a x_(I,a) - x_parent(I) = 0``."""
    n_actions, parent = form.n_actions[side], form.parent[side]
    n_info = n_actions.size
    child_rows = np.repeat(np.arange(1, n_info + 1), n_actions)
    child_cols = np.arange(1, 1 + n_actions.sum())
    rows = np.concatenate([[0], child_rows, np.arange(1, n_info + 1)])
    cols = np.concatenate([[0], child_cols, parent])
    vals = np.concatenate([[1.0], np.ones(child_cols.size), -np.ones(n_info)])
    return rows, cols, vals, n_info + 1


def _orbits(smap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each sequence's orbit under the involution ``smap`` (numbered by their smallest
    member, ascending) and each orbit's size (1 or 2)."""
    rep = np.minimum(np.arange(smap.size), smap)
    _, orbit = np.unique(rep, return_inverse=True)
    return orbit.astype(np.int64), np.bincount(orbit).astype(np.int64)


def _is_rep(smap: np.ndarray) -> np.ndarray:
    """``True`` for the smaller member of each orbit of the involution ``smap``."""
    return np.arange(smap.size) <= smap


def _row_orbits(form: SequenceForm, side: int, smap: np.ndarray):
    """The orbits of the rows of ``side``'s constraints (:func:`_constraints`: row 0 for
    the empty sequence, ``1 + I`` for information set ``I``) under the mirror ``smap`` of
    its sequences: each row's orbit (row 0's is 0) and whether it is its orbit's
    smaller member."""
    first, n_actions = form.first[side], form.n_actions[side]
    owner = np.repeat(np.arange(first.size), n_actions)
    imap = owner[smap[first] - 1] if first.size else first
    info_orbit, _ = _orbits(imap)
    return (np.concatenate([[0], info_orbit + 1]),
            np.concatenate([[True], np.arange(first.size) <= imap]))


def _identical_rows(M) -> np.ndarray:
    """``True`` for a row of the CSR matrix ``M`` equal, entry for entry, to an earlier
    row. Rows are grouped by two fixed random projections and their number of entries,
    then each is compared with the first of its group exactly (a collision of the
    projections only keeps a row that could have gone)."""
    from scipy.sparse import csr_matrix

    M = csr_matrix(M)
    M.sum_duplicates()
    weights = np.random.default_rng(19).random((M.shape[1], 2))
    h = M @ weights
    nnz = np.diff(M.indptr)
    order = np.lexsort((np.arange(M.shape[0]), h[:, 1], h[:, 0], nnz))
    hs, ns = h[order], nnz[order]
    new = np.ones(order.size, bool)
    new[1:] = (hs[1:] != hs[:-1]).any(axis=1) | (ns[1:] != ns[:-1])
    lead = order[np.maximum.accumulate(np.where(new, np.arange(order.size), 0))]
    cand = np.flatnonzero(~new)
    rows, first = order[cand], lead[cand]
    out = np.zeros(M.shape[0], bool)
    if rows.size:
        diff = M[rows] - M[first]
        diff.eliminate_zeros()
        out[rows[np.diff(diff.indptr) == 0]] = True
    return out


def _orbit_lp(form: SequenceForm, side: int, maps) -> tuple[np.ndarray, np.ndarray, dict]:
    """``side``'s realization plan as the variables of the module docstring's LP, the
    other side's from its duals, with ``side`` the maximiser of its own payoff.

    ``maps`` (:func:`samarra.hidden_tree.mirror`, or None) restricts the programme to
    plans that are the same on a sequence and its mirror: one variable per orbit of
    ``side``'s sequences, one constraint per orbit of the other's sequences and of
    ``side``'s information sets (a mirrored constraint is the same one). The game maps
    onto itself, so the average of an optimum and its mirror is an optimum and this
    loses nothing; the other side's plan is its dual spread evenly over each orbit.
    Rows equal to another row (twin sequences: no information set below, the same
    payoffs as another action of the same set) are dropped, their dual 0, and
    variables whose column equals another's are fixed at 0 (left out): an equivalent
    programme. The third value gives the programme's sizes.
    """
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack, vstack

    me, other = side, 1 - side
    if maps is None:
        maps = (np.arange(form.n_sequences[0]), np.arange(form.n_sequences[1]))
    orb_me, size_me = _orbits(maps[me])
    orb_ot, size_ot = _orbits(maps[other])
    k_me, k_ot = size_me.size, size_ot.size
    rep_ot = _is_rep(maps[other])
    rows_ot_orbit, _ = _row_orbits(form, other, maps[other])
    _, rows_me_rep = _row_orbits(form, me, maps[me])
    kq = int(rows_ot_orbit.max()) + 1
    # payoff to ``me`` at each leaf, as (my sequence, the other's sequence)
    mine, theirs = (form.rows, form.cols) if me == 0 else (form.cols, form.rows)
    pay = form.payoff if me == 0 else -form.payoff
    keep = rep_ot[theirs]
    G = coo_matrix((-pay[keep], (orb_ot[theirs[keep]], orb_me[mine[keep]])),
                   shape=(k_ot, k_me)).tocsr()  # fmt: skip
    er, ec, ev, _ = _constraints(form, me)
    fr, fc, fv, _ = _constraints(form, other)
    keep = rep_ot[fc]
    FT = coo_matrix((fv[keep], (orb_ot[fc[keep]], rows_ot_orbit[fr[keep]])),
                    shape=(k_ot, kq)).tocsr()  # fmt: skip
    keep = rows_me_rep[er]
    n_eq = int(rows_me_rep.sum())
    eq_row = np.cumsum(rows_me_rep) - 1
    E = coo_matrix((ev[keep], (eq_row[er[keep]], orb_me[ec[keep]])), shape=(n_eq, k_me)).tocsr()
    A_ub = hstack([G, FT], format="csr")
    del G, FT
    kept = np.flatnonzero(~_identical_rows(A_ub))
    A_ub = A_ub[kept]
    # a variable whose column equals another's is fixed at 0: left out of the programme
    cols = np.flatnonzero(~_identical_rows(vstack([A_ub[:, :k_me], E], format="csr").T.tocsr()))
    n_x = cols.size
    A_ub = hstack([A_ub[:, cols], A_ub[:, k_me:]], format="csr")
    A_eq = hstack([E[:, cols], coo_matrix((n_eq, kq))], format="csr")
    del E
    c = np.zeros(n_x + kq)
    c[n_x + int(rows_ot_orbit[0])] = -1.0
    b_eq = np.zeros(n_eq)
    b_eq[eq_row[0]] = 1.0
    bounds = np.zeros((n_x + kq, 2))
    bounds[:n_x, 1] = np.inf
    bounds[n_x:] = (-np.inf, np.inf)
    result = linprog(c, A_ub=A_ub, b_ub=np.zeros(kept.size), A_eq=A_eq, b_eq=b_eq,
                     bounds=bounds, method="highs-ds",
                     options={"primal_feasibility_tolerance": LP_TOLERANCE,
                              "dual_feasibility_tolerance": LP_TOLERANCE})  # fmt: skip
    if result.status != 0:
        raise RuntimeError(f"the sequence-form LP failed: {result.message}")
    z = np.zeros(k_me)
    z[cols] = result.x[:n_x]
    plan_me = z[orb_me]
    dual = np.zeros(k_ot)
    dual[kept] = -result.ineqlin.marginals
    plan_ot = dual[orb_ot] / size_ot[orb_ot]
    sizes = {"variables": n_x + kq, "inequalities": int(kept.size), "equalities": n_eq,
             "left out": int(k_me - n_x)}  # fmt: skip
    return plan_me, plan_ot, sizes


def _solve_lp(form: SequenceForm, symmetric: bool = True,
              side: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Black's and White's realization plans from HiGHS (:func:`_orbit_lp`): with the
    mirror's orbits when ``symmetric`` (and the game maps onto its mirror), with
    ``side``'s plan as the variables. White's by default: Black's sequences are then
    the rows, and at Black's last actions before the horizon most of them are twins,
    dropped (3 x 3, H = 8: 11 s of CPU against 29 s with Black's plan as the variables;
    H = 7, where White moves last, 1.1 s against 1.0 s)."""
    maps = mirror(form) if symmetric else None
    plan_me, plan_ot, _ = _orbit_lp(form, side, maps)
    return (plan_me, plan_ot) if side == 0 else (plan_ot, plan_me)


def _behaviour(form: SequenceForm, side: int, plan: np.ndarray) -> np.ndarray:
    """Each sequence's action probability at its information set, from a realization
    plan (uniform where the plan gives the set no weight)."""
    first, n_actions = form.first[side], form.n_actions[side]
    plan = np.clip(plan, 0.0, None)
    owner = np.repeat(np.arange(first.size), n_actions)
    totals = np.add.reduceat(plan[1:], first - 1) if first.size else np.zeros(0)
    probs = np.empty_like(plan)
    probs[0] = 1.0
    weight = totals[owner]
    uniform = 1.0 / n_actions[owner]
    with np.errstate(invalid="ignore", divide="ignore"):
        probs[1:] = np.where(weight > 1e-15, plan[1:] / weight, uniform)
    return probs


@jit
def _realization_kernel(first, n_actions, parent, probs, plan):
    """plan[s] = plan[parent of s's set] * probs[s], sets in topological order.

    first, n_actions, parent : int64[n_sets]; probs, plan : float64[n_sequences].
    """
    plan[0] = 1.0
    for i in range(first.size):
        base = plan[parent[i]]
        for s in range(first[i], first[i] + n_actions[i]):
            plan[s] = base * probs[s]


@jit
def _best_response_kernel(first, n_actions, parent, value):
    """Backward pass: each set's best action value (``value`` per sequence, maximised)
    added to its parent sequence's; returns the empty sequence's.

    first, n_actions, parent : int64[n_sets]; value : float64[n_sequences], overwritten.
    """
    for i in range(first.size - 1, -1, -1):
        s = first[i]
        best = value[s]
        for t in range(s + 1, s + n_actions[i]):
            if value[t] > best:
                best = value[t]
        value[parent[i]] += best
    return value[0]


def _realization(form: SequenceForm, side: int, probs: np.ndarray) -> np.ndarray:
    """The realization plan of a behavioural strategy (infosets in topological order)."""
    plan = np.empty(probs.size, np.float64)
    _realization_kernel(form.first[side], form.n_actions[side], form.parent[side],
                        np.ascontiguousarray(probs, np.float64), plan)  # fmt: skip
    return plan


def _best_response_value(form: SequenceForm, side: int, gain: np.ndarray,
                         sign: float) -> float:  # fmt: skip
    """``side``'s best-response value when each of its sequences earns ``gain`` (the
    opponent's plan already folded in): ``sign`` +1 maximises, -1 minimises."""
    value = np.ascontiguousarray(sign * np.asarray(gain, np.float64))
    return float(sign * _best_response_kernel(form.first[side], form.n_actions[side],
                                              form.parent[side], value))  # fmt: skip


def best_responses(form: SequenceForm, behaviour: tuple) -> tuple[float, float]:
    """``(v_B, v_W)``: Black's guaranteed value under its strategy against White's best
    response, and White's under its own against Black's best response."""
    from scipy.sparse import coo_matrix

    nb, nw = form.n_sequences
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    x = _realization(form, 0, behaviour[0])
    y = _realization(form, 1, behaviour[1])
    v_black = _best_response_value(form, 1, A.T @ x, -1.0)
    v_white = _best_response_value(form, 0, A @ y, 1.0)
    return v_black, v_white


#: Peak bytes of :func:`solve_hidden` per history of the game (the walk's tables, the
#: form, the programme and HiGHS), an upper figure measured on the 3 x 3 board: 470 at
#: H = 6 (149,375 histories), 392 at H = 7 (601,869), beside :data:`HIDDEN_BASE_BYTES`.
HIDDEN_STATE_BYTES = 500

#: Peak bytes of :func:`solve_hidden` whatever the game: HiGHS and its programme.
HIDDEN_BASE_BYTES = 100_000_000

#: Wall seconds of :func:`solve_hidden` per history (3 x 3 board, H = 6 and 7, on the
#: 2-core reference machine under load: 66 and 56 us), beside a few seconds for HiGHS.
HIDDEN_STATE_SECONDS = 6e-5


def hidden_size(rules: Rules, horizon: int) -> Estimate:
    """Memory and time of :func:`solve_hidden` from the rules and the horizon, before
    any work: the histories of the game (:func:`samarra.hidden_tree.tree_size`, an
    estimate by random probes) times :data:`HIDDEN_STATE_BYTES` and
    :data:`HIDDEN_STATE_SECONDS`.

    Parameters
    ----------
    rules : Rules
        The board and the optional rules (``horizon`` is not read).
    horizon : int
        0..:data:`samarra.hidden_tree.MAX_HORIZON`.

    Returns
    -------
    Estimate

    Examples
    --------
    >>> est = hidden_size(Rules(length=4), 40)
    >>> est.nbytes > 10**15, est.knobs
    (True, {'horizon': 40, 'width': 3, 'length': 4})
    """
    return _hidden_size(Rules.check(rules, default=False), check_horizon(horizon))[0]


def _hidden_size(rules: Rules, horizon: int) -> tuple[Estimate, float]:
    """:func:`hidden_size` and the estimated histories."""
    states = tree_size(rules, horizon)
    size = Estimate("samarra.solve_hidden", int(HIDDEN_BASE_BYTES + HIDDEN_STATE_BYTES * states),
                    {"horizon": horizon, "width": rules.width, "length": rules.length},
                    3.0 + HIDDEN_STATE_SECONDS * states,
                    detail=f"about {states:.3g} histories x {HIDDEN_STATE_BYTES} B")  # fmt: skip
    return size, states


def _in_thread(work, *args):
    """``work(*args)`` in a worker thread, the caller waiting in steps of 0.1 s: HiGHS
    holds no lock while it runs, so Ctrl-C reaches the caller at once (the worker ends
    on its own, its result dropped). As after any Ctrl-C the library holds back
    (:func:`tabletop.budget.interruptible`), the process's last garbage collection then
    skips the objects numba made (:func:`tabletop._entry.freeze_at_exit`)."""
    import threading

    from tabletop._entry import freeze_at_exit

    out: list = []

    def run():
        try:
            out.append((True, work(*args)))
        except BaseException as exc:  # handed to the caller
            out.append((False, exc))

    worker = threading.Thread(target=run, name="samarra-hidden-lp", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        freeze_at_exit()
        raise
    ok, value = out[0]
    if not ok:
        raise value
    return value


def solve_hidden(rules: Rules | None = None, horizon: int | None = None, *,
                 symmetric: bool = True, allow_large: bool = False,
                 progress: bool | None = None) -> HiddenSolution:  # fmt: skip
    """The equilibrium of the hidden-information game adjudicated after ``horizon`` actions.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``. Its ``horizon`` is used when ``horizon`` is None, and must
        otherwise be None or equal to it.
    horizon : int, optional
        H in 0..:data:`samarra.hidden_tree.MAX_HORIZON` (200): the game ends after
        action H and the tie-break decides. The game tree grows about fourfold with
        each action: :func:`hidden_size` estimates it before any work.
    symmetric : bool
        Solve the programme restricted to mirror-symmetric plans (the module
        docstring; the same value, about a quarter of the time), default True; False
        solves the full programme. The game, the strategies returned and their exact
        best responses are the full ones either way.
    allow_large : bool
        Solve even when :func:`hidden_size` exceeds the memory available (default
        False: refuse with a one-line ``MemoryError`` before any work, naming the
        estimate, ``horizon`` and the board).
    progress : bool, optional
        Show a bar over the histories as the tree is walked (default: when stderr is
        a terminal). Ctrl-C stops the walk at once, and the linear programme within
        0.1 s (HiGHS runs in a worker thread, left to finish on its own).

    Returns
    -------
    HiddenSolution
        Black's value, the exploitability of the returned strategies (exact best
        responses), both behavioural strategies (setup mixes included) and the sizes of
        the game.

    Raises
    ------
    ValueError
        If ``horizon`` is missing, outside 0..200 or differs from ``rules.horizon``.
    MemoryError
        If the game does not fit in the memory available (and not ``allow_large``).

    Examples
    --------
    >>> solution = solve_hidden(Rules(length=3), 1)   # Black's servant steps forward
    >>> solution.value, solution.exploitability
    (1.0, 0.0)
    >>> solution.n_states, solution.n_infosets, solution.n_sequences
    (151, (7, 1), (25, 7))
    """
    rules = Rules.check(rules)
    if horizon is None:
        if rules.horizon is None:
            raise ValueError("horizon must be an int >= 0 (or set in rules.horizon; at most "
                             "200), got None")  # fmt: skip
        horizon = rules.horizon
    horizon = check_horizon(horizon)
    if rules.horizon is not None and rules.horizon != horizon:
        raise ValueError(f"horizon must match rules.horizon ({rules.horizon}), got {horizon}")
    if not isinstance(symmetric, bool):
        raise TypeError(f"symmetric must be a bool, got {symmetric!r}")
    from tabletop.validate import check_bool

    allow_large = check_bool("allow_large", allow_large)
    progress = show_progress(progress)
    size, states = _hidden_size(rules, horizon)
    check_memory(size, allow_large)
    rules = replace(rules, horizon=horizon)
    with progress_bar(round(states), "samarra hidden-information tree", progress, "history") as bar:
        form = build(rules, bar=bar)
    x, y = _in_thread(_solve_lp, form, symmetric)
    behaviour = (_behaviour(form, 0, x), _behaviour(form, 1, y))
    v_black, v_white = best_responses(form, behaviour)
    from scipy.sparse import coo_matrix

    nb, nw = form.n_sequences
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    value = float(_realization(form, 0, behaviour[0]) @ (A @ _realization(form, 1, behaviour[1])))
    return HiddenSolution(rules, value, max(0.0, (v_white - v_black) / 2), (v_black, v_white),
                          form.n_states, form.n_leaves, form.n_infosets, form.n_sequences,
                          form, behaviour)  # fmt: skip

