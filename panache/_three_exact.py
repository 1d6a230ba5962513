r"""Exact mixed equilibria of the three-player rotation classes (see ``panache.three``).

A rotation class {(a, b, c), (b, c, a), (c, a, b)} whose movers' best responses
cycle has no stationary equilibrium in pure decisions; fictitious play
(:func:`panache._three_kernels.solve_class`) approaches a mixed one at its slow rate.
This module finds one exactly.

Within the class, a state's turn reads the class's own values only through its
*no-change* vector :math:`D_k = R(V_{k+1})` (every other outcome lowers someone's
points and is read from the solved table). With every decision fixed (keeps,
targets, Master Panache, the exchanges' counters) the turn is a *plan*

.. math::

    V_k = \alpha_p + \beta_p D_k ,

and the mover's chance under it, :math:`\alpha_{p,0} + \beta_p d_k`, depends on the
single number :math:`d_k = D_{k,0}`, the mover's own chance when nothing changes
(the counters follow the selected exchange equilibrium, which also reads the
target's component). The mover's best turn is therefore the upper envelope of
lines in :math:`d_k`: convex and piecewise linear, its pieces the plans that are
best on an interval, its breakpoints the values of :math:`d_k` at which two plans
tie. At a breakpoint the mover may mix the two plans with any chance
:math:`\theta_k`; between breakpoints it plays the piece's plan.

An equilibrium of the class picks, for each of its three states, a piece (pure) or
a breakpoint (mixed). For such a choice the values are the linear cycle

.. math::

    V_k = \alpha_k(\theta) + \beta_k(\theta) R(V_{k+1}), \qquad
    \alpha_k(\theta) = \theta_k \alpha_p + (1 - \theta_k) \alpha_{p'} ,

(:func:`panache._three_kernels.cycle_values`) and every mixed state adds one
equation :math:`d_k(\theta) = b_k`, its breakpoint. With one mixed state the
equation is linear in :math:`\theta` (numerator and denominator of the cycle are
affine in one state's plan); with two or three it is solved by Newton's method from
the middle of the box. The steps per class:

1. from the fictitious-play values, each state's envelope is traced on a window of
   :math:`d_k` around them (intersect the lines of the end pieces, evaluate the best
   turn there; a new plan splits the interval, none marks a breakpoint);
2. every choice of piece or breakpoint per state is solved, kept when every
   :math:`\theta` lies in [0, 1] and every pure state's :math:`d_k` in its piece;
3. a candidate is accepted only when, at its own values, each state's mover chance
   equals the mover's best one-turn reply computed afresh (to ``ACCEPT``), and the
   plans it mixes or plays are those the best turn plays just beside the state's
   :math:`d_k` (counters included): the same two-sided check that
   :func:`panache._three_kernels.class_gaps` applies to the finished table.

Choices are tried nearest first (by how far their pieces and breakpoints lie from
the start values), at most ``MAX_TRIES``, and the first accepted is kept. When none
passes, the envelopes are traced again around the first candidate that solved (its
no-change vectors differ from the start's also in the other players' chances, which
the exchanges' counters read), up to ``RETRACE`` traces.

Where the best turn jumps, the exchange equilibrium selected (counters whenever
consistent, :func:`panache._three_kernels.exchange`) switches as :math:`d_k`
crosses a threshold: the attacker's gain from countering back changes sign, so
another pure equilibrium of the exchange takes over, and no mixture of the mover's
plans bridges the jump. Those exchanges (at most ``MAX_FLIPS`` per class) are then
*held*: each on the counters selected just below the jump or just above it, in every
combination, the envelopes traced and the choices tried again with them. A held
exchange need not be an equilibrium of its exchange everywhere on the envelope, so
the check of a candidate also requires every held counter decision to be a best
reply at the candidate's values (:func:`panache._three_kernels.counter_incentives`,
to ``ACCEPT``). A class with no candidate accepted at a counter switch goes on to the
switch stage (:mod:`panache._three_switch`: an exchange at its mixed equilibrium,
both sides indifferent, bridges the jump); one that stage does not solve either
keeps its fictitious-play values and their regret.

References
----------
Fink, A. M. (1964). Equilibrium in a stochastic n-person game. *J. Sci. Hiroshima
Univ.* 28, 89-93 (stationary equilibria exist in mixed strategies).
"""

