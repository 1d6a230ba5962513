import math

import numpy as np
import pytest

from panache import Rules, attack_distribution, exchange
from tests.panache import brute


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("level", [1, 4, 6])
def test_attack_matches_enumeration(n, level):
    dist = attack_distribution(Rules(n_dice=n), level)
    enumerated = brute.attack_hits(n, level)
    for hits in range(n + 1):
        assert dist[level * hits] == pytest.approx(enumerated.get(hits, 0.0), abs=1e-14)


def test_attack_closed_forms():
    rules = Rules()
    dist = attack_distribution(rules, 2)
    assert dist.index.tolist() == [0, 2, 4, 6, 8, 10]
    assert dist.sum() == pytest.approx(1.0, abs=1e-14)
    # the attack fails exactly when its first roll shows no 2
    assert dist[0] == pytest.approx((5 / 6) ** 5, rel=1e-14)
    # all five dice hit in the first roll
    assert dist[10] >= (1 / 6) ** 5
    # the law of the number of dice does not depend on the level
    assert np.allclose(attack_distribution(rules, 5).to_numpy(), dist.to_numpy(), atol=0)


def test_exchange_closed_forms():
    rules = Rules()
    q = (5 / 6) ** 5
    always = exchange(rules, 3, counter="always")
    assert always.p_target_hit == pytest.approx(1 / (1 + q), rel=1e-13)
    assert always.p_attacker_hit == pytest.approx(q / (1 + q), rel=1e-13)
    assert always.p_nothing == pytest.approx(0.0, abs=1e-12)
    assert always.expected_attempts == pytest.approx(1 / (1 - q))
    # seed: "le record actuel étant de 4 aller-retours" — at least 8 failed attempts
    assert always.p_more_attempts_than(8) == pytest.approx(q**8)

    never = exchange(rules, 3, counter="never")
    assert never.p_target_hit == pytest.approx(1 - q)
    assert never.p_nothing == pytest.approx(q)
    assert never.p_more_attempts_than(1) == 0.0

    once = exchange(rules, 3, counter="target_only")
    assert once.p_attacker_hit == pytest.approx(q * (1 - q))
    assert once.p_nothing == pytest.approx(q * q)
    assert once.counters == (True, False)


def test_exchange_series_sums_the_attempts():
    """The closed form against the truncated sum over attempts i = 0, 1, 2..."""
    rules = Rules(n_dice=3)
    q = (5 / 6) ** 3
    x = exchange(rules, 2)
    target = sum(q ** (2 * i) * (1 - q) for i in range(200))
    attacker = sum(q ** (2 * i + 1) * (1 - q) for i in range(200))
    assert x.p_target_hit == pytest.approx(target, rel=1e-13)
    assert x.p_attacker_hit == pytest.approx(attacker, rel=1e-13)
    hit = attack_distribution(rules, 2)
    # damage given a hit has the law of the attack given at least one die
    assert x.target_damage[4] == pytest.approx(target * hit[4] / (1 - q), rel=1e-13)
    assert x.target_damage.sum() == pytest.approx(1.0)
    assert x.expected_target_loss == pytest.approx(
        target * (hit.index.to_numpy() @ hit.to_numpy()) / (1 - q)
    )


def test_counter_attacks_off_means_no_counter():
    x = exchange(Rules(counter_attacks=False), 4, counter="always")
    assert x.counters == (False, False)
    assert x.p_attacker_hit == 0.0
    assert x.p_target_hit == pytest.approx(1 - (5 / 6) ** 5)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"level": 0}, ValueError, "level must be 1..6, got 0"),
        ({"level": 7}, ValueError, "level must be 1..6, got 7"),
        ({"level": 2.0}, TypeError, "level must be an int"),
        ({"level": 2, "counter": "sometimes"}, ValueError, "counter must be one of"),
        ({"level": 2, "counter": (1, 0)}, TypeError, "pair"),
    ],
)
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        exchange(Rules(), **kwargs)


def test_expected_attempts_is_a_probability_sum():
    x = exchange(Rules(), 1)
    assert x.expected_attempts == pytest.approx(
        sum(x.p_more_attempts_than(k) for k in range(400)), rel=1e-12
    )
    assert math.isfinite(x.expected_attempts)
