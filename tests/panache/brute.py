"""Plain brute-force references for the Master Panache tests.

They enumerate ordered dice (every sequence of faces, every subset of positions)
with no multisets, no codes and no tables, so they share no logic with the engine.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

FACES = range(1, 7)


def optimal_value(face_values, n, utility):
    """Expectimax over ordered rolls and subsets of positions; ``utility(total)``."""

    @functools.cache
    def value(total, left):
        if left == 0:
            return utility(total)
        acc = 0.0
        for roll in itertools.product(FACES, repeat=left):
            best = max(
                value(total + sum(face_values[roll[i] - 1] for i in subset), left - len(subset))
                for size in range(1, left + 1)
                for subset in itertools.combinations(range(left), size)
            )
            acc += best
        return acc / 6**left

    return value(0, n)


def optimal_value_and_total(face_values, n, utility):
    """Expectimax as :func:`optimal_value`, and among the optimal keeps of each roll (to
    1e-12) the one with the highest expected total: ``(value, expected total)``."""

    @functools.cache
    def pair(total, left):
        if left == 0:
            return utility(total), float(total)
        acc_value = acc_total = 0.0
        for roll in itertools.product(FACES, repeat=left):
            options = [
                pair(total + sum(face_values[roll[i] - 1] for i in subset), left - len(subset))
                for size in range(1, left + 1)
                for subset in itertools.combinations(range(left), size)
            ]
            best = max(v for v, _ in options)
            acc_value += best
            acc_total += max(t for v, t in options if v >= best - 1e-12)
        return acc_value / 6**left, acc_total / 6**left

    return pair(0, n)


def policy_distribution(face_values, n, choose):
    """Distribution of the total when ``choose(set_aside, rolled)`` picks the dice."""
    dist = defaultdict(float)

    def walk(set_aside, prob):
        left = n - len(set_aside)
        if left == 0:
            dist[sum(face_values[f - 1] for f in set_aside)] += prob
            return
        for roll in itertools.product(FACES, repeat=left):
            rolled = tuple(sorted(roll, reverse=True))
            kept = choose(tuple(sorted(set_aside, reverse=True)), rolled)
            walk(set_aside + tuple(kept), prob / 6**left)

    walk((), 1.0)
    return dict(dist)


def attack_hits(n, level):
    """P(N = x) of the attack chain, enumerating ordered rolls."""
    dist = defaultdict(float)

    def walk(left, hit, prob):
        if left == 0:
            dist[hit] += prob
            return
        for roll in itertools.product(FACES, repeat=left):
            shown = sum(1 for f in roll if f == level)
            p = prob / 6**left
            if shown == 0:
                dist[hit] += p
            else:
                walk(left - shown, hit + shown, p)

    walk(n, 0, 1.0)
    return dict(dist)


def duel(face_values, n, start, first_round_gain=True, counters=True, stake_factor=2,
         stake_cap=None, tol=1e-15):  # fmt: skip
    """The two-player game by plain value iteration over every state at once.

    Returns ``(win, first)``: ``win[(a, b)]`` the mover's winning chance with ``a``
    points against ``b``, and the first player's chance from the start. The turn
    is the ordered-dice expectimax above; exchanges are iterated, not solved.
    """
    top = start + (max(0, n * max(face_values)) if first_round_gain else 0)
    hits = attack_hits(n, 1)
    q = hits.get(0, 0.0)
    s = 1 - q
    pi = optimal_value(face_values, n, lambda t: float(t == 0))
    states = [(a, b) for a in range(1, top + 1) for b in range(1, top + 1)]
    win = dict.fromkeys(states, 0.5)

    def after(w, a, b, t):
        decline = 1 - w[(b, a)]
        if t < 0:
            return 0.0 if a + t <= 0 else 1 - w[(b, a + t)]
        if t == 0:
            best = decline
            top_stake = stake_factor * a if stake_cap is None else min(stake_factor * a, stake_cap)
            for x in range(2, top_stake + 1, 2):
                ok = 1.0 if b - x <= 0 else 1 - w[(b - x, a)]
                ko = 0.0 if a - x // 2 <= 0 else 1 - w[(b, a - x // 2)]
                best = max(best, pi * ok + (1 - pi) * ko)
            return best
        k = min(t, 6)
        ht = sum(p / s * (1.0 if b - k * h <= 0 else 1 - w[(b - k * h, a)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        ha = sum(p / s * (0.0 if a - k * h <= 0 else 1 - w[(b, a - k * h)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        x = y = decline
        for _ in range(2000):  # until the floats stop moving (then they stay)
            before = x, y
            x = s * ht + q * (min(decline, y) if counters else decline)
            y = s * ha + q * max(decline, x)
            if (x, y) == before:
                break
        return max(decline, x)

    for _ in range(100_000):
        new = {
            (a, b): optimal_value(face_values, n, lambda t, a=a, b=b, w=win: after(w, a, b, t))
            for a, b in states
        }
        change = max(abs(new[k] - win[k]) for k in states)
        win = new
        if change < tol:
            break

    def points(t):
        return start + t if t < 0 or (t > 0 and first_round_gain) else start

    def second(p1):
        return optimal_value(
            face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - win[(p1, points(t))]
        )

    first = optimal_value(
        face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - second(points(t))
    )
    return win, first


TOL = 1e-12


def optimal_vector(face_values, n, utility):
    """The mover's best turn when totals give chance vectors ``utility(total)``.

    The mover maximises component 0; ties (to 1e-12) go to keeping more dice, then
    the higher value (the engine's rule), so that the other components agree.
    """

    @functools.cache
    def value(total, left):
        if left == 0:
            return tuple(utility(total))
        acc = [0.0, 0.0, 0.0]
        for roll in itertools.product(FACES, repeat=left):
            best = None
            for size in range(1, left + 1):
                for subset in itertools.combinations(range(left), size):
                    kept = sum(face_values[roll[i] - 1] for i in subset)
                    v = value(total + kept, left - size)
                    key = (size, kept)
                    if (
                        best is None
                        or v[0] > best[0][0] + TOL
                        or (abs(v[0] - best[0][0]) <= TOL and key > best[1])
                    ):
                        best = (v, key)
            for i in range(3):
                acc[i] += best[0][i] / 6**left
        return tuple(acc)

    return value(0, n)


@functools.lru_cache(maxsize=4)
def _duel_once(face_values, n, start, counters, stake_factor):
    """:func:`duel` computed once per rules (its tables are read, never written, by
    :func:`three`, which needs them in every call)."""
    return duel(face_values, n, start, counters=counters, stake_factor=stake_factor)


def three(face_values, n, start, counters=True, stake_factor=2, iterations=200, reply_to=None,
          held=None, counter_gaps=None):  # fmt: skip
    """Three players by plain value iteration on canonical states (mover, next, last),
    states of one total ``a + b + c`` iterated together once the smaller ones are done.

    With ``reply_to`` (a table: state -> chances of mover, next, last), no iteration:
    returns, for every state, the chances after the mover's best turn when every
    other turn is valued by that table (what a one-turn deviation can reach).
    ``held`` maps a state to ``{(target, level): (sigma, tau)}``: those exchanges
    are played with the target countering with chance ``sigma`` and the attacker
    countering back with chance ``tau`` instead of the first pure equilibrium; the
    most a counter decision of theirs loses to its best (the gain of countering
    forgone, or its loss taken, each weighted by its chance) is written to
    ``counter_gaps[state]``."""
    top = start + max(0, n * max(face_values))
    hits = attack_hits(n, 1)
    q = hits.get(0, 0.0)
    s = 1 - q
    pi = optimal_value(face_values, n, lambda t: float(t == 0))
    duel_win, duel_first = _duel_once(tuple(face_values), n, start, counters, stake_factor)
    rng = range(1, top + 1)
    win = {(a, b, c): (1 / 3, 1 / 3, 1 / 3) for a in rng for b in rng for c in rng}

    def after(w, a, b, c):
        alive = [a > 0, b > 0, c > 0]
        if all(alive):
            v = w[(b, c, a)]
            return (v[2], v[0], v[1])
        if sum(alive) == 1:
            return tuple(float(x) for x in alive)
        out = [0.0, 0.0, 0.0]
        pts = (a, b, c)
        mover = 1 if alive[1] else 2  # next live player after seat 0
        other = next(i for i in range(3) if alive[i] and i != mover)
        wm = duel_win[(pts[mover], pts[other])]
        out[mover], out[other] = wm, 1 - wm
        return tuple(out)

    def add(x, y, f=1.0):
        return tuple(xi + f * yi for xi, yi in zip(x, y, strict=True))

    def scale(x, f):
        return tuple(f * xi for xi in x)

    def outcome(w, a, b, c, t):
        decline = after_none = w[(b, c, a)]
        decline = (after_none[2], after_none[0], after_none[1])
        if t < 0:
            return after(w, a + t, b, c)
        pts = [a, b, c]

        def hit(who, amount):
            p = list(pts)
            p[who] -= amount
            return after(w, *p)

        if t == 0:
            best = decline
            for target in (1, 2):
                for x in range(2, stake_factor * a + 1, 2):
                    v = add(scale(hit(target, x), pi), hit(0, x // 2), 1 - pi)
                    if v[0] > best[0] + TOL:
                        best = v
            return best
        k = min(t, 6)
        best = decline
        for target in (1, 2):
            ht = (0.0, 0.0, 0.0)
            ha = (0.0, 0.0, 0.0)
            for h, p in hits.items():
                if h > 0:
                    ht = add(ht, hit(target, k * h), p / s)
                    ha = add(ha, hit(0, k * h), p / s)
            # the first equilibrium pair (target counters, attacker counters back)
            # in the order yes/yes, yes/no, no/yes, no/no; values by iteration
            pairs = [(True, True), (True, False), (False, True), (False, False)]
            chances = (held or {}).get((a, b, c), {}).get((target, k))
            for tc, ac in [chances] if chances else pairs if counters else [(False, False)]:
                x = y = decline
                for _ in range(400):  # until the floats stop moving (then they stay)
                    before = x, y
                    x = add(scale(ht, s), add(scale(y, float(tc)), scale(decline, 1 - tc)), q)
                    y = add(scale(ha, s), add(scale(x, float(ac)), scale(decline, 1 - ac)), q)
                    if (x, y) == before:
                        break
                if chances:
                    gain_t, gain_a = y[target] - decline[target], x[0] - decline[0]
                    loss = max((1 - tc) * max(gain_t, 0), tc * max(-gain_t, 0),
                               (1 - ac) * max(gain_a, 0), ac * max(-gain_a, 0))  # fmt: skip
                    counter_gaps[(a, b, c)] = max(counter_gaps.get((a, b, c), 0.0), loss)
                    break
                if not counters or (
                    tc == (y[target] > decline[target] + TOL) and ac == (x[0] > decline[0] + TOL)
                ):
                    break
            else:
                raise AssertionError("no equilibrium")
            if x[0] > best[0] + TOL:
                best = x
        return best

    if reply_to is not None:
        return {
            key: optimal_vector(face_values, n, lambda t, key=key: outcome(reply_to, *key, t))
            for key in reply_to
        }
    # states by increasing total; each rotation class iterated on its own
    for total in range(3, 3 * top + 1):
        keys = [k for k in win if sum(k) == total]
        for _ in range(iterations):
            change = 0.0
            for key in keys:
                old = win[key]
                win[key] = optimal_vector(face_values, n, lambda t, key=key: outcome(win, *key, t))
                change = max(change, max(abs(x - y) for x, y in zip(old, win[key], strict=True)))
            if change < 1e-15:
                break

    def points(t):
        return start + t

    def seat(v, order):
        out = [0.0, 0.0, 0.0]
        for comp, s_ in enumerate(order):
            out[s_] = v[comp]
        return out

    def best_for(decider, rows):
        order = [decider] + [k for k in range(3) if k != decider]
        v = optimal_vector(face_values, n, lambda t: [rows(t)[i] for i in order])
        return seat(v, order)

    second_round1 = {}

    def answer(p0):  # seat 1 (second) answering seat 0 in a duel, in round 1
        if p0 not in second_round1:
            second_round1[p0] = optimal_value(
                face_values, n,
                lambda t: 0.0 if points(t) <= 0 else 1 - duel_win[(p0, points(t))],
            )  # fmt: skip
        return second_round1[p0]

    def last(p0, p1):
        return best_for(2, lambda t: (
            [duel_win[(p0, p1)], 1 - duel_win[(p0, p1)], 0.0] if points(t) <= 0
            else list(win[(p0, p1, points(t))])
        ))  # fmt: skip

    def second(p0):
        return best_for(1, lambda t: (
            [1 - answer(p0), 0.0, answer(p0)] if points(t) <= 0 else last(p0, points(t))
        ))  # fmt: skip

    first = best_for(0, lambda t: (
        [0.0, duel_first, 1 - duel_first] if points(t) <= 0 else second(points(t))
    ))  # fmt: skip
    return win, first


def continuation_value(face_values, total, left, utility):
    """Expected ``utility`` of the final total from ``left`` dice to roll and a set-aside
    ``total``, playing optimally: the ordered-dice expectimax, from a given state."""

    @functools.cache
    def value(t, m):
        if m == 0:
            return utility(t)
        acc = 0.0
        for roll in itertools.product(FACES, repeat=m):
            acc += max(
                value(t + sum(face_values[roll[i] - 1] for i in subset), m - len(subset))
                for size in range(1, m + 1)
                for subset in itertools.combinations(range(m), size)
            )
        return acc / 6**m

    return value(total, left)


def committed_duel(face_values, n, start, turn_choose, mp_choose=None, first_round_gain=True,
                   counters=True, stake_factor=2, tol=1e-15):  # fmt: skip
    """The duel where player C rolls with ``turn_choose`` (and attempts a Master Panache
    with ``mp_choose``, else optimally), by plain value iteration over every state.

    Returns ``(wc, wo, first, second)``: C's chance with C to move at (C's, O's
    points), O's with O to move at (O's, C's), and C's chance from the start as the
    first and as the second player.
    """
    top = start + (max(0, n * max(face_values)) if first_round_gain else 0)
    hits = attack_hits(n, 1)
    q = hits.get(0, 0.0)
    s = 1 - q
    pi_o = optimal_value(face_values, n, lambda t: float(t == 0))
    pi_c = pi_o if mp_choose is None else policy_distribution(face_values, n, mp_choose).get(0, 0)
    dist = policy_distribution(face_values, n, turn_choose)
    states = [(a, b) for a in range(1, top + 1) for b in range(1, top + 1)]
    wc = dict.fromkeys(states, 0.5)
    wo = dict.fromkeys(states, 0.5)

    def after(mine, theirs, pi, a, b, t):
        """The mover's chance after total t; ``theirs`` is the other player's table."""
        decline = 1 - theirs[(b, a)]
        if t < 0:
            return 0.0 if a + t <= 0 else 1 - theirs[(b, a + t)]
        if t == 0:
            best = decline
            for x in range(2, stake_factor * a + 1, 2):
                ok = 1.0 if b - x <= 0 else 1 - theirs[(b - x, a)]
                ko = 0.0 if a - x // 2 <= 0 else 1 - theirs[(b, a - x // 2)]
                best = max(best, pi * ok + (1 - pi) * ko)
            return best
        k = min(t, 6)
        ht = sum(p / s * (1.0 if b - k * h <= 0 else 1 - theirs[(b - k * h, a)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        ha = sum(p / s * (0.0 if a - k * h <= 0 else 1 - theirs[(b, a - k * h)])
                 for h, p in hits.items() if h > 0)  # fmt: skip
        x = y = decline
        for _ in range(2000):  # until the floats stop moving (then they stay)
            before = x, y
            x = s * ht + q * (min(decline, y) if counters else decline)
            y = s * ha + q * max(decline, x)
            if (x, y) == before:
                break
        return max(decline, x)

    for _ in range(100_000):
        new_c = {(a, b): sum(p * after(wc, wo, pi_c, a, b, t) for t, p in dist.items())
                 for a, b in states}  # fmt: skip
        new_o = {
            (a, b): optimal_value(
                face_values, n, lambda t, a=a, b=b, wo=wo, wc=wc: after(wo, wc, pi_o, a, b, t)
            )
            for a, b in states
        }
        change = max(max(abs(new_c[k] - wc[k]), abs(new_o[k] - wo[k])) for k in states)
        wc, wo = new_c, new_o
        if change < tol:
            break

    def points(t):
        return start + t if t < 0 or (t > 0 and first_round_gain) else start

    def o_second(p1):
        return optimal_value(
            face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - wc[(p1, points(t))]
        )

    def c_second(p1):
        return sum(p * (0.0 if points(t) <= 0 else 1 - wo[(p1, points(t))])
                   for t, p in dist.items())  # fmt: skip

    first = sum(p * (0.0 if points(t) <= 0 else 1 - o_second(points(t))) for t, p in dist.items())
    second = 1 - optimal_value(
        face_values, n, lambda t: 0.0 if points(t) <= 0 else 1 - c_second(points(t))
    )
    return wc, wo, first, second
