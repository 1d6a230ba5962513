"""The hidden-information solve against independent references.

* a brute force: the reduced normal form of the OpenSpiel game (every pure plan of
  each player, each pair played out on ``pyspiel`` states), solved as a matrix game;
* OpenSpiel's own ``exploitability`` (best responses over ``pyspiel`` states) of the
  returned strategies, and of a uniform policy beside the library's exact best
  responses;
* the perfect-information horizon value where no contact is possible before H, so that
  what is hidden cannot matter.
"""

import numpy as np
import pytest

from samarra import Rules, solve_horizon
from samarra.hidden import HiddenSolution, best_responses, solve_hidden
from samarra.hidden_tree import build
from tabletop.matrix_games import solve_zero_sum

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

import samarra.openspiel as sos  # noqa: E402


def reduced_plans(game, player):
    """Every reduced pure plan of ``player``: {information string: action} on the
    information sets its own earlier choices let it reach."""

    def reach(states):
        """The player's decision states reached from ``states`` before its next move."""
        out, stack = [], list(states)
        while stack:
            s = stack.pop()
            if s.is_terminal():
                continue
            if s.current_player() == player:
                out.append(s)
            else:
                stack.extend(s.child(a) for a in s.legal_actions())
        return out

    def plans(states):
        groups = {}
        for s in reach(states):
            groups.setdefault(s.information_state_string(player), []).append(s)
        result = [{}]
        for key, members in groups.items():
            options = []
            for a in members[0].legal_actions():
                for rest in plans([m.child(a) for m in members]):
                    options.append({key: a, **rest})
            result = [{**r, **o} for r in result for o in options]
        return result

    return plans([game.new_initial_state()])


def play(game, plans):
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(plans[p][state.information_state_string(p)])
    return state.returns()[0]


def brute_value(rules):
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    black, white = reduced_plans(game, 0), reduced_plans(game, 1)
    payoff = np.array([[play(game, (b, w)) for w in white] for b in black])
    return solve_zero_sum(payoff).value, payoff.shape


@pytest.mark.parametrize("knobs", [
    {}, {"first": "white"}, {"adjacency": "king", "auto_death": True},
    {"allow_pass": True, "no_repetition": True}, {"win_on_arrival_only": True},
])  # fmt: skip
@pytest.mark.parametrize("horizon", [1, 2])
def test_value_matches_the_reduced_normal_form(knobs, horizon):
    rules = Rules(length=3, horizon=horizon, **knobs)
    value, shape = brute_value(rules)
    solution = solve_hidden(rules)
    assert min(shape) > 1 or horizon == 1
    assert solution.value == pytest.approx(value, abs=1e-9)
    assert solution.exploitability <= 1e-9


def to_openspiel_policy(game, solution: HiddenSolution):
    table = os_policy.TabularPolicy(game)
    for side in (0, 1):
        for key, probs in solution.strategy(side).items():
            row = table.policy_for_key(key)
            row[:] = 0.0
            for action, p in probs.items():
                row[action] = p
    return table


@pytest.mark.parametrize(("knobs", "horizon"), [
    ({}, 3), ({"first": "white"}, 3), ({"adjacency": "king"}, 3), ({"auto_death": True}, 2),
])  # fmt: skip
def test_openspiel_measures_the_same_exploitability(knobs, horizon):
    rules = Rules(length=3, horizon=horizon, **knobs)
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    solution = solve_hidden(rules)
    table = to_openspiel_policy(game, solution)
    assert len(solution.strategy(0)) + len(solution.strategy(1)) == len(table.state_lookup)
    assert exploitability.exploitability(game, table) <= 1e-9
    assert solution.exploitability <= 1e-9
    # the value of the profile, played out by OpenSpiel
    from open_spiel.python.algorithms import expected_game_score

    score = expected_game_score.policy_value(game.new_initial_state(), [table, table])
    assert score[0] == pytest.approx(solution.value, abs=1e-9)


@pytest.mark.parametrize("horizon", [2, 3])
def test_exact_best_responses_match_openspiel_on_a_uniform_policy(horizon):
    rules = Rules(length=3, horizon=horizon)
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    form = build(rules)
    uniform = tuple(
        np.concatenate([[1.0], np.repeat(1.0 / form.n_actions[s], form.n_actions[s])])
        for s in (0, 1)
    )
    v_black, v_white = best_responses(form, uniform)
    expected = exploitability.exploitability(game, os_policy.TabularPolicy(game))
    assert (v_white - v_black) / 2 == pytest.approx(expected, abs=1e-12)
    assert expected > 0.1  # the uniform policy is far from an equilibrium


