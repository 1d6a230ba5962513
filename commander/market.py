"""The gold market of the East India Company (docs/rules.md, The gold market).

The rate (ICROE) depends on the Company's stock ``s`` through the bands of
``Rules.exchange_rates``. A transaction moves ``k <= max_gold_per_transaction`` gold
one at a time and the rate is updated after each move, so

* buying ``k`` gold from stock ``s`` costs ``sum(rate(s - i) for i in 0..k-1)``
  (``k <= s``: one cannot buy more than the stock holds);
* selling ``k`` gold into stock ``s`` pays ``sum(rate(s + i) for i in 0..k-1)`` when
  ``sale_price == "before"`` (each gold priced before it moves, the literal reading),
  ``sum(rate(s + i + 1) ...)`` when ``"after"``.

The examples of docs/rules.md: buying 3 from a stock of 10 costs 2 + 3 + 3 = 8; selling
2 into a stock of 3 pays 5 + 4 = 9. A transaction is signed: ``k > 0`` buys, ``k < 0``
sells, ``k = 0`` passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from commander.rules import Rules
from tabletop.budget import Estimate, check_memory, progress_bar, show_progress
from tabletop.validate import check_int

if TYPE_CHECKING:
    import pandas as pd


def _rate(rules: Rules, stock: int) -> int:
    rates = rules.rates
    return int(rates[stock]) if stock < rates.shape[0] else int(rates[-1])


def buy_steps(rules: Rules, stock: int, k: int) -> tuple[int, ...]:
    """Price of each gold of a purchase of ``k`` gold from ``stock``, in order.

    Parameters
    ----------
    rules : Rules
    stock : int
        Gold the Company holds (>= 0).
    k : int
        Gold bought (0..``rules.max_gold_per_transaction``, at most ``stock``).

    Returns
    -------
    tuple of int
        One price per gold, the first bought first.

    Examples
    --------
    >>> buy_steps(Rules(), 10, 3)   # docs/rules.md: 2 + 3 + 3
    (2, 3, 3)
    """
    rules = Rules.check(rules, default=False)
    stock = check_int("stock", stock, 0)
    k = check_int("k", k, 0, rules.max_gold_per_transaction)
    if k > stock:
        raise ValueError(f"k must be <= stock={stock} (one cannot buy more gold than the "
                         f"Company holds), got {k}")
    return tuple(_rate(rules, stock - i) for i in range(k))


def sell_steps(rules: Rules, stock: int, k: int) -> tuple[int, ...]:
    """Payment for each gold of a sale of ``k`` gold into ``stock``, in order.

    Parameters
    ----------
    rules : Rules
    stock : int
        Gold the Company holds before the sale (>= 0).
    k : int
        Gold sold (0..``rules.max_gold_per_transaction``).

    Returns
    -------
    tuple of int
        One payment per gold, the first sold first.

    Examples
    --------
    >>> sell_steps(Rules(), 3, 2)   # docs/rules.md: 5 + 4
    (5, 4)
    >>> sell_steps(Rules(sale_price="after"), 3, 2)
    (4, 4)
    """
    rules = Rules.check(rules, default=False)
    stock = check_int("stock", stock, 0)
    k = check_int("k", k, 0, rules.max_gold_per_transaction)
    shift = 0 if rules.sale_price == "before" else 1
    return tuple(_rate(rules, stock + i + shift) for i in range(k))


def buy_price(rules: Rules, stock: int, k: int) -> int:
    """Doublons paid to buy ``k`` gold from a stock of ``stock``.

    Parameters
    ----------
    rules : Rules
    stock : int
        Gold the Company holds (>= 0).
    k : int
        Gold bought (0..``rules.max_gold_per_transaction``, at most ``stock``).

    Returns
    -------
    int
        The sum of :func:`buy_steps`.

    Examples
    --------
    >>> buy_price(Rules(), 10, 3)
    8
    """
    rules = Rules.check(rules, default=False)
    return sum(buy_steps(rules, stock, k))


def sell_price(rules: Rules, stock: int, k: int) -> int:
    """Doublons received for selling ``k`` gold into a stock of ``stock``.

    Parameters
    ----------
    rules : Rules
    stock : int
        Gold the Company holds before the sale (>= 0).
    k : int
        Gold sold (0..``rules.max_gold_per_transaction``).

    Returns
    -------
    int
        The sum of :func:`sell_steps`.

    Examples
    --------
    >>> sell_price(Rules(), 3, 2)
    9
    """
    rules = Rules.check(rules, default=False)
    return sum(sell_steps(rules, stock, k))


def legal_transactions(rules: Rules, gold: int, doublons: int, stock: int) -> list[int]:
    """Signed transactions open to a player, sorted: sells < 0, pass 0, buys > 0.

    A buy of ``k`` needs ``k <= stock`` and ``buy_price <= doublons``; a sale of ``k``
    needs ``k <= gold``.

    Parameters
    ----------
    rules : Rules
    gold, doublons : int
        What the player holds (>= 0).
    stock : int
        Gold the Company holds (>= 0).

    Returns
    -------
    list of int
        ``-min(cap, gold)..-1``, 0, then the affordable buys ``1..``; ``cap`` is
        ``rules.max_gold_per_transaction``.

    Examples
    --------
    >>> legal_transactions(Rules(), gold=1, doublons=5, stock=10)
    [-1, 0, 1, 2]
    """
    rules = Rules.check(rules, default=False)
    gold = check_int("gold", gold, 0)
    doublons = check_int("doublons", doublons, 0)
    stock = check_int("stock", stock, 0)
    cap = rules.max_gold_per_transaction
    out = [-k for k in range(min(cap, gold), 0, -1)] + [0]
    for k in range(1, min(cap, stock) + 1):
        if buy_price(rules, stock, k) > doublons:
            break
        out.append(k)
    return out


def transact(rules: Rules, gold: int, doublons: int, stock: int, k: int) -> tuple[int, int, int]:
    """Apply the signed transaction ``k``; return ``(gold, doublons, stock)`` after it.

    Raises ValueError when ``k`` is not legal (see :func:`legal_transactions`).

    Parameters
    ----------
    rules : Rules
    gold, doublons : int
        What the player holds.
    stock : int
        Gold the Company holds.
    k : int
        Gold bought (> 0), sold (< 0) or 0 (pass).

    Returns
    -------
    tuple of int
        ``(gold, doublons, stock)`` after the transaction.

    Examples
    --------
    >>> transact(Rules(), gold=0, doublons=10, stock=10, k=3)
    (3, 2, 7)
    >>> transact(Rules(), gold=2, doublons=0, stock=3, k=-2)
    (0, 9, 5)
    """
    rules = Rules.check(rules, default=False)
    k = check_int("k", k, -rules.max_gold_per_transaction, rules.max_gold_per_transaction)
    legal = legal_transactions(rules, gold, doublons, stock)
    if k not in legal:
        raise ValueError(f"transaction k={k} is illegal with gold={gold}, doublons={doublons}, "
                         f"stock={stock}: legal are {legal}")
    if k >= 0:
        return gold + k, doublons - buy_price(rules, stock, k), stock - k
    return gold + k, doublons + sell_price(rules, stock, -k), stock - k


#: Peak bytes per stock of :func:`price_table` per column (an ``Int64`` value and its
#: mask, and the chunk's temporaries), measured with tracemalloc.
PRICE_CELL_BYTES = 24

#: Stocks per chunk of :func:`price_table` (a chunk takes milliseconds).
PRICE_CHUNK = 1 << 20


def price_size(rules: Rules, max_stock: int) -> Estimate:
    """Memory of :func:`price_table` up to ``max_stock``: ``1 + 2 cap`` ``Int64``
    columns (``cap = max_gold_per_transaction``) of ``max_stock + 1`` rows.

    Examples
    --------
    >>> price_size(Rules(), 99).nbytes == 100 * 7 * PRICE_CELL_BYTES
    True
    """
    columns = 1 + 2 * rules.max_gold_per_transaction
    knobs = {"max_stock": max_stock, "max_gold_per_transaction": rules.max_gold_per_transaction}
    return Estimate("commander.price_table", (max_stock + 1) * columns * PRICE_CELL_BYTES, knobs,
                    detail=f"{max_stock + 1:,} stocks x {columns} Int64 columns")  # fmt: skip


def _price_columns(rules: Rules, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rates, buy prices and sale prices of the stocks ``lo..hi - 1`` (``buy[:, k - 1]``
    for ``k`` gold; entries with ``k > stock`` are left 0), as :func:`buy_price` and
    :func:`sell_price` give them: sums of the rate of each gold moved."""
    rates = rules.rates
    last = rates.shape[0] - 1
    cap = rules.max_gold_per_transaction
    shift = 0 if rules.sale_price == "before" else 1
    stock = np.arange(lo, hi, dtype=np.int64)

    def rate(s: np.ndarray) -> np.ndarray:
        return rates[np.clip(s, 0, last)].astype(np.int64)

    buy = np.zeros((hi - lo, cap), dtype=np.int64)
    sell = np.zeros((hi - lo, cap), dtype=np.int64)
    paid = np.zeros(hi - lo, dtype=np.int64)
    got = np.zeros(hi - lo, dtype=np.int64)
    for k in range(1, cap + 1):
        paid += rate(stock - (k - 1))  # rate(stock - i) for i = k - 1; used where k <= stock
        got += rate(stock + (k - 1) + shift)
        buy[:, k - 1] = paid
        sell[:, k - 1] = got
    return rate(stock), buy, sell


