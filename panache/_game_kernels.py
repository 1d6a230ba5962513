"""Numba kernels of whole Master Panache games with pluggable agents. Private.

An agent is a row of small integer parameters (see ``panache.agents``); a game is
played turn by turn as docs/rules.md says, each random draw from the thread's
generator. The kernels do no validation: ``panache.game`` builds their inputs.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from panache._kernels import _attack_chain, play_random_turn, play_turn, stake_ceiling
from tabletop.draws import randbelow
from tabletop.jit import jit, parallel_jit

# agent kinds
RANDOM = 0
HEURISTIC = 1
DUEL = 2
THREE = 3
# agent parameter columns
KIND, TARGET, MIN_LEVEL, COUNTER, MP_RULE, POLICY = 0, 1, 2, 3, 4, 5
# target rules
LEADER, WEAKEST, RANDOM_TARGET = 0, 1, 2
# Master Panache rules of heuristic agents
MP_NEVER, MP_WHEN_AHEAD, MP_ALWAYS = 0, 1, 2
# statistics columns
# OUT_MP: the target of a Master Panache that succeeded; OUT_MP_FAILED: its announcer,
# when it failed
(TURNS, ATTACKS, COUNTERS, HITS, MPS, MP_WINS, OUT_ROLL, OUT_ATTACK, OUT_MP, OUT_MP_FAILED) = range(
    10
)
N_STATS = 10
#: A game still running after this many turns is stopped with no winner.
MAX_TURNS = 100_000


class Knobs(NamedTuple):
    """The rules' numbers a game reads."""

    n: int                 # dice
    values: np.ndarray     # (6,) the faces' values
    start_points: int
    first_round_gain: bool
    counters_allowed: bool
    stake_factor: int      # Master Panache stake ceiling: factor x points, capped
    stake_cap: int         # 0: no cap
    top: int               # points are clipped to ``top`` when tables are read


class TurnTables(NamedTuple):
    """Turn policies: ``steps[k]`` is policy ``k`` (the layout of
    :func:`panache.policy.policy_arrays`), ``mp_policy`` the one a Master Panache
    attempt plays."""

    powers: np.ndarray
    index_of_code: np.ndarray
    first_offset: np.ndarray
    total_offset: np.ndarray
    steps: np.ndarray
    mp_policy: int


class DuelTables(NamedTuple):
    """The solved duel per (my points, opponent's points) (:func:`panache.game.duel_tables`)."""

    policy: np.ndarray     # index into TurnTables.steps
    attack: np.ndarray     # (.., 7) attack at each level
    tc: np.ndarray         # (.., 7) the target counters
    ac: np.ndarray         # (.., 7) the attacker counters back
    stake: np.ndarray      # Master Panache stake (0: none)
    r1_first: int          # round-1 policy of the first seat
    r1_second: np.ndarray  # round-1 policy of the second seat, by the first's points


class ThreeTables(NamedTuple):
    """The solved three-player game per (mover's, next's, last's points), two plans on
    the leading axis where the mover mixes (:func:`panache.game.three_tables`)."""

    policy: np.ndarray
    attack: np.ndarray
    tc: np.ndarray         # (.., 7, 2) chance the target counters, by target side
    ac: np.ndarray         # likewise, the attacker countering back
    mp_target: np.ndarray
    stake: np.ndarray
    first: np.ndarray      # chance of plan 0
    r1_first: int
    r1_second: np.ndarray
    r1_third: np.ndarray


class GameTables(NamedTuple):
    """Everything a game reads but its agents' rows, as the kernels' four leading
    arguments (``*tables``: numba's parallel loops take flat tuples only, not nested
    ones)."""

    knobs: Knobs
    turn: TurnTables
    duel: DuelTables
    three: ThreeTables


@jit
def _pick_target(me, rule, points, alive, n_players):
    """The other live player chosen by ``rule``; ties go to the first clockwise."""
    best = -1
    count = 0
    for step in range(1, n_players):
        j = (me + step) % n_players
        if not alive[j]:
            continue
        count += 1
        if (
            best < 0
            or (rule == LEADER and points[j] > points[best])
            or (rule == WEAKEST and points[j] < points[best])
        ):
            best = j
    if rule == RANDOM_TARGET and count > 1:
        pick = randbelow(count)
        for step in range(1, n_players):
            j = (me + step) % n_players
            if alive[j]:
                if pick == 0:
                    return j
                pick -= 1
    return best


@jit
def _next_alive(me, alive, n_players):
    """The next live player clockwise after ``me``."""
    for step in range(1, n_players):
        j = (me + step) % n_players
        if alive[j]:
            return j
    return me


