"""The rules of Master Citadel as one frozen, validated object (docs/rules.md).

The board is the square of cells (x, y) with ``-radius <= x, y <= radius``; the pawn
starts at (0, 0). Seats sit at the compass points N, E, S, W (two players use N and
S, three use N, E, S); a seat wins when the pawn leaves the board across its edge.
Directions are numbered as on the seed's eight-sided die, from 0: N, NE, E, SE, S,
SW, W, NW, so turning a direction by 45° clockwise adds 1 (mod 8), by 90° adds 2 and
the opposite direction is ``d + 4``. N is (0, +1) and E is (+1, 0).

Choices the seed's text leaves to us, each a knob or stated here (all listed in
docs/rules.md, Master Citadel: rulings on open cases):

* ``min_bid``: a player whose capital allows no legal positive amount (a multiple of
  ``bid_step`` that is at least ``min_bid`` and at most the capital) must abstain.
* The one-point fee of a tie is 1 point whatever ``bid_step`` is, and never takes
  the capital below 0.
* With ``payment="winners"`` the authors of the order(s) applied pay, even when a
  wall drops the step (three-player games).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from tabletop.validate import CheckedRules, check_choice, check_int

#: Direction names in the seed's die order (index 0..7).
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Unit step of each direction.
STEPS = np.array(
    [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)], dtype=np.int64
)
STEPS.setflags(write=False)
#: Seat names by number of players; a seat's own line is the edge of its name.
SEATS = {2: ("N", "S"), 3: ("N", "E", "S"), 4: ("N", "E", "S", "W")}
PAYMENTS = ("all", "winners")
RESOLUTIONS = ("basic", "variant")


def direction_index(direction) -> int:
    """The index 0..7 of a direction given by name ("N", "NE", ...) or index.

    Examples
    --------
    >>> direction_index("SE"), direction_index(6)
    (3, 6)
    """
    if isinstance(direction, str):
        name = direction.strip().upper()
        if name in DIRECTIONS:
            return DIRECTIONS.index(name)
    elif (not isinstance(direction, bool) and isinstance(direction, numbers.Integral)
          and 0 <= direction < 8):  # fmt: skip
        return int(direction)
    raise ValueError(f"unknown direction {direction!r}: use one of {DIRECTIONS} or 0..7")


@dataclass(frozen=True)
class Rules(CheckedRules):
    """Master Citadel rules; the defaults are those of docs/rules.md.

    Parameters
    ----------
    radius : int
        The board holds the cells with ``-radius <= x, y <= radius`` (1..50; default 3).
    n_players : int
        2 (seats N, S), 3 (N, E, S) or 4 (N, E, S, W; default).
    capital : int
        Every player's starting points (>= 1; default 100).
    payment : {"all", "winners"}
        ``"all"``: everyone pays what they wrote; ``"winners"``: only the authors of
        the applied order(s) pay (default ``"all"``).
    resolution : {"basic", "variant"}
        ``"basic"``: any tie for strongest means no move; ``"variant"``: the open
        variant's counter and tie rules (default).
    bid_step : int
        Amounts are multiples of this (>= 1; default 1).
    min_bid : int
        Smallest amount a player who can bid must write (>= 0; default 0, abstention
        allowed).
    max_rounds : int
        The game is a draw after this many rounds without a winner (>= 1; default 200).

    Examples
    --------
    >>> Rules().seats
    ('N', 'E', 'S', 'W')
    >>> Rules(bid_step=5).legal_amounts(12).tolist()
    [0, 5, 10]
    >>> Rules(n_players=5)
    Traceback (most recent call last):
    ...
    ValueError: n_players must be 2..4, got 5
    """

    radius: int = 3
    n_players: int = 4
    capital: int = 100
    payment: str = "all"
    resolution: str = "variant"
    bid_step: int = 1
    min_bid: int = 0
    max_rounds: int = 200


    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "radius", check_int("radius", self.radius, 1, 50))
        set_(self, "n_players", check_int("n_players", self.n_players, 2, 4))
        set_(self, "capital", check_int("capital", self.capital, 1, 10**6))
        set_(self, "payment", check_choice("payment", self.payment, PAYMENTS))
        set_(self, "resolution", check_choice("resolution", self.resolution, RESOLUTIONS))
        set_(self, "bid_step", check_int("bid_step", self.bid_step, 1, 10**6))
        set_(self, "min_bid", check_int("min_bid", self.min_bid, 0, 10**6))
        set_(self, "max_rounds", check_int("max_rounds", self.max_rounds, 1, 10**6))

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat names, in seat order."""
        return SEATS[self.n_players]

    @property
    def homes(self) -> np.ndarray:
        """Each seat's own direction (the way to its line) as a direction index."""
        return np.array([DIRECTIONS.index(s) for s in self.seats], dtype=np.int64)

    @property
    def smallest_bid(self) -> int:
        """The smallest legal positive amount: the first multiple of ``bid_step`` >= min_bid."""
        low = max(self.min_bid, 1)
        return -(-low // self.bid_step) * self.bid_step

    def legal_amounts(self, capital: int) -> np.ndarray:
        """The amounts a player holding ``capital`` points may write.

        0 (abstention) when ``min_bid`` is 0 or when no positive amount is legal,
        then the multiples of ``bid_step`` from :attr:`smallest_bid` to ``capital``.
        """
        capital = check_int("capital", capital, 0)
        positive = np.arange(self.smallest_bid, capital + 1, self.bid_step, dtype=np.int64)
        if self.min_bid == 0 or positive.size == 0:
            return np.concatenate([np.zeros(1, dtype=np.int64), positive])
        return positive

    def check_amount(self, seat: int, amount, capital: int) -> int:
        """Return ``amount`` if seat ``seat`` holding ``capital`` may write it, else raise."""
        name = f"seat {self.seats[seat]} (#{seat})"
        if isinstance(amount, bool) or not isinstance(amount, numbers.Integral):
            raise ValueError(f"{name}: amount must be an int, got {amount!r}")
        amount = int(amount)
        if amount < 0:
            raise ValueError(f"{name}: amount must be >= 0, got {amount}")
        if amount > capital:
            raise ValueError(f"{name}: amount {amount} is over the seat's capital {capital}")
        if amount % self.bid_step:
            raise ValueError(
                f"{name}: amount {amount} is not a multiple of bid_step={self.bid_step}"
            )
        legal = self.legal_amounts(capital)
        if amount not in legal:
            raise ValueError(
                f"{name}: amount {amount} is below min_bid={self.min_bid} "
                f"(legal with capital {capital}: 0 only if no amount >= "
                f"{self.smallest_bid} fits)"
            )
        return amount
