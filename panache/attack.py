r"""Attacks and counter-attacks, exactly (docs/rules.md, Attack at level k).

**The chain.** With ``m`` dice left, a roll shows ``C ~ Binomial(m, 1/6)`` dice with
face ``k``. If ``C = 0`` the chain stops; otherwise those dice are set aside and the
chain goes on with ``m - C`` dice. The number ``N`` of dice set aside satisfies

.. math::

    P_m(N = x) = [x = 0]\,(5/6)^m + \sum_{c=1}^{m} \binom{m}{c} 6^{-c} (5/6)^{m-c}
                 P_{m-c}(N = x - c), \qquad P_0(N = 0) = 1,

and the target loses ``k N`` points. The law of ``N`` does not depend on ``k``.

**The exchange.** An attempt (attack or counter) fails exactly when its first roll
shows no ``k``: probability ``q = (5/6)^n``. If both sides always counter, attempt
``i`` (0 = the attack) happens with probability ``q^i`` and the damage goes to the
target for even ``i``, to the attacker for odd ``i``:

.. math::

    P(\text{target hit}) = \frac{1 - q}{1 - q^2} = \frac{1}{1 + q}, \qquad
    P(\text{attacker hit}) = \frac{q}{1 + q},

and the damage, given a hit, has the law of ``k N`` given ``N >= 1``. The expected
number of attempts is ``1 / (1 - q)``. If the attacker never counters back, the
exchange has at most two attempts; if the target never counters, one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from panache.rules import N_FACES, Rules
from tabletop.frozen import memoize, same_fields
from tabletop.validate import PROBABILITY, PROBABILITY_TOLERANCE, check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


COUNTER_POLICIES = ("always", "never", "target_only")


@memoize(maxsize=16)
def _hits_pmf(n: int) -> np.ndarray:
    """P(N = x), x = 0..n, for an attack chain with ``n`` dice."""
    from scipy import stats

    pmf = [np.array([1.0])]
    for m in range(1, n + 1):
        show = stats.binom.pmf(np.arange(m + 1), m, 1 / N_FACES)
        row = np.zeros(m + 1)
        row[0] = show[0]
        for c in range(1, m + 1):
            row[c : c + m - c + 1] += show[c] * pmf[m - c]
        pmf.append(row)
    return pmf[n]


def chain_odds(n: int) -> tuple[float, float, np.ndarray]:
    """``(s, q, hit_given)`` of an attack chain with ``n`` dice: the chance ``s`` that
    the first roll hits, ``q = 1 - s`` that it fails, and ``P(N = x | a hit)`` for
    x = 0..n (0 at x = 0). The solvers' view of :func:`_hits_pmf`."""
    pmf = _hits_pmf(n)
    q = float(pmf[0])
    s = 1.0 - q
    hit_given = pmf / s
    hit_given[0] = 0.0
    return s, q, hit_given


def check_level(level) -> int:
    """``level`` checked as an attack level: an int from 1 to the number of faces."""
    return check_int("level", level, 1, N_FACES)


