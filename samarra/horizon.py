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

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from samarra import _kernels as K
from samarra.position import Position, setups, start_position
from samarra.rules import BLACK, Rules
from samarra.solve import Table, check_solve_options, n_states, solve
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.matrix_games import solve_zero_sum
from tabletop.seeding import check_count
from tabletop.validate import check_array_fields, check_fields, check_instance

if TYPE_CHECKING:
    import pandas as pd

#: Bytes a horizon's summary row holds while :func:`solve_horizon` builds it (a dict
#: of five numpy floats, then a DataFrame row), measured with tracemalloc.
SUMMARY_ROW_BYTES = 1000


#: The reachable induction gives way to the whole-index sweep when the states it must
#: visit pass this share of the index.
REACHABLE_SHARE = 0.125

#: The share of the index reachable from the 36 start positions, found within about 31
#: actions: 8.63% on 3 x 3 and 8.68% on 3 x 4 of the table's entries (mirror images
#: share one; it was 11.6% of the unfolded index); the index also ranks placements no
#: game reaches. It bounds the states a long horizon visits (:func:`reachable_bound`).
REACHED_SHARE = 0.09

#: Growth per action of the states reachable from the start positions while far from
#: that share (measured over the first 10 actions: 2.2 a step on 3 x 3, 2.6 on 3 x 5).
REACH_GROWTH = 2.6

#: Bytes per reachable state at the reachable induction's peak (the states found, the
#: children of a layer before they are deduplicated, then the sort and the two value
#: rows), measured with tracemalloc; on top of one byte per index entry (the states
#: seen).
REACH_BYTES = 20


def reachable_bound(n_states: int, n_targets: int, max_horizon: int) -> int:
    """The states the reachable induction visits for ``n_targets`` positions and
    ``max_horizon`` actions, as estimated before it starts: the targets times
    :data:`REACH_GROWTH` per action, at most :data:`REACHED_SHARE` of the index.

    Examples
    --------
    >>> reachable_bound(10**9, 36, 4), reachable_bound(10**9, 36, 60)
    (1645, 90000000)
    """
    cap = REACHED_SHARE * n_states
    if max_horizon * math.log(REACH_GROWTH) >= math.log(max(cap / max(n_targets, 1), 1)):
        return int(cap)
    return int(n_targets * REACH_GROWTH**max_horizon)


def horizon_size(n_states: int, n_targets: int, max_horizon: int) -> Estimate:
    """Memory and time of the backward induction to ``max_horizon`` from ``n_targets``
    positions, on an index of ``n_states``: the reachable induction's (one byte per
    index entry and :data:`REACH_BYTES` per reachable state, :func:`reachable_bound`;
    when it gives way to the whole-index sweep, that sweep's two bytes per entry fit
    in the same bound), one value per target and horizon, and, in
    :func:`solve_horizon`, an ``int64`` payoff per target and horizon (``n_targets``
    is then the setup pairs). The time is the states visited per horizon over
    ``samarra.analyses.HORIZON_RATE``.

    Examples
    --------
    >>> horizon_size(1000, 4, 9).nbytes
    2840
    """
    from samarra.analyses import HORIZON_RATE

    reach = reachable_bound(n_states, n_targets, max_horizon)
    nbytes = n_states + REACH_BYTES * reach + (max_horizon + 1) * n_targets
    return Estimate("samarra horizon", nbytes, {"max_horizon": max_horizon},
                    max_horizon * reach / HORIZON_RATE,
                    f"{n_states:,} states x 1 byte + {reach:,} reachable states x "
                    f"{REACH_BYTES} bytes + {max_horizon + 1:,} horizons x {n_targets} "
                    "positions")  # fmt: skip


