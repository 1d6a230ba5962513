import numpy as np
import pytest

from panache import Rules


def test_defaults_are_the_seeds():
    rules = Rules()
    assert rules.n_dice == 5
    assert rules.face_values == (-4, -3, -2, -1, 0, 1)
    assert rules.start_points == 35
    # seed: "un total variant entre +5 et -20"
    assert rules.total_range == (-20, 5)
    # seed: "il peut arriver au tour 2 avec un maximum de 40 points"
    assert rules.start_points + rules.total_range[1] == 40


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_dice": 0}, "n_dice must be 1..8, got 0"),
        ({"n_dice": 9}, "n_dice must be 1..8, got 9"),
        ({"face_values": (1, 2, 3)}, "face_values must hold six ints"),
        ({"face_values": (1, 2, 3, 4, 5, 6.5)}, r"face_values\[5\] \(face 6\) must be an int"),
        ({"start_points": 0}, "start_points must be >= 1, got 0"),
        ({"start_points": -5}, "start_points must be >= 1, got -5"),
        ({"n_players": 1}, "n_players must be 2..999, got 1"),
        ({"n_players": 1000}, "n_players must be 2..999, got 1000"),
        ({"mp_stake_cap": 7}, "mp_stake_cap must be even"),
        ({"mp_stake_factor": 0}, "mp_stake_factor must be >= 1"),
    ],
)
def test_illegal_values_name_field_value_and_range(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Rules(**kwargs)


def test_face_values_accept_numpy_and_lists():
    rules = Rules(face_values=np.array([0, 0, 0, 0, 0, 10]))
    assert rules.face_values == (0, 0, 0, 0, 0, 10)
    assert Rules(face_values=[-4, -3, -2, -1, 0, 1]) == Rules()


def test_total_and_attack_level():
    rules = Rules()
    # the seed's Roger: 1 + 1 + 1 + 0 - 4 = -1
    assert rules.total((6, 6, 6, 5, 1)) == -1
    assert rules.total((6, 5, 5, 3, 1)) == -5
    assert rules.attack_level(3) == 3
    assert rules.attack_level(9) == 6  # variant faces: a total above 6 attacks at 6
    with pytest.raises(ValueError, match=r"faces 1\.\.6"):
        rules.total((7,))


def test_stakes():
    rules = Rules()
    # seed: Childéric has 3 points, so the best he can announce is 6
    assert rules.legal_stakes(3).tolist() == [2, 4, 6]
    with pytest.raises(ValueError, match="stake 20 is illegal with 3 points"):
        rules.check_stake(20, 3)
    with pytest.raises(ValueError, match="even"):
        rules.check_stake(5, 10)
    assert Rules(mp_stake_cap=10).legal_stakes(35).max() == 10
    assert Rules(mp_stake_factor=1).legal_stakes(7).tolist() == [2, 4, 6]
