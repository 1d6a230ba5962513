"""Every exported result class checks its fields (``tabletop.validate.check_fields``).

Each class is built once by the library with small rules; that object passes the check
again (``dataclasses.replace``), and every field replaced by a value of the wrong kind,
or by None where None is not allowed, is a TypeError or ValueError naming the field.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

import citadel
import commander
import panache
import samarra
import tabletop
from tabletop.validate import check_fields


@functools.cache
def _citadel_sides():
    from citadel.sides import solve_sides

    return solve_sides(citadel.Rules(radius=1, capital=10, bid_step=5), "NS", objective="score")


@functools.cache
def _citadel_duel():
    return citadel.solve_duel_game(citadel.Rules(n_players=2, radius=1, capital=10, bid_step=5))


def _game_record():
    from citadel.agents import agent
    from citadel.game import play_game

    return play_game(citadel.Rules(n_players=2), [agent("straight")] * 2, seed=0)


def _samarra_game_result():
    from samarra.engine import Action, Game

    game = Game(samarra.start_position(samarra.Rules(max_actions=1), "SMD", "SMD"))
    game.play(Action("move", 0, 3))
    return game.result


def _samarra_value():
    table = samarra.solve(samarra.Rules(length=3))
    return table.value(samarra.start_position(table.rules, "SMD", "DMS"))


def _violation():
    from commander.cards import load_cards, load_decks
    from commander.decks import validate_deck

    cards = load_cards()
    return validate_deck(load_decks(cards=cards)["broken_example"], cards)[0]


def _economy():
    from commander.cards import load_cards, load_decks

    cards = load_cards()
    decks = load_decks(cards=cards)
    return commander.simulate_economy(commander.Rules(), [decks["spanish_sample"],
                                                          decks["ghost_sample"]], cards,
                                      n=20, seed=1, record=True)  # fmt: skip


def _square(x, seed):
    return {"y": x * x}


#: How each class is made by the library, with small rules.
MAKERS = {
    panache.ExchangeResult: lambda: panache.exchange(panache.Rules(), 3),
    panache.ExchangeSamples: lambda: panache.simulate_exchanges(panache.Rules(), 3, 50, seed=1),
    panache.GameResults: lambda: panache.simulate_games(
        panache.Rules(), [panache.Agent.heuristic(), panache.Agent.random()], 20, seed=1),
    panache.RuleSearch: lambda: panache.search_rules(panache.Rules(n_dice=2), "ev",
                                                     max_clauses=1),
    panache.TurnDistribution: lambda: panache.evaluate_policy(
        panache.Rules(), panache.solve_turn(panache.Rules()).policy),
    panache.TurnSolution: lambda: panache.solve_turn(panache.Rules(), "positive"),
    panache.DuelSolution: lambda: panache.solve_duel(panache.Rules(n_dice=3, start_points=6)),
    panache.CommittedDuel: lambda: panache.committed_duel(
        panache.Rules(n_dice=3, start_points=6)),
    citadel.AllianceAnalysis: lambda: citadel.alliance_analysis(
        citadel.Rules(radius=1, capital=10, bid_step=5)),
    citadel.DuelCheck: lambda: citadel.check_solution(_citadel_duel(), "axis"),
    citadel.DuelGameSolution: _citadel_duel,
    citadel.EmpiricalGame: lambda: citadel.empirical_game(
        citadel.Rules(n_players=2, radius=1), 3, ["straight", "saver"], seed=0),
    citadel.GameRecord: _game_record,
    citadel.GameSamples: lambda: citadel.simulate_games(citadel.Rules(radius=1, capital=10),
                                                        "random", 20, seed=2),
    citadel.MemberResponse: lambda: citadel.member_response(_citadel_sides(), 1),
    citadel.Resolution: lambda: citadel.resolve([(10, "N"), (10, "NE"), (5, "E"), (0, None)]),
    citadel.SidesCheck: lambda: citadel.check_sides(_citadel_sides()),
    citadel.SidesSolution: _citadel_sides,
    citadel.StallOdds: lambda: citadel.stall_odds(_citadel_duel()),
    samarra.AgentExploitability: lambda: samarra.agent_exploitability(
        samarra.solve_hidden(samarra.Rules(length=3), 1), samarra.RandomAgent()),
    samarra.GameResult: _samarra_game_result,
    samarra.HiddenSolution: lambda: samarra.solve_hidden(samarra.Rules(length=3), 1),
    samarra.HorizonSolution: lambda: samarra.solve_horizon(samarra.Rules(length=3), 2),
    samarra.SetupGame: lambda: samarra.setup_game(samarra.Rules(length=3)),
    samarra.Value: _samarra_value,
    samarra.View: lambda: samarra.View.of(
        samarra.start_position(samarra.Rules(), "SMD", "DMS"), 0),
    commander.BattleOdds: lambda: commander.battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1,
                                                        target_value=1),
    commander.BattleResult: lambda: commander.battle("tactical", [3, 2], [1], 1),
    commander.CardSet: lambda: commander.load_cards(),
    commander.EconomyResult: _economy,
    commander.RaceResult: lambda: commander.solve_race(commander.Rules(), gold=0, doublons=5,
                                                       stock=10, income=4),
    commander.Violation: _violation,
    tabletop.LeastCore: lambda: tabletop.least_core(
        {c: float(len(c) >= 2) for c in ("A", "B", "AB")}, "AB"),
    tabletop.MonteCarloEstimate: lambda: tabletop.estimate_mean([1.0, 2.0, 4.0]),
    tabletop.SweepResult: lambda: tabletop.sweep(_square, {"x": [1, 2]}, seed=0, jobs=1),
}  # fmt: skip

CLASSES = list(MAKERS)


def _id(cls) -> str:
    return f"{cls.__module__.split('.')[0]}.{cls.__name__}"


def _checked(cls) -> list[str]:
    """The fields the check reads: all but those annotated too loosely (``object``)."""
    return [f.name for f in dataclasses.fields(cls) if f.type not in ("object", "Callable")]


def test_the_35_classes():
    assert len(CLASSES) == 35
    for cls in CLASSES:
        assert dataclasses.is_dataclass(cls) and "__post_init__" in vars(cls), cls


#: The other exported dataclasses: rules, agents, decks, positions and solved tables,
#: each checked by its own ``__post_init__`` (a rules object or a field at a time).
OWN_CHECKS = {
    "citadel": {"GameState", "Rules"},
    "commander": {"Deck", "Rules", "Strategy"},
    "panache": {"Agent", "Clause", "DecisionList", "PlayerSheet", "Rules", "ThreeSolution"},
    "samarra": {"HorizonGame", "Position", "Rules"},
    "tabletop": set(),
}  # fmt: skip


def test_every_exported_result_class_is_listed():
    """A dataclass newly exported from a package fails here until it is in ``MAKERS``
    (its fields checked by ``check_fields``) or, checked its own way, in ``OWN_CHECKS``."""
    import inspect

    for package in (citadel, commander, panache, samarra, tabletop):
        exported = {name for name in package.__all__
                    if dataclasses.is_dataclass(getattr(package, name))
                    and isinstance(getattr(package, name), type)}  # fmt: skip
        results = {cls.__name__ for cls in CLASSES if _id(cls).startswith(package.__name__ + ".")}
        assert exported - OWN_CHECKS[package.__name__] == results, package.__name__
        assert not results & OWN_CHECKS[package.__name__], package.__name__
    for cls in CLASSES:
        assert "check_fields(self" in inspect.getsource(cls.__post_init__), cls


@functools.cache
def _real(cls):
    obj = MAKERS[cls]()
    assert type(obj) is cls
    return obj


@pytest.mark.parametrize("cls", CLASSES, ids=_id)
def test_a_result_of_the_library_passes(cls):
    obj = _real(cls)
    again = dataclasses.replace(obj)
    check_fields(again)
    assert again == obj


def _garbage(value):
    """A value of the wrong kind for a field holding ``value``."""
    return 3 if isinstance(value, str) else "x"


@pytest.mark.parametrize("cls", CLASSES, ids=_id)
def test_a_wrong_field_is_named(cls):
    obj = _real(cls)
    hints = {f.name: f.type for f in dataclasses.fields(cls)}
    for name in _checked(cls):
        bad = _garbage(getattr(obj, name))
        with pytest.raises((TypeError, ValueError), match=rf"{cls.__name__}\.{name}\b"):
            dataclasses.replace(obj, **{name: bad})
        if "None" not in hints[name]:
            with pytest.raises(TypeError, match=rf"{cls.__name__}\.{name} must be .* got None"):
                dataclasses.replace(obj, **{name: None})


@pytest.mark.parametrize("cls", CLASSES, ids=_id)
def test_all_garbage_is_refused(cls):
    n = len(dataclasses.fields(cls))
    for junk in ("x", None, float("nan")):
        if cls is commander.Violation and junk == "x":
            junk = "no_rule"  # a str: the rule's key is the check
        with pytest.raises((TypeError, ValueError), match=rf"{cls.__name__}\.\w+ must"):
            cls(*[junk] * n)


def test_the_probe_examples():
    with pytest.raises(TypeError, match=r"MonteCarloEstimate\.mean must be a real number, "
                                        r"got 'x' \(str\)"):  # fmt: skip
        tabletop.MonteCarloEstimate("x", None, float("nan"))
    with pytest.raises(TypeError, match=r"ExchangeResult\.level must be an int"):
        panache.ExchangeResult(*["x"] * 9)
    with pytest.raises(TypeError, match=r"View\.side must be an int, got None"):
        samarra.View(*[None] * 7)


def test_limits_and_items():
    est = _real(tabletop.MonteCarloEstimate)
    with pytest.raises(ValueError, match=r"MonteCarloEstimate\.n must be >= 0, got -1"):
        dataclasses.replace(est, n=-1)
    with pytest.raises(TypeError, match=r"MonteCarloEstimate\.n must be an int, got 3\.0"):
        dataclasses.replace(est, n=3.0)
    assert dataclasses.replace(est, mean=np.float64(0.5), n=np.int64(3)).n == 3
    with pytest.raises(ValueError, match=r"MonteCarloEstimate\.mean must be a finite number, "
                                         r"got nan"):  # fmt: skip
        dataclasses.replace(est, mean=np.float64("nan"))
    view = _real(samarra.View)
    with pytest.raises(TypeError, match=r"View\.own_used\[1\] must be True or False, got 1"):
        dataclasses.replace(view, own_used=(False, 1))
    with pytest.raises(ValueError, match=r"View\.tents\[0\] must hold 2 items"):
        dataclasses.replace(view, tents=((12,),))
    with pytest.raises(ValueError, match=r"View\.side must be 0\.\.1, got 2"):
        dataclasses.replace(view, side=2)
    value = _real(samarra.Value)
    with pytest.raises(ValueError, match=r"Value\.outcome must be one of .*, got 'won'"):
        dataclasses.replace(value, outcome="won")
    with pytest.raises(ValueError, match=r"Value\.tie_break must be one of"):
        dataclasses.replace(value, tie_break="red")
    battle = _real(commander.BattleResult)
    with pytest.raises(TypeError, match=r"BattleResult\.capturable\[0\] must be an int"):
        dataclasses.replace(battle, capturable=("0",))
    race = _real(commander.RaceResult)
    none = dataclasses.replace(race, win_turn=None, doublons_left=None, net_cost=None, plan=())
    assert none.win_turn is None  # no win within the horizon: all three None
    with pytest.raises(ValueError, match=r"RaceResult\.win_turn, \.doublons_left and \.net_cost "
                                         r"must be all None"):
        dataclasses.replace(race, win_turn=None)
    with pytest.raises(TypeError, match=r"RaceResult\.win_turn must be an int, got 'x'"):
        dataclasses.replace(race, win_turn="x")
