"""Monte Carlo statistics: means with standard errors, intervals, goodness of fit.

A Monte Carlo figure is reported with its standard error ``s / sqrt(n)``; a
proportion's confidence interval is Wilson's score interval (scipy's ``binomtest``);
a simulated distribution is compared with an exact one by Pearson's chi-square test,
pooling the rarest outcomes until every expected count is at least ``min_expected``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tabletop.validate import check_fields


@dataclass(frozen=True)
class MonteCarloEstimate:
    """A Monte Carlo mean with its standard error.

    Attributes
    ----------
    mean : float
        Sample mean (finite).
    stderr : float
        Standard error of the mean (finite, >= 0).
    n : int
        Number of samples (>= 0).

    Examples
    --------
    >>> est = MonteCarloEstimate(mean=0.5, stderr=0.1, n=100)
    >>> est.z_score(0.3)
    2.0
    >>> [round(float(x), 4) for x in est.ci(0.95)]
    [0.304, 0.696]
    """

    mean: float
    stderr: float
    n: int

    def __post_init__(self):
        check_fields(self, mean=(None, None), stderr=(0.0, None), n=(0, None))

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval at ``level``."""
        from scipy import stats

        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level}")
        z = stats.norm.ppf(0.5 + level / 2)
        return self.mean - z * self.stderr, self.mean + z * self.stderr

    def z_score(self, exact: float) -> float:
        """How many standard errors the estimate lies from ``exact`` (inf if stderr is 0)."""
        from tabletop.validate import check_float

        gap = self.mean - check_float("exact", exact)
        if self.stderr == 0:
            return 0.0 if gap == 0 else math.inf
        return gap / self.stderr


def estimate_mean(samples) -> MonteCarloEstimate:
    """Mean and standard error of ``samples`` (1-D, at least two values).

    Parameters
    ----------
    samples : array_like of float, 1-D
        At least two finite values (booleans count as 0 and 1).

    Returns
    -------
    MonteCarloEstimate
        The sample mean, its standard error (``std(ddof=1) / sqrt(n)``) and ``n``.

    Examples
    --------
    >>> estimate_mean([0.0, 1.0, 0.0, 1.0]).mean
    0.5
    """
    try:  # numbers or booleans (a proportion), in one dimension
        x = np.asarray(samples, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"samples must be a 1-D array of numbers, got {samples!r:.80}") from None
    if x.ndim != 1:
        raise ValueError(f"samples must be a 1-D array, got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError(f"samples must be finite numbers, got {x.size} values with "
                         f"{int((~np.isfinite(x)).sum())} NaN or infinite")  # fmt: skip
    if x.size < 2:
        raise ValueError(f"samples must hold at least 2 values, got {x.size}")
    with np.errstate(over="ignore", invalid="ignore"):
        mean, stderr = float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))
    if not (math.isfinite(mean) and math.isfinite(stderr)):
        raise ValueError(f"samples overflow: their mean or spread exceeds the float range "
                         f"(largest magnitude {float(np.abs(x).max()):.3g})")  # fmt: skip
    return MonteCarloEstimate(mean, stderr, x.size)


def estimate_proportion(successes: int, n: int) -> MonteCarloEstimate:
    """A proportion ``successes / n`` with its binomial standard error.

    Parameters
    ----------
    successes : int
        Number of successes, ``0 <= successes <= n``.
    n : int
        Number of trials (>= 1).

    Returns
    -------
    MonteCarloEstimate
        ``p = successes / n``, its standard error ``sqrt(p (1 - p) / n)`` and ``n``.

    Examples
    --------
    >>> est = estimate_proportion(25, 100)
    >>> est.mean, round(est.stderr, 6)
    (0.25, 0.043301)
    """
    from tabletop.validate import check_int

    successes, n = check_int("successes", successes, 0), check_int("n", n, 1)
    if n <= 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n > 0, got successes={successes}, n={n}")
    p = successes / n
    return MonteCarloEstimate(p, math.sqrt(p * (1 - p) / n), int(n))


