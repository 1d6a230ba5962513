import itertools

import numpy as np
import pytest

from panache import Rules
from panache.duel import max_points
from panache.three import solve_three
from panache.turn import solve_turn
from tests.panache import brute

SMALL = [
    Rules(n_dice=2, start_points=2),
    Rules(n_dice=2, start_points=3, counter_attacks=False, mp_stake_factor=1),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", [
    pytest.param(SMALL[0], id="default-faces"),
    pytest.param(SMALL[1], id="no-counters", marks=pytest.mark.large),  # minutes: -m large
])  # fmt: skip
def test_three_players_match_plain_value_iteration(rules):
    sol = solve_three(rules)
    win, first = brute.three(
        rules.face_values, rules.n_dice, rules.start_points, rules.counter_attacks,
        rules.mp_stake_factor,
    )  # fmt: skip
    assert sol.exact  # every class settled on a pure equilibrium
    for key, chances in win.items():
        assert np.allclose(sol.chances(*key), chances, atol=1e-12, rtol=0), key
    assert np.allclose(sol.start.to_numpy(), first, atol=1e-12, rtol=0)


def test_three_player_table_is_a_distribution():
    rules = Rules(start_points=10)
    sol = solve_three(rules)
    top = max_points(rules)
    assert sol.win.shape == (top**3, 3)
    assert np.allclose(sol.win.sum(axis=1), 1.0, atol=1e-12)
    assert (sol.win.to_numpy() >= -1e-15).all()
    assert sol.start.sum() == pytest.approx(1.0, abs=1e-12)
    # a player with more points, everything else equal, is better off
    assert sol.chances(9, 5, 5)[0] > sol.chances(3, 5, 5)[0]
    with pytest.raises(ValueError, match="next_points must be"):
        sol.chances(1, 0, 1)


def test_classes_are_flagged():
    sol = solve_three(Rules(start_points=10))
    classes = sol.classes
    assert len(classes) == (15**3 - 15) // 3 + 15  # rotation classes of 1..15
    settled = classes["period"] == 1
    assert (classes.loc[settled, "spread"] == 0).all()
    # a pure stationary equilibrium is a best reply to its own values, to rounding
    assert (classes.loc[settled, "regret"] <= 1e-14).all()
    assert (~settled).any()  # these rules have cycling classes, solved as mixtures
    assert (classes.loc[~settled, "spread"] > 0).all()
    assert (classes["regret"] >= 0).all()
    assert sol.exact == (classes["regret"] <= 1e-9).all()
    assert sol.max_spread == classes["spread"].max()
    assert sol.max_regret == classes["regret"].max()
    with pytest.raises(ValueError, match="play_rounds must be >= 1"):
        solve_three(Rules(start_points=10), play_rounds=0)


def _held(sol) -> dict:
    """The solution's held exchanges as :func:`brute.three` reads them."""
    held: dict = {}
    for (a, b, c, target, level), row in sol.held.iterrows():
        held.setdefault((a, b, c), {})[(target, level)] = (
            row["target_counters"], row["attacker_counters"],
        )  # fmt: skip
    return held


def _independent_gaps(sol, rules, table, keys=None):
    """Per state, by plain enumeration: the mover's best one-turn reply to ``table``
    (the held exchanges played as held) and the most a held exchange's counter
    decision loses to its best."""
    counter_gaps: dict = {}
    replies = brute.three(
        rules.face_values, rules.n_dice, rules.start_points, rules.counter_attacks,
        rules.mp_stake_factor, reply_to=table if keys is None else _Only(table, keys),
        held=_held(sol), counter_gaps=counter_gaps,
    )  # fmt: skip
    return replies, counter_gaps


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [Rules(n_dice=2, start_points=4), Rules(n_dice=3, start_points=2)],
    ids=["mixed-exact", "mixed-approximate"],
)
def test_regret_bounds_every_one_turn_deviation(rules):
    # classes with no pure stationary equilibrium are solved as mixtures; the regret
    # they report must bound what any mover gains by deviating for one turn, which a
    # plain enumeration of every turn measures independently of the solver
    sol = solve_three(rules)
    assert (sol.classes["period"] != 1).any()  # the case this test is about
    top = max_points(rules)
    table = {
        key: tuple(sol.chances(*key)) for key in itertools.product(range(1, top + 1), repeat=3)
    }
    replies, counter_gaps = _independent_gaps(sol, rules, table)
    regret = sol.classes["regret"]
    worst = 0.0
    for key, reply in replies.items():
        cls = min(key, key[1:] + key[:1], key[2:] + key[:2])
        # two-sided: a stored chance above every reply is no equilibrium value either
        gap = max(abs(reply[0] - table[key][0]), counter_gaps.get(key, 0.0))
        assert gap <= regret.loc[cls] + 1e-12, (key, gap, regret.loc[cls])
        worst = max(worst, gap)
    # and the bound is tight: the largest reported regret is reached by some state
    assert worst == pytest.approx(sol.max_regret, abs=1e-12)


