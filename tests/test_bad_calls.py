"""Calls an independent probe of the public API found answered wrongly or unclearly:
each now ends in a clear error naming what is wrong (or, for a huge size, a refusal
with an estimate)."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

import citadel
import commander
import panache
import samarra
import tabletop


def test_round_trips_of_a_huge_stock_are_refused_with_an_estimate():
    with pytest.raises(MemoryError, match=r"commander.round_trips needs about 16.0 TB.*max_stock"):
        commander.round_trips(commander.Rules(), 10**12)


def test_round_trips_equal_the_prices_one_stock_at_a_time():
    from commander.market import buy_price, sell_price

    for rules in (commander.Rules(), commander.Rules(sale_price="after"),
                  commander.Rules(exchange_rates=((9, 1), (4, 3), (0, 5)))):  # fmt: skip
        gains = commander.round_trips(rules, 40).tolist()
        assert gains == [sell_price(rules, s, 1) - buy_price(rules, s + 1, 1) for s in range(41)]
        assert (max(gains) > 0) == (rules.sale_price == "before")


def test_standard_states_need_the_two_player_game():
    with pytest.raises(ValueError, match="rules: the duel is the two-player game, got n_players=4"):
        citadel.standard_states(citadel.Rules())


def test_a_bluff_is_asked_of_a_legal_action_only():
    p = samarra.start_position(samarra.Rules(length=3), "SMD", "SMD")
    with pytest.raises(ValueError, match="is not legal in this position"):
        samarra.is_bluff(p, samarra.Action("move", 0, 99))


def test_a_strategy_buys_from_turn_1_at_the_earliest():
    with pytest.raises(ValueError, match="buy_from_turn must be >= 1, got 0"):
        commander.Strategy(buy_from_turn=0)


def test_unclear_errors_now_name_their_parameter(tmp_path):
    small = panache.Rules(n_dice=3, start_points=6)
    with pytest.raises(ValueError, match=r"situations\[0\] set_aside must hold faces"):
        panache.duel_keeps(small, 4, situations=[((7,), (1, 2))])
    with pytest.raises(TypeError, match="utility must be a function of one total"):
        panache.utility_vector(panache.Rules(), lambda: 1)
    with pytest.raises(ValueError, match="min_bids must hold at least one"):
        citadel.stalling(citadel.Rules(radius=1, capital=10, bid_step=5), min_bids=[])
    with pytest.raises(ValueError, match="cells: two figures on one cell"):
        samarra.Position(samarra.Rules(), (0, 0, 2, 12, 13, 14))
    with pytest.raises(TypeError, match="fixed must be a mapping"):
        tabletop.sweep(lambda seed=None, **k: {"x": 1}, {"n_dice": [1]}, fixed=5, jobs=1)


@pytest.mark.parametrize("load", [commander.load_cards, commander.load_decks])
def test_a_missing_file_or_a_folder_is_a_bad_path(tmp_path, load):
    with pytest.raises(ValueError, match="No such file or directory"):
        load(tmp_path / "missing.csv")
    with pytest.raises(FileNotFoundError):  # still the OSError a caller may catch
        load(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="is a folder"):
        load(tmp_path)


def test_a_table_holds_one_integer_entry_per_state_index():
    import numpy as np

    from samarra.solve import n_entries

    rules = samarra.Rules(length=3)
    entries = n_entries(rules)
    with pytest.raises(ValueError, match=rf"one entry per state index of the board "
                                         rf"\({entries:,} for 3 x 3\), got shape \(5,\)"):
        samarra.Table(rules, np.zeros(5, dtype=np.int8))
    with pytest.raises(TypeError, match="dist must hold integer distances"):
        samarra.Table(rules, np.zeros(entries))
    assert samarra.Table(rules, np.zeros(entries, np.int16)).dist.size == entries


def test_huge_exact_draws_are_refused_with_their_estimate():
    with pytest.raises(ValueError, match=r"referendum_odds: the exact odds of drawing 150 of "
                                         r"300 cards from for_pool.* take about \d+ min.*"
                                         r"allow_large=True"):
        commander.referendum_odds(list(range(300)), 150, [3], 1)
    with pytest.raises(ValueError, match=r"battle_odds: .*200 of 400 cards from attacker_pool"):
        commander.battle_odds("tactical", list(range(400)), 200, [1], 1, 1)
    small = commander.battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, 1, allow_large=False)
    assert small == commander.battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, 1)


def test_a_sweep_refuses_a_knob_its_analysis_does_not_take():
    def analysis(n_dice, sides, seed):
        return {"p": 1}

    with pytest.raises(ValueError, match="grid knob 'bogus' is not an argument of the "
                                         "analysis; it takes n_dice, sides"):
        tabletop.sweep(analysis, {"n_dice": [1], "bogus": [4]}, seed=0, jobs=1)
    with pytest.raises(ValueError, match="fixed argument 'colour'"):
        tabletop.sweep(analysis, {"n_dice": [1]}, fixed={"sides": 6, "colour": 1}, seed=0, jobs=1)
    with pytest.raises(ValueError, match="must take a seed= argument"):
        tabletop.sweep(lambda n_dice: {"p": 1}, {"n_dice": [1]}, seed=0, jobs=1)


def test_many_short_kernel_calls_keep_their_round_budget_in_range():
    """Each kernel call that ends early doubles the next call's round budget: 5,000,000
    games (or 3,000 in chunks of one) made it overflow the kernel's int64."""
    games = citadel.simulate_games(citadel.Rules(), "random", 3000, seed=1, chunk_size=1)
    assert games.rounds.size == 3000 and (games.rounds >= 1).all()
    from citadel.simulate import MAX_BUDGET, _next_budget

    budget = 64
    for _ in range(100):
        budget = _next_budget(budget, 0.0)
    assert budget == MAX_BUDGET < 2**62


