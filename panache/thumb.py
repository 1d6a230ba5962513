r"""Rules of thumb for the turn roll: short decision lists, searched and scored exactly.

A *decision list* is read top to bottom; the first clause whose condition holds
says which of the dice just rolled to set aside, and the last clause always holds.
A condition looks at what a player sees: the number ``m`` of dice just rolled, the
total ``s`` of the dice already set aside, and the total ``s + v(R)`` the turn would
end on if every die rolled ``R`` were kept. An action is one of

* ``stop``: keep every die rolled;
* ``at_least:v``: keep every die worth at least ``v`` (if there is none, the best
  die: highest value, then highest face);
* ``ladder:t1,t2,t3``: keep the best die; then, going down the other dice best
  first, keep each die worth at least ``t_r``, where ``r`` is the number of dice
  that would be re-rolled without it (it and the worse ones; ``t3`` for 3 or more),
  and stop at the first die not kept. The family comes from the expected total:
  with ``V_j`` the best expected total of ``j`` dice, keeping one more die of value
  ``x`` instead of re-rolling it with the ``r - 1`` worse ones is better when
  ``x >= V_r - V_{r-1}``. That compares neighbouring choices only, so a ladder is a
  rule of thumb, scored exactly like the others. Ladders are offered as the last
  clause only, with ``t1 <= t2 <= t3``;
* ``zeros``: keep every die worth 0 (if there is none, the die that brings the
  total closest to 0, higher value first);
* ``closest``: keep one die, the one that brings the total closest to 0.

Every list is a :class:`panache.TurnPolicy`, evaluated exactly by forward
propagation (:func:`panache.evaluate_policy`); its *cost* is the optimum's expected
utility (:func:`panache.solve_turn`) minus its own. :func:`search_rules` finds, for
each length 1, 2, ... the list of least cost: lengths 1 and 2 exhaustively over the
clause families above (:class:`Clause`), each longer length by inserting one clause
at every position of the best ``beam`` lists one clause shorter (a beam search, so a
list of 3 or more clauses is the best found, not proven best). :func:`rule_of_thumb`
returns the shortest list whose cost is within a stated margin.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from panache._kernels import TIE_TOLERANCE, evaluate_policy_kernel
from panache.dice import dice_space
from panache.policy import TurnPolicy, policy_layout
from panache.rules import MAX_DICE, N_FACES, Rules
from panache.turn import solve_turn, utility_vector
from tabletop.frozen import memoize, same_fields
from tabletop.validate import check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


CONDITIONS = ("always", "rolled", "rolled_at_most", "makes", "makes_at_least",
              "total_at_least", "total_at_most")  # fmt: skip
ACTIONS = ("stop", "at_least", "ladder", "zeros", "closest")


@dataclass(frozen=True)
class Clause:
    """One line of a decision list: ``if condition(arg): action(value)``.

    Conditions: ``always``; ``rolled`` (exactly ``arg`` dice just rolled);
    ``rolled_at_most`` (at most ``arg``); ``makes`` (keeping every die rolled makes a
    total of exactly ``arg``); ``makes_at_least`` (of at least ``arg``);
    ``total_at_least`` / ``total_at_most`` (the total set aside so far, with at least
    one die set aside). Actions: see the module docstring (``value`` is the ``v`` of
    ``at_least``).

    Attributes
    ----------
    condition : str
        One of ``CONDITIONS``.
    action : str
        One of ``ACTIONS``.
    arg : int or None
        The condition's number of dice (1..8 for ``rolled`` and ``rolled_at_most``) or
        total (any int); None exactly for ``always``.
    value : int, tuple of 3 ints, or None
        The threshold ``v`` of ``at_least``, the thresholds ``(t1, t2, t3)`` of
        ``ladder`` (any sequence of three ints, stored as a tuple); None for the other
        actions.

    Examples
    --------
    >>> print(Clause("makes_at_least", "at_least", arg=1, value=0).text(Rules()))
    if keeping them all makes a total of 1 or more: keep every die worth +0 or more \
