"""What every game's command line shares: rule knobs as options, output, one-line errors.

Each game has ``python -m <game> <subcommand> [options]``. This module builds the
parts that are the same for all of them:

* :class:`ArgumentParser`: argparse whose errors raise :class:`UsageError` instead of
  printing the usage and exiting, so that a mistake costs the user one line;
* :func:`add_rules_options`: one option per field of a frozen rules dataclass
  (``n_dice`` → ``--n-dice 6``; types from the annotations: ``int``, ``float``,
  ``str``, ``bool`` as ``--flag/--no-flag``, tuples as comma lists
  ``--face-values=-3,-2,-1,0,1,2``, ``X | None`` accepting ``none``); help text from the
  numpydoc ``Parameters`` of the class; :func:`rules_kwargs` / :func:`rules_from_args`
  read them back (only the options given, so the class keeps its defaults);
* :func:`add_common_options`: ``--seed``, ``--jobs`` and ``--format table|csv|json``;
* :func:`parse_grid`: ``--grid n_dice=4,5,6 start_points=25,35`` for sweeps (values of
  a tuple knob are separated by ``;``: ``face_values='-4,-3,-2,-1,0,1;-3,-2,-1,0,1,2'``);
* :func:`write_frame`: a DataFrame as an aligned table, CSV or JSON records;
* :func:`add_command`: a subcommand with the rule knobs and the common options;
* for ``sweep`` subcommands, :func:`sweep_grid` (the ``--grid``, checked against the
  options), :func:`add_sweep_options` (``--store``, ``--dask``) and :func:`run_sweep`
  (the run through :func:`tabletop.sweep.sweep`, failed variants kept apart);
* :func:`add_report_command`: the ``report`` subcommand (notebooks, then the index);
  :func:`finish`: print a subcommand's result, then fail with any problem it left;
* :func:`one_line_errors`: wraps ``main`` so that a :class:`CommandError` (usage
  errors included), ``ValueError``, ``TypeError`` or ``OSError`` prints one line
  ``error: ...`` on stderr and returns a non-zero exit code, never a traceback.

A game's command line is then short (``panache/cli.py`` is the worked example)::

    from tabletop import cli
    from mygame.rules import Rules

    def solve(args):                      # one function per subcommand
        rules = cli.rules_from_args(Rules, args)
        return solve_something(rules).to_frame()

    def build_parser():
        parser = cli.ArgumentParser(prog="python -m mygame", description="...")
        commands = parser.add_subparsers(dest="command", required=True)
        p = commands.add_parser("solve", help="...", description="...")
        cli.add_rules_options(p, Rules)
        cli.add_common_options(p)
        p.set_defaults(run=solve)
        return parser

    @cli.one_line_errors
    def main(argv=None):
        args = build_parser().parse_args(argv)
        cli.write_frame(args.run(args), args.format)

and ``mygame/__main__.py`` is ``import sys; from mygame.cli import main;
sys.exit(main())``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import inspect
import json
import math
import os
import re
import sys
import types
import typing
import warnings
from dataclasses import MISSING, fields

import numpy as np
import pandas as pd

from tabletop import _entry

FORMATS = ("table", "csv", "json")
RULE_DEST = "rule_"  # argparse dest prefix of the rule options


class _Switch(argparse.BooleanOptionalAction):
    """``--flag`` / ``--no-flag``, also for knobs whose own name begins with ``no_``
    (argparse's action would read ``--no-repetition`` as "repetition off": False)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, option_string == self.option_strings[0])


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class CommandError(Exception):
    """A mistake of the user's, reported as one line (exit code 1)."""

    exit_code = 1


class UsageError(CommandError):
    """A malformed command line (exit code 2)."""

    exit_code = 2


class ArgumentParser(argparse.ArgumentParser):
    """:class:`argparse.ArgumentParser` raising :class:`UsageError` on a bad command line."""

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message}")


#: Exit codes of every command line: a mistake in the values given, a malformed
#: command line (argparse's code), and Ctrl-C (128 + SIGINT, the shells' convention).
EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 1, 2, 130
#: Set this variable (to anything but empty or ``0``) to see the traceback of an
#: unexpected error instead of its one line.
TRACEBACK_ENV = "TABLETOP_TRACEBACK"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")
_MAX_LINE = 400  # characters of an error line: a long array in a message is cut


def error_line(exc: BaseException) -> str:
    """The one line that reports ``exc``: its first non-empty line, colour codes removed.

    Examples
    --------
    >>> error_line(ValueError("\\x1b[31mn_dice must be 1..8, got 9\\x1b[0m\\nmore"))
    'n_dice must be 1..8, got 9'
    >>> error_line(KeyError("deck"))
    "'deck'"
    """
    text = _ANSI.sub("", str(exc))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else type(exc).__name__
    return line if len(line) <= _MAX_LINE else line[: _MAX_LINE - 3] + "..."