def test_variant_names_are_strings():
    with pytest.raises(TypeError, match=r"variants: every name must be a str.*got 1 \(int\)"):
        samarra.compare_variants({1: samarra.Rules(length=3)})


@pytest.mark.parametrize("problems", ["x", 5, None, [("decks.csv", 1, "copies")]])
def test_card_data_errors_are_lists_of_four_fields(problems):
    with pytest.raises(TypeError,
                       match=r"problems must be a list of \(file, row, field, message\)"):
        commander.CardDataError(problems)


def test_a_sweep_store_is_a_folder():
    with pytest.raises(TypeError, match="store must be a path"):
        tabletop.sweep(lambda x, seed: {"y": x}, {"x": [1]}, seed=0, jobs=1, store=5)


def test_a_policy_entry_out_of_range_is_named():
    rules = panache.Rules(n_dice=3, start_points=6)
    kept = [-1] * len(panache.human_policy(rules, "best_die").kept)
    with pytest.raises(ValueError, match=r"kept\[0\] is -1: each entry is the index of a multiset"):
        panache.TurnPolicy(3, kept)


def test_a_view_is_of_a_position_and_a_side():
    position = samarra.start_position(samarra.Rules(length=3), "SMD", "SMD")
    with pytest.raises(TypeError, match="position"):
        samarra.View.of("x", 0)
    with pytest.raises(ValueError, match="side"):
        samarra.View.of(position, 2)
    assert samarra.View.of(position, 1).side == 1


def test_a_huge_card_is_refused_before_the_exact_solves(monkeypatch):
    import panache.analyses

    def no_solve(rules):
        raise AssertionError("the duel was solved before the games were sized")

    monkeypatch.setattr(panache.analyses, "solve_duel", no_solve)
    with pytest.raises(MemoryError, match=r"panache\.simulate_games"):
        panache.balance(panache.Rules(n_dice=2, start_points=4), n_games=10**15)


# ---- a fifth probe's findings: results built by hand, cache keys, checks before work ----


@functools.cache
def _panache_results():
    rules = panache.Rules(n_dice=3, start_points=6)
    turn = panache.evaluate_policy(rules, panache.human_policy(rules, "best_die"))
    games = panache.simulate_games(rules, [panache.Agent.heuristic(), panache.Agent.random()],
                                   20, seed=1)  # fmt: skip
    return turn, games


