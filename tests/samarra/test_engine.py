"""Every rule of RULES.md §3 as a test, and hypothesis properties of the engine."""

import random

import numpy as np
import pytest
from hypothesis import given, settings

from samarra import (
    Action,
    Game,
    Position,
    Rules,
    apply_action,
    legal_actions,
    parse_position,
    start_position,
    tie_break,
)
from samarra.engine import play_random_game
from tests.samarra.strategies import positions, random_play


def board(rows, to_move="black", left=2, used="black -, white -", played=9, extra="", **knobs):
    rules = Rules(length=len(rows), **knobs)
    head = f"to move: {to_move}, actions left: {left}, played: {played}\nused: {used}\n{extra}"
    body = "\n".join(f"{len(rows) - 1 - k} | {r}" for k, r in enumerate(rows))
    return parse_position(head + body, rules)


def kinds(p):
    return [(a.kind, a.figure, a.target) for a in legal_actions(p)]


# -- turns ----------------------------------------------------------------------------------------


def test_first_player_makes_one_action_then_two_each():
    p = start_position(Rules(), "SMD", "SMD")
    seen = []
    rng = random.Random(1)
    for _ in range(9):
        seen.append((p.to_move, p.actions_left))
        p = apply_action(p, rng.choice(legal_actions(p)))
    # RULES.md §3: "The first player makes 1 action; from then on each turn has 2 actions"
    assert seen == [(0, 1), (1, 2), (1, 1), (0, 2), (0, 1), (1, 2), (1, 1), (0, 2), (0, 1)]
    q = start_position(Rules(first="white"), "SMD", "SMD")
    assert q.to_move == 1 and apply_action(q, legal_actions(q)[0]).to_move == 0


# -- moves ----------------------------------------------------------------------------------------


def test_moves_are_one_orthogonal_step_to_an_empty_cell():
    p = board([". m d", "S s .", ". D .", "M . ."])
    moves = [a for a in kinds(p) if a[0] == "move"]
    # servant at 6: up to 9, down to 3; right (7) holds the white servant, left is the edge
    # merchant at 0: right to 1, up to 3; Death at 4: 1, 3, 5 (7 is taken)
    assert moves == [("move", 0, 3), ("move", 0, 9), ("move", 1, 1), ("move", 1, 3),
                     ("move", 2, 1), ("move", 2, 3), ("move", 2, 5)]


def test_any_figure_may_enter_either_city():
    p = board([". m s", "D . d", ". . .", "S M ."])
    assert ("move", 2, 9) in kinds(p)  # black Death enters Samarra
    q = board([". m .", "D . d", ". s .", "S . M"], to_move="white")
    assert ("move", 0, 1) in kinds(q)  # white servant enters Baghdad
    assert ("move", 2, 11) in kinds(q)  # white Death goes home


# -- the merchant's power ----------------------------------------------------------------------


def test_merchant_reveals_an_adjacent_hidden_enemy_once():
    p = board(["s . d", ". m .", "S M .", ". . D"])
    assert ("merchant", 1, 0) not in kinds(p)  # white servant at 9 is not adjacent to 4
    assert ("merchant", 1, 1) in kinds(p)  # white merchant at 7 is
    q = apply_action(p, Action("merchant", 1, 1))
    assert q.revealed[1] and q.revealed[4] and q.merchant_used == (True, False)
    assert q.cells == p.cells and q.to_move == 0 and q.actions_left == 1
    assert not [a for a in kinds(q) if a[0] == "merchant"]  # once per game


def test_merchant_needs_a_hidden_target_and_a_live_merchant():
    p = board(["s . d", ". m* .", "S M .", ". . D"], used="black -, white M")
    assert not [a for a in kinds(p) if a[0] == "merchant"]  # the white merchant is revealed
    with pytest.raises(ValueError, match="already revealed"):
        apply_action(p, Action("merchant", 1, 1))
    dead = board(["s . d*", ". m .", "S . .", ". . D"], used="black M, white D")
    with pytest.raises(ValueError, match="black merchant is dead"):
        apply_action(dead, Action("merchant", 1, 1))