@jit
def _rivals(me, points, alive, n_players):
    """The two opponents a three-player agent plays against, clockwise from ``me``:
    the two live ones with the most points (ties: the first clockwise)."""
    first = -1
    second = -1
    for step in range(1, n_players):
        j = (me + step) % n_players
        if not alive[j]:
            continue
        if first < 0 or points[j] > points[first]:
            second = first
            first = j
        elif second < 0 or points[j] > points[second]:
            second = j
    # clockwise order from me
    if (first - me) % n_players > (second - me) % n_players:
        first, second = second, first
    return first, second


@jit
def _clip(p, top):
    return min(max(p, 1), top)


@jit
def _max_stake(points, factor, cap):
    """The largest legal (even) stake."""
    top = stake_ceiling(points, factor, cap)
    return top - top % 2


@jit
def _counters(agent, me, exchange, points, alive, n_alive, duel, three, top):
    """Whether player ``me`` answers a failed attempt in ``exchange``, the
    ``(attacker, target, level)`` of an attack."""
    attacker, target, level = exchange
    n_players = alive.shape[0]
    duel_tc, duel_ac = duel.tc, duel.ac
    three_tc, three_ac = three.tc, three.ac
    kind = agent[KIND]
    if kind == RANDOM:
        return randbelow(2) == 1
    if kind == HEURISTIC:
        return agent[COUNTER] == 1
    a = _clip(points[attacker], top)
    if kind == THREE and n_alive == 3:
        nxt = _next_alive(attacker, alive, n_players)
        last = _next_alive(nxt, alive, n_players)
        b = _clip(points[nxt], top)
        c = _clip(points[last], top)
        side = 0 if target == nxt else 1
        chance = three_tc[a, b, c, level, side] if me == target else three_ac[a, b, c, level, side]
        # a mixed counter draws; a pure one draws nothing (the streams stay the same)
        return chance >= 1.0 or (chance > 0.0 and np.random.random() < chance)
    b = _clip(points[target], top)
    if me == target:
        return duel_tc[a, b, level]
    return duel_ac[a, b, level]


