import io
import json
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
import pytest

from tabletop import cli


@dataclass(frozen=True)
class ToyRules:
    """Rules of a toy game.

    Parameters
    ----------
    n_dice : int
        Dice rolled (1..8; default 5).
    faces : tuple of ints
        Face values.
    bonus : float
        A bonus.
    gain : bool
        Whether points are gained.
    cap : int or None
        An optional cap.
    mode : str
        The mode.
    """

    n_dice: int = 5
    faces: tuple[int, ...] = (1, 2, 3)
    bonus: float = 0.5
    gain: bool = True
    cap: int | None = None
    mode: Literal["fast", "slow"] = "fast"
    _hidden: int = field(init=False, default=0, repr=False)

    def __post_init__(self):
        if not 1 <= self.n_dice <= 8:
            raise ValueError(f"n_dice must be 1..8, got {self.n_dice}")


def parser():
    p = cli.ArgumentParser(prog="toy")
    cli.add_rules_options(p, ToyRules)
    cli.add_common_options(p)
    return p


def test_rule_fields_skip_private_and_non_init():
    names = [name for name, _, _ in cli.rule_fields(ToyRules)]
    assert names == ["n_dice", "faces", "bonus", "gain", "cap", "mode"]


def test_options_build_the_rules():
    args = parser().parse_args(
        ["--n-dice", "6", "--faces=-1,0,4", "--bonus", "1.5", "--no-gain", "--cap", "7",
         "--mode", "slow", "--seed", "3", "--jobs", "2", "--format", "csv"]
    )  # fmt: skip
    rules = cli.rules_from_args(ToyRules, args)
    assert rules == ToyRules(6, (-1, 0, 4), 1.5, False, 7, "slow")
    assert (args.seed, args.jobs, args.format) == (3, 2, "csv")


def test_a_switch_whose_name_begins_with_no():
    @dataclass(frozen=True)
    class Knobs:
        no_repetition: bool = False

    p = cli.ArgumentParser(prog="toy")
    cli.add_rules_options(p, Knobs)
    assert cli.rules_from_args(Knobs, p.parse_args(["--no-repetition"])) == Knobs(True)
    assert cli.rules_from_args(Knobs, p.parse_args(["--no-no-repetition"])) == Knobs(False)


def test_options_not_given_keep_the_defaults():
    args = parser().parse_args([])
    assert cli.rules_kwargs(args) == {}
    assert cli.rules_from_args(ToyRules, args) == ToyRules()
    assert (args.seed, args.jobs, args.format) == (None, None, "table")
    assert cli.rules_kwargs(parser().parse_args(["--cap", "none"])) == {"cap": None}


def test_help_comes_from_the_docstring(capsys):
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "Dice rolled (1..8; default 5)" in out
    assert "Face values (default: 1,2,3); comma list of ints" in out
    assert "--gain, --no-gain" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n-dice", "six"], "argument --n-dice: n_dice: expected an int, got 'six'"),
        (["--faces=1,x"], "argument --faces: faces: expected an int, got 'x'"),
        (["--mode", "medium"], "mode: expected one of fast, slow, got 'medium'"),
        (["--cap", "big"], "cap: expected int or none, got 'big'"),
        (["--seed", "-1"], "argument --seed: expected a non-negative int, got -1"),
        (["--jobs", "0"], "argument --jobs: expected a positive int, got 0"),
        (["--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["--n-dice"], "argument --n-dice: expected one argument"),
        (["--colour", "red"], "unrecognized arguments: --colour red"),
    ],
)
def test_bad_options_raise_usage_errors(argv, message):
    with pytest.raises(cli.UsageError) as err:
        parser().parse_args(argv)
    assert message in str(err.value) and str(err.value).startswith("toy: ")


def test_parse_value_types():
    assert cli.parse_value("x", " 3 ", int) == 3
    assert cli.parse_value("x", "yes", bool) is True and cli.parse_value("x", "0", bool) is False
    assert cli.parse_value("x", "", tuple[int, ...]) == ()
    assert cli.parse_value("x", "1,2.5", tuple[int, float]) == (1, 2.5)
    with pytest.raises(ValueError, match="x: expected 2 comma-separated values"):
        cli.parse_value("x", "1", tuple[int, float])
    with pytest.raises(ValueError, match="x: expected true or false, got 'maybe'"):
        cli.parse_value("x", "maybe", bool)
    with pytest.raises(ValueError, match="x: expected a number"):
        cli.parse_value("x", "one", float)
    with pytest.raises(TypeError, match="no command-line form"):
        cli.parse_value("x", "1", dict)


