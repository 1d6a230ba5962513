"""The same contract, run over every game of the registry (:mod:`tabletop.games`).

In the manner of OpenSpiel's ``games_sim_test``: each check is written once and
parametrised by the registered games, so a fifth game is held to all of them by its
registry entry alone. For every game:

* **knobs**: the rules object is frozen; every knob refuses a value of the wrong type
  (TypeError; a choice knob may answer ValueError) and a value out of range
  (ValueError), the message naming the knob; the entry's ``other_rules`` (every knob
  off its default) round-trip through the constructor, ``dataclasses.replace``,
  ``repr`` and the command line;
* **seeds**: the entry's ``sample`` run gives identical results for one seed on one
  and two numba threads, and other results for another seed;
* **engine and kernels**: the plain engine and the numba kernels play the same random
  games (``random_play``), where the game can feed both the same draws;
* **command line**: ``--help``; ``balance`` in each output format, the same card;
  a bad knob value costs one line on stderr and exit code 2 (unparsable) or 1
  (out of range); unknown options and subcommands exit with 2;
* **balance card**: the card of the entry's small rules has the card columns and the
  game's metrics, in order, with their methods.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import types
import typing

import numba
import numpy as np
import pandas as pd
import pytest

from tabletop import games
from tabletop.balance import COLUMNS, cached_balance, check_card
from tabletop.cli import card_options, rule_fields, value_text
from tabletop.frozen import equal

GAMES = games.names()
SEEDS = range(6)  # random games per rules set in the engine-and-kernel check


def knobs(entry) -> list[tuple[str, object, object]]:
    """``(name, type, default)`` of the game's rule knobs."""
    return rule_fields(entry.rules_class())


