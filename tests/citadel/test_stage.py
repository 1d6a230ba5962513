"""The stage game: outcome tables, the looped fixed point, n-player regret matching."""

import itertools

import numpy as np
import pytest

from citadel import GameState, Rules
from citadel.resolve import resolve_reference
from citadel.stage import (
    BRACKET,
    StageBuilder,
    distinct_orders,
    duel_matrix,
    duel_space,
    exploitability,
    regret_matching,
    reply_range,
    solve_with_loop,
    solve_with_loop_small,
    stage_payoffs,
)
from tabletop.matrix_games import solve_zero_sum


@pytest.mark.parametrize("directions", ["axis", "fees", "all"])
def test_duel_space_outcomes_match_the_reference(directions):
    rules = Rules(n_players=2, capital=6, bid_step=2, payment="winners")
    space = duel_space(rules, directions)
    for i, j in itertools.product(range(space.amounts[0].size), range(space.amounts[1].size)):
        a = [space.amounts[0][i], space.amounts[1][j]]
        d = [space.dirs[0][i], space.dirs[1][j]]
        ref = resolve_reference(a, d, rules.resolution, rules.payment)
        assert space.dy[i, j] == ref.step[1]
        assert space.cost_n[i, j] == ref.pays[0] + ref.fee[0]
        assert space.cost_s[i, j] == ref.pays[1] + ref.fee[1]


def test_duel_matrix_by_hand():
    """Radius 1, N at y=1 with 5 against 5: bidding 5 vs abstaining wins for N."""
    rules = Rules(n_players=2, radius=1, capital=5, bid_step=5)
    space = duel_space(rules)
    values = np.zeros((3, space.levels.size, space.levels.size))
    _, _, payoff, loop = duel_matrix(space, 1, 5, 5, values)
    assert payoff.tolist() == [[0.0, 0.0], [1.0, 0.0]]  # (abstain, 5 S) moves S to y=0: V=0
    assert loop.tolist() == [[True, False], [False, False]]


def _iterate(payoff, loop, n=20_000):
    """Shapley's iteration from 0 until it stops moving."""
    v = 0.0
    for _ in range(n):
        new = solve_zero_sum(payoff + loop * v).value
        if abs(new - v) < 1e-13:
            break
        v = new
    return v


def test_solve_with_loop_against_plain_iteration_and_guarantees():
    rng = np.random.default_rng(4)
    for _ in range(25):
        m, n = rng.integers(2, 5, size=2)
        payoff = rng.uniform(-1, 1, size=(m, n)).round(2)
        loop = rng.random((m, n)) < 0.3
        payoff[loop] = 0.0
        out = solve_with_loop(payoff, loop)
        assert out.value == pytest.approx(_iterate(payoff, loop), abs=1e-7)
        assert out.residual <= 1e-8  # the bracket's width (the LP's strategies: HiGHS)
        # each strategy's true stationary value against every pure reply (a reply that
        # loops for ever is a draw, 0)
        rest = np.where(loop, 0.0, payoff)
        q_col = out.row @ loop
        r_col = out.row @ rest
        worst = min(r / (1 - q) if q < 1 - 1e-9 else 0.0 for r, q in zip(r_col, q_col, strict=True))
        q_row = loop @ out.column
        r_row = rest @ out.column
        best = max(r / (1 - q) if q < 1 - 1e-9 else 0.0 for r, q in zip(r_row, q_row, strict=True))
        assert worst >= out.value - out.residual
        assert best <= out.value + out.residual


def _brute_exploitability(payoffs, strategies):
    n = len(payoffs)
    shape = payoffs[0].shape
    gains = []
    for i in range(n):

        def value(profile_i, i=i):
            total = 0.0
            for idx in itertools.product(*(range(k) for k in shape)):
                p = 1.0
                for j in range(n):
                    p *= profile_i[idx[j]] if j == i else strategies[j][idx[j]]
                total += p * payoffs[i][idx]
            return total

        now = value(strategies[i])
        best = max(value(np.eye(shape[i])[a]) for a in range(shape[i]))
        gains.append(best - now)
    return np.array(gains)


def test_exploitability_against_brute_force():
    rng = np.random.default_rng(9)
    for n, k in [(2, 3), (3, 2), (3, 3), (4, 2)]:
        payoffs = [rng.normal(size=(k,) * n) for _ in range(n)]
        strategies = [rng.dirichlet(np.ones(k)) for _ in range(n)]
        np.testing.assert_allclose(
            exploitability(payoffs, strategies),
            _brute_exploitability(payoffs, strategies),
            atol=1e-12,
        )


