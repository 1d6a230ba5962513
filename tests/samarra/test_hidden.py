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
    with pytest.raises(ValueError, match=r"horizon must be 0\.\.200 .*, got -1"):
        solve_hidden(Rules(length=3), -1)
    with pytest.raises(TypeError, match=r"rules must be a samarra\.Rules"):
        solve_hidden("3x3", 2)
    with pytest.raises(TypeError, match="symmetric must be a bool, got 1"):
        solve_hidden(Rules(length=3), 2, symmetric=1)
    with pytest.raises(ValueError, match="side must be 0, 1, 'black' or 'white'"):
        solve_hidden(Rules(length=3), 1).setup_mix("red")


def test_value_of_the_first_horizon_by_hand():
    """3 x 3, H = 1: Black's servant steps forward, out of every power's reach, and wins
    the tie-break whatever White's setup."""
    solution = solve_hidden(Rules(length=3), 1)
    assert solution.value == 1.0
    assert solution.bounds == (1.0, 1.0)


def test_identical_rows_are_found_exactly():
    """Against a brute force on random small integer matrices with repeated rows."""
    from scipy.sparse import csr_matrix

    from samarra.hidden import _identical_rows

    rng = np.random.default_rng(5)
    for _ in range(20):
        base = rng.integers(-1, 2, size=(6, 5)) * (rng.random((6, 5)) < 0.5)
        dense = base[rng.integers(0, 6, size=15)]
        seen, expected = set(), []
        for row in dense:
            key = tuple(row)
            expected.append(key in seen)
            seen.add(key)
        assert _identical_rows(csr_matrix(dense)).tolist() == expected


@pytest.mark.parametrize("knobs", [
    {}, {"first": "white"}, {"adjacency": "king", "auto_death": True},
    {"allow_pass": True, "no_repetition": True}, {"win_on_arrival_only": True},
])  # fmt: skip
def test_the_mirror_maps_the_game_onto_itself(knobs):
    """Sequences, information sets and leaves map onto sequences, sets and leaves with
    the same payoffs; the map is an involution that fixes only the empty sequences."""
    from samarra.hidden_tree import mirror
    from samarra.information import mirror_code, mirror_token

    rules = Rules(length=3, horizon=4, **knobs)
    form = build(rules)
    maps = mirror(form)
    assert maps is not None
    for side in (0, 1):
        m = maps[side]
        assert (m[m] == np.arange(m.size)).all()
        assert np.flatnonzero(m == np.arange(m.size)).tolist() == [0]
        codes = form.codes[side]
        assert all(mirror_code(rules, int(c)) == int(codes[m[s]])
                   for s, c in enumerate(codes) if s > 0)  # fmt: skip
    pairs = set(zip(form.rows.tolist(), form.cols.tolist(), form.payoff.tolist(), strict=True))
    assert {(int(maps[0][r]), int(maps[1][c]), u) for r, c, u in pairs} == pairs
    assert all(mirror_token(rules, mirror_token(rules, t)) == t for t in form.tokens)
    # a game that is not its own mirror is refused: one payoff changed
    from dataclasses import replace

    payoff = form.payoff.copy()
    payoff[0] = -payoff[0]
    assert mirror(replace(form, payoff=payoff)) is None


@pytest.mark.parametrize("knobs", [
    {}, {"first": "white"}, {"adjacency": "king", "auto_death": True},
    {"allow_pass": True, "no_repetition": True}, {"win_on_arrival_only": True},
])  # fmt: skip
@pytest.mark.parametrize("horizon", [3, 5])
def test_the_symmetric_programme_gives_the_full_programmes_value(knobs, horizon):
    """Restricted to mirror-symmetric plans, with either side's plan as the variables,
    the value is the full programme's and the full game's best responses find nothing."""
    from samarra.hidden import _behaviour, _solve_lp

    rules = Rules(length=3, horizon=horizon, **knobs)
    full = solve_hidden(rules, symmetric=False)
    assert full.exploitability <= 1e-9
    form = full.form
    for symmetric in (False, True):
        for side in (0, 1):
            x, y = _solve_lp(form, symmetric, side)
            behaviour = (_behaviour(form, 0, x), _behaviour(form, 1, y))
            v_black, v_white = best_responses(form, behaviour)
            assert (v_white - v_black) / 2 <= 1e-9
            assert v_black == pytest.approx(full.value, abs=1e-9)
    solution = solve_hidden(rules)
    assert solution.value == pytest.approx(full.value, abs=1e-9)
    assert solution.exploitability <= 1e-9
    assert solution.n_sequences == full.n_sequences


def test_twin_sequences_are_left_out_and_the_equilibrium_stays_exact():
    """At the last action before the horizon, moves that leave the tie-break as it is
    are twins: the programme keeps one row of each, and the full game's best responses
    still find nothing to gain."""
    from scipy.sparse import coo_matrix, hstack

    from samarra.hidden import _identical_rows, _realization

    rules = Rules(length=3, horizon=6)
    form = build(rules)
    nb, nw = form.n_sequences
    AT = coo_matrix((form.payoff, (form.cols, form.rows)), shape=(nw, nb))
    owner = np.concatenate([[-1], np.repeat(np.arange(form.n_infosets[1]), form.n_actions[1])])
    in_set = coo_matrix((np.ones(nw), (np.arange(nw), owner + 1)))
    has_child = np.zeros(nw, bool)
    has_child[form.parent[1]] = True
    same_payoffs = _identical_rows(hstack([AT, in_set]).tocsr()) & ~has_child
    assert same_payoffs.sum() > 0.2 * nw
    solution = solve_hidden(rules)
    assert solution.exploitability <= 1e-9
    assert _realization(form, 1, solution.behaviour[1]).min() >= 0.0
