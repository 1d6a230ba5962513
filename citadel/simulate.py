"""Monte Carlo of whole games between heuristic agents, on the numba fast path.

Games are cut into chunks of ``chunk_size``; chunk ``c`` draws from numba's
generator seeded with the ``c``-th child of the ``seed``'s SeedSequence, so the
output depends on ``seed`` and ``chunk_size`` only, never on the number of threads.
The loop is the one of ``citadel.game.play_game`` (tests hold the two against each
other game by game for the deterministic agents).

A game may last up to ``max_rounds`` (10**6) rounds, seconds of work on its own, so
the kernel (:mod:`citadel._game_chunks`) plays each chunk for a budget of rounds per
call and keeps its place, generator state included, for the next call: control comes
back to Python (Ctrl-C, the progress bar) about every ``CHUNK_SECONDS`` whatever the
length of the games, and the budgets never change the games played.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from citadel._game_chunks import GameOutputs, advance_games_kernel, work_arrays
from citadel._kernels import GameRules
from citadel.agents import AGENTS
from citadel.rules import Rules
from tabletop.budget import (
    CHUNK_SECONDS,
    Estimate,
    check_memory,
    interruptible,
    progress_bar,
    show_progress,
)
from tabletop.frozen import same_fields
from tabletop.seeding import check_count, chunk_seeds
from tabletop.stats import chi_square_test, estimate_mean
from tabletop.validate import check_array_fields, check_fields

if TYPE_CHECKING:
    import pandas as pd


DEFAULT_CHUNK = 1 << 12

#: Chunks played side by side in one kernel call, per numba thread.
BATCH_CHUNKS = 4

#: Rounds per chunk of a run's first kernel call; later calls aim at CHUNK_SECONDS.
FIRST_BUDGET = 1 << 12

#: Fewest rounds per chunk of a call.
MIN_BUDGET = 64
#: Most rounds per chunk of one call (far beyond any call's work; int64-safe).
MAX_BUDGET = 1 << 40


@dataclass(frozen=True, eq=False)
class GameSamples:
    """Simulated games.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    scores : numpy.ndarray
        ``(n, n_players)`` float: 1 for a win, 1/2 for a shared corner win, else 0.
    rounds : numpy.ndarray
        ``(n,)`` int: rounds played.
    capitals : numpy.ndarray
        ``(n, n_players)`` int: capital left at the end.
    pawn : numpy.ndarray
        ``(n, 2)`` int: the pawn's last cell.
    seats : tuple of str
        The seats' names, in seat order.
    agents : tuple of str
        The agent of each seat.

    Examples
    --------
    >>> games = simulate_games(Rules(radius=1, capital=10), "random", 100, seed=2)
    >>> games.scores.shape, games.agents, bool((games.capitals >= 0).all())
    ((100, 4), ('random', 'random', 'random', 'random'), True)
    >>> list(games.summary().index) == [*games.seats, "draw"]
    True
    """

    scores: np.ndarray
    rounds: np.ndarray
    capitals: np.ndarray
    pawn: np.ndarray
    seats: tuple[str, ...]
    agents: tuple[str, ...]

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)
        if not 2 <= len(self.seats) <= 4 or len(set(self.seats)) != len(self.seats) or \
                not set(self.seats) <= {"N", "E", "S", "W"}:  # fmt: skip
            raise ValueError(f"GameSamples.seats must name 2 to 4 distinct seats among N, E, S, "
                             f"W, got {self.seats!r}")  # fmt: skip
        seats = len(self.seats)
        check_array_fields(self, ("scores",), "float", ndim=2, columns=seats, low=0, high=1)
        check_array_fields(self, ("rounds",), "int", low=0, like="scores")
        check_array_fields(self, ("capitals",), "int", ndim=2, columns=seats, low=0,
                           like="scores")  # fmt: skip
        check_array_fields(self, ("pawn",), "int", ndim=2, columns=2, like="scores")
        if len(self.agents) != seats:
            raise ValueError(f"GameSamples.agents must name one agent per seat ({seats}), "
                             f"got {self.agents!r}")  # fmt: skip

    @property
    def draws(self) -> np.ndarray:
        """True where no seat won."""
        return self.scores.sum(axis=1) == 0

    def summary(self) -> pd.DataFrame:
        """Each seat's mean score with its standard error, and the draw rate.

        Rows: the seats, then ``draw``; columns ``agent``, ``mean`` and ``stderr``.
        """
        import pandas as pd

        rows = {}
        for i, seat in enumerate(self.seats):
            est = estimate_mean(self.scores[:, i])
            rows[seat] = (self.agents[i], est.mean, est.stderr)
        est = estimate_mean(self.draws.astype(float))
        rows["draw"] = ("", est.mean, est.stderr)
        frame = pd.DataFrame.from_dict(rows, orient="index", columns=["agent", "mean", "stderr"])
        return frame.rename_axis("seat")


def _agent_codes(agents, rules: Rules) -> np.ndarray:
    if isinstance(agents, str):
        agents = [agents] * rules.n_players
    if not hasattr(agents, "__iter__"):
        raise TypeError(f"agents must be an agent name or one name per seat, got {agents!r:.80}")
    agents = list(agents)
    if len(agents) != rules.n_players:
        raise ValueError(f"need {rules.n_players} agents (one per seat), got {len(agents)}")
    for i, name in enumerate(agents):
        if name not in AGENTS:
            raise ValueError(f"agents[{i}]: seat {rules.seats[i]} (#{i}): unknown agent "
                             f"{name!r}, use {AGENTS}")
    return np.array([AGENTS.index(a) for a in agents], dtype=np.int64)


def game_rules(rules: Rules) -> GameRules:
    """The rules as the bundle of plain values the game kernels read (built here once)."""
    homes = rules.homes
    seat_of_dir = np.full(8, -1, dtype=np.int64)
    seat_of_dir[homes] = np.arange(rules.n_players)
    return GameRules(
        radius=int(rules.radius),
        max_rounds=int(rules.max_rounds),
        capital=int(rules.capital),
        variant=rules.resolution == "variant",
        winners_pay=rules.payment == "winners",
        bid_step=int(rules.bid_step),
        min_bid=int(rules.min_bid),
        smallest=int(rules.smallest_bid),
        homes=np.ascontiguousarray(homes, dtype=np.int64),
        seat_of_dir=seat_of_dir,
    )


def kernel_arguments(rules: Rules) -> dict:
    """The rules as the game kernels' keyword argument: ``{"rules": game_rules(rules)}``."""
    return {"rules": game_rules(rules)}


