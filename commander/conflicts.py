"""Exact conflicts (docs/rules.md, Conflicts): battles, exploration, referendum, rally.

* **Tactical battle** (raid): attacker strength = conquest of the engaged untapped
  attackers + bonuses; defender strength = conquest of the engaged defenders + the
  territory's value + bonuses. Higher wins, **ties go to the defender**. A winning
  defender may capture one engaged attacker whose command <= the difference.
* **Economic battle**: the same with diplomacy and the agreement's value; a winning
  defender makes the attacker pay ``min(difference, bankruptcy_cap)`` doublons.
* **Exploration** succeeds when the tapped characters' conquest *exceeds*
  ``explore_threshold``.
* **Referendum**: votes by rank, +``launcher_bonus`` for the launching character,
  passes on strictly more for than against.
* **Rally**: secret bids; the higher wins and pays; a tie leaves the character with
  its controller.

:func:`battle_odds` gives the exact law of a battle when each side's engaged
characters are a uniform draw without replacement from a pool (e.g. the crew pile of
a deck): the number of k-subsets of the pool with each (strength, smallest command)
is counted by a knapsack recursion over the cards, so the cost is polynomial in the
pool size rather than ``C(n, k)``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from commander.rules import Rules
from tabletop.frozen import same_fields
from tabletop.validate import (
    PROBABILITY,
    PROBABILITY_TOLERANCE,
    check_bool,
    check_fields,
    check_int,
    check_probabilities,
)

if TYPE_CHECKING:
    import pandas as pd


KINDS = ("tactical", "economic")


def _ints(name: str, values) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of ints, got {values!r}")
    return tuple(check_int(f"{name}[{i}]", v, 0, 10**6) for i, v in enumerate(values))


@dataclass(frozen=True)
class BattleResult:
    """Outcome of one battle.

    Attributes
    ----------
    attacker, defender : int
        Total strengths.
    winner : {"attacker", "defender"}
    difference : int
        Winner's strength minus loser's (>= 0; 0 only on a tie, won by the defender).
    capturable : tuple of int
        Indices of engaged attackers the defender may capture (tactical only).
    bankruptcy : int
        Doublons the attacker pays the bank (economic only).

    Examples
    --------
    >>> r = battle("tactical", [4], [1], 1)
    >>> r.winner, r.difference, r.attacker - r.defender
    ('attacker', 2, 2)
    """

    attacker: int
    defender: int
    winner: str
    difference: int
    capturable: tuple[int, ...]
    bankruptcy: int

    def __post_init__(self):
        check_fields(self, winner=("attacker", "defender"), difference=(0, None),
                     bankruptcy=(0, None))


def battle(
    kind: str,
    attackers: Sequence[int],
    defenders: Sequence[int],
    target_value: int,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
    attacker_commands: Sequence[int] | None = None,
    rules: Rules | None = None,
) -> BattleResult:
    """Resolve a tactical or economic battle exactly.

    Parameters
    ----------
    kind : {"tactical", "economic"}
    attackers, defenders : sequence of int
        Conquest (tactical) or diplomacy (economic) of each engaged untapped character;
        at least one attacker (an undefended target may have no defender).
    target_value : int
        The territory's (tactical) or agreement's (economic) value, for the defender.
    attacker_bonus, defender_bonus : int
        Attachment and manoeuvre bonuses.
    attacker_commands : sequence of int, optional
        Command of each engaged attacker (tactical: who may be captured).
    rules : Rules, optional
        Default ``Rules()``.

    Returns
    -------
    BattleResult

    Examples
    --------
    >>> battle("tactical", [3, 2], [2], 3).winner    # 5 against 2 + 3: a tie
    'defender'
    >>> battle("economic", [1], [2, 2], 2).bankruptcy  # 6 - 1 = 5, capped at 4
    4
    >>> battle("tactical", [1, 1], [3], 2, attacker_commands=[4, 1]).capturable
    (1,)
    """
    rules = Rules.check(rules)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    engaged = _ints("attackers", attackers)
    if not engaged:
        raise ValueError("attackers must hold at least one engaged character (a battle "
                         f"without attackers is no battle), got {attackers!r}")
    att = sum(engaged) + check_int("attacker_bonus", attacker_bonus, 0)
    dfd = (sum(_ints("defenders", defenders)) + check_int("target_value", target_value, 0)
           + check_int("defender_bonus", defender_bonus, 0))
    commands = () if attacker_commands is None else _ints("attacker_commands", attacker_commands)
    if commands and len(commands) != len(attackers):
        raise ValueError(f"attacker_commands must hold one command per attacker "
                         f"({len(attackers)}), got {len(commands)}")
    if att > dfd:
        return BattleResult(att, dfd, "attacker", att - dfd, (), 0)
    diff = dfd - att
    capturable = tuple(i for i, c in enumerate(commands) if c <= diff) if kind == "tactical" else ()
    bankrupt = min(diff, rules.bankruptcy_cap) if kind == "economic" else 0
    return BattleResult(att, dfd, "defender", diff, capturable, bankrupt)


def explores(conquests: Sequence[int], rules: Rules | None = None) -> bool:
    """Whether tapping characters of these conquests explores (total > threshold).

    Parameters
    ----------
    conquests : sequence of int
        Conquest of each tapped character.
    rules : Rules, optional
        Default ``Rules()``; its ``explore_threshold`` is the threshold.

    Returns
    -------
    bool

    Examples
    --------
    >>> explores([3, 2]), explores([3, 3])
    (False, True)
    """
    rules = Rules.check(rules)
    return sum(_ints("conquests", conquests)) > rules.explore_threshold


def referendum(
    votes_for: Sequence[int], votes_against: Sequence[int], rules: Rules | None = None,
    launched: bool = True,
) -> bool:
    """Whether a referendum passes: strictly more votes for than against.

    ``votes_for`` lists the votes of each active character voting for, the launching
    character first; with ``launched`` it gets ``launcher_bonus`` extra votes. A
    character's votes are never split.

    Parameters
    ----------
    votes_for, votes_against : sequence of int
        Votes of each character voting for (the launcher first) and against.
    rules : Rules, optional
        Default ``Rules()``.
    launched : bool
        Whether the first voter for launched the referendum (default True).
    allow_large : bool
        Enumerate even when it would take more than :data:`ENUMERATION_LIMIT` seconds
        (refused otherwise, in one line with the estimate).

    Returns
    -------
    bool

    Examples
    --------
    >>> referendum([2], [3])            # a lieutenant launching (2 + 1) against a second
    False
    >>> referendum([2, 1], [3])
    True
    """
    rules = Rules.check(rules)
    from tabletop.validate import check_bool

    launched = check_bool("launched", launched)
    pro = _ints("votes_for", votes_for)
    con = _ints("votes_against", votes_against)
    if launched and not pro:
        raise ValueError("votes_for must start with the launching character, got no votes")
    bonus = rules.launcher_bonus if launched else 0
    return sum(pro) + bonus > sum(con)


def rally(challenger_bid: int, controller_bid: int) -> str:
    """Who keeps a named character after a rally: ``"challenger"`` only on a higher bid.

    Parameters
    ----------
    challenger_bid, controller_bid : int
        The two bids (>= 0).

    Returns
    -------
    {"challenger", "controller"}

    Examples
    --------
    >>> rally(3, 3)
    'controller'
    """
    a = check_int("challenger_bid", challenger_bid, 0)
    b = check_int("controller_bid", controller_bid, 0)
    return "challenger" if a > b else "controller"


#: Steps of :func:`_subset_counts` per second, from its bound :func:`_enumeration_steps`
#: (about 1.2 million dictionary updates a second, about a third of the bound; measured
#: 2026-11-27 on pools of 30 to 80 cards).
ENUMERATION_RATE = 3.0e6
#: Longest exact enumeration run without ``allow_large=True``, in seconds.
ENUMERATION_LIMIT = 60.0


def _enumeration_steps(strengths, commands, k) -> int:
    """An upper bound on the dictionary updates of :func:`_subset_counts`: each card
    updates every (sum, command) of the j-card subsets, j < k, whose number is at most
    the j-subsets themselves and at most the sums they can reach times the commands."""
    values = sorted(strengths)
    n, kinds = len(values), len(set(commands))
    low = [0, *itertools.accumulate(values)]  # low[j]: the j weakest cards' sum
    steps = 0
    for j in range(min(k, n)):
        span = (low[n] - low[n - j]) - low[j] + 1  # the j strongest minus the j weakest
        steps += min(math.comb(n, j), span * kinds)
    return steps * n


def _check_enumeration(what: str, pools, allow_large: bool) -> None:
    """Refuse, in one line with its estimate, an exact enumeration that would take more
    than :data:`ENUMERATION_LIMIT` seconds, unless ``allow_large``. ``pools``: (name,
    strengths, commands, k) of each side's draw."""
    from tabletop.budget import duration

    seconds = sum(_enumeration_steps(s, c, k) for _, s, c, k in pools) / ENUMERATION_RATE
    if seconds > ENUMERATION_LIMIT and not allow_large:
        draws = ", ".join(f"{k} of {len(s)} cards from {name}" for name, s, _, k in pools)
        raise ValueError(f"{what}: the exact odds of drawing {draws} take about "
                         f"{duration(seconds)} to enumerate; draw fewer cards, or pass "
                         "allow_large=True")  # fmt: skip