def test_regret_matching_in_zero_sum_games_meets_its_bound():
    """Regret matching's regret is at most D sqrt(|A| T) (Hart and Mas-Colell; Cesa-Bianchi
    and Lugosi, Thm 2.1 form), so the average strategies' exploitability, the sum of the
    two players' average regrets, is at most 2 D sqrt(|A| / T); D = payoff range."""
    rng = np.random.default_rng(2)
    T = 3000
    for _ in range(5):
        A = rng.normal(size=(4, 4))
        res = regret_matching([A, -A], T)
        bound = 2 * (A.max() - A.min()) * np.sqrt(4 / T)
        assert res.exploitability.sum() <= bound
        lp = solve_zero_sum(A)
        assert abs(res.strategies[0] @ A @ res.strategies[1] - lp.value) <= bound


def test_regret_matching_finds_a_dominant_profile():
    rng = np.random.default_rng(3)
    payoffs = []
    for i in range(3):
        p = rng.normal(size=(3, 3, 3))
        index = [slice(None)] * 3
        index[i] = 0
        p[tuple(index)] += 10.0  # action 0 strictly dominant for player i
        payoffs.append(p)
    res = regret_matching(payoffs, 500)
    for s in res.strategies:
        assert s[0] > 0.98
    assert res.exploitability.max() < 0.2


def test_four_player_stage_game():
    """Four seats at the start, three orders each; continuation: progress to one's line."""
    rules = Rules(radius=1, capital=10)
    state = GameState((0, 0), (10, 10, 10, 10))
    orders = [[(0, h), (5, h), (5, (h + 1) % 8)] for h in (0, 2, 4, 6)]

    def progress(s):
        x, y = s.pawn
        return (y / 2, x / 2, -y / 2, -x / 2)

    payoffs = stage_payoffs(rules, state, orders, progress)
    # all four write 5 toward home: a four-way tie, no move, a fee each
    assert [p[1, 1, 1, 1] for p in payoffs] == [0.0] * 4
    # N alone bids 5 N: one step N
    assert payoffs[0][1, 0, 0, 0] == 0.5 and payoffs[2][1, 0, 0, 0] == -0.5
    res = regret_matching(payoffs, 1000)
    np.testing.assert_allclose(res.exploitability, _brute_exploitability(payoffs,
                               res.strategies), atol=1e-12)  # fmt: skip
    with pytest.raises(ValueError, match="4 seats"):
        stage_payoffs(rules, state, orders[:3], progress)


PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])


@pytest.mark.parametrize(
    ("strategies", "message"),
    [
        ([[1.0, 1.0], [0.5, 0.5]], r"strategies\[0\] must be non-negative and sum to 1"),
        ([[0.5, 0.5], [1.5, -0.5]], r"strategies\[1\] must be non-negative and sum to 1"),
        ([[0.5, 0.5], [np.nan, 1.0]], r"strategies\[1\] must hold finite probabilities"),
        ([[0.5, 0.5], [1.0]], r"strategies\[1\] must hold 2 probabilities, got 1"),
        ([[0.5, 0.5]], r"strategies must hold one mixed strategy per player \(2\), got 1"),
    ],
)  # fmt: skip
def test_exploitability_refuses_what_is_not_a_mixed_strategy(strategies, message):
    # unnormalised and negative strategies used to give a number (e.g. [1, 1] vs the mix)
    with pytest.raises(ValueError, match=message):
        exploitability([PENNIES, -PENNIES], strategies)


