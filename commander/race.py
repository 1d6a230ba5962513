"""The race to the win threshold through the market, solved exactly by dynamic programming.

A player starts turn 1 with ``gold``, ``doublons`` and the Company's ``stock``.
Following docs/rules.md, Victory: a player who *starts* a turn with ``win_gold`` gold wins.
Otherwise, in turn ``t`` the player collects ``income[t]`` doublons (the collect
phase: lair, territories, agreements), makes one transaction in the trade phase
(buy or sell up to ``max_gold_per_transaction`` gold, or pass), and before the next
turn the rivals take ``min(drain[t], stock)`` gold from the stock (their purchases;
``drain = 0`` is the solitaire race). Income and drain are streams: an int, or a
sequence whose last value repeats.

More doublons never hurt (every transaction open to a poorer purse is open to a
richer one, and the move keeps the order), so the state ``(turn, gold, stock)``
needs only the largest purse that reaches it. The forward recursion

``best[t + 1, g', s'] = max over (g, s, k) of best[t, g, s] + income[t] - cost(k)``

is exact; the first turn with a reachable ``g >= win_gold`` is the **minimum
winning turn**, and the largest purse there is the cheapest way to win that soon.
Spending is ``net_cost = doublons + income collected - purse left``; the
``by_turn`` table shows it for every winning turn, the trade-off of winning later.
Tests hold the recursion against a breadth-first search over full
``(gold, doublons, stock)`` states without the dominance argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from commander._kernels import RacePlan, race_step, race_table_starts
from commander.market import market_arrays
from commander.rules import Rules
from tabletop.budget import (
    Chunks,
    Estimate,
    check_memory,
    interruptible,
    progress_bar,
    show_progress,
)
from tabletop.frozen import same_fields
from tabletop.validate import check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


DEFAULT_HORIZON = 60


def _stream(name: str, value, horizon: int) -> np.ndarray:
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a sequence of ints, got {value!r}")
    items = [value] if np.ndim(value) == 0 else list(value)
    if not items:
        raise ValueError(f"{name} must hold at least one value, got an empty sequence")
    checked = [check_int(f"{name}[{i}]", v, 0, 10**6) for i, v in enumerate(items)]
    out = np.full(horizon, checked[-1], dtype=np.int64)
    n = min(len(checked), horizon)
    out[:n] = checked[:n]
    return out


@dataclass(frozen=True, eq=False)
class RaceResult:
    """The exact race from one start.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    win_turn : int or None
        Smallest turn at whose start the player can hold ``win_gold`` (None: not
        within the horizon).
    doublons_left : int or None
        Largest purse at that turn.
    net_cost : int or None
        Doublons spent on the market, net of sales, by the cheapest fastest plan.
    plan : tuple of int
        One signed transaction per turn ``1..win_turn - 1`` realising it.
    by_turn : pandas.DataFrame
        Index ``turn`` (every turn the player can first win at); columns
        ``doublons_left`` and ``net_cost`` of the cheapest plan winning then.

    Examples
    --------
    >>> r = solve_race(Rules(), gold=0, doublons=5, stock=10, income=4)
    >>> r.win_turn, r.doublons_left, r.net_cost, len(r.plan) == r.win_turn - 1
    (9, 1, 36, True)
    >>> r.by_turn.loc[10].tolist()   # a turn later, four more doublons kept
    [5, 36]
    """

    win_turn: int | None
    doublons_left: int | None
    net_cost: int | None
    plan: tuple[int, ...]
    by_turn: pd.DataFrame

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)
        found = (self.win_turn, self.doublons_left, self.net_cost)
        if (self.win_turn is None) != (self.doublons_left is None) or \
                (self.win_turn is None) != (self.net_cost is None):  # fmt: skip
            raise ValueError(f"RaceResult.win_turn, .doublons_left and .net_cost must be all "
                             f"None (no win within the horizon) or all ints, got {found!r}")
        if self.win_turn is not None:
            check_int("RaceResult.win_turn", self.win_turn, 1)
            check_int("RaceResult.doublons_left", self.doublons_left, 0)
            if len(self.plan) != self.win_turn - 1:
                raise ValueError(f"RaceResult.plan must hold one transaction per turn before "
                                 f"RaceResult.win_turn ({self.win_turn - 1}), got "
                                 f"{len(self.plan)}")  # fmt: skip


#: Cells of the ``(turn, gold, stock)`` table :func:`race_table` goes through per second
#: (most are unreachable and skipped): about 8e8 measured on 2 shared cores with the
#: default market; the estimate uses less, to be on the safe side. The single race of
#: :func:`solve_race` has no time estimate: its plan, walked back in Python, dominates.
RACE_RATE = 5e8


def race_size(n_values: int, horizon: int, starts: int = 1) -> Estimate:
    """Memory and time of the forward recursion over ``n_values`` gold and stock values
    (``gold + stock + 1`` in :func:`solve_race`, ``max(total, win_gold) + 1`` in
    :func:`race_table`) and ``horizon`` turns, for ``starts`` starts: one ``int64``
    table of ``(horizon + 1) × n_values²`` cells at a time.

    Examples
    --------
    >>> race_size(11, 9).nbytes
    9680
    """
    cells = (horizon + 1) * n_values**2
    knobs = {"gold + stock": n_values - 1, "horizon": horizon}
    if starts > 1:
        knobs = {"total": n_values - 1, "horizon": horizon}
    seconds = starts * cells / RACE_RATE if starts > 1 else None
    return Estimate("commander race", 8 * cells, knobs, seconds,
                    f"{horizon + 1:,} turns x {n_values:,}² int64 cells"
                    + (f", {starts:,} starts one after another" if starts > 1 else ""))


def _setup(rules, gold, doublons, stock, income, drain, horizon):
    gold = check_int("gold", gold, 0, 1000)
    doublons = check_int("doublons", doublons, 0, 10**6)
    stock = check_int("stock", stock, 0, 1000)
    horizon = check_int("horizon", horizon, 1, 1000)
    inc = _stream("income", income, horizon)
    dr = _stream("drain", drain, horizon)
    buy, sell = market_arrays(rules, gold + stock)
    return gold, doublons, stock, horizon, inc, dr, buy, sell


def solve_race(
    rules: Rules, gold: int, doublons: int, stock: int, income=0, drain=0,
    horizon: int = DEFAULT_HORIZON, *, allow_large: bool = False, progress: bool | None = None,
) -> RaceResult:
    """Minimum winning turn and the cheapest plan achieving it (see module docstring).

    Parameters
    ----------
    rules : Rules
    gold, doublons, stock : int
        The player's gold and doublons and the Company's stock at the start of turn 1.
    income : int or sequence of int
        Doublons collected in turn ``t`` (the last value repeats).
    drain : int or sequence of int
        Gold the rivals take from the stock after turn ``t`` (the last value repeats).
    horizon : int
        Turns searched.
    allow_large : bool
        Solve even when the table (:func:`race_size`, up to 32 GB within the bounds
        of ``gold``, ``stock`` and ``horizon``) exceeds the memory available (default
        False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar over the turns (default: when stderr is a terminal); the
        recursion returns to Python every turn, so Ctrl-C stops it.

    Returns
    -------
    RaceResult

    Examples
    --------
    >>> r = solve_race(Rules(), gold=0, doublons=5, stock=10, income=4)
    >>> r.win_turn, r.plan   # buy at 2 from 10, sell back at 3 into 9, twice
    (9, (1, -1, 1, -1, 1, 3, 3, 3))
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    gold, doublons, stock, horizon, inc, dr, buy, sell = _setup(
        rules, gold, doublons, stock, income, drain, horizon)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    win = rules.win_gold
    if gold >= win:
        frame = pd.DataFrame({"doublons_left": [doublons], "net_cost": [0]},
                             index=pd.Index([1], name="turn"))
        return RaceResult(1, doublons, 0, (), frame)
    n_g = buy.shape[0]
    check_memory(race_size(n_g, horizon), allow_large)
    best = np.full((horizon + 1, n_g, n_g), -1, dtype=np.int64)
    best[0, gold, stock] = doublons
    plan = RacePlan(buy, sell, inc, dr, win, rules.max_gold_per_transaction, horizon)
    with progress_bar(horizon, "commander race", progress, "turn") as bar:
        for t in interruptible(range(horizon)):  # race_forward_kernel, a turn a call
            race_step(plan, best, t)
            bar.update(1)
    collected = np.concatenate([[0], np.cumsum(inc)])
    rows = {}
    for t in range(1, horizon + 1):
        top = int(best[t, win:, :].max()) if best.shape[1] > win else -1
        if top >= 0:
            rows[t + 1] = (top, doublons + int(collected[t]) - top)
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["doublons_left", "net_cost"])
    frame.index.name = "turn"
    frame = frame.astype("int64")
    if not rows:
        return RaceResult(None, None, None, (), frame)
    first = min(rows)
    plan = _plan(rules, best, first - 1, inc, dr, buy, sell)
    return RaceResult(first, rows[first][0], rows[first][1], plan, frame)


