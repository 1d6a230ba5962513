import numpy as np
import pytest

from commander import Rules
from commander.cards import load_cards, load_decks
from commander.economy import (
    Strategy,
    economy_curves,
    seat_advantage,
    simulate_economy,
    strategy_wins,
    win_turns,
)
from commander.race import solve_race

CARDS = load_cards()
DECKS = load_decks(cards=CARDS)
FOUR = [DECKS[k] for k in ("spanish_sample", "ghost_sample", "brethren_sample", "english_sample")]
PASSIVE = Strategy(buy_max_rate=0, hire_target=0, raid_margin=float("inf"))


def test_a_shorter_run_is_a_prefix_of_a_longer_one():
    rules = Rules(n_players=4)
    a = simulate_economy(rules, FOUR, CARDS, n=600, seed=5, chunk_size=100, record=True)
    c = simulate_economy(rules, FOUR, CARDS, n=300, seed=5, chunk_size=100, record=True)
    assert np.array_equal(a.win_round[:300], c.win_round)  # a prefix of the same chunks
    assert np.array_equal(a.gold[:300], c.gold)


def test_gold_is_conserved_in_every_game_and_round():
    rules = Rules(n_players=3)
    res = simulate_economy(rules, FOUR[:3], CARDS, n=500, seed=1, record=True)
    assert (res.gold.sum(axis=2) + res.stock == rules.total_gold).all()
    assert (res.doublons >= 0).all() and (res.gold >= 0).all()


def test_win_gold_1_first_seat_wins_round_2():
    # seat 0 buys a gold in round 1 (stock 10, rate 2, 5 + lair doublons) and starts
    # round 2 with it: it wins every game at round 2, whoever sits there
    rules = Rules(win_gold=1)
    res = simulate_economy(rules, FOUR[:2], CARDS, n=200, seed=3)
    assert (res.win_seat == 0).all() and (res.win_round == 2).all()
    assert set(res.win_player) == {0, 1}  # seats rotate


def test_passive_player_never_wins():
    rules = Rules(n_players=2)
    res = simulate_economy(rules, FOUR[:2], CARDS, [Strategy(), PASSIVE], n=500, seed=2)
    assert (res.win_player != 1).all()
    shares = strategy_wins(res)
    assert shares.loc[1, "wins"] == 0
    assert shares["wins"].sum() == (res.win_round > 0).sum()


@pytest.mark.parametrize("sale", ["before", "after"])
def test_lone_buyer_is_no_faster_than_the_exact_race(sale):
    # a rival that never trades nor fights, a buyer with no crew: the buyer's income is
    # its lair's, and its greedy plan cannot beat the dynamic programme's optimum
    rules = Rules(n_players=2, sale_price=sale)
    deck = DECKS["spanish_sample"]
    lair_income = int(CARDS.cards.loc["lair_spanish_navy", "income"])
    buyer = Strategy(hire_target=0, raid_margin=float("inf"))
    res = simulate_economy(rules, [deck, deck], CARDS, [buyer, PASSIVE], n=50, seed=0,
                           rotate=False)
    best = solve_race(rules, 0, rules.start_doublons, rules.start_stock, income=lair_income)
    assert (res.win_seat == 0).all()
    assert (res.win_round >= best.win_turn).all()
    if sale == "after":
        # prices are path independent and nobody else trades: buying the most as soon
        # as possible is optimal, so the greedy buyer meets the optimum exactly
        assert (res.win_round == best.win_turn).all()
    else:
        # the band-edge loop (buy at 2 from 10, sell at 3 into 9) beats greedy buying
        assert best.win_turn < res.win_round.min() and min(best.plan) < 0


def test_summaries():
    rules = Rules(n_players=4)
    res = simulate_economy(rules, FOUR, CARDS, [Strategy(hire_target=2)] * 4, n=400, seed=4,
                           record=True)
    curves = economy_curves(res)
    assert curves.index.name == "round" and len(curves) == 60
    assert ("rate", "mean") in curves.columns and ("leader_gold", "q90") in curves.columns
    assert np.allclose(curves[("gold", "mean")].to_numpy(), res.gold.mean(axis=(0, 2)))
    running = curves[("running", "share")].to_numpy()
    assert running[0] == 1.0 and np.all(np.diff(running) <= 0)
    turns = win_turns(res)
    assert np.isclose(turns.sum(), 1.0)
    seats = seat_advantage(res)
    assert seats["wins"].sum() == (res.win_round > 0).sum()
    assert (seats["ci_low"] <= seats["share"]).all() and (seats["share"] <= seats["ci_high"]).all()


