r"""Advice for one roll: every distinct way to set dice aside, valued exactly.

A player in the middle of a turn roll has ``kept`` dice set aside (total ``s``) and
has just rolled ``m`` dice. Setting aside a non-empty sub-multiset ``K`` of the roll
leads to the state (``m - |K|`` dice left, total ``s + v(K)``), whose value under the
optimal continuation is the value function of :func:`panache.solve_turn`:

.. math::

    \operatorname{value}(K) = V_{m - |K|}\bigl(s + v(K)\bigr),
    \qquad V_0(t) = u(t).

:func:`advise` lists every distinct ``K`` (as faces, so "6 3" and "5 4" are two rows
even when they are worth the same) with that value, best first. The utility ``u`` is
a name of :func:`panache.utility_vector` (the expected total, or the chance of a
total of 0, of a positive total, of at least ``k``), or, with ``points`` and
``against``, the solved duel's (:func:`panache.solve_duel`): the mover's chance of
winning the game after each total, in a turn of round 2 or later (after round 1
points never grow, and that is the game the duel tables solve).

Ties (values within 1e-12) are ordered as :func:`panache.solve_turn` breaks them:
more dice set aside first, then the higher value, then the higher faces; so the
first row is always the optimal policy's choice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from panache._kernels import TIE_TOLERANCE
from panache.duel import max_points, solve_duel
from panache.rules import N_FACES, Rules, check_faces
from panache.turn import solve_turn
from tabletop.validate import check_int

if TYPE_CHECKING:
    import pandas as pd


COLUMNS = ("keep", "reroll", "n_keep", "keep_value", "set_aside_total", "dice_left",
           "value", "loss", "best")  # fmt: skip


def turn_utility(rules: Rules, utility=None, points=None, against=None):
    """The utility :func:`advise` maximises: a name, or the duel's for (points, against).

    Returns what :func:`panache.solve_turn` accepts: ``utility`` itself (``"ev"`` when
    neither it nor the points are given), or the solved duel's
    :meth:`~panache.DuelSolution.turn_utility` as an array.
    """
    if (points is None) != (against is None):
        raise ValueError(
            f"points and against go together (the mover's and the opponent's points), "
            f"got points={points!r}, against={against!r}"
        )
    if points is None:
        return "ev" if utility is None else utility
    if utility is not None:
        raise ValueError(
            f"give either utility or points and against, not both: with points the utility "
            f"is the duel's winning chance (got utility={utility!r})"
        )
    top = max_points(rules)
    a = check_int("points", points, 1, top)
    b = check_int("against", against, 1, top)
    return solve_duel(rules).turn_utility(a, b).to_numpy()


def _faces_label(faces) -> str:
    return " ".join(str(f) for f in sorted(faces, reverse=True))


def _options(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct non-empty sub-multiset of ``roll``, as faces highest first."""
    counts = Counter(roll)
    faces = sorted(counts, reverse=True)
    out = []
    for take in itertools.product(*(range(counts[f] + 1) for f in faces)):
        kept = tuple(f for f, c in zip(faces, take, strict=True) for _ in range(c))
        if kept:
            out.append(kept)
    return out


