import numpy as np
import pytest

from commander import Rules, Strategy, load_cards, load_decks, solve_race
from commander.variants import economy_variants, race_variants

CARDS = load_cards()
DECKS = load_decks(cards=CARDS)


def test_race_variants_match_single_solves():
    variants = {"seed": Rules(), "win 8": Rules(win_gold=8), "cap 1": Rules(
        max_gold_per_transaction=1), "flat": Rules(exchange_rates=((0, 3),))}
    table = race_variants(variants, income=4, drain=[0, 1])
    for name, rules in variants.items():
        alone = solve_race(rules, 0, 5, rules.start_stock, income=4)
        drained = solve_race(rules, 0, 5, rules.start_stock, income=4, drain=[0, 1])
        assert table.loc[name, "win_turn"] == alone.win_turn
        assert table.loc[name, "net_cost"] == alone.net_cost
        got = table.loc[name, "win_turn_drained"]
        assert (got is pd_na()) if drained.win_turn is None else got == drained.win_turn
    # a flat rate leaves nothing to gain by selling
    assert not table.loc["flat", "uses_sales"]
    # a lower threshold never makes the race longer
    assert table.loc["win 8", "win_turn"] <= table.loc["seed", "win_turn"]


def pd_na():
    import pandas as pd

    return pd.NA


def test_economy_variants_rows_and_common_seed():
    decks = [DECKS["spanish_sample"], DECKS["ghost_sample"]]
    strats = [Strategy(hire_target=2), Strategy(hire_target=2, buy_from_turn=5)]
    variants = {"a": Rules(), "b": Rules()}
    table = economy_variants(variants, decks, CARDS, strats, n=300, seed=3)
    assert list(table.columns) == ["finished", "mean_round", "median_round", "first_seat",
                                   "player_0", "player_1", "games", "finished_games"]
    assert (table["games"] == 300).all()
    assert np.allclose(table["finished_games"] / table["games"], table["finished"])
    assert np.allclose(table.loc["a"].to_numpy(), table.loc["b"].to_numpy(), equal_nan=True)
    row = table.loc["a"]
    assert np.isclose(row["player_0"] + row["player_1"], row["finished"])


def test_bad_variants():
    with pytest.raises(TypeError, match="non-empty mapping"):
        race_variants({}, income=1)
    with pytest.raises(TypeError, match=r"variants\[.x.\] must be a commander\.Rules, got 3"):
        race_variants({"x": 3}, income=1)
