"""The rules of Master & Commander as one frozen, validated object (docs/rules.md).

Every knob of §4 is a field of :class:`Rules`; a designer tries a variant by building
another ``Rules`` (``dataclasses.replace`` or the constructor) and every analysis
recomputes from it.

The exchange-rate table (ICROE) is a tuple of ``(lowest stock, rate)`` bands, sorted
by decreasing lowest stock and ending with a band starting at stock 0; the rate of a
stock is the rate of the first band whose lowest stock it reaches. The seed's table
``13+ -> 1, 10-12 -> 2, 7-9 -> 3, 4-6 -> 4, 1-3 -> 5, 0 -> 6`` is the default.

Choices the seed's text leaves open, made here as knobs (defaults in brackets; all
listed in docs/rules.md, Master & Commander: rulings on open cases):

* ``sale_price`` ["before"]: a sold gold is priced at the rate before it moves (the
  literal reading) or ``"after"`` it moves.
* ``majority_counts_independents`` [True]: in the deck rule "a majority of the
  crew is of the lair's faction", independents count in the crew total.
* ``seven_seas`` [False]: the alternative victory (controlling territories of seven
  different seas wins at once) needs territory cards naming seas.
* ``recruit_gold_to_company`` [True]: gold paid for recruits returns to the Company's
  stock (the gold tokens go back to the supply), so the gold in play is conserved.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from tabletop.validate import CheckedRules, check_bool, check_int

#: The seed's ICROE table: (lowest stock of the band, doublons per gold).
DEFAULT_RATES = ((13, 1), (10, 2), (7, 3), (4, 4), (1, 5), (0, 6))

#: Votes per rank in a referendum (seed, "Effectuer le scrutin").
DEFAULT_VOTES = (
    ("boatswain", 1),
    ("masters_mate", 1),
    ("lieutenant", 2),
    ("second", 3),
    ("captain", 4),
    ("governor", 4),
)

SALE_PRICES = ("before", "after")


def _check_rates(value) -> tuple[tuple[int, int], ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"exchange_rates must be a sequence of (lowest stock, rate) pairs, "
                        f"got {value!r}")
    bands = []
    for i, band in enumerate(value):
        if isinstance(band, str | bytes) or not hasattr(band, "__len__") or len(band) != 2:
            raise ValueError(f"exchange_rates[{i}] must be a (lowest stock, rate) pair, "
                             f"got {band!r}")
        low = check_int(f"exchange_rates[{i}] lowest stock", band[0], 0, 10**6)
        rate = check_int(f"exchange_rates[{i}] rate", band[1], 1, 10**6)
        bands.append((low, rate))
    if not bands:
        raise ValueError("exchange_rates must hold at least one band, got none")
    lows = [b[0] for b in bands]
    if any(a <= b for a, b in itertools.pairwise(lows)):
        raise ValueError(f"exchange_rates lowest stocks must strictly decrease, got {lows}")
    if lows[-1] != 0:
        raise ValueError(f"exchange_rates must end with a band starting at stock 0, "
                         f"got {lows[-1]}")
    return tuple(bands)


@dataclass(frozen=True)
class Rules(CheckedRules):
    """Master & Commander rules; the defaults are the seed's (docs/rules.md).

    Parameters
    ----------
    n_players : int
        Players (2..5; default 2).
    stock_base, stock_per_player : int
        The Company's stock starts at ``stock_base + stock_per_player * n_players``
        gold (defaults 8 and 1).
    exchange_rates : tuple of (int, int)
        ICROE bands ``(lowest stock, doublons per gold)``, see the module docstring:
        any sequence of pairs of ints (lists too), stored as a tuple of tuples.
    max_gold_per_transaction : int
        Gold bought or sold in the one transaction of a turn (1..20; default 3).
    sale_price : {"before", "after"}
        Rate a sold gold is priced at: before it moves (default) or after.
    win_gold : int
        A player starting a turn with this much gold wins (1..50; default 10).
    start_doublons, start_gold : int
        Each player's purse at the start (defaults 5 and 0).
    seven_seas : bool
        Alternative victory: territories of seven different seas win at once (default
        False; needs card data naming seas).
    explore_threshold : int
        Exploration taps characters whose conquest total *exceeds* this (default 5).
    pillage_gold, pillage_doublons : int
        What a won raid on a lair takes: 1 gold or 4 doublons (defaults).
    bankruptcy_cap : int
        Most doublons a lost economic battle costs (default 4).
    recruit_gold, foreign_extra_gold : int
        Gold to recruit a character (default 1) and extra for another faction (2).
    recruit_gold_to_company : bool
        Recruits' gold returns to the Company's stock (default True); else it leaves
        the game.
    tavern_size, hand_size : int
        Tavern refilled to 3, hand to 6 (defaults).
    launcher_bonus : int
        Extra votes of the character launching a referendum (default 1).
    votes_by_rank : tuple of (str, int)
        Votes per rank (default boatswain / masters_mate 1, lieutenant 2, second 3,
        captain / governor 4). Rank names are free, for card sets of their own: a card
        whose rank is not listed is refused when it votes.
    min_crew, min_territories, min_adventure : int
        Deck construction minima (10, 10, 45).
    majority_counts_independents : bool
        Independents count in the crew total for the majority rule (default True).

    Examples
    --------
    >>> rules = Rules(n_players=4)
    >>> rules.start_stock, rules.rate(13), rules.rate(0)
    (12, 1, 6)
    >>> Rules(n_players=6)
    Traceback (most recent call last):
    ...
    ValueError: n_players must be 2..5, got 6
    """

    n_players: int = 2
    stock_base: int = 8
    stock_per_player: int = 1
    exchange_rates: tuple[tuple[int, int], ...] = DEFAULT_RATES
    max_gold_per_transaction: int = 3
    sale_price: str = "before"
    win_gold: int = 10
    start_doublons: int = 5
    start_gold: int = 0
    seven_seas: bool = False
    explore_threshold: int = 5
    pillage_gold: int = 1
    pillage_doublons: int = 4
    bankruptcy_cap: int = 4
    recruit_gold: int = 1
    foreign_extra_gold: int = 2
    recruit_gold_to_company: bool = True
    tavern_size: int = 3
    hand_size: int = 6
    launcher_bonus: int = 1
    votes_by_rank: tuple[tuple[str, int], ...] = DEFAULT_VOTES
    min_crew: int = 10
    min_territories: int = 10
    min_adventure: int = 45
    majority_counts_independents: bool = True
    _rate_array: np.ndarray = field(init=False, repr=False, compare=False)


    def __post_init__(self):
        set_ = object.__setattr__
        for name, low, high in (
            ("n_players", 2, 5),
            ("stock_base", 0, 1000),
            ("stock_per_player", 0, 100),
            ("max_gold_per_transaction", 1, 20),
            ("win_gold", 1, 50),
            ("start_doublons", 0, 10**4),
            ("start_gold", 0, 49),
            ("explore_threshold", 0, 100),
            ("pillage_gold", 0, 10),
            ("pillage_doublons", 0, 100),
            ("bankruptcy_cap", 0, 100),
            ("recruit_gold", 0, 10),
            ("foreign_extra_gold", 0, 10),
            ("tavern_size", 0, 20),
            ("hand_size", 0, 20),
            ("launcher_bonus", 0, 10),
            ("min_crew", 0, 1000),
            ("min_territories", 0, 1000),
            ("min_adventure", 0, 1000),
        ):
            set_(self, name, check_int(name, getattr(self, name), low, high))
        if self.start_gold >= self.win_gold:
            raise ValueError(f"start_gold must be below win_gold={self.win_gold}, "
                             f"got {self.start_gold}")
        set_(self, "exchange_rates", _check_rates(self.exchange_rates))
        if self.sale_price not in SALE_PRICES:
            raise ValueError(f"sale_price must be one of {SALE_PRICES}, got {self.sale_price!r}")
        set_(self, "seven_seas", check_bool("seven_seas", self.seven_seas))
        set_(self, "recruit_gold_to_company",
             check_bool("recruit_gold_to_company", self.recruit_gold_to_company))
        set_(self, "majority_counts_independents",
             check_bool("majority_counts_independents", self.majority_counts_independents))
        votes = self.votes_by_rank
        if isinstance(votes, dict):
            votes = tuple(votes.items())
        if not isinstance(votes, tuple | list):
            raise TypeError(f"votes_by_rank must be a sequence of (rank name, votes) pairs, "
                            f"got {votes!r}")  # fmt: skip
        if not votes:  # every card's rank must be one of these: no rank, no card
            raise ValueError("votes_by_rank must name at least one rank, got ()")
        checked = []
        for i, pair in enumerate(votes):
            if (not isinstance(pair, tuple | list) or len(pair) != 2
                    or not isinstance(pair[0], str) or not pair[0]):  # fmt: skip
                raise ValueError(f"votes_by_rank[{i}] must be a (rank name, votes) pair, "
                                 f"got {pair!r}")
            checked.append((pair[0], check_int(f"votes_by_rank[{pair[0]!r}]", pair[1], 0, 100)))
        names = [name for name, _ in checked]
        if len(set(names)) != len(names):
            raise ValueError(f"votes_by_rank must name each rank once, got {names}")
        set_(self, "votes_by_rank", tuple(checked))
        top = self.exchange_rates[0][0] + self.total_gold + 1
        array = np.array([self._band_rate(s) for s in range(top + 1)], dtype=np.int64)
        array.setflags(write=False)
        set_(self, "_rate_array", array.view())  # a view: its flag cannot be set back

    def _band_rate(self, stock: int) -> int:
        for low, rate in self.exchange_rates:
            if stock >= low:
                return rate
        raise AssertionError("unreachable: the last band starts at 0")

    @property
    def start_stock(self) -> int:
        """The Company's stock at the start: ``stock_base + stock_per_player * n_players``."""
        return self.stock_base + self.stock_per_player * self.n_players

    @property
    def total_gold(self) -> int:
        """Gold in the game: the starting stock plus the players' starting gold."""
        return self.start_stock + self.start_gold * self.n_players

    @property
    def rates(self) -> np.ndarray:
        """Rate by stock ``0..len-1`` as a read-only ``int64`` array (covers every stock
        reachable in a game; a larger stock has the rate of the last entry)."""
        return self._rate_array

    def rate(self, stock: int) -> int:
        """Doublons per gold when the Company holds ``stock`` gold (the ICROE)."""
        stock = check_int("stock", stock, 0)
        return self._band_rate(stock)

    def rank_votes(self, rank: str) -> int:
        """Votes of a character of ``rank`` ('' for no rank: 0)."""
        if rank == "":
            return 0
        for name, votes in self.votes_by_rank:
            if name == rank:
                return votes
        names = [n for n, _ in self.votes_by_rank]
        raise ValueError(f"rank must be one of {names} or '', got {rank!r}")
