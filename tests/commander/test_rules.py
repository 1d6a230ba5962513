import pytest

from commander import Rules


def seed_rate(stock):
    # the seed's ICROE table, "Compagnie des Indes: OR en stock / Taux d'échange"
    if stock >= 13:
        return 1
    if stock >= 10:
        return 2
    if stock >= 7:
        return 3
    if stock >= 4:
        return 4
    if stock >= 1:
        return 5
    return 6


def test_defaults_are_the_seeds():
    rules = Rules()
    # seed: "Placez 8 jetons Or ... et ajoutez 1 jeton Or par joueurs"
    assert [Rules(n_players=n).start_stock for n in range(2, 6)] == [10, 11, 12, 13]
    # seed: "Prenez 5 doublons pour commencer"; "commencer votre tour avec 10 Or"
    assert rules.start_doublons == 5
    assert rules.win_gold == 10
    assert rules.max_gold_per_transaction == 3
    assert rules.bankruptcy_cap == 4
    assert rules.rank_votes("captain") == 4
    assert rules.rank_votes("boatswain") == 1
    assert rules.rank_votes("") == 0


@pytest.mark.parametrize("stock", range(0, 30))
def test_rate_is_the_seed_table(stock):
    assert Rules().rate(stock) == seed_rate(stock)


def test_rates_array_covers_every_reachable_stock():
    rules = Rules(n_players=5)
    assert rules.rates.shape[0] > rules.total_gold
    assert all(rules.rates[s] == seed_rate(s) for s in range(rules.rates.shape[0]))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_players": 1}, "n_players must be 2..5, got 1"),
        ({"win_gold": 0}, "win_gold must be 1..50, got 0"),
        ({"max_gold_per_transaction": 0}, "max_gold_per_transaction must be 1..20, got 0"),
        ({"sale_price": "during"}, "sale_price must be one of"),
        ({"exchange_rates": ((5, 1), (7, 2), (0, 3))}, "must strictly decrease"),
        ({"exchange_rates": ((5, 1), (2, 3))}, "must end with a band starting at stock 0"),
        ({"exchange_rates": ((5, 0), (0, 3))}, r"exchange_rates\[0\] rate must be 1..1000000"),
        ({"exchange_rates": ()}, "at least one band"),
        ({"start_gold": 10}, "start_gold must be below win_gold=10"),
        ({"start_doublons": -1}, "start_doublons must be 0..10000, got -1"),
        ({"votes_by_rank": (("captain", -1),)}, "votes_by_rank\\['captain'\\] must be 0..100"),
        ({"votes_by_rank": ()}, r"votes_by_rank must name at least one rank, got \(\)"),
        ({"votes_by_rank": (("captain", 1), ("captain", 2))}, "must name each rank once"),
    ],
)
def test_illegal_values_name_field_value_and_range(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_unknown_rank():
    with pytest.raises(ValueError, match="rank must be one of"):
        Rules().rank_votes("admiral")


def test_variant_table():
    rules = Rules(exchange_rates=((6, 2), (0, 4)))
    assert [rules.rate(s) for s in (0, 5, 6, 40)] == [4, 4, 2, 2]