def price_table(rules: Rules, max_stock: int | None = None, *, allow_large: bool = False,
                progress: bool | None = None) -> pd.DataFrame:  # fmt: skip
    """Rate and the price of buying / selling 1..cap gold, for every stock.

    Parameters
    ----------
    rules : Rules
    max_stock : int, optional
        Largest stock shown (default: the gold in the game, ``rules.total_gold``).
    allow_large : bool
        Build even when the table (:func:`price_size`) exceeds the memory available
        (default False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal); the table is built
        in chunks of stocks, so Ctrl-C stops it.

    Returns
    -------
    pandas.DataFrame
        Index ``stock``; columns ``rate``, ``buy_k`` and ``sell_k`` for
        ``k = 1..max_gold_per_transaction`` (``buy_k`` is missing when ``k > stock``).

    Examples
    --------
    >>> price_table(Rules()).loc[10, ["rate", "buy_3"]].tolist()
    [2, 8]
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    top = rules.total_gold if max_stock is None else check_int("max_stock", max_stock, 0)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(price_size(rules, top), allow_large)
    cap = rules.max_gold_per_transaction
    n = top + 1
    rate = np.empty(n, dtype=np.int64)
    buy = np.empty((cap, n), dtype=np.int64)
    sell = np.empty((cap, n), dtype=np.int64)
    with progress_bar(n, "commander price table", progress, "stock") as bar:
        for lo in range(0, n, PRICE_CHUNK):
            hi = min(n, lo + PRICE_CHUNK)
            rate[lo:hi], b, s = _price_columns(rules, lo, hi)
            buy[:, lo:hi] = b.T
            sell[:, lo:hi] = s.T
            bar.update(hi - lo)
    stock = np.arange(n)
    columns = {"rate": pd.arrays.IntegerArray(rate, np.zeros(n, dtype=np.bool_))}
    for k in range(1, cap + 1):
        columns[f"buy_{k}"] = pd.arrays.IntegerArray(buy[k - 1], stock < k)
    for k in range(1, cap + 1):
        columns[f"sell_{k}"] = pd.arrays.IntegerArray(sell[k - 1], np.zeros(n, dtype=np.bool_))
    frame = pd.DataFrame(columns, index=pd.RangeIndex(n, name="stock"))
    frame.columns.name = "figure"
    return frame


def round_trips(rules: Rules, max_stock: int | None = None, *, allow_large: bool = False,
                progress: bool | None = None) -> pd.Series:  # fmt: skip
    """Doublons gained by selling one gold into ``stock`` and buying it back next turn.

    With no one else trading in between, the sale moves the stock to ``stock + 1``
    and the purchase back to ``stock``: gain ``sell_price(s, 1) - buy_price(s + 1, 1)``.
    Under ``sale_price="before"`` this is ``rate(s) - rate(s + 1)``, positive at the
    top of a band; under ``"after"`` it is always 0.

    Parameters
    ----------
    rules : Rules
    max_stock : int, optional
        Largest stock tabulated (default ``rules.total_gold``).
    allow_large : bool
        Build even when the series (16 bytes a stock, with its index) exceeds the memory
        available (default False: refuse with a ``MemoryError`` before any work).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal); the series is built
        in chunks of stocks, so Ctrl-C stops it.

    Returns
    -------
    pandas.Series
        ``round_trip_gain`` indexed by ``stock`` 0..``max_stock``.

    Examples
    --------
    >>> int(round_trips(Rules()).loc[3])   # sell into 3 for 5, buy from 4 for 4
    1
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    top = rules.total_gold if max_stock is None else check_int("max_stock", max_stock, 0)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    n = top + 1
    check_memory(Estimate("commander.round_trips", 16 * n, {"max_stock": top},
                          detail=f"{n:,} stocks x 16 bytes"), allow_large)  # fmt: skip
    gains = np.empty(n, dtype=np.int64)
    with progress_bar(n, "commander round trips", progress, "stock") as bar:
        for lo in range(0, n, PRICE_CHUNK):
            hi = min(n, lo + PRICE_CHUNK)
            _, buy, sell = _price_columns(rules, lo, hi + 1)  # buy back from stock + 1
            gains[lo:hi] = sell[:-1, 0] - buy[1:, 0]
            bar.update(hi - lo)
    return pd.Series(gains, index=pd.RangeIndex(n, name="stock"), name="round_trip_gain")


def market_arrays(rules: Rules, max_stock: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables ``buy[s, k]`` and ``sell[s, k]`` (``k = 0..cap``) for the numba kernels.

    ``buy[s, k]`` is a large sentinel (``2**40``) when ``k > s``.
    """
    max_stock = check_int("max_stock", max_stock, 0)
    cap = rules.max_gold_per_transaction
    big = np.int64(1 << 40)
    buy = np.full((max_stock + 1, cap + 1), big, dtype=np.int64)
    sell = np.zeros((max_stock + 1, cap + 1), dtype=np.int64)
    for s in range(max_stock + 1):
        for k in range(cap + 1):
            if k <= s:
                buy[s, k] = buy_price(rules, s, k)
            sell[s, k] = sell_price(rules, s, k)
    return buy, sell
