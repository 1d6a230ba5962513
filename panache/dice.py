"""Multisets of dice: enumeration, probabilities and integer codes.

Dice are exchangeable, so a roll of ``m`` dice is a multiset, stored as a vector
of six counts (how many dice show faces 1..6). There are ``C(m + 5, 5)`` multisets
of ``m`` dice (252 for five dice); a multiset ``c`` arises with the multinomial
probability ``m! / (c_1! ... c_6!) / 6**m``.

A multiset is coded as the integer ``sum_i c_i * B**i`` with base ``B = n + 1``, so
adding two multisets adds their codes; ``index_of_code`` maps a code to the
multiset's position in :attr:`DiceSpace.counts`, where the multisets of 0..n dice
are listed by size, then in lexicographic order of their counts.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from panache.rules import MAX_DICE, N_FACES
from tabletop.frozen import memoize, same_fields


def _compositions(m: int) -> list[tuple[int, ...]]:
    """All vectors of six non-negative counts summing to ``m``, lexicographically."""
    out = []
    for cut in itertools.combinations(range(m + N_FACES - 1), N_FACES - 1):
        bounds = (-1, *cut, m + N_FACES - 1)
        out.append(tuple(bounds[i + 1] - bounds[i] - 1 for i in range(N_FACES)))
    return sorted(out)


@dataclass(frozen=True, eq=False)
class DiceSpace:
    """Every multiset of 0..n dice, with codes and roll probabilities.

    Cached per ``n`` and shared: its arrays are read-only. ``==`` compares the arrays.

    Attributes
    ----------
    n : int
        Largest number of dice.
    counts : ndarray, shape (M, 6)
        The multisets (face counts), sizes 0..n in order.
    sizes : ndarray, shape (M,)
        Number of dice of each multiset.
    size_offset : ndarray, shape (n + 2,)
        Multisets of size m are ``counts[size_offset[m]:size_offset[m + 1]]``.
    codes : ndarray, shape (M,)
        Integer code of each multiset.
    powers : ndarray, shape (6,)
        ``B**i``, the code of one die showing face ``i + 1``.
    index_of_code : ndarray
        Position in ``counts`` of each code (-1 where no multiset has that code).
    probability : ndarray, shape (M,)
        Probability of each multiset as a roll of its own size.
    """

    n: int
    counts: np.ndarray
    sizes: np.ndarray
    size_offset: np.ndarray
    codes: np.ndarray
    powers: np.ndarray
    index_of_code: np.ndarray
    probability: np.ndarray

    __eq__ = same_fields

    def index(self, faces) -> int:
        """Position in ``counts`` of the multiset of ``faces`` (pips 1..6)."""
        code = int(sum(int(self.powers[f - 1]) for f in faces))
        return int(self.index_of_code[code])

    def faces(self, index: int) -> tuple[int, ...]:
        """The multiset at ``index`` as faces, highest first (as players read a roll)."""
        c = self.counts[index]
        return tuple(f + 1 for f in range(N_FACES - 1, -1, -1) for _ in range(c[f]))

    def of_size(self, m: int) -> slice:
        """Slice of the multisets of ``m`` dice."""
        return slice(int(self.size_offset[m]), int(self.size_offset[m + 1]))


@memoize(maxsize=MAX_DICE)
def dice_space(n: int) -> DiceSpace:
    """The :class:`DiceSpace` of 0..n dice (cached; arrays are read-only)."""
    if not 0 <= n <= MAX_DICE:
        raise ValueError(f"n must be 0..{MAX_DICE}, got {n}")
    rows = [c for m in range(n + 1) for c in _compositions(m)]
    counts = np.array(rows, dtype=np.int64).reshape(-1, N_FACES)
    sizes = counts.sum(axis=1)
    size_offset = np.searchsorted(sizes, np.arange(n + 2)).astype(np.int64)
    base = n + 1
    powers = base ** np.arange(N_FACES, dtype=np.int64)
    codes = counts @ powers
    index_of_code = np.full(base**N_FACES, -1, dtype=np.int64)
    index_of_code[codes] = np.arange(len(codes))
    # multinomial coefficient / 6**m in exact integers, rounded once to float
    probability = np.array(
        [
            math.factorial(int(m)) / math.prod(math.factorial(int(x)) for x in c) / 6 ** int(m)
            for c, m in zip(counts, sizes, strict=True)
        ],
        dtype=np.float64,
    )
    for array in (counts, sizes, size_offset, codes, powers, index_of_code, probability):
        array.setflags(write=False)
    return DiceSpace(n, counts, sizes, size_offset, codes, powers, index_of_code, probability)
