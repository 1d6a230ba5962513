"""Whole games in chunks that can stop after any round and go on in a later call.

:func:`citadel._kernels.simulate_games_kernel` plays each chunk of games to its end in
one call: with ``max_rounds`` up to 10**6 a single game can take seconds and a chunk
hours, out of reach of Ctrl-C. :func:`advance_games_kernel` plays the same games,
round for round and draw for draw, but gives each chunk a budget of rounds per call;
a chunk that runs out keeps its place (game, round, pawn, last orders, and the state
of its generator, :mod:`tabletop.draw_state`) in arrays that the next call reads. The
budget never changes what is played (tests hold the two kernels equal, game by game).

The kernel's arguments come in bundles (flat named tuples, as numba's parallel loops
take no nested ones): the rules, a :class:`citadel._kernels.GameRules`; the work
arrays of a batch of ``k`` chunks, a :class:`ChunkWork`, one row per chunk:

* ``where`` int64 ``(k, 2)``: the chunk's next game (``-1``: not started), and 1 while
  that game is under way;
* ``pos`` int64 ``(k, 4)``: the game's pawn x, y, rounds played, and 1 once a round
  has been played (the counter agent reads the last orders);
* ``orders`` int64 ``(k, 6, MAX_SEATS)`` and ``scratch`` int64 ``(k, 7, MAX_SEATS)``:
  the chunk's :class:`citadel._kernels.RoundWork`;
* ``draws`` uint32 ``(k, STATE_WORDS)``: the generator's state;

and the results of every game of the run, a :class:`GameOutputs`.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from citadel._kernels import MAX_SEATS, RoundWork, play_round
from tabletop.draw_state import STATE_WORDS, load_draws, save_draws
from tabletop.jit import parallel_jit


class ChunkWork(NamedTuple):
    """Where each chunk of a batch stands (see the module docstring for the shapes)."""

    where: np.ndarray
    pos: np.ndarray
    orders: np.ndarray
    scratch: np.ndarray
    draws: np.ndarray


class GameOutputs(NamedTuple):
    """The results of a run's ``n_games`` games, row ``g`` written when game ``g`` ends
    (shapes as returned by ``citadel._kernels.simulate_games_kernel``)."""

    scores: np.ndarray  # float64 (n_games, n)
    rounds: np.ndarray  # int64 (n_games,)
    caps: np.ndarray    # int64 (n_games, n), the final capitals
    pawn: np.ndarray    # int64 (n_games, 2), the pawn's final cell


def work_arrays(k: int) -> ChunkWork:
    """Fresh work arrays for a batch of ``k`` chunks."""
    where = np.zeros((k, 2), dtype=np.int64)
    where[:, 0] = -1
    return ChunkWork(where, np.zeros((k, 4), dtype=np.int64),
                     np.zeros((k, 6, MAX_SEATS), dtype=np.int64),
                     np.zeros((k, 7, MAX_SEATS), dtype=np.int64),
                     np.zeros((k, STATE_WORDS), dtype=np.uint32))  # fmt: skip


@parallel_jit
def advance_games_kernel(seeds, first_chunk, chunk_size, kinds, budget, work, out, rules):
    """Play on chunks ``first_chunk .. first_chunk + k - 1`` for at most ``budget``
    rounds each; return the number of games finished in this call.

    Chunk ``c`` (row ``c - first_chunk`` of ``seeds`` and of the :class:`ChunkWork`
    ``work``) holds games ``c * chunk_size`` up to ``(c + 1) * chunk_size`` (at most
    ``n_games``, the rows of the :class:`GameOutputs` ``out``); seat ``i`` is played by
    heuristic ``kinds[i]`` under the :class:`citadel._kernels.GameRules` ``rules``.
    """
    n = kinds.shape[0]
    where = work.where
    pos = work.pos
    draws = work.draws
    scores = out.scores
    rounds = out.rounds
    caps = out.caps
    pawn = out.pawn
    n_games = rounds.shape[0]
    capital = rules.capital
    smallest = rules.smallest
    max_rounds = rules.max_rounds
    k_chunks = seeds.shape[0]
    finished = np.zeros(k_chunks, dtype=np.int64)
    for k in prange(k_chunks):
        c = first_chunk + k
        end = min((c + 1) * chunk_size, n_games)
        g = where[k, 0]
        if g >= end:
            continue
        if g < 0:
            np.random.seed(seeds[k])  # noqa: NPY002 - numba's per-thread generator
            g = c * chunk_size
            playing = False
        else:
            load_draws(draws[k])
            playing = where[k, 1] == 1
        x = pos[k, 0]
        y = pos[k, 1]
        r = pos[k, 2]
        has_last = pos[k, 3] == 1
        left = budget
        done = 0
        wk = RoundWork(work.orders[k], work.scratch[k])
        while g < end and left > 0:
            cg = caps[g]
            sg = scores[g]
            if not playing:
                for i in range(n):
                    cg[i] = capital
                    sg[i] = 0.0
                x = 0
                y = 0
                r = 0
                has_last = False
                if capital < smallest:
                    rounds[g] = 0
                    pawn[g, 0] = 0
                    pawn[g, 1] = 0
                    g += 1
                    done += 1
                    continue
                playing = True
            while left > 0:
                x, y, over, alive = play_round(rules, kinds, x, y, has_last, cg, sg, wk)
                has_last = True
                r += 1
                left -= 1
                if over or r >= max_rounds or not alive:
                    rounds[g] = r
                    pawn[g, 0] = x
                    pawn[g, 1] = y
                    g += 1
                    done += 1
                    playing = False
                    break
        save_draws(draws[k])
        where[k, 0] = g
        where[k, 1] = 1 if playing else 0
        pos[k, 0] = x
        pos[k, 1] = y
        pos[k, 2] = r
        pos[k, 3] = 1 if has_last else 0
        finished[k] = done
    return finished.sum()
