"""The rules of Ce soir, à Samarra in plain Python: actions and their effect (docs/rules.md).

This is the readable reference of the game. :func:`legal_actions` lists the actions
of the side to move, sorted; :func:`apply_action` plays one and refuses an illegal
one with the rule it breaks; :func:`tie_break` is the seed's "closest servant wins";
:class:`Game` plays a game to its end and adjudicates it as docs/rules.md says (third
repetition, no legal action, ``max_actions``, ``horizon``). The numba kernels of
``samarra._kernels`` implement the same moves for the solver; the tests hold the
two against each other. A position that follows from a checked one by these rules is
built without checking it again (``Position._trusted``: played games and the agents'
look-ahead build tens of thousands); inside :func:`samarra.position.checked_positions`
every one is checked, and the tests hold both paths to the same games.

Rules, in the order :func:`apply_action` applies them:

1. *move*: one own figure one step orthogonally to an empty cell. With
   ``auto_death``, a figure entering the enemy city while the enemy Death stands
   there with its power unused dies at once, and that power is used (and Death
   revealed). With ``no_repetition`` the second action of a turn may not move back
   the figure the first action moved (the turn would end where it began).
2. *merchant*: own merchant alive, power unused; a hidden enemy figure adjacent to it
   (``adjacency`` knob) is revealed, and so is the merchant.
3. *death*: own Death alive, power unused; an adjacent enemy figure is removed; Death
   is revealed. Killing the servant wins.
4. *pass* (``allow_pass``): nothing moves. After four full turns passed in a row
   (both players, twice), the player who began passing loses.
5. Then, for the side that acted only: its servant in the enemy city while the enemy
   Death is not there wins (with ``win_on_arrival_only``, only on the move that
   brings the servant in).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import NamedTuple

from samarra.position import PASS_LIMIT, Position, figure_name
from samarra.rules import BLACK, DEATH, MERCHANT, SERVANT, SIDES, WHITE, Rules
from tabletop.validate import check_fields, check_instance, check_int

KINDS = ("move", "merchant", "death", "pass")


class _ActionFields(NamedTuple):
    kind: str
    figure: int = -1
    target: int = -1


class Action(_ActionFields):
    """One action: ``kind``, the own figure acting (0-2) and its target.

    ``target`` is a cell for a move, an enemy figure (0-2) for a power, -1 for a pass.
    Built only from those: any other kind, figure or target is a TypeError or
    ValueError naming the field (whether the action is legal in a position is
    :func:`check_action`'s question).

    Attributes
    ----------
    kind : str
        One of ``KINDS``: ``"move"``, ``"merchant"``, ``"death"`` or ``"pass"``.
    figure : int
        The own figure acting: 0 servant, 1 merchant, 2 Death; -1 for a pass.
    target : int
        The destination cell of a move, the enemy figure (0-2) of a power, -1 for a
        pass.

    Examples
    --------
    >>> str(Action("move", 2, 4)), str(Action("death", 2, 0))
    ('move death to 4', 'death kills servant')
    >>> Action("death", 2, 7)
    Traceback (most recent call last):
    ...
    ValueError: target of a death must be an enemy figure 0..2, got 7
    """

    __slots__ = ()

    def __new__(cls, kind: str, figure: int = -1, target: int = -1):
        if kind not in KINDS or not isinstance(kind, str):
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        if type(figure) is not int or type(target) is not int:  # the engine's own: plain ints
            figure = check_int("figure", figure, -1, 2)
            target = check_int("target", target, -1)
        if kind == "pass":
            if figure != -1 or target != -1:
                raise ValueError(f"figure and target of a pass must be -1, got "
                                 f"{figure!r} and {target!r}")  # fmt: skip
        elif not 0 <= figure <= 2:
            raise ValueError(f"figure of a {kind} must be an own figure 0..2, got "
                             f"{figure!r}")  # fmt: skip
        elif kind == "move" and target < 0:
            raise ValueError(f"target of a move must be a cell >= 0, got {target!r}")
        elif kind != "move" and not 0 <= target <= 2:
            raise ValueError(f"target of a {kind} must be an enemy figure 0..2, got "
                             f"{target!r}")  # fmt: skip
        return super().__new__(cls, kind, figure, target)

    def __str__(self) -> str:
        def name(i):
            return ("servant", "merchant", "death")[i] if i in (0, 1, 2) else f"figure {i!r}"

        if self.kind == "move":
            return f"move {name(self.figure)} to {self.target}"
        if self.kind == "merchant":
            return f"merchant reveals {name(self.target)}"
        if self.kind == "death":
            return f"death kills {name(self.target)}"
        return str(self.kind)


def _order(action: Action) -> tuple:
    """The order of :func:`legal_actions`: kind (as in ``KINDS``), figure, target."""
    return (KINDS.index(action.kind), action.figure, action.target)


@functools.lru_cache(maxsize=64)
def _board(rules: Rules) -> tuple[tuple, tuple]:
    """Each cell's steps, ascending, and power neighbours (``rules.steps``,
    ``rules.neighbours``), listed once per rules."""
    cells = range(rules.n_cells)
    return (tuple(tuple(sorted(rules.steps(c))) for c in cells),
            tuple(tuple(rules.neighbours(c)) for c in cells))  # fmt: skip


trusted_action = Action._make  # an Action from fields the engine knows legal, without the checks


def hidden(position: Position, figure: int) -> bool:
    """Whether figure ``figure`` (0-5) is alive and its identity unknown to its enemy."""
    return position.cells[figure] >= 0 and not position.revealed[figure]


def horizon_reached(position: Position) -> bool:
    """Whether ``position`` is at or past its rules' ``horizon`` (no action remains)."""
    h = position.rules.horizon
    return h is not None and position.actions_played >= h