def _report(message: str) -> None:
    """Print ``error: message`` on stderr, as one line with no colour codes."""
    line = _ANSI.sub("", message).replace("\n", " ").replace("\r", " ")
    with contextlib.suppress(OSError, ValueError):  # stderr closed: the exit code tells
        print(f"error: {line}", file=sys.stderr, flush=True)


def _one_line_warning(message, category, filename, lineno, line=None) -> str:
    return f"warning: {error_line(Warning(message))} ({category.__name__})\n"


def _stdout_gone() -> None:
    """After a broken pipe (``... | head``): send what is left of stdout nowhere, so that
    flushing it at exit prints no second error."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def one_line_errors(main):
    """Decorate ``main(argv=None) -> int | None``: every error becomes one line on stderr.

    Whatever goes wrong, the command prints ``error: ...`` on stderr, one line with no
    colour codes and no traceback, and returns a non-zero exit code:

    ======================================================  ==============================
    what                                                    exit code
    ======================================================  ==============================
    :class:`UsageError` (a malformed command line), and      2 (:data:`EXIT_USAGE`)
    ``ValueError``, ``TypeError`` (a value the library
    refuses: an option out of range, bad rules, a path
    that names no file, :mod:`tabletop.files`)
    :class:`CommandError` (a finding such as a broken deck), 1 (:data:`EXIT_ERROR`)
    other ``OSError`` (a full disk, a folder it may not
    write), ``ArithmeticError`` (``OverflowError``...)
    ``MemoryError``: the line says so and names the cure     1
    any other exception (a bug): its type and message,       1
    and how to see the traceback (:data:`TRACEBACK_ENV`)
    ``KeyboardInterrupt`` (Ctrl-C), or any error after a     130 (:data:`EXIT_INTERRUPTED`)
    Ctrl-C arrived: ``error: interrupted``
    ======================================================  ==============================

    Otherwise it returns ``main``'s code (0 for None). ``SystemExit`` passes through
    (``--help`` exits with 0). Warnings raised meanwhile print one line each
    (``warning: ...``). A closed output pipe (``python -m panache ... | head``) ends
    the command quietly with code 1, as Python's own documentation advises.

    Examples
    --------
    >>> @one_line_errors
    ... def main(argv=None):
    ...     raise ValueError("n_dice must be 1..8, got 9")
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     code = main([])
    >>> code, err.getvalue()
    (2, 'error: n_dice must be 1..8, got 9\\n')
    """

    @functools.wraps(main)
    def wrapper(argv=None) -> int:
        if _entry.interrupted():  # a Ctrl-C while the modules loaded, swallowed by one
            _report("interrupted")  # of them (an import that catches every exception)
            return EXIT_INTERRUPTED
        saved = warnings.formatwarning
        warnings.formatwarning = _one_line_warning
        try:
            code = main(argv)
        except CommandError as exc:
            _report(error_line(exc))
            return exc.exit_code
        except BrokenPipeError:
            _stdout_gone()
            return EXIT_ERROR
        except (ValueError, TypeError, OSError, ArithmeticError) as exc:
            if _entry.interrupted():  # a Ctrl-C that surfaced as another error
                _report("interrupted")
                return EXIT_INTERRUPTED
            _report(error_line(exc))
            return EXIT_USAGE if isinstance(exc, ValueError | TypeError) else EXIT_ERROR
        except MemoryError as exc:
            detail = error_line(exc).rstrip(". ") if str(exc).strip() else "the allocation failed"
            _report(f"out of memory: {detail}; choose smaller rules or sizes")
            return EXIT_ERROR
        except KeyboardInterrupt:
            _report("interrupted")
            return EXIT_INTERRUPTED
        except Exception as exc:
            if _entry.interrupted():  # e.g. numba's "no compiled object yet" after Ctrl-C
                _report("interrupted")
                return EXIT_INTERRUPTED
            if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
                raise
            _report(f"internal error: {type(exc).__name__}: {error_line(exc)} "
                    f"(set {TRACEBACK_ENV}=1 to see the traceback)")  # fmt: skip
            return EXIT_ERROR
        finally:
            warnings.formatwarning = saved
        return 0 if code is None else int(code)

    return wrapper


def _field_docs(cls) -> dict[str, str]:
    """First sentence of each parameter's description in a numpydoc class docstring."""
    doc = inspect.cleandoc(cls.__doc__ or "")
    out = {}
    for match in re.finditer(r"^(\w+) : [^\n]*\n((?:[ \t]+\S[^\n]*\n?)+)", doc, re.M):
        text = " ".join(match.group(2).split())
        out[match.group(1)] = text.split(". ")[0].rstrip(".")
    return out


