"""Ce soir, à Samarra: engine, retrograde solve, setup, adjudicated and hidden-information
games, agents (§3)."""

import tabletop  # noqa: F401  (first: a Ctrl-C while loading ends in one line)
from samarra.agents import (
    DeterminizingAgent,
    GreedyAgent,
    ISMCTSAgent,
    RandomAgent,
    View,
    determinizations,
)
from samarra.analyses import balance
from samarra.belief import BeliefAgent
from samarra.engine import Action, Game, GameResult, apply_action, legal_actions, tie_break
from samarra.hidden import HiddenSolution, solve_hidden
from samarra.hidden_play import (
    AgentExploitability,
    agent_exploitability,
    equilibrium_play,
    is_bluff,
)
from samarra.horizon import HorizonGame, HorizonSolution, horizon_values, solve_horizon
from samarra.position import Position, format_position, parse_position, setups, start_position
from samarra.rules import Rules
from samarra.setup import SetupGame, setup_game, setup_values
from samarra.simulate import play_game, play_games, tournament
from samarra.solve import Table, Value, n_states, solve
from samarra.variants import compare_variants

__all__ = [
    "Action",
    "AgentExploitability",
    "BeliefAgent",
    "DeterminizingAgent",
    "Game",
    "GameResult",
    "GreedyAgent",
    "HiddenSolution",
    "HorizonGame",
    "HorizonSolution",
    "ISMCTSAgent",
    "Position",
    "RandomAgent",
    "Rules",
    "SetupGame",
    "Table",
    "Value",
    "View",
    "agent_exploitability",
    "apply_action",
    "balance",
    "compare_variants",
    "determinizations",
    "equilibrium_play",
    "format_position",
    "horizon_values",
    "is_bluff",
    "legal_actions",
    "n_states",
    "parse_position",
    "play_game",
    "play_games",
    "setup_game",
    "setup_values",
    "setups",
    "solve",
    "solve_hidden",
    "solve_horizon",
    "start_position",
    "tie_break",
    "tournament",
]
