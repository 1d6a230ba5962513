import itertools

import numpy as np
import pytest

from panache import Rules, evaluate_policy, simulate_turns, solve_turn
from panache.dice import dice_space
from panache.policy import policy_layout
from panache.thumb import Clause, DecisionList, rule_of_thumb, search_rules
from tabletop.stats import estimate_mean, estimate_proportion
from tests.conftest import Z_TOL
from tests.panache import brute


def plain_choose(rules, clauses):
    """The decision list read clause by clause, in plain Python."""
    fv = dict(enumerate(rules.face_values, start=1))

    def best(dice):
        return max(dice, key=lambda f: (fv[f], f))

    def closest(s, dice):
        return max(dice, key=lambda f: (-abs(s + fv[f]), fv[f], f))

    def holds(c, s, started, rolled):
        makes = s + sum(fv[f] for f in rolled)
        if c.condition == "always":
            return True
        return {
            "rolled": lambda: len(rolled) == c.arg,
            "rolled_at_most": lambda: len(rolled) <= c.arg,
            "makes": lambda: makes == c.arg,
            "makes_at_least": lambda: makes >= c.arg,
            "total_at_least": lambda: started and s >= c.arg,
            "total_at_most": lambda: started and s <= c.arg,
        }[c.condition]()

    def act(c, s, rolled):
        if c.action == "stop":
            return rolled
        if c.action == "at_least":
            return tuple(f for f in rolled if fv[f] >= c.value) or (best(rolled),)
        if c.action == "zeros":
            return tuple(f for f in rolled if fv[f] == 0) or (closest(s, rolled),)
        if c.action == "closest":
            return (closest(s, rolled),)
        dice = sorted(rolled, key=lambda f: (fv[f], f), reverse=True)
        kept = [dice[0]]
        for i in range(1, len(dice)):
            if fv[dice[i]] < c.value[min(len(dice) - i, 3) - 1]:
                break
            kept.append(dice[i])
        return tuple(kept)

    def choose(set_aside, rolled):
        s = sum(fv[f] for f in set_aside)
        for c in clauses:
            if holds(c, s, bool(set_aside), rolled):
                return act(c, s, rolled)
        raise AssertionError("the last clause always holds")

    return choose


RULE_LISTS = [
    (Clause("always", "at_least", value=0),),
    (Clause("makes", "stop", arg=0), Clause("always", "at_least", value=1)),
    (Clause("makes_at_least", "closest", arg=3), Clause("rolled", "zeros", arg=2),
     Clause("always", "ladder", value=(-1, 0, 1))),
    (Clause("total_at_most", "at_least", arg=-2, value=-1), Clause("rolled_at_most", "stop", arg=2),
     Clause("total_at_least", "zeros", arg=1), Clause("always", "ladder", value=(-3, -1, 1))),
]  # fmt: skip


@pytest.mark.parametrize("clauses", RULE_LISTS, ids=range(len(RULE_LISTS)))
@pytest.mark.parametrize("rules", [Rules(), Rules(n_dice=4, face_values=(-2, -1, 0, 0, 1, 2))])
def test_every_decision_matches_a_plain_reading(rules, clauses):
    policy = DecisionList(clauses).policy(rules)
    choose = plain_choose(rules, clauses)
    space = dice_space(rules.n_dice)
    _, entry_a, entry_r = policy_layout(rules.n_dice)
    for e in range(entry_r.size):
        a, r = space.faces(entry_a[e]), space.faces(entry_r[e])
        assert policy.choose(a, r) == tuple(sorted(choose(a, r), reverse=True)), (a, r)