def _plan(rules, best, t_end, inc, dr, buy, sell) -> tuple[int, ...]:
    """Walk back from the best winning state of ``best[t_end]`` to the start."""
    win, cap = rules.win_gold, rules.max_gold_per_transaction
    sub = best[t_end, win:, :]
    g, s = np.unravel_index(int(sub.argmax()), sub.shape)
    g, s, d = int(g) + win, int(s), int(sub.max())
    plan = []
    for t in range(t_end - 1, -1, -1):
        found = None
        for gp in range(min(win, best.shape[1])):
            for sp in range(best.shape[2]):
                dp = int(best[t, gp, sp])
                if dp < 0:
                    continue
                for k in range(-min(cap, gp), min(cap, sp) + 1):
                    if sp - k >= best.shape[2]:
                        continue
                    cost = int(buy[sp, k]) if k >= 0 else -int(sell[sp, -k])
                    d2 = dp + int(inc[t]) - cost
                    s2 = max(sp - k - int(dr[t]), 0)
                    if d2 == d and gp + k == g and s2 == s and dp + int(inc[t]) >= cost:
                        found = (gp, sp, dp, k)
                        break
                if found:
                    break
            if found:
                break
        assert found is not None, "the recursion has a predecessor for every reached state"
        g, s, d, k = found
        plan.append(k)
    return tuple(reversed(plan))


