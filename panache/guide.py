"""A player's guide: the rules of thumb priced exactly, and how the duel changes the keep.

:func:`player_sheet` searches short decision lists (:func:`panache.search_rules`) for
the two goals a player rolls for, the best expected total (``"ev"``, every turn) and
a total of exactly 0 (``"zero"``, the Master Panache attempt), picks the shortest
within a stated margin of the optimum, and prices each list twice: per turn (exact
policy evaluation) and in the game (:func:`panache.committed_duel`: one player bound
to the list, the other optimal). :meth:`PlayerSheet.markdown` is the one-page sheet.

:func:`duel_keeps` and :func:`duel_spread` show how the solved duel
(:func:`panache.solve_duel`) plays its turn roll as the points change: which dice it
keeps in given situations, and the mean and spread of the total it ends on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from panache._kernels import TIE_TOLERANCE, evaluate_policy_kernel
from panache.committed import committed_duel
from panache.dice import dice_space
from panache.duel import max_points, solve_duel
from panache.policy import policy_layout
from panache.rules import N_FACES, Rules, check_faces
from panache.thumb import DecisionList, RuleSearch, search_rules
from panache.turn import evaluate_policy, solve_turn
from tabletop.frozen import same_fields
from tabletop.validate import check_fields, check_int

if TYPE_CHECKING:
    import pandas as pd


GOALS = {"ev": "every turn roll", "zero": "a Master Panache attempt"}
#: Situations (kept so far, just rolled) the sheet works through, for five dice; with
#: other dice counts, the first rolls made of the first faces of these.
TURN_EXAMPLES = (((), (6, 5, 5, 3, 1)), ((), (6, 6, 4, 2, 1)), ((), (5, 5, 4, 4, 2)),
                 ((6,), (5, 5, 4, 3)), ((6, 6), (5, 4, 1)), ((6, 5, 5), (4, 3)))  # fmt: skip
MP_EXAMPLES = (((), (6, 5, 4, 2, 1)), ((6,), (6, 5, 3, 2)), ((6, 6), (6, 5, 2)),
               ((6, 6, 5), (4, 3)))  # fmt: skip


@dataclass(frozen=True, eq=False)
class PlayerSheet:
    """The rules of thumb of the sheet and what they cost.

    Attributes
    ----------
    rules : Rules
    turn_rule, mp_rule : DecisionList
        The shortest lists within ``turn_margin`` (expected total) and ``mp_margin``
        (chance of a total of 0) of the optimum.
    turn_margin, mp_margin : float
        Finite, >= 0.
    searches : dict
        ``{"ev": RuleSearch, "zero": RuleSearch}``.
    lists : pandas.DataFrame
        The best list of each length for each goal, indexed by (``goal``,
        ``clauses``): ``value``, ``optimum``, ``cost`` (per turn, in the goal's unit),
        ``duel_cost`` (winning chance given up against an optimal opponent, the list
        used for every turn roll for ``"ev"``, for every Master Panache attempt for
        ``"zero"``), ``picked`` and ``rule``.
    duel : pandas.DataFrame
        Winning chances in the committed duel, one row per way of playing: ``first``,
        ``second`` (C's chance in each seat), ``mean`` and ``cost``.

    Examples
    --------
    >>> sheet = player_sheet(Rules(n_dice=3, start_points=6), max_clauses=2, beam=5)
    >>> print(sheet.mp_rule.text(sheet.rules))
    1. if keeping them all makes a total of exactly 0: stop (keep them all)
    2. otherwise: keep the one die that brings your total closest to 0
    >>> sheet.lists.index.names, sheet.duel.columns.tolist()
    (FrozenList(['goal', 'clauses']), ['first', 'second', 'mean', 'cost'])
    """

    __eq__ = same_fields

    rules: Rules
    turn_rule: DecisionList
    mp_rule: DecisionList
    turn_margin: float
    mp_margin: float
    searches: dict
    lists: pd.DataFrame
    duel: pd.DataFrame

    def __post_init__(self):
        check_fields(self, turn_margin=(0.0, None), mp_margin=(0.0, None))

    def examples(self, goal: str) -> pd.DataFrame:
        """Worked situations for ``goal`` ("ev" or "zero"): what the rule keeps and what
        perfect play keeps, indexed by ``situation``."""
        import pandas as pd

        rules = self.rules
        rule = {"ev": self.turn_rule, "zero": self.mp_rule}[goal].policy(rules)
        best = solve_turn(rules, goal).policy
        chosen = {"ev": TURN_EXAMPLES, "zero": MP_EXAMPLES}[goal]
        situations = [(k, r) for k, r in chosen if len(k) + len(r) == rules.n_dice]
        if not situations:
            situations = [((), r[: rules.n_dice]) for _, r in chosen if len(r) >= rules.n_dice]
            situations = list(dict.fromkeys(situations))
        rows = {}
        for kept, rolled in situations:
            label = f"rolled {_label(rolled)}" if not kept else (
                f"kept {_label(kept)}, rolled {_label(rolled)}"
            )
            rows[label] = {"rule": _label(rule.choose(kept, rolled)),
                           "best": _label(best.choose(kept, rolled))}  # fmt: skip
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("situation")

    def departure(self, goal: str) -> dict | None:
        """The situation where the rule for ``goal`` departs from perfect play most often.

        A departure is a choice worth less (by more than 1e-12, with perfect play
        afterwards) than the best one. Returns ``kept``, ``rolled``, the ``rule``'s and
        the ``best`` keep, ``p_meet`` (the chance a turn, or for ``"zero"`` a Master
        Panache attempt, played by the rule meets it)
        and ``loss``; None if the rule never departs.
        """
        rules = self.rules
        n = rules.n_dice
        rule = {"ev": self.turn_rule, "zero": self.mp_rule}[goal].policy(rules)
        solution = solve_turn(rules, goal)
        best = solution.policy
        space = dice_space(n)
        table_offset, entry_a, entry_r = policy_layout(n)
        reach, _, _ = evaluate_policy_kernel(
            n, space.sizes, space.size_offset, space.probability, space.codes,
            space.index_of_code, table_offset, rule.kept,
        )  # fmt: skip
        # what the rule's choice loses against the best one, perfect play afterwards
        value = space.counts @ rules.values
        table = solution.values.to_numpy()
        sums = solution.values.columns.to_numpy()

        def after(kept):
            left = n - space.sizes[entry_a] - space.sizes[kept]
            return table[left, np.searchsorted(sums, value[entry_a] + value[kept])]

        loss = after(best.kept) - after(rule.kept)
        meet = np.where(loss > TIE_TOLERANCE, reach[entry_a] * space.probability[entry_r], 0.0)
        e = int(np.argmax(meet))
        if meet[e] <= 0:
            return None
        kept, rolled = space.faces(entry_a[e]), space.faces(entry_r[e])
        return {"kept": kept, "rolled": rolled, "rule": _label(space.faces(rule.kept[e])),
                "best": _label(space.faces(best.kept[e])), "p_meet": float(meet[e]),
                "loss": float(loss[e])}  # fmt: skip

    def _example_lines(self, goal: str) -> list[str]:
        out = []
        for situation, row in self.examples(goal).iterrows():
            note = "as perfect play" if row["rule"] == row["best"] else f"perfect: {row['best']}"
            out.append(f"{situation}: keep {row['rule']} ({note})")
        lines = ["For example: " + "; ".join(out) + "."] if out else []
        d = self.departure(goal)
        if d is not None:
            where = (f"kept {_label(d['kept'])}, rolled {_label(d['rolled'])}" if d["kept"]
                     else f"rolled {_label(d['rolled'])}")  # fmt: skip
            unit = "turns" if goal == "ev" else "attempts"
            lines.append(
                f"Its most common departure from perfect play ({d['p_meet']:.1%} of {unit}): "
                f"{where}, the rule keeps {d['rule']}, perfect play {d['best']}."
            )
        return lines

    def sections(self) -> list[tuple[str, list[str]]]:
        """The sheet as (heading, paragraphs) pairs; clauses are numbered ("1. ...", see
        :func:`is_rule_line`)."""
        rules = self.rules
        worth = ", ".join(f"{f} is {rules.face_values[f - 1]:+d}" for f in range(1, N_FACES + 1))
        ev = self.lists.loc[("ev", len(self.turn_rule))]
        zero = self.lists.loc[("zero", len(self.mp_rule))]
        both = self.duel.loc["both rules"]
        example = " ".join(map(str, (6, 5, 5, 3, 1, 2, 4, 6)[: rules.n_dice]))
        options = "" if rules == Rules() else " (add the options of your rules)"
        top = max_points(rules)
        mine, theirs = (20, 12) if top >= 20 else (max(1, top // 2), max(1, top // 3))
        return [
            ("The dice", [
                f"{rules.n_dice} dice per roll. Each face is worth: {worth}. Your total is "
                "the sum of the dice you set aside; set aside at least one die from every "
                "roll, re-roll the others or stop.",
            ]),
            ("Every turn roll: aim for the highest total", [
                *self.turn_rule.text(rules).splitlines(),
                f"Expected total {ev['value']:+.3f} per turn, against {ev['optimum']:+.3f} "
                f"for perfect play: {ev['cost']:.3f} points per turn given up "
                f"(the margin allowed was {self.turn_margin:g} points).",
                *self._example_lines("ev"),
            ]),
            ("A Master Panache attempt: aim for a total of exactly 0", [
                *self.mp_rule.text(rules).splitlines(),
                f"Success {zero['value']:.2%}, against {zero['optimum']:.2%} for perfect "
                f"play: {100 * zero['cost']:.2f} percentage points given up (the margin "
                f"allowed was {100 * self.mp_margin:g} percentage points).",
                *self._example_lines("zero"),
            ]),
            ("In a two-player game", [
                f"Playing both rules, with every other decision (attacks, counters, stakes; not "
                f"on this sheet) made perfectly, against a perfect opponent "
                f"wins {both['mean']:.2%} of games (first seat {both['first']:.2%}, second "
                f"seat {both['second']:.2%}); perfect play wins 50% over the two seats: "
                f"{100 * both['cost']:.2f} percentage points given up.",
            ]),
            ("Unsure about one roll?", [
                f"python -m panache advise {example} lists every choice with its exact "
                f"value{options}; add --points {mine} --against {theirs} to rank the choices by "
                "your chance of winning the game.",
            ]),
        ]  # fmt: skip

    def markdown(self) -> str:
        """The one-page sheet, as Markdown."""
        out = []
        for heading, paragraphs in self.sections():
            out.append(f"**{heading}**")
            rule_lines = [p for p in paragraphs if is_rule_line(p)]
            other = [p for p in paragraphs if not is_rule_line(p)]
            if rule_lines:
                out.append("\n".join(rule_lines))
            out.extend(re.sub(r"(python -m panache advise [\d ]+\d|--points \d+ --against \d+)",
                              r"`\1`", p) for p in other)  # fmt: skip
        return "\n\n".join(out)


def is_rule_line(paragraph: str) -> bool:
    """Whether a paragraph of :meth:`PlayerSheet.sections` is a numbered clause."""
    return re.match(r"\d+\. ", paragraph) is not None


def player_sheet(rules: Rules | None = None, turn_margin: float = 0.05, mp_margin: float = 0.02,
                 max_clauses: int = 4, beam: int = 30, *, allow_large: bool = False,
                 progress: bool | None = None) -> PlayerSheet:  # fmt: skip
    """Find, price and present the rules of thumb (see the module docstring).

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``.
    turn_margin : float
        Largest cost in expected total per turn for the turn rule (>= 0).
    mp_margin : float
        Largest cost in the chance of a total of 0 for the Master Panache rule (>= 0).
    max_clauses, beam : int
        Passed to :func:`panache.search_rules`.
    allow_large : bool
        Go ahead even when the committed duel's tables
        (:func:`panache.committed.committed_size`) exceed the memory available
        (default False: a one-line ``MemoryError`` before any work).
    progress : bool, optional
        Bars of the searches and of each committed duel (default: when stderr is a
        terminal); every part returns to Python often, so Ctrl-C stops the sheet.

    Returns
    -------
    PlayerSheet

    Examples
    --------
    >>> sheet = player_sheet(Rules(n_dice=3, start_points=6), max_clauses=2, beam=5)
    >>> len(sheet.mp_rule), bool(sheet.lists.loc[("zero", 2), "cost"] <= 0.02)
    (2, True)
    """
    import pandas as pd

    from panache.committed import committed_size
    from tabletop.budget import check_memory, show_progress
    from tabletop.validate import check_bool, check_float

    rules = Rules.check(rules)
    margins = {}
    for name, value in (("turn_margin", turn_margin), ("mp_margin", mp_margin)):
        margins[name] = check_float(name, value, 0.0)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(committed_size(rules), allow_large)
    searches: dict[str, RuleSearch] = {
        goal: search_rules(rules, goal, max_clauses=max_clauses, beam=beam, progress=progress)
        for goal in GOALS
    }
    turn_rule = searches["ev"].shortest_within(margins["turn_margin"])
    mp_rule = searches["zero"].shortest_within(margins["mp_margin"])
    rows = []
    for goal, found in searches.items():
        for rule, (clauses, row) in zip(found.best, found.table.iterrows(), strict=True):
            kwargs = {"turn_policy": rule} if goal == "ev" else {"mp_policy": rule}
            res = committed_duel(rules, **kwargs, allow_large=True, progress=progress)
            picked = rule is (turn_rule if goal == "ev" else mp_rule)
            rows.append((goal, clauses, row["value"], found.optimum, row["cost"], res.cost,
                         picked, row["rule"]))  # fmt: skip
    lists = pd.DataFrame(
        rows, columns=["goal", "clauses", "value", "optimum", "cost", "duel_cost", "picked", "rule"]
    ).set_index(["goal", "clauses"])
    ways = {
        "both rules": (turn_rule, mp_rule),
        "turn rule, best attempts": (turn_rule, None),
        "best turns, attempt rule": (None, mp_rule),
        "best expected total every turn": (solve_turn(rules, "ev").policy, None),
    }
    duel_rows = {}
    for label, (turn, attempt) in ways.items():
        res = committed_duel(rules, turn, attempt, allow_large=True, progress=progress)
        duel_rows[label] = {"first": res.first_player_win, "second": res.second_player_win,
                            "mean": res.mean_win, "cost": res.cost}  # fmt: skip
    duel = pd.DataFrame.from_dict(duel_rows, orient="index").rename_axis("player C plays")
    return PlayerSheet(rules, turn_rule, mp_rule, margins["turn_margin"], margins["mp_margin"],
                       searches, lists, duel)  # fmt: skip


# --- the duel's keeps across the points ---------------------------------------------------


def _label(faces) -> str:
    return " ".join(map(str, faces)) or "-"


def _situation_entries(situations, n: int, space, table_offset) -> list[int]:
    """The policy entries of ``situations`` (``(set_aside, rolled)`` pairs of ``n``
    dice), each checked: a ``TypeError`` or ``ValueError`` naming the bad item."""
    if isinstance(situations, str | bytes) or not hasattr(situations, "__iter__"):
        raise TypeError(f"situations must be a sequence of (set_aside, rolled) pairs, "
                        f"got {situations!r:.80}")  # fmt: skip
    entries = []
    for i, item in enumerate(situations):
        if isinstance(item, str | bytes) or not hasattr(item, "__len__") or len(item) != 2:
            raise ValueError(f"situations[{i}] must be a (set_aside, rolled) pair of dice "
                             f"lists, got {item!r:.80}")  # fmt: skip
        set_aside, rolled = item
        set_aside = check_faces(f"situations[{i}] set_aside", set_aside)
        rolled = check_faces(f"situations[{i}] rolled", rolled)
        if not rolled or len(set_aside) + len(rolled) != n:
            raise ValueError(
                f"each situation must hold n_dice={n} dice, at least one rolled; "
                f"got set_aside={set_aside}, rolled={rolled}"
            )
        a, r = space.index(set_aside), space.index(rolled)
        entries.append(int(table_offset[a] + r - space.size_offset[len(rolled)]))
    return entries


def duel_keeps(rules: Rules | None = None, opponent_points: int = 20, situations=None,
               count: int = 8) -> pd.DataFrame:  # fmt: skip
    """The solved duel's keep in given situations, for every number of own points.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``.
    opponent_points : int
        The opponent's points (1..max points); the mover's points run over 1..max.
    situations : sequence of (set_aside, rolled), optional
        Faces already set aside and faces just rolled (``n_dice`` together). Default:
        the ``count`` situations where the duel's keep changes with the points that a
        best-expected-total player meets most often (probability of reaching the
        set-aside dice times that of the roll), at most two per set-aside hand.
    count : int
        Situations chosen when ``situations`` is None.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``situation`` ("set aside | rolled"), one column per own points
        (``my_points``), each cell the faces kept; plus the columns ``ev_keep`` (the
        best expected total's keep) and ``p_meet`` (the probability a
        best-expected-total turn meets the situation).

    Examples
    --------
    >>> rules = Rules(n_dice=3, start_points=6)
    >>> keeps = duel_keeps(rules, 4, situations=[((6,), (6, 5))])
    >>> keeps.loc["6 | 6 5", 9], keeps.loc["6 | 6 5", "ev_keep"]
    ('6 5', '6 5')
    """
    import pandas as pd

    rules = Rules.check(rules)
    top = max_points(rules)
    b = check_int("opponent_points", opponent_points, 1, top)
    count = check_int("count", count, 1)
    n = rules.n_dice
    space = dice_space(n)
    table_offset, entry_a, entry_r = policy_layout(n)
    # the situations asked are checked before the duel is solved
    chosen = None if situations is None else _situation_entries(situations, n, space, table_offset)
    sol = solve_duel(rules)
    kept = np.array([sol.turn_policy(a, b).kept for a in range(1, top + 1)])
    ev = solve_turn(rules, "ev").policy.kept
    reach, _, _ = evaluate_policy_kernel(
        n, space.sizes, space.size_offset, space.probability, space.codes, space.index_of_code,
        table_offset, ev,
    )  # fmt: skip
    meet = reach[entry_a] * space.probability[entry_r]
    if chosen is None:
        varies = (kept != kept[:1]).any(axis=0)
        chosen, per_hand = [], {}
        for e in np.argsort(-np.where(varies, meet, -1.0), kind="stable"):
            if not varies[e] or len(chosen) == count:
                break
            if per_hand.get(entry_a[e], 0) < 2:
                per_hand[entry_a[e]] = per_hand.get(entry_a[e], 0) + 1
                chosen.append(int(e))
    names = [f"{_label(space.faces(entry_a[e]))} | {_label(space.faces(entry_r[e]))}"
             for e in chosen]  # fmt: skip
    frame = pd.DataFrame(
        [[_label(space.faces(k)) for k in kept[:, e]] for e in chosen],
        index=pd.Index(names, name="situation"),
        columns=pd.Index(np.arange(1, top + 1), name="my_points"),
    )
    frame["ev_keep"] = [_label(space.faces(ev[e])) for e in chosen]
    frame["p_meet"] = meet[chosen]
    return frame


def duel_spread(rules: Rules | None = None, opponent_points: int = 20) -> pd.DataFrame:
    """The total of the solved duel's turn roll, for every number of own points.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``.
    opponent_points : int
        The opponent's points, 1 up to the rules' most points.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``my_points`` (1 up to the rules' most points): ``mean`` and ``sd``
        of the turn's total under the solved duel's policy at (my points,
        ``opponent_points``), ``p_negative``, ``p_zero``, ``p_positive`` (chances of
        the total's sign) and ``win`` (the mover's winning chance).

    Examples
    --------
    >>> spread = duel_spread(Rules(n_dice=3, start_points=6), 4)
    >>> bool(abs(spread["p_negative"] + spread["p_zero"] + spread["p_positive"] - 1).max()
    ...      < 1e-12)
    True
    """
    import pandas as pd

    rules = Rules.check(rules)
    top = max_points(rules)
    b = check_int("opponent_points", opponent_points, 1, top)
    sol = solve_duel(rules)
    rows = []
    for a in range(1, top + 1):
        dist = evaluate_policy(rules, sol.turn_policy(a, b)).distribution
        t = dist.index.to_numpy()
        p = dist.to_numpy()
        mean = float(p @ t)
        rows.append({
            "mean": mean,
            "sd": float(np.sqrt(max(p @ (t - mean) ** 2, 0.0))),
            "p_negative": float(p[t < 0].sum()),
            "p_zero": float(p[t == 0].sum()),
            "p_positive": float(p[t > 0].sum()),
            "win": float(sol.win.loc[a, b]),
        })  # fmt: skip
    return pd.DataFrame(rows, index=pd.RangeIndex(1, top + 1, name="my_points"))