@pytest.mark.slow
def test_classes_called_exact_pass_an_independent_two_sided_check():
    """The README's example rules: a class counts as exact exactly when the plain
    enumeration of one-turn replies finds every state's stored mover chance equal to
    its best reply (within 1e-9 on both sides) and every held exchange's counters
    best replies too. Before the check was two-sided, the mixed classes were called
    exact while storing up to 2.1e-3 above every reply; with exchanges held at
    another equilibrium, every class of these rules is exact."""
    rules = Rules(n_dice=2, start_points=4)
    sol = solve_three(rules)
    top = max_points(rules)
    table = {
        key: tuple(sol.chances(*key)) for key in itertools.product(range(1, top + 1), repeat=3)
    }
    replies, counter_gaps = _independent_gaps(sol, rules, table)
    worst: dict[tuple, float] = {}
    for key, reply in replies.items():
        cls = min(key, key[1:] + key[:1], key[2:] + key[:2])
        gap = max(abs(reply[0] - table[key][0]), counter_gaps.get(key, 0.0))
        worst[cls] = max(worst.get(cls, 0.0), gap)
    called_exact = sol.classes["regret"] <= 1e-9
    for cls, gap in worst.items():
        assert (gap <= 1e-9) == called_exact.loc[cls], (cls, gap)
    assert sol.exact and all(gap <= 1e-9 for gap in worst.values())
    assert len(sol.held) > 0 and set(counter_gaps) == {k[:3] for k in sol.held.index}


def test_decisions_reproduce_the_solved_values():
    """In a class solved in pure strategies, the mover's best reply (the policy the
    simulator plays) gives back the state's three chances exactly."""
    rules = Rules(n_dice=2, start_points=4)
    sol = solve_three(rules)
    top = max_points(rules)
    pure = sol.classes["period"] == 1
    checked = 0
    for a, b, c in itertools.product(range(1, top + 1), repeat=3):
        if not pure[min((a, b, c), (b, c, a), (c, a, b))]:
            continue
        after = sol.turn_utility(a, b, c)
        turn = solve_turn(rules, after["mover"].to_numpy())
        chances = turn.distribution.to_numpy() @ after.loc[turn.distribution.index].to_numpy()
        assert np.allclose(chances, sol.chances(a, b, c), atol=1e-12, rtol=0), (a, b, c)
        checked += 1
    assert checked > 0.9 * top**3
    d = sol.decisions(top, 1, 1)
    assert set(d["attack"]) <= {0, 1, 2} and d["mp_target"] in (0, 1, 2)
    assert (d["mp_stake"] > 0) == (d["mp_target"] > 0)
    # round 1: seat 0's best turn under its utility is its chance from the start
    first = solve_turn(rules, sol.round1_utility(0).to_numpy())
    assert first.value == pytest.approx(sol.start[0], abs=1e-12)


def test_decisions_refuse_states_off_the_table():
    sol = solve_three(Rules(n_dice=2, start_points=4))
    with pytest.raises(ValueError, match="last_points must be"):
        sol.decisions(1, 1, 0)
    with pytest.raises(ValueError, match="points_before"):
        sol.round1_utility(1, ())
    with pytest.raises(ValueError, match="seat must be"):
        sol.round1_utility(3)


@pytest.mark.slow
def test_cycling_classes_are_solved_exactly_with_exchanges_held():
    """The README's example rules: of the three classes whose best responses cycle,
    two have a pure stationary equilibrium that the best-response steps circle
    without meeting, found by the search; the third has none while every exchange
    plays the selected equilibrium (counters whenever consistent: the selection
    switches near its values), and one where three of its exchanges are held at
    their other pure equilibrium (the target not countering). The independent
    two-sided check of these classes is
    :func:`test_classes_called_exact_pass_an_independent_two_sided_check`."""
    sol = solve_three(Rules(n_dice=2, start_points=4))
    classes = sol.classes
    assert classes["method"].value_counts().to_dict() == {"pure": 73, "pure search": 3}
    assert (classes.loc[classes["method"] == "pure", "period"] == 1).all()
    assert (classes.loc[classes["method"] != "pure", "period"] != 1).all()
    assert (classes["regret"] <= 1e-9).all() and sol.exact
    held = sol.held
    assert classes["held_exchanges"].sum() == len(held) == 3
    assert set(held.index.droplevel(["target", "level"])) <= {(3, 6, 4), (6, 4, 3), (4, 3, 6)}
    assert held["target_counters"].eq(0).all() and held["attacker_counters"].eq(1).all()
    # the solution's decisions play the held counters
    (a, b, c, target, level), _ = next(held.iterrows())
    d = sol.decisions(a, b, c)
    assert d["target_counters"][level - 1][target - 1] is False


