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
    other_rules : mapping
        A legal rules set that changes every knob from its default, for tests (the
        knobs round-trip through ``dataclasses.replace``, ``repr`` and the command line).
    out_of_range : mapping
        A value out of range for each knob where the type alone gives none (the tests
        try ``-10**9`` for an int, ``"nonsense"`` for a str, ``()`` for a tuple).
    sample : str
        Path of ``sample(rules, n_games, seed)``: the game's simulator on a fixed
        line-up at a small size, in small chunks, for tests (seeded results equal on
        any thread count).
    small_games : int
        Games of a ``sample`` run in tests.
    random_play : str or None
        Path of ``random_play(rules, seed) -> (reference, kernel)``: one random game
        played by the plain engine and by the numba kernels, as two records equal when
        they agree; None when the two cannot be fed the same draws.
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
    other_rules: Mapping = field(default_factory=dict)
    out_of_range: Mapping = field(default_factory=dict)
    sample: str = ""
    small_games: int = 256
    random_play: str | None = None

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

    def command_line(self):
        """The command line's ``main(argv=None) -> int`` (``python -m <name>``)."""
        return load(f"{self.name}.cli:main")

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
            other_rules={"n_dice": 4, "face_values": (-3, -2, -1, 0, 1, 2), "start_points": 20,
                         "n_players": 3, "first_round_gain": False, "counter_attacks": False,
                         "mp_stake_factor": 3, "mp_stake_cap": 10},
            sample="panache.game:sample_games",
            # the engine rolls Python's generator, the kernel numba's: the two are held to
            # the same law (tests/panache/test_engine.py), not to the same games
            random_play=None,
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
            other_rules={"radius": 2, "n_players": 3, "capital": 50, "payment": "winners",
                         "resolution": "basic", "bid_step": 5, "min_bid": 3, "max_rounds": 100},
            sample="citadel.simulate:sample_games",
            random_play="citadel.simulate:random_play",
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
            other_rules={"width": 4, "length": 4, "first": "white", "adjacency": "king",
                         "auto_death": True, "allow_pass": True, "no_repetition": True,
                         "win_on_arrival_only": True, "max_actions": 100, "horizon": 6},
            sample="samarra.simulate:sample_games",
            small_games=16,
            random_play="samarra.solve:random_play",
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
            other_rules={"n_players": 3, "stock_base": 7, "stock_per_player": 2,
                         "exchange_rates": ((6, 2), (0, 4)), "max_gold_per_transaction": 2,
                         "sale_price": "after", "win_gold": 12, "start_doublons": 6,
                         "start_gold": 1, "seven_seas": True, "explore_threshold": 4,
                         "pillage_gold": 2, "pillage_doublons": 3, "bankruptcy_cap": 5,
                         "recruit_gold": 2, "foreign_extra_gold": 3,
                         "recruit_gold_to_company": False, "tavern_size": 4, "hand_size": 5,
                         "launcher_bonus": 2,
                         "votes_by_rank": (("boatswain", 2), ("masters_mate", 1),
                                           ("lieutenant", 2), ("second", 3), ("captain", 5),
                                           ("governor", 4)),
                         "min_crew": 12, "min_territories": 12, "min_adventure": 40,
                         "majority_counts_independents": False},
            out_of_range={"exchange_rates": ((5, 1), (7, 2), (0, 3)),
                          "votes_by_rank": (("captain", -1),)},
            sample="commander.economy:sample_games",
            random_play="commander.economy:random_play",
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
