"""The rules of Master Panache as one frozen, validated object (docs/rules.md).

Every knob of the rules is a field of :class:`Rules`; a designer changes a rule by
building another ``Rules`` (``dataclasses.replace`` or the constructor) and every
analysis recomputes from it. Faces are named by their pips 1..6; ``face_values[i]``
is the value of face ``i + 1``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from tabletop.validate import CheckedRules, check_bool, check_int

MAX_DICE = 8
N_FACES = 6


@dataclass(frozen=True)
class Rules(CheckedRules):
    """Master Panache rules; the defaults are the seed's.

    Parameters
    ----------
    n_dice : int
        Dice rolled in a turn, an attack and a Master Panache attempt (1..8; default 5).
    face_values : tuple of six ints
        Value of faces 1..6 (default ``(-4, -3, -2, -1, 0, 1)``): any sequence of six
        ints, stored as a tuple.
    start_points : int
        Every player's points at the start (>= 1; default 35).
    n_players : int
        Players in a game (2..999; default 2).
    first_round_gain : bool
        In round 1 a positive total is added to the player's points (default True).
    counter_attacks : bool
        A failed attack may be answered by the target, and so on (default True).
    mp_stake_factor : int
        A Master Panache stake X must satisfy ``X <= mp_stake_factor * own points``
        (default 2: one cannot stake more than one could lose, since failure costs X/2).
    mp_stake_cap : int or None
        An absolute cap on the stake, for variants (even, >= 2; default None: no cap).

    Notes
    -----
    Stakes are even and at least 2 (failure costs X / 2 points). An attack at total
    T is an attack at level ``min(T, 6)``: the attacker counts the dice showing that
    face.

    Examples
    --------
    >>> Rules().total_range
    (-20, 5)
    >>> Rules(n_dice=9)
    Traceback (most recent call last):
    ...
    ValueError: n_dice must be 1..8, got 9
    """

    n_dice: int = 5
    face_values: tuple[int, ...] = (-4, -3, -2, -1, 0, 1)
    start_points: int = 35
    n_players: int = 2
    first_round_gain: bool = True
    counter_attacks: bool = True
    mp_stake_factor: int = 2
    mp_stake_cap: int | None = None
    _values: np.ndarray = field(init=False, repr=False, compare=False)


    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "n_dice", check_int("n_dice", self.n_dice, 1, MAX_DICE))
        values = self.face_values
        if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
            raise TypeError(f"face_values must be a sequence of six ints, got {values!r}")
        if len(values) != N_FACES:
            raise ValueError(f"face_values must hold six ints (faces 1..6), got {len(values)}")
        checked = tuple(
            check_int(f"face_values[{i}] (face {i + 1})", v, -(10**9), 10**9)
            for i, v in enumerate(values)
        )
        set_(self, "face_values", checked)
        set_(self, "start_points", check_int("start_points", self.start_points, 1))
        set_(self, "n_players", check_int("n_players", self.n_players, 2, 999))
        set_(self, "first_round_gain", check_bool("first_round_gain", self.first_round_gain))
        set_(self, "counter_attacks", check_bool("counter_attacks", self.counter_attacks))
        set_(self, "mp_stake_factor", check_int("mp_stake_factor", self.mp_stake_factor, 1))
        if self.mp_stake_cap is not None:
            cap = check_int("mp_stake_cap", self.mp_stake_cap, 2)
            if cap % 2:
                raise ValueError(f"mp_stake_cap must be even (stakes are even), got {cap}")
            set_(self, "mp_stake_cap", cap)
        array = np.array(checked, dtype=np.int64)
        array.setflags(write=False)
        set_(self, "_values", array.view())  # a view: its flag cannot be set back

    @property
    def values(self) -> np.ndarray:
        """``face_values`` as a read-only ``int64`` array."""
        return self._values

    @property
    def total_range(self) -> tuple[int, int]:
        """Lowest and highest total of a turn roll."""
        return self.n_dice * min(self.face_values), self.n_dice * max(self.face_values)

    def total(self, faces) -> int:
        """Total of a set of faces (pips 1..6), e.g. the ``n_dice`` set-aside dice."""
        return int(sum(self.face_values[f - 1] for f in check_faces("faces", faces)))

    def attack_level(self, total: int) -> int:
        """The level (face) of an attack after a positive total: ``min(total, 6)``."""
        total = check_int("total", total, 1)
        return min(total, N_FACES)

    def legal_stakes(self, points: int) -> np.ndarray:
        """Legal Master Panache stakes for a player with ``points`` points.

        Even stakes X with ``2 <= X <= mp_stake_factor * points`` (and ``<= mp_stake_cap``).

        Examples
        --------
        >>> Rules().legal_stakes(3).tolist()   # the seed: with 3 points the best is 6
        [2, 4, 6]
        """
        return np.arange(2, self.stake_ceiling(points) + 1, 2, dtype=np.int64)

    def stake_ceiling(self, points: int) -> int:
        """The most a player with ``points`` points may stake on a Master Panache:
        ``mp_stake_factor * points``, at most ``mp_stake_cap``; the legal stakes are
        the even numbers from 2 to it (the kernels' ``stake_ceiling`` is the same rule).

        Parameters
        ----------
        points : int
            The announcer's points, >= 1.

        Returns
        -------
        int

        Examples
        --------
        >>> Rules().stake_ceiling(3), Rules(mp_stake_cap=4).stake_ceiling(3)
        (6, 4)
        """
        points = check_int("points", points, 1)
        top = self.mp_stake_factor * points
        if self.mp_stake_cap is not None:
            top = min(top, self.mp_stake_cap)
        return top

    def check_stake(self, stake: int, points: int) -> int:
        """Return ``stake`` if legal for a player with ``points`` points, else raise ValueError."""
        stake = check_int("stake", stake, -(10**9))
        legal = self.legal_stakes(points)
        if legal.size == 0 or stake % 2 or not legal[0] <= stake <= legal[-1]:
            top = int(legal[-1]) if legal.size else 0
            raise ValueError(
                f"stake {stake} is illegal with {points} points: a Master Panache stake "
                f"must be even, in 2..{top}"
            )
        return stake


def check_faces(name: str, faces) -> tuple[int, ...]:
    """Validate a collection of faces (pips 1..6); return them as a tuple of ints."""
    if isinstance(faces, str | bytes):
        raise TypeError(f"{name} must be a sequence of faces 1..6, got {faces!r}")
    try:
        items = list(faces)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of faces 1..6, got {faces!r}") from None
    out = []
    for f in items:
        if isinstance(f, bool) or not isinstance(f, numbers.Integral) or not 1 <= f <= N_FACES:
            raise ValueError(f"{name} must hold faces 1..6, got {f!r} in {tuple(items)}")
        out.append(int(f))
    return tuple(out)
