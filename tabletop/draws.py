"""Exact uniform draws inside numba kernels.

:func:`randbelow` returns an integer uniform on ``[0, k)`` by Lemire's
nearly-divisionless method (D. Lemire, "Fast random integer generation in an
interval", ACM TOMACS 29(1), 2019): a 32-bit word ``x`` gives ``(x * k) >> 32``,
rejected only when the low half of the product falls below ``2**32 mod k``, so
the result is exactly uniform and a die costs one 32-bit word almost always
(``np.random.randint(0, 6)`` rejects a quarter of its 3-bit draws).

Words come from numba's per-thread Mersenne Twister, which kernels seed with
``np.random.seed`` at the start of each chunk of work (see ``tabletop.seeding``).
"""

import numpy as np

from tabletop.jit import jit

_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


@jit(inline="always")
def randbelow(k):
    """An integer uniform on ``[0, k)``, for ``1 <= k <= 2**32``."""
    k64 = np.uint64(k)
    product = np.uint64(np.random.randint(0, 4294967296)) * k64
    low = product & _LOW32
    if low < k64:
        threshold = (np.uint64(4294967296) - k64) % k64
        while low < threshold:
            product = np.uint64(np.random.randint(0, 4294967296)) * k64
            low = product & _LOW32
    return np.int64(product >> _SHIFT)


@jit(inline="always")
def roll_die():
    """A fair die as a face index 0..5 (face = index + 1)."""
    return randbelow(6)
