import itertools
import math
from collections import Counter

import numpy as np
import pytest

from panache.dice import dice_space


@pytest.mark.parametrize("n", [1, 3, 5, 8])
def test_counts_and_probabilities(n):
    space = dice_space(n)
    for m in range(n + 1):
        block = space.counts[space.of_size(m)]
        assert len(block) == math.comb(m + 5, 5)
        assert (block.sum(axis=1) == m).all()
        assert len({tuple(c) for c in block}) == len(block)
        assert space.probability[space.of_size(m)].sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_probabilities_match_enumeration(n):
    space = dice_space(n)
    tally = Counter(tuple(sorted(roll)) for roll in itertools.product(range(1, 7), repeat=n))
    for faces, count in tally.items():
        assert space.probability[space.index(faces)] == pytest.approx(count / 6**n, rel=1e-14)


def test_codes_add():
    space = dice_space(5)
    a, b = space.index((6, 2)), space.index((6, 5, 1))
    both = space.index((6, 6, 5, 2, 1))
    assert space.codes[a] + space.codes[b] == space.codes[both]
    assert space.faces(both) == (6, 6, 5, 2, 1)
    assert np.all(space.index_of_code[space.codes] == np.arange(len(space.codes)))
