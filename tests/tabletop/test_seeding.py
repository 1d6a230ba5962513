import tracemalloc

import numpy as np
import pytest

from tabletop.seeding import (
    as_generator,
    as_seed_sequence,
    check_count,
    chunk_seeds,
    copy_seed_sequence,
)


def test_seed_forms():
    assert as_seed_sequence(0).entropy == 0  # seed 0 is a seed, not "no seed"
    ss = np.random.SeedSequence(5)
    assert as_seed_sequence(ss).state == ss.state  # the same state, in a copy of its own
    gen = np.random.default_rng(1)
    assert as_generator(gen) is gen
    a = as_generator(3).integers(1 << 30, size=4)
    b = as_generator(3).integers(1 << 30, size=4)
    assert np.array_equal(a, b)
    assert as_seed_sequence(None).entropy != as_seed_sequence(None).entropy


def test_generator_seed_is_reproducible():
    x = as_seed_sequence(np.random.default_rng(9)).generate_state(2)
    y = as_seed_sequence(np.random.default_rng(9)).generate_state(2)
    assert np.array_equal(x, y)


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (1.5, TypeError),
                                             (True, TypeError), ("7", TypeError)])  # fmt: skip
def test_bad_seeds(seed, error):
    with pytest.raises(error, match="seed"):
        as_seed_sequence(seed)


@pytest.mark.parametrize("seed", [0, 2026, 2**63 + 5])
def test_chunk_seeds_do_not_repeat(seed):
    # two equal chunk seeds would give two chunks the same stream; independent 32-bit
    # draws would repeat about 116 times among a million, SeedSequence's children do not
    out = chunk_seeds(seed, 1_000_000)
    assert np.unique(out).size == out.size


def test_chunk_seeds_prefix_and_spread():
    a = chunk_seeds(7, 100)
    assert a.dtype == np.uint32
    assert np.array_equal(a[:10], chunk_seeds(7, 10))
    assert len(set(a.tolist())) == 100
    assert not np.array_equal(a, chunk_seeds(8, 100))


def test_check_count():
    assert check_count("n", 3) == 3
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        check_count("n", 0, minimum=1)
    with pytest.raises(TypeError, match="n must be an int"):
        check_count("n", 1.0)


def _spawned(seq: np.random.SeedSequence, n: int) -> np.ndarray:
    """What chunk_seeds promises: the first word of each of ``seq``'s next ``n`` children."""
    children = copy_seed_sequence(seq).spawn(n)
    return np.array([c.generate_state(1, np.uint32)[0] for c in children], dtype=np.uint32)


def test_a_seed_sequence_passed_twice_gives_the_same_numbers():
    seq = np.random.SeedSequence(12)
    first = chunk_seeds(seq, 5)
    assert np.array_equal(chunk_seeds(seq, 5), first)
    assert seq.n_children_spawned == 0  # the caller's object is left as it was
    copy = as_seed_sequence(seq)
    assert copy is not seq and copy.state == seq.state
    copy.spawn(3)
    assert seq.n_children_spawned == 0
    # a sequence the caller spawned from goes on where its own next spawn would
    seq.spawn(2)
    assert np.array_equal(chunk_seeds(seq, 3), first[2:5])
    assert np.array_equal(chunk_seeds(seq, 3), chunk_seeds(seq, 3))


@pytest.mark.parametrize(
    "seq",
    [
        np.random.SeedSequence(0),
        np.random.SeedSequence(7),
        np.random.SeedSequence(2**100 + 5),
        np.random.SeedSequence([1, 2, 3, 4, 5, 6]),
        np.random.SeedSequence(np.array([5, 6], dtype=np.uint32)),
        np.random.SeedSequence(np.array([5, 2**40], dtype=np.int64)),
        np.random.SeedSequence(5, spawn_key=(3,)),
        np.random.SeedSequence(5, spawn_key=(3, 2**40)),
        np.random.SeedSequence(9, pool_size=8),
        np.random.SeedSequence(9, spawn_key=(1,), n_children_spawned=2**20),
        np.random.SeedSequence(9, n_children_spawned=2**32 - 40),
        # OS entropy, under a fixed id: every test worker collects the same tests
        pytest.param(np.random.SeedSequence(), id="os-entropy"),
    ],
    ids=repr,
)
def test_chunk_seeds_equal_the_spawned_children(seq):
    assert np.array_equal(chunk_seeds(seq, 37), _spawned(seq, 37))


def test_chunk_seeds_equal_spawn_across_blocks(monkeypatch):
    import tabletop.seeding as seeding

    monkeypatch.setattr(seeding, "_BLOCK", 16)  # several blocks, the last one partial
    assert np.array_equal(chunk_seeds(21, 100), _spawned(np.random.SeedSequence(21), 100))


def test_chunk_seeds_beyond_what_a_seed_sequence_counts():
    seq = np.random.SeedSequence(9, n_children_spawned=2**32 - 40)
    assert len(chunk_seeds(seq, 40)) == 40
    with pytest.raises(ValueError, match=r"n_chunks must be at most 40 .* got 41: use bigger"):
        chunk_seeds(seq, 41)
    assert chunk_seeds(seq, 0).shape == (0,)


def test_chunk_seeds_for_ten_billion_games_are_small_and_fast():
    # 10**10 games in chunks of 1024: 9.8 million chunks. Spawning them built one
    # SeedSequence each (470 MB and about 20 s per million); now 4 bytes per chunk.
    n_chunks = -(-(10**10) // 1024)
    tracemalloc.start()
    try:
        seeds = chunk_seeds(3, n_chunks)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seeds.shape == (n_chunks,) and seeds.dtype == np.uint32
    assert peak < seeds.nbytes + 64 * 2**20
    assert np.array_equal(seeds[:50], _spawned(np.random.SeedSequence(3), 50))
    tail = np.random.SeedSequence(3, n_children_spawned=n_chunks - 5)
    assert np.array_equal(seeds[-5:], _spawned(tail, 5))


def _panache(seed):
    from panache import Agent, Rules, simulate_games

    res = simulate_games(Rules(), [Agent.heuristic(), Agent.random()], 300, seed=seed,
                         chunk_size=64)  # fmt: skip
    return res.winners


def _citadel(seed):
    from citadel import Rules, simulate_games

    res = simulate_games(Rules(), "random", 300, seed=seed, chunk_size=64)
    return np.concatenate([res.scores.ravel(), res.rounds.ravel()])


def _samarra(seed):
    from samarra import Rules, play_games
    from samarra.agents import RandomAgent

    games = play_games(Rules(length=3), RandomAgent(), RandomAgent(), 5, seed=seed)
    return games["actions"].to_numpy()


def _commander(seed):
    from commander import Rules, load_cards, load_decks, simulate_economy

    rules = Rules()
    cards = load_cards(None, rules)
    decks = list(load_decks(None, cards).values())[: rules.n_players]
    res = simulate_economy(rules, decks, cards, n=200, seed=seed, record=False,
                           chunk_size=32)  # fmt: skip
    return np.concatenate([res.win_round, res.win_seat])


@pytest.mark.parametrize("simulate", [_panache, _citadel, _samarra, _commander],
                         ids=["panache", "citadel", "samarra", "commander"])  # fmt: skip
def test_every_game_gives_the_same_numbers_for_the_same_seed_sequence(simulate):
    seq = np.random.SeedSequence(2024)
    first = simulate(seq)
    again = simulate(seq)
    assert np.array_equal(first, again)
    assert np.array_equal(first, simulate(np.random.SeedSequence(2024)))
    assert seq.n_children_spawned == 0