def proportion_ci(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (scipy's ``binomtest``)."""
    from scipy import stats

    from tabletop.validate import check_float, check_int

    n = check_int("n", n, 1)
    successes = check_int("successes", successes, 0, n)
    level = check_float("level", level, 0.0, 1.0, low_open=True, high_open=True)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(level, method="wilson")
    return float(ci.low), float(ci.high)


def share_percent(successes: int, n: int, digits: int = 1) -> str:
    """The share ``successes / n`` as a percentage rounded exactly: "27.1%".

    The ratio of the two integers is rounded with halves away from zero (541 / 2,000
    prints 27.1%, 519 / 2,000 prints 26.0%, 487 / 2,000 prints 24.4%), where a float's
    own ``f"{x:.1%}"`` rounds its binary value and so splits exact halves both ways
    (27.05% up, 25.95% and 24.35% down).

    Examples
    --------
    >>> [share_percent(k, 2000) for k in (541, 519, 487, 741)]
    ['27.1%', '26.0%', '24.4%', '37.1%']
    >>> share_percent(1, 3, digits=2)
    '33.33%'
    """
    from decimal import ROUND_HALF_UP, Decimal

    from tabletop.validate import check_int

    n = check_int("n", n, 1)
    successes = check_int("successes", successes, 0, n)
    digits = check_int("digits", digits, 0, 12)
    exact = Decimal(100 * successes) / Decimal(n)  # to 28 digits: never a false half
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)}%"


def chi_square_test(observed, expected_probs, min_expected: float = 5.0) -> float:
    """P-value of Pearson's chi-square test of ``observed`` counts against exact probabilities.

    Outcomes are sorted by expected count and the rarest are pooled until every
    pooled cell expects at least ``min_expected`` samples. An outcome observed but
    given probability 0 returns a p-value of 0.

    Parameters
    ----------
    observed : array_like of int, 1-D
        Observed counts per outcome (finite, >= 0, not all 0).
    expected_probs : array_like of float, 1-D
        Exact probability of each outcome (same length, >= 0, summing to 1 within 1e-9).
    min_expected : float
        Smallest expected count per pooled cell (> 0).

    Raises
    ------
    TypeError, ValueError
        For counts that are negative, NaN or infinite, probabilities that are not a
        probability vector, or lengths that differ: never a p-value from bad input.

    Returns
    -------
    float
        The p-value (1.0 when a single cell remains after pooling).

    Examples
    --------
    >>> chi_square_test([50, 50], [0.5, 0.5])
    1.0
    >>> chi_square_test([3, 0], [0.0, 1.0])
    0.0
    """
    from scipy import stats

    from tabletop.validate import check_counts, check_float, check_probabilities

    obs = check_counts("observed", observed)
    probs = check_probabilities("expected_probs", expected_probs)
    if obs.shape != probs.shape:
        raise ValueError(
            f"observed and expected_probs differ in length: {obs.size} vs {probs.size}"
        )
    min_expected = check_float("min_expected", min_expected, 0.0, low_open=True)
    if obs.sum() == 0:
        raise ValueError("observed must hold at least one observation, got counts all 0")
    if np.any(obs[probs <= 0] > 0):
        return 0.0
    n = obs.sum()
    order = np.argsort(probs * n, kind="stable")
    cells_obs, cells_exp = [], []
    acc_obs = acc_exp = 0.0
    for i in order:
        acc_obs += obs[i]
        acc_exp += probs[i] * n
        if acc_exp >= min_expected:
            cells_obs.append(acc_obs)
            cells_exp.append(acc_exp)
            acc_obs = acc_exp = 0.0
    if acc_exp > 0 and cells_exp:  # fold the remainder into the last cell
        cells_obs[-1] += acc_obs
        cells_exp[-1] += acc_exp
    if len(cells_exp) < 2:
        return 1.0
    return float(stats.chisquare(cells_obs, cells_exp).pvalue)