(faces 5, 6), at least the best one
    >>> Clause("always", "stop", arg=2)
    Traceback (most recent call last):
    ...
    ValueError: condition 'always' takes an arg iff it is not 'always'
    """

    condition: str
    action: str
    arg: int | None = None
    value: int | tuple[int, int, int] | None = None

    def __post_init__(self):
        if self.condition not in CONDITIONS:
            raise ValueError(f"condition must be one of {CONDITIONS}, got {self.condition!r}")
        if self.action not in ACTIONS:
            raise ValueError(f"action must be one of {ACTIONS}, got {self.action!r}")
        if self.arg is not None and (isinstance(self.arg, bool) or not isinstance(self.arg, int)):
            raise TypeError(f"arg must be an int or None, got {self.arg!r}")
        if (self.condition == "always") != (self.arg is None):
            raise ValueError(f"condition {self.condition!r} takes an arg iff it is not 'always'")
        if self.condition in ("rolled", "rolled_at_most"):  # a number of dice
            check_int(f"arg (dice of condition {self.condition!r})", self.arg, 1, MAX_DICE)
        if (self.action in ("at_least", "ladder")) != (self.value is not None):
            raise ValueError(
                f"action {self.action!r} takes a value iff it is 'at_least' or 'ladder'"
            )
        if self.action == "at_least" and (isinstance(self.value, bool)
                                          or not isinstance(self.value, int)):
            raise TypeError(f"value of 'at_least' must be an int, got {self.value!r}")
        if self.action == "ladder":
            thresholds = self.value
            if isinstance(thresholds, str | bytes) or not hasattr(thresholds, "__len__"):
                raise TypeError(f"value of 'ladder' must be a sequence of three ints, "
                                f"got {thresholds!r}")  # fmt: skip
            if len(thresholds) != 3:
                raise ValueError(f"value of 'ladder' must be three thresholds, got {thresholds!r}")
            object.__setattr__(self, "value", tuple(
                check_int(f"value[{i}] of 'ladder'", t, None) for i, t in enumerate(thresholds)))

    def text(self, rules: Rules) -> str:
        """The clause in words, with the faces of each value named."""
        if_ = {
            "always": "",
            "rolled": f"with {self.arg} dice rolled: ",
            "rolled_at_most": f"with {self.arg} dice rolled or fewer: ",
            "makes": f"if keeping them all makes a total of exactly {self.arg}: ",
            "makes_at_least": f"if keeping them all makes a total of {self.arg} or more: ",
            "total_at_least": f"once your dice set aside total {self.arg} or more: ",
            "total_at_most": f"once your dice set aside total {self.arg} or less: ",
        }[self.condition]
        if self.action == "stop":
            do = "stop (keep them all)"
        elif self.action == "at_least":
            faces = [f for f in range(1, N_FACES + 1) if rules.face_values[f - 1] >= self.value]
            named = f" (faces {_face_list(faces)})" if faces else ""
            do = f"keep every die worth {self.value:+d} or more{named}, at least the best one"
        elif self.action == "ladder":
            do = _ladder_text(rules, self.value)
        elif self.action == "zeros":
            faces = [f for f in range(1, N_FACES + 1) if rules.face_values[f - 1] == 0]
            named = f" (faces {_face_list(faces)})" if faces else ""
            do = f"keep every die worth 0{named}; if none, the die closest to a total of 0"
        else:
            do = "keep the one die that brings your total closest to 0"
        return if_ + do


def _face_list(faces) -> str:
    return ", ".join(str(f) for f in faces)


def _ladder_text(rules: Rules, thresholds) -> str:
    """A ladder in words, naming only the counts a roll can meet, equal thresholds merged."""
    top = min(rules.n_dice - 1, 3)  # the most dice a further die can leave to re-roll
    if top < 1:
        return "keep the best die"
    tiers: list[list[int]] = []  # [threshold, smallest count, largest count]
    for count in range(1, top + 1):
        t = thresholds[count - 1]
        if tiers and tiers[-1][0] == t:
            tiers[-1][2] = count
        else:
            tiers.append([t, count, count])
    parts = []
    for t, low, high in reversed(tiers):
        if high == 3 and rules.n_dice - 1 > 3:
            when = f"{low} or more"
        elif low == high:
            when = f"{low}"
        else:
            when = f"{low} to {high}"
        parts.append(f"{_worth(rules, t)} for {when}")
    return (
        "keep the best die; then, going down from the best, keep each next die if it is "
        "worth at least a threshold set by how many dice you would re-roll without it (it "
        "and the worse ones): " + ", ".join(parts) + "; stop at the first die you do not keep"
    )


def _worth(rules: Rules, v: int) -> str:
    faces = [f for f in range(1, N_FACES + 1) if rules.face_values[f - 1] >= v]
    return f"{v:+d} ({_face_list(faces)})" if faces else f"{v:+d} (no face)"


@dataclass(frozen=True)
class DecisionList:
    """A rule of thumb: clauses read in order; the last one must be ``always``.

    Attributes
    ----------
    clauses : tuple of Clause
        At least one (any sequence of Clause, stored as a tuple); the first whose
        condition holds decides; the last must have condition ``always``.

    Examples
    --------
    >>> rule = DecisionList((Clause("always", "at_least", value=0),))
    >>> rule.policy(Rules()).choose((), (6, 5, 4, 2, 1))
    (6, 5)
    >>> print(rule.text(Rules()))
    1. keep every die worth +0 or more (faces 5, 6), at least the best one
    """

    clauses: tuple[Clause, ...]

    def __post_init__(self):
        if isinstance(self.clauses, str) or not hasattr(self.clauses, "__iter__"):
            raise TypeError(f"clauses must be a non-empty sequence of Clause, got {self.clauses!r}")
        clauses = tuple(self.clauses)
        if not clauses or not all(isinstance(c, Clause) for c in clauses):
            raise TypeError(f"clauses must be a non-empty sequence of Clause, got {self.clauses!r}")
        if clauses[-1].condition != "always":
            raise ValueError(f"clauses[-1] must have condition 'always' (the list's last "
                             f"clause decides every other case), got {clauses[-1]!r}")
        object.__setattr__(self, "clauses", clauses)

    def __len__(self) -> int:
        return len(self.clauses)

    def text(self, rules: Rules) -> str:
        """The list as numbered lines."""
        lines = []
        for i, clause in enumerate(self.clauses, start=1):
            words = clause.text(rules)
            if i == len(self.clauses) and i > 1:
                words = "otherwise: " + words
            lines.append(f"{i}. {words}")
        return "\n".join(lines)

    def policy(self, rules: Rules) -> TurnPolicy:
        """The list as a tabulated :class:`panache.TurnPolicy` (checked)."""
        return TurnPolicy(rules.n_dice, _kept(_entry_tables(rules), self.clauses),
                          name="rule of thumb")  # fmt: skip


# --- the entry tables: each condition and action over every (set aside, roll) entry ---


@memoize(maxsize=16)
def _entry_tables(rules: Rules) -> dict:
    n = rules.n_dice
    space = dice_space(n)
    _, entry_a, entry_r = policy_layout(n)
    fv = rules.values
    value = space.counts @ fv
    counts = space.counts[entry_r]
    s = value[entry_a]
    m = space.sizes[entry_r]
    makes = s + value[entry_r]
    single = np.array([space.index([f]) for f in range(1, N_FACES + 1)])
    present = counts > 0
    # the best die: highest value, then highest face
    rank = np.where(present, fv * (2 * N_FACES) + np.arange(N_FACES), np.iinfo(np.int64).min)
    best = single[np.argmax(rank, axis=1)]
    # the die closest to a total of 0: least |s + v|, then the higher value and face
    gap = np.where(present, np.abs(s[:, None] + fv[None, :]), np.iinfo(np.int64).max)
    nearest = present & (gap == gap.min(axis=1, keepdims=True))
    closest = single[np.argmax(np.where(nearest, rank, np.iinfo(np.int64).min), axis=1)]

    base = {"space": space, "entry_r": entry_r, "fv": fv, "counts": counts, "best": best,
            "closest": closest, "m": m, "s": s, "makes": makes,
            "started": space.sizes[entry_a] > 0}  # fmt: skip
    # the searched clauses: simpler actions and smaller arguments first
    actions = {}
    for key in [("stop", None), ("closest", None), ("zeros", None)]:
        actions[key] = _action(base, *key)
    levels = [int(v) for v in np.unique(fv)]
    for v in levels:
        actions["at_least", v] = _action(base, "at_least", v)
    for t in itertools.combinations_with_replacement(levels, 3):
        actions["ladder", t] = _action(base, "ladder", t)
    conditions = {("always", None): _condition(base, "always", None)}
    for k in range(2, n + 1):
        conditions["rolled", k] = _condition(base, "rolled", k)
        if k < n:
            conditions["rolled_at_most", k] = _condition(base, "rolled_at_most", k)
    low, high = int(n * fv.min()), int(n * fv.max())
    for c in range(max(low, -3), min(high, 3) + 1):
        conditions["makes", c] = _condition(base, "makes", c)
        conditions["makes_at_least", c] = _condition(base, "makes_at_least", c)
    for c in range(-4, 4):
        conditions["total_at_least", c] = _condition(base, "total_at_least", c)
        conditions["total_at_most", c] = _condition(base, "total_at_most", c)
    for array in (*actions.values(), *conditions.values()):
        array.setflags(write=False)  # cached: shared by every search on these rules
    final = space.of_size(n)
    totals = np.unique(value[final])
    return {
        **base, "actions": actions, "conditions": conditions,
        "table_offset": policy_layout(n)[0], "final": final,
        "final_total": np.searchsorted(totals, value[final]), "n_totals": totals.size,
    }  # fmt: skip


def _action(t: dict, action: str, value) -> np.ndarray:
    """What ``action`` keeps in every entry, as multiset indices."""
    space, counts, fv = t["space"], t["counts"], t["fv"]

    def keep_where(mask_faces, fallback):
        kept = counts * mask_faces[None, :].astype(np.int64)
        index = space.index_of_code[kept @ space.powers]
        return np.where(kept.sum(axis=1) > 0, index, fallback)

    if action == "stop":
        return t["entry_r"].astype(np.int64)
    if action == "closest":
        return t["closest"]
    if action == "zeros":
        return keep_where(fv == 0, t["closest"])
    if action == "at_least":
        return keep_where(fv >= value, t["best"])
    return _ladder(space, t["entry_r"], fv, value)


def _condition(t: dict, condition: str, arg) -> np.ndarray:
    """Where ``condition`` holds, over every entry."""
    if condition == "always":
        return np.ones(t["m"].size, dtype=bool)
    if condition == "rolled":
        return t["m"] == arg
    if condition == "rolled_at_most":
        return t["m"] <= arg
    if condition == "makes":
        return t["makes"] == arg
    if condition == "makes_at_least":
        return t["makes"] >= arg
    if condition == "total_at_least":
        return t["started"] & (t["s"] >= arg)
    return t["started"] & (t["s"] <= arg)


def _ladder(space, entry_r, fv, thresholds) -> np.ndarray:
    """The ``ladder`` action's kept multiset for every entry (see the module docstring)."""
    order = np.lexsort((np.arange(N_FACES), fv))[::-1]  # faces, best first
    out = {}
    for r in np.unique(entry_r):
        dice = [f for f in order for _ in range(space.counts[r, f])]  # 0-based faces
        kept = [dice[0]]
        for i in range(1, len(dice)):
            left = len(dice) - i  # dice left to roll if this one is not kept
            if fv[dice[i]] < thresholds[min(left, 3) - 1]:
                break
            kept.append(dice[i])
        out[r] = space.index([f + 1 for f in kept])
    return np.array([out[r] for r in entry_r], dtype=np.int64)