from __future__ import annotations

import itertools

import numpy as np

from panache._duel_kernels import MAX_LEVEL
from panache._three_kernels import (
    exchange,
    forced_counter_gap,
    no_forced,
    rotate,
    solve_choice,
    solve_choices,
    stake_ceiling,
    state_parts,
    turn_plan,
)

#: Half-width of the window of ``d_k`` traced around the fictitious-play value.
WINDOW = 0.01
#: A candidate is accepted when every mover chance is its best reply to this.
ACCEPT = 1e-11
#: Two plans are one when their chances agree to this.
SAME_PLAN = 1e-12
#: Depth of the envelope's interval splitting.
MAX_DEPTH = 80
#: An interval of ``d_k`` this short where the best turn still changes is a jump.
JUMP_WIDTH = 1e-8
#: Breakpoints on each side of the start value a state may mix at.
NEAR = 2
#: Choices of piece / breakpoint tried per trace, nearest first.
MAX_TRIES = 200
#: Traces per class, each around the closest candidate of the last.
RETRACE = 3
#: Newton steps of a support's indifference system.
NEWTON_STEPS = 30
#: How far below and above a mixing state's no-change chance its two plans are read,
#: here and by :meth:`panache.ThreeSolution.mixture`.
MIX_SHIFT = 1e-9

_DIRECTION = np.array([1.0, 0.0, 0.0])  # moves d_k only (plans are linear in D)


class Context:
    """What every class's solve reads: the kernels' arguments fixed by the rules."""

    def __init__(self, duel, stake_factor, stake_cap, n, tables, final, hit_given, s, q, pi,
                 counters):  # fmt: skip
        self.duel = duel
        self.stake_factor = stake_factor
        self.stake_cap = stake_cap
        self.n = n
        t = tables
        self.turn_args = (t.sums, t.state_start, t.state_sum, t.space.size_offset,
                          t.space.probability, t.opt_start, t.opt_size, t.opt_value,
                          t.totals, final)  # fmt: skip
        self.hit_given = hit_given
        self.s = s
        self.q = q
        self.pi = pi
        self.counters = counters

    def parts(self, three, x, y, z):
        return state_parts(x, y, z, three, self.duel, self.n, self.hit_given, self.pi,
                           stake_ceiling(x, self.stake_factor, self.stake_cap))  # fmt: skip

    def plan(self, three, state, part, decline, forced):
        x, y, z = state
        return turn_plan(x, y, z, part, decline, three, self.duel, self.n, *self.turn_args,
                         self.s, self.q, self.counters, forced)  # fmt: skip

    def selections(self, part, decline) -> np.ndarray:
        """The counters (target, attacker) :func:`exchange` selects in every exchange
        of a state, ``(3, MAX_LEVEL + 1, 2)``; NaN where it has no pure equilibrium."""
        out = np.full((3, MAX_LEVEL + 1, 2), np.nan)
        for target in (1, 2):
            for k in range(1, MAX_LEVEL + 1):
                _, dx, tc, ac = exchange(self.s, self.q, part[0][target, k], part[1][target, k],
                                         decline, target, self.counters)  # fmt: skip
                if dx >= 0:
                    out[target, k] = (float(tc), float(ac))
        return out

    def counter_gap(self, part, decline, forced) -> float:
        """The most a counter decision of a ``forced`` exchange loses to its best."""
        return forced_counter_gap(self.s, self.q, part[0], part[1], decline, forced)


def _same(p, r) -> bool:
    return abs(p[1] - r[1]) <= SAME_PLAN and np.max(np.abs(p[0] - r[0])) <= SAME_PLAN


def _line(p, d) -> float:
    return p[0][0] + p[1] * d