class _Only(dict):
    """A table whose iteration lists only some of its states (the states whose
    replies are enumerated); every state can still be read."""

    def __init__(self, table, keys):
        super().__init__(table)
        self.keys_listed = list(keys)

    def __iter__(self):
        return iter(self.keys_listed)


@pytest.mark.slow
def test_a_mixed_class_stores_a_mixture_of_best_replies():
    """Independently of the solver, on rules with a class solved in mixed strategies:
    in each of its states the stored chances are a mixture of the mover's best
    replies just below and just above its no-change chance (plain enumeration of
    every turn, the next state's chance for the mover-to-be moved by 1e-7 either
    way), with one chance for the mover on both sides, the equilibrium's
    indifference; and at the stored values the reply gains nothing (two-sided)."""
    rules = Rules(n_dice=3, start_points=4)
    sol = solve_three(rules)
    classes = sol.classes
    assert classes["method"].value_counts().to_dict() == {
        "pure": 107, "pure search": 9, "counter switch": 1, "not found": 1, "mixed": 1,
    }  # fmt: skip
    ((a, b, c),) = classes.index[classes["method"] == "mixed"]
    assert classes.loc[(a, b, c), "regret"] <= 1e-9
    top = max_points(rules)
    table = {
        key: tuple(sol.chances(*key)) for key in itertools.product(range(1, top + 1), repeat=3)
    }
    args = (rules.face_values, rules.n_dice, rules.start_points, rules.counter_attacks,
            rules.mp_stake_factor)  # fmt: skip
    states = [(a, b, c), (b, c, a), (c, a, b)]
    eps = 1e-7
    replies = {0: brute.three(*args, reply_to=_Only(table, states))}
    for sign in (-1, 1):
        moved = dict(table)
        for key in states:
            v = list(moved[key])
            v[2] += sign * eps  # the previous mover's chance when nothing changes
            moved[key] = tuple(v)
        replies[sign] = brute.three(*args, reply_to=_Only(moved, states))
    mixtures = 0
    for key in states:
        stored = np.array(table[key])
        assert abs(replies[0][key][0] - stored[0]) <= 1e-9, key
        below, above = np.array(replies[-1][key]), np.array(replies[1][key])
        assert abs(below[0] - above[0]) <= 1e-6, key  # indifferent, to the shift
        if np.allclose(below, above, atol=1e-6, rtol=0):
            assert np.allclose(stored, below, atol=1e-6, rtol=0), key
            continue
        gap = below - above
        theta = float(np.dot(stored - above, gap) / np.dot(gap, gap))
        assert 0 < theta < 1, (key, theta)
        assert np.allclose(stored, theta * below + (1 - theta) * above, atol=1e-6, rtol=0), key
        # the solution names the mixture: its chance on the plan below, and the two plans
        assert abs(sol.mixed.loc[key] - theta) <= 1e-5, key
        (first, plan_below), (second, plan_above) = sol.mixture(*key)
        assert first == sol.mixed.loc[key] and abs(first + second - 1) <= 1e-15
        assert plan_below != plan_above
        mixtures += 1
    assert mixtures > 0
    assert len(sol.mixed) == mixtures  # the only mixed class of these rules


def test_the_simulator_s_tables_reuse_the_solve_of_the_same_rules():
    from panache.game import three_tables

    rules = Rules(start_points=4, n_players=3)
    solve_three(rules)  # as a notebook calls it
    before = solve_three.cache_info().misses
    three_tables(rules, progress=False)  # as the simulator calls it
    assert solve_three.cache_info().misses == before


def test_the_three_player_solve_refuses_rules_for_four_or_more():
    # solve_three used to answer for three players whatever n_players the rules gave
    for n_players in (4, 6):
        with pytest.raises(ValueError, match=rf"n_players must be 3 .*got n_players={n_players}"):
            solve_three(Rules(n_dice=2, start_points=4, n_players=n_players))
    three = solve_three(Rules(n_dice=2, start_points=4, n_players=3))
    default = solve_three(Rules(n_dice=2, start_points=4))  # 2, the default: not set
    assert three.rules.n_players == 3 and np.array_equal(three._table, default._table)


