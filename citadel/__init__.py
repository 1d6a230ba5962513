"""Master Citadel: sealed bids on a shared pawn (docs/rules.md)."""

import tabletop  # noqa: F401  (first: a Ctrl-C while loading ends in one line)
from citadel.agents import AGENTS, agent
from citadel.alliances import EmpiricalGame, empirical_game
from citadel.analyses import balance
from citadel.coalitions import AllianceAnalysis, alliance_analysis, coalition_values
from citadel.game import GameRecord, GameState, initial_state, play_game, play_round
from citadel.members import MemberResponse, member_response
from citadel.resolve import Resolution, resolve, resolve_many
from citadel.rules import DIRECTIONS, Rules
from citadel.sides import SidesCheck, SidesSolution, check_sides, simulate_sides, solve_sides
from citadel.simulate import GameSamples, seat_balance, simulate_games
from citadel.stage import exploitability, regret_matching, stage_payoffs
from citadel.stalling import StallOdds, stall_odds, stalling
from citadel.whole_game import (
    DuelCheck,
    DuelGameSolution,
    check_solution,
    grid_convergence,
    solve_duel_game,
    standard_states,
)

__all__ = [
    "AGENTS",
    "DIRECTIONS",
    "AllianceAnalysis",
    "DuelCheck",
    "DuelGameSolution",
    "EmpiricalGame",
    "GameRecord",
    "GameSamples",
    "GameState",
    "MemberResponse",
    "Resolution",
    "Rules",
    "SidesCheck",
    "SidesSolution",
    "StallOdds",
    "agent",
    "alliance_analysis",
    "balance",
    "check_sides",
    "check_solution",
    "coalition_values",
    "empirical_game",
    "exploitability",
    "grid_convergence",
    "initial_state",
    "member_response",
    "play_game",
    "play_round",
    "regret_matching",
    "resolve",
    "resolve_many",
    "seat_balance",
    "simulate_games",
    "simulate_sides",
    "solve_duel_game",
    "solve_sides",
    "stage_payoffs",
    "stall_odds",
    "stalling",
    "standard_states",
]
