"""Every exported callable that takes ``rules`` checks them first.

The walk covers the ``__all__`` of the five packages: each callable with a ``rules``
parameter is called with another game's rules, a string and a list (no key for a
memoized function's cache), the other required arguments given a minimal valid value
(below). The answer must be a
``TypeError`` naming ``rules`` and the game whose rules are wanted, raised before any
work: never an ``AttributeError`` from deep inside, nor an answer computed with the
wrong object. A new exported function with a ``rules`` parameter is walked as soon as
it is exported; if it needs an argument not listed here, the test says which.
"""

import importlib
import inspect
import random

import numpy as np
import pytest

PACKAGES = ("tabletop", "panache", "citadel", "samarra", "commander")


def _turn_policy(set_aside, rolled):
    return rolled[:1]


def _continuation(state):
    return (0.0,) * len(state.capitals)


#: A minimal valid value for each required argument other than ``rules``, by name.
MINIMAL = {
    "agent": "straight",
    "against_pool": [3],
    "attacker_pool": [1, 2],
    "attackers": [1],
    "black": "SMD",
    "cells": (0, 1, 2, 3, 4, 5),
    "conquests": [3, 2],
    "defender_pool": [1],
    "defenders": [1],
    "directions": [[0, 2, 4, 6]],
    "doublons": 10,
    "dist": np.zeros(1, dtype=np.int8),
    "for_pool": [1, 2],
    "gold": 1,
    "k": 1,
    "kind": "tactical",
    "level": 1,
    "n": 2,
    "n_against": 1,
    "n_attackers": 1,
    "n_defenders": 1,
    "n_for": 1,
    "n_games": 2,
    "name": "roger",
    "amounts": [[0, 0, 0, 0]],
    "orders": [(0, None)] * 4,
    "points": 20,
    "policy": _turn_policy,
    "rng": random.Random(0),
    "roll": (6, 5, 5, 3, 1),
    "stake": 2,
    "stock": 10,
    "success": True,
    "target_points": 20,
    "target_value": 1,
    "text": "",
    "utility": "ev",
    "votes_against": [3],
    "votes_for": [2, 1],
    "white": "SMD",
}

#: Where one name means different things in different packages: (qualified name, argument).
MINIMAL_FOR = {
    ("citadel.grid_convergence", "steps"): lambda: [50],
    ("panache.simulate_games", "agents"): lambda: _panache_agents(),
    ("panache.tournament", "agents"): lambda: _panache_agents(),
    ("citadel.simulate_games", "agents"): lambda: "straight",
    ("citadel.play_game", "agents"): lambda: _citadel_agents(),
    ("citadel.play_round", "state"): lambda: _citadel_state(),
    ("citadel.stage_payoffs", "state"): lambda: _citadel_state(),
    ("citadel.stage_payoffs", "orders"): lambda: [[(0, None)]] * 4,
    ("citadel.stage_payoffs", "continuation"): lambda: _continuation,
    ("samarra.tournament", "agents"): lambda: {"random": _samarra_agent()},
    ("samarra.play_game", "black"): lambda: _samarra_agent(),
    ("samarra.play_game", "white"): lambda: _samarra_agent(),
    ("samarra.play_games", "black"): lambda: _samarra_agent(),
    ("samarra.play_games", "white"): lambda: _samarra_agent(),
    ("commander.simulate_economy", "decks"): lambda: _commander_decks(),
    ("commander.simulate_economy", "cards"): lambda: _commander_cards(),
    ("commander.validate_deck", "deck"): lambda: _commander_decks()[0],
    ("commander.validate_deck", "cards"): lambda: _commander_cards(),
}

#: Result records: built by the library's own solves from the rules they hold. Their
#: other fields are placeholders; the record checks its rules before looking at them,
#: naming the field ``Class.rules``.
RECORDS = {
    "panache.CommittedDuel", "panache.DuelSolution", "panache.PlayerSheet",
    "panache.ThreeSolution", "citadel.EmpiricalGame", "samarra.HiddenSolution",
    "samarra.HorizonGame", "samarra.HorizonSolution",
    "samarra.SetupGame", "commander.EconomyResult",
}  # fmt: skip

#: Callables left out, each with its reason. Keep this short.
SKIPPED: dict[str, str] = {}


def _panache_agents():
    from panache import Agent

    return [Agent.heuristic()] * 2


def _citadel_agents():
    from citadel import agent

    return [agent("straight")] * 4


def _citadel_state():
    from citadel import GameState

    return GameState((0, 0), (100, 100, 100, 100))


def _samarra_agent():
    from samarra import RandomAgent

    return RandomAgent()


def _commander_cards():
    from commander import load_cards

    return load_cards()


def _commander_decks():
    from commander import load_decks

    return list(load_decks(cards=_commander_cards()).values())[:2]


def _with_rules():
    """(qualified name, callable, its signature) of every exported callable taking rules."""
    found = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj):
                continue
            try:
                signature = inspect.signature(obj)
            except (TypeError, ValueError):  # pragma: no cover - builtins only
                continue
            if "rules" in signature.parameters:
                found.append((f"{package}.{name}", obj, signature))
    return found


WITH_RULES = _with_rules()


def _arguments(qualified: str, signature: inspect.Signature) -> dict:
    args = {}
    for name, parameter in signature.parameters.items():
        if name == "rules" or parameter.default is not inspect.Parameter.empty:
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if qualified in RECORDS:
            args[name] = None
        elif (qualified, name) in MINIMAL_FOR:
            args[name] = MINIMAL_FOR[qualified, name]()
        elif name in MINIMAL:
            args[name] = MINIMAL[name]
        else:
            raise AssertionError(
                f"{qualified}: give the argument {name!r} a minimal valid value in MINIMAL "
                f"or MINIMAL_FOR (or list the function in SKIPPED with its reason)"
            )
    return args


def _another_games_rules(qualified: str):
    import citadel
    import panache

    return citadel.Rules() if qualified.split(".")[0] != "citadel" else panache.Rules()


def test_the_walk_finds_every_game_and_the_skips_are_real():
    games = {q.split(".")[0] for q, _, _ in WITH_RULES}
    assert games == {"panache", "citadel", "samarra", "commander"}
    assert len(WITH_RULES) >= 80
    walked = {q for q, _, _ in WITH_RULES}
    assert set(SKIPPED) <= walked and walked >= RECORDS


@pytest.mark.parametrize(
    ("qualified", "obj", "signature"), WITH_RULES, ids=[q for q, _, _ in WITH_RULES]
)
def test_rules_of_another_game_a_string_or_a_list_are_a_type_error_naming_rules(
    qualified, obj, signature
):
    if qualified in SKIPPED:
        pytest.skip(SKIPPED[qualified])
    game = qualified.split(".")[0]
    args = _arguments(qualified, signature)
    field = rf"{obj.__name__}\." if qualified in RECORDS else ""
    for bad in (_another_games_rules(qualified), "default", ["default"]):
        with pytest.raises(TypeError, match=rf"^{field}rules must be a {game}\.Rules\b") as info:
            obj(**args, rules=bad)
        assert repr(bad)[:20] in str(info.value) or type(bad).__name__ in str(info.value)
