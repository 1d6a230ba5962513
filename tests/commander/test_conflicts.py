import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commander import Rules
from commander.cards import load_cards, load_decks
from commander.conflicts import battle, battle_odds, explores, rally, referendum
from tabletop.stats import estimate_mean, estimate_proportion
from tests.conftest import Z_TOL


def test_ties_go_to_the_defender():
    # RULES.md §4: "Higher wins; ties go to the defender"
    r = battle("tactical", [3, 2], [2], 3)
    assert (r.attacker, r.defender, r.winner, r.difference) == (5, 5, "defender", 0)
    assert battle("tactical", [3, 3], [2], 3).winner == "attacker"


def test_capture_by_command():
    # defender 3 + 2 = 5 against 1 + 1 = 2: difference 3; commands 3 and 4
    r = battle("tactical", [1, 1], [3], 2, attacker_commands=[3, 4])
    assert r.capturable == (0,)
    assert battle("tactical", [1, 1], [3], 2, attacker_commands=[4, 5]).capturable == ()
    # no capture in an economic battle, no bankruptcy in a tactical one
    assert battle("economic", [1, 1], [3], 2, attacker_commands=[0, 0]).capturable == ()
    assert battle("tactical", [1], [9], 0).bankruptcy == 0


@pytest.mark.parametrize(("defence", "owed"), [(1, 0), (2, 1), (5, 4), (6, 4), (40, 4)])
def test_bankruptcy_capped_at_4(defence, owed):
    # RULES.md §4: "pay min(difference, 4) doublons to the bank"
    assert battle("economic", [1], [defence], 0).bankruptcy == owed


def test_bonuses_count():
    assert battle("tactical", [2], [1], 1, attacker_bonus=1).winner == "attacker"
    assert battle("tactical", [2], [1], 1, attacker_bonus=1, defender_bonus=1).winner == "defender"


def test_exploration_must_exceed_5():
    assert not explores([5]) and explores([6]) and explores([2, 2, 2])
    assert explores([5], Rules(explore_threshold=4))


def test_referendum_votes_by_rank():
    r = Rules()
    lt, sec, capt = r.rank_votes("lieutenant"), r.rank_votes("second"), r.rank_votes("captain")
    # a lieutenant launching (2 + 1) against a second (3): a tie fails
    assert not referendum([lt], [sec])
    assert referendum([lt], [lt])
    assert referendum([capt], [capt])  # the launcher's extra vote breaks the tie
    assert not referendum([lt, 1], [capt, 1], launched=True)  # 4 against 5
    assert not referendum([], [], launched=False)  # nothing for: fails
    assert referendum([1], [], launched=False)


def test_rally():
    assert rally(4, 3) == "challenger" and rally(3, 3) == "controller"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: battle("naval", [1], [1], 0), "kind must be one of"),
        (lambda: battle("tactical", [-1], [1], 0), r"attackers\[0\] must be 0..1000000"),
        (lambda: battle("tactical", [1], [1], 0, attacker_commands=[1, 2]), "one command per"),
        (lambda: battle_odds("tactical", [1, 2], 3, [1], 1, 0), "n_attackers must be 1..2"),
        (lambda: battle_odds("tactical", [1, 2], 0, [1], 1, 0), "n_attackers must be 1..2"),
        (lambda: battle("tactical", [], [2], 3), "attackers must hold at least one"),
        (lambda: referendum([], [1]), "must start with the launching character"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def enumerate_odds(kind, apool, ka, dpool, kd, value, cmds, rules=None):
    """Battle every pair of subsets with the single-battle rules."""
    rules = rules or Rules()
    win = capture = bankrupt = n = 0
    for a in itertools.combinations(range(len(apool)), ka):
        for d in itertools.combinations(range(len(dpool)), kd):
            r = battle(kind, [apool[i] for i in a], [dpool[i] for i in d], value,
                       attacker_commands=[cmds[i] for i in a], rules=rules)
            n += 1
            win += r.winner == "attacker"
            capture += bool(r.capturable)
            bankrupt += r.bankruptcy
    return win / n, capture / n, bankrupt / n


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["tactical", "economic"]),
    apool=st.lists(st.integers(0, 4), min_size=1, max_size=7),
    dpool=st.lists(st.integers(0, 4), min_size=1, max_size=6),
    value=st.integers(0, 4),
    data=st.data(),
)
def test_odds_match_enumeration(kind, apool, dpool, value, data):
    ka = data.draw(st.integers(1, len(apool)))
    kd = data.draw(st.integers(0, len(dpool)))
    cmds = data.draw(st.lists(st.integers(0, 4), min_size=len(apool), max_size=len(apool)))
    odds = battle_odds(kind, apool, ka, dpool, kd, value, attacker_commands=cmds)
    win, capture, bankrupt = enumerate_odds(kind, apool, ka, dpool, kd, value, cmds)
    assert math.isclose(odds.p_attacker, win, abs_tol=1e-12)
    assert math.isclose(odds.p_capture, capture if kind == "tactical" else 0, abs_tol=1e-12)
    assert math.isclose(odds.expected_bankruptcy, bankrupt, abs_tol=1e-12)
    assert math.isclose(odds.margin.sum(), 1.0)
    assert math.isclose(odds.margin[odds.margin.index > 0].sum(), odds.p_attacker)


