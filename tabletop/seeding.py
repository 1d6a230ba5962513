"""One way to turn a user's ``seed=`` into random streams.

Every stochastic function of the library takes ``seed=None`` (an int, a
:class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`) and passes it
through :func:`as_seed_sequence`. Parallel work is cut into chunks of a fixed size;
chunk ``i`` is seeded by the ``i``-th child of ``SeedSequence.spawn``, so the numbers
depend on the seed and on the chunk size, never on the number of threads or workers.

**A SeedSequence passed in is never advanced.** ``SeedSequence.spawn`` counts the
children it has handed out (``n_children_spawned``) and the next call starts after
them, so a function that spawned from the caller's object would give other numbers
when called again with the same object. :func:`as_seed_sequence` returns a copy (same
``entropy``, ``spawn_key``, ``pool_size`` and ``n_children_spawned``): the same object
passed twice gives the same numbers, and the numbers are those its next ``spawn``
would give.

**Chunk seeds without one object per chunk.** :func:`chunk_seeds` needs the first
32-bit word of each child's state. Spawning ``n`` children builds ``n`` Python objects
(about 470 MB and 20 s for a million chunks; ten million for ``10**10`` games in chunks
of 1024). Child ``i`` differs from its siblings only by the last entry of its
``spawn_key`` (one 32-bit word: numpy counts children in 32 bits), which
:class:`~numpy.random.SeedSequence` mixes into its pool after the words all children
share, with every pool word in turn (O'Neill's ``seed_seq`` hash, as numpy implements
it). So the shared words are mixed once, and the word of ``i`` is mixed in with
vectorised ``uint32`` arithmetic over blocks of children: 4 bytes per chunk plus a
fixed block of work (0.65 s and 40 MB for ten million chunks), identical to ``spawn``
word for word (checked against it on the first child of every call).

References
----------
M. E. O'Neill, "Developing a seed_seq Alternative", 2015,
https://www.pcg-random.org/posts/developing-a-seed_seq-alternative.html;
numpy ``numpy/random/bit_generator.pyx`` (``SeedSequence``).
"""

from __future__ import annotations

import numbers

import numpy as np

SeedLike = None | int | np.integer | np.random.SeedSequence | np.random.Generator

# the constants of numpy's SeedSequence (numpy/random/bit_generator.pyx)
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_MASK = 0xFFFFFFFF

#: Children a SeedSequence can spawn (numpy counts them in a ``uint32``).
_SPAWN_LIMIT = 1 << 32
#: Children whose seeds are computed together by :func:`chunk_seeds` (bounds its work memory).
_BLOCK = 1 << 20


def copy_seed_sequence(seq: np.random.SeedSequence) -> np.random.SeedSequence:
    """A new :class:`numpy.random.SeedSequence` in the state of ``seq``: spawning from it
    gives what ``seq.spawn`` would give now, and leaves ``seq`` as it is.

    Examples
    --------
    >>> import numpy as np
    >>> seq = np.random.SeedSequence(3)
    >>> a = copy_seed_sequence(seq).spawn(1)[0].generate_state(1)
    >>> b = copy_seed_sequence(seq).spawn(1)[0].generate_state(1)
    >>> bool((a == b).all()), seq.n_children_spawned
    (True, 0)
    """
    return np.random.SeedSequence(
        seq.entropy,
        spawn_key=seq.spawn_key,
        pool_size=seq.pool_size,
        n_children_spawned=seq.n_children_spawned,
    )


