import numpy as np
import pytest

from tabletop.seeding import as_generator, as_seed_sequence, check_count, chunk_seeds


def test_seed_forms():
    assert as_seed_sequence(0).entropy == 0  # seed 0 is a seed, not "no seed"
    ss = np.random.SeedSequence(5)
    assert as_seed_sequence(ss) is ss
    gen = np.random.default_rng(1)
    assert as_generator(gen) is gen
    a = as_generator(3).integers(1 << 30, size=4)
    b = as_generator(3).integers(1 << 30, size=4)
    assert np.array_equal(a, b)
    assert as_seed_sequence(None).entropy != as_seed_sequence(None).entropy


def test_generator_seed_is_reproducible():
    x = as_seed_sequence(np.random.default_rng(9)).generate_state(2)
    y = as_seed_sequence(np.random.default_rng(9)).generate_state(2)
    assert np.array_equal(x, y)


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (1.5, TypeError),
                                             (True, TypeError), ("7", TypeError)])  # fmt: skip
def test_bad_seeds(seed, error):
    with pytest.raises(error, match="seed"):
        as_seed_sequence(seed)


def test_chunk_seeds_prefix_and_spread():
    a = chunk_seeds(7, 100)
    assert a.dtype == np.uint32
    assert np.array_equal(a[:10], chunk_seeds(7, 10))
    assert len(set(a.tolist())) == 100
    assert not np.array_equal(a, chunk_seeds(8, 100))


def test_check_count():
    assert check_count("n", 3) == 3
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        check_count("n", 0, minimum=1)
    with pytest.raises(TypeError, match="n must be an int"):
        check_count("n", 1.0)
