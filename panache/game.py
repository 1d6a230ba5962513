"""Whole games of Master Panache by simulation, for 2 to 12 players or more.

:func:`simulate_games` plays ``n_games`` games with one :class:`panache.Agent` per
seat (seat 0 plays first) in a numba kernel, in parallel chunks seeded from one
SeedSequence; :func:`tournament` rotates the seats so that every agent plays from
every seat, and reports win rates with Wilson confidence intervals.

The number of seats is the rules' ``n_players`` (the rules are the game played), and
the agents must fill them: one agent per seat, or a ``ValueError`` naming ``agents``.
``n_players`` reads the same here as everywhere else in the rules: the players at
the table, the default 2 a two-player game. The one solver that reads it otherwise is
:func:`panache.solve_three`, whose game is three players by definition, so that there
the default 2 reads as "not set"; the game tables it gives the simulator
(:func:`three_tables`) serve any table of three or more players.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from panache._game_kernels import (
    N_STATS,
    DuelTables,
    GameTables,
    Knobs,
    ThreeTables,
    TurnTables,
    simulate_games_kernel,
)
from panache.agents import TURN_POLICIES, Agent
from panache.duel import max_points, solve_duel
from panache.policy import human_policy
from panache.rules import Rules
from panache.simulate import policy_arrays
from panache.three import solve_three, three_size
from panache.turn import solve_turn
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import freeze, memoize, same_fields
from tabletop.seeding import check_count, chunk_seeds
from tabletop.stats import proportion_ci
from tabletop.validate import check_array_fields, check_fields

if TYPE_CHECKING:
    import pandas as pd


STAT_NAMES = (
    "turns", "attacks", "counters", "hits", "mp_announced", "mp_won",
    "out_by_roll", "out_by_attack", "out_by_mp_hit", "out_by_mp_failed",
)  # fmt: skip
assert len(STAT_NAMES) == N_STATS


@dataclass(frozen=True, eq=False)
class GameResults:
    """Simulated games.

    Built anew by each call: its arrays and DataFrame are the caller's own and may be
    written. ``==`` compares values.

    Attributes
    ----------
    winners : ndarray of int
        Winning seat of each game (-1: stopped after 100 000 turns).
    elimination_order : ndarray, shape (n_games, n_players)
        Seats in order of elimination; the last column is the winner.
    stats : pandas.DataFrame
        Per game: ``turns``, ``attacks``, ``counters`` (counter-attack attempts),
        ``hits`` (attacks or counters that hit), ``mp_announced``, ``mp_won``, and
        eliminations by cause (``out_by_roll``, ``out_by_attack``, ``out_by_mp``; the
        last split into ``out_by_mp_hit``, the target of a Master Panache that
        succeeded, and ``out_by_mp_failed``, an announcer whose attempt failed).
    agents : tuple of Agent
        The agent of each seat.

    Examples
    --------
    >>> from panache import Agent, Rules, simulate_games
    >>> res = simulate_games(Rules(), [Agent.heuristic(), Agent.random()], 200, seed=1)
    >>> res.winners.shape, res.elimination_order.shape
    ((200,), (200, 2))
    >>> bool((res.elimination_order[:, -1] == res.winners).all())
    True
    """

    winners: np.ndarray
    elimination_order: np.ndarray
    stats: pd.DataFrame
    agents: tuple

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)
        seats = len(self.agents)
        check_array_fields(self, ("winners",), "int", low=-1, high=seats - 1)
        check_array_fields(self, ("elimination_order",), "int", ndim=2, columns=seats, low=-1,
                           high=seats - 1, like="winners")  # fmt: skip

    def win_rates(self, level: float = 0.95) -> pd.DataFrame:
        """Win rate of each seat with its Wilson confidence interval."""
        import pandas as pd

        n = self.winners.size
        rows = []
        for seat, agent in enumerate(self.agents):
            wins = int((self.winners == seat).sum())
            low, high = proportion_ci(wins, n, level)
            rows.append((seat, agent.name, wins / n, low, high))
        frame = pd.DataFrame(rows, columns=["seat", "agent", "win_rate", "ci_low", "ci_high"])
        return frame.set_index("seat")


@memoize(maxsize=16)
def _turn_steps(rules: Rules, utility: str) -> np.ndarray:
    return policy_arrays(rules, solve_turn(rules, utility).policy)["step"]


class _PolicyBank:
    """Turn policies as the kernel's ``steps`` rows, each distinct one stored once
    (told apart by a 256-bit digest of the row, not a copy of it)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.steps: list[np.ndarray] = []
        self._seen: dict[bytes, int] = {}

    def index_of(self, utility) -> int:
        step = policy_arrays(self.rules, solve_turn(self.rules, utility).policy)["step"]
        key = hashlib.blake2b(np.ascontiguousarray(step)).digest()
        if key not in self._seen:
            self._seen[key] = len(self.steps)
            self.steps.append(step)
        return self._seen[key]


