import numpy as np
import pytest

from tabletop.draws import randbelow, roll_die
from tabletop.jit import jit
from tabletop.stats import chi_square_test
from tests.conftest import P_FLOOR


@jit
def _draws(seed, k, n):
    np.random.seed(seed)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = randbelow(k)
    return out


@jit
def _dice(seed, n):
    np.random.seed(seed)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = roll_die()
    return out


@pytest.mark.parametrize("k", [1, 2, 6, 7, 1000, 2**31 + 1])
def test_randbelow_is_uniform(k):
    draws = _draws(3, k, 120_000)
    assert draws.min() >= 0 and draws.max() < k
    if k <= 1000:
        observed = np.bincount(draws, minlength=k)
        assert chi_square_test(observed, np.full(k, 1 / k)) > P_FLOOR
    else:  # too many cells: test the top bit instead
        high = draws >= k // 2
        share = (k - k // 2) / k
        assert abs(high.mean() - share) < 5 * np.sqrt(share * (1 - share) / draws.size)


def test_dice_are_fair_and_reproducible():
    a = _dice(11, 60_000)
    assert np.array_equal(a, _dice(11, 60_000))
    assert not np.array_equal(a, _dice(12, 60_000))
    assert chi_square_test(np.bincount(a, minlength=6), np.full(6, 1 / 6)) > P_FLOOR
    # consecutive pairs are independent: 36 cells
    pairs = a[0::2] * 6 + a[1::2]
    assert chi_square_test(np.bincount(pairs, minlength=36), np.full(36, 1 / 36)) > P_FLOOR
