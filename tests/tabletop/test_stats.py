import numpy as np
import pytest

from tabletop.stats import (
    MonteCarloEstimate,
    chi_square_test,
    estimate_mean,
    estimate_proportion,
    proportion_ci,
    share_percent,
)


def test_mean_and_stderr():
    est = estimate_mean([1.0, 2.0, 3.0, 4.0])
    assert est.mean == 2.5
    assert est.stderr == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    low, high = est.ci(0.95)
    assert low < 2.5 < high
    assert est.z_score(2.5) == 0
    assert MonteCarloEstimate(1.0, 0.0, 10).z_score(2.0) == float("inf")
    with pytest.raises(ValueError, match="at least 2"):
        estimate_mean([1.0])


def test_proportion():
    est = estimate_proportion(30, 100)
    assert est.mean == 0.3
    assert est.stderr == pytest.approx((0.3 * 0.7 / 100) ** 0.5)
    low, high = proportion_ci(30, 100)
    assert low < 0.3 < high
    with pytest.raises(ValueError, match="successes"):
        estimate_proportion(5, 3)


def test_chi_square_detects_a_wrong_law():
    rng = np.random.default_rng(0)
    probs = np.array([0.5, 0.3, 0.15, 0.04, 0.01])
    draws = rng.choice(5, size=100_000, p=probs)
    observed = np.bincount(draws, minlength=5)
    assert chi_square_test(observed, probs) > 1e-3
    wrong = np.array([0.49, 0.31, 0.15, 0.04, 0.01])
    assert chi_square_test(observed, wrong) < 1e-6
    assert chi_square_test([0, 1], [1.0, 0.0]) == 0.0  # impossible outcome observed


def test_chi_square_pools_rare_cells():
    # 10 samples: every cell expects less than 5, so the cells are pooled
    assert 0 <= chi_square_test([5, 3, 2, 0], [0.4, 0.3, 0.2, 0.1]) <= 1
    with pytest.raises(ValueError, match="sum to 1"):
        chi_square_test([1, 2], [0.5, 0.6])


@pytest.mark.parametrize(
    ("observed", "probs", "error", "message"),
    [
        ([5.0, np.nan, 3.0], [0.3, 0.3, 0.4], ValueError,
         r"observed must hold finite counts >= 0, got \[5.0, nan"),
        ([5, np.inf, 3], [0.3, 0.3, 0.4], ValueError, "observed must hold finite counts"),
        ([5, -2, 3], [0.3, 0.3, 0.4], ValueError, "observed must hold finite counts >= 0"),
        ([0, 0, 0], [0.3, 0.3, 0.4], ValueError, "observed must hold at least one observation"),
        (["5", "2"], [0.5, 0.5], TypeError, "observed must be an array of counts"),
        ([5, 3, 3], [0.3, np.nan, 0.4], ValueError,
         "expected_probs must hold finite probabilities"),
        ([5, 3, 3], [0.7, -0.1, 0.4], ValueError,
         "expected_probs must be non-negative and sum to 1"),
        ([50, 50.5], [0.5, 0.5], ValueError, r"observed must hold whole counts"),
        ([0.5, 0.5], [0.5, 0.5], ValueError, r"observed must hold whole counts"),
    ],
)  # fmt: skip
def test_chi_square_refuses_counts_and_laws_that_are_not_numbers(observed, probs, error, message):
    # NaN counts used to give p = 1 (every comparison with NaN is False): a silent pass
    with pytest.raises(error, match=message):
        chi_square_test(observed, probs)


def test_chi_square_refuses_a_pooling_threshold_that_is_not_positive():
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match=r"min_expected must be a finite number > 0\.0"):
            chi_square_test([5, 5], [0.5, 0.5], min_expected=bad)


def test_estimates_refuse_non_finite_samples_and_fractional_counts():
    with pytest.raises(ValueError, match="samples must be finite numbers"):
        estimate_mean([0.0, np.nan, 1.0])
    with pytest.raises(TypeError, match=r"successes must be an int, got 2.5 \(float\)"):
        estimate_proportion(2.5, 10)
    with pytest.raises(TypeError, match=r"n must be an int, got 10.9 \(float\)"):
        proportion_ci(3, 10.9)


@pytest.mark.parametrize("samples", [[1e308, 1e308], [1e308, -1e308], [-1e308, -1e308, 0.0]])
def test_a_mean_that_overflows_is_an_error_not_inf(samples):
    with pytest.raises(ValueError, match="samples overflow"):
        estimate_mean(samples)


def test_share_percent_rounds_the_exact_ratio_halves_up():
    from fractions import Fraction

    rng = np.random.default_rng(7)
    for n in (*range(1, 60), 2000, 1999, 10**6):
        for k in {0, n, *rng.integers(0, n + 1, 40).tolist()}:
            for digits in (0, 1, 2):
                scaled = Fraction(100 * k, n) * 10**digits  # the ratio in printed units
                whole = int(scaled + Fraction(1, 2))  # halves up (the ratio is >= 0)
                text = str(whole).rjust(digits + 1, "0")
                want = f"{text[:-digits]}.{text[-digits:]}%" if digits else f"{text}%"
                assert share_percent(k, n, digits) == want, (k, n, digits)
    # the float format splits the exact halves of 2,000 games both ways; this one does not
    assert [f"{k / 2000:.1%}" for k in (541, 519)] == ["27.1%", "25.9%"]
    assert [share_percent(k, 2000) for k in (541, 519)] == ["27.1%", "26.0%"]


@pytest.mark.parametrize("k, n", [(3, 2), (-1, 5), (1, 0), (1.5, 4)])
def test_share_percent_refuses_counts_that_are_not_a_share(k, n):
    with pytest.raises((ValueError, TypeError), match=r"successes|n "):
        share_percent(k, n)
