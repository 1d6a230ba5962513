"""Resolution of one round of orders (docs/rules.md, Resolution): the plain reference.

Each seat writes an order (amount, direction); amount 0 is an abstention and takes no
part. The steps, for ``resolution="variant"``:

1. **Merge**: orders with the same amount and direction form one combined order of
   strength amount × authors.
2. **Counter** (variant only, applied once): a combined order with two or more
   authors and an order of the same per-author amount in the opposite direction
   cancel each other.
3. **Strongest**: the strongest order left moves the pawn one step its way.
4. **Ties** (variant): group the tied orders by direction. One direction: move that
   way. Two opposite directions: they are cancelled and step 3 starts again. Two
   directions 90° apart: move one step along the sum of the two unit vectors, each
   coordinate clipped to one. 45° or 135° apart, or three or more directions: no
   move, and every author of a tied order pays a one-point fee.

``"basic"`` merges, then moves only when a single combined order is strongest.
Payment: ``"all"``, every seat pays what it wrote; ``"winners"``, only the authors
of the order(s) applied pay. The fast path is ``citadel._kernels.resolve_kernel``;
this module is the readable reference the tests hold it against.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from citadel._kernels import first_bad_order, resolve_many_kernel
from citadel.rules import DIRECTIONS, STEPS, Rules, direction_index
from tabletop.validate import check_fields


@dataclass(frozen=True)
class Resolution:
    """The outcome of one round of orders.

    Attributes
    ----------
    step : tuple of int
        The pawn's step (dx, dy), each in {-1, 0, 1}; walls are applied by the game.
    pays : tuple of int
        What each seat pays for its order.
    fee : tuple of int
        1 for each seat that loses the tie point, else 0.

    Examples
    --------
    Two strongest orders 45° apart tie: the pawn stays and both authors lose a point.

    >>> resolve([(10, "N"), (10, "NE"), (5, "E"), (0, None)])
    Resolution(step=(0, 0), pays=(10, 10, 5, 0), fee=(1, 1, 0, 0))
    """

    step: tuple[int, int]
    pays: tuple[int, ...]
    fee: tuple[int, ...]

    def __post_init__(self):
        check_fields(self, step=(-1, 1), pays=(0, None), fee=(0, 1))
        if len(self.fee) != len(self.pays):
            raise ValueError(f"Resolution.fee must hold one entry per seat of Resolution.pays "
                             f"({len(self.pays)}), got {len(self.fee)}")  # fmt: skip


def check_orders(orders, rules: Rules, capitals=None) -> tuple[np.ndarray, np.ndarray]:
    """Validate one order per seat; return ``(amounts, directions)`` as int64 arrays.

    Parameters
    ----------
    orders : sequence of (amount, direction)
        One per seat, in seat order; a direction is a name ("N", "SE", ...) or 0..7.
        An abstention may be written ``(0, None)``.
    rules : Rules
    capitals : sequence of int, optional
        Each seat's capital (default: ``rules.capital`` for all).

    Raises
    ------
    ValueError
        Naming the seat and the problem: wrong number of orders, an amount that is
        negative, not an int, over the capital, off the ``bid_step`` grid or below
        ``min_bid``, or an unknown direction.
    """
    seats = rules.seats
    try:
        orders = list(orders)
    except TypeError:
        raise ValueError(
            f"orders must be a sequence of (amount, direction), got {orders!r}"
        ) from None
    if len(orders) != len(seats):
        raise ValueError(f"expected {len(seats)} orders (one per seat {seats}), got {len(orders)}")
    if capitals is None:
        capitals = [rules.capital] * len(seats)
    from tabletop.validate import check_int

    capitals = [check_int(f"capitals[{i}]", c, 0) for i, c in enumerate(capitals)]
    if len(capitals) != len(seats):
        raise ValueError(f"capitals must be {len(seats)} ints >= 0, got {capitals}")
    amounts = np.zeros(len(seats), dtype=np.int64)
    directions = np.zeros(len(seats), dtype=np.int64)
    for i, order in enumerate(orders):
        try:
            amount, direction = order
        except (TypeError, ValueError):
            raise ValueError(
                f"orders[{i}]: seat {seats[i]} (#{i}): an order is (amount, direction), "
                f"got {order!r}"
            ) from None
        try:
            amounts[i] = rules.check_amount(i, amount, capitals[i])
        except (TypeError, ValueError) as err:  # the message names the argument too
            raise type(err)(f"orders[{i}]: {err}") from None
        if amounts[i] == 0 and direction is None:
            continue
        try:
            directions[i] = direction_index(direction)
        except ValueError as err:
            raise ValueError(f"orders[{i}]: seat {seats[i]} (#{i}): {err}") from None
    return amounts, directions


def _angle(d1: int, d2: int) -> int:
    """Angle between two directions in multiples of 45°, 0..4."""
    k = (d1 - d2) % 8
    return min(k, 8 - k)


def resolve_reference(amounts, directions, resolution: str = "variant",
                      payment: str = "all") -> Resolution:  # fmt: skip
    """Resolve validated orders (plain Python; see the module docstring)."""
    n = len(amounts)
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for seat in range(n):
        if amounts[seat] > 0:
            groups[(int(amounts[seat]), int(directions[seat]))].append(seat)
    alive = set(groups)
    if resolution == "variant":
        countered = set()
        for amount, direction in groups:
            other = (amount, (direction + 4) % 8)
            if other in groups and max(len(groups[other]), len(groups[(amount, direction)])) > 1:
                countered |= {(amount, direction), other}
        alive -= countered

    def strength(key):
        return key[0] * len(groups[key])

    winners: list[tuple[int, int]] = []
    fee_payers: list[tuple[int, int]] = []
    step = (0, 0)
    while alive:
        top = max(strength(k) for k in alive)
        tied = [k for k in alive if strength(k) == top]
        ways = sorted({k[1] for k in tied})
        if resolution == "basic":
            if len(tied) == 1:
                winners = tied
                step = tuple(int(v) for v in STEPS[tied[0][1]])
            break
        if len(ways) == 1:
            winners = tied
            step = tuple(int(v) for v in STEPS[ways[0]])
            break
        if len(ways) == 2 and _angle(*ways) == 4:
            alive -= set(tied)
            continue
        if len(ways) == 2 and _angle(*ways) == 2:
            winners = tied
            total = STEPS[ways[0]] + STEPS[ways[1]]
            step = tuple(int(v) for v in np.clip(total, -1, 1))
            break
        fee_payers = tied
        break
    pays = [0] * n
    for seat in range(n):
        if payment == "all" or any(seat in groups[k] for k in winners):
            pays[seat] = int(amounts[seat])
    fee = [0] * n
    for key in fee_payers:
        for seat in groups[key]:
            fee[seat] = 1
    return Resolution(step=step, pays=tuple(pays), fee=tuple(fee))


def resolve(orders, rules: Rules | None = None, capitals=None) -> Resolution:
    """Resolve one round of orders under ``rules``.

    Parameters
    ----------
    orders : sequence of (amount, direction)
        One per seat in seat order (N, E, S, W with four players); direction by
        name or index 0..7 (N, NE, ..., NW).
    rules : Rules, optional
        Default ``Rules()``.
    capitals : sequence of int, optional
        The seats' capitals, to check the amounts (default ``rules.capital`` each).

    Returns
    -------
    Resolution
        The pawn's step, what each seat pays, who loses the tie point.

    Examples
    --------
    The seed's example of a tie 90° apart: 32 N, 32 E, 18 S, 5 NW moves one step NE.

    >>> r = resolve([(32, "N"), (32, "E"), (18, "S"), (5, "NW")])
    >>> r.step, r.pays, r.fee
    ((1, 1), (32, 32, 18, 5), (0, 0, 0, 0))
    """
    rules = Rules.check(rules)
    amounts, directions = check_orders(orders, rules, capitals)
    return resolve_reference(amounts, directions, rules.resolution, rules.payment)


def order_names(amounts, directions) -> list[str]:
    """Orders as text, e.g. ``["32 N", "-", "18 S"]`` (``-`` for an abstention)."""
    pairs = zip(amounts, directions, strict=True)
    return [f"{a} {DIRECTIONS[d]}" if a > 0 else "-" for a, d in pairs]


def resolve_many(amounts, directions, rules: Rules | None = None):
    """Resolve many rounds at once on the numba fast path.

    Parameters
    ----------
    amounts, directions : array_like of int, shape (m, n_players)
        Row ``r`` holds round ``r``'s orders, directions as indices 0..7. Both must be
        integer arrays (``32.7`` is refused, never truncated). Amounts are checked to be
        non-negative multiples of ``bid_step``, not above ``rules.capital``; directions
        to be 0..7.
    rules : Rules, optional

    Returns
    -------
    steps : numpy.ndarray
        ``(m, 2)`` int64 steps (dx, dy).
    pays, fee : numpy.ndarray
        ``(m, n_players)`` int64: what each seat pays, and 1 where it loses the tie point.

    Examples
    --------
    >>> steps, pays, fee = resolve_many([[32, 32, 18, 5]], [[0, 2, 4, 7]])
    >>> steps.tolist(), pays.tolist()
    ([[1, 1]], [[32, 32, 18, 5]])
    """
    from tabletop.validate import check_int_array

    rules = Rules.check(rules)
    a = check_int_array("amounts", amounts)
    d = check_int_array("directions", directions)
    n = rules.n_players
    if a.ndim != 2 or a.shape[1] != n or d.shape != a.shape:
        raise ValueError(
            f"amounts and directions must both have shape (m, {n}), got {a.shape}, {d.shape}"
        )
    row, seat, problem = first_bad_order(a, d, rules.capital, rules.bid_step)
    if problem:
        name = f"seat {rules.seats[seat]} (#{seat})"
        if problem == 1:
            raise ValueError(
                f"{name}: amounts must be multiples of bid_step={rules.bid_step} in "
                f"0..{rules.capital}, got {a[row, seat]} in round {row}"
            )
        raise ValueError(f"directions[{row}, {seat}]: {name}: unknown direction "
                         f"{d[row, seat]} in round {row}, use 0..7 (N, NE, ..., NW)")
    return resolve_many_kernel(a, d, rules.resolution == "variant", rules.payment == "winners")
