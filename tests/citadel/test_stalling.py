"""Stalling under optimal play (citadel.stalling) against an absorbing Markov chain
built separately and against Monte Carlo play of the solved strategies."""

import numpy as np
import pytest

from citadel import Rules, solve_duel_game, solve_sides
from citadel.resolve import resolve_reference
from citadel.stalling import _chain, _Walk, stall_odds, stalling, won_within
from citadel.whole_game import check_solution
from tabletop.seeding import as_generator

DUELS = [
    Rules(n_players=2, radius=1, capital=8, bid_step=2),
    Rules(n_players=2, radius=1, capital=8, bid_step=2, min_bid=2),
    Rules(n_players=2, radius=2, capital=10, bid_step=2, min_bid=3, payment="winners"),
    Rules(n_players=2, radius=1, capital=6, bid_step=2, resolution="basic"),
]


def duel_chain(sol):
    """The solution's Markov chain over (y, capital N, capital S), written out as a
    matrix with the plain reference resolution, then solved as an absorbing chain
    (Kemeny and Snell): a state the strategies repeat for sure is absorbing (a draw),
    as are N's and S's wins. Returns dicts state -> (P(N wins), P(S wins), rounds)."""
    states, at, Q, R, stalled = duel_matrices(sol)
    n = len(states)
    Q[stalled] = 0.0  # absorbing: no more rounds, no score
    fundamental = np.linalg.inv(np.eye(n) - Q)
    wins = fundamental @ R
    rounds = fundamental @ (~stalled).astype(float)
    return {s: (wins[at[s], 0], wins[at[s], 1], rounds[at[s]]) for s in states}


def duel_matrices(sol):
    """The chain of :func:`duel_chain` before solving: the states, their positions, the
    transition matrix Q between unfinished states, the matrix R of one-round wins (N's,
    S's) and the states stalled for good (Q's diagonal 1)."""
    rules, space = sol.rules, sol.space
    r = rules.radius
    states = [(y, int(a), int(b)) for y in range(-r, r + 1)
              for a in space.levels for b in space.levels]  # fmt: skip
    at = {s: i for i, s in enumerate(states)}
    n = len(states)
    Q = np.zeros((n, n))
    R = np.zeros((n, 2))  # to N's win, to S's win
    for s in states:
        y, cn, cs = s
        acts_n, probs_n = sol.row[s]
        acts_s, probs_s = sol.column[s]
        for i, pi in zip(acts_n, probs_n, strict=True):
            for j, pj in zip(acts_s, probs_s, strict=True):
                res = resolve_reference(
                    [int(space.amounts[0][i]), int(space.amounts[1][j])],
                    [int(space.dirs[0][i]), int(space.dirs[1][j])], rules.resolution,
                    rules.payment)  # fmt: skip
                y2 = y + res.step[1]
                if y2 > r:
                    R[at[s], 0] += pi * pj
                elif y2 < -r:
                    R[at[s], 1] += pi * pj
                else:
                    nxt = (y2, max(cn - res.pays[0] - res.fee[0], 0),
                           max(cs - res.pays[1] - res.fee[1], 0))  # fmt: skip
                    Q[at[s], at[nxt]] += pi * pj
    stalled = np.isclose(np.diag(Q), 1.0, rtol=0, atol=1e-12)
    return states, at, Q, R, stalled


@pytest.mark.parametrize("rules", DUELS, ids=lambda r: f"r{r.radius}c{r.capital}m{r.min_bid}"
                                                      f"{r.payment}{r.resolution}")  # fmt: skip