def _subset_counts(strengths, commands, k, big):
    """counts[(sum, min command)] over k-subsets of the cards (min command of none: big)."""
    layers = [dict() for _ in range(k + 1)]
    layers[0][(0, big)] = 1
    for strength, command in zip(strengths, commands, strict=True):
        for j in range(min(k, len(strengths)), 0, -1):
            for (total, low), n in layers[j - 1].items():
                key = (total + strength, min(low, command))
                layers[j][key] = layers[j].get(key, 0) + n
    return layers[k]


@dataclass(frozen=True, eq=False)
class BattleOdds:
    """Exact law of a battle with drawn characters.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    p_attacker : float
        Probability the attacker wins (0..1 within 1e-9, as ``p_capture``).
    p_capture : float
        Tactical: probability the defender wins by at least the smallest command
        among the engaged attackers (a capture is possible).
    expected_bankruptcy : float
        Economic: expected doublons the attacker pays (finite, >= 0).
    margin : pandas.Series
        Law of ``attacker - defender`` strength (index ``margin``).

    Examples
    --------
    >>> odds = battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, target_value=1)
    >>> round(float(odds.margin.sum()), 12)
    1.0
    >>> abs(odds.p_attacker - float(odds.margin[odds.margin.index > 0].sum())) < 1e-12
    True
    """

    p_attacker: float
    p_capture: float
    expected_bankruptcy: float
    margin: pd.Series

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self, p_attacker=PROBABILITY, p_capture=PROBABILITY,
                     expected_bankruptcy=(0.0, None))
        check_probabilities("BattleOdds.margin", self.margin, rounding=PROBABILITY_TOLERANCE)


