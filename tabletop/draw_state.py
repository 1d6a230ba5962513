"""Save and restore the state of numba's per-thread generator inside a kernel.

A chunk of kernel work seeds its thread's Mersenne Twister with ``np.random.seed`` and
then draws from it (:mod:`tabletop.draws`). To stop such a chunk part-way and finish it
in a later call, possibly on another thread, the kernel saves the generator's state
into an array with :func:`save_draws` before it returns, and the next call loads it
back with :func:`load_draws`: the chunk then draws exactly the numbers it would have
drawn without the stop.

The state is numba's ``rnd_state_t`` (``numba/_random.c``): the index into the
twister's words, the 624 words, and the cached Gaussian (a flag and a double). Those
:data:`STATE_WORDS` 32-bit words are copied; the ``is_initialized`` flag after them is
left as it is (reading the thread's state pointer initialises it).
"""

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.cpython.randomimpl import get_state_ptr
from numba.extending import intrinsic

from tabletop.jit import jit

#: 32-bit words of the generator state copied: index, mt[624], has_gauss, gauss (2).
STATE_WORDS = 628


@intrinsic
def _np_state(typingctx):
    """Address of the calling thread's ``np.random`` state (numba's own accessor)."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(get_state_ptr(context, builder, "np"), cgutils.voidptr_t)

    return types.voidptr(), codegen


@jit
def save_draws(out):
    """Copy the thread's ``np.random`` state into ``out`` (``uint32``, STATE_WORDS)."""
    words = numba.carray(_np_state(), (STATE_WORDS,), np.uint32)
    out[:] = words


@jit
def load_draws(saved):
    """Make ``saved`` (from :func:`save_draws`) the thread's ``np.random`` state."""
    words = numba.carray(_np_state(), (STATE_WORDS,), np.uint32)
    words[:] = saved
