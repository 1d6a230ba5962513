"""citadel.Rules: defaults from RULES.md §2, validation, legal amounts."""

import dataclasses

import pytest

from citadel.rules import DIRECTIONS, Rules, direction_index


def test_defaults_are_rules_md():
    """RULES.md §2 "Board and knobs": radius 3, 4 players, capital 100, all-pay, variant."""
    r = Rules()
    assert (r.radius, r.n_players, r.capital, r.payment, r.resolution) == (
        3,
        4,
        100,
        "all",
        "variant",
    )
    assert (r.bid_step, r.min_bid, r.max_rounds) == (1, 0, 200)
    assert r.seats == ("N", "E", "S", "W")
    assert Rules(n_players=2).seats == ("N", "S")
    assert Rules(n_players=3).seats == ("N", "E", "S")
    assert Rules().homes.tolist() == [0, 2, 4, 6]


def test_direction_names_follow_the_seed_die():
    """Seed: "1 = nord ; 2 = nord-est ; 3 = est, etc. jusqu'à 8 = nord-ouest"."""
    assert DIRECTIONS[0] == "N" and DIRECTIONS[1] == "NE" and DIRECTIONS[2] == "E"
    assert DIRECTIONS[7] == "NW"
    assert direction_index("ne") == 1 and direction_index(7) == 7
    for bad in ["X", 8, -1, True, 1.0, None]:
        with pytest.raises(ValueError, match="unknown direction"):
            direction_index(bad)


@pytest.mark.parametrize(
    ("field", "value", "error", "match"),
    [
        ("radius", 0, ValueError, "radius must be 1..50, got 0"),
        ("n_players", 1, ValueError, "n_players must be 2..4, got 1"),
        ("capital", 0, ValueError, "capital must be"),
        ("capital", 1.5, TypeError, "capital must be an int"),
        ("payment", "some", ValueError, "payment must be one of"),
        ("resolution", "open", ValueError, "resolution must be one of"),
        ("bid_step", 0, ValueError, "bid_step must be"),
        ("min_bid", -1, ValueError, "min_bid must be"),
        ("max_rounds", 0, ValueError, "max_rounds must be"),
        ("radius", True, TypeError, "radius must be an int"),
    ],
)
def test_bad_knobs(field, value, error, match):
    with pytest.raises(error, match=match):
        dataclasses.replace(Rules(), **{field: value})


def test_legal_amounts():
    assert Rules().legal_amounts(3).tolist() == [0, 1, 2, 3]
    assert Rules(bid_step=5).legal_amounts(12).tolist() == [0, 5, 10]
    # min_bid forces a bid when one is possible, abstention otherwise
    assert Rules(min_bid=1).legal_amounts(2).tolist() == [1, 2]
    assert Rules(min_bid=1).legal_amounts(0).tolist() == [0]
    assert Rules(bid_step=5, min_bid=3).legal_amounts(12).tolist() == [5, 10]
    assert Rules(bid_step=5, min_bid=3).legal_amounts(4).tolist() == [0]
    assert Rules(bid_step=5, min_bid=3).smallest_bid == 5


def test_check_amount_names_seat_and_problem():
    r = Rules()
    assert r.check_amount(0, 10, 100) == 10
    with pytest.raises(ValueError, match=r"seat E \(#1\): amount 101 is over .* capital 100"):
        r.check_amount(1, 101, 100)
    with pytest.raises(ValueError, match=r"seat S \(#2\): amount must be >= 0, got -1"):
        r.check_amount(2, -1, 100)
    with pytest.raises(ValueError, match=r"seat W \(#3\): amount must be an int, got 2.5"):
        r.check_amount(3, 2.5, 100)
    with pytest.raises(ValueError, match="not a multiple of bid_step=5"):
        Rules(bid_step=5).check_amount(0, 7, 100)
    with pytest.raises(ValueError, match="below min_bid=2"):
        Rules(min_bid=2).check_amount(0, 0, 100)
