import itertools
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import get_all_states  # noqa: E402

import samarra.openspiel as sos  # noqa: E402  (registers the game)
from samarra import Rules, legal_actions, setups  # noqa: E402
from samarra.engine import Game  # noqa: E402
from samarra.information import action_code, code_action  # noqa: E402
from samarra.position import start_position  # noqa: E402

KNOBS = ("auto_death", "allow_pass", "no_repetition", "win_on_arrival_only")


def every_knob_combination():
    for first, adjacency, *flags in itertools.product(("black", "white"), ("orthogonal", "king"),
                                                      *[(False, True)] * len(KNOBS)):  # fmt: skip
        yield {"first": first, "adjacency": adjacency, **dict(zip(KNOBS, flags, strict=True))}


def test_load_game_takes_every_knob_and_round_trips():
    game = pyspiel.load_game("samarra", {"width": 4, "length": 3, "horizon": 7})
    rules = Rules(width=4, length=3, horizon=7)
    assert sos.rules_of(game.get_parameters()) == rules
    assert sos.params_of(rules) == game.get_parameters()
    assert game.num_distinct_actions() == 5 * 12 + 1 + len(setups(rules))
    assert game.max_game_length() == 2 + 7
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    default = pyspiel.load_game("samarra")
    assert sos.rules_of(default.get_parameters()) == Rules()


def test_bad_parameters_are_refused_with_the_knob_named():
    with pytest.raises(ValueError, match=r"width must be 3\.\.40, got 2"):
        sos.rules_of({"width": 2})
    with pytest.raises(ValueError, match="unknown knob 'king'"):
        sos.rules_of({"king": True})
    with pytest.raises(TypeError, match="params must be a dict"):
        sos.rules_of([("width", 3)])


@pytest.mark.parametrize("params", [
    {"length": 3, "horizon": 6},
    {"length": 4, "adjacency": "king", "auto_death": True, "horizon": 8},
    {"length": 3, "allow_pass": True, "no_repetition": True, "first": "white",
     "max_actions": 60},
    {"width": 4, "length": 3, "win_on_arrival_only": True, "max_actions": 40},
])  # fmt: skip
def test_openspiel_random_simulation_checks(params):
    game = pyspiel.load_game("samarra", params)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


@pytest.mark.parametrize("params", [
    {"length": 3, "horizon": 3},
    {"length": 3, "horizon": 3, "adjacency": "king", "auto_death": True, "first": "white"},
])  # fmt: skip
def test_information_sets_are_consistent(params):
    """Every state of an information set has the same player and legal actions, and
    a player's information string only grows (perfect recall)."""
    game = pyspiel.load_game("samarra", params)
    states = get_all_states.get_all_states(game, include_terminals=False,
                                           include_chance_states=False,
                                           to_string=lambda s: s.history_str())  # fmt: skip
    seen = {}
    for state in states.values():
        player = state.current_player()
        key = state.information_state_string(player)
        found = seen.setdefault(key, (player, state.legal_actions()))
        assert found == (player, state.legal_actions()), key
        for action in state.legal_actions():
            child = state.child(action)
            for p in (0, 1):
                before, after = state.information_state_string(p), child.information_state_string(p)
                assert after.startswith(before.split(":")[0]), (before, after)
                if "setup to choose" not in before:
                    assert after.startswith(before)
    # White's first information set after Black's opening move holds all six Black setups
    first = [s for s in states.values() if len(s.history()) == 3]
    key = first[0].information_state_string(1)
    assert sum(s.information_state_string(1) == key for s in first) == 6


def test_hidden_identities_stay_out_of_the_other_players_strings():
    game = pyspiel.load_game("samarra", {"length": 3})
    strings = set()
    for black in range(6):
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[black])
        state.apply_action(state.legal_actions()[0])
        strings.add((state.information_state_string(1), state.observation_string(1)))
    assert len(strings) == 1


def play_side_by_side(rules: Rules, rng: random.Random) -> int:
    """One random game played by the engine's Game and by the OpenSpiel state at once."""
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    names = setups(rules)
    i, j = rng.randrange(len(names)), rng.randrange(len(names))
    state = game.new_initial_state()
    base = 5 * rules.n_cells + 1
    state.apply_action(base + i)
    state.apply_action(base + j)
    engine = Game(start_position(rules, names[i], names[j]))
    steps = 0
    while engine.result is None:
        p = engine.position
        assert not state.is_terminal()
        assert state.current_player() == p.to_move
        actions = legal_actions(p)
        codes = [action_code(p, a) for a in actions]
        assert sorted(codes) == state.legal_actions()
        assert [code_action(p, c) for c in codes] == actions
        k = rng.randrange(len(actions))
        label = state.action_to_string(p.to_move, codes[k])
        kind = actions[k].kind
        assert kind in label or (kind == "move" and " to " in label), (label, actions[k])
        engine.play(actions[k])
        state.apply_action(codes[k])
        steps += 1
    assert state.is_terminal()
    winner = engine.result.winner
    expected = [0.0, 0.0] if winner is None else ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert state.returns() == expected
    return steps


def test_engine_and_openspiel_game_agree_action_for_action():
    rng = random.Random(19)
    games = 0
    for knobs in every_knob_combination():
        for width, length, limit in ((3, 3, {"max_actions": 30}), (3, 4, {"horizon": 12}),
                                     (4, 3, {"max_actions": 20})):  # fmt: skip
            rules = Rules(width=width, length=length, **knobs, **limit)
            for _ in range(11):
                play_side_by_side(rules, rng)
                games += 1
    assert games == 64 * 3 * 11