def games_size(n_players: int, n: int) -> Estimate:
    """Memory of :func:`simulate_games`: per game, the scores (``float64``) and the
    capitals (``int64``) of every seat, the rounds and the pawn's cell, written in place
    by the kernel (the chunk seeds, 4 bytes per chunk, and the work arrays of a batch of
    chunks are small beside them).

    Examples
    --------
    >>> games_size(2, 1000).nbytes
    56000
    """
    per_game = 16 * n_players + 24
    return Estimate("citadel.simulate_games", n * per_game, {"n": n},
                    detail=f"{n:,} games x {per_game} bytes")  # fmt: skip


def _calls(n_chunks: int, chunk_size: int, n: int):
    """The kernel calls of a run: ``(c0, c1, work arrays)`` for each call on the batch of
    chunks ``c0 .. c1 - 1``, repeated until every game of the batch has ended (the
    caller's call between two items moves them on)."""
    width = BATCH_CHUNKS * numba.get_num_threads()
    for c0 in range(0, n_chunks, width):
        c1 = min(n_chunks, c0 + width)
        ends = np.minimum(np.arange(c0 + 1, c1 + 1) * chunk_size, n)
        work = work_arrays(c1 - c0)
        while (work.where[:, 0] < ends).any():
            yield c0, c1, work


def _next_budget(budget: int, spent: float) -> int:
    """Rounds per chunk of the next call: about CHUNK_SECONDS of work, at most doubling,
    and at most :data:`MAX_BUDGET` (calls that end early, their games done, would
    otherwise double it past what the kernel's integers hold)."""
    if spent <= 0:
        return min(2 * budget, MAX_BUDGET)
    return max(MIN_BUDGET, min(2 * budget, MAX_BUDGET, int(budget * CHUNK_SECONDS / spent)))