def rule_fields(cls) -> list[tuple[str, object, object]]:
    """``(name, type, default)`` of the public init fields of a rules dataclass."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in fields(cls):
        if not f.init or f.name.startswith("_"):
            continue
        default = f.default if f.default is not MISSING else None
        if f.default_factory is not MISSING:
            default = f.default_factory()
        out.append((f.name, hints[f.name], default))
    return out


def _type_text(hint) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join("none" if a is type(None) else _type_text(a) for a in args)
    if origin is tuple:
        return f"comma list of {_type_text(args[0])}s"
    if origin is typing.Literal:
        return "one of " + ", ".join(map(str, args))
    return getattr(hint, "__name__", str(hint))


def parse_value(name: str, text: str, hint):
    """Parse one option value ``text`` of knob ``name`` by its type annotation.

    Examples
    --------
    >>> parse_value("face_values", "-3,-2,-1,0,1,2", tuple[int, ...])
    (-3, -2, -1, 0, 1, 2)
    >>> parse_value("mp_stake_cap", "none", int | None) is None
    True
    >>> parse_value("exchange_rates", "13:1,0:6", tuple[tuple[int, int], ...])
    ((13, 1), (0, 6))
    >>> parse_value("n_dice", "six", int)
    Traceback (most recent call last):
    ...
    ValueError: n_dice: expected an int, got 'six'
    """
    text = text.strip()
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and text.lower() in ("none", "null"):
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return parse_value(name, text, arg)
            except ValueError:
                pass
        raise ValueError(f"{name}: expected {_type_text(hint)}, got {text!r}")
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis \
            and typing.get_origin(args[0]) is tuple:  # a table of pairs: KEY:VALUE,...
        parts = typing.get_args(args[0])
        out = []
        for item in text.split(",") if text else []:
            fields_ = item.split(":")
            if len(fields_) != len(parts):
                form = ":".join(["KEY", *(_type_text(a).upper() for a in parts[1:])])
                raise ValueError(f"{name}: expected {form} pairs separated by commas, "
                                 f"got {text!r}")  # fmt: skip
            out.append(tuple(parse_value(name, f, a) for f, a in zip(fields_, parts, strict=True)))
        return tuple(out)
    if origin is tuple:
        items = text.split(",") if text else []
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(parse_value(name, t, args[0]) for t in items)
        if len(items) != len(args):
            raise ValueError(f"{name}: expected {len(args)} comma-separated values, got {text!r}")
        return tuple(parse_value(name, t, a) for t, a in zip(items, args, strict=True))
    if origin is typing.Literal:
        for arg in args:
            if str(arg) == text:
                return arg
        raise ValueError(f"{name}: expected one of {', '.join(map(str, args))}, got {text!r}")
    if hint is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"{name}: expected true or false, got {text!r}")
    if hint is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{name}: expected an int, got {text!r}") from None
    if hint is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"{name}: expected a number, got {text!r}") from None
    if hint is str:
        return text
    raise TypeError(f"{name}: no command-line form for the type {hint!r}")


def value_text(value) -> str:
    """A knob's value in the form :func:`parse_value` reads (and the command line takes).

    Examples
    --------
    >>> value_text((-4, -3, 0)), value_text(((13, 1), (0, 6))), value_text(None), value_text(True)
    ('-4,-3,0', '13:1,0:6', 'none', 'true')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(":".join(map(value_text, v)) if isinstance(v, tuple) else value_text(v)
                        for v in value)  # fmt: skip
    return str(value)


def _converter(name: str, hint):
    def convert(text: str):
        try:
            return parse_value(name, text, hint)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = _type_text(hint)  # argparse names the type in its messages
    return convert


def _metavar(hint) -> str:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _metavar(args[0])
    if typing.get_origin(hint) is tuple:
        return f"{_metavar(args[0])},..."
    return getattr(hint, "__name__", "VALUE").upper()


