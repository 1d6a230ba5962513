"""Bad fields and arguments of the shared result classes: each a TypeError or ValueError
naming ``Class.field`` or the parameter."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

import tabletop as T
from tabletop.validate import PROBABILITY_TOLERANCE, check_array_fields, check_probabilities

NAN = float("nan")
V = {c: float(len(c) >= 2) for n in (1, 2, 3) for c in itertools.combinations("ABC", n)}


BAD = [
    (lambda: T.MonteCarloEstimate(NAN, 0.1, 10), ValueError, r"MonteCarloEstimate\.mean must"),
    (lambda: T.MonteCarloEstimate(0.5, -0.1, 10), ValueError,
     r"MonteCarloEstimate\.stderr must be a finite number >= 0\.0, got -0\.1"),
    (lambda: T.MonteCarloEstimate(0.5, float("inf"), 10), ValueError,
     r"MonteCarloEstimate\.stderr must"),
    (lambda: dataclasses.replace(T.least_core(V, "ABC"), epsilon=NAN), ValueError,
     r"LeastCore\.epsilon must be a finite number, got nan"),
    (lambda: T.least_core(V, "AB"), ValueError,
     r"v's coalition \('C',\) names a player not in players=\('A', 'B'\)"),
    (lambda: T.shapley_value(V, "AB"), ValueError, r"not in players="),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "message"), BAD)
def test_a_bad_value_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_library_builds_what_it_checks():
    assert T.estimate_mean([1.0, 2.0, 4.0]).stderr > 0
    assert T.estimate_proportion(0, 10).stderr == 0.0
    assert T.least_core(V, "ABC").epsilon > 0


@dataclasses.dataclass(frozen=True)
class _Samples:
    hits: np.ndarray
    rounds: np.ndarray

    def __post_init__(self):
        check_array_fields(self, ("hits",), "float", ndim=2, columns=2, low=0, high=1)
        check_array_fields(self, ("rounds",), "int", low=0, like="hits")


@pytest.mark.parametrize(("hits", "rounds", "error", "message"), [
    (np.zeros((3, 2)), np.zeros(3), TypeError, r"_Samples\.rounds must be an array of ints"),
    (np.zeros((3, 2)), np.zeros(4, int), ValueError, r"_Samples\.rounds must hold 3 rows"),
    (np.zeros((3, 3)), np.zeros(3, int), ValueError, r"_Samples\.hits must have 2 columns"),
    (np.full((3, 2), NAN), np.zeros(3, int), ValueError, r"_Samples\.hits must hold values >= 0"),
    (np.full((3, 2), 2.0), np.zeros(3, int), ValueError, r"_Samples\.hits must hold values <= 1"),
    (np.zeros(3), np.zeros(3, int), ValueError, r"_Samples\.hits must be a 2-D array"),
    ([[0.0, 0.0]], np.zeros(1, int), TypeError, r"_Samples\.hits must be an array of real"),
])  # fmt: skip
def test_array_fields(hits, rounds, error, message):
    _Samples(np.zeros((3, 2)), np.zeros(3, int))
    with pytest.raises(error, match=message):
        _Samples(hits, rounds)


def test_a_mix_allows_rounding_only():
    check_probabilities("Game.row", np.array([0.5, 0.5 + 1e-12, -1e-12]), 3,
                        rounding=PROBABILITY_TOLERANCE)
    for bad, message in ((np.array([0.5, 0.6, 0.0]), "must be non-negative and sum to 1"),
                         (np.array([0.5, 0.5]), "must hold 3 probabilities"),
                         (np.array([1.5, -0.5, 0.0]), "must be non-negative and sum to 1")):
        with pytest.raises(ValueError, match=rf"Game\.row {message}"):
            check_probabilities("Game.row", bad, 3, rounding=PROBABILITY_TOLERANCE)
