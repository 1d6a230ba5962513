"""The cooperative game of Master Citadel's coalitions: values, Shapley value, least core.

**Coalition values.** ``v(S)`` is what coalition S can guarantee itself: the value of
the zero-sum game in which S maximises its members' total expected score and the
other seats minimise it (``objective="score"``; von Neumann and Morgenstern's
characteristic function, 1944). It is unique, unlike the score an equilibrium of the
difference game happens to give (equilibria with the same value can differ in their
draw chance). All seats together score 1 when their capital can walk the pawn out.
Shapley values and the (least) core of ``v`` (:mod:`tabletop.cooperative`) say
whether some alliance can promise its members more than any division of the whole
leaves them (:func:`alliance_analysis`).

The sides games behind the values are solved by :mod:`citadel.sides`; its names are
importable from here as well, where they lived before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citadel.rules import Rules
from citadel.sides import (  # the sides games, importable from here as before
    OBJECTIVES,
    SEATS,
    SidesCheck,
    SidesSolution,
    SidesSpace,
    check_side,
    check_sides,
    compass_check,
    evaluate_sides,
    side_name,
    sides_space,
    simulate_sides,
    solve_sides,
)
from tabletop.cooperative import LeastCore, least_core, shapley_value
from tabletop.frozen import same_fields
from tabletop.validate import check_fields

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "OBJECTIVES", "SEATS", "AllianceAnalysis", "SidesCheck", "SidesSolution", "SidesSpace",
    "alliance_analysis", "check_side", "check_sides", "coalition_classes",
    "coalition_values", "compass_check", "evaluate_sides", "side_name", "sides_space",
    "simulate_sides", "solve_sides",
]  # fmt: skip


def _symmetries(n_players: int):
    """Seat permutations that map the board and its walls to themselves: with four
    seats the square's 8 symmetries (quarter turns N->E->S->W, the mirror E<->W); with
    two (N, S) or three (N, E, S) the mirror y -> -y, which swaps N and S."""
    if n_players == 4:
        rot = (1, 2, 3, 0)
        mirror = (0, 3, 2, 1)
        out = []
        p = (0, 1, 2, 3)
        for _ in range(4):
            out += [p, tuple(mirror[i] for i in p)]
            p = tuple(rot[i] for i in p)
        return out
    if n_players == 3:  # N, E, S: the mirror y -> -y swaps N and S
        return [(0, 1, 2), (2, 1, 0)]
    return [(0, 1), (1, 0)]


def coalition_classes(rules: Rules, use_symmetry: bool = True) -> list[str]:
    """The coalitions to solve so that every proper coalition gets a value: all of
    them, or with ``use_symmetry`` one per class under the board's symmetries."""
    n = rules.n_players
    seen, out = set(), []
    for size in range(1, n):
        for mask in range(1, 2**n - 1):
            a = frozenset(i for i in range(n) if mask >> i & 1)
            if len(a) != size or a in seen:
                continue
            out.append(side_name(rules, a))
            seen |= {frozenset(p[i] for i in a) for p in _symmetries(n)} if use_symmetry else {a}
    return out