def add_rules_options(parser: argparse.ArgumentParser, cls, exclude=()) -> None:
    """Add one option per field of the rules dataclass ``cls`` (see the module docstring).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     n_dice: int = 5
    ...     gain: bool = True
    >>> parser = ArgumentParser(prog="game")
    >>> add_rules_options(parser, Rules)
    >>> rules_from_args(Rules, parser.parse_args(["--n-dice", "6", "--no-gain"]))
    Rules(n_dice=6, gain=False)
    """
    docs = _field_docs(cls)
    group = parser.add_argument_group("rules", f"knobs of {cls.__module__}.{cls.__name__}")
    for name, hint, default in rule_fields(cls):
        if name in exclude:
            continue
        flag = "--" + name.replace("_", "-")
        text = docs.get(name, name.replace("_", " ")).replace("``", "")
        if "default" not in text:
            shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
            text = f"{text} (default: {shown})"
        text = text.replace("%", "%%")
        if hint is bool:
            group.add_argument(
                flag, dest=RULE_DEST + name, action=_Switch,
                default=argparse.SUPPRESS, help=text,
            )  # fmt: skip
        else:
            group.add_argument(
                flag, dest=RULE_DEST + name, type=_converter(name, hint),
                default=argparse.SUPPRESS, metavar=_metavar(hint),
                help=text if hint in (int, float, str) else f"{text}; {_type_text(hint)}",
            )  # fmt: skip


def rules_kwargs(args: argparse.Namespace) -> dict:
    """The rule options given on the command line, by field name."""
    return {k[len(RULE_DEST) :]: v for k, v in vars(args).items() if k.startswith(RULE_DEST)}


def rules_from_args(cls, args: argparse.Namespace):
    """Build the rules object from the options given (the others keep their defaults)."""
    return cls(**rules_kwargs(args))


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative int, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative int, got {value}")
    return value


def _positive_int(text: str) -> int:
    value = _nonnegative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {value}")
    return value


def add_common_options(parser, seed: bool = True, jobs: bool = True, fmt: bool = True) -> None:
    """Add ``--seed``, ``--jobs`` and ``--format`` (each can be left out)."""
    group = parser.add_argument_group("run")
    if seed:
        group.add_argument(
            "--seed", type=_nonnegative_int, default=None,
            help="root seed of the random streams (default: fresh entropy)",
        )  # fmt: skip
    if jobs:
        group.add_argument(
            "--jobs", type=_positive_int, default=None,
            help="parallel workers (default: every CPU)",
        )  # fmt: skip
    if fmt:
        group.add_argument(
            "--format", choices=FORMATS, default="table", help="output format (default: table)"
        )


def _has_tuple(hint) -> bool:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_has_tuple(a) for a in typing.get_args(hint))
    return typing.get_origin(hint) is tuple


def parse_grid(specs, cls, extra: dict | None = None) -> dict[str, list]:
    """``["n_dice=4,5,6", ...]`` as ``{"n_dice": [4, 5, 6], ...}``, typed by ``cls``'s fields.

    ``extra`` maps more knob names (not fields of ``cls``) to their types.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     n_dice: int = 5
    ...     faces: tuple[int, ...] = (1, 2)
    >>> parse_grid(["n-dice=4,5", "faces=1,2;0,3"], Rules)
    {'n_dice': [4, 5], 'faces': [(1, 2), (0, 3)]}
    """
    types_ = {name: hint for name, hint, _ in rule_fields(cls)}
    types_.update(extra or {})
    grid: dict[str, list] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not values.strip():
            raise UsageError(f"--grid: expected KNOB=V1,V2,..., got {spec!r}")
        if name not in types_:
            raise UsageError(f"--grid: unknown knob {name!r}; knobs are {', '.join(types_)}")
        if name in grid:
            raise UsageError(f"--grid: knob {name!r} is given twice")
        hint = types_[name]
        parts = values.split(";") if _has_tuple(hint) else values.split(",")
        grid[name] = [parse_value(name, part, hint) for part in parts]
    return grid