class _Envelope:
    """The mover's best turn in one state along ``d`` (the no-change vector moved
    along ``_DIRECTION`` from its fictitious-play value)."""

    def __init__(self, ctx, three, state, part, decline, forced):
        self.ctx, self.three, self.state, self.part = ctx, three, state, part
        self.forced = forced
        self.decline = decline
        self.d0 = decline[0]
        self.bad = False
        lo = max(0.0, self.d0 - WINDOW)
        hi = min(1.0, self.d0 + WINDOW)
        p_lo, p_hi = self.at(lo), self.at(hi)
        self.pieces = []  # (plan, lo, hi)
        self.breaks = []  # (d, plan below, plan above)
        self.jumps = []  # breaks where the best turn is not continuous
        self.jump_intervals = []  # (lo, hi) about each jump, JUMP_WIDTH apart
        self._trace(lo, p_lo, hi, p_hi, 0)
        if not self.bad:
            self._collect(lo, p_lo, hi)

    def at(self, d):
        p = self.ctx.plan(self.three, self.state, self.part,
                          self.decline + (d - self.d0) * _DIRECTION, self.forced)  # fmt: skip
        if p[1] < 0:
            self.bad = "no pure exchange"
        return p

    def _trace(self, lo, p_lo, hi, p_hi, depth):
        if _same(p_lo, p_hi) or self.bad:
            return
        if hi - lo <= JUMP_WIDTH:
            # the best turn jumps: the selected exchange equilibrium changed, so the
            # counters of another player switch here; no mixing of plans closes it
            self.jumps.append(0.5 * (lo + hi))
            self.jump_intervals.append((lo, hi))
            self.breaks.append((0.5 * (lo + hi), p_lo, p_hi))
            return
        if depth > MAX_DEPTH:
            self.bad = f"depth at {lo}"
            return
        slope = p_hi[1] - p_lo[1]
        d = (p_lo[0][0] - p_hi[0][0]) / slope if slope > 1e-15 else 0.5 * (lo + hi)
        if not lo < d < hi:
            d = 0.5 * (lo + hi)  # not convex here: the exchange selection jumped
        p = self.at(d)
        if (_line(p, d) <= max(_line(p_lo, d), _line(p_hi, d)) + SAME_PLAN
                and abs(_line(p_lo, d) - _line(p_hi, d)) <= 1e-13):  # fmt: skip
            self.breaks.append((d, p_lo, p_hi))
            return
        self._trace(lo, p_lo, d, p, depth + 1)
        self._trace(d, p, hi, p_hi, depth + 1)

    def flips(self):
        """The exchanges whose selected counters change at a jump near the start
        value: ``(target, level, counters below, counters above, where)`` per jump,
        ``where`` the jump's ``d``."""
        out = []
        for lo, hi in self.jump_intervals:
            if min(abs(lo - self.d0), abs(hi - self.d0)) >= WINDOW:
                continue
            below = self.ctx.selections(self.part, self.decline + (lo - self.d0) * _DIRECTION)
            above = self.ctx.selections(self.part, self.decline + (hi - self.d0) * _DIRECTION)
            for target in (1, 2):
                for k in range(1, MAX_LEVEL + 1):
                    b, a = below[target, k], above[target, k]
                    if not np.array_equal(b, a, equal_nan=True):
                        out.append((target, k, b, a, 0.5 * (lo + hi)))
        return out

    def _collect(self, lo, p_lo, hi):
        self.breaks.sort(key=lambda b: b[0])
        start, plan = lo, p_lo
        for d, _, above in self.breaks:
            self.pieces.append((plan, start, d))
            start, plan = d, above
        self.pieces.append((plan, start, hi))


def _solve_choice(choice):
    """(found, chances, values) of one choice of piece / breakpoint per state
    (:func:`panache._three_kernels.solve_choice`): ``chances[k]`` is the chance a
    mixed state ``k`` plays the plan below its breakpoint."""
    alpha_below = np.empty((3, 3))
    alpha_above = np.empty((3, 3))
    beta_below = np.empty(3)
    beta_above = np.empty(3)
    at = np.zeros(3)
    low = np.full(3, -np.inf)
    high = np.full(3, np.inf)
    mixed = []
    for k, (kind, item) in enumerate(choice):
        if kind == "pure":
            (alpha, beta), low[k], high[k] = item
            alpha_below[k] = alpha_above[k] = alpha
            beta_below[k] = beta_above[k] = beta
        else:
            at[k], (alpha_below[k], beta_below[k]), (alpha_above[k], beta_above[k]) = item
            mixed.append(k)
    mixed = np.array(mixed, dtype=np.int64)
    return solve_choice(alpha_below, beta_below, alpha_above, beta_above, mixed, at, low,
                        high, NEWTON_STEPS)  # fmt: skip