@jit
def play_game(knobs, turn, duel, three, agents, order, stats):
    """Play one game; fill ``order`` (seats in order of elimination, the winner
    last) and ``stats``; return the winner (-1 if the game hit ``MAX_TURNS``).

    The three-player tables have a leading axis of two plans: a state's mover plays
    plan 0 with chance ``three_first`` (1 where it does not mix) and plan 1 otherwise,
    drawn at the start of its turn. The four leading arguments are a
    :class:`GameTables`; ``agents`` holds one row per seat."""
    n, values, start_points, first_round_gain, counters_allowed, stake_factor, stake_cap, top = (
        knobs)
    powers, index_of_code, first_offset, total_offset, steps, mp_policy = turn
    duel_policy, duel_attack, _, _, duel_stake, duel_r1_first, duel_r1_second = duel
    (three_policy, three_attack, _, _, three_mp_target, three_stake, three_first,
     three_r1_first, three_r1_second, three_r1_third) = three
    n_players = agents.shape[0]
    points = np.full(n_players, start_points, dtype=np.int64)
    alive = np.ones(n_players, dtype=np.bool_)
    played = np.zeros(n_players, dtype=np.bool_)
    n_alive = n_players
    n_out = 0
    me = 0
    stats[:] = 0
    while n_alive > 1 and stats[TURNS] < MAX_TURNS:
        stats[TURNS] += 1
        agent = agents[me]
        kind = agent[KIND]
        first_turn = not played[me]
        played[me] = True
        plan = 0  # the three-player plan of this turn
        # -- the turn roll
        if kind == RANDOM:
            total = play_random_turn(n, values)
        else:
            policy = agent[POLICY]
            if kind == DUEL or (kind == THREE and n_alive == 2 and not first_turn):
                other = _pick_target(me, LEADER, points, alive, n_players)
                if first_turn and n_players == 2:
                    if played[other]:
                        policy = duel_r1_second[_clip(points[other], top)]
                    else:
                        policy = duel_r1_first
                elif not first_turn:
                    policy = duel_policy[_clip(points[me], top), _clip(points[other], top)]
            elif kind == THREE and first_turn and n_players == 3:
                if me == 0:
                    policy = three_r1_first
                elif me == 1:  # if seat 0 is out, seat 1 opens a duel
                    policy = three_r1_second[_clip(points[0], top)] if alive[0] else duel_r1_first
                elif alive[0] and alive[1]:
                    policy = three_r1_third[_clip(points[0], top), _clip(points[1], top)]
                else:  # a duel where seat 2 answers the round-1 turn of the other
                    policy = duel_r1_second[_clip(points[0] if alive[0] else points[1], top)]
            elif kind == THREE and not first_turn:
                nxt, last = _rivals(me, points, alive, n_players)
                a, b, c = _clip(points[me], top), _clip(points[nxt], top), _clip(points[last], top)
                chance = three_first[a, b, c]
                # a mixing state draws its plan; a pure one draws nothing
                if chance < 1.0 and not np.random.random() < chance:
                    plan = 1
                policy = three_policy[plan, a, b, c]
            total = play_turn(n, powers, index_of_code, first_offset, steps[policy], total_offset)
        # -- what the total does
        victim = -1
        cause = OUT_ROLL
        if total < 0:
            points[me] += total
            victim = me
        elif first_turn:
            if total > 0 and first_round_gain:
                points[me] += total
        elif total > 0:
            level = min(total, 6)
            if kind == RANDOM:
                target = _pick_target(me, RANDOM_TARGET, points, alive, n_players)
                attack = randbelow(2) == 1
            elif kind == HEURISTIC:
                target = _pick_target(me, agent[TARGET], points, alive, n_players)
                attack = level >= agent[MIN_LEVEL]
            elif kind == THREE and n_alive >= 3:
                nxt, last = _rivals(me, points, alive, n_players)
                choice = three_attack[plan, _clip(points[me], top), _clip(points[nxt], top),
                                      _clip(points[last], top), level]  # fmt: skip
                target = nxt if choice == 1 else last
                attack = choice > 0
            else:
                target = _pick_target(me, LEADER, points, alive, n_players)
                attack = duel_attack[_clip(points[me], top), _clip(points[target], top), level]
            if attack:
                stats[ATTACKS] += 1
                roller, other = me, target
                while True:
                    hits = _attack_chain(n, level)
                    if hits > 0:
                        stats[HITS] += 1
                        points[other] -= level * hits
                        victim = other
                        cause = OUT_ATTACK
                        break
                    if not counters_allowed or not _counters(
                        agents[other], other, (me, target, level), points, alive, n_alive,
                        duel, three, top,
                    ):  # fmt: skip
                        break
                    stats[COUNTERS] += 1
                    roller, other = other, roller
        else:  # total == 0, after round 1: a Master Panache may be announced
            stake = 0
            if kind == RANDOM:
                target = _pick_target(me, RANDOM_TARGET, points, alive, n_players)
                top_stake = _max_stake(points[me], stake_factor, stake_cap)
                if top_stake >= 2 and randbelow(2) == 1:
                    stake = 2 + 2 * randbelow(top_stake // 2)
            elif kind == HEURISTIC:
                target = _pick_target(me, agent[TARGET], points, alive, n_players)
                rule = agent[MP_RULE]
                if rule == MP_ALWAYS or (rule == MP_WHEN_AHEAD and points[me] > points[target]):
                    stake = _max_stake(points[me], stake_factor, stake_cap)
            elif kind == THREE and n_alive >= 3:
                nxt, last = _rivals(me, points, alive, n_players)
                a, b, c = _clip(points[me], top), _clip(points[nxt], top), _clip(points[last], top)
                target = nxt if three_mp_target[plan, a, b, c] == 1 else last
                stake = three_stake[plan, a, b, c]
            else:
                target = _pick_target(me, LEADER, points, alive, n_players)
                stake = duel_stake[_clip(points[me], top), _clip(points[target], top)]
            if stake > 0:
                stats[MPS] += 1
                attempt = play_turn(n, powers, index_of_code, first_offset, steps[mp_policy],
                                    total_offset)  # fmt: skip
                if attempt == 0:
                    stats[MP_WINS] += 1
                    points[target] -= stake
                    victim = target
                    cause = OUT_MP
                else:
                    points[me] -= stake // 2
                    victim = me
                    cause = OUT_MP_FAILED
        # -- eliminations (at most one player loses points per turn)
        if victim >= 0 and alive[victim] and points[victim] <= 0:
            alive[victim] = False
            n_alive -= 1
            order[n_out] = victim
            n_out += 1
            stats[cause] += 1
        # -- next live player clockwise
        for step in range(1, n_players + 1):
            j = (me + step) % n_players
            if alive[j]:
                me = j
                break
    if n_alive > 1:
        for j in range(n_players):
            if alive[j]:
                order[n_out] = j
                n_out += 1
        return -1
    for j in range(n_players):
        if alive[j]:
            order[n_out] = j
            return j
    return -1


@parallel_jit
def simulate_games_kernel(seeds, chunk_size, n_games, knobs, turn, duel, three, agents):
    """``n_games`` games in chunks, chunk ``c`` seeded with ``seeds[c]``; seat ``i``
    played by ``agents[i]``; ``knobs .. three`` a :class:`GameTables`."""
    n_players = agents.shape[0]
    winners = np.empty(n_games, dtype=np.int64)
    orders = np.empty((n_games, n_players), dtype=np.int64)
    stats = np.empty((n_games, N_STATS), dtype=np.int64)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        for g in range(c * chunk_size, min((c + 1) * chunk_size, n_games)):
            winners[g] = play_game(knobs, turn, duel, three, agents, orders[g], stats[g])
    return winners, orders, stats
