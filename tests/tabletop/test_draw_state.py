"""Saving numba's generator state in one kernel call and loading it in another."""

import numba
import numpy as np

from tabletop.draw_state import STATE_WORDS, load_draws, save_draws
from tabletop.draws import randbelow


@numba.njit
def _first(seed, k, state):
    np.random.seed(seed)  # noqa: NPY002 - numba's per-thread generator
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = randbelow(1000)
    save_draws(state)
    return out


@numba.njit
def _rest(state, k):
    load_draws(state)
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = randbelow(1000)
    return out


@numba.njit
def _other(seed):
    np.random.seed(seed)  # noqa: NPY002
    return randbelow(10)


def test_draws_go_on_where_they_were_saved_whatever_ran_between():
    whole = _first(11, 1500, np.zeros(STATE_WORDS, dtype=np.uint32))
    state = np.zeros(STATE_WORDS, dtype=np.uint32)
    head = _first(11, 700, state)  # past the twister's 624 words: one refill inside
    _other(3)  # another seeding of the thread's generator in between
    tail = _rest(state, 800)
    assert np.array_equal(np.concatenate([head, tail]), whole)