def _plain(value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def format_frame(frame: pd.DataFrame | pd.Series, fmt: str = "table") -> str:
    """A DataFrame (or Series) as text: an aligned ``table``, ``csv`` or ``json`` records.

    JSON holds one object per row, the index levels first (unnamed ranges dropped).

    Examples
    --------
    >>> frame = pd.DataFrame({"p": [0.5, 0.25]}, index=pd.Index([4, 5], name="n_dice"))
    >>> print(format_frame(frame, "json"))
    [{"n_dice": 4, "p": 0.5}, {"n_dice": 5, "p": 0.25}]
    >>> print(format_frame(frame, "csv"), end="")
    n_dice,p
    4,0.5
    5,0.25
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    unnamed = all(name is None for name in frame.index.names)
    if fmt == "table":
        return frame.to_string(index=not unnamed)
    if fmt == "csv":
        return frame.to_csv(index=not unnamed, lineterminator="\n")
    flat = frame.reset_index(drop=unnamed)
    records = [{str(k): _plain(v) for k, v in row.items()} for row in flat.to_dict("records")]
    return json.dumps(records, allow_nan=False)


def write_frame(frame, fmt: str = "table", file=None) -> None:
    """Print :func:`format_frame` of ``frame`` to ``file`` (default: stdout)."""
    text = format_frame(frame, fmt)
    out = sys.stdout if file is None else file
    out.write(text if text.endswith("\n") else text + "\n")


# ---- what every game's subcommands share ----------------------------------------------


def add_command(commands, name: str, help: str, run, rules, seed: bool = True,
                jobs: bool = True, exclude=()) -> argparse.ArgumentParser:  # fmt: skip
    """A subcommand ``name`` that runs ``run(args)``, with the knobs of the rules class
    ``rules`` (less ``exclude``) and the common options."""
    sub = commands.add_parser(name, help=help, description=help)
    add_rules_options(sub, rules, exclude=exclude)
    add_common_options(sub, seed=seed, jobs=jobs)
    sub.set_defaults(run=run)
    return sub


def with_threads(jobs: int | None, work):
    """``work()`` run on ``jobs`` numba threads (None: as many as now; capped at numba's
    pool), the thread count restored afterwards, whatever happens.

    Examples
    --------
    >>> import numba
    >>> before = numba.get_num_threads()
    >>> with_threads(1, numba.get_num_threads), numba.get_num_threads() == before
    (1, True)
    """
    import numba

    saved = numba.get_num_threads()
    if jobs is not None:
        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))
    try:
        return work()
    finally:
        numba.set_num_threads(saved)


def int_list_option(name: str):
    """An argparse ``type`` reading a comma list of ints (``1,2,3``) for option ``name``."""

    def convert(text: str) -> list[int]:
        try:
            return list(parse_value(name, text, tuple[int, ...]))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = "comma list of ints"
    return convert


def parse_spec_options(spec: str, allowed: dict[str, object], what: str = "agent") -> dict:
    """The ``KEY=VALUE,...`` options after the colon of ``kind:KEY=VALUE,...``, typed by
    ``allowed`` (option name to type); ``what`` names the thing in the messages.

    Examples
    --------
    >>> parse_spec_options("ismcts:iterations=50,depth=3", {"iterations": int, "depth": int})
    {'iterations': 50, 'depth': 3}
    >>> parse_spec_options("ismcts:speed=3", {"iterations": int})
    Traceback (most recent call last):
    ...
    ValueError: agent 'ismcts:speed=3': options are KEY=VALUE with KEY one of iterations
    """
    kind, _, options = spec.partition(":")
    kwargs = {}
    for item in filter(None, options.split(",")):
        if not allowed:
            raise ValueError(f"{what} {spec!r}: a {kind} {what} takes no options")
        key, sep, value = item.partition("=")
        if not sep or key not in allowed:
            raise ValueError(
                f"{what} {spec!r}: options are KEY=VALUE with KEY one of {', '.join(allowed)}"
            )
        kwargs[key] = parse_value(f"{what} {key}", value, allowed[key])
    return kwargs


def run_command(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse ``argv``, run the subcommand's ``run(args)`` and :func:`finish` with its frame:
    the body of every game's ``main`` (which :func:`one_line_errors` wraps)."""
    args = parser.parse_args(argv)
    return finish(args, args.run(args))


def sweep_grid(args: argparse.Namespace, rules, base: dict) -> dict[str, list]:
    """The ``--grid`` of a sweep, checked against ``base`` (the knobs given as options):
    a knob may be one or the other, not both."""
    grid = parse_grid(args.grid, rules)
    both = sorted(set(grid) & set(base))
    if both:
        raise UsageError(f"knob {both[0]!r} is both an option and in --grid")
    return grid


def add_sweep_options(parser: argparse.ArgumentParser, analyses, example: str) -> None:
    """A ``sweep`` subcommand's options: ``--analysis`` (one of ``analyses``, the first
    by default), ``--grid`` (``example`` shows it), ``--store DIR`` (resume a sweep) and
    ``--dask ADDRESS`` (run it on a cluster)."""
    parser.add_argument(
        "--analysis",
        choices=analyses,
        default=analyses[0],
        help=f"the analysis run for each variant (default: {analyses[0]})",
    )
    parser.add_argument(
        "--grid",
        nargs="+",
        required=True,
        metavar="KNOB=V1,V2",
        help=f"knob values to combine, e.g. {example}",
    )
    parser.add_argument(
        "--store",
        default=None,
        metavar="DIR",
        help="keep finished variants in DIR; a rerun resumes (needs --seed)",
    )
    parser.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run on the dask scheduler at ADDRESS instead of local processes",
    )


