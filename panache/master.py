"""The Master Panache: the attempt's odds and the value of each stake (docs/rules.md).

After a total of 0 (not in round 1) a player may name a target and an even stake
X (``rules.legal_stakes(points)``), then play a whole turn roll again aiming at a
total of exactly 0. Success costs the target X points, failure costs the announcer
X / 2. The best attempt maximises P(total = 0): it is ``solve_turn(rules, "zero")``.

With success probability ``p`` the expected swing of the points difference is
``p X - (1 - p) X / 2 = X (3p - 1) / 2``: every stake gains on average exactly when
``p > 1/3``. Losses are capped by what a player has: the *capped* swing counts at
most the target's points and the announcer's points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from panache.rules import Rules
from panache.turn import solve_turn
from tabletop.budget import Estimate, check_memory
from tabletop.frozen import memoize
from tabletop.validate import check_int

if TYPE_CHECKING:
    import pandas as pd


@memoize(maxsize=64)
def mp_success(rules: Rules) -> float:
    """Probability that a Master Panache attempt ends on a total of 0, played optimally.

    Parameters
    ----------
    rules : Rules

    Returns
    -------
    float
        The value of :func:`panache.solve_turn` for the utility ``"zero"``.

    Examples
    --------
    >>> round(mp_success(Rules()), 4)
    0.2993
    """
    return solve_turn(rules, "zero").value


def mp_outcome(rules: Rules, stake: int, points: int, success: bool) -> tuple[int, int]:
    """Points lost by (announcer, target) after a Master Panache at ``stake``.

    Raises ValueError when the stake is illegal for a player with ``points`` points.

    Parameters
    ----------
    rules : Rules
    stake : int
        The stake announced (even, >= 2, within the rules' ceiling for ``points``).
    points : int
        The announcer's points.
    success : bool
        Whether the attempt ended on a total of 0.

    Returns
    -------
    tuple of int
        Points lost by the announcer and by the target: ``(0, stake)`` on a success,
        ``(stake // 2, 0)`` on a failure.

    Examples
    --------
    >>> mp_outcome(Rules(), 12, points=20, success=False)   # Hildeberte's failed MP at 12
    (6, 0)
    """
    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    success = check_bool("success", success)
    stake = rules.check_stake(stake, points)
    return (0, stake) if success else (stake // 2, 0)


#: Peak bytes per stake of :func:`mp_stakes`: the stakes (int64 and float64), seven
#: float64 columns, the index, and the temporaries of the column arithmetic and of the
#: DataFrame's consolidation, measured with tracemalloc.
STAKE_BYTES = 136


def stakes_size(rules: Rules, points: int) -> Estimate:
    """Memory of :func:`mp_stakes` for a player with ``points`` points: one row per even
    stake up to ``mp_stake_factor * points`` (and ``mp_stake_cap``).

    Examples
    --------
    >>> stakes_size(Rules(), 3).nbytes == 3 * STAKE_BYTES
    True
    """
    n = max(rules.stake_ceiling(points) // 2, 0)
    knobs = {"points": points, "mp_stake_factor": rules.mp_stake_factor,
             "mp_stake_cap": rules.mp_stake_cap}  # fmt: skip
    return Estimate("panache.mp_stakes", n * STAKE_BYTES, knobs,
                    detail=f"{n:,} stakes x {STAKE_BYTES} bytes")  # fmt: skip


def mp_stakes(rules: Rules, points: int, target_points: int, *,
              allow_large: bool = False) -> pd.DataFrame:  # fmt: skip
    """Every legal stake for ``points`` against a target with ``target_points``.

    A list that would not fit in the memory available (a huge ``mp_stake_factor`` or
    ``points`` and no ``mp_stake_cap``) is refused with a ``MemoryError`` before any
    work, unless ``allow_large=True`` (see :func:`stakes_size`).

    Parameters
    ----------
    rules : Rules
    points : int
        The announcer's points (>= 1).
    target_points : int
        The target's points (>= 1).
    allow_large : bool
        List the stakes even when the table exceeds the memory available.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``stake``; columns ``p_success``, ``expected_swing`` (uncapped
        points difference), ``expected_target_loss`` and ``expected_own_loss``
        (capped at the points each has), ``expected_capped_swing`` (their
        difference), ``p_target_eliminated`` and ``p_self_eliminated``.

    Examples
    --------
    >>> t = mp_stakes(Rules(), 3, 10)
    >>> t.index.tolist()
    [2, 4, 6]
    >>> bool(t.loc[6, "p_self_eliminated"] == 1 - mp_success(Rules()))
    True
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    points = check_int("points", points, 1)
    target_points = check_int("target_points", target_points, 1)
    check_memory(stakes_size(rules, points), allow_large,
                 hint="lower points or mp_stake_factor, or set mp_stake_cap")  # fmt: skip
    p = mp_success(rules)
    x = rules.legal_stakes(points).astype(np.float64)
    target_loss = p * np.minimum(x, target_points)
    own_loss = (1 - p) * np.minimum(x / 2, points)
    frame = pd.DataFrame(
        {
            "p_success": p,
            "expected_swing": x * (3 * p - 1) / 2,
            "expected_target_loss": target_loss,
            "expected_own_loss": own_loss,
            "expected_capped_swing": target_loss - own_loss,
            "p_target_eliminated": np.where(x >= target_points, p, 0.0),
            "p_self_eliminated": np.where(x / 2 >= points, 1 - p, 0.0),
        },
        index=pd.Index(x.astype(np.int64), name="stake"),
    )
    return frame
