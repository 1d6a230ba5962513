"""One way to turn a user's ``seed=`` into random streams.

Every stochastic function of the library takes ``seed=None`` (an int, a
:class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`) and passes it
through :func:`as_seed_sequence`. Parallel work is cut into chunks of a fixed size;
chunk ``i`` is seeded by the ``i``-th child of ``SeedSequence.spawn``, so the numbers
depend on the seed and on the chunk size, never on the number of threads or workers.
"""

from __future__ import annotations

import numbers

import numpy as np

SeedLike = None | int | np.integer | np.random.SeedSequence | np.random.Generator


def as_seed_sequence(seed: SeedLike = None) -> np.random.SeedSequence:
    """Normalise a ``seed=`` argument to a :class:`numpy.random.SeedSequence`.

    Parameters
    ----------
    seed : None, int, SeedSequence or Generator
        ``None`` draws fresh entropy from the OS; a non-negative int or a
        SeedSequence gives reproducible streams; a Generator is advanced by one draw
        of 128 bits, which seed the returned sequence.

    Returns
    -------
    numpy.random.SeedSequence

    Examples
    --------
    >>> as_seed_sequence(0).entropy
    0
    """
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        words = seed.integers(0, 2**32, size=4, dtype=np.uint64)
        return np.random.SeedSequence([int(w) for w in words])
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"seed must be None, a non-negative int, a SeedSequence or a Generator, "
            f"got {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")
    return np.random.SeedSequence(int(seed))


def as_generator(seed: SeedLike = None) -> np.random.Generator:
    """A :class:`numpy.random.Generator` (PCG64) from any ``seed=`` argument.

    A Generator passed in is returned as it is, so callers share its stream.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))


def chunk_seeds(seed: SeedLike, n_chunks: int) -> np.ndarray:
    """32-bit seeds for ``n_chunks`` chunks of parallel work, one spawned child each.

    Numba kernels seed their per-thread generator with ``np.random.seed(s)`` at the
    start of each chunk, so a chunk's numbers do not depend on which thread runs it.

    Parameters
    ----------
    seed : seed-like
        See :func:`as_seed_sequence`.
    n_chunks : int
        Number of chunks.

    Returns
    -------
    numpy.ndarray
        ``uint32`` array of shape ``(n_chunks,)``.

    Examples
    --------
    >>> a = chunk_seeds(7, 3); b = chunk_seeds(7, 5)
    >>> bool((a == b[:3]).all())
    True
    """
    if isinstance(n_chunks, bool) or not isinstance(n_chunks, numbers.Integral) or n_chunks < 0:
        raise ValueError(f"n_chunks must be a non-negative int, got {n_chunks!r}")
    if n_chunks > 2**63 - 1:
        raise ValueError(f"n_chunks must fit in 64 bits, got {n_chunks}")
    children = as_seed_sequence(seed).spawn(int(n_chunks))
    return np.array([c.generate_state(1, np.uint32)[0] for c in children], dtype=np.uint32)


def check_count(name: str, value, minimum: int = 0) -> int:
    """Validate a count argument (``n``, ``chunk_size``...) and return it as ``int``
    (:func:`tabletop.validate.check_int` with no upper bound)."""
    from tabletop.validate import check_int

    return check_int(name, value, minimum)