@pytest.mark.parametrize("utility", ["ev", "zero"])
@pytest.mark.parametrize("n", [2, 3])
def test_costs_match_a_brute_force_evaluation(n, utility):
    rules = Rules(n_dice=n)
    found = search_rules(rules, utility, max_clauses=3, beam=5)
    u = {"ev": float, "zero": lambda t: float(t == 0)}[utility]
    optimum = brute.optimal_value(rules.face_values, n, u)
    assert found.optimum == pytest.approx(optimum, abs=1e-12)
    for rule, cost in zip(found.best, found.table["cost"], strict=True):
        dist = brute.policy_distribution(rules.face_values, n, plain_choose(rules, rule.clauses))
        value = sum(p * u(t) for t, p in dist.items())
        assert cost == pytest.approx(optimum - value, abs=1e-12)
    # each length listed improves on the shorter ones
    assert np.all(np.diff(found.table["cost"]) < 0)
    assert found.table.index.tolist() == [len(r) for r in found.best]


@pytest.mark.parametrize(("utility", "margin"), [("ev", 0.05), ("zero", 0.02)])
def test_cost_matches_monte_carlo(utility, margin):
    rules = Rules()
    rule = rule_of_thumb(rules, utility, margin)
    policy = rule.policy(rules)
    exact = evaluate_policy(rules, policy).expect(rules, utility)
    totals = simulate_turns(rules, policy, 200_000, seed=11)
    if utility == "ev":
        est = estimate_mean(totals)
    else:
        est = estimate_proportion(int((totals == 0).sum()), totals.size)
    assert abs(est.z_score(exact)) < Z_TOL
    assert solve_turn(rules, utility).value - exact <= margin


def test_the_best_single_clause_is_the_best_of_all_single_clauses():
    rules = Rules(n_dice=3)
    found = search_rules(rules, "zero", max_clauses=1)
    fv = sorted(set(rules.face_values))
    candidates = [Clause("always", "stop"), Clause("always", "zeros"),
                  Clause("always", "closest")]  # fmt: skip
    candidates += [Clause("always", "at_least", value=v) for v in fv]
    candidates += [Clause("always", "ladder", value=t)
                   for t in itertools.combinations_with_replacement(fv, 3)]  # fmt: skip
    values = [evaluate_policy(rules, DecisionList((c,)).policy(rules)).expect(rules, "zero")
              for c in candidates]  # fmt: skip
    assert found.table["value"].iloc[0] == pytest.approx(max(values), abs=1e-15)


def test_rule_of_thumb_respects_the_margin_and_prefers_short_lists():
    found = search_rules(Rules(), "zero", max_clauses=3, beam=5)
    assert found.shortest_within(1.0) is found.best[0]
    assert found.shortest_within(0.0) is found.best[-1]
    costs = found.table["cost"].to_numpy()
    picked = found.shortest_within(costs[1])
    assert len(picked) == found.table.index[1]


def test_bad_inputs():
    with pytest.raises(ValueError, match="condition must be one of"):
        Clause("sometimes", "stop")
    with pytest.raises(ValueError, match="takes an arg iff"):
        Clause("rolled", "stop")
    with pytest.raises(ValueError, match="takes a value iff"):
        Clause("always", "at_least")
    with pytest.raises(ValueError, match="three thresholds"):
        Clause("always", "ladder", value=(0, 1))
    with pytest.raises(ValueError, match=r"clauses\[-1\] must have condition .always.*got Clause"):
        DecisionList((Clause("rolled", "stop", arg=2),))
    with pytest.raises(TypeError, match="non-empty sequence of Clause"):
        DecisionList(())
    with pytest.raises(ValueError, match=r"max_clauses must be 1\.\.5, got 6"):
        search_rules(Rules(), "ev", max_clauses=6)
    with pytest.raises(ValueError, match="utility name must be one of"):
        search_rules(Rules(), "win")
    with pytest.raises(TypeError, match="utility must be a utility name"):
        search_rules(Rules(), np.zeros(26))
    search = search_rules(Rules(n_dice=2), "ev", max_clauses=1)
    with pytest.raises(ValueError, match="margin must be a finite number >= 0"):
        search.shortest_within(-1)
    with pytest.raises(ValueError, match=r"margin must be a finite number >= 0\.0, got nan"):
        search.shortest_within(float("nan"))
    with pytest.raises(TypeError, match=r"margin must be a real number, got .0\.1."):
        search.shortest_within("0.1")
