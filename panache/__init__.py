"""Master Panache: optimal dice keeping, attacks, Master Panache odds (RULES.md §1)."""

from panache.agents import Agent
from panache.analyses import balance
from panache.attack import ExchangeResult, attack_distribution, exchange
from panache.duel import DuelSolution, solve_duel
from panache.game import GameResults, simulate_games, tournament
from panache.master import mp_outcome, mp_stakes, mp_success
from panache.policy import HUMAN_POLICIES, TurnPolicy, human_policy, tabulate_policy
from panache.rules import Rules
from panache.simulate import (
    ExchangeSamples,
    simulate_attacks,
    simulate_exchanges,
    simulate_mp_attempts,
    simulate_turns,
)
from panache.three import ThreeSolution, solve_three
from panache.turn import (
    TurnDistribution,
    TurnSolution,
    evaluate_policy,
    reachable_totals,
    solve_turn,
    utility_vector,
)

__all__ = [
    "HUMAN_POLICIES",
    "Agent",
    "DuelSolution",
    "ExchangeResult",
    "ExchangeSamples",
    "GameResults",
    "Rules",
    "ThreeSolution",
    "TurnDistribution",
    "TurnPolicy",
    "TurnSolution",
    "attack_distribution",
    "balance",
    "evaluate_policy",
    "exchange",
    "human_policy",
    "mp_outcome",
    "mp_stakes",
    "mp_success",
    "reachable_totals",
    "simulate_attacks",
    "simulate_exchanges",
    "simulate_games",
    "simulate_mp_attempts",
    "simulate_turns",
    "solve_duel",
    "solve_three",
    "solve_turn",
    "tabulate_policy",
    "tournament",
    "utility_vector",
]