def coalition_values(rules: Rules, use_symmetry: bool = True,
                     compass: bool = False) -> pd.DataFrame:  # fmt: skip
    """The value of every coalition: what it can guarantee itself against the other
    seats (:func:`solve_sides` with ``objective="score"``).

    Parameters
    ----------
    rules : Rules
    use_symmetry : bool
        Solve one coalition of each class under the board's symmetries (rotations
        and reflections that map seats to seats) and give the others its value
        (default True).
    compass : bool
        Let both sides write their combined order in any of the eight directions
        (:func:`solve_sides`; default False).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``coalition`` (seat names in seat order, every non-empty one), with
        columns ``value``, ``solved_as`` (the coalition solved; with ``use_symmetry`` a
        coalition takes its value from a symmetric one), ``exploitability`` of that
        solve and ``draw``, the draw chance when both sides play the solution. The
        grand coalition scores 1 when its pooled capital can walk the pawn out, else 0.

    Examples
    --------
    >>> v = coalition_values(Rules(radius=1, capital=10, bid_step=5))
    >>> float(v.loc["NESW", "value"]), bool((v["value"] <= 1 + 1e-9).all())
    (1.0, True)
    """
    import pandas as pd

    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    use_symmetry = check_bool("use_symmetry", use_symmetry)
    compass = check_bool("compass", compass)
    n = rules.n_players
    found = {}
    for name in coalition_classes(rules, use_symmetry):
        sol = solve_sides(rules, name, objective="score", compass=compass)
        chk = check_sides(sol)
        a = frozenset(sol.space.sides[0])
        images = {frozenset(p[i] for i in a) for p in _symmetries(n)} if use_symmetry else {a}
        for image in images:
            found.setdefault(image, (chk.value, name, chk.exploitability, chk.p_draw))
    steps_needed = (rules.radius + 1) * rules.smallest_bid
    if rules.min_bid == 0:  # one seat at a time may write, the others abstain
        grand = 1.0 if n * rules.capital >= steps_needed else 0.0
    else:  # every seat writes at least the smallest amount each round
        grand = 1.0 if rules.capital >= steps_needed else 0.0
    found[frozenset(range(n))] = (grand, "", 0.0, 1.0 - grand)
    rows = {side_name(rules, s): found[s] for s in
            sorted(found, key=lambda s: (len(s), sorted(s)))}  # fmt: skip
    frame = pd.DataFrame.from_dict(rows, orient="index",
                                   columns=["value", "solved_as", "exploitability", "draw"])
    frame.index.name = "coalition"
    return frame


@dataclass(frozen=True, eq=False)
class AllianceAnalysis:
    """Coalition values and what cooperative game theory says of them.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    values : pandas.DataFrame
        :func:`coalition_values`.
    shapley : pandas.Series
        Each seat's Shapley value.
    least_core : tabletop.cooperative.LeastCore
        The least core: ``epsilon <= 0`` iff the core is non-empty; ``excess`` lists
        the coalitions that gain most by leaving the best division.

    Examples
    --------
    Two seats facing each other (N + S) get 1/2, two neighbours 1/11, any three
    seats 1: every seat is worth a quarter, and the core is empty.

    >>> res = alliance_analysis(Rules(radius=1, capital=10, bid_step=5))
    >>> res.values.loc[["NS", "NE", "NES"], "value"].round(4).tolist()
    [0.5, 0.0909, 1.0]
    >>> res.shapley.round(9).tolist(), float(res.least_core.epsilon) > 0
    ([0.25, 0.25, 0.25, 0.25], True)
    """

    values: pd.DataFrame
    shapley: pd.Series
    least_core: LeastCore

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)


def alliance_analysis(rules: Rules, use_symmetry: bool = True,
                      compass: bool = False) -> AllianceAnalysis:  # fmt: skip
    """Coalition values (:func:`coalition_values`, ``compass`` as in :func:`solve_sides`)
    with their Shapley values and least core.

    Parameters
    ----------
    rules : Rules
    use_symmetry : bool
        As in :func:`coalition_values` (default True).
    compass : bool
        As in :func:`solve_sides` (default False).

    Returns
    -------
    AllianceAnalysis
        The coalition values with the Shapley value and the least core
        (:mod:`tabletop.cooperative`) of the game they define, the seats as players.

    Examples
    --------
    >>> res = alliance_analysis(Rules(radius=1, capital=10, bid_step=5))
    >>> round(float(res.shapley.sum()), 9)
    1.0
    """
    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    use_symmetry = check_bool("use_symmetry", use_symmetry)
    compass = check_bool("compass", compass)
    values = coalition_values(rules, use_symmetry, compass)
    v = {tuple(name): float(x) for name, x in values["value"].items()}
    return AllianceAnalysis(values, shapley_value(v, rules.seats), least_core(v, rules.seats))
