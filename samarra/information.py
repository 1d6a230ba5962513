"""What each player of Ce soir, à Samarra knows: public actions, boards and action codes.

docs/rules.md (Information): each player sees their own figures, the cells of every
tent and every revealed identity. The setups are private; every action after them is
public as "which tent moved where, which power was used on which tent", with its
consequences (a merchant's reveal, a death, the end of the game). This module states
that once, for the OpenSpiel game (``samarra.openspiel``) and the hidden-information
solver (``samarra.hidden``):

* :func:`public_board` — the board as both players see it: a hidden tent is ``B``
  (Black's) or ``W`` (White's), a revealed identity its letter (``S M D`` Black's,
  ``s m d`` White's), an empty cell ``.``;
* :func:`public_token` — one played action as both players see it: who acted, what
  kind, from which cell on which cell, and the public board after it (so a reveal, an
  automatic death and a figure removed are all in it), and the winner if it ended the
  game;
* :func:`action_code` / :func:`code_action` — actions as integers that name the
  actor's own figure (which the actor knows) and target *cells*, never an enemy
  identity: a move of own figure ``f`` to cell ``c`` is ``f * n + c`` (``n`` cells),
  the merchant's power on the tent at ``c`` is ``3n + c``, Death's ``4n + c``, a pass
  ``5n``; setup ``i`` (of :func:`samarra.position.setups`) is ``5n + 1 + i``.

An information set of a player is then (own setup, the public tokens so far): perfect
recall, as docs/rules.md asks.
"""

from __future__ import annotations

from samarra.engine import Action
from samarra.position import Position
from samarra.rules import SIDES, Rules

_HIDDEN = "BW"
_LETTERS = "SMDsmd"


def n_play_codes(rules: Rules) -> int:
    """Codes of the play actions: moves, the two powers (by target cell) and the pass."""
    return 5 * rules.n_cells + 1


def public_board(position: Position) -> str:
    """The board both players see, cell 0 first (see the module docstring).

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> public_board(start_position(Rules(length=3), "SMD", "DSM"))
    'BBB...WWW'
    """
    out = ["."] * position.rules.n_cells
    for fig, cell in enumerate(position.cells):
        if cell >= 0:
            out[cell] = _LETTERS[fig] if position.revealed[fig] else _HIDDEN[fig // 3]
    return "".join(out)


def private_board(position: Position, side: int) -> str:
    """The board ``side`` sees: the public board with its own figures named.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> private_board(start_position(Rules(length=3), "SMD", "DSM"), 1)
    'BBB...dsm'
    """
    out = list(public_board(position))
    for fig in range(3 * side, 3 * side + 3):
        cell = position.cells[fig]
        if cell >= 0:
            out[cell] = _LETTERS[fig]
    return "".join(out)


def action_code(position: Position, action: Action) -> int:
    """The integer of a legal ``action`` in ``position`` (see the module docstring).

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> p = start_position(Rules(length=3), "SMD", "DSM")
    >>> action_code(p, Action("move", 1, 4))
    13
    """
    n = position.rules.n_cells
    if action.kind == "move":
        return action.figure * n + action.target
    if action.kind == "pass":
        return 5 * n
    enemy = 3 * (1 - position.to_move)
    cell = position.cells[enemy + action.target]
    return (3 if action.kind == "merchant" else 4) * n + cell


def code_action(position: Position, code: int) -> Action:
    """The engine action of play code ``code`` in ``position`` (the inverse of
    :func:`action_code`; legality is the caller's check).

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> p = start_position(Rules(length=3), "SMD", "DSM")
    >>> code_action(p, 13)
    Action(kind='move', figure=1, target=4)
    """
    n = position.rules.n_cells
    if code == 5 * n:
        return Action("pass")
    kind, cell = divmod(code, n)
    if kind < 3:
        return Action("move", kind, cell)
    enemy = 3 * (1 - position.to_move)
    target = position.cells[enemy : enemy + 3].index(cell)
    return Action("merchant" if kind == 3 else "death", 1 if kind == 3 else 2, target)


def public_action(position: Position, action: Action) -> str:
    """``action`` in ``position`` as both players see it, before its consequences.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> public_action(start_position(Rules(length=3), "SMD", "DSM"), Action("move", 1, 4))
    'black 1>4'
    """
    side = SIDES[position.to_move]
    if action.kind == "pass":
        return f"{side} pass"
    own = position.cells[3 * position.to_move + action.figure]
    if action.kind == "move":
        return f"{side} {own}>{action.target}"
    target = position.cells[3 * (1 - position.to_move) + action.target]
    return f"{side} {action.kind} {own}>{target}"


def public_token(before: Position, action: Action, after: Position) -> str:
    """One played action as both players see it, with its consequences.

    Examples
    --------
    >>> from samarra import Rules, start_position
    >>> from samarra.engine import apply_action
    >>> p = start_position(Rules(length=3), "SMD", "DSM")
    >>> a = Action("move", 1, 4)
    >>> public_token(p, a, apply_action(p, a))
    'black 1>4 B.B.B.WWW'
    """
    token = f"{public_action(before, action)} {public_board(after)}"
    if after.winner is not None:
        token += f" {SIDES[after.winner]} wins"
    return token


def mirror_cell(rules: Rules, cell: int) -> int:
    """The cell seen in a left-right mirror: column ``c`` becomes ``width - 1 - c``.

    Examples
    --------
    >>> mirror_cell(Rules(length=3), 3), mirror_cell(Rules(length=3), 4)
    (5, 4)
    """
    row, col = divmod(cell, rules.width)
    return row * rules.width + rules.width - 1 - col


def mirror_code(rules: Rules, code: int) -> int:
    """An action code (:func:`action_code`, setups included) seen in the left-right mirror:
    the same figure or power on the mirrored cell, the pass as it is, a setup's code that
    of its reversed row (:func:`samarra.position.setups`).

    Examples
    --------
    >>> rules = Rules(length=3)
    >>> mirror_code(rules, 12), mirror_code(rules, 45), mirror_code(rules, 46)
    (14, 45, 51)
    """
    from samarra.position import setups

    n = rules.n_cells
    if code < 5 * n:
        kind, cell = divmod(code, n)
        return kind * n + mirror_cell(rules, cell)
    if code == 5 * n:
        return code
    names = setups(rules)
    return 5 * n + 1 + names.index(names[code - 5 * n - 1][::-1])


def mirror_token(rules: Rules, token: str) -> str:
    """A public token (:func:`public_token`) seen in the left-right mirror.

    Examples
    --------
    >>> mirror_token(Rules(length=3), "black 0>3 .BBB..WWW")
    'black 2>5 BB...BWWW'
    """
    words = token.split(" ")
    w = rules.width
    act = 1 if words[1] == "pass" or ">" in words[1] else 2  # "merchant"/"death" first
    if ">" in words[act]:
        a, b = words[act].split(">")
        words[act] = f"{mirror_cell(rules, int(a))}>{mirror_cell(rules, int(b))}"
    board = words[act + 1]
    words[act + 1] = "".join(board[r : r + w][::-1] for r in range(0, len(board), w))
    return " ".join(words)
