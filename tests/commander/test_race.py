import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commander import Rules
from commander.market import transact
from commander.race import race_table, solve_race
from commander.race_reference import race_search, stream

rule_sets = st.builds(
    Rules,
    win_gold=st.integers(2, 6),
    max_gold_per_transaction=st.integers(1, 3),
    sale_price=st.sampled_from(["before", "after"]),
    exchange_rates=st.sampled_from([((13, 1), (10, 2), (7, 3), (4, 4), (1, 5), (0, 6)),
                                    ((4, 1), (2, 3), (0, 5)), ((0, 2),)]),
)


def replay(rules, result, gold, doublons, stock, income, drain):
    """Play the plan through the public market rules; return the final purse."""
    for t, k in enumerate(result.plan):
        assert gold < rules.win_gold
        gold, doublons, stock = transact(rules, gold, doublons + stream(income, t), stock, k)
        stock = max(stock - stream(drain, t), 0)
    assert gold >= rules.win_gold
    return doublons


@settings(max_examples=60, deadline=None)
@given(
    rules=rule_sets,
    gold=st.integers(0, 5),
    doublons=st.integers(0, 12),
    stock=st.integers(0, 9),
    income=st.lists(st.integers(0, 5), min_size=1, max_size=3),
    drain=st.lists(st.integers(0, 2), min_size=1, max_size=3),
)
def test_dp_matches_breadth_first_search(rules, gold, doublons, stock, income, drain):
    horizon = 6
    result = solve_race(rules, gold, doublons, stock, income, drain, horizon=horizon)
    wins = race_search(rules, gold, doublons, stock, income, horizon, drain=drain)
    assert result.by_turn["doublons_left"].to_dict() == wins
    first = race_search(rules, gold, doublons, stock, income, horizon, drain=drain,
                        first_only=True)
    assert first == ({min(wins): wins[min(wins)]} if wins else {})
    if wins:
        assert result.win_turn == min(wins)
        assert result.doublons_left == wins[min(wins)]
        assert replay(rules, result, gold, doublons, stock, income, drain) == result.doublons_left
        assert len(result.plan) == result.win_turn - 1
    else:
        assert result.win_turn is None and result.plan == ()


def test_hand_cases():
    rules = Rules()
    # already rich: wins at the start of turn 1
    assert solve_race(rules, 10, 0, 0).win_turn == 1
    # 9 gold, one gold in stock at rate 5, 5 doublons: buy it in turn 1, win turn 2
    r = solve_race(rules, 9, 5, 1)
    assert (r.win_turn, r.doublons_left, r.plan) == (2, 0, (1,))
    # 4 doublons and no income: with sales priced after the move, prices are path
    # independent and the last gold costs 5, out of reach ...
    assert solve_race(Rules(sale_price="after"), 9, 4, 1).win_turn is None
    # ... but the literal rule pays 5+5+5 for 3 gold sold into a stock of 1, which buy
    # back for 4 then 5+5+5: 4 + 15 - 19 = 0 doublons left at turn 4
    r = solve_race(rules, 9, 4, 1)
    assert (r.win_turn, r.doublons_left, r.plan) == (4, 0, (-3, 1, 3))
    # cap 3: from 0 gold at least 4 transactions, so turn 5 at the earliest
    assert solve_race(rules, 0, 1000, 10).win_turn == 5
    # buying all 10 gold of a stock of 10 costs 2+3+3+3+4+4+4+5+5+5 = 38
    after = Rules(sale_price="after")
    assert solve_race(after, 0, 38, 10).net_cost == 38
    assert solve_race(after, 0, 37, 10).win_turn is None