def test_odds_from_sample_decks_match_monte_carlo():
    cards = load_cards()
    decks = load_decks(cards=cards)

    def crew(name, column):
        frame = decks[name].counts(cards)
        frame = frame[frame["type"] == "character"]
        return list(np.repeat(frame[column].to_numpy(), frame["copies"].to_numpy()))

    apool, cmds = crew("brethren_sample", "conquest"), crew("brethren_sample", "command")
    dpool = crew("spanish_sample", "conquest")
    odds = battle_odds("tactical", apool, 3, dpool, 2, 2, attacker_commands=cmds)
    rng = np.random.default_rng(20261123)
    n = 40000

    def draw(pool, k):
        picks = rng.random((n, len(pool))).argsort(axis=1)[:, :k]  # k distinct cards
        return np.asarray(pool)[picks]

    a, c, d = draw(list(zip(apool, cmds, strict=True)), 3), None, draw(dpool, 2)
    a, c = a[..., 0], a[..., 1]
    diff = d.sum(axis=1) + 2 - a.sum(axis=1)
    wins = int((diff < 0).sum())
    captures = int(((diff >= 0) & (c.min(axis=1) <= diff)).sum())
    assert abs(estimate_proportion(wins, n).z_score(odds.p_attacker)) < Z_TOL
    assert abs(estimate_proportion(captures, n).z_score(odds.p_capture)) < Z_TOL
    dip_a, dip_d = crew("brethren_sample", "diplomacy"), crew("spanish_sample", "diplomacy")
    eco = battle_odds("economic", dip_a, 2, dip_d, 2, 1)
    diff = draw(dip_d, 2).sum(axis=1) + 1 - draw(dip_a, 2).sum(axis=1)
    paid = np.clip(diff, 0, 4)
    assert abs(estimate_mean(paid).z_score(eco.expected_bankruptcy)) < Z_TOL


@settings(max_examples=40, deadline=None)
@given(
    pro=st.lists(st.integers(0, 5), min_size=1, max_size=7),
    con=st.lists(st.integers(0, 5), min_size=0, max_size=6),
    launched=st.booleans(),
    data=st.data(),
)
def test_referendum_odds_match_enumeration(pro, con, launched, data):
    from commander.conflicts import referendum_odds

    kf = data.draw(st.integers(1 if launched else 0, len(pro)))
    ka = data.draw(st.integers(0, len(con)))
    passed = n = 0
    for f in itertools.combinations(pro, kf):
        for a in itertools.combinations(con, ka):
            n += 1
            passed += referendum(list(f), list(a), launched=launched)
    assert math.isclose(referendum_odds(pro, kf, con, ka, launched=launched), passed / n)


def test_referendum_odds_from_sample_crews_match_monte_carlo():
    from commander.conflicts import referendum_odds

    cards = load_cards()
    decks = load_decks(cards=cards)

    def votes(name):
        frame = decks[name].counts(cards)
        frame = frame[frame["type"] == "character"]
        per_card = [cards.votes(i) for i in frame.index]
        return np.repeat(per_card, frame["copies"].to_numpy())

    pro, con = votes("english_sample"), votes("ghost_sample")
    exact = referendum_odds(pro, 2, con, 3)
    rng = np.random.default_rng(11)
    n = 40000
    f = pro[rng.random((n, len(pro))).argsort(axis=1)[:, :2]].sum(axis=1) + 1
    a = con[rng.random((n, len(con))).argsort(axis=1)[:, :3]].sum(axis=1)
    assert abs(estimate_proportion(int((f > a).sum()), n).z_score(exact)) < Z_TOL


@pytest.mark.parametrize("bad", ["no", "yes", 0, None])
def test_launched_must_be_a_boolean(bad):
    # launched="no" used to be truthy: the launcher's bonus was counted
    from commander.conflicts import referendum_odds

    with pytest.raises(TypeError, match=f"launched must be True or False, got {bad!r}"):
        referendum([2, 1], [3], launched=bad)
    with pytest.raises(TypeError, match=f"launched must be True or False, got {bad!r}"):
        referendum_odds([1, 2, 4], 1, [3], 1, launched=bad)
