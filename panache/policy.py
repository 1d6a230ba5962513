"""Turn-roll policies: what to set aside, given what is set aside and what was rolled.

A :class:`TurnPolicy` is a table over every (set-aside multiset, roll of the other
dice) pair: 4 116 pairs with five dice, 74 295 with eight. Any Python callable
``f(set_aside, rolled) -> faces to set aside`` (faces as pips 1..6) is turned into
such a table by :func:`tabulate_policy`, which checks every answer against the rule
(set aside at least one of the dice just rolled, and only those).

:func:`human_policy` builds the named rules of thumb players use, to compare with
the optimum of :func:`panache.solve_turn`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from panache.dice import DiceSpace, dice_space
from panache.rules import MAX_DICE, Rules, check_faces
from tabletop.frozen import memoize, read_only

if TYPE_CHECKING:
    import pandas as pd


@memoize(maxsize=MAX_DICE)
def policy_layout(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Layout of a policy table of ``n`` dice.

    Returns ``table_offset`` (entry of the first roll after each set-aside multiset,
    with a final total), and for every entry the set-aside multiset and the roll.
    """
    space = dice_space(n)
    left = n - space.sizes
    n_rolls = np.where(left > 0, space.size_offset[left + 1] - space.size_offset[left], 0)
    table_offset = np.concatenate([[0], np.cumsum(n_rolls)]).astype(np.int64)
    entry_set_aside = np.repeat(np.arange(len(space.sizes)), n_rolls)
    within = np.arange(table_offset[-1]) - table_offset[entry_set_aside]
    entry_roll = space.size_offset[left[entry_set_aside]] + within
    for array in (table_offset, entry_set_aside, entry_roll):
        array.setflags(write=False)
    return table_offset, entry_set_aside, entry_roll


