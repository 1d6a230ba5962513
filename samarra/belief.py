"""A belief agent for Ce soir, à Samarra: a posterior over the enemy's setup from the game so far.

What a side knows after ``t`` actions is its own setup ``s`` and the public tokens
``o_1 .. o_t`` of the actions played (:func:`samarra.information.public_token`: who
acted, which tent moved where or which power hit which tent, the public board after it
and the winner, if any). Moves are public, so the enemy's *setup* ``h`` (which of its
figures is servant, merchant and Death under each tent at the start) fixes, with the
tokens, where each enemy identity stands now: a posterior over ``h`` is a posterior
over the enemy's placement under its tents. By Bayes' rule

.. math::

    P(h \\mid s, o_{1..t}) \\;\\propto\\; P(h) \\prod_{k \\le t}
        \\mathbb{1}[o_k \\text{ possible under } (s, h)] \\;
        \\prod_{k \\le t,\\ \\text{enemy acts}} \\pi(a_k \\mid h, o_{1..k-1}),

where ``o_k`` possible under ``(s, h)`` means that the game started from setups
``(s, h)`` and replayed along ``o_1 .. o_{k-1}`` has a legal action whose token is
``o_k`` (that action, ``a_k``, is then unique: the token names the acting figure's
cell and the target cell), and ``\\pi`` is the *opponent model*, mixed with a small
tremble ``epsilon`` of the uniform distribution over the enemy's legal actions,
``\\pi = (1 - \\epsilon) \\pi_{model} + \\epsilon / |A|``, so that no action the enemy
may play rules out a setup the tokens allow. The prior ``P(h)`` is the model's setup
mix, trembled the same way. Opponent models:

* a :class:`samarra.HiddenSolution` of the game (rules equal but for ``horizon``):
  the equilibrium's behaviour strategy of the enemy at its information set (its setup
  ``h``, the public tokens so far), and its equilibrium setup mix as the prior; past
  the solved horizon, the uniform model;
* ``"uniform"`` (default): every legal action of the enemy equally likely, the setups
  too (as :func:`samarra.play_games` draws them). The likelihood still tells setups
  apart: the number of legal actions depends on where the enemy's merchant and Death
  stand;
* ``"determinizing"``: the enemy as a :class:`samarra.DeterminizingAgent` with the
  same table (its probabilities from its own view, which the agent computes for each
  setup ``h`` since it knows its own), uniform setups.

If every setup consistent with the tokens gets likelihood 0 (only with
``epsilon = 0``), the posterior falls back to uniform over those setups.

Why ``"uniform"`` by default: on the solved 3 x 3 games (H = 4, 5, 6) it is the least
exploitable of the three models (exact best responses, :func:`samarra.agent_exploitability`),
as exploitable as the determinizing agent at H = 4 and 5, and it assumes nothing about
the opponent. A sharper model is a bet on the opponent: ``"determinizing"`` beats the
determinizing agent by far on 3 x 5 but is more exploitable, and so is the
equilibrium, by an opponent who leads the posterior astray (the Samarra report has the
figures).

The decision is the determinizing agent's (:class:`samarra.DeterminizingAgent`) with
the posterior in place of the uniform weight: each option is valued by the mean over
the setups ``h`` of its perfect-information score in the position that ``h`` and the
tokens give, weighted by ``P(h | s, o)``, and the agent draws uniformly among the
options of best value. Its choice is therefore a function of its information state
(own setup, public tokens), as :func:`samarra.agent_exploitability` needs.

The agent learns the game through ``observe(rules, side, setup, token)`` (see
:func:`samarra.play_game`): ``token`` None starts a new game for ``side``, then one
call per action. It keeps one belief per side, so one object may play both sides. A
``choose`` whose view does not match the observed game (the agent was not told the
game) falls back to the uniform weight over :func:`samarra.determinizations`, the
determinizing agent's choice.

References
----------
P. I. Cowling, E. J. Powley and D. Whitehouse, "Information set Monte Carlo tree
search", IEEE TCIAIG 4(2), 2012 (determinization); J. Long, N. R. Sturtevant, M. Buro
and T. Furtak, "Understanding the success of perfect information Monte Carlo sampling
in game tree search", AAAI 2010 (weighted determinizations).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from samarra.agents import (
    DeterminizingAgent,
    Option,
    View,
    check_options,
    check_rng,
    determinizations,
    options,
)
from samarra.engine import legal_actions, next_position
from samarra.hidden import HiddenSolution
from samarra.hidden_tree import _Trusted
from samarra.information import action_code, public_action, public_token
from samarra.position import Position, setups, start_position
from samarra.rules import Rules
from samarra.solve import Table
from tabletop.frozen import same_fields
from tabletop.validate import check_float, check_instance

if TYPE_CHECKING:
    import pandas as pd

#: The opponent models named by a string.
MODELS = ("uniform", "determinizing")


@dataclass(frozen=True, eq=False)
class _Belief:
    """One side's belief after some tokens: per enemy setup (in the order of
    :func:`samarra.setups`), the position it gives (None: ruled out by the tokens) and
    its posterior weight; ``history`` is the solved form's public history (-1 off it)."""

    token: str | None
    worlds: tuple
    weights: tuple
    history: int

    __eq__ = same_fields