def test_duel_chain_matches_the_absorbing_chain(rules):
    sol = solve_duel_game(rules)
    walk = _Walk(sol)
    p_a, p_b, rounds = _chain(walk)
    reference = duel_chain(sol)
    draws = []
    for key, (a, b, t) in reference.items():
        here = walk.index(key)
        assert p_a[here] == pytest.approx(a, abs=1e-9), key
        assert p_b[here] == pytest.approx(b, abs=1e-9), key
        assert rounds[here] == pytest.approx(t, rel=1e-9, abs=1e-9), key
        draws.append(1 - a - b)
    odds = stall_odds(sol)
    check = check_solution(sol, "axis")  # the whole-game check's own sweep
    assert odds.draw == pytest.approx(check.p_draw, abs=1e-9)
    assert odds.score_a == pytest.approx(check.p_n, abs=1e-9)
    assert odds.value == pytest.approx(sol.value(), abs=0)
    # the chain has states that stall for good and states won for sure
    assert max(draws) > 0.5 and min(draws) < 1e-9


def test_sides_chain_matches_the_sides_check():
    from citadel.sides import check_sides

    for kwargs, side in [({"min_bid": 5}, "NE"), ({}, "N"), ({"min_bid": 10, "payment": "winners"},
                                                              "NS")]:  # fmt: skip
        sol = solve_sides(Rules(radius=1, capital=10, bid_step=5, **kwargs), side)
        odds, chk = stall_odds(sol), check_sides(sol)
        assert odds.score_a == pytest.approx(chk.score_a, abs=1e-9)
        assert odds.score_b == pytest.approx(chk.score_b, abs=1e-9)
        assert odds.draw == pytest.approx(chk.p_draw, abs=1e-9)


def play_duel(sol, n, seed, patience=60):
    """Monte Carlo of the solved strategies with the reference resolution: per game,
    N's win, S's win, and the rounds until it is won or the state has not changed
    for ``patience`` rounds (counted up to its last change)."""
    rules, space = sol.rules, sol.space
    rng = as_generator(seed)
    out = np.zeros((n, 3))
    for g in range(n):
        y, cn, cs = 0, rules.capital, rules.capital
        played = last_change = 0
        while played - last_change < patience:
            played += 1
            (ai, pi), (aj, pj) = sol.row[(y, cn, cs)], sol.column[(y, cn, cs)]
            i, j = ai[rng.choice(len(ai), p=pi)], aj[rng.choice(len(aj), p=pj)]
            res = resolve_reference([int(space.amounts[0][i]), int(space.amounts[1][j])],
                                    [int(space.dirs[0][i]), int(space.dirs[1][j])],
                                    rules.resolution, rules.payment)  # fmt: skip
            nxt = (y + res.step[1], max(cn - res.pays[0] - res.fee[0], 0),
                   max(cs - res.pays[1] - res.fee[1], 0))  # fmt: skip
            if nxt != (y, cn, cs):
                last_change = played
            y, cn, cs = nxt
            if abs(y) > rules.radius:
                break
        out[g] = (y > rules.radius, y < -rules.radius, last_change)
    return out


@pytest.mark.slow
def test_duel_odds_match_monte_carlo():
    rules = Rules(n_players=2, radius=2, capital=10, bid_step=2, min_bid=3, payment="winners")
    sol = solve_duel_game(rules)
    games = play_duel(sol, 4000, seed=11)
    exact = stall_odds(sol)
    for column, target in ((0, exact.score_a), (1, exact.score_b), (2, exact.rounds)):
        mean = games[:, column].mean()
        se = games[:, column].std(ddof=1) / np.sqrt(len(games))
        assert abs(mean - target) <= 4 * se + 1e-12, (column, mean, target, se)