def test_king_adjacency_reaches_diagonals():
    rows = ["s . d", "m . .", "S M .", ". . D"]  # white merchant diagonal to black's
    assert ("merchant", 1, 1) not in kinds(board(rows))
    assert ("merchant", 1, 1) in kinds(board(rows, adjacency="king"))
    rows = ["s m .", ". d .", "S . D", ". M ."]  # white Death diagonal to black's
    assert ("death", 2, 2) not in kinds(board(rows))
    assert ("death", 2, 2) in kinds(board(rows, adjacency="king"))


# -- Death's power -------------------------------------------------------------------------------


def test_death_removes_an_adjacent_enemy_revealed_or_not():
    p = board([". . d", ". s .", "S D m*", ". M ."], used="black -, white M")
    assert [a for a in kinds(p) if a[0] == "death"] == [("death", 2, 0), ("death", 2, 1)]
    q = apply_action(p, Action("death", 2, 1))
    assert q.cells[4] == -1 and q.revealed[2] and q.death_used == (True, False)
    assert q.cells[2] == p.cells[2]  # Death stays on the board after using its power
    assert q.merchant_used == (False, True) and q.winner is None
    assert not [a for a in kinds(q) if a[0] == "death"]  # once per game


def test_killing_the_servant_wins_at_once():
    p = board([". . d", ". s .", "S D m", ". M ."])
    q = apply_action(p, Action("death", 2, 0))
    assert q.winner == 0 and q.cells[3] == -1 and legal_actions(q) == []


def test_killing_death_frees_the_city():
    # black servant waits in the white city beside white's Death; killing it wins at once
    p = board(["S d D", ". . m", ". s .", "M . ."])
    assert apply_action(p, Action("death", 2, 2)).winner == 0


# -- winning by arrival --------------------------------------------------------------------------


def test_servant_wins_on_arrival_when_enemy_death_is_away():
    p = board([". m .", "S . d", ". s .", "M . D"])
    assert apply_action(p, Action("move", 0, 9)).winner == 0


@pytest.mark.parametrize("used", ["black -, white -", "black -, white D"])
def test_enemy_death_in_its_city_blocks_used_or_not(used):
    death = "d*" if "white D" in used else "d"
    p = board([f". m {death}", "S . .", ". s .", "M . D"], used=used)
    assert apply_action(p, Action("move", 0, 9)).winner is None


def test_arrival_is_checked_after_every_own_action_for_the_side_that_acted():
    # black's servant already stands in Samarra; white's Death leaves the city: no win yet
    p = board(["S . d", ". m .", ". s .", "M . D"], to_move="white", left=1)
    q = apply_action(p, Action("move", 2, 8))
    assert q.winner is None and q.to_move == 0
    # black's next action, whatever it is, wins (a power too)
    assert apply_action(q, Action("move", 1, 1)).winner == 0
    assert all(apply_action(q, a).winner == 0 for a in legal_actions(q) if a.figure != 0)


def test_win_on_arrival_only_knob():
    p = board(["S . .", ". m d", ". s .", "M . D"], win_on_arrival_only=True)
    assert apply_action(p, Action("move", 1, 1)).winner is None
    q = board([". . .", "S m d", ". s .", "M . D"], win_on_arrival_only=True)
    assert apply_action(q, Action("move", 0, 9)).winner == 0


# -- optional rules ------------------------------------------------------------------------------


def test_auto_death_kills_a_figure_entering_the_city_of_an_unused_death():
    rows = [". . d", "S M .", ". s .", "m . D"]
    p = board(rows, auto_death=True)
    q = apply_action(p, Action("move", 1, 10))
    assert q.cells[1] == -1 and q.death_used == (False, True) and q.revealed[5]
    assert q.merchant_used == (True, False) and q.winner is None
    r = apply_action(p, Action("move", 0, 9))
    assert r.winner == 1 and r.cells[0] == -1  # the servant dies: white wins
    assert apply_action(board(rows), Action("move", 1, 10)).cells[1] == 10  # knob off
    used = board([". . d*", "S M .", ". s .", "m . D"], used="black -, white D", auto_death=True)
    assert apply_action(used, Action("move", 1, 10)).cells[1] == 10  # power already used