def _kept(tables: dict, clauses) -> np.ndarray:
    """The decision list's kept multiset in every entry (clauses outside the searched
    families are computed on the spot)."""

    def action(c):
        found = tables["actions"].get((c.action, c.value))
        return _action(tables, c.action, c.value) if found is None else found

    def condition(c):
        found = tables["conditions"].get((c.condition, c.arg))
        return _condition(tables, c.condition, c.arg) if found is None else found

    kept = action(clauses[-1]).copy()
    for clause in reversed(clauses[:-1]):
        kept = np.where(condition(clause), action(clause), kept)
    return kept


def _value(rules: Rules, tables: dict, kept: np.ndarray, u: np.ndarray) -> float:
    space = tables["space"]
    reach, _, _ = evaluate_policy_kernel(
        rules.n_dice, space.sizes, space.size_offset, space.probability, space.codes,
        space.index_of_code, tables["table_offset"], kept,
    )  # fmt: skip
    dist = np.bincount(tables["final_total"], weights=reach[tables["final"]],
                       minlength=tables["n_totals"])  # fmt: skip
    return float(dist @ u)


def _clauses(tables: dict) -> tuple[list[Clause], list[Clause]]:
    """Every (condition, action) clause, and the ``always`` ones (possible defaults)."""
    actions = [Clause("always", a, None, v) for a, v in tables["actions"]]
    guarded = [
        Clause(c, a, arg, v)
        for c, arg in tables["conditions"]
        if c != "always"
        for a, v in tables["actions"]
        if a != "ladder"
    ]
    return guarded, actions