def _parts(hint) -> tuple[object, bool]:
    """The knob's type without ``None``, and whether ``None`` is allowed."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0], len(args) < len(typing.get_args(hint))
    return hint, False


def wrong_type(hint):
    """A value of the wrong type for a knob of type ``hint``."""
    base, _ = _parts(hint)
    if base is bool:
        return 1
    if base is str:
        return 5
    if typing.get_origin(base) is tuple:
        return 5
    return "5"  # an int or a float given as text


def out_of_range(entry, name: str, hint):
    """A value of the right type that the knob refuses (None for a switch)."""
    if name in entry.out_of_range:
        return entry.out_of_range[name]
    base, _ = _parts(hint)
    if base is bool:
        return None
    if base is str:
        return "nonsense"
    if typing.get_origin(base) is tuple:
        return ()
    return -(10**9)


def options(knob_values: dict) -> list[str]:
    """Command-line options setting ``knob_values``."""
    argv = []
    for name, value in knob_values.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + name.replace("_", "-"))
        else:
            argv.append(f"{flag}={value_text(value)}")
    return argv


def run_cli(entry, capsys, *argv) -> tuple[int, str, str]:
    """``python -m <game> argv`` in-process: exit code, stdout, stderr."""
    code = entry.command_line()(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _names_knob(name: str, text: str) -> bool:
    return re.search(rf"\b({name}|{name.replace('_', '-')})\b", text) is not None


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """Cards and solved tables of this module in a folder of its own."""
    folder = tmp_path_factory.mktemp("every-game-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETOP_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module", params=GAMES)
def entry(request):
    return games.get(request.param)


# ---- knobs -----------------------------------------------------------------------------


def test_rules_are_frozen_and_other_rules_change_every_knob(entry):
    cls = entry.rules_class()
    names = [name for name, _, _ in knobs(entry)]
    assert sorted(entry.other_rules) == sorted(names), "other_rules must set every knob"
    defaults, other = cls(), cls(**entry.other_rules)
    for name in names:
        assert getattr(other, name) != getattr(defaults, name), name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(defaults, names[0], getattr(other, names[0]))
    cls(**entry.small_rules)


def test_every_knob_refuses_a_wrong_type_and_names_itself(entry):
    cls = entry.rules_class()
    for name, hint, _ in knobs(entry):
        base, _ = _parts(hint)
        errors = (TypeError, ValueError) if base is str else TypeError
        with pytest.raises(errors) as info:
            cls(**{name: wrong_type(hint)})
        assert _names_knob(name, str(info.value)), (name, str(info.value))


def test_every_knob_refuses_a_value_out_of_range_and_names_itself(entry):
    cls = entry.rules_class()
    for name, hint, _ in knobs(entry):
        bad = out_of_range(entry, name, hint)
        if bad is None:  # a switch: both values are legal
            continue
        with pytest.raises(ValueError) as info:
            cls(**{name: bad})
        assert _names_knob(name, str(info.value)), (name, str(info.value))


def test_knobs_round_trip(entry):
    cls = entry.rules_class()
    other = cls(**entry.other_rules)
    assert dataclasses.replace(cls(), **entry.other_rules) == other
    again = cls(**{name: getattr(other, name) for name, _, _ in knobs(entry)})
    assert again == other and hash(again) == hash(other)
    assert eval(repr(other), {cls.__name__: cls}) == other
    for name, value in entry.other_rules.items():
        assert getattr(dataclasses.replace(cls(), **{name: value}), name) == getattr(other, name)


def test_knobs_round_trip_through_the_command_line(entry, capsys, monkeypatch):
    cls = entry.rules_class()
    seen = []

    def fake_card(game, rules, **kwargs):
        seen.append((game, rules))
        return pd.DataFrame({c: [] for c in COLUMNS})

    monkeypatch.setattr("tabletop.balance.cached_balance", fake_card)
    code, _, err = run_cli(entry, capsys, "balance", *options(entry.other_rules))
    assert (code, _without_estimate(entry, err)) == (0, "")
    assert seen == [(entry.name, cls(**entry.other_rules))]
    code, _, err = run_cli(entry, capsys, "balance")
    assert (code, _without_estimate(entry, err)) == (0, "") and seen[-1] == (entry.name, cls())


def _without_estimate(entry, err: str) -> str:
    """``err`` without the line a long card prints first (tabletop.cli.announce_card)."""
    head = f"python -m {entry.name} balance: about "
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith(head))


# ---- seeds and threads -------------------------------------------------------------------


def test_seeded_sample_is_the_same_on_one_and_two_threads(entry):
    sample = games.load(entry.sample)
    rules = entry.rules_class()(**entry.small_rules)
    saved = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = sample(rules, entry.small_games, seed=7)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = sample(rules, entry.small_games, seed=7)
        other = sample(rules, entry.small_games, seed=8)
    finally:
        numba.set_num_threads(saved)
    assert equal(one, two)
    assert not equal(one, other)


# ---- the plain engine and the kernels ----------------------------------------------------


def test_engine_and_kernels_agree_on_random_play(entry):
    if entry.random_play is None:
        pytest.skip(f"{entry.name}: the engine and the kernels draw from different "
                    "generators (held to the same law in the game's own tests)")  # fmt: skip
    random_play = games.load(entry.random_play)
    cls = entry.rules_class()
    for rules in (cls(**entry.small_rules), cls(**entry.other_rules)):
        for seed in SEEDS:
            reference, kernel = random_play(rules, seed=seed)
            assert reference == kernel, (rules, seed)


# ---- the command line --------------------------------------------------------------------


def test_help(entry, capsys):
    with pytest.raises(SystemExit) as stop:
        entry.command_line()(["--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0 and "balance" in out and "compare" in out
    with pytest.raises(SystemExit) as stop:
        entry.command_line()(["balance", "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    for name, _, _ in knobs(entry):
        assert "--" + name.replace("_", "-") in out, name


def test_bad_knobs_cost_one_line(entry, capsys):
    for name, hint, _ in knobs(entry):
        base, _ = _parts(hint)
        cases = []
        if base is not str:  # text that does not parse: a usage error
            cases.append(("many" if base is not bool else None, 2))
        bad = out_of_range(entry, name, hint)
        if bad is not None:
            cases.append((value_text(bad), 2))
        for text, expected in cases:
            flag = "--" + name.replace("_", "-")
            argv = [f"{flag}=3"] if text is None else [f"{flag}={text}"]
            code, out, err = run_cli(entry, capsys, "balance", *argv)
            assert (code, out) == (expected, ""), (argv, code, err)
            assert err.startswith("error: ") and err.count("\n") == 1, err
            assert _names_knob(name, err), (argv, err)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "--no-such-knob=1"], "unrecognized arguments: --no-such-knob=1"),
        (["balance", "--format", "md"], "invalid choice: 'md'"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_usage_errors_exit_with_two(entry, capsys, argv, message):
    code, out, err = run_cli(entry, capsys, *argv)
    assert (code, out) == (2, "") and err.startswith("error: ") and err.count("\n") == 1
    assert message in err


# ---- the balance card ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def card(entry, cache_dir):
    """The card of the small rules at seed 0, stored where the command line finds it."""
    cls = entry.rules_class()
    sizes = {name: default for name, _, default in card_options(entry.balance)}
    sizes.update(entry.small_balance)
    return cached_balance(entry.name, cls(**entry.small_rules), seed=0, **sizes)


def test_card_of_the_small_rules(entry, card):
    check_card(card)
    assert tuple(card.columns) == COLUMNS
    assert card["metric"].tolist() == [m.name for m in entry.metrics]
    assert card["method"].tolist() == [m.method for m in entry.metrics]
    exact = card[card["method"] == "exact"]
    assert exact["low"].equals(exact["value"]) and exact["high"].equals(exact["value"])
    mc = card[(card["method"] == "monte carlo") & np.isfinite(card["value"])]
    assert ((mc["low"] <= mc["value"]) & (mc["value"] <= mc["high"])).all()
    assert (card["n"] >= 0).all() and card["meaning"].str.len().gt(0).all()


def test_balance_formats_print_the_card(entry, card, capsys):
    argv = ["balance", *options(entry.small_rules), *options(entry.small_balance)]
    code, out, err = run_cli(entry, capsys, *argv, "--format", "json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert [r["metric"] for r in rows] == card["metric"].tolist()
    values = [np.nan if r["value"] is None else r["value"] for r in rows]
    np.testing.assert_array_equal(values, card["value"].to_numpy())
    code, out, err = run_cli(entry, capsys, *argv, "--format", "csv")
    assert (code, err) == (0, "")
    frame = pd.read_csv(io.StringIO(out))
    assert tuple(frame.columns) == COLUMNS and frame["metric"].tolist() == card["metric"].tolist()
    code, out, err = run_cli(entry, capsys, *argv, "--format", "table")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == list(COLUMNS)[: len(lines[0].split())]
    assert len(lines) == len(card) + 1
