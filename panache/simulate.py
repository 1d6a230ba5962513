"""Monte Carlo of turn rolls, attacks, exchanges and Master Panache attempts.

Each simulator cuts its ``n`` samples into chunks of ``chunk_size`` and runs the
chunks in parallel (``numba.prange``); chunk ``c`` draws from numba's generator
seeded with the ``c``-th child of the ``seed``'s SeedSequence. The output depends on
``seed`` and ``chunk_size`` only: the same on one thread or many, and the first
``k`` samples of a run of ``n`` are those of a run of ``k`` (same chunk size).

The chunks go to the kernels in batches that return to Python several times a second
(a tqdm bar with ``progress=True``, by default on a terminal; Ctrl-C between
batches); the batches do not change the samples. A run whose samples would not fit in
the memory available is refused first, unless ``allow_large=True``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from panache._kernels import (
    STEP_BITS,
    simulate_attacks_kernel,
    simulate_exchanges_kernel,
    simulate_turns_kernel,
)
from panache.attack import check_level, counter_flags
from panache.dice import dice_space
from panache.policy import TurnPolicy, policy_layout, tabulate_policy
from panache.rules import Rules
from panache.turn import solve_turn
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.seeding import check_count, chunk_seeds
from tabletop.validate import check_array_fields, check_fields

DEFAULT_CHUNK = 1 << 14

#: Exchanges are cut after this many attempts; P(more) = (5/6)**(n * 200) < 1e-15.
MAX_ATTEMPTS = 200


def _seeds(n: int, seed, chunk_size: int) -> np.ndarray:
    chunk_size = check_count("chunk_size", chunk_size, 1)
    return chunk_seeds(seed, -(-n // chunk_size))


def samples_size(what: str, n: int, per_sample: int) -> Estimate:
    """Memory of ``n`` samples of ``per_sample`` bytes, held twice while the batches
    are joined.

    Examples
    --------
    >>> samples_size("panache.simulate_turns", 1000, 8).nbytes
    16000
    """
    return Estimate(what, 2 * n * per_sample, {"n": n},
                    detail=f"{n:,} samples x {per_sample} bytes, twice")  # fmt: skip


def _batched(what: str, kernel, n: int, seed, chunk_size: int, per_sample: int, args: tuple,
             allow_large, progress) -> tuple:  # fmt: skip
    """``kernel(seeds, chunk_size, n, *args)``'s arrays for ``n`` samples, computed in
    batches of chunks (chunk ``c`` of a batch starting at chunk ``c0`` is chunk
    ``c0 + c`` of the run, with its seed and its samples) and joined."""
    from tabletop.validate import check_bool

    allow_large = check_bool("allow_large", allow_large)
    progress = show_progress(progress)
    check_memory(samples_size(what, n, per_sample), allow_large)  # before n's chunk seeds
    seeds = _seeds(n, seed, chunk_size)
    parts = []
    with progress_bar(n, what, progress, "sample") as bar:
        for c0, c1 in Chunks(len(seeds), first=numba.get_num_threads()):
            k = min(c1 * chunk_size, n) - c0 * chunk_size
            out = kernel(seeds[c0:c1], chunk_size, k, *args)
            parts.append(out if isinstance(out, tuple) else (out,))
            bar.update(k)
    if not parts:  # n = 0: the kernel's empty arrays
        out = kernel(seeds, chunk_size, 0, *args)
        parts.append(out if isinstance(out, tuple) else (out,))
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))


def policy_arrays(rules: Rules, policy: TurnPolicy) -> dict[str, np.ndarray | int]:
    """The packed step table the turn simulator reads for ``policy``.

    Holding the multiset ``a`` with ``m`` dice left, a roll of rank ``r`` among the
    rolls of ``m`` dice is entry ``table_offset[a] + r`` of the policy; it is found
    as ``base[a] + index_of_code[code]`` with ``base[a] = table_offset[a] -
    size_offset[m]``. Each entry packs the dice left afterwards with either the
    next ``base`` or, at the end, the total (less ``total_offset``, to stay >= 0).
    """
    space = dice_space(rules.n_dice)
    table_offset, entry_a, _ = policy_layout(rules.n_dice)
    left = rules.n_dice - space.sizes
    base = table_offset[:-1] - space.size_offset[left]
    value = space.counts @ rules.values
    total_offset = int(value[space.of_size(rules.n_dice)].min())
    after = space.index_of_code[space.codes[entry_a] + space.codes[policy.kept]]
    payload = np.where(left[after] > 0, base[after], value[after] - total_offset)
    return {
        "powers": np.ascontiguousarray(space.powers),
        "index_of_code": space.index_of_code.astype(np.int32),  # int32: fewer cache misses
        "first_offset": int(base[0]),
        "step": (payload << STEP_BITS) | left[after],
        "total_offset": total_offset,
    }


def simulate_turns(
    rules: Rules,
    policy: TurnPolicy | Callable,
    n: int,
    seed=None,
    chunk_size: int = DEFAULT_CHUNK,
    *,
    allow_large: bool = False,
    progress: bool | None = None,
) -> np.ndarray:
    """Totals of ``n`` turn rolls played under ``policy``.

    Parameters
    ----------
    rules : Rules
    policy : TurnPolicy or callable
        A tabulated policy (e.g. ``solve_turn(rules).policy``) or a callable
        ``f(set_aside, rolled) -> faces``, tabulated first.
    n : int
        Number of turn rolls.
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Samples per parallel chunk (part of what the seed reproduces).
    allow_large : bool
        Simulate even when the totals (:func:`samples_size`) exceed the memory
        available (default False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    numpy.ndarray
        ``int64`` totals, shape ``(n,)``.

    Examples
    --------
    >>> from panache import Rules, solve_turn
    >>> rules = Rules()
    >>> totals = simulate_turns(rules, solve_turn(rules).policy, 1000, seed=1)
    >>> totals.shape, bool(totals.min() >= -20 and totals.max() <= 5)
    ((1000,), True)
    """
    rules = Rules.check(rules, default=False)
    totals, _ = _simulate_turns(rules, policy, n, seed, chunk_size, allow_large, progress)
    return totals


def _simulate_turns(rules, policy, n, seed, chunk_size, allow_large=False, progress=None,
                    what="panache.simulate_turns"):  # fmt: skip
    """Totals and the number of dice thrown per chunk (for benchmarks)."""
    n = check_count("n", n)
    policy = tabulate_policy(rules.n_dice, policy)
    if policy.n_dice != rules.n_dice:
        raise ValueError(f"policy is for {policy.n_dice} dice, rules have n_dice={rules.n_dice}")
    arrays = policy_arrays(rules, policy)
    args = (rules.n_dice, arrays["powers"], arrays["index_of_code"], arrays["first_offset"],
            arrays["step"], arrays["total_offset"])  # fmt: skip
    return _batched(what, simulate_turns_kernel, n, seed, chunk_size, 8, args, allow_large,
                    progress)  # fmt: skip


def simulate_attacks(
    rules: Rules, level: int, n: int, seed=None, chunk_size: int = DEFAULT_CHUNK, *,
    allow_large: bool = False, progress: bool | None = None,
) -> np.ndarray:  # fmt: skip
    """Damage of ``n`` attacks at ``level`` (no counter-attacks): ``int64`` array.
    ``allow_large`` and ``progress`` as for :func:`simulate_turns`.

    Parameters
    ----------
    rules : Rules
    level : int
        Attack level (1..6): the face the attacker counts.
    n : int
        Number of attacks.
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Samples per parallel chunk (part of what the seed reproduces).
    allow_large, progress : bool
        As for :func:`simulate_turns`.

    Returns
    -------
    numpy.ndarray
        ``int64`` damage of each attack, shape ``(n,)``: ``level`` times the hits.

    Examples
    --------
    >>> d = simulate_attacks(Rules(), 3, 1000, seed=1)
    >>> d.shape, bool((d % 3 == 0).all() and d.max() <= 15)
    ((1000,), True)
    """
    rules = Rules.check(rules, default=False)
    level = check_level(level)
    n = check_count("n", n)
    (hits,) = _batched("panache.simulate_attacks", simulate_attacks_kernel, n, seed,
                       chunk_size, 8, (rules.n_dice, level), allow_large, progress)  # fmt: skip
    return level * hits


@dataclass(frozen=True, eq=False)
class ExchangeSamples:
    """Simulated exchanges: damage to each side and number of attempts, per exchange.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    target_damage, attacker_damage : numpy.ndarray of int
        Points lost by the target and by the attacker in each exchange (one of the two
        is 0; >= 0).
    attempts : numpy.ndarray of int
        Attack rolls in each exchange (the attack and every counter; >= 1). The three
        arrays are 1-D, of one length (the exchanges) and of an integer dtype.

    Examples
    --------
    >>> s = simulate_exchanges(Rules(), 3, 1000, seed=1)
    >>> bool(((s.target_damage == 0) | (s.attacker_damage == 0)).all())
    True
    >>> int(s.attempts.min())
    1
    """

    target_damage: np.ndarray
    attacker_damage: np.ndarray
    attempts: np.ndarray

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)
        check_array_fields(self, ("target_damage", "attacker_damage"), "int", low=0)
        check_array_fields(self, ("attempts",), "int", low=1, like="target_damage")


def simulate_exchanges(
    rules: Rules,
    level: int,
    n: int,
    counter="always",
    seed=None,
    chunk_size: int = DEFAULT_CHUNK,
    *,
    allow_large: bool = False,
    progress: bool | None = None,
) -> ExchangeSamples:
    """``n`` attack / counter-attack exchanges at ``level`` (see :func:`panache.exchange`).
    ``allow_large`` and ``progress`` as for :func:`simulate_turns`.

    Parameters
    ----------
    rules : Rules
    level : int
        Attack level (1..6).
    n : int
        Number of exchanges.
    counter : {"always", "never", "target_only"} or (bool, bool)
        Who counters, as for :func:`panache.exchange`.
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Samples per parallel chunk (part of what the seed reproduces).
    allow_large, progress : bool
        As for :func:`simulate_turns`.

    Returns
    -------
    ExchangeSamples

    Examples
    --------
    >>> s = simulate_exchanges(Rules(), 3, 1000, counter="never", seed=1)
    >>> int(s.attempts.max()), int(s.attacker_damage.sum())
    (1, 0)
    """
    rules = Rules.check(rules, default=False)
    level = check_level(level)
    n = check_count("n", n)
    target, attacker = counter_flags(rules, counter)
    # the kernel's three arrays, then the two damages and the attempts returned
    hits, victim, attempts = _batched(
        "panache.simulate_exchanges", simulate_exchanges_kernel, n, seed, chunk_size, 36,
        (rules.n_dice, level, target, attacker, MAX_ATTEMPTS), allow_large, progress,
    )  # fmt: skip
    damage = level * hits
    return ExchangeSamples(
        target_damage=np.where(victim == 0, damage, 0),
        attacker_damage=np.where(victim == 1, damage, 0),
        attempts=attempts,
    )


def simulate_mp_attempts(
    rules: Rules, n: int, seed=None, chunk_size: int = DEFAULT_CHUNK, *,
    allow_large: bool = False, progress: bool | None = None,
) -> np.ndarray:  # fmt: skip
    """Success (bool) of ``n`` Master Panache attempts played to maximise P(total = 0).
    ``allow_large`` and ``progress`` as for :func:`simulate_turns`.

    Parameters
    ----------
    rules : Rules
    n : int
        Number of attempts.
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Samples per parallel chunk (part of what the seed reproduces).
    allow_large, progress : bool
        As for :func:`simulate_turns`.

    Returns
    -------
    numpy.ndarray of bool
        Shape ``(n,)``: whether each attempt ended on a total of 0.

    Examples
    --------
    >>> from panache import mp_success
    >>> ok = simulate_mp_attempts(Rules(), 2000, seed=1)
    >>> p = mp_success(Rules())
    >>> bool(abs(ok.mean() - p) < 5 * (p * (1 - p) / ok.size) ** 0.5)
    True
    """
    rules = Rules.check(rules, default=False)
    policy = solve_turn(rules, "zero").policy
    totals, _ = _simulate_turns(rules, policy, n, seed, chunk_size, allow_large, progress,
                                "panache.simulate_mp_attempts")  # fmt: skip
    return totals == 0