# --- the search ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RuleSearch:
    """The best decision lists of each length for one utility.

    Attributes
    ----------
    utility : str
    optimum : float
        The optimal expected utility (:func:`panache.solve_turn`; finite).
    best : tuple of DecisionList
        The best list found of each length, shortest first; a length whose best list
        is no better (to 1e-12) than a shorter one is left out.
    table : pandas.DataFrame
        One row per list of ``best``, indexed by ``clauses`` (its length): ``value``,
        ``cost`` (optimum minus value), ``rule`` (the list in words, clauses
        separated by " / ").
    evaluated : int
        Lists evaluated exactly.

    Examples
    --------
    >>> found = search_rules(Rules(n_dice=2), "ev", max_clauses=1)
    >>> found.table.index.name, len(found.best), found.shortest_within(0.1) is found.best[0]
    ('clauses', 1, True)
    """

    __eq__ = same_fields

    utility: str
    optimum: float
    best: tuple
    table: pd.DataFrame
    evaluated: int

    def __post_init__(self):
        check_fields(self, optimum=(None, None), evaluated=(0, None))

    def shortest_within(self, margin: float) -> DecisionList:
        """The shortest list whose cost is at most ``margin`` (else the best found)."""
        from tabletop.validate import check_float

        margin = check_float("margin", margin, 0.0)
        for rule, cost in zip(self.best, self.table["cost"], strict=True):
            if cost <= margin:
                return rule
        return self.best[-1]


