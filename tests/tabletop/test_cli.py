import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import pytest

from tabletop import cli

ROOT = Path(__file__).resolve().parents[2]


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
    if args.seed == 18:
        raise MemoryError("Unable to allocate 26.5 GiB for an array")
    if args.seed == 19:
        raise OverflowError("Python int too large to convert to C ssize_t")
    if args.seed == 20:
        raise ValueError("\x1b[31mn_dice is red\x1b[0m\n  and long")
    if args.seed == 21:
        import warnings

        warnings.warn("a first line\nand a second", RuntimeWarning, stacklevel=1)
    cli.write_frame(pd.DataFrame({"n_dice": [rules.n_dice]}), args.format)
    return 3 if args.seed == 17 else None


@pytest.mark.parametrize(
    ("argv", "code", "line"),
    [
        (["--n-dice", "9"], 2, "error: n_dice must be 1..8, got 9"),
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


def test_exit_codes_and_bugs(capsys, monkeypatch):
    monkeypatch.delenv(cli.TRACEBACK_ENV, raising=False)
    assert toy_main(["--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"n_dice": 5}]
    assert toy_main(["--seed", "17"]) == 3
    assert toy_main(["--seed", "16"]) == 1  # a bug is one line too, saying how to see more
    err = capsys.readouterr().err
    assert err == ("error: internal error: RuntimeError: a bug "
                   f"(set {cli.TRACEBACK_ENV}=1 to see the traceback)\n")  # fmt: skip
    monkeypatch.setenv(cli.TRACEBACK_ENV, "1")
    with pytest.raises(RuntimeError, match="a bug"):  # asked for: the traceback
        toy_main(["--seed", "16"])


def test_a_ctrl_c_swallowed_while_loading_ends_before_main_runs(capsys, monkeypatch):
    """A Ctrl-C noted while the modules loaded, but swallowed by one of them, ends the
    command before its work starts (it once ran 10 million games to the end)."""
    monkeypatch.setattr("tabletop._entry._interrupted", True)
    assert toy_main(["--format", "json"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "error: interrupted\n" and captured.out == ""


@pytest.mark.parametrize(("seed", "code"), [(13, 1), (16, 1), (20, 2)])
def test_any_error_after_a_ctrl_c_ends_as_interrupted(capsys, monkeypatch, seed, code):
    """A Ctrl-C that surfaces as another error (numba turns an interrupted compilation
    into ``RuntimeError: no compiled object yet``) ends as interrupted, not as a bug or a
    bad value; without a Ctrl-C the same errors keep their own lines and codes."""
    monkeypatch.delenv(cli.TRACEBACK_ENV, raising=False)
    assert toy_main(["--seed", str(seed)]) == code
    assert "interrupted" not in capsys.readouterr().err
    monkeypatch.setattr("tabletop._entry._interrupted", True)
    assert toy_main(["--seed", str(seed)]) == 130
    assert capsys.readouterr().err == "error: interrupted\n"


@pytest.mark.parametrize(
    ("seed", "code", "line"),
    [
        (18, 1, "error: out of memory: Unable to allocate 26.5 GiB for an array; "
                "choose smaller rules or sizes"),
        (19, 1, "error: Python int too large to convert to C ssize_t"),
        (20, 2, "error: n_dice is red"),
    ],
)  # fmt: skip
def test_memory_overflow_and_colour_are_one_plain_line(capsys, seed, code, line):
    assert toy_main(["--seed", str(seed)]) == code
    captured = capsys.readouterr()
    assert captured.err == line + "\n" and captured.out == ""


def test_warnings_are_one_line(capsys):
    with pytest.warns(RuntimeWarning):  # pytest records it; the format is what main installs
        assert toy_main(["--seed", "21"]) == 0
    import warnings

    saved = warnings.formatwarning
    wrapped = cli.one_line_errors(lambda argv: print(warnings.formatwarning(
        "a first line\nand a second", RuntimeWarning, "f.py", 3), end="", file=sys.stderr))
    assert wrapped([]) == 0 and warnings.formatwarning is saved
    assert capsys.readouterr().err == "warning: a first line (RuntimeWarning)\n"


def test_error_line():
    assert cli.error_line(KeyError("deck")) == "'deck'"
    assert cli.error_line(MemoryError()) == "MemoryError"
    assert cli.error_line(ValueError("x" * 1000)).endswith("...")
    assert len(cli.error_line(ValueError("x" * 1000))) == 400


def test_with_threads_restores_the_count():
    import numba

    before = numba.get_num_threads()
    with pytest.raises(ZeroDivisionError):
        cli.with_threads(1, lambda: 1 / 0)
    assert numba.get_num_threads() == before
    assert cli.with_threads(None, numba.get_num_threads) == before


# ---- the real commands, in processes of their own -------------------------------------

#: Every command line, with bad inputs of each class: (argv, exit code). Each must print
#: one line on stderr, nothing on stdout, and no traceback.
BAD_COMMANDS = [
    # usage errors: argparse's code 2
    (["panache", "fly"], 2),
    (["citadel", "simulate", "--games", "many"], 2),
    (["samarra", "solve", "--length", "3.5"], 2),
    (["commander", "battle", "--defenders", "1"], 2),
    (["tabletop.notebooks", "--jobs", "0"], 2),
    (["tabletop.index", "--bogus"], 2),
    # values out of range and paths that name nothing: 2
    (["panache", "advise", "7", "7"], 2),
    (["citadel", "resolve", "32Q", "0", "0", "0"], 2),
    (["samarra", "solve", "--position", "/nonexistent/board.txt"], 2),
    (["commander", "race", "--stock", "99999999999999999999999"], 2),
    (["tabletop.index", "--report-dir", "/nonexistent/reports"], 2),
    # a count beyond 64 bits (once an OverflowError inside numpy) and a table larger
    # than memory (a MemoryError, or a refusal with the estimate): 2 and 1
    (["panache", "simulate", "--games", "100000000000000000000000"], 2),
    (["samarra", "solve", "--width", "5", "--length", "6"], 1),
]


def _python_m(argv, faults: bool = False, **kwargs) -> subprocess.Popen:
    """``python -m argv`` with a colour terminal's environment; with ``faults``, a
    SIGABRT prints every thread's Python stack (:mod:`faulthandler`)."""
    env = dict(os.environ, TERM="xterm-256color", FORCE_COLOR="1", COLUMNS="80")
    if faults:
        env["PYTHONFAULTHANDLER"] = "1"
    env.pop(cli.TRACEBACK_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kwargs)  # fmt: skip


def _assert_one_line(argv, code, proc, out, err):
    assert proc.returncode == code, (argv, proc.returncode, err)
    assert "Traceback" not in err and "\x1b" not in err, (argv, err)
    assert err.startswith("error: ") and err.count("\n") == 1, (argv, err)
    assert out == "", (argv, out)


@pytest.mark.slow
def test_bad_commands_print_one_line_and_exit_non_zero(tmp_path):
    # started together: most of each run is importing numba, pandas and the game
    procs = [(argv, code, _python_m(argv, cwd=tmp_path)) for argv, code in BAD_COMMANDS]
    for argv, code, proc in procs:
        out, err = proc.communicate(timeout=600)
        _assert_one_line(argv, code, proc, out, err)


@pytest.mark.slow
def test_ctrl_c_prints_one_line_and_exits_130(tmp_path):
    # a long pure-Python run (random agents), interrupted once the libraries are loaded
    # (``python -m`` imports the package before any code of ours can catch Ctrl-C)
    argv = ["samarra", "play", "--length", "3", "--black", "random", "--games", "10000000"]
    proc = _python_m(argv, cwd=tmp_path, faults=True)
    time.sleep(8.0)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # show where it is stuck: every thread's stack
        proc.send_signal(signal.SIGABRT)
        out, err = proc.communicate()
        pytest.fail(f"still running 60 s after the Ctrl-C; its stacks:\n{err[-6000:]}")
    assert proc.returncode == 130, err
    assert err == "error: interrupted\n" and out == "", err


@pytest.mark.slow
def test_a_closed_pipe_is_quiet(tmp_path):
    proc = _python_m(["panache", "turn", "--show", "policy"], cwd=tmp_path)
    proc.stdout.close()  # the reader went away, as with ``| head``
    err = proc.stderr.read()
    proc.wait(timeout=120)
    proc.stderr.close()
    assert proc.returncode in (0, 1) and err == "", err


def test_a_long_card_announces_its_estimate_on_stderr_first(capsys):
    """``balance`` / ``compare`` say how long a card's exact solves take before they
    start, even when stderr is not a terminal (no bar then)."""
    import citadel
    import panache
    from tabletop.cli import ANNOUNCE_SECONDS, announce_card

    big = citadel.Rules(capital=300)
    seconds = announce_card("citadel", "compare", [big, citadel.Rules()], {})
    from citadel.analyses import card_seconds

    assert seconds == card_seconds(big) + card_seconds(citadel.Rules()) >= ANNOUNCE_SECONDS
    line = capsys.readouterr().err
    assert line.startswith("python -m citadel compare: about ") and line.count("\n") == 1
    assert "Ctrl-C stops it" in line
    small = citadel.Rules(radius=1, capital=10, bid_step=5)
    assert announce_card("citadel", "balance", [small], {}) < ANNOUNCE_SECONDS
    assert announce_card("panache", "balance", [panache.Rules()], {}) == 0.0  # no estimate
    assert capsys.readouterr().err == ""