@memoize(maxsize=8)
def duel_tables(rules: Rules) -> dict:
    """The solved duel as the arrays the game kernel reads (cached per rules).

    Turn policies of the states are deduplicated; ``policy`` holds an index into
    ``steps`` per (my points, opponent's points). Each call returns a new dict of the
    shared, read-only arrays.
    """
    import dataclasses

    sol = solve_duel(dataclasses.replace(rules, n_players=2))  # the two-player endgame
    top = max_points(rules)
    shape = (top + 1, top + 1)
    policy = np.zeros(shape, dtype=np.int64)
    attack = np.zeros((*shape, 7), dtype=np.bool_)
    target_counters = np.zeros((*shape, 7), dtype=np.bool_)
    attacker_counters = np.zeros((*shape, 7), dtype=np.bool_)
    stake = np.zeros(shape, dtype=np.int64)
    bank = _PolicyBank(rules)
    index_of = bank.index_of

    for a in range(1, top + 1):
        for b in range(1, top + 1):
            d = sol.decisions(a, b)
            attack[a, b, 1:] = d["attack"]
            target_counters[a, b, 1:] = d["target_counters"]
            attacker_counters[a, b, 1:] = d["attacker_counters"]
            stake[a, b] = d["mp_stake"]
            policy[a, b] = index_of(sol.turn_utility(a, b).to_numpy())
    first = index_of(sol.round1_utility().to_numpy())
    second = np.zeros(top + 1, dtype=np.int64)
    for p1 in sol.round1.index:
        second[p1] = index_of(sol.round1_utility(int(p1)).to_numpy())
    return {
        "steps": np.stack(bank.steps),
        "duel_policy": policy,
        "duel_attack": attack,
        "duel_tc": target_counters,
        "duel_ac": attacker_counters,
        "duel_stake": stake,
        "duel_r1_first": first,
        "duel_r1_second": second,
    }


#: Bytes per state of the game tables beside the turn policies: two plans' policy,
#: Master Panache target and stake (3 x 2 x 8), attack targets (2 x 7 x 8), both
#: counter chances (2 x 7 x 2 x 8) and the first plan's chance (8).
TABLE_STATE_BYTES = 392

#: Distinct turn policies per state, an upper figure: 30,790 for the 64,000 states of
#: the default rules (0.48), fewer at small sizes (0.08 at 6 start points, 3 dice).
POLICY_SHARE = 0.5

#: Wall seconds per state of :func:`three_tables` (about 40 s at the default rules).
TABLE_STATE_SECONDS = 6.3e-4


def three_tables_size(rules: Rules) -> Estimate:
    """Memory and time of :func:`three_tables` from the rules: the three-player solve
    (:func:`panache.three.three_size`), :data:`TABLE_STATE_BYTES` per state, and the
    distinct turn policies (:data:`POLICY_SHARE` per state), each a row of ``int64``
    steps held twice (the list and its stacked array).

    Examples
    --------
    >>> est = three_tables_size(Rules())
    >>> round(est.nbytes / 1e9, 1), round(est.seconds / 60)
    (2.3, 8)
    """
    top = max_points(rules)
    states = (top + 1) ** 3
    steps = _turn_steps(rules, "ev").size
    policies = int(POLICY_SHARE * states)
    solve = three_size(rules)
    nbytes = solve.nbytes + TABLE_STATE_BYTES * states + policies * steps * 8 * 2
    return Estimate("panache three-player game tables", nbytes,
                    {"start_points": rules.start_points, "n_dice": rules.n_dice},
                    solve.seconds + states * TABLE_STATE_SECONDS,
                    detail=f"{states:,} states, up to {policies:,} turn policies of "
                           f"{steps:,} steps")  # fmt: skip


