"""The rules of a whole Master Panache game, in plain Python (docs/rules.md).

This is the readable reference of the game: a :class:`GameState`, the checks that
refuse an illegal decision with the rule it breaks, and :func:`play_game`, which
plays one game with :class:`panache.Agent` players and a ``random.Random``. The
numba kernels of ``panache._game_kernels`` implement the same loop for speed;
the tests hold the two against each other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from panache.agents import Agent
from panache.rules import N_FACES, Rules
from tabletop.validate import check_int


@dataclass
class GameState:
    """Points, who is still in, who has played its first turn, and who moves.

    Examples
    --------
    >>> from panache import Rules
    >>> state = GameState.start(Rules(), 3)
    >>> state.points, state.to_move
    ([35, 35, 35], 0)
    """

    rules: Rules
    points: list[int]
    alive: list[bool]
    played: list[bool]
    to_move: int = 0
    eliminated: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, rules: Rules, n_players: int | None = None) -> GameState:
        """The state before the first turn (``n_players`` defaults to the rules')."""
        n = rules.n_players if n_players is None else check_int("n_players", n_players, 2, 999)
        return cls(rules, [rules.start_points] * n, [True] * n, [False] * n)

    @property
    def n_players(self) -> int:
        return len(self.points)

    @property
    def winner(self) -> int | None:
        """The last player left, or None while the game goes on."""
        live = [p for p in range(self.n_players) if self.alive[p]]
        return live[0] if len(live) == 1 else None

    def opponents(self, player: int) -> list[int]:
        """Live players other than ``player``, clockwise from it."""
        n = self.n_players
        return [(player + k) % n for k in range(1, n) if self.alive[(player + k) % n]]

    def lose(self, player: int, amount: int) -> None:
        """Take ``amount`` points from ``player``; at 0 or less it is out at once."""
        self.points[player] -= amount
        if self.points[player] <= 0 and self.alive[player]:
            self.alive[player] = False
            self.eliminated.append(player)

    def pass_turn(self) -> None:
        """Play passes to the next live player clockwise."""
        n = self.n_players
        for k in range(1, n + 1):
            if self.alive[(self.to_move + k) % n]:
                self.to_move = (self.to_move + k) % n
                return

    # -- checks: each names the rule broken ------------------------------------------------

    def _check_live_target(self, player: int, target: int) -> None:
        if target == player:
            raise ValueError(f"player {player} cannot target itself")
        if not 0 <= target < self.n_players or not self.alive[target]:
            raise ValueError(f"target {target} is not a player still in the game")

    def check_attack(self, player: int, target: int, total: int) -> int:
        """Return the attack level, or raise ValueError naming the rule broken."""
        if not self.played[player]:
            raise ValueError("no attack in round 1 (a player's first turn)")
        if total <= 0:
            raise ValueError(f"an attack needs a positive total, got {total}")
        self._check_live_target(player, target)
        return min(total, N_FACES)

    def check_master_panache(self, player: int, target: int, stake: int, total: int) -> int:
        """Return the stake, or raise ValueError naming the rule broken."""
        if not self.played[player]:
            raise ValueError("no Master Panache in round 1 (a player's first turn)")
        if total != 0:
            raise ValueError(f"a Master Panache needs a total of 0, got {total}")
        self._check_live_target(player, target)
        return self.rules.check_stake(stake, self.points[player])


# -- dice --------------------------------------------------------------------------------------


def roll(rng: random.Random, k: int) -> tuple[int, ...]:
    """``k`` dice, highest first."""
    return tuple(sorted((rng.randrange(N_FACES) + 1 for _ in range(k)), reverse=True))


def turn_roll(rules: Rules, choose, rng: random.Random) -> int:
    """Play one turn roll, ``choose(set_aside, rolled)`` picking the dice kept."""
    held: tuple[int, ...] = ()
    while len(held) < rules.n_dice:
        rolled = roll(rng, rules.n_dice - len(held))
        held = tuple(sorted(held + tuple(choose(held, rolled)), reverse=True))
    return rules.total(held)


def random_choice(rng: random.Random):
    """A chooser that sets aside a uniformly random non-empty subset of each roll."""

    def choose(held, rolled):
        while True:
            kept = tuple(f for f in rolled if rng.random() < 0.5)
            if kept:
                return kept

    return choose


def attack_chain(rules: Rules, level: int, rng: random.Random) -> int:
    """Dice showing ``level`` set aside in one attack (0: the attack failed)."""
    left, hit = rules.n_dice, 0
    while left:
        shown = sum(1 for f in roll(rng, left) if f == level)
        if not shown:
            break
        hit, left = hit + shown, left - shown
    return hit


# -- agents' decisions -------------------------------------------------------------------------


class _Player:
    """An Agent's decisions in plain Python (same rules as the game kernel)."""

    def __init__(self, agent: Agent, rules: Rules, policies: dict, duel):
        self.agent, self.rules, self.policies, self.duel = agent, rules, policies, duel

    def _target(self, state: GameState, me: int, rule: str, rng) -> int:
        others = state.opponents(me)
        if rule == "random":
            return others[rng.randrange(len(others))] if len(others) > 1 else others[0]
        pick = max if rule == "leader" else min
        best = pick(state.points[o] for o in others)
        return next(o for o in others if state.points[o] == best)

    def _state(self, state, me, other):
        top = self.duel.win.index[-1]
        return (min(max(state.points[me], 1), top), min(max(state.points[other], 1), top))

    def turn(self, state: GameState, me: int, rng) -> int:
        kind = self.agent.kind
        if kind == "random":
            return turn_roll(self.rules, random_choice(rng), rng)
        if kind == "heuristic":
            return turn_roll(self.rules, self.policies[self.agent.turn_policy].choose, rng)
        other = self._target(state, me, "leader", rng)
        if not state.played[me] and state.n_players == 2:
            if state.played[other]:
                points = min(max(state.points[other], 1), self.duel.win.index[-1])
                utility = self.duel.round1_utility(points)
            else:
                utility = self.duel.round1_utility()
            return turn_roll(self.rules, _solve(self.rules, utility).choose, rng)
        if not state.played[me]:
            return turn_roll(self.rules, self.policies["ev"].choose, rng)
        policy = self.duel.turn_policy(*self._state(state, me, other))
        return turn_roll(self.rules, policy.choose, rng)

    def attack(self, state, me, total, rng) -> int | None:
        level = min(total, N_FACES)
        kind = self.agent.kind
        if kind == "random":
            target = self._target(state, me, "random", rng)
            return target if rng.randrange(2) else None
        if kind == "heuristic":
            target = self._target(state, me, self.agent.target, rng)
            return target if level >= self.agent.min_level else None
        target = self._target(state, me, "leader", rng)
        return target if self.duel.decisions(*self._state(state, me, target))["attack"][
            level - 1
        ] else None  # fmt: skip

    def counters(self, state, me, attacker, target, level, rng) -> bool:
        kind = self.agent.kind
        if kind == "random":
            return rng.randrange(2) == 1
        if kind == "heuristic":
            return self.agent.counter
        d = self.duel.decisions(*self._state(state, attacker, target))
        key = "target_counters" if me == target else "attacker_counters"
        return d[key][level - 1]

    def master_panache(self, state, me, rng) -> tuple[int, int]:
        """(target, stake); stake 0 declines."""
        kind = self.agent.kind
        rules = self.rules
        legal = rules.legal_stakes(state.points[me])
        if kind == "random":
            target = self._target(state, me, "random", rng)
            if legal.size and rng.randrange(2):
                return target, int(legal[rng.randrange(legal.size)])
            return target, 0
        if kind == "heuristic":
            target = self._target(state, me, self.agent.target, rng)
            rule = self.agent.mp
            ahead = state.points[me] > state.points[target]
            if legal.size and (rule == "always" or (rule == "ahead" and ahead)):
                return target, int(legal[-1])
            return target, 0
        target = self._target(state, me, "leader", rng)
        return target, self.duel.decisions(*self._state(state, me, target))["mp_stake"]


def _solve(rules, utility):
    from panache.turn import solve_turn

    return solve_turn(rules, utility).policy


def play_game(rules: Rules, agents, rng: random.Random, max_turns: int = 100_000):
    """Play one game, one agent per seat of ``rules.n_players``; return the final
    :class:`GameState` and the number of turns."""
    import dataclasses

    from panache.duel import solve_duel
    from panache.game import check_agents
    from panache.policy import human_policy
    from panache.turn import solve_turn

    agents = check_agents(rules, agents)

    policies = {name: solve_turn(rules, name).policy for name in ("ev", "positive", "zero")}
    for name in {a.turn_policy for a in agents} - set(policies):
        policies[name] = human_policy(rules, name)
    duel = (solve_duel(dataclasses.replace(rules, n_players=2))  # the two-player endgame
            if any(a.kind == "duel" for a in agents) else None)  # fmt: skip
    players = [_Player(a, rules, policies, duel) for a in agents]
    state = GameState.start(rules)
    turns = 0
    while state.winner is None and turns < max_turns:
        turns += 1
        me = state.to_move
        player = players[me]
        total = player.turn(state, me, rng)
        if not state.played[me]:  # round 1
            state.played[me] = True
            if total < 0 or (total > 0 and rules.first_round_gain):
                state.lose(me, -total)
        elif total < 0:
            state.lose(me, -total)
        elif total > 0:
            target = player.attack(state, me, total, rng)
            if target is not None:
                level = state.check_attack(me, target, total)
                roller, other = me, target
                while True:
                    hit = attack_chain(rules, level, rng)
                    if hit:
                        state.lose(other, level * hit)
                        break
                    if not rules.counter_attacks or not players[other].counters(
                        state, other, me, target, level, rng
                    ):
                        break
                    roller, other = other, roller
        else:
            target, stake = player.master_panache(state, me, rng)
            if stake:
                stake = state.check_master_panache(me, target, stake, total)
                if turn_roll(rules, policies["zero"].choose, rng) == 0:
                    state.lose(target, stake)
                else:
                    state.lose(me, stake // 2)
        state.pass_turn()
    return state, turns
