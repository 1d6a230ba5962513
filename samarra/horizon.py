"""The adjudicated game of Ce soir, à Samarra: the horizon knob (docs/rules.md).

With ``horizon = H`` the game ends after H actions and the seed's tie-break decides
(the servant with fewer rows to the enemy city wins; equal rows: draw). A position
where the side to move has no legal action is also adjudicated by the tie-break, as
in a played game. The game is finite, so backward induction solves it exactly: with
``V_t`` the value (+1, 0, -1) for the side to move when ``t`` actions remain,

    V_0(s) = tie-break(s),
    V_t(s) = max over actions: +1 for a winning action, -1 for a losing one, else
             V_{t-1}(s') if the same side moves again in s', -V_{t-1}(s') if not.

One sweep over the whole state index per ``t`` gives ``V_t`` of every position at
once, so the start positions' values for every H up to the maximum come from one
pass. The perfect-information table shortens the work: a position won (lost) in
``d <= t`` actions has ``V_t = +1`` (``-1``), since the forced result comes before
the horizon. This is how the seed's "closest servant wins" gets a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from samarra import _kernels as K
from samarra.position import Position, setups, start_position
from samarra.rules import BLACK, Rules
from samarra.solve import Table, solve
from tabletop.frozen import same_fields
from tabletop.matrix_games import solve_zero_sum
from tabletop.seeding import check_count
from tabletop.validate import check_instance

if TYPE_CHECKING:
    import pandas as pd


def horizon_values(table: Table, positions, max_horizon: int) -> np.ndarray:
    """Values (+1, 0, -1, side to move) of ``positions`` with 0..``max_horizon`` actions left.

    Returns an ``int8`` array of shape ``(max_horizon + 1, len(positions))``; row ``t``
    holds the values with ``t`` actions left before the tie-break (``actions_played``
    of the positions is ignored).

    Examples
    --------
    >>> from samarra import start_position
    >>> table = solve(Rules(length=3))
    >>> start = start_position(table.rules, "SMD", "SMD")  # White's servant is blocked
    >>> horizon_values(table, [start], 2)[:, 0].tolist()
    [0, 1, 1]
    """
    if not isinstance(table, Table):
        raise TypeError(f"table must be a samarra Table, got {type(table).__name__}")
    max_horizon = check_count("max_horizon", max_horizon)
    if isinstance(positions, str) or not hasattr(positions, "__iter__"):
        raise TypeError(f"positions must be a sequence of samarra Positions, got {positions!r:.80}")
    positions = list(positions)
    if not positions:
        raise ValueError("positions must hold at least one position, got none")
    for p in positions:
        if not isinstance(p, Position) or p.is_over:
            raise ValueError(f"positions must be samarra Positions of games not over, got {p!r}")
    targets = np.array([table.index(p) for p in positions], dtype=np.int64)
    geo = table.geometry
    return K.horizon_kernel(max_horizon, geo.n_states, *geo.args(table.rules),
                            *geo.blocks, table.dist,
                            targets)  # fmt: skip


@dataclass(frozen=True, eq=False)
class HorizonGame:
    """The setup game of the adjudicated game, for every horizon 0..``max_horizon``.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
    payoff : numpy.ndarray
        ``payoff[H, i, j]``: Black's result (+1, 0, -1) with horizon H when Black
        chooses setup ``setups[i]`` and White ``setups[j]``.
    setups : list of str
    summary : pandas.DataFrame
        Indexed by ``horizon``: the setup game's value to Black (LP), its value to the
        first mover, and the shares of setup pairs Black wins, draws and loses.
    """

    rules: Rules
    payoff: np.ndarray
    setups: list
    summary: pd.DataFrame

    def __post_init__(self):
        Rules.check(self.rules, default=False)

    __eq__ = same_fields

    def matrix(self, horizon: int) -> pd.DataFrame:
        """Black's results for every setup pair at one horizon."""
        import pandas as pd

        h = check_count("horizon", horizon)
        if h >= self.payoff.shape[0]:
            raise ValueError(f"horizon must be <= {self.payoff.shape[0] - 1}, got {h}")
        index = pd.Index(self.setups, name="black setup")
        return pd.DataFrame(self.payoff[h], index, pd.Index(self.setups, name="white setup"))


def solve_horizon(rules: Rules | None = None, max_horizon: int = 60, table: Table | None = None,
                  **solve_options) -> HorizonGame:  # fmt: skip
    """Solve the adjudicated game's setup game for every horizon up to ``max_horizon``.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``; ignored when ``table`` is given. Its ``horizon`` must be None.
    max_horizon : int
        Largest horizon H (actions; default 60).
    table : Table, optional
        The perfect-information table (else solved with ``solve_options``).

    Examples
    --------
    >>> game = solve_horizon(Rules(length=3), max_horizon=4)
    >>> game.summary.index.tolist()
    [0, 1, 2, 3, 4]
    """
    import pandas as pd

    rules = Rules.check(rules)  # checked even when the table's rules are used
    check_instance("table", table, Table, optional=True)
    if table is None:
        table = solve(rules, **solve_options)
    rules = table.rules
    names = setups(rules)
    starts = [start_position(rules, b, w) for b in names for w in names]
    values = horizon_values(table, starts, max_horizon).astype(np.int64)
    sign = 1 if rules.first_side == BLACK else -1
    payoff = (sign * values).reshape(max_horizon + 1, len(names), len(names))
    rows = []
    for h in range(max_horizon + 1):
        flat = payoff[h].ravel()
        value = solve_zero_sum(payoff[h]).value
        rows.append({"value to black": value, "value to first mover": sign * value,
                     "black wins": np.mean(flat > 0), "draw": np.mean(flat == 0),
                     "white wins": np.mean(flat < 0)})  # fmt: skip
    summary = pd.DataFrame(rows, index=pd.RangeIndex(max_horizon + 1, name="horizon"))
    return HorizonGame(rules, payoff, names, summary)
