"""Rule variants of Ce soir, à Samarra side by side (the knobs of docs/rules.md).

For each rules set: the perfect-information solve (share of positions won, lost and
drawn for the side to move), the setup game (its value to the first mover, the share
of setup pairs that are draws, won by the first mover, won by the second), i.e. the
value of the start, the share of draws and the first-move advantage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from samarra.rules import Rules
from samarra.setup import setup_game
from samarra.solve import check_solvable, check_solve_options, solve

if TYPE_CHECKING:
    import pandas as pd


KNOBS = ("width", "length", "adjacency", "auto_death", "win_on_arrival_only", "allow_pass",
         "no_repetition", "first")


def compare_variants(variants: dict[str, Rules], **solve_options) -> pd.DataFrame:
    """One row per named rules set; see the module docstring.

    Parameters
    ----------
    variants : dict of str to Rules
        Named rules sets (non-empty), each solvable by :func:`samarra.solve`.
    **solve_options
        Passed to :func:`samarra.solve` (``cache``, ``directory``, ``allow_large``,
        ``progress``; another name is a TypeError).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``variant``: the knobs, the number of states, the shares of states
        won and drawn, the setup game's value to the first mover and the shares of
        setup pairs the first mover wins, draws and loses.

    Examples
    --------
    >>> table = compare_variants({"3x3": Rules(length=3)})
    >>> float(table.loc["3x3", "first mover wins"] + table.loc["3x3", "draw"]
    ...       + table.loc["3x3", "second mover wins"])
    1.0
    """
    import pandas as pd

    check_solve_options("compare_variants", solve_options)
    if not isinstance(variants, dict) or not variants:
        raise ValueError(f"variants must be a non-empty dict name -> Rules, got {variants!r}")
    for name in variants:
        if not isinstance(name, str):
            raise TypeError(f"variants: every name must be a str (the table's index), got "
                            f"{name!r} ({type(name).__name__})")
    rows = {}
    for name, rules in variants.items():
        check_solvable(Rules.check(rules, f"variants[{name!r}]", default=False))
        table = solve(rules, **solve_options)
        game = setup_game(table=table)
        shares = game.outcome_shares()
        first_black = rules.first_side == 0
        counts = table.counts
        total = sum(counts.values())
        rows[name] = {
            **{k: getattr(rules, k) for k in KNOBS},
            "states": total,
            "states won": counts["win"] / total,
            "states drawn": counts["draw"] / total,
            "setup game value (first mover)": game.first_move_value,
            "first mover wins": shares["black wins" if first_black else "white wins"],
            "draw": shares["draw"],
            "second mover wins": shares["white wins" if first_black else "black wins"],
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("variant")