def run_sweep(args: argparse.Namespace, game: str, analysis, grid, fixed) -> pd.DataFrame:
    """Run a ``sweep`` subcommand: ``analysis`` over ``grid`` with the common options.

    Uses ``args.seed``, ``args.jobs``, ``args.store``, ``args.dask`` and
    ``args.analysis`` (the analysis' name, which keys the store with ``game`` and the
    installed version, so stored results are trusted only by the code that computed
    them). Failed variants do not stop the others: their one-line errors are left in
    ``args.problem`` for :func:`finish`, which prints the rows kept and then fails.
    """
    from importlib.metadata import version

    from tabletop.sweep import sweep

    if args.store is not None and args.seed is None:
        raise UsageError("--store needs --seed, so that a rerun finds the same tasks")
    name = f"{game}.{args.analysis}@{version('tabletop-odds')}"
    options = {"fixed": fixed, "seed": args.seed, "store": args.store, "name": name}
    if args.dask:
        from distributed import Client

        with Client(args.dask) as client:
            result = sweep(analysis, grid, executor=client, **options)
    else:
        result = sweep(analysis, grid, jobs=args.jobs, **options)
    if not result.ok:
        try:
            result.check()
        except RuntimeError as exc:
            args.problem = str(exc)
    return result.frame


def add_report_command(commands, title: str, pattern: str, game: str | None = None,
                       rules=None, knobs=None, extra=None, exclude=()):  # fmt: skip
    """The ``report`` subcommand: run the notebooks matching ``pattern`` (in
    ``notebooks/``) at ``--size`` into ``--report-dir``, then rebuild the index.

    With ``rules`` (the game's rules class) the subcommand takes every knob as an
    option (``knobs(args)`` reads them, default :func:`rules_kwargs`; ``extra(sub)``
    adds options of its own): knobs that differ from the seed's make a *variant*
    report, written to ``reports/variants/<game>-<slug>/``
    (:func:`tabletop.report.variant_dir`) with the variant's balance card beside the
    seed's (``card.md``, :func:`tabletop.balance.compare_rules`); the seed-rule
    reports are left as they are.
    """
    from tabletop.report import SIZES

    sub = commands.add_parser(
        "report",
        help="run the notebooks and write the reports",
        description=f"run the {title} notebooks, then the index",
    )
    add_common_options(sub, seed=False, jobs=False)
    if rules is not None:
        add_rules_options(sub, rules, exclude=exclude)
        if extra is not None:
            extra(sub)
    sub.add_argument(
        "--size", choices=SIZES, default="full",
        help="problem sizes: small (seconds), full (`make report`), extended "
             "(`make report-extended`, the long solves too); default: full",
    )  # fmt: skip
    sub.add_argument(
        "--report-dir", default=None, metavar="DIR",
        help="where the reports go (default: reports/, or reports/variants/<slug>/ for a variant)",
    )  # fmt: skip
    sub.set_defaults(run=functools.partial(_run_reports, title=title, pattern=pattern,
                                           game=game, rules=rules, knobs=knobs or rules_kwargs))
    return sub


def _run_reports(args: argparse.Namespace, title: str, pattern: str, game=None, rules=None,
                 knobs=rules_kwargs) -> pd.DataFrame:  # fmt: skip
    import time
    from pathlib import Path

    from tabletop.index import write_index
    from tabletop.notebooks import NOTEBOOK_DIR, failure_line, run_notebook
    from tabletop.report import changed_knobs, report_dir, variant_dir

    variant = changed_knobs(rules(**knobs(args))) if rules is not None else {}
    paths = sorted(Path(NOTEBOOK_DIR).glob(pattern))
    if not paths:
        raise CommandError(f"no {title} notebooks in {NOTEBOOK_DIR}")
    if args.report_dir:
        folder = Path(args.report_dir)
    else:
        folder = variant_dir(game, variant) if variant else report_dir()
    _make_folder(folder, "reports")  # before any notebook runs
    rows = []
    for path in paths:
        start = time.perf_counter()
        options = {"rules": variant} if variant else {}
        try:
            run_notebook(path, size=args.size, report_directory=folder, **options)
        except Exception as exc:  # a failed cell: its last line says why
            raise CommandError(f"{path.name} failed: {failure_line(exc)}") from exc
        rows.append({"notebook": path.name, "seconds": round(time.perf_counter() - start, 1)})
    if variant:
        from tabletop import balance
        from tabletop.files import atomic_write_text
        from tabletop.games import get

        start = time.perf_counter()
        res = balance.compare_rules(game, variant, seed=0, cache=True)
        atomic_write_text(folder / "card.md", res.markdown(f"{get(game).title}: balance card"))
        rows.append({"notebook": "balance card", "seconds": round(time.perf_counter() - start, 1)})
    # the seed-rule reports' index opens with the seed rules' balance table (cards cached)
    write_index(folder, balance=not variant and not args.report_dir)
    return pd.DataFrame(rows).set_index("notebook")