def _option_of(position: Position, action) -> Option:
    """The :class:`Option` naming ``action`` (a power's target by its cell)."""
    cell = action.target if action.kind == "move" else -1
    if action.kind in ("merchant", "death"):
        cell = position.cells[3 * (1 - position.to_move) + action.target]
    return Option(action.kind, action.figure, cell)


def _checked(position: Position) -> Position:
    """A validated :class:`Position` with the fields of ``position`` (determinizations
    read validation errors to drop impossible flags)."""
    p = position
    return Position(p.rules, p.cells, p.revealed, p.merchant_used, p.death_used, p.to_move,
                    p.actions_left, p.actions_played, p.winner, p.pass_run, p.turn_passes,
                    p.last_move)  # fmt: skip


def _public(view: View) -> tuple:
    return (view.side, view.own, view.own_used, view.tents, view.enemy_dead, view.enemy_used)


class BeliefAgent:
    """The determinizing agent's choice with a Bayesian posterior over the enemy's setup.

    See the module docstring for the posterior, the opponent models and the decision.

    Parameters
    ----------
    table : Table
        The perfect-information table that values the options (as for
        :class:`samarra.DeterminizingAgent`).
    model : HiddenSolution or str
        The opponent model: a solved hidden-information game (its equilibrium),
        ``"uniform"`` (default) or ``"determinizing"``.
    epsilon : float
        The tremble mixed into the model, in [0, 1] (default 0.01).

    Examples
    --------
    >>> from samarra import Rules, play_game, solve
    >>> import random
    >>> rules = Rules(length=3)
    >>> agent = BeliefAgent(solve(rules))
    >>> result, black, white = play_game(rules, agent, agent, random.Random(1))
    >>> float(agent.posterior(0).sum())
    1.0
    """

    name = "belief"

    def __init__(self, table: Table, model: HiddenSolution | str = "uniform",
                 epsilon: float = 0.01):  # fmt: skip
        if not isinstance(table, Table):
            raise TypeError(f"table must be a samarra Table, got {type(table).__name__}")
        if isinstance(model, str):
            if model not in MODELS:
                raise ValueError(f"model must be a HiddenSolution or one of {MODELS}, "
                                 f"got {model!r}")  # fmt: skip
        elif not isinstance(model, HiddenSolution):
            raise TypeError(f"model must be a HiddenSolution or one of {MODELS}, got "
                            f"{type(model).__name__}")  # fmt: skip
        self.table = table
        self.model = model
        self.epsilon = check_float("epsilon", epsilon, 0.0, 1.0)
        self._scorer = DeterminizingAgent(table)
        self._index = None
        if isinstance(model, HiddenSolution):
            from samarra.hidden_play import _Index

            self._index = _Index(model.form)
        self._game: dict[int, tuple] = {}  # side -> (rules, setup)
        self._path: dict[int, list[_Belief]] = {}  # side -> beliefs after 0, 1, ... tokens
        self._depth: dict[int, int] = {}  # side -> tokens observed in the current game

    # -- the posterior ------------------------------------------------------------------------

    def observe(self, rules: Rules, side: int, setup: str, token: str | None) -> None:
        """Take in what ``side`` sees: a new game (``token`` None), or one played action.

        Parameters
        ----------
        rules : Rules
            The game's rules.
        side : int
            The side the agent plays, 0 (Black) or 1 (White).
        setup : str
            Its own setup (one of :func:`samarra.setups`).
        token : str or None
            None at the start of a game; else the public token of the action just played
            (:func:`samarra.information.public_token`), by either side.
        """
        if token is None:
            rules = Rules.check(rules, default=False)
            if side not in (0, 1) or isinstance(side, bool):
                raise ValueError(f"side must be 0 (black) or 1 (white), got {side!r}")
            names = setups(rules)
            if setup not in names:
                raise ValueError(f"setup must be one of {', '.join(names)}, got {setup!r:.80}")
            self._check_model(rules)
            if self._game.get(side) != (rules, setup):
                self._game[side] = (rules, setup)
                self._path[side] = [self._start(rules, side, setup)]
            self._depth[side] = 0  # the path so far is kept: a replayed game reuses it
            return
        if side not in self._game:
            raise ValueError(f"observe(..., token) for side {side!r} before its new game "
                             "(token None)")  # fmt: skip
        check_instance("token", token, str)
        path, depth = self._path[side], self._depth[side] + 1
        if len(path) > depth and path[depth].token == token:
            self._depth[side] = depth  # the same history as the game kept: reused
            return
        del path[depth:]
        path.append(self._update(side, path[-1], token))
        self._depth[side] = depth

    def _check_model(self, rules: Rules) -> None:
        if isinstance(self.model, HiddenSolution):
            solved = self.model.rules
            if rules.solver_key() != solved.solver_key() or rules.first != solved.first:
                raise ValueError(f"rules {rules.solver_key()} are not those of the model's "
                                 f"solved game {solved.solver_key()}")  # fmt: skip

    def _start(self, rules: Rules, side: int, setup: str) -> _Belief:
        names = setups(rules)
        pairs = [(setup, h) if side == 0 else (h, setup) for h in names]
        worlds = tuple(_Trusted.of(start_position(rules, *pair)) for pair in pairs)
        if isinstance(self.model, HiddenSolution):
            prior = self.model.setup_mix(1 - side).to_numpy()
        else:
            prior = [1.0 / len(names)] * len(names)
        e = self.epsilon
        weights = tuple((1 - e) * float(q) + e / len(names) for q in prior)
        return _Belief(None, worlds, _normalised(weights, worlds), 0)

    def _update(self, side: int, before: _Belief, token: str) -> _Belief:
        history = -1
        if self._index is not None and before.history >= 0:
            t = self._index.token.get(token)
            history = -1 if t is None else self._index.child.get((before.history, t), -1)
        worlds, weights = [], []
        for h, (p, w) in enumerate(zip(before.worlds, before.weights, strict=True)):
            found = None if p is None or p.winner is not None else _replay(p, token)
            if found is None:
                worlds.append(None)
                weights.append(0.0)
                continue
            action, after = found
            like = 1.0 if p.to_move == side else self._likelihood(h, p, action, before.history)
            worlds.append(after)
            weights.append(w * like)
        return _Belief(token, tuple(worlds), _normalised(weights, worlds), history)

    def _likelihood(self, h: int, p: Position, action, history: int) -> float:
        """The model's probability (trembled) that the enemy, with setup ``h``, plays
        ``action`` at ``p`` after the public history ``history`` of the solved form."""
        acts = legal_actions(p)
        uniform = 1.0 / len(acts)
        model = uniform
        if self._index is not None:
            enemy = p.to_move
            infoset = self._index.infoset[enemy].get((h, history)) if history >= 0 else None
            if infoset is not None:
                form = self.model.form
                first = int(form.first[enemy][infoset])
                codes = form.codes[enemy][first : first + int(form.n_actions[enemy][infoset])]
                (k,) = (codes == action_code(p, action)).nonzero()[0]  # a legal action's code
                model = float(self.model.behaviour[enemy][first + int(k)])
        elif self.model == "determinizing":
            q = _checked(p)
            opts = options(q)
            probs = self._scorer.probabilities(View.of(q, q.to_move), opts)
            model = probs[opts.index(_option_of(q, action))]
        return (1 - self.epsilon) * model + self.epsilon * uniform

    def posterior(self, side: int) -> pd.Series:
        """The current posterior of ``side`` over the enemy's setup, indexed by setup.

        Raises ValueError if ``side`` has not been told a game (``observe``).
        """
        import pandas as pd

        if side not in self._game:
            raise ValueError(f"side {side!r} has not observed a game")
        belief = self._path[side][self._depth[side]]
        rules = self._game[side][0]
        return pd.Series(belief.weights, index=pd.Index(setups(rules), name="enemy setup"),
                         name="posterior")  # fmt: skip

    # -- the decision -------------------------------------------------------------------------

    def _worlds(self, view: View) -> tuple[list[Position], list[float]]:
        """The positions to value and their weights: the posterior when ``view`` is the
        observed game's, else every determinization equally."""
        side = view.side
        if side in self._game:
            belief = self._path[side][self._depth[side]]
            live = [(p, w) for p, w in zip(belief.worlds, belief.weights, strict=True)
                    if p is not None and w > 0.0]  # fmt: skip
            # every live world shows the same public board: the first one stands for all
            if live and _public(View.of(live[0][0], side)) == _public(view):
                return [p for p, _ in live], [w for _, w in live]
        worlds = determinizations(view)
        return worlds, [1.0 / len(worlds)] * len(worlds)

    def pool(self, view: View, opts: list[Option]) -> list[Option]:
        """The options of best posterior-weighted value, which the agent draws from."""
        check_options(opts)
        worlds, weights = self._worlds(view)
        score, me = self._scorer.score, view.side
        means = [sum(w * score(p, o, me) for p, w in zip(worlds, weights, strict=True))
                 for o in opts]  # fmt: skip
        best = max(means)
        return [o for o, m in zip(opts, means, strict=True) if m >= best - 1e-12]

    def probabilities(self, view: View, opts: list[Option]) -> list[float]:
        """The probability of each option (uniform over :meth:`pool`)."""
        pool = self.pool(view, opts)
        return [1.0 / len(pool) if o in pool else 0.0 for o in opts]

    def choose(self, view: View, opts: list[Option], rng: random.Random) -> Option:
        check_rng(rng)
        pool = self.pool(view, opts)
        return pool[rng.randrange(len(pool))]


def _replay(p: Position, token: str):
    """(action, position after) of the legal action of ``p`` whose public token is
    ``token``, or None."""
    for a in legal_actions(p):
        if token.startswith(public_action(p, a) + " "):
            q = next_position(p, a)
            if public_token(p, a, q) == token:
                return a, q
    return None


def _normalised(weights, worlds) -> tuple:
    total = sum(weights)
    if total > 0.0:
        return tuple(w / total for w in weights)
    alive = [p is not None for p in worlds]
    n = sum(alive)
    if n == 0:
        raise ValueError("no enemy setup is consistent with the observed tokens")
    return tuple(1.0 / n if a else 0.0 for a in alive)