def _verify(ctx, three, states, parts, choice, v, forced) -> bool:
    """The two-sided check at the candidate's own values, and the plans it plays are
    the best turn's on each side of every state's ``d_k``; the counters of the
    ``forced`` exchanges best replies too."""
    for k in range(3):
        decline = rotate(v[(k + 1) % 3])
        d = decline[0]
        best = ctx.plan(three, states[k], parts[k], decline, forced[k])
        if best[1] < 0 or abs(_line(best, d) - v[k, 0]) > ACCEPT:
            return False
        if ctx.counter_gap(parts[k], decline, forced[k]) > ACCEPT:
            return False
        below = ctx.plan(three, states[k], parts[k], decline - MIX_SHIFT * _DIRECTION, forced[k])
        above = ctx.plan(three, states[k], parts[k], decline + MIX_SHIFT * _DIRECTION, forced[k])
        kind, item = choice[k]
        if kind == "pure":
            plan = item[0]
            if not (_same(below, plan) or _same(above, plan) or _same(best, plan)):
                return False
        else:
            _, p_below, p_above = item
            if not (_same(below, p_below) and _same(above, p_above)):
                return False
    return True


def _options(env):
    """Pieces and breakpoints of a state's envelope, the ``NEAR`` breakpoints on each
    side of its start value and the pieces between them, each with its distance."""
    d0 = env.d0
    below = [b for b in env.breaks if b[0] <= d0][-NEAR:]
    above = [b for b in env.breaks if b[0] > d0][:NEAR]
    near = below + above
    lo = near[0][0] if near else -np.inf
    hi = near[-1][0] if near else np.inf
    out = []
    for plan, a, b in env.pieces:
        if b >= lo and a <= hi:
            out.append((max(a - d0, d0 - b, 0.0), ("pure", (plan, a, b))))
    for b in near:
        if b[0] not in env.jumps:
            out.append((abs(b[0] - d0), ("mix", b)))
    return out


def _option_arrays(options):
    """The options of the three states as the arrays of
    :func:`panache._three_kernels.solve_choices` (its arguments up to ``high``)."""
    size = sum(len(state) for state in options)
    start = np.zeros(4, dtype=np.int64)
    dist = np.empty(size)
    mix = np.zeros(size, dtype=np.bool_)
    alpha_below = np.empty((size, 3))
    alpha_above = np.empty((size, 3))
    beta_below = np.empty(size)
    beta_above = np.empty(size)
    at = np.zeros(size)
    low = np.full(size, -np.inf)
    high = np.full(size, np.inf)
    row = 0
    for k, state in enumerate(options):
        for distance, (kind, item) in state:
            dist[row] = distance
            if kind == "pure":
                (alpha, beta), low[row], high[row] = item
                alpha_below[row] = alpha_above[row] = alpha
                beta_below[row] = beta_above[row] = beta
            else:
                at[row], (alpha_below[row], beta_below[row]), (alpha_above[row],
                                                               beta_above[row]) = item  # fmt: skip
                mix[row] = True
            row += 1
        start[k + 1] = row
    return start, dist, mix, alpha_below, beta_below, alpha_above, beta_above, at, low, high


def _candidates(options):
    combos = []
    for combo in itertools.product(*options):
        combos.append((sum(c[0] for c in combo), tuple(c[1] for c in combo)))
    combos.sort(key=lambda c: c[0])
    return [c[1] for c in combos[:MAX_TRIES]]


