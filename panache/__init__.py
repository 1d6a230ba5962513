"""Master Panache: optimal dice keeping, attacks, Master Panache odds (docs/rules.md)."""

import tabletop  # noqa: F401  (first: a Ctrl-C while loading ends in one line)
from panache.advise import advise
from panache.agents import Agent
from panache.analyses import balance
from panache.attack import ExchangeResult, attack_distribution, exchange
from panache.committed import CommittedDuel, committed_duel
from panache.duel import DuelSolution, solve_duel
from panache.game import GameResults, simulate_games, tournament
from panache.guide import PlayerSheet, duel_keeps, duel_spread, player_sheet
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
from panache.thumb import Clause, DecisionList, RuleSearch, rule_of_thumb, search_rules
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
    "Clause",
    "CommittedDuel",
    "DecisionList",
    "DuelSolution",
    "ExchangeResult",
    "ExchangeSamples",
    "GameResults",
    "PlayerSheet",
    "RuleSearch",
    "Rules",
    "ThreeSolution",
    "TurnDistribution",
    "TurnPolicy",
    "TurnSolution",
    "advise",
    "attack_distribution",
    "balance",
    "committed_duel",
    "duel_keeps",
    "duel_spread",
    "evaluate_policy",
    "exchange",
    "human_policy",
    "mp_outcome",
    "mp_stakes",
    "mp_success",
    "player_sheet",
    "reachable_totals",
    "rule_of_thumb",
    "search_rules",
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
