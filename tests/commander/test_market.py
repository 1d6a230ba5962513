import pytest
from hypothesis import given
from hypothesis import strategies as st

from commander import Rules
from commander.market import (
    buy_price,
    buy_steps,
    legal_transactions,
    market_arrays,
    price_table,
    round_trips,
    sell_price,
    transact,
)
from tests.commander.test_rules import seed_rate


def token_by_token(stock, k, direction, after=False):
    """Move gold tokens one at a time as the seed says, pricing each with the seed table."""
    total = 0
    for _ in range(k):
        if direction == "buy":
            total += seed_rate(stock)
            stock -= 1
        else:
            stock += 1
            total += seed_rate(stock) if after else seed_rate(stock - 1)
    return total


def test_rules_md_examples():
    # RULES.md §4: "buying 3 from a stock of 10 costs 2 + 3 + 3 = 8"
    assert buy_steps(Rules(), 10, 3) == (2, 3, 3)
    assert buy_price(Rules(), 10, 3) == 8
    # RULES.md §4: "selling 2 into a stock of 3 pays 5 + 4 = 9"
    assert sell_price(Rules(), 3, 2) == 9
    # RULES.md §4: "sell into a stock of 3 for 5, buy from 4 for 4"
    assert sell_price(Rules(), 3, 1) == 5
    assert buy_price(Rules(), 4, 1) == 4


@pytest.mark.parametrize("stock", range(0, 20))
@pytest.mark.parametrize("k", range(0, 4))
def test_prices_match_token_by_token(stock, k):
    if k <= stock:
        assert buy_price(Rules(), stock, k) == token_by_token(stock, k, "buy")
    assert sell_price(Rules(), stock, k) == token_by_token(stock, k, "sell")
    after = Rules(sale_price="after")
    assert sell_price(after, stock, k) == token_by_token(stock, k, "sell", after=True)


def test_cannot_buy_more_than_stock():
    with pytest.raises(ValueError, match="k must be <= stock=2"):
        buy_price(Rules(), 2, 3)
    with pytest.raises(ValueError, match=r"k must be 0\.\.3, got 4"):
        buy_price(Rules(), 10, 4)


def test_legal_transactions_hand_cases():
    rules = Rules()
    # 5 doublons from stock 10: 2 (one gold), 2 + 3 = 5 (two), 8 (three: too dear)
    assert legal_transactions(rules, 0, 5, 10) == [0, 1, 2]
    assert legal_transactions(rules, 0, 4, 10) == [0, 1]
    assert legal_transactions(rules, 4, 100, 1) == [-3, -2, -1, 0, 1]
    assert legal_transactions(rules, 0, 0, 0) == [0]


def test_transact_rejects_illegal():
    with pytest.raises(ValueError, match="transaction k=3 is illegal"):
        transact(Rules(), 0, 5, 10, 3)
    with pytest.raises(ValueError, match="transaction k=-1 is illegal"):
        transact(Rules(), 0, 5, 10, -1)


@given(
    gold=st.integers(0, 12),
    doublons=st.integers(0, 40),
    stock=st.integers(0, 15),
    after=st.booleans(),
)
def test_every_legal_transaction_conserves_gold_and_keeps_purses_non_negative(
    gold, doublons, stock, after
):
    rules = Rules(sale_price="after" if after else "before")
    legal = legal_transactions(rules, gold, doublons, stock)
    assert legal == sorted(legal) and 0 in legal
    for k in legal:
        g, d, s = transact(rules, gold, doublons, stock, k)
        assert g + s == gold + stock
        assert g >= 0 and d >= 0 and s >= 0


@given(stock=st.integers(3, 20), k=st.integers(1, 3))
def test_after_pricing_makes_round_trips_free(stock, k):
    rules = Rules(sale_price="after")
    # buy k from stock, sell them straight back: same units, same prices
    assert sell_price(rules, stock - k, k) == buy_price(rules, stock, k)


def test_round_trips_profit_only_at_band_tops_under_before():
    gains = round_trips(Rules(), max_stock=20)
    profitable = sorted(int(s) for s in gains.index[gains > 0])
    # the top of each band: 0 (6 -> 5), 3 (5 -> 4), 6, 9, 12
    assert profitable == [0, 3, 6, 9, 12]
    assert (gains >= 0).all()
    assert (round_trips(Rules(sale_price="after")) == 0).all()


def test_price_table_and_arrays_agree():
    rules = Rules(n_players=3)
    table = price_table(rules)
    buy, sell = market_arrays(rules, rules.total_gold)
    for s in table.index:
        for k in (1, 2, 3):
            if k <= s:
                assert table.loc[s, f"buy_{k}"] == buy[s, k]
            assert table.loc[s, f"sell_{k}"] == sell[s, k]
    assert buy[2, 3] > 10**9


def test_price_size_is_the_peak_memory_and_a_huge_stock_is_refused_at_once():
    from commander.market import price_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    for top in (10**5, 2 * 10**6):
        assert_estimate(price_size(Rules(), top),
                        peak_bytes(lambda top=top: price_table(Rules(), top)))  # fmt: skip
    refused_at_once(lambda: price_table(Rules(), 10**13), "max_stock=10000000000000",
                    "max_gold_per_transaction=3")  # fmt: skip


@pytest.mark.parametrize("knobs", [{}, {"sale_price": "after"}, {"max_gold_per_transaction": 6}])
def test_price_table_holds_the_prices_of_each_stock(knobs):
    import pandas as pd

    rules = Rules(**knobs)
    frame = price_table(rules, 40)
    cap = rules.max_gold_per_transaction
    for s in range(41):
        assert frame.loc[s, "rate"] == rules.rate(s) if s < len(rules.rates) else True
        for k in range(1, cap + 1):
            buy = frame.loc[s, f"buy_{k}"]
            assert (buy is pd.NA) if k > s else buy == buy_price(rules, s, k)
            assert frame.loc[s, f"sell_{k}"] == sell_price(rules, s, k)
    assert (frame.dtypes == "Int64").all() and frame.index.name == "stock"