def _position():
    return samarra.start_position(samarra.Rules(length=3), "SMD", "DSM")


HAND_BUILT = {
    "a sweep with more tasks cached than run": (
        lambda: dataclasses.replace(tabletop.sweep(lambda x, seed: {"y": x}, {"x": [1, 2]},
                                                   seed=0, jobs=1), n_cached=5),
        ValueError, r"SweepResult\.n_cached must be at most SweepResult\.n_tasks \(2\), got 5"),
    "a turn's law summing to 2": (
        lambda: dataclasses.replace(_panache_results()[0],
                                    distribution=_panache_results()[0].distribution * 2),
        ValueError, r"TurnDistribution\.distribution must be non-negative and sum to 1"),
    "fractional winners": (
        lambda: dataclasses.replace(_panache_results()[1], winners=np.full(20, 0.5)),
        TypeError, r"GameResults\.winners must be an array of ints"),
    "a winner beyond the seats": (
        lambda: dataclasses.replace(_panache_results()[1], winners=np.full(20, 2)),
        ValueError, r"GameResults\.winners must hold values <= 1"),
    "a pawn step of 2": (lambda: citadel.Resolution((2, 0), (1, 1), (0, 0)),
                         ValueError, r"Resolution\.step\[0\] must be -1\.\.1, got 2"),
    "a negative payment": (lambda: citadel.Resolution((0, 0), (-1, 0), (0, 0)),
                           ValueError, r"Resolution\.pays\[0\] must be >= 0, got -1"),
    "a fee of 2": (lambda: citadel.Resolution((0, 0), (1, 1), (2, 0)),
                   ValueError, r"Resolution\.fee\[0\] must be 0\.\.1, got 2"),
    "a NaN score": (
        lambda: citadel.GameRecord((float("nan"), 0.0), 3,
                                   citadel.initial_state(citadel.Rules(n_players=2)), ()),
        ValueError, r"GameRecord\.scores\[0\] must be a finite number in \[0\.0, 1\.0\], got nan"),
    "a score of 2": (
        lambda: citadel.GameRecord((2.0, 0.0), 3,
                                   citadel.initial_state(citadel.Rules(n_players=2)), ()),
        ValueError, r"GameRecord\.scores\[0\] must be a finite number"),
    "a NaN member response": (
        lambda: citadel.MemberResponse(float("nan"), 0.0, 0, "NE", np.arange(3), np.arange(3),
                                       np.zeros(3), 1, 1, 1, 0.1),
        ValueError, r"MemberResponse\.value must be a finite number"),
    "one seat for two columns of scores": (
        lambda: citadel.GameSamples(np.zeros((2, 2)), np.zeros(2, int), np.zeros((2, 2), int),
                                    np.zeros((2, 2), int), ("N",), ("random", "random")),
        ValueError, r"GameSamples\.seats must name 2 to 4 distinct seats"),
    "an unknown end of a game": (lambda: samarra.GameResult(0, "boredom", 3, _position()),
                                 ValueError, r"GameResult\.reason must be one of"),
    "a view with two own figures": (
        lambda: samarra.View(0, (0, 1), (False, False), ((6, -1), (7, -1), (8, -1)), 0,
                             (False, False), _position()),
        ValueError, r"View\.own must hold 3 cells"),
    "a NaN agent value": (lambda: samarra.AgentExploitability(float("nan"), 0.3, 1.0, 0.35, 0.5),
                          ValueError, r"AgentExploitability\.value must be a finite number"),
    "an agent value beyond the payoffs": (
        lambda: samarra.AgentExploitability(2.0, 0.3, 1.0, 0.35, 0.5),
        ValueError, r"AgentExploitability\.value must be a finite number"),
    "an exploitability that is not half the gap": (
        lambda: samarra.AgentExploitability(0.5, 0.3, 1.0, 0.1, 0.5),
        ValueError, r"AgentExploitability\.exploitability must be \(white - black\) / 2"),
    "a tournament of no pairing": (
        lambda: samarra.tournament(samarra.Rules(length=3), {"r": samarra.RandomAgent()}, 2,
                                   seed=0, pairings=[]),
        ValueError, r"pairings must name at least one"),
    "a margin law summing to 3": (
        lambda: dataclasses.replace(_battle(), margin=_battle().margin * 3),
        ValueError, r"BattleOdds\.margin must be non-negative and sum to 1"),
    "a race won before it starts": (
        lambda: dataclasses.replace(commander.solve_race(commander.Rules(), gold=0, doublons=5,
                                                         stock=10, income=4), win_turn=-1),
        ValueError, r"RaceResult\.win_turn must be >= 1, got -1"),
    "one Strategy for a list of them": (
        lambda: commander.simulate_economy(commander.Rules(), *_commander_inputs(),
                                           strategies=commander.Strategy(), n=10, seed=1),
        TypeError, r"strategies must be a sequence of Strategy"),
    "a board text of another length": (
        lambda: samarra.parse_position(
            samarra.format_position(samarra.start_position(samarra.Rules(), "SMD", "SMD")),
            samarra.Rules(length=3)),
        ValueError, r"text must hold the 3 board rows of rules\.length=3, got 5"),
    "setups that are not setups": (
        lambda: dataclasses.replace(samarra.solve_horizon(samarra.Rules(length=3),
                                                          max_horizon=1), setups=[1, 2]),
        TypeError, r"HorizonSolution\.setups\[0\] must be a setup string"),
}  # fmt: skip


