"""The numba game simulator: against the plain game loop, against exact odds, seeds."""

import numba
import numpy as np
import pytest

from citadel import AGENTS, Rules, agent, play_game
from citadel.simulate import seat_balance, simulate_games
from tabletop.stats import chi_square_test, estimate_mean
from tests.citadel.brute import random_vs_random_two_players
from tests.conftest import P_FLOOR, Z_TOL

DETERMINISTIC = [a for a in AGENTS if a != "random"]


def test_kernel_plays_the_reference_game():
    """Deterministic agents: the kernel and play_game agree game by game, on many rules."""
    rng = np.random.default_rng(11)
    for _ in range(150):
        rules = Rules(
            radius=int(rng.integers(1, 5)),
            n_players=int(rng.integers(2, 5)),
            capital=int(rng.integers(1, 120)),
            payment=str(rng.choice(["all", "winners"])),
            resolution=str(rng.choice(["basic", "variant"])),
            bid_step=int(rng.choice([1, 2, 5])),
            min_bid=int(rng.choice([0, 0, 1, 3])),
            max_rounds=int(rng.integers(1, 60)),
        )
        names = [str(a) for a in rng.choice(DETERMINISTIC, size=rules.n_players)]
        ref = play_game(rules, [agent(a) for a in names])
        sim = simulate_games(rules, names, 1, seed=0)
        assert sim.rounds[0] == ref.rounds, (rules, names)
        assert tuple(sim.scores[0]) == ref.scores
        assert tuple(sim.capitals[0]) == ref.final.capitals
        assert tuple(sim.pawn[0]) == ref.final.pawn


@pytest.mark.parametrize(
    ("knobs", "n"),
    [
        ({"n_players": 2, "radius": 1, "capital": 2}, 40_000),
        ({"n_players": 2, "radius": 1, "capital": 3, "payment": "winners"}, 40_000),
        ({"n_players": 2, "radius": 2, "capital": 3, "resolution": "basic", "min_bid": 1}, 40_000),
    ],
)
def test_random_agents_match_exact_odds(knobs, n):
    rules = Rules(**knobs)
    exact_n, exact_s = random_vs_random_two_players(rules)
    games = simulate_games(rules, "random", n, seed=5)
    assert estimate_mean(games.scores[:, 0]).z_score(exact_n) == pytest.approx(0, abs=Z_TOL)
    assert estimate_mean(games.scores[:, 1]).z_score(exact_s) == pytest.approx(0, abs=Z_TOL)
    # and the two seats are mirror images, so their exact odds agree
    assert exact_n == pytest.approx(exact_s, rel=1e-12)


def test_random_agent_draws_uniform_legal_amounts():
    """One round of a random N against an abstaining S: the amount is uniform on 0..3."""
    rules = Rules(n_players=2, radius=5, capital=3, max_rounds=1)
    games = simulate_games(rules, ["random", "saver"], 40_000, seed=8)
    spent = 3 - games.capitals[:, 0]
    observed = np.bincount(spent, minlength=4)
    assert chi_square_test(observed, np.full(4, 0.25)) > P_FLOOR


def test_seats_are_balanced_under_rotation():
    """Four random agents: the rules are invariant under a quarter turn, so every seat
    wins equally often."""
    out = seat_balance(Rules(), "random", 40_000, seed=2)
    assert out["p (seats equal)"] > P_FLOOR


def test_a_shorter_run_is_a_prefix_of_a_longer_one():
    rules = Rules(radius=2, capital=20)
    many = simulate_games(rules, "random", 5000, seed=4, chunk_size=512)
    again = simulate_games(rules, "random", 3000, seed=4, chunk_size=512)
    np.testing.assert_array_equal(again.rounds, many.rounds[:3000])
    np.testing.assert_array_equal(again.scores, many.scores[:3000])


def test_summary_and_validation():
    games = simulate_games(Rules(), ["ally_cw", "ally_ccw", "straight", "straight"], 10, seed=0)
    frame = games.summary()
    assert list(frame.index) == ["N", "E", "S", "W", "draw"]
    assert frame.loc["N", "mean"] == 0.5 and frame.loc["draw", "mean"] == 0
    with pytest.raises(ValueError, match=r"seat E \(#1\): unknown agent"):
        simulate_games(Rules(), ["straight", "bold", "saver", "saver"], 1)
    with pytest.raises(ValueError, match="need 4 agents"):
        simulate_games(Rules(), ["straight"], 1)
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        simulate_games(Rules(), ["straight"] * 4, 0)


def test_games_size_is_the_peak_memory_and_huge_runs_are_refused_at_once():
    from citadel.simulate import games_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    simulate_games(Rules(), "random", 10, seed=1)
    peak = peak_bytes(lambda: simulate_games(Rules(), "random", 100_000, seed=1))
    assert_estimate(games_size(4, 100_000), peak)
    refused_at_once(lambda: simulate_games(Rules(), "random", 10**13, seed=1), "n=10000000000000")


@pytest.mark.parametrize("budget", [1, 7, 10**9])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("rules", "agents"), [
    (Rules(radius=2, capital=20), ["random"] * 4),
    (Rules(n_players=2, radius=3, capital=30), ["random", "saver"]),  # games of ~170 rounds
    (Rules(radius=2, capital=20, max_rounds=50, min_bid=1),
     ["counter", "random", "ally_cw", "saver"]),
    (Rules(n_players=3, capital=3, min_bid=5), ["random"] * 3),  # no game is played
])  # fmt: skip
def test_games_stopped_after_any_round_are_the_games_of_one_call(monkeypatch, rules, agents,
                                                                 budget, threads):  # fmt: skip
    """The chunks stopped every ``budget`` rounds (generator state saved and loaded
    back) play the games of the kernel that plays each chunk in one go."""
    import citadel.simulate as module
    from citadel._kernels import simulate_games_kernel
    from tabletop.seeding import chunk_seeds

    n, chunk = 700, 64
    kinds = np.array([AGENTS.index(a) for a in agents], dtype=np.int64)
    whole = simulate_games_kernel(chunk_seeds(5, -(-n // chunk)), chunk, n, kinds,
                                  **module.kernel_arguments(rules))  # fmt: skip
    monkeypatch.setattr(module, "FIRST_BUDGET", budget)
    monkeypatch.setattr(module, "_next_budget", lambda b, spent: budget)
    saved = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        got = simulate_games(rules, agents, n, seed=5, chunk_size=chunk)
    finally:
        numba.set_num_threads(saved)
    for a, b in zip((got.scores, got.rounds, got.capitals, got.pawn), whole, strict=True):
        assert np.array_equal(a, b)
