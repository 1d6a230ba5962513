"""The registry of games: one entry per game, found by name.

Each entry names its game's parts by module path (``"panache.rules:Rules"``) and
imports them only when asked, so ``tabletop`` imports no game at import time. The
balance card, ``compare``, the sweep's ``"<game>.balance"`` analysis and the tests
find games here; a fifth game is added by writing its package (with an
``analyses.py`` holding ``balance``, ``METRICS`` and ``VERDICT``) and one entry.

Examples
--------
>>> names()
('panache', 'citadel', 'samarra', 'commander')
>>> get("panache").rules_class().n_dice
5
>>> get("chess")
Traceback (most recent call last):
...
ValueError: game must be one of ('panache', 'citadel', 'samarra', 'commander'), got 'chess'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field


def load(path: str):
    """The object at ``"package.module:name"``, imported now."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"path must be 'package.module:name', got {path!r}")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Game:
    """One game's entry.

    Attributes
    ----------
    name : str
        Package name and command (``python -m <name>``).
    title : str
        The game's name in prose.
    description : str
        The command line's one-line description.
    rules : str
        Path of the frozen rules class.
    analyses : str
        Module with ``balance(rules=None, *, seed=0, ...)``, ``METRICS`` and
        ``VERDICT`` (``{"headlines": {metric: phrase}, "length": metric}``).
    solvers, simulators : mapping of str to str
        Paths of the exact solvers and of the simulators, by role.
    small_rules : mapping
        Knobs of a small rules set, for tests.
    small_balance : mapping
        ``balance`` options at small sizes, for tests.
    """

    name: str
    title: str
    description: str
    rules: str
    analyses: str
    solvers: Mapping[str, str] = field(default_factory=dict)
    simulators: Mapping[str, str] = field(default_factory=dict)
    small_rules: Mapping = field(default_factory=dict)
    small_balance: Mapping = field(default_factory=dict)

    def rules_class(self):
        """The rules class, imported."""
        return load(self.rules)

    def analyses_module(self):
        """The ``analyses`` module, imported."""
        return importlib.import_module(self.analyses)

    @property
    def balance(self):
        """The game's ``balance`` function."""
        return self.analyses_module().balance

    @property
    def metrics(self):
        """The game's card metrics (a tuple of :class:`tabletop.balance.Metric`)."""
        return self.analyses_module().METRICS

    @property
    def verdict(self) -> dict:
        """What the verdict speaks of: ``{"headlines": {...}, "length": metric}``."""
        return self.analyses_module().VERDICT

    def solver(self, role: str):
        """The exact solver of ``role``, imported."""
        return load(_pick(self.solvers, role, f"{self.name} solver"))

    def simulator(self, role: str):
        """The simulator of ``role``, imported."""
        return load(_pick(self.simulators, role, f"{self.name} simulator"))


def _pick(table: Mapping[str, str], role: str, what: str) -> str:
    if role not in table:
        raise ValueError(f"{what} role must be one of {tuple(table)}, got {role!r}")
    return table[role]


GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game(
            name="panache",
            title="Master Panache",
            description="Master Panache: exact odds, solved duels, simulations and variant sweeps.",
            rules="panache.rules:Rules",
            analyses="panache.analyses",
            solvers={"turn": "panache.turn:solve_turn", "duel": "panache.duel:solve_duel",
                     "three": "panache.three:solve_three",
                     "master_panache": "panache.master:mp_success"},
            simulators={"game": "panache.game:simulate_games",
                        "tournament": "panache.game:tournament",
                        "turn": "panache.simulate:simulate_turns"},
            small_rules={"n_dice": 3, "start_points": 6},
            small_balance={"n_games": 2000},
        ),
        Game(
            name="citadel",
            title="Master Citadel",
            description="Master Citadel: resolution, simulated games, the solved duel, "
                        "coalitions and variant sweeps.",
            rules="citadel.rules:Rules",
            analyses="citadel.analyses",
            solvers={"duel": "citadel.whole_game:solve_duel_game",
                     "sides": "citadel.coalitions:solve_sides",
                     "alliances": "citadel.coalitions:alliance_analysis"},
            simulators={"game": "citadel.simulate:simulate_games"},
            small_rules={"radius": 1, "capital": 10, "bid_step": 5},
            small_balance={"n_games": 2000, "duel_grid": 5, "coalition_grid": 10, "jobs": 1},
        ),
        Game(
            name="samarra",
            title="Ce soir, à Samarra",
            description="Ce soir, à Samarra: retrograde solve, setup game, played games "
                        "and variant sweeps.",
            rules="samarra.rules:Rules",
            analyses="samarra.analyses",
            solvers={"retrograde": "samarra.solve:solve", "setup": "samarra.setup:setup_game",
                     "horizon": "samarra.horizon:solve_horizon"},
            simulators={"games": "samarra.simulate:play_games"},
            small_rules={"length": 3},
            small_balance={"n_games": 20, "adjudication_horizon": 4},
        ),
        Game(
            name="commander",
            title="Master & Commander",
            description="Master & Commander: races, conflicts, deck checks, economies, sweeps.",
            rules="commander.rules:Rules",
            analyses="commander.analyses",
            solvers={"race": "commander.race:solve_race",
                     "round_trips": "commander.market:round_trips"},
            simulators={"economy": "commander.economy:simulate_economy"},
            small_rules={"win_gold": 6},
            small_balance={"n_games": 2000},
        ),
    )
}


def names() -> tuple[str, ...]:
    """The registered games, in registry order."""
    return tuple(GAMES)


def get(name: str) -> Game:
    """The entry of game ``name``."""
    if name not in GAMES:
        raise ValueError(f"game must be one of {names()}, got {name!r}")
    return GAMES[name]
