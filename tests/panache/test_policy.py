import math

import pytest

from panache import Rules, TurnPolicy, human_policy, tabulate_policy
from panache.policy import policy_layout


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_layout_sizes(n):
    # pairs (hand of j dice, roll of the n - j others) for j < n:
    # sum_j C(j + 5, 5) C(n - j + 5, 5) = C(n + 11, 11), less the C(n + 5, 5) full hands
    table_offset, entry_a, entry_r = policy_layout(n)
    assert table_offset[-1] == math.comb(n + 11, 11) - math.comb(n + 5, 5)
    assert entry_a.size == entry_r.size == table_offset[-1]


def test_tabulate_callable_and_choose():
    def keep_highest_face(set_aside, rolled):
        return (rolled[0],)

    policy = tabulate_policy(3, keep_highest_face)
    assert policy.name == "keep_highest_face"
    assert policy.choose((), (5, 2, 2)) == (5,)
    assert policy((1,), (6, 6)) == (6,)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (lambda s, r: (), "at least one of the dice just rolled"),
        (lambda s, r: (7,), "faces 1..6"),
        (lambda s, r: r + r, "only those"),
        (lambda s, r: "66", "faces 1..6"),
    ],
)
def test_illegal_policies_are_refused(answer, message):
    with pytest.raises(ValueError, match=message):
        tabulate_policy(2, answer, name="bad")


def test_choose_validates_situation():
    policy = human_policy(Rules(), "best_die")
    with pytest.raises(ValueError, match="must hold 5 dice together"):
        policy.choose((6,), (1, 2))
    with pytest.raises(ValueError, match=r"faces 1\.\.6"):
        policy.choose((), (0, 1, 2, 3, 4))


def test_table_is_checked():
    policy = human_policy(Rules(n_dice=2), "best_die")
    kept = policy.kept.copy()
    kept[0] = 0  # the empty multiset: sets nothing aside
    with pytest.raises(ValueError, match="illegal multiset"):
        TurnPolicy(2, kept)
    with pytest.raises(ValueError, match="entries"):
        TurnPolicy(2, kept[:-1])


def test_human_policies_do_what_they_say():
    rules = Rules()
    assert human_policy(rules, "best_die").choose((), (6, 6, 5, 1, 1)) == (6,)
    assert human_policy(rules, "nonnegative").choose((), (4, 3, 2, 1, 1)) == (4,)
    assert human_policy(rules, "nonnegative").choose((), (6, 5, 4, 1, 1)) == (6, 5)
    stop = human_policy(rules, "stop_at_nonnegative")
    assert stop.choose((6,), (6, 5, 4, 6)) == (6, 6, 5, 4)  # 1 + 1 + 0 - 1 + 1 >= 0
    assert stop.choose((), (6, 5, 4, 3, 1)) == (6,)
    with pytest.raises(ValueError, match="name must be one of"):
        human_policy(rules, "yolo")


def test_frame_first_roll_probabilities():
    frame = human_policy(Rules(), "best_die").to_frame(Rules())
    first = frame.xs("", level="set_aside")
    assert len(first) == 252
    assert first["p_roll"].sum() == pytest.approx(1.0, abs=1e-14)
    assert (first["set_aside_total"] == 0).all()


def test_table_entries_and_dice_are_never_truncated():
    kept = human_policy(Rules(n_dice=2), "best_die").kept
    with pytest.raises(TypeError, match="kept must be an array of ints"):
        TurnPolicy(2, kept + 0.5)  # used to be truncated to the table itself
    with pytest.raises(TypeError, match=r"n_dice must be an int, got 2\.7 \(float\)"):
        TurnPolicy(2.7, kept)