class TurnPolicy:
    """A tabulated turn-roll policy for ``n_dice`` dice.

    Parameters
    ----------
    n_dice : int
        Dice in a turn roll.
    kept : array_like of int
        For each entry of :func:`policy_layout`, the index (in ``dice_space(n_dice)``)
        of the multiset set aside. Checked: non-empty and drawn from the roll.
    name : str
        A label for tables and plots.

    A policy is immutable: ``kept`` is a read-only array and the attributes cannot be
    set. ``==`` holds when the dice, the name and every decision are the same.

    Attributes
    ----------
    n_dice : int
    kept : numpy.ndarray of int
        Read-only, as passed.
    name : str

    Examples
    --------
    >>> from panache import Rules, human_policy
    >>> p = human_policy(Rules(), "roger")
    >>> p.choose(set_aside=(), rolled=(6, 5, 5, 3, 1))
    (6,)
    """

    def __init__(self, n_dice: int, kept, name: str = "policy"):
        from tabletop.validate import check_int, check_int_array

        set_ = object.__setattr__
        set_(self, "n_dice", check_int("n_dice", n_dice, 1, 8))
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {name!r} ({type(name).__name__})")
        set_(self, "name", name)
        space = dice_space(self.n_dice)
        _, entry_a, entry_r = policy_layout(self.n_dice)
        kept = check_int_array("kept", kept)
        if kept.shape != entry_r.shape:
            raise ValueError(
                f"kept must have {entry_r.size} entries for {self.n_dice} dice, got {kept.shape}"
            )
        out = (kept < 0) | (kept >= len(space.sizes))
        if out.any():
            e = int(np.flatnonzero(out)[0])
            raise ValueError(
                f"kept[{e}] is {int(kept[e])}: each entry is the index of a multiset of dice, "
                f"0 to {len(space.sizes) - 1} for {self.n_dice} dice"
            )
        bad = (space.sizes[kept] < 1) | np.any(space.counts[kept] > space.counts[entry_r], axis=1)
        if bad.any():
            e = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"policy {self.name!r} sets aside an illegal multiset after set_aside="
                f"{space.faces(entry_a[e])}, rolled={space.faces(entry_r[e])}: at least one "
                f"of the dice just rolled must be set aside, and only those"
            )
        set_(self, "kept", read_only(kept))

    def __setattr__(self, name, value):
        raise AttributeError(f"TurnPolicy is immutable: cannot set {name!r}")

    def __eq__(self, other):
        if not isinstance(other, TurnPolicy):
            return NotImplemented
        return (self.n_dice, self.name) == (other.n_dice, other.name) and bool(
            np.array_equal(self.kept, other.kept)
        )

    def __hash__(self) -> int:
        return hash((self.n_dice, self.name, self.kept.tobytes()))

    def __repr__(self) -> str:
        return f"TurnPolicy(name={self.name!r}, n_dice={self.n_dice})"

    def _entry(self, set_aside, rolled) -> int:
        space = dice_space(self.n_dice)
        set_aside = check_faces("set_aside", set_aside)
        rolled = check_faces("rolled", rolled)
        if len(set_aside) + len(rolled) != self.n_dice or not rolled:
            raise ValueError(
                f"set_aside and rolled must hold {self.n_dice} dice together, with at least "
                f"one rolled; got set_aside={set_aside}, rolled={rolled}"
            )
        table_offset, _, _ = policy_layout(self.n_dice)
        a = space.index(set_aside)
        r = space.index(rolled)
        return int(table_offset[a] + r - space.size_offset[len(rolled)])

    def choose(self, set_aside: Sequence[int], rolled: Sequence[int]) -> tuple[int, ...]:
        """The dice (faces, highest first) this policy sets aside from ``rolled``."""
        return dice_space(self.n_dice).faces(self.kept[self._entry(set_aside, rolled)])

    __call__ = choose

    def to_frame(self, rules: Rules | None = None) -> pd.DataFrame:
        """Every decision as a DataFrame indexed by (set_aside, rolled).

        Index labels are faces separated by spaces, highest first (``"6 5 5"``);
        nothing set aside yet is ``""``, so the first-roll decisions are
        ``frame.xs("", level="set_aside")``. Columns: ``dice_left``, ``p_roll`` (the
        probability of that roll of ``dice_left`` dice), ``keep`` (faces set aside),
        ``n_keep``, ``stop`` (every rolled die kept), and with ``rules`` the
        ``set_aside_total``.
        """
        import pandas as pd

        space = dice_space(self.n_dice)
        _, entry_a, entry_r = policy_layout(self.n_dice)
        label = [" ".join(map(str, space.faces(i))) for i in range(len(space.sizes))]
        frame = pd.DataFrame(
            {
                "set_aside": [label[a] for a in entry_a],
                "rolled": [label[r] for r in entry_r],
                "dice_left": space.sizes[entry_r],
                "p_roll": space.probability[entry_r],
                "keep": [label[k] for k in self.kept],
                "n_keep": space.sizes[self.kept],
            }
        )
        frame["stop"] = frame["n_keep"] == frame["dice_left"]
        if rules is not None:
            frame["set_aside_total"] = space.counts[entry_a] @ rules.values
        return frame.set_index(["set_aside", "rolled"])


