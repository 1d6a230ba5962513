"""How the hidden-information equilibrium plays, and how far the agents are from it.

Both measures walk the game tree of :mod:`samarra.hidden_tree` again (every setup pair,
every history up to the horizon), reading each node's information set from the
solved sequence form, so that the numbers are those of the solved game.

* :func:`equilibrium_play` follows the equilibrium (both sides' setup mixes and
  behavioural strategies) with the probability of reaching each history, and sums, per
  side, the expected number of uses of the merchant's power and of Death's power (each
  at most once a game, so the expected number is the probability of use), of moves
  and of *bluffs*. A **bluff** (:func:`is_bluff`) is a move of a side's own figure,
  still hidden, that is not its servant, to a cell one row closer to the enemy city:
  the step a servant makes to win, made by a figure that cannot win by arriving.
* :func:`agent_exploitability` tabulates an agent's behaviour on every information
  set of the game where it can be reached (the agent's probability of each action,
  from one state of the set: an agent sees only its :class:`samarra.agents.View`,
  which is the same in every state of a set), with uniformly random setups as in
  :func:`samarra.play_games`, and measures it with the exact best responses of
  :func:`samarra.hidden.best_responses`: what the agent guarantees as Black (``v_B``),
  what it concedes at most as White (``v_W``), and its exploitability
  ``(v_W - v_B) / 2`` (0 for an equilibrium; OpenSpiel's ``exploitability`` of the
  profile in which the agent plays both sides). Agents whose choice is a uniform draw
  from a pool of actions (random, greedy, determinizing) give their exact
  probabilities (``probabilities``); for any other agent (information-set MCTS) each
  set's distribution is the share of ``samples`` seeded calls of ``choose``. An agent
  with an ``observe`` method (the belief agent, :mod:`samarra.belief`) is told the
  information set first, as :func:`samarra.play_game` tells it a game: a new game
  from its own setup, then the public token of every action of the set's history.

References
----------
D. Koller, N. Megiddo and B. von Stengel, "Fast algorithms for finding randomized
strategies in game trees", STOC 1994 (realization plans and best responses).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from samarra.agents import View, check_agent, options, to_action
from samarra.engine import Action, legal_actions, next_position
from samarra.hidden import HiddenSolution, best_responses
from samarra.hidden_tree import SequenceForm, _Trusted
from samarra.information import action_code, public_token
from samarra.position import Position, start_position
from samarra.rules import SERVANT, SIDES
from tabletop.seeding import as_generator, check_count
from tabletop.validate import (
    PROBABILITY_DIFFERENCE,
    PROBABILITY_TOLERANCE,
    check_fields,
    check_instance,
)

if TYPE_CHECKING:
    import pandas as pd


def is_bluff(position: Position, action: Action) -> bool:
    """Whether ``action`` in ``position`` is a bluff (see the module docstring).

    Parameters
    ----------
    position : Position
    action : Action
        An action of the side to move.

    Returns
    -------
    bool
        True for a move of the mover's own figure, still hidden and not its servant,
        to a cell with fewer rows to go to the enemy city.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> p = start_position(Rules(length=3), "SMD", "DSM")
    >>> is_bluff(p, Action("move", 1, 4)), is_bluff(p, Action("move", 0, 3))
    (True, False)
    """
    check_instance("position", position, Position)
    check_instance("action", action, Action)
    if action not in legal_actions(position):
        raise ValueError(f"action {action} is not legal in this position (the side to move "
                         "may play one of samarra.legal_actions(position))")
    return _is_bluff(position, action)


def _is_bluff(position: Position, action: Action) -> bool:
    """:func:`is_bluff` of a legal action (the walks over solved trees, unchecked)."""
    if action.kind != "move" or action.figure == SERVANT:
        return False
    me = position.to_move
    fig = 3 * me + action.figure
    if position.revealed[fig]:
        return False
    rules = position.rules
    return rules.rows_to_go(action.target, me) < rules.rows_to_go(position.cells[fig], me)


class _Index:
    """Information sets, public histories and tokens of a sequence form, by key."""

    def __init__(self, form: SequenceForm):
        self.form = form
        self.infoset = [
            {(int(s), int(k)): i for i, (s, k) in enumerate(zip(form.setup_of[side],
                                                                form.public[side],
                                                                strict=True)) if s >= 0}
            for side in (0, 1)
        ]  # fmt: skip
        self.token = {t: k for k, t in enumerate(form.tokens)}
        self.child = {(int(p), int(t)): k for k, (p, t) in
                      enumerate(zip(form.history_parent, form.history_token, strict=True))
                      if k > 0}  # fmt: skip

    def moves(self, p, history: int, setup: int):
        """(first sequence, [(action, child position, child history)]) of a node, actions
        in the order of their sequences."""
        acts = sorted(legal_actions(p), key=lambda a: action_code(p, a))
        first = int(self.form.first[p.to_move][self.infoset[p.to_move][(setup, history)]])
        out = []
        for a in acts:
            q = next_position(p, a)
            t = self.token[public_token(p, a, q)]
            out.append((a, q, self.child.get((history, t), -1)))
        return first, out


def _starts(form: SequenceForm):
    free = replace(form.rules, horizon=None)
    for i, b in enumerate(form.setups):
        for j, w in enumerate(form.setups):
            yield i, j, _Trusted.of(start_position(free, b, w))


def equilibrium_play(solution: HiddenSolution) -> pd.DataFrame:
    """Per side, how often the equilibrium uses the powers and bluffs.

    Parameters
    ----------
    solution : HiddenSolution
        A solved hidden-information game (:func:`samarra.solve_hidden`).

    Returns
    -------
    pandas.DataFrame
        Indexed by side: ``merchant's power`` and ``Death's power`` (the probability
        that the side uses it in a game under equilibrium play), ``moves`` (the expected
        number of the side's moves), ``bluffs`` (the expected number of its bluffs) and
        ``bluff share`` (bluffs / moves; NaN without moves).

    Examples
    --------
    >>> from samarra import Rules, solve_hidden
    >>> float(equilibrium_play(solve_hidden(Rules(length=3), 1)).loc["black", "moves"])
    1.0
    """
    import pandas as pd

    check_instance("solution", solution, HiddenSolution)
    form, behaviour = solution.form, solution.behaviour
    index = _Index(form)
    horizon = solution.rules.horizon
    totals = np.zeros((2, 4))  # merchant, death, moves, bluffs
    kinds = {"merchant": 0, "death": 1}
    setup_first = [int(form.first[s][0]) for s in (0, 1)]

    def walk(p, history, pair, reach, left):
        if p.winner is not None or left == 0:
            return
        me = p.to_move
        first, moves = index.moves(p, history, pair[me])
        for k, (a, q, child) in enumerate(moves):
            r = reach * behaviour[me][first + k]
            if r <= 0.0:
                continue
            if a.kind in kinds:
                totals[me, kinds[a.kind]] += r
            elif a.kind == "move":
                totals[me, 2] += r
                totals[me, 3] += r * _is_bluff(p, a)
            walk(q, child, pair, r, left - 1)

    for i, j, start in _starts(form):
        reach = behaviour[0][setup_first[0] + i] * behaviour[1][setup_first[1] + j]
        if reach > 0.0:
            walk(start, 0, (i, j), reach, horizon)
    out = pd.DataFrame(totals, index=pd.Index(SIDES, name="side"),
                       columns=["merchant's power", "Death's power", "moves", "bluffs"])
    with np.errstate(invalid="ignore", divide="ignore"):
        out["bluff share"] = out["bluffs"] / out["moves"].where(out["moves"] > 0)
    return out


def _tell(agent, form: SequenceForm, side: int, setup: int, history: int) -> None:
    """Tell an agent with ``observe`` its information state, as :func:`samarra.play_game`
    does: a new game from its own setup, then the public tokens of ``history``."""
    tokens = []
    while history > 0:
        tokens.append(form.tokens[form.history_token[history]])
        history = int(form.history_parent[history])
    rules, name = replace(form.rules, horizon=None), form.setups[setup]
    agent.observe(rules, side, name, None)
    for token in reversed(tokens):
        agent.observe(rules, side, name, token)


def _distribution(agent, p, rng: random.Random, samples: int) -> dict:
    """The agent's probability of each engine action at ``p`` (its own view, and the
    history told by :func:`_tell` to an agent that observes)."""
    view, opts = View.of(p, p.to_move), options(p)
    exact = getattr(agent, "probabilities", None)
    if exact is not None:
        probs = exact(view, opts)
    else:
        counts = dict.fromkeys(opts, 0)
        for _ in range(samples):
            counts[agent.choose(view, opts, rng)] += 1
        probs = [counts[o] / samples for o in opts]
    return {to_action(p, o): pr for o, pr in zip(opts, probs, strict=True)}


def agent_behaviour(form: SequenceForm, agent, side: int, seed=None,
                    samples: int = 1) -> np.ndarray:  # fmt: skip
    """The agent's behavioural strategy as ``side`` in the sequence form ``form``.

    Per sequence of ``side``, the probability of its action at its information set:
    uniform setups; at every information set the agent can reach, the agent's
    probabilities (see the module docstring; ``samples`` seeded calls of ``choose`` for
    an agent without ``probabilities``); uniform elsewhere (never reached by the agent,
    so it changes no value).

    Examples
    --------
    >>> from samarra import RandomAgent, Rules
    >>> from samarra.hidden_tree import build
    >>> form = build(Rules(length=3, horizon=2))
    >>> float(agent_behaviour(form, RandomAgent(), 1)[1:].min()) > 0
    True
    """
    check_instance("form", form, SequenceForm)
    check_agent("agent", agent)
    if side not in (0, 1) or isinstance(side, bool):
        raise ValueError(f"side must be 0 (black) or 1 (white), got {side!r}")
    samples = check_count("samples", samples, 1)
    rng = random.Random(int(as_generator(seed).integers(2**63)))
    index = _Index(form)
    n_actions = form.n_actions[side]
    probs = np.concatenate([[1.0], np.repeat(1.0 / n_actions, n_actions)])
    done = set()
    horizon = form.rules.horizon

    def walk(p, history, pair, left):
        if p.winner is not None or left == 0:
            return
        me = p.to_move
        first, moves = index.moves(p, history, pair[me])
        if me == side and first not in done:
            done.add(first)
            if callable(getattr(agent, "observe", None)):
                _tell(agent, form, side, pair[side], history)
            dist = _distribution(agent, p, rng, samples)
            for k, (a, _, _) in enumerate(moves):
                probs[first + k] = dist[a]
        for k, (_, q, child) in enumerate(moves):
            if me == side and probs[first + k] <= 0.0:
                continue  # never played by the agent: below it nothing counts
            walk(q, child, pair, left - 1)

    for i, j, start in _starts(form):
        walk(start, 0, (i, j), horizon)
    return probs


@dataclass(frozen=True)
class AgentExploitability:
    """An agent measured on a solved hidden-information game (:func:`agent_exploitability`).

    Attributes
    ----------
    value : float
        The game's value to Black (the equilibrium's).
    black, white : float
        What the agent guarantees as Black against White's best response (``v_B``), and
        what it concedes at most to Black's best response as White (``v_W``), Black's
        payoff (+1 win, -1 loss).
    exploitability : float
        ``(white - black) / 2``.
    self_play : float
        Black's expected payoff when the agent plays both sides.

    Examples
    --------
    >>> from samarra import RandomAgent, Rules, solve_hidden
    >>> m = agent_exploitability(solve_hidden(Rules(length=3), 1), RandomAgent())
    >>> m.exploitability == (m.white - m.black) / 2
    True
    >>> bool(m.black <= m.value + 1e-9 and m.value <= m.white + 1e-9)  # v_B <= value <= v_W
    True
    """

    value: float
    black: float
    white: float
    exploitability: float
    self_play: float

    def __post_init__(self):
        payoff = PROBABILITY_DIFFERENCE  # Black's payoff: +1 win, -1 loss
        check_fields(self, value=payoff, black=payoff, white=payoff, exploitability=(0.0, None),
                     self_play=payoff)  # fmt: skip
        slack = PROBABILITY_TOLERANCE
        if not self.black - slack <= self.value <= self.white + slack:
            raise ValueError(f"AgentExploitability.value must lie between "
                             f"AgentExploitability.black and .white (what the agent guarantees "
                             f"and concedes), got {self.black!r} <= {self.value!r} <= "
                             f"{self.white!r}")  # fmt: skip
        if abs(self.exploitability - (self.white - self.black) / 2) > slack:
            raise ValueError(f"AgentExploitability.exploitability must be (white - black) / 2 = "
                             f"{(self.white - self.black) / 2!r}, got {self.exploitability!r}")


def agent_exploitability(solution: HiddenSolution, agent, seed=None,
                         samples: int = 1) -> AgentExploitability:  # fmt: skip
    """Exact best responses against an agent on a solved hidden-information game.

    Parameters
    ----------
    solution : HiddenSolution
        The solved game (:func:`samarra.solve_hidden`).
    agent : object with ``choose`` (and, optionally, ``probabilities``)
    seed : int, SeedSequence or Generator, optional
        For an agent without ``probabilities`` (its sampled calls).
    samples : int
        Calls of ``choose`` per information set for such an agent (default 1: one
        seeded draw, a pure strategy).

    Returns
    -------
    AgentExploitability
        The game's value, the agent's guarantees as Black and as White, its
        exploitability and its self-play payoff.

    Examples
    --------
    >>> from samarra import RandomAgent, Rules, solve_hidden
    >>> m = agent_exploitability(solve_hidden(Rules(length=3), 1), RandomAgent())
    >>> m.value, round(m.black, 3), round(m.white, 3)   # a random first action
    (1.0, 0.333, 1.0)
    """
    check_instance("solution", solution, HiddenSolution)
    form = solution.form
    seeds = as_generator(seed).spawn(2)
    behaviour = tuple(agent_behaviour(form, agent, side, seeds[side], samples)
                      for side in (0, 1))  # fmt: skip
    v_black, v_white = best_responses(form, behaviour)
    from scipy.sparse import coo_matrix

    from samarra.hidden import _realization

    nb, nw = form.n_sequences
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    played = float(_realization(form, 0, behaviour[0]) @ (A @ _realization(form, 1, behaviour[1])))
    return AgentExploitability(solution.value, v_black, v_white,
                               max(0.0, (v_white - v_black) / 2), played)  # fmt: skip