@memoize(maxsize=4)
def three_tables(rules: Rules, *, allow_large: bool = False,
                 progress: bool | None = None) -> dict:  # fmt: skip
    """The solved three-player game as the arrays the game kernel reads (cached per
    rules): per state (mover's, next's, last's points) the turn policy, the target
    attacked per level (0: none), the chance of each counter per level and target, the
    Master Panache target and stake; the round-1 policies of the three seats.
    Each call returns a new dict of the shared, read-only arrays.

    Every state's decisions are the mover's best reply to the solved values
    (:meth:`panache.ThreeSolution.decisions`). Takes about 40 s at the default
    rules (64,000 states) and holds about 1 GB: 30,790 distinct turn policies of
    4,116 ``int64`` steps each. Where the solution mixes two plans
    (:attr:`panache.ThreeSolution.mixed`) the tables hold both (leading axis: plan 0,
    plan 1) and ``three_first`` the chance of plan 0 (1 elsewhere, where plan 1 is a
    copy of plan 0).

    Tables that would not fit in the memory available (:func:`three_tables_size`) are
    refused with a ``MemoryError`` before any work, unless ``allow_large=True``; a bar
    shows the progress (``progress``, default: when stderr is a terminal).
    """
    import dataclasses

    progress = show_progress(progress)
    check_memory(three_tables_size(rules), allow_large)
    # the three-player endgame; rules of 2 or 3 players go as they are, so that the
    # solve cached for them is the one reused
    sol = solve_three(rules if rules.n_players <= 3 else dataclasses.replace(rules, n_players=3),
                      allow_large=allow_large, progress=progress)  # fmt: skip
    top = max_points(rules)
    shape = (top + 1, top + 1, top + 1)
    bank = _PolicyBank(rules)
    policy = np.zeros((2, *shape), dtype=np.int64)
    attack = np.zeros((2, *shape, 7), dtype=np.int64)
    # the chance of countering: 0 or 1, or between where an exchange mixes (ThreeSolution.held)
    target_counters = np.zeros((*shape, 7, 2))
    attacker_counters = np.zeros((*shape, 7, 2))
    mp_target = np.zeros((2, *shape), dtype=np.int64)
    stake = np.zeros((2, *shape), dtype=np.int64)
    first_chance = np.ones(shape)
    with progress_bar(top**3, "panache three-player tables", progress, "state") as bar:
        for a in range(1, top + 1):
            for b in range(1, top + 1):
                for c in range(1, top + 1):
                    plans = sol.plans(a, b, c)
                    first_chance[a, b, c] = plans[0][0]
                    for k, (_, after, d) in enumerate(plans * 2 if len(plans) == 1 else plans):
                        attack[k, a, b, c, 1:] = d["attack"]
                        mp_target[k, a, b, c] = d["mp_target"]
                        stake[k, a, b, c] = d["mp_stake"]
                        policy[k, a, b, c] = bank.index_of(after["mover"].to_numpy())
                    # the exchanges' counters: the same in both plans (no jump at a mix)
                    target_counters[a, b, c, 1:] = plans[0][2]["target_counters"]
                    attacker_counters[a, b, c, 1:] = plans[0][2]["attacker_counters"]
            bar.update(top * top)
    first = bank.index_of(sol.round1_utility(0).to_numpy())
    second = np.zeros(top + 1, dtype=np.int64)
    third = np.zeros((top + 1, top + 1), dtype=np.int64)
    for (p0,) in sol.round1_points(1):
        second[p0] = bank.index_of(sol.round1_utility(1, (p0,)).to_numpy())
    for p0, p1 in sol.round1_points(2):
        third[p0, p1] = bank.index_of(sol.round1_utility(2, (p0, p1)).to_numpy())
    return {
        "steps": np.stack(bank.steps),
        "three_policy": policy,
        "three_attack": attack,
        "three_tc": target_counters,
        "three_ac": attacker_counters,
        "three_mp_target": mp_target,
        "three_stake": stake,
        "three_first": first_chance,
        "three_r1_first": first,
        "three_r1_second": second,
        "three_r1_third": third,
    }


def _two(rules: Rules) -> Rules:
    """``rules`` with two players: the key of the caches of what the seat count does not
    change (the turn policies, the solved duel), so that tables of every size share them."""
    import dataclasses

    return rules if rules.n_players == 2 else dataclasses.replace(rules, n_players=2)