def attack_distribution(rules: Rules, level: int) -> pd.Series:
    """Exact distribution of the damage of one attack at ``level`` (no counters).

    Parameters
    ----------
    rules : Rules
    level : int
        The attacked face, 1..6 (a total T attacks at ``rules.attack_level(T)``).

    Returns
    -------
    pandas.Series
        P(damage = d), indexed by ``damage`` = level × dice, 0..n_dice × level.

    Examples
    --------
    >>> d = attack_distribution(Rules(), 2)
    >>> round(float(d[0]), 6) == round((5 / 6) ** 5, 6)
    True
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    level = check_level(level)
    pmf = _hits_pmf(rules.n_dice)
    index = pd.Index(level * np.arange(rules.n_dice + 1), name="damage")
    return pd.Series(pmf.copy(), index=index, name="probability")


def counter_flags(rules: Rules, counter) -> tuple[bool, bool]:
    """``(target counters, attacker counters back)`` of a counter policy: one of
    ``COUNTER_POLICIES`` or a pair of bools (both False when the rules forbid counters)."""
    if isinstance(counter, str):
        if counter not in COUNTER_POLICIES:
            raise ValueError(
                f"counter must be one of {COUNTER_POLICIES} or a pair of bools, got {counter!r}"
            )
        flags = {"always": (True, True), "never": (False, False), "target_only": (True, False)}
        target, attacker = flags[counter]
    elif (
        isinstance(counter, tuple)
        and len(counter) == 2
        and all(isinstance(f, bool) for f in counter)
    ):
        target, attacker = counter
    else:
        raise TypeError(
            f"counter must be one of {COUNTER_POLICIES} or a pair (target_counters, "
            f"attacker_counters) of bools, got {counter!r}"
        )
    if not rules.counter_attacks:
        return False, False
    return target, attacker and target


@dataclass(frozen=True, eq=False)
class ExchangeResult:
    """Exact outcome of an attack with its counter-attacks.

    Built anew by each call: its Series are the caller's own and may be written.
    ``==`` compares values.

    Attributes
    ----------
    level : int
    p_target_hit, p_attacker_hit, p_nothing : float
        Who takes damage (they sum to 1; each in 0..1 within 1e-9).
    target_damage, attacker_damage : pandas.Series
        P(that player loses d points), d = 0..n_dice × level (0 includes "not hit").
    expected_attempts : float
        Expected number of attack rolls (the attack and every counter; >= 1).
    p_fail : float
        Probability ``q`` that one attempt fails (0..1 within 1e-9).
    counters : tuple of bool
        Whether the target, and the attacker, counter when they may.

    Examples
    --------
    >>> from panache import Rules, exchange
    >>> res = exchange(Rules(), 3)
    >>> round(res.p_target_hit + res.p_attacker_hit + res.p_nothing, 12)
    1.0
    >>> res.p_more_attempts_than(1) == res.p_fail
    True
    """

    level: int
    p_target_hit: float
    p_attacker_hit: float
    p_nothing: float
    target_damage: pd.Series
    attacker_damage: pd.Series
    expected_attempts: float
    p_fail: float
    counters: tuple[bool, bool]

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, level=(1, N_FACES), p_target_hit=PROBABILITY,
                     p_attacker_hit=PROBABILITY, p_nothing=PROBABILITY,
                     expected_attempts=(1.0 - PROBABILITY_TOLERANCE, None), p_fail=PROBABILITY)

    def p_more_attempts_than(self, k: int) -> float:
        """Probability that the exchange has more than ``k`` attempts."""
        k = check_int("k", k, 0)
        target, attacker = self.counters
        longest = math.inf if attacker else (2 if target else 1)
        return 0.0 if k >= longest else self.p_fail**k

    @property
    def expected_target_loss(self) -> float:
        return float(self.target_damage.index.to_numpy() @ self.target_damage.to_numpy())

    @property
    def expected_attacker_loss(self) -> float:
        return float(self.attacker_damage.index.to_numpy() @ self.attacker_damage.to_numpy())


def exchange(rules: Rules, level: int, counter="always") -> ExchangeResult:
    """Exact outcome of an attack at ``level`` and the counter-attacks it allows.

    Parameters
    ----------
    rules : Rules
        With ``counter_attacks=False`` nobody counters, whatever ``counter`` says.
    level : int
        The attacked face, 1..6.
    counter : {"always", "never", "target_only"} or (bool, bool)
        Whether the target counters a failed attack, and whether the attacker
        counters a failed counter (and so on, alternately).

    Returns
    -------
    ExchangeResult

    Examples
    --------
    >>> x = exchange(Rules(), 3)
    >>> q = (5 / 6) ** 5
    >>> abs(x.p_target_hit - 1 / (1 + q)) < 1e-12
    True
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    level = check_level(level)
    target, attacker = counter_flags(rules, counter)
    n = rules.n_dice
    pmf = _hits_pmf(n)
    q = float(pmf[0])
    s = 1.0 - q
    if target and attacker:
        p_target, p_attacker, attempts = 1 / (1 + q), q / (1 + q), 1 / s
    elif target:
        p_target, p_attacker, attempts = s, q * s, 1 + q
    else:
        p_target, p_attacker, attempts = s, 0.0, 1.0
    given_hit = pmf / s
    given_hit[0] = 0.0
    index = pd.Index(level * np.arange(n + 1), name="damage")

    def damage(p_hit):
        probs = p_hit * given_hit
        probs[0] = 1.0 - p_hit
        return pd.Series(probs, index=index, name="probability")

    return ExchangeResult(
        level=level,
        p_target_hit=p_target,
        p_attacker_hit=p_attacker,
        p_nothing=max(0.0, 1.0 - p_target - p_attacker),
        target_damage=damage(p_target),
        attacker_damage=damage(p_attacker),
        expected_attempts=attempts,
        p_fail=q,
        counters=(target, attacker),
    )