def horizon_values(table: Table, positions, max_horizon: int, *, allow_large: bool = False,
                   progress: bool | None = None) -> np.ndarray:  # fmt: skip
    """Values (+1, 0, -1, side to move) of ``positions`` with 0..``max_horizon`` actions left.

    Returns an ``int8`` array of shape ``(max_horizon + 1, len(positions))``; row ``t``
    holds the values with ``t`` actions left before the tie-break (``actions_played``
    of the positions is ignored).

    The induction sweeps the whole state index once per action, in ranges that return
    to Python several times a second: a bar shows it (``progress``: default when
    stderr is a terminal) and Ctrl-C stops it. A ``max_horizon`` whose arrays exceed
    the memory available is refused before any work (``MemoryError``) unless
    ``allow_large=True``.

    Parameters
    ----------
    table : Table
        The perfect-information table (:func:`samarra.solve`).
    positions : sequence of Position
        At least one, of games not over.
    max_horizon : int
        Largest number of actions left (>= 0).
    allow_large : bool
        Go ahead when the arrays exceed the memory available.
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    numpy.ndarray of int8
        Shape ``(max_horizon + 1, len(positions))``, as above.

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
    show_progress(progress)
    geo = table.geometry
    check_memory(horizon_size(geo.n_states, len(positions), max_horizon), allow_large)
    targets = np.array([table.index(p) for p in positions], dtype=np.int64)
    values = _reachable_induction(table, targets, max_horizon, progress)
    if values is None:
        values = _induction(table, targets, max_horizon, progress)
    return values


def _reachable_induction(table: Table, targets: np.ndarray, max_horizon: int,
                         progress) -> np.ndarray | None:  # fmt: skip
    """``out[t, i]`` as :func:`_induction` gives it, visiting only the states reachable
    from the targets within ``max_horizon`` actions, or None when those pass
    :data:`REACHABLE_SHARE` of the index.

    A breadth-first search finds each reachable state's depth ``d`` (the fewest actions
    from a target); a state settled by one action whatever is left is not expanded (see
    ``samarra._kernels.horizon_fanout``). The induction then runs over those states
    alone, the value with ``t`` actions left only for states with ``d <= H - t``: a
    state's children have depth at most ``d + 1``, so every value it reads was
    computed one step before. A short horizon touches a small part of the index (to 10
    actions on 3 x 5: 0.6 M of the 127 M states), and even a long one on 3 x 4 visits
    about 6% of it.
    """
    geo = table.geometry
    args = (*geo.args(table.rules), *geo.blocks, table.dist)
    limit = REACHABLE_SHARE * geo.n_states
    seen = np.zeros(geo.n_states, np.bool_)
    frontier = np.unique(targets)
    seen[frontier] = True
    found = [frontier]
    total = frontier.size
    with progress_bar(2 * max_horizon, "samarra horizon", progress, "step") as bar:
        for _ in range(max_horizon):
            counts = np.zeros(frontier.size + 1, np.int64)
            K.horizon_fanout(frontier, False, counts, *args, counts[1:])
            first = np.cumsum(counts)
            children = np.empty(first[-1], np.int64)
            K.horizon_fanout(frontier, True, first, *args, children)
            children = np.unique(children)
            frontier = children[~seen[children]]
            seen[frontier] = True
            if frontier.size == 0:  # every reachable state found
                break
            found.append(frontier)
            total += frontier.size
            if total > limit:
                return None
            bar.update(1)
        del seen
        # sort the states with their depths as one int64 key each, in place
        sizes = [f.size for f in found]
        states = np.concatenate(found)
        del found
        stride = len(sizes)
        states *= stride
        states += np.repeat(np.arange(stride, dtype=np.int64), sizes)
        states.sort()
        depth = (states % stride).astype(np.int32)
        states //= stride
        prev, cur = np.empty(states.size, np.int8), np.empty(states.size, np.int8)
        K.reach_start(states, geo.n, geo.width, geo.length, *geo.blocks, geo.layout, prev)
        where = np.searchsorted(states, targets)
        out = np.empty((max_horizon + 1, targets.size), np.int8)
        out[0] = prev[where]
        for t in range(1, max_horizon + 1):
            K.reach_step(t, max_horizon - t, states, depth, *args, prev, cur)
            out[t] = cur[where]
            prev, cur = cur, prev
            bar.update(1)
    return out


def _induction(table: Table, targets: np.ndarray, max_horizon: int, progress) -> np.ndarray:
    """``out[t, i]``: the value of state ``targets[i]`` with ``t`` actions left."""
    geo = table.geometry
    n = geo.n_states
    rules = table.rules
    prev = np.empty(n, np.int8)
    cur = np.empty(n, np.int8)
    out = np.empty((max_horizon + 1, targets.size), np.int8)
    chunks = Chunks(n, first=16 * K.CHUNK)
    for lo, hi in chunks:
        K.horizon_start(lo, hi, geo.n, geo.width, geo.length, *geo.blocks, geo.layout, prev)
    out[0] = prev[targets]
    args = (*geo.args(rules), *geo.blocks, table.dist)
    with progress_bar(max_horizon, "samarra horizon", progress, "action") as bar:
        for t in range(1, max_horizon + 1):
            for lo, hi in chunks:
                K.horizon_step(t, lo, hi, *args, prev, cur)
            out[t] = cur[targets]
            prev, cur = cur, prev
            bar.update(1)
    return out


@dataclass(frozen=True, eq=False)
class HorizonSolution:
    """The setup game of the adjudicated game, for every horizon 0..``max_horizon``.

    What :func:`solve_horizon` returns. ``HorizonGame``, its earlier name, stays
    importable as an alias of this class.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    rules : Rules
    payoff : numpy.ndarray
        ``payoff[H, i, j]``: Black's result (+1, 0, -1) with horizon H when Black
        chooses setup ``setups[i]`` and White ``setups[j]`` (an integer array).
    setups : list of str
    summary : pandas.DataFrame
        Indexed by ``horizon``: the setup game's value to Black (LP), its value to the
        first mover, and the shares of setup pairs Black wins, draws and loses.

    Examples
    --------
    >>> game = solve_horizon(Rules(length=3), max_horizon=1)
    >>> game.payoff.shape == (2, len(game.setups), len(game.setups))
    True
    >>> game.matrix(1).shape == (len(game.setups), len(game.setups))
    True
    """

    rules: Rules
    payoff: np.ndarray
    setups: list
    summary: pd.DataFrame

    def __post_init__(self):
        check_fields(self)
        for i, setup in enumerate(self.setups):
            if not isinstance(setup, str):
                raise TypeError(f"HorizonSolution.setups[{i}] must be a setup string such as "
                                f"'SMD', got {setup!r} ({type(setup).__name__})")  # fmt: skip
        check_array_fields(self, ("payoff",), "int", ndim=3, low=-1, high=1)
        pairs = (len(self.setups),) * 2
        if self.payoff.shape[1:] != pairs:
            raise ValueError(f"HorizonSolution.payoff must have shape (horizons, {pairs[0]}, "
                             f"{pairs[1]}), one row and column per setup, got "
                             f"{self.payoff.shape}")  # fmt: skip

    __eq__ = same_fields

    def matrix(self, horizon: int) -> pd.DataFrame:
        """Black's results for every setup pair at one horizon."""
        import pandas as pd

        h = check_count("horizon", horizon)
        if h >= self.payoff.shape[0]:
            raise ValueError(f"horizon must be <= {self.payoff.shape[0] - 1}, got {h}")
        index = pd.Index(self.setups, name="black setup")
        return pd.DataFrame(self.payoff[h], index, pd.Index(self.setups, name="white setup"))


