"""Bad fields of Master & Commander's classes: each a TypeError or ValueError naming
``Class.field``; a list given for an input class's tuple is stored as a tuple."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

import commander as M
from tests.fields import bad_field_test

NAN = float("nan")


@functools.cache
def _made(name: str):
    return {
        "battle": lambda: M.battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, 2),
        "economy": lambda: M.simulate_economy(M.Rules(), list(M.load_decks().values())[:2],
                                              M.load_cards(), n=200, seed=1, record=True),
        "cards": M.load_cards,
    }[name]()  # fmt: skip


def _economy(field):
    return getattr(_made("economy"), field)


BAD_FIELDS = [
    ("battle", "p_attacker", 1.5, ValueError),
    ("battle", "p_capture", NAN, ValueError),
    ("battle", "expected_bankruptcy", -1.0, ValueError),
    ("economy", "win_seat", lambda: _economy("win_seat").tolist(), TypeError),
    ("economy", "win_seat", lambda: _economy("win_seat") + 5, ValueError),
    ("economy", "win_round", lambda: _economy("win_round") + 0.5, TypeError),
    ("economy", "win_player", lambda: _economy("win_player")[:3], ValueError),
    ("economy", "stock", None, ValueError),
    ("economy", "gold", lambda: _economy("gold")[:, :, :1], ValueError),
    ("cards", "cards", pd.DataFrame({"a": [1]}), ValueError),
    ("cards", "cards", lambda: _made("cards").cards.astype({"votes": float}), TypeError),
    ("cards", "cards", lambda: _made("cards").cards.drop(columns="type"), ValueError),
]  # fmt: skip


test_a_bad_field_is_named = bad_field_test(
    _made, BAD_FIELDS, lambda result, made, field, bad: bad() if callable(bad) else bad)


def test_a_card_set_without_the_card_columns_is_refused():
    frame = pd.DataFrame({"a": [1]}, index=pd.Index(["x"], name="id"))
    with pytest.raises(ValueError, match=r"CardSet\.cards must have the columns of "
                                         r"CARD_COLUMNS, missing \['name'"):  # fmt: skip
        M.CardSet(cards=frame, source="x")


def test_a_list_is_stored_as_a_tuple():
    assert M.Rules(exchange_rates=[[13, 1], [0, 6]]).exchange_rates == ((13, 1), (0, 6))
    assert M.Deck("d", [["a", 1]]).entries == (("a", 1),)
    with pytest.raises(ValueError, match=r"entries\[0\] must be a \(card id, copies"):
        M.Deck("d", [("a", 1.5)])
    assert np.array_equal(_made("economy").win_seat, _economy("win_seat"))