def tabulate_policy(n_dice: int, choose: Callable, name: str | None = None) -> TurnPolicy:
    """Turn a callable ``choose(set_aside, rolled) -> faces`` into a :class:`TurnPolicy`.

    The callable receives two tuples of faces (pips 1..6, highest first) and returns
    the faces to set aside. It is called once per (set-aside, roll) pair.

    Parameters
    ----------
    n_dice : int
        Dice in a turn roll (1..8).
    choose : callable or TurnPolicy
        ``choose(set_aside, rolled) -> faces``; a TurnPolicy is returned as it is.
    name : str, optional
        The policy's label (default: the callable's ``__name__``).

    Returns
    -------
    TurnPolicy

    Examples
    --------
    >>> p = tabulate_policy(2, lambda set_aside, rolled: rolled[:1], name="first")
    >>> p.name, p.choose((), (6, 2)), p.choose((6,), (3,))
    ('first', (6,), (3,))

    Raises
    ------
    ValueError
        Naming the first situation where the answer breaks the set-aside rule.
    """
    from tabletop.validate import check_int

    check_int("n_dice", n_dice, 1, MAX_DICE)
    if isinstance(choose, TurnPolicy):
        return choose
    if not callable(choose):
        # the callers pass their own ``policy`` here: the message names both
        raise TypeError("choose (the policy) must be a TurnPolicy or a callable, "
                        f"got {type(choose).__name__}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str or None, got {name!r} ({type(name).__name__})")
    space = dice_space(n_dice)
    _, entry_a, entry_r = policy_layout(n_dice)
    name = name or getattr(choose, "__name__", "policy")
    faces = [space.faces(i) for i in range(len(space.sizes))]
    kept = np.empty(entry_r.size, dtype=np.int64)
    for e, (a, r) in enumerate(zip(entry_a, entry_r, strict=True)):
        answer = choose(faces[a], faces[r])
        kept[e] = _kept_index(space, answer, faces[a], faces[r], name)
    return TurnPolicy(n_dice, kept, name=name)


def _kept_index(space: DiceSpace, answer, set_aside, rolled, name) -> int:
    try:
        answer = check_faces("kept dice", answer)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"policy {name!r} returned {answer!r} for set_aside={set_aside}, rolled={rolled}: {exc}"
        ) from None
    if not answer or Counter(answer) - Counter(rolled):
        raise ValueError(
            f"policy {name!r} returned {answer} for set_aside={set_aside}, rolled={rolled}: "
            f"it must set aside at least one of the dice just rolled, and only those"
        )
    return space.index(answer)


# -- named human policies -----------------------------------------------------------------

HUMAN_POLICIES = {
    "best_die": "keep only the best die of each roll (so every die is rolled until the last)",
    "nonnegative": "keep every die worth >= 0; if there is none, keep the best one",
    "stop_at_nonnegative": "stop as soon as the total would be >= 0; else keep the best die",
    "roger": "the seed's Roger: keep sixes (a roll with no six: its best die); once a roll "
             "with a six brings the sixes held to three, that roll's fives too",
}


def human_policy(rules: Rules, name: str) -> TurnPolicy:
    """A named rule of thumb (see ``HUMAN_POLICIES``) as a :class:`TurnPolicy`.

    "Best" means highest value under ``rules.face_values`` (the higher face on ties).

    Parameters
    ----------
    rules : Rules
    name : str
        A key of ``HUMAN_POLICIES``.

    Returns
    -------
    TurnPolicy
        For ``rules.n_dice`` dice, labelled ``name``.

    Examples
    --------
    >>> from panache import Rules
    >>> human_policy(Rules(), "nonnegative").choose((), (6, 5, 4, 2, 1))
    (6, 5)
    """
    rules = Rules.check(rules, default=False)
    if not isinstance(name, str) or name not in HUMAN_POLICIES:
        raise ValueError(f"name must be one of {sorted(HUMAN_POLICIES)}, got {name!r}")
    value = dict(enumerate(rules.face_values, start=1))

    def best(rolled):
        return max(rolled, key=lambda f: (value[f], f))

    def best_die(set_aside, rolled):
        return (best(rolled),)

    def nonnegative(set_aside, rolled):
        good = tuple(f for f in rolled if value[f] >= 0)
        return good or (best(rolled),)

    def stop_at_nonnegative(set_aside, rolled):
        if sum(value[f] for f in set_aside + rolled) >= 0:
            return rolled
        return (best(rolled),)

    def roger(set_aside, rolled):
        sixes = tuple(f for f in rolled if f == 6)
        if not sixes:
            return (best(rolled),)
        if set_aside.count(6) + len(sixes) >= 3:
            return sixes + tuple(f for f in rolled if f == 5)
        return sixes

    choosers = {
        "best_die": best_die,
        "nonnegative": nonnegative,
        "stop_at_nonnegative": stop_at_nonnegative,
        "roger": roger,
    }
    return tabulate_policy(rules.n_dice, choosers[name], name=name)