def test_an_exchange_played_with_any_counter_chances_matches_its_iteration():
    """The closed form of an exchange with counter chances (sigma, tau), against the
    plain iteration of X = s Ht + q (sigma Y + (1 - sigma) A), Y = s Ha + q (tau X +
    (1 - tau) A); at pure chances it is the selected pair's closed form, and the
    counter incentives are the one-shot gains the selection compares."""
    from panache._three_kernels import (
        counter_incentives,
        counter_violation,
        exchange,
        exchange_with,
    )

    rng = np.random.default_rng(16)
    s = 11 / 36
    q = 1 - s
    for _ in range(200):
        ht, ha, decline = rng.dirichlet(np.ones(3), size=3)
        target = int(rng.integers(1, 3))
        sigma, tau = rng.choice([0.0, 1.0, rng.random()], size=2)
        x = y = decline
        for _ in range(2000):
            x = s * ht + q * (sigma * y + (1 - sigma) * decline)
            y = s * ha + q * (tau * x + (1 - tau) * decline)
        x0, dx = exchange_with(s, q, ht, ha, decline, sigma, tau)
        assert np.allclose(x0 + dx * decline, x, atol=1e-14, rtol=0)
        gain_target, gain_attacker = counter_incentives(s, q, ht, ha, decline, target, sigma, tau)
        assert gain_target == pytest.approx(y[target] - decline[target], abs=1e-14)
        assert gain_attacker == pytest.approx(x[0] - decline[0], abs=1e-14)
        # the pair the selection picks is a pair with no profitable counter deviation
        x0, dx, tc, ac = exchange(s, q, ht, ha, decline, target, True)
        if dx >= 0:
            picked = exchange_with(s, q, ht, ha, decline, float(tc), float(ac))
            assert np.allclose(picked[0], x0, atol=1e-15) and picked[1] == pytest.approx(dx)
            gains = counter_incentives(s, q, ht, ha, decline, target, float(tc), float(ac))
            assert counter_violation(gains[0], float(tc)) <= 1e-12
            assert counter_violation(gains[1], float(ac)) <= 1e-12
    # a counter taken at a loss, or a gain forgone, is measured by its chance
    assert counter_violation(0.2, 1.0) == 0.0
    assert counter_violation(0.2, 0.25) == pytest.approx(0.15)
    assert counter_violation(-0.2, 0.25) == pytest.approx(0.05)
    assert counter_violation(-0.2, 0.0) == 0.0


def test_three_size_is_the_peak_memory_and_a_huge_start_is_refused_at_once():
    from panache.three import three_size
    from tests.tabletop.test_budget import assert_estimate, peak_bytes, refused_at_once

    solve_three.__wrapped__(Rules(start_points=4, n_dice=2))  # loads the kernels and the bar
    rules = Rules(start_points=6, n_dice=3)
    assert_estimate(three_size(rules), peak_bytes(lambda: solve_three.__wrapped__(rules)))
    refused_at_once(lambda: solve_three(Rules(start_points=1000)), "start_points=1000",
                    "states x 136 bytes")  # fmt: skip


def test_batches_of_classes_solve_what_whole_levels_solve(monkeypatch):
    """The classes of one total go to the kernels in batches (bar, Ctrl-C); one group
    per batch solves the very tables of the usual batches."""
    import panache.three as three

    rules = Rules(start_points=5, n_dice=2)
    whole = three.solve_three.__wrapped__(rules)
    monkeypatch.setattr(three, "Chunks", lambda total: ((g, g + 1) for g in range(total)))
    assert three.solve_three.__wrapped__(rules) == whole


def test_the_solve_shows_its_bar_when_asked(capsys):
    solve_three.cache_clear()  # a cached answer needs no work, so shows no bar
    solve_three(Rules(start_points=4, n_dice=2), progress=True)
    assert "panache three players" in capsys.readouterr().err


#: Rules with a class at a counter switch that the search alone leaves approximate.
SWITCH = Rules(n_dice=3, start_points=8)


