"""The rules of Ce soir, à Samarra as one frozen, validated object (docs/rules.md).

Every knob of the game (docs/rules.md, Ce soir, à Samarra) is a field of
:class:`Rules`. Cells are numbered ``row * width + column``; row 0 is Baghdad
(Black's city), row ``length - 1`` is Samarra (White's city). Each side owns three
figures, numbered ``SERVANT = 0``, ``MERCHANT = 1``, ``DEATH = 2``; sides are
``BLACK = 0`` and ``WHITE = 1``.

Choices the seed's text leaves open, made here (each stated where it is used; all
listed in docs/rules.md, Ce soir, à Samarra: rulings on open cases):

* moves are always orthogonal; ``adjacency`` only governs the two powers;
* *auto-death* and *arrival* mean entering the enemy city from outside it (a move
  from a row outside the city into it); a figure already in the city that steps
  sideways neither dies nor "arrives";
* a board needs ``width >= 3`` (three figures per city) and ``length >= 3``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.validate import CheckedRules, check_bool, check_choice, check_int

BLACK, WHITE = 0, 1
SIDES = ("black", "white")
SERVANT, MERCHANT, DEATH = 0, 1, 2
FIGURES = ("servant", "merchant", "death")
ADJACENCIES = ("orthogonal", "king")
MAX_CELLS = 40


@dataclass(frozen=True)
class Rules(CheckedRules):
    """Ce soir, à Samarra rules; the defaults are those of docs/rules.md.

    Parameters
    ----------
    width, length : int
        Columns (>= 3) and rows (>= 3) of the board, ``width * length <= 40``
        (default 3 × 5).
    first : {"black", "white"}
        Who plays the opening 1-action turn (default ``"black"``).
    adjacency : {"orthogonal", "king"}
        What "adjacent" means for the merchant's and Death's powers.
    auto_death, allow_pass, no_repetition : bool
        The seed's optional rules (default all False).
    win_on_arrival_only : bool
        True: the servant wins only on the action that brings it into the enemy city
        (from outside); False (default): the win by arrival is checked after every
        own action.
    max_actions : int
        A played game reaching this many actions is adjudicated (default 400).
    horizon : int or None
        When set, the game ends after ``horizon`` actions and the tie-break decides
        (the adjudicated game of docs/rules.md; default None).

    Examples
    --------
    >>> Rules().n_cells
    15
    >>> Rules(width=2)
    Traceback (most recent call last):
    ...
    ValueError: width must be 3..40, got 2
    """

    width: int = 3
    length: int = 5
    first: str = "black"
    adjacency: str = "orthogonal"
    auto_death: bool = False
    allow_pass: bool = False
    no_repetition: bool = False
    win_on_arrival_only: bool = False
    max_actions: int = 400
    horizon: int | None = None


    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "width", check_int("width", self.width, 3, MAX_CELLS))
        set_(self, "length", check_int("length", self.length, 3, MAX_CELLS))
        if self.width * self.length > MAX_CELLS:
            raise ValueError(
                f"width * length must be <= {MAX_CELLS}, got {self.width} * {self.length}"
            )
        set_(self, "first", check_choice("first", self.first, SIDES))
        set_(self, "adjacency", check_choice("adjacency", self.adjacency, ADJACENCIES))
        for name in ("auto_death", "allow_pass", "no_repetition", "win_on_arrival_only"):
            set_(self, name, check_bool(name, getattr(self, name)))
        set_(self, "max_actions", check_int("max_actions", self.max_actions, 1))
        if self.horizon is not None:
            set_(self, "horizon", check_int("horizon", self.horizon, 0))

    @property
    def n_cells(self) -> int:
        """Cells on the board."""
        return self.width * self.length

    @property
    def first_side(self) -> int:
        """``BLACK`` or ``WHITE``: who plays the opening action."""
        return SIDES.index(self.first)

    def city_row(self, side: int) -> int:
        """The row of ``side``'s own city (0 for Black, ``length - 1`` for White)."""
        return 0 if side == BLACK else self.length - 1

    def in_city(self, cell: int, side: int) -> bool:
        """Whether ``cell`` lies in ``side``'s own city."""
        return cell // self.width == self.city_row(side)

    def rows_to_go(self, cell: int, side: int) -> int:
        """Rows between a ``side`` figure on ``cell`` and the enemy city."""
        row = cell // self.width
        return self.length - 1 - row if side == BLACK else row

    def steps(self, cell: int) -> list[int]:
        """Orthogonal neighbours of ``cell`` (where a figure on it may move)."""
        row, col = divmod(cell, self.width)
        out = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            r, c = row + dr, col + dc
            if 0 <= r < self.length and 0 <= c < self.width:
                out.append(r * self.width + c)
        return out

    def neighbours(self, cell: int) -> list[int]:
        """Cells adjacent to ``cell`` for the powers (``adjacency`` knob), ascending."""
        if self.adjacency == "orthogonal":
            return self.steps(cell)
        row, col = divmod(cell, self.width)
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = row + dr, col + dc
                if (dr or dc) and 0 <= r < self.length and 0 <= c < self.width:
                    out.append(r * self.width + c)
        return out

    def solver_key(self) -> str:
        """The knobs a perfect-information solve depends on, as a short string."""
        key = (
            f"{self.width}x{self.length}-{self.adjacency}-auto{int(self.auto_death)}"
            f"-arrival{int(self.win_on_arrival_only)}"
        )
        return key + "-pass" * self.allow_pass + "-norep" * self.no_repetition