def test_parse_grid():
    grid = cli.parse_grid(
        ["n-dice=4,5,6", "faces=1,2;0,3,4", "cap=none,10", "gain=true,false"], ToyRules
    )
    assert grid == {
        "n_dice": [4, 5, 6], "faces": [(1, 2), (0, 3, 4)], "cap": [None, 10],
        "gain": [True, False],
    }  # fmt: skip
    assert cli.parse_grid(["games=10,20"], ToyRules, extra={"games": int}) == {"games": [10, 20]}


@pytest.mark.parametrize(
    ("specs", "error", "message"),
    [
        (["n_dice"], cli.UsageError, "expected KNOB=V1,V2,..., got 'n_dice'"),
        (["n_dice="], cli.UsageError, "expected KNOB=V1,V2"),
        (["colour=1,2"], cli.UsageError, "unknown knob 'colour'; knobs are n_dice, faces"),
        (["n_dice=4", "n-dice=5"], cli.UsageError, "knob 'n_dice' is given twice"),
        (["n_dice=4,x"], ValueError, "n_dice: expected an int, got 'x'"),
    ],
)
def test_bad_grids(specs, error, message):
    with pytest.raises(error, match=message):
        cli.parse_grid(specs, ToyRules)


FRAME = pd.DataFrame(
    {"p": [0.125, np.nan], "faces": [(1, 2), (3,)], "ok": [True, False]},
    index=pd.Index([4, 5], name="n_dice"),
)


def test_formats():
    table = cli.format_frame(FRAME, "table")
    assert table.splitlines()[0].split() == ["p", "faces", "ok"]
    assert "0.125" in table and "(1, 2)" in table
    back = pd.read_csv(io.StringIO(cli.format_frame(FRAME, "csv")), index_col="n_dice")
    assert back["p"].iloc[0] == 0.125 and back["ok"].tolist() == [True, False]
    assert json.loads(cli.format_frame(FRAME, "json")) == [
        {"n_dice": 4, "p": 0.125, "faces": [1, 2], "ok": True},
        {"n_dice": 5, "p": None, "faces": [3], "ok": False},
    ]
    plain = pd.DataFrame({"x": [1, 2]})  # an unnamed range index is left out
    assert json.loads(cli.format_frame(plain, "json")) == [{"x": 1}, {"x": 2}]
    assert cli.format_frame(plain, "csv") == "x\n1\n2\n"
    series = pd.Series([0.5], index=pd.Index(["a"], name="k"), name="v")
    assert json.loads(cli.format_frame(series, "json")) == [{"k": "a", "v": 0.5}]
    with pytest.raises(ValueError, match="format must be one of"):
        cli.format_frame(FRAME, "xml")
    out = io.StringIO()
    cli.write_frame(plain, "csv", file=out)
    assert out.getvalue() == "x\n1\n2\n"


@cli.one_line_errors
def toy_main(argv=None):
    args = parser().parse_args(argv)
    rules = cli.rules_from_args(ToyRules, args)
    if args.seed == 13:
        raise OSError("[Errno 2] No such file or directory: 'x'\nmore")
    if args.seed == 14:
        raise cli.CommandError("2 of 4 tasks failed")
    if args.seed == 15:
        raise KeyboardInterrupt
    if args.seed == 16:
        raise RuntimeError("a bug")
    cli.write_frame(pd.DataFrame({"n_dice": [rules.n_dice]}), args.format)
    return 3 if args.seed == 17 else None


@pytest.mark.parametrize(
    ("argv", "code", "line"),
    [
        (["--n-dice", "9"], 1, "error: n_dice must be 1..8, got 9"),
        (["--n-dice", "x"], 2, "error: toy: argument --n-dice: n_dice: expected an int, got 'x'"),
        (["--bogus"], 2, "error: toy: unrecognized arguments: --bogus"),
        (["--seed", "13"], 1, "error: [Errno 2] No such file or directory: 'x'"),
        (["--seed", "14"], 1, "error: 2 of 4 tasks failed"),
        (["--seed", "15"], 130, "error: interrupted"),
    ],
)
def test_errors_are_one_line(capsys, argv, code, line):
    assert toy_main(argv) == code
    captured = capsys.readouterr()
    assert captured.err == line + "\n" and captured.out == ""


def test_exit_codes_and_bugs(capsys):
    assert toy_main(["--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"n_dice": 5}]
    assert toy_main(["--seed", "17"]) == 3
    with pytest.raises(RuntimeError, match="a bug"):  # a bug keeps its traceback
        toy_main(["--seed", "16"])