def test_trajectories_are_kept_only_on_request():
    res = simulate_economy(Rules(), FOUR[:2], CARDS, n=10, seed=0)
    assert res.gold is None and res.doublons is None and res.stock is None
    with pytest.raises(ValueError, match="record=True"):
        economy_curves(res)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": FOUR[:3]}, "one deck per player"),
        ({"strategies": [Strategy()]}, "one Strategy per player"),
        ({"strategies": [Strategy(), "greedy"]}, r"strategies\[1\] must be a Strategy"),
        ({"n": 0}, "n must be >= 1, got 0"),
        ({"n": 2.0}, r"n must be an int, got 2\.0 \(float\)"),
        ({"max_rounds": 0}, "max_rounds must be >= 1"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"rules": Rules(), "decks": FOUR[:2], "cards": CARDS, "n": 10, "seed": 0}
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=message):
        simulate_economy(**args)


def test_strategy_validation():
    with pytest.raises(ValueError, match="hire_target must be >= 0, got -1"):
        Strategy(hire_target=-1)
    with pytest.raises(TypeError, match="buy_max_rate must be an int, got 'low'"):
        Strategy(buy_max_rate="low")


def test_strategy_refuses_a_nan_margin_and_fractional_counts():
    # raid_margin=nan used to be taken, and silently meant "never raid"
    with pytest.raises(ValueError, match="raid_margin must be a finite number, got nan"):
        Strategy(raid_margin=float("nan"))
    with pytest.raises(TypeError, match=r"raid_margin must be a real number, got 'high' \(str\)"):
        Strategy(raid_margin="high")
    with pytest.raises(TypeError, match=r"hire_target must be an int, got 2.5 \(float\)"):
        Strategy(hire_target=2.5)
    with pytest.raises(TypeError, match=r"attach_reserve must be an int, got inf \(float\)"):
        Strategy(attach_reserve=float("inf"))
    assert Strategy(raid_margin=float("inf")).raid_margin == float("inf")
    assert Strategy(raid_margin=-np.inf).raid_margin == -float("inf")
    assert type(Strategy(hire_target=np.int64(2)).hire_target) is int
    assert type(Strategy(raid_margin=0).raid_margin) is float


def test_deck_without_lair_cannot_play():
    from commander.cards import Deck

    bad = Deck("x", (("smugglers_sailor", 10),))
    with pytest.raises(ValueError, match="exactly one lair"):
        simulate_economy(Rules(), [bad, FOUR[0]], CARDS, n=1)


def test_lazy_shuffles_have_the_law_of_full_shuffles():
    # the simulator shuffles piles as they are drawn; games from fully shuffled piles
    # (numpy permutations, played by the same kernel) must have the same law
    from scipy.stats import chi2_contingency

    from commander.economy import kernel_inputs, play_from_orders
    from commander.engine import random_orders
    from tests.conftest import P_FLOOR

    rules = Rules(n_players=3)
    strats = [Strategy(hire_target=2)] * 3
    n = 1500
    lazy = simulate_economy(rules, FOUR[:3], CARDS, strats, n=n, seed=8, record=False,
                            max_rounds=40)
    data = kernel_inputs(rules, FOUR[:3], CARDS, strats, max_rounds=40)
    rng = np.random.default_rng(9)
    eager = []
    for g in range(n):
        seats = np.array([(s + g) % 3 for s in range(3)])
        seat, rnd, *_ = play_from_orders(data, seats, *random_orders(data, seats, rng))
        eager.append((seat, rnd))
    eager = np.array(eager)
    bins = [0, 1, 12, 16, 20, 25, 41]  # round 0 (unfinished), then bands of rounds
    table = np.array([np.histogram(lazy.win_round, bins)[0],
                      np.histogram(eager[:, 1], bins)[0]])
    table = table[:, table.sum(axis=0) > 0]
    assert chi2_contingency(table).pvalue > P_FLOOR
    seats = np.array([np.bincount(lazy.win_seat + 1, minlength=4),
                      np.bincount(eager[:, 0] + 1, minlength=4)])
    assert chi2_contingency(seats[:, seats.sum(axis=0) > 0]).pvalue > P_FLOOR