def _kernel_inputs(rules: Rules, agents, allow_large: bool = False,
                   progress=None) -> tuple[GameTables, np.ndarray]:
    """The game kernel's tables and the agents' rows: the turn policies the agents
    play, the solved duel's and three-player game's tables when an agent reads them
    (one-entry stand-ins of the same types otherwise)."""
    import dataclasses

    two = _two(rules)  # the turn policies and the duel do not depend on the seat count
    arrays = policy_arrays(two, solve_turn(two, "ev").policy)
    named = [_turn_steps(two, name) for name in (*TURN_POLICIES, "zero")]
    policy_ids = {name: i for i, name in enumerate(TURN_POLICIES)}
    for name in sorted({a.turn_policy for a in agents} - set(TURN_POLICIES)):
        policy_ids[name] = len(named)  # a human rule of thumb (panache.HUMAN_POLICIES)
        named.append(policy_arrays(two, human_policy(two, name))["step"])
    top = max_points(rules)
    kinds = {a.kind for a in agents}
    blocks = [np.stack(named)]
    offset = len(named)
    if kinds & {"duel", "three"}:
        tables = duel_tables(two)
        blocks.append(tables["steps"])
        duel = DuelTables(tables["duel_policy"] + offset, tables["duel_attack"],
                          tables["duel_tc"], tables["duel_ac"], tables["duel_stake"],
                          tables["duel_r1_first"] + offset, tables["duel_r1_second"] + offset)
        offset += len(blocks[-1])
    else:  # no agent reads them: one-entry stand-ins of the kernel's array types
        duel = DuelTables(np.zeros((1, 1), dtype=np.int64), np.zeros((1, 1, 7), dtype=np.bool_),
                          np.zeros((1, 1, 7), dtype=np.bool_), np.zeros((1, 1, 7), dtype=np.bool_),
                          np.zeros((1, 1), dtype=np.int64), 0, np.zeros(1, dtype=np.int64))
    if "three" in kinds:
        # one set of tables (and one solve) for every table of three or more players
        three_rules = rules if rules.n_players <= 3 else dataclasses.replace(rules, n_players=3)
        tables = three_tables(three_rules, allow_large=allow_large, progress=progress)
        blocks.append(tables["steps"])
        three = ThreeTables(
            tables["three_policy"] + offset, tables["three_attack"], tables["three_tc"],
            tables["three_ac"], tables["three_mp_target"], tables["three_stake"],
            tables["three_first"], tables["three_r1_first"] + offset,
            tables["three_r1_second"] + offset, tables["three_r1_third"] + offset)
    else:  # no agent reads them: one-entry stand-ins, not (top + 1)³ tables of zeros
        shape = (1, 1, 1)
        three = ThreeTables(
            np.zeros((2, *shape), dtype=np.int64), np.zeros((2, *shape, 7), dtype=np.int64),
            np.zeros((*shape, 7, 2)), np.zeros((*shape, 7, 2)),
            np.zeros((2, *shape), dtype=np.int64), np.zeros((2, *shape), dtype=np.int64),
            np.ones(shape), 0, np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64))
    knobs = Knobs(rules.n_dice, rules.values.copy(), rules.start_points, rules.first_round_gain,
                  rules.counter_attacks, rules.mp_stake_factor, rules.mp_stake_cap or 0, top)
    turn = TurnTables(arrays["powers"], arrays["index_of_code"], arrays["first_offset"],
                      arrays["total_offset"], np.ascontiguousarray(np.concatenate(blocks)),
                      len(TURN_POLICIES))
    rows = np.array([a.row(policy_ids) for a in agents], dtype=np.int64)
    # every array read-only: numba types a read-only array apart from a writable one and
    # would compile the game kernels (a minute of processor time from a cold cache) once
    # per mix, as tables from a cached solve are read-only and the stand-ins are not
    return freeze(GameTables(knobs, turn, duel, three)), rows


