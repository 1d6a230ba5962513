"""The Master & Commander balance card against the library's own solvers and simulators."""

import numpy as np
import pytest

from commander import Rules, balance, simulate_economy, solve_race
from commander.analyses import DECKS, EARLY_ROUND, INCOMES
from commander.cards import load_cards, load_decks
from commander.market import round_trips
from tabletop.sweep import task_seed
from tests.conftest import Z_TOL

RULES = Rules(win_gold=6)
N = 2000
SEED = 5


@pytest.fixture(scope="module")
def card():
    return balance(RULES, n_games=N, seed=SEED).set_index("metric")


def test_exact_rows_equal_the_solvers(card):
    start = (RULES.start_gold, RULES.start_doublons, RULES.start_stock)
    for k in INCOMES:
        race = solve_race(RULES, *start, income=k)
        assert card.loc[f"fastest_win_income_{k}", "value"] == race.win_turn
    gains = round_trips(RULES)
    assert card.loc["money_loop_gain", "value"] == max(gains.max(), 0)
    assert card.loc["money_loop", "value"] == float(gains.max() > 0)
    no_loop = balance(Rules(win_gold=6, sale_price="after"), n_games=N).set_index("metric")
    assert no_loop.loc[["money_loop", "money_loop_gain"], "value"].tolist() == [0.0, 0.0]


def test_monte_carlo_rows_equal_the_simulator_with_the_same_seed(card):
    cards = load_cards(None, RULES)
    decks = load_decks(None, cards)
    res = simulate_economy(RULES, [decks[d] for d in DECKS[:2]], cards, n=N,
                           seed=task_seed(np.random.SeedSequence(SEED), 0), record=False,
                           max_rounds=60)  # fmt: skip
    done = res.win_round > 0
    assert card.loc["finished", "value"] == done.mean()
    edge = np.mean(res.win_seat[done] == 0) - 0.5  # the card averages (x - 1/2)
    assert card.loc["first_seat_edge", "value"] == pytest.approx(edge, abs=1e-15)
    assert card.loc["win_round", "value"] == res.win_round[done].mean()
    early = done & (res.win_round <= EARLY_ROUND)  # the unfinished games count as not won
    assert card.loc[f"won_within_{EARLY_ROUND}", "value"] == early.mean()
    assert card.loc[f"won_within_{EARLY_ROUND}", "n"] == N


def test_an_independent_run_falls_within_the_intervals(card):
    other = balance(RULES, n_games=N, seed=SEED + 1).set_index("metric")
    mc = card["method"] == "monte carlo"
    se = (card["high"] - card["low"]) / (2 * 1.959963984540054)
    se_other = (other["high"] - other["low"]) / (2 * 1.959963984540054)
    gap = (card["value"] - other["value"])[mc].abs()
    assert (gap <= Z_TOL * np.hypot(se, se_other)[mc]).all()


def test_bad_input():
    with pytest.raises(TypeError, match=r"rules must be a commander\.Rules or None"):
        balance({"win_gold": 6})
    with pytest.raises(ValueError, match="max_rounds must be >= 1, got 0"):
        balance(RULES, max_rounds=0)


def test_the_report_shows_the_index_card():
    """The index's Master & Commander row reads the seed rules' card; the report's table
    by player count holds the same card's figures in its 2-player row (same simulation,
    seed and size), so the two cannot disagree."""
    import re
    from pathlib import Path

    from tabletop.balance_table import card_seed, fill
    from tabletop.games import get

    # seed_card reads balance(Rules(), seed=card_seed({}), **options): the default size
    assert dict(get("commander").index_row.options) == {}
    card = balance(Rules(), seed=card_seed({}))
    row = card.set_index("metric")
    text = (Path(__file__).resolve().parents[2] / "reports" / "commander.md").read_text()
    line = next(t for t in text.splitlines()  # the table by player count, 2 players
                if re.match(r"\|\s*2\s*\|\s*10\s*\|\s*Spanish sample, Ghost sample\s*\|", t))
    for field in ("{base.finished:pct}", "{1-base.finished:pct}",
                  f"{{base.won_within_{EARLY_ROUND}:pct}}"):  # shares as the index prints them
        assert fill(field, card).split(" (n = ")[0] in line, field
    e = row.loc["first_seat_edge"]
    assert f"{100 * e['value']:+.1f} [{100 * e['low']:+.1f}, {100 * e['high']:+.1f}]" in line
    w = row.loc["win_round"]
    assert f"{w['value']:.2f} [{w['low']:.2f}, {w['high']:.2f}]" in line
    assert f"{int(row.loc['finished', 'n']):,}" in line