def test_identical_players_make_seat_rotation_invisible():
    # with the same deck and strategy everywhere, who sits where cannot matter:
    # rotated and fixed seating play the very same games
    rules = Rules(n_players=3)
    same = [DECKS["ghost_sample"]] * 3
    a = simulate_economy(rules, same, CARDS, n=300, seed=12, rotate=True, record=True)
    b = simulate_economy(rules, same, CARDS, n=300, seed=12, rotate=False, record=True)
    assert np.array_equal(a.win_seat, b.win_seat) and np.array_equal(a.gold, b.gold)
    assert np.array_equal(a.doublons, b.doublons)


def test_seven_seas():
    rules = Rules(n_players=2, seven_seas=True)
    # all seven seas of the sample territories, in the order drawn, end the game
    res = simulate_economy(rules, FOUR[:2], CARDS, [Strategy(hire_target=3)] * 2, n=400,
                           seed=6, record=True)
    base = simulate_economy(Rules(n_players=2), FOUR[:2], CARDS, [Strategy(hire_target=3)] * 2,
                            n=400, seed=6)
    by_seas = (res.win_round > 0) & (res.gold[np.arange(400), res.win_round - 1,
                                              np.maximum(res.win_seat, 0)] < 10)
    assert by_seas.any()
    assert (res.win_round > 0).mean() >= (base.win_round > 0).mean()


def test_seven_seas_needs_sea_data(tmp_path):
    from importlib import resources

    from commander.cards import CARD_COLUMNS

    text = (resources.files("commander") / "data" / "cards.csv").read_text(encoding="utf-8")
    sea = CARD_COLUMNS.index("sea")
    lines = []
    for line in text.splitlines():
        if line.startswith("terr_"):
            fields = line.split(",")
            fields[sea] = ""
            line = ",".join(fields)
        lines.append(line)
    path = tmp_path / "cards.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cards = load_cards(path)
    decks = load_decks(cards=cards)
    two = [decks["spanish_sample"]] * 2
    with pytest.raises(ValueError, match="seven_seas needs card data naming at least 7 seas"):
        simulate_economy(Rules(seven_seas=True), two, cards, n=1)
    assert simulate_economy(Rules(), two, cards, n=1).win_round.shape == (1,)


def test_economy_size_is_the_peak_memory_and_huge_trajectories_are_refused_at_once():
    from commander.economy import economy_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    cards = load_cards()
    d = load_decks(cards=cards)
    decks = [d["spanish_sample"], d["ghost_sample"]]
    simulate_economy(Rules(), decks, cards, n=10, seed=1)
    for record in (True, False):
        peak = peak_bytes(lambda record=record: simulate_economy(Rules(), decks, cards, n=20_000,
                                                                 seed=1, record=record))
        if record:
            assert_estimate(economy_size(2, 20_000, True, 60), peak)
        else:
            assert economy_size(2, 20_000, False, 60).nbytes <= peak
    refused_at_once(lambda: simulate_economy(Rules(), decks, cards, n=10**8, seed=1,
                                             record=True),
                    "n=100000000", "record=True", "record=False")  # fmt: skip
    refused_at_once(lambda: simulate_economy(Rules(), decks, cards, n=10**12, seed=1),
                    "n=1000000000000")  # fmt: skip


def test_batches_of_chunks_play_the_games_of_one_kernel_call(monkeypatch):
    """The run goes to the kernel in batches of chunks (bar, Ctrl-C); one chunk per
    batch plays the very games of one call over every chunk."""
    import commander.economy as economy

    rules = Rules(n_players=3)
    whole = simulate_economy(rules, FOUR[:3], CARDS, n=700, seed=7, chunk_size=64,
                             record=True)
    monkeypatch.setattr(economy, "Chunks", lambda total, first: ((c, c + 1) for c in range(total)))
    one_by_one = simulate_economy(rules, FOUR[:3], CARDS, n=700, seed=7, chunk_size=64,
                                  record=True)
    assert whole == one_by_one
    assert np.array_equal(whole.gold, one_by_one.gold)


def test_a_long_run_shows_its_bar_when_asked(capsys):
    simulate_economy(Rules(), FOUR[:2], CARDS, n=50, seed=0, progress=True)
    assert "commander economy" in capsys.readouterr().err
    simulate_economy(Rules(), FOUR[:2], CARDS, n=50, seed=0)  # stderr is no terminal here
    assert capsys.readouterr().err == ""