def check_agents(rules: Rules, agents, *, option: str | None = None) -> tuple:
    """``agents`` as a tuple of :class:`panache.Agent`, one per seat of ``rules``.

    The seat count is ``rules.n_players``: a sequence of another length is refused
    (a ``ValueError`` naming ``agents``, the count received and ``rules.n_players``),
    never played as a game of another size.

    Parameters
    ----------
    rules : Rules
        The rules of the game; ``rules.n_players`` is the number of seats.
    agents : sequence of Agent
        One per seat, seat 0 first.
    option : str, optional
        The command-line option the agents came from (``"--agents"``): the message then
        names it and ``--n-players`` instead of ``agents`` and ``rules.n_players``.

    Returns
    -------
    tuple of Agent

    Examples
    --------
    >>> len(check_agents(Rules(n_players=3), [Agent.random()] * 3))
    3
    >>> check_agents(Rules(), [Agent.random()])
    Traceback (most recent call last):
    ...
    ValueError: agents: need 2 agents (rules.n_players=2), got 1
    >>> check_agents(Rules(), [Agent.random()] * 3, option="--agents")
    Traceback (most recent call last):
    ...
    ValueError: --agents: need 2 agents (--n-players 2), got 3; for a game of 3 players ...
    """
    if isinstance(agents, str) or not hasattr(agents, "__iter__"):
        raise TypeError(f"agents must be a sequence of panache.Agent, got {agents!r:.80}")
    agents = tuple(agents)
    for seat, agent in enumerate(agents):
        if not isinstance(agent, Agent):
            raise TypeError(f"agents[{seat}] must be a panache.Agent, got {type(agent).__name__}")
    n, k = rules.n_players, len(agents)
    if k != n:
        if option is None:
            name, seats, fix = "agents", f"rules.n_players={n}", \
                f"dataclasses.replace(rules, n_players={k})"  # fmt: skip
        else:
            name, seats, fix = option, f"--n-players {n}", f"--n-players {k}"
        hint = f"; for a game of {k} players pass {fix}" if 2 <= k <= 999 else ""
        raise ValueError(f"{name}: need {n} agents ({seats}), got {k}{hint}")
    return agents


def games_size(n_players: int, n_games: int) -> Estimate:
    """Memory of :func:`simulate_games`' results: per game the winner, the order out and
    the statistics (``int64``), held twice while the batches are joined, and the
    statistics' DataFrame.

    Examples
    --------
    >>> games_size(2, 1000).nbytes
    296000
    """
    per_game = 2 * 8 * (1 + n_players + N_STATS) + 8 * (N_STATS + 1)
    return Estimate("panache.simulate_games", n_games * per_game, {"n_games": n_games},
                    detail=f"{n_games:,} games x {per_game} bytes")  # fmt: skip


