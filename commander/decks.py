"""Deck construction rules (docs/rules.md, Deck construction), every breach reported.

A deck must hold exactly one lair, which gives its faction (not independent); a crew
of at least ``min_crew`` characters, a strict majority of them of the lair's faction
(independents allowed; ``majority_counts_independents`` says whether they count in
the crew total, default yes); at least ``min_territories`` territories; and an
adventure deck of at least ``min_adventure`` cards (lair, characters and territories
not counted). Any number of copies of a card is allowed. :func:`validate_deck`
checks every rule and returns every breach, not only the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from commander.cards import ADVENTURE_TYPES, CardSet, Deck
from commander.rules import Rules
from tabletop.validate import check_fields, check_instance

if TYPE_CHECKING:
    import pandas as pd

#: The keys of the construction rules (:attr:`Violation.rule`).
_RULE_KEYS = ("one_lair", "min_crew", "crew_majority", "min_territories", "min_adventure")


@dataclass(frozen=True)
class Violation:
    """One broken construction rule: a short key and a sentence with the numbers.

    Attributes
    ----------
    rule : str
        ``"one_lair"``, ``"min_crew"``, ``"crew_majority"``, ``"min_territories"`` or
        ``"min_adventure"``.
    message : str
        What the deck holds and what the rule needs.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards()
    >>> v = validate_deck(load_decks(cards=cards)["broken_example"], cards)[0]
    >>> v.rule, "needs at least" in v.message
    ('min_crew', True)
    """

    rule: str
    message: str

    def __post_init__(self):
        check_fields(self, rule=_RULE_KEYS)


def deck_summary(deck: Deck, cards: CardSet) -> pd.Series:
    """Card counts of a deck by part: lairs, crew, crew of the lair's faction, ...

    Parameters
    ----------
    deck : Deck
    cards : CardSet
        The cards the deck refers to.

    Returns
    -------
    pandas.Series
        Named after the deck: ``lairs``, ``crew``, ``crew_of_faction`` (0 unless the deck
        holds exactly one lair), ``independents``, ``territories`` and ``adventure``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards()
    >>> int(deck_summary(load_decks(cards=cards)["spanish_sample"], cards)["crew"])
    12
    """
    check_instance("deck", deck, Deck)
    check_instance("cards", cards, CardSet)
    import pandas as pd

    frame = deck.counts(cards)
    by_type = frame.groupby("type")["copies"].sum()
    lairs = frame[frame["type"] == "lair"]
    faction = lairs["faction"].iloc[0] if len(lairs) == 1 and lairs["copies"].iloc[0] == 1 else ""
    crew = frame[frame["type"] == "character"]
    return pd.Series(
        {
            "lairs": int(by_type.get("lair", 0)),
            "crew": int(crew["copies"].sum()),
            "crew_of_faction": int(crew.loc[crew["faction"] == faction, "copies"].sum())
            if faction else 0,
            "independents": int(crew.loc[crew["faction"] == "independent", "copies"].sum()),
            "territories": int(by_type.get("territory", 0)),
            "adventure": int(sum(by_type.get(t, 0) for t in ADVENTURE_TYPES)),
        },
        name=deck.name,
    )


def validate_deck(deck: Deck, cards: CardSet, rules: Rules | None = None) -> list[Violation]:
    """Every construction rule ``deck`` breaks (an empty list for a legal deck).

    Parameters
    ----------
    deck : Deck
    cards : CardSet
        The cards the deck refers to.
    rules : Rules, optional
        Default ``Rules()``: its ``min_crew``, ``min_territories``, ``min_adventure`` and
        ``majority_counts_independents``.

    Returns
    -------
    list of Violation
        In the order one lair, crew size, crew majority, territories, adventure.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); decks = load_decks(cards=cards)
    >>> validate_deck(decks["spanish_sample"], cards)
    []
    >>> [v.rule for v in validate_deck(decks["broken_example"], cards)]
    ['min_crew', 'crew_majority', 'min_territories', 'min_adventure']
    """
    check_instance("deck", deck, Deck)
    check_instance("cards", cards, CardSet)
    rules = Rules.check(rules)
    s = deck_summary(deck, cards)
    out = []
    if s["lairs"] != 1:
        out.append(Violation("one_lair",
                             f"the deck holds {s['lairs']} lair cards, needs exactly 1"))
    if s["crew"] < rules.min_crew:
        out.append(Violation("min_crew", f"the crew has {s['crew']} characters, needs at least "
                             f"{rules.min_crew}"))
    if s["lairs"] == 1:
        total = s["crew"] if rules.majority_counts_independents else s["crew"] - s["independents"]
        if 2 * s["crew_of_faction"] <= total:
            out.append(Violation("crew_majority", f"{s['crew_of_faction']} of {total} counted "
                                 "characters are of the lair's faction, needs a strict majority"))
    if s["territories"] < rules.min_territories:
        out.append(Violation("min_territories", f"the exploration pile has {s['territories']} "
                             f"territories, needs at least {rules.min_territories}"))
    if s["adventure"] < rules.min_adventure:
        out.append(Violation("min_adventure", f"the adventure deck has {s['adventure']} cards, "
                             f"needs at least {rules.min_adventure}"))
    return out
