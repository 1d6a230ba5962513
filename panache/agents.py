"""Players for whole-game simulations: random, rules of thumb, and the solved duel.

An :class:`Agent` is a small frozen description; :func:`panache.simulate_games`
turns a list of them (one per seat) into the integer rows its kernel reads.

* ``Agent.random()``: every choice uniformly at random among the legal ones (a
  random non-empty subset of each roll is set aside; attack, counter and announce
  a Master Panache with probability 1/2, random target and stake).
* ``Agent.heuristic(...)``: a rule of thumb. It plays its turn rolls with a named
  :func:`panache.solve_turn` policy (default: the best expected total) or one of the
  named human rules of thumb of :data:`panache.HUMAN_POLICIES` (``"roger"``...), attacks
  the player picked by ``target`` ("leader", "weakest" or "random") when the
  attack level is at least ``min_level`` (7: never), always or never counters,
  and announces a Master Panache with the largest legal stake ``"never"``,
  ``"ahead"`` (when it has more points than its target) or ``"always"``.
* ``Agent.duel()``: the exact two-player solution (:func:`panache.solve_duel`);
  in larger games it plays the duel against the opponent with the most points.
* ``Agent.three()``: the three-player solution (:func:`panache.solve_three`): its
  round-1 turns and, with three players left, every decision of
  :meth:`panache.ThreeSolution.decisions`, or where the solution mixes two plans
  one of them drawn with its chance (:meth:`panache.ThreeSolution.mixture`) and
  counters drawn with theirs where an exchange is held mixed; with two left, the
  duel. With more than three left it plays the three-player game against the two
  opponents with the most points (counters then from the duel), and its round-1
  turn is the best-total policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from panache._game_kernels import (
    DUEL,
    HEURISTIC,
    LEADER,
    MP_ALWAYS,
    MP_NEVER,
    MP_WHEN_AHEAD,
    RANDOM,
    RANDOM_TARGET,
    THREE,
    WEAKEST,
)
from panache.policy import HUMAN_POLICIES

TARGETS = {"leader": LEADER, "weakest": WEAKEST, "random": RANDOM_TARGET}
MP_RULES = {"never": MP_NEVER, "ahead": MP_WHEN_AHEAD, "always": MP_ALWAYS}
TURN_POLICIES = ("ev", "positive", "zero")
KINDS = ("random", "heuristic", "duel", "three")


@dataclass(frozen=True)
class Agent:
    """How one seat plays. Build with :meth:`random`, :meth:`heuristic`, :meth:`duel`
    or :meth:`three`.

    Attributes
    ----------
    kind : {"random", "heuristic", "duel", "three"}
        Which player (see the module docstring).
    target : {"leader", "weakest", "random"}
        Whom a heuristic attacks.
    min_level : int
        Smallest attack level a heuristic attacks at (1..7; 7: never).
    counter : bool
        Whether a heuristic counter-attacks when it may.
    mp : {"never", "ahead", "always"}
        When a heuristic announces a Master Panache.
    turn_policy : str
        A heuristic's turn-roll policy: a :func:`panache.solve_turn` utility name or a
        key of :data:`panache.HUMAN_POLICIES`.
    label : str or None
        A name for tables instead of the generated :attr:`name`.

    Examples
    --------
    >>> Agent.heuristic(target="weakest", mp="ahead").name
    'weakest/ev/L1/counter/mp-ahead'
    >>> Agent.heuristic(target="nearest")
    Traceback (most recent call last):
    ...
    ValueError: target must be one of ['leader', 'random', 'weakest'], got 'nearest'
    """

    kind: str
    target: str = "leader"
    min_level: int = 1
    counter: bool = True
    mp: str = "ahead"
    turn_policy: str = "ev"
    label: str | None = None

    def __post_init__(self):
        if self.label is not None and not isinstance(self.label, str):
            raise TypeError(f"label must be a str or None, got {self.label!r}")
        for name in ("kind", "target", "mp", "turn_policy"):  # names: never a list or a number
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a str, got {getattr(self, name)!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not isinstance(self.target, str) or self.target not in TARGETS:
            raise ValueError(f"target must be one of {sorted(TARGETS)}, got {self.target!r}")
        if isinstance(self.min_level, bool) or not isinstance(self.min_level, int):
            raise TypeError(f"min_level must be an int, got {self.min_level!r}")
        if not 1 <= self.min_level <= 7:
            raise ValueError(f"min_level must be 1..7 (7: never attack), got {self.min_level}")
        if not isinstance(self.counter, bool):
            raise TypeError(f"counter must be True or False, got {self.counter!r}")
        if not isinstance(self.mp, str) or self.mp not in MP_RULES:
            raise ValueError(f"mp must be one of {sorted(MP_RULES)}, got {self.mp!r}")
        if self.turn_policy not in TURN_POLICIES and self.turn_policy not in HUMAN_POLICIES:
            raise ValueError(
                f"turn_policy must be one of {TURN_POLICIES} or a human policy "
                f"{tuple(HUMAN_POLICIES)}, got {self.turn_policy!r}"
            )

    @classmethod
    def random(cls, label: str | None = None) -> Agent:
        """Uniformly random legal play."""
        return cls("random", label=label)

    @classmethod
    def heuristic(
        cls,
        target: str = "leader",
        min_level: int = 1,
        counter: bool = True,
        mp: str = "ahead",
        turn_policy: str = "ev",
        label: str | None = None,
    ) -> Agent:
        """A rule of thumb (see the module docstring)."""
        return cls("heuristic", target, min_level, counter, mp, turn_policy, label)

    @classmethod
    def duel(cls, label: str | None = None) -> Agent:
        """The exact two-player policy."""
        return cls("duel", label=label)

    @classmethod
    def three(cls, label: str | None = None) -> Agent:
        """The three-player solution (see the module docstring)."""
        return cls("three", label=label)

    @property
    def name(self) -> str:
        """A short label for tables."""
        if self.label:
            return self.label
        if self.kind != "heuristic":
            return self.kind
        counter = "counter" if self.counter else "no-counter"
        return f"{self.target}/{self.turn_policy}/L{self.min_level}/{counter}/mp-{self.mp}"

    def row(self, policy_ids: dict[str, int]) -> list[int]:
        """The kernel's integer row: kind, target, min level, counter, MP rule, policy."""
        kind = {"random": RANDOM, "heuristic": HEURISTIC, "duel": DUEL, "three": THREE}[self.kind]
        return [
            kind,
            TARGETS[self.target],
            self.min_level,
            int(self.counter),
            MP_RULES[self.mp],
            policy_ids[self.turn_policy],
        ]