@functools.cache
def _battle():
    return commander.battle_odds("tactical", [1, 2, 3], 2, [1, 2], 1, target_value=1)


def _commander_inputs():
    cards = commander.load_cards()
    return list(commander.load_decks(None, cards).values())[:2], cards


def test_a_cached_answer_is_not_handed_to_an_argument_of_another_type():
    """``allow_large=0`` equals ``False`` in Python: the cached duel of ``False`` must
    not answer it; the function's own check refuses it."""
    rules = panache.Rules(n_dice=3, start_points=6)
    panache.solve_duel(rules)
    with pytest.raises(TypeError, match=r"allow_large must be True or False, got 0 \(int\)"):
        panache.solve_duel(rules, allow_large=0)


def test_situations_are_checked_before_the_duel_is_solved(monkeypatch):
    import panache.guide

    def no_solve(*args, **kwargs):
        raise AssertionError("the duel was solved before the situations were checked")

    monkeypatch.setattr(panache.guide, "solve_duel", no_solve)
    with pytest.raises(ValueError, match=r"situations\[0\] set_aside must hold faces"):
        panache.duel_keeps(panache.Rules(n_dice=3, start_points=6), 4,
                           situations=[((7,), (6, 5))])  # fmt: skip


def _start_view():
    position = samarra.start_position(samarra.Rules(), "SMD", "DMS")
    return samarra.View.of(position, position.to_move)


#: The sixth probe's bad inputs that were accepted or answered unclearly.
SIXTH_PROBE = {
    "a bool coalition value": (
        lambda: tabletop.shapley_value({("A",): 1.0, ("Z",): 2.0, ("A", "Z"): True}, "AZ"),
        TypeError, r"v\(\('A', 'Z'\)\) must be a real number \(not a bool"),
    "a string coalition value": (
        lambda: tabletop.least_core({("A",): 0.0, ("Z",): 0.0, ("A", "Z"): "1"}, "AZ"),
        TypeError, r"must be a real number .* got '1'"),
    "a card problem's row as text": (
        lambda: commander.CardDataError([("f", "row", "field", "msg")]),
        TypeError, r"each problem must be \(file: str, row: int, field: str, message: str\)"),
    "a random agent with no option": (
        lambda: samarra.RandomAgent().choose(_start_view(), [], __import__("random").Random(0)),
        ValueError, r"opts must hold at least one option"),
    "a finer grid coarser than the duel's": (
        lambda: citadel.balance(citadel.Rules(radius=1, capital=10, bid_step=5), n_games=100,
                                duel_grid=5, fine_grid=10, jobs=1, compass=False),
        ValueError, r"fine_grid must be at most duel_grid=5, got 10"),
    "a greedy agent with no option": (
        lambda: samarra.GreedyAgent().probabilities(_start_view(), []),
        ValueError, r"opts must hold at least one option"),
}  # fmt: skip


