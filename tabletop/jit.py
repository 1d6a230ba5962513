"""Numba options, defined once for every kernel of every game.

``cache=True`` writes compiled machine code next to the sources so that a second
process (a test run, a notebook kernel, CI's second step) does not compile again.
``nopython`` is numba's default: a kernel that would need object mode fails loudly.
"""

import functools

import numba

#: Serial kernels.
jit = functools.partial(numba.njit, cache=True, nogil=True)

#: Kernels with ``numba.prange`` loops.
parallel_jit = functools.partial(numba.njit, cache=True, nogil=True, parallel=True)
