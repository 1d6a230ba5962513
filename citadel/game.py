"""The game of Master Citadel: state, one round, a whole game (the plain reference).

A state is the pawn's cell, each seat's capital and the number of rounds played.
A round: every seat writes an order, the orders are resolved
(:func:`citadel.resolve.resolve`), each seat pays what it owes and any tie fee
(capital never below 0), and the pawn takes its step. A component of the step that
would cross the edge of an empty seat is dropped (that edge is a wall). The game ends
when the pawn leaves the board: the seat whose edge it crossed scores 1; through a
corner both seats score 1/2. It is a draw (every seat scores 0) after
``rules.max_rounds`` rounds, or at once when no seat can write a positive amount any
more (nothing could ever change: our ruling, equivalent to playing on to the limit).

The numba simulator ``citadel.simulate`` plays the same loop; tests hold the two
against each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from citadel.resolve import Resolution, check_orders, resolve_reference
from citadel.rules import Rules
from tabletop.seeding import as_generator
from tabletop.validate import check_fields


@dataclass(frozen=True)
class GameState:
    """Pawn cell ``(x, y)``, each seat's capital, rounds played so far.

    Built only from integers: a pawn of two ints, one or more capitals (ints >= 0) and
    the rounds played (an int >= 0); anything else is a TypeError or ValueError naming
    the field. Whether the state fits a game's rules (pawn on the board, one capital
    per seat) is checked by :func:`check_state`.

    Attributes
    ----------
    pawn : tuple of int
        The pawn's cell ``(x, y)``; ``(0, 0)`` is the centre (any sequence of two
        ints, stored as a tuple).
    capitals : tuple of int
        Each seat's remaining capital (any sequence of ints, stored as a tuple).
    round : int
        Rounds played so far.

    Examples
    --------
    >>> GameState((0, 1), (10, 7.5))
    Traceback (most recent call last):
    ...
    TypeError: capitals[1] must be an int, got 7.5 (float)
    """

    pawn: tuple[int, int]
    capitals: tuple[int, ...]
    round: int = 0

    def __post_init__(self):
        from tabletop.validate import check_int

        pawn = self.pawn
        if isinstance(pawn, str) or not hasattr(pawn, "__len__") or len(pawn) != 2:
            raise ValueError(f"pawn must be a cell (x, y), got {pawn!r}")
        if type(pawn) is not tuple:  # any sequence, stored as a tuple
            object.__setattr__(self, "pawn", tuple(pawn))
        for i, c in enumerate(pawn):
            check_int(f"pawn[{i}]", c, None)
        capitals = self.capitals
        if isinstance(capitals, str) or not hasattr(capitals, "__len__") or len(capitals) == 0:
            raise ValueError(f"capitals must hold one capital per seat, got {capitals!r}")
        if type(capitals) is not tuple:
            object.__setattr__(self, "capitals", tuple(capitals))
        for i, c in enumerate(capitals):
            check_int(f"capitals[{i}]", c, 0)
        check_int("round", self.round, 0)


def initial_state(rules: Rules) -> GameState:
    """The pawn at (0, 0), every seat with ``rules.capital``, round 0.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    GameState

    Examples
    --------
    >>> initial_state(Rules(n_players=2))
    GameState(pawn=(0, 0), capitals=(100, 100), round=0)
    """
    rules = Rules.check(rules, default=False)
    return GameState((0, 0), (rules.capital,) * rules.n_players, 0)


def move_pawn(pawn, step, rules: Rules) -> tuple[int, int]:
    """The pawn's new cell after ``step``, walls of empty seats applied."""
    x, y = pawn
    nx, ny = x + step[0], y + step[1]
    r = rules.radius
    if nx > r and rules.n_players < 3:  # no E seat
        nx = x
    if nx < -r and rules.n_players < 4:  # no W seat
        nx = x
    return nx, ny


def scores_at(pawn, rules: Rules) -> tuple[float, ...] | None:
    """Each seat's score if the pawn is off the board, else None."""
    x, y = pawn
    r = rules.radius
    out = {"N": y > r, "E": x > r, "S": y < -r, "W": x < -r}
    winners = [s for s in rules.seats if out[s]]
    if not winners:
        return None
    return tuple(1.0 / len(winners) if s in winners else 0.0 for s in rules.seats)


def check_state(state, rules: Rules, name: str = "state") -> GameState:
    """``state`` if a round can be played from it under ``rules``, else raise.

    The pawn must be on the board (both coordinates in ``-radius..radius``: off the
    board the game is over), one capital per seat (ints >= 0) and the rounds played an
    int below ``rules.max_rounds`` (at the limit the game is a draw).
    """
    from tabletop.validate import check_int

    if not isinstance(state, GameState):
        raise TypeError(f"{name} must be a citadel.GameState, got {type(state).__name__}")
    r = rules.radius  # the fields' types and signs: checked when the state was built
    x, y = (int(c) for c in state.pawn)
    if max(abs(x), abs(y)) > r:
        raise ValueError(
            f"{name}.pawn {(x, y)} is off the board: cells are -{r}..{r} on each axis "
            f"(radius={r}); once the pawn leaves the board the game is over"
        )
    capitals = state.capitals
    if len(capitals) != rules.n_players:
        raise ValueError(f"{name}.capitals must hold one capital per seat ({rules.n_players}), "
                         f"got {capitals!r}")  # fmt: skip
    check_int(f"{name}.round", state.round, 0, rules.max_rounds - 1)
    return state


def can_bid(capital: int, rules: Rules) -> bool:
    """Whether a seat holding ``capital`` may write a positive amount."""
    return capital >= rules.smallest_bid