def search_rules(rules: Rules | None = None, utility: str = "ev", max_clauses: int = 3,
                 beam: int = 40, *, progress: bool | None = None) -> RuleSearch:  # fmt: skip
    """The best decision lists of 1..``max_clauses`` clauses for ``utility``.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``.
    utility : str
        A utility name of :func:`panache.utility_vector` (``"ev"``, ``"zero"``...).
    max_clauses : int
        1..5.
    beam : int
        Lists of each length >= 2 extended to the next length (>= 1).
    progress : bool, optional
        Show a bar counting the lists scored (default: when stderr is a terminal).
        Each list is scored by a short kernel call from Python, so Ctrl-C stops the
        search between two; the lists kept stay few (at most ``beam`` extended per
        length), so the memory is small.

    Notes
    -----
    The clauses searched: every action with the thresholds taken from the face
    values (ladders ``t1 <= t2 <= t3`` as the last clause only), under the conditions
    ``rolled`` (2..n dice), ``rolled_at_most`` (2..n-1), ``makes`` and
    ``makes_at_least`` (totals -3..3, within reach) and ``total_at_least`` /
    ``total_at_most`` (-4..3). A :class:`DecisionList` may use any other argument.

    Returns
    -------
    RuleSearch

    Examples
    --------
    >>> found = search_rules(Rules(n_dice=2), "ev", max_clauses=1)
    >>> print(found.best[0].text(Rules(n_dice=2)))
    1. keep every die worth -1 or more (faces 4, 5, 6), at least the best one
    >>> bool(abs(found.table.loc[1, "cost"]) < 1e-12)    # exact with two dice
    True
    """
    rules = Rules.check(rules)
    if not isinstance(utility, str):
        raise TypeError(f"utility must be a utility name, got {type(utility).__name__}")
    u = utility_vector(rules, utility)
    max_clauses = check_int("max_clauses", max_clauses, 1, 5)
    beam = check_int("beam", beam, 1)
    from tabletop.budget import progress_bar, show_progress

    show_progress(progress)
    with progress_bar(None, f"panache rule search ({utility})", progress, "list") as bar:
        return _search(rules, utility, u, max_clauses, beam, bar)