def finish(args: argparse.Namespace, frame: pd.DataFrame) -> int:
    """Print a subcommand's result in ``args.format``; then, if the subcommand left a
    ``problem`` (failed sweep variants, illegal decks...), fail with it."""
    problem = getattr(args, "problem", None)
    if not (problem and frame.empty):
        write_frame(frame, args.format)
    after = getattr(args, "after", None)
    if after:  # a paragraph after the table (compare's verdict)
        print(after)
    if problem:
        raise CommandError(problem)
    return 0


# ---- the balance card: ``balance`` and ``compare`` subcommands -------------------------

CARD_FORMATS = (*FORMATS, "md")
_CARD_SKIP = ("seed", "progress")  # balance() arguments that are not card options


def card_options(balance) -> list[tuple[str, type, object]]:
    """``(name, type, default)`` of the keyword options of a game's ``balance`` (its
    sizes and grids), read from its signature; ``None`` defaults are strings."""
    out = []
    for p in inspect.signature(balance).parameters.values():
        if p.kind is not p.KEYWORD_ONLY or p.name in _CARD_SKIP:
            continue
        kind = type(p.default) if p.default is not None else str
        out.append((p.name, kind, p.default))
    return out


def _add_card_options(parser, balance) -> None:
    group = parser.add_argument_group("card", "sizes and grids of the card's computations")
    docs = _field_docs(balance)  # the numpydoc Parameters of balance()
    for name, kind, default in card_options(balance):
        flag = "--" + name.replace("_", "-")
        text = docs.get(name, name.replace("_", " ")).replace("``", "").replace("%", "%%")
        text = f"{text} (default: {default})" if "default" not in text else text
        if kind is bool:
            group.add_argument(flag, dest="card_" + name, action=_Switch, default=default,
                               help=text)  # fmt: skip
        else:
            conv = _positive_int if kind is int else kind
            group.add_argument(flag, dest="card_" + name, type=conv, default=default,
                               metavar=kind.__name__.upper(), help=text)  # fmt: skip


def _card_kwargs(args) -> dict:
    return {k[len("card_"):]: v for k, v in vars(args).items() if k.startswith("card_")}


def parse_knobs(specs, cls, parse=None) -> dict:
    """``["min_bid=10", ...]`` (``--baseline``) as ``{"min_bid": 10}``, typed by ``cls``'s
    fields; ``parse(name, text)`` may parse some knobs itself (returning ``NotImplemented``
    for the others).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     n_dice: int = 5
    >>> parse_knobs(["n-dice=4"], Rules)
    {'n_dice': 4}
    >>> parse_knobs(["dice=4"], Rules)
    Traceback (most recent call last):
    ...
    tabletop.cli.UsageError: --baseline: unknown knob 'dice'; knobs are n_dice
    """
    types_ = {name: hint for name, hint, _ in rule_fields(cls)}
    out = {}
    for spec in specs or ():
        name, sep, text = spec.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not text.strip():
            raise UsageError(f"--baseline: expected KNOB=VALUE, got {spec!r}")
        if name not in types_:
            raise UsageError(f"--baseline: unknown knob {name!r}; knobs are {', '.join(types_)}")
        if name in out:
            raise UsageError(f"--baseline: knob {name!r} is given twice")
        value = parse(name, text) if parse is not None else NotImplemented
        out[name] = parse_value(name, text, types_[name]) if value is NotImplemented else value
    return out


