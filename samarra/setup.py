"""The setup game of Ce soir, à Samarra: which hidden setup to choose (docs/rules.md).

Both players choose their setup secretly and at once; then, in the perfect-information
reading, the game from the start position has the value the retrograde solve gives.
The setup game is the zero-sum matrix game whose entry for (Black's setup, White's
setup) is Black's result from that start: +1 win, -1 loss, 0 draw (at the start both
servants have the same rows to go, so the tie-break favours nobody). Its value and
optimal mixed setups come from the linear programme of
:func:`tabletop.matrix_games.solve_zero_sum`. What moving first is worth is the value
of the setup game to the side that moves first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from samarra.position import setups, start_position
from samarra.rules import BLACK, SIDES, Rules
from samarra.solve import Table, check_solve_options, solve
from tabletop.frozen import same_fields
from tabletop.matrix_games import solve_zero_sum
from tabletop.validate import (
    NON_NEGATIVE,
    PROBABILITY_DIFFERENCE,
    PROBABILITY_TOLERANCE,
    check_fields,
    check_instance,
    check_probabilities,
)

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, eq=False)
class SetupGame:
    """The setup game of one rules set.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
    payoff : pandas.DataFrame
        Black's result (+1, 0, -1) for each setup pair; index: Black's setup,
        columns: White's.
    distance : pandas.DataFrame
        Actions to the end under optimal play (0 for a draw).
    value : float
        The setup game's value to Black (-1..1 within 1e-9).
    black, white : pandas.Series
        Optimal mixed setups (probabilities indexed by setup, one per row, and per
        column, of ``payoff``; each >= 0 and summing to 1, within 1e-9).
    gap : float
        The LP solution's distance from an exact saddle point (>= 0; 0 up to tolerance).

    Examples
    --------
    >>> game = setup_game(Rules(length=3))
    >>> game.payoff.shape, game.black.index.name, abs(game.gap) < 1e-9
    ((6, 6), 'black setup', True)
    """

    rules: Rules
    payoff: pd.DataFrame
    distance: pd.DataFrame
    value: float
    black: pd.Series
    white: pd.Series
    gap: float

    def __post_init__(self):
        check_fields(self, value=PROBABILITY_DIFFERENCE, gap=NON_NEGATIVE)
        for name, mix, size in (("black", self.black, self.payoff.shape[0]),
                                ("white", self.white, self.payoff.shape[1])):  # fmt: skip
            check_probabilities(f"SetupGame.{name}", mix, size, rounding=PROBABILITY_TOLERANCE)

    __eq__ = same_fields

    @property
    def first_move_value(self) -> float:
        """The value of the setup game to the side that moves first."""
        return self.value if self.rules.first_side == BLACK else -self.value

    def outcome_shares(self) -> pd.Series:
        """Share of the setup pairs Black wins, draws, loses (all pairs equally likely)."""
        import pandas as pd

        flat = self.payoff.to_numpy().ravel()
        return pd.Series(
            {"black wins": np.mean(flat > 0), "draw": np.mean(flat == 0),
             "white wins": np.mean(flat < 0)}, name="share of setup pairs",
        )  # fmt: skip


def setup_values(table: Table) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Black's result and the distance for every setup pair, from a solved table.

    Parameters
    ----------
    table : Table
        The perfect-information table of the rules (:func:`samarra.solve.solve`).

    Returns
    -------
    payoff : pandas.DataFrame
        Black's result under optimal play, +1 win, 0 draw, -1 loss (int64), from
        the start position of each setup pair; index: Black's setup (``"black
        setup"``), columns: White's (``"white setup"``), both in the order of
        :func:`samarra.position.setups`.
    distance : pandas.DataFrame
        Actions to the end under optimal play (0 for a draw), same labels.

    Examples
    --------
    >>> payoff, distance = setup_values(solve(Rules(length=3)))
    >>> payoff.shape
    (6, 6)
    """
    check_instance("table", table, Table)
    import pandas as pd

    rules = table.rules
    names = setups(rules)
    payoff = np.zeros((len(names), len(names)), dtype=np.int64)
    distance = np.zeros_like(payoff)
    for i, black in enumerate(names):
        for j, white in enumerate(names):
            start = start_position(rules, black, white)
            v = table.value(start)
            payoff[i, j] = v.score if start.to_move == BLACK else -v.score
            distance[i, j] = v.distance
    index = pd.Index(names, name="black setup")
    columns = pd.Index(names, name="white setup")
    return pd.DataFrame(payoff, index, columns), pd.DataFrame(distance, index, columns)


def setup_game(rules: Rules | None = None, table: Table | None = None, **solve_options):
    """Solve the setup game of ``rules`` (see the module docstring).

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``, or the table's rules when ``table`` is given; given with a
        table, it must describe the same board and knobs as the table (the played-game
        knobs ``max_actions`` and ``horizon`` aside).
    table : Table, optional
        A solved table (else :func:`samarra.solve.solve` is called with
        ``solve_options``).
    **solve_options
        Passed to :func:`samarra.solve.solve` when ``table`` is None (with a table, or
        of another name, a TypeError): ``allow_large`` (a table larger than
        the memory available is refused before any work unless True), ``progress``
        (its bar), ``cache``, ``directory``. The solve is all the long work here: the
        setup game itself is one matrix game of setups x setups (6 x 6 for three
        figures), solved in milliseconds.

    Returns
    -------
    SetupGame

    Examples
    --------
    >>> game = setup_game(Rules(length=3))
    >>> round(float(game.black.sum()), 9), round(float(game.white.sum()), 9)
    (1.0, 1.0)
    """
    import pandas as pd

    from samarra.analyses import solvable_rules as _board_rules

    given = rules is not None
    rules = Rules.check(rules)  # checked even when the table's rules are used
    check_solve_options("setup_game", solve_options, table)
    if table is None:
        table = solve(rules, **solve_options)
    elif not isinstance(table, Table):
        raise TypeError(f"table must be a samarra Table, got {type(table).__name__}")
    elif given and _board_rules(rules) != _board_rules(table.rules):
        raise ValueError(f"rules and table disagree: the table was solved for "
                         f"{_board_rules(table.rules)!r}, the rules given are "
                         f"{_board_rules(rules)!r}")  # fmt: skip
    payoff, distance = setup_values(table)
    solution = solve_zero_sum(payoff.to_numpy())
    black = pd.Series(solution.row, index=payoff.index, name=f"{SIDES[0]} probability")
    white = pd.Series(solution.column, index=payoff.columns, name=f"{SIDES[1]} probability")
    return SetupGame(table.rules, payoff, distance, float(solution.value), black, white,
                     float(solution.gap))  # fmt: skip