def battle_odds(
    kind: str,
    attacker_pool: Sequence[int],
    n_attackers: int,
    defender_pool: Sequence[int],
    n_defenders: int,
    target_value: int,
    attacker_commands: Sequence[int] | None = None,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
    rules: Rules | None = None,
    *,
    allow_large: bool = False,
) -> BattleOdds:
    """Exact odds when each side engages a uniform random draw from its pool.

    Parameters
    ----------
    kind : {"tactical", "economic"}
    attacker_pool, defender_pool : sequence of int
        Strength (conquest or diplomacy) of every card of each pool; equal values are
        still distinct cards.
    n_attackers, n_defenders : int
        Cards drawn, without replacement, from each pool; all of them engage (at least
        one attacker; no defender is allowed).
    target_value, attacker_bonus, defender_bonus : int
        As in :func:`battle`.
    attacker_commands : sequence of int, optional
        Command of each attacker pool card (default all 0: always capturable).
    rules : Rules, optional
        Default ``Rules()``.
    allow_large : bool
        Enumerate even when it would take more than :data:`ENUMERATION_LIMIT` seconds
        (refused otherwise, in one line with the estimate: every subset of each pool
        is counted by its strength, exactly).

    Returns
    -------
    BattleOdds

    Examples
    --------
    >>> odds = battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, target_value=1)
    >>> round(odds.p_attacker, 6)   # sums 3, 4, 5 against 2 or 3: 5 wins in 6
    0.833333
    """
    import pandas as pd

    rules = Rules.check(rules)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    apool = _ints("attacker_pool", attacker_pool)
    dpool = _ints("defender_pool", defender_pool)
    if not apool:
        raise ValueError(f"attacker_pool must hold at least one card, got {attacker_pool!r}")
    ka = check_int("n_attackers", n_attackers, 1, len(apool))  # a battle needs an attacker
    kd = check_int("n_defenders", n_defenders, 0, len(dpool))
    cmds = (0,) * len(apool) if attacker_commands is None else _ints("attacker_commands",
                                                                     attacker_commands)
    if len(cmds) != len(apool):
        raise ValueError(f"attacker_commands must hold one command per attacker pool card "
                         f"({len(apool)}), got {len(cmds)}")
    base = (check_int("target_value", target_value, 0)
            + check_int("defender_bonus", defender_bonus, 0))
    bonus = check_int("attacker_bonus", attacker_bonus, 0)
    _check_enumeration("battle_odds", [("attacker_pool", apool, cmds, ka),
                                       ("defender_pool", dpool, (0,), kd)],
                       check_bool("allow_large", allow_large))  # fmt: skip
    big = 10**9
    att = _subset_counts(apool, cmds, ka, big)
    dfd = _subset_counts(dpool, (0,) * len(dpool), kd, big)
    norm = math.comb(len(apool), ka) * math.comb(len(dpool), kd)
    win = capture = bankrupt = 0
    margin: dict[int, int] = {}
    for (a_sum, low), na in att.items():
        for (d_sum, _), nd in dfd.items():
            n = na * nd
            diff = a_sum + bonus - d_sum - base
            margin[diff] = margin.get(diff, 0) + n
            if diff > 0:
                win += n
            else:
                if ka and low <= -diff:
                    capture += n
                bankrupt += n * min(-diff, rules.bankruptcy_cap)
    keys = sorted(margin)
    law = pd.Series(np.array([margin[m] for m in keys], dtype=np.float64) / norm,
                    index=pd.Index(keys, name="margin"), name="probability")
    return BattleOdds(
        p_attacker=win / norm,
        p_capture=capture / norm if kind == "tactical" else 0.0,
        expected_bankruptcy=bankrupt / norm if kind == "economic" else 0.0,
        margin=law,
    )