def race_table(
    rules: Rules, doublons: int, income=0, drain=0, horizon: int = DEFAULT_HORIZON,
    total: int | None = None, *, allow_large: bool = False, progress: bool | None = None,
) -> pd.DataFrame:
    """Minimum winning turn and purse left from every start ``(gold, stock)``.

    Parameters
    ----------
    rules : Rules
    doublons : int
        The purse at the start of turn 1.
    income, drain, horizon
        As in :func:`solve_race`.
    total : int, optional
        Starts cover ``gold < win_gold`` and ``gold + stock <= total`` (default
        ``rules.total_gold``).
    allow_large : bool
        Go ahead when one start's table (:func:`race_size`) exceeds the memory
        available (default False: ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar over the starts (default: when stderr is a terminal); the
        starts run in batches that return to Python, so Ctrl-C stops the table.

    Returns
    -------
    pandas.DataFrame
        MultiIndex ``(gold, stock)``; columns ``win_turn`` (``<NA>`` when not within
        the horizon) and ``doublons_left``.

    Examples
    --------
    >>> t = race_table(Rules(), doublons=5, income=4)
    >>> int(t.loc[(0, 10), "win_turn"])
    9
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    doublons = check_int("doublons", doublons, 0, 10**6)
    horizon = check_int("horizon", horizon, 1, 1000)
    total = rules.total_gold if total is None else check_int("total", total, 0, 200)
    inc = _stream("income", income, horizon)
    dr = _stream("drain", drain, horizon)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    win = rules.win_gold
    n = max(total, win)
    starts = np.array([(g0, s0) for g0 in range(win) for s0 in range(n + 1 - g0)],
                      dtype=np.int64).reshape(-1, 2)  # fmt: skip
    check_memory(race_size(n + 1, horizon, len(starts)), allow_large)
    buy, sell = market_arrays(rules, n)
    turns = np.zeros((win, n + 1), dtype=np.int64)
    left = np.full((win, n + 1), -1, dtype=np.int64)
    plan = RacePlan(buy, sell, inc, dr, win, rules.max_gold_per_transaction, horizon)
    with progress_bar(len(starts), "commander race table", progress, "start") as bar:
        for lo, hi in Chunks(len(starts)):  # the starts of race_table_kernel, in batches
            race_table_starts(plan, doublons, starts[lo:hi], turns, left)
            bar.update(hi - lo)
    index, rows = [], []
    for g in range(min(rules.win_gold, total + 1)):
        for s in range(total + 1 - g):
            index.append((g, s))
            t = int(turns[g, s])
            rows.append((t if t else pd.NA, int(left[g, s]) if t else pd.NA))
    frame = pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["gold", "stock"]),
                         columns=["win_turn", "doublons_left"]).astype("Int64")
    return frame