def as_seed_sequence(seed: SeedLike = None) -> np.random.SeedSequence:
    """Normalise a ``seed=`` argument to a :class:`numpy.random.SeedSequence`.

    Parameters
    ----------
    seed : None, int, SeedSequence or Generator
        ``None`` draws fresh entropy from the OS; a non-negative int or a
        SeedSequence gives reproducible streams (a SeedSequence is copied, never
        advanced: passing the same object twice gives the same numbers); a Generator
        is advanced by one draw of 128 bits, which seed the returned sequence.

    Returns
    -------
    numpy.random.SeedSequence
        A sequence of the caller's own: spawning from it changes nothing the caller holds.

    Examples
    --------
    >>> as_seed_sequence(0).entropy
    0
    """
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return copy_seed_sequence(seed)
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

    Parameters
    ----------
    seed : None, int, SeedSequence or Generator
        As for :func:`as_seed_sequence`.

    Returns
    -------
    numpy.random.Generator
        ``seed`` itself when it is a Generator, else a new PCG64 generator.

    Examples
    --------
    >>> int(as_generator(0).integers(10**6)) == int(as_generator(0).integers(10**6))
    True
    >>> g = as_generator(1)
    >>> as_generator(g) is g
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))


# ---- the children's first words, vectorised ------------------------------------------


def _int_words(value: int) -> list[int]:
    """A non-negative int as numpy's SeedSequence reads it: 32-bit words, low first."""
    if value < 0:
        raise ValueError(f"entropy words must be non-negative, got {value}")
    words = []
    while True:
        words.append(value & _MASK)
        value >>= 32
        if not value:
            return words


def _words(entropy) -> list[int] | None:
    """``entropy`` (an int, an array or a sequence of ints) as 32-bit words; None for a
    form this module does not read (then :func:`chunk_seeds` spawns instead)."""
    if isinstance(entropy, numbers.Integral) and not isinstance(entropy, bool):
        return _int_words(int(entropy))
    if isinstance(entropy, np.ndarray) and entropy.dtype == np.uint32:
        return [int(w) for w in entropy.ravel()]
    if isinstance(entropy, list | tuple | np.ndarray):
        words = []
        for item in entropy:
            if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                return None
            words.extend(_int_words(int(item)))
        return words
    return None


class _Hash:
    """The running multiplier of numpy's ``hashmix`` (advanced by every call)."""

    def __init__(self) -> None:
        self.const = _INIT_A

    def mix(self, value):
        """``hashmix`` of an int (exact) or of a ``uint32`` array (wrapping)."""
        const = self.const
        self.const = (self.const * _MULT_A) & _MASK
        if isinstance(value, np.ndarray):
            value = (value ^ np.uint32(const)) * np.uint32(self.const)
            return value ^ (value >> np.uint32(_XSHIFT))
        value = ((value ^ const) * self.const) & _MASK
        return value ^ (value >> _XSHIFT)


def _mix(x, y):
    """numpy's ``mix`` of two pool words (ints, or a ``uint32`` array and an array)."""
    if isinstance(y, np.ndarray):
        result = np.uint32(_MIX_MULT_L) * x - np.uint32(_MIX_MULT_R) * y
        return result ^ (result >> np.uint32(_XSHIFT))
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK
    return result ^ (result >> _XSHIFT)


def _shared_pool(entropy: list[int], pool_size: int) -> tuple[int, _Hash]:
    """Pool word 0 and the hash after mixing the words every child shares."""
    hasher = _Hash()
    pool = [hasher.mix(entropy[i] if i < len(entropy) else 0) for i in range(pool_size)]
    for src in range(pool_size):
        for dst in range(pool_size):
            if src != dst:
                pool[dst] = _mix(pool[dst], hasher.mix(pool[src]))
    for word in entropy[pool_size:]:
        for dst in range(pool_size):
            value = hasher.mix(word)
            if dst == 0:  # only word 0 reaches the first word of the state
                pool[0] = _mix(pool[0], value)
    return pool[0], hasher