def legal_actions(position: Position) -> list[Action]:
    """The actions of the side to move, sorted (moves, merchant, Death, pass).

    A won position, or one at the ``horizon``, has none.

    Parameters
    ----------
    position : Position
        The position (the side to move is ``position.to_move``).

    Returns
    -------
    list of Action
        Sorted by kind (in the order of ``KINDS``), then figure, then target.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> p = start_position(Rules(), "SMD", "SMD")
    >>> [str(a) for a in legal_actions(p)]
    ['move servant to 3', 'move merchant to 4', 'move death to 5']
    """
    check_instance("position", position, Position)
    p, rules = position, position.rules
    if p.is_over or horizon_reached(p):
        return []
    steps, neighbours = _board(rules)
    me, base, enemy = p.to_move, 3 * p.to_move, 3 * (1 - p.to_move)
    cells = p.cells
    out = []
    for fig in range(3):
        cell = cells[base + fig]
        if cell < 0:
            continue
        for dest in steps[cell]:
            if dest in cells:
                continue  # occupied (a dead figure's -1 is no cell)
            if p.last_move == (base + fig, dest) and p.actions_left == 1:
                continue  # no_repetition: the turn would end where it began
            out.append(trusted_action(("move", fig, dest)))
    merchant = cells[base + MERCHANT]
    if merchant >= 0 and not p.merchant_used[me]:
        near = neighbours[merchant]
        for g in range(3):
            if hidden(p, enemy + g) and cells[enemy + g] in near:
                out.append(trusted_action(("merchant", MERCHANT, g)))
    death = cells[base + DEATH]
    if death >= 0 and not p.death_used[me]:
        near = neighbours[death]
        for g in range(3):
            if cells[enemy + g] in near:
                out.append(trusted_action(("death", DEATH, g)))
    if rules.allow_pass:
        out.append(trusted_action(("pass", -1, -1)))
    # made in sorted order: by kind, then figure, then target (steps are ascending)
    return out


