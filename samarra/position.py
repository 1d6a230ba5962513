"""Positions of Ce soir, à Samarra: figures, flags, who moves; text board and setups.

A :class:`Position` is the whole state of a game (docs/rules.md): the cell of each of
the six figures (``-1`` when dead), which identities are revealed, which powers are
used, the side to move and the actions left in its turn, the actions played so far,
the winner once the game is won, and the bookkeeping of the optional rules (the
pass run of "Passer", the first move of the turn for "Répétition").

Figures are indexed ``side * 3 + figure``: 0-2 are Black's servant, merchant and
Death, 3-5 White's. A position is validated when built: two figures on one cell, a
figure off the board, or flags that contradict the figures raise ``ValueError``
naming the problem. A dead figure's power counts as used; a used power reveals its
figure. The engine builds the positions that follow a checked one from the rules
(``samarra.engine``) without checking them again (:func:`_trusted`); inside
:func:`checked_positions` it checks them too, the reference that the fast path is
held to.

The text board prints row ``length - 1`` (Samarra) at the top and row 0 (Baghdad)
at the bottom; Black's figures are ``S M D``, White's ``s m d``, a ``*`` marks a
revealed identity and ``.`` an empty cell. :func:`parse_position` reads it back.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import numbers
from dataclasses import dataclass, field

from samarra.rules import BLACK, DEATH, FIGURES, MERCHANT, SERVANT, SIDES, WHITE, Rules
from tabletop.validate import check_instance

LETTERS = "SMDsmd"
#: Passes in a row (full turns) that end the game under "Passer".
PASS_LIMIT = 4


def _bools(name: str, value, n: int) -> tuple[bool, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__len__") or len(value) != n:
        raise ValueError(f"{name} must be a sequence of {n} bools, got {value!r}")
    out = []
    for v in value:
        if not isinstance(v, bool) and not (isinstance(v, numbers.Integral) and v in (0, 1)):
            raise ValueError(f"{name} must hold bools, got {v!r} in {value!r}")
        out.append(bool(v))
    return tuple(out)


#: True inside :func:`checked_positions`: the engine's positions are checked when built.
_CHECKED = contextvars.ContextVar("samarra_checked_positions", default=False)


@contextlib.contextmanager
def checked_positions():
    """Check every position the engine builds, as the public constructor does.

    Outside this block the engine builds a position that follows from a checked one by
    the rules (an action applied, a determinization) without checking it again
    (:func:`_trusted`), and the solved table reads a position's index in plain Python.
    Inside it, every such position goes through :class:`Position`'s checks and the
    table through :func:`samarra.solve.state_of` and the kernel's ``encode``: the
    reference path, slower, that tests and ``benchmarks/bench_samarra_play.py`` hold
    the fast path to (same positions, same games).

    Examples
    --------
    >>> with checked_positions():
    ...     p = start_position(Rules(), "SMD", "SMD")
    """
    token = _CHECKED.set(True)
    try:
        yield
    finally:
        _CHECKED.reset(token)


def figure_name(index: int) -> str:
    """``"black servant"`` ... ``"white death"`` for figure index 0..5."""
    return f"{SIDES[index // 3]} {FIGURES[index % 3]}"


@dataclass(frozen=True)
class Position:
    """One state of a game; immutable and validated.

    Parameters
    ----------
    rules : Rules
    cells : tuple of 6 ints
        Cell of each figure (``side * 3 + figure``), ``-1`` when dead: any sequence of
        six ints, stored as a tuple.
    revealed : tuple of 6 bools
        Identities both players know (stored False for a dead figure); any sequence,
        stored as a tuple, as are the next two.
    merchant_used, death_used : tuple of 2 bools
        Powers used (or lost with their figure), per side.
    to_move : int
        ``BLACK`` (0) or ``WHITE`` (1).
    actions_left : int
        1 or 2, actions left in the current turn.
    actions_played : int
        Actions played since the start (for ``max_actions`` and ``horizon``).
    winner : int or None
        The side that has won; a won position has no legal action.
    pass_run, turn_passes : int
        Under ``allow_pass``: full turns passed in a row before this turn, and passes
        made in this turn so far.
    last_move : tuple (figure, cell) or None
        Under ``no_repetition``: the figure moved by the first action of this turn and
        the cell it left (it may not go back).

    Examples
    --------
    >>> p = start_position(Rules(), "SMD", "DMS")
    >>> print(p)
    to move: black, actions left: 1, played: 0
    used: black -, white -
    4 | d  m  s
    3 | .  .  .
    2 | .  .  .
    1 | .  .  .
    0 | S  M  D
    >>> parse_position(str(p), Rules()) == p
    True
    """

    rules: Rules
    cells: tuple[int, ...]
    revealed: tuple[bool, ...] = (False,) * 6
    merchant_used: tuple[bool, bool] = (False, False)
    death_used: tuple[bool, bool] = (False, False)
    to_move: int = BLACK
    actions_left: int = 1
    actions_played: int = 0
    winner: int | None = None
    pass_run: int = 0
    turn_passes: int = 0
    last_move: tuple[int, int] | None = field(default=None)

    def __post_init__(self):
        set_ = object.__setattr__
        rules = Rules.check(self.rules, default=False)
        cells = self.cells
        if isinstance(cells, str | bytes) or not hasattr(cells, "__len__") or len(cells) != 6:
            raise ValueError(f"cells must hold 6 cells (-1 for dead), got {cells!r}")
        checked = []
        for i, c in enumerate(cells):
            if isinstance(c, bool) or not isinstance(c, numbers.Integral):
                raise ValueError(f"cells[{i}] ({figure_name(i)}) must be an int, got {c!r}")
            if not -1 <= c < rules.n_cells:
                raise ValueError(
                    f"cells[{i}]: {figure_name(i)} is off the board: cell {c}, the board has cells "
                    f"0..{rules.n_cells - 1} (-1 for dead)"
                )
            checked.append(int(c))
        live = [c for c in checked if c >= 0]
        if len(set(live)) != len(live):
            twice = sorted({c for c in live if live.count(c) > 1})
            raise ValueError(f"cells: two figures on one cell: cell {twice[0]}")
        set_(self, "cells", tuple(checked))
        # a dead figure is off the board: its revealed flag is dropped (always False)
        revealed = _bools("revealed", self.revealed, 6)
        set_(self, "revealed", tuple(r and c >= 0 for r, c in zip(revealed, checked, strict=True)))
        set_(self, "merchant_used", _bools("merchant_used", self.merchant_used, 2))
        set_(self, "death_used", _bools("death_used", self.death_used, 2))
        for name, low, high in (("to_move", 0, 1), ("actions_left", 1, 2)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not low <= v <= high:
                raise ValueError(f"{name} must be {low}..{high}, got {v!r}")
            set_(self, name, int(v))
        for name, high in (("actions_played", None), ("pass_run", PASS_LIMIT - 1),
                           ("turn_passes", 2 - self.actions_left)):  # fmt: skip
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                raise ValueError(f"{name} must be an int >= 0, got {v!r}")
            if high is not None and v > high:
                raise ValueError(f"{name} must be 0..{high}, got {v}")
            set_(self, name, int(v))
        if self.winner is not None and self.winner not in (BLACK, WHITE):
            raise ValueError(f"winner must be None, 0 (black) or 1 (white), got {self.winner!r}")
        if self.last_move is not None:
            fig, origin = self.last_move
            if not 0 <= fig < 6 or not 0 <= origin < rules.n_cells:
                raise ValueError(f"last_move must be (figure 0..5, cell), got {self.last_move!r}")
            set_(self, "last_move", (int(fig), int(origin)))
        self._check_flags()

    @classmethod
    def _trusted(cls, rules, cells, revealed, merchant_used, death_used, to_move,
                 actions_left, actions_played, winner, pass_run, turn_passes,
                 last_move) -> Position:  # fmt: skip
        """A position built without checks from fields the engine derived by the rules
        from a checked position, already in the form the checks give them: tuples of
        plain ints and bools, no revealed flag on a dead figure, ``last_move`` a tuple
        or None. Inside :func:`checked_positions` it is built by the checking
        constructor instead."""
        if _CHECKED.get():
            return cls(rules, cells, revealed, merchant_used, death_used, to_move,
                       actions_left, actions_played, winner, pass_run, turn_passes,
                       last_move)  # fmt: skip
        out = object.__new__(cls)
        out.__dict__.update(
            rules=rules, cells=cells, revealed=revealed, merchant_used=merchant_used,
            death_used=death_used, to_move=to_move, actions_left=actions_left,
            actions_played=actions_played, winner=winner, pass_run=pass_run,
            turn_passes=turn_passes, last_move=last_move,
        )  # fmt: skip
        return out

    def _check_flags(self) -> None:
        cells, revealed = self.cells, self.revealed
        for side in (BLACK, WHITE):
            name = SIDES[side]
            base = 3 * side
            dead = [f for f in range(3) if cells[base + f] < 0]
            if len(dead) > 1:
                raise ValueError(
                    f"{name} has {len(dead)} dead figures; a side loses at most one figure"
                )
            if SERVANT in dead and self.winner != 1 - side:
                raise ValueError(f"{name}'s servant is dead, so {SIDES[1 - side]} must be winner")
            for fig, used in ((MERCHANT, self.merchant_used), (DEATH, self.death_used)):
                flag = "merchant_used" if fig == MERCHANT else "death_used"
                if cells[base + fig] < 0 and not used[side]:
                    raise ValueError(
                        f"{name}'s {FIGURES[fig]} is dead but {flag}[{side}] is False "
                        f"(a dead figure's power counts as used)"
                    )
                if cells[base + fig] >= 0 and used[side] and not revealed[base + fig]:
                    raise ValueError(
                        f"{flag}[{side}] is True but {name}'s {FIGURES[fig]} is not revealed "
                        f"(a used power reveals its figure)"
                    )
            if dead and not self.death_used[1 - side]:
                raise ValueError(
                    f"{name}'s {FIGURES[dead[0]]} is dead but death_used[{1 - side}] is False "
                    f"(only {SIDES[1 - side]}'s Death kills, by its power or auto-death)"
                )
            own = (False, self.merchant_used[side], self.death_used[side])
            extra = [f for f in range(3) if revealed[base + f] and not own[f]]
            if len(extra) > 1 or (extra and not self.merchant_used[1 - side]):
                raise ValueError(
                    f"{name}'s revealed identities {[FIGURES[f] for f in extra]} need the "
                    f"{SIDES[1 - side]} merchant's power (used once, one figure)"
                )
        if self.last_move is not None and cells[self.last_move[0]] < 0:
            raise ValueError(f"last_move names a dead figure: {self.last_move!r}")
        if self.last_move is not None and (self.actions_left != 1 or self.turn_passes):
            raise ValueError(f"last_move {self.last_move!r} is set only after a turn's first "
                             "action, a move (actions_left 1, turn_passes 0)")  # fmt: skip

    # -- views --------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    def occupant(self, cell: int) -> int:
        """The figure index on ``cell``, or -1 for an empty cell."""
        try:
            return self.cells.index(cell)
        except ValueError:
            return -1

    def key(self) -> tuple:
        """What a repetition compares: figures, flags, side to move, actions left."""
        return (self.cells, self.revealed, self.merchant_used, self.death_used,
                self.to_move, self.actions_left, self.pass_run, self.turn_passes,
                self.last_move)  # fmt: skip

    def __str__(self) -> str:
        return format_position(self)


def format_position(position: Position) -> str:
    """The text board of ``position`` (see the module docstring).

    Parameters
    ----------
    position : Position

    Returns
    -------
    str
        A header (side to move, actions left, actions played), the powers used, any
        winner, pass count and last move, then the board's rows from the top (White's
        city) down, one mark per cell: ``S M D`` Black's figures, ``s m d`` White's,
        ``*`` revealed, ``.`` empty. :func:`parse_position` reads it back.

    Examples
    --------
    >>> print(format_position(start_position(Rules(length=3), "SMD", "DMS")))
    to move: black, actions left: 1, played: 0
    used: black -, white -
    2 | d  m  s
    1 | .  .  .
    0 | S  M  D
    """
    check_instance("position", position, Position)
    p, rules = position, position.rules
    lines = [
        f"to move: {SIDES[p.to_move]}, actions left: {p.actions_left}, "
        f"played: {p.actions_played}"
    ]
    used = []
    for side in (BLACK, WHITE):
        marks = ("M" if p.merchant_used[side] else "") + ("D" if p.death_used[side] else "")
        used.append(f"{SIDES[side]} {marks or '-'}")
    lines.append("used: " + ", ".join(used))
    if p.winner is not None:
        lines.append(f"winner: {SIDES[p.winner]}")
    if p.pass_run or p.turn_passes:
        lines.append(f"passes: run {p.pass_run}, this turn {p.turn_passes}")
    if p.last_move is not None:
        lines.append(f"last move: {LETTERS[p.last_move[0]]} from {p.last_move[1]}")
    for row in range(rules.length - 1, -1, -1):
        marks = []
        for col in range(rules.width):
            who = p.occupant(row * rules.width + col)
            marks.append("." if who < 0 else LETTERS[who] + ("*" if p.revealed[who] else ""))
        lines.append(f"{row} | " + " ".join(m.ljust(2) for m in marks).rstrip())
    return "\n".join(lines)


def _parse_error(line: str, why: str) -> ValueError:
    return ValueError(f"text: cannot parse position line {line!r}: {why}")


def parse_position(text: str, rules: Rules | None = None) -> Position:
    """Read a text board written by :func:`format_position` (or by hand).

    Parameters
    ----------
    text : str
        The board; the board's size must match ``rules``.
    rules : Rules, optional
        Default ``Rules()``.

    Returns
    -------
    Position
        The position written, checked as any :class:`Position` is (an impossible
        board raises ValueError).

    Examples
    --------
    >>> p = parse_position('''to move: white, actions left: 2, played: 5
    ... used: black M, white -
    ... 2 | s  .  d
    ... 1 | m  M* .
    ... 0 | S  .  D''', Rules(length=3))
    >>> p.cells, p.revealed[1]
    ((0, 4, 2, 6, 3, 8), True)
    """
    rules = Rules.check(rules)
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 2 + rules.length:
        raise ValueError(
            f"text: a {rules.width} x {rules.length} position needs a header, a 'used:' line "
            f"and {rules.length} rows, got {len(lines)} lines"
        )
    head = lines[0]
    try:
        parts = dict(part.strip().split(": ") for part in head.split(","))
        to_move = SIDES.index(parts["to move"])
        actions_left = int(parts["actions left"])
        played = int(parts["played"])
    except (ValueError, KeyError):
        why = "expected 'to move: <side>, actions left: <n>, played: <n>'"
        raise _parse_error(head, why) from None
    used = {"M": [False, False], "D": [False, False]}
    if not lines[1].startswith("used: "):
        raise _parse_error(lines[1], "expected 'used: black <M/D/->, white <M/D/->'")
    for side, item in enumerate(lines[1][6:].split(",")):
        name, _, marks = item.strip().partition(" ")
        if side > 1 or name != SIDES[side] or not set(marks) <= {"M", "D", "-"}:
            raise _parse_error(lines[1], "expected 'used: black <M/D/->, white <M/D/->'")
        for m in marks.replace("-", ""):
            used[m][side] = True
    extra = {"winner": None, "pass_run": 0, "turn_passes": 0, "last_move": None}
    rows = lines[2:]
    while rows and not rows[0][0].isdigit():
        line = rows.pop(0)
        label, _, value = line.partition(": ")
        try:
            if label == "winner":
                extra["winner"] = SIDES.index(value)
            elif label == "passes":
                run, this = value.split(", ")
                extra["pass_run"] = int(run.removeprefix("run "))
                extra["turn_passes"] = int(this.removeprefix("this turn "))
            elif label == "last move":
                letter, _, origin = value.partition(" from ")
                extra["last_move"] = (LETTERS.index(letter), int(origin))
            else:
                raise ValueError(label)
        except ValueError:
            raise _parse_error(line, "unknown or malformed line") from None
    if len(rows) != rules.length:
        raise ValueError(f"text must hold the {rules.length} board rows of rules.length="
                         f"{rules.length}, got {len(rows)}")  # fmt: skip
    cells, revealed = [-1] * 6, [False] * 6
    for k, line in enumerate(rows):
        row = rules.length - 1 - k
        label, bar, body = line.partition("|")
        if not bar or label.strip() != str(row):
            raise _parse_error(line, f"expected row {row} as '{row} | ...'")
        marks = body.split()
        if len(marks) != rules.width:
            raise _parse_error(line, f"expected {rules.width} cells, got {len(marks)}")
        for col, mark in enumerate(marks):
            if mark == ".":
                continue
            if mark[0] not in LETTERS or mark[1:] not in ("", "*"):
                raise _parse_error(line, f"unknown cell {mark!r} (S M D s m d, '*', '.')")
            who = LETTERS.index(mark[0])
            if cells[who] >= 0:
                raise _parse_error(line, f"{figure_name(who)} appears twice")
            cells[who] = row * rules.width + col
            revealed[who] = mark.endswith("*")
    return Position(
        rules, tuple(cells), tuple(revealed), tuple(used["M"]), tuple(used["D"]),
        to_move, actions_left, played, **extra,
    )  # fmt: skip


def setups(rules: Rules) -> list[str]:
    """Every setup of one side: the figures on its city cells from column 0 upward.

    ``S``, ``M``, ``D`` name the figures and ``.`` an empty cell (boards wider than 3).

    Parameters
    ----------
    rules : Rules
        Only the board's ``width`` matters.

    Returns
    -------
    list of str
        ``width!/(width-3)!`` setups of ``width`` letters each, in the order servant,
        merchant, Death, empty of their first differing letter.

    Examples
    --------
    >>> setups(Rules())
    ['SMD', 'SDM', 'MSD', 'MDS', 'DSM', 'DMS']
    >>> len(setups(Rules(width=4)))
    24
    """
    rules = Rules.check(rules, default=False)
    out = []
    for cols in itertools.permutations(range(rules.width), 3):
        row = ["."] * rules.width
        for fig, col in enumerate(cols):
            row[col] = "SMD"[fig]
        out.append("".join(row))
    order = {"S": 0, "M": 1, "D": 2, ".": 3}
    return sorted(set(out), key=lambda s: [order[c] for c in s])


def _setup_cols(rules: Rules, setup: str, name: str) -> list[int]:
    if (
        not isinstance(setup, str)
        or len(setup) != rules.width
        or sorted(setup.replace(".", "")) != ["D", "M", "S"]
        or setup.count(".") != rules.width - 3
    ):
        raise ValueError(
            f"{name} must list S, M, D once each (and '.' for empty cells) over "
            f"{rules.width} city cells, got {setup!r}"
        )
    return [setup.index(letter) for letter in "SMD"]


def start_position(rules: Rules, black: str, white: str) -> Position:
    """The position before the opening action, for a pair of setups.

    Parameters
    ----------
    rules : Rules
    black, white : str
        Each side's setup, one of :func:`setups` (``"SMD"``: servant, merchant, Death
        on columns 0, 1, 2). Black's city is row 0, White's the top row.

    Returns
    -------
    Position
        Nothing revealed or used; ``rules.first_side`` to move, with a 1-action turn.

    Examples
    --------
    >>> start_position(Rules(), "SMD", "SMD").cells
    (0, 1, 2, 12, 13, 14)
    """
    rules = Rules.check(rules, default=False)
    top = (rules.length - 1) * rules.width
    cells = _setup_cols(rules, black, "black setup") + [
        top + c for c in _setup_cols(rules, white, "white setup")
    ]
    return Position(rules, tuple(cells), to_move=rules.first_side, actions_left=1)