def test_regret_matching_needs_an_iteration_and_finite_payoffs():
    # 0 iterations used to return NaN strategies (0 / 0) with their "exploitability"
    for bad, error in ((0, ValueError), (-5, ValueError), (2.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="iterations must be"):
            regret_matching([PENNIES, -PENNIES], bad)
    with pytest.raises(ValueError, match="payoffs must hold finite numbers"):
        regret_matching([PENNIES, np.array([[np.nan, 1.0], [1.0, -1.0]])], 10)
    assert regret_matching([PENNIES, -PENNIES], 1).iterations == 1


@pytest.mark.parametrize("payment", ["all", "winners"])
@pytest.mark.parametrize("resolution", ["variant", "basic"])
def test_merged_orders_have_identical_outcomes(payment, resolution):
    """Every order dropped by distinct_orders has the amount and, against every order
    of the other side, the row step and costs of one kept."""
    rules = Rules(n_players=2, capital=6, bid_step=2, payment=payment, resolution=resolution)
    space = duel_space(rules, "all")
    table = np.stack([space.dy, space.cost_n, space.cost_s], axis=-1)
    for side, tab in ((0, table), (1, table.transpose(1, 0, 2))):
        keep = distinct_orders(space, side)
        if payment == "all":  # mirror images at least merge
            assert keep.size < space.amounts[side].size
        for k in range(space.amounts[side].size):
            same = [q for q in keep if space.amounts[side][q] == space.amounts[side][k]
                    and (tab[q] == tab[k]).all()]  # fmt: skip
            assert len(same) == 1
        # kept orders are pairwise distinct
        rows = {(int(space.amounts[side][q]), tab[q].tobytes()) for q in keep}
        assert len(rows) == keep.size


@pytest.mark.parametrize("min_bid", [0, 2])
def test_stage_builder_matches_duel_matrix(min_bid):
    rules = Rules(n_players=2, radius=1, capital=6, bid_step=2, min_bid=min_bid)
    space = duel_space(rules, "all")
    rng = np.random.default_rng(5)
    values = rng.uniform(-1, 1, size=(3, space.levels.size, space.levels.size))
    merged, every = StageBuilder(space), StageBuilder(space, merge=False)
    for y, cn, cs in itertools.product(range(-1, 2), range(7), range(7)):
        rows, cols, payoff, loop = duel_matrix(space, y, cn, cs, values)
        r2, c2, p2, l2 = every.matrix(y, cn, cs, values)
        assert (r2 == rows).all() and (c2 == cols).all()
        assert (p2 == payoff).all() and (l2 == loop).all()
        r3, c3, p3, l3 = merged.matrix(y, cn, cs, values)
        pick_r, pick_c = np.searchsorted(rows, r3), np.searchsorted(cols, c3)
        assert (p3 == payoff[np.ix_(pick_r, pick_c)]).all()
        assert (l3 == loop[np.ix_(pick_r, pick_c)]).all()
        assert solve_zero_sum(p3).value == pytest.approx(solve_zero_sum(payoff).value, abs=1e-9)


def test_compiled_loop_solve_matches_solve_with_loop():
    rng = np.random.default_rng(8)
    for k in range(200):
        m, n = rng.integers(1, 9, size=2)
        payoff = rng.uniform(-1, 1, size=(m, n)).round(1 if k % 2 else 6)
        loop = rng.random((m, n)) < 0.25
        payoff[loop] = 0.0
        fast, plain = solve_with_loop_small(payoff, loop), solve_with_loop(payoff, loop)
        # both brackets hold the state's value: they meet, and each value lies in both
        # (within the LPs' noise, 1e-12)
        assert max(fast.low, plain.low) <= min(fast.high, plain.high) + 1e-12
        assert plain.low - 1e-12 <= fast.value <= plain.high + 1e-12
        if max(fast.residual, plain.residual) <= 1e-9:
            assert fast.value == pytest.approx(plain.value, abs=1e-9)
        for p in (fast.row, fast.column):
            assert p.min() >= 0 and p.sum() == pytest.approx(1.0, abs=1e-12)


def test_warm_start_changes_no_value():
    """The first matrix game's double oracle may start from any supports (a
    neighbouring state's): the fixed point is the same."""
    rng = np.random.default_rng(21)
    for k in range(60):
        m, n = rng.integers(21, 45, size=2)  # past 400 entries: the double oracle
        payoff = rng.uniform(-1, 1, size=(m, n)).round(1 if k % 2 else 6)
        loop = np.zeros((m, n), dtype=bool)
        loop[0, 0] = True
        payoff[0, 0] = 0.0
        warm = (rng.random(m) < 0.3) * 1.0, (rng.random(n) < 0.3) * 1.0
        cold, hot = solve_with_loop_small(payoff, loop), solve_with_loop_small(payoff, loop,
                                                                               warm=warm)
        assert hot.value == pytest.approx(cold.value, abs=1e-12)
        assert hot.residual <= 1e-9 and hot.gap <= 1e-11


def test_kept_tableau_loop_solve_matches_the_solver_before():
    """The fixed point found with the double oracle on a kept tableau is the one the
    oracle that re-solves each restricted game finds (within the fixed-point
    tolerance), on stage games past 400 entries with a loop at (abstain, abstain)."""
    rng = np.random.default_rng(44)
    for k in range(40):
        m, n = rng.integers(21, 70, size=2)
        payoff = rng.uniform(-1, 1, size=(m, n)).round(1 if k % 2 else 6)
        loop = np.zeros((m, n), dtype=bool)
        loop[0, 0] = True
        payoff[0, 0] = 0.0
        kept = solve_with_loop_small(payoff, loop)
        before = solve_with_loop_small(payoff, loop, kept=False)
        plain = solve_with_loop(payoff, loop)
        assert kept.value == pytest.approx(before.value, abs=1e-10)
        assert kept.value == pytest.approx(plain.value, abs=1e-9)
        assert kept.residual <= 1e-9 and kept.gap <= 1e-11
        for p in (kept.row, kept.column):
            assert p.min() >= 0 and p.sum() == pytest.approx(1.0, abs=1e-12)


def test_regret_matching_shows_a_bar_only_when_asked(capsys):
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    shown = regret_matching([rps, -rps], 3000, progress=True)
    bar = capsys.readouterr().err
    assert "regret matching" in bar and "3.00k/3.00k" in bar, bar
    hidden = regret_matching([rps, -rps], 3000, progress=False)
    assert capsys.readouterr().err == ""
    pairs = zip(shown.strategies, hidden.strategies, strict=True)
    assert all(np.array_equal(a, b) for a, b in pairs)
    with pytest.raises(TypeError, match="progress"):
        regret_matching([rps, -rps], 10, progress="yes")


def _reply_by_iteration(gain, stay, worst, rounds=20_000):
    """The opponent's best reply to a fixed mixed strategy by value iteration over every
    policy, stationary or not: w_{k+1} = worst_j (gain_j + stay_j w_k) from w_0 = 0 (a
    game still looping after k rounds scores the draw, 0). The sequence is monotone
    from w_0 = 0, so it ends once a round leaves it unchanged."""
    w = 0.0
    for _ in range(rounds):
        w, previous = worst(gain + stay * w), w
        if w == previous:
            break
    return float(w)


def _random_loop_game(rng, m, n, share=0.4):
    payoff = rng.uniform(-1, 1, size=(m, n)).round(3)
    loop = rng.random((m, n)) < share
    payoff[loop] = 0.0
    return payoff, loop


def _random_strategy(rng, k):
    """A mixed strategy, often with zeros (so that some replies may loop for ever)."""
    p = rng.dirichlet(np.ones(k)) * (rng.random(k) < 0.7)
    if p.sum() == 0.0:
        p[rng.integers(k)] = 1.0
    return p / p.sum()


def test_reply_range_against_value_iteration_over_every_policy():
    """Each side's guarantee against the best reply among every policy of the other
    (value iteration over the one-state decision problem, which does not assume a
    stationary reply, nor the ratio formula): replies that loop for ever count 0."""
    rng = np.random.default_rng(20)
    looping = 0
    for _ in range(150):
        m, n = rng.integers(1, 6, size=2)
        payoff, loop = _random_loop_game(rng, m, n)
        x, y = _random_strategy(rng, m), _random_strategy(rng, n)
        rest = np.where(loop, 0.0, payoff)
        stay_j, stay_i = x @ loop, loop @ y
        if max(stay_j[stay_j < 1 - 1e-12], default=0) > 0.99 or \
                max(stay_i[stay_i < 1 - 1e-12], default=0) > 0.99:  # fmt: skip
            continue  # iteration too slow to be a reference there
        looping += int((stay_j > 1 - 1e-12).any() or (stay_i > 1 - 1e-12).any())
        low, high = reply_range(payoff, loop, x, y)
        # the iteration's rounding grows by up to 1 / (1 - stay) = 100 rounds' worth
        assert low == pytest.approx(_reply_by_iteration(x @ rest, stay_j, np.min), abs=1e-11)
        assert high == pytest.approx(_reply_by_iteration(rest @ y, stay_i, np.max), abs=1e-11)
    assert looping >= 20  # the draw of a reply that loops for ever is exercised


def test_reply_range_keeps_a_small_chance_of_leaving():
    """Against S's order 0, N's strategy below loops unless it plays row 1 (chance
    3e-10), which pays -0.4: the guarantee is exactly -0.4. Taken as 1 - x L_j, the
    chance of leaving would keep only its first seven digits (-0.39999997)."""
    payoff = np.array([[0.0, 0.7], [-0.4, 0.2]])
    loop = np.array([[True, False], [False, False]])
    x = np.array([1.0 - 3e-10, 3e-10])
    low, high = reply_range(payoff, loop, x, [0.25, 0.75])
    assert low == pytest.approx(-0.4, rel=1e-14)
    assert abs((x[1] * -0.4) / (1.0 - x @ loop[:, 0]) - -0.4) > 1e-9  # the rounding avoided
    assert high == pytest.approx(0.7, rel=1e-14)  # row 0: 0.7 x 0.75 over 0.75


def test_reply_range_refuses_what_is_not_a_state():
    payoff, loop = np.zeros((2, 2)), np.zeros((2, 2), dtype=bool)
    with pytest.raises(ValueError, match="loop must be a boolean array"):
        reply_range(payoff, np.zeros((2, 3), dtype=bool), [0.5, 0.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="row must be non-negative and sum to 1"):
        reply_range(payoff, loop, [0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="payoff must be a 2-D array"):
        reply_range(np.zeros(3), loop, [0.5, 0.5], [0.5, 0.5])


@pytest.mark.parametrize(("solve", "precision"), [(solve_with_loop, 1e-9),
                                                  (solve_with_loop_small, BRACKET)])
def test_the_bracket_holds_the_value_and_is_certified(solve, precision):
    """Each state's bracket [low, high] is the exact guarantee of the strategies
    returned (:func:`reply_range`), holds the value Shapley's iteration from 0 reaches
    and the value returned, and is at most BRACKET wide relative to the payoffs
    (HiGHS's strategies, within its feasibility tolerance of 1e-10, reach 1e-9), except
    where a strategy needs a weight near the 1e-9 below which weights are dropped
    (the value is then approached, not reached)."""
    rng = np.random.default_rng(7)
    floor = 0
    for k in range(60):
        m, n = rng.integers(2, 6, size=2)
        payoff, loop = _random_loop_game(rng, m, n, 0.3)
        out = solve(payoff, loop)
        assert (out.low, out.high) == pytest.approx(
            reply_range(payoff, loop, out.row, out.column), abs=1e-15)
        assert out.low - 1e-15 <= out.value <= out.high + 1e-15
        assert out.low - 1e-9 <= _iterate(payoff, loop) <= out.high + 1e-9, k
        smallest = min(out.row[out.row > 0].min(), out.column[out.column > 0].min())
        scale = np.abs(payoff).max()
        if smallest < 1e-8:
            floor += 1
        else:
            assert out.residual <= precision * scale, k
    assert floor <= 15


def test_the_favoured_side_ends_the_game():
    """Where the bracket lies above 0 (N favoured), N's strategy leaves the state
    with positive chance against every reply of S, so S cannot hold it to a draw; and
    symmetrically for S below 0. A strategy optimal in the matrix game at the value
    itself may fail it: below, N's bid earns 0.5 whatever S does (value 0.5), and at
    v = 0.5 abstaining for good earns 0.5 too, yet guarantees only the draw."""
    payoff = np.array([[0.0, 0.5], [0.5, 0.5]])
    loop = np.array([[True, False], [False, False]])
    abstain = np.array([1.0, 0.0])
    assert (abstain @ (payoff + loop * 0.5)).min() == 0.5
    assert reply_range(payoff, loop, abstain, [1.0, 0.0])[0] == 0.0
    out = solve_with_loop(payoff, loop)
    assert out.low == out.high == out.value == 0.5
    assert (out.row @ ~loop > 0).all()
    rng = np.random.default_rng(11)
    favoured = 0
    for _ in range(80):
        m, n = rng.integers(2, 6, size=2)
        payoff, loop = _random_loop_game(rng, m, n, 0.35)
        for solve in (solve_with_loop, solve_with_loop_small):
            out = solve(payoff, loop)
            if out.low > 0:
                assert (out.row @ ~loop > 0).all()
                favoured += 1
            if out.high < 0:
                assert (~loop @ out.column > 0).all()
                favoured += 1
    assert favoured >= 60
