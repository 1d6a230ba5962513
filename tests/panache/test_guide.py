import re

import numpy as np
import pytest

from panache import Rules, evaluate_policy, solve_duel, solve_turn
from panache.committed import committed_duel
from panache.guide import duel_keeps, duel_spread, is_rule_line, player_sheet

RULES = Rules(n_dice=3, start_points=6)


@pytest.fixture(scope="module")
def sheet():
    return player_sheet(RULES, turn_margin=0.05, mp_margin=0.02, max_clauses=2, beam=5)


def test_sheet_picks_the_shortest_list_within_the_margins(sheet):
    for goal, rule, margin in (("ev", sheet.turn_rule, 0.05), ("zero", sheet.mp_rule, 0.02)):
        rows = sheet.lists.loc[goal]
        assert rows.loc[len(rule), "cost"] <= margin
        assert (rows.index < len(rule)).sum() == 0 or (rows.loc[rows.index < len(rule), "cost"]
                                                       > margin).all()  # fmt: skip
        assert rows["picked"].sum() == 1 and rows.loc[len(rule), "picked"]
        # the cost per turn is the optimum minus an exact evaluation of the list
        value = evaluate_policy(RULES, rule.policy(RULES)).expect(RULES, goal)
        assert rows.loc[len(rule), "cost"] == pytest.approx(
            solve_turn(RULES, goal).value - value, abs=1e-12
        )


def test_sheet_duel_costs_are_the_committed_duels(sheet):
    both = committed_duel(RULES, sheet.turn_rule, sheet.mp_rule)
    row = sheet.duel.loc["both rules"]
    assert row["mean"] == both.mean_win and row["cost"] == both.cost
    assert row["first"] == both.first_player_win and row["second"] == both.second_player_win
    turn_only = committed_duel(RULES, sheet.turn_rule)
    assert sheet.lists.loc[("ev", len(sheet.turn_rule)), "duel_cost"] == turn_only.cost


def test_sheet_text_quotes_the_computed_numbers(sheet):
    text = sheet.markdown()
    both = sheet.duel.loc["both rules"]
    assert f"{both['mean']:.2%}" in text and f"{100 * both['cost']:.2f} percentage" in text
    for line in sheet.turn_rule.text(RULES).splitlines():
        assert line in text
    assert "`python -m panache advise 6 5 5`" in text
    sections = sheet.sections()
    assert sections[0][0] == "The dice"
    assert sum(is_rule_line(p) for _, ps in sections for p in ps) == len(sheet.turn_rule) + len(
        sheet.mp_rule
    )
    assert not is_rule_line("3 dice per roll.") and is_rule_line("1. keep")


def test_examples_and_departures_are_the_policies(sheet):
    for goal, rule in (("ev", sheet.turn_rule), ("zero", sheet.mp_rule)):
        examples = sheet.examples(goal)
        assert len(examples) > 0
        d = sheet.departure(goal)
        if d is None:
            continue
        policy, best = rule.policy(RULES), solve_turn(RULES, goal)
        assert d["rule"] == " ".join(map(str, policy.choose(d["kept"], d["rolled"])))
        assert d["best"] == " ".join(map(str, best.policy.choose(d["kept"], d["rolled"])))
        assert d["loss"] > 0 and 0 < d["p_meet"] < 1
        # the loss is the difference of the two choices' values under perfect play
        from panache.advise import advise

        table = advise(d["rolled"], d["kept"], RULES, goal).set_index("keep")
        assert d["loss"] == pytest.approx(table.loc[d["best"], "value"]
                                          - table.loc[d["rule"], "value"], abs=1e-12)  # fmt: skip


def test_duel_keeps_are_the_duel_policies():
    sol = solve_duel(RULES)
    keeps = duel_keeps(RULES, 4, count=5)
    assert len(keeps) == 5 and keeps["p_meet"].is_monotonic_decreasing
    points = keeps.columns[:-2]
    for label, row in keeps.iterrows():
        kept, rolled = (tuple(int(f) for f in part.split() if f != "-")
                        for part in label.split(" | "))  # fmt: skip
        assert len(set(row[points])) > 1  # chosen because the keep changes with the points
        for a in points:
            choice = sol.turn_policy(a, 4).choose(kept, rolled)
            assert row[a] == " ".join(map(str, choice))
        assert row["ev_keep"] == " ".join(map(str, solve_turn(RULES).policy.choose(kept, rolled)))
    fixed = duel_keeps(RULES, 4, situations=[((), (6, 5, 3)), ((6,), (5, 3))])
    assert fixed.index.tolist() == ["- | 6 5 3", "6 | 5 3"]
    with pytest.raises(ValueError, match="n_dice=3 dice"):
        duel_keeps(RULES, 4, situations=[((6,), (5,))])
    with pytest.raises(ValueError, match=r"opponent_points must be 1\.\.9, got 10"):
        duel_keeps(RULES, 10)


def test_duel_spread_matches_the_duel():
    spread = duel_spread(RULES, 3)
    sol = solve_duel(RULES)
    for a in (1, 5, 9):
        dist = evaluate_policy(RULES, sol.turn_policy(a, 3)).distribution
        t = dist.index.to_numpy()
        assert spread.loc[a, "mean"] == pytest.approx(dist.to_numpy() @ t, abs=1e-12)
        assert spread.loc[a, "p_zero"] == pytest.approx(dist.loc[0], abs=1e-15)
        assert spread.loc[a, "win"] == sol.win.loc[a, 3]
    assert np.all(spread["sd"] > 0)


def test_bad_inputs():
    with pytest.raises(ValueError, match="turn_margin must be a finite number >= 0"):
        player_sheet(RULES, turn_margin=-0.1)
    with pytest.raises(ValueError, match=r"mp_margin must be a finite number >= 0\.0, got nan"):
        player_sheet(RULES, mp_margin=float("nan"))
    with pytest.raises(TypeError, match=re.escape("rules must be a panache.Rules")):
        player_sheet("default")