def _search(ctx, three, states, parts, start, forced, traced):
    """Try the choices of piece / breakpoint around ``start`` (retraced up to
    ``RETRACE`` times); ``traced`` keeps the envelopes traced so far, by state, start
    values and held exchanges (the searches of one class with other holds reuse the
    states whose holds did not change). Returns (values or None, the choice found, its
    mixing chances, whether a jump lies within ``WINDOW``, the flips of the first
    trace)."""
    switch = False
    flips = None
    for _ in range(RETRACE):
        envelopes = []
        for k in range(3):
            decline = rotate(start[(k + 1) % 3])
            key = (k, decline.tobytes(), forced[k].tobytes())
            if key not in traced:
                traced[key] = _Envelope(ctx, three, states[k], parts[k], decline, forced[k])
            env = traced[key]
            if env.bad:
                return None, env.bad, None, switch, flips or []
            envelopes.append(env)
        if flips is None:
            flips = [(k, *f) for k, env in enumerate(envelopes) for f in env.flips()]
        switch = switch or bool(flips)
        closest = None
        options = [_options(env) for env in envelopes]
        rows, found, thetas, values = solve_choices(*_option_arrays(options), MAX_TRIES,
                                                    NEWTON_STEPS)  # fmt: skip
        flat = [item for state in options for _, item in state]
        for t in np.flatnonzero(found):
            choice = tuple(flat[row] for row in rows[t])
            v = values[t]
            if _verify(ctx, three, states, parts, choice, v, forced):
                return v, choice, thetas[t], switch, flips
            if closest is None:
                closest = v
        if closest is None:
            break
        start = closest  # the plans beside it read the whole no-change vectors: retrace
    return None, None, None, switch, flips or []


#: Exchanges near a jump given another of their equilibria, at most, per class.
MAX_FLIPS = 4


def _forcings(flips):
    """Each way to hold the exchanges that flip at a jump on one side's counters (the
    selection below the jump or above it): a list of per-state ``forced`` arrays."""
    flips = flips[:MAX_FLIPS]
    out = []
    for sides in itertools.product((3, 4), repeat=len(flips)):
        forced = [no_forced() for _ in range(3)]
        for flip, side in zip(flips, sides, strict=True):
            k, target, level = flip[0], flip[1], flip[2]
            chances = flip[side]
            if np.isnan(chances[0]):
                break  # that side has no pure equilibrium
            forced[k][target, level] = chances
        else:
            out.append(forced)
    return out


def search_class(ctx, three, a, b, c, traced=None):
    """Replace the class's fictitious-play values in ``three`` by an exact stationary
    equilibrium when the search finds one (the switch stage that follows is
    :func:`panache._three_switch.solve_mixed_class`).

    Returns ``(method, forced, mixes)``: ``method`` is ``"mixed"``, or ``"pure search"`` when
    the equilibrium found mixes nowhere (a pure one the best-response steps circled
    without meeting), else why none was found: ``"counter switch"`` when some
    state's best turn jumps within ``WINDOW`` of the values (the exchange
    equilibrium :func:`panache._three_kernels.exchange` selects switches there, so
    another player's counters change at once), ``"no pure exchange"`` or ``"not
    found"``. Where the selection's jump is in the way, the exchanges that flip are
    held on one side's counters (another equilibrium of their exchange, checked as
    such at the values found); ``forced`` maps each state whose exchanges are so held
    to its ``(3, MAX_LEVEL + 1, 2)`` counter chances (NaN: the selection), else it is
    empty; ``mixes`` maps each state that mixes two plans at a breakpoint of its
    envelope to the chance of the plan below it (the best turn at a slightly lower
    no-change chance; the other is the best turn at a slightly higher one).
    ``traced``, a dict, keeps the envelopes traced (see :func:`_search`)."""
    states = [(a, b, c), (b, c, a), (c, a, b)]
    start = np.array([three[s] for s in states])
    parts = [ctx.parts(three, *s) for s in states]
    forced = [no_forced() for _ in range(3)]
    traced = {} if traced is None else traced
    v, choice, theta, switch, flips = _search(ctx, three, states, parts, start, forced, traced)
    if v is None and isinstance(choice, str):
        return ("no pure exchange" if choice == "no pure exchange" else "not found"), {}, {}
    if v is None and flips:
        for held in _forcings(flips):
            v, choice, theta, _, _ = _search(ctx, three, states, parts, start, held, traced)
            if v is not None:
                forced = held
                break
    if v is None:
        return ("counter switch" if switch else "not found"), {}, {}
    for k in range(3):
        three[states[k]] = v[k]
    held = {states[k]: forced[k] for k in range(3) if not np.isnan(forced[k][:, :, 0]).all()}
    mixes = {states[k]: float(theta[k]) for k in range(3) if choice[k][0] == "mix"}
    return ("mixed" if mixes else "pure search"), held, mixes
