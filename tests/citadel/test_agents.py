"""The heuristics' orders, worked out by hand."""

import numpy as np
import pytest

from citadel import GameState, Rules, agent
from citadel.agents import legal_amount, need

RULES = Rules()
START = GameState((0, 0), (100, 100, 100, 100))


def order(name, state=START, seat=0, last=None, rules=RULES):
    return agent(name)(state, seat, rules, last, np.random.default_rng(0))


def test_legal_amount():
    assert legal_amount(27, 100, Rules(bid_step=5)) == 25
    assert legal_amount(3, 100, Rules(bid_step=5)) == 5  # a positive aim bids at least 5
    assert legal_amount(0, 100, Rules()) == 0
    assert legal_amount(0, 100, Rules(min_bid=2)) == 2  # min_bid forces a bid
    assert legal_amount(50, 3, Rules(bid_step=5)) == 0  # nothing fits
    assert legal_amount(500, 40, Rules()) == 40


def test_need():
    assert need((0, 0), 0, RULES) == 4
    assert need((0, 3), 0, RULES) == 1 and need((0, 3), 2, RULES) == 7
    assert need((-2, 0), 3, RULES) == 2  # W


def test_orders_at_the_start():
    assert order("straight") == (25, 0)  # 100 over 4 steps, north
    assert order("straight", seat=1) == (25, 2)
    assert order("ally_cw") == (25, 1)  # N with E: NE
    assert order("ally_ccw", seat=1) == (25, 1)  # E with N: NE as well: they merge
    assert order("ally_ccw") == (25, 7)  # N with W: NW
    assert order("saver", seat=2) == (0, 4)
    assert order("counter") == (25, 0)  # nothing to counter yet: straight


def test_allies_without_a_neighbour_go_straight():
    two = Rules(n_players=2)
    state = GameState((0, 0), (100, 100))
    assert order("ally_cw", state, 0, rules=two) == (25, 0)


def test_counter_answers_the_strongest_combined_order():
    last = ((0, 10, 10, 5), (0, 4, 4, 2))  # E and S wrote 10 S together
    assert order("counter", last=last) == (10, 0)
    mine = ((10, 10, 0, 0), (4, 4, 0, 0))  # a combination N took part in is not countered
    assert order("counter", last=mine) == (25, 0)


def test_saver_goes_all_in_at_the_end():
    state = GameState((0, 3), (100, 60, 100, 100))
    assert order("saver", state, 1) == (60, 2)


def test_random_is_legal():
    rng = np.random.default_rng(1)
    rules = Rules(bid_step=5, min_bid=1)
    for _ in range(200):
        a, d = agent("random")(START, 0, rules, None, rng)
        assert a in rules.legal_amounts(100) and 0 <= d < 8


def test_unknown_agent():
    with pytest.raises(ValueError, match="unknown agent"):
        agent("greedy")