def check_action(position: Position, action) -> Action:
    """Return ``action`` as an :class:`Action` if legal, else raise ValueError saying why.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> check_action(start_position(Rules(), "SMD", "SMD"), ("move", 0, 4))
    Traceback (most recent call last):
    ...
    ValueError: illegal action move servant to 4 (Action(kind='move', figure=0, target=4)): \
cell 4 is not one orthogonal step from cell 0
    """
    if not isinstance(action, tuple) or len(action) != 3:
        raise TypeError(f"action must be an Action (kind, figure, target), got {action!r}")
    action = Action(*action)  # a kind, figure and target of the right types and ranges
    if position.is_over:
        raise ValueError(f"illegal action {action}: the game is over")
    if horizon_reached(position):
        raise ValueError(f"illegal action {action}: the horizon of {position.rules.horizon} "
                         "actions is reached")  # fmt: skip
    if action in legal_actions(position):
        return action
    raise ValueError(f"illegal action {action} ({action!r}): {_why(position, action)}")


def _why(p: Position, a: Action) -> str:
    rules, me = p.rules, p.to_move
    base, enemy = 3 * me, 3 * (1 - me)
    if a.kind == "pass":
        return "passing needs the optional rule allow_pass"
    if not isinstance(a.figure, int) or not 0 <= a.figure < 3:
        return f"figure must be 0 (servant), 1 (merchant) or 2 (death), got {a.figure!r}"
    cell = p.cells[base + a.figure]
    if cell < 0:
        return f"the {figure_name(base + a.figure)} is dead"
    if a.kind == "move":
        if a.target not in rules.steps(cell):
            return f"cell {a.target} is not one orthogonal step from cell {cell}"
        if p.occupant(a.target) >= 0:
            return f"cell {a.target} is occupied by the {figure_name(p.occupant(a.target))}"
        return "no_repetition: the turn may not end in the position it began in"
    if (a.kind == "merchant") != (a.figure == MERCHANT) or (a.kind == "death") != (
        a.figure == DEATH
    ):
        return f"the {a.kind}'s power is used by the {a.kind}, not figure {a.figure}"
    used = p.merchant_used if a.kind == "merchant" else p.death_used
    if used[me]:
        return f"{SIDES[me]}'s {a.kind} power is already used"
    if not isinstance(a.target, int) or not 0 <= a.target < 3:
        return f"a power targets an enemy figure 0..2, got {a.target!r}"
    target = enemy + a.target
    if p.cells[target] < 0:
        return f"the {figure_name(target)} is dead"
    if p.cells[target] not in rules.neighbours(cell):
        return f"the {figure_name(target)} is not adjacent ({rules.adjacency}) to the {a.kind}"
    return f"the {figure_name(target)} is already revealed"


def _arrival_win(cells, rules: Rules, me: int, arrived: bool) -> bool:
    servant = cells[3 * me + SERVANT]
    if servant < 0 or not rules.in_city(servant, 1 - me):
        return False
    if rules.win_on_arrival_only and not arrived:
        return False
    death = cells[3 * (1 - me) + DEATH]
    return death < 0 or not rules.in_city(death, 1 - me)


def apply_action(position: Position, action) -> Position:
    """The position after ``action`` (checked: an illegal action raises ValueError).

    Parameters
    ----------
    position : Position
        The position before the action.
    action : Action or tuple
        ``(kind, figure, target)``; it must be among :func:`legal_actions` of
        ``position``, else a ValueError says which rule it breaks.

    Returns
    -------
    Position
        A new position (``position`` is unchanged): the action counted, the turn
        passed on once its actions are spent, a win recorded in ``winner``.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> p = apply_action(start_position(Rules(), "SMD", "SMD"), Action("move", 0, 3))
    >>> p.to_move, p.actions_left, p.cells[0]
    (1, 2, 3)
    """
    check_instance("position", position, Position)
    action = check_action(position, action)
    return next_position(position, action)