def test_pass_needs_the_knob_and_four_passed_turns_lose():
    p = start_position(Rules(allow_pass=True), "SMD", "SMD")
    with pytest.raises(ValueError, match="allow_pass"):
        apply_action(start_position(Rules(), "SMD", "SMD"), Action("pass"))
    seen = []
    for _ in range(7):  # black 1, white 2, black 2, white 2 passes
        p = apply_action(p, Action("pass"))
        seen.append(p.winner)
    # black began the passing: white completes the fourth passed turn and black loses
    assert seen == [None] * 6 + [1]
    q = start_position(Rules(allow_pass=True), "SMD", "SMD")
    for a in [Action("pass"), Action("pass"), Action("move", 0, 9), Action("pass")]:
        q = apply_action(q, a)
    assert q.pass_run == 0  # a turn with a move breaks the run


def test_no_repetition_forbids_moving_back():
    p = board([". m d", "S . .", ". s .", "M . D"], no_repetition=True, left=2)
    q = apply_action(p, Action("move", 1, 1))
    assert Action("move", 1, 0) not in legal_actions(q)
    with pytest.raises(ValueError, match="no_repetition"):
        apply_action(q, Action("move", 1, 0))
    free = apply_action(board([". m d", "S . .", ". s .", "M . D"], left=2), Action("move", 1, 1))
    assert Action("move", 1, 0) in legal_actions(free)


# -- adjudication --------------------------------------------------------------------------------


def test_tie_break_closer_servant_wins():
    assert tie_break(board([". m d", ". s .", "S . .", "M . D"])) is None  # 2 rows each
    assert tie_break(board([". m d", "S . s", ". . .", "M . D"])) == 0
    assert tie_break(board([". m d", ". . .", "S . .", "M s D"])) == 1


def test_game_adjudication_repetition_and_no_action():
    p = start_position(Rules(), "SMD", "SMD")
    game = Game(p)
    shuffle = [Action("move", 0, 3), Action("move", 0, 9), Action("move", 0, 12),
               Action("move", 0, 0), Action("move", 0, 3), Action("move", 0, 9),
               Action("move", 0, 12), Action("move", 0, 0)]
    for a in shuffle:
        game.play(a)
    # after the 8th action the position after the 4th occurs for the third time? It is the
    # second time; play on until the third occurrence
    while game.result is None:
        game.play(shuffle[(len(game.history) - 1) % 4 + 4])
    assert game.result.reason == "repetition" and game.result.winner is None
    boxed = board(["d m .", "s . .", "D . .", "S M ."], to_move="white", left=1, played=20)
    stuck = board(["s m* d*", "S M D", ". . ."], to_move="white", left=2,
                  used="black -, white MD")
    assert legal_actions(stuck) == []
    result = Game(stuck).result
    assert result.reason == "no_action" and result.winner == 0
    assert Game(boxed).result is None


def test_game_horizon_and_max_actions():
    p = start_position(Rules(horizon=3), "SMD", "SMD")
    game = Game(p)
    for a in [Action("move", 0, 3), Action("move", 1, 10), Action("move", 1, 7)]:
        game.play(a)
    # black's servant has 3 rows to go, white's 4
    assert game.result.reason == "horizon" and game.result.winner == 0
    with pytest.raises(ValueError, match="horizon"):
        apply_action(game.position, Action("move", 0, 6))
    result = play_random_game(start_position(Rules(max_actions=50), "SMD", "DSM"),
                              random.Random(3))
    assert result.n_actions <= 50 and result.reason in {"win", "max_actions", "repetition"}


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action("move", 0, 4), "cell 4 is not one orthogonal step from cell 0"),
        (Action("move", 0, 1), "cell 1 is occupied by the black merchant"),
        (Action("death", 2, 0), "not adjacent"),
        (Action("merchant", 2, 0), "used by the merchant"),
        (("fly", 0, 0), "kind must be one of"),
        (("move", 5, 0), "figure of a move must be an own figure 0..2"),
    ],
)
def test_illegal_actions_name_the_problem(action, message):
    with pytest.raises(ValueError, match=message):
        apply_action(start_position(Rules(), "SMD", "SMD"), action)


def test_action_must_be_a_triple():
    with pytest.raises(TypeError, match="action must be an Action"):
        apply_action(start_position(Rules(), "SMD", "SMD"), "move")


# -- properties ----------------------------------------------------------------------------------


