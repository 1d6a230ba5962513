"""Master Citadel: sealed bids on a shared pawn (RULES.md §2)."""

from citadel.agents import AGENTS, agent
from citadel.alliances import EmpiricalGame, empirical_game
from citadel.game import GameRecord, GameState, initial_state, play_game, play_round
from citadel.resolve import Resolution, resolve, resolve_many
from citadel.rules import DIRECTIONS, Rules
from citadel.simulate import GameSamples, seat_balance, simulate_games
from citadel.stage import exploitability, regret_matching, stage_payoffs
from citadel.whole_game import DuelCheck, DuelGameSolution, check_solution, solve_duel_game

__all__ = [
    "AGENTS",
    "DIRECTIONS",
    "DuelCheck",
    "DuelGameSolution",
    "EmpiricalGame",
    "GameRecord",
    "GameSamples",
    "GameState",
    "Resolution",
    "Rules",
    "agent",
    "check_solution",
    "empirical_game",
    "exploitability",
    "initial_state",
    "play_game",
    "play_round",
    "regret_matching",
    "resolve",
    "resolve_many",
    "seat_balance",
    "simulate_games",
    "solve_duel_game",
    "stage_payoffs",
]
