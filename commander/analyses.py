"""The Master & Commander balance card: the headline figures of a rules set in one table.

:func:`balance` returns one row per metric of :data:`METRICS` (the columns of
:mod:`tabletop.balance`): the race to ``win_gold`` through the market and the money
loop solved exactly, the economy model simulated. The list is fixed, so the cards of
two variants line up (``python -m commander compare``).
"""

from __future__ import annotations

from commander.cards import load_cards, load_decks
from commander.economy import simulate_economy
from commander.market import round_trips
from commander.race import DEFAULT_HORIZON, solve_race
from commander.rules import Rules
from tabletop.balance import Metric, build_card, estimate, exact, missing
from tabletop.seeding import as_seed_sequence, check_count
from tabletop.stats import estimate_mean
from tabletop.sweep import task_seed

INCOMES = (2, 4, 6)
#: The round of the card's survival figure: the share of all games won by then.
EARLY_ROUND = 20
#: The sample decks that play the economy, repeated for more than two players.
DECKS = ("spanish_sample", "ghost_sample", "english_sample", "brethren_sample")

#: The card's rows, in order.
METRICS = (
    *(Metric(f"fastest_win_income_{k}", "exact", "turns",
             f"fewest turns to hold win_gold from the opening purse and stock with an income "
             f"of {k} doublons a turn, buying and selling optimally (solve_race; n: turns "
             f"searched; NaN: not within them)") for k in INCOMES),
    Metric("money_loop", "exact", "1 = yes",
           "1 when selling one gold and buying it back next turn gains doublons at some "
           "stock (round_trips; n: stocks checked)"),
    Metric("money_loop_gain", "exact", "doublons",
           "the largest gain of such a round trip (0: no loop)"),
    Metric("finished", "monte carlo", "probability",
           "share of economy games won within {max_rounds} rounds ({decks}, seats rotated)"),
    Metric("first_seat_edge", "monte carlo", "probability",
           "seat 0's share of the finished games minus 1/{n_players}"),
    Metric("win_round", "monte carlo", "rounds",
           "mean winning round among the games won within {max_rounds} rounds (a "
           "conditional mean: it leaves out the unfinished games, so it understates a "
           "game's length)"),
    Metric(f"won_within_{EARLY_ROUND}", "monte carlo", "probability",
           f"share of all economy games won within {EARLY_ROUND} rounds (a survival figure "
           "beside win_round: the unfinished games count in its denominator)"),
)  # fmt: skip

#: What the verdict of ``compare`` speaks of.
VERDICT = {
    "headlines": {"fastest_win_income_4": "the fastest win with an income of 4",
                  "first_seat_edge": "the first seat's edge"},
    "length": "win_round",
}  # fmt: skip


def balance(rules: Rules | None = None, *, n_games: int = 50_000, seed=0,
            max_rounds: int = 60, horizon: int = DEFAULT_HORIZON):  # fmt: skip
    """The balance card of ``rules`` (default: the rules of docs/rules.md).

    Parameters
    ----------
    rules : Rules, optional
        The rules (the economy is played by ``rules.n_players`` of the sample decks
        :data:`DECKS`, in order).
    n_games : int
        Economy games (default 50 000).
    seed : None, int, SeedSequence or Generator
        Root seed; the economy runs on its child 0 (:func:`tabletop.sweep.task_seed`).
    max_rounds : int
        Rounds after which an economy game counts as unfinished (default 60).
    horizon : int
        Turns the exact race searches.

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`METRICS`:

        * ``fastest_win_income_<k>`` (exact), k = 2, 4, 6: the fewest turns to
          ``win_gold`` from the opening position with that income;
        * ``money_loop``, ``money_loop_gain`` (exact): whether a sell-then-buy-back
          round trip gains doublons, and the largest gain;
        * ``finished``, ``first_seat_edge``, ``win_round`` (MC): the economy's share
          of finished games, seat 0's edge among them, their mean length (a mean
          among finished games only, so biased low);
        * ``won_within_20`` (MC): the share of all games won within
          :data:`EARLY_ROUND` rounds, unfinished games included.

    Examples
    --------
    >>> card = balance(Rules(), n_games=500).set_index("metric")
    >>> float(card.loc["fastest_win_income_4", "value"]), float(card.loc["money_loop", "value"])
    (9.0, 1.0)
    """
    rules = Rules.check(rules)
    n_games = check_count("n_games", n_games, 2)
    max_rounds = check_count("max_rounds", max_rounds, 1)
    horizon = check_count("horizon", horizon, 1)
    root = as_seed_sequence(seed)
    entries = {}
    start = (rules.start_gold, rules.start_doublons, rules.start_stock)
    for k in INCOMES:
        race = solve_race(rules, *start, income=k, horizon=horizon)
        entries[f"fastest_win_income_{k}"] = exact(race.win_turn, horizon)
    gains = round_trips(rules)
    best = max(int(gains.max()), 0)
    entries["money_loop"] = exact(float(best > 0), len(gains))
    entries["money_loop_gain"] = exact(best, len(gains))

    cards = load_cards(None, rules)
    decks = load_decks(None, cards)
    names = [DECKS[i % len(DECKS)] for i in range(rules.n_players)]
    res = simulate_economy(rules, [decks[n] for n in names], cards, n=n_games,
                           seed=task_seed(root, 0), record=False,
                           max_rounds=max_rounds)  # fmt: skip
    done = res.win_round > 0
    entries["finished"] = estimate(estimate_mean(done))
    entries[f"won_within_{EARLY_ROUND}"] = estimate(
        estimate_mean(done & (res.win_round <= EARLY_ROUND)))
    if done.sum() >= 2:
        first = (res.win_seat[done] == 0).astype(float) - 1 / rules.n_players
        entries["first_seat_edge"] = estimate(estimate_mean(first))
        entries["win_round"] = estimate(estimate_mean(res.win_round[done]))
    else:  # too few finished games to say anything
        entries["first_seat_edge"] = missing(int(done.sum()))
        entries["win_round"] = missing(int(done.sum()))
    return build_card(METRICS, entries, max_rounds=max_rounds, n_players=rules.n_players,
                      decks=" vs ".join(names))  # fmt: skip