def _flip(p: Position, colours: bool) -> Position:
    """Mirror columns, or swap colours and flip rows (both are symmetries of the rules)."""
    r = p.rules
    knobs = {f: getattr(r, f) for f in r.__dataclass_fields__}
    if colours:
        knobs["first"] = "white" if r.first == "black" else "black"
    rules = Rules(**knobs)

    def cell(c):
        if c < 0:
            return c
        row, col = divmod(c, r.width)
        if colours:
            return (r.length - 1 - row) * r.width + col
        return row * r.width + r.width - 1 - col

    def fig(i):
        return (i + 3) % 6 if colours else i

    order = [fig(i) for i in range(6)]
    swap = (lambda t: (t[1], t[0])) if colours else (lambda t: t)
    return Position(
        rules, tuple(cell(p.cells[order[i]]) for i in range(6)),
        tuple(p.revealed[order[i]] for i in range(6)), swap(p.merchant_used), swap(p.death_used),
        1 - p.to_move if colours else p.to_move, p.actions_left, p.actions_played,
        None if p.winner is None else (1 - p.winner if colours else p.winner),
        p.pass_run, p.turn_passes,
        None if p.last_move is None else (fig(p.last_move[0]), cell(p.last_move[1])),
    )


def _flip_action(a: Action, p: Position, colours: bool) -> Action:
    if a.kind != "move":
        return a
    r = p.rules
    row, col = divmod(a.target, r.width)
    target = (r.length - 1 - row) * r.width + col if colours else row * r.width + r.width - 1 - col
    return Action("move", a.figure, target)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_every_generated_action_is_legal_and_terminal_positions_have_none(p):
    actions = legal_actions(p)
    if p.is_over:
        assert actions == []
    order = ("move", "merchant", "death", "pass")
    assert actions == sorted(set(actions), key=lambda a: (order.index(a.kind), a.figure, a.target))
    for a in actions:
        q = apply_action(p, a)  # validated on construction
        assert q.actions_played == p.actions_played + 1
        assert (q.to_move == p.to_move) == (p.actions_left == 2) or q.is_over


@settings(max_examples=150, deadline=None)
@given(positions())
def test_mirror_and_colour_swap_are_symmetries(p):
    for colours in (False, True):
        m = _flip(p, colours)
        assert sorted(legal_actions(m)) == sorted(
            _flip_action(a, p, colours) for a in legal_actions(p)
        )
        for a in legal_actions(p):
            assert apply_action(m, _flip_action(a, p, colours)) == _flip(apply_action(p, a),
                                                                         colours)


def test_random_games_end_with_a_valid_result():
    rng = random.Random(5)
    for i in range(30):
        rules = Rules(auto_death=bool(i % 2), allow_pass=i % 3 == 0, max_actions=120)
        result = play_random_game(random_play(rules, 0, i), rng)
        assert result.winner in (None, 0, 1) and result.n_actions <= 120


def test_win_on_arrival_only_needs_the_servant_itself_to_arrive():
    # white's servant already stands in Baghdad; white's merchant entering it does not win
    p = board([". . .", "S M* .", ". . m*", ". s ."], to_move="white", left=2,
              used="black MD, white MD", win_on_arrival_only=True)
    assert apply_action(p, Action("move", 1, 2)).winner is None
    q = board([". . .", "S M* .", ". . m*", ". s ."], to_move="white", left=2,
              used="black MD, white MD")
    assert apply_action(q, Action("move", 1, 2)).winner == 1


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        (("jump", 0, 3), ValueError, r"kind must be one of \('move', 'merchant'"),
        (("move", 0.5, 3), TypeError, r"figure must be an int, got 0.5"),
        (("move", 3, 3), ValueError, r"figure of a move must be an own figure 0..2, got 3"),
        (("move", np.int64(3), 3), ValueError, r"figure must be -1..2, got 3"),
        (("move", 0, -1), ValueError, r"target of a move must be a cell >= 0, got -1"),
        (("move", -1, 4), ValueError, r"figure of a move must be an own figure 0..2"),
        (("death", 2, 7), ValueError, r"target of a death must be an enemy figure 0..2"),
        (("merchant", 1, "2"), TypeError, r"target must be an int, got '2'"),
        (("pass", 0, -1), ValueError, r"figure and target of a pass must be -1"),
        (("move", True, 3), TypeError, r"figure must be an int, got True"),
    ],
)  # fmt: skip
def test_an_action_is_built_only_from_a_kind_a_figure_and_a_target(fields, error, message):
    with pytest.raises(error, match=message):
        Action(*fields)
    assert Action("move", np.int64(1), np.int64(4)) == ("move", 1, 4)