def _exchange_gains(sol, state, target, level):
    """The target's gain from countering and the attacker's from countering back in
    an exchange of ``state`` played at its held chances, by plain iteration of
    X = s Ht + q (sigma Y + (1 - sigma) A), Y = s Ha + q (tau X + (1 - tau) A)
    against the stored chances."""
    from panache._three_kernels import stake_ceiling, state_parts

    p = sol._params
    a, b, c = state
    ceiling = stake_ceiling(a, sol.rules.mp_stake_factor, sol.rules.mp_stake_cap or 0)
    parts = state_parts(a, b, c, sol._table, p["duel"], p["n"], p["hit_given"], p["pi"], ceiling)
    ht, ha = parts[0][target, level], parts[1][target, level]
    nxt = sol.chances(b, c, a)
    decline = np.array([nxt[2], nxt[0], nxt[1]])  # nothing changes: the next player moves
    sigma, tau = sol.held.loc[(a, b, c, target, level)]
    s, q = p["s"], p["q"]
    x = y = decline
    for _ in range(3000):
        x = s * ht + q * (sigma * y + (1 - sigma) * decline)
        y = s * ha + q * (tau * x + (1 - tau) * decline)
    return y[target] - decline[target], x[0] - decline[0]


@pytest.mark.slow
def test_a_counter_switch_is_bridged_by_a_mixed_counter(monkeypatch):
    """A class that the search alone leaves at a counter switch (its epsilon above
    1e-9) is exact once one exchange plays its mixed equilibrium: each stored mover
    chance is its best one-turn reply, the turn optimised by ``solve_turn`` on the
    solution's own turn utility, on both sides."""
    import panache._three_switch as switch

    sol = solve_three(SWITCH)
    classes = sol.classes
    bridged = list(classes.index[classes["method"] == "mixed counter"])
    assert len(bridged) == 1
    assert (classes.loc[bridged, "regret"] <= 1e-9).all()
    assert classes.loc[bridged, "held_exchanges"].tolist() == [1]
    for a, b, c in bridged:
        for state in ((a, b, c), (b, c, a), (c, a, b)):
            after = sol.turn_utility(*state)
            reply = solve_turn(SWITCH, after["mover"].to_numpy()).value
            assert abs(reply - sol.chances(*state)[0]) <= 1e-9, state
    monkeypatch.setattr(switch, "switch_stage", lambda *args: None)
    alone = solve_three.__wrapped__(SWITCH)
    assert (alone.classes.loc[bridged, "method"] == "counter switch").all()
    assert (alone.classes.loc[bridged, "regret"] > 1e-6).all()
    # here nothing is lost: every class the search alone solves is still exact (the
    # classes above the bridged one read its new values, so their methods may differ)
    before = alone.classes["regret"] <= 1e-9
    assert (classes.loc[before, "regret"] <= 1e-9).all()
    assert (classes["regret"] <= 1e-9).sum() > before.sum()


@pytest.mark.slow
def test_a_mixed_counter_leaves_both_sides_of_its_exchange_indifferent():
    """The exchange held at a mixed equilibrium: the target counters and the attacker
    counters back with chances strictly between 0 and 1, and at the stored chances
    each is indifferent (a best reply), by plain iteration of the exchange."""
    sol = solve_three(SWITCH)
    held = sol.held
    mixed = held[((held > 0) & (held < 1)).all(axis=1)]
    assert len(mixed) == 1
    for a, b, c, target, level in mixed.index:
        gain_target, gain_attacker = _exchange_gains(sol, (a, b, c), target, level)
        assert abs(gain_target) <= 1e-9 and abs(gain_attacker) <= 1e-9
        # the solution's decisions play those chances
        played = sol.decisions(a, b, c)["target_counters"][level - 1][target - 1]
        assert played == mixed.loc[(a, b, c, target, level), "target_counters"]


@pytest.mark.slow
def test_every_class_called_exact_has_every_state_at_its_best_reply():
    """The whole table of rules with a mixed counter: in every class called exact,
    each state's stored mover chance is the mover's best one-turn reply within 1e-9
    (``solve_turn`` on the turn utility, on both sides), and every held exchange's
    counters are best replies."""
    sol = solve_three(SWITCH)
    exact = sol.classes["regret"] <= 1e-9
    assert exact.mean() > 0.97 and (sol.classes["method"] == "mixed counter").any()
    worst = 0.0
    for a, b, c in sol.classes.index[exact]:
        for state in {(a, b, c), (b, c, a), (c, a, b)}:
            after = sol.turn_utility(*state)
            reply = solve_turn(SWITCH, after["mover"].to_numpy()).value
            worst = max(worst, abs(reply - sol.chances(*state)[0]))
    assert worst <= 1e-9
    for (a, b, c, target, level), row in sol.held.iterrows():
        gain_target, gain_attacker = _exchange_gains(sol, (a, b, c), target, level)
        for gain, chance in ((gain_target, row["target_counters"]),
                             (gain_attacker, row["attacker_counters"])):  # fmt: skip
            assert (1 - chance) * max(gain, 0) <= 1e-9 and chance * max(-gain, 0) <= 1e-9