def test_band_edge_loop_pays_under_before_only():
    # income 4 from (0 gold, 5 doublons, stock 10): buying straight needs 38 doublons,
    # i.e. 9 purchases (5 + 4 * 9 = 41 >= 38 > 37), a win at turn 10; under "before"
    # two buy-at-2 / sell-at-3 loops earn 2 doublons and win a turn earlier.
    before = solve_race(Rules(), 0, 5, 10, income=4)
    after = solve_race(Rules(sale_price="after"), 0, 5, 10, income=4)
    assert after.win_turn == 10 and after.net_cost == 38
    assert before.win_turn == 9 and before.net_cost == 36
    assert any(k < 0 for k in before.plan)


def test_rivals_draining_slow_the_race():
    rules = Rules(n_players=4)
    solo = solve_race(rules, 0, 5, rules.start_stock, income=6)
    drained = solve_race(rules, 0, 5, rules.start_stock, income=6, drain=[0, 1])
    assert drained.win_turn is None or drained.win_turn >= solo.win_turn


def test_table_matches_single_solves():
    rules = Rules(win_gold=5)
    table = race_table(rules, doublons=3, income=[2, 3], drain=[0, 1], horizon=20, total=8)
    for (g, s), row in table.iterrows():
        r = solve_race(rules, g, 3, s, income=[2, 3], drain=[0, 1], horizon=20)
        if r.win_turn is None:
            assert row["win_turn"] is pd_na()
        else:
            assert (row["win_turn"], row["doublons_left"]) == (r.win_turn, r.doublons_left)


def pd_na():
    import pandas as pd

    return pd.NA


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"income": -1}, r"income\[0\] must be 0..1000000, got -1"),
        ({"income": []}, "income must hold at least one value"),
        ({"drain": [1, "a"]}, r"drain\[1\] must be an int"),
        ({"horizon": 0}, "horizon must be 1..1000, got 0"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        solve_race(Rules(), 0, 5, 10, **kwargs)


def test_by_turn_costs_never_rise_with_time():
    r = solve_race(Rules(), 0, 5, 10, income=4, horizon=30)
    costs = r.by_turn["net_cost"].to_numpy()
    assert np.all(np.diff(costs) <= 0)


def test_race_size_is_the_peak_memory_and_a_race_too_large_is_refused_at_once(monkeypatch):
    from commander.race import race_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    solve_race(Rules(), gold=0, doublons=5, stock=10, income=4)
    peak = peak_bytes(lambda: solve_race(Rules(), gold=0, doublons=5, stock=150, income=4))
    assert_estimate(race_size(151, 60), peak)
    monkeypatch.setattr("tabletop.budget.available_memory", lambda: 4e9)  # a 4 GB machine
    text = refused_at_once(lambda: solve_race(Rules(), gold=0, doublons=5, stock=1000,
                                              horizon=1000), "horizon=1000")  # fmt: skip
    assert "8.0 GB" in text and "gold + stock=1000" in text


def test_race_table_in_batches_of_starts_is_the_table_in_one_pass(monkeypatch):
    import commander.race as race_module
    from commander._kernels import RacePlan, race_table_kernel
    from commander.market import market_arrays

    rules = Rules()
    whole = race_table(rules, doublons=5, income=[3, 4], drain=1, horizon=25)
    monkeypatch.setattr(race_module, "Chunks", lambda n: [(lo, min(n, lo + 7))
                                                         for lo in range(0, n, 7)])  # fmt: skip
    assert race_table(rules, doublons=5, income=[3, 4], drain=1, horizon=25).equals(whole)
    n = max(rules.total_gold, rules.win_gold)
    buy, sell = market_arrays(rules, n)
    inc = np.array([3] + [4] * 24, dtype=np.int64)
    plan = RacePlan(buy, sell, inc, np.ones(25, dtype=np.int64), rules.win_gold,
                    rules.max_gold_per_transaction, 25)
    turns, _ = race_table_kernel(plan, 5, n)
    got = whole["win_turn"].fillna(0).to_numpy(dtype=np.int64)
    expected = [turns[g, s] for g, s in whole.index]
    assert got.tolist() == expected