def simulate_games(
    rules: Rules,
    agents: str | Sequence[str],
    n: int,
    seed=None,
    chunk_size: int = DEFAULT_CHUNK,
    *,
    allow_large: bool = False,
    progress: bool | None = None,
) -> GameSamples:
    """Play ``n`` games between heuristic agents (``citadel.agents.AGENTS``).

    Parameters
    ----------
    rules : Rules
    agents : str or sequence of str
        One agent name per seat, or one name for every seat.
    n : int
        Number of games.
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Games per parallel chunk (part of what the seed reproduces).
    allow_large : bool
        Simulate even when the results (:func:`games_size`) exceed the memory
        available (default False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal). The kernel returns
        to Python several times a second, even inside one game of 10**6 rounds, so
        Ctrl-C stops long runs (many games, or a large ``max_rounds`` that lets games
        run long); where it stops does not change the games.

    Returns
    -------
    GameSamples

    Examples
    --------
    Two neighbours allied toward their corner against two straight players: the pair's
    merged order outbids every single order, four steps NE, a shared win.

    >>> games = simulate_games(Rules(), ["ally_cw", "ally_ccw", "straight", "straight"], 5)
    >>> games.scores[0].tolist(), games.rounds.tolist()
    ([0.5, 0.5, 0.0, 0.0], [4, 4, 4, 4, 4])
    """
    rules = Rules.check(rules, default=False)
    n = check_count("n", n, 1)
    chunk_size = check_count("chunk_size", chunk_size, 1)
    from tabletop.validate import check_bool

    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    kinds = _agent_codes(agents, rules)
    check_memory(games_size(rules.n_players, n), allow_large)
    n_chunks = -(-n // chunk_size)
    seeds = chunk_seeds(seed, n_chunks)
    table = game_rules(rules)
    out = GameOutputs(np.zeros((n, rules.n_players)), np.zeros(n, dtype=np.int64),
                      np.zeros((n, rules.n_players), dtype=np.int64),
                      np.zeros((n, 2), dtype=np.int64))  # fmt: skip
    budget = FIRST_BUDGET
    with progress_bar(n, "citadel games", progress, "game") as bar:
        for c0, c1, work in interruptible(_calls(n_chunks, chunk_size, n)):
            began = time.perf_counter()
            done = advance_games_kernel(seeds[c0:c1], c0, chunk_size, kinds, budget, work, out,
                                        table)  # fmt: skip
            spent = time.perf_counter() - began
            budget = _next_budget(budget, spent)
            bar.update(int(done))
    names = tuple(AGENTS[k] for k in kinds)
    return GameSamples(out.scores, out.rounds, out.caps, out.pawn, rules.seats, names)


def seat_balance(rules: Rules, agent: str, n: int, seed=None) -> dict:
    """Every seat plays ``agent``: each seat's mean score, draw rate, mean length, and the
    chi-square p-value of "every seat wins equally often", on the games won outright
    (shared corner wins, which count for two seats at once, are left out of the test).

    Parameters
    ----------
    rules : Rules
    agent : str
        One agent name of ``citadel.agents.AGENTS``, played by every seat.
    n : int
        Games (:func:`simulate_games`).
    seed : None, int, SeedSequence or Generator

    Returns
    -------
    dict
        ``"score by seat"`` (seat name -> mean score), ``"draw rate"``, ``"mean
        rounds"`` and ``"p (seats equal)"`` (NaN when no game was won outright).

    Examples
    --------
    >>> out = seat_balance(Rules(), "random", 2000, seed=3)
    >>> sorted(out) == ["draw rate", "mean rounds", "p (seats equal)", "score by seat"]
    True
    """
    rules = Rules.check(rules, default=False)
    if not isinstance(agent, str):
        raise TypeError(f"agent must be one agent name for every seat, got {agent!r:.80}")
    games = simulate_games(rules, agent, n, seed=seed)
    outright = (games.scores == 1.0).sum(axis=0)  # games each seat won alone
    k = rules.n_players
    p = chi_square_test(outright, np.full(k, 1.0 / k)) if outright.sum() > 0 else float("nan")
    return {
        "score by seat": dict(zip(rules.seats, games.scores.mean(axis=0).tolist(), strict=True)),
        "draw rate": float(games.draws.mean()),
        "mean rounds": float(games.rounds.mean()),
        "p (seats equal)": p,
    }


def random_play(rules: Rules, seed=None) -> tuple[tuple, tuple]:
    """One game played by the plain reference (:func:`citadel.game.play_game`) and by the
    numba kernel (:func:`simulate_games`), each seat's agent drawn at random among the
    deterministic agents (``"random"`` draws from different generators in the two).

    Returns
    -------
    reference, kernel : tuple
        ``(rounds, scores, final capitals, final pawn)``; equal when the two agree.

    Examples
    --------
    >>> reference, kernel = random_play(Rules(radius=1, capital=10), seed=1)
    >>> reference == kernel
    True
    """
    from citadel.agents import agent
    from citadel.game import play_game
    from tabletop.seeding import as_generator

    rng = as_generator(seed)
    deterministic = [a for a in AGENTS if a != "random"]
    names = [deterministic[int(i)] for i in rng.integers(0, len(deterministic), rules.n_players)]
    ref = play_game(rules, [agent(a) for a in names])
    sim = simulate_games(rules, names, 1, seed=0)
    reference = (ref.rounds, tuple(ref.scores), tuple(ref.final.capitals), tuple(ref.final.pawn))
    kernel = (int(sim.rounds[0]), tuple(sim.scores[0].tolist()),
              tuple(sim.capitals[0].tolist()), tuple(sim.pawn[0].tolist()))  # fmt: skip
    return reference, kernel


def sample_games(rules: Rules, n_games: int, seed=None) -> GameSamples:
    """``n_games`` games of random agents in chunks of 64 games: a small run whose
    results must not depend on the thread count (the checks over every game).

    Examples
    --------
    >>> sample_games(Rules(radius=1, capital=10), 100, seed=1).rounds.shape
    (100,)
    """
    return simulate_games(rules, "random", n_games, seed=seed, chunk_size=64)