def _search(rules, utility, u, max_clauses, beam, bar=None) -> RuleSearch:
    import pandas as pd

    tables = _entry_tables(rules)
    optimum = solve_turn(rules, u).value
    guarded, defaults = _clauses(tables)
    count = 0

    def score(clauses):
        nonlocal count
        count += 1
        if bar is not None:
            bar.update(1)
        return _value(rules, tables, _kept(tables, clauses), u)

    # ties: the first found in the fixed enumeration order, which lists simpler
    # actions and smaller arguments first
    level = sorted(((score((d,)), i, (d,)) for i, d in enumerate(defaults)),
                   key=lambda x: (-x[0], x[1]))  # fmt: skip
    results = [level[0]]
    if max_clauses >= 2:
        two = []
        for d in defaults:
            for g in guarded:
                if g.action == d.action and g.value == d.value:
                    continue  # the guard changes nothing
                two.append((score((g, d)), len(two), (g, d)))
        two.sort(key=lambda x: (-x[0], x[1]))
        level = two
        if two[0][0] > results[-1][0] + TIE_TOLERANCE:
            results.append(two[0])
    for _ in range(3, max_clauses + 1):
        seen = set()
        longer = []
        for _, _, lst in level[:beam]:
            for extra in guarded:
                if extra in lst:
                    continue
                for pos in range(len(lst)):
                    new = (*lst[:pos], extra, *lst[pos:])
                    if new not in seen:
                        seen.add(new)
                        longer.append((score(new), len(longer), new))
        longer.sort(key=lambda x: (-x[0], x[1]))
        level = longer
        if longer[0][0] > results[-1][0] + TIE_TOLERANCE:  # a clause that adds nothing: no row
            results.append(longer[0])
    best = tuple(DecisionList(c) for _, _, c in results)
    table = pd.DataFrame(
        {
            "value": [v for v, _, _ in results],
            "cost": [optimum - v for v, _, _ in results],
            "rule": [" / ".join(c.text(rules) for c in r.clauses) for r in best],
        },
        index=pd.Index([len(c) for _, _, c in results], name="clauses"),
    )
    return RuleSearch(utility, optimum, best, table, count)


def rule_of_thumb(rules: Rules | None = None, utility: str = "ev", margin: float = 0.05
                  ) -> DecisionList:  # fmt: skip
    """The shortest decision list (of at most 3 clauses) within ``margin`` of the optimum.

    ``margin`` is in the utility's unit: points of expected total for ``"ev"``, a
    probability for the others. If no list is within it, the best list found.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``.
    utility : str
        A utility name of :func:`panache.utility_vector` (``"ev"``, ``"zero"``...).
    margin : float
        The largest cost accepted, >= 0 (default 0.05).

    Returns
    -------
    DecisionList
        The shortest list of :func:`search_rules` (``max_clauses=3``, default beam)
        whose cost is at most ``margin``.

    Examples
    --------
    >>> print(rule_of_thumb(Rules(), "zero", margin=0.02).text(Rules()))
    1. if keeping them all makes a total of exactly 0: stop (keep them all)
    2. otherwise: keep every die worth +1 or more (faces 6), at least the best one
    """
    from tabletop.validate import check_float

    check_float("margin", margin, 0.0)  # before the search, not after it
    return search_rules(rules, utility).shortest_within(margin)
