"""Master & Commander: gold market, economy, conflicts, decks (docs/rules.md)."""

import tabletop  # noqa: F401  (first: a Ctrl-C while loading ends in one line)
from commander.analyses import balance
from commander.cards import CardDataError, CardSet, Deck, load_cards, load_decks
from commander.conflicts import (
    BattleOdds,
    BattleResult,
    battle,
    battle_odds,
    explores,
    rally,
    referendum,
    referendum_odds,
)
from commander.decks import Violation, deck_summary, validate_deck
from commander.economy import (
    EconomyResult,
    Strategy,
    economy_curves,
    seat_advantage,
    simulate_economy,
    strategy_wins,
    win_turns,
)
from commander.market import (
    buy_price,
    buy_steps,
    legal_transactions,
    price_table,
    round_trips,
    sell_price,
    sell_steps,
    transact,
)
from commander.race import RaceResult, race_table, solve_race
from commander.rules import Rules

__all__ = [
    "BattleOdds",
    "BattleResult",
    "CardDataError",
    "CardSet",
    "Deck",
    "EconomyResult",
    "RaceResult",
    "Rules",
    "Strategy",
    "Violation",
    "balance",
    "battle",
    "battle_odds",
    "buy_price",
    "buy_steps",
    "deck_summary",
    "economy_curves",
    "explores",
    "legal_transactions",
    "load_cards",
    "load_decks",
    "price_table",
    "race_table",
    "rally",
    "referendum",
    "referendum_odds",
    "round_trips",
    "seat_advantage",
    "sell_price",
    "sell_steps",
    "simulate_economy",
    "solve_race",
    "strategy_wins",
    "transact",
    "validate_deck",
    "win_turns",
]