def advise(roll, kept=(), rules: Rules | None = None, utility=None, points=None,
           against=None) -> pd.DataFrame:  # fmt: skip
    """Every distinct choice of dice to set aside from ``roll``, valued, best first.

    Parameters
    ----------
    roll : sequence of int
        The dice just rolled (faces 1..6), at least one.
    kept : sequence of int, optional
        The dice set aside earlier in this turn roll; ``len(kept) + len(roll)`` must be
        ``rules.n_dice``.
    rules : Rules, optional
        Default ``Rules()``.
    utility : str, array_like or callable, optional
        What the turn maximises (see :func:`panache.utility_vector`): ``"ev"`` (the
        default), ``"zero"``, ``"positive"``, ``"at_least:k"``... Not with ``points``.
    points, against : int, optional
        The mover's and the opponent's points in a duel (round 2 or later): the
        utility is then the mover's chance of winning the game after each total,
        from :meth:`panache.DuelSolution.turn_utility`.

    Returns
    -------
    pandas.DataFrame
        One row per distinct sub-multiset of the roll, indexed by ``rank`` (1 = best:
        the keep of :func:`panache.solve_turn`'s policy, which among keeps of tied value
        takes the one with the highest expected total):
        ``keep`` and ``reroll`` (faces, highest first; ``reroll`` is ``""`` when the
        choice stops), ``n_keep``, ``keep_value`` (value of the dice kept),
        ``set_aside_total`` (total set aside after the choice), ``dice_left``,
        ``value`` (the expected utility with optimal play afterwards: the expected
        final total for ``"ev"``, a probability otherwise), ``loss`` (best value minus
        this one) and ``best`` (within 1e-12 of the best).

    Raises
    ------
    ValueError, TypeError
        Faces outside 1..6, a dice count that does not add up to ``n_dice``, points
        outside 1..max points, or both ``utility`` and ``points``.

    Examples
    --------
    >>> table = advise([6, 5, 5, 3, 1])     # Roger's first roll (docs/rules.md)
    >>> table.loc[1, ["keep", "reroll"]].tolist(), round(float(table.loc[1, "value"]), 4)
    (['6', '5 5 3 1'], -0.1564)
    >>> len(table)                          # 2 x 3 x 2 x 2 - 1 distinct choices
    23
    >>> advise([6, 5, 2], kept=[6, 6], utility="zero").loc[1, "keep"]   # 1+1+1+0-3 = 0
    '6 5 2'
    """
    rules = Rules.check(rules)
    roll = check_faces("roll", roll)
    kept = check_faces("kept", kept)
    if not roll or len(roll) + len(kept) != rules.n_dice:
        raise ValueError(
            f"roll and kept must hold n_dice={rules.n_dice} dice together, with at least one "
            f"rolled; got roll={roll}, kept={kept}"
        )
    u = turn_utility(rules, utility, points, against)
    return _advise(rules, roll, kept, solve_turn(rules, u))


def _advise(rules: Rules, roll, kept, solution) -> pd.DataFrame:
    import pandas as pd

    values = solution.values
    # rank 1 is the solved policy's own keep: among tied keeps, the one it takes
    chosen = _faces_label(solution.policy.choose(kept, roll))

    face_value = dict(zip(range(1, N_FACES + 1), rules.face_values, strict=True))
    start = sum(face_value[f] for f in kept)
    rows = []
    for keep in _options(roll):
        rest = Counter(roll) - Counter(keep)
        keep_value = sum(face_value[f] for f in keep)
        total = start + keep_value
        left = len(roll) - len(keep)
        rows.append(
            {
                "keep": _faces_label(keep),
                "reroll": _faces_label(rest.elements()),
                "n_keep": len(keep),
                "keep_value": keep_value,
                "set_aside_total": total,
                "dice_left": left,
                "value": float(values.loc[left, total]),
                "_faces": tuple(-f for f in keep),
            }
        )
    frame = pd.DataFrame(rows)
    # values within the tie tolerance of each other are one group, ordered as the solver
    by_value = frame["value"].sort_values(ascending=False, kind="stable")
    group = np.zeros(len(frame), dtype=np.int64)
    lead = by_value.iloc[0]
    g = 0
    for pos, v in zip(by_value.index, by_value.to_numpy(), strict=True):
        if v < lead - TIE_TOLERANCE:
            g += 1
            lead = v
        group[pos] = g
    frame["_group"] = group
    frame["_other"] = frame["keep"] != chosen
    frame = frame.sort_values(
        ["_group", "_other", "n_keep", "keep_value", "_faces"],
        ascending=[True, True, False, False, True],
    )
    best = frame["value"].max()
    frame["loss"] = best - frame["value"]
    frame["best"] = frame["loss"] <= TIE_TOLERANCE
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
    return frame.loc[:, list(COLUMNS)]