#: The earlier name of :class:`HorizonSolution` (``samarra.HorizonGame``), kept importable.
HorizonGame = HorizonSolution


def solve_horizon(rules: Rules | None = None, max_horizon: int = 60, table: Table | None = None,
                  *, allow_large: bool = False, progress: bool | None = None,
                  **solve_options) -> HorizonSolution:  # fmt: skip
    """Solve the adjudicated game's setup game for every horizon up to ``max_horizon``.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``; ignored when ``table`` is given. Its ``horizon`` must be None.
    max_horizon : int
        Largest horizon H (actions; default 60).
    table : Table, optional
        The perfect-information table (else solved with ``solve_options``).
    allow_large : bool
        Go ahead when the arrays exceed the memory available (default False: refuse
        with a ``MemoryError`` before any work; see :func:`horizon_size`).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).
    **solve_options
        Passed to :func:`samarra.solve` when ``table`` is not given: ``cache``,
        ``directory`` (with a table, or of another name, a TypeError).

    Returns
    -------
    HorizonSolution

    Examples
    --------
    >>> game = solve_horizon(Rules(length=3), max_horizon=4)
    >>> game.summary.index.tolist()
    [0, 1, 2, 3, 4]
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules)  # checked even when the table's rules are used
    max_horizon = check_count("max_horizon", max_horizon)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_instance("table", table, Table, optional=True)
    check_solve_options("solve_horizon", solve_options, table, allowed=("cache", "directory"))
    source = table.rules if table is not None else rules
    n_pairs = len(setups(source)) ** 2
    size = horizon_size(n_states(source), n_pairs, max_horizon)
    # beside the induction's arrays: the values and the payoff (int64, 16 bytes per pair
    # and horizon) and a summary row per horizon (SUMMARY_ROW_BYTES)
    size = replace(size, nbytes=size.nbytes + (max_horizon + 1) * (16 * n_pairs
                                                                   + SUMMARY_ROW_BYTES))
    check_memory(size, allow_large)
    if table is None:
        table = solve(rules, allow_large=allow_large, progress=progress, **solve_options)
    rules = table.rules
    names = setups(rules)
    starts = [start_position(rules, b, w) for b in names for w in names]
    values = horizon_values(table, starts, max_horizon, allow_large=True,
                            progress=progress).astype(np.int64)
    sign = 1 if rules.first_side == BLACK else -1
    payoff = (sign * values).reshape(max_horizon + 1, len(names), len(names))
    rows = []
    with progress_bar(max_horizon + 1, "samarra setup games", progress, "horizon") as bar:
        for h in range(max_horizon + 1):
            flat = payoff[h].ravel()
            value = solve_zero_sum(payoff[h]).value
            rows.append({"value to black": value, "value to first mover": sign * value,
                         "black wins": np.mean(flat > 0), "draw": np.mean(flat == 0),
                         "white wins": np.mean(flat < 0)})  # fmt: skip
            bar.update(1)
    summary = pd.DataFrame(rows, index=pd.RangeIndex(max_horizon + 1, name="horizon"))
    return HorizonSolution(rules, payoff, names, summary)