def test_stalling_table_and_min_bid_rows():
    table = stalling(Rules(radius=1, capital=10, bid_step=5), min_bids=(0, 1, 5), sides=("NE",))
    assert list(table.index.get_level_values("game").unique()) == ["duel N vs S",
                                                                    "sides NE vs SW"]
    # min_bid 1 on a grid of 5 is min_bid 5: the same solve
    for game in ("duel N vs S", "sides NE vs SW"):
        assert table.loc[(game, 1)].drop("smallest_bid").equals(
            table.loc[(game, 5)].drop("smallest_bid"))  # fmt: skip
    assert (table["score_a"] + table["score_b"] + table["draw"]).round(12).eq(1).all()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"min_bids": 5}, TypeError, "min_bids must be a sequence"),
        ({"min_bids": [-1]}, ValueError, "min_bids must be"),
        ({"duel": "yes"}, TypeError, "duel must be True or False"),
        ({"objective": "win"}, ValueError, "objective must be one of"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        stalling(Rules(radius=1, capital=10, bid_step=5), **kwargs)
    with pytest.raises(TypeError, match="sol must be a DuelGameSolution"):
        stall_odds("solution")


@pytest.mark.slow
def test_sides_draw_chance_matches_monte_carlo():
    """N + E against S + W with 20 points a seat: the solved play is drawn about half
    the time. simulate_sides plays the solution's orders with the reference resolution
    (not the solve's tables); a game with no winner after 40 rounds counts as drawn
    (the exact figure counts games stalled for good; both sides' strategies leave a
    state that is not stalled within a few rounds, so the two agree within the
    sampling error unless one is wrong)."""
    from citadel.sides import simulate_sides

    sol = solve_sides(Rules(radius=1, capital=20, bid_step=5), "NE")
    odds = stall_odds(sol)
    assert 0.1 < odds.draw < 0.9  # a case where the draw chance is neither 0 nor 1
    played = simulate_sides(sol, 3000, seed=23, max_rounds=40)
    drawn = ((played["score_a"] + played["score_b"]) == 0).to_numpy(dtype=float)
    for samples, target in ((played["score_a"].to_numpy(), odds.score_a),
                            (played["score_b"].to_numpy(), odds.score_b), (drawn, odds.draw)):
        mean = samples.mean()
        se = samples.std(ddof=1) / np.sqrt(samples.size)
        assert abs(mean - target) <= 4 * se, (mean, target, se)


@pytest.mark.parametrize("rules", DUELS[:3], ids=lambda r: f"r{r.radius}c{r.capital}m{r.min_bid}")
def test_won_within_matches_the_matrix_powers(rules):
    """Wins within k rounds from the start: sum over t < k of Q^t R, with the chain
    written out by the reference resolution; past every game's end, stall_odds'."""
    sol = solve_duel_game(rules)
    states, at, Q, R, _ = duel_matrices(sol)
    start = at[(0, rules.capital, rules.capital)]
    reached = np.zeros(len(states))
    reached[start] = 1.0
    wins = np.zeros(2)
    for k in range(12):
        assert won_within(sol, k) == pytest.approx(tuple(wins), abs=1e-12), k
        wins = wins + reached @ R
        reached = reached @ Q
    odds = stall_odds(sol)
    a, b = won_within(sol, 2000)
    assert a == pytest.approx(odds.score_a, abs=1e-9)
    assert b == pytest.approx(odds.score_b, abs=1e-9)


@pytest.mark.slow
def test_won_within_matches_simulated_sides_games():
    """simulate_sides with max_rounds k against won_within(sol, k): the same event."""
    from citadel.sides import simulate_sides

    sol = solve_sides(Rules(radius=1, capital=20, bid_step=5), "NE")
    for k in (2, 6):
        a, b = won_within(sol, k)
        played = simulate_sides(sol, 3000, seed=29 + k, max_rounds=k)
        for samples, target in ((played["score_a"].to_numpy(), a),
                                (played["score_b"].to_numpy(), b)):
            se = samples.std(ddof=1) / np.sqrt(samples.size)
            assert abs(samples.mean() - target) <= 4 * se, (k, samples.mean(), target, se)


def test_won_within_bad_arguments():
    sol = solve_duel_game(DUELS[0])
    with pytest.raises(ValueError, match="rounds"):
        won_within(sol, -1)
    with pytest.raises(TypeError, match="sol must be a DuelGameSolution"):
        won_within("solution", 3)