@dataclass(frozen=True)
class RoundResult:
    """A round: the state after it, the resolution, and the scores if the game is over."""

    state: GameState
    resolution: Resolution
    scores: tuple[float, ...] | None


def play_round(state: GameState, orders, rules: Rules) -> RoundResult:
    """Play one round of ``orders`` (validated against the state's capitals).

    The state is checked against the rules first (:func:`check_state`): a pawn off
    the board, a capital per seat missing or the round limit reached is a ValueError.

    Parameters
    ----------
    state : GameState
        The state before the round.
    orders : sequence of (int, str)
        One ``(amount, direction)`` per seat, each amount within its capital.
    rules : Rules

    Returns
    -------
    RoundResult
        ``state`` (the state after the round), ``resolution`` (the pawn's move and the
        payments) and ``scores`` (None while the game goes on).

    Examples
    --------
    >>> rules = Rules(n_players=2, radius=1)
    >>> r = play_round(GameState((0, 1), (10, 10)), [(3, "N"), (2, "S")], rules)
    >>> r.state, r.scores
    (GameState(pawn=(0, 2), capitals=(7, 8), round=1), (1.0, 0.0))
    """
    rules = Rules.check(rules, default=False)
    state = check_state(state, rules)
    amounts, directions = check_orders(orders, rules, state.capitals)
    res = resolve_reference(amounts, directions, rules.resolution, rules.payment)
    return _after(state, res, rules)


def _after(state: GameState, res: Resolution, rules: Rules) -> RoundResult:
    capitals = tuple(
        max(0, c - p - f) for c, p, f in zip(state.capitals, res.pays, res.fee, strict=True)
    )
    pawn = move_pawn(state.pawn, res.step, rules)
    new = GameState(pawn, capitals, state.round + 1)
    scores = scores_at(pawn, rules)
    if scores is None and (
        new.round >= rules.max_rounds or not any(can_bid(c, rules) for c in capitals)
    ):
        scores = (0.0,) * rules.n_players
    return RoundResult(new, res, scores)


#: An agent maps (state, seat, rules, last round's orders or None, generator) to an order.
Agent = Callable[[GameState, int, Rules, tuple | None, np.random.Generator], tuple]


@dataclass(frozen=True)
class GameRecord:
    """A finished game: scores, rounds played, final state, and every round's orders.

    Attributes
    ----------
    scores : tuple of float
        Each seat's score.
    rounds : int
        Rounds played.
    final : GameState
        The state at the end.
    orders : tuple
        Per round, each seat's ``(amount, direction)``.

    Examples
    --------
    >>> from citadel.agents import agent
    >>> rec = play_game(Rules(n_players=2), [agent("straight")] * 2, seed=0)
    >>> rec.rounds == len(rec.orders) == rec.final.round
    True
    """

    scores: tuple[float, ...]
    rounds: int
    final: GameState
    orders: tuple[tuple[tuple[int, int], ...], ...]

    def __post_init__(self):
        check_fields(self, scores=(0.0, 1.0), rounds=(0, None))
        seats = len(self.final.capitals)
        if len(self.scores) != seats:
            raise ValueError(f"GameRecord.scores must hold one score per seat of "
                             f"GameRecord.final ({seats}), got {len(self.scores)}")  # fmt: skip


def play_game(rules: Rules, agents: Sequence[Agent], seed=None) -> GameRecord:
    """Play one game with one agent per seat (plain Python).

    Parameters
    ----------
    rules : Rules
    agents : sequence of callables
        ``agent(state, seat, rules, last, rng) -> (amount, direction)``; ``last`` is the
        previous round's ``(amounts, directions)`` or None. See ``citadel.agents``.
    seed : None, int, SeedSequence or Generator
        For agents that draw at random.

    Returns
    -------
    GameRecord

    Examples
    --------
    N walks north 25 points a step; when it needs one more step the three savers go
    all in, tie three ways (no move, a fee each) and nobody can bid again: a draw.

    >>> from citadel.agents import agent
    >>> rec = play_game(Rules(), [agent("straight")] + [agent("saver")] * 3)
    >>> rec.scores, rec.rounds, rec.final.pawn, rec.orders[-1]
    ((0.0, 0.0, 0.0, 0.0), 4, (0, 3), ((25, 0), (100, 2), (100, 4), (100, 6)))
    """
    if isinstance(agents, str) or not hasattr(agents, "__len__"):
        raise TypeError(f"agents must be a sequence of agent callables, got {agents!r:.80}")
    rules = Rules.check(rules, default=False)
    if len(agents) != rules.n_players:
        raise ValueError(f"need {rules.n_players} agents (one per seat), got {len(agents)}")
    for i, one in enumerate(agents):
        if not callable(one):
            hint = (f" (a name: use citadel.agents.agent({one!r}))" if isinstance(one, str)
                    else "")  # fmt: skip
            raise TypeError(f"agents[{i}] must be an agent callable, got {one!r:.80}{hint}")
    rng = as_generator(seed)
    state = initial_state(rules)
    last = None
    history = []
    if not any(can_bid(c, rules) for c in state.capitals):
        return GameRecord((0.0,) * rules.n_players, 0, state, ())
    while True:
        orders = [agents[i](state, i, rules, last, rng) for i in range(rules.n_players)]
        amounts, directions = check_orders(orders, rules, state.capitals)
        history.append(tuple((int(a), int(d)) for a, d in zip(amounts, directions, strict=True)))
        res = resolve_reference(amounts, directions, rules.resolution, rules.payment)
        result = _after(state, res, rules)
        state = result.state
        last = (tuple(int(a) for a in amounts), tuple(int(d) for d in directions))
        if result.scores is not None:
            return GameRecord(result.scores, state.round, state, tuple(history))
