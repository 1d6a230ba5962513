"""Agents for the hidden-information game of Ce soir, à Samarra (docs/rules.md).

A player sees its own figures, the cells of the enemy's tents and every revealed
identity (docs/rules.md, Information). An agent is therefore shown a :class:`View` and
its legal actions as :class:`Option` s that name a power's target by its cell, never by
its identity.

:func:`determinizations` lists the positions consistent with a view: every way to put
the enemy's servant, merchant and Death under its tents (and on its dead figure, if
any) that keeps the revealed identities, keeps the servant alive and makes the enemy's
power flags follow (a power is used iff its figure is revealed alive, or dead). All are
taken as equally likely: the view does not remember the game's history (what earlier
moves might have told), which is a simplification of the true belief.

Agents (``choose(view, options, rng) -> Option``):

* :class:`RandomAgent`: a uniformly random legal action;
* :class:`GreedyAgent`: an action that wins in every determinization if there is one,
  else a servant step towards the enemy city, else a random action;
* :class:`DeterminizingAgent`: the action with the best mean value over all
  determinizations, each valued by the perfect-information table (a win +1 minus a
  small bonus for speed, a loss -1, a draw the tie-break's sign times 0.1);
* :class:`ISMCTSAgent`: information-set Monte Carlo tree search over the same
  determinizations, with table-valued leaves.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from samarra.engine import Action, legal_actions, next_position, tie_break, trusted_action
from samarra.position import Position
from samarra.rules import DEATH, MERCHANT, SERVANT
from samarra.solve import Table
from tabletop.validate import check_fields, check_instance, check_int


@dataclass(frozen=True)
class View:
    """What ``side`` sees of ``position`` (the true position stays with the game).

    Built by ``View.of(position, side)``.

    Attributes
    ----------
    side : int
        The viewer, ``BLACK`` (0) or ``WHITE`` (1).
    own : tuple of int
        The cells of the viewer's servant, merchant and Death (-1: dead).
    own_used : tuple of bool
        Whether the viewer's merchant and Death powers are used.
    tents : tuple of (int, int)
        The enemy's live figures, sorted: ``(cell, identity)``, the identity (0-2)
        when revealed, else -1.
    enemy_dead : int
        How many enemy figures are dead.
    enemy_used : tuple of bool
        Whether the enemy merchant's and Death's powers are known used (revealed
        alive with the power spent).
    position : Position
        The true position, read only by :func:`determinizations`.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> view = View.of(start_position(Rules(), "SMD", "DMS"), 0)
    >>> view.own, view.tents, view.enemy_dead
    ((0, 1, 2), ((12, -1), (13, -1), (14, -1)), 0)
    """

    side: int
    own: tuple[int, ...]
    own_used: tuple[bool, bool]
    tents: tuple[tuple[int, int], ...]
    enemy_dead: int
    enemy_used: tuple[bool, bool]
    position: Position  # for determinizations only; agents use the fields above

    def __post_init__(self):
        check_fields(self, side=(0, 1), own=(-1, None), enemy_dead=(0, 3))
        if len(self.own) != 3:
            raise ValueError(f"View.own must hold 3 cells (servant, merchant, Death; -1 dead), "
                             f"got {self.own!r}")  # fmt: skip
        if len(self.tents) != 3 - self.enemy_dead:
            raise ValueError(f"View.tents must hold the {3 - self.enemy_dead} live enemy figures "
                             f"(3 - View.enemy_dead), got {self.tents!r}")  # fmt: skip
        for i, (cell, identity) in enumerate(self.tents):
            check_int(f"View.tents[{i}][0]", cell, 0)
            check_int(f"View.tents[{i}][1]", identity, -1, 2)
        check_instance("View.position", self.position, Position)
        # a view is what its side sees of its position: a field that says otherwise
        # would let an agent (or determinizations) reason about another game
        seen = _seen(self.position, self.side)
        for name, value in seen.items():
            if _plain(getattr(self, name)) != _plain(value):
                raise ValueError(
                    f"View.{name} must be what side {self.side} sees of View.position "
                    f"({_plain(value)!r}; build views with View.of(position, side)), "
                    f"got {getattr(self, name)!r}")

    @classmethod
    def of(cls, position: Position, side: int) -> View:
        """The view of ``position`` that player ``side`` (0 Black, 1 White) has."""
        check_instance("position", position, Position)
        side = check_int("side", side, 0, 1)
        return cls(side=side, **_seen(position, side), position=position)


def _plain(value):
    """A field as plain Python values, for comparison (a sequence as a tuple)."""
    return tuple(_plain(v) for v in value) if hasattr(value, "__iter__") else value


def _seen(p: Position, side: int) -> dict:
    """The fields of :class:`View` that ``side`` sees of position ``p``."""
    enemy = 3 * (1 - side)
    tents = tuple(sorted(
        (p.cells[enemy + f], f if p.revealed[enemy + f] else -1)
        for f in range(3) if p.cells[enemy + f] >= 0
    ))  # fmt: skip
    known = tuple(
        p.cells[enemy + f] >= 0 and p.revealed[enemy + f] and used
        for f, used in ((MERCHANT, p.merchant_used[1 - side]),
                        (DEATH, p.death_used[1 - side]))
    )  # fmt: skip
    return {"own": tuple(p.cells[3 * side : 3 * side + 3]),
            "own_used": (p.merchant_used[side], p.death_used[side]), "tents": tents,
            "enemy_dead": sum(c < 0 for c in p.cells[enemy : enemy + 3]),
            "enemy_used": known}  # fmt: skip


@dataclass(frozen=True)
class Option:
    """A legal action as a player names it: ``kind``, own ``figure``, target ``cell``."""

    kind: str
    figure: int
    cell: int


def options(position: Position) -> list[Option]:
    """The legal actions of the side to move, powers named by their target's cell, sorted.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> options(start_position(Rules(), "SMD", "SMD"))[0]
    Option(kind='move', figure=0, cell=3)
    """
    enemy = 3 * (1 - position.to_move)
    cells = position.cells
    out = []
    for kind, figure, target in legal_actions(position):
        cell = target if kind == "move" else -1 if kind == "pass" else cells[enemy + target]
        out.append(Option(kind, figure, cell))
    # sorted by cells, so that the order tells nothing about hidden identities
    return sorted(out, key=_option_order)


_KIND_ORDER = {"move": 0, "merchant": 1, "death": 2, "pass": 3}


def _option_order(o: Option) -> tuple:
    return (_KIND_ORDER[o.kind], o.figure, o.cell)


def to_action(position: Position, option: Option) -> Action:
    """The engine action of ``option`` in ``position`` (a power's target by its cell)."""
    if option.kind in ("merchant", "death"):
        enemy = 3 * (1 - position.to_move)
        target = position.cells[enemy : enemy + 3].index(option.cell)
        return Action(option.kind, option.figure, target)
    return Action(option.kind, option.figure, option.cell if option.kind == "move" else -1)


def _to_action(position: Position, option: Option) -> Action:
    """:func:`to_action` for an option of :func:`options` (legal, so not checked again)."""
    kind = option.kind
    if kind == "move":
        return trusted_action((kind, option.figure, option.cell))
    if kind == "pass":
        return trusted_action((kind, -1, -1))
    enemy = 3 * (1 - position.to_move)
    target = position.cells[enemy : enemy + 3].index(option.cell)
    return trusted_action((kind, option.figure, target))


def determinizations(view: View) -> list[Position]:
    """Every position consistent with ``view`` (see the module docstring).

    Parameters
    ----------
    view : View
        What one side sees.

    Returns
    -------
    list of Position
        Every assignment of the enemy's identities to its tents that keeps the revealed
        identities and a live servant, with power flags that follow from it; in the
        order of the permutations of the enemy's figures (the true position among
        them).

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> start = start_position(Rules(), "SMD", "DMS")
    >>> len(determinizations(View.of(start, 0)))   # nothing is revealed yet
    6
    """
    check_instance("view", view, View)
    p, side = view.position, view.side
    enemy = 3 * (1 - side)
    objects = list(p.cells[enemy : enemy + 3])  # true order; identities are hidden
    revealed = [p.revealed[enemy + f] for f in range(3)]
    known = view.enemy_used
    out = []
    for perm in itertools.permutations(range(3)):
        # identity f goes to the object the true figure perm[f] occupies
        if any(revealed[f] and perm[f] != f for f in range(3)):
            continue  # a revealed figure keeps its identity
        cells = list(p.cells)
        rev = list(p.revealed)
        for f in range(3):
            cells[enemy + f] = objects[perm[f]]
            rev[enemy + f] = revealed[perm[f]]
        if cells[enemy + SERVANT] < 0:
            continue
        m_used, d_used = list(p.merchant_used), list(p.death_used)
        m_used[1 - side] = cells[enemy + MERCHANT] < 0 or (rev[enemy + MERCHANT] and known[0])
        d_used[1 - side] = cells[enemy + DEATH] < 0 or (rev[enemy + DEATH] and known[1])
        try:
            # the same figures and flags, moved between tents: only the flags' agreement
            # with the figures (Position._check_flags) is left to check
            world = type(p)._trusted(p.rules, tuple(cells), tuple(rev), tuple(m_used),
                                     tuple(d_used), p.to_move, p.actions_left,
                                     p.actions_played, p.winner, p.pass_run,
                                     p.turn_passes, p.last_move)  # fmt: skip
            world._check_flags()
        except ValueError:
            continue  # flags that no history could give
        out.append(world)
    return out


def _uniform_over(pool: list[Option], opts: list[Option]) -> list[float]:
    """Each option's probability when one of ``pool`` is drawn uniformly."""
    return [1.0 / len(pool) if o in pool else 0.0 for o in opts]


def check_options(opts) -> None:
    """Refuse an empty list of options: an agent chooses among the legal options of the
    position it views (:func:`samarra.agents.options`), and a game not over has at least one."""
    if not hasattr(opts, "__len__") or isinstance(opts, (str, bytes)):
        raise TypeError(f"opts must be a list of Option, got {type(opts).__name__}")
    if len(opts) == 0:
        raise ValueError("opts must hold at least one option (the legal options of the "
                         "viewed position, from samarra.agents.options), got none")
    for i, o in enumerate(opts):
        if not isinstance(o, Option):
            raise TypeError(f"opts[{i}] must be an Option (the legal options come from "
                            f"samarra.agents.options), got {type(o).__name__} {o!r}")


def check_rng(rng) -> None:
    """Refuse a chooser's random source that is not a :class:`random.Random`."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random (e.g. random.Random(seed)), got "
                        f"{type(rng).__name__} {rng!r}")


class RandomAgent:
    """A uniformly random legal action.

    Attributes
    ----------
    name : str
        ``"random"``.

    Examples
    --------
    >>> import random
    >>> from samarra import Rules, start_position
    >>> p = start_position(Rules(), "SMD", "SMD")
    >>> opts = options(p)
    >>> RandomAgent().choose(View.of(p, p.to_move), opts, random.Random(1)) in opts
    True
    """

    name = "random"

    def probabilities(self, view: View, opts: list[Option]) -> list[float]:
        """The probability of each option (uniform)."""
        check_options(opts)
        return [1.0 / len(opts)] * len(opts)

    def choose(self, view: View, opts: list[Option], rng: random.Random) -> Option:
        check_rng(rng)
        check_options(opts)
        return opts[rng.randrange(len(opts))]


class GreedyAgent:
    """A sure win if any, else a servant step forward, else random.

    A sure win wins in every determinization of the view (the first such option is
    played); a step forward brings the servant a row closer to the enemy city; the
    agent draws uniformly among the step forward options, else among all.

    Attributes
    ----------
    name : str
        ``"greedy"``.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> p = start_position(Rules(), "SMD", "SMD")
    >>> GreedyAgent().pool(View.of(p, p.to_move), options(p))
    [Option(kind='move', figure=0, cell=3)]
    """

    name = "greedy"

    def pool(self, view: View, opts: list[Option]) -> list[Option]:
        """The options the agent draws from, uniformly (one sure win, if any)."""
        check_options(opts)
        return self._pool(view, opts)[0]

    def _pool(self, view: View, opts: list[Option]) -> tuple[list[Option], bool]:
        worlds = determinizations(view)
        me = view.side
        sure = [o for o in opts
                if all(next_position(w, _to_action(w, o)).winner == me for w in worlds)]
        if sure:
            return sure[:1], True
        rules = view.position.rules
        here = rules.rows_to_go(view.own[SERVANT], me)
        forward = [o for o in opts if o.kind == "move" and o.figure == SERVANT
                   and rules.rows_to_go(o.cell, me) < here]  # fmt: skip
        return forward or opts, False

    def probabilities(self, view: View, opts: list[Option]) -> list[float]:
        """The probability of each option (uniform over :meth:`pool`)."""
        return _uniform_over(self.pool(view, opts), opts)

    def choose(self, view: View, opts: list[Option], rng: random.Random) -> Option:
        check_rng(rng)
        check_options(opts)
        pool, sure = self._pool(view, opts)
        return pool[0] if sure else pool[rng.randrange(len(pool))]


class DeterminizingAgent:
    """The best mean perfect-information value over all determinizations.

    ``use_merchant=False`` makes an agent that never uses the merchant's power (to
    measure what the power is worth).

    Parameters
    ----------
    table : Table
        The perfect-information table of the rules played (:func:`samarra.solve`).
    use_merchant : bool
        Whether the agent may use its merchant's power (default True).

    Attributes
    ----------
    name : str
        ``"determinizing"``.
    table : Table
    use_merchant : bool

    Examples
    --------
    >>> import random
    >>> from samarra import Rules, solve, start_position
    >>> table = solve(Rules(length=3))
    >>> p = start_position(table.rules, "SMD", "SMD")
    >>> agent = DeterminizingAgent(table)
    >>> agent.choose(View.of(p, p.to_move), options(p), random.Random(0)) in options(p)
    True
    """

    name = "determinizing"

    def __init__(self, table: Table, use_merchant: bool = True):
        if not isinstance(table, Table):
            raise TypeError(f"table must be a samarra Table, got {type(table).__name__}")
        from tabletop.validate import check_bool

        self.table = table
        self.use_merchant = check_bool("use_merchant", use_merchant)

    def score(self, world: Position, option: Option, me: int) -> float:
        after = next_position(world, _to_action(world, option))
        if after.is_over:
            return 1.0 if after.winner == me else -1.0
        v = self.table.raw(after)
        if after.to_move != me:
            v = -v
        if v > 0:
            return 1.0 - 1e-3 * v
        if v < 0:
            return -1.0 - 1e-3 * v
        tb = tie_break(after)
        return 0.0 if tb is None else (0.1 if tb == me else -0.1)

    def pool(self, view: View, opts: list[Option]) -> list[Option]:
        """The options of best mean value, which the agent draws from uniformly."""
        check_options(opts)
        if not self.use_merchant:
            opts = [o for o in opts if o.kind != "merchant"] or opts
        worlds = determinizations(view)
        means = [sum(self.score(w, o, view.side) for w in worlds) / len(worlds) for o in opts]
        best = max(means)
        return [o for o, m in zip(opts, means, strict=True) if m >= best - 1e-12]

    def probabilities(self, view: View, opts: list[Option]) -> list[float]:
        """The probability of each option (uniform over :meth:`pool`)."""
        return _uniform_over(self.pool(view, opts), opts)

    def choose(self, view: View, opts: list[Option], rng: random.Random) -> Option:
        check_rng(rng)
        pool = self.pool(view, opts)
        return pool[rng.randrange(len(pool))]


class _Node:
    __slots__ = ("available", "children", "total", "visits")

    def __init__(self):
        self.children: dict[Option, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class ISMCTSAgent:
    """Single-observer information-set Monte Carlo tree search (Cowling, Powley and
    Whitehouse 2012), with leaves valued by the perfect-information table.

    Each of ``iterations`` iterations draws one determinization, walks down the tree of
    options (named by cells, so one tree serves every determinization) choosing by UCB1
    among the options available in that determinization, adds one new option, and
    values the position reached with the table, as :class:`DeterminizingAgent` does
    (``depth`` bounds the tree). The most visited root option is played.

    Parameters
    ----------
    table : Table
        The perfect-information table of the rules played (:func:`samarra.solve`).
    iterations : int
        Tree-search iterations per decision, at least 1 (default 200).
    depth : int
        Greatest depth of the tree, in actions, at least 1 (default 4).
    exploration : float
        The UCB1 exploration constant, at least 0 (default 0.7).

    Attributes
    ----------
    name : str
        ``"ismcts"``.
    leaf : DeterminizingAgent
        Values the positions at the tree's leaves.
    iterations, depth : int
    exploration : float

    Examples
    --------
    >>> import random
    >>> from samarra import Rules, solve, start_position
    >>> table = solve(Rules(length=3))
    >>> p = start_position(table.rules, "SMD", "SMD")
    >>> agent = ISMCTSAgent(table, iterations=20)
    >>> agent.choose(View.of(p, p.to_move), options(p), random.Random(0)) in options(p)
    True
    """

    name = "ismcts"

    def __init__(self, table: Table, iterations: int = 200, depth: int = 4,
                 exploration: float = 0.7):  # fmt: skip
        if not isinstance(table, Table):
            raise TypeError(f"table must be a samarra Table, got {type(table).__name__}")
        from tabletop.validate import check_float, check_int

        self.leaf = DeterminizingAgent(table)
        self.iterations = check_int("iterations", iterations, 1)
        self.depth = check_int("depth", depth, 1)
        self.exploration = check_float("exploration", exploration, 0.0)

    def _value(self, position: Position, me: int) -> float:
        if position.is_over:
            return 1.0 if position.winner == me else -1.0
        v = self.leaf.table.raw(position)
        if position.to_move != me:
            v = -v
        if v:
            return (1.0 - 1e-3 * abs(v)) * (1 if v > 0 else -1)
        tb = tie_break(position)
        return 0.0 if tb is None else (0.1 if tb == me else -0.1)

    def choose(self, view: View, opts: list[Option], rng: random.Random) -> Option:
        check_rng(rng)
        check_options(opts)
        me = view.side
        worlds = determinizations(view)
        root = _Node()
        for _ in range(self.iterations):
            p = worlds[rng.randrange(len(worlds))]
            node, path = root, []
            for _level in range(self.depth):
                if p.is_over:
                    break
                here = options(p) if path else opts
                if not here:
                    break
                children = node.children
                fresh = []
                for o in here:
                    c = children.get(o)
                    if c is None:
                        fresh.append(o)
                    else:
                        c.available += 1
                if fresh:
                    o = fresh[rng.randrange(len(fresh))]
                    node.children[o] = child = _Node()
                    child.available = 1
                else:
                    sign = 1 if p.to_move == me else -1

                    def ucb(o, node=node, sign=sign):
                        c = node.children[o]
                        mean = sign * c.total / c.visits
                        return mean + self.exploration * math.sqrt(math.log(c.available) / c.visits)

                    o = max(here, key=ucb)
                    child = node.children[o]
                p = next_position(p, _to_action(p, o))
                path.append(child)
                node = child
                if fresh:
                    break
            value = self._value(p, me)
            for n in path:
                n.visits += 1
                n.total += value
        best = max(root.children[o].visits for o in opts if o in root.children)
        pool = [o for o in opts if o in root.children and root.children[o].visits == best]
        return pool[rng.randrange(len(pool))]


def check_agent(name: str, agent) -> None:
    """``agent`` is an agent: an object (not a class) with a ``choose`` method."""
    if isinstance(agent, type):
        raise TypeError(f"{name} must be an agent, got the class {agent.__name__}: pass an "
                        f"instance, {agent.__name__}(...)")
    if not callable(getattr(agent, "choose", None)):
        raise TypeError(f"{name} must be an agent (with a choose method), got {agent!r:.80}")
