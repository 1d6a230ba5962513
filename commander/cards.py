"""Card data: loading a card set and decks from CSV, checked field by field.

The rules (docs/rules.md, Master & Commander) have no card list: card values are
input. The package ships an **illustrative sample set, invented for testing**
(``commander/data/cards.csv`` and ``decks.csv``); users load their own files in the
same format.

``cards.csv`` has one row per card and the columns of :data:`CARD_COLUMNS` (lines
starting with ``#`` are comments). Every numeric field must be present and a
non-negative int; ``type`` is one of :data:`CARD_TYPES`; ``faction`` one of
:data:`FACTIONS` (the nine of the seed plus ``independent``), required for lairs and
characters (a lair cannot be independent), blank or a faction otherwise; ``rank``
blank or a rank of ``Rules.votes_by_rank``; ``named`` 0 or 1; ``sea`` free text.

``decks.csv`` has rows ``deck,card_id,copies``.

Loading is all or nothing: every row is checked, every problem is collected, and a
single :class:`CardDataError` names file, row (the line number in the file) and field
of each; nothing is returned half-loaded.
"""

from __future__ import annotations

import csv
import numbers
import os
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from commander.rules import Rules
from tabletop.files import read_user_text
from tabletop.frozen import same_fields
from tabletop.validate import check_fields, check_instance, check_path

if TYPE_CHECKING:
    import pandas as pd


CARD_TYPES = (
    "lair", "character", "territory",
    "support", "item", "agreement", "action", "manoeuvre", "event",
)
#: Adventure cards: the deck of at least 45 (lair, characters and territories excluded).
ADVENTURE_TYPES = ("support", "item", "agreement", "action", "manoeuvre", "event")
FACTIONS = (
    "spanish_navy", "english_navy", "french_navy", "brethren_of_the_coast",
    "flibustiers", "buccaneers", "smugglers", "slavers", "ghost_ship", "independent",
)
INT_COLUMNS = (
    "cost", "income", "conquest", "diplomacy", "combat", "command", "votes", "value",
    "bonus_conquest", "bonus_diplomacy", "ransom", "named",
)
CARD_COLUMNS = ("id", "name", "type", "faction", *INT_COLUMNS[:6], "rank", *INT_COLUMNS[6:],
                "sea")
DECK_COLUMNS = ("deck", "card_id", "copies")


class CardDataError(ValueError):
    """Malformed card or deck data; ``problems`` lists ``(file, row, field, message)``.

    Attributes
    ----------
    problems : list of tuple
        ``(file, row, field, message)`` for every problem found (all of them, not the
        first only).

    Examples
    --------
    >>> err = CardDataError([("decks.csv", 3, "copies", "value missing")])
    >>> isinstance(err, ValueError), err.problems[0][2]
    (True, 'copies')
    """

    def __init__(self, problems: list[tuple[str, int, str, str]]):
        if isinstance(problems, (str, bytes)) or not hasattr(problems, "__iter__"):
            raise TypeError("problems must be a list of (file, row, field, message) tuples, "
                            f"got {problems!r}")
        self.problems = list(problems)
        for problem in self.problems:
            if not isinstance(problem, tuple) or len(problem) != 4:
                raise TypeError("problems must be a list of (file, row, field, message) "
                                f"tuples, got the item {problem!r}")
            file, row, field, message = problem
            if not (isinstance(file, str) and isinstance(field, str)
                    and isinstance(message, str) and isinstance(row, numbers.Integral)
                    and not isinstance(row, bool)):  # fmt: skip
                raise TypeError("each problem must be (file: str, row: int, field: str, "
                                f"message: str), got {problem!r}")
        lines = [f"{f}, row {r}, field {fld!r}: {m}" for f, r, fld, m in self.problems]
        head = f"{len(lines)} problem(s) in card data; nothing was loaded:\n  "
        super().__init__(head + "\n  ".join(lines))