def test_counts_match_openspiel_enumeration():
    from open_spiel.python.algorithms import get_all_states

    rules = Rules(length=3, horizon=3)
    game = pyspiel.load_game("samarra", sos.params_of(rules))
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=False,
                                           to_string=lambda s: s.history_str())  # fmt: skip
    solution = solve_hidden(rules)
    assert solution.n_states == len(states)
    assert solution.n_leaves == sum(s.is_terminal() for s in states.values())
    keys = [set(), set()]
    for s in states.values():
        if not s.is_terminal():
            keys[s.current_player()].add(s.information_state_string(s.current_player()))
    assert solution.n_infosets == (len(keys[0]), len(keys[1]))
    n_seq = [1, 1]
    for s in states.values():
        if not s.is_terminal():
            p = s.current_player()
            key = s.information_state_string(p)
            if key in keys[p]:
                keys[p].discard(key)
                n_seq[p] += len(s.legal_actions())
    assert solution.n_sequences == tuple(n_seq)


@pytest.mark.parametrize(("table", "horizons"), [
    ("table33", [1]), pytest.param("table34", [1, 2], marks=pytest.mark.slow),
])  # fmt: skip
def test_without_contact_the_hidden_value_is_the_perfect_information_value(table, horizons,
                                                                          request):  # fmt: skip
    """On 3 x 3 no power can act before action 2, on 3 x 4 before action 3: until then
    the game is a race whose tie-break each side scores from its own figures alone."""
    table = request.getfixturevalue(table)
    perfect = solve_horizon(max_horizon=max(horizons), table=table, progress=False)
    for h in horizons:
        hidden = solve_hidden(table.rules, h)
        assert hidden.value == pytest.approx(perfect.summary.loc[h, "value to black"], abs=1e-9)


def test_setup_mixes_and_strategies_are_distributions():
    solution = solve_hidden(Rules(length=3), 4)
    for side in ("black", "white"):
        assert solution.setup_mix(side).sum() == pytest.approx(1.0, abs=1e-12)
        for probs in solution.strategy(side).values():
            assert sum(probs.values()) == pytest.approx(1.0, abs=1e-9)
            assert min(probs.values()) >= 0.0
    assert solution == solve_hidden(Rules(length=3, horizon=4))


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="horizon must be an int >= 0"):
        solve_hidden(Rules(length=3))
    with pytest.raises(ValueError, match=r"horizon must match rules\.horizon \(3\), got 4"):
        solve_hidden(Rules(length=3, horizon=3), 4)
    with pytest.raises(ValueError, match="horizon must be >= 0, got -1"):
        solve_hidden(Rules(length=3), -1)
    with pytest.raises(TypeError, match=r"rules must be a samarra\.Rules"):
        solve_hidden("3x3", 2)
    with pytest.raises(ValueError, match="side must be 0, 1, 'black' or 'white'"):
        solve_hidden(Rules(length=3), 1).setup_mix("red")


def test_value_of_the_first_horizon_by_hand():
    """3 x 3, H = 1: Black's servant steps forward, out of every power's reach, and wins
    the tie-break whatever White's setup."""
    solution = solve_hidden(Rules(length=3), 1)
    assert solution.value == 1.0
    assert solution.bounds == (1.0, 1.0)


def test_twin_sequences_are_left_out_and_the_equilibrium_stays_exact():
    """At the last action before the horizon, moves that leave the tie-break as it is
    are twins: the LP keeps one of each, and the full game's best responses still find
    nothing to gain."""
    from scipy.sparse import coo_matrix

    from samarra.hidden import _realization, _twins

    rules = Rules(length=3, horizon=6)
    form = build(rules)
    nb, nw = form.n_sequences
    A = coo_matrix((form.payoff, (form.rows, form.cols)), shape=(nb, nw)).tocsr()
    white_twins = _twins(form, 1, A.T.tocsr())
    assert white_twins.sum() > 0.2 * nw
    solution = solve_hidden(rules)
    assert solution.exploitability <= 1e-9
    plan = _realization(form, 1, solution.behaviour[1])
    assert plan[white_twins].max() == 0.0