def simulate_games(
    rules: Rules, agents, n_games: int, seed=None, chunk_size: int = 1024, *,
    allow_large: bool = False, progress: bool | None = None,
) -> GameResults:  # fmt: skip
    """Play ``n_games`` games, seat ``i`` played by ``agents[i]``; seat 0 starts.

    The number of seats is ``rules.n_players``: ``agents`` must hold exactly that
    many (a ``ValueError`` naming ``agents`` otherwise); for a table of ``k`` players
    pass ``dataclasses.replace(rules, n_players=k)``. Results (:func:`games_size`) or
    three-player tables (:func:`three_tables_size`) that would not fit in the memory
    available are refused with a ``MemoryError`` before any work, unless
    ``allow_large=True``. The chunks of ``chunk_size`` games run in batches that return
    to Python several times a second (a bar when ``progress``, default: when stderr is
    a terminal; Ctrl-C between batches); the batches do not change the games.

    Parameters
    ----------
    rules : Rules
        The rules of the game; ``rules.n_players`` is the number of seats.
    agents : sequence of Agent
        One per seat: ``rules.n_players`` of them.
    n_games : int
        Games to play (>= 1).
    seed : None, int, SeedSequence or Generator
    chunk_size : int
        Games per parallel chunk (part of what the seed reproduces).
    allow_large : bool
        Simulate even when the results exceed the memory available.
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    GameResults
        The winner, the order of elimination and the statistics of every game.

    Raises
    ------
    ValueError
        If ``len(agents)`` is not ``rules.n_players``, or ``n_games`` or ``chunk_size``
        is below 1.
    TypeError
        If ``rules`` is not a ``panache.Rules`` or an agent is not a ``panache.Agent``.
    MemoryError
        If the results or tables do not fit in the memory available (and not
        ``allow_large``).

    Examples
    --------
    >>> from panache import Agent, Rules
    >>> res = simulate_games(Rules(), [Agent.heuristic(), Agent.random()], 2000, seed=1)
    >>> bool(res.win_rates().loc[0, "win_rate"] > 0.5)
    True
    >>> four = simulate_games(Rules(n_players=4), [Agent.heuristic()] * 4, 100, seed=1)
    >>> four.elimination_order.shape
    (100, 4)
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    agents = check_agents(rules, agents)
    n_games = check_count("n_games", n_games, 1)
    chunk_size = check_count("chunk_size", chunk_size, 1)
    allow_large = check_bool("allow_large", allow_large)
    progress = show_progress(progress)
    check_memory(games_size(len(agents), n_games), allow_large)
    if any(a.kind == "three" for a in agents):  # before the duel's tables are built
        check_memory(three_tables_size(rules), allow_large)
    n_chunks = -(-n_games // chunk_size)
    seeds = chunk_seeds(seed, n_chunks)
    tables, rows = _kernel_inputs(rules, agents, allow_large, progress)
    parts = []
    with progress_bar(n_games, "panache games", progress, "game") as bar:
        # chunk c of a batch starting at chunk c0 is chunk c0 + c of the run: its seed
        # and its games
        for c0, c1 in Chunks(n_chunks, first=numba.get_num_threads()):
            games = min(c1 * chunk_size, n_games) - c0 * chunk_size
            parts.append(simulate_games_kernel(seeds[c0:c1], chunk_size, games, *tables, rows))
            bar.update(games)
    winners, orders, stats = (
        parts[0][i] if len(parts) == 1 else np.concatenate([p[i] for p in parts])
        for i in range(3)
    )
    frame = pd.DataFrame(stats, columns=list(STAT_NAMES))
    frame.insert(frame.columns.get_loc("out_by_mp_hit"), "out_by_mp",
                 frame["out_by_mp_hit"] + frame["out_by_mp_failed"])  # fmt: skip
    frame.index.name = "game"
    return GameResults(winners, orders, frame, agents)


def tournament(rules: Rules, agents, n_games: int, seed=None, *, allow_large: bool = False,
               progress: bool | None = None) -> pd.DataFrame:  # fmt: skip
    """Win rate of each agent over every rotation of the seats.

    ``n_games`` games are played from each of the ``rules.n_players`` rotations, each
    rotation on its own child seed. Returns, per agent, its games, wins, win rate
    and 95% Wilson interval, and its win rate from each seat. Agents that share a
    name are told apart by their place in ``agents``: ``"random #1"``, ``"random #2"``.
    ``allow_large`` and ``progress`` are those of :func:`simulate_games`.

    Parameters
    ----------
    rules : Rules
        The rules of the game; ``rules.n_players`` is the number of seats.
    agents : sequence of Agent
        One per seat (``rules.n_players`` of them); every rotation of them is played.
    n_games : int
        Games per rotation (>= 1).
    seed : None, int, SeedSequence or Generator
    allow_large, progress : bool
        As for :func:`simulate_games`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``agent``: ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``
        and ``seat_0``, ``seat_1``... (the win rate from each seat).

    Examples
    --------
    >>> from panache import Agent, Rules
    >>> t = tournament(Rules(), [Agent.heuristic(), Agent.random()], 200, seed=1)
    >>> t["games"].tolist(), int(t["wins"].sum())
    ([400, 400], 400)
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    agents = check_agents(rules, agents)
    n_games = check_count("n_games", n_games, 1)
    k = len(agents)
    seeds = np.random.SeedSequence(chunk_seeds(seed, 1)[0]).spawn(k)
    wins = np.zeros(k, dtype=np.int64)
    by_seat = np.zeros((k, k))
    for shift in range(k):
        seating = [agents[(i + shift) % k] for i in range(k)]
        res = simulate_games(rules, seating, n_games, seed=seeds[shift],
                             allow_large=allow_large, progress=progress)
        for seat in range(k):
            who = (seat + shift) % k
            w = int((res.winners == seat).sum())
            wins[who] += w
            by_seat[who, seat] = w / n_games
    total = n_games * k
    names = [a.name for a in agents]
    names = [f"{n} #{names[:i + 1].count(n)}" if names.count(n) > 1 else n
             for i, n in enumerate(names)]  # fmt: skip
    rows = []
    for i in range(k):
        low, high = proportion_ci(int(wins[i]), total)
        row = {"agent": names[i], "games": total, "wins": int(wins[i]),
               "win_rate": wins[i] / total, "ci_low": low, "ci_high": high}  # fmt: skip
        row.update({f"seat_{s}": by_seat[i, s] for s in range(k)})
        rows.append(row)
    return pd.DataFrame(rows).set_index("agent")


def sample_games(rules: Rules, n_games: int, seed=None) -> GameResults:
    """``n_games`` games of ``rules.n_players`` rule-of-thumb agents (one of them random
    when there are three or more seats), in chunks of 64 games: a small run whose
    results must not depend on the thread count (the checks over every game).

    Examples
    --------
    >>> sample_games(Rules(n_dice=3, start_points=6), 100, seed=1).winners.shape
    (100,)
    """
    agents = [Agent.heuristic()] * rules.n_players
    if rules.n_players >= 3:
        agents[-1] = Agent.random()
    return simulate_games(rules, agents, n_games, seed=seed, chunk_size=64)