def _read_rows(text: str, source: str, columns: tuple[str, ...]):
    """Rows of a commented CSV as ``(line number, dict)``; raise on a bad header."""
    lines = text.splitlines()
    numbered = [(i + 1, line) for i, line in enumerate(lines)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        raise CardDataError([(source, 0, "header", "the file has no header row")])
    header_line, header = numbered[0]
    names = next(csv.reader([header]))
    names = [n.strip() for n in names]
    missing = [c for c in columns if c not in names]
    unknown = [n for n in names if n not in columns]
    problems = [(source, header_line, c, "column missing from the header") for c in missing]
    problems += [(source, header_line, n, f"unknown column (allowed: {', '.join(columns)})")
                 for n in unknown]
    if problems:
        raise CardDataError(problems)
    rows = []
    for number, line in numbered[1:]:
        values = next(csv.reader([line]))
        if len(values) != len(names):
            problems.append((source, number, "row",
                             f"has {len(values)} fields, the header has {len(names)}"))
            continue
        rows.append((number, {n: v.strip() for n, v in zip(names, values, strict=True)}))
    if problems:
        raise CardDataError(problems)
    return rows


def _int_field(row: dict, name: str, problems: list, where: tuple[str, int]) -> int:
    raw = row[name]
    if raw == "":
        problems.append((*where, name, "value missing (must be an int >= 0)"))
        return 0
    try:
        value = int(raw)
    except ValueError:
        problems.append((*where, name, f"{raw!r} is not an int (must be an int >= 0)"))
        return 0
    if value < 0:
        problems.append((*where, name, f"{value} is negative (must be an int >= 0)"))
    return value


def _source(path) -> tuple[str, str]:
    if path is None:
        ref = resources.files("commander") / "data" / "cards.csv"
        return ref.read_text(encoding="utf-8"), "commander/data/cards.csv"
    return read_user_text(path), str(path)


@dataclass(frozen=True, eq=False)
class CardSet:
    """A validated card set.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    cards : pandas.DataFrame
        One row per card, index ``id``, the other columns of :data:`CARD_COLUMNS`
        (more columns are allowed; those of :data:`INT_COLUMNS` of an integer dtype).
    source : str
        The file it came from.

    Examples
    --------
    >>> cards = load_cards()
    >>> bool(cards.of_type("character")["type"].eq("character").all())
    True
    """

    cards: pd.DataFrame
    source: str

    __eq__ = same_fields

    def __post_init__(self):
        check_fields(self)
        frame = self.cards
        if frame.index.name != "id":
            raise ValueError(f"CardSet.cards must be indexed by 'id', got index "
                             f"{frame.index.name!r}")  # fmt: skip
        missing = [c for c in CARD_COLUMNS[1:] if c not in frame.columns]
        if missing:
            raise ValueError(f"CardSet.cards must have the columns of CARD_COLUMNS, missing "
                             f"{missing} (got {list(frame.columns)!r:.80})")  # fmt: skip
        for column in INT_COLUMNS:
            if frame[column].dtype.kind not in "iu":
                raise TypeError(f"CardSet.cards column {column!r} must be of an integer "
                                f"dtype, got {frame[column].dtype}")  # fmt: skip

    def of_type(self, *types: str) -> pd.DataFrame:
        """The cards of the given types."""
        for t in types:
            if t not in CARD_TYPES:
                raise ValueError(f"type must be one of {CARD_TYPES}, got {t!r}")
        return self.cards[self.cards["type"].isin(types)]

    def votes(self, card_id: str, rules: Rules | None = None) -> int:
        """Referendum votes of a character: its rank's votes plus its printed votes."""
        rules = Rules.check(rules)
        row = self.cards.loc[card_id]
        return rules.rank_votes(row["rank"]) + int(row["votes"])


def load_cards(path: str | os.PathLike | None = None, rules: Rules | None = None) -> CardSet:
    """Load and validate a card set (default: the illustrative sample shipped).

    Parameters
    ----------
    path : path-like, optional
        A ``cards.csv`` in the format of the module docstring.
    rules : Rules, optional
        Gives the legal ranks (``votes_by_rank``); default ``Rules()``.

    Returns
    -------
    CardSet

    Raises
    ------
    CardDataError
        Naming file, row and field of every problem; nothing is loaded.

    Examples
    --------
    >>> cards = load_cards()
    >>> sorted(cards.cards["type"].unique()) == sorted(CARD_TYPES)
    True
    """
    check_path("path", path, optional=True)
    import pandas as pd

    rules = Rules.check(rules)
    ranks = {name for name, _ in rules.votes_by_rank}
    text, source = _source(path)
    problems: list[tuple[str, int, str, str]] = []
    records, seen = [], {}
    for number, row in _read_rows(text, source, CARD_COLUMNS):
        where = (source, number)
        record = {"id": row["id"], "name": row["name"], "type": row["type"],
                  "faction": row["faction"], "rank": row["rank"], "sea": row["sea"]}
        if not row["id"]:
            problems.append((*where, "id", "value missing"))
        elif row["id"] in seen:
            problems.append((*where, "id", f"{row['id']!r} already used on row {seen[row['id']]}"))
        else:
            seen[row["id"]] = number
        if not row["name"]:
            problems.append((*where, "name", "value missing"))
        if row["type"] not in CARD_TYPES:
            problems.append((*where, "type", f"unknown type {row['type']!r} "
                             f"(allowed: {', '.join(CARD_TYPES)})"))
        faction = row["faction"]
        if faction and faction not in FACTIONS:
            problems.append((*where, "faction", f"unknown faction {faction!r} "
                             f"(allowed: {', '.join(FACTIONS)})"))
        elif row["type"] in ("lair", "character") and not faction:
            problems.append((*where, "faction", f"value missing (a {row['type']} needs one)"))
        elif row["type"] == "lair" and faction == "independent":
            problems.append((*where, "faction", "a lair cannot be 'independent' "
                             "(the lair gives the deck its faction)"))
        if row["rank"] and row["rank"] not in ranks:
            problems.append((*where, "rank", f"unknown rank {row['rank']!r} (allowed: blank "
                             f"or a rank of Rules.votes_by_rank: "
                             f"{', '.join(sorted(ranks)) or 'none given'})"))
        for name in INT_COLUMNS:
            record[name] = _int_field(row, name, problems, where)
        if row["named"] not in ("", "0", "1") and record["named"] >= 0:
            problems.append((*where, "named", f"{row['named']!r} must be 0 or 1"))
        records.append(record)
    if problems:
        raise CardDataError(problems)
    frame = pd.DataFrame.from_records(records, columns=list(CARD_COLUMNS)).set_index("id")
    frame[list(INT_COLUMNS)] = frame[list(INT_COLUMNS)].astype("int64")
    return CardSet(cards=frame, source=source)


@dataclass(frozen=True)
class Deck:
    """A deck: its name and ``(card id, copies)`` pairs, in file order.

    Attributes
    ----------
    name : str
    entries : tuple of (str, int)
        ``(card id, copies >= 1)`` pairs: a tuple or list of pairs, each a tuple or
        list, stored as a tuple of tuples.

    Examples
    --------
    >>> deck = load_decks()["spanish_sample"]
    >>> deck.counts(load_cards())["copies"].tolist() == [n for _, n in deck.entries]
    True
    """

    name: str
    entries: tuple[tuple[str, int], ...]

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a str, got {self.name!r} ({type(self.name).__name__})")
        if isinstance(self.entries, str) or not isinstance(self.entries, tuple | list):
            raise TypeError(f"entries must be a tuple of (card id, copies) pairs, "
                            f"got {self.entries!r:.80}")
        for i, entry in enumerate(self.entries):
            ok = isinstance(entry, tuple | list) and len(entry) == 2
            if not ok or not isinstance(entry[0], str) or isinstance(entry[1], bool) \
                    or not isinstance(entry[1], int) or entry[1] < 1:
                raise ValueError(f"entries[{i}] must be a (card id, copies >= 1) pair, "
                                 f"got {entry!r}")
        object.__setattr__(self, "entries", tuple(tuple(e) for e in self.entries))

    def counts(self, cards: CardSet) -> pd.DataFrame:
        """The deck's cards with their copies, joined to the card data.

        Raises ``ValueError`` naming the deck's card ids that ``cards`` does not hold.
        """
        ids = [c for c, _ in self.entries]
        unknown = [c for c in ids if c not in cards.cards.index]
        if unknown:
            raise ValueError(f"deck {self.name!r} names cards not in the card set: "
                             f"{', '.join(map(repr, unknown[:5]))}"
                             f"{' ...' if len(unknown) > 5 else ''}")  # fmt: skip
        frame = cards.cards.loc[ids].copy()
        frame.insert(0, "copies", [n for _, n in self.entries])
        return frame


def load_decks(
    path: str | os.PathLike | None = None, cards: CardSet | None = None
) -> dict[str, Deck]:
    """Load decks (default: the illustrative sample decks), all or nothing.

    Every ``card_id`` must be in ``cards`` (default: the sample card set) and every
    ``copies`` an int >= 1.

    Parameters
    ----------
    path : path-like, optional
        A CSV file with the columns of ``DECK_COLUMNS`` (default: the sample decks).
    cards : CardSet, optional
        The cards the decks refer to (default: :func:`load_cards`).

    Returns
    -------
    dict of str to Deck
        By deck name.

    Raises
    ------
    CardDataError
        Listing every problem; nothing is loaded.

    Examples
    --------
    >>> decks = load_decks()
    >>> "spanish_sample" in decks
    True
    """
    check_instance("cards", cards, CardSet, optional=True)
    check_path("path", path, optional=True)
    cards = load_cards() if cards is None else cards
    if path is None:
        text = (resources.files("commander") / "data" / "decks.csv").read_text(encoding="utf-8")
        source = "commander/data/decks.csv"
    else:
        text, source = read_user_text(path), str(path)
    problems: list[tuple[str, int, str, str]] = []
    decks: dict[str, list[tuple[str, int]]] = {}
    for number, row in _read_rows(text, source, DECK_COLUMNS):
        where = (source, number)
        if not row["deck"]:
            problems.append((*where, "deck", "value missing"))
        if row["card_id"] not in cards.cards.index:
            problems.append((*where, "card_id", f"unknown card {row['card_id']!r} "
                             f"(not in {cards.source})"))
        copies = _int_field(row, "copies", problems, where)
        if row["copies"] and copies == 0:
            problems.append((*where, "copies", "0 copies (must be an int >= 1)"))
        decks.setdefault(row["deck"], []).append((row["card_id"], copies))
    if problems:
        raise CardDataError(problems)
    return {name: Deck(name, tuple(entries)) for name, entries in decks.items()}