def add_balance_commands(commands, game: str, rules, knobs=None, parse=None,
                         extra=None, exclude=()):  # fmt: skip
    """The ``balance`` and ``compare`` subcommands of ``game`` (an entry of
    :mod:`tabletop.games`).

    * ``balance``: the card of the rules given as options (:mod:`tabletop.balance`);
    * ``compare``: the card of the rules given beside the seed's rules (or the
      ``--baseline KNOB=V`` ones, repeatable), the difference of every metric with
      its 95 % interval, a ``*`` where it is significant, and the verdict paragraph
      (after the table; ``--format md`` writes a self-contained Markdown card to
      ``--output``).

    Both take the card's options (read from the game's ``balance`` signature:
    ``--n-games``...), ``--seed`` (default 0) and ``--no-cache`` (cards are kept in
    :func:`tabletop.balance.card_cache_dir`, keyed by everything they depend on).
    ``knobs(args)`` reads the rule knobs (default :func:`rules_kwargs`), ``parse``
    parses ``--baseline`` values of knobs with no plain option form, and
    ``extra(sub)`` adds such options to both subcommands.
    """
    from tabletop.games import get

    entry = get(game)
    balance = entry.balance
    knobs = knobs or rules_kwargs
    subs = []
    for name, help_ in (
        ("balance", "the balance card: one row per metric, with its 95% interval"),
        ("compare", "the balance card of a variant beside the seed's rules, with the "
                    "differences, their significance and a verdict"),
    ):  # fmt: skip
        # argparse expands "%" in a help string (not in a description): "95%" is "95%%"
        sub = commands.add_parser(name, help=help_.replace("%", "%%"), description=help_)
        add_rules_options(sub, rules, exclude=exclude)
        if extra is not None:
            extra(sub)
        _add_card_options(sub, balance)
        group = sub.add_argument_group("run")
        group.add_argument("--seed", type=_nonnegative_int, default=0,
                           help="root seed of the random streams (default: 0)")  # fmt: skip
        group.add_argument("--no-cache", dest="cache", action="store_false",
                           help="recompute cards even when a stored one matches")  # fmt: skip
        formats = CARD_FORMATS if name == "compare" else FORMATS
        group.add_argument("--format", choices=formats, default="table",
                           help="output format (default: table)")  # fmt: skip
        if name == "compare":
            sub.add_argument("--baseline", action="append", default=[], metavar="KNOB=V",
                             help="a knob of the baseline rules (repeatable; default: the "
                                  "seed's rules)")  # fmt: skip
            sub.add_argument("--output", default=None, metavar="FILE",
                             help=f"where --format md writes (default: {game}-compare.md)")
        sub.set_defaults(run=functools.partial(_run_card, game=game, rules=rules, knobs=knobs,
                                               parse=parse, command=name))  # fmt: skip
        subs.append(sub)
    return subs


#: A card whose exact solves are expected to take at least this many seconds says so on
#: stderr before it starts (whether or not stderr is a terminal).
ANNOUNCE_SECONDS = 10.0


def announce_card(game: str, command: str, rules_list, options: dict) -> float:
    """Print ``<game> <command>: about <time> ...`` on stderr when the exact solves of the
    cards of ``rules_list`` are expected to take at least :data:`ANNOUNCE_SECONDS`, from
    the game's own ``card_seconds`` (beside its ``balance``); return the estimate.

    A card already in the cache takes less: the line says "unless cached".
    """
    import sys

    from tabletop.budget import duration
    from tabletop.games import get

    seconds_of = getattr(get(game).analyses_module(), "card_seconds", None)
    if seconds_of is None:
        return 0.0
    seconds = float(sum(seconds_of(r, **options) for r in rules_list))
    if seconds >= ANNOUNCE_SECONDS:
        print(f"python -m {game} {command}: about {duration(seconds)} for the card's exact "
              "solves unless cached (Ctrl-C stops it)", file=sys.stderr, flush=True)  # fmt: skip
    return seconds


def _make_folder(folder, label: str, error=CommandError):
    """Create ``folder`` (and its parents) before any work, or raise ``error`` naming
    ``label`` and the reason: a folder that cannot be written fails here, not after."""
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(f"{label}: cannot create the folder {str(folder)!r} "
                    f"({exc.strerror or exc})") from None
    if not os.access(folder, os.W_OK):
        raise error(f"{label}: the folder {str(folder)!r} cannot be written")


def _run_card(args, game: str, rules, knobs, parse, command: str):
    from tabletop import balance as card

    options = _card_kwargs(args)
    variant = knobs(args)
    if command == "balance":
        announce_card(game, command, [rules(**variant)], options)
        return card.cached_balance(game, rules(**variant), seed=args.seed, cache=args.cache,
                                   **options)  # fmt: skip
    baseline = parse_knobs(args.baseline, rules, parse)
    if args.format == "md":
        from pathlib import Path

        output = args.output or f"{game}-compare.md"
        _make_folder(Path(output).parent, f"--output {output}", UsageError)
    announce_card(game, command, [rules(**variant), rules(**baseline)], options)
    res = card.compare_rules(game, variant, baseline, seed=args.seed, cache=args.cache,
                             **options)  # fmt: skip
    if args.format == "md":
        from pathlib import Path

        from tabletop.files import atomic_write_text
        from tabletop.games import get

        path = Path(args.output or f"{game}-compare.md")
        atomic_write_text(path, res.markdown(get(game).title))
        args.format = "table"
        return pd.DataFrame({"wrote": [str(path)]})
    if args.format == "table":
        import textwrap

        args.after = "\n" + textwrap.fill(res.verdict, 100)
        return card.compare_text(res.table)
    return res.table