def next_position(p: Position, a: Action) -> Position:
    """The position after the legal action ``a``: built without checks from the checked
    ``p`` (``Position._trusted``; a figure that dies loses its revealed flag, as the
    checks would drop it)."""
    rules, me = p.rules, p.to_move
    base, enemy = 3 * me, 3 * (1 - me)
    cells, revealed = list(p.cells), list(p.revealed)
    m_used, d_used = list(p.merchant_used), list(p.death_used)
    kind = a.kind
    winner = None
    entered = False
    if kind == "move":
        fig = base + a.figure
        origin = cells[fig]
        entered = rules.in_city(a.target, 1 - me) and not rules.in_city(origin, 1 - me)
        cells[fig] = a.target
        enemy_death = cells[enemy + DEATH]
        if (rules.auto_death and entered and not d_used[1 - me] and enemy_death >= 0
                and rules.in_city(enemy_death, 1 - me)):  # fmt: skip
            cells[fig] = -1
            revealed[fig] = False  # a dead figure's identity is not kept
            d_used[1 - me] = True
            revealed[enemy + DEATH] = True
            if a.figure == SERVANT:
                winner = 1 - me
            elif a.figure == MERCHANT:
                m_used[me] = True
            else:
                d_used[me] = True
    elif kind == "merchant":
        m_used[me] = True
        revealed[base + MERCHANT] = True
        revealed[enemy + a.target] = True
    elif kind == "death":
        d_used[me] = True
        revealed[base + DEATH] = True
        cells[enemy + a.target] = -1
        revealed[enemy + a.target] = False
        if a.target == SERVANT:
            winner = me
        elif a.target == MERCHANT:
            m_used[1 - me] = True
        else:
            d_used[1 - me] = True
    arrived = entered and a.figure == SERVANT
    if winner is None and kind != "pass" and _arrival_win(cells, rules, me, arrived):
        winner = me
    return _advance(p, a, cells, revealed, m_used, d_used, winner)


def _advance(p: Position, a: Action, cells: list, revealed: list, m_used: list, d_used: list,
             winner: int | None) -> Position:  # fmt: skip
    """Count the action, end the turn when its actions are spent, run the pass rule."""
    rules, me = p.rules, p.to_move
    turn_passes = p.turn_passes + (a.kind == "pass") if rules.allow_pass else 0
    last_move = None
    moved_alive = a.kind == "move" and cells[3 * me + a.figure] >= 0
    if rules.no_repetition and moved_alive and p.actions_left == 2:
        last_move = (3 * me + a.figure, p.cells[3 * me + a.figure])
    to_move, actions_left, pass_run = me, p.actions_left - 1, p.pass_run
    if actions_left == 0:
        turn_length = 1 if p.actions_played == 0 else 2
        pass_run = pass_run + 1 if rules.allow_pass and turn_passes == turn_length else 0
        if pass_run >= PASS_LIMIT and winner is None:
            winner = me  # the player who began the passing was the opponent
        pass_run = min(pass_run, PASS_LIMIT - 1)
        to_move, actions_left, turn_passes, last_move = 1 - me, 2, 0, None
    return type(p)._trusted(rules, tuple(cells), tuple(revealed), tuple(m_used),
                            tuple(d_used), to_move, actions_left, p.actions_played + 1,
                            winner, pass_run, int(turn_passes), last_move)  # fmt: skip


def tie_break(position: Position) -> int | None:
    """The seed's "closest servant wins": the side whose servant has fewer rows to go.

    ``None`` for equal rows (a draw), or when both servants are dead.

    Parameters
    ----------
    position : Position
        The position to adjudicate.

    Returns
    -------
    int or None
        ``BLACK`` (0) or ``WHITE`` (1), the side whose servant is closer to the enemy
        city (a side whose servant alone is alive wins); None for a draw.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> tie_break(start_position(Rules(), "SMD", "DSM")) is None
    True
    """
    check_instance("position", position, Position)
    rules, cells = position.rules, position.cells
    rows = []
    for side in (BLACK, WHITE):
        servant = cells[3 * side + SERVANT]
        rows.append(None if servant < 0 else rules.rows_to_go(servant, side))
    if rows[0] is None and rows[1] is None:
        return None
    if rows[0] is None or rows[1] is None:
        return WHITE if rows[0] is None else BLACK
    if rows[0] == rows[1]:
        return None
    return BLACK if rows[0] < rows[1] else WHITE


