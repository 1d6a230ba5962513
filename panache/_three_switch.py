r"""The switch stage of the exact three-player search: mixed counters (see ``panache.three``).

A class that :func:`panache._three_exact.search_class` leaves unsolved often sits on
a *counter switch*: in one of its states the exchange equilibrium that
:func:`panache._three_kernels.exchange` selects for an attack (target ``t``, level
``l``) changes as the mover's no-change chance :math:`d_k` crosses a threshold, the
mover's best turn jumps there, and neither side's pure counters, held or not, give a
class equilibrium. Between the two pure equilibria of such an exchange lies a mixed
one. With the target countering with chance :math:`\sigma` after each miss and the
attacker countering back with chance :math:`\tau`,

.. math::

    X = s H_t + q (\sigma Y + (1 - \sigma) A), \qquad
    Y = s H_a + q (\tau X + (1 - \tau) A)

(:func:`panache._three_kernels.exchange_with`); the exchange is a mixed equilibrium
when the target is indifferent, :math:`Y_t = A_t` (*the mixed counter*), and the
attacker too, :math:`X_0 = A_0` (*its split*), that is when

.. math::

    d_k = d^*(\sigma, \tau) = \frac{x_{0,0}(\sigma, \tau)}{1 - \delta x(\sigma, \tau)} .

The attacker's own chance from attacking is then its chance from declining, so it
attacks (the plan just below :math:`d^*`), and :math:`\sigma, \tau` move the other
players' chances continuously: the mixed exchange bridges the jump.

The stage's unknowns are such chances, each with one equation:

* a target's mixed counter :math:`\sigma` of an exchange that switches at a jump
  within ``WINDOW`` of the class's values: :math:`Y_t - A_t = 0`;
* the attacker's split :math:`\tau` in the same exchange: :math:`X_0 - A_0 = 0`;
* a state's mixture :math:`\theta_k` of the two plans beside a breakpoint of its
  envelope (:class:`panache._three_exact._Envelope`): :math:`d_k` at the breakpoint.

Every other state plays its best turn against the current values. The sets tried
are, in this order: *pairs*, a mixed counter with the attacker's split in the same
exchange; *triples* (and sets of four) of the ``NEAREST`` variables nearest to
indifference at the start values (how far the switch or the breakpoint lies from
the state's :math:`d_k`), each exchange with both its sides, by the sum of their
distances; single mixtures last. Each set is solved by Newton's method from the
middle of the box with a finite-difference Jacobian; the plans are read again at
the values of every step (the pure states' best turns as well), a step is halved at
most ``HALVINGS`` times until the residual drops, and a set is given up after
``STALL`` steps without a tenfold drop of the residual. A class gets at most
``BUDGET`` evaluations of its equations.

A solution is accepted only by the check the search applies
(:func:`panache._three_exact._verify`): every chance in [0, 1]; at the values
found, each state's stored mover chance equals the mover's best one-turn reply
computed afresh (keeps, targets, stakes; the exchanges at the counters found), the
plans played or mixed are those the best turn plays at or just beside :math:`d_k`,
and every held counter is a best reply for its side (a mixed one: the side
indifferent), to ``ACCEPT``. The finished table is checked again independently
(:func:`panache._three_kernels.class_gaps`).

References
----------
Fink, A. M. (1964). Equilibrium in a stochastic n-person game. *J. Sci. Hiroshima
Univ.* 28, 89-93 (stationary equilibria exist in mixed strategies).

Nocedal, J. and Wright, S. J. (2006). *Numerical Optimization*, 2nd ed., Springer,
ch. 11 (Newton's method for nonlinear equations, with step reduction).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from panache._three_exact import (
    MIX_SHIFT,
    NEAR,
    _Envelope,
    _same,
    _verify,
    search_class,
)
from panache._three_kernels import (
    counter_incentives,
    cycle_values,
    exchange_with,
    no_forced,
    rotate,
)

#: Evaluations of a class's equations, at most, over all the sets tried (the classes
#: solved at 8 start points needed at most 100; each costs about a millisecond at the
#: default rules, and most classes that reach the stage are not solved by it).
BUDGET = 150
#: The variables nearest to indifference that triples are built from.
NEAREST = 24
#: Newton steps without a tenfold drop of the residual before a set is given up.
STALL = 4
#: Halvings of a Newton step, at most, before a set is given up.
HALVINGS = 5
#: A set's equations are solved when every residual is within this.
SOLVED = 1e-13
#: Finite-difference step of the Jacobian.
DIFF_STEP = 1e-7
#: Newton iterates beyond this distance from the box are given up.
BOX_SLACK = 2.0
#: A chance found this far outside [0, 1] is clipped to it; further, refused.
CLIP = 1e-9


class Variable(NamedTuple):
    """One unknown of the switch stage and its equation.

    ``kind`` is "counter" (the target's chance of countering in state ``state``'s
    exchange ``target``, ``level``: the target indifferent), "back" (the attacker's
    chance of countering back in that exchange: the attacker indifferent) or "mix"
    (state ``state`` mixing the plans read at ``below`` and ``above``, beside a
    breakpoint of its envelope: its no-change chance there). ``distance``: how far
    from indifference at the start values (the switch's or the breakpoint's ``d``
    from the state's no-change chance)."""

    kind: str
    state: int
    distance: float
    target: int = 0
    level: int = 0
    below: float = 0.0
    above: float = 0.0


def variables(envelopes) -> list[Variable]:
    """The switch stage's unknowns near the start values, from the three states'
    envelopes (traced with every exchange at its selection), nearest first."""
    out = []
    for k, env in enumerate(envelopes):
        switches = {}  # each exchange once, at its switch nearest the start value
        for target, level, _, _, where in env.flips():
            distance = abs(where - env.d0)
            switches[target, level] = min(distance, switches.get((target, level), np.inf))
        for (target, level), distance in switches.items():
            out.append(Variable("counter", k, distance, target, level))
            out.append(Variable("back", k, distance, target, level))
        pieces = {lo: (lo, hi) for _, lo, hi in env.pieces}
        ends = {hi: (lo, hi) for _, lo, hi in env.pieces}
        smooth = [b[0] for b in env.breaks if b[0] not in env.jumps]
        near = [d for d in smooth if d <= env.d0][-NEAR:] + [d for d in smooth if d > env.d0][:NEAR]
        for d in near:
            if d in ends and d in pieces:
                below, above = 0.5 * sum(ends[d]), 0.5 * sum(pieces[d])
                out.append(Variable("mix", k, abs(d - env.d0), below=below, above=above))
    out.sort(key=lambda v: v.distance)
    return out


def _valid(chosen) -> bool:
    """Each mixed exchange with both its sides (the target's counter and the
    attacker's counter back), in a state that mixes no plans, at most one per state;
    at most one mixture per state."""
    exchanges = [(v.state, v.target, v.level) for v in chosen if v.kind == "counter"]
    backs = [(v.state, v.target, v.level) for v in chosen if v.kind == "back"]
    if sorted(exchanges) != sorted(backs):
        return False
    states = [k for k, _, _ in exchanges] + [v.state for v in chosen if v.kind == "mix"]
    return len(states) == len(set(states))


def candidate_sets(pool: list[Variable]) -> list[tuple[Variable, ...]]:
    """The sets of unknowns in the order tried: each mixed counter with the attacker's
    split in its exchange, then the sets of three and four of the ``NEAREST``
    variables nearest to indifference (by the sum of their distances), then each
    mixture alone."""
    pairs = [(v, w) for v in pool for w in pool
             if v.kind == "counter" and w.kind == "back" and _valid((v, w))]  # fmt: skip
    near = pool[:NEAREST]
    longer = [t for size in (3, 4) for t in itertools.combinations(near, size) if _valid(t)]
    longer.sort(key=lambda t: sum(v.distance for v in t))
    singles = [(v,) for v in pool if v.kind == "mix"]
    return pairs + longer + singles


class _System:
    """A set's equations: the residuals at given unknowns, the plans read against the
    reference no-change vectors ``declines`` (one per state)."""

    def __init__(self, ctx, three, states, parts, chosen):
        self.ctx, self.three, self.states, self.parts = ctx, three, states, parts
        self.chosen = chosen
        self.mixing = {v.state: i for i, v in enumerate(chosen) if v.kind == "mix"}
        self.attacking = {v.state: v for v in chosen if v.kind == "counter"}
        self.evaluations = 0
        self._plans = {}

    def _plan(self, k, decline, forced):
        key = (k, decline.tobytes(), forced.tobytes())
        if key not in self._plans:
            self._plans[key] = self.ctx.plan(self.three, self.states[k], self.parts[k], decline,
                                             forced)  # fmt: skip
        return self._plans[key]

    def forced(self, z):
        """Each state's exchanges as the unknowns ``z`` hold them (NaN: the selection)."""
        out = [no_forced() for _ in range(3)]
        for v, x in zip(self.chosen, z, strict=True):
            if v.kind == "counter":
                out[v.state][v.target, v.level, 0] = x
            elif v.kind == "back":
                out[v.state][v.target, v.level, 1] = x
        return out

    def evaluate(self, z, declines):
        """``(residuals, values, choice, forced)`` at ``z``, or None where a plan cannot
        be read (no pure exchange, or the two plans of a mixture are one). ``choice``
        per state as :func:`panache._three_exact._verify` reads it."""
        self.evaluations += 1
        forced = self.forced(z)
        alpha = np.empty((3, 3))
        beta = np.empty(3)
        at = np.zeros(3)
        choice = []
        for k in range(3):
            decline = declines[k]
            if k in self.attacking:
                # the attacker indifferent: X_0 = A_0 at d*; it plays the attack
                v = self.attacking[k]
                x0, dx = _exchange(self.ctx, self.parts[k], v, *forced[k][v.target, v.level])
                if not dx < 1:
                    return None
                at[k] = x0[0] / (1.0 - dx)
                plan = self._plan(k, _with_d(decline, at[k] - MIX_SHIFT), forced[k])
                if plan[1] < 0:
                    return None
                alpha[k], beta[k] = plan
                choice.append(("pure", (plan, -np.inf, np.inf)))
                continue
            if k not in self.mixing:
                plan = self._plan(k, decline, forced[k])
                if plan[1] < 0:
                    return None
                alpha[k], beta[k] = plan
                choice.append(("pure", (plan, -np.inf, np.inf)))
                continue
            i = self.mixing[k]
            v = self.chosen[i]
            below = self._plan(k, _with_d(decline, v.below), forced[k])
            above = self._plan(k, _with_d(decline, v.above), forced[k])
            if below[1] < 0 or above[1] < 0 or _same(below, above) or below[1] == above[1]:
                return None
            at[k] = (below[0][0] - above[0][0]) / (above[1] - below[1])  # the lines meet
            theta = z[i]
            alpha[k] = theta * below[0] + (1.0 - theta) * above[0]
            beta[k] = theta * below[1] + (1.0 - theta) * above[1]
            choice.append(("mix", (at[k], below, above)))
        values = cycle_values(alpha, beta)
        denom = 1.0 - beta[0] * beta[1] * beta[2]
        r = np.empty(len(self.chosen))
        for j, v in enumerate(self.chosen):
            k = v.state
            if v.kind in ("counter", "back"):
                ht, ha = self.parts[k][0][v.target, v.level], self.parts[k][1][v.target, v.level]
                sigma, tau = forced[k][v.target, v.level]
                decline = rotate(values[(k + 1) % 3])
                gains = counter_incentives(self.ctx.s, self.ctx.q, ht, ha, decline, v.target,
                                           sigma, tau)  # fmt: skip
                r[j] = gains[0] if v.kind == "counter" else gains[1]
            else:
                r[j] = (values[(k + 1) % 3, 2] - at[k]) * denom
        if not np.all(np.isfinite(r)):
            return None
        return r, values, tuple(choice), forced


def _exchange(ctx, part, v, sigma, tau):
    """The exchange ``v`` of a state as ``x0 + dx * A`` at counter chances (sigma, tau)."""
    return exchange_with(ctx.s, ctx.q, part[0][v.target, v.level], part[1][v.target, v.level],
                         np.zeros(3), sigma, tau)  # fmt: skip


def _with_d(decline, d):
    out = decline.copy()
    out[0] = d
    return out


def _declines(values):
    return [rotate(values[(k + 1) % 3]) for k in range(3)]


def newton(system, start, budget, z0=None):
    """Solve ``system`` from the no-change vectors of ``start`` (the class's values),
    the unknowns from ``z0`` (default 1/2 each). Returns ``(z, values, choice,
    forced)`` of the solution (unknowns clipped to [0, 1], the plans read at its own
    values), or None."""
    m = len(system.chosen)
    z = np.full(m, 0.5) if z0 is None else np.array(z0, dtype=float)
    declines = _declines(start)
    out = system.evaluate(z, declines)
    reference = np.inf  # the residual at the last tenfold drop
    stalled = 0
    jac = np.empty((m, m))
    while out is not None and system.evaluations < budget:
        r, values = out[0], out[1]
        norm = float(np.max(np.abs(r)))
        if norm <= SOLVED:
            return _finish(system, z, values)
        if norm <= 0.1 * reference:
            reference, stalled = norm, 0
        else:
            stalled += 1
            if stalled >= STALL:
                return None
        for j in range(m):
            up = z.copy()
            up[j] += DIFF_STEP
            moved = system.evaluate(up, declines)
            if moved is None:
                return None
            jac[:, j] = (moved[0] - r) / DIFF_STEP
        if not np.all(np.isfinite(jac)) or abs(np.linalg.det(jac)) < 1e-300:
            return None
        step = np.linalg.solve(jac, -r)
        for _ in range(HALVINGS + 1):
            trial = system.evaluate(z + step, declines)
            if trial is not None and np.max(np.abs(trial[0])) < norm:
                break
            step *= 0.5
        else:
            return None
        z = z + step
        if np.max(np.abs(z - 0.5)) > 0.5 + BOX_SLACK:
            return None
        declines = _declines(trial[1])  # the plans are read again at the new values
        out = system.evaluate(z, declines)
    return None


def _finish(system, z, values):
    if np.any(z < -CLIP) or np.any(z > 1.0 + CLIP):
        return None
    z = np.clip(z, 0.0, 1.0)
    out = system.evaluate(z, _declines(values))
    if out is None:
        return None
    return z, out[1], out[2], out[3]


def switch_stage(ctx, three, states, parts, envelopes):
    """Search the sets of :func:`candidate_sets` for an exact equilibrium of the class
    (see the module docstring); ``envelopes`` are its states' envelopes at the
    start values. Returns ``(values, forced, mixes, counters)`` or None."""
    start = np.array([three[s] for s in states])
    pool = variables(envelopes)
    if not any(v.kind == "counter" for v in pool):
        return None
    used = 0
    for chosen in candidate_sets(pool):
        if used >= BUDGET:
            break
        system = _System(ctx, three, states, parts, chosen)
        found = newton(system, start, BUDGET - used)
        used += system.evaluations
        if found is None:
            continue
        z, values, choice, forced = found
        used += 1
        if _verify(ctx, three, states, parts, choice, values, forced):
            mixes = {k: float(z[i]) for k, i in system.mixing.items()}
            counters = [float(x) for v, x in zip(chosen, z, strict=True) if v.kind != "mix"]
            return values, forced, mixes, counters
    return None


def solve_mixed_class(ctx, three, a, b, c):
    """Replace the class's fictitious-play values in ``three`` by an exact stationary
    equilibrium when one is found: first the search
    (:func:`panache._three_exact.search_class`), then, where it fails, the switch
    stage (module docstring).

    Returns ``(method, forced, mixes)`` as :func:`panache._three_exact.search_class`
    does, ``method`` "mixed counter" when the equilibrium found plays some exchange
    at a mixed equilibrium, a counter at a chance strictly between 0 and 1 (its
    counters in ``forced``; a class the switch stage solves otherwise is "mixed" or "pure
    search" as the search names it); a class neither solves keeps the search's
    reason ("counter switch", "not found", "no pure exchange").
    """
    states = [(a, b, c), (b, c, a), (c, a, b)]
    traced = {}
    how, held, mixes = search_class(ctx, three, a, b, c, traced)
    if how != "counter switch":
        return how, held, mixes  # solved, or no switch near the values to bridge
    start = np.array([three[s] for s in states])
    parts = [ctx.parts(three, *s) for s in states]
    envelopes = []
    for k in range(3):
        decline = rotate(start[(k + 1) % 3])
        key = (k, decline.tobytes(), no_forced().tobytes())
        env = traced.get(key)
        if env is None:
            env = _Envelope(ctx, three, states[k], parts[k], decline, no_forced())
        if env.bad:
            return how, held, mixes
        envelopes.append(env)
    found = switch_stage(ctx, three, states, parts, envelopes)
    if found is None:
        return how, held, mixes
    values, forced, mix_chances, counters = found
    for k in range(3):
        three[states[k]] = values[k]
    held = {states[k]: forced[k] for k in range(3) if not np.isnan(forced[k][:, :, 0]).all()}
    mixes = {states[k]: chance for k, chance in mix_chances.items()}
    if any(0.0 < x < 1.0 for x in counters):
        return "mixed counter", held, mixes
    return ("mixed" if mixes else "pure search"), held, mixes