def _child_states(shared: tuple[int, int], pool_size: int, index: np.ndarray) -> np.ndarray:
    """The first ``uint32`` of each child's ``generate_state``.

    ``shared`` is pool word 0 and the hash multiplier after the words all children
    share; ``index`` (``uint32``, shape ``(n_children,)``) holds each child's own last
    spawn-key entry, its one word (children are counted in 32 bits).
    """
    word0, const = shared
    hasher = _Hash()
    hasher.const = const
    pool0 = np.full(index.shape, word0, dtype=np.uint32)
    for dst in range(pool_size):
        value = hasher.mix(index)
        if dst == 0:
            pool0 = _mix(pool0, value)
    state = (pool0 ^ np.uint32(_INIT_B)) * np.uint32((_INIT_B * _MULT_B) & _MASK)
    return state ^ (state >> np.uint32(_XSHIFT))


def _fast_chunk_seeds(seq: np.random.SeedSequence, n_chunks: int) -> np.ndarray | None:
    """:func:`chunk_seeds` by vectorised mixing; None when ``seq`` holds a form of
    entropy this module does not read."""
    run = _words(seq.entropy)
    prefix = _words(seq.spawn_key)
    if run is None or prefix is None or seq.pool_size < 1:
        return None
    run = run + [0] * (seq.pool_size - len(run))  # numpy pads before a spawn key
    word0, hasher = _shared_pool(run + prefix, seq.pool_size)
    shared = (word0, hasher.const)
    first = int(seq.n_children_spawned)
    out = np.empty(n_chunks, dtype=np.uint32)
    for start in range(0, n_chunks, _BLOCK):
        stop = min(start + _BLOCK, n_chunks)
        index = np.arange(first + start, first + stop, dtype=np.uint32)
        out[start:stop] = _child_states(shared, seq.pool_size, index)
    return out


def chunk_seeds(seed: SeedLike, n_chunks: int) -> np.ndarray:
    """32-bit seeds for ``n_chunks`` chunks of parallel work, one spawned child each.

    Numba kernels seed their per-thread generator with ``np.random.seed(s)`` at the
    start of each chunk, so a chunk's numbers do not depend on which thread runs it.
    Seed ``i`` is ``seq.spawn(n_chunks)[i].generate_state(1, np.uint32)[0]`` with ``seq``
    from :func:`as_seed_sequence`, computed without building the children (see the
    module docstring): 4 bytes per chunk, under 0.1 µs each. The seeds of one call do
    not repeat (two chunks with one stream would be one sample counted twice):
    children of one SeedSequence differ only in their last spawn-key word, and their
    first state words were found distinct among the first 1,000,000 children of each
    seed tested, where independent 32-bit draws would repeat about 116 times
    (``tests/tabletop/test_seeding.py``).

    Parameters
    ----------
    seed : seed-like
        See :func:`as_seed_sequence` (a SeedSequence passed in is not advanced).
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
    n_chunks = int(n_chunks)
    seq = as_seed_sequence(seed)
    room = _SPAWN_LIMIT - int(seq.n_children_spawned)
    if n_chunks > room:
        raise ValueError(
            f"n_chunks must be at most {room} (a SeedSequence counts its children in 32 "
            f"bits), got {n_chunks}: use bigger chunks"
        )
    out = _fast_chunk_seeds(seq, n_chunks) if n_chunks else None
    if out is not None:
        check = copy_seed_sequence(seq).spawn(1)[0].generate_state(1, np.uint32)[0]
        if out[0] == check:
            return out
    # a form of entropy not read above: spawn, a block of children at a time
    out = np.empty(n_chunks, dtype=np.uint32)
    for start in range(0, n_chunks, _BLOCK):
        children = seq.spawn(min(_BLOCK, n_chunks - start))
        out[start : start + len(children)] = [c.generate_state(1, np.uint32)[0] for c in children]
    return out


def check_count(name: str, value, minimum: int = 0) -> int:
    """Validate a count argument (``n``, ``chunk_size``...) and return it as ``int``
    (:func:`tabletop.validate.check_int` with no upper bound)."""
    from tabletop.validate import check_int

    return check_int(name, value, minimum)
