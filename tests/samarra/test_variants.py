import pytest

from samarra import Rules, compare_variants, setup_game


def test_variants_table(cache):
    rules = {"plain": Rules(length=3), "king": Rules(length=3, adjacency="king"),
             "white first": Rules(length=3, first="white")}
    table = compare_variants(rules, directory=cache)
    assert list(table.index) == list(rules)
    shares = table[["first mover wins", "draw", "second mover wins"]].sum(axis=1)
    assert shares.round(12).eq(1).all()
    # who moves first is a colour swap: the first mover's prospects do not change
    cols = ["setup game value (first mover)", "first mover wins", "draw", "states drawn"]
    plain, white = table.loc["plain", cols].tolist(), table.loc["white first", cols].tolist()
    assert plain == pytest.approx(white)
    assert table.loc["plain", "setup game value (first mover)"] == pytest.approx(
        setup_game(Rules(length=3), directory=cache).value)


def test_variants_refuse_bad_input():
    with pytest.raises(ValueError, match="non-empty dict"):
        compare_variants({})
    with pytest.raises(ValueError, match="horizon"):
        compare_variants({"adjudicated": Rules(length=3, horizon=10)}, cache=False)
