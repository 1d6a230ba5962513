"""The empirical game over honest heuristics: which behaviours, alliances included, are stable.

Each seat chooses one heuristic of ``citadel.agents.AGENTS`` (or a given subset) for the
whole game. For every profile of choices (one per seat, all ``k ** n_players`` of them,
so every seating is played) ``n`` games are simulated; seat i's payoff is its mean
score. The resulting n-player normal-form game is solved approximately by regret
matching (``citadel.stage.regret_matching``) and its exploitability measured exactly
on the estimated payoffs. An alliance is a behaviour here: two neighbours playing
``ally_cw`` and ``ally_ccw`` write the same order and merge, and whether that pair
survives in equilibrium is what the game says.

Profile ``p`` (in ``itertools.product`` order) is simulated with the ``p``-th child of
the ``seed``'s SeedSequence, so the tensor depends on the seed only.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from citadel.agents import AGENTS
from citadel.rules import Rules
from citadel.simulate import simulate_games
from citadel.stage import RegretResult, regret_matching
from tabletop.frozen import same_fields
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.validate import check_fields

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, eq=False)
class EmpiricalGame:
    """Mean scores of every profile of heuristics.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
    agents : tuple of str
        The heuristics each seat may choose.
    payoffs : list of numpy.ndarray
        ``payoffs[i][a_1, ..., a_n]``: seat i's mean score when seat j plays
        ``agents[a_j]``.
    stderr : list of numpy.ndarray
        Standard errors of those means.
    n : int
        Games per profile (>= 1).

    ``payoffs`` and ``stderr`` hold one float array per seat, each of shape
    ``(len(agents),) * n_players``; the standard errors are >= 0.

    Examples
    --------
    >>> game = empirical_game(Rules(n_players=2, radius=1), 50, ["straight", "saver"], seed=0)
    >>> game.agents, len(game.payoffs), game.payoffs[1].shape, game.n
    (('straight', 'saver'), 2, (2, 2), 50)
    >>> game.strategies_table(game.solve(100)).index.tolist()
    ['N', 'S']
    """

    rules: Rules
    agents: tuple[str, ...]
    payoffs: list
    stderr: list
    n: int

    def __post_init__(self):
        check_fields(self, n=(1, None))
        shape = (len(self.agents),) * self.rules.n_players
        for field in ("payoffs", "stderr"):
            tables = getattr(self, field)
            if len(tables) != self.rules.n_players:
                raise ValueError(f"EmpiricalGame.{field} must hold one array per seat "
                                 f"({self.rules.n_players}), got {len(tables)}")  # fmt: skip
            for seat, table in enumerate(tables):
                name = f"EmpiricalGame.{field}[{seat}]"
                if not isinstance(table, np.ndarray) or table.dtype.kind != "f":
                    raise TypeError(f"{name} must be a float numpy.ndarray, got "
                                    f"{type(table).__name__}")  # fmt: skip
                if table.shape != shape:
                    raise ValueError(f"{name} must have shape {shape} (one entry per "
                                     f"profile of agents), got {table.shape}")  # fmt: skip
                if field == "stderr" and not (table >= 0).all():
                    raise ValueError(f"{name} must hold finite values >= 0, got "
                                     f"{table.tolist()!r:.80}")  # fmt: skip

    __eq__ = same_fields

    def solve(self, iterations: int = 5000) -> RegretResult:
        """Regret matching on the estimated payoffs (see ``citadel.stage.regret_matching``)."""
        return regret_matching(self.payoffs, iterations)

    def strategies_table(self, result: RegretResult) -> pd.DataFrame:
        """Each seat's mixed choice of heuristic: rows seats, columns heuristics."""
        import pandas as pd

        return pd.DataFrame(
            np.array(result.strategies),
            index=pd.Index(self.rules.seats, name="seat"),
            columns=pd.Index(self.agents, name="heuristic"),
        )


def empirical_game(rules: Rules, n: int, agents=AGENTS, seed=None) -> EmpiricalGame:
    """Simulate ``n`` games for every profile of ``agents`` (one per seat).

    Parameters
    ----------
    rules : Rules
    n : int
        Games per profile, at least 2 (for the standard errors).
    agents : sequence of str
        The heuristics each seat may choose, names of ``citadel.agents.AGENTS``
        (default all of them).
    seed : None, int, SeedSequence or Generator
        Each profile's games are seeded by its own child of the seed's SeedSequence.

    Returns
    -------
    EmpiricalGame
        ``len(agents) ** n_players`` profiles, each simulated by
        :func:`citadel.simulate_games`.

    Examples
    --------
    >>> game = empirical_game(Rules(n_players=2, radius=1), 50, ["straight", "saver"], seed=0)
    >>> game.payoffs[0].shape, float(game.payoffs[0][0, 1])  # straight N vs saver S
    ((2, 2), 0.0)
    """
    rules = Rules.check(rules, default=False)
    n = check_count("n", n, 2)
    if isinstance(agents, str) or not hasattr(agents, "__iter__"):
        raise TypeError(f"agents must be a sequence of agent names, got {agents!r}")
    agents = tuple(agents)
    if not agents:
        raise ValueError(f"agents must name at least one agent of {AGENTS}, got none")
    for i, name in enumerate(agents):
        if not isinstance(name, str) or name not in AGENTS:
            raise ValueError(f"agents[{i}]: unknown agent {name!r}, use one of {AGENTS}")
    k, m = len(agents), rules.n_players
    shape = (k,) * m
    payoffs = [np.zeros(shape) for _ in range(m)]
    stderr = [np.zeros(shape) for _ in range(m)]
    children = as_seed_sequence(seed).spawn(k**m)
    for child, profile in zip(children, itertools.product(range(k), repeat=m), strict=True):
        games = simulate_games(rules, [agents[a] for a in profile], n, seed=child)
        means = games.scores.mean(axis=0)
        errors = games.scores.std(axis=0, ddof=1) / np.sqrt(n)
        for i in range(m):
            payoffs[i][profile] = means[i]
            stderr[i][profile] = errors[i]
    return EmpiricalGame(rules, agents, payoffs, stderr, n)
