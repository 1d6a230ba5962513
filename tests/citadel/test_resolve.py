"""Resolution of a round: the seed's examples, every ruling of RULES.md §2, symmetries,
the numba kernel against the plain reference, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citadel import Rules, resolve, resolve_many
from citadel.resolve import order_names, resolve_reference

BASIC = Rules(resolution="basic")
WINNERS = Rules(payment="winners")


def step(orders, rules=None):
    return resolve(orders, rules).step


def test_seed_counter_example():
    """Seed: Pauline and Benoît write "10 points sud", Marcelle "10 points nord": the
    three orders cancel "et c'est donc le quatrième ordre qui s'applique"."""
    r = resolve([(10, "S"), (10, "S"), (10, "N"), (5, "E")])
    assert r.step == (1, 0)
    assert r.fee == (0, 0, 0, 0)
    assert r.pays == (10, 10, 10, 5)  # payment "all"


def test_seed_ninety_degree_example():
    """Seed: « 32 N », « 32 E », « 18 S » et « 5 N-O »: le pion est déplacé d'un pas
    vers le nord-est."""
    assert step([(32, "N"), (32, "E"), (18, "S"), (5, "NW")]) == (1, 1)


def test_strongest_order_applies():
    """Seed: "L'ordre le plus fort l'emporte, et le pion est avancé d'une case"."""
    assert step([(30, "N"), (20, "E"), (10, "S"), (0, None)]) == (0, 1)
    assert step([(3, "SW"), (2, "E"), (1, "S"), (0, None)]) == (-1, -1)


def test_merge_adds_stakes():
    """Seed: same value, same direction: "leurs enjeux s'additionnent" (10+10 N > 15 S)."""
    orders = [(10, "N"), (10, "N"), (15, "S"), (0, None)]
    assert step(orders) == (0, 1)
    assert step(orders, BASIC) == (0, 1)  # merging applies in both resolutions


def test_opposite_tie_cancels_and_the_next_applies():
    """Seed: opposite ex-aequo "s'annulent, et c'est le plus grand ordre restant"."""
    r = resolve([(20, "N"), (20, "S"), (10, "E"), (5, "W")])
    assert r.step == (1, 0) and r.fee == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["NE", "NW", "SE", "SW"])
def test_45_and_135_degree_ties_pay_the_fee(other):
    """Seed: "à 45° ou à 135° ... le coup est annulé, mais chacun des ex-æquo perd un point"."""
    r = resolve([(20, "N"), (20, other), (10, "S"), (0, None)])
    assert r.step == (0, 0)
    assert r.fee == (1, 1, 0, 0)


def test_ninety_degree_sum_is_clipped():
    """RULES.md: NE + SE -> E; N + E -> NE."""
    assert step([(20, "NE"), (20, "SE"), (0, None), (0, None)]) == (1, 0)
    assert step([(20, "N"), (20, "W"), (0, None), (0, None)]) == (-1, 1)
    assert step([(7, "SW"), (7, "NW"), (0, None), (0, None)]) == (-1, 0)


def test_three_or_four_ways_pay_the_fee_even_with_an_opposite_pair():
    """RULES.md ruling: three tied orders in different directions: no move and the fee,
    even when two of them are opposite; also: two single orders never counter."""
    r = resolve([(10, "N"), (10, "S"), (10, "E"), (0, None)])
    assert r.step == (0, 0) and r.fee == (1, 1, 1, 0)
    r = resolve([(10, "N"), (10, "S"), (10, "E"), (10, "W")])
    assert r.step == (0, 0) and r.fee == (1, 1, 1, 1)


def test_counter_by_a_combined_order():
    """RULES.md ruling: 2 x 10 N against 2 x 10 S: all four cancelled."""
    r = resolve([(10, "N"), (10, "N"), (10, "S"), (10, "S")])
    assert r.step == (0, 0) and r.fee == (0, 0, 0, 0)


def test_counter_uses_the_per_author_amount():
    """2 x 10 S is countered by 10 N, not by 20 N (a 20 N ties the 20 of the pair)."""
    assert step([(10, "S"), (10, "S"), (10, "N"), (0, None)]) == (0, 0)
    # 20 N vs the 2 x 10 S pair: tied opposite, cancelled; the 3 E left applies
    assert step([(10, "S"), (10, "S"), (20, "N"), (3, "E")]) == (1, 0)


def test_basic_has_no_counter_and_no_tie_rules():
    assert step([(10, "S"), (10, "S"), (10, "N"), (5, "E")], BASIC) == (0, -1)
    r = resolve([(20, "N"), (20, "S"), (10, "E"), (0, None)], BASIC)
    assert r.step == (0, 0) and r.fee == (0, 0, 0, 0)
    r = resolve([(20, "N"), (20, "NE"), (0, None), (0, None)], BASIC)
    assert r.step == (0, 0) and r.fee == (0, 0, 0, 0)
    assert step([(32, "N"), (32, "E"), (18, "S"), (5, "NW")], BASIC) == (0, 0)


def test_same_direction_tie():
    """RULES.md ruling: 2 x 10 N against one 20 N: "variant" moves N with no fee,
    "basic" treats it as any tie: no move."""
    orders = [(10, "N"), (10, "N"), (20, "N"), (0, None)]
    r = resolve(orders)
    assert r.step == (0, 1) and r.fee == (0, 0, 0, 0)
    assert step(orders, BASIC) == (0, 0)


def test_three_tied_two_sharing_a_direction():
    """RULES.md ruling: 2 x 10 N, 20 N, 20 S: grouped by direction, N and S are
    opposite, all cancel (no fee)."""
    r = resolve([(10, "N"), (10, "N"), (20, "N"), (20, "S")])
    assert r.step == (0, 0) and r.fee == (0, 0, 0, 0)
    # with 2 x 10 N, 20 N, 20 NE: 45° apart, every author of the tied orders pays
    r = resolve([(10, "N"), (10, "N"), (20, "N"), (20, "NE")])
    assert r.step == (0, 0) and r.fee == (1, 1, 1, 1)


def test_after_a_cancel_only_the_final_tie_pays():
    """RULES.md ruling: after an opposite pair cancels, steps 3-4 apply again; only the
    authors of the tie that finally stands pay a fee."""
    r = resolve([(30, "N"), (30, "S"), (10, "E"), (10, "NE")])
    assert r.step == (0, 0) and r.fee == (0, 0, 1, 1)
    assert step([(30, "N"), (30, "S"), (10, "E"), (10, "N")]) == (1, 1)
    assert step([(30, "N"), (30, "S"), (10, "E"), (10, "W")]) == (0, 0)


def test_abstentions_never_act():
    r = resolve([(0, None), (0, "N"), (0, None), (0, None)])
    assert r.step == (0, 0) and r.pays == (0, 0, 0, 0) and r.fee == (0, 0, 0, 0)


def test_winners_pay():
    r = resolve([(32, "N"), (32, "E"), (18, "S"), (5, "NW")], WINNERS)
    assert r.pays == (32, 32, 0, 0)
    r = resolve([(20, "N"), (20, "NE"), (10, "S"), (0, None)], WINNERS)
    assert r.pays == (0, 0, 0, 0) and r.fee == (1, 1, 0, 0)
    r = resolve([(10, "S"), (10, "S"), (10, "N"), (5, "E")], WINNERS)
    assert r.pays == (0, 0, 0, 5)


def test_two_players():
    rules = Rules(n_players=2)
    assert resolve([(10, "N"), (9, "S")], rules).step == (0, 1)
    assert resolve([(10, "N"), (10, "N")], rules).step == (0, 1)  # they merge


def test_order_names():
    assert order_names([32, 0], [0, 3]) == ["32 N", "-"]


# ---- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("orders", "match"),
    [
        ([(101, "N"), (0, None), (0, None), (0, None)], r"seat N \(#0\): amount 101 is over"),
        ([(0, None), (-5, "N"), (0, None), (0, None)], r"seat E \(#1\): amount must be >= 0"),
        ([(0, None), (0, None), (2.5, "N"), (0, None)], r"seat S \(#2\): amount must be an int"),
        ([(0, None), (0, None), (0, None), (5, "UP")], r"seat W \(#3\): unknown direction"),
        ([(0, None), (0, None), (0, None), (5, None)], r"seat W \(#3\): unknown direction"),
        ([(0, None), (0, None), (0, None)], "expected 4 orders"),
        ([(0, None)] * 5, "expected 4 orders"),
        ([(0, None), 3, (0, None), (0, None)], r"seat E \(#1\): an order is"),
    ],
)
def test_bad_orders(orders, match):
    with pytest.raises(ValueError, match=match):
        resolve(orders)


def test_bad_orders_against_capitals():
    with pytest.raises(ValueError, match=r"seat S \(#2\): amount 30 is over .* capital 20"):
        resolve([(10, "N"), (0, None), (30, "S"), (0, None)], capitals=[100, 100, 20, 100])


def test_bad_batches():
    with pytest.raises(ValueError, match="shape"):
        resolve_many([[1, 2, 3]], [[0, 0, 0]])
    with pytest.raises(ValueError, match=r"seat E \(#1\): amounts must be .* got 101 in round 0"):
        resolve_many([[1, 101, 0, 0]], [[0, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"seat N \(#0\): amounts must be .* got -5 in round 1"):
        resolve_many([[1, 1, 0, 0], [-5, 0, 0, 0]], [[0, 0, 0, 0], [0, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"seat W \(#3\): unknown direction 8 in round 0"):
        resolve_many([[1, 1, 0, 0]], [[0, 0, 0, 8]])
    with pytest.raises(ValueError, match=r"seat S \(#2\): amounts must be .* got 3 in round 0"):
        resolve_many([[5, 5, 3, 0]], [[0, 0, 0, 0]], Rules(bid_step=5))


# ---- properties ---------------------------------------------------------------------

AMOUNTS = st.sampled_from([0, 5, 10, 10, 20, 20, 40])


@st.composite
def rounds(draw):
    n = draw(st.sampled_from([2, 3, 4]))
    amounts = draw(st.lists(AMOUNTS, min_size=n, max_size=n))
    directions = draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
    resolution = draw(st.sampled_from(["basic", "variant"]))
    payment = draw(st.sampled_from(["all", "winners"]))
    return np.array(amounts), np.array(directions), resolution, payment


@given(rounds())
@settings(max_examples=300, deadline=None)
def test_rotation_by_90_degrees_rotates_the_step(case):
    amounts, directions, resolution, payment = case
    r = resolve_reference(amounts, directions, resolution, payment)
    turned = resolve_reference(amounts, (directions + 2) % 8, resolution, payment)
    dx, dy = r.step
    assert turned.step == (dy, -dx)  # N (0, 1) turns to E (1, 0)
    assert turned.pays == r.pays and turned.fee == r.fee


@given(rounds())
@settings(max_examples=300, deadline=None)
def test_mirror_mirrors_the_step(case):
    amounts, directions, resolution, payment = case
    r = resolve_reference(amounts, directions, resolution, payment)
    mirrored = resolve_reference(amounts, (8 - directions) % 8, resolution, payment)
    assert mirrored.step == (-r.step[0], r.step[1])  # E <-> W, N stays
    assert mirrored.pays == r.pays and mirrored.fee == r.fee


@given(rounds(), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_permuting_seats_changes_nothing_but_who_pays(case, rnd):
    amounts, directions, resolution, payment = case
    perm = list(range(amounts.size))
    rnd.shuffle(perm)
    r = resolve_reference(amounts, directions, resolution, payment)
    p = resolve_reference(amounts[perm], directions[perm], resolution, payment)
    assert p.step == r.step
    assert p.pays == tuple(r.pays[i] for i in perm)
    assert p.fee == tuple(r.fee[i] for i in perm)


@given(rounds())
@settings(max_examples=300, deadline=None)
def test_outcome_is_legal(case):
    amounts, directions, resolution, payment = case
    r = resolve_reference(amounts, directions, resolution, payment)
    assert all(v in (-1, 0, 1) for v in r.step)
    assert all(0 <= p <= a for p, a in zip(r.pays, amounts, strict=True))
    assert all(f == 0 for f, a in zip(r.fee, amounts, strict=True) if a == 0)
    if resolution == "basic":
        assert sum(r.fee) == 0
    if r.step != (0, 0):
        assert sum(r.fee) == 0


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("resolution", ["basic", "variant"])
@pytest.mark.parametrize("payment", ["all", "winners"])
def test_kernel_agrees_with_reference(n, resolution, payment):
    rng = np.random.default_rng([n, len(resolution), len(payment)])
    m = 20_000
    # few distinct amounts, so merges, counters and ties are frequent
    amounts = rng.choice([0, 1, 2, 3, 4, 6], size=(m, n))
    directions = rng.integers(0, 8, size=(m, n))
    rules = Rules(n_players=n, resolution=resolution, payment=payment)
    steps, pays, fee = resolve_many(amounts, directions, rules)
    for i in range(m):
        ref = resolve_reference(amounts[i], directions[i], resolution, payment)
        assert tuple(steps[i]) == ref.step, (amounts[i], directions[i])
        assert tuple(pays[i]) == ref.pays and tuple(fee[i]) == ref.fee


def test_batches_and_capitals_are_never_truncated():
    # an amount of 32.7 used to be resolved as 32
    with pytest.raises(TypeError, match=r"amounts must be an array of ints, got \[\[32.7, 32,"):
        resolve_many([[32.7, 32, 18, 5]], [[0, 2, 4, 7]])
    with pytest.raises(TypeError, match=r"directions must be an array of ints, got \[\[0.5, 2,"):
        resolve_many([[32, 32, 18, 5]], [[0.5, 2, 4, 7]])
    with pytest.raises(TypeError, match="amounts must be an array of ints"):
        resolve_many([["32", "32", "18", "5"]], [[0, 2, 4, 7]])
    with pytest.raises(TypeError, match=r"capitals\[2\] must be an int, got 20.5 \(float\)"):
        resolve([(10, "N"), (0, None), (20, "S"), (0, None)], capitals=[100, 100, 20.5, 100])
    with pytest.raises(ValueError, match=r"capitals\[1\] must be >= 0, got -1"):
        resolve([(10, "N"), (0, None), (0, None), (0, None)], capitals=[100, -1, 20, 100])
    steps, pays, _ = resolve_many(np.array([[32, 32, 18, 5]], dtype=np.int32), [[0, 2, 4, 7]])
    assert steps.tolist() == [[1, 1]] and pays.tolist() == [[32, 32, 18, 5]]