def referendum_odds(
    for_pool: Sequence[int], n_for: int, against_pool: Sequence[int], n_against: int,
    rules: Rules | None = None, launched: bool = True, *, allow_large: bool = False,
) -> float:
    """Exact probability a referendum passes when each side's voters are drawn at random.

    ``n_for`` characters drawn without replacement from ``for_pool`` (votes of each
    card) vote for, with ``launcher_bonus`` added when ``launched``; ``n_against``
    drawn from ``against_pool`` vote against. Passes on strictly more for.

    Parameters
    ----------
    for_pool, against_pool : sequence of int
        Votes of every card of each pool.
    n_for, n_against : int
        Voters drawn from each pool (``n_for >= 1`` when ``launched``).
    rules : Rules, optional
        Default ``Rules()``.
    launched : bool
        Whether the first voter for launched the referendum (default True).
    allow_large : bool
        Enumerate even when it would take more than :data:`ENUMERATION_LIMIT` seconds
        (refused otherwise, in one line with the estimate).

    Returns
    -------
    float

    Examples
    --------
    >>> referendum_odds([1, 2, 4], 1, [3], 1)   # 1+1 or 2+1 fail, 4+1 passes
    0.3333333333333333
    """
    rules = Rules.check(rules)
    launched = check_bool("launched", launched)
    pro = _ints("for_pool", for_pool)
    con = _ints("against_pool", against_pool)
    kf = check_int("n_for", n_for, 0, len(pro))
    ka = check_int("n_against", n_against, 0, len(con))
    if launched and kf == 0:
        raise ValueError("n_for must be >= 1 when launched (the launcher votes for), got 0")
    _check_enumeration("referendum_odds", [("for_pool", pro, (0,), kf),
                                           ("against_pool", con, (0,), ka)],
                       check_bool("allow_large", allow_large))  # fmt: skip
    bonus = rules.launcher_bonus if launched else 0
    big = 10**9
    fors = _subset_counts(pro, (0,) * len(pro), kf, big)
    againsts = _subset_counts(con, (0,) * len(con), ka, big)
    passed = sum(nf * na for (sf, _), nf in fors.items() for (sa, _), na in againsts.items()
                 if sf + bonus > sa)
    return passed / (math.comb(len(pro), kf) * math.comb(len(con), ka))
