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
It is solved by scipy's HiGHS (dual simplex, tolerances 1e-10). OpenSpiel's own
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

from samarra.hidden_tree import SequenceForm, build
from samarra.rules import SIDES, Rules
from tabletop.frozen import same_fields
from tabletop.seeding import check_count

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
        strategies.
    exploitability : float
        ``(v_W - v_B) / 2`` for the returned behavioural strategies, from exact best
        responses (see the module docstring); 0 for an exact equilibrium.
    bounds : tuple of float
        ``(v_B, v_W)``: what Black's strategy guarantees against every White strategy,
        and what White's strategy concedes at most against every Black strategy.
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
    bounds: tuple
    n_states: int
    n_leaves: int
    n_infosets: tuple
    n_sequences: tuple
    form: SequenceForm
    behaviour: tuple

    def __post_init__(self):
        Rules.check(self.rules, default=False)

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


def _twins(form: SequenceForm, side: int, M) -> np.ndarray:
    """Sequences that add nothing to the LP: ``True`` for a sequence with no information
    set below it whose payoff row (in ``M``, CSR, one row per sequence of ``side``)
    equals that of an earlier such sequence of the same information set."""
    has_child = np.zeros(M.shape[0], bool)
    has_child[form.parent[side]] = True
    owner = np.repeat(np.arange(form.n_actions[side].size), form.n_actions[side])
    twin = np.zeros(M.shape[0], bool)
    seen = {}
    indptr, indices, data = M.indptr, M.indices, M.data
    for s in np.flatnonzero(~has_child[1:]) + 1:
        lo, hi = indptr[s], indptr[s + 1]
        key = (owner[s - 1], indices[lo:hi].tobytes(), data[lo:hi].tobytes())
        twin[s] = seen.setdefault(key, s) != s
    return twin


def _solve_lp(form: SequenceForm) -> tuple[np.ndarray, np.ndarray]:
    """Black's and White's realization plans from HiGHS (the module docstring's LP).

    Twin sequences (:func:`_twins`) are left out: a Black twin's plan is fixed at 0 and
    a White twin's constraint, the same as its first twin's, is dropped (its plan is 0).
    The play they stand for is the same, so an equilibrium stays one; the exact best
    responses of :func:`solve_hidden` check it on the full game.
    """
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack

    nb, nw = form.n_sequences
    er, ec, ev, m_e = _constraints(form, 0)
    fr, fc, fv, m_f = _constraints(form, 1)
    E = coo_matrix((ev, (er, ec)), shape=(m_e, nb)).tocsr()
    F = coo_matrix((fv, (fr, fc)), shape=(m_f, nw)).tocsr()
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    AT = A.T.tocsr()
    black_twin, white_twin = _twins(form, 0, A), _twins(form, 1, AT)
    keep = np.flatnonzero(~white_twin)
    # variables [x (nb), q (m_f)]: minimise -q_0 subject to F^T q - A^T x <= 0, E x = e
    A_ub = hstack([-AT[keep], F.T.tocsr()[keep]], format="csr")
    A_eq = hstack([E, coo_matrix((m_e, m_f))], format="csr")
    c = np.zeros(nb + m_f)
    c[nb] = -1.0
    b_eq = np.zeros(m_e)
    b_eq[0] = 1.0
    bounds = np.zeros((nb + m_f, 2))
    bounds[:nb, 1] = np.where(black_twin, 0.0, np.inf)
    bounds[nb:] = (-np.inf, np.inf)
    result = linprog(c, A_ub=A_ub, b_ub=np.zeros(keep.size), A_eq=A_eq, b_eq=b_eq,
                     bounds=bounds, method="highs-ds",
                     options={"primal_feasibility_tolerance": LP_TOLERANCE,
                              "dual_feasibility_tolerance": LP_TOLERANCE})  # fmt: skip
    if result.status != 0:
        raise RuntimeError(f"the sequence-form LP failed: {result.message}")
    x = result.x[:nb]
    y = np.zeros(nw)
    y[keep] = -result.ineqlin.marginals
    return x, y


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


def _realization(form: SequenceForm, side: int, probs: np.ndarray) -> np.ndarray:
    """The realization plan of a behavioural strategy (infosets in topological order)."""
    first, n_actions, parent = form.first[side], form.n_actions[side], form.parent[side]
    plan = np.empty_like(probs)
    plan[0] = 1.0
    for i in range(first.size):
        s = first[i]
        plan[s : s + n_actions[i]] = plan[parent[i]] * probs[s : s + n_actions[i]]
    return plan


def _best_response_value(form: SequenceForm, side: int, gain: np.ndarray,
                         sign: float) -> float:  # fmt: skip
    """``side``'s best-response value when each of its sequences earns ``gain`` (the
    opponent's plan already folded in): ``sign`` +1 maximises, -1 minimises."""
    first, n_actions, parent = form.first[side], form.n_actions[side], form.parent[side]
    value = sign * gain.astype(np.float64)
    for i in range(first.size - 1, -1, -1):
        s = first[i]
        value[parent[i]] += value[s : s + n_actions[i]].max()
    return float(sign * value[0])


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


def solve_hidden(rules: Rules | None = None, horizon: int | None = None) -> HiddenSolution:
    """The equilibrium of the hidden-information game adjudicated after ``horizon`` actions.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``. Its ``horizon`` is used when ``horizon`` is None, and must
        otherwise be None or equal to it.
    horizon : int, optional
        H >= 0: the game ends after action H and the tie-break decides.

    Returns
    -------
    HiddenSolution
        Black's value, the exploitability of the returned strategies (exact best
        responses), both behavioural strategies (setup mixes included) and the sizes of
        the game.

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
            raise ValueError("horizon must be an int >= 0 (or set in rules.horizon), got None")
        horizon = rules.horizon
    horizon = check_count("horizon", horizon)
    if rules.horizon is not None and rules.horizon != horizon:
        raise ValueError(f"horizon must match rules.horizon ({rules.horizon}), got {horizon}")
    rules = replace(rules, horizon=horizon)
    form = build(rules)
    x, y = _solve_lp(form)
    behaviour = (_behaviour(form, 0, x), _behaviour(form, 1, y))
    v_black, v_white = best_responses(form, behaviour)
    from scipy.sparse import coo_matrix

    nb, nw = form.n_sequences
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    value = float(_realization(form, 0, behaviour[0]) @ (A @ _realization(form, 1, behaviour[1])))
    return HiddenSolution(rules, value, max(0.0, (v_white - v_black) / 2), (v_black, v_white),
                          form.n_states, form.n_leaves, form.n_infosets, form.n_sequences,
                          form, behaviour)  # fmt: skip