#: How a played game can end: a win, or the tie-break's adjudication and why.
END_REASONS = ("win", "repetition", "no_action", "max_actions", "horizon")


@dataclass(frozen=True)
class GameResult:
    """How a played game ended: ``winner`` (None: draw), ``reason``, actions played.

    Attributes
    ----------
    winner : int or None
        ``BLACK`` (0) or ``WHITE`` (1); None for a draw.
    reason : str
        ``"win"`` (servant killed, arrival, the pass rule), or the adjudication by
        :func:`tie_break`: ``"repetition"`` (third occurrence), ``"no_action"``,
        ``"max_actions"`` or ``"horizon"``.
    n_actions : int
        Actions played in the game.
    final : Position
        The last position.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> game = Game(start_position(Rules(max_actions=1), "SMD", "SMD"))
    >>> game.play(Action("move", 0, 3))
    >>> r = game.result
    >>> r.winner, r.reason, r.n_actions, r.final is game.position
    (0, 'max_actions', 1, True)
    """

    winner: int | None
    reason: str
    n_actions: int
    final: Position

    def __post_init__(self):
        check_fields(self, winner=(BLACK, WHITE), reason=END_REASONS, n_actions=(0, None))


class Game:
    """A played game, adjudicated as docs/rules.md says.

    The game ends with a win (servant killed, arrival, the pass rule), or is
    adjudicated by :func:`tie_break` when a position occurs for the third time, when
    the side to move has no legal action, at ``max_actions`` or at ``horizon``.

    Parameters
    ----------
    start : Position
        The position the game starts from.

    Attributes
    ----------
    position : Position
        The current position.
    history : list of Position
        Every position of the game, ``start`` first, ``position`` last.
    result : GameResult or None
        How the game ended; None while it goes on.

    Examples
    --------
    >>> from samarra.position import start_position
    >>> game = Game(start_position(Rules(max_actions=3), "SMD", "SMD"))
    >>> for a in [Action("move", 0, 3), Action("move", 0, 9), Action("move", 0, 6)]:
    ...     game.play(a)
    >>> game.result.reason, game.result.winner
    ('max_actions', 1)
    """

    def __init__(self, start: Position):
        if not isinstance(start, Position):
            raise TypeError(f"start must be a samarra Position, got {type(start).__name__}")
        self.position = start
        self.history = [start]
        self._seen = {start.key(): 1}
        self.result: GameResult | None = None
        self._legal: tuple = (None, [])
        self._settle()

    def _settle(self) -> None:
        p = self.position
        reason = None
        if p.is_over:
            self.result = GameResult(p.winner, "win", p.actions_played, p)
            return
        if self._seen[p.key()] >= 3:
            reason = "repetition"
        elif horizon_reached(p):
            reason = "horizon"
        elif p.actions_played >= p.rules.max_actions:
            reason = "max_actions"
        else:
            self._legal = (p, legal_actions(p))  # what play checks the next action against
            if not self._legal[1]:
                reason = "no_action"
        if reason is not None:
            self.result = GameResult(tie_break(p), reason, p.actions_played, p)

    def play(self, action) -> None:
        """Play ``action`` (checked) and adjudicate if the game ends."""
        if self.result is not None:
            raise ValueError(f"illegal action {action!r}: the game is over ({self.result.reason})")
        p = self.position
        seen, legal = self._legal
        if seen is not p or type(action) is not Action or action not in legal:
            action = check_action(p, action)  # raises, saying why, unless legal
        self.position = next_position(p, action)
        self.history.append(self.position)
        key = self.position.key()
        self._seen[key] = self._seen.get(key, 0) + 1
        self._settle()


def play_random_game(start: Position, rng: random.Random) -> GameResult:
    """Play uniformly random legal actions from ``start`` to the adjudicated end."""
    game = Game(start)
    while game.result is None:
        actions = legal_actions(game.position)
        game.play(actions[rng.randrange(len(actions))])
    return game.result