def _start_position():
    return samarra.start_position(samarra.Rules(length=3), "SMD", "SMD")


#: The seventh probe's bad inputs that were accepted or answered unclearly.
SEVENTH_PROBE = {
    "a battle without attackers": (
        lambda: commander.battle("tactical", [], [2], 3),
        ValueError, r"attackers must hold at least one engaged character"),
    "battle odds with no attacker drawn": (
        lambda: commander.battle_odds("tactical", [1, 2], 0, [1], 1, 0),
        ValueError, r"n_attackers must be 1\.\.2, got 0"),
    "a view whose side is not the viewer of its cells": (
        lambda: __import__("dataclasses").replace(samarra.View.of(_start_position(), 0),
                                                  side=1),
        ValueError, r"View\.own must be what side 1 sees of View\.position"),
    "a random agent's rng as text": (
        lambda: samarra.RandomAgent().choose(samarra.View.of(_start_position(), 0),
                                             samarra.agents.options(_start_position()), "rng"),
        TypeError, r"rng must be a random\.Random .*got str 'rng'"),
    "a greedy agent given actions, not options": (
        lambda: samarra.GreedyAgent().choose(
            samarra.View.of(_start_position(), 0), samarra.legal_actions(_start_position()),
            __import__("random").Random(1)),
        TypeError, r"opts\[0\] must be an Option .*got Action"),
}  # fmt: skip


#: The eighth probe's bad input that was answered only after the work.
EIGHTH_PROBE = {
    "a negative rule-of-thumb margin, refused before the search": (
        lambda: panache.rule_of_thumb(panache.Rules(n_dice=3, start_points=10), margin=-1),
        ValueError, r"margin must be"),
}  # fmt: skip


#: The ninth probe's bad inputs that were answered unclearly.
NINTH_PROBE = {
    "a least core of one player": (
        lambda: tabletop.least_core({("A",): 1.0}, "A"),
        ValueError, r"players must hold at least 2 players for a least core"),
    "a misspelt knob in a named sweep, refused before any task": (
        lambda: tabletop.sweep("panache.balance", {"n_dize": [4, 5]}, fixed={"n_games": 200},
                               seed=1, jobs=1, progress=False),
        ValueError, r"grid knob 'n_dize' is not a knob of panache's rules"),
    "an agent class where an agent is meant": (
        lambda: samarra.play_games(samarra.Rules(length=3), samarra.GreedyAgent,
                                   samarra.RandomAgent(), 3, seed=2),
        TypeError, r"black must be an agent, got the class GreedyAgent: pass an instance"),
}  # fmt: skip


#: Every input above, the fifth probe's and the later ones'.
PROBED = {**HAND_BUILT, **SIXTH_PROBE, **SEVENTH_PROBE, **EIGHTH_PROBE, **NINTH_PROBE}


@pytest.mark.parametrize("case", PROBED)
def test_a_probe_s_bad_input_gets_a_clear_error(case):
    call, error, message = PROBED[case]
    with pytest.raises(error, match=message):
        call()


def test_the_memory_budget_counts_the_process_s_address_space_limit():
    """Under ``ulimit -v`` the machine's free memory overstates what an allocation can
    get: a request over the limit is refused with its estimate, not a numpy error."""
    import subprocess
    import sys

    script = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, "
              "resource.RLIM_INFINITY))\n"
              "import citadel\n"
              "try:\n"
              "    citadel.simulate_games(citadel.Rules(), 'random', 10**8, seed=1)\n"
              "except MemoryError as error:\n"
              "    print(error)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    assert out.stdout.startswith("citadel.simulate_games needs about 8.8 GB"), out.stderr[-2000:]
    assert "allow_large=True" in out.stdout
